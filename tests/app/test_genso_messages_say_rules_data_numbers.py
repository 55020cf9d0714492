"""genso62: messages and help that named a number of the seed's, copied into the code, say
the number rules data holds (GM-CORE-3's ×2, GM-CORE-4's 2 per Search level, GM-ITEM-3's
5 MP a Ring of Storage, the mana stone's price and MP, GM-CHAR-4's ages, GM-CHAR-5's 6, 5
and 4, the birth table's 1D6): the packaged data reads as before, and a changed number
changes the words (the code had them fixed)."""

from __future__ import annotations

from dataclasses import replace
from importlib.resources import files
from pathlib import Path

import pytest
import tomlkit

from companion.app.cli import main
from companion.app.commands.genso import parser, sheet_document
from companion.dice.notation import parse
from companion.errors import DataError
from companion.systems.genso.character.core import derive
from companion.systems.genso.rules import GensoRules, load_rules
from companion.systems.genso.sheet import load_sheet, preset

RULES = load_rules()


def rules_with(file: str, *changes: tuple[str, str]) -> GensoRules:
    text = files("companion.systems.genso").joinpath("data", file).read_text("utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    return load_rules({file: text})


def refusal(rules: GensoRules, line: str) -> str:
    text = tomlkit.dumps(sheet_document(preset(rules, "pc1")))
    with pytest.raises(DataError) as caught:
        load_sheet(rules, f"{text}\n{line}\n", "my.toml")
    return str(caught.value)


def test_gm_core_3_a_pcs_max_hp_refusal_says_the_datas_multipliers() -> None:
    assert "HP = Body × 2, MP = Magic × 2 (GM-CORE-3)" in refusal(RULES, "max_hp = 20")
    three = rules_with("rules.toml", ("hp_per_body = 2", "hp_per_body = 3"),
                       ("mp_per_magic = 2", "mp_per_magic = 4"))
    assert "HP = Body × 3, MP = Magic × 4 (GM-CORE-3)" in refusal(three, "max_hp = 20")


def test_gm_item_3_the_storage_refusal_says_the_datas_mp_per_ring() -> None:
    line = 'storage_mp = 9\nrings = { left = ["ring_storage"] }'
    assert "hold: 5 (5 MP for each ring_storage" in refusal(RULES, line)
    six = rules_with("rules.toml", ("storage = 5", "storage = 6"))
    assert "hold: 6 (6 MP for each ring_storage" in refusal(six, line)


def test_gm_core_4_the_printed_bonus_warning_says_the_datas_search_bonus() -> None:
    scout = replace(preset(RULES, "pc1"), search=1, trap_bonus=5)
    assert "differs from 2 × Search 1 = +2" in " ".join(derive(RULES, scout).warnings)
    three = rules_with("rules.toml", ("search_per_level = 2", "search_per_level = 3"))
    assert "differs from 3 × Search 1 = +3" in " ".join(derive(three, scout).warnings)


def test_gm_item_1_the_stone_price_refusal_says_the_datas_price(
        user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["genso", "new", "Aki", "--body", "6", "--perception", "5", "--magic", "4",
                 "--skill", "magic"]) == 0
    capsys.readouterr()
    assert main(["genso", "buy", "Aki", "mana_stone", "--price", "3"]) == 2
    assert ("the seed's own, 2 silver per MP (the shop's 4 MP stone 大銀貨2枚 (2 large "
            "silver))") in capsys.readouterr().err
    dearer = rules_with("items.toml", ("sale_per_mp = { silver = 2 }",
                                       "sale_per_mp = { silver = 3 }"),
                        ("shop_mp = 4 ", "shop_mp = 3 "))
    monkeypatch.setattr("companion.app.commands.genso.parser.load_user_rules",
                        lambda overrides: dearer)
    assert main(["genso", "buy", "Aki", "mana_stone", "--price", "3"]) == 2
    assert "3 silver per MP (the shop's 3 MP stone" in capsys.readouterr().err


def help_of(capsys: pytest.CaptureFixture[str], sub: str) -> str:
    with pytest.raises(SystemExit):
        main(["genso", sub, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_the_new_and_buy_help_say_the_datas_numbers(
        user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    shown = help_of(capsys, "new")
    for words in ("rolled on 1D6", "take 6, 5 and 4 one each", "体力: 6, 5 or 4",
                  "--age AGE 15-17 (default 15)"):
        assert words in shown
    assert "(1-5; default the shop's 4)" in help_of(capsys, "buy")
    other = rules_with("rules.toml", ("age_min = 15", "age_min = 14"),
                       ("ability_values = [6, 5, 4]", "ability_values = [7, 5, 3]"))
    # A table of another die, as the help reads it (a 1D3 table would need three rows).
    other = replace(other, tables={**other.tables,
                                   "birth": replace(other.tables["birth"], roll=parse("1D3"))})
    monkeypatch.setattr(parser, "load_rules", lambda: other)
    shown = help_of(capsys, "new")
    for words in ("rolled on 1D3", "take 7, 5 and 3 one each", "体力: 7, 5 or 3",
                  "--age AGE 14-17 (default 14)"):
        assert words in shown


def test_the_difficulty_refusal_says_the_datas_undead_and_mark_difficulties(
        user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`genso check undead --difficulty 8` is refused: GM-CHECK-4 and GM-MAGIC-6 fix their
    own (「難しい」 12), as rules data holds them; the refusal said a 12 of its own."""
    assert main(["genso", "check", "undead", "--sheet", "pc1", "--difficulty", "8"]) == 2
    # both 12: said once (review61e N5: "undead sensing is 12 and Mark 12")
    assert "undead sensing and Mark are both 12 by the seed" in capsys.readouterr().err
    other = rules_with("rules.toml", ("difficulty = 12               # 不死族感知",
                                      "difficulty = 11               # 不死族感知"))
    monkeypatch.setattr("companion.app.commands.genso.parser.load_user_rules",
                        lambda overrides: other)
    assert main(["genso", "check", "undead", "--sheet", "pc1", "--difficulty", "8"]) == 2
    assert "undead sensing is 11 and Mark 12 by the seed" in capsys.readouterr().err
