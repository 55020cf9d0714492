"""What the genso table's Log and Result panels say an attack came to: the defender's
outcome when the defender rolled (GM-COMBAT-3), not the defence roll's bare "success" after
"X → Y attack"."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.commands.genso.fights import load_fight
from companion.app.modes.genso_fight_files import default_fight_path
from companion.systems.genso.combat import Cast
from tests.app.fight_log_helpers import ORC, PC1, orc_attacks
from tests.app.genso_death_curse_helpers import PC2, RULES


def test_the_log_says_the_pc_defended_an_orcs_attack() -> None:
    """GM-COMBAT-3: pc1 defended (6+6+7 ≥ 13, no damage), and the Log read
    "オーク Orc → 駆け出し冒険者１ PC 攻撃 attack ＞ 成功/success": the defence roll's verdict,
    which reads as the orc's attack succeeding."""
    log = orc_attacks(6, 6).fight_view().log[-1]
    assert log.startswith(f"{ORC} Orc → {PC1} PC 攻撃 attack")
    assert log.endswith("＞ 防御成功/defended"), log


def test_the_log_of_an_orcs_attack_that_hit_gives_what_it_left() -> None:
    """GM-COMBAT-3, GM-COMBAT-8: a failed defence shows what the blow left, as before."""
    log = orc_attacks(1, 1, 3).fight_view().log[-1]
    assert log.endswith(f"＞ {PC1} PC: HP 9/12, MP 8/8"), log


def test_an_undo_at_the_table_says_what_it_took_back() -> None:
    """GM 進行 → Undo: the Result panel then showed the action before the one undone, with no
    word of the undo (the command line says "undone: …"); the status line now names what was
    taken back, until the next answer."""
    mode = orc_attacks(6, 6)
    for choice in ("gm", "undo"):
        mode.restore(choice)
    assert len(mode.fight.journal) == 1
    status = mode.view("x").status
    assert status == f"取り消し undone: {ORC} Orc → {PC1} PC 攻撃 attack", status
    mode.restore("gm")
    assert mode.view("x").status == ""


def test_a_cast_is_named_by_its_spell_not_its_key(user_dirs: object,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """calendar75 NIT 4: the table's Log, its Result title, Undo's question and `genso
    fight undo` said ``casts 呪文 healing`` (the spell's key), where the menus and the
    engine's lines say 治癒呪 Healing. The journal is as before: text only."""
    assert main(["genso", "fight", "new", "--party", "pc2", "pc1", "--monsters", "orc"]) == 0
    assert main(["genso", "fight", "cast", "pc2", "healing", "pc1", "--seed", "1"]) == 0
    fight = load_fight(RULES, default_fight_path())
    assert fight.journal[0].action == Cast(PC2, "healing", (PC1,))  # the key, as journalled
    said = f"{PC2} casts 呪文 治癒呪 Healing → {PC1}"
    assert fight.describe(fight.journal[0].action) == said
    capsys.readouterr()
    assert main(["genso", "fight", "undo"]) == 0
    assert f"undone: {PC2} PC 1 casts 呪文 治癒呪 Healing → {PC1} PC 2" in capsys.readouterr().out
