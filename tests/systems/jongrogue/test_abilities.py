"""Monster abilities, one scenario each (JR-AB-*), plus JR-STATE-3 and JR-DROP-1."""

from __future__ import annotations

import dataclasses
from importlib.resources import files

import pytest

from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import Game, Termination
from companion.systems.jongrogue.profile import DEFAULT_PROFILE, Loot, Ring
from companion.systems.jongrogue.reference import FIXED_READINGS
from companion.systems.jongrogue.state import PC, PCState
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place
from tests.systems.jongrogue.ability_helpers import give, meet, wear
from tests.systems.jongrogue.script import feed, of, options


def test_jr_ab_haste_ez_no_ranged_plus_hasted_attacks_twice() -> None:
    """JR-AB-HASTE: EZ forbids ranged attacks on it; Plus makes it hasted (倍速): it attacks
    twice a turn [DEFAULT hasted_attacks = 2]."""
    ez = meet("ez", 1, "2m 1z 1z 1z")  # kestrel
    assert "shoot:1" not in options(ez) and "fight:1" in options(ez)
    plus = meet("plus", 1, "2m 2z 1z 1z")  # a kestrel, awake (sleep check: row 2, column 2)
    assert of(plus.events, Kind.ENCOUNTER)[0]["hasted"] is True
    assert "shoot:1" in options(plus)
    events = feed(plus, "fight:1 1m 1m")  # miss: it hits, and being hasted hits again
    assert [c["what"] for c in of(events, Kind.CHECK)] == ["melee vs 大はやぶさ",
                                                           "defend vs 大はやぶさ"]
    assert len(of(events, Kind.DAMAGE)) == 2


def test_jr_ab_freeze_frozen_to_death() -> None:
    """JR-AB-FREEZE: 1d9 >= 9 − level resists; else frozen, and a second failure kills."""
    game = meet("ez", 2, "7m 1z 1z 1z")  # ice monster, 熟睡
    events = feed(game, "fight:1 1m 2m 2m")
    checks = [c["what"] for c in of(events, Kind.CHECK)]
    assert checks == ["melee vs 氷の怪物", "resist freezing (凍結判定)", "survive the cold (凍死)"]
    assert of(events, Kind.CHECK)[1]["target"] == 8
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.DEATH
    assert outcome.cause == "frozen"


def test_jr_ab_freeze_thaw_each_turn_and_defend_only() -> None:
    """JR-AB-FREEZE: a frozen PC only defends; each turn 1d9 >= 8 thaws; no freeze check
    while frozen."""
    game = meet("ez", 2, "7m 1z 1z 1z")
    feed(game, "fight:1 1m 2m 9m")  # frozen, survives
    assert PCState.FROZEN in game.pc.states
    events = feed(game, "1m 1m")  # thaw fails; defend fails: hit for 0, no freeze check
    assert [c["what"] for c in of(events, Kind.CHECK)] == ["thaw (凍結)", "defend vs 氷の怪物"]
    events = feed(game, "8m")
    assert of(events, Kind.STATE)[-1] == {"who": "pc", "state": "frozen", "on": False}
    assert "fight:1" in options(game)


def test_jr_ab_poison_ez_gold_plus_strength() -> None:
    """JR-AB-POISON: EZ: a hit takes 10 gold. Plus (strength): 1d9 >= 7 − level or −1
    strength; nothing at −3 or with a ring of strength."""
    ez = meet("ez", 3, "8m 1z 1z 1z")  # rattlesnake
    ez.pc.gold = 25
    feed(ez, "fight:1 1m")
    assert ez.pc.gold == 15
    plus = meet("plus", 3, "8m 2z 1z 1z")
    events = feed(plus, "fight:1 1m 5m")
    assert of(events, Kind.CHECK)[-1]["target"] == 6 and plus.pc.strength == -1
    plus.pc.strength = -3
    events = feed(plus, "fight:1 1m")
    assert plus.pc.strength == -3 and of(events, Kind.ABILITY)[-1]["effect"] == "none"
    plus.pc.strength = 0
    wear(plus, "7p")
    feed(plus, "fight:1 1m")
    assert plus.pc.strength == 0


