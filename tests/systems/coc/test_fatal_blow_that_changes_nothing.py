"""The coc engine refuses an attack's fatal_blow where it changes nothing (CO-DODGE-5).

review61e N1: an attack's ``fatal_blow`` (the Keeper rules the blow certainly fatal,
CO-DODGE-5.dodge_needs_fatal_blow) is refused where it would change nothing, naming why, as
an ``after_dodge`` with no dodge is: it was taken silently, the line never saying it."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Attack, Defence, Delay, EndTurn
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel, push, replays

ANN, CULT = {"fist": 60, "dodge": 80}, {"fist": 60}
FATAL: dict[str, Any] = {"CO-DODGE-5": {"dodge_needs_fatal_blow": True}}


@pytest.mark.parametrize(("profile", "settings", "ann_attacks", "defence", "why"), [
    (Profile.P004, None, True, Defence.DODGE,
     "it is read only in profile 004 with CO-DODGE-5.dodge_needs_fatal_blow = true"),
    (Profile.P003, FATAL, True, Defence.DODGE,
     "it is read only in profile 004 with CO-DODGE-5.dodge_needs_fatal_blow = true"),
    (Profile.P004, FATAL, False, Defence.DODGE,
     "Ann has not attacked this round, and dodges as ever"),
    (Profile.P004, FATAL, True, Defence.NONE, "Ann does not dodge"),
])
def test_a_fatal_blow_that_changes_nothing_is_refused(
        profile: Profile, settings: dict[str, Any] | None, ann_attacks: bool,
        defence: Defence, why: str) -> None:
    f = duel(profile, ANN, CULT, settings=settings)
    if ann_attacks:
        push(f, Attack("Ann", "Cult"), (100, 90))
        if profile is Profile.P003:  # (action points: her turn goes on)
            push(f, EndTurn("Ann"))
    else:
        push(f, Delay("Ann"))
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Cult", "Ann", defence=defence, fatal_blow=True), ScriptedDice([]))
    assert str(refused.value) == (f"fatal_blow=true changes nothing here: {why} (CO-DODGE-5); "
                                  "leave out fatal_blow")
    # without it the attack is played (a miss: no dodge rolled)
    assert "失敗/failure" in push(f, Attack("Cult", "Ann", defence=defence), (100, 90))

def test_a_fatal_blow_that_is_read_is_taken() -> None:
    f = duel(Profile.P004, ANN, CULT, settings=FATAL)
    push(f, Attack("Ann", "Cult"), (100, 90))
    text = push(f, Attack("Cult", "Ann", defence=Defence.DODGE, fatal_blow=True),
                (100, 10), (100, 10))
    assert "−60 after attacking, CO-DODGE-5" in text
    replays(f)
