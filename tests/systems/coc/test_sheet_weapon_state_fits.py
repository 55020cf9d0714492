"""A sheet's weapon state is one the weapon can be in (coc72 NIT 7): ``jammed`` on a firearm
that jams only (CO-FIRE-4; a revolver 「弾詰まりの起きない武器」 is dropped instead), and bare
hands neither ``dropped`` nor ``broken`` (CO-DISARM-1, engine revision 18: a fist is no weapon
to lose). A knife marked jammed was accepted and cleared with Knife; a fist marked dropped was
to be picked up. A saved fight's entrants still load as they were written."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import DataError
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.coc.sheet import sheet_from_mapping

RULES = load_rules(Profile.P004)


def mapping(weapon: dict[str, Any]) -> dict[str, Any]:
    return {"name": "Ann",
            "characteristics": {"STR": 13, "CON": 12, "POW": 10, "DEX": 14, "APP": 10,
                                "SIZ": 13, "INT": 12, "EDU": 12},
            "skills": {}, "weapons": [{"key": "automatic"}, weapon]}


@pytest.mark.parametrize(("weapon", "said"), [
    ({"key": "knife", "jammed": True},
     r"sheet weapon 1 \(the 2nd \[\[weapons\]\]\): jammed = true: a jam is a firearm's "
     r"\(CO-FIRE-4\), not ナイフ/Knife's; leave it out"),
    ({"key": "revolver", "jammed": True},
     r"jammed = true: a jam is a firearm's that jams \(CO-FIRE-4\), not "
     r"拳銃\(リボルバー\)/Revolver's"),
    ({"key": "fist", "dropped": True},
     r"dropped = true: こぶし\(パンチ\)/Fist/Punch is bare hands, neither dropped nor broken "
     r"\(CO-DISARM-1\); leave it out"),
    ({"key": "fist", "broken": True}, r"broken = true: こぶし\(パンチ\)/Fist/Punch is bare hands"),
])
def test_a_state_the_weapon_cannot_be_in_is_refused(weapon: dict[str, Any], said: str) -> None:
    with pytest.raises(DataError, match=said):
        sheet_from_mapping(RULES, mapping(weapon))
    kept = sheet_from_mapping(RULES, mapping(weapon), "entrant 1", kept=True)
    assert kept.weapons[1].info.key == weapon["key"]


def test_the_states_a_weapon_can_be_in_are_read() -> None:
    for weapon in ({"key": "automatic", "jammed": True}, {"key": "revolver", "dropped": True},
                   {"key": "knife", "dropped": True}, {"key": "knife", "broken": True}):
        sheet = sheet_from_mapping(RULES, mapping(weapon))
        w = sheet.weapons[1]
        assert (w.jammed, w.dropped, w.broken) == tuple(
            weapon.get(flag, False) for flag in ("jammed", "dropped", "broken"))