def test_jr_ab_poison_stops_at_minus_3_whatever_the_profiles_strength_min() -> None:
    """The seed's 「強さが-3以下だったら、無効果」 holds with strength_min set lower; a higher
    strength_min stops the loss sooner."""
    import dataclasses

    from companion.systems.jongrogue.profile import DEFAULT_PROFILE

    # the PC misses and the snake hits; where there is a poison check, it fails
    for strength_min, start, tiles, after in ((-6, -3, "1m", -3), (-1, -1, "1m", -1),
                                              (-6, -2, "1m 1m", -3)):
        game = Game("plus", dataclasses.replace(DEFAULT_PROFILE, strength_min=strength_min))
        game.floor, game.pc.hp, game.pc.max_hp = 3, 200, 200
        feed(game, "5m 8m 2z 1z 1z")  # a rattlesnake
        game.pc.strength = start
        feed(game, f"fight:1 {tiles}")
        assert game.pc.strength == after and "fight:1" in options(game)  # no check waits


def test_jr_ab_goldlover_sits_on_gold_until_hit() -> None:
    """JR-AB-GOLDLOVER: on gold it does not attack; a hit knocks it off and seals it."""
    game = meet("plus", 4, "9m 5s 1z 1z")  # orc, awake by the sleep check, on the 5s
    orc = game.monster(1)
    assert orc.on_gold == 1 and not game.attackers()
    events = feed(game, "fight:1 9m")
    assert of(events, Kind.ABILITY)[0]["effect"] == "off the gold, sealed"
    assert orc.alive and orc.sealed and orc.on_gold is None
    assert game.attackers() == [orc]


def test_jr_ab_stealgold_takes_and_vanishes_or_pays_double() -> None:
    """JR-AB-STEALGOLD: a hit takes floor × 10 gold and it vanishes; defeating it gives
    floor × 20."""
    game = meet("ez", 6, "2m 1z 1z 1z")  # leprechaun, floor 6
    game.pc.gold = 100
    events = feed(game, "fight:1 1m")
    assert game.pc.gold == 40 and not game.monster(1).alive
    assert of(events, Kind.ABILITY)[-1]["effect"] == "vanished"
    assert game.ledger.count(Tile.from_notation("2m"), Place.DISCARDS) == 1
    game = meet("ez", 6, "2m 1z 1z 1z")
    feed(game, "fight:1 9m")
    assert game.pc.gold == 120


def test_jr_ab_rust_lowers_armour_unless_protected() -> None:
    """JR-AB-RUST: a hit lowers armour by 1, not with a ring of armour protection."""
    game = meet("ez", 9, "5m 1z 1z 1z")  # aquator
    feed(game, "fight:1 1m")
    assert game.pc.armour.value == 2
    wear(game, "8p")
    feed(game, "fight:1 1m")
    assert game.pc.armour.value == 2


def test_jr_ab_stealitem_most_held_or_the_adornment_ring() -> None:
    """JR-AB-STEALITEM: one of what the PC holds most of, and it vanishes; an uncursed ring
    of adornment is taken first."""
    game = meet("ez", 10, "6m 1z 1z 1z")  # nymph
    feed(game, "fight:1 1m")
    assert game.pc.arrows == 19 and not game.monster(1).alive
    game = meet("ez", 10, "6m 1z 1z 1z")
    wear(game, "9p")
    feed(game, "fight:1 1m")
    assert game.pc.arrows == 20 and game.pc.wears(Ring.ADORNMENT) == 0
    assert game.ledger.count(Tile.from_notation("9p"), Place.DISCARDS) == 1


