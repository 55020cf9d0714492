"""Engine revision 20 plays readings.toml's Default "CO-BODY-5 (hands)" (coc72 RISK 4): with
no hand left (both arms lost, each taking its hand) a fighter attacks with no weapon and no
punch, and neither grapples nor parries by hand; with one hand left, no two-handed weapon. A
kick, a head butt and a dodge need no hand. Seed 004 and CO-BODY-5 give a lost arm's
characteristic loss and bleeding only, so this is a labelled Default; revision 19 let an
armless fighter swing a blackjack and grapple, and its entries replay as they were played.
Nor does it counter with its fist (CO-MA-5; reviewcoc72 DEFECT 1), parry with MA or Budo,
give First Aid or Medicine, pick a weapon up, reload or clear a jam (reviewcoc72 NIT 5)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.systems.coc.combat import (
    Attack,
    ClearJam,
    Defence,
    Fight,
    Grapple,
    PickUp,
    Reload,
    Treat,
)
from companion.systems.coc.combat.body_parts import HANDS_READ
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.defaults import fixed_readings
from tests.systems.coc.helpers import pass_to, patch, push, refused, replays
from tests.systems.coc.no_hands_helpers import Low, armless

#: The revision before the fix.
OLD = 19
#: Cult: a knife (0), a Japanese sword (1, two-handed), a fist (2) and a kick (3).
CULT: dict[str, Any] = {"weapons": ("knife", "japanese_sword", "fist", "kick"), "knife": 60,
                        "japanese_sword": 60, "fist": 60, "kick": 60, "grapple": 60,
                        "dodge": 40}
NONE_LEFT = r"Cult has no hand left \(both arms or hands lost\): no "


def test_the_reading_is_listed_as_a_default() -> None:
    assert HANDS_READ == OLD + 1
    readings = fixed_readings("companion.systems.coc", load_rules(Profile.P004).defaults)
    assert "one hand left" in readings["CO-BODY-5 (hands)"]


def test_with_no_hand_left_no_weapon_punch_or_grapple_004() -> None:
    f = armless(HANDS_READ, CULT)
    refused(f, Attack("Cult", "Ann", 0), NONE_LEFT + r"ナイフ/Knife \(CO-BODY-5, the Default "
                                                    r"'hands'\)")
    refused(f, Attack("Cult", "Ann", 2), NONE_LEFT + r"こぶし\(パンチ\)/Fist/Punch")
    refused(f, Grapple("Cult", "Ann"), NONE_LEFT + r"grapple or parry by hand")
    text = push(f, Attack("Cult", "Ann", 3), (100, 90))
    assert "Cult キック/Kick" in text
    replays(f)


def test_with_no_hand_left_no_parry_but_a_dodge_004() -> None:
    f = armless(HANDS_READ, CULT)
    push(f, Attack("Cult", "Ann", 3), (100, 90))
    pass_to(f, "Ann")
    refused(f, Attack("Ann", "Cult", defence=Defence.PARRY, parry_weapon=0),
            r"Cult cannot parry now: Cult has no hand left")
    refused(f, Attack("Ann", "Cult", defence=Defence.PARRY, parry_with="hands"),
            r"Cult has no hand left \(both arms or hands lost\): no grapple or parry by hand")
    text = push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 30), (100, 20))
    assert "Cult 回避/Dodge" in text


def test_with_one_hand_left_no_two_handed_weapon_004() -> None:
    f = armless(HANDS_READ, CULT, 1)
    refused(f, Attack("Cult", "Ann", 1),
            r"Cult has one hand left: no two-handed 日本刀/Japanese Sword \(CO-BODY-5")
    text = push(f, Attack("Cult", "Ann", 0), (100, 90))
    assert "Cult ナイフ/Knife" in text


def test_revision_19_let_the_armless_swing_004() -> None:
    f = armless(OLD, CULT)
    text = push(f, Attack("Cult", "Ann", 0), (100, 90))
    assert "Cult ナイフ/Knife" in text
    replays(f)


#: Ann with a fist (weapon 1) besides her sword: an unarmed blow Cult may counter (CO-MA-5).
ANN_FIST: dict[str, Any] = {"weapons": ("japanese_sword", "fist"), "japanese_sword": 90,
                            "fist": 70}
#: Cult with Martial Arts and Budo: its fist (2) and kick (3) are its techniques.
FIGHTER: dict[str, Any] = {**CULT, "martial_arts": 50, "budo_standing": 50}


def test_with_no_hand_left_an_ma_counter_is_a_kick_004() -> None:
    """reviewcoc72 DEFECT 1: a counter is a punch, kick or head butt: the fist is refused
    as an attack's is, the kick counters; revision 19 countered with the fist."""
    f = armless(HANDS_READ, FIGHTER, ann=ANN_FIST)
    pass_to(f, "Ann")
    refused(f, Attack("Ann", "Cult", 1, defence=Defence.COUNTER, parry_weapon=2),
            r"Cult cannot counter now: " + NONE_LEFT + r"こぶし\(パンチ\)/Fist/Punch")
    entry = f.push(Attack("Ann", "Cult", 1, defence=Defence.COUNTER, parry_weapon=3), Low())
    assert "Cult counter キック/Kick+MA" in entry.text
    replays(f)
    old = armless(OLD, FIGHTER, ann=ANN_FIST)
    pass_to(old, "Ann")
    entry = old.push(Attack("Ann", "Cult", 1, defence=Defence.COUNTER, parry_weapon=2), Low())
    assert "Cult counter こぶし(パンチ)/Fist/Punch+MA" in entry.text
    replays(old)


