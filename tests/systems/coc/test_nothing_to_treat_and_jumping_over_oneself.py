"""Two refusals that say why, before any die or AP (grapple73's known items).

First Aid or Medicine on one unhurt, conscious, not dying and not bleeding (CO-SKILL-2/3 in
003, CO-BASE-8 in 004) has nothing to treat: from engine revision 21 it is refused, where
revision 20 rolled it and spent the AP or the turn's action; entries played by revision 20
replay as they were played. And a jump over oneself (CO-SKILL-6) is named as such, where it
said "Kat must stand next to Kat"."""

from __future__ import annotations

import re

import pytest

from companion.systems.coc.combat import ENGINE, Jump, Place, Treat
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, hurt, patch, push, refused, replays

P003, P004 = Profile.P003, Profile.P004
SKILLS = {"first_aid": 60, "medicine": 60}


@pytest.mark.parametrize(("profile", "skill", "name", "rule"), [
    (P003, "first_aid", "応急手当/First Aid", "CO-SKILL-2"),
    (P003, "medicine", "医学/Medicine", "CO-SKILL-3"),
    (P004, "first_aid", "応急手当/First Aid", "CO-BASE-8")])
def test_treating_one_unhurt_is_refused(profile: Profile, skill: str, name: str,
                                        rule: str) -> None:
    f = duel(profile, SKILLS, third={})
    refused(f, Treat("Ann", "Bob", skill), "^" + re.escape(
        f"Bob is unhurt (HP 13/13), conscious and not bleeding: nothing for {name} to treat "
        f"({rule})") + "$")
    hurt(f, "Bob")
    assert "Bob heals" in push(f, Treat("Ann", "Bob", skill), (100, 10), (3, 1))
    replays(f)


def test_one_bleeding_at_full_hp_is_treated_004() -> None:
    """Bleeding (CO-BODY-6) is something to treat, whatever the HP."""
    f = duel(P004, SKILLS, third={})
    patch(f, "Bob", bleeding=("1D2",))
    assert "Bob's bleeding is staunched (CO-BODY-6)" in push(f, Treat("Ann", "Bob"), (100, 10),
                                                             (3, 1))


def test_revision_20_treated_the_unhurt() -> None:
    f = at(20, duel(P003, SKILLS, third={}))
    assert "Bob heals" in push(f, Treat("Ann", "Bob"), (100, 10), (3, 1))
    assert f.state.get("Ann").ap == 2 and ENGINE > 20
    replays(f)


def test_jumping_over_oneself_says_so_003() -> None:
    f = duel(P003, {"jump": 60})
    push(f, Place("Ann", "d2"))
    push(f, Place("Cult", "d3"))
    refused(f, Jump("Ann", "Ann"),
            r"^Ann cannot jump over themself: name the one to leap \(CO-SKILL-6\)$")
