"""fix61a (review61a D1-D3, R1-R4, N1, N2, N4): `genso calendar` holds calendar.toml from its
read to its write; takes --json and --set before its verb; finds names as genso fights do
(full and half width alike); keeps a Death Curse of each caster on one target, lifted or
dispelled (GM-MAGIC-4) by naming the caster when there are several; tells a target dead
whose sunset a file left behind; a calendar that cannot be read leaves `genso sheet`
working, with a note; a pass of no days, of days backwards or of an absurd count is refused.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
import unicodedata
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_calendar_helpers import calendar_file, err, written_calendar
from tests.app.genso_cli_out_helpers import out
from tests.companion_process import ROOT

PC1 = "駆け出し冒険者１"

#: A second companion's change of the calendar in the middle: it holds the file (as
#: ``changing`` does), says "held", writes day 10 after a second and lets go.
OTHER_CHANGE = """
import sys, time
from pathlib import Path
from companion.file_locks import changing
path = Path(sys.argv[1])
with changing(path, "companion genso calendar, changing the calendar"):
    print("held", flush=True)
    time.sleep(1.0)
    path.write_text("day = 10\\n", encoding="utf-8")
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    """``genso *argv``'s JSON; ``argv`` says where its --json stands."""
    data: dict[str, object] = json.loads(out(capsys, *argv))
    return data


def cell_len(text: str) -> int:
    """The columns ``text`` takes on a terminal: two for a wide character."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def test_a_pass_waits_for_another_change_and_loses_none_of_its_days(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """D1: a change read before another's write was written over it (12 passes at once
    ended on day 8); a change now holds the file from its read to its write."""
    path = written_calendar(user_dirs, "day = 1\n")
    other = subprocess.Popen([sys.executable, "-c", OTHER_CHANGE, str(path)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        said = out(capsys, "calendar", "pass", "1")
    finally:
        assert other.wait(timeout=30) == 0
    assert "1 day passes: day 10 → 11" in said
    assert "day = 11" in path.read_text(encoding="utf-8")


def test_json_and_set_before_the_verb_are_taken(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """D2: `calendar --json show` printed text and `calendar --set … curse` a year of 365:
    the verb's defaults were written over them."""
    assert run(capsys, "calendar", "--json", "show")["day"] == 1
    cursed = run(capsys, "calendar", "--json", "--set", "GM-MAGIC-13.year_days=360",
                 "curse", "Mio", "Ben")
    assert cursed["death_curses"] == [{"target": "Ben", "caster": "Mio", "cast_on": 1,
                                       "dies_on": 362, "days_left": 361}]
    assert run(capsys, "calendar", "show", "--json")["day"] == 1  # after it, as before
    # A --set on each side: both are read (the one after the verb no longer hides the other).
    assert "must be from 1 to 1000, found 0" in err(
        capsys, "calendar", "--set", "GM-MAGIC-13.year_days=0", "curse", "--set",
        "GM-CHECK-1.difficulty=easy", "Ann", "Ben")
    assert "must be from 1 to 1000, found 0" in err(
        capsys, "calendar", "--set", "GM-CHECK-1.difficulty=easy", "curse", "--set",
        "GM-MAGIC-13.year_days=0", "Ann", "Ben")


