"""Engine revision 24 (a76cocother): a martial-arts combination roll's technique fumble, a
distance with no base range, and a failed knockout's line.

- CO-BASE-3's Default: 「criticals and fumbles are judged for each skill separately … A
  critical or fumble effect (e.g. CO-MELEE-3, CO-MELEE-4) follows the result for the attacking
  technique」, and 003 l.29 ties the fumble to the die: 「ファンブル(ダイス目95～00)が出た場合、
  バランスを崩して転んだという事で次ラウンドは行動選択を出来ない」. A Kick 40 with MA 97 on 96
  is a partial success that hits, and the kicker falls (the grapple too, CO-MA-2); revision 23
  played the critical on such a roll and dropped the fumble.
- 004 l.70 bands each weapon's own 「基本射程(タッチ以外)」 (CO-RANGE-2): a thrown weapon or
  firearm without one (the packaged rock, a sheet's gun without range_m) cannot judge a
  distance, so it is refused before any die; revision 23 threw the rock at 400 m at full skill.
- A failed knockout (CO-BASE-10) says the blow lands as usual, not the damage roll again.

Entries played by revision 23 replay as they were played.
"""

from __future__ import annotations

import pytest

from companion.systems.coc.combat import Attack, Defence, EndTurn, Fall, Fight, Grapple
from companion.systems.coc.combat.fighters import Condition
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push, refused, replays

P003, P004 = Profile.P003, Profile.P004
#: The revision before revision 24.
OLD = 23
KICKER = {"weapons": ("kick",), "kick": 40, "martial_arts": 97}
GRAPPLER = {"grapple": 40, "martial_arts": 97}
FALLS = "fumble: Ann falls and loses next round's actions (CO-MELEE-4)"


def fallen_next_round(f: Fight, name: str) -> bool:
    """``name`` fell (CO-MELEE-4) and chooses no action next round."""
    return f.state.get(name).has(Condition.FALLEN, f.state.round + 1)


def test_a_kick_fumbled_and_carried_by_ma_hits_and_falls_003() -> None:
    f = duel(P003, KICKER)
    text = push(f, Attack("Ann", "Cult", ma=True), (100, 96), (6, 3), (4, 1))
    assert "96[致命的失敗,成功] ＞ 部分的成功/partial success" in text
    lines = text.splitlines()
    assert lines.index(FALLS) > lines.index("Cult takes 4: HP 9/13")  # after the blow
    assert f.state.get("Cult").hp == 9 and fallen_next_round(f, "Ann")
    replays(f)


def test_revision_23_kick_hits_without_the_fall_003() -> None:
    f = at(OLD, duel(P003, KICKER))
    text = push(f, Attack("Ann", "Cult", ma=True), (100, 96), (6, 3), (4, 1))
    assert "partial success" in text and "fumble" not in text
    assert not fallen_next_round(f, "Ann")
    replays(f)


def test_a_grapple_fumbled_and_carried_by_ma_holds_and_falls_003() -> None:
    """An ordinary grapple (CO-MA-2's partial success) that holds, and its grappler falls:
    Cult's STR roll to break free (CO-GRAP-2) follows at its turn's start."""
    f = duel(P003, GRAPPLER)
    text = push(f, Grapple("Ann", "Cult", ma=True), (100, 96), (100, 90))
    assert "Ann holds Cult; they are one unit (CO-GRAP-1)" in text and FALLS in text
    assert f.state.get("Cult").held_by == "Ann" and fallen_next_round(f, "Ann")
    assert "round 2: Ann(DEX 14), Cult(DEX 10) (CO-TURN-1)\nAnn is skipped (cannot act)" in push(
        f, EndTurn("Cult"), (100, 90))
    replays(f)
    old = at(OLD, duel(P003, GRAPPLER))
    assert "fumble" not in push(old, Grapple("Ann", "Cult", ma=True), (100, 96), (100, 90))
    assert not fallen_next_round(old, "Ann")
    replays(old)


def test_a_dodged_kick_still_falls_on_its_fumble_003() -> None:
    """The fumble follows the die, whatever the defence does with the blow."""
    f = duel(P003, KICKER, {"dodge": 90})
    text = push(f, Attack("Ann", "Cult", ma=True, defence=Defence.DODGE), (100, 96),
                (100, 10))
    assert "回避/Dodge" in text and text.endswith(FALLS) and f.state.get("Cult").hp == 13


def test_where_the_fumble_plays_no_rule_nothing_falls_004() -> None:
    """004 keeps CO-MELEE-4 off by Default: the kick's partial success is only a hit."""
    f = duel(P004, KICKER)
    text = push(f, Attack("Ann", "Cult", ma=True), (100, 96), (6, 3), (4, 1))
    assert "partial success" in text and "fumble:" not in text
    assert not fallen_next_round(f, "Ann")


def test_the_fumble_switched_on_in_004_falls_too() -> None:
    on = {"CO-MELEE-4": {"p004": "optional_on"}}
    f = duel(P004, {"weapons": ("kick",), "kick": 40, "martial_arts": 98}, settings=on)
    text = push(f, Attack("Ann", "Cult", ma=True), (100, 97), (6, 3), (4, 1))
    assert "97[致命的失敗,成功]" in text and text.endswith(FALLS)


