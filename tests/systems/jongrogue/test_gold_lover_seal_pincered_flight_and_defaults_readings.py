"""Review61c's findings on jr61: the EZ gold-lover keeps its 封魔 on the room panel (F1), the
readings in `rules defaults` (F2-F4), the pincered flight's revision-7 case (F7)."""

from __future__ import annotations

import json

import pytest

from companion.app.cli import main
from companion.app.modes.jongrogue import room_tiles
from companion.systems.defaults import readings_text
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import RULES_REVISION, Game
from companion.systems.jongrogue.state import PCState, Sleeping
from tests.systems.jongrogue.ability_helpers import meet
from tests.systems.jongrogue.revision_helpers import CHASED
from tests.systems.jongrogue.script import feed, of, options


def test_an_ez_gold_lover_knocked_off_its_gold_shows_sealed() -> None:
    """Seed l.242-250: 「金塊好き」 (オーク, the EZ table's l.160) has no EZプラス marker, and a
    hit takes it off the gold into 「封魔状態」 (l.249): EZ's panel says so, as Plus's does."""
    for preset in ("ez", "plus"):
        game = meet(preset, 4, "9m 5s 1z 1z")
        events = feed(game, "fight:1 9m")
        assert any(e.kind is Kind.ABILITY and e.data.get("effect") == "off the gold, sealed"
                   for e in events), preset
        orc = next(t for t in room_tiles(game) if t.meaning.en == "orc")
        assert orc.detail.endswith("sealed 封魔"), (preset, orc.detail)


def json_out(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main([*args, "--json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_rules_defaults_gives_its_readings_as_the_other_systems_do(
        capsys: pytest.CaptureFixture[str]) -> None:
    """F2: `rules defaults --json`'s fixed_readings is ``{rule: reading}`` as genso's, coc's and
    events' are (one reader for every system's), and the text closes with their heading and
    layout (companion.systems.defaults.readings_text)."""
    readings = json_out(capsys, "rules", "defaults")["fixed_readings"]
    assert isinstance(readings, dict)
    for system in ("genso", "coc", "events"):
        assert isinstance(json_out(capsys, system, "defaults")["fixed_readings"], dict), system
    assert main(["rules", "defaults"]) == 0
    out = capsys.readouterr().out
    width = max(map(len, readings)) + 1
    assert out.endswith(readings_text(readings, width) + "\n")


def chased(revision: int) -> Game:
    """test_ranged_combat_refused_with_pursuers's flight from room 1's door to room 2's, the
    snake following."""
    game = Game("plus", revision=revision)
    feed(game, " ".join(CHASED[:-2]))
    return game


def test_a_pincered_flight_opens_no_ranged_combat_on_the_front_monster() -> None:
    """F7 (rules61j D1's pincer): the bat of room 2 awake when the flight ends at its door,
    the snake at the PC's back (挟み撃ち): revision 6 let the PC shoot the bat, revision 7
    does not, the snake's melee having begun; fighting either and defending stay."""
    offered = {}
    for revision in (6, RULES_REVISION):
        game = chased(revision)
        game.monster(1).sleep = Sleeping.AWAKE  # as if woken while the PC was in room 1
        events = feed(game, "flee 9m")
        assert of(events, Kind.STATE)[-1]["pincer"] and game.pincered()
        offered[revision] = options(game)
    assert offered[6] == ["fight:1", "fight:2", "shoot:1", "defend"]
    assert offered[RULES_REVISION] == ["fight:1", "fight:2", "defend"]


def test_readying_a_ranged_weapon_is_offered_only_outside_melee() -> None:
    """The JR-RANGED-2 (ready) reading: with shuriken and arrows, 'ready:bow' is offered
    before melee and with no monster attacking, not in melee (seed l.345 lists 装備する
    there), and from revision 7 not at the door a pursued flight ends at."""
    game = Game("plus")
    game.pc.shuriken = 3
    feed(game, "5m 2z 2z 2z 2z")
    assert "ready:bow" in options(game)  # What next? どうする？
    feed(game, "move:2 1z 4m 3z 3z move:1 1m 6z 6z 6z")
    assert "ready:bow" in options(game)  # the snake met: melee not begun
    feed(game, "fight:2 1m")  # a miss, the snake's blow
    assert game.melee_started and "ready:bow" not in options(game)
    after_flight = {}
    for revision in (6, RULES_REVISION):
        game = chased(revision)
        game.pc.shuriken = 3
        feed(game, "flee 9m")
        after_flight[revision] = "ready:bow" in options(game)
    assert after_flight == {6: True, RULES_REVISION: False}


def test_a_freeze_from_the_flee_turn_s_defence_does_not_stop_the_flight() -> None:
    """The JR-FLEE-1 (turn) reading: the defence is rolled in the room, the ice monster's
    hit freezes the PC (凍結), and the PC still reaches room 5's door, frozen; a PC bound
    (拘束) when it chooses is offered no flight (JR-PC-3)."""
    game = Game("plus")
    game.floor = 4
    game.pc.hp = game.pc.max_hp = 200
    feed(game, "5m 1z 2z 3z 4z move:2 7m 1z 2z 3z fight:1 1m 9m")
    assert "flee" in options(game)
    events = feed(game, "flee 1m 1m 9m")  # defence failed, freeze not resisted, cold survived
    turn = of(events, Kind.TURN)[0]
    assert turn["room"] == 2 and turn["position"] == "room"
    assert PCState.FROZEN in game.pc.states
    assert (game.room_no, game.position.value) == (5, "door")
    bound = Game("plus")
    bound.floor = 4
    bound.pc.hp = bound.pc.max_hp = 200
    feed(bound, "5m 1z 2z 3z 4z move:2 7m 1z 2z 3z fight:1 1m")
    bound.pc.states.add(PCState.BOUND)  # as a flytrap's hold leaves it (JR-AB-HOLD)
    events = feed(bound, "9m 1m")  # the freeze resisted; the next turn's break-free fails
    assert of(events, Kind.CHECK)[-1]["what"] == "break free (拘束)"
    assert options(bound) == ["fight:1", "defend"]
