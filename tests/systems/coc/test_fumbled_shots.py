"""Engine revision 7: a fumbled shot spends its round (CO-FIRE-4, 003 l.59 「ファンブル…が出た
場合、弾詰まりを起こして次回戦闘ラウンドで使用技能を成功させて弾を取り除かない限り使用できない。
(リボルバーなどの弾詰まりの起きない武器の場合は銃を手落とす等)」), a fumbled burst its whole
magazine (CO-FIRE-6, l.61 「マガジン内に入っている弾丸が全て発射されることになる。」), and a gun
that jams or is dropped fires no more of the action's shots (004 with CO-FIRE-4 on). Entries
played by revision 6 replay as they were played."""

from __future__ import annotations

from typing import Any

import pytest

from companion.systems.coc.combat import ENGINE, Attack, Fight
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push, replays

ANN: dict[str, Any] = {"weapons": ("smg", "automatic", "revolver"), "smg": 60, "handgun": 60}
FIRE_4_ON = {"CO-FIRE-4": {"p004": "optional_on"}}


def gun(f: Fight, index: int) -> Any:
    return f.state.get("Ann").sheet.weapons[index]


def test_a_fumbled_burst_spends_the_magazine_003() -> None:
    """The burst fires the 20 rounds it says, and jams: none are left. Revision 6 gave the
    20 back."""
    f = at(ENGINE, duel(Profile.P003, ANN))
    text = push(f, Attack("Ann", "Cult", burst=True), (100, 97))
    assert "fires a burst of 20" in text and "jams" in text
    assert (gun(f, 0).loaded, gun(f, 0).jammed) == (0, True)
    replays(f)
    old = at(6, duel(Profile.P003, ANN))
    push(old, Attack("Ann", "Cult", burst=True), (100, 97))
    assert (gun(old, 0).loaded, gun(old, 0).jammed) == (20, True)
    replays(old)


@pytest.mark.parametrize(("weapon", "loaded", "effect"), [(1, 6, "jammed"), (2, 5, "dropped")])
def test_a_fumbled_shot_spends_its_round_003(weapon: int, loaded: int, effect: str) -> None:
    """One pistol shot, fumbled: the automatic jams, the revolver is dropped, each a round
    short. Revision 6 left the magazine full."""
    f = at(ENGINE, duel(Profile.P003, ANN))
    push(f, Attack("Ann", "Cult", weapon=weapon), (100, 97))
    assert gun(f, weapon).loaded == loaded and getattr(gun(f, weapon), effect)
    replays(f)
    old = at(6, duel(Profile.P003, ANN))
    push(old, Attack("Ann", "Cult", weapon=weapon), (100, 97))
    assert gun(old, weapon).loaded == loaded + 1 and getattr(gun(old, weapon), effect)
    replays(old)


@pytest.mark.parametrize(("weapon", "loaded", "effect"), [(1, 6, "jammed"), (2, 5, "dropped")])
def test_a_gun_that_jams_or_is_dropped_fires_no_more_shots_004(weapon: int, loaded: int,
                                                               effect: str) -> None:
    """004 with CO-FIRE-4 on, three shots in one action: the first is fumbled, so the other
    two are not fired (the log says so), and one round is spent. Revision 6 fired them from
    the jammed or dropped gun and gave the fumbled round back."""
    f = at(ENGINE, duel(Profile.P004, ANN, settings=FIRE_4_ON))
    text = push(f, Attack("Ann", "Cult", weapon=weapon, shots=3), (100, 97))
    assert f"is {effect}: the action's 2 other shot(s) are not fired (CO-FIRE-4)" in text
    assert gun(f, weapon).loaded == loaded and getattr(gun(f, weapon), effect)
    assert f.state.get("Cult").hp == 13
    replays(f)
    old = at(6, duel(Profile.P004, ANN, settings=FIRE_4_ON))
    push(old, Attack("Ann", "Cult", weapon=weapon, shots=3), (100, 97), (100, 30), (10, 5),
         (100, 30), (10, 5))
    assert gun(old, weapon).loaded == loaded - 1 and getattr(gun(old, weapon), effect)
    assert old.state.get("Cult").hp < 13
    replays(old)


def test_a_gun_fumbled_on_its_last_shot_says_nothing_more_004() -> None:
    """The third of three shots fumbled: the action is over anyway, no line about shots not
    fired; the two earlier hits stand and three rounds are spent."""
    f = at(ENGINE, duel(Profile.P004, ANN, settings=FIRE_4_ON))
    text = push(f, Attack("Ann", "Cult", weapon=1, shots=3), (100, 30), (10, 1), (100, 30),
                (10, 1), (100, 97))
    assert "not fired" not in text and "jams" in text
    assert (gun(f, 1).loaded, gun(f, 1).jammed) == (4, True)
    replays(f)


def test_a_fumbled_first_strike_spends_its_round_004() -> None:
    """CO-FIRE-7's shot before the DEX order, fumbled (CO-FIRE-4 on): the automatic jams a
    round short; revision 6 gave the round back."""
    f = at(ENGINE, duel(Profile.P004, ANN, settings=FIRE_4_ON))
    text = push(f, Attack("Ann", "Cult", weapon=1, first_strike=True), (100, 97))
    assert "jams" in text and (gun(f, 1).loaded, gun(f, 1).jammed) == (6, True)
    replays(f)
    old = at(6, duel(Profile.P004, ANN, settings=FIRE_4_ON))
    push(old, Attack("Ann", "Cult", weapon=1, first_strike=True), (100, 97))
    assert (gun(old, 1).loaded, gun(old, 1).jammed) == (7, True)
    replays(old)
