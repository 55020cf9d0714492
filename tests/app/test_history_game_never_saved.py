"""reviews71 NIT 2: a game the history holds, none of whose saves reached the disk, says no
save of it was written, as one out of the history does (setup71 DEFECT 2). It said its save
held it "up to move 0 … and the next game replaces it", of a save that did not exist."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.history import History
from companion.app.session.save import default_save_path
from tests.disk import refuse_writes


def test_a_game_in_the_history_with_no_save_written_says_so(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    state = default_save_path().parent / "mine.json"
    state.parent.mkdir(parents=True, exist_ok=True)
    with monkeypatch.context() as patch:
        refuse_writes(state, patch)  # every one; the history is written
        assert main(["play", "--input", "sim", "--choices", "auto", "--display", "none",
                     "--seed", "5", "--state", str(state)]) == 0
    assert not state.exists()
    assert [run.seed for run in History().runs()] == [5]
    assert capsys.readouterr().err.splitlines()[-1] == (
        "companion: the game is in the history (companion history); no save of it was "
        f"written to {state} (the disk refused every save)")


def test_a_game_in_the_history_whose_save_fell_behind_still_says_how_far(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The save written until the disk refused it: the move it holds to, as before."""
    state = default_save_path().parent / "mine.json"
    state.parent.mkdir(parents=True, exist_ok=True)
    with monkeypatch.context() as patch:
        refuse_writes(state, patch, failing=range(50, 100000))
        assert main(["play", "--input", "sim", "--choices", "auto", "--display", "none",
                     "--seed", "5", "--state", str(state)]) == 0
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith(f"companion: the game is in the history (companion history); its "
                           f"save {state} holds it only up to move ")
    assert last.endswith(" (the disk refused the rest), and the next game replaces it")
