"""The coc engine: a disarm aimed at a fist refused (CO-DISARM-1); body part counts (CO-BODY-5).

coc70 findings 1 and 4, fixed in engine revision 18 (finding 5, CO-STUN-1, is in
test_reading_fixes.py): a disarm aimed at bare hands is refused before any die, as a fist
is no weapon to lose (CO-DISARM-1); a body part is lost no more times than the body has it,
the part's ``count`` in CO-BODY-5's data (CO-BODY-5). Entries played by revision 17 replay
as they were played."""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.systems.coc.combat import ENGINE, Attack
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import at, duel, pass_to, push, refused, replays
from tests.systems.coc.rules_file_helpers import edited

P004 = Profile.P004
#: The revision before these fixes.
OLD = 17
KNIFE = {"weapons": ("knife",), "knife": 90}


# --- finding 1: CO-DISARM-1 never knocks away bare hands ------------------------------------

def test_a_disarm_aimed_at_a_fist_is_refused_before_any_die_004() -> None:
    """004 l.45 「相手の武器を失わせる」 (CO-DISARM-1): Cult's fist is no weapon to lose, so a
    disarm aimed at it is refused, naming the rule and the weapon it may aim at instead
    (its blackjack); revision 17 "dropped" the fist, which Cult then had to pick up."""
    f = duel(P004, KNIFE, {"weapons": ("fist", "blackjack")})
    refused(f, Attack("Ann", "Cult", disarm=True, disarm_weapon=0),
            r"^Cult's こぶし\(パンチ\)/Fist/Punch is bare hands, which a disarm cannot knock "
            r"away \(CO-DISARM-1\); aim at disarm_weapon=1 ")
    text = push(f, Attack("Ann", "Cult", disarm=True, disarm_weapon=1), (100, 10))
    assert "falls beside it" in text and f.state.get("Cult").sheet.weapons[1].dropped
    replays(f)
    old = at(OLD, duel(P004, KNIFE, {"weapons": ("fist", "blackjack")}))
    text = push(old, Attack("Ann", "Cult", disarm=True, disarm_weapon=0), (100, 10))
    assert "こぶし(パンチ)/Fist/Punch falls beside it" in text
    replays(old)


def test_one_holding_only_bare_hands_has_no_weapon_to_lose_004() -> None:
    """CO-DISARM-1: with nothing but a fist, the refusal says there is no weapon to aim at."""
    f = duel(P004, KNIFE)
    refused(f, Attack("Ann", "Cult", disarm=True),
            r"\(CO-DISARM-1\); Cult holds no weapon to lose$")


# --- finding 4: CO-BODY-5's counts ----------------------------------------------------------

def test_a_tongue_is_lost_once_004() -> None:
    """CO-BODY-5 (004 『舌』): a body has one tongue (``count = 1``): a second gouge is refused
    before any die, so Listen loses its 10 once. Revision 17 lost it again, Listen 40 → 30."""
    gouge = Attack("Ann", "Cult", body="gouge", part="tongue")
    f = duel(P004, KNIFE, {"listen": 50})
    push(f, gouge, (100, 5), (4, 1), (4, 1))
    pass_to(f, "Ann")
    refused(f, gouge, r"^Cult has no tongue left to lose: a body has 1 tongue, all lost "
                      r"\(CO-BODY-5\)$")
    assert f.state.get("Cult").lost == ("tongue",)
    replays(f)
    old = at(OLD, duel(P004, KNIFE, {"listen": 50}))
    push(old, gouge, (100, 5), (4, 1), (4, 1))
    pass_to(old, "Ann")
    assert "聞き耳/Listen 40 → 30 (CO-BODY-5)" in push(old, gouge, (100, 5), (4, 1), (4, 1))
    assert old.state.get("Cult").lost == ("tongue", "tongue")
    replays(old)


def test_two_eyes_are_lost_then_no_third_004() -> None:
    """CO-BODY-5 (004 『目玉』 「目玉一個に付き「目星が半分の数値」…もう片方の目玉を失えば
    「目星技能の消失」」): the first eye halves Spot Hidden, the second takes it, a third is
    refused (``count = 2``)."""
    gouge = Attack("Ann", "Cult", body="gouge", part="eye")
    f = duel(P004, KNIFE, {"spot_hidden": 60})
    assert "目星/Spot Hidden 60 → 30" in push(f, gouge, (100, 5), (4, 1), (4, 1))
    pass_to(f, "Ann")
    assert "目星/Spot Hidden 30 → 0" in push(f, gouge, (100, 5), (4, 1), (4, 1))
    pass_to(f, "Ann")
    refused(f, gouge, r"^Cult has no eye left to lose: a body has 2 eyes, all lost "
                      r"\(CO-BODY-5\)$")
    assert f.state.get("Cult").lost == ("eye", "eye") and f.journal[-1].engine == ENGINE
    replays(f)


def test_every_body_part_says_how_many_a_body_has() -> None:
    """CO-BODY-5's counts are data: each part of rules.toml has one (a human's: eyes, arms,
    hands and legs 2, fingers 10, tongue, torso and head 1), and a part without it is
    refused at load, naming the part."""
    parts = load_rules(P004).source["CO-BODY-5"]
    assert {name: part["count"] for name, part in parts.items()} == {
        "eye": 2, "tongue": 1, "arm": 2, "hand": 2, "finger": 10, "leg": 2, "torso": 1,
        "head": 1}
    text = edited('source."CO-BODY-5".tongue', "count", None)
    with pytest.raises(DataError, match=r'^rules\.toml: \[source\."CO-BODY-5"\.tongue\] lacks '
                                        r"count, a whole number 1 or more"):
        load_rules(texts={"rules.toml": text})
