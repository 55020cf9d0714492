"""The events tables: EV-POI-9's sign_die, EV-POI-3 with no victim, list values as TOML.

System `events`: the findings of the events68 audit in the events tables' own code.

DEFECT 1: EV-POI-9's ``sign_die`` is read odd −, even +, so only a sum of dice may be set
(a choice's number is the item's place, and ``choice[+,-]`` applied −6 beside a "+").
NIT 3: EV-POI-3 with no victim named says the rule, not that a poison was replaced.
NIT 4: a list file's TOML value is echoed as TOML writes it (``true``, not ``True``).
"""

from __future__ import annotations

import json
import re

import pytest

from companion.app.cli import main
from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.systems.events.lists import load_lists
from companion.systems.events.rules import load_rules
from companion.systems.events.run import run_event

RULES = load_rules()
POISON_9 = [(6, 6), (6, 2), (4, 3)]  # EV-POI-9, 2 hours, intelligence; then the sign


@pytest.mark.parametrize("sign_die", [
    "choice[+,-]", "choice[plus,minus]", "choice + -", "C(3)", "x2 1D6", "3B6>=4",
    "1D6>=4", "D66",
    # a product or quotient is even, or 0, whatever the faces (reviewe68 NIT 5)
    "1D6*2", "1/2D6", "1D6/2", "(1D6+1)*2", "-1D6*2",
])
def test_ev_poi_9_sign_die_must_be_a_sum_of_dice(sign_die: str) -> None:
    """events68 DEFECT 1: a choice, calculation, repeat, pool, check or D66 is refused,
    naming the setting, how it is read and what was found."""
    with pytest.raises(DataError, match=re.escape(
            "EV-POI-9.sign_die must be a dice sum read odd −, even + (奇数 −・偶数 +, e.g. "
            f"1D6); found {json.dumps(sign_die)}")):
        RULES.with_overrides({"EV-POI-9": {"sign_die": sign_die}})


@pytest.mark.parametrize(("sign_die", "rands"), [
    ("1D6", [(6, 3)]), ("2D6", [(6, 3), (6, 5)]), ("1D2+1", [(2, 2)]), ("S1D6 sign", [(6, 1)]),
    ("2D6-1D6", [(6, 3), (6, 5), (6, 1)]),
])
def test_ev_poi_9_a_sum_of_dice_is_taken_and_its_parity_gives_the_sign(
        sign_die: str, rands: list[tuple[int, int]]) -> None:
    """A sum of dice stays a valid override, and the sign shown is the one applied."""
    rules = RULES.with_overrides({"EV-POI-9": {"sign_die": sign_die}})
    report = run_event("poison", ScriptedDice([*POISON_9, *rands]), rules=rules)
    (step,) = report.find("EV-POI-9")
    total = sum(value for _, value in rands) + (1 if sign_die == "1D2+1" else 0) \
        - (2 * rands[-1][1] if sign_die == "2D6-1D6" else 0)
    change = -6 if total % 2 else 6
    assert step.data["change"] == change
    assert f" ＞ {'−' if change < 0 else '+'}6 (odd −, even +)" in step.text


def test_ev_poi_9_a_choice_sign_die_is_refused_on_the_command_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The audit's repro through --set: exit 2 with the setting named, no walk."""
    assert main(["events", "poison", "--seed", "1",
                 "--set", "EV-POI-9.sign_die=choice[+,-]"]) == 2
    captured = capsys.readouterr()
    assert "EV-POI-9.sign_die must be a dice sum read odd −, even +" in captured.err
    assert "EV-POI-3" not in captured.out


def test_ev_poi_3_unnamed_victim_says_the_rule_not_a_replacement() -> None:
    """events68 NIT 3: with no victim named the walk cannot replace anything; a named
    victim's poison is still said to replace theirs."""
    unnamed = run_event("poison", ScriptedDice([(6, 1), (6, 3)]), rules=RULES)
    (step,) = unnamed.find("EV-POI-3")
    assert step.member is None
    # one row on the tray's Table panel at 800x480 (reviewe68 DEFECT 1)
    assert step.text == "Poisons do not stack 毒は重複しない: any earlier one ends"


def test_ev_poi_3_named_victim_still_replaces(capsys: pytest.CaptureFixture[str]) -> None:
    """reviewe68 NIT 3: both EV-POI-3 lines have their Japanese."""
    assert main(["events", "poison", "--who", "Aki", "--seed", "1"]) == 0
    assert "Replaces any current poison 毒は上書き (poisons do not stack)" \
        in capsys.readouterr().out


@pytest.mark.parametrize(("text", "wrong"), [
    ("[[monster]]\nname = 'A'\nlevel = true\n",
     "monster 1 (A): level must be a whole number of 1 or more, found true"),
    ("[[monster]]\nname = 'A'\nlevel = 1.5\n",
     "monster 1 (A): level must be a whole number of 1 or more, found 1.5"),
    ("[[item]]\nname = false\n", "item 1: name must be text, found false"),
    ("monster = [true]\n", "monster 1: must be a [[monster]] table, found true"),
])
def test_a_list_file_value_is_shown_as_toml_writes_it(text: str, wrong: str) -> None:
    """events68 NIT 4: Python's True was shown for the file's true."""
    with pytest.raises(DataError, match=re.escape(wrong) + "$"):
        load_lists(text, "lists.toml")
