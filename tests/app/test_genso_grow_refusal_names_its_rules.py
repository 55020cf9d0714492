"""r77genso NIT on 22421c85: `genso grow`'s refusal of a flag given to another choice names
the rules, GM-GROW-1 (award, --scenarios) and GM-GROW-2 (the buys, spell's --spell), as
every genso refusal does; it named none."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_town_helpers import made


def test_the_refusal_names_the_rules_of_the_flag_and_the_choice(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made(user_dirs, capsys, "Aki")
    for argv, said in ((["hp", "--spell", "fire"],
                        "`grow SHEET spell` only (GM-GROW-2); hp (GM-GROW-2) takes none"),
                       (["hp", "--scenarios", "5"],
                        "`grow SHEET award` only (GM-GROW-1); hp (GM-GROW-2) takes none"),
                       (["award", "--spell", "fire"],
                        "`grow SHEET spell` only (GM-GROW-2); award (GM-GROW-1) takes none")):
        assert main(["genso", "grow", "Aki", *argv]) == 2, argv
        assert said in capsys.readouterr().err
