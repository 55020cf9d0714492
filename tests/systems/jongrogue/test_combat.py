"""Combat: JR-MELEE-*, JR-RATE-1, JR-DMG-1, JR-XP-1, JR-MULTI-1, JR-RANGED-*, JR-FLEE-*,
JR-STATE-1/2, worked by hand tile by tile."""

from __future__ import annotations

import dataclasses

import pytest

from companion.systems.jongrogue.checks import damage
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import RULES_REVISION, Game
from companion.systems.jongrogue.state import Position
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place
from tests.systems.jongrogue.script import feed, of, options


def tough(game: Game, hp: int = 200) -> Game:
    game.pc.hp = game.pc.max_hp = hp
    return game


def test_jr_melee_2_failure_hurts_success_defeats() -> None:
    """JR-MELEE-2, JR-RATE-1, JR-DMG-1, JR-XP-1: a snake fought from the door, by hand.

    rate = 6 attack − 1 level − 2 weapon = 3. Draw 2m: 2 < 3, the snake hits for
    4 − 3 armour = 1. Draw 3m: 3 ≥ 3, it is defeated: +2 XP, its tile discarded.
    """
    game = Game("ez")
    feed(game, "5m 1m 1z 2z 3z")
    assert "fight:1" in options(game)
    events = feed(game, "fight:1 2m")
    check = of(events, Kind.CHECK)[0]
    assert (check["target"], check["terms"]) == (3, [["attack", 6], ["level", -1], ["weapon", -2]])
    assert not check["success"]
    assert of(events, Kind.DAMAGE)[0] | {} == {
        "uid": 1, "monster": "S", "table": 4, "rolls": [], "defence": 3, "amount": 1, "hp": 11,
        "breath": False,
    }
    events = feed(game, "fight:1 3m")
    assert of(events, Kind.DEFEAT)[0] == {"uid": 1, "monster": "S", "xp": 2, "total": 2}
    assert game.ledger.count(Tile.from_notation("1m"), Place.TABLE) == 0
    assert game.ledger.count(Tile.from_notation("1m"), Place.DISCARDS) == 1


def test_jr_rate_1_strength_term_in_plus() -> None:
    """JR-RATE-1 (Plus: strength): rate = attack − level − strength − weapon, clamped 1..9."""
    game = Game("plus")
    game.pc.strength = -2
    feed(game, "5m 1m 1z 2z 3z")
    check = of(feed(game, "fight:1 9m"), Kind.CHECK)[0]
    assert check["terms"] == [["attack", 6], ["level", -1], ["strength", 2], ["weapon", -2]]
    assert check["target"] == 5


def test_jr_dmg_1_table_zero_means_no_damage() -> None:
    """JR-DMG-1: at least 1, but 0 when the table's damage is 0 (the leprechaun)."""
    game = tough(Game("ez"))
    game.floor = 6
    feed(game, "5m 2m 1z 2z 3z")  # floor 6, rank 2: leprechaun (damage 0)
    events = feed(game, "fight:1 1m")
    assert of(events, Kind.DAMAGE)[0]["amount"] == 0


@pytest.mark.parametrize(
    ("table", "defence", "amount"),
    [(4, 3, 1), (4, 4, 1), (4, 9, 1), (1, 20, 1), (7, 2, 5), (0, 0, 0), (0, 9, 0)],
)
def test_jr_dmg_1_damage_is_at_least_1_unless_the_table_says_0(
    table: int, defence: int, amount: int
) -> None:
    """JR-DMG-1: damage = table damage − armour defence, at least 1; 0 when the table says 0."""
    assert damage(table, defence) == amount


def test_jr_dmg_1_armour_above_the_damage_still_costs_1_hp() -> None:
    """JR-DMG-1 in play: the snake's 4 damage against armour 10 still takes 1 HP."""
    game = tough(Game("ez"), 20)
    game.pc.armour = dataclasses.replace(game.pc.armour, value=10)
    feed(game, "5m 1m 1z 2z 3z")
    events = feed(game, "fight:1 1m")
    hit = of(events, Kind.DAMAGE)[0]
    assert (hit["table"], hit["defence"], hit["amount"]) == (4, 10, 1)
    assert game.pc.hp == hit["hp"] == 19


