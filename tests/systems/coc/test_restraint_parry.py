"""Engine revision 6: a 004 grappler restraining its opponent parries with no two-handed
weapon (CO-GRAP-6, 004 l.164 「拘束したまま片手で扱える武器が使用可能(拳銃など)」: one hand
holds). Entries played by revision 5 replay as they were played."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import ENGINE, Attack, Defence, Fight, Grapple
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, pass_to, push, replays

#: Cult holds a two-handed sword and a one-handed knife, and grapples.
CULT: dict[str, Any] = {"weapons": ("japanese_sword", "knife"), "japanese_sword": 60,
                        "knife": 60, "grapple": 90, "dodge": 50}
BOB: dict[str, Any] = {"weapons": ("knife",), "knife": 80}


def restraining(engine: int) -> Fight:
    """004: Cult restrains Ann in round 1; Bob's turn in round 2."""
    f = at(engine, duel(Profile.P004, {}, CULT, third=BOB))
    pass_to(f, "Cult")
    push(f, Grapple("Cult", "Ann"), (100, 10))
    assert f.state.get("Ann").held_by == "Cult"
    pass_to(f, "Bob")
    return f


def test_a_restraining_grappler_parries_with_no_two_handed_weapon_004() -> None:
    """Bob stabs Cult, who holds Ann: its two-handed sword cannot parry (one hand holds
    Ann), its knife can, and so can a dodge. Revision 5 parried with the sword."""
    f = restraining(ENGINE)
    with pytest.raises(IllegalAction, match=r"Cult is in a grapple: no parry with a "
                                            r"two-handed weapon \(CO-GRAP-6\)"):
        f.push(Attack("Bob", "Cult", defence=Defence.PARRY, parry_weapon=0), ScriptedDice([]))
    text = push(f, Attack("Bob", "Cult", defence=Defence.PARRY, parry_weapon=1), (100, 30),
                (4, 1), (4, 1), (100, 10))
    assert "parried" in text and f.state.get("Cult").hp == 13
    replays(f)
    old = restraining(5)
    text = push(old, Attack("Bob", "Cult", defence=Defence.PARRY, parry_weapon=0), (100, 30),
                (4, 1), (4, 1), (100, 10))
    assert "parried" in text
    replays(old)


def test_a_grappler_not_yet_holding_still_parries_with_its_sword_004() -> None:
    """Before the grapple holds, both hands are free: Cult parries Bob with its sword."""
    f = duel(Profile.P004, {}, CULT, third=BOB)
    pass_to(f, "Bob")
    text = push(f, Attack("Bob", "Cult", defence=Defence.PARRY, parry_weapon=0), (100, 30),
                (4, 1), (4, 1), (100, 10))
    assert "parried" in text