@pytest.mark.parametrize(
    ("steal_item", "stolen"),
    [
        ((Loot.ARROWS, Loot.SHURIKEN, Loot.POTIONS, Loot.RINGS), "arrows"),  # the default
        ((Loot.POTIONS, Loot.ARROWS), "1p"),  # by its tile from revision 12 (reviewr72)
        ((Loot.SHURIKEN, Loot.POTIONS), "shuriken"),
        ((Loot.RINGS, Loot.ARROWS), "6p"),
        ((), None),
    ],
)
def test_jr_ab_stealitem_what_a_thief_takes_is_the_profiles(
    steal_item: tuple[Loot, ...], stolen: str | None
) -> None:
    """JR-AB-STEALITEM [DEFAULT] combat.steal_item: with one each of arrows, shuriken,
    potions and a ring of stealth, the tie goes to the first the profile lists; what it does
    not list is never taken."""
    profile = dataclasses.replace(DEFAULT_PROFILE, steal_item=steal_item)
    game = meet("ez", 10, "6m 1z 1z 1z", profile)  # nymph
    game.pc.arrows, game.pc.shuriken = 1, 1
    game.pc.potions.append(give(game, "1p"))
    wear(game, "6p")
    events = feed(game, "fight:1 1m")
    last = of(events, Kind.ITEM)[-1]
    if stolen is None:
        assert last == {"action": "nothing to steal"}
        assert (game.pc.arrows, game.pc.shuriken, len(game.pc.potions)) == (1, 1, 1)
    else:
        # a ring by its tile alone, as logs have it (reviewj68 DEFECT 1), and a potion
        assert last == {"action": "stolen", "what": stolen}
        held = {"arrows": game.pc.arrows, "shuriken": game.pc.shuriken,
                "1p": len(game.pc.potions), "6p": game.pc.wears(Ring.STEALTH)}
        assert held == {k: 0 if k == stolen else 1 for k in held}


def test_jr_ab_hold_ez_gold_plus_bound() -> None:
    """JR-AB-HOLD: EZ: −10 gold. Plus (pc_states): the PC is bound (拘束), not if floating.
    Its damage is 2d9: two 1d9 draws."""
    ez = meet("ez", 12, "8m 1z 1z 1z")  # venus flytrap
    ez.pc.gold = 30
    events = feed(ez, "fight:1 1m 4m 5m")
    damage = of(events, Kind.DAMAGE)[0]
    assert damage["rolls"] == ["4m", "5m"] and damage["table"] == 9 and damage["amount"] == 6
    assert ez.pc.gold == 20
    plus = meet("plus", 12, "8m 1z 1z 1z")
    feed(plus, "fight:1 1m 4m 5m")
    assert PCState.BOUND in plus.pc.states
    floating = meet("plus", 12, "8m 1z 1z 1z")
    floating.pc.states.add(PCState.FLOATING)
    feed(floating, "fight:1 1m 4m 5m")
    assert PCState.BOUND not in floating.pc.states


def test_jr_ab_drain_the_spec_example() -> None:
    """JR-AB-DRAIN: a melee fumble costs a level: level 10 with 3,000 XP → level 9 with
    2,599; max HP follows, HP is capped."""
    game = meet("ez", 14, "1m 1z 1z 1z")  # wraith
    pc = game.pc
    pc.level, pc.xp = 10, 3000
    pc.max_hp = pc.hp = game.profile.max_hp(10)
    events = feed(game, "fight:1 5z")
    assert (pc.level, pc.xp) == (9, 2599) and pc.drained
    assert pc.max_hp == game.profile.max_hp(9)
    assert pc.hp == pc.max_hp - of(events, Kind.DAMAGE)[0]["amount"]  # capped, then hit
    assert of(events, Kind.LEVEL)[0]["drained"] is True
    low = meet("ez", 14, "1m 1z 1z 1z")
    low.pc.level, low.pc.xp = 5, 100
    feed(low, "fight:1 5z")
    assert low.pc.level == 5


def test_jr_ab_invisible_cannot_be_attacked_first() -> None:
    """JR-AB-INVISIBLE: the PC can attack it only after it has attacked; in Plus it is
    invisible (透明) from the encounter on."""
    game = meet("plus", 15, "2m 2m 1z 1z")  # phantom (awake: row 2, column 2)
    assert of(game.events, Kind.ENCOUNTER)[0]["invisible"] is True
    assert "fight:1" not in options(game) and "defend" in options(game)
    feed(game, "defend 1m")  # it hits
    assert "fight:1" in options(game)


