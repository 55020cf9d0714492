"""Engine revision 25 (a77cocgrapple DEFECT 1): the human shield stands in front of its
grappler's armour.

CO-GRAP-6's Default (004 l.166 「拘束している相手はそのまま肉盾として使用できる」) and CO-GRAP-4's
(003 l.36 「＜組みつき＞中は相手のHPをそのまま装甲として使用できる」): damage aimed at the grappler
"goes first to the restrained opponent's current HP"; only what is left reaches the grappler,
and so its armour. Revision 24 put the blow through the grappler's armour first: a use spent
(CO-ARMOR-2, the armour breaking at the round's end) or durability worn (CO-ARMOR-1) on a blow
the shield then took whole, and the shield took the blow less the armour.

Entries played by revision 24 replay as they were played.
"""

from __future__ import annotations

from typing import Any

from companion.systems.coc.combat import Attack, Fight, Grapple
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, pass_to, patch, push, replays

#: The revision before revision 25.
OLD = 24
BOB = {"weapons": ("fist",), "fist": 60}


def ann(armour: dict[str, Any]) -> dict[str, Any]:
    return {"weapons": ("fist",), "grapple": 60, "fist": 60, "armour": [armour]}


def bob_punches_ann_holding_cult(profile: Profile, engine: int,
                                 armour: dict[str, Any]) -> tuple[Fight, str]:
    """Ann holds Cult; Bob's punch at Ann: 3 on the fist's 1D3 and 1 on the DB's 1D4, 4."""
    f = at(engine, duel(profile, ann(armour), third=BOB))
    push(f, Grapple("Ann", "Cult"), (100, 30))
    assert f.state.get("Cult").held_by == "Ann"
    pass_to(f, "Bob")
    return f, push(f, Attack("Bob", "Ann"), (100, 20), (3, 3), (4, 1))


def test_the_shield_takes_the_whole_blow_and_the_one_use_coat_is_kept_004() -> None:
    f, text = bob_punches_ann_holding_cult(Profile.P004, OLD + 1,
                                           {"name": "coat", "value": 1})
    assert "Cult is a human shield and takes 4 (CO-GRAP-6)" in text
    assert "coat" not in text
    (coat,) = f.state.get("Ann").sheet.armour
    assert (coat.uses, coat.breaking) == (1, False)
    assert (f.state.get("Ann").hp, f.state.get("Cult").hp) == (13, 9)
    replays(f)


def test_revision_24_spent_the_coat_before_the_shield_004() -> None:
    f, text = bob_punches_ann_holding_cult(Profile.P004, OLD, {"name": "coat", "value": 1})
    assert "coat stops 1: uses 0/1 left, breaks at end of round (CO-ARMOR-2)" in text
    assert "Cult is a human shield and takes 3 (CO-GRAP-6)" in text
    assert f.state.get("Ann").sheet.armour[0].breaking
    replays(f)


def test_the_shield_takes_the_whole_blow_and_the_vest_is_not_worn_003() -> None:
    vest = {"name": "vest", "value": 1, "durability": 6}
    f, text = bob_punches_ann_holding_cult(Profile.P003, OLD + 1, vest)
    assert "Cult is a human shield and takes 4 (CO-GRAP-4)" in text
    assert "vest" not in text
    assert f.state.get("Ann").sheet.armour[0].durability == 6
    assert (f.state.get("Ann").hp, f.state.get("Cult").hp) == (13, 9)
    replays(f)
    old, text = bob_punches_ann_holding_cult(Profile.P003, OLD, vest)
    assert "vest stops 1, durability 5 left (CO-ARMOR-1)" in text
    assert old.state.get("Cult").hp == 10
    replays(old)


def test_what_the_shield_leaves_meets_the_armour_004() -> None:
    """Cult at 2 HP takes 2 of the 4; the coat stops 1 of the 2 left and Ann takes 1."""
    f = at(OLD + 1, duel(Profile.P004, ann({"name": "coat", "value": 1}), third=BOB))
    push(f, Grapple("Ann", "Cult"), (100, 30))
    pass_to(f, "Bob")
    patch(f, "Cult", hp=2)
    text = push(f, Attack("Bob", "Ann"), (100, 20), (3, 3), (4, 1))
    lines = text.splitlines()
    shield = lines.index("Cult is a human shield and takes 2 (CO-GRAP-6)")
    assert lines.index("coat stops 1: uses 0/1 left, breaks at end of round (CO-ARMOR-2)") \
        > shield
    assert f.state.get("Ann").hp == 12
