"""genso61: GM-MAGIC-13's Default, "the program keeps a calendar reminder for a Death Curse
(呪殺呪)": 「対象は１年と１日後の日没時に死亡する。術者は任意の時点で呪文を解除できる。」. No
reminder was kept (readings.toml said so). `genso calendar` now counts the campaign's game
days, keeps each curse with the day its target dies at sunset (a year of
GM-MAGIC-13.year_days, a Default; the year and the day the seed's), lists it with the days
left (on the sheets of its caster and target too), lifts it, and says the target dies when
the days passed reach that sunset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.errors import DataError, IllegalAction
from companion.systems.genso.calendar import (
    Calendar,
    calendar_from_mapping,
    cast_death_curse,
    pass_days,
)
from companion.systems.genso.rules import load_rules
from tests.app.genso_calendar_helpers import calendar_file, err
from tests.app.genso_cli_out_helpers import out

RULES = load_rules()
PC1 = "駆け出し冒険者１"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(out(capsys, *argv, "--json"))
    return data


def test_a_curse_is_kept_listed_and_kills_at_the_sunset_a_year_and_a_day_on(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-MAGIC-13: cast on day 1, the target dies at sunset on day 1 + 365 + 1 = 367."""
    assert run(capsys, "calendar")["day"] == 1
    said = out(capsys, "calendar", "curse", "Mio", "Ben")
    assert ("Mio casts 呪殺呪/Death Curse on Ben on day 1: "
            "「対象は１年と１日後の日没時に死亡する。」 Ben dies at sunset on day 367, "
            "366 days on (a year of 365 days (default), and a day)") in said
    shown = run(capsys, "calendar")
    assert shown["death_curses"] == [{"target": "Ben", "caster": "Mio", "cast_on": 1,
                                      "dies_on": 367, "days_left": 366}]
    said = out(capsys, "calendar", "pass", "365")
    assert "365 days pass: day 1 → 366" in said and "(1 day left)" in said
    said = out(capsys, "calendar", "pass", "1")
    assert "Ben dies at sunset today of Mio's 呪殺呪/Death Curse, unless Mio lifts it" in said
    assert "dies at sunset today, day 367 (今日の日没)" in said
    passed = run(capsys, "calendar", "pass", "1")
    assert passed["said"] == ["1 day passes: day 367 → 368", "GM-MAGIC-13 Ben died at sunset "
                              "on day 367 of Mio's 呪殺呪/Death Curse (cast on day 1)"]
    assert passed["death_curses"] == [] and passed["day"] == 368
    # The death is kept (genso70 DEFECT 1): the dead carry no curse to lift.
    assert ("Ben died at sunset on day 367 of Mio's 呪殺呪/Death Curse: a curse is lifted only "
            "before its sunset") in err(capsys, "calendar", "lift", "Ben")


