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
            r"\(1 m\), and distance_m=40 is beyond it")
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


@pytest.mark.parametrize(("profile", "rule"), [(P003, "CO-MELEE-1"), (P004, "CO-RANGE-2")])
def test_a_kick_at_a_distance_beyond_reach_is_refused(profile: Profile, rule: str) -> None:
    f = duel(profile, KICK)
    refused(f, Attack("Ann", "Cult", distance_m=400),
            rf"キック/Kick is a melee blow, within arm's reach 手が届く範囲 \(1 m\): "
            rf"distance_m=400 is beyond it; leave out distance_m \({rule}\)")
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
            r"Cult stands next to Ann \(point blank 隣接, CO-FIRE-5\): distance_m=40 is beyond "
            "arm's reach")
    assert "+15 (adjacent, CO-FIRE-5) = 65" in push(f, Attack("Ann", "Cult"), (100, 99))
    old = board(OLD, "d7")
    assert "+15 (adjacent, CO-FIRE-5) = 65" in push(old, Attack("Ann", "Cult", adjacent=True),
                                                     (100, 99))
    replays(old)
