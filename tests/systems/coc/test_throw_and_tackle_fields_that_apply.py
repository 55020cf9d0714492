"""Engine revision 25 (a77cocgrapple NIT 6): a throw's or tackle's field that is not played
is refused before any die, as 003's throw already refused ``skill``.

- 003's throw (CO-MA-2, 003 l.44 「相手を任意の方向に2マス先へ投げ飛ばす」) has no height: the
  fall from a height is 004's (CO-GRAP-8, l.171).
- ``toward`` is a way on the board (CO-TURN-2), which 004 has not.
- ``at_dodges`` is 003's landing (「回避行動を行わなかった場合1D3」); 004's enemy thrown at is
  hit, no dodge (the reading "CO-GRAP-8 (thrown at)").
- ``obstacle``'s +1D6 is blow back's (CO-TACKLE-2, 004 l.176).

Revision 24 took each and played as if it were left out. Entries it played replay as they
were played.
"""

from __future__ import annotations

import pytest

from companion.systems.coc.combat import Fight, Grapple, Tackle, Throw
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, pass_to, push, refused, replays

#: The revision before revision 25.
OLD = 24
MA_GRAPPLER = {"weapons": ("fist",), "grapple": 60, "martial_arts": 60}


def held_003(engine: int) -> Fight:
    """003, off the board: Ann MA-grapples Cult (full success, CO-MA-2); Ann's turn in
    round 2, Cult's STR rolls (CO-GRAP-2) failed."""
    f = at(engine, duel(Profile.P003, MA_GRAPPLER))
    push(f, Grapple("Ann", "Cult", ma=True), (100, 10), (100, 99))
    pass_to(f, "Ann")
    return f


def restrained_004(engine: int) -> Fight:
    """004: Ann restrains Cult in round 1; Ann's turn in round 2."""
    f = at(engine, duel(Profile.P004, {"grapple": 60}, third={"fist": 50}))
    push(f, Grapple("Ann", "Cult"), (100, 30))
    pass_to(f, "Ann")
    return f


def test_003s_throw_refuses_a_height() -> None:
    refused(held_003(OLD + 1), Throw("Ann", height_m=9),
            r"^003's throw has no height: leave out height_m \(CO-MA-2\)$")


@pytest.mark.parametrize(("throw", "match"), [
    # r77coc: off the board, 003 took toward and played as if it were left out
    (Throw("Ann", toward="N"), r"^toward is a way on the board \(CO-TURN-2\), and Ann is not "
                               r"on it: leave it out \(CO-MA-2\)$"),
    # r77coc: with nobody thrown at, 003 dropped at_dodges unsaid
    (Throw("Ann", at_dodges=True), r"^at_dodges is the dodge of the one thrown at: name it "
                                   r"as TARGET, or leave at_dodges out \(CO-MA-2\)$"),
])
def test_003s_throw_off_the_board_refuses_what_it_does_not_play(throw: Throw,
                                                                 match: str) -> None:
    refused(held_003(OLD + 1), throw, match)


@pytest.mark.parametrize(("throw", "match"), [
    (Throw("Ann", toward="N"), r"^toward is a way on the board \(CO-TURN-2\), off in this "
                               r"profile: leave it out \(CO-MA-2\)$"),
    (Throw("Ann", at="Bob", at_dodges=True), r"^at_dodges is 003's landing \(CO-MA-2\): 004's "
                                             r"enemy thrown at is not dodged"),
])
def test_004s_throw_refuses_003s_fields(throw: Throw, match: str) -> None:
    refused(restrained_004(OLD + 1), throw, match)


def test_an_obstacle_without_blow_back_is_refused_004() -> None:
    f = duel(Profile.P004, {"tackle": 60})
    for option in ("", "knock_down"):
        refused(f, Tackle("Ann", "Cult", option, obstacle=True),
                r"^obstacle goes with option=blow_back \(CO-TACKLE-2\)$")


def test_revision_24_took_them_and_played_as_if_left_out() -> None:
    f = held_003(OLD)
    text = push(f, Throw("Ann", height_m=9), (6, 3), (2, 1))
    assert "throw: (1D6+1D2) ＞ 3[3]+1[1]=4 (CO-MA-2); the grapple ends" in text
    assert "fall " not in text
    replays(f)
    g = at(OLD, duel(Profile.P004, {"tackle": 60}))
    text = push(g, Tackle("Ann", "Cult", obstacle=True), (100, 30), (6, 3), (4, 1))
    assert "obstacle" not in text
    replays(g)
