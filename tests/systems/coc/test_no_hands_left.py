"""Engine revision 20 plays readings.toml's Default "CO-BODY-5 (hands)" (coc72 RISK 4): with
no hand left (both arms lost, each taking its hand) a fighter attacks with no weapon and no
punch, and neither grapples nor parries by hand; with one hand left, no two-handed weapon. A
kick, a head butt and a dodge need no hand. Seed 004 and CO-BODY-5 give a lost arm's
characteristic loss and bleeding only, so this is a labelled Default; revision 19 let an
armless fighter swing a blackjack and grapple, and its entries replay as they were played."""

from __future__ import annotations

from typing import Any

from companion.dice import ScriptedDice
from companion.systems.coc.combat import Attack, Defence, EndTurn, Fight, Grapple
from companion.systems.coc.combat.body_parts import HANDS_READ
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.defaults import fixed_readings
from tests.systems.coc.helpers import at, duel, pass_to, push, refused, replays

#: The revision before the fix.
OLD = 19
#: Cult: a knife (0), a Japanese sword (1, two-handed), a fist (2) and a kick (3).
CULT: dict[str, Any] = {"weapons": ("knife", "japanese_sword", "fist", "kick"), "knife": 60,
                        "japanese_sword": 60, "fist": 60, "kick": 60, "grapple": 60,
                        "dodge": 40}
NONE_LEFT = r"Cult has no hand left \(both arms or hands lost\): no "


class Low:
    """Dice rolling 2 on a d100 (Ann's sword at its arm-cut penalty hits) and 1 on the rest."""

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        return [2 if sides == 100 else 1] * count


def armless(engine: int, arms: int = 2) -> Fight:
    """004: Ann's sword cuts off ``arms`` of Cult's arms, staunched (CO-BODY-2, CO-BODY-5),
    one a round; then it is Cult's turn."""
    f = at(engine, duel(Profile.P004, {"weapons": ("japanese_sword",), "japanese_sword": 90},
                        {**CULT, "siz": 40}))
    for n in range(arms):
        if n:
            f.push(EndTurn("Cult"), ScriptedDice([]))
        f.push(Attack("Ann", "Cult", 0, body="cut", part="arm", staunched=True), Low())
    assert f.state.get("Cult").lost == ("arm",) * arms
    assert f.state.current is not None and f.state.current.name == "Cult"
    return f


def test_the_reading_is_listed_as_a_default() -> None:
    assert HANDS_READ == OLD + 1
    readings = fixed_readings("companion.systems.coc", load_rules(Profile.P004).defaults)
    assert "one hand left" in readings["CO-BODY-5 (hands)"]


def test_with_no_hand_left_no_weapon_punch_or_grapple_004() -> None:
    f = armless(HANDS_READ)
    refused(f, Attack("Cult", "Ann", 0), NONE_LEFT + r"ナイフ/Knife \(CO-BODY-5, the Default "
                                                    r"'hands'\)")
    refused(f, Attack("Cult", "Ann", 2), NONE_LEFT + r"こぶし\(パンチ\)/Fist/Punch")
    refused(f, Grapple("Cult", "Ann"), NONE_LEFT + r"grapple or parry by hand")
    text = push(f, Attack("Cult", "Ann", 3), (100, 90))
    assert "Cult キック/Kick" in text
    replays(f)


def test_with_no_hand_left_no_parry_but_a_dodge_004() -> None:
    f = armless(HANDS_READ)
    push(f, Attack("Cult", "Ann", 3), (100, 90))
    pass_to(f, "Ann")
    refused(f, Attack("Ann", "Cult", defence=Defence.PARRY, parry_weapon=0),
            r"Cult cannot parry now: Cult has no hand left")
    refused(f, Attack("Ann", "Cult", defence=Defence.PARRY, parry_with="hands"),
            r"Cult has no hand left \(both arms or hands lost\): no grapple or parry by hand")
    text = push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 30), (100, 20))
    assert "Cult 回避/Dodge" in text


def test_with_one_hand_left_no_two_handed_weapon_004() -> None:
    f = armless(HANDS_READ, 1)
    refused(f, Attack("Cult", "Ann", 1),
            r"Cult has one hand left: no two-handed 日本刀/Japanese Sword \(CO-BODY-5")
    text = push(f, Attack("Cult", "Ann", 0), (100, 90))
    assert "Cult ナイフ/Knife" in text


def test_revision_19_let_the_armless_swing_004() -> None:
    f = armless(OLD)
    text = push(f, Attack("Cult", "Ann", 0), (100, 90))
    assert "Cult ナイフ/Knife" in text
    replays(f)
