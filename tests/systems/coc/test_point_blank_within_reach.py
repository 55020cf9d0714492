"""Point blank and melee are within arm's reach (engine revision 22, coc74 DEFECT 1).

Seed 004 l.73 「相手との距離が"タッチ(手が届く範囲)"の場合のみ、技能値を3倍にする」 (CO-RANGE-3)
and 003 l.60 「隣接状態での射撃の場合、命中率+15％」 (CO-FIRE-5, on 003 l.6's board of 1 m
squares): touch is within arm's reach, so a shot both at touch and at a distance beyond it
(40 m) is refused before any die, naming both; revision 21 took ×1/3 for the range and ×3 for
the touch at once. A melee or bare-hand blow at such a distance (003 l.26 「敵と隣接している
ときのみ可能」, CO-MELEE-1) is refused too; revision 21 ignored the distance (a kick at 400 m
hit). On 003's board the board says who is next to whom. Entries played by revision 21
replay as they were played.
"""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.systems.coc.combat import Attack, Fight
from companion.systems.coc.combat.actions import Place
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push, refused, replays

P003, P004 = Profile.P003, Profile.P004
#: The revision before revision 22.
OLD = 21
GUN = {"weapons": ("revolver",), "handgun": 50}
KICK = {"weapons": ("kick",), "kick": 60}


def test_touch_and_a_distance_beyond_reach_is_refused_naming_both_004() -> None:
    f = duel(P004, GUN)
    refused(f, Attack("Ann", "Cult", distance_m=40, adjacent=True),
            r"adjacent=true \(touch タッチ, CO-RANGE-3\) is within arm's reach 手が届く範囲 "
            r"\(1 m: CO-RANGE-3.reach_m \(default\)\), and distance_m=40 is beyond it")
    text = push(f, Attack("Ann", "Cult", distance_m=1, adjacent=True), (100, 50), (10, 4))
    assert "base 50 ×3 (touch, CO-RANGE-3) = 150" in text
    replays(f)


def test_revision_21_still_takes_touch_at_40_m_as_played_004() -> None:
    f = at(OLD, duel(P004, GUN))
    text = push(f, Attack("Ann", "Cult", distance_m=40, adjacent=True), (100, 18), (10, 10))
    assert "base 50 ×1/3 (40 m, 3× range, CO-RANGE-2) ×3 (touch, CO-RANGE-3) = 50" in text
    replays(f)


def test_adjacent_and_a_distance_beyond_reach_is_refused_off_the_board_003() -> None:
    f = duel(P003, GUN)
    refused(f, Attack("Ann", "Cult", distance_m=400, adjacent=True),
            r"adjacent=true \(point blank 隣接, CO-FIRE-5\) .*distance_m=400 is beyond it")
    old = at(OLD, duel(P003, GUN))
    assert "+15 (adjacent, CO-FIRE-5) = 65" in push(
        old, Attack("Ann", "Cult", distance_m=400, adjacent=True), (100, 99))
    replays(old)


@pytest.mark.parametrize(("profile", "rule"), [(P003, "CO-MELEE-1"), (P004, "CO-RANGE-3")])
def test_a_kick_at_a_distance_beyond_reach_is_refused(profile: Profile, rule: str) -> None:
    f = duel(profile, KICK)
    refused(f, Attack("Ann", "Cult", distance_m=400),
            rf"キック/Kick is a melee blow, within arm's reach 手が届く範囲 \(1 m: "
            rf"CO-RANGE-3.reach_m \(default\)\): "
            rf"distance_m=400 is beyond it; give distance_m 1 or less, or leave it out "
            rf"\({rule}\)")
    old = at(OLD, duel(profile, KICK))
    assert "Cult takes" in push(old, Attack("Ann", "Cult", distance_m=400), (100, 10), (6, 3),
                                 (4, 1))
    replays(old)


def board(engine: int, cult: str) -> Fight:
    """003's board: Ann on d4 with a revolver, Cult on ``cult``, facing her."""
    f = at(engine, duel(P003, GUN))
    push(f, Place("Ann", "d4", "N"))
    push(f, Place("Cult", cult, "S"))
    return f


def test_on_the_board_point_blank_is_the_next_square_003() -> None:
    f = board(22, "d7")
    refused(f, Attack("Ann", "Cult", adjacent=True),
            r"Cult is 3 squares away: adjacent=true \(point blank 隣接, CO-FIRE-5\) is a shot "
            "at the next square")
    f = board(22, "d5")
    refused(f, Attack("Ann", "Cult", distance_m=40),
            r"^Cult stands on the next square to Ann: the board gives the distance "
            r"\(CO-TURN-2\); leave out distance_m=40$")
    assert "+15 (adjacent, CO-FIRE-5) = 65" in push(f, Attack("Ann", "Cult"), (100, 99))
    old = board(OLD, "d7")
    assert "+15 (adjacent, CO-FIRE-5) = 65" in push(old, Attack("Ann", "Cult", adjacent=True),
                                                     (100, 99))
    replays(old)


