"""Fixed readings whose spec entry names another reading, made settings with the reading
played so far as their Default (task coc61): CO-BODY-5's 「HPが0になれば」 (HP 0 or below, or
exactly 0) and CO-GRAP-3's grapple limits (both in the grapple, or the grappler only)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.app.cli import main
from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Attack, Grapple
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel, push, replays

SWORD: dict[str, Any] = {"weapons": ("japanese_sword",), "japanese_sword": 90}
HEAD = ((100, 25), (10, 1), (4, 1))  # 30% hits at 25; 2 damage, then 15 more: HP −4


def test_a_head_cut_off_below_hp_0_kills_at_once_by_default_004() -> None:
    f = duel(Profile.P004, SWORD)
    assert "Cult dies: the head is severed at HP -4 (CO-BODY-5)" in push(
        f, Attack("Ann", "Cult", body="cut", part="head"), *HEAD)
    assert f.state.get("Cult").dead


def test_read_as_exactly_0_below_it_the_dying_rule_holds_004() -> None:
    f = duel(Profile.P004, SWORD, settings={"CO-BODY-5": {"below_zero_too": False}})
    text = push(f, Attack("Ann", "Cult", body="cut", part="head"), *HEAD)
    assert "Cult is dying: dies at end of round 2 (CO-BASE-8)" in text
    assert "severed" not in text and not f.state.get("Cult").dead
    replays(f)
    # at HP exactly 0 the torso still kills at once: 90 − SIZ 13 × 3 = 51; 3 damage + 10
    g = duel(Profile.P004, SWORD, settings={"CO-BODY-5": {"below_zero_too": False}})
    text = push(g, Attack("Ann", "Cult", body="cut", part="torso"), (100, 40), (10, 2), (4, 1))
    assert "Cult dies: the torso is severed at HP 0 (CO-BODY-5)" in text


@pytest.mark.parametrize(("binds_held", "ap"), [(True, 1), (False, 3)])
def test_the_held_ones_ap_in_a_grapple_003(binds_held: bool, ap: int) -> None:
    """The grappler's 1 AP whatever the setting; the held one's by it."""
    f = duel(Profile.P003, {"grapple": 90},
             settings={"CO-GRAP-3": {"binds_held": binds_held}})
    text = push(f, Grapple("Ann", "Cult"), (100, 30), (100, 99))
    assert "the grapple is Ann's 1 AP this round while grappling: 2 AP left unused" in text
    assert text.endswith(f"Cult's turn: {ap} AP (CO-TURN-3)")
    replays(f)


def test_the_grappler_only_lets_the_held_one_swing_a_two_handed_weapon_003() -> None:
    rifle = {"weapons": ("fist", "rifle"), "rifle": 60}
    f = duel(Profile.P003, {"grapple": 90}, rifle)
    push(f, Grapple("Ann", "Cult"), (100, 30), (100, 99))
    with pytest.raises(IllegalAction, match=r"no two-handed weapon while grappling \(CO-GRAP-3\)"):
        f.push(Attack("Cult", "Ann", weapon=1), ScriptedDice([(100, 90)]))
    g = duel(Profile.P003, {"grapple": 90}, rifle,
             settings={"CO-GRAP-3": {"binds_held": False}})
    push(g, Grapple("Ann", "Cult"), (100, 30), (100, 99))
    assert "ライフル" in push(g, Attack("Cult", "Ann", weapon=1), (100, 90))


def test_both_are_listed_as_settings_and_no_more_as_fixed_readings(
    user_dirs: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["coc", "defaults"]) == 0
    out = capsys.readouterr().out
    settings, readings = out.split("Fixed readings")
    assert any(x.split()[:3] == ["CO-BODY-5", "below_zero_too", "true"]
               for x in settings.splitlines())
    assert any(x.split()[:3] == ["CO-GRAP-3", "binds_held", "true"]
               for x in settings.splitlines())
    assert "CO-BODY-5 (methods)" in readings and "HP 0" not in readings
    assert "CO-GRAP-3" not in readings
