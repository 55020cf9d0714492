"""a77gensotown RISK 5: the calendar's day (`calendar pass`) and a fight's sunrise (`fight
sunrise`, GM-CORE-2) are two clocks, kept apart on purpose (a GM who ran both would pass a
day twice); each now says the other stays. A day passed on the calendar names the 1-day
spells the fight going on still holds, with the command that ends them; the fight's sunrise
names the calendar's day, with the command that moves it."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_command
from tests.app.genso_town_helpers import MAGE, made


def test_each_clock_says_the_other_stays(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made(user_dirs, capsys, "Mio", MAGE)
    for argv in (["grow", "Mio", "award", "--scenarios", "4"],
                 ["grow", "Mio", "spell", "--spell", "protection"],
                 ["fight", "new", "--party", "Mio", "--monsters", "orc"],
                 ["fight", "cast", "Mio", "protection", "Mio", "--seed", "1"]):
        assert main(["genso", *argv]) == 0, argv
    capsys.readouterr()
    fight = user_dirs / "data" / "genso" / "fight.json"
    assert main(["genso", "calendar", "pass", "1"]) == 0
    err = capsys.readouterr().err
    assert (f"note: the fight at {fight} still holds 防護呪/Protection on Mio: the calendar "
            f"and the fight keep their own days, and `{companion_command()} genso fight "
            "sunrise` ends them (GM-CORE-2)") in err
    assert main(["genso", "fight", "sunrise"]) == 0
    assert (f"note: the calendar stays on day 2 (GM-MAGIC-13 curses count from it): "
            f"`{companion_command()} genso calendar pass 1` when the day has passed"
            in capsys.readouterr().err)
    assert main(["genso", "calendar", "pass", "1"]) == 0  # nothing held now: no note
    assert "still holds" not in capsys.readouterr().err