def test_jr_ab_invisible_an_attack_that_misses_still_counts() -> None:
    """JR-AB-INVISIBLE: 攻撃されるまで: once it has attacked the PC, even if the PC
    fended it off, the PC may attack it."""
    game = meet("plus", 15, "2m 2m 1z 1z")  # phantom (awake: row 2, column 2)
    events = feed(game, "defend 9m")  # it attacks and misses
    assert of(events, Kind.CHECK)[0]["success"] and not of(events, Kind.DAMAGE)
    assert "fight:1" in options(game)


def test_jr_ab_mimic_ez_no_item_means_the_hit_defeats_it() -> None:
    """JR-AB-MIMIC (EZ): the first hit draws a tile; not an item: EZ names no other
    outcome, so the hit defeats the mimic, and it is not reported sealed."""
    game = meet("ez", 16, "3m 1z 1z 1z")  # xeroc
    events = feed(game, "fight:1 9m 2z")
    assert of(events, Kind.ABILITY)[0]["effect"] == "no item"
    assert not game.monster(1).alive and not game.monster(1).sealed
    assert of(events, Kind.DEFEAT)[0]["monster"] == "X"


def test_jr_ab_mimic_item_or_sealed() -> None:
    """JR-AB-MIMIC: the first hit draws a tile: an item replaces the monster; otherwise
    (Plus) the tile is discarded, the mimic sealed, and the fight goes on."""
    game = meet("plus", 16, "3m 1z 1z 1z")  # xeroc
    events = feed(game, "fight:1 9m 1p")
    assert of(events, Kind.ABILITY)[0]["effect"] == "item"
    assert game.room.tiles[0] is Tile.from_notation("1p") and not game.monster(1).alive
    game = meet("plus", 16, "3m 1z 1z 1z")
    events = feed(game, "fight:1 9m 2z")
    assert of(events, Kind.ABILITY)[0]["effect"] == "sealed"
    assert game.monster(1).alive and game.monster(1).sealed


def test_jr_ab_gaze_ez_gold_plus_confusion() -> None:
    """JR-AB-GAZE: EZ: its first hit takes 100 gold once. Plus (pc_states): awake with the
    PC in its room (stepped in, not on the door: revision 4), 1d9 >= 4 or confused; then it
    is sealed."""
    ez = meet("ez", 18, "5m 1z 1z 1z")  # medusa
    ez.pc.gold = 250
    feed(ez, "fight:1 1m")
    feed(ez, "fight:1 1m")
    assert ez.pc.gold == 150
    game = Game("plus")
    game.floor = 18
    game.pc.hp = game.pc.max_hp = 300
    feed(game, "5m 1z 5m 1z 1z")  # a medusa asleep (睡眠): the PC on the door
    events = feed(game, "enter 1m")  # stepping in wakes it: the gaze check
    assert of(events, Kind.CHECK)[0]["what"] == "resist the gaze (睨み判定)"
    assert PCState.CONFUSED in game.pc.states and game.monster(1).sealed


def test_jr_ab_drainstr_ez_gold_plus_strength() -> None:
    """JR-AB-DRAINSTR: EZ: first hit takes 100 gold unless a ring of strength. Plus
    (pc_states): 1d9 >= 4 or strength −1."""
    ez = meet("ez", 19, "6m 1z 1z 1z")  # vampire
    ez.pc.gold = 100
    wear(ez, "7p")
    feed(ez, "fight:1 1m")
    assert ez.pc.gold == 100
    plus = meet("plus", 19, "6m 2z 1z 1z")
    feed(plus, "fight:1 1m 1m")
    assert plus.pc.strength == -1


def test_jr_ab_breath_answers_ranged_and_burns_the_fleeing() -> None:
    """JR-AB-BREATH: a ranged attack that does not kill is answered with melee-formula
    damage; fleeing into a corridor costs that damage again."""
    game = Game("plus")
    game.floor = 22
    game.pc.hp = game.pc.max_hp = 300
    feed(game, "4m 1z 1z 1z 1z | move:5 9m 2z 3z 4z")  # a dragon (眠)
    events = feed(game, "shoot:1 3m 1m")
    damage = of(events, Kind.DAMAGE)[0]
    assert damage["breath"] and damage["amount"] == 22
    feed(game, "1m")  # ranged combat ends; the dragon is awake and attacks
    events = feed(game, "flee 9m")  # the flight's defend check holds; the breath does not
    assert of(events, Kind.DAMAGE)[0]["breath"] and game.room_no == 4