def test_jr_melee_1_anything_but_attack_is_defending() -> None:
    """JR-MELEE-1: drinking a potion spends the turn; the monster is defended against."""
    game = tough(Game("ez"), 20)
    game.pc.hp = 10
    potion = Tile.from_notation("1p")
    game.ledger.move(potion, Place.WALL, Place.PC)
    game.pc.potions.append(potion)
    feed(game, "5m 1m 1z 2z 3z | enter")  # the snake (睡眠) wakes as the PC steps in
    assert {"fight:1", "use:1p", "defend"} <= set(options(game))
    events = feed(game, "use:1p 1m")
    # 10 HP + 1 for the room revealed; the potion's +10 stops at max HP (JR-ITEM-1)
    assert of(events, Kind.HEAL)[0] == {"amount": 9, "hp": 20, "why": "potion"}
    check = of(events, Kind.CHECK)[0]
    assert check["what"] == "defend vs 大蛇" and not check["success"]
    assert of(events, Kind.DAMAGE)[0]["hp"] == 19
    assert of(feed(game, "defend 9m"), Kind.CHECK)[0]["success"]
    assert game.monster(1).alive  # defending never defeats


def test_jr_multi_1_other_attackers_each_get_a_defend_check() -> None:
    """JR-MULTI-1: in the room up to 4 attack; the PC attacks one and defends the others."""
    game = tough(Game("ez"))
    feed(game, "5m 1m 5m 1z 1z | enter")
    assert len(game.attackers()) == 2
    events = feed(game, "fight:1 9m 2m")
    checks = of(events, Kind.CHECK)
    assert [c["what"] for c in checks] == ["melee vs 大蛇", "defend vs 大蛇"]
    assert [c["uid"] for c in checks] == [1, 2]
    assert of(events, Kind.DAMAGE)[0]["uid"] == 2


def test_jr_multi_1_only_one_attacker_on_the_door() -> None:
    """JR-MULTI-1: on the door only 1 monster attacks."""
    game = tough(Game("plus"))
    feed(game, "5m 1m 5m 1z 1z")  # two awake snakes (sleep check), the PC on the door
    assert [m.uid for m in game.attackers()] == [1]
    events = feed(game, "fight:2 1m")
    assert len(of(events, Kind.CHECK)) == 1  # snake 2 answers the attack; snake 1 cannot reach


def test_jr_multi_1_a_woken_target_takes_the_doors_one_place() -> None:
    """JR-MULTI-1: on the door, attacking a sleeping monster while another attacks: the
    woken target answers, and no one else can reach the PC that turn."""
    game = tough(Game("plus"))
    feed(game, "5m 1m 4z 4m 1z")  # an awake snake; a bat, 熟睡 by the sleep check
    assert [m.uid for m in game.attackers()] == [1]
    events = feed(game, "fight:2 1m")
    assert [c["uid"] for c in of(events, Kind.CHECK)] == [2]
    assert [d["uid"] for d in of(events, Kind.DAMAGE)] == [2]


def test_jr_multi_1_each_turn_begins_with_a_turn_event() -> None:
    """JR-MULTI-1: every melee turn, a plain defend too, starts with a turn event naming
    who may attack and how many may; the count runs on through the fight."""
    game = tough(Game("ez"))
    feed(game, "5m 1m 5m 1z 1z | enter")
    events = feed(game, "defend 9m 8m")
    assert [e.kind for e in events][:2] == [Kind.TURN, Kind.CHECK]
    assert of(events, Kind.TURN) == [{
        "floor": 1, "room": 5, "position": "room", "turn": 1, "action": "defend", "target": 0,
        "attackers": [1, 2], "pincer": False, "cap": 4,
    }]
    turn = of(feed(game, "fight:2 9m 9m"), Kind.TURN)[0]
    assert (turn["turn"], turn["action"], turn["target"]) == (2, "fight", 2)
    assert turn["attackers"] == [1, 2]
    feed(game, "fight:1 8m")  # the last one falls: the fight is over
    events = feed(game, "move:4 1z 2z 3z 4z | move:5")
    assert not of(events, Kind.TURN) and game.turn == 0


