"""幻想迷宮冒険譚 sheets: a stat block's printed striking power and protection (printed_power,
printed_protection) are NPC numbers, refused on a PC sheet like max_hp/max_mp; a PC's follow
its weapons, armour and shield (GM-EQUIP-1/2/3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import tomlkit

from companion.app.cli import main
from companion.app.commands.genso import sheet_document
from companion.errors import DataError
from companion.systems.genso.character.core import Character, Kind, derive
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import load_sheet, preset, sheet_mapping

RULES = load_rules()


def sheet_text(character: Character, *extra: str, kind: str | None = None) -> str:
    """The sheet as `companion genso` writes it, with lines added (and kind changed)."""
    rows = tomlkit.dumps(sheet_document(character)).splitlines()
    if kind is not None:
        rows = [f'kind = "{kind}"' if r.startswith("kind = ") else r for r in rows]
    return "\n".join([*rows, *extra])


PC_WITH_SHIELD = "shield = \"shield\""


@pytest.mark.parametrize(("line", "field", "rules"), [
    ('printed_power = { club = "1D6-1" }', "printed_power", "GM-EQUIP-1, GM-EQUIP-3"),
    ('printed_power = { club = "3D6", knife = "2D6" }', "printed_power",
     "GM-EQUIP-1, GM-EQUIP-3"),
    ("printed_protection = { shield = 4 }", "printed_protection", "GM-EQUIP-2, GM-EQUIP-3"),
])
def test_a_pc_sheet_with_printed_numbers_is_refused(line: str, field: str, rules: str) -> None:
    """A PC's printed_power/printed_protection used to override its items in a fight, with no
    word; now the sheet is refused, naming the field and the rule its numbers follow."""
    pc = preset(RULES, "pc1")
    extra = [PC_WITH_SHIELD] if "shield" in line else []
    with pytest.raises(DataError) as caught:
        load_sheet(RULES, sheet_text(pc, *extra, line), "aki.toml")
    message = str(caught.value)
    assert message.startswith(f"aki.toml: {field} is a printed NPC stat-block number")
    assert "for NPCs only" in message and f"({rules})" in message


def test_the_same_lines_on_an_npc_are_kept() -> None:
    """The NPC presets' printed numbers still win over the item tables (GM-EQUIP-1/2 Default:
    sample NPCs keep their printed numbers)."""
    npc = preset(RULES, "villager_m")
    text = sheet_text(npc, PC_WITH_SHIELD, "printed_protection = { shield = 4 }")
    loaded = load_sheet(RULES, text, "npc.toml")
    derived = derive(RULES, loaded)
    assert derived.weapons[0].power == "1D6-1"
    assert derived.protection.total == 4


@pytest.mark.parametrize("line", ["printed_power = {}", "printed_protection = {}"])
def test_an_empty_table_on_a_pc_is_taken(line: str) -> None:
    """An empty table changes nothing, so it is taken; the sheet written back leaves it out."""
    pc = preset(RULES, "pc1")
    loaded = load_sheet(RULES, sheet_text(pc, line), "aki.toml")
    assert loaded == pc
    assert "printed_power" not in sheet_mapping(loaded)
    assert "printed_protection" not in sheet_mapping(loaded)


def test_a_bad_table_on_a_pc_still_names_its_shape_first() -> None:
    """As with max_hp, the value is checked before the kind: a malformed table gets the error
    about its shape."""
    pc = preset(RULES, "pc1")
    with pytest.raises(DataError, match="printed_power must map the character's weapons"):
        load_sheet(RULES, sheet_text(pc, "printed_power = { club = 3 }"), "aki.toml")


def test_an_npc_turned_pc_is_refused() -> None:
    """Copying an NPC stat block and changing only its kind does not smuggle the numbers in."""
    npc = preset(RULES, "forest_fairy")
    rows = [r for r in sheet_text(npc, kind="pc").splitlines()
            if not r.startswith(("max_hp", "max_mp", "birth", "want", "dislike"))]
    with pytest.raises(DataError, match="printed_power is a printed NPC stat-block number"):
        load_sheet(RULES, "\n".join(rows), "fairy.toml")


@pytest.mark.parametrize("key", sorted(RULES.presets))
def test_every_packaged_preset_still_loads(key: str) -> None:
    """Only NPC presets carry printed numbers, and every preset loads and reloads."""
    character = preset(RULES, key)
    if character.printed_power or character.printed_protection:
        assert character.kind is Kind.NPC and character.max_hp is not None
    assert load_sheet(RULES, sheet_text(character)) == character


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["genso", *argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_no_command_writes_printed_numbers_onto_a_pc(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Buying and wearing a shield, growing, a fight beside NPCs with printed numbers and
    `fight apply` leave a PC sheet without printed_*, and it still loads."""
    sheet = tmp_path / "pc2.toml"
    run(capsys, "sheet", "pc2", "--save-as", str(sheet))
    run(capsys, "buy", str(sheet), "shield")
    run(capsys, "gear", str(sheet), "shield")
    run(capsys, "grow", str(sheet), "award", "--scenarios", "1")
    pc = "駆け出し冒険者２"
    run(capsys, "fight", "new", "--party", str(sheet), "villager_m", "knight_m",
        "--monsters", "orc")
    run(capsys, "fight", "attack", pc, "オーク", "--seed", "1")
    run(capsys, "fight", "end")
    run(capsys, "fight", "apply")
    text = sheet.read_text(encoding="utf-8")
    assert "printed_power" not in text and "printed_protection" not in text
    shown = run(capsys, "sheet", str(sheet))
    assert shown["derived"]["protection"]["total"] == 2  # the table's shield, not 4
