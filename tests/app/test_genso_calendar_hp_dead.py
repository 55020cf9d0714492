"""a77gensotown DEFECT 1: the calendar looks at a sheet's HP. One dead by HP (GM-COMBAT-8)
casts no Death Curse (呪殺呪, GM-MAGIC-13), takes none and lifts none, as `rest` and `grow`
refuse that sheet and as the calendar refuses its own dead; calendar.toml is left as it
was."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_calendar_helpers import calendar_file
from tests.app.genso_town_helpers import edited, made


def test_a_sheet_dead_by_hp_casts_takes_and_lifts_no_curse(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    aki = made(user_dirs, capsys, "Aki")
    made(user_dirs, capsys, "Bob")
    assert main(["genso", "calendar", "curse", "Aki", "Bob"]) == 0  # alive, it is cast
    capsys.readouterr()
    kept = calendar_file(user_dirs).read_bytes()
    edited(aki, "hp", "-6")
    dead = "GM-MAGIC-13: Aki is dead (死亡: HP -6, below -5, GM-COMBAT-8): "
    for argv, doing in ((["curse", "Aki", "Cat"], "the dead cast no curse"),
                        (["curse", "Bob", "Aki"], "no curse is cast on the dead"),
                        (["lift", "Bob"], "the dead lift no curse"),
                        (["lift", "Bob", "--caster", "Aki"], "the dead lift no curse")):
        assert main(["genso", "calendar", *argv]) == 2, argv
        assert dead + doing in capsys.readouterr().err
        assert calendar_file(user_dirs).read_bytes() == kept
    # Another's Dispel (GM-MAGIC-4) still reaches the dead caster's curse.
    assert main(["genso", "calendar", "dispel", "Bob"]) == 0
