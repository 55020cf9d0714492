"""The genso rules' rounding from rules data: GM-MON-1's half, GM-MOVE-2, GM-HEAL-1.

genso61, spec §0.3 (round down unless a rule's own Default says otherwise): GM-MON-1's
「ＨＰが半分以下」 is the seed's number in rules data ([source."GM-MON-1"] flee_hp_divisor,
where the half was a 2 in the code) and rounds down: a monster of 13 HP wants to flee at 6,
not at 7. GM-MOVE-2's begun turn (its own Default, ceiling) and GM-HEAL-1's days of rest
(a remainder kept, not rounded) are read from rules data too."""

from __future__ import annotations

from dataclasses import replace
from importlib.resources import files

import pytest

from companion.systems.genso.calendar import curse_length
from companion.systems.genso.character.recovery import rest
from companion.systems.genso.combat.combatants import from_monster
from companion.systems.genso.combat.harm import wants_to_flee
from companion.systems.genso.rules import GensoRules, load_rules
from companion.systems.genso.sheet import preset
from companion.systems.genso.travel import journey

RULES = load_rules()


def rules_with(old: str, new: str) -> GensoRules:
    text = files("companion.systems.genso").joinpath("data", "rules.toml").read_text("utf-8")
    assert old in text
    return load_rules({"rules.toml": text.replace(old, new)})


@pytest.mark.parametrize(("hp", "flees"), [(7, False), (6, True), (1, True)])
def test_gm_mon_1_half_of_an_odd_maximum_rounds_down(hp: int, flees: bool) -> None:
    orc = replace(from_monster(RULES, RULES.monster("orc")), max_hp=13, hp=hp)
    assert wants_to_flee(RULES, orc) is flees


def test_gm_mon_1_the_half_is_read_from_rules_data() -> None:
    """A third, were the data to say so: the orc (12 HP) at 5 no longer flees, at 4 it does."""
    third = rules_with("flee_hp_divisor = 2", "flee_hp_divisor = 3")
    orc = from_monster(RULES, RULES.monster("orc"))
    assert wants_to_flee(RULES, replace(orc, hp=5))
    assert not wants_to_flee(third, replace(orc, hp=5))
    assert wants_to_flee(third, replace(orc, hp=4))


def test_gm_move_2_and_gm_heal_1_and_gm_magic_13_read_their_numbers_from_data() -> None:
    """GM-MOVE-2: 721 m is 2 turns by its Default (a turn begun counts), 1 by §0.3's round
    down; GM-HEAL-1: 3 days alone heal 1 HP and keep 1 day; GM-MAGIC-13: 1 year and 1 day."""
    assert journey(RULES, 721).turns == 2
    down = RULES.with_overrides({"GM-MOVE-2": {"begun_turn_counts": False}})
    assert journey(down, 721).turns == 1
    hurt = replace(preset(RULES, "pc1"), hp=5)
    healed, _ = rest(RULES, hurt, 3, healer=False)
    assert (healed.hp, healed.rest_days) == (6, 1)
    assert curse_length(RULES) == 366
    assert curse_length(rules_with("death_curse_days = 1", "death_curse_days = 2")) == 367
