"""door62b, review64j: a headless game is offered again by its seed only when the current rules
play that seed's game. Revision 8 changed an option no strategy takes (the door on the door),
but revision 9 (the route kept whole) changes a few auto-player games (review64j DEFECT 1:
ez cautious 1824, test_golden_games), and revision 10 (a flight by the door the PC came in
by, a pursued one never back to the room just fled from) changes a few more (review64j
DEFECT 2: plus cautious 628), and revision 11 (a bound PC no monster attacks is not asked
what to do) six more (rules70 DEFECT 1: plus reckless 11, this file's game, among them), so
from revision 11 a game of revision 10, 9, 8 or before is not offered again, and one of the
newest revision (``RULES_REVISION``) is; and from revision 8 the log and the screen's log
say a PC moving onto the door from the room in ranged combat (JR-RANGED-2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_command
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.save import SaveGame
from companion.systems.jongrogue.actions import input_from_notation
from companion.systems.jongrogue.game import RULES_REVISION, SAME_HEADLESS_GAMES_SINCE, Game
from tests.app.play_again_helpers import SEED, begun


def again_command() -> str:
    """The command the game's last line offers to play it again (the ``companion`` named
    is the one the test's PATH has)."""
    return f"{companion_command()} play --headless --seed {SEED} --preset plus --strategy reckless"


def _resumed(tmp_path: Path, revision: int, capsys: pytest.CaptureFixture[str],
             log: Path | None = None) -> list[str]:
    """``play --headless --resume`` of a headless game ``revision`` began: what it prints."""
    state = tmp_path / f"save{revision}.json"
    state.write_text(begun(revision).to_json(), encoding="utf-8")
    logging = ["--log", str(log)] if log is not None else []
    assert main(["play", "--headless", "--resume", "--state", str(state), *logging]) == 0
    return capsys.readouterr().out.splitlines()


def test_the_constant_is_revision_11() -> None:
    """Revisions 9 (jr64: the route kept whole), 10 (review64j: the door came in by, no
    flight back through the pursuers) and 11 (rules70: a bound PC no monster attacks is not
    asked) changed games the auto-player plays; revisions 8, 12 (rules72: items told
    apart by kind, the packaged profile's one of each) and 13 (r76jr: a clamped gold loss's
    ``asked``, a breather that is the room's and a pursuer breathing once) did not
    (test_golden_games)."""
    assert (SAME_HEADLESS_GAMES_SINCE, RULES_REVISION) == (11, 13)


def test_a_resumed_newest_revision_game_is_offered_again_by_its_seed_and_that_is_the_same_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game of the newest revision (``RULES_REVISION``; revision 10 is among the older
    ones below) is offered again by its seed: its auto-player games are the current ones."""
    out = _resumed(tmp_path, RULES_REVISION, capsys)
    assert out[-1].endswith(f"; this game again: {again_command()}")
    assert "cannot be played again" not in out[-1]
    # The command offered plays the same game: the same end, inputs and events, and the same
    # journal as the save's.
    state = tmp_path / "again.json"
    assert main([*again_command().split()[1:], "--state", str(state)]) == 0
    again = capsys.readouterr().out.splitlines()
    assert again[-3:-1] == out[-3:-1] and "inputs" in out[-2] and "events;" in out[-2]
    kept = SaveGame.from_json(
        (tmp_path / f"save{RULES_REVISION}.json").read_text(encoding="utf-8"))
    played = SaveGame.from_json(state.read_text(encoding="utf-8"))
    assert (kept.rules, played.rules) == (RULES_REVISION, RULES_REVISION)
    assert played.inputs == kept.inputs and played.events == kept.events


@pytest.mark.parametrize("revision", [10, 9, 8, 7, 6])
def test_a_resumed_older_game_is_not_offered_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], revision: int) -> None:
    """Revision 8 and 7 too (review64j DEFECT 1: a revision-8 save of plus cautious 628,
    resumed, offered `--seed 628`, which plays another game by revision 9); and revision 9
    (review64j DEFECT 2: plus cautious 628 plays another game by revision 10); and revision
    10 (rules70 DEFECT 1: plus reckless 11, the game played here, plays another game by
    revision 11, its bound PC no longer asked what to do with its binder dead)."""
    last = _resumed(tmp_path, revision, capsys)[-1]
    assert "--seed" not in last and last.endswith(
        f"this game, of rules revision {revision}, cannot be played again from its seed: a new "
        f"game plays revision {RULES_REVISION}, another game")


def _cut_log(tmp_path: Path, revision: int, capsys: pytest.CaptureFixture[str]) -> Path:
    """The log of a headless game ``revision`` began and played, cut after 40 events (a power
    cut), its save gone: replay finds no save that holds it, and the history holds the game
    as over (it was played to its end), so no resume is offered."""
    log = tmp_path / f"log{revision}.jsonl"
    _resumed(tmp_path, revision, capsys, log)
    lines = log.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["rules"] == revision
    log.write_text("\n".join(lines[:41]) + "\n", encoding="utf-8")
    return log


def test_replay_of_a_cut_newest_revision_log_offers_its_seed_which_plays_the_same_events(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A cut log of the newest revision (``RULES_REVISION``) offers its seed, which plays
    its events again."""
    log = _cut_log(tmp_path, RULES_REVISION, capsys)
    assert main(["replay", str(log)]) == 0
    said = capsys.readouterr().out
    assert said.endswith("this log stops before its end (cut short, or the game played on "
                         f"without it); `{again_command()}` plays it again from the start\n")
    again = tmp_path / "again.jsonl"
    assert main([*again_command().split()[1:], "--log", str(again)]) == 0
    assert again.read_text(encoding="utf-8").splitlines()[1:41] == \
        log.read_text(encoding="utf-8").splitlines()[1:]


@pytest.mark.parametrize("revision", [10, 9, 8, 7, 6])
def test_replay_of_a_cut_older_log_does_not_offer_its_seed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], revision: int) -> None:
    log = _cut_log(tmp_path, revision, capsys)
    assert main(["replay", str(log)]) == 0
    said = capsys.readouterr().out
    assert "--seed" not in said and said.endswith("(cut short, or the game played on without "
                                                  "it)\n")


def test_the_screens_log_and_the_game_log_say_the_move_onto_the_door_from_the_room() -> None:
    """Plus, start room 5: a snake asleep, woken by the PC stepping in, shot at from the room;
    "To the door ドアへ" moves the PC back onto the door, which the screen's log and the JSON
    Lines log say, as they say the PC's arrival at a door."""
    mode = JongRogueMode(Game("plus"))
    mode.game.pc.hp = mode.game.pc.max_hp = 200
    for token in "5m 1z 1m 2z 3z enter shoot:1 3m 2m 4m".split():
        mode.push(input_from_notation(token))
    events = mode.push(input_from_notation("door"))
    assert mode.view("").log[-2:] == ("The PC is on the door of room 5 (部屋5のドア)",
                                      "  Ranged combat ends (遠隔戦闘終了)")
    assert mode.log_lines(events) == ['{"kind": "move", "position": "door", "room": 5}',
                                      '{"action": "end", "kind": "ranged"}']