def test_jr_multi_1_a_door_turn_names_its_one_place() -> None:
    """JR-MULTI-1: on the door the turn event allows one attacker: the snake the PC
    attacks, which answers a miss, holds the place."""
    game = tough(Game("plus"))
    feed(game, "5m 1m 5m 1z 1z")  # two awake snakes (sleep check), the PC on the door
    turn = of(feed(game, "fight:2 1m"), Kind.TURN)[0]
    assert (turn["position"], turn["attackers"], turn["cap"]) == ("door", [2], 1)


def test_jr_multi_1_a_monster_stepping_in_attacks_from_the_next_turn() -> None:
    """JR-MULTI-1: the monsters attack at the same time (同時に), so a turn's attackers
    are fixed as it starts: when the one on the door falls, the next steps in, but it
    attacks from the next turn, not in the turn its fellow fell."""
    game = tough(Game("plus"))
    feed(game, "5m 1m 5m 1z 1z")  # two awake snakes (sleep check), the PC on the door
    events = feed(game, "fight:1 9m")  # snake 1 falls
    assert of(events, Kind.TURN)[0]["attackers"] == [1]
    assert [c["uid"] for c in of(events, Kind.CHECK)] == [1]
    assert of(events, Kind.DEFEAT)[0]["uid"] == 1 and not of(events, Kind.DAMAGE)
    assert "defend" in options(game)  # the turn is over; snake 2 has not attacked
    assert [m.uid for m in game.attackers()] == [2]
    events = feed(game, "defend 1m")
    assert (of(events, Kind.TURN)[0]["turn"], of(events, Kind.TURN)[0]["attackers"]) == (2, [2])
    assert [c["uid"] for c in of(events, Kind.CHECK)] == [2]
    assert [d["uid"] for d in of(events, Kind.DAMAGE)] == [2]


def test_jr_state_1_stepping_back_does_not_wake_stepping_in_does() -> None:
    """JR-STATE-1: back from the door: nobody wakes; into the room: 睡眠 wakes, 熟睡 does not;
    attacking a 熟睡 monster wakes it."""
    game = tough(Game("ez"))
    feed(game, "4m 1z 2z 3z 4z | move:5 1m 4m 6z 6z")  # snake 睡眠, bat 熟睡
    events = feed(game, "move:4")
    assert not of(events, Kind.WAKE) and game.room_no == 4
    events = feed(game, "move:5 enter")
    assert of(events, Kind.WAKE) == [
        {"uid": 1, "monster": "S", "why": "the PC stepped into the room"}
    ]
    assert game.monster(2).sleep.value == "deeply_asleep"
    events = feed(game, "fight:2 9m")
    assert of(events, Kind.WAKE)[0]["uid"] == 2


def test_jr_state_2_awake_monsters_hold_the_far_doors_and_all_guard_the_items() -> None:
    """JR-STATE-2: with an awake monster only the way back is open; items need every
    monster defeated."""
    game = tough(Game("ez"))
    feed(game, "4m 1z 2z 3z 4z | move:5 1m 1p 4m 6z | enter")
    opts = options(game)
    assert "take" not in opts and not any(o.startswith("move:") for o in opts)
    feed(game, "fight:1 9m")  # the snake is gone; the bat (熟睡) still sleeps
    opts = options(game)
    assert "take" not in opts and {"move:2", "move:6", "move:8", "move:4"} <= set(opts)
    feed(game, "fight:2 9m")
    assert "take" in options(game)


def test_jr_flee_1_ez_monsters_do_not_follow() -> None:
    """JR-FLEE-1 (EZ): flee back the way the PC came; the monster stays behind."""
    game = tough(Game("ez"))
    feed(game, "4m 1z 2z 3z 4z | move:5 1m 6z 6z 6z | enter")
    assert "flee" in options(game)
    events = feed(game, "flee 9m")  # fleeing is not an attack: the snake is defended against
    assert [c["what"] for c in of(events, Kind.CHECK)] == ["defend vs 大蛇"]
    assert of(events, Kind.MOVE)[0] == {
        "room": 5, "position": "corridor", "flee": True
    }
    assert game.room_no == 4 and not game.attackers() and not game.pursuers
    assert game.monster(1).sleep.value == "awake"


