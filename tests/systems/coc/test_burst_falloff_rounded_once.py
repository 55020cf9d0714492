"""A burst's range falloff rounded once, on the burst's damage (engine revision 22, coc74
DEFECT 2).

Seed 004 l.64 「1D20で出た回数を火器のダメージに掛けて出たダメージが算出される」: the burst's
damage is one figure, the weapon's damage × hits; l.71 「距離による弾丸の減衰ダメージも同様に
"3倍では1/3、4倍なら1/4"」 divides that damage (CO-RANGE-2, rounded by §0.3, down by Default).
Revision 21 divided and rounded down each bullet on its own: three bullets of 3 at 4× range did
0, where 9 ÷4 is 2. Each bullet carries its exact share (3 ÷4 = 3/4) through the armour, which
stops up to its value a bullet (CO-ARMOR-2), after the falloff as for a single shot, and the
damage through is rounded once (the reading "CO-RANGE-2 (burst)"), so the bullets' order
does not matter (reviewcoc74 RISK 2). Entries played by revision 21 replay as they were played.
"""

from __future__ import annotations

import pytest

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
    assert text.count("= 3 ÷4 = 3/4 exactly (the burst's") == 3
    assert "the burst's damage through so far 3/4, rounded 0 (§0.3): this bullet's part 0" \
        in text
    assert "the burst's damage through so far 3/2, rounded 1 (§0.3): this bullet's part 1" \
        in text
    assert "the burst's damage through so far 9/4, rounded 2 (§0.3): this bullet's part 1" \
        in text
    assert f.state.get("Cult").hp == 13 - 2
    replays(f)


def test_revision_21_rounds_each_bullet_down_as_played() -> None:
    f = at(OLD, duel(P004, AK))
    text = push(f, BURST, *DICE)
    assert text.count("= 3 ÷4 = 0 (CO-RANGE-2)") == 3
    assert f.state.get("Cult").hp == 13
    replays(f)


def test_the_armour_stops_each_bullet_s_exact_share() -> None:
    """Falloff before armour, a bullet at a time (CO-ARMOR-2, the Default per bullet): the
    shares 3/4, 3/4, 3/4 meet a jacket of 1, which stops each whole and wears three times (a
    use a bullet that reaches it, 004 l.32)."""
    jacket = [{"name": "jacket", "value": 1, "uses": 3}]
    f = duel(P004, AK, {"armour": jacket})
    text = push(f, BURST, *DICE)
    assert text.count("jacket stops 3/4") == 3 and f.state.get("Cult").hp == 13
    assert f.state.get("Cult").sheet.armour[0].uses == 0
    replays(f)


#: An SMG (1D10+2, base range 20 m) at 80 m, ×1/4: three hits against a coat of 1.
SMG = {"weapons": ("smg",), "smg": 60}
COAT = {"armour": [{"name": "coat", "value": 1, "uses": 30}]}


def smg_burst(faces: tuple[int, ...], settings: dict[str, dict[str, object]] | None = None,
              engine: int = 22, distance_m: int = 80, armour: object = COAT) -> int:
    """Cult's HP after a bullet for each of ``faces`` on 1D10 (+2 each)."""
    f = at(engine, duel(P004, SMG, armour, settings=settings))  # type: ignore[arg-type]
    push(f, Attack("Ann", "Cult", burst=True, distance_m=distance_m), (100, 10),
         (20, len(faces)), *[(10, x) for x in faces])
    replays(f)
    return f.state.get("Cult").hp


@pytest.mark.parametrize("settings", [None, {"CO-ARMOR-2": {"pool_across_bullets": True}}])
def test_the_burst_s_damage_does_not_hang_on_the_bullets_order(
        settings: dict[str, dict[str, object]] | None) -> None:
    """reviewcoc74 RISK 2: bullets of 3, 3, 5 at ÷4 (11/4) against a coat of 1. Parts of the
    running total taken before the armour gave 0, 1, 1 in one order (the coat stopped both
    1s: HP 13) and 0, 2, 0 in another (HP 12). With each bullet's exact share through the
    coat, every order does 0: per bullet the coat stops 3/4, 3/4 and 1 of 5/4, 1/4 gets
    through, rounded 0; pooled, 1 × 3 = 3 stops the whole 11/4 (004 l.31 「装甲4を3倍した
    "12"がその間の装甲として機能する」)."""
    assert {smg_burst(order, settings) for order in ((1, 1, 3), (1, 3, 1), (3, 1, 1))} == {13}


POOLED: dict[str, dict[str, object]] = {"CO-ARMOR-2": {"pool_across_bullets": True}}


def test_pooled_armour_stops_value_times_hits_whatever_the_order() -> None:
    """Bullets of 12 and 3 at ÷4 (3 and 3/4) against the coat of 1, pooled: 1 × 2 = 2 of the
    15/4 is stopped, 7/4 rounded 1, in both orders (004 l.31, armour × bullets). Carried
    forward only, the 12 first met a coat of 1 and let 2 through."""
    assert {smg_burst(order, POOLED) for order in ((10, 1), (1, 10))} == {12}


