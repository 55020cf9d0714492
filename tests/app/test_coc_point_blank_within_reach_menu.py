"""The table's More 状況 offers no touch once a distance beyond arm's reach is picked, and no
distance once touch is (coc74 DEFECT 1, engine revision 22: 004 l.73 「"タッチ(手が届く範囲)"」,
CO-RANGE-3 with CO-RANGE-2): each is offered only where the engine takes it, and the engine
refuses the pair. A fight played by revision 21 is offered what 21 took, so its table save
replays."""

from __future__ import annotations

from typing import Any

from companion.systems.coc.combat import Fight
from companion.systems.coc.rules import Profile
from tests.app.coc_table_helpers import menu_after
from tests.systems.coc.helpers import at, duel

ANN: dict[str, Any] = {"weapons": ("revolver", "fist"), "handgun": 50, "fist": 50}
ATTACK = ("attack", "t:Cult", "w:0", "h:plain", "m:more")


def keys_after(fight: Fight, *keys: str) -> list[str]:
    """The choices the table offers after picking ``keys`` one after the other."""
    return [o.choice for o in menu_after(fight, *keys).options]


def test_no_touch_after_a_distance_and_no_distance_after_touch_004() -> None:
    assert {"m:dist", "m:touch"} <= set(keys_after(duel(Profile.P004, ANN), *ATTACK))
    after_distance = keys_after(duel(Profile.P004, ANN), *ATTACK, "m:dist", "v:45", "m:more")
    assert "m:touch" not in after_distance and "m:behind" in after_distance
    after_touch = keys_after(duel(Profile.P004, ANN), *ATTACK, "m:touch", "m:more")
    assert "m:dist" not in after_touch and "m:behind" in after_touch


def test_revision_21_still_offers_touch_after_a_distance_004() -> None:
    fight = at(21, duel(Profile.P004, ANN))
    assert "m:touch" in keys_after(fight, *ATTACK, "m:dist", "v:45", "m:more")