def test_jr_flee_1_no_attacker_means_free_movement() -> None:
    """JR-FLEE-1: with every monster asleep the PC need not flee and moves freely."""
    game = tough(Game("ez"))
    feed(game, "5m 4m 1z 1z 1z")  # a bat, 熟睡
    opts = options(game)
    assert "flee" not in opts and {"move:2", "move:4", "move:6", "move:8"} <= set(opts)


def test_jr_flee_2_pursuers_follow_and_a_pincer_stops_flight() -> None:
    """JR-FLEE-2 (Plus: pincer): the monster follows; meeting more monsters is a pincer."""
    game = tough(Game("plus"))
    feed(game, "1m 1z 2z 3z 4z")  # room 1: empty
    feed(game, "move:4 4z 4m 1s 1s")  # room 4: a bat, asleep by the honour corner → 熟睡
    assert game.monster(1).sleep.value == "deeply_asleep"
    feed(game, "move:5 1m 6z 6z 6z")  # room 5: an awake snake
    assert game.attackers()[0].uid == 2 and "flee" in options(game)
    events = feed(game, "flee 9m")  # the flight's turn: the snake is defended against
    assert game.room_no == 4 and [m.uid for m in game.pursuers] == [2]
    assert of(events, Kind.STATE)[-1]["state"] == "pursuing"
    assert [m.uid for m in game.attackers()] == [2]
    feed(game, "fight:1 1m 9m")  # the bat wakes and hits back; the snake is fended off
    assert game.pincered() and "flee" not in options(game)
    assert {m.uid for m in game.attackers()} == {1, 2}


def test_jr_ranged_1_and_3_one_sided_shots_while_the_check_holds() -> None:
    """JR-RANGED-1: each ranged turn starts with 1d9 >= 3 (the first too [DEFAULT]);
    JR-RANGED-3: a miss does nothing, a failed check starts melee."""
    game = tough(Game("plus"))
    feed(game, "5m 1m 6z 6z 6z")
    events = feed(game, "shoot:1 3m 2m")
    checks = of(events, Kind.CHECK)
    assert [c["what"] for c in checks] == ["ranged combat goes on", "ranged (arrows) vs 大蛇"]
    assert checks[1]["terms"] == [["attack", 6], ["level", -1], ["strength", 0], ["weapon", -1]]
    assert not of(events, Kind.DAMAGE) and game.pc.arrows == 19
    feed(game, "4m")  # the next ranged turn's check holds
    # JR-RANGED-2: on the door, closing in ends it (no move onto the door: revision 8)
    assert options(game) == ["shoot:1", "close"]
    events = feed(game, "shoot:1 2m 1m")
    assert of(events, Kind.RANGED)[-1] == {"action": "end"} and game.melee_started
    assert "shoot:1" not in options(game)


def test_jr_ranged_2_closing_in_ends_ranged_combat() -> None:
    """JR-RANGED-2: closing to melee ends ranged combat; a hit defeats the target."""
    game = tough(Game("plus"))
    feed(game, "5m 1m 5m 6z 6z")
    events = feed(game, "shoot:1 3m 9m")
    assert of(events, Kind.DEFEAT)[0]["uid"] == 1
    events = feed(game, "3m close")
    assert of(events, Kind.RANGED)[-1] == {"action": "end"}
    assert game.melee_started and [m.uid for m in game.attackers()] == [2]


def test_jr_melee_1_fleeing_is_defending() -> None:
    """JR-MELEE-1: fleeing is one of the turn's actions and not an attack, so the room's
    attackers are defended against before the PC is out (攻撃以外を実行したら...防御)."""
    game = tough(Game("ez"), 30)
    feed(game, "4m 1z 2z 3z 4z | move:5 1m 6z 6z 6z | enter")  # an awake snake
    events = feed(game, "flee 2m")  # 2 < rate 3: the snake hits as the PC turns to run
    assert [c["what"] for c in of(events, Kind.CHECK)] == ["defend vs 大蛇"]
    assert of(events, Kind.DAMAGE)[0]["uid"] == 1
    assert game.room_no == 4