def test_with_no_hand_left_no_ma_or_budo_parry_004() -> None:
    """reviewcoc72 NIT 5: an MA or Budo parry is made by hand, as a bare-handed one."""
    f = armless(HANDS_READ, FIGHTER, ann=ANN_FIST)
    pass_to(f, "Ann")
    for way in ("ma", "budo"):
        refused(f, Attack("Ann", "Cult", 1, defence=Defence.PARRY, parry_with=way),
                r"Cult cannot parry now: " + NONE_LEFT + r"grapple or parry by hand")
    old = armless(OLD, FIGHTER, ann=ANN_FIST)
    pass_to(old, "Ann")
    entry = old.push(Attack("Ann", "Cult", 1, defence=Defence.PARRY, parry_with="budo"),
                     Low())
    assert "Cult parry 武道（立ち技）/Budo (standing)" in entry.text


def handy(engine: int) -> Fight:
    """Cult with no hand left on its turn, with First Aid and Medicine, an empty automatic
    pistol (4), a jammed one (5) and its knife (0) dropped."""
    f = armless(engine, {**CULT, "weapons": (*CULT["weapons"], "automatic", "automatic"),
                         "handgun": 50, "first_aid": 50, "medicine": 40})
    cult = f.state.get("Cult")
    knife, sword, fist, kick, empty, jammed = cult.sheet.weapons
    patch(f, "Cult", sheet=replace(cult.sheet, weapons=(
        replace(knife, dropped=True), sword, fist, kick, replace(empty, loaded=0),
        replace(jammed, jammed=True))))
    return f


def test_with_no_hand_left_nothing_done_by_hand_004() -> None:
    """reviewcoc72 NIT 5: First Aid and Medicine, picking a weapon up, reloading and clearing
    a jam are done by hand: each refused by name, before any die. Revision 19 took them."""
    f = handy(HANDS_READ)
    refused(f, Treat("Cult", "Cult", "first_aid"), NONE_LEFT + r"応急手当/First Aid \(CO-BODY-5")
    refused(f, Treat("Cult", "Cult", "medicine"), NONE_LEFT + r"医学/Medicine")
    refused(f, PickUp("Cult", 0), NONE_LEFT + r"picking up ナイフ/Knife")
    refused(f, Reload("Cult", 4), NONE_LEFT + r"reloading 拳銃\(オートマチック\)")
    refused(f, ClearJam("Cult", 5), NONE_LEFT + r"clearing 拳銃\(オートマチック\)/Automatic "
                                                r"Pistol of a jam")
    text = push(f, Attack("Cult", "Ann", 3), (100, 90))
    assert "Cult キック/Kick" in text
    old = handy(OLD)
    assert "Cult picks up ナイフ/Knife" in old.push(PickUp("Cult", 0), Low()).text
