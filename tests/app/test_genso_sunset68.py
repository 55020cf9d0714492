"""screen68 (fixg67b "The table's GM → Sunset", genso67 NIT 2, reviewg67 RISK 3): the
table's *GM → Sunset* names a 呪殺呪/Death Curse (GM-MAGIC-13) due at that sunset, as
`genso fight sunset` does, in the same words (one text, :func:`sunset_curse_text`); it
said none, only the row's ``呪殺呪 curse 今日 today``. None due, none named."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.table import choices

RULES = load_rules()
PC1 = "駆け出し冒険者１"


def calendar(capsys: pytest.CaptureFixture[str], *words: str) -> None:
    assert main(["genso", "calendar", *words]) == 0
    capsys.readouterr()


def gm_sunset(mode: GensoFightMode) -> list[tuple[str, str]]:
    """GM → Sunset at the table: the Result's steps then shown (rule ID, text)."""
    mode.restore("gm")
    assert "sunset" in choices(mode)
    mode.restore("sunset")
    return [(step.rule, step.text) for step in mode.fight_view().result]


def test_the_tables_gm_sunset_names_the_curse_due_as_fight_sunset_does(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")], [("orc", 1)])))
    calendar(capsys, "curse", "Mio", PC1)
    assert [rule for rule, _ in gm_sunset(mode)] == ["GM-MON-5"]  # not due yet: none
    calendar(capsys, "pass", "366")  # day 367: PC 1 dies at sunset today
    shown = gm_sunset(mode)
    assert shown[0] == ("GM-MON-5", "sunset 日没: nobody killed by a Wight or Wraith rises")
    curse = [text for rule, text in shown if rule == "GM-MAGIC-13"]
    assert len(curse) == 1, shown
    # `genso fight sunset`'s line, the same words (its names given their English here)
    assert main(["genso", "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc"]) == 0
    capsys.readouterr()
    assert main(["genso", "fight", "sunset"]) == 0
    said = capsys.readouterr().out
    cli = next(line for line in said.splitlines() if line.startswith("GM-MAGIC-13  "))
    assert cli.startswith(f"GM-MAGIC-13  {curse[0]}"), (cli, curse[0])
    assert curse[0].startswith(f"呪殺呪/Death Curse: {PC1} PC 1 dies at this sunset, day 367, "
                               "of Mio's curse (cast on day 1), unless Mio lifts it first (`")
    assert curse[0].endswith(" genso calendar pass 1` records it)")
