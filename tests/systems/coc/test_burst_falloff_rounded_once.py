"""A burst's range falloff rounded once, on the burst's damage (engine revision 22, coc74
DEFECT 2).

Seed 004 l.64 「1D20で出た回数を火器のダメージに掛けて出たダメージが算出される」: the burst's
damage is one figure, the weapon's damage × hits; l.71 「距離による弾丸の減衰ダメージも同様に
"3倍では1/3、4倍なら1/4"」 divides that damage (CO-RANGE-2, rounded by §0.3, down by Default).
Revision 21 divided and rounded down each bullet on its own: three bullets of 3 at 4× range did
0, where 9 ÷4 is 2. Each bullet carries its part of the running total, so the armour still
stops up to its value a bullet (CO-ARMOR-2), after the falloff as for a single shot (the
reading "CO-RANGE-2 (burst)"). Entries played by revision 21 replay as they were played.
"""

from __future__ import annotations

from companion.systems.coc.combat import Attack
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push, replays

P004 = Profile.P004
#: The revision before revision 22.
OLD = 21
#: An AK47 (2D6+1, base range 90 m) at 4× its range: skill 60 ×1/4 = 15.
AK = {"weapons": ("ak47",), "rifle": 60}
BURST = Attack("Ann", "Cult", burst=True, distance_m=360)
#: The roll (10), three hits, each bullet 1+1+1 = 3.
DICE = ((100, 10), (20, 3), (6, 1), (6, 1), (6, 1), (6, 1), (6, 1), (6, 1))


def test_three_bullets_of_3_at_4x_range_do_9_over_4_rounded_once() -> None:
    f = duel(P004, AK)
    text = push(f, BURST, *DICE)
    assert "base 60 ×1/4 (360 m, 4× range, CO-RANGE-2) = 15" in text
    assert "the burst's 3 ÷4 = 0 so far, this bullet's part 0 (rounded once" in text
    assert "the burst's 6 ÷4 = 1 so far, this bullet's part 1 (rounded once" in text
    assert "the burst's 9 ÷4 = 2 so far, this bullet's part 1 (rounded once" in text
    assert f.state.get("Cult").hp == 13 - 2
    replays(f)


def test_revision_21_rounds_each_bullet_down_as_played() -> None:
    f = at(OLD, duel(P004, AK))
    text = push(f, BURST, *DICE)
    assert text.count("= 3 ÷4 = 0 (CO-RANGE-2)") == 3
    assert f.state.get("Cult").hp == 13
    replays(f)


def test_the_armour_stops_its_value_from_each_bullet_s_part() -> None:
    """Falloff before armour, a bullet at a time (CO-ARMOR-2, the Default per bullet): the
    parts 0, 1, 1 meet a jacket of 1, which stops the two 1s and wears twice."""
    jacket = [{"name": "jacket", "value": 1, "uses": 3}]
    f = duel(P004, AK, {"armour": jacket})
    text = push(f, BURST, *DICE)
    assert text.count("jacket stops 1") == 2 and f.state.get("Cult").hp == 13
    assert f.state.get("Cult").sheet.armour[0].uses == 1
    replays(f)


def test_the_rounding_setting_rounds_the_burst_s_total() -> None:
    """§0.3.rounding = "up" (CO-RANGE-2 rounds by it): bullets of 3, 3 and 5 do 11 ÷4 = 3,
    where each bullet on its own made 4 (1 + 1 + 2)."""
    f = duel(P004, AK, settings={"§0.3": {"rounding": "up"}})
    text = push(f, BURST, *DICE[:2], (6, 1), (6, 1), (6, 1), (6, 1), (6, 2), (6, 2))
    assert "the burst's 11 ÷4 = 3 so far" in text and f.state.get("Cult").hp == 13 - 3
    replays(f)