@pytest.mark.parametrize(("revision", "breaths"), [(13, 1), (12, 2)])
def test_jr_ab_breath_a_pursuer_back_in_its_own_room_breathes_once(revision: int,
                                                                   breaths: int) -> None:
    """JR-AB-BREATH (a76jrcore RISK 3): a flight round a loop of rooms can end on another
    door of the room a pursuer came from; there the monster is the room's and a pursuer
    both, and it breathes on the PC's next flight once, not once for each list. The state
    is built directly: the dragon of room 5 follows the PC, who stands on room 5's door
    again with a way back (room 4) open. From revision 13: revision 12 breathed twice, and
    a log of it replays so (r76jr RISK 3)."""
    game = Game("plus", revision=revision)
    game.floor = 22
    game.pc.hp = game.pc.max_hp = 300
    feed(game, "4m 1z 1z 1z 1z | move:5 9m 2z 3z 4z shoot:1 3m 1m 1m flee 9m")
    [dragon] = game.pursuers
    game.room_no, game.path, game.came_by = 5, [4], 6
    assert game.room_monsters() == [dragon] and not game.pincered()
    feed(game, "defend 9m")
    assert "flee" in options(game)
    events = feed(game, "flee")
    assert [d["amount"] for d in of(events, Kind.DAMAGE)] == [22] * breaths
    assert len([a for a in of(events, Kind.ABILITY)
                if a["ability"] == "fire_breath"]) == breaths
    # the shot answered, the first flight, this one's breaths
    assert game.pc.hp == 300 - (2 + breaths) * 22 and game.room_no == 4


def test_jr_state_3_states_are_per_monster() -> None:
    """JR-STATE-3 (Plus: extended_states): each monster keeps its own sleep and states."""
    game = meet("plus", 20, "7m 4z 4m 1z")  # griffin (hasted) and unicorn, asleep
    griffin, unicorn = game.monster(1), game.monster(2)
    assert griffin.hasted and not unicorn.hasted
    feed(game, "fight:2 9m")
    assert not unicorn.alive and griffin.alive


@pytest.mark.parametrize(
    ("tiles", "draws", "items"), [("2p", 1, 1), ("1z 3p", 2, 1), ("1z 6z 3z", 3, 0)]
)
def test_jr_drop_1_draw_until_an_item_or_n_tiles(tiles: str, draws: int, items: int) -> None:
    """JR-DROP-1 (Plus: drops), as the seed's steps 1-5 go: draw until an item tile comes
    up or n tiles are drawn; the item is placed where the monster was. At most one item
    (the seed wins over the spec's "each item tile drawn")."""
    game = meet("plus", 6, "2m 1z 1z 1z")  # leprechaun: drops 3
    events = feed(game, f"fight:1 9m {tiles}")
    drops = [d for d in of(events, Kind.ITEM) if d["action"] in ("dropped", "no drop")]
    assert len(drops) == draws and [d["action"] for d in drops].count("dropped") == items
    assert len(game.room.drops) == items
    assert options(game)  # no further drop draw is asked for
    if items:
        feed(game, "take")
        assert not game.room.drops and game.pc.shuriken + game.pc.arrows > 20


def test_jr_ab_stealitem_rings_count_by_kind() -> None:
    """JR-AB-STEALITEM: 一番個数の多い物: two rings of stealth outnumber one potion and
    one arrow, so a ring of stealth is taken (the spare one first)."""
    game = meet("ez", 10, "6m 1z 1z 1z")  # nymph
    game.pc.arrows = 1
    game.pc.potions.append(give(game, "1p"))
    wear(game, "6p")
    spare = give(game, "6p")
    game.pc.spare_rings.append(spare)
    events = feed(game, "fight:1 1m")
    assert of(events, Kind.ITEM)[-1] == {"action": "stolen", "what": "6p"}
    assert game.pc.spare_rings == [] and game.pc.wears(Ring.STEALTH) == 1
    assert (game.pc.arrows, len(game.pc.potions)) == (1, 1)
    assert game.ledger.count(spare, Place.DISCARDS) == 1


