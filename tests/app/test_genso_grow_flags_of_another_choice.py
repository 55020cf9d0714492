"""a77gensotown DEFECT 3: `genso grow` refuses `--spell` unless the choice is spell and
`--scenarios` unless it is award, naming the flag, as `buy` refuses `--mp` and `--price`
given to the wrong item: `grow Aki hp --spell fire` said "GM-GROW-2 bought hp
(火炎呪/Fire)", spent the experience on HP (GM-GROW-2) and learned nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_town_helpers import made


def test_a_flag_of_another_choice_is_refused_and_nothing_is_spent(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    aki = made(user_dirs, capsys, "Aki")
    assert main(["genso", "grow", "Aki", "award", "--scenarios", "3"]) == 0
    assert "GM-GROW-1 +3 experience" in capsys.readouterr().out
    before = aki.read_text(encoding="utf-8")
    for argv, flag, owner in ((["hp", "--spell", "fire"], "--spell", "spell"),
                              (["hp", "--scenarios", "5"], "--scenarios", "award"),
                              (["award", "--spell", "fire"], "--spell", "spell")):
        assert main(["genso", "grow", "Aki", *argv]) == 2, argv
        err = capsys.readouterr().err
        assert f"{flag} belongs to `grow SHEET {owner}` only" in err, err
        assert aki.read_text(encoding="utf-8") == before
    assert main(["genso", "grow", "Aki", "hp"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "GM-GROW-2 bought hp"
    assert main(["genso", "grow", "Aki", "spell", "--spell", "fire"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "GM-GROW-2 bought spell (火炎呪/Fire)"
