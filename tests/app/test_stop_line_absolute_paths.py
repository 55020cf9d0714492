"""The line every stop (Ctrl-C, the service stopped) prints gave --state and --log as typed
(a78saves item 3): `--state my.json`, run from another folder (a new SSH login, after a
reboot), found no save and began a new game, and a relative --log split the game's log."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from companion.app.commands.play.options import stop_line
from tests.app.play_state_helpers import unfinished_game


def test_the_stop_line_names_the_save_and_the_log_by_their_whole_paths(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    unfinished_game(Path("my.json"))
    args = argparse.Namespace(mode=None, headless=True, state=Path("my.json"),
                              log=Path("rel.log"), seed=None)
    line = stop_line(args, "game", Path("my.json"), KeyboardInterrupt())
    saved, log = tmp_path / "my.json", tmp_path / "rel.log"
    assert line.startswith(f"stopped; the game is saved in {saved}: ")
    assert f"--state {saved}" in line and f"--log {log}" in line
    assert " my.json" not in line and " rel.log" not in line