def test_a_bullet_after_the_pool_is_spent_says_so() -> None:
    """reviewcoc74b NIT 3: bullets of 12, 3, 3 at ÷4 against the coat of 1, pooled (1 × 3 = 3):
    the first spends the pool and the others still spend a use each (004 l.32); they said
    "coat stops 0", read as a fault, where the pool is spent."""
    f = duel(P004, SMG, COAT, settings=POOLED)
    text = push(f, Attack("Ann", "Cult", burst=True, distance_m=80), (100, 10), (20, 3),
                (10, 10), (10, 1), (10, 1))
    assert "coat stops 3: uses 29/1 left (CO-ARMOR-2)" in text
    assert text.count("coat: the burst's pool is spent, it stops nothing more; uses ") == 2
    assert "stops 0" not in text and f.state.get("Cult").sheet.armour[0].uses == 27
    replays(f)
    # a vest of 0 stops nothing to spend: it says "stops 0", and revision 21 says so as played
    vest0 = {"armour": [{"name": "vest", "value": 0, "uses": 30}]}
    for engine in (22, OLD):
        g = at(engine, duel(P004, SMG, vest0, settings=POOLED))
        text = push(g, Attack("Ann", "Cult", burst=True, distance_m=20), (100, 10), (20, 2),
                    (10, 1), (10, 1))
        assert text.count("vest stops 0: uses ") == 2 and "pool is spent" not in text
        replays(g)


def test_pooled_armour_up_front_in_a_burst_within_range_too() -> None:
    """A burst at its base range (no falloff): bullets of 3 and 12 against a vest of 4,
    pooled: 4 × 2 = 8 stopped of 15, 7 through, in both orders. Revision 21 carried forward
    only what a bullet left: the 12 first let 8 through, and replays so."""
    vest = {"armour": [{"name": "vest", "value": 4, "uses": 30}]}
    orders = ((1, 10), (10, 1))
    assert {smg_burst(o, POOLED, distance_m=20, armour=vest) for o in orders} == {13 - 7}
    assert {smg_burst(o, POOLED, OLD, 20, vest) for o in orders} == {13 - 7, 13 - 8}


def test_the_burst_s_total_through_the_armour_is_rounded_once() -> None:
    """Bullets of 5, 5, 5 at ÷4 (5/4 each) against the coat of 1: a quarter of each gets
    through, 3/4 in all, rounded 0 (§0.3's Default, down); "up" makes it 1."""
    assert smg_burst((3, 3, 3)) == 13
    assert smg_burst((3, 3, 3), {"§0.3": {"rounding": "up"}}) == 12


def test_the_rounding_setting_rounds_the_burst_s_total() -> None:
    """§0.3.rounding = "up" (CO-RANGE-2 rounds by it): bullets of 3, 3 and 5 do 11 ÷4 = 3,
    where each bullet on its own made 4 (1 + 1 + 2)."""
    f = duel(P004, AK, settings={"§0.3": {"rounding": "up"}})
    text = push(f, BURST, *DICE[:2], (6, 1), (6, 1), (6, 1), (6, 1), (6, 2), (6, 2))
    assert "the burst's damage through so far 11/4, rounded 3 (§0.3)" in text
    assert f.state.get("Cult").hp == 13 - 3
    replays(f)


#: 003 with CO-RANGE-2 switched on (its falloff is optional there) and a plate of CO-ARMOR-1
#: durability 1 that stops up to 4 a hit.
RANGE_003 = {"CO-RANGE-2": {"p003": "on"}}
PLATE = {"armour": [{"name": "plate", "value": 4, "durability": 1}], "siz": 40}


def plate_burst_003(faces: tuple[int, ...]) -> tuple[int, str]:
    """Cult's HP lost after an SMG burst at 80 m (÷4) in 003 with a
    bullet for each of ``faces`` on 1D10 (+2 each), and the action's text."""
    f = duel(Profile.P003, {"weapons": ("smg",), "smg": 90}, PLATE, settings=RANGE_003)
    start = f.state.get("Cult").hp
    text = push(f, Attack("Ann", "Cult", burst=True, distance_m=80), (100, 10),
                (20, len(faces)), *[(10, x) for x in faces])
    replays(f)
    return start - f.state.get("Cult").hp, text


def test_co_armor_1_durability_caps_what_the_armour_stops_in_a_burst_003() -> None:
    """reviewcoc74b DEFECT 1: CO-ARMOR-1's durability is the armour's own HP, so a plate of
    durability 1 stops 1 in all. Bullets of 3, 3, 3 at ÷4 are 3/4 each: the plate stops 3/4
    and then the 1/4 it has left, 9/4 − 1 = 5/4 gets through, rounded 1. It wore whole points
    and so stopped 3/4 twice (HP lost 0)."""
    lost, text = plate_burst_003((1, 1, 1))
    assert "plate stops 3/4, durability 1 left (CO-ARMOR-1)" in text
    assert "plate stops 1/4, durability 0 left (CO-ARMOR-1)" in text
    assert lost == 1


def test_co_armor_1_durability_in_a_burst_does_not_hang_on_the_bullets_order_003() -> None:
    """Bullets of 12, 3, 3 at ÷4 (3, 3/4, 3/4: 9/2) against the plate of durability 1: it
    stops 1 in all, 7/2 gets through, rounded 3, in every order. Rounded wear let the plate
    stop 3/4 + 1 from its durability of 1 when the 12 came second (HP lost 2)."""
    orders = ((10, 1, 1), (1, 10, 1), (1, 1, 10))
    assert {plate_burst_003(order)[0] for order in orders} == {3}
