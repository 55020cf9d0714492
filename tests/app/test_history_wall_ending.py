"""rules72 NIT 5: a run that ended with no tile left in the wall (山牌切れ,
Termination.WALL_EXHAUSTED) is no death, its PC perhaps at full HP: ``companion history``
and the headless game's last lines say it ended, not that it died. Only a profile under
which the PC holds almost every tile reaches it (every tile an item, every item a ring, no
stairs). reviewr72 DEFECT 3: a history written before the wording has the
termination's id, read as the same ending."""

from __future__ import annotations

import json
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


def _run(game_id: str, cause: str) -> Run:
    return Run(game_id=game_id, finished_at="2026-11-30T08:00:00Z", seed=1, preset="ez",
               won=False, floor=4, level=1, gold=0, cause=cause, events=9, input_kind="sim")


def test_a_wall_out_recorded_before_its_wording_is_listed_as_ended_too(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewr72 DEFECT 3: a history written before 5e04eb58 (2026-12-01) recorded the
    wall-out ending as the termination's id, ``wall_exhausted``; it was listed as "died:
    wall_exhausted" and counted among the causes of death, beside today's wording."""
    monkeypatch.setenv("COLUMNS", "200")
    history = History()
    history.record(_run("old", "wall_exhausted"))
    history.record(_run("new", "the wall ran out of tiles (山牌切れ)"))
    history.record(_run("dead", "大蛇 (snake)"))
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert out.count("ended 終了: the wall ran out of tiles (山牌切れ)") == 2
    assert "wall_exhausted" not in out
    assert "Causes of death: 大蛇 (snake) 1\n" in out
    assert "Ended, no death 死亡なし: the wall ran out of tiles (山牌切れ) 2\n" in out
    assert main(["history", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["totals"]["deaths_by"] == {"大蛇 (snake)": 1}
    assert data["totals"]["ended_by"] == {"the wall ran out of tiles (山牌切れ)": 2}
    assert [r["cause"] for r in data["runs"]] == ["the wall ran out of tiles (山牌切れ)"] * 2 \
        + ["大蛇 (snake)"]


def test_simulate_lists_a_wall_out_as_ended_not_among_the_causes_of_death(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """journey73 DEFECT 2: `simulate` listed the games the empty wall ended under "causes
    of death (死因)" (and in --json's deaths_by), where play and history say no death.
    Its --json parts them as history's totals do: deaths_by, ended_by."""
    profile = tmp_path / "allrings.toml"
    profile.write_text(ALL_RINGS, encoding="utf-8")
    argv = ["simulate", "--games", "3", "--seed", "1", "--preset", "ez", "--profile",
            str(profile)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert ("causes of death (死因): none (なし)\n"
            "ended, no death (死亡なし):\n"
            "        3  the wall ran out of tiles (山牌切れ)\n") in out
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["wins"], data["deaths_by"], data["ended_by"]) == (
        0, {}, {"wall_exhausted": 3})
    assert data["cause_names"] == {"wall_exhausted": "the wall ran out of tiles (山牌切れ)"}
    # and each of them is the game play --seed plays again: ended, not died
    assert main(["play", "--headless", "--seed", str(1 << 32), "--preset", "ez", "--profile",
                 str(profile)]) == 0
    assert "\nResult: ended on floor 4, the wall ran out of tiles (山牌切れ)\n" in \
        capsys.readouterr().out
