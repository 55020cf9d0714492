"""`companion genso fight show` marks a fighter who carries a Death Curse (呪殺呪,
GM-MAGIC-13) as the table's row does: the days to the sunset that kills it, today, then
died (reviewg71 RISK 3 remainder: only the dead were marked, so the countdown the table
showed was missing on the command line)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.commands.genso.fights import load_fight
from companion.app.modes.genso import GensoFightMode
from companion.app.modes.genso_fight_files import default_fight_path
from companion.systems.genso.rules import load_rules

RULES = load_rules()
PC1 = "駆け出し冒険者１"


def genso(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """`companion genso ARGV…`, which must succeed: its output."""
    code = main(["genso", *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def shown_row(capsys: pytest.CaptureFixture[str]) -> str:
    """`fight show`'s row of pc1."""
    rows = [line for line in genso(capsys, "fight", "show").splitlines()
            if f" {PC1} " in line and "HP " in line]
    assert len(rows) == 1, rows
    return rows[0]


def shown_json(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """`fight show --json`, read."""
    shown: dict[str, Any] = json.loads(genso(capsys, "fight", "show", "--json"))
    return shown


def the_tables_conditions() -> tuple[str, ...]:
    """pc1's conditions on the table's row, in the fight saved now."""
    mode = GensoFightMode(RULES, load_fight(RULES, default_fight_path()))
    return next(f.conditions for f in mode.fight_view().fighters if f.name.ja == PC1)


@pytest.mark.usefixtures("user_dirs")
def test_fight_show_counts_down_a_death_curse_as_the_table_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    for days, said in ((0, "呪殺呪 curse 366d"), (366, "呪殺呪 curse 今日 today"),
                       (1, "呪殺呪 curse 死亡 died")):
        if days:
            genso(capsys, "calendar", "pass", str(days))
        assert said in the_tables_conditions()
        assert shown_row(capsys).endswith(f"  {said}")
        # reviewg72 NIT 6: --json had calendar_dead alone, no countdown.
        assert [c["curse"] for c in shown_json(capsys)["combatants"]] == [said, None, None]
    other = [line for line in genso(capsys, "fight", "show").splitlines()
             if "駆け出し冒険者２" in line and "HP " in line]
    assert other and "呪殺呪" not in other[0]
