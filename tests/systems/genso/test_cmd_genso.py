"""``companion genso``: sheets in the data folder, checks, Defaults, the shop and fights saved
after every action (a killed process loses nothing)."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import build_parser, main
from companion.app.commands.genso.parser import COMMANDS
from companion.errors import DataError
from companion.systems.genso.character.core import rates
from companion.systems.genso.lore import load_lore
from companion.systems.genso.money import Purse
from companion.systems.genso.rules import load_rules
from tests.app.table import killed_while_typing

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).parent / "data"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["genso", *argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_presets_are_listed_in_english_too(capsys: pytest.CaptureFixture[str]) -> None:
    """`genso presets` gave the seed's Japanese names alone (駆け出し冒険者１, 森妖精の冒険者): a
    player without Japanese could not tell which is which."""
    rows = run(capsys, "presets")["presets"]
    assert all(row["name_en"] and row["name_en"].isascii() for row in rows)
    assert main(["genso", "presets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["pc1", "pc", "駆け出し冒険者１", "Novice", "adventurer", "1"]
    assert "一般的な森妖精の冒険者        Typical forest fairy (elf) adventurer" in lines[-3]
    assert main(["genso", "sheet", "pc1"]) == 0  # a preset is still read as a sheet


def test_new_character_is_saved_and_reproducible(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-CHAR-1, GM-CHAR-2, GM-CHAR-3, GM-CHAR-7: `new` rolls the tables with the chosen dice
    and saves the sheet; the same seed gives the same rolls."""
    args = ("new", "Aki", "--body", "6", "--perception", "5", "--magic", "4",
            "--skill", "search", "--seed", "7")
    first = run(capsys, *args)
    path = Path(first["path"])
    assert path.parent == user_dirs / "data" / "genso" / "characters" and path.exists()
    assert first["seed"] == 7 and first["dice_source"] == "sim"
    assert [r["rule"] for r in first["rolls"]] == ["GM-CHAR-1", "GM-CHAR-2", "GM-CHAR-3"]
    assert first["derived"]["trap_bonus"]["total"] == 2
    assert first["sheet"]["money"] == {"gold": 4, "large_silver": 20, "silver": 0}
    assert main(["genso", *args]) == 2  # the sheet exists: not overwritten without --force
    assert "exists; pass --force" in capsys.readouterr().err
    again = run(capsys, *args, "--force")
    assert again["rolls"] == first["rolls"]


def test_bad_sheet_is_exit_2_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "bad.toml"
    sheet.write_text('name = "X"\nkind = "pc"\nbody = 6\nperception = 5\nmagic = "4"\n',
                     encoding="utf-8")
    assert main(["genso", "sheet", str(sheet)]) == 2
    assert f"{sheet}: magic must be a whole number" in capsys.readouterr().err


def test_sheet_of_a_preset_and_check(capsys: pytest.CaptureFixture[str]) -> None:
    """GM-DATA-1, GM-CHECK-3: a preset's derived values; a trap check from the command line."""
    data = run(capsys, "sheet", "knight_m")
    assert data["derived"]["attack"]["total"] == 11
    assert data["derived"]["protection"]["total"] == 12
    check = run(capsys, "check", "trap", "--sheet", "settler_m", "--difficulty",
                "normally_set", "--seed", "3")
    assert check["rule"] == "GM-CHECK-3" and check["chance"] == "33/36"
    assert check["result"]["text"].startswith("(2D6+9>12) ＞ ")
    assert main(["genso", "check", "mark", "--sheet", "pc1"]) == 2
    assert "does not know 呪印呪/Mark" in capsys.readouterr().err


