"""Grapple refusals say what was wrong, with the rule ID `fight act --help` promises
(a77cocgrapple NIT 7): "Ann is not held", "Bob holds nobody" and "throw the held one at
somebody else" named no rule, and the last did not say what a throw's TARGET is. Nothing is
played differently, so no revision."""

from __future__ import annotations

import re

import pytest

from companion.systems.coc.combat import BreakFree, Choke, Fight, Grapple, Throw
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel, pass_to, push, refused

P003, P004 = Profile.P003, Profile.P004


def restrained_004() -> Fight:
    """004: Ann restrains Cult in round 1; Ann's turn in round 2; Bob, Ann's ally, stands
    by."""
    f = duel(P004, {"grapple": 60}, third={"fist": 50})
    push(f, Grapple("Ann", "Cult"), (100, 30))
    pass_to(f, "Ann")
    return f


def exactly(text: str) -> str:
    return "^" + re.escape(text) + "$"


@pytest.mark.parametrize(("profile", "rule"), [(P003, "CO-GRAP-2"), (P004, "CO-GRAP-6")])
def test_breaking_free_when_not_held(profile: Profile, rule: str) -> None:
    refused(duel(profile, {"grapple": 60}), BreakFree("Ann"),
            exactly(f"Ann is not held: nothing to break free from ({rule})"))


@pytest.mark.parametrize(("profile", "action", "text"), [
    (P004, Choke("Ann"), "Ann holds nobody to choke 締め付け (CO-GRAP-7)"),
    (P004, Throw("Ann"), "Ann holds nobody to throw 投げ (CO-GRAP-8)"),
    (P003, Choke("Ann"), "Ann holds nobody to choke 締め上げ (CO-MA-2)"),
])
def test_a_choke_or_throw_with_nobody_held(profile: Profile, action: object,
                                           text: str) -> None:
    refused(duel(profile, {"grapple": 60}), action, exactly(text))


def test_throwing_the_held_one_at_itself_says_what_target_is_004() -> None:
    refused(restrained_004(), Throw("Ann", at="Cult"), exactly(
        "Cult is the one Ann holds: `act throw Ann` throws it; TARGET is whom it is thrown "
        "at (CO-GRAP-8)"))
    refused(restrained_004(), Throw("Ann", at="Ann"), exactly(
        "Ann cannot throw Cult at themself: TARGET is whom it is thrown at (CO-GRAP-8)"))
