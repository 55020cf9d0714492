"""a77jrrules NIT 1: `play --resume --seed 9 --strategy reckless` said the flags were
ignored as soon as a save was found; when the save then did not replay, it was kept aside
and the new game begun in its place played every one of them. They are said ignored only
once the save has replayed (the resumed case: test_play_command's
test_resume_keeps_the_saved_seed)."""

from __future__ import annotations

import json

import pytest

from companion.app.cli import main
from companion.app.session.save import default_save_path
from tests.app.failing_replay_helpers import stopped_after


def test_flags_of_a_save_that_does_not_replay_are_not_said_ignored(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Its inputs cut short (an edit, a power cut), the save expects events its inputs no
    longer give: it is kept aside and the new game plays --seed 9 and --strategy reckless,
    as its header says."""
    stopped_after(6, monkeypatch)
    path = default_save_path()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["inputs"] = data["inputs"][:2]
    path.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["play", "--headless", "--resume", "--seed", "9",
                 "--strategy", "reckless"]) == 0
    out, err = capsys.readouterr()
    assert f"the save {path} cannot be resumed" in err and "starting a new game" in err
    assert "ignored" not in err, err
    assert "strategy reckless, seed 9" in out
