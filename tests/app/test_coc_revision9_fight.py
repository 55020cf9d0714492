"""A fight file saved by engine revision 9, before CO-GRAP-2's STR roll came by itself
(revision 10): ``coc fight show``, ``log`` and ``undo`` read it exactly as it was played,
and new actions follow revision 10: the held one's turn begun by 9 takes its STR roll
when asked (review60c R1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from tests.systems.coc.revision_9_grapple_helpers import as_saved_by_revision_9, revision_9_fight


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["coc", *argv, "--json"]) == 0, capsys.readouterr().err
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_a_revision_9_file_shows_logs_and_undoes_as_played(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played = revision_9_fight()
    saved = as_saved_by_revision_9(played)
    path = user_dirs / "data" / "coc" / "fight.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(saved), encoding="utf-8")
    shown = run(capsys, "fight", "show")
    assert shown["actions"] == 4 and shown["current"] == "Ann"
    log = run(capsys, "fight", "log")
    assert [e["lines"] for e in log["journal"]] == [e["lines"] for e in saved["journal"]]
    assert all(e["engine"] == 9 for e in log["journal"])
    assert not any("STR" in line for e in log["journal"][:3] for line in e["lines"])
    undone = run(capsys, "fight", "undo")
    assert undone["actions"] == 3 and undone["current"] == "Cult"
    after = json.loads(path.read_text(encoding="utf-8"))
    assert after["journal"] == [{**e, "engine": 9} for e in saved["journal"][:3]]
    played_on = run(capsys, "fight", "act", "break_free", "Cult", "--seed", "5")  # began by 9
    assert "Ann still holds Cult (CO-GRAP-2)" in played_on["entry"]["lines"]
    assert any(line.startswith("Cult STR 13 vs 13") for line in played_on["entry"]["lines"])
    assert main(["coc", "fight", "act", "break_free", "Cult"]) == 2
    assert "came by itself at the start of its turn this round" in capsys.readouterr().err
