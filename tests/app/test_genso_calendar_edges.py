"""mutation13: gaps in the tests of the Death Curse calendar (GM-MAGIC-13) that hand-made
mutants of companion/systems/genso/calendar.py, names.py and commands/genso/calendar.py
survived: a curse lifted on the day of its sunset, the sheet of its caster and of a target
it killed, the first of two sunsets a hand edit left behind, the longest pass, a calendar
file's days and a curse written twice in two widths, and a caster named with spaces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.errors import DataError
from companion.systems.genso.calendar import (
    MOST_DAYS_PASSED,
    Calendar,
    DeathCurse,
    calendar_from_mapping,
)
from tests.app.genso_calendar_helpers import err, written_calendar
from tests.app.genso_cli_out_helpers import out

PC1 = "駆け出し冒険者１"


def test_a_curse_is_lifted_on_the_day_of_its_sunset(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """「術者は任意の時点で呪文を解除できる」: up to the sunset that kills, the day itself too
    (the pass says "unless Mio lifts it first"); only a sunset already passed refuses it."""
    out(capsys, "calendar", "curse", "Mio", "Ben")  # day 1, dies at sunset on day 367
    said = out(capsys, "calendar", "pass", "366")
    assert "Ben dies at sunset today of Mio's 呪殺呪/Death Curse, unless Mio lifts it first" \
        in said
    assert "Mio lifts the 呪殺呪/Death Curse on Ben" in out(capsys, "calendar", "lift", "Ben")
    assert "no 呪殺呪/Death Curse on the calendar" in out(capsys, "calendar")


def test_the_casters_sheet_shows_the_curse_it_cast(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out(capsys, "calendar", "curse", PC1, "Ben")
    assert (f"呪殺呪/Death Curse on Ben by {PC1} (cast on day 1): Ben dies at sunset on day 367"
            in out(capsys, "sheet", "pc1"))


def test_the_sheet_of_a_target_a_passed_sunset_killed_says_it_died(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    written_calendar(user_dirs, f'day = 3\ndeath_curses = [{{target = "{PC1}", caster = "Mio", '
                                'cast_on = 1, dies_on = 2}]\n')
    assert (f"GM-MAGIC-13 {PC1} died at sunset on day 2 of Mio's 呪殺呪/Death Curse (cast on "
            "day 1)") in out(capsys, "sheet", "pc1")
    main(["genso", "sheet", "pc1", "--json"])
    sheet = json.loads(capsys.readouterr().out)
    assert [c["caster"] for c in sheet["dead"]] == ["Mio"]


def test_of_two_sunsets_a_hand_edit_left_behind_the_first_killed(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The file lists the later sunset first: the death is still the first sunset's."""
    written_calendar(user_dirs, 'day = 9\ndeath_curses = [{target = "Ben", caster = "Ann", '
                                'cast_on = 1, dies_on = 5}, {target = "Ben", caster = "Mio", '
                                'cast_on = 1, dies_on = 2}]\n')
    shown = out(capsys, "calendar")
    assert "Ben died at sunset on day 2 of Mio's" in shown
    assert "Ann's 呪殺呪/Death Curse on Ben (cast on day 1) ends with Ben's death" in shown
    assert "Ben died at sunset on day 2 of Mio's 呪殺呪/Death Curse" in err(
        capsys, "calendar", "lift", "Ben", "--caster", "Ann")


def test_the_most_days_a_pass_allows_pass(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = out(capsys, "calendar", "pass", str(MOST_DAYS_PASSED))
    assert f"{MOST_DAYS_PASSED} days pass: day 1 → {MOST_DAYS_PASSED + 1}" in said


@pytest.mark.parametrize(("day", "written"), [(0, "0"), (True, "true")])
def test_a_calendar_file_day_that_is_no_game_day_is_refused(day: object, written: str) -> None:
    with pytest.raises(DataError, match=f"x: day must be a day, a whole number 1 or more, "
                                        f"found {written}$"):
        calendar_from_mapping({"day": day}, "x")
    curse = {"target": "B", "caster": "M", "cast_on": day, "dies_on": 400}
    with pytest.raises(DataError, match="cast_on must be a day"):
        calendar_from_mapping({"death_curses": [curse]}, "x")


def test_a_curse_killing_on_the_day_it_was_cast_is_read() -> None:
    """Only a sunset before the day of casting is refused."""
    curse = {"target": "B", "caster": "M", "cast_on": 4, "dies_on": 4}
    assert calendar_from_mapping({"day": 4, "death_curses": [curse]}, "x") == \
        Calendar(4, (DeathCurse("B", "M", 4, 4),))


def test_one_casters_curse_kept_twice_in_two_widths_is_refused() -> None:
    twice = [{"target": "Ben", "caster": "Mio", "cast_on": 1, "dies_on": 367},
             {"target": "Ｂｅｎ", "caster": "Ｍｉｏ", "cast_on": 2, "dies_on": 368}]
    with pytest.raises(DataError, match="death_curses 2: Ｍｉｏ's Death Curse on Ｂｅｎ is "
                                        "kept twice"):
        calendar_from_mapping({"death_curses": twice}, "x")


def test_a_caster_named_with_spaces_around_it_is_found(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out(capsys, "calendar", "curse", "Mio", "Ben")
    out(capsys, "calendar", "curse", "Ann", "Ben")
    said = out(capsys, "calendar", "lift", "Ben", "--caster", " Mio ")
    assert "Mio lifts the 呪殺呪/Death Curse on Ben" in said