def test_no_fall_for_a_kicker_a_counter_left_dying_004() -> None:
    """r76coc N1: the fall costs 003 l.29's next round's actions, which Ann, left dying by
    Cult's counter (CO-MA-5) before her fumble is played, has none of; "Ann falls and loses
    next round's actions" was said of her. Bob stands, so the fight goes on."""
    on = {"CO-MELEE-4": {"p004": "optional_on"}}
    f = duel(P004, {"weapons": ("kick",), "kick": 40, "martial_arts": 98},
             {"weapons": ("fist",), "fist": 90, "martial_arts": 90}, settings=on, third={})
    push(f, Fall("Ann", metres=6), (6, 5), (6, 5))
    text = push(f, Attack("Ann", "Cult", ma=True, defence=Defence.COUNTER), (100, 97),
                (6, 3), (4, 1), (100, 10), (3, 3), (4, 4))
    assert "97[致命的失敗,成功]" in text and "Ann is dying" in text, text
    assert "fumble" not in text and not f.state.over
    assert not f.state.get("Ann").has(Condition.FALLEN, f.state.round + 1)
    replays(f)


def test_no_fall_after_the_kick_that_wins_the_fight_003() -> None:
    """r76coc N1: a fumbled kick that kills the last foe ends the fight; no next round is
    lost to a fall (it was said before "the fight is over")."""
    f = duel(P003, KICKER, {"dodge": 5})
    push(f, Fall("Cult", metres=6), (6, 5), (6, 5))
    text = push(f, Attack("Ann", "Cult", ma=True), (100, 96), (6, 6), (4, 4))
    assert "Cult dies" in text and "fumble" not in text, text
    assert text.endswith("the fight is over: the investigators stand")
    replays(f)


ROCK = {"weapons": ("rock",), "throw": 95}
FLINTLOCK = {"weapons": ({"key": "flintlock", "ja": "火縄銃", "en": "Flintlock",
                          "kind": "firearm", "skill": "handgun", "damage": "1D10",
                          "db": "none", "attacks": 1, "magazine": 1},), "handgun": 90}


#: How each is given a base range: the packaged rock by a weapon of the sheet's own, the
#: sheet's own flintlock in the sheet (r76coc N3: it too was to become "one of the sheet's
#: own").
AS_OWN = r"write the weapon as one of the sheet's own with a range_m"
IN_THE_SHEET = r"give it a range_m in the sheet"


@pytest.mark.parametrize(("ann", "name", "skill", "mend"),
                         [(ROCK, "石/Rock", 95, AS_OWN),
                          (FLINTLOCK, "火縄銃/Flintlock", 90, IN_THE_SHEET)])
def test_a_distance_without_a_base_range_is_refused_004(ann: dict[str, object], name: str,
                                                         skill: int, mend: str) -> None:
    f = duel(P004, ann)
    refused(f, Attack("Ann", "Cult", distance_m=400),
            rf"^{name} has no base range 基本射程 \(range_m\) for CO-RANGE-2's bands, so "
            rf"distance_m=400 cannot be judged: leave out distance_m, or {mend} "
            r"\(docs/sheets.md\)$")
    refused(f, Attack("Ann", "Cult", distance_m=400, first_strike=True) if ann is FLINTLOCK
            else Attack("Ann", "Cult", distance_m=2), "has no base range")
    # within arm's reach (CO-RANGE-3.reach_m, 1 m) every weapon is within its base range
    assert f"{name} (1D100<={skill}) ＞ 99" in push(f, Attack("Ann", "Cult", distance_m=1),
                                                   (100, 99))
    replays(f)


def test_revision_23_threw_the_rock_at_400_m_at_full_skill_004() -> None:
    f = at(OLD, duel(P004, ROCK))
    text = push(f, Attack("Ann", "Cult", distance_m=400), (100, 31), (4, 2), (2, 1))
    assert "(1D100<=95) ＞ 31" in text
    replays(f)


def test_a_distance_beyond_a_rocks_reach_in_003_is_still_co_throw_1s() -> None:
    """003 runs no CO-RANGE-2: its throw reaches 3 squares (CO-THROW-1), refused as before."""
    refused(duel(P003, ROCK), Attack("Ann", "Cult", distance_m=400), "CO-THROW-1")


KNOCKOUT_ON = {"CO-BASE-10": {"p004": "optional_on"}}
POKER = {"weapons": ("fire_poker",), "club": 70}


def test_a_failed_knockout_says_the_blow_lands_once_004() -> None:
    f = duel(P004, POKER, settings=KNOCKOUT_ON)
    text = push(f, Attack("Ann", "Cult", knockout=True), (100, 30), (6, 6), (4, 4),
                (100, 40))
    lines = text.splitlines()
    damage = [n for n in lines if "damage (" in n]
    assert len(damage) == 1, text
    assert "the knockout fails: the blow lands as usual, 10 (CO-BASE-10)" in lines
    assert f.state.get("Cult").hp == 3
    replays(f)
    old = at(OLD, duel(P004, POKER, settings=KNOCKOUT_ON))
    text = push(old, Attack("Ann", "Cult", knockout=True), (100, 30), (6, 6), (4, 4),
                (100, 40))
    assert len([n for n in text.splitlines() if "damage (" in n]) == 2  # as played
    replays(old)
