"""a77gensotown RISK 6: days of rest (GM-HEAL-1) and a journey's days (GM-MOVE-2) do not move
the calendar's day, which a Death Curse (GM-MAGIC-13) counts from: one character's rest is
not the party's days. While a curse is on the calendar each now says so, with the `calendar
pass N` of its days; 100 days' rest left a curse's countdown standing without a word."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_command
from tests.app.genso_town_helpers import made


def stays(days: int, when: str) -> str:
    return (f"note: the calendar stays on day 1 (GM-MAGIC-13 curses count from it): "
            f"`{companion_command()} genso calendar pass {days}` {when}")


def test_rest_and_travel_say_the_calendar_stays_while_a_curse_counts(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made(user_dirs, capsys, "Aki")
    assert main(["genso", "rest", "Aki", "3"]) == 0  # no curse: nothing to say
    assert "calendar" not in capsys.readouterr().err
    assert main(["genso", "calendar", "curse", "Mio", "Aki"]) == 0
    capsys.readouterr()
    assert main(["genso", "rest", "Aki", "100"]) == 0
    assert stays(100, "when these days pass for the party") in capsys.readouterr().err
    assert main(["genso", "rest", "Aki", "--sleep"]) == 0  # a night's sleep: no days
    assert "calendar" not in capsys.readouterr().err
    assert main(["genso", "travel", "40000"]) == 0
    assert stays(2, "when the party has made the journey") in capsys.readouterr().err
    assert main(["genso", "travel", "100"]) == 0  # a few turns: no day
    assert "calendar" not in capsys.readouterr().err
    assert main(["genso", "calendar"]) == 0
    assert "Aki dies at sunset on day 367 (366 days left)" in capsys.readouterr().out
