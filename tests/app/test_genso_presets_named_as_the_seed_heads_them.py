"""a77data NIT 5 (GM-DATA-1): the sample NPCs are named as seed 002 heads their blocks,
「辺境の一般的な開拓民」 (l.348/825), 「一般的な森妖精の冒険者」 (l.389), 「一般的な闇妖精の冒険者」
(l.412), as 一般的な冒険者 and 一般的な魔術師 were; they dropped 一般的な. The longer names go
on in lines below in `genso fight show`, whose rows keep to 80 columns, and a fight saved
under a former name still knows its fighter by the preset's key and English."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.paths import data_dir
from companion.dice.notation import display_width
from tests.app.genso_cli_out_helpers import out

FAIRY = "一般的な森妖精の冒険者"


def test_the_presets_carry_the_seeds_headings(capsys: pytest.CaptureFixture[str],
                                              user_dirs: Path) -> None:
    rows = {row["key"]: (row["name"], row["name_en"])
            for row in json.loads(out(capsys, "presets", "--json"))["presets"]}
    assert rows["settler_m"] == ("辺境の一般的な開拓民（男性）", "Typical frontier settler (male)")
    assert rows["settler_f"] == ("辺境の一般的な開拓民（女性）",
                                 "Typical frontier settler (female)")
    assert rows["forest_fairy"] == (FAIRY, "Typical forest fairy (elf) adventurer")
    assert rows["dark_fairy"] == ("一般的な闇妖精の冒険者",
                                  "Typical dark fairy (dark elf) adventurer")
    assert rows["mountain_fairy"][0] == "山妖精の冒険者"  # 「一般的なドワーフの冒険者」 apart


def test_fight_show_keeps_each_row_within_80_columns(capsys: pytest.CaptureFixture[str],
                                                    user_dirs: Path) -> None:
    out(capsys, "fight", "new", "--party", "forest_fairy", "pc1", "settler_f", "--npc",
        "dark_fairy", "--monsters", "undead_corpse")
    shown = out(capsys, "fight", "cast", "forest_fairy", "barrier", "pc1", "--seed", "1")
    rows = shown[shown.index("round 1"):].splitlines()
    assert [line for line in rows if display_width(line) > 80] == []
    fairy = rows.index(next(line for line in rows if f"party {FAIRY} " in line))
    assert rows[fairy].endswith("HP 12/12 MP 20/24  結界呪")
    # The English under the Japanese, in the name column, broken between its words
    assert [line.strip() for line in rows[fairy + 1:fairy + 3]] == [
        "Typical forest fairy (elf)", "adventurer"]
    assert rows[fairy + 1].startswith(" " * 8 + "Typical")


def test_a_fight_saved_under_a_former_name_knows_the_preset(
        capsys: pytest.CaptureFixture[str], user_dirs: Path) -> None:
    """A fight begun before the rename keeps its copy of the sheet, 森妖精の冒険者: it was
    "森妖精の冒険者 NPC", and forest_fairy named no one in it."""
    out(capsys, "fight", "new", "--party", "forest_fairy", "pc1", "--monsters", "orc")
    saved = data_dir() / "genso" / "fight.json"
    saved.write_text(saved.read_text(encoding="utf-8").replace(FAIRY, "森妖精の冒険者"),
                     encoding="utf-8")
    shown = out(capsys, "fight", "cast", "forest_fairy", "barrier", "pc1", "--seed", "1")
    assert "森妖精の冒険者 Typical forest fairy (elf) adventurer casts" in shown
    data = json.loads(out(capsys, "fight", "show", "--json"))
    assert data["combatants"][0]["name"] == "森妖精の冒険者"