def test_days_passed_beyond_the_sunset_at_once_still_tell_the_death(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out(capsys, "calendar", "pass", "9")
    out(capsys, "calendar", "curse", "Mio", "Ben")
    assert "Ben died at sunset on day 376" in out(capsys, "calendar", "pass", "1000")
    assert run(capsys, "calendar")["day"] == 1010


def test_the_caster_lifts_it_and_it_is_listed_no_more(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out(capsys, "calendar", "curse", "Mio", "Ben")
    assert "already carries Mio's 呪殺呪/Death Curse" in err(capsys, "calendar", "curse", "Mio",
                                                             "Ben")
    said = out(capsys, "calendar", "lift", "Ben")
    assert "Mio lifts the 呪殺呪/Death Curse on Ben (術者は任意の時点で呪文を解除できる)" in said
    assert "no 呪殺呪/Death Curse on the calendar" in said
    assert "died" not in out(capsys, "calendar", "pass", "400")


def test_the_year_is_a_default_and_the_year_and_day_the_seeds(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-MAGIC-13.year_days is a Default (`genso defaults` lists it, --set changes it); the
    year and the day after it are the seed's and refused as a setting."""
    said = out(capsys, "calendar", "curse", "Mio", "Ben", "--set", "GM-MAGIC-13.year_days=360")
    assert "dies at sunset on day 362, 361 days on (a year of 360 days, and a day)" in said
    # calendar73 NIT 7: a year of one day is said so, not "a year of 1 days".
    said = out(capsys, "calendar", "curse", "Ann", "Bo", "--set", "GM-MAGIC-13.year_days=1")
    assert "dies at sunset on day 3, 2 days on (a year of 1 day, and a day)" in said
    rows = run(capsys, "defaults")
    assert {"rule": "GM-MAGIC-13", "key": "year_days", "value": 365}.items() <= next(
        r for r in rows["defaults"] if r["rule"] == "GM-MAGIC-13").items()
    assert "GM-MAGIC-13" not in rows["fixed_readings"]
    assert "is the book's rule" in err(capsys, "calendar", "--set",
                                       "GM-MAGIC-13.death_curse_years=2")
    assert "must be from 1 to 1000" in err(capsys, "calendar", "--set",
                                           "GM-MAGIC-13.year_days=0")


def test_the_sheets_of_caster_and_target_show_the_curse(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "呪殺呪" not in out(capsys, "sheet", "pc1")
    out(capsys, "calendar", "curse", "Mio", PC1)
    out(capsys, "calendar", "pass", "6")
    line = (f"呪殺呪/Death Curse on {PC1} by Mio (cast on day 1): {PC1} dies at sunset on day "
            f"367 (360 days left) unless Mio lifts it (GM-MAGIC-13)")
    assert out(capsys, "sheet", "pc1").rstrip().endswith(line)
    assert run(capsys, "sheet", "pc1")["death_curses"] == [  # the shape calendar gives
        {"target": PC1, "caster": "Mio", "cast_on": 1, "dies_on": 367, "days_left": 360}]
    assert "呪殺呪" not in out(capsys, "sheet", "pc2")


def test_the_calendar_file_is_written_whole_and_read_back(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Written as the sheets are (write_toml: atomically, checked to load back); a file
    without death_curses (or without day) loads; a field it does not know is refused."""
    out(capsys, "calendar", "curse", "Mio", "Ben")
    path = calendar_file(user_dirs)
    assert 'death_curses = [{target = "Ben", caster = "Mio", cast_on = 1, dies_on = 367}]' in \
        path.read_text(encoding="utf-8")
    assert [p.name for p in path.parent.iterdir()] == ["calendar.toml"]  # no temporary left
    path.write_text("day = 40\n", encoding="utf-8")
    assert run(capsys, "calendar")["day"] == 40
    assert calendar_from_mapping({}, "x") == Calendar()
    path.write_text("day = 4\nnight = 2\n", encoding="utf-8")
    assert "unknown field 'night'" in err(capsys, "calendar")
    with pytest.raises(DataError, match="dies_on 3 is before cast_on 4"):
        calendar_from_mapping({"death_curses": [{"target": "B", "caster": "M", "cast_on": 4,
                                                 "dies_on": 3}]}, "x")


def test_no_day_passes_backwards() -> None:
    calendar, _ = cast_death_curse(RULES, Calendar(), "Mio", "Ben")
    with pytest.raises(IllegalAction, match="from 1 to 100000 days pass at once, found 0"):
        pass_days(calendar, 0)


@pytest.mark.parametrize("typed", ["orc", "オーク", "オーク1", "ORC2", "ｏｒｃ", "Orc Warrior"])
def test_a_curse_on_a_monster_is_refused(
        typed: str, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """calendar73 NIT 8: `calendar curse pc1 orc` was kept on a stranger named orc, whom no
    fight's オーク showed; `calendar curse pc1 オーク` marked every later fight's orc with its
    days, and its death reached none (reviewg71 DEFECT 1). A monster by its key, its
    Japanese or English, or numbered as a fight numbers it, is refused: nothing kept."""
    said = err(capsys, "calendar", "curse", "pc1", typed)
    monster = RULES.monster("orc_warrior" if "Warrior" in typed else "orc")
    assert (f"GM-MAGIC-13: {typed!r} is the monster {monster.ja}/{monster.en} "
            f"({monster.key}), and the calendar keeps a curse on a person only: each fight's "
            f"{monster.ja} is a new one") in said
    assert "`genso calendar curse CASTER Grok`" in said
    assert not calendar_file(user_dirs).exists()


def test_a_sheet_by_a_monsters_name_and_a_monster_caster_are_taken(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A saved character named as a monster is a person (its sheet shows the curse), and a
    monster may cast one, the victim being a person."""
    out(capsys, "new", "Orc", "--body", "6", "--perception", "5", "--magic", "4", "--skill",
        "combat", "--seed", "1")
    assert "Orc dies at sunset on day 367" in out(capsys, "calendar", "curse", "Mio", "Orc")
    assert "呪殺呪" in out(capsys, "sheet", "Orc")
    assert f"{PC1} dies at sunset on day 367" in out(capsys, "calendar", "curse", "orc", "pc1")
