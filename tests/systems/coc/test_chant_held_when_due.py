"""Engine revision 20 (coc72 DEFECT 3, CO-SPELL-1): a chanted or gestured spell whose caster is
held when it comes due does not take effect. Seed 004 l.152-153 「"詠唱/祝詞"や"身振り/舞"が
必要な場合の呪文は往々にして「体が自由かつ、活動的な状態にある」場合でないと使用できない。よって、
組み付き等の技能による攻撃で自由を奪われた場合は呪文を使用することはできない」: the chant is the
casting. Revision 19 checked the caster only when it began, so a 004 restraint (no damage,
hence no CO-SPELL-2 POW×1) let the spell land; its entries replay as they were played."""

from __future__ import annotations

from typing import Any

from companion.systems.coc.combat import Cast, Fight, Grapple
from companion.systems.coc.combat.spells import HELD_AT_THE_END
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push, replays

#: The revision before the fix.
OLD = 19
CULT: dict[str, Any] = {"weapons": ("fist",), "grapple": 90}


def restrained_mid_chant(engine: int, **cast: Any) -> tuple[Fight, str]:
    """004: Ann begins Shrivelling, Cult restrains her (no damage), and round 2 opens on
    Ann's turn; the fight and the text of the grapple, its turn passing to Ann's."""
    f = at(engine, duel(Profile.P004, {}, CULT))
    push(f, Cast("Ann", "Shrivelling", mp=5, **cast))
    text = push(f, Grapple("Cult", "Ann"), (100, 10))  # one action: the turn passes
    assert f.state.get("Ann").held_by == "Cult" and "round 2" in text
    assert f.state.current is not None and f.state.current.name == "Ann"
    return f, text


def test_a_caster_held_when_the_chant_comes_due_casts_nothing_004() -> None:
    assert HELD_AT_THE_END == OLD + 1
    f, text = restrained_mid_chant(HELD_AT_THE_END)
    assert ("Ann's Shrivelling stops: Ann is held by Cult and cannot chant or gesture "
            "(CO-SPELL-1)") in text
    assert "takes effect" not in text
    ann = f.state.get("Ann")
    assert ann.chanting == "" and ann.mp == 5  # the MP stay spent
    replays(f)


def test_spells_needing_no_free_body_still_take_effect_004() -> None:
    """Neither a spell with no words or gestures (verbal=false) nor a semi-automatic one
    (CO-SPELL-2 「半自動的に発動するタイプ」) needs the free body."""
    for cast in ({"verbal": False}, {"automatic": True}):
        _, text = restrained_mid_chant(HELD_AT_THE_END, **cast)
        assert "Ann's Shrivelling takes effect (CO-SPELL-2)" in text, cast


def test_revision_19_cast_it_held_004() -> None:
    f, text = restrained_mid_chant(OLD)
    assert "Ann's Shrivelling takes effect (CO-SPELL-2)" in text and "stops" not in text
    replays(f)
