"""r77genso NIT on 8590f3dd: `genso fight sunrise` says the calendar's day stays (GM-CORE-2
beside GM-MAGIC-13's calendar) only when there is a calendar; in a campaign that never
used one it said "the calendar stays on day 1" after every sunrise."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_town_helpers import made


def test_the_sunrise_names_the_calendar_only_when_one_is_kept(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made(user_dirs, capsys, "Aki")
    assert main(["genso", "fight", "new", "--party", "Aki", "--monsters", "orc"]) == 0
    capsys.readouterr()
    calendar = user_dirs / "data" / "genso" / "calendar.toml"
    assert not calendar.exists()
    assert main(["genso", "fight", "sunrise"]) == 0
    assert "calendar" not in capsys.readouterr().err
    assert not calendar.exists()  # nor is one made
    assert main(["genso", "calendar", "pass", "1"]) == 0
    capsys.readouterr()
    assert calendar.exists()
    assert main(["genso", "fight", "sunrise"]) == 0
    assert "note: the calendar stays on day 2" in capsys.readouterr().err