@pytest.mark.parametrize(("worn", "spare", "stolen"), [
    (["6p", "8p"], ["7p"], "7p"),  # the kind held spare, found last, before both worn ones
    (["6p", "8p"], [], "6p"),  # none spare: the kind put on first
    (["8p", "6p"], [], "8p"),
    (["6p"], ["8p", "7p"], "8p"),  # spare: the kind that went into the pack first
])
def test_jr_ab_stealitem_a_tie_among_ring_kinds_is_as_the_profile_says(
    worn: list[str], spare: list[str], stolen: str
) -> None:
    """JR-AB-STEALITEM: with one ring of each kind, the thief takes a kind held spare (in
    the pack) before one only worn, spare rings in the order they went into the pack, worn
    ones in the order put on. profile.toml's comment, which players read to edit a
    profile, said "the kind held first": the ring of stealth found and worn first, while
    the spare ring of strength found last went (rules74 NIT 2). The comment and the
    reading of ``rules defaults`` say the order played."""
    game = meet("ez", 10, "6m 1z 1z 1z")  # nymph
    game.pc.arrows = 0
    for tile in worn:
        wear(game, tile)
    for tile in spare:
        game.pc.spare_rings.append(give(game, tile))
    events = feed(game, "fight:1 1m")
    assert of(events, Kind.ITEM)[-1] == {"action": "stolen", "what": stolen}
    order = ("a kind held spare (in the pack) before one only worn, spare rings in the order "
             "they went into the pack, worn ones in the order put on")
    reading = next(d.text for d in FIXED_READINGS if d.rule == "JR-AB-STEALITEM (kinds)")
    assert order in reading
    text = (files("companion.systems.jongrogue") / "data" / "profile.toml").read_text("utf-8")
    comment = " ".join(line.lstrip("# ") for line in text.splitlines()
                       if line.startswith("#"))
    assert ("a tie among ring kinds goes to a kind the PC has spare (in the pack) before one "
            "only worn, the spare ones in the order they went into the pack, the worn ones in "
            "the order they were put on") in comment
    assert "the kind held first" not in comment


def test_jr_ab_haste_a_hasted_monster_not_attacked_still_attacks_twice() -> None:
    """JR-AB-HASTE (Plus) with JR-MULTI-1: a hasted monster attacks ``hasted_attacks`` times
    a turn [DEFAULT 2] also when the PC is not attacking it (here: a defend turn), not only
    when it answers the PC's own attack."""
    assert DEFAULT_PROFILE.hasted_attacks == 2
    game = meet("plus", 1, "2m 2m 1z 1z")  # two kestrels, both awake (row 2, column 2)
    assert [e["hasted"] for e in of(game.events, Kind.ENCOUNTER)] == [True, True]
    feed(game, "fight:1 9m")  # the first falls; on the door only one attacks a turn
    events = feed(game, "defend 1m 1m")  # nobody is attacked: the hasted kestrel attacks twice
    assert [c["what"] for c in of(events, Kind.CHECK)] == ["defend vs 大はやぶさ"] * 2
    assert [d["uid"] for d in of(events, Kind.DAMAGE)] == [2, 2]


def test_jr_ab_rust_the_ring_is_its_only_guard() -> None:
    """JR-AB-RUST: seed 000 spares armour in a 鎧保護状態 (armour protected) too, but
    nothing in it sets that state; the PC's sheet held a flag for it that nothing set,
    which a reader (or the screen's sheet) could take for a protection some item gives
    (a77jrrules NIT 3). The ring of armour protection (8p) is the guard."""
    assert "armour_protected" not in {field.name for field in dataclasses.fields(PC)}
    game = meet("ez", 9, "5m 1z 1z 1z")  # aquator
    wear(game, "8p")
    feed(game, "fight:1 1m")
    assert game.pc.armour.value == 3
