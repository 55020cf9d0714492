"""rules72 NIT 5: a run that ended with no tile left in the wall (山牌切れ,
Termination.WALL_EXHAUSTED) is no death, its PC perhaps at full HP: ``companion history``
and the headless game's last lines say it ended, not that it died. Only a profile under
which the PC holds almost every tile reaches it (every tile an item, every item a ring, no
stairs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import History, Run

ALL_RINGS = """[roles]
m = "item"
p = "item"
s = "item"
z = "item"
stairs = []
""" + "".join(f'[items.{rank}]\nkind = "ring"\nring = "stealth"\n' for rank in range(1, 6))


def test_a_run_the_empty_wall_ended_is_listed_as_ended_not_died(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # the table's cells whole
    profile = tmp_path / "allrings.toml"
    profile.write_text(ALL_RINGS, encoding="utf-8")
    assert main(["play", "--headless", "--seed", "1", "--preset", "ez",
                 "--profile", str(profile), "--state", str(tmp_path / "save.json")]) == 0
    played = capsys.readouterr().out
    assert "\nResult: ended on floor 4, the wall ran out of tiles (山牌切れ)\n" in played
    assert "Result: died" not in played
    [run] = History().runs()
    assert not run.won
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "ended 終了: the wall ran out of tiles (山牌切れ)" in out
    assert "Ended, no death 死亡なし: the wall ran out of tiles (山牌切れ) 1" in out
    assert "died" not in out and "Causes of death" not in out


def test_a_death_is_still_listed_as_died(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    History().record(Run(game_id="g", finished_at="2026-12-07T08:00:00Z", seed=1,
                         preset="ez", won=False, floor=3, level=2, gold=10,
                         cause="大蛇 (snake)", events=9, input_kind="sim"))
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "died: 大蛇 (snake)" in out and "Causes of death: 大蛇 (snake) 1" in out
    assert "ended" not in out.lower()