def test_jr_flee_2_a_pursued_pc_fleeing_on_takes_no_melee() -> None:
    """JR-FLEE-2 (Plus: pincer): monsters following a fleeing PC do not melee it; fleeing
    on from them draws no defend check."""
    game = tough(Game("plus"))
    feed(game, "1m 1z 2z 3z 4z | move:4 4z 1z 1s 1s | move:5 1m 6z 6z 6z")
    feed(game, "flee 9m")  # out of room 5: the snake is defended against, then follows
    assert game.room_no == 4 and [m.uid for m in game.pursuers] == [1]
    events = feed(game, "flee")
    assert not of(events, Kind.CHECK) and game.room_no == 1
    assert [m.uid for m in game.pursuers] == [1]


def test_jr_melee_1_and_ranged_2_rings_go_on_and_off_in_combat() -> None:
    """JR-MELEE-1: in melee, equipping or unequipping is a turn spent defending;
    JR-RANGED-2: in ranged combat it is one of the turn's actions, with no answer."""
    game = tough(Game("ez"))
    ring = Tile.from_notation("7p")
    game.ledger.move(ring, Place.WALL, Place.PC)
    game.pc.spare_rings.append(ring)
    feed(game, "4m 1z 2z 3z 4z | move:5 1m 6z 6z 6z | enter")  # an awake snake attacks
    assert "equip:7p" in options(game)
    events = feed(game, "equip:7p 9m")
    assert [c["what"] for c in of(events, Kind.CHECK)] == ["defend vs 大蛇"]
    assert game.pc.rings == [ring] and "unequip:7p" in options(game)
    events = feed(game, "unequip:7p 9m")
    assert [c["what"] for c in of(events, Kind.CHECK)] == ["defend vs 大蛇"]
    assert game.pc.spare_rings == [ring]

    ranged = tough(Game("plus"))
    ranged.ledger.move(ring, Place.WALL, Place.PC)
    ranged.pc.spare_rings.append(ring)
    feed(ranged, "5m 1m 6z 6z 6z | shoot:1 3m 2m 4m")  # a miss; the next turn goes on
    assert options(ranged) == ["shoot:1", "equip:7p", "close"]  # on the door
    events = feed(ranged, "equip:7p")
    assert ranged.pc.rings == [ring] and not of(events, Kind.CHECK)
    events = feed(ranged, "4m")  # the next ranged turn's check holds
    assert "unequip:7p" in options(ranged)


def test_jr_multi_1_pincered_in_the_room_up_to_4_in_all() -> None:
    """JR-MULTI-1: pincered in the room, 前後最大4体: up to 4 from front and back together,
    so 3 in front and 1 behind all attack (and 1 in front, 3 behind)."""
    game = tough(Game("plus"))
    feed(game, "5m 1m 1m 5m 9m")  # four awake monsters (sleep check: all odd ranks)
    game.position = Position.ROOM
    monsters = game.room_monsters()
    game.pursuers[:] = monsters[3:]
    assert game.pincered() and len(game.attackers()) == 4
    game.pursuers[:] = monsters[1:]
    assert [m.uid for m in game.attackers()] == [1, 2, 3, 4]
    game.position = Position.DOOR  # 前後1体ずつ: one each side
    assert [m.uid for m in game.attackers()] == [1, 2]


def _down_to_floor_2(game: Game) -> None:
    """Floor 1: start in room 5, walk to room 2 and take its stairs (5z)."""
    feed(game, "5m 1z 2z 3z 4z | move:2 5z 6z 6z 6z | stairs")
    assert game.floor == 2


