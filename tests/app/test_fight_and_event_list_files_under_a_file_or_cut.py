"""hist68's NITs on the files a fight and the event lists keep, fixed.

NIT 2: a file where ``<data>/genso`` should be was taken for a fight saved there ("a fight
is saved at …/genso/fight.json; pass --force", then "File exists"), and a file where
``<data>/events`` should be was "…/events/poisoned.toml: Not a directory": the folder in the
way is named now. NIT 3: an empty, zeroed or cut fight file, and a zeroed, cut or binary
kept list, were said in the parsers' words ("Expecting value: line 1 column 1 (char 0)",
"Invalid statement (at line 1, column 1)", "'utf-8' codec can't decode byte 0x93"); they
are said as a save's faults are (empty, all zero bytes, cut short after N bytes)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_command
from companion.app.modes.fight_file import read_fight_data
from companion.app.paths import data_dir
from companion.errors import DataError
from companion.files import file_there
from tests.app.genso_json_helpers import genso
from tests.app.kept_aside_helpers import a_file_in_the_folder_s_place, blocked, kept_list


def new_fight(tmp_path: Path, capsys: pytest.CaptureFixture[str], *more: str) -> int:
    sheet = tmp_path / "aki.toml"
    if not sheet.exists():
        genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    return main(["genso", "fight", "new", "--party", str(sheet), "--monsters", "orc:1", *more])


# --- NIT 2 --------------------------------------------------------------------------------


def test_fight_new_with_a_file_where_the_genso_folder_should_be_names_that_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Neither "a fight is saved at …; pass --force", nor, with --force, "File exists"."""
    genso(capsys, "sheet", "pc1", "--save-as", str(tmp_path / "aki.toml"))
    folder = a_file_in_the_folder_s_place("genso")
    for force in ([], ["--force"]):
        assert new_fight(tmp_path, capsys, *force) == 1
        assert capsys.readouterr() == ("", blocked(folder, "fight.json"))
    assert main(["genso", "fight", "show"]) == 1
    assert capsys.readouterr().err == blocked(folder, "fight.json")
    assert folder.read_text() == "x\n"  # left as it is


def test_the_table_s_read_of_a_fight_under_a_file_names_the_folder() -> None:
    folder = a_file_in_the_folder_s_place("genso")
    with pytest.raises(DataError) as raised:
        read_fight_data(folder / "fight.json", "companion genso fight new")
    assert f"{raised.value}\n" == blocked(folder, "fight.json").removeprefix(
        "companion: error: ")


@pytest.mark.parametrize(("argv", "held"), [
    (["poisoned"], "poisoned.toml"), (["rooms"], "recovery_rooms.toml")])
def test_the_event_lists_under_a_file_name_the_folder(
        capsys: pytest.CaptureFixture[str], argv: list[str], held: str) -> None:
    folder = a_file_in_the_folder_s_place("events")
    assert main(["events", *argv]) == 1
    assert capsys.readouterr() == ("", blocked(folder, held))


def test_file_there_names_the_file_in_a_folder_s_place(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("")
    with pytest.raises(NotADirectoryError) as raised:
        file_there(tmp_path / "a" / "b" / "c.toml")
    assert (raised.value.errno, raised.value.filename) == (errno.ENOTDIR, str(tmp_path / "a"))
    assert raised.value.strerror == ("a file where a folder should be (to hold b/c.toml); "
                                     "move it away")
    assert not file_there(tmp_path / "none" / "c.toml")


# --- NIT 3 --------------------------------------------------------------------------------


@pytest.mark.parametrize(("cut", "said"), [
    (lambda whole: b"", "the fight file is empty"),
    (lambda whole: b"\0" * len(whole), "the fight file is all zero bytes: a power cut as it "
                                       "was written?"),
    (lambda whole: whole[:500], "the fight file ends in the middle: cut short after 500 "
                                "bytes"),
])
def test_an_empty_zeroed_or_cut_fight_file_is_said_as_a_save_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cut: object, said: str) -> None:
    assert new_fight(tmp_path, capsys) == 0
    capsys.readouterr()
    path = data_dir() / "genso" / "fight.json"
    assert callable(cut)
    path.write_bytes(cut(path.read_bytes()))
    before = path.read_bytes()
    assert main(["genso", "fight", "show"]) == 2
    # with the next step coc's says (reviewh70 NIT 5)
    assert capsys.readouterr().err == (
        f"companion: error: {path}: not JSON ({said}); it cannot be played on: "
        f"`{companion_command()} genso fight new --party pc1 pc2 --monsters orc:2 --force` "
        "starts a new fight, keeping this "
        "file as fight.json.corrupt-…\n")
    with pytest.raises(DataError) as raised:  # as the table reads it
        read_fight_data(path, "companion genso fight new")
    assert str(raised.value) == f"{path}: not JSON ({said})"
    assert path.read_bytes() == before  # left in place


@pytest.mark.parametrize(("data", "said"), [
    (b"\0" * 64, "the file is all zero bytes: a power cut as it was written?"),
    (b"\0\0\n  \0", "the file is nothing but zero bytes and blank space (spaces, line ends): "
                    "a power cut as it was written?"),
    (b'[[poison]]\nname = "sle', "the file ends in the middle: cut short after 22 bytes"),
    (b'[[poison]]\nname = "\xe3\x81', "the file ends in the middle: cut short after 21 bytes"),
    (b"\x93abc = 1", "not UTF-8 text (byte 1 cannot be read)"),
    (b"\xef\xbb\xbfa = 1\n\xff", "not UTF-8 text (byte 10 cannot be read)"),
])
def test_a_kept_list_zeroed_cut_or_not_text_is_said_as_a_save_is(
        tmp_path: Path, data: bytes, said: str) -> None:
    path = tmp_path / "poisoned.toml"
    assert kept_list(path, data) == [f"{path} is not a list of poisons ({said})"]


def test_a_kept_list_that_is_other_toml_gives_the_parser_s_words(tmp_path: Path) -> None:
    path = tmp_path / "poisoned.toml"
    assert kept_list(path, b"a = 1\n= 2\n") == [
        f"{path} is not a list of poisons (Invalid statement (at line 2, column 1))"]
