"""`genso|events|coc defaults` show a Default that must be one of a closed set of words (or
numbers) with its choices, as they show a range: text "one of: gm, wg", JSON "choices" (a
list); a switch (true/false) or a plain number gets none. A wrong word is refused naming the
choices in all three systems (coc took any word before: CO-MA-2.throw_toward=xx failed only
when someone was thrown). The sets stay in each system's code (``CHOICES``), the one source
both the check and the listing read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.errors import DataError
from companion.systems.coc import rules as coc_rules
from companion.systems.defaults import Settings, notes_text, read_choices
from companion.systems.events import rules as events_rules
from companion.systems.genso import rules as genso_rules

#: system: (a setting with choices and its choices, a switch, a number with a range, a bad
#: override and the refusal's words)
CASES: dict[str, tuple[tuple[str, str, list[Any]], tuple[str, str],
                       tuple[str, str], str, str]] = {
    "genso": (("GM-MON-7", "orc_warrior", ["gm", "wg"]),
              ("GM-COMBAT-8", "strict_4_6"), ("GM-CHECK-6", "difficulty"),
              "GM-MON-7.orc_warrior=xx",
              'GM-MON-7.orc_warrior must be one of gm, wg; found "xx"'),
    "events": (("EV-CORE-2", "comparison", [">=", ">"]),
               ("EV-DOOR-3", "enabled"), ("EV-CORE-1", "dm_level"),
               "EV-CORE-4.rounding=sideways",
               "EV-CORE-4.rounding must be one of down, up, nearest, toward_zero; "
               'found "sideways"'),
    "coc": (("CO-MA-2", "throw_toward",
                     ["facing", "N", "NE", "E", "SE", "S", "SW", "W", "NW"]),
            ("CO-BASE-12", "full_refill"), ("CO-BASE-7", "parries_per_round"),
            "CO-MA-2.throw_toward=xx",
            "CO-MA-2.throw_toward must be one of facing, N, NE, E, SE, S, SW, W, NW; "
            'found "xx"'),
}
SYSTEMS = sorted(CASES)


def rows_of(capsys: pytest.CaptureFixture[str], system: str, *argv: str) -> list[dict[str, Any]]:
    assert main([system, "defaults", "--json", *argv]) == 0, capsys.readouterr().err
    rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["defaults"]
    return rows


def row(rows: list[dict[str, Any]], rule: str, key: str) -> dict[str, Any]:
    found = [r for r in rows if (r["rule"], r["key"]) == (rule, key)]
    assert len(found) == 1, (rule, key)
    return found[0]


def text_line(capsys: pytest.CaptureFixture[str], system: str, rule: str, key: str,
              *argv: str) -> str:
    assert main([system, "defaults", *argv]) == 0, capsys.readouterr().err
    lines = [line for line in capsys.readouterr().out.splitlines()
             if line.split()[:2] == [rule, key]]
    assert len(lines) == 1, (rule, key)
    return lines[0]


@pytest.mark.parametrize("system", SYSTEMS)
def test_json_lists_the_choices_beside_the_value(
    user_dirs: Path, capsys: pytest.CaptureFixture[str], system: str
) -> None:
    (rule, key, choices), switch, number, _, _ = CASES[system]
    rows = rows_of(capsys, system)
    chosen = row(rows, rule, key)
    assert chosen["choices"] == choices and chosen["value"] in choices
    assert "range" not in chosen
    assert "choices" not in row(rows, *switch) and "range" not in row(rows, *switch)
    ranged = row(rows, *number)
    assert "choices" not in ranged and ranged["range"]
    # Only the settings of the system's closed sets carry "choices", and every one does.
    module = {"genso": genso_rules, "events": events_rules, "coc": coc_rules}[system]
    assert {(r["rule"], r["key"]): r["choices"] for r in rows if "choices" in r} == {
        k: list(v) for k, v in module.CHOICES.items()}


@pytest.mark.parametrize("system", SYSTEMS)
def test_text_shows_one_of_as_it_shows_a_range(
    user_dirs: Path, capsys: pytest.CaptureFixture[str], system: str
) -> None:
    (rule, key, choices), switch, number, _, _ = CASES[system]
    line = text_line(capsys, system, rule, key)
    assert line.endswith(f"(default)  one of: {', '.join(choices)}"), line
    assert "range:" not in line
    assert "one of" not in text_line(capsys, system, *switch)
    assert "range" not in text_line(capsys, system, *switch)
    ranged = text_line(capsys, system, *number)
    assert "  range: " in ranged and "one of" not in ranged


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_value_set_by_the_user_is_still_shown_with_its_choices(
    user_dirs: Path, capsys: pytest.CaptureFixture[str], system: str
) -> None:
    (rule, key, choices), _, _, _, _ = CASES[system]
    other = choices[-1]
    chosen = row(rows_of(capsys, system, "--set", f"{rule}.{key}={other}"), rule, key)
    assert chosen == {"rule": rule, "key": key, "value": other, "default": False,
                      "choices": choices}
    line = text_line(capsys, system, rule, key, "--set", f"{rule}.{key}={other}")
    assert line.endswith(f"(set by you)  one of: {', '.join(choices)}"), line


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_wrong_word_is_refused_naming_the_choices(
    user_dirs: Path, capsys: pytest.CaptureFixture[str], system: str
) -> None:
    *_, bad, message = CASES[system]
    assert main([system, "defaults", "--set", bad]) == 2
    assert f"--set: {message}" in capsys.readouterr().err


@pytest.mark.parametrize(("system", "setting", "message"), [
    ("genso", "GM-MAGIC-5.diameter_m=4", "GM-MAGIC-5.diameter_m must be one of 3, 5; found 4"),
    # a number where a word goes (and a word where a number goes) names the choices too
    ("genso", "GM-MON-7.orc_warrior=3", "GM-MON-7.orc_warrior must be one of gm, wg; found 3"),
    ("genso", "GM-MAGIC-5.diameter_m=big",
     'GM-MAGIC-5.diameter_m must be one of 3, 5; found "big"'),
    ("events", "EV-CORE-4.rounding=3",
     "EV-CORE-4.rounding must be one of down, up, nearest, toward_zero; found 3"),
    ("coc", "CO-BURN-1.choice=STR", 'CO-BURN-1.choice must be one of APP, CON; found "STR"'),
    # a switch is named as one, not as choices
    ("coc", "CO-BASE-12.full_refill=3", "CO-BASE-12.full_refill must be true or false"),
])
def test_other_refusals(user_dirs: Path, capsys: pytest.CaptureFixture[str], system: str,
                        setting: str, message: str) -> None:
    assert main([system, "defaults", "--set", setting]) == 2
    assert message in capsys.readouterr().err


def test_a_wrong_word_in_the_users_file_is_refused_naming_it(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (user_dirs / "config").mkdir()
    path = user_dirs / "config" / "coc.toml"
    path.write_text('[defaults."CO-BURN-1"]\nchoice = "POW"\n', encoding="utf-8")
    assert main(["coc", "defaults"]) == 2
    assert f'{path}: CO-BURN-1.choice must be one of APP, CON; found "POW"' in \
        capsys.readouterr().err


def test_coc_engine_checks_the_choices_where_they_are_set() -> None:
    """coc had no closed sets: any word was taken and failed only when a throw or a burn
    read it. Now the override is refused; a saved fight (``limits=False``) keeps what it
    was played with, as with the ranges."""
    rules = coc_rules.load_rules()
    assert rules.with_overrides({"CO-MA-2": {"throw_toward": "SW"}}).default(
        "CO-MA-2", "throw_toward") == "SW"
    with pytest.raises(DataError, match=r"CO-BURN-1\.choice must be one of APP, CON"):
        rules.with_overrides({"CO-BURN-1": {"choice": "app"}})
    kept = rules.with_overrides({"CO-MA-2": {"throw_toward": "n"}}, limits=False)
    assert kept.default("CO-MA-2", "throw_toward") == "n"


def test_the_packaged_defaults_are_among_their_choices() -> None:
    for settings in (genso_rules.load_rules().settings, events_rules.load_rules().settings,
                     coc_rules.load_rules().defaults):
        assert settings.not_chosen() == [] and settings.choices


def test_one_list_per_setting_read_from_code() -> None:
    """The listing and the check read the system's CHOICES (derived from the engine's enums
    where it has them): no second copy."""
    from companion.dice.notation import Comparison
    from companion.systems.coc.board import FACINGS

    assert events_rules.load_rules().settings.choices_of("EV-CORE-2", "comparison") == (
        Comparison.GE.value, Comparison.GT.value)  # roll-high checks only (events62 R2)
    assert coc_rules.load_rules().defaults.choices_of("CO-MA-2", "throw_toward")[1:] == tuple(
        FACINGS)
    assert dict(genso_rules.load_rules().settings.choices) == genso_rules.CHOICES


# --- the shared mechanism (companion.systems.defaults) -----------------------------------


def test_notes_carry_a_range_and_choices_and_print_them_in_one_place() -> None:
    settings = Settings({"X-1": {"way": "up", "on": True, "n": 2}},
                        choices=read_choices({("X-1", "way"): ("up", "down")},
                                             {"X-1": {"way": "up", "on": True, "n": 2}}, "x"))
    assert settings.notes("X-1", "way") == {"choices": ["up", "down"]}
    assert settings.notes("X-1", "on") == {} and settings.notes("X-1", "n") == {}
    assert settings.choices_of("X-1", "on") == ()
    assert notes_text({"choices": ["up", "down"]}) == "  one of: up, down"
    assert notes_text({"range": "1 or more"}) == "  range: 1 or more"
    assert notes_text({"range": "3 to 5", "choices": [3, 5]}) == \
        "  range: 3 to 5  one of: 3, 5"
    assert notes_text({}) == ""
    with pytest.raises(DataError, match=r'here: X-1\.way must be one of up, down; found "left"'):
        settings.with_overrides({"X-1": {"way": "left"}}, "here")


@pytest.mark.parametrize(("choices", "message"), [
    ({("X-1", "nope"): ("a",)}, "choices of X-1.nope: no Default X-1.nope"),
    ({("X-1", "on"): (True, False)}, "choices of X-1.on: must be values of the Default's "
                                     "kind \\(true or false\\)"),
    ({("X-1", "way"): ("up", 3)}, "choices of X-1.way: must be values of the Default's "
                                  "kind \\(text\\)"),
    ({("X-1", "way"): ()}, "choices of X-1.way: must be values of the Default's kind"),
])
def test_a_closed_set_that_does_not_fit_the_data_is_refused(
    choices: dict[tuple[str, str], tuple[Any, ...]], message: str
) -> None:
    with pytest.raises(DataError, match=f"x: {message}"):
        read_choices(choices, {"X-1": {"way": "up", "on": True}}, "x")