@pytest.mark.parametrize("cult", ["e5", "d6"])
def test_on_the_board_a_distance_is_the_board_s_at_any_square_003(cult: str) -> None:
    """reviewcoc74 NIT 6: a diagonal neighbour (about 1.4 m) at distance_m=2 was refused as
    beyond arm's reach, a target two squares away at 2 taken: the board counts squares, not
    metres, so a distance_m there is refused wherever the target stands, and a diagonal
    neighbour is point blank (CO-TURN-2's king moves)."""
    f = board(22, cult)
    refused(f, Attack("Ann", "Cult", distance_m=2),
            r"the board gives the distance \(CO-TURN-2\); leave out distance_m=2")
    text = push(f, Attack("Ann", "Cult"), (100, 99))
    assert ("+15 (adjacent, CO-FIRE-5) = 65" in text) is (cult == "e5")
    old = board(OLD, cult)
    push(old, Attack("Ann", "Cult", distance_m=2), (100, 99))
    replays(old)


GUN_AND_KICK = {"weapons": ("revolver", "kick"), "handgun": 50, "kick": 60}


def test_arm_s_reach_is_a_default_the_keeper_may_set_004() -> None:
    """reviewcoc74 DEFECT 1: the seeds give no metres for 「手が届く範囲」 (004 l.73), so 1 m is
    the Default CO-RANGE-3.reach_m: set to 2, touch and a kick at 2 m are taken and 3 m is
    refused, said as set by the user; the fight keeps it in its settings."""
    f = duel(P004, GUN_AND_KICK, settings={"CO-RANGE-3": {"reach_m": 2}})
    assert f.rules.settings() == {"CO-RANGE-3": {"reach_m": 2}}
    refused(f, Attack("Ann", "Cult", distance_m=3, adjacent=True),
            r"\(2 m: CO-RANGE-3.reach_m\), and distance_m=3 is beyond it")
    refused(f, Attack("Ann", "Cult", 1, distance_m=3),
            r"within arm's reach 手が届く範囲 \(2 m: CO-RANGE-3.reach_m\): distance_m=3")
    assert "×3 (touch, CO-RANGE-3)" in push(
        f, Attack("Ann", "Cult", distance_m=2, adjacent=True), (100, 99), (10, 1))
    replays(f)
    with pytest.raises(DataError, match=r"CO-RANGE-3\.reach_m must be from 1 to 3, found 0"):
        duel(P004, GUN, settings={"CO-RANGE-3": {"reach_m": 0}})


def test_off_the_board_003_reads_the_same_reach() -> None:
    f = duel(P003, GUN, settings={"CO-RANGE-3": {"reach_m": 3}})
    assert "+15 (adjacent, CO-FIRE-5) = 65" in push(
        f, Attack("Ann", "Cult", distance_m=3, adjacent=True), (100, 99))
    refused(f, Attack("Ann", "Cult", distance_m=4, adjacent=True),
            r"adjacent=true \(point blank 隣接, CO-FIRE-5\) .*\(3 m: CO-RANGE-3.reach_m\)")


WHIP = {"key": "whip", "ja": "鞭", "en": "Whip", "kind": "melee", "skill": "fist",
        "damage": "1D3", "db": "none", "attacks": 1, "range_m": 3}


def test_a_melee_weapon_s_own_range_on_its_sheet_is_its_reach_004() -> None:
    """reviewcoc74 RISK 3: a sheet's whip (melee, range_m = 3) reaches 3 m, not arm's reach;
    beyond it the refusal names its reach."""
    f = duel(P004, {"weapons": (WHIP,), "fist": 50})
    refused(f, Attack("Ann", "Cult", distance_m=4),
            r"鞭/Whip is a melee blow, its reach range_m=3 m on the sheet: distance_m=4 is "
            r"beyond it; give distance_m 3 or less, or leave it out \(CO-RANGE-3\)")
    assert "鞭/Whip" in push(f, Attack("Ann", "Cult", distance_m=3), (100, 80))
    replays(f)


def test_with_both_rules_off_a_blow_at_a_distance_is_not_checked() -> None:
    """reviewcoc74 NIT 5: the melee check follows the rule switches; CO-MELEE-1 off in 003
    cited CO-RANGE-2, off there too."""
    f = duel(P003, KICK, settings={"CO-MELEE-1": {"p003": "off"}})
    assert "キック/Kick (1D100<=60)" in push(f, Attack("Ann", "Cult", distance_m=400), (100, 80))


