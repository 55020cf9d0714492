"""The ``--log`` file survives a power cut at the end of a game: what a power cut loses is
what was never fsynced, which a SIGKILL (test_power_cut) cannot show, so the syscalls are
recorded at the OS edge (tests.test_files.OsEdge) and their order checked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.app.commands.play.saves import load_game
from companion.app.session.save import SaveGame
from companion.systems.jongrogue.autoplay import play
from tests.app.test_session import SEED, StopAfter, json_lines, sim_session
from tests.test_files import OsEdge


def test_the_finished_game_s_last_log_lines_are_fsynced_before_the_finished_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A finished save is never resumed, so nothing would rewrite a log that lost its last
    lines: the last step's lines are written, then the log is fsynced, and only then is
    the finished save put in place (replace, then its folder fsynced)."""
    save_path, log_path = tmp_path / "s.json", tmp_path / "log.jsonl"
    edge = OsEdge(monkeypatch)
    session = sim_session(SaveGame(seed=SEED, preset="plus", strategy="cautious"), save_path,
                          log_path, StopAfter(None))
    session.run()
    monkeypatch.undo()

    whole = log_path.read_bytes()
    assert whole.decode("utf-8").splitlines() == json_lines(play(SEED).events)
    saved = load_game(save_path)
    assert saved is not None and saved.finished

    log, save, folder = (os.path.realpath(p) for p in (log_path, save_path, tmp_path))
    calls = edge.calls
    log_syncs = [i for i, (call, where, _) in enumerate(calls)
                 if call == "fsync" and where == log]
    save_replaces = [i for i, (call, where, _) in enumerate(calls)
                     if call == "replace" and where == save]
    assert log_syncs and save_replaces
    last_sync, finished_save = log_syncs[-1], save_replaces[-1]
    # write → fsync: the log held every line of the game when it was synced
    assert calls[last_sync][2] == whole
    # fsync(log) → replace(finished save) → fsync(the save's folder)
    assert last_sync < finished_save
    assert calls[finished_save + 1] == ("fsync", folder, None)
    assert all(where != log for _, where, _ in calls[last_sync + 1:])  # nothing logged after
