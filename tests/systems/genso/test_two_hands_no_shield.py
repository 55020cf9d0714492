"""GM-EQUIP-1's Default ``two_hands_no_shield`` (audit genso63 RISK 7): a weapon held in two
hands (使用法 両手: 棒, 槍, 弓) leaves no hand for a shield. `gear` readied a spear beside a
shield and the shield's protection still counted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.errors import IllegalAction
from companion.systems.genso.character.core import Character, derive
from companion.systems.genso.character.gear import equip, unequip
from companion.systems.genso.rules import Grip, load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
OFF = RULES.with_overrides({"GM-EQUIP-1": {"two_hands_no_shield": False}})


def knight_with(*pack: str) -> Character:
    """The sample knight (sword, dagger and a shield worn) with ``pack`` carried."""
    knight = preset(RULES, "knight_m")
    assert knight.shield == "shield"
    return replace(knight, equipment=(*knight.equipment, *pack))


def test_the_default_is_data_a_gm_can_turn_off() -> None:
    assert RULES.default("GM-EQUIP-1", "two_hands_no_shield") is True
    assert RULES.item("spear").grip is Grip.TWO_HANDS


def test_a_two_handed_weapon_is_not_readied_while_a_shield_is_worn() -> None:
    knight = knight_with("spear")
    with pytest.raises(IllegalAction, match=r"騎士（男性） wears 楯/Shield, so 槍/Spear cannot "
                                            r"be readied: take 楯/Shield off first"):
        equip(RULES, knight, "spear")
    armed = equip(RULES, unequip(RULES, knight, "shield"), "spear")
    assert armed.weapons[0] == "spear" and armed.shield is None
    with pytest.raises(IllegalAction, match=r"has 槍/Spear readied, held in two hands, so "
                                            r"楯/Shield cannot be worn"):
        equip(RULES, armed, "shield")


def test_turned_off_both_are_worn_and_the_shield_counts() -> None:
    both = equip(OFF, knight_with("spear"), "spear")
    assert both.shield == "shield" and both.weapons[0] == "spear"
    assert derive(OFF, both).protection.total == derive(OFF, knight_with()).protection.total
    assert not [w for w in derive(OFF, both).warnings if "GM-EQUIP-1" in w]


def test_a_sheet_holding_both_is_warned_its_numbers_kept() -> None:
    """A sheet written by hand with both (or a fight saved with one) keeps its numbers; the
    sheet says the Default leaves no hand for the shield."""
    both = replace(knight_with(), weapons=("spear", "sword"))
    derived = derive(RULES, both)
    assert derived.protection.total == derive(OFF, both).protection.total
    assert any(w.startswith("GM-EQUIP-1: 槍/Spear held in two hands (両手) beside 楯/Shield")
               for w in derived.warnings)


def test_one_handed_weapons_and_a_shield_go_together() -> None:
    knight = equip(RULES, knight_with("club"), "club")
    assert knight.weapons[0] == "club" and knight.shield == "shield"
