"""CO-BASE-11's option (the spec: "Option (off): a successful Jump (跳躍) roll on landing
reduces the damage by 1D6"), the setting jump_reduces: off by Default, a fall is its dice
alone; on, the faller rolls Jump and a success takes 1D6 off (to 0 at least), for a Keeper's
fall and a 004 throw from a height alike."""

from __future__ import annotations

from companion.systems.coc.combat import Fall, Grapple, Throw
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel, pass_to, push, replays

ON = {"CO-BASE-11": {"jump_reduces": True}}


def test_off_by_default_no_jump_is_rolled() -> None:
    f = duel(Profile.P004, {}, {"jump": 60})
    text = push(f, Fall("Cult", 7), (6, 3), (6, 4))
    assert "fall 7 m ＞ (2D6) ＞ 7[3,4] (CO-BASE-11);" in text and "Jump" not in text
    assert f.state.get("Cult").hp == 6


def test_on_a_jump_on_landing_takes_1d6_off() -> None:
    f = duel(Profile.P004, {}, {"jump": 60}, settings=ON)
    text = push(f, Fall("Cult", 7), (6, 3), (6, 4), (100, 40), (6, 5))
    assert "Cult 跳躍/Jump on landing (1D100<=60) ＞ 40" in text
    assert "the Jump on landing takes off (1D6) ＞ 5: 2 (CO-BASE-11)" in text
    assert f.state.get("Cult").hp == 11
    g = duel(Profile.P004, {}, {"jump": 60}, settings=ON)
    push(g, Fall("Cult", 7), (6, 3), (6, 4), (100, 70))  # the Jump fails: all 7
    assert g.state.get("Cult").hp == 6
    h = duel(Profile.P004, {}, {"jump": 60}, settings=ON)
    push(h, Fall("Cult", 3), (6, 2), (100, 40), (6, 6))  # never below 0
    assert h.state.get("Cult").hp == 13
    replays(f)


def test_on_a_throw_from_a_height_too_004() -> None:
    f = duel(Profile.P004, {"grapple": 90}, {"jump": 60}, settings=ON)
    push(f, Grapple("Ann", "Cult"), (100, 10))
    pass_to(f, "Cult")
    pass_to(f, "Ann")
    text = push(f, Throw("Ann", height_m=6), (100, 30), (6, 4), (6, 4), (100, 20), (6, 3),
                (100, 10))  # the fall's 8, the Jump's 3 off; CON×4 made (CO-STUN-3)
    assert "Cult 跳躍/Jump on landing (1D100<=60) ＞ 20" in text
    assert "the Jump on landing takes off (1D6) ＞ 3: 5 (CO-BASE-11)" in text
    assert f.state.get("Cult").hp == 8