def test_arm_s_reach_is_at_most_3_m() -> None:
    """reviewcoc74b RISK 2: a touch is arm's reach (004 l.73 「手が届く範囲」), and 3 m is the
    longest reach on 003's board (a throw's 3 squares, l.65): a reach of 1000 took touch at
    50 m (×1/4 and ×3 at once) and a kick at 900 m."""
    for far in (4, 1000):
        with pytest.raises(DataError,
                           match=rf"CO-RANGE-3\.reach_m must be from 1 to 3, found {far}"):
            duel(P004, GUN, settings={"CO-RANGE-3": {"reach_m": far}})
    f = duel(P004, GUN_AND_KICK, settings={"CO-RANGE-3": {"reach_m": 3}})
    assert "キック/Kick" in push(f, Attack("Ann", "Cult", 1, distance_m=3), (100, 99))


#: A sheet's firearm whose base range is shorter than a reach of 3 m.
DERRINGER = {"key": "derringer", "ja": "デリンジャー", "en": "Derringer", "kind": "firearm",
             "skill": "handgun", "damage": "1D6", "db": "none", "attacks": 1, "magazine": 2,
             "range_m": 2}


@pytest.mark.parametrize(("profile", "touch"), [(P004, "touch タッチ, CO-RANGE-3"),
                                                (P003, "point blank 隣接, CO-FIRE-5")])
def test_point_blank_beyond_the_weapon_s_base_range_is_refused(profile: Profile,
                                                              touch: str) -> None:
    """reviewcoc74b RISK 2: touch is within the base range (004 l.70 「基本射程(タッチ以外)」),
    so within a reach of 3 m a derringer's 3 m (2 m base range, 2× range) is refused with
    ``adjacent``, not ×1/2 and ×3 at once; at 2 m it is point blank."""
    f = duel(profile, {"weapons": (DERRINGER,), "handgun": 50},
             settings={"CO-RANGE-3": {"reach_m": 3}})
    refused(f, Attack("Ann", "Cult", distance_m=3, adjacent=True),
            rf"adjacent=true \({touch}\) is within デリンジャー/Derringer's base range 基本射程 "
            r"2 m, and distance_m=3 is beyond it")
    hits = profile is P004  # 50 ×3 = 150 hits with 99; 50 +15 = 65 misses
    text = push(f, Attack("Ann", "Cult", distance_m=2, adjacent=True), (100, 99),
                *([(6, 1)] if hits else []))
    assert "×1/" not in text and ("×3 (touch" in text or "+15 (adjacent" in text)
    replays(f)


#: A sheet's shotgun whose range_m (2 m) is shorter than its first printed band (5 m).
SAWN_OFF = {"key": "sawn", "ja": "ソードオフ", "en": "Sawn-off", "kind": "firearm",
            "skill": "shotgun", "damage": "4D6", "db": "none", "attacks": 1, "magazine": 2,
            "range_m": 2, "bands": "4D6/2D6 @ 5/10"}


def test_with_printed_bands_point_blank_is_within_the_first_band_not_range_m() -> None:
    """reviewz74 NIT 1: range_m serves only while CO-FIRE-9 is off (weapons.toml), and a band
    takes no ×1/k (to_hit.py), so with the printed bands in use the base range touch lies
    within is the first band: a sawn-off's 3 m touch (range_m 2, bands 5/10 m) is taken at
    ×3 (it was refused as beyond a 2 m base range), and one whose first band is 2 m refused."""
    f = duel(P004, {"weapons": (SAWN_OFF,), "shotgun": 50},
             settings={"CO-RANGE-3": {"reach_m": 3}})
    text = push(f, Attack("Ann", "Cult", distance_m=3, adjacent=True), (100, 99), *[(6, 1)] * 4)
    assert "×3 (touch, CO-RANGE-3)" in text and "damage 4D6 up to 5 m" in text
    replays(f)
    short = {**SAWN_OFF, "range_m": 5, "bands": "4D6/2D6 @ 2/10"}
    f = duel(P004, {"weapons": (short,), "shotgun": 50}, settings={"CO-RANGE-3": {"reach_m": 3}})
    refused(f, Attack("Ann", "Cult", distance_m=3, adjacent=True),
            r"within ソードオフ/Sawn-off's base range 基本射程 2 m \(its first printed band "
            r"4D6/2D6 @ 2/10 m, CO-FIRE-9\), and distance_m=3 is beyond it")