def test_names_are_found_as_fights_find_them(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """D3: full-width and half-width letters and digits alike (NFKC), as `genso fight`
    takes 駆け出し冒険者1 for the preset's 駆け出し冒険者１; the name kept as typed."""
    out(capsys, "calendar", "curse", "Mio", "駆け出し冒険者1")
    assert 'target = "駆け出し冒険者1"' in calendar_file(user_dirs).read_text("utf-8")  # as typed
    assert "呪殺呪/Death Curse on 駆け出し冒険者1 by Mio" in out(capsys, "sheet", "pc1")
    out(capsys, "calendar", "curse", "Mio", "Ben")
    assert "already carries Mio's 呪殺呪/Death Curse" in err(capsys, "calendar", "curse", "Ｍｉｏ",
                                                      "Ｂｅｎ")
    said = out(capsys, "calendar", "lift", PC1)
    assert "Mio lifts the 呪殺呪/Death Curse on 駆け出し冒険者1" in said


def test_a_target_carries_a_curse_of_each_caster_and_lift_names_which(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R1: a second caster's curse was refused; GM-MAGIC-4's "oldest first" has a target
    carry several spells. Lifting one of several names its caster."""
    out(capsys, "calendar", "curse", "Mio", "Ben")
    out(capsys, "calendar", "pass", "2")
    out(capsys, "calendar", "curse", "Ann", "Ben")
    assert [c["caster"] for c in run(capsys, "calendar", "--json")["death_curses"]] == [
        "Mio", "Ann"]
    refused = err(capsys, "calendar", "lift", "Ben")
    assert ("Ben carries 呪殺呪/Death Curse of 2 casters, oldest first: Mio (cast on day 1), "
            "Ann (cast on day 3); name the caster who lifts it with --caster") in refused
    assert "carries no 呪殺呪/Death Curse of Kai's" in err(capsys, "calendar", "lift", "Ben",
                                                          "--caster", "Kai")
    assert "Ann lifts the 呪殺呪/Death Curse on Ben" in out(capsys, "calendar", "lift", "Ben",
                                                           "--caster", "Ann")
    assert "Mio lifts the 呪殺呪/Death Curse on Ben" in out(capsys, "calendar", "lift", "Ben")
    assert run(capsys, "calendar", "--json")["death_curses"] == []


def test_a_dispel_is_told_as_one_not_as_its_caster_lifting_it(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R2: the curse's duration is 特殊, not permanent, so Dispel (呪解呪, GM-MAGIC-4, no
    roll) cancels it; `lift` always said its caster lifted it."""
    out(capsys, "calendar", "curse", "Mio", "Ben")
    out(capsys, "calendar", "curse", "Ann", "Ben")
    refused = err(capsys, "calendar", "dispel", "Ben")
    assert ("name the caster whose curse the Dispel cancelled (GM-MAGIC-4: the oldest whose "
            "caster's Magic is not above the dispeller's) with --caster") in refused
    said = run(capsys, "calendar", "dispel", "Ben", "--caster", "Mio", "--json")["said"]
    assert said == ["GM-MAGIC-4 Mio's 呪殺呪/Death Curse on Ben (cast on day 1) is dispelled by "
                    "呪解呪/Dispel (対象に付与された呪文を一つ無効化する): its duration is 特殊, "
                    "not permanent"]
    assert "lifts" not in said[0]


@pytest.mark.parametrize(("text", "wrong"), [
    ("day =\n", "not TOML"),
    ('day = 2\ndeath_curses = [{target = "Ben", caster = "Mio", cast_on = "x", dies_on = 3}]\n',
     "death_curses 1: cast_on must be a day"),
    ('day = "two"\n', "day must be a day"),
])
def test_a_calendar_that_cannot_be_read_leaves_the_sheets_and_is_not_written_over(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], text: str, wrong: str) -> None:
    """R3: `genso sheet` stopped at a calendar it could not read (exit 2, no sheet); it is
    shown now, with one note naming the file. The calendar's own commands refuse, naming
    the file and what is wrong, and leave it as it was."""
    path = written_calendar(user_dirs, text)
    assert main(["genso", "sheet", "pc1"]) == 0
    shown, note = capsys.readouterr()
    assert PC1 in shown
    assert note.count("\n") == 1 and f"companion: note: {path}" in note and wrong in note
    assert note.rstrip().endswith("(Death Curses not shown)")
    assert run(capsys, "sheet", "pc1", "--json")["death_curses"] == []
    for verb in (("show",), ("pass", "1"), ("curse", "Mio", "Ann"), ("lift", "Ben")):
        refused = err(capsys, "calendar", *verb)
        assert f"companion: error: {path}" in refused and wrong in refused
    assert path.read_text(encoding="utf-8") == text


def test_a_curse_whose_sunset_a_file_left_behind_killed_its_target(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R4: a file on day 3 with a curse to kill on day 2 said "(-1 days left)", and let it
    be lifted after the death. Now the target died, as `pass` says; a curse of another
    caster on the dead ends with it."""
    path = written_calendar(
        user_dirs, 'day = 3\ndeath_curses = [{target = "Ben", caster = "Mio", cast_on = 1, '
        'dies_on = 2}, {target = "Ben", caster = "Ann", cast_on = 1, dies_on = 9}, '
        '{target = "Kai", caster = "Ann", cast_on = 1, dies_on = 9}]\n')
    shown = out(capsys, "calendar")
    assert ("GM-MAGIC-13 Ben died at sunset on day 2 of Mio's 呪殺呪/Death Curse (cast on "
            "day 1)") in shown
    assert "Ann's 呪殺呪/Death Curse on Ben (cast on day 1) ends with Ben's death" in shown
    assert "Kai dies at sunset on day 9 (6 days left)" in shown
    assert shown.count("days left") == 1 and "-1 day" not in shown
    refused = err(capsys, "calendar", "lift", "Ben", "--caster", "Ann")
    assert ("Ben died at sunset on day 2 of Mio's 呪殺呪/Death Curse: a curse is lifted "
            "only before its sunset") in refused
    assert "a curse is dispelled only before" in err(capsys, "calendar", "dispel", "Ben")
    assert "no curse is cast on the dead" in err(capsys, "calendar", "curse", "Kai", "Ben")
    # A change writes the calendar settled: the dead are told once and leave its curses,
    # kept as dead (genso70 DEFECT 1: they were forgotten, and could be cursed again).
    said = run(capsys, "calendar", "lift", "Kai", "--json")
    assert [c["target"] for c in said["died"]] == ["Ben"] and said["death_curses"] == []
    kept = tomllib.loads(path.read_text(encoding="utf-8"))
    assert kept["death_curses"] == [] and [c["target"] for c in kept["died"]] == ["Ben"]
    assert "no curse is cast on the dead" in err(capsys, "calendar", "curse", "Kai", "Ben")


@pytest.mark.parametrize("days", ["0", "-3", "100001", "99999999999999999999999999"])
def test_a_pass_of_no_days_of_days_backwards_or_of_an_absurd_count_is_refused(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], days: str) -> None:
    """N1: 99999999999999999999999999 was taken, and the file then held a day TOML's
    64-bit integers cannot."""
    assert (f"from 1 to 100000 days pass at once, found {days}"
            in err(capsys, "calendar", "pass", days))
    assert not calendar_file(user_dirs).exists()
    assert "days pass at once" not in out(capsys, "calendar", "pass", "１００")  # full width
    assert "must be from 1 to 1000, found 1001" in err(capsys, "calendar", "--set",
                                                       "GM-MAGIC-13.year_days=1001")


def test_the_calendars_help_fits_80_columns(capsys: pytest.CaptureFixture[str]) -> None:
    """N4: its description ran to 97 columns and `lift`'s line to 85: textwrap counts
    characters, and a Japanese one takes two columns."""
    for verb in ((), ("show",), ("pass",), ("curse",), ("lift",), ("dispel",)):
        with pytest.raises(SystemExit):
            main(["genso", "calendar", *verb, "--help"])
        page = capsys.readouterr().out
        assert page.startswith(f"usage: companion genso calendar {' '.join(verb)}".strip())
        assert max(cell_len(line) for line in page.splitlines()) <= 80, page
