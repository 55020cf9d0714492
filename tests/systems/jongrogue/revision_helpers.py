"""Games and logs read by another rules revision, for the revision tests: a save resumed by
the revision that played it, where a log differs read by a newer revision, and the Plus walk
of a PC chased by pursuers (CHASED)."""

from __future__ import annotations

from pathlib import Path

from companion.app.commands.play import resumed_mode
from companion.app.commands.replay import Replayed, read_log, replay_game
from companion.app.config import load_config
from companion.app.session.save import SaveGame
from companion.systems.jongrogue.actions import input_from_notation
from companion.systems.jongrogue.game import RULES_REVISION, Game


def resumed_by_its_revision(inputs: list[str], rules: int) -> Game:
    """An EZ game of ``inputs`` played by revision ``rules``, saved and resumed at the
    table: the game resumed, checked to be that revision's, every event as played."""
    played = Game.replay([input_from_notation(i) for i in inputs], "ez", revision=rules)
    save = SaveGame(seed=1, preset="ez", input_kind="camera", inputs=inputs,
                    events=len(played.events), rules=rules)
    game = resumed_mode(save, "camera", load_config()).game
    assert game.revision == rules
    assert [e.to_json() for e in game.events] == [e.to_json() for e in played.events]
    return game


def difference_by_the_newest(path: Path, revision: int, newer: int = RULES_REVISION) -> str:
    """Where the log at ``path``, written by ``revision``, differs read by the newest
    revision (or by ``newer``, where a later revision changes the game sooner); by its own
    it replays to the end, every event matching."""
    (logged,) = read_log(path)
    assert logged.header["rules"] == revision
    assert replay_game(logged) == Replayed(difference=None, finished=True)
    logged.header["rules"] = newer
    difference = replay_game(logged).difference
    assert difference is not None
    return difference


# Plus, floor 1: start room 5 empty; room 2 holds a 熟睡 bat (大こうもり) the PC walks past;
# room 1 an awake snake (大蛇), from whose door the PC flees back to room 2's door, the
# snake following it (the pincer rule, 挟み撃ちルール).
CHASED = ("5m 2z 2z 2z 2z move:2 1z 4m 3z 3z move:1 1m 6z 6z 6z flee 9m").split()
