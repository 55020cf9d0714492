"""A name holding a control character is refused by every system's sheet reader, as the
events party file's is since d724810: TOML's ``"Ann\\u001b[7m"`` is an ESC, and a genso or
coc sheet printed it raw to the terminal (review 54, finding 5). A fight's kept copy of a
sheet is read as it began, so a saved fight still opens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.errors import DataError
from companion.systems.defaults import refuse_control

GENSO_SHEET = """name = "Ann"
kind = "pc"
body = 6
perception = 5
magic = 4
"""

COC_SHEET = """name = "{name}"
[characteristics]
STR = 13
CON = 12
POW = 10
DEX = 14
APP = 10
SIZ = 13
INT = 12
EDU = 12
[skills]
dodge = 40
"""

#: A weapon of the sheet's own and a piece of armour, each printed by its names.
COC_GEAR = """[[weapons]]
key = "{key}"
ja = "{ja}"
en = "Cane"
kind = "melee"
skill = "club"
damage = "1D6"
db = "full"
attacks = 1
[[armour]]
name = "{armour}"
value = 1
"""


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """What the command said, having exited 2 with no raw ESC or BEL on either stream."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "\x1b" not in captured.out + captured.err
    assert "\x07" not in captured.out + captured.err
    return captured.err


@pytest.mark.parametrize("field", ["name", "race", "sex", "job", "class_name"])
def test_a_genso_sheet_text_field_with_an_escape_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str
) -> None:
    """`genso sheet s.toml` printed ``Ann^[[7m`` (and the other text fields it shows) raw."""
    sheet = tmp_path / "s.toml"
    text = GENSO_SHEET.replace('name = "Ann"', "") if field == "name" else GENSO_SHEET
    sheet.write_text(f'{field} = "Ann\\u001b[7m"\n{text}', encoding="utf-8")
    err = refused(capsys, ["genso", "sheet", str(sheet)])
    assert (f"{sheet}: {field} 'Ann\\x1b[7m' holds a control character ('\\x1b'); give the "
            "name as printable text") in err


def test_a_genso_fight_refuses_a_sheet_whose_name_holds_an_escape(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fight entrant's name comes from the sheet named on the command line."""
    sheet = tmp_path / "ann.toml"
    sheet.write_text(GENSO_SHEET.replace('"Ann"', '"Ann\\u0007"'), encoding="utf-8")
    err = refused(capsys, ["genso", "fight", "new", "--party", str(sheet), "--monsters", "orc"])
    assert f"{sheet}: name 'Ann\\x07' holds a control character ('\\x07')" in err
    assert not (user_dirs / "data" / "genso" / "fight.json").exists()


@pytest.mark.parametrize(("args", "what"), [
    (["Ann\x1b[7m"], "name 'Ann\\x1b[7m'"),
    (["Ann", "--sex", "m\x1b[2J"], "sex 'm\\x1b[2J'"),
])
def test_genso_new_refuses_a_name_or_sex_with_an_escape_and_writes_nothing(
    user_dirs: Path, capsys: pytest.CaptureFixture[str], args: list[str], what: str
) -> None:
    """`genso new NAME` printed the name raw on the sheet it made, and wrote a file by it."""
    err = refused(capsys, ["genso", "new", *args, "--body", "6", "--perception", "5",
                           "--magic", "4", "--skill", "search", "--seed", "7"])
    assert f"{what} holds a control character" in err
    folder = user_dirs / "data" / "genso" / "characters"
    assert not folder.exists() or list(folder.iterdir()) == []


@pytest.mark.parametrize(("name", "key", "ja", "armour", "refusal"), [
    ("Ann\\u001b[7m", "cane", "杖", "coat", "name 'Ann\\x1b[7m'"),
    ("Ann", "cane\\u001b[2J", "杖", "coat", "key 'cane\\x1b[2J'"),
    ("Ann", "cane", "杖\\u0007", "coat", "ja '杖\\x07'"),
    ("Ann", "cane", "杖", "coat\\r", "name 'coat\\r'"),
])
def test_a_coc_sheet_name_or_gear_name_with_a_control_character_is_refused(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str],
    name: str, key: str, ja: str, armour: str, refusal: str
) -> None:
    """`coc fight new` took the combatant's name (and its own weapon's and armour's, shown in
    the fight) from the sheet as written, an ESC and all."""
    ann, cult = tmp_path / "ann.toml", tmp_path / "cult.toml"
    ann.write_text(COC_SHEET.format(name=name) + COC_GEAR.format(key=key, ja=ja, armour=armour),
                   encoding="utf-8")
    cult.write_text(COC_SHEET.format(name="Cult"), encoding="utf-8")
    err = refused(capsys, ["coc", "fight", "new", "--investigators", str(ann),
                           "--foes", str(cult)])
    assert f"{refusal} holds a control character" in err and str(ann) in err
    assert not (user_dirs / "data" / "coc" / "fight.json").exists()


def test_a_genso_fight_kept_copy_with_a_control_character_still_opens(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fight's copy of a sheet is read as it began (``kept``): one saved before this
    check, its job holding a BEL, opens and plays on."""
    sheet = tmp_path / "ann.toml"
    sheet.write_text(GENSO_SHEET, encoding="utf-8")
    assert main(["genso", "fight", "new", "--party", str(sheet), "--monsters", "orc"]) == 0
    path = user_dirs / "data" / "genso" / "fight.json"
    saved = json.loads(path.read_text(encoding="utf-8"))
    entrant = next(e for e in saved["entrants"] if "sheet" in e)
    entrant["sheet"]["job"] = "bell\x07"
    path.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()
    assert main(["genso", "fight", "show", "--json"]) == 0
    assert "Ann" in [c["name"] for c in json.loads(capsys.readouterr().out)["combatants"]]


def test_a_coc_fight_kept_copy_with_a_control_character_still_opens(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ann, cult = tmp_path / "ann.toml", tmp_path / "cult.toml"
    ann.write_text(COC_SHEET.format(name="Ann") + COC_GEAR.format(key="cane", ja="杖",
                                                                  armour="coat"),
                   encoding="utf-8")
    cult.write_text(COC_SHEET.format(name="Cult"), encoding="utf-8")
    assert main(["coc", "fight", "new", "--investigators", str(ann), "--foes", str(cult),
                 "--seed", "1"]) == 0
    path = user_dirs / "data" / "coc" / "fight.json"
    saved = json.loads(path.read_text(encoding="utf-8"))
    kept = next(e["sheet"] for e in saved["entrants"] if e["sheet"]["name"] == "Ann")
    kept["armour"][0]["name"] = "coat\x07"
    path.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()
    assert main(["coc", "fight", "show", "--json"]) == 0
    assert [c["name"] for c in json.loads(capsys.readouterr().out)["combatants"]] \
        == ["Ann", "Cult"]


def test_the_check_is_one_for_every_system() -> None:
    """events, genso and coc refuse with the same function, kept where each may import it."""
    from companion.systems.coc import sheet as coc_sheet
    from companion.systems.events import sword_world
    from companion.systems.genso import sheet as genso_sheet

    assert sword_world.refuse_control is genso_sheet.refuse_control is \
        coc_sheet.refuse_control is refuse_control
    refuse_control("Ann 森妖精", "name")  # printable text, any script, passes
    with pytest.raises(DataError, match=r"party: name 'A\\tB' holds a control character"):
        refuse_control("A\tB", "party: name")
