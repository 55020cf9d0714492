"""review61e N4: `genso calendar` and a caster dead of a Death Curse (呪殺呪, GM-MAGIC-13):
the dead cast and lift no curse (a Dispel, another's, still reaches it); the refusals name
the spell as spells.toml does (呪殺呪/Death Curse), as the command's lines do; ``--json``
gives a dead target's curses no negative days left, but null and the day it died."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_calendar_helpers import written_calendar

DEAD_CASTER = ('day = 400\ndeath_curses = [{target = "Ben", caster = "Mio", cast_on = 1, '
               'dies_on = 367}, {target = "Cat", caster = "Ben", cast_on = 300, '
               'dies_on = 666}]\n')


def test_a_caster_dead_of_a_curse_lifts_and_casts_none(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ben died at sunset on day 367; `lift Cat` said "Ben lifts the 呪殺呪/Death Curse on
    Cat" right after saying so."""
    written_calendar(user_dirs, DEAD_CASTER)
    assert main(["genso", "calendar", "lift", "Cat"]) == 2
    assert ("GM-MAGIC-13: Ben died at sunset on day 367 of Mio's 呪殺呪/Death Curse: the dead "
            "lift no curse") in capsys.readouterr().err
    assert main(["genso", "calendar", "curse", "Ben", "Dan"]) == 2
    assert "the dead cast no curse" in capsys.readouterr().err
    assert main(["genso", "calendar", "dispel", "Cat"]) == 0  # another's Dispel reaches it
    assert "Ben's 呪殺呪/Death Curse on Cat (cast on day 300) is dispelled" in \
        capsys.readouterr().out


def test_the_dead_have_no_days_left_in_json(user_dirs: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """days_left was −33 for the dead target, and 166 for a curse ended with it."""
    written_calendar(user_dirs, 'day = 400\ndeath_curses = [{target = "Ben", caster = "Mio", '
                                'cast_on = 1, dies_on = 367}, {target = "Ben", caster = "Ann", '
                                'cast_on = 200, dies_on = 566}]\n')
    assert main(["genso", "calendar", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["died"] == [{"target": "Ben", "caster": "Mio", "cast_on": 1, "dies_on": 367,
                             "days_left": None, "died_on": 367}]
    assert data["ended"] == [{"target": "Ben", "caster": "Ann", "cast_on": 200, "dies_on": 566,
                              "days_left": None, "died_on": 367}]
    assert main(["genso", "calendar", "curse", "Mio", "Kai", "--json"]) == 0
    live = json.loads(capsys.readouterr().out)["death_curses"]
    assert live == [{"target": "Kai", "caster": "Mio", "cast_on": 400, "dies_on": 766,
                     "days_left": 366}]
