"""CO-SURP-1 (004 l.37 「計算されたダメージをそのまま受ける」): "takes the damage as it is" is
read by the spec's Default as "armour still applies" (armour_applies = true); the setting's
other reading, false, lets no armour reduce a surprise attack's damage."""

from __future__ import annotations

from typing import Any

import pytest

from companion.systems.coc.combat import Attack
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel, push, replays

ANN: dict[str, Any] = {"weapons": ("knife",), "knife": 60, "hide": 95}
CULT: dict[str, Any] = {"armour": [{"name": "leather 革鎧", "value": 2}]}
#: Hide 40, the knife 20, 1D4+2+1D4 = 7 (leather stops 2), Cult's Luck 70 fails to spot Ann.
DICE = ((100, 40), (100, 20), (4, 3), (4, 2), (100, 70))


@pytest.mark.parametrize("applies, hp", [(None, 13 - 5), (True, 13 - 5), (False, 13 - 7)])
def test_armour_against_a_surprise_attack(applies: bool | None, hp: int) -> None:
    settings = None if applies is None else {"CO-SURP-1": {"armour_applies": applies}}
    f = duel(Profile.P004, ANN, CULT, settings=settings)
    text = push(f, Attack("Ann", "Cult", surprise="hide"), *DICE)
    assert f.state.get("Cult").hp == hp
    assert ("takes a surprise attack's damage as it is: no armour (CO-SURP-1)" in text) is (
        applies is False)
    replays(f)
