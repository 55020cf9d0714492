"""Spec §0.3 (the global rounding Default) as the setting ``§0.3.rounding`` (task coc61):
down (切り捨て, the spec's Default, what every engine revision before 13 did), nearest
(四捨五入) or up (切り上げ), read by every share whose rule has no rounding of its own; a
fight's entries played by revision 12 or before round down whatever its settings say."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.dice.notation import Rounding
from companion.errors import DataError
from companion.systems.coc.checks import Grade, grade, ranges, roll_command
from companion.systems.coc.combat import Attack, Delay, Fight, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import at, duel, person, push, replays

HOW = ("down", "nearest", "up")


def rounding(how: str) -> dict[str, Any]:
    return {"§0.3": {"rounding": how}}


def test_the_packaged_default_is_down_and_only_the_three_are_taken() -> None:
    rules = load_rules()
    # down is toward zero, as §0.3 says (the shared rounding's TOWARD_ZERO: review61a N6)
    assert rules.rounding() is Rounding.TOWARD_ZERO
    assert rules.tag("§0.3", "rounding") == " (default)"
    assert rules.with_overrides(rounding("up")).rounding() is Rounding.UP
    with pytest.raises(DataError, match='must be one of down, nearest, up; found "half"'):
        rules.with_overrides(rounding("half"))


@pytest.mark.parametrize(("how", "skill"), list(zip(HOW, (22, 23, 23), strict=True)))
def test_half_a_skill_in_the_dark_004(how: str, skill: int) -> None:
    """CO-SURP-3's ×½ in CO-CORE-1's effective skill: 45 → 22.5."""
    f = duel(Profile.P004, {"fist": 45}, settings=rounding(how))
    text = push(f, Attack("Ann", "Cult", dark=True), (100, 90))
    assert f"base 45 ×1/2 (dark, CO-SURP-3) = {skill}\n" in text
    assert f"(1D100<={skill})" in text


@pytest.mark.parametrize(("how", "skill", "damage"),
                         list(zip(HOW, (13, 13, 14), (2, 2, 3), strict=True)))
def test_a_third_at_three_times_the_range_004(how: str, skill: int, damage: int) -> None:
    """CO-RANGE-2's ⅓ at 3× the base range, of the skill (40 → 13.33, so nearest keeps 13)
    and of the damage (7 → 2.33)."""
    f = duel(Profile.P004, {"weapons": ("revolver",), "handgun": 40}, settings=rounding(how))
    text = push(f, Attack("Ann", "Cult", distance_m=40), (100, 10), (10, 7))
    assert f"base 40 ×1/3 (40 m, 3× range, CO-RANGE-2) = {skill}\n" in text
    assert f"damage (1D10) ＞ 7 = 7 ÷3 = {damage} (CO-RANGE-2)" in text
    assert f.state.get("Cult").hp == 13 - damage


@pytest.mark.parametrize(("how", "loss"), list(zip(HOW, (1, 2, 2), strict=True)))
def test_the_knockouts_third_of_the_damage_004(how: str, loss: int) -> None:
    """CO-BASE-10's 1/3 of a 5-point blow: 1.67."""
    f = duel(Profile.P004, {"fist": 60},
             settings={**rounding(how), "CO-BASE-10": {"p004": "optional_on"}})
    text = push(f, Attack("Ann", "Cult", knockout=True), (100, 10), (3, 2), (4, 3), (100, 5))
    assert f"Cult is knocked out and loses {loss} (CO-BASE-10)" in text
    assert f.state.get("Cult").hp == 13 - loss


@pytest.mark.parametrize(("how", "half"), list(zip(HOW, (6, 7, 7), strict=True)))
def test_dex_13_acts_at_half_003(how: str, half: int) -> None:
    """CO-TURN-1's DEX/2 of DEX 13: the turn's place in the order and the line."""
    rules = load_rules(Profile.P003).with_overrides(rounding(how))
    f = Fight(rules, [(person(rules, "Ann", 13), Side.INVESTIGATORS),
                      (person(rules, "Cult", 6), Side.FOES)], ScriptedDice([]))
    text = push(f, Delay("Ann"))
    assert f"Ann will act at DEX/2 ({half}) (CO-TURN-1)" in text
    # Cult (DEX 6) acts before a DEX/2 of 6 (a tie waits: half_dex_ties), after one of 7.
    assert f.state.order == (("Ann", "Ann", "Cult") if half == 7 else ("Ann", "Cult", "Ann"))


@pytest.mark.parametrize(("how", "skill", "special"),
                         [("down", 48, 9), ("nearest", 48, 10), ("nearest", 47, 9),
                          ("up", 46, 10)])
def test_a_fights_special_is_the_fifth_of_the_skill_rounded_by_the_setting(
        how: str, skill: int, special: int) -> None:
    """CO-CORE-1 / CO-BASE-2 in a fight: a special is a success ≤ max(1, skill ÷ 5), the
    fifth rounded by §0.3's setting: seed 004 l.35's 「技能の1/5」 names no rounding."""
    for roll, word in ((special, "スペシャル/special"), (special + 1, "成功/success")):
        f = duel(Profile.P004, {"fist": skill}, settings=rounding(how))
        text = push(f, Attack("Ann", "Cult"), (100, roll), (3, 2), (4, 3))
        assert f"(1D100<={skill}) ＞ {roll} ＞ {word}\n" in text


@pytest.mark.parametrize("how", HOW)
def test_bcdices_own_commands_round_the_special_down_whatever_the_setting(how: str) -> None:
    """review61a R5: `coc roll CCB<=48` under up gave スペシャル on a 10, where BCDice's CCB,
    whose notation it is, gives 成功: BCDice's rolls keep BCDice's floor."""
    rules = load_rules(Profile.P004).with_overrides(rounding(how))
    for command in ("CCB<=48", "CC<=48"):
        made = roll_command(command, ScriptedDice([(100, 10)]), rules)
        assert made.text == "(1D100<=48) ＞ 10 ＞ 成功/success"
        assert roll_command(command, ScriptedDice([(100, 9)]), rules).text.endswith(
            "＞ 9 ＞ スペシャル/special")
    r = ranges(rules)
    assert grade(10, 48, r) is Grade.SUCCESS and grade(9, 48, r) is Grade.SPECIAL


def test_an_entry_played_by_revision_12_rounds_down_whatever_the_setting() -> None:
    """An old fight replays with the rounding it was played with: revision 12 had no setting
    and rounded down, so its entries round down even under a file's ``up``; the next action,
    played by today's revision, rounds up."""
    f = at(12, duel(Profile.P004, {"fist": 45}, settings=rounding("up")))
    assert "= 22\n" in push(f, Attack("Ann", "Cult", dark=True), (100, 90))
    data = json.loads(json.dumps(f.to_json()))
    assert data["journal"][0]["engine"] == 12
    again = Fight.from_json(load_rules(), data)
    assert again.journal[0].lines == f.journal[0].lines and again.state == f.state
    assert again.engine > 12  # a fight file goes on by today's revision
    again.pop()
    assert "= 23\n" in push(again, Attack("Ann", "Cult", dark=True), (100, 90))


def test_today_up_rounds_the_same_blow_up_and_replays() -> None:
    f = duel(Profile.P004, {"fist": 45}, settings=rounding("up"))
    assert "= 23\n" in push(f, Attack("Ann", "Cult", dark=True), (100, 90))
    replays(f)
