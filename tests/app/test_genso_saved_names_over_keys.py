"""A character saved under a preset's or a monster's key (``genso new pc1``, ``genso sheet
… --save-as``): found by that key before the preset or the monster, and told so when saved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso_fight_files import sheet_path

NEW = ("--body", "6", "--perception", "5", "--magic", "4", "--skill", "combat", "--seed", "1")


@pytest.mark.parametrize("name, shadowed", [
    ("pc1", "the preset 駆け出し冒険者１"), ("orc", "the monster オーク/Orc"),
])
def test_a_saved_character_named_by_a_key_is_said_to_win(
        name: str, shadowed: str, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """genso72 NIT 7: `genso new pc1` made pc1 the new PC in `genso sheet`, `fight new` and
    `check --vs` without a word (on purpose, reviewz70, but unsaid)."""
    assert main(["genso", "new", name, *NEW]) == 0
    err = capsys.readouterr().err
    assert f"note: {name!r} now names this saved character everywhere, not {shadowed}" in err
    assert f"remove {sheet_path(name)} to name {shadowed} again" in err
    assert main(["genso", "new", "Bob", *NEW]) == 0
    assert "now names" not in capsys.readouterr().err


def test_a_sheet_saved_as_a_preset_key_in_the_characters_folder_is_said_to_win(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`genso sheet pc1 --save-as` into the characters folder as pc2.toml is said so; to any
    other folder it names nothing and says nothing."""
    assert main(["genso", "sheet", "pc1", "--save-as", str(sheet_path("pc2"))]) == 0
    assert "not the preset 駆け出し冒険者２" in capsys.readouterr().err
    assert main(["genso", "sheet", "pc1", "--save-as", str(tmp_path / "pc2.toml")]) == 0
    assert "now names" not in capsys.readouterr().err


def _sheet_name(ref: str, capsys: pytest.CaptureFixture[str]) -> str:
    """The name on the sheet ``genso sheet REF`` shows."""
    assert main(["genso", "sheet", ref, "--json"]) == 0
    name: str = json.loads(capsys.readouterr().out)["sheet"]["name"]
    return name


