"""The events walk's words: EV-POI-9's sign and EV-TRAP-2's １ゾロ reading listed.

The events walk's words as events64 found them: EV-POI-9's sign (N9) and the reading of
EV-TRAP-2's １ゾロ listed among the fixed readings (N10)."""

from __future__ import annotations

import json

import pytest

from companion.app.cli import main
from companion.dice import ScriptedDice
from companion.systems.events.poisoned import Poison, describe, undone
from companion.systems.events.rules import load_rules
from companion.systems.events.run import run_event

RULES = load_rules()


@pytest.mark.parametrize(("sign_die", "change"), [(5, "−6"), (4, "+6")])
def test_ev_poi_9_s_change_is_signed_with_the_typographic_minus(
        sign_die: int, change: str) -> None:
    """"(1D6) ＞ 5 ＞ -6 (odd −, even + (default))": an ASCII hyphen beside the rule's own
    "odd −", and "−1", "±6" said elsewhere."""
    report = run_event("poison", ScriptedDice([(6, 6), (6, 2), (4, 3), (6, sign_die)]),
                       rules=RULES)
    (step,) = report.find("EV-POI-9")
    assert f"(1D6) ＞ {sign_die} ＞ {change} (odd −, even + (default))" in step.text
    assert "-6" not in step.text
    assert step.data["change"] == int(change.replace("−", "-"))  # the data stays a number
    poison = Poison(6, "EV-POI-9", 8, hours_left=2, ability="intelligence",
                    change=step.data["change"])
    assert f"(知力/INT {change})" in describe(poison, RULES)
    assert undone(poison) == f"; 知力/INT {change} is undone"


def test_ev_trap_2_s_double_1_reading_is_listed(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 001's 「ただし１ゾロによる自動失敗の場合、ダメージはそのまま通ります」 follows
    「解除に失敗し発動してしまった罠」: the １ゾロ may be read as the disarm's. The companion
    takes it as the target's own resistance or evasion roll, a reading no list named."""
    assert main(["events", "defaults", "--json"]) == 0
    readings = json.loads(capsys.readouterr().out)["fixed_readings"]
    reading = readings["EV-TRAP-2 (double 1)"]
    assert "１ゾロ" in reading and "resistance or evasion roll" in reading
    assert main(["events", "defaults"]) == 0
    shown = capsys.readouterr().out.partition("Fixed readings")[2]
    assert f"\nEV-TRAP-2 (double 1) {reading}\n" in shown

