"""Engine revision 25 (a77cocgrapple DEFECT 2): 004's throw from a height checks the height
before any die.

CO-GRAP-8 (004 l.171 「高所から落とした場合は代わりに落下ダメージを入れる」) deals CO-BASE-11's
fall, which the Keeper's own fall takes from 1 m. Revision 24 threw from a negative height as a
fall, and refused a height beyond the dice a roll takes only after the Grapple roll was typed
(and saved either as a plain missed throw when that roll failed).

Entries played by revision 24 replay as they were played.
"""

from __future__ import annotations

import pytest

from companion.systems.coc.combat import Fight, Grapple, Throw
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, pass_to, push, refused, replays

#: The revision before revision 25.
OLD = 24
ANN = {"weapons": ("fist",), "grapple": 60}


def restrained_004(engine: int) -> Fight:
    """004: Ann restrains Cult in round 1; Ann's turn in round 2."""
    f = at(engine, duel(Profile.P004, ANN))
    push(f, Grapple("Ann", "Cult"), (100, 30))
    pass_to(f, "Cult")
    pass_to(f, "Ann")
    return f


@pytest.mark.parametrize(("height", "match"), [
    # the value given is said, as a fall beyond the dice says it (r77coc NIT)
    (-3, r"^height_m=-3: a throw from a height of 1 m or more \(CO-GRAP-8, CO-BASE-11\)$"),
    (700, r"a fall of 700 m is 233D6, more than the 200 dice a roll takes: at most 602 m"),
])
def test_a_bad_height_is_refused_before_the_grapple_roll_004(height: int, match: str) -> None:
    refused(restrained_004(OLD + 1), Throw("Ann", height_m=height), match)


def test_a_good_height_still_falls_004() -> None:
    f = restrained_004(OLD + 1)
    text = push(f, Throw("Ann", height_m=6), (100, 10), (6, 3), (6, 2), (100, 20))
    assert "throw: fall 6 m ＞ (2D6) ＞ 5[3,2] (CO-BASE-11); the grapple ends" in text
    assert f.state.get("Cult").hp == 8
    replays(f)


def test_revision_24_threw_from_a_negative_height_004() -> None:
    f = restrained_004(OLD)
    text = push(f, Throw("Ann", height_m=-3), (100, 10), (6, 3), (100, 20))
    assert "throw: fall -3 m" in text and f.state.get("Cult").hp == 10
    replays(f)