def test_a_saved_character_and_a_preset_key_are_found_in_any_case(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """fixg72b RISK 2, reviewg72: a saved character was found through its file name as
    typed, so `genso sheet kit` of a saved Kit was 'no sheet', as `PC1` was for the preset
    pc1 and `--monsters ORC` for the orc, while a fight's ACTOR and TARGET took each in any
    case. Now `genso sheet`, `fight new --party`/`--monsters` and `check --vs` do too."""
    assert main(["genso", "new", "Kit", *NEW]) == 0
    capsys.readouterr()
    assert _sheet_name("kit", capsys) == "Kit"
    assert _sheet_name("ＫＩＴ", capsys) == "Kit"
    assert _sheet_name("PC1", capsys) == "駆け出し冒険者１"
    assert main(["genso", "fight", "new", "--party", "KIT", "Pc2", "--monsters", "ORC:2",
                 "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["combatants"]
    assert [c["name"] for c in shown] == ["Kit", "駆け出し冒険者２", "オーク1", "オーク2"]
    assert main(["genso", "check", "opposed", "--sheet", "KIT", "--vs", "Orc_Warrior",
                 "--seed", "1"]) == 0
    assert "オーク・ウォーリア" in capsys.readouterr().out
    # One preset is one sheet in any case: not a side against itself.
    assert main(["genso", "check", "opposed", "--sheet", "pc1", "--vs", "PC1"]) == 2
    assert "are one sheet" in capsys.readouterr().err


def test_saved_characters_apart_only_by_case_are_each_named_and_refused_as_either(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ben and ben, saved apart (two files), are each found by their own spelling; BEN, which
    names both only in another case, is refused naming both, in `genso sheet`, `fight new
    --party` and the calendar's curse (there, not taken as an NPC of the GM's named BEN)."""
    assert main(["genso", "new", "Ben", *NEW]) == 0
    assert main(["genso", "new", "ben", *NEW, "--force"]) == 0  # made beside Ben on purpose
    capsys.readouterr()
    assert {sheet_path("Ben").name, sheet_path("ben").name} <= {
        p.name for p in sheet_path("Ben").parent.iterdir()}
    assert _sheet_name("Ben", capsys) == "Ben"
    assert _sheet_name("ben", capsys) == "ben"
    said = (f"'BEN' could be the saved character 'Ben' ({sheet_path('Ben')}) or the saved "
            f"character 'ben' ({sheet_path('ben')}), apart only by case: give the name as it "
            "is written")
    for command in (["sheet", "BEN"], ["fight", "new", "--party", "BEN", "--monsters", "orc"],
                    ["calendar", "curse", "pc2", "BEN"]):
        assert main(["genso", *command]) == 2
        assert said in capsys.readouterr().err


def test_a_saved_character_and_a_key_apart_only_by_case(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A character saved as PC1 or Orc keeps the preset pc1 and the monster orc to their own
    spelling, and is told so; another case of it is refused as either."""
    assert main(["genso", "new", "PC1", *NEW]) == 0
    assert ("note: 'PC1' names this saved character, and the preset 駆け出し冒険者１ (pc1) "
            "keeps its own spelling") in capsys.readouterr().err
    assert _sheet_name("PC1", capsys) == "PC1"
    assert _sheet_name("pc1", capsys) == "駆け出し冒険者１"
    assert main(["genso", "sheet", "Pc1"]) == 2
    assert (f"'Pc1' could be the saved character 'PC1' ({sheet_path('PC1')}) or the preset "
            "'pc1'") in capsys.readouterr().err
    assert main(["genso", "new", "Orc_warrior", *NEW]) == 0
    assert "the monster オーク・ウォーリア/Orc Warrior (orc_warrior) keeps its own spelling" in \
        capsys.readouterr().err
    assert main(["genso", "check", "opposed", "--sheet", "pc2", "--vs", "orc_warrior",
                 "--seed", "1"]) == 0
    assert "オーク・ウォーリア" in capsys.readouterr().out
    assert main(["genso", "check", "opposed", "--sheet", "pc2", "--vs", "Orc_warrior",
                 "--seed", "1"]) == 0
    assert "オーク・ウォーリア" not in capsys.readouterr().out
    assert main(["genso", "check", "opposed", "--sheet", "pc2", "--vs", "ORC_WARRIOR"]) == 2
    assert ("'ORC_WARRIOR' could be the sheet of Orc_warrior or the monster "
            "オーク・ウォーリア/Orc Warrior (orc_warrior), apart only by case") in \
        capsys.readouterr().err


def test_a_monster_key_in_another_case_is_noted_by_what_each_command_takes(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewa73 DEFECT 2: beside a saved Orc_warrior the note said any other case of it was
    refused by `genso sheet`, `fight new --party` and `check --vs`; only `check --vs` refuses
    it. The note says what each does, and each does it."""
    assert main(["genso", "new", "Orc_warrior", *NEW]) == 0
    err = capsys.readouterr().err
    assert ("note: 'Orc_warrior' names this saved character, and the monster オーク・ウォーリア/"
            "Orc Warrior (orc_warrior) keeps its own spelling; in any other case `genso sheet` "
            "and `fight new --party` take this character, `fight new --monsters` the monster, "
            "and `check --vs` refuses it as either") in err
    assert "is refused as either" not in err
    assert _sheet_name("ORC_WARRIOR", capsys) == "Orc_warrior"
    assert main(["genso", "fight", "new", "--party", "ORC_WARRIOR", "--monsters", "ORC_WARRIOR",
                 "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["combatants"]
    assert [c["name"] for c in shown] == ["Orc_warrior", "オーク・ウォーリア"]
    assert main(["genso", "check", "opposed", "--sheet", "pc2", "--vs", "ORC_WARRIOR"]) == 2
    assert "could be the sheet of Orc_warrior or the monster" in capsys.readouterr().err


def test_a_character_apart_from_a_saved_one_only_by_case_is_refused_unless_forced(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewa73 NIT 4: `genso new kit` beside a saved Kit made a second character without a
    word, though `genso sheet kit` shows Kit; from then on KIT was refused as either. It is
    refused, naming the saved file and how to make it anyway, before anything is rolled;
    with --force it is made, and said; --save-as into the folder the same."""
    assert main(["genso", "new", "Kit", *NEW]) == 0
    capsys.readouterr()
    kit = sheet_path("Kit")
    for name in ("kit", "ｋｉｔ"):
        how = "case" if name == "kit" else "case or width"
        assert main(["genso", "new", name, *NEW]) == 2
        assert (f"error: {name!r} would be a second character beside the saved 'Kit' ({kit}), "
                f"apart only by {how}: `genso sheet {name}` finds 'Kit' now, and with two, "
                "only each one's own spelling finds it. Give 'Kit' (with --force to replace "
                f"it) or another name, or pass --force to save {name}.toml beside it") in \
            capsys.readouterr().err
        assert not sheet_path(name).exists()
    assert main(["genso", "sheet", "pc1", "--save-as", str(sheet_path("KIT"))]) == 2
    assert "'KIT' would be a second character beside the saved 'Kit'" in capsys.readouterr().err
    assert main(["genso", "new", "kit", *NEW, "--force"]) == 0
    assert (f"note: 'kit' is saved beside the character 'Kit' ({kit}), apart only by case: "
            "each is found by its own spelling only") in capsys.readouterr().err
    assert _sheet_name("Kit", capsys) == "Kit" and _sheet_name("kit", capsys) == "kit"


def test_a_monster_typed_in_full_width_is_found_as_a_sheet_is(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewa73 NIT 8: ＯＲＣ, as an IME types it, was 'no monster' while ｋｉｔ found a
    sheet; a refusal for a name apart in width says "case or width", not "case"."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "ＯＲＣ:2",
                 "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["combatants"]
    assert [c["name"] for c in shown] == ["駆け出し冒険者１", "オーク1", "オーク2"]
    assert main(["genso", "new", "Orc", *NEW]) == 0
    capsys.readouterr()
    assert main(["genso", "check", "opposed", "--sheet", "pc2", "--vs", "ｏＲＣ"]) == 2
    assert ("'ｏＲＣ' could be the sheet of Orc or the monster オーク/Orc (orc), apart only by "
            "case or width") in capsys.readouterr().err
