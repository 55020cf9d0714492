"""Rules revision 7 (audit rules61j D1): a PC that fled with monsters following it opens
no ranged combat where the flight ends (JR-RANGED-1: 「近接戦闘を始める前に 遠隔戦闘を試みる
事が出来ます」; JR-FLEE-2: the pursuers' melee has begun, and l.441 spares the PC their blows
only while it flees). Revision 6 offered it, and the pursuers held their blows through
every shot. A game saved or logged by revision 6 replays as played and plays on by it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.commands.play import resumed_mode
from companion.app.config import load_config
from companion.app.session.save import CorruptSave, SaveGame
from companion.systems.jongrogue.actions import ChoiceRequest, input_from_notation
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import RULES_REVISION, Game
from tests.systems.jongrogue.revision_helpers import CHASED, difference_by_the_newest
from tests.systems.jongrogue.script import feed, of, options

DATA = Path(__file__).parent / "data"

SHOTS = "shoot:1 9p 1p 9s".split()  # revision 6: ranged combat on the bat, a shot missed


def chased(revision: int) -> Game:
    game = Game("plus", revision=revision)
    feed(game, " ".join(CHASED))
    assert [m.monster.name_en for m in game.pursuers] == ["snake"]
    return game


def test_jr_ranged_1_no_ranged_combat_with_pursuers_on_the_pc() -> None:
    """At room 2's door with the snake at its back, the PC may fight either monster, defend
    or flee, but not shoot the bat; the snake attacks (it is the decision's attacker)."""
    game = chased(RULES_REVISION)
    assert options(game) == ["fight:1", "fight:2", "defend", "flee"]
    assert game.pending.prompt == "大蛇 snake attack! 攻撃！"
    events = feed(game, "defend 5m")
    assert [t["attackers"] for t in of(events, Kind.TURN)] == [[2]]


def test_revision_6_let_the_chased_pc_shoot_while_the_pursuer_held_its_blows() -> None:
    old = chased(6)
    assert options(old) == ["fight:1", "fight:2", "shoot:1", "defend", "flee"]
    events = feed(old, " ".join(SHOTS))
    assert of(events, Kind.TURN) == [] and options(old) == ["shoot:1", "close", "door"]


def saved(rules: int) -> SaveGame:
    inputs = [*CHASED, *SHOTS]
    played = Game.replay([input_from_notation(i) for i in inputs], "plus", revision=6)
    return SaveGame(seed=1, preset="plus", input_kind="camera", inputs=inputs,
                    events=len(played.events), rules=rules)


def test_a_revision_6_save_replays_as_played_and_plays_on_by_revision_6() -> None:
    """A save whose journal shot after the flight resumes by revision 6 at the ranged
    combat's next choice, and plays on by it; read as revision 7 it does not replay."""
    mode = resumed_mode(saved(6), "camera", load_config())
    game = mode.game
    assert game.revision == 6 and options(game) == ["shoot:1", "close", "door"]
    feed(game, "shoot:1 2p 8s")
    assert isinstance(game.pending, ChoiceRequest) and options(game)[0] == "shoot:1"
    with pytest.raises(CorruptSave, match=r"does not replay at input 18 \('shoot:1'\)"):
        resumed_mode(saved(7), "camera", load_config())


def test_a_revision_6_log_that_shot_after_a_flight_still_replays() -> None:
    """``companion play --headless --seed 893 --preset plus --log`` written by revision 6
    (plus cautious 893, a golden game kept for this rule): the log replays by its revision
    to the end; read as revision 7 it differs where the chased PC shot. (Read as revision
    11 it differs sooner, at line 983: bound with no monster attacking, the PC took the
    room's loot, where revision 11 draws its break-free check first;
    tests/app/test_jongrogue_bound_pc_and_ability_lines.py.)"""
    path = DATA / "log_rev6_pursued_ranged.jsonl"
    difference = difference_by_the_newest(path, 6, newer=7)
    assert "ranged" in difference
    line = int(difference.split(f"{path}:", 1)[1].split(":", 1)[0])
    assert json.loads(path.read_text("utf-8").splitlines()[line - 1])["kind"] == "ranged"
