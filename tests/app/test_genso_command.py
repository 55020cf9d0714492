"""``companion genso fight``: the names an ACTOR or TARGET may be typed as."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.modes.genso_fight_files import sheet_path
from companion.app.paths import data_dir


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    dice = argv[0] == "fight" and argv[1] != "new"  # an action rolls: repeatable dice
    assert main(["genso", *argv, "--json", *(["--seed", "5"] if dice else [])]) == 0, \
        capsys.readouterr().err
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def journal() -> list[dict[str, Any]]:
    saved = json.loads((data_dir() / "genso" / "fight.json").read_text(encoding="utf-8"))
    entries: list[dict[str, Any]] = saved["journal"]
    return entries


PRESET_PC = "駆け出し冒険者１"  # the presets write their digits full width, monsters half


@pytest.mark.parametrize("actor, target", [
    ("pc1", "オーク1"),  # the key the fight was made with
    ("駆け出し冒険者1", "オーク1"),  # an ASCII digit for the preset's full-width one
    ("駆け出し冒険者１", "オーク１"),  # a full-width digit for the monster's ASCII one
    ("ｐｃ１", "ｵｰｸ1"),  # a Japanese keyboard's full-width key, half-width katakana
])
def test_a_combatant_is_found_by_its_key_or_either_width(
        actor: str, target: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2")
    data = run(capsys, "fight", "attack", actor, target)
    assert data["entry"]["action"]["actor"] == PRESET_PC
    # The journal keeps the fight's own names: a file reads the same to any version.
    assert journal()[0]["action"]["actor"] == PRESET_PC
    assert journal()[0]["action"]["target"] == "オーク1"
    assert data["current"] == "駆け出し冒険者２"


def test_an_unknown_actor_is_no_combatant_not_someone_elses_turn(
        capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2")
    for argv in (("attack", "Nobody", "オーク1"), ("wait", "Nobody")):
        assert main(["genso", "fight", *argv]) == 2
        err = capsys.readouterr().err
        assert ("no combatant 'Nobody' in this fight (駆け出し冒険者１ PC 1 = pc1, "
                "駆け出し冒険者２ PC 2 = pc2, オーク1 Orc 1 = orc1, オーク2 Orc 2 = orc2)") in err
        assert "turn" not in err
    assert main(["genso", "fight", "attack", "pc1", "Nobody"]) == 2
    assert "no combatant 'Nobody'" in capsys.readouterr().err
    # Someone in the fight whose turn it is not is still told whose turn it is.
    assert main(["genso", "fight", "attack", "pc2", "オーク1"]) == 2
    assert "it is 駆け出し冒険者１'s turn, not 駆け出し冒険者２'s" in capsys.readouterr().err


def test_a_sheet_file_names_the_pc_made_from_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "aki.toml"
    assert main(["genso", "sheet", "pc1", "--save-as", str(sheet)]) == 0
    capsys.readouterr()
    run(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    data = run(capsys, "fight", "attack", str(sheet), "オーク")
    assert data["entry"]["action"]["actor"] == PRESET_PC


def test_cast_and_stone_targets_are_found_alike(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "fight", "new", "--party", "pc2", "pc1", "--monsters", "orc:2")
    data = run(capsys, "fight", "cast", "pc2", "healing", "駆け出し冒険者1")
    assert data["entry"]["action"]["targets"] == [PRESET_PC]


def test_the_shipped_example_sheet_joins_a_fight_by_its_file_name(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """docs/examples/aki.toml (docs/sheets.md) is a sheet `genso sheet` reads and a fight
    takes; typed as its file name it names its PC. It is played from a copy, as its header
    says: the example itself is not taken into a fight (a78journey RISK 2)."""
    shutil.copy(Path(__file__).resolve().parents[2] / "docs" / "examples" / "aki.toml",
                tmp_path / "aki.toml")
    monkeypatch.chdir(tmp_path)
    shown = run(capsys, "sheet", "aki.toml")
    assert shown["sheet"]["name"] == "Aki" and shown["derived"]["max_hp"]["total"] == 8
    assert shown["derived"]["warnings"] == []
    run(capsys, "fight", "new", "--party", "aki.toml", "pc1", "--monsters", "orc:2")
    data = run(capsys, "fight", "attack", "aki.toml", "オーク１")
    assert data["entry"]["action"]["actor"] == "Aki"


def test_the_example_sheet_names_each_tables_own_rule() -> None:
    """docs/examples/aki.toml said `birth` was "a row of the birth table (GM-CHAR-2)"; the
    birth table is GM-CHAR-1 (GM-CHAR-2 is what the PC wants). Each table field's comment
    names the rule the rules data gives that table."""
    from companion.systems.genso.rules import load_rules

    tables = load_rules().tables
    sheet = (Path(__file__).resolve().parents[2] / "docs" / "examples" / "aki.toml").read_text(
        encoding="utf-8")
    named = {line.split("=")[0].strip(): line.rpartition("(")[2].rstrip(")")
             for line in sheet.splitlines() if line.split("=")[0].strip() in tables}
    assert named == {key: tables[key].rule for key in ("birth", "want", "dislike")}


def test_a_monster_is_named_by_the_key_it_was_brought_in_with(
        capsys: pytest.CaptureFixture[str]) -> None:
    """docs/sheets.md: a combatant is found by what it was brought in with. After
    `--monsters orc`, `fight attack pc1 orc` gave "no combatant 'orc'"; the key now names
    the orc, and of `orc:2` orc2 names オーク2 while orc alone is refused, naming both."""
    run(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc")
    assert run(capsys, "fight", "attack", "pc1", "orc")["entry"]["action"]["target"] == "オーク"
    run(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc:2", "--force")
    assert run(capsys, "fight", "attack", "pc1", "orc2")["entry"]["action"]["target"] == \
        "オーク2"
    assert main(["genso", "fight", "attack", "オーク1", "orc"]) == 2
    assert "it could be オーク1 Orc 1 = orc1 or オーク2 Orc 2 = orc2" in capsys.readouterr().err


@pytest.mark.parametrize("monsters, names", [
    (("orc:2", "orc"), ["オーク1", "オーク2", "オーク3"]),
    (("orc", "orc"), ["オーク1", "オーク2"]),
    (("orc", "ghost", "orc:2"), ["オーク1", "オーク2", "オーク3", "ゴースト"]),
])
def test_a_monster_key_given_twice_is_counted_once(
        monsters: tuple[str, ...], names: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """genso72 DEFECT 1: ``--monsters orc:2 orc`` numbered each group apart, so the third
    orc was オーク beside オーク1 and オーク2: ``orc`` named all three and there was no
    ``orc3``, and only Japanese input reached it on its turn; ``orc orc`` was refused
    ("every combatant needs its own name"). The counts of a key are added up first."""
    data = run(capsys, "fight", "new", "--party", "pc1", "--monsters", *monsters)
    assert [c["name"] for c in data["combatants"] if c["side"] == "enemy"] == names
    last = f"orc{len([n for n in names if n.startswith('オーク')])}"
    assert run(capsys, "fight", "attack", "pc1", last)["entry"]["action"]["target"] == \
        names[len([n for n in names if n.startswith("オーク")]) - 1]


def test_the_key_alone_names_the_unnumbered_monster_of_an_older_fight(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A fight saved before the counts were added up keeps オーク beside オーク1 and オーク2
    (its file holds the names): ``orc`` now names the one of no number, on its turn."""
    run(capsys, "fight", "new", "--party", "pc1", "--monsters", "orc:3")
    path = data_dir() / "genso" / "fight.json"
    saved = json.loads(path.read_text(encoding="utf-8"))
    saved["entrants"][-1]["name"] = "オーク"  # as `--monsters orc:2 orc` made it
    path.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
    for actor in ("pc1", "orc1", "orc2"):
        run(capsys, "fight", "wait", actor)
    assert run(capsys, "fight", "attack", "orc", "pc1")["entry"]["action"]["actor"] == "オーク"


