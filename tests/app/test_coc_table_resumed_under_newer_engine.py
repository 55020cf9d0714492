"""A coc table resumed under a newer engine revision says which revision it plays by.

review59c R5 (coc at the table): a table resumed after the engine's revision went up plays
on by the one it began the fight by (review59a R1), and now says so once, on stderr and in
its status line, naming the revision a new fight (or the command line) plays by."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.systems.coc.combat import ENGINE
from tests.app.coc_table_helpers import CHOICES, fight_file, play


def test_a_table_resumed_under_a_newer_engine_says_which_it_plays_by(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    with monkeypatch.context() as old:
        old.setattr("companion.systems.coc.combat.fight.ENGINE", ENGINE - 1)
        fight_file(tmp_path, "003")
        play(tmp_path, CHOICES[:4])
    capsys.readouterr()
    resumed = play(tmp_path, [], resume=True)
    said = (f"this fight plays on by engine revision {ENGINE - 1}, as the table began it; a "
            f"new fight (or `companion coc fight`) plays by {ENGINE}")
    assert said in capsys.readouterr().err
    status = resumed.view("").status
    assert said in status and f"改訂{ENGINE - 1}" in status, status
    again = play(tmp_path, CHOICES[4:6], resume=True)
    assert again.resumed == "" and again.view("").status == ""  # until the next answer


def test_a_table_resumed_under_its_own_engine_says_nothing_of_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fight_file(tmp_path, "003")
    play(tmp_path, CHOICES[:4])
    capsys.readouterr()
    resumed = play(tmp_path, [], resume=True)
    assert "engine revision" not in capsys.readouterr().err
    assert resumed.resumed == ""
