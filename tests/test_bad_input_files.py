"""The files a player or a tool may damage, read by the commands and readers that use them:
each bad one is an error or a notice naming it, never a traceback, and a link to a file
that is gone is never read as "no file" (fuzz audit findings 4, 7 and 8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.camera_settings import (
    CALIBRATION_FILE,
    SLOT_LOOKS_FILE,
    load_settings,
    load_slot_looks,
    read_settings,
)
from companion.app.cli import main
from companion.app.modes.fight_file import read_fight_data
from companion.errors import DataError
from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.mat import MatGeometry
from companion.hw.camera.reader import ReaderSettings
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.rfid.tagmap import TagMap
from companion.systems.events.lists import load_lists
from companion.systems.events.sword_world import load_party

DEEP = 3000
DEEP_JSON = "[" * DEEP + "]" * DEEP
DEEP_TOML = "v = " + DEEP_JSON + "\n"

COC_SHEET = """name = "Cult"
[characteristics]
STR = 13
CON = 12
POW = 10
DEX = 10
APP = 10
SIZ = 13
INT = 12
EDU = 12
[skills]
kick = 60
"""


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("where, text, argv", [
    ("data/coc/fight.json", DEEP_JSON, ["coc", "fight", "show"]),
    ("data/genso/fight.json", DEEP_JSON, ["genso", "fight", "show"]),
    ("config/coc.toml", DEEP_TOML, ["coc", "defaults"]),
    ("config/genso.toml", DEEP_TOML, ["genso", "defaults"]),
    ("deep.toml", DEEP_TOML, ["genso", "sheet", "{file}"]),
    ("deep.toml", DEEP_TOML, ["coc", "fight", "new", "--investigators", "{file}", "--foes",
                              "{cult}"]),
    ("deep.toml", DEEP_TOML, ["play", "--headless", "--seed", "1", "--profile", "{file}"]),
])
def test_a_file_nested_thousands_deep_is_an_error_naming_it(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], where: str, text: str,
        argv: list[str]) -> None:
    path = _write(user_dirs / where, text)
    cult = _write(user_dirs / "cult.toml", COC_SHEET)
    assert main([arg.format(file=path, cult=cult) for arg in argv]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "nested too deeply" in err and "Traceback" not in err


@pytest.mark.parametrize("where, argv, status", [
    # `config --show` is the check of the settings: a problem exits 1 (setup64 RISK 1)
    ("config/config.toml", ["config", "--show"], 1),
    ("data/events/poisoned.toml", ["events", "poisoned"], 0),
])
def test_a_settings_or_kept_list_nested_thousands_deep_gets_a_notice(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], where: str,
        argv: list[str], status: int) -> None:
    path = _write(user_dirs / where, DEEP_TOML)
    assert main(argv) == status
    err = capsys.readouterr().err
    assert str(path) in err and "nested too deeply" in err


def test_the_readers_files_nested_thousands_deep_are_data_errors(tmp_path: Path) -> None:
    deep = _write(tmp_path / "deep.toml", DEEP_TOML)
    for read in (TagMap.load, ReaderConfig.load):
        with pytest.raises(DataError, match="nested too deeply") as err:
            read(deep)
        assert str(deep) in str(err.value)
    with pytest.raises(ValueError, match="nested too deeply"):
        read_settings(DEEP_TOML, ReaderSettings(3, 0.6))
    with pytest.raises(DataError, match=f"{deep}: not TOML \\(nested too deeply"):
        load_lists(DEEP_TOML, str(deep))
    with pytest.raises(DataError, match=f"{deep}: not TOML \\(nested too deeply"):
        load_party(DEEP_TOML, str(deep))
    with pytest.raises(DataError, match=f"{deep}: cannot read the mat geometry: .*nested too"):
        MatGeometry.load(deep)
    fight = _write(tmp_path / "fight.json", DEEP_JSON)
    with pytest.raises(DataError, match=f"{fight}: not JSON \\(nested too deeply"):
        read_fight_data(fight, "companion coc fight new")


@pytest.mark.parametrize("where, argv", [
    ("config/coc.toml", ["coc", "defaults"]),
    ("config/genso.toml", ["genso", "defaults"]),
    ("data/coc/fight.json", ["coc", "fight", "show"]),
    ("data/genso/fight.json", ["genso", "fight", "show"]),
    ("config/events_lists.toml", ["events", "door", "--dice", "sim"]),
    ("data/genso/characters/Aki.toml", ["genso", "sheet", "Aki"]),
])
def test_a_link_to_a_file_that_is_gone_is_named_not_taken_as_no_file(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], where: str,
        argv: list[str]) -> None:
    link = user_dirs / where
    link.parent.mkdir(parents=True, exist_ok=True)
    gone = user_dirs / "usb-stick" / link.name  # a drive not plugged in
    link.symlink_to(gone)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{link} is a link to {gone}, which is not there" in err


def test_the_readers_links_to_files_that_are_gone_are_named(tmp_path: Path) -> None:
    link = tmp_path / "settings.toml"
    link.symlink_to(tmp_path / "gone.toml")
    for read in (TagMap.load, ReaderConfig.load):
        with pytest.raises(DataError, match="which is not there") as err:
            read(link)
        assert str(link) in str(err.value)


def test_camera_settings_behind_a_link_to_nothing_are_named(user_dirs: Path) -> None:
    config = user_dirs / "config"
    config.mkdir()
    (config / SLOT_LOOKS_FILE).symlink_to(user_dirs / "gone.npz")
    with pytest.raises(DataError, match=f"{config / SLOT_LOOKS_FILE} is a link"):
        load_slot_looks(MatGeometry.load())
    (config / CALIBRATION_FILE).symlink_to(user_dirs / "gone.toml")
    with pytest.raises(DataError, match=f"{config / CALIBRATION_FILE} is a link"):
        load_settings(TileClassifier())


def test_a_save_that_is_a_symlink_loop_is_an_error_naming_it(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = user_dirs / "data"
    data.mkdir()
    (data / "loop_a").symlink_to("loop_b")
    (data / "loop_b").symlink_to("loop_a")
    (data / "save.json").symlink_to("loop_a")
    # 1: a file that cannot be used, as any OSError of a path (2 is for bad arguments)
    assert main(["play", "--headless", "--seed", "1", "--resume"]) == 1
    err = capsys.readouterr().err
    assert f"{data / 'save.json'}: a symbolic link that leads back to itself" in err


def test_a_folder_in_place_of_a_settings_file_is_named_once(user_dirs: Path) -> None:
    config = user_dirs / "config"
    (config / CALIBRATION_FILE).mkdir(parents=True)
    (config / "rfid_tags.toml").mkdir()
    with pytest.raises(DataError) as err:
        load_settings(TileClassifier())
    assert str(err.value) == (f"{config / CALIBRATION_FILE}: cannot be read (Is a directory); "
                              "fix it or calibrate again")
    with pytest.raises(DataError) as err:
        TagMap.load(config / "rfid_tags.toml")
    assert str(err.value) == (f"{config / 'rfid_tags.toml'}: cannot read the RFID tag map: "
                              "Is a directory")


@pytest.mark.parametrize("where, argv", [
    ("data/coc/fight.json", ["coc", "fight", "new", "--investigators", "{cult}", "--foes",
                             "{cult2}", "--force"]),
    ("data/genso/fight.json", ["genso", "fight", "new", "--party", "pc1", "--monsters", "orc",
                               "--force"]),
])
def test_fight_new_force_keeps_a_fight_file_it_cannot_read_aside(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], where: str,
        argv: list[str]) -> None:
    path = _write(user_dirs / where, '{"format": 2, "entrants": [null]')
    cult = _write(user_dirs / "cult.toml", COC_SHEET)
    cult2 = _write(user_dirs / "cult2.toml", COC_SHEET.replace('"Cult"', '"Cult2"'))
    assert main([arg.format(cult=cult, cult2=cult2) for arg in argv]) == 0
    err = capsys.readouterr().err
    (kept,) = path.parent.glob("fight.json.corrupt-*")
    assert kept.read_text(encoding="utf-8") == '{"format": 2, "entrants": [null]'
    assert f"the file replaced could not be read ({path}: " in err and kept.name in err
    assert json.loads(path.read_text(encoding="utf-8"))  # the new fight


def test_fight_new_force_over_a_fight_it_reads_keeps_it_as_replaced(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """newuser55 #10: --force deleted the fight there with no copy; it is kept, as a game
    save another game replaces is, and the refusal before it says so."""
    new = ["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]
    assert main(new) == 0
    folder = user_dirs / "data" / "genso"
    old = (folder / "fight.json").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(new) == 2
    assert capsys.readouterr().err.endswith(
        f"a fight is saved at {folder / 'fight.json'}; pass --force to start over, "
        "keeping it as fight.json.replaced-…; or end it first with `companion genso fight "
        "end`\n")  # (a fight under way: review59a D3, ended and applied it is written over)
    assert main([*new, "--force"]) == 0
    (kept,) = folder.glob("fight.json.replaced-*")
    assert kept.read_text(encoding="utf-8") == old
    assert sorted(p.name for p in folder.iterdir()) == ["fight.json", kept.name]
    assert (f"companion: note: the fight replaced is kept as {kept.name}, beside fight.json: "
            f"companion genso fight show --file {kept} shows it") in capsys.readouterr().err
    assert main(["genso", "fight", "show", "--file", str(kept)]) == 0


def test_fight_new_force_refused_for_a_bad_sheet_leaves_the_old_file_where_it_was(
        user_dirs: Path) -> None:
    path = _write(user_dirs / "data/coc/fight.json", "not a fight")
    bad = _write(user_dirs / "bad.toml", "name = ")
    assert main(["coc", "fight", "new", "--investigators", str(bad), "--foes", str(bad),
                 "--force"]) == 2
    assert [p.name for p in path.parent.iterdir()] == ["fight.json"]