def test_defaults_listed_overridden_and_seed_numbers_refused(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defaults are listed with "(default)", changed by the user's file or --set; a number
    the seed states (GM-COMBAT-6 full dodge +6) is refused."""
    rows = run(capsys, "defaults")["defaults"]
    assert {"rule": "GM-COMBAT-8", "key": "strict_4_6", "value": False,
            "default": True} in rows
    (user_dirs / "config").mkdir()
    (user_dirs / "config" / "genso.toml").write_text(
        '[defaults."GM-MAGIC-5"]\ndiameter_m = 5\n', encoding="utf-8")
    rows = run(capsys, "defaults", "--set", "GM-COMBAT-8.strict_4_6=true")["defaults"]
    assert {"rule": "GM-MAGIC-5", "key": "diameter_m", "value": 5, "default": False,
            "choices": [3, 5]} in rows
    assert {"rule": "GM-COMBAT-8", "key": "strict_4_6", "value": True,
            "default": False} in rows
    assert main(["genso", "defaults", "--set", "GM-COMBAT-6.full_dodge=10"]) == 2
    assert "GM-COMBAT-6.full_dodge is the book's rule" in capsys.readouterr().err


def test_shop_growth_and_rest_on_a_saved_sheet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-ECON-1, GM-EQUIP-2, GM-GROW-1, GM-GROW-2, GM-HEAL-1: changes are written back to the
    sheet; presets are not changed."""
    sheet = tmp_path / "pc2.toml"
    run(capsys, "sheet", "pc2", "--save-as", str(sheet))
    data = run(capsys, "buy", str(sheet), "shield")
    assert data["sheet"]["money"] == {"gold": 1, "large_silver": 0, "silver": 0}
    data = run(capsys, "gear", str(sheet), "shield")
    assert data["derived"]["protection"]["total"] == 2
    run(capsys, "grow", str(sheet), "award", "--scenarios", "2")
    data = run(capsys, "grow", str(sheet), "spell", "--spell", "exorcism")
    assert data["sheet"]["spells"] == ["healing", "exorcism"] and data["sheet"]["exp"] == 0
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(text.replace("hp = 10", "hp = 4"), encoding="utf-8")
    data = run(capsys, "rest", str(sheet), "3", "--healer")
    # 3 silver paid from 1 gold: the change is 77 silver, as 19 large silver and 1 silver.
    assert data["sheet"]["hp"] == 7
    assert data["sheet"]["money"] == {"gold": 0, "large_silver": 19, "silver": 1}
    assert main(["genso", "buy", "pc1", "torch"]) == 2
    assert "is a preset; save it first" in capsys.readouterr().err


def test_a_sheet_number_past_its_bound_is_refused_before_a_fight_or_a_save(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Fuzz audit 2, finding 7: body = 10**30 began a fight (HP 2×10**30) whose every attack
    was then refused as bad dice notation; now the sheet is refused by name. A change that
    would push a number past its bound (award --scenarios 10**30) leaves the sheet as it was,
    not written where no command could read it back."""
    sheet = user_dirs / "s.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(sheet))
    before = sheet.read_text(encoding="utf-8")
    sheet.write_text(before.replace("body = 6", "body = " + "1" + "0" * 30), encoding="utf-8")
    assert main(["genso", "fight", "new", "--party", str(sheet), "--monsters", "orc"]) == 2
    assert f"{sheet}: body must be from 1 to 99, found 1{'0' * 30}" in capsys.readouterr().err
    assert not (user_dirs / "data" / "genso" / "fight.json").exists()
    sheet.write_text(before, encoding="utf-8")
    assert main(["genso", "grow", str(sheet), "award", "--scenarios", "1" + "0" * 30]) == 2
    assert (f"exp must be from 0 to 999,999, found 1{'0' * 30}; the sheet is left as it was"
            in capsys.readouterr().err)
    assert sheet.read_text(encoding="utf-8") == before


def test_a_fight_from_the_command_line(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-COMBAT-1, GM-COMBAT-2, GM-MAGIC-2: start, act, undo and read the log; the file is
    replayed on every call."""
    start = run(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2")
    assert start["current"] == "駆け出し冒険者１"
    assert Path(start["path"]) == user_dirs / "data" / "genso" / "fight.json"
    hit = run(capsys, "fight", "attack", "駆け出し冒険者１", "オーク1", "--seed", "1")
    assert hit["entry"]["lines"][0]["rule"] == "GM-COMBAT-2"
    assert hit["current"] == "駆け出し冒険者２"
    cast = run(capsys, "fight", "cast", "駆け出し冒険者２", "healing", "駆け出し冒険者１",
               "--seed", "1")
    assert cast["entry"]["lines"][0]["text"] == "駆け出し冒険者２ pays MP −4"
    undone = run(capsys, "fight", "undo")
    assert undone["current"] == "駆け出し冒険者２" and undone["actions"] == 1
    log = run(capsys, "fight", "log")
    assert len(log["journal"]) == 1
    assert main(["genso", "fight", "wait", "オーク1"]) == 2
    assert "it is 駆け出し冒険者２'s turn" in capsys.readouterr().err


def test_a_power_cut_mid_action_loses_nothing(tmp_path: Path) -> None:
    """A fight action killed (SIGKILL) while it waits for the player's dice leaves the saved
    fight exactly as it was after the last action, and play goes on from there."""
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "companion", "genso", "fight"]

    def call(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run([*command, *argv], env=env, input=stdin, text=True,
                              capture_output=True, check=True, cwd=ROOT)

    call("new", "--party", "pc1", "--monsters", "orc")
    # typed (manual, the old word, below): one die a line, as a player reads them.
    call("attack", "駆け出し冒険者１", "オーク", "--dice", "typed", stdin="6\n6\n3\n")
    path = tmp_path / "data" / "genso" / "fight.json"
    before = path.read_bytes()
    prompt = killed_while_typing(
        [*command, "attack", "オーク", "駆け出し冒険者１", "--dice", "manual"], env, ROOT)
    assert b"Roll 2D6" in prompt
    assert path.read_bytes() == before
    shown = json.loads(call("show", "--json").stdout)
    assert shown["actions"] == 1 and shown["current"] == "オーク"
    orc = next(c for c in shown["combatants"] if c["name"] == "オーク")
    assert orc["hp"] == 9


def test_lore_pages_world_glossary_and_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    """GM-LORE-1 the world (three goddesses, the Nantoka Kingdom, guilds, races), GM-LORE-2 the
    glossary, GM-LORE-3 the scenario's 起承転結, each shown by `companion genso lore`."""
    pages = {p["rule"]: p for p in run(capsys, "lore")["lore"]}
    assert sorted(pages) == ["GM-LORE-1", "GM-LORE-2", "GM-LORE-3"]
    world = " ".join(pages["GM-LORE-1"]["lines"])
    for name in ("大地の女神", "月の女神", "闇の女神", "ナントカ王国", "賢者の石", "山妖精"):
        assert name in world
    assert any("森妖精) = elf" in line for line in pages["GM-LORE-2"]["lines"])
    assert pages["GM-LORE-3"]["lines"][0].startswith("起 request (依頼) → 承 preparation")
    assert main(["genso", "lore", "glossary"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("用語解説 Glossary (GM-LORE-2)") and "- Warhammer = 戦鎚." in text


def test_a_lore_file_without_its_fields_is_named() -> None:
    """GM-LORE-1: a page that lacks its lines names the page."""
    with pytest.raises(DataError, match=r"lore\.world lacks 'lines'"):
        load_lore('[lore.world]\nrule = "GM-LORE-1"\ntitle_ja = "世界"\ntitle_en = "World"\n')




def test_fight_apply_writes_the_sheets_back_once(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-COMBAT-1, GM-MAGIC-1, GM-ITEM-1: after a fight from sheet files, `fight apply`
    writes each sheet's HP, MP and mana stones as the fight left them; applying again
    changes nothing; a preset in the fight is left alone with a message."""
    one, two = tmp_path / "pc1.toml", tmp_path / "pc2.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(one))
    run(capsys, "sheet", "pc2", "--save-as", str(two))
    run(capsys, "buy", str(two), "mana_stone", "--mp", "3")
    pc1, pc2, priest = "駆け出し冒険者１", "駆け出し冒険者２", "一般的な神官（男性）"
    run(capsys, "fight", "new", "--party", str(one), str(two), "priest_m", "--monsters", "orc")
    run(capsys, "fight", "attack", pc1, "オーク", "--seed", "1")
    run(capsys, "fight", "cast", pc2, "healing", pc1, "--stone", "0", "--seed", "1")
    run(capsys, "fight", "wait", priest)
    hit = run(capsys, "fight", "attack", "オーク", pc1, "--seed", "2")
    assert hit["combatants"][0]["hp"] == 11
    assert main(["genso", "fight", "apply"]) == 2  # not over yet
    assert "the fight is not over" in capsys.readouterr().err
    run(capsys, "fight", "end")
    applied = run(capsys, "fight", "apply")["sheets"]
    assert [r["result"] for r in applied] == ["written", "written", "preset"]
    first = run(capsys, "sheet", str(one))["sheet"]
    second = run(capsys, "sheet", str(two))["sheet"]
    assert (first["hp"], first["mp"]) == (11, 8)
    assert (second["hp"], second["mp"], second["mana_stones"]) == (10, 11, [0])
    before = (one.read_bytes(), two.read_bytes())
    again = run(capsys, "fight", "apply")["sheets"]
    assert [r["result"] for r in again] == ["unchanged", "unchanged", "preset"]
    assert (one.read_bytes(), two.read_bytes()) == before
    assert main(["genso", "fight", "apply"]) == 0
    text = capsys.readouterr().out
    assert f"{priest} Typical priest (male): a preset, not a sheet file, so its HP " in text
    assert "are written nowhere" in text  # cli59 F11: and how to keep them


def test_a_sheet_written_back_keeps_the_players_comments(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Growth and `fight apply` change the lines they must and keep the rest of a sheet the
    player wrote: its comments, order and layout (docs/examples/aki.toml was rewritten as a
    bare sheet before, every comment lost)."""
    sheet = tmp_path / "aki.toml"
    original = (ROOT / "docs" / "examples" / "aki.toml").read_text(encoding="utf-8")
    sheet.write_text(original, encoding="utf-8")
    run(capsys, "grow", str(sheet), "award")
    assert run(capsys, "grow", str(sheet), "mp")["sheet"]["mp"] == 13
    grown = sheet.read_text(encoding="utf-8")
    assert grown == original.replace("\nmp = 12 ", "\nmp = 13 ") + "mp_bonus = 1\n"
    run(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    run(capsys, "fight", "cast", "Aki", "healing", "Aki", "--seed", "1")
    run(capsys, "fight", "end")
    assert [r["result"] for r in run(capsys, "fight", "apply")["sheets"]] == ["written"]
    applied = sheet.read_text(encoding="utf-8")
    assert applied == grown.replace("\nmp = 13 ", "\nmp = 9 ")


#: A sheet written as docs/sheets.md allows: the required fields, HP, and a ``[money]`` and a
#: ``[rings]`` table of its own, with comments, leaving out silver, race, MP and the rest.
TABLED_SHEET = """# my hero
name = "Taro"
kind = "pc"
body = 6
perception = 5
magic = 4
hp = 12
spells = ["healing"]

[money]
# treasure from the crypt
gold = 3  # the dragon's
large_silver = 2

[rings]
left = ["ring_striking"]  # grandpa's ring
"""


def test_a_sheets_money_and_rings_tables_keep_their_comments(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/sheets.md: rest, buy and fight apply change only the lines they must (genso74
    DEFECT 1: the [money] and [rings] tables were written over inline, their comments lost,
    with silver = 0, race, job, mp, level and exp added, though no coin or ring changed). A
    rest --force mid-fight that heals nothing leaves the sheet as it is, so fight apply
    then writes it, not refusing it as changed since the fight began."""
    sheet = tmp_path / "taro.toml"
    sheet.write_text(TABLED_SHEET.replace("hp = 12", "hp = 10"), encoding="utf-8")
    run(capsys, "rest", str(sheet), "2")
    assert sheet.read_text(encoding="utf-8") == TABLED_SHEET.replace("hp = 12", "hp = 11")
    run(capsys, "buy", str(sheet), "knife")
    assert sheet.read_text(encoding="utf-8") == TABLED_SHEET.replace("hp = 12", "hp = 11").replace(
        '["healing"]\n', '["healing"]\nequipment = ["knife"]\n').replace("gold = 3 ", "gold = 1 ")
    sheet.write_text(TABLED_SHEET, encoding="utf-8")
    run(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    run(capsys, "fight", "cast", "Taro", "healing", "Taro", "--seed", "1")
    run(capsys, "rest", str(sheet), "1", "--force")  # HP 12 → 12: nothing to write
    assert sheet.read_text(encoding="utf-8") == TABLED_SHEET
    run(capsys, "fight", "end")
    assert [r["result"] for r in run(capsys, "fight", "apply")["sheets"]] == ["written"]
    assert sheet.read_text(encoding="utf-8") == TABLED_SHEET.replace(
        "hp = 12\nspells = [\"healing\"]\n", "hp = 12\nspells = [\"healing\"]\nmp = 4\n")


def test_fight_apply_names_what_outlasts_the_fight(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-CORE-2: a 1-day spell lasts until the next sunrise, but a sheet has no field for
    it: `fight apply` names it beside the sheet it is on, so the player carries it on."""
    aki, elf = tmp_path / "aki.toml", tmp_path / "elf.toml"
    aki.write_text((ROOT / "docs" / "examples" / "aki.toml").read_text(encoding="utf-8"),
                   encoding="utf-8")
    run(capsys, "sheet", "forest_fairy", "--save-as", str(elf))
    run(capsys, "fight", "new", "--party", str(aki), str(elf), "--monsters", "orc")
    run(capsys, "fight", "wait", "Aki")
    run(capsys, "fight", "cast", "一般的な森妖精の冒険者", "protection", "Aki", "--seed", "1")
    run(capsys, "fight", "end")
    rows = {r["name"]: r for r in run(capsys, "fight", "apply")["sheets"]}
    assert rows["Aki"]["lasting"] == [
        "防護呪/Protection by 一般的な森妖精の冒険者 until the next sunrise"]
    assert rows["一般的な森妖精の冒険者"]["lasting"] == []
    assert main(["genso", "fight", "apply"]) == 0
    assert ("  outlasting the fight, not on the sheet (note it): 防護呪/Protection by "
            "一般的な森妖精の冒険者 Typical forest fairy (elf) adventurer until the next sunrise"
            ) in capsys.readouterr().out.splitlines()


def test_fight_apply_refuses_a_sheet_changed_since_the_fight_began(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-HEAL-1, GM-COMBAT-1: a sheet edited during the fight is named and not written over;
    the other sheet is written all the same (genso63 RISK 4: one changed sheet blocked
    every PC's write)."""
    one, two = tmp_path / "pc1.toml", tmp_path / "pc2.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(one))
    run(capsys, "sheet", "pc2", "--save-as", str(two))
    run(capsys, "fight", "new", "--party", str(one), str(two), "--monsters", "orc")
    run(capsys, "fight", "attack", "駆け出し冒険者１", "オーク", "--seed", "1")
    run(capsys, "fight", "cast", "駆け出し冒険者２", "healing", "駆け出し冒険者２", "--seed", "1")
    run(capsys, "buy", str(two), "torch")  # the caster's MP spent: the fight changed it
    before = (one.read_bytes(), two.read_bytes())
    run(capsys, "fight", "attack", "オーク", "駆け出し冒険者１", "--seed", "2")  # a hit
    run(capsys, "fight", "end")
    assert main(["genso", "fight", "apply"]) == 2
    err = capsys.readouterr().err
    assert f"{two.resolve()} was changed since the fight began" in err
    assert two.read_bytes() == before[1] and one.read_bytes() != before[0]
    assert f"(written: {one.resolve()})" in err


#: A child that holds ``argv[1]`` as the genso table does until its standard input closes.
HOLDER = """
import sys
from pathlib import Path
from companion.file_locks import holding
with holding(Path(sys.argv[1]), "the genso table, companion play --mode genso"):
    print("held", flush=True)
    sys.stdin.read()
"""


def _ended_fight(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A sheet brought into a fight in which it lost HP, the fight ended; the sheet."""
    one = tmp_path / "pc1.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(one))
    run(capsys, "fight", "new", "--party", str(one), "--monsters", "orc")
    run(capsys, "fight", "wait", "駆け出し冒険者１")
    run(capsys, "fight", "attack", "オーク", "駆け出し冒険者１", "--seed", "2")
    run(capsys, "fight", "end")
    return one


def test_fight_apply_while_a_table_holds_the_fight_writes_no_sheet(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A genso table running the fight file alone writes it: `fight apply` is refused before
    any sheet is written (it wrote the sheets, then failed to record it, and every later
    apply was refused as 'changed since the fight began'). Once the table stops, it applies."""
    one = _ended_fight(tmp_path, capsys)
    fight = user_dirs / "data" / "genso" / "fight.json"
    before = one.read_bytes()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(fight)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        assert main(["genso", "fight", "apply"]) == 1
        assert one.read_bytes() == before
        err = capsys.readouterr().err
        assert "the genso table" in err and "nothing was written" in err
        assert "applied" not in json.loads(fight.read_text(encoding="utf-8"))
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    assert [r["result"] for r in run(capsys, "fight", "apply")["sheets"]] == ["written"]
    assert one.read_bytes() != before
    assert "駆け出し冒険者１" in json.loads(fight.read_text(encoding="utf-8"))["applied"]


def test_fight_apply_where_the_fight_file_cannot_be_written_writes_no_sheet(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder that lets no file be made (read-only) for the fight file: the apply could not
    be recorded, so no sheet is written, and the folder is named."""
    import tempfile

    one = _ended_fight(tmp_path, capsys)
    folder = user_dirs / "data" / "genso"
    before = one.read_bytes()
    real = tempfile.mkstemp

    def read_only(*args: Any, **kwargs: Any) -> tuple[int, str]:
        if Path(kwargs["dir"]) == folder:
            raise PermissionError(13, "Permission denied")
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    assert main(["genso", "fight", "apply"]) == 2
    err = capsys.readouterr().err
    assert f"{folder}: no file can be made in this folder (Permission denied)" in err
    assert "nothing was written" in err
    assert one.read_bytes() == before


def test_fight_apply_records_an_apply_a_cut_kept_from_the_fight_file(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Sheets written, the fight file's record of it lost (a cut between the writes): the
    next apply finds the sheet holds what the fight left and records it, so after an undo
    and more fighting the sheet is still the apply's, written again, not 'changed'."""
    one = _ended_fight(tmp_path, capsys)
    fight = user_dirs / "data" / "genso" / "fight.json"
    run(capsys, "fight", "apply")
    data = json.loads(fight.read_text(encoding="utf-8"))
    del data["applied"]
    fight.write_text(json.dumps(data), encoding="utf-8")
    assert [r["result"] for r in run(capsys, "fight", "apply")["sheets"]] == ["unchanged"]
    assert "applied" in json.loads(fight.read_text(encoding="utf-8"))
    run(capsys, "fight", "undo")
    run(capsys, "fight", "wait", "駆け出し冒険者１")
    run(capsys, "fight", "attack", "オーク", "駆け出し冒険者１", "--seed", "2")
    hp = run(capsys, "fight", "end")["combatants"][0]["hp"]
    assert [r["result"] for r in run(capsys, "fight", "apply")["sheets"]] == ["written"]
    assert run(capsys, "sheet", str(one))["sheet"]["hp"] == hp


@pytest.mark.parametrize(("metres", "days", "hours", "turns"), [
    (0, 0, 0, 0), (720, 0, 0, 1), (730, 0, 0, 2), (3600, 0, 1, 0), (3599, 0, 1, 0),
    (18000, 1, 0, 0), (17999, 1, 0, 0), (20000, 1, 0, 3), (25000, 1, 2, 0), (39601, 2, 1, 1),
])
def test_travel_by_days_hours_and_turns(capsys: pytest.CaptureFixture[str], metres: int,
                                        days: int, hours: int, turns: int) -> None:
    """GM-MOVE-2: 18 km a day, 3,600 m an hour, 720 m a turn; the turn begun counts, and five
    turns carry into an hour, five hours into a day (17,999 m is a day, not "4 hours, 5
    turns")."""
    trip = run(capsys, "travel", str(metres))
    assert (trip["days"], trip["hours"], trip["turns"]) == (days, hours, turns)
    assert trip["rule"] == "GM-MOVE-2"
    assert main(["genso", "travel", "-1"]) == 2
    assert "a distance is 0 m or more" in capsys.readouterr().err


# --- the audit's defects at the command line --------------------------------------------------


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """A refused command: exit 2 and a one-line message, no traceback."""
    assert main(["genso", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def test_two_sheets_whose_names_differ_only_in_width_are_refused(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A typed Ｔａｒｏ finds Taro (docs/sheets.md), so Taro and Ｔａｒｏ began one fight and a
    typed name could not tell them apart (coc refused the pair). Both files are named, as
    are both places of one sheet given twice, and no fight is saved."""
    taro, wide = tmp_path / "taro.toml", tmp_path / "wide.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(taro))
    text = taro.read_text(encoding="utf-8")
    assert 'name = "駆け出し冒険者１"\n' in text
    taro.write_text(text.replace("駆け出し冒険者１", "Taro"), encoding="utf-8")
    wide.write_text(text.replace("駆け出し冒険者１", "Ｔａｒｏ"), encoding="utf-8")
    err = fails(capsys, "fight", "new", "--party", str(taro), str(wide), "--monsters", "orc")
    assert f"{wide}: 'Ｔａｒｏ' and 'Taro' ({taro}) differ only in full- and half-width" in err
    err = fails(capsys, "fight", "new", "--party", str(taro), str(taro), "--monsters", "orc")
    # one sheet given twice, not two sharing a name (a78gensofight item 6)
    assert f"{taro} is given twice ('Taro'): a sheet fights once, so give it once" in err
    assert "give one of them another name" not in err
    twin = tmp_path / "twin.toml"
    twin.write_text(taro.read_text(encoding="utf-8"), encoding="utf-8")
    err = fails(capsys, "fight", "new", "--party", str(taro), str(twin), "--monsters", "orc")
    assert f"{twin}: 'Taro' is also the name in {taro}; every combatant needs a name" in err
    assert not (user_dirs / "data" / "genso" / "fight.json").exists()


def test_selling_a_held_item_names_the_command_that_takes_it_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review #11: the system's refusal named `companion genso gear SHEET club --off` (a
    command line, with SHEET for the sheet given); the system now says it in game words and
    `genso sell` adds the command, with the sheet as given."""
    sheet = tmp_path / "my pc1.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(sheet))
    err = fails(capsys, "sell", str(sheet), "club", "--price", "3")
    assert err == ("companion: error: 駆け出し冒険者１ holds 棍棒/Club (readied or worn, not in "
                   "the pack): take it off first, then sell it (`companion genso gear "
                   f"'{sheet}' club --off` takes it off)\n")
    run(capsys, "gear", str(sheet), "club", "--off")
    assert run(capsys, "sell", str(sheet), "club", "--price", "3")["said"].startswith(
        "GM-ECON-1 sold 棍棒/Club")


def test_a_combat_move_then_an_attack_and_undo_in_words(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-COMBAT-1, GM-MOVE-1: `fight move PC combat` leaves PC its attack; undo says what it
    took back in a sentence, not a Python repr."""
    pc1 = "駆け出し冒険者１"
    run(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")
    moved = run(capsys, "fight", "move", pc1, "combat")
    assert moved["current"] == pc1 and moved["moved"] == "combat"
    hit = run(capsys, "fight", "attack", pc1, "オーク", "--seed", "1")
    assert hit["entry"]["lines"][0]["rule"] == "GM-COMBAT-2" and hit["current"] == "オーク"
    assert main(["genso", "fight", "undo"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"undone: {pc1} PC → オーク Orc 攻撃 attack\n")
    assert "Attack(" not in out
    fails(capsys, "fight", "move", pc1, "normal")


def test_spell_targets_at_the_command_line(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-MAGIC-10, GM-MAGIC-11: Lightning with no target is refused (the caster is not hit);
    Fire with one target named twice is refused."""
    fairy = "一般的な森妖精の冒険者"
    run(capsys, "fight", "new", "--party", "forest_fairy", "pc1", "--monsters", "ghost",
        "wight")
    assert "needs a target" in fails(capsys, "fight", "cast", fairy, "lightning")
    assert "is named twice" in fails(capsys, "fight", "cast", fairy, "fire", "ワイト", "ワイト")
    shown = run(capsys, "fight", "show")
    assert shown["actions"] == 0 and shown["combatants"][0]["hp"] == 12


def test_a_saved_fight_keeps_its_settings(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-MAGIC-1, GM-MAGIC-7: a cast made with --set is replayed by a plain `fight show`; a
    --set that differs is refused by show (it plays no action) and applied by an action from
    then on; undo takes it back; a fight file from before settings were kept still loads,
    with the --set it was played with."""
    pc1 = "駆け出し冒険者１"
    run(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")
    run(capsys, "fight", "cast", pc1, "lightning", "オーク", "--seed", "1",
        "--set", "GM-MAGIC-1.known_spells_only=false")
    shown = run(capsys, "fight", "show")
    assert shown["actions"] == 1 and shown["combatants"][1]["hp"] == 4
    assert "played with GM-MAGIC-1.known_spells_only = false" in fails(
        capsys, "fight", "show", "--set", "GM-MAGIC-1.known_spells_only=true")
    run(capsys, "fight", "show", "--set", "GM-MAGIC-1.known_spells_only=false")  # no change
    (user_dirs / "config").mkdir()
    (user_dirs / "config" / "genso.toml").write_text(
        '[defaults."GM-MAGIC-1"]\nknown_spells_only = true\n', encoding="utf-8")
    assert run(capsys, "fight", "show")["actions"] == 1  # the file's settings, not the user's
    waited = run(capsys, "fight", "wait", "オーク", "--set", "GM-MAGIC-7.version=gm")
    assert waited["entry"]["settings"] == {"GM-MAGIC-7": {"version": "gm"}}
    assert main(["genso", "fight", "undo"]) == 0
    assert "GM-MAGIC-7.version is back to pg" in capsys.readouterr().out
    old = user_dirs / "old.json"
    old.write_text((DATA / "fight_v1_set.json").read_text(encoding="utf-8"), encoding="utf-8")
    # Without it, the --set it was played with is named (genso74 NIT 9).
    assert main(["genso", "fight", "show", "--file", str(old)]) == 2
    assert ("does not know 雷撃呪/Lightning); a fight saved before fights kept their settings "
            "replays with the --set it was played with, given at every call then: give it "
            "with this command again (`--set GM-MAGIC-1.known_spells_only=…`"
            ) in capsys.readouterr().err
    shown = run(capsys, "fight", "show", "--file", str(old),
                "--set", "GM-MAGIC-1.known_spells_only=false")
    assert shown["combatants"][1]["hp"] == 4
    # One played without --set: a --set given with an action holds from that action on,
    # not over the fight's past.
    plain = user_dirs / "plain.json"
    plain.write_text((DATA / "fight_v1.json").read_text(encoding="utf-8"), encoding="utf-8")
    now = run(capsys, "fight", "show", "--file", str(plain))["current"]
    waited = run(capsys, "fight", "wait", now, "--file", str(plain),
                 "--set", "GM-MAGIC-7.version=gm")
    assert waited["entry"]["settings"] == {"GM-MAGIC-7": {"version": "gm"}}
    saved = json.loads(plain.read_text(encoding="utf-8"))
    assert saved["settings"]["GM-MAGIC-7"]["version"] == "pg"


def test_clear_one_line_errors(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-ITEM-1, GM-ITEM-2, GM-MON-7, GM-EQUIP-1, GM-COMBAT-1: bad input is a one-line error,
    never a traceback, and a refusal names no internal function."""
    sheet = tmp_path / "pc1.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(sheet))
    run(capsys, "buy", str(sheet), "mana_stone")
    for number in ("x", "²"):  # "²" passes isdigit() and fails int()
        assert "mana_stone:N" in fails(capsys, "sell", str(sheet), f"mana_stone:{number}")
    sold = run(capsys, "sell", str(sheet), "mana_stone")  # as `buy` names it
    assert sold["said"] == "GM-ECON-1 sold 魔力石/Mana stone for 銀貨4枚 (4 silver)"
    for count in ("x", "0", "-1", "²"):
        err = fails(capsys, "fight", "new", "--force", "--party", "pc1", "--monsters",
                    f"orc:{count}")
        assert f"--monsters orc:{count}: write KEY or KEY:N" in err
    bad = tmp_path / "bad.toml"
    bad.write_text(sheet.read_text(encoding="utf-8").replace(
        'weapons = ["club"', 'weapons = ["used:club"'), encoding="utf-8")
    assert f"{bad}: weapons holds 'used:club'" in fails(capsys, "sheet", str(bad))
    run(capsys, "buy", str(sheet), "torch")
    err = fails(capsys, "gear", str(sheet), "torch")
    assert "cannot be equipped" in err and "put_on_ring" not in err
    run(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")
    run(capsys, "fight", "attack", "駆け出し冒険者１", "オーク", "--seed", "1")
    path = user_dirs / "data" / "genso" / "fight.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["journal"][0]["dice"] = data["journal"][0]["dice"][:1]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    err = fails(capsys, "fight", "show")
    assert f"{path}: journal entry 1 (駆け出し冒険者１ → オーク 攻撃 attack) is damaged" in err


def test_difficulty_zero_is_a_difficulty(capsys: pytest.CaptureFixture[str]) -> None:
    """GM-CHECK-1, GM-CHECK-2: --difficulty 0 is checked against 0, not the "hard" fallback."""
    assert run(capsys, "check", "simple", "--difficulty", "0", "--seed", "1")["difficulty"] == 0
    general = run(capsys, "check", "general", "--sheet", "pc1", "--difficulty", "0",
                  "--seed", "1")
    assert general["difficulty"] == 0
    assert run(capsys, "check", "simple", "--seed", "1")["difficulty"] == 7


def test_save_as_does_not_overwrite_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-DATA-1: `sheet X --save-as FILE` refuses an existing FILE unless --force, as `new`."""
    target = tmp_path / "mine.toml"
    target.write_text("kept", encoding="utf-8")
    assert "exists; pass --force" in fails(capsys, "sheet", "pc2", "--save-as", str(target))
    assert target.read_text(encoding="utf-8") == "kept"
    run(capsys, "sheet", "pc2", "--save-as", str(target), "--force")
    assert run(capsys, "sheet", str(target))["sheet"]["name"] == "駆け出し冒険者２"


def test_save_as_says_where_it_saved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-DATA-1: `sheet pc1 --save-as mine.toml` wrote the file without a word (`new`
    says "saved to …"); it now ends with where it saved, and the JSON has saved_to."""
    target = tmp_path / "mine.toml"
    assert main(["genso", "sheet", "pc1", "--save-as", str(target)]) == 0
    assert capsys.readouterr().out.rstrip().endswith(f"saved to {target}")
    again = run(capsys, "sheet", "pc1", "--save-as", str(target), "--force")
    assert again["saved_to"] == str(target) and again["path"] is None


def test_rest_a_day_at_a_time_and_the_dead(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-HEAL-1, GM-COMBAT-8: four single days' rest heal 2 HP as one four-day rest; a dead PC
    (HP −9) does not rest back to life, and its sheet says DEAD."""
    sheet = tmp_path / "pc1.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(sheet))
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(text.replace("hp = 12", "hp = 4"), encoding="utf-8")
    said = [run(capsys, "rest", str(sheet), "1")["said"] for _ in range(4)]
    assert said[0] == ("GM-HEAL-1 1 day's rest: HP 4 → 4 (1 of 2 days toward the next HP, "
                       "kept on the sheet)")
    assert run(capsys, "sheet", str(sheet))["sheet"]["hp"] == 6
    sheet.write_text(text.replace("hp = 12", "hp = -9"), encoding="utf-8")
    assert "is dead" in fails(capsys, "rest", str(sheet), "30")
    shown = run(capsys, "sheet", str(sheet))
    assert shown["condition"] == "dead" and shown["sheet"]["hp"] == -9
    assert main(["genso", "sheet", str(sheet)]) == 0
    assert "状態/condition DEAD 死亡 (GM-COMBAT-8)" in capsys.readouterr().out



def test_rest_with_sleep_does_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-HEAL-1, GM-HEAL-2: `rest SHEET 4 --healer --sleep` heals the HP of 4 days in a
    healer's care, pays for it, and fills MP (the days and the healer were dropped); `--sleep`
    alone is the night's sleep only, and `--healer --sleep` a day's care and the sleep."""
    sheet = tmp_path / "pc2.toml"
    run(capsys, "sheet", "pc2", "--save-as", str(sheet))
    text = sheet.read_text(encoding="utf-8").replace("hp = 10", "hp = 3")
    sheet.write_text(text.replace("mp = 12", "mp = 1"), encoding="utf-8")
    data = run(capsys, "rest", str(sheet), "4", "--healer", "--sleep")
    assert data["said"] == ("GM-HEAL-1 4 days' rest: HP 3 → 7, healer's fee 銀貨4枚 (4 silver)\n"
                            "GM-HEAL-2 8 hours' sleep: MP full (1 → 12)")
    assert (data["sheet"]["hp"], data["sheet"]["mp"]) == (7, 12)
    assert data["sheet"]["money"] == {"gold": 4, "large_silver": 19, "silver": 0}
    sheet.write_text(text.replace("mp = 12", "mp = 1"), encoding="utf-8")
    data = run(capsys, "rest", str(sheet), "--sleep")
    assert data["said"] == "GM-HEAL-2 8 hours' sleep: MP full"
    assert (data["sheet"]["hp"], data["sheet"]["mp"]) == (3, 12)
    data = run(capsys, "rest", str(sheet), "--healer", "--sleep")
    assert data["said"].startswith("GM-HEAL-1 1 day's rest: HP 3 → 4, healer's fee 銀貨1枚 "
                                   "(1 silver)\nGM-HEAL-2")
    data = run(capsys, "rest", str(sheet), "2", "--sleep")
    assert data["said"] == ("GM-HEAL-1 2 days' rest: HP 4 → 5\n"
                            "GM-HEAL-2 8 hours' sleep: MP full (12 → 12)")


def test_options_that_do_not_belong_are_refused_by_name(
    user_dirs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-ITEM-1, GM-EQUIP, GM-MAGIC-3/4: an option the command would drop unsaid is refused,
    naming it: a mana stone's price is the seed's own (no --price), only a mana stone has an
    MP (--mp), and only Exorcism and Dispel are cast on a weapon (--weapon); nothing is
    bought or cast."""
    sheet = tmp_path / "pc2.toml"
    run(capsys, "sheet", "pc2", "--save-as", str(sheet))
    before = sheet.read_text(encoding="utf-8")
    assert "buy mana_stone --price 100: the price of a mana stone (魔力石/Mana stone) is the " \
        "seed's own" in fails(capsys, "buy", str(sheet), "mana_stone", "--price", "100")
    assert "buy knife --mp 3: --mp is the MP of a mana stone" in fails(
        capsys, "buy", str(sheet), "knife", "--mp", "3")
    assert sheet.read_text(encoding="utf-8") == before
    assert run(capsys, "buy", str(sheet), "mana_stone", "--mp", "3")["sheet"]["mana_stones"] \
        == [3]
    run(capsys, "fight", "new", "--party", "forest_fairy", "--monsters", "orc")
    err = fails(capsys, "fight", "cast", "forest_fairy", "lightning", "オーク", "--weapon",
                "0", "--seed", "1")
    assert "fight cast --weapon 0: only 退魔呪/Exorcism and 呪解呪/Dispel are cast on a " \
        "weapon" in err and "雷撃呪/Lightning is not" in err
    assert run(capsys, "fight", "log")["journal"] == []


def test_the_item_list_has_the_mana_stone_and_a_sheet_its_stored_mp(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-ECON-2, GM-ITEM-1: PG 6-4's 「魔力石 大銀貨２枚 ４ＭＰ分」 is a row of `list items`, text
    and JSON, after the other goods for sale; GM-ITEM-3: the sheet shows what the Rings of
    Storage worn hold (it showed only in a fight)."""
    rows = run(capsys, "list", "items")["items"]
    keys = [r["key"] for r in rows]
    stone = rows[keys.index("mana_stone")]
    assert keys[keys.index("mana_stone") - 1] == "arrows"
    assert (stone["name"], stone["price"], stone["price_text"], stone["mp"]) == (
        "魔力石/Mana stone", 8, "大銀貨2枚 (2 large silver)", 4)
    assert (stone["price_per_mp"], stone["buyback_per_mp"], stone["rule"]) == (2, 1, "GM-ITEM-1")
    assert main(["genso", "list", "items"]) == 0
    line = next(t for t in capsys.readouterr().out.splitlines() if t.startswith("mana_stone "))
    assert "魔力石/Mana stone" in line and "大銀貨2枚 (2 large silver)  4 MP" in line
    sheet = tmp_path / "caster.toml"
    sheet.write_text('name = "Mio"\nkind = "pc"\nbody = 4\nperception = 5\nmagic = 6\n'
                     'equipment = ["ring_storage", "ring_storage", "ring_striking"]\n',
                     encoding="utf-8")
    run(capsys, "gear", str(sheet), "ring_storage", "--hand", "left")
    data = run(capsys, "gear", str(sheet), "ring_storage", "--hand", "right")
    assert data["derived"]["storage_mp"] == {"mp": 10, "holds": 10}
    assert main(["genso", "sheet", str(sheet)]) == 0
    assert "蓄積の指輪/Ring of Storage MP 10/10\n" in capsys.readouterr().out
    run(capsys, "gear", str(sheet), "ring_striking", "--hand", "left")
    assert main(["genso", "sheet", str(sheet)]) == 0
    assert ("蓄積の指輪/Ring of Storage MP 10/10 (kept; not to be spent while no ring works)"
            in capsys.readouterr().out)

def test_prices_as_the_seed_writes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-ECON-2: the item list shows 普通の宿 at 銀貨4枚 and 豪華な宿 at 銀貨6枚～ (their values in
    silver unchanged); buying says the price so too."""
    rows = {r["key"]: r for r in run(capsys, "list", "items")["items"]}
    assert (rows["ordinary_inn"]["price"], rows["ordinary_inn"]["price_text"]) == (
        4, "銀貨4枚 (4 silver)")
    assert rows["luxury_inn"]["price_text"] == "銀貨6枚 (6 silver)～"
    assert main(["genso", "list", "items"]) == 0
    assert "大銀貨1枚" not in next(line for line in capsys.readouterr().out.splitlines()
                                if line.startswith("ordinary_inn"))
    sheet = tmp_path / "pc1.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(sheet))
    bought = run(capsys, "buy", str(sheet), "ordinary_inn")
    assert bought["said"] == "GM-ECON-1 bought 普通の宿/Ordinary inn for 銀貨4枚 (4 silver)"


def test_listings_line_up_under_japanese_names(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A full-width name takes two terminal columns: `fight show` and `list monsters` pad by
    columns, so the numbers after the names stand one under another."""
    from companion.dice.notation import display_width

    run(capsys, "fight", "new", "--party", "pc1", "forest_fairy", "--monsters", "orc")
    assert main(["genso", "fight", "show"]) == 0
    shown = [line for line in capsys.readouterr().out.splitlines() if " HP " in line]
    assert len(shown) == 3
    assert len({display_width(line[:line.index(" HP ")]) for line in shown}) == 1
    assert main(["genso", "list", "monsters"]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines()
              if not line.startswith(" ")]  # a row's continuation lines (genso61) aside
    assert len({display_width(line[:line.index("体力")]) for line in listed}) == 1


def test_about_prices_at_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-EQUIP-3: the item list shows 剣＋１ at おおよそ金貨100枚 (the seed's 「販売はおおよそ金貨
    １００枚」), not 100 gold～; buy and sell take the GM's price for it either way."""
    rows = {r["key"]: r for r in run(capsys, "list", "items")["items"]}
    assert rows["sword_plus1"]["price_text"] == "おおよそ/about 金貨100枚 (100 gold)"
    assert rows["sword_plus1"]["about"] and not rows["sword_plus1"]["from"]
    assert rows["sword"]["price_text"] == "金貨4枚 (4 gold)～" and not rows["sword"]["about"]
    sheet = tmp_path / "pc1.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(sheet))
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(text.replace("money = {gold = 0,", "money = {gold = 100,"), encoding="utf-8")
    bought = run(capsys, "buy", str(sheet), "sword_plus1", "--price", str(90 * 80))
    assert bought["sheet"]["money"] == {"gold": 11, "large_silver": 0, "silver": 0}
    sold = run(capsys, "sell", str(sheet), "sword_plus1", "--price", str(40 * 80))
    assert sold["sheet"]["money"] == {"gold": 51, "large_silver": 0, "silver": 0}
    run(capsys, "buy", str(sheet), "ring_striking")
    assert main(["genso", "sell", str(sheet), "ring_striking", "--price", "9"]) == 2
    assert "打撃の指輪/Ring of Striking is its own number" in capsys.readouterr().err


def test_an_about_price_far_from_the_list_is_told_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """a76gensofight RISK 2: `buy … sword_plus1 --price 100` (the list says 金貨100枚) paid
    100 silver, 1/80 of it, unsaid, and `--price 0` bought it for nothing. The GM may still
    set an おおよそ price (GM-EQUIP-3), but one more than twice or less than half the list's
    is told beside it in silver, with the gold slip's price and the command that takes it
    back; 0 is refused, the sheet left as it was."""
    sheet = tmp_path / "pc1.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(sheet))
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(text.replace("money = {gold = 0,", "money = {gold = 200,"), encoding="utf-8")
    assert "found 0; the shop has no gift" in fails(capsys, "buy", str(sheet), "sword_plus1",
                                                    "--price", "0")
    assert "sword_plus1" not in sheet.read_text(encoding="utf-8")
    assert main(["genso", "buy", str(sheet), "sword_plus1", "--price", "100"]) == 0
    err = capsys.readouterr().err
    assert ("warning: 剣＋１/Sword+1 is listed at おおよそ/about 金貨100枚 (100 gold) = 8000 "
            "silver 銀貨; paid 100 silver 銀貨: --price is in silver (GM-ECON-1: 1 gold = 80 "
            "silver); if 100 gold was meant, that is --price 8000; to take it back: `") in err
    assert f"genso sell {sheet} sword_plus1 --price 100 --take-back`" in err
    assert main(["genso", "sell", str(sheet), "sword_plus1", "--price", "9000"]) == 0
    assert ("warning: the buy-back of 剣＋１/Sword+1 is listed at おおよそ/about 金貨50枚 (50 "
            "gold) = 4000 silver 銀貨; received 9000 silver 銀貨" in capsys.readouterr().err)
    for near in ("7000", "4000"):  # the GM's haggling, within twice either way: unsaid
        assert main(["genso", "buy", str(sheet), "sword_plus1", "--price", near]) == 0
        assert "warning" not in capsys.readouterr().err


def test_a_price_warnings_take_back_is_not_warned_of_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """r76coc N4: the command a price warning names to take a buy back, a sale at that
    price, was itself warned of (far below the buy-back list) and named a buy to take *it*
    back, an undo of the undo; a sale's take-back the same. It carries --take-back and is
    not warned of; the purse and the pack are as before."""
    sheet = tmp_path / "pc1.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(sheet))
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(text.replace("money = {gold = 0,", "money = {gold = 200,"), encoding="utf-8")
    rate = rates(load_rules())

    def held() -> tuple[int, bool]:
        data = run(capsys, "sheet", str(sheet))["sheet"]
        return Purse(**data["money"]).value(rate), "sword_plus1" in data["equipment"]

    def taken_back(verb: str) -> None:
        before = held()
        assert main(["genso", verb, str(sheet), "sword_plus1", "--price", "100"]) == 0
        told = re.search(r"to take it back: `[^`]*? (genso [^`]*)`", capsys.readouterr().err)
        back = "sell" if verb == "buy" else "buy"
        assert told is not None and told[1] == shlex.join(
            ["genso", back, str(sheet), "sword_plus1", "--price", "100", "--take-back"])
        assert main(shlex.split(told[1])) == 0  # as told
        assert "warning" not in capsys.readouterr().err
        assert held() == before

    taken_back("buy")
    assert main(["genso", "buy", str(sheet), "sword_plus1", "--price", "8000"]) == 0
    capsys.readouterr()
    taken_back("sell")
    # r76fb NIT 1: with no --price it checks nothing, and is refused, the sheet untouched
    before = sheet.read_bytes()
    for verb in ("buy", "sell"):
        assert main(["genso", verb, str(sheet), "club", "--take-back"]) == 2
        assert capsys.readouterr().err == (
            f"companion: error: {verb} --take-back takes back a sale or buy at its --price: "
            "give the --price the warning's command gives, or leave --take-back out\n")
    assert sheet.read_bytes() == before


def test_a_buy_back_price_is_warned_of_only_beyond_twice_or_half_the_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """r76coc N5: a sale's price is held against the buy-back list as a buy's against the
    list: 剣＋１/Sword+1's buy-back is おおよそ金貨50枚, 4000 silver, so 8000 and 2000 (twice
    and half) and 5000 are the GM's haggling, unsaid, and 8001 and 1999 are told."""
    sheet = tmp_path / "pc1.toml"
    run(capsys, "sheet", "pc1", "--save-as", str(sheet))
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(text.replace("money = {gold = 0,", "money = {gold = 1000,"),
                     encoding="utf-8")
    sales = (("8000", False), ("2000", False), ("5000", False), ("8001", True), ("1999", True))
    for _ in sales:
        assert main(["genso", "buy", str(sheet), "sword_plus1", "--price", "8000"]) == 0
        assert "warning" not in capsys.readouterr().err
    for price, warned in sales:
        assert main(["genso", "sell", str(sheet), "sword_plus1", "--price", price]) == 0
        err = capsys.readouterr().err
        assert ("warning: the buy-back of 剣＋１/Sword+1 is listed at おおよそ/about 金貨50枚 "
                f"(50 gold) = 4000 silver 銀貨; received {price} silver 銀貨" in err) is warned, (
            price, err)
    assert "sword_plus1" not in sheet.read_text(encoding="utf-8")


@pytest.mark.parametrize("argv", [
    ["new", "Ken", "--body", "6", "--perception", "5", "--magic", "4", "--skill", "combat",
     "--out"],
    ["sheet", "pc1", "--save-as"],
])
@pytest.mark.parametrize("name, better", [("ken.txt", "ken.toml"), ("ken.TOML", "ken.toml"),
                                          ("ken", "ken.toml")])
def test_a_sheet_is_written_only_where_it_is_read_back(
        argv: list[str], name: str, better: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`genso new --out Ken.txt` saved a sheet that `sheet`, `check` and `fight` then called
    'no sheet' (only a .toml path is read as a file): it is refused by the option before
    anything is rolled or written, naming the .toml to give; a .toml one still saves."""
    out = tmp_path / name
    assert main(["genso", *argv, str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{argv[-1]} '{out}'" in err and f"give {tmp_path / better}" in err
    assert not out.exists() and not (tmp_path / "data" / "genso" / "characters").exists()
    good = tmp_path / "ken.toml"
    assert main(["genso", *argv, str(good)]) == 0
    capsys.readouterr()
    assert run(capsys, "sheet", str(good))["path"] == str(good)


def test_an_opposed_check_refuses_one_sheet_on_both_sides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-CHECK-5: `check opposed --sheet pc1 --vs pc1` (or one file named two ways) rolled
    the sheet against itself; it is refused, saying to name the other side with --vs."""
    assert main(["genso", "check", "opposed", "--sheet", "pc1", "--vs", "pc1"]) == 2
    assert "--sheet pc1 and --vs pc1 are one sheet" in capsys.readouterr().err
    mine = tmp_path / "mine.toml"
    assert main(["genso", "sheet", "pc1", "--save-as", str(mine)]) == 0
    capsys.readouterr()
    assert main(["genso", "check", "opposed", "--sheet", str(mine),
                 "--vs", str(tmp_path / "." / "mine.toml")]) == 2
    assert "are one sheet" in capsys.readouterr().err
    assert main(["genso", "check", "opposed", "--sheet", str(mine), "--vs", "pc1",
                 "--seed", "1"]) == 0
    assert "駆け出し冒険者１ (A) vs 駆け出し冒険者１ (B)" in capsys.readouterr().out


def test_the_nights_sleep_says_the_hours_the_rules_data_holds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-HEAL-2: `rest --sleep` said "8 hours' sleep" from a copy in the code; the hours are
    the rules data's ``sleep_hours``, as the fight's sleep line already said them."""
    sheet = tmp_path / "pc2.toml"
    run(capsys, "sheet", "pc2", "--save-as", str(sheet))
    text = (files("companion.systems.genso.data") / "rules.toml").read_text(encoding="utf-8")
    changed = load_rules({"rules.toml": text.replace("sleep_hours = 8", "sleep_hours = 9")})
    args = build_parser("genso").parse_args(["genso", "rest", str(sheet), "--sleep", "--json"])
    assert COMMANDS["rest"](args, changed) == 0
    assert json.loads(capsys.readouterr().out)["said"] == "GM-HEAL-2 9 hours' sleep: MP full"


@pytest.mark.parametrize("preset", sorted(load_rules().presets))
def test_a_sheets_race_sex_birth_wants_and_dislikes_have_their_english(
        preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    """env58 N5: `genso sheet`'s first two lines gave race, sex, birth, wants and dislikes in
    Japanese alone (人間 女性, 神官, 知識, 奇怪な魔術師): on the Pi's console, which has no
    Japanese glyphs, they were strings of boxes. Each word has its English beside it."""
    assert main(["genso", "sheet", preset]) == 0
    first_lines = capsys.readouterr().out.splitlines()[:2]
    first_lines[0] = first_lines[0].partition("]")[2]  # after the name and its kind
    words = [word for line in first_lines for word in line.split()
             if not word.isascii() and not word.endswith(("/birth", "/wants", "/dislikes"))]
    assert words
    for word in words:
        english = word.partition("/")[2]
        assert english and english.isascii(), (word, first_lines)
