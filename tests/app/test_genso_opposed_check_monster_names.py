"""fixgenso71, reviewg70 NIT H: the table's opposed check named a monster by its block
(オーク/Orc), not by its fighter (オーク2), and its roll's prompt read "オーク Orc/Orc's roll 出目
— 駆け出し冒険者１ PC 1 判定 check: … vs オーク2 Orc 2"; `genso check general --sheet orc` did
not say that a monster rolls only in an opposed check.
"""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.session.mode import RollAsk, Throw
from tests.app.genso_death_curse_helpers import PC1, pick, table

# --- NIT H --------------------------------------------------------------------------------


def test_the_tables_opposed_check_names_the_monster_by_its_fighter(user_dirs: object) -> None:
    mode = table(orcs=2)
    pick(mode, "gm", "check", "c:opposed", f"t:{PC1}", "t:オーク2", "a:body", "act:yes",
         "m:0", "m:0")
    prompts = []
    for faces in ((3, 4), (2, 2)):
        ask = mode.ask()
        assert isinstance(ask, RollAsk)
        prompts.append(ask.prompt)
        mode.answer(Throw(faces))
    assert prompts == [
        f"{PC1} PC 1's roll 出目 — 判定 check: 対抗判定 opposed check vs オーク2 Orc 2",
        f"オーク2 Orc 2's roll 出目 — 判定 check: 対抗判定 opposed check vs {PC1} PC 1"]
    checked = mode.last_check
    assert checked is not None
    lines = checked.check.text.splitlines()
    assert lines[0] == f"GM-CHECK-5 対抗判定/opposed check: {PC1} vs オーク2", lines
    assert lines[2].startswith("オーク2: 2D + 体力/Body 6") and "/Orc" not in checked.check.text


def test_a_monster_as_the_sheet_of_a_check_not_opposed_says_where_it_rolls(
        user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    for kind, monster in (("general", "orc"), ("trap", "オーク")):
        assert main(["genso", "check", kind, "--sheet", monster]) == 2
        err = capsys.readouterr().err
        assert f"no sheet {monster!r}" in err
        assert (f"a monster rolls only in an opposed check (`check opposed --sheet {monster} "
                f"--vs SHEET`, GM-CHECK-5), not in a {kind} check") in err
    assert main(["genso", "check", "general", "--sheet", "orx"]) == 2
    assert "rolls only" not in capsys.readouterr().err


@pytest.mark.parametrize("kind, article", [("undead", "an"), ("enemy", "an"), ("mark", "a")])
def test_the_refusal_of_a_monsters_check_takes_its_article(
        kind: str, article: str, user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    """a76gensofight NIT 5: "not in a undead check"."""
    assert main(["genso", "check", kind, "--sheet", "ghost"]) == 2
    assert f"GM-CHECK-5), not in {article} {kind} check" in capsys.readouterr().err
