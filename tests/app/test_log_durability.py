"""The ``--log`` file survives a power cut at the end of a game: what a power cut loses is
what was never fsynced, which a SIGKILL (test_power_cut) cannot show, so the syscalls are
recorded at the OS edge (tests.test_files.OsEdge) and their order checked."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion.app.commands.play.saves import load_game
from companion.app.commands.play.sim_sources import AutoChoices, SimTiles
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.host import Session
from companion.app.session.log import GameLog
from companion.app.session.save import SaveGame
from companion.systems.jongrogue.autoplay import HeadlessPlayer, find_strategy, play
from companion.systems.jongrogue.game import Game
from tests.os_edge_helpers import OsEdge

SEED = 2  # a short headless game (as in test_session)


def headless_session(save_path: Path, log_path: Path) -> Session:
    """A new headless game of seed SEED, saved to ``save_path`` and logged to ``log_path``."""
    save = SaveGame(seed=SEED, preset="plus", strategy="cautious")
    player = HeadlessPlayer(SEED, "cautious")
    log = GameLog.begin(log_path)
    save.log_start = log.start
    game = Game(save.preset)
    session = Session(JongRogueMode(game, player), tiles=SimTiles(game, player),
                      choices=AutoChoices(game, find_strategy("cautious")), save=save,
                      save_path=save_path, log=log)
    session.start_log()
    return session


def test_the_finished_game_s_last_log_lines_are_fsynced_before_the_finished_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A finished save is never resumed, so nothing would rewrite a log that lost its last
    lines: the last step's lines are written, then the log is fsynced, and only then is
    the finished save put in place (replace, then its folder fsynced)."""
    save_path, log_path = tmp_path / "s.json", tmp_path / "log.jsonl"
    edge = OsEdge(monkeypatch)
    headless_session(save_path, log_path).run()
    monkeypatch.undo()

    whole = log_path.read_bytes()
    assert whole.decode("utf-8").splitlines() == [
        json.dumps(e.to_json(), ensure_ascii=False, sort_keys=True) for e in play(SEED).events]
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
