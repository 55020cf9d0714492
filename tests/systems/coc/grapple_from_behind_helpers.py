"""Shared by the coc grapple and tackle tests from behind (CO-DODGE-3, CO-GRAP-4): Ann, Cult,
CO-TACKLE-1 played in 003, and a fight where Cult holds Ann (cult_holds_ann)."""

from __future__ import annotations

from typing import Any

from companion.systems.coc.combat import ENGINE, Fight, Grapple, Place
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, pass_to, push

ANN: dict[str, Any] = {"weapons": ("fist",), "grapple": 60, "tackle": 60, "fist": 60}


CULT: dict[str, Any] = {"weapons": ("knife",), "knife": 50, "dodge": 50}


TACKLE_ON = {"CO-TACKLE-1": {"p003": "optional_on"}}


def cult_holds_ann(engine: int = ENGINE, profile: Profile = Profile.P003,
                   board: bool = True) -> Fight:
    """Cult holds (004: restrains) Ann; Bob's turn of round 2. On 003's board Cult is on d3
    facing N, Ann pulled in from d4, Bob on d2 at Cult's back."""
    f = duel(profile, {}, {"grapple": 60}, third={"tackle": 60, "fist": 60},
             settings=TACKLE_ON if profile is Profile.P003 else None)
    if board:
        push(f, Place("Ann", "d4", "S"))
        push(f, Place("Cult", "d3", "N"))
        push(f, Place("Bob", "d2", "N"))
    at(engine, f)
    pass_to(f, "Cult")
    # round 2 opens on Ann's turn: her STR roll fails (CO-GRAP-2, 003 from revision 10)
    strain = ((100, 90),) if profile is Profile.P003 and engine >= 10 else ()
    push(f, Grapple("Cult", "Ann"), (100, 30), *strain)
    assert f.state.get("Cult").grappling == "Ann"
    pass_to(f, "Bob")
    return f
