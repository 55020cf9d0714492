"""Engine revision 25 (r77coc, after a77cocgrapple DEFECT 1): a burst beyond its base range
(CO-RANGE-2, CO-FIRE-8) meets the human shield before the grappler's armour, as every other
blow does from revision 25.

CO-GRAP-6's Default (004 l.166 「拘束している相手はそのまま肉盾として使用できる」): damage aimed
at the grappler "goes first to the restrained opponent's current HP". A burst beyond its base
range carries each bullet's exact share (3 at ÷4 is 3/4) and rounds the burst once
(:meth:`~companion.systems.coc.combat.firearms._Firearms.burst_through`); revision 25's first
fix left that path putting each share through the grappler's armour first, so a one-use coat
was spent (and broke at the round's end) on bullets the shield then took. The shield now takes
its share exact and loses the running total rounded, as the grappler does.

Entries played by revision 24 replay as they were played.
"""

from __future__ import annotations

from companion.systems.coc.combat import Attack, Fight, Grapple
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, pass_to, push, replays

#: The revision before revision 25.
OLD = 24
#: Ann restrains Cult and wears a one-use coat; Bob's AK47 (2D6+1, base range 90 m).
ANN = {"weapons": ("fist",), "grapple": 60, "armour": [{"name": "coat", "value": 1}]}
BOB = {"weapons": ("ak47",), "rifle": 60}
#: Bob's burst at Ann from 360 m, 4× the AK's range (×1/4): the roll 10, three hits, each
#: bullet 1+1+1 = 3, a share of 3/4.
BURST = Attack("Bob", "Ann", burst=True, distance_m=360)
DICE = ((100, 10), (20, 3), (6, 1), (6, 1), (6, 1), (6, 1), (6, 1), (6, 1))


def bob_bursts_ann_holding_cult(engine: int,
                                dice: tuple[tuple[int, int], ...] = DICE) -> tuple[Fight, str]:
    f = at(engine, duel(Profile.P004, ANN, third=BOB))
    push(f, Grapple("Ann", "Cult"), (100, 30))
    pass_to(f, "Bob")
    return f, push(f, BURST, *dice)


def test_the_shield_takes_the_burst_and_the_coat_is_kept() -> None:
    f, text = bob_bursts_ann_holding_cult(OLD + 1)
    assert text.count("Cult is a human shield and takes 3/4 exactly") == 3
    assert ("Cult is a human shield and takes 3/4 exactly, rounded 2 so far (§0.3): this "
            "bullet's part 1 (CO-GRAP-6)") in text
    assert "coat" not in text
    (coat,) = f.state.get("Ann").sheet.armour
    assert (coat.uses, coat.breaking) == (1, False)
    assert (f.state.get("Ann").hp, f.state.get("Cult").hp) == (13, 13 - 2)
    replays(f)


def test_what_the_shield_leaves_meets_the_coat() -> None:
    """Five hits: shares of 13/4, 13/4, 13/4, 3 and 13/4. Cult (13 HP) takes 12 3/4 of the
    first four and 1/4 of the fifth, 13 in all; the 3 the shield leaves meets the coat, which
    stops 1 and spends its use; Ann takes 2."""
    big, small = ((6, 6), (6, 6)), ((6, 6), (6, 5))
    dice = ((100, 10), (20, 5), *big, *big, *big, *small, *big)
    f, text = bob_bursts_ann_holding_cult(OLD + 1, dice)
    lines = text.splitlines()
    shield = lines.index("Cult is a human shield and takes 1/4 exactly, rounded 13 so far "
                         "(§0.3): this bullet's part 1 (CO-GRAP-6)")
    assert lines[shield + 3] == ("coat stops 1: uses 0/1 left, breaks at end of round "
                                 "(CO-ARMOR-2)")
    assert (f.state.get("Cult").hp, f.state.get("Ann").hp) == (0, 13 - 2)
    replays(f)


def test_revision_24_spent_the_coat_before_the_shield() -> None:
    f, text = bob_bursts_ann_holding_cult(OLD)
    assert "coat stops 3/4: uses 0/1 left, breaks at end of round (CO-ARMOR-2)" in text
    assert "human shield and takes 3/4" not in text
    assert f.state.get("Ann").sheet.armour[0].breaking
    replays(f)