def test_jr_flee_1_no_way_back_from_a_floors_start_room() -> None:
    """JR-FLEE-1: fleeing goes back the way the PC came (来た道を引き返します); on a
    floor's start room the PC has not left, it came by the stairs, so there is no flight
    and no way back past the awake monster (JR-STATE-2), whatever room it left the floor
    above from (a start room walked back into: test_revision_9; fled back into:
    test_revision_10)."""
    game = tough(Game("ez"))
    _down_to_floor_2(game)
    feed(game, "9m 1m 1z 1z 1z | enter")  # start room 9: an awake snake
    assert game.attackers() and not game.path
    assert "flee" not in options(game)
    assert not [o for o in options(game) if o.startswith("move")]


def test_jr_flee_1_on_a_new_floor_leads_back_to_its_own_rooms() -> None:
    """JR-FLEE-1: a flight on floor 2 leads back to the floor-2 room the PC came from, a
    neighbour, never to the room it left floor 1 from."""
    game = tough(Game("ez"))
    _down_to_floor_2(game)
    feed(game, "4m 1z 2z 3z 2s | move:5 1m 2z 3z 3s | enter")
    events = feed(game, "flee 9m")
    assert [m["room"] for m in of(events, Kind.MOVE)] == [5, 4]
    assert game.room_no == 4 and not game.path


def test_jr_rate_1_the_melee_rate_alone_is_the_checks_rate() -> None:
    """JR-RATE-1: the rate a strategy weighs is the clamped rate of the melee check."""
    for preset in ("ez", "plus"):
        game = tough(Game(preset))
        feed(game, "5m 1m 5m 1z 1z")
        for m in game.monsters:
            for level, strength in ((1, 0), (3, -2), (15, 3)):
                game.pc.level, game.pc.strength = level, strength
                assert game.melee_rate(m) == game.rate(m, game.pc.weapon.value)[2]


def test_jr_ranged_3_automatic_shots_are_the_profiles_choice() -> None:
    """JR-RANGED-3 [DEFAULT]: with ranged_automatic off a critical is only its value (here 2),
    which misses a rate of 4; on (the packaged profile) it hits whatever it counts."""
    import dataclasses

    from companion.systems.jongrogue.profile import DEFAULT_PROFILE

    for automatic, hit in ((False, False), (True, True)):
        profile = dataclasses.replace(DEFAULT_PROFILE, ranged_automatic=automatic,
                                      critical_value=2)
        game = tough(Game("plus", profile))
        feed(game, "5m 1m 6z 6z 6z")
        shot = of(feed(game, "shoot:1 3m 7z"), Kind.CHECK)[1]
        assert shot["what"] == "ranged (arrows) vs 大蛇" and shot["target"] == 4
        assert shot["critical"] and shot["value"] == 2 and shot["success"] is hit


def test_jr_ranged_2_the_player_readies_the_bow_or_the_shuriken() -> None:
    """JR-RANGED-2 (装備する: 弓や手裏剣): holding both, the shuriken are thrown first until the
    bow is readied; the other weapon is offered to ready outside melee and in a ranged turn."""
    game = tough(Game("plus"))
    game.pc.shuriken, game.pc.shuriken_attack = 5, 2
    feed(game, "5m 1z 2z 3z 4z")  # an empty start room
    assert options(game)[-1] == "ready:bow"
    assert of(feed(game, "ready:bow"), Kind.ITEM) == [{"action": "ready", "what": "bow"}]
    assert game.pc.bow_ready and options(game)[-1] == "ready:shuriken"

    game = tough(Game("plus"))
    game.pc.shuriken, game.pc.shuriken_attack, game.pc.bow_ready = 5, 2, True
    feed(game, "5m 1m 6z 6z 6z")  # an awake snake
    shot = of(feed(game, "shoot:1 3m 2m"), Kind.CHECK)[1]
    assert shot["what"] == "ranged (arrows) vs 大蛇" and game.pc.arrows == 19
    feed(game, "4m")  # the next ranged turn: readying the shuriken uses it
    assert options(game) == ["shoot:1", "ready:shuriken", "close"]  # on the door
    feed(game, "ready:shuriken 4m")
    shot = of(feed(game, "shoot:1 2m"), Kind.CHECK)[0]
    assert shot["what"] == "ranged (shuriken) vs 大蛇" and game.pc.shuriken == 4
    game.pc.arrows = 0
    feed(game, "4m")
    assert options(game) == ["shoot:1", "close"]  # no arrows: no bow to ready