@pytest.mark.parametrize("typed, name", [
    ("Orc 2", "オーク2"), ("orc2", "オーク2"), ("Orc Warrior", "オーク・ウォーリア"),
    ("orc warrior", "オーク・ウォーリア"), ("PC 2", "駆け出し冒険者２"),
])
def test_a_combatant_is_found_by_the_english_fight_show_prints(
        typed: str, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """genso72 NIT 6: the help names a combatant "as `fight show` lists it", which is
    オーク2 Orc 2; "Orc 2" and "Orc Warrior" were refused, and the refusal named only the
    Japanese. The English names it when nothing else does, and a refusal lists each
    combatant with a name to type."""
    run(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2", "orc_warrior")
    assert run(capsys, "fight", "attack", "pc1", typed)["entry"]["action"]["target"] == name
    assert main(["genso", "fight", "attack", "pc2", "Nobody"]) == 2
    assert ("(駆け出し冒険者１ PC 1 = pc1, 駆け出し冒険者２ PC 2 = pc2, オーク1 Orc 1 = orc1, "
            "オーク2 Orc 2 = orc2, オーク・ウォーリア Orc Warrior = orc_warrior)"
            in capsys.readouterr().err)


def test_a_pc_key_is_not_taken_for_another_pcs_english(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The English of a PC is its place among the PCs: after ``--party pc2 pc1``, "PC 1" is
    pc2's; the key pc1 still names pc1 alone."""
    run(capsys, "fight", "new", "--party", "pc2", "pc1", "--monsters", "orc")
    assert run(capsys, "fight", "attack", "pc2", "pc1")["entry"]["action"]["target"] == \
        "駆け出し冒険者１"


@pytest.mark.parametrize("typed", ["PC1", "Pc1", "ｐｃ１", "pc1"])
def test_a_preset_key_in_any_case_names_its_pc_not_the_pc_whose_english_it_reads_as(
        typed: str, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg72 RISK 2: after ``--party pc2 pc1``, pc2 is "PC 1"; `PC1` (as `ORC1` is orc1)
    acted for pc2 through that English, its spaces and case dropped. A preset key is matched
    in any case, and the English with its spaces kept: `PC1` is pc1, whose turn it is not,
    and "PC 1" as `fight show` prints it is still pc2."""
    run(capsys, "fight", "new", "--party", "pc2", "pc1", "--monsters", "orc:2")
    assert main(["genso", "fight", "attack", typed, "orc1", "--seed", "1"]) == 2
    assert "it is 駆け出し冒険者２'s turn, not 駆け出し冒険者１'s" in capsys.readouterr().err
    assert journal() == []
    assert run(capsys, "fight", "attack", "pc2", typed)["entry"]["action"]["target"] == \
        "駆け出し冒険者１"
    assert run(capsys, "fight", "wait", "PC 2")["entry"]["action"]["actor"] == "駆け出し冒険者１"
    assert run(capsys, "fight", "wait", "orc 1")["entry"]["action"]["actor"] == "オーク1"


def test_the_english_of_sheet_pcs_is_not_read_as_a_preset_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg72 RISK 2: with a party of sheet files, `pc2` named the second one through its
    English "PC 2". No one was brought in as pc2: it is refused, listing what to type."""
    sheets = [tmp_path / "a.toml", tmp_path / "b.toml"]
    for preset, sheet in zip(("pc1", "pc2"), sheets, strict=True):
        assert main(["genso", "sheet", preset, "--save-as", str(sheet)]) == 0
    capsys.readouterr()
    run(capsys, "fight", "new", "--party", *map(str, sheets), "--monsters", "orc")
    assert main(["genso", "fight", "wait", "pc2"]) == 2
    assert (f"no combatant 'pc2' in this fight (駆け出し冒険者１ PC 1 = {sheets[0]}, "
            f"駆け出し冒険者２ PC 2 = {sheets[1]}, オーク Orc = orc)") in capsys.readouterr().err
    assert run(capsys, "fight", "wait", "pc 1")["entry"]["action"]["actor"] == "駆け出し冒険者１"


def test_a_saved_character_brought_in_by_a_monster_key_beside_that_monster_is_refused_as_either(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg72 RISK 2: a character saved as orc, brought in as `--party orc` beside
    `--monsters orc`: `orc` names both, and the unnumbered monster's tie-break (meant for
    オーク beside オーク1 and オーク2) made it the monster, on the PC's turn too. It is refused
    again, listing both with what to type: not `orc`, which names either (finalb72
    DEFECT 1), but what names each alone."""
    assert main(["genso", "sheet", "pc1", "--save-as", str(sheet_path("orc"))]) == 0
    capsys.readouterr()
    run(capsys, "fight", "new", "--party", "orc", "--monsters", "orc")
    for argv in (("attack", PRESET_PC, "orc"), ("wait", "orc"), ("wait", "ORC")):
        assert main(["genso", "fight", *argv, "--seed", "1"]) == 2
        assert ("in this fight (駆け出し冒険者１ PC = PC, オーク Orc = orc1); "
                "it could be オーク Orc = orc1 or 駆け出し冒険者１ PC = PC"
                ) in capsys.readouterr().err
    assert journal() == []
    assert run(capsys, "fight", "attack", PRESET_PC, "オーク")["entry"]["action"]["target"] == \
        "オーク"


NEW = ("--body", "6", "--perception", "5", "--magic", "4", "--skill", "magic", "--seed", "1")


def test_a_saved_character_named_as_a_monster_key_is_refused_as_either_and_listed_apart(
        capsys: pytest.CaptureFixture[str]) -> None:
    """finalb72 DEFECT 1: a character saved as ``genso new orc1`` beside ``--monsters orc:2``:
    its exact name came first, so ``attack pc2 orc1`` struck the PC without a word, and the
    refusal listed ``オーク1 Orc 1 = orc1``, telling the player to type it for the monster.
    ``orc1`` names either, in any case, and is refused; each is listed by what names it
    alone."""
    assert main(["genso", "new", "orc1", *NEW]) == 0
    capsys.readouterr()
    run(capsys, "fight", "new", "--party", "orc1", "pc2", "--monsters", "orc:2")
    for argv in (("wait", "orc1"), ("wait", "ORC1"), ("wait", "Orc1"),
                 ("attack", "pc2", "orc1")):
        assert main(["genso", "fight", *argv, "--seed", "2"]) == 2
        assert "it could be orc1 PC 1 = \"PC 1\" or オーク1 Orc 1 = \"Orc 1\"" in \
            capsys.readouterr().err
    assert main(["genso", "fight", "wait", "Nobody"]) == 2
    assert ("no combatant 'Nobody' in this fight (orc1 PC 1 = \"PC 1\", "
            "駆け出し冒険者２ PC 2 = pc2, オーク1 Orc 1 = \"Orc 1\", オーク2 Orc 2 = orc2)"
            ) in capsys.readouterr().err
    assert journal() == []
    assert run(capsys, "fight", "wait", "PC 1")["entry"]["action"]["actor"] == "orc1"
    assert run(capsys, "fight", "attack", "pc2", "Orc 1")["entry"]["action"]["target"] == \
        "オーク1"


@pytest.mark.parametrize("typed", ["orc", "ORC", "Orc"])
def test_a_saved_characters_name_is_matched_in_any_case_as_a_key_is(
        typed: str, capsys: pytest.CaptureFixture[str]) -> None:
    """finalb72 DEFECT 1: with ``genso new orc`` beside ``--monsters orc``, ``orc`` named the
    PC and ``ORC`` or ``Orc`` the monster; each is refused as either."""
    assert main(["genso", "new", "orc", *NEW]) == 0
    capsys.readouterr()
    run(capsys, "fight", "new", "--party", "orc", "pc1", "--monsters", "orc")
    run(capsys, "fight", "wait", "PC 1")
    assert main(["genso", "fight", "attack", "pc1", typed, "--seed", "2"]) == 2
    assert "it could be orc PC 1 = \"PC 1\" or オーク Orc = orc1" in capsys.readouterr().err
    assert len(journal()) == 1


def test_a_saved_character_named_as_a_preset_key_is_named_in_any_case(
        capsys: pytest.CaptureFixture[str]) -> None:
    """finalb72 NIT 2: a saved character pc1 was not found by ``PC1``, as the preset is."""
    assert main(["genso", "new", "pc1", *NEW]) == 0
    capsys.readouterr()
    run(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2")
    assert run(capsys, "fight", "wait", "PC1")["entry"]["action"]["actor"] == "pc1"


def test_a_refusal_names_a_sheet_by_what_finds_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A PC brought in from a sheet is listed by what names it from any folder: a saved
    character by its name, another sheet file by its whole path (its bare file name, typed
    elsewhere, names no one)."""
    outside = tmp_path / "di.toml"
    assert main(["genso", "sheet", "pc1", "--save-as", str(outside)]) == 0
    assert main(["genso", "new", "Bo", "--body", "6", "--perception", "5", "--magic", "4",
                 "--skill", "combat", "--seed", "1"]) == 0
    capsys.readouterr()
    run(capsys, "fight", "new", "--party", str(outside), "Bo", "--monsters", "orc")
    assert main(["genso", "fight", "wait", "Nobody"]) == 2
    err = capsys.readouterr().err
    assert f"(駆け出し冒険者１ PC 1 = {outside}, Bo PC 2 = Bo, オーク Orc = orc)" in err, err
    assert run(capsys, "fight", "wait", str(outside))["entry"]["action"]["actor"] == \
        "駆け出し冒険者１"


@pytest.mark.parametrize("cap, said", [
    ("true", ": HP 10/10 (HP full already: nothing healed 回復なし)"), ("false", ": HP 16/10"),
])
def test_a_heal_at_full_hp_says_it_healed_nothing_only_when_it_did(
        cap: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """genso72 NIT 8 (engine revision 8): Healing on one at full HP says it healed nothing;
    but with GM-MAGIC-2 ``cap_at_max_hp`` off a heal goes past the maximum (pc2's Magic 6 on
    its HP 10/10), and it said "HP 16/10 (HP full already: nothing healed)" (reviewg72
    NIT 3's follow-up)."""
    run(capsys, "fight", "new", "--party", "pc2", "pc1", "--monsters", "orc",
        "--set", f"GM-MAGIC-2.cap_at_max_hp={cap}")
    entry = run(capsys, "fight", "cast", "pc2", "healing", "pc2")["entry"]
    assert entry["lines"][-1]["text"].endswith(said)
