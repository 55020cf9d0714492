"""a78cocfight NIT 6: from engine revision 26 a parry roll says its Japanese term beside the
English, ``Cult 受け流し/parry ナイフ/Knife``, as the dodge's says ``回避/Dodge`` (STYLE:
Japanese game terms beside English), a weapon's, a bare-handed or Grapple parry's, a
grapple's parried too. Revision 25's entries say ``Cult parry …`` on replay."""

from __future__ import annotations

from companion.systems.coc.combat import Attack, Defence, Grapple
from companion.systems.coc.combat.defences import PARRY_NAMED
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push, replays

ANN = {"weapons": ("fist",), "fist": 60, "grapple": 60}
CULT = {"weapons": ("knife",), "knife": 50, "grapple": 60}


def test_a_parry_says_its_japanese_term_004() -> None:
    f = duel(Profile.P004, ANN, CULT)
    text = push(f, Attack("Ann", "Cult", 0, defence=Defence.PARRY), (100, 50), (3, 2), (4, 1),
                (100, 20))
    assert "Cult 受け流し/parry ナイフ/Knife (1D100<=50) ＞ 20" in text
    replays(f)


def test_a_grapple_parried_with_grapple_says_it_004() -> None:
    f = duel(Profile.P004, ANN, CULT)
    text = push(f, Grapple("Ann", "Cult", defence=Defence.PARRY, parry_with="grapple"),
                (100, 50), (100, 20), (100, 40))
    assert "Cult 受け流し/parry 組み付き/Grapple 1/2 (1D100<=60) ＞ 20" in text
    replays(f)


def test_revision_25_said_parry_alone() -> None:
    old = at(PARRY_NAMED - 1, duel(Profile.P004, ANN, CULT))
    text = push(old, Attack("Ann", "Cult", 0, defence=Defence.PARRY), (100, 50), (3, 2), (4, 1),
                (100, 20))
    assert "Cult parry ナイフ/Knife (1D100<=50) ＞ 20" in text and "受け流し" not in text
    replays(old)
