"""System `genso`: rules a mutation spot check (round 2) found untested.

Each test names its rule ID and asserts the outcome spec §2 and seed 002 give.
"""

from __future__ import annotations

from dataclasses import replace

from companion.dice import ScriptedDice
from companion.systems.genso.character.core import Character, derive
from companion.systems.genso.checks import simple_check
from companion.systems.genso.combat import Action, Attack, Cast, Entry, Fight, Wait, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
PC1 = "駆け出し冒険者１"
KNIGHT = "騎士（男性）"
FAIRY = "一般的な森妖精の冒険者"
ORC = "オーク"


def d6(*values: int) -> ScriptedDice:
    return ScriptedDice((6, v) for v in values)


def pc(key: str, **changes: object) -> Character:
    return replace(preset(RULES, key), **changes)  # type: ignore[arg-type]


def act(fight: Fight, action: Action, *faces: int) -> Entry:
    dice = d6(*faces)
    entry = fight.push(action, dice)
    assert dice.remaining == [], entry.text
    return entry


def test_gm_check_1_difficulty_12_is_impossible_on_2d() -> None:
    """GM-CHECK-1: success needs 2D strictly greater than the difficulty (２Ｄ＞難易度), and 2D
    is at most 12, so a difficulty of 12 is as impossible as 15: said, and a double six fails."""
    check = simple_check(RULES, d6(6, 6), 12)
    assert not check.success
    assert check.chance == 0
    assert any("impossible" in note for note in check.notes)
    assert not simple_check(RULES, d6(6, 6), 11).notes  # 11 can be beaten (P = 1/36)


def test_gm_magic_7_protection_never_turns_a_drain_into_healing() -> None:
    """GM-MAGIC-7 (PG, Default) takes 2 off each part of a drain (GM-MON-4): the Ghost drains
    MP 4 and no HP, so under Protection the knight loses MP 2 and HP 0, not HP −2 (a gain)."""
    fight = Fight(RULES, entrants_for(RULES, [pc("knight_m"), pc("forest_fairy")],
                                      [("ghost", 1)]))
    before = fight.state.get(KNIGHT)
    act(fight, Wait(KNIGHT))
    act(fight, Cast(FAIRY, "protection", (KNIGHT,)))
    act(fight, Attack("ゴースト", KNIGHT, full=True), 1, 1)
    knight = fight.state.get(KNIGHT)
    assert (knight.hp, knight.mp) == (before.hp, before.mp - 2)


def test_gm_magic_7_protection_never_makes_a_weak_undead_blow_heal() -> None:
    """GM-MAGIC-7 (PG): an undead's weapon does 2 less damage, never below 0 (GM-CORE-1): the
    Undead Corpse's fist 1D−4 rolling 5 makes 1, and Protection leaves 0, not −1."""
    fight = Fight(RULES, entrants_for(RULES, [pc("pc1"), pc("forest_fairy")],
                                      [("undead_corpse", 1)]))
    before = fight.state.get(PC1).hp
    act(fight, Wait(PC1))
    act(fight, Cast(FAIRY, "protection", (PC1,)))
    entry = act(fight, Attack("アンデッド・コープス", PC1), 1, 1, 5)
    assert fight.state.get(PC1).hp == before, entry.text


def test_gm_mon_1_a_monster_at_exactly_half_hp_wants_to_flee() -> None:
    """GM-MON-1 「HP ≤ half its maximum」: the orc (HP 12) brought to exactly 6 tries to flee."""
    fight = Fight(RULES, entrants_for(RULES, [pc("adventurer_m")], [("orc", 1)]))
    # Body 6 + Combat 2 + 2D 6 = 14 > 13 hits; the warhammer 2D−2 rolls 8 − 2 = 6
    entry = act(fight, Attack("一般的な冒険者（男性）", ORC), 3, 3, 4, 4)
    assert fight.state.get(ORC).hp == 6
    assert "GM-MON-1" in [line.rule for line in entry.lines]


def test_gm_magic_5_undead_of_equal_magic_may_enter_the_barrier() -> None:
    """GM-MAGIC-5: only undead whose Magic is *lower* than the caster's are kept out; a Wight
    (Magic 6) walks into the barrier of a Magic 6 caster and attacks."""
    fairy = pc("forest_fairy", magic=6, mp=12)
    fight = Fight(RULES, entrants_for(RULES, [fairy, pc("pc1")], [("wight", 1)]))
    act(fight, Cast(FAIRY, "barrier", (PC1,)))
    act(fight, Wait(PC1))
    entry = act(fight, Attack("ワイト", PC1), 1, 1)
    assert "GM-MON-4" in [line.rule for line in entry.lines]


def test_gm_item_1_a_stone_pays_only_what_the_ring_left_unpaid() -> None:
    """GM-ITEM-3, GM-ITEM-1, GM-MAGIC-1: Healing costs 4 MP; a Ring of Storage holding 1 pays
    1 first, the named mana stone (5 MP) the other 3, and the caster's own MP nothing: the
    stone keeps 2 and the caster's MP is unchanged (it is not paid back the stone's excess)."""
    wearer = pc("pc2", mp=7, rings_left=("ring_storage",), storage_mp=1, mana_stones=(5,))
    fight = Fight(RULES, entrants_for(RULES, [pc("pc1", hp=3), wearer], [("orc", 1)]))
    act(fight, Wait(PC1))
    entry = act(fight, Cast("駆け出し冒険者２", "healing", (PC1,), stone=0, ring=True))
    assert entry.lines[0].text == ("駆け出し冒険者２ pays 蓄積の指輪/Ring of Storage −1, "
                                   "魔力石/mana stone −3")
    after = fight.state.get("駆け出し冒険者２")
    assert (after.storage_mp, after.mana_stones, after.mp) == (0, (2,), 7)


def test_gm_magic_1_armour_against_spells_when_on_never_heals() -> None:
    """GM-MAGIC-1 (armour-reduces-spells, off by Default) with GM-COMBAT-7's minimum 0: a Magic 2
    Fire on the knight (protection 12) does 0 damage, it does not give HP back."""
    rules = RULES.with_overrides({"GM-MAGIC-1": {"armor_reduces_spells": True}})
    fairy = pc("forest_fairy", magic=2)
    fight = Fight(rules, entrants_for(rules, [fairy, pc("knight_m")], [("orc", 1)]))
    before = fight.state.get(KNIGHT).hp
    entry = act(fight, Cast(FAIRY, "fire", (KNIGHT,)))
    assert f"{KNIGHT} takes 0 damage" in entry.text
    assert fight.state.get(KNIGHT).hp == before


def test_gm_check_3_with_the_default_off_the_printed_bonus_gives_way_to_search() -> None:
    """GM-CHECK-3: the printed 罠発見＋N replaces 2 × Search only under the Default
    ``printed_bonus_replaces_search``; switched off, a Search−1 sheet printing ＋5 detects
    traps at +2 (GM-CORE-4: +2 per Search level), and at +5 with it on."""
    sheet = pc("pc1", search=1, trap_bonus=5)
    off = RULES.with_overrides({"GM-CHECK-3": {"printed_bonus_replaces_search": False}})
    assert derive(off, sheet).trap_bonus.total == 2
    assert derive(RULES, sheet).trap_bonus.total == 5
