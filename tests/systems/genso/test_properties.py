"""Property tests of `genso`: pools never above their maxima, money never negative, derived
values always equal to their formula, whatever sequence of actions is taken."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import tomlkit
from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.app.commands.genso import sheet_document
from companion.dice import SimulatedDice
from companion.errors import IllegalAction
from companion.systems.genso.character import core, gear, growth, recovery, shop
from companion.systems.genso.character.core import Character, Hand, Kind, derive
from companion.systems.genso.combat import (
    Action,
    Attack,
    Cast,
    Dodge,
    Fight,
    Flee,
    Move,
    Sleep,
    UseStone,
    Wait,
    entrants_for,
)
from companion.systems.genso.money import Purse
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import load_sheet, preset

RULES = load_rules()
ITEMS = ["shield", "leather_armor", "warhammer", "dagger", "torch", "ring_striking",
         "ring_protection", "ring_storage", "healing_stone", "sword_plus1"]


def formula(c: Character) -> dict[str, int]:
    """GM-CORE-3, GM-CORE-4, GM-EQUIP-2, GM-ITEM-3 written out again, independently."""
    rings_ok = len(c.rings_left) <= 1 and len(c.rings_right) <= 1
    worn = (c.rings_left + c.rings_right) if rings_ok else ()
    armour = sum(c.printed_protection.get(k, RULES.items[k].protection)
                 for k in (c.armor, c.shield) if k)
    return {
        "max_hp": (c.max_hp if c.max_hp is not None else c.body * 2) + c.hp_bonus,
        "max_mp": (c.max_mp if c.max_mp is not None else c.magic * 2) + c.mp_bonus,
        "attack": c.body + c.combat,
        "defence": c.body + c.combat,
        "protection": armour + (1 if "ring_protection" in worn else 0),
        "striking": 1 if "ring_striking" in worn else 0,
        "trap": c.trap_bonus if c.trap_bonus is not None else 2 * c.search,
    }


def derived_now(c: Character) -> dict[str, int]:
    d = derive(RULES, c)
    return {"max_hp": d.max_hp.total, "max_mp": d.max_mp.total, "attack": d.attack.total,
            "defence": d.defence.total, "protection": d.protection.total,
            "striking": d.striking, "trap": d.trap_bonus.total}


def step(c: Character, op: int, arg: int) -> Character:
    item = ITEMS[arg % len(ITEMS)]
    ops: list[Callable[[], Character]] = [
        lambda: shop.buy(RULES, c, item),
        lambda: shop.sell(RULES, c, item)[0],
        lambda: gear.equip(RULES, c, item),
        lambda: gear.unequip(RULES, c, item),
        lambda: gear.put_on_ring(RULES, c, item, Hand.LEFT if arg % 2 else Hand.RIGHT),
        lambda: gear.take_off_ring(RULES, c, item),
        lambda: growth.award_experience(RULES, c, 1 + arg % 3),
        lambda: growth.spend_experience(RULES, c, growth.GROWTH_CHOICES[arg % 5],
                                       ["lightning", "fire", "barrier"][arg % 3]),
        lambda: recovery.rest(RULES, replace(c, hp=c.hp - arg % 7), arg % 9, bool(arg % 2))[0],
        lambda: recovery.sleep(RULES, replace(c, mp=c.mp - arg % 5)),
        lambda: shop.buy_mana_stone(RULES, c, 1 + arg % 5),
    ]
    try:
        return ops[op % len(ops)]()
    except IllegalAction:
        return c


@example("adventurer_f", 0, [(3, 0)])  # taking off a shield with a printed number (NPC)
@example("dark_fairy", 0, [(3, 69), (1, 29)])  # selling a weapon with a printed number
@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(RULES.presets)), st.integers(0, 3000),
       st.lists(st.tuples(st.integers(0, 10), st.integers(0, 99)), max_size=40))
def test_character_actions_keep_the_rules(key: str, money: int,
                                          ops: list[tuple[int, int]]) -> None:
    """GM-ECON-1, GM-CORE-3, GM-CORE-4, GM-GROW-2, GM-HEAL-1, GM-ITEM-3: after any action money
    is never negative, HP/MP never above their maxima, derived values equal their formula, and
    the sheet round-trips."""
    c = replace(preset(RULES, key), purse=Purse().receive(money, core.rates(RULES)))
    for op, arg in ops:
        c = step(c, op, arg)
        assert min(c.purse.gold, c.purse.large_silver, c.purse.silver) >= 0
        now = derived_now(c)
        assert now == formula(c)
        assert c.hp <= now["max_hp"] and c.mp <= now["max_mp"]
    assert load_sheet(RULES, sheet_text_of(c)) == c
    assert c.kind in (Kind.PC, Kind.NPC)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.tuples(st.integers(0, 8), st.integers(0, 20),
                                                  st.booleans()), max_size=40))
def test_fights_keep_pools_within_their_maxima(seed: int,
                                               moves: list[tuple[int, int, bool]]) -> None:
    """GM-COMBAT-8, GM-MAGIC-2, GM-ITEM-2, GM-HEAL-2: whatever is attempted, no combatant's HP
    or MP rises above its maximum and an illegal action changes nothing."""
    party = [preset(RULES, "pc2"), replace(preset(RULES, "forest_fairy"),
                                           equipment=("healing_stone", "enchant_stone"))]
    fight = Fight(RULES, entrants_for(RULES, party, [("orc", 1), ("wight", 1), ("ghost", 1)]))
    dice = SimulatedDice.seeded(seed)
    spells = ["healing", "lightning", "fire", "protection", "exorcism", "dispel", "barrier"]
    for kind, pick, flag in moves:
        state = fight.state
        names = [c.name for c in state.combatants]
        actor = state.current.name if state.current else names[pick % 2]
        target = names[pick % len(names)]
        options: list[Action] = [
            Attack(actor, target, pick % 2, flag), Cast(actor, spells[pick % 7], (target,)),
            Dodge(actor), Move(actor, ["combat", "normal", "full"][pick % 3]), Wait(actor),
            UseStone(actor, ["healing_stone", "enchant_stone"][pick % 2], target),
            Flee(actor) if pick == 0 else Wait(actor), Sleep(),
            Cast(actor, "healing", (target,), stone=0),
        ]
        action = options[kind]
        try:
            fight.push(action, dice)
        except IllegalAction:
            assert fight.state == state
        for c in fight.state.combatants:
            assert c.mp <= c.max_mp
            if c.hp is not None and c.max_hp is not None:
                assert c.hp <= c.max_hp


def sheet_text_of(character: Character) -> str:
    """The sheet as `companion genso` writes it."""
    return tomlkit.dumps(sheet_document(character))