def test_jr_flee_2_a_thief_that_vanished_during_the_flight_follows_no_one() -> None:
    """JR-FLEE-2 with JR-AB-STEALGOLD / JR-AB-STEALITEM: a leprechaun or nymph that
    strikes as the PC flees has vanished (モンスターは消えます), so it does not pursue and
    the PC is free to move on; it used to follow dead, leaving only "defend" for ever."""
    for floor, thief in ((6, "2m"), (10, "6m")):  # leprechaun, nymph
        game = tough(Game("plus"))
        game.floor, game.pc.gold = floor, 100
        feed(game, f"5m 1z 1z 2z 2z | move:2 {thief} 1z 3z 4z")  # asleep in room 2
        feed(game, "shoot:1 9m 1m 1m")  # the miss wakes it; ranged combat ends
        events = feed(game, "flee 1m")  # its blow lands: it steals and vanishes
        assert of(events, Kind.ABILITY)[-1]["effect"] == "vanished"
        assert game.room_no == 5 and not game.pursuers and not game.attackers()
        assert not of(events, Kind.STATE)  # nobody is said to be pursuing
        assert {"move:2", "move:4", "move:6", "move:8"} <= set(options(game))


def test_jr_flee_2_every_monster_fighting_the_pc_follows_it() -> None:
    """JR-FLEE-2: モンスターはPCの後を追いかけて来ます: on the door only one monster
    strikes (JR-MULTI-1), but every awake one follows the fleeing PC; a game of rules
    revision 1 (saved before this fix) still takes only the one that struck."""
    for revision, followers in ((2, [1, 2]), (1, [1])):
        game = tough(Game("plus", revision=revision))
        game.floor = 4
        feed(game, "5m 1z 1z 2z 2z | move:2 1m 1m 3m 1z")  # two awake snakes, a sleeping emu
        assert [m.uid for m in game.attackers()] == [1]
        feed(game, "flee 9m")
        assert game.room_no == 5 and [m.uid for m in game.pursuers] == followers
        assert game.monster(3).sleep.value != "awake" and game.monster(3) not in game.pursuers


def test_jr_drop_1_a_pursuer_drops_its_item_where_it_falls() -> None:
    """JR-DROP-1 with JR-FLEE-2: a pursuer's tile has moved beside the PC, so its drop lies
    in the room where it was defeated (モンスターのいた場所に置く), not where it was met."""
    for revision, room in ((2, 5), (1, 2)):
        game = tough(Game("plus", revision=revision))
        game.floor = 4
        feed(game, "5m 1z 1z 2z 2z | move:2 9m 1z 3z 4z | flee 9m")  # an awake orc follows
        events = feed(game, "fight:1 9m 2p")  # the orc falls in room 5 and drops shuriken
        assert of(events, Kind.ITEM)[-1] == {"action": "dropped", "tile": "2p", "room": room}
        assert [str(t) for t in game.rooms[room].drops] == ["2p"]


def test_a_rules_revision_this_engine_does_not_know_is_refused() -> None:
    for revision in (0, RULES_REVISION + 1):
        with pytest.raises(ValueError, match=f"rules revision {revision}"):
            Game("plus", revision=revision)


def test_jr_ranged_2_bow_readied_without_arrows_throws_shuriken() -> None:
    """JR-RANGED-2: with the bow readied but no arrows left, the shuriken are thrown; no
    arrow that isn't there is shot (the arrows never go below 0)."""
    game = tough(Game("plus"))
    pc = game.pc
    pc.shuriken, pc.shuriken_attack, pc.bow_ready, pc.arrows = 5, 2, True, 0
    feed(game, "5m 1m 6z 6z 6z")  # an awake snake
    assert "shoot:1" in options(game)
    shot = of(feed(game, "shoot:1 3m 2m"), Kind.CHECK)[1]
    assert shot["what"] == "ranged (shuriken) vs 大蛇"
    assert (pc.shuriken, pc.arrows) == (4, 0)
