"""Numbers past what a roll takes are refused in the rule's words (coc72 NIT 8), not the dice
parser's: a fall of 9999 m (CO-BASE-11, 1D6 per full 3 m: 3333D6) and a sheet whose STR + SIZ
gives a damage bonus past 200 dice (CO-BASE-1: STR 3400, +212D6), which was accepted and then
failed every blow with 'the number of dice must be from 1 to 200 at character 5: 1D3+212D6'.
Both refused before any die; a saved fight's entrants load as written."""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.systems.coc.combat import Fall
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.coc.sheet import sheet_from_mapping, sheet_mapping
from tests.systems.coc.helpers import duel, person, push, refused


def test_a_fall_past_200_dice_is_refused_by_its_rule() -> None:
    f = duel(Profile.P004, {}, {})
    refused(f, Fall("Cult", 9999),
            r"^a fall of 9999 m is 3333D6, more than the 200 dice a roll takes: at most "
            r"602 m \(CO-BASE-11: 1D6 per full 3 m\)$")
    refused(f, Fall("Cult", 603), r"a fall of 603 m is 201D6")
    text = push(f, Fall("Cult", 602), *[(6, 1)] * 200)
    assert "fall 602 m ＞ (200D6) ＞ 200" in text


def test_a_damage_bonus_past_200_dice_is_refused_at_the_sheet() -> None:
    rules = load_rules(Profile.P004)
    data = sheet_mapping(person(rules, "Ann", 14))
    data["characteristics"] = {**data["characteristics"], "STR": 3400}
    with pytest.raises(DataError, match=r"^ann\.toml: STR 3400 \+ SIZ 13 gives a damage bonus "
                                        r"of \+212D6 \(CO-BASE-1\), more than the 200 dice a "
                                        r"roll takes; lower STR or SIZ, or write db$"):
        sheet_from_mapping(rules, data, "ann.toml")
    assert sheet_from_mapping(rules, data, "entrant 1", kept=True).db == "+212D6"
    data["characteristics"]["STR"] = 3000  # +187D6: within a roll
    assert sheet_from_mapping(rules, data, "ann.toml").db == "+187D6"
