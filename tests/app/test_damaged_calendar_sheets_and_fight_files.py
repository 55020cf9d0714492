"""reviewh70's findings on the damaged genso calendar and sheets, and the fight files, fixed.

D1: a damaged calendar or sheet named the copy a write cut short left beside it, yet gave
no command to use it, and the first write after the suggested move aside deleted it
unread; it is kept now (``.unwritten-…``), with the command that puts it back when it
reads whole. D2: an empty calendar.toml was read as day 1, no curse, no death.
R3: the move-aside command named ``….damaged`` every time, so following it twice lost
the first copy; it names a time-stamped file nothing has. N4: an empty sheet said
"missing field 'name'"; N5: genso's fight verbs on a damaged fight file named no next
step; N6: ``--force``'s help left out ``.corrupt-…``, and a newer companion's fight was
one that "cannot be played on".

The commands the messages print are run as printed, by a shell, in a data folder whose
name has a space, as the player would paste them."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from companion import files
from companion.app.cli import main
from tests.companion_process import ROOT

EXAMPLES = ROOT / "docs" / "examples"
CY = ["genso", "new", "Cy", "--body", "6", "--perception", "5", "--magic", "4", "--skill",
      "combat", "--seed", "2"]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder whose name a shell must have quoted."""
    folder = tmp_path / "my data"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(folder))
    return folder


def left_by_a_cut_write(path: Path, text: bytes, tag: str = "k3j9x2") -> Path:
    """The temporary file a write of ``path`` left when a power cut stopped it, by a run
    that is over (older than this one)."""
    copy = path.with_name(f".{path.name}.{tag}.tmp")
    copy.write_bytes(text)
    old = files._STARTED - 60
    os.utime(copy, (old, old))
    return copy


def a_new_run() -> None:
    """As a new process: it tidies each file's folder again at its first write."""
    files._TIDIED.clear()


def printed(err: str, after: str) -> str:
    """The command in backquotes the message ``err`` gives right after ``after``."""
    found = re.search(re.escape(after) + r" \(?`([^`]+)`", err)
    assert found is not None, err
    return found.group(1)


def run(command: str) -> None:
    subprocess.run(["bash", "-c", command], check=True)


def err_of(capsys: pytest.CaptureFixture[str], args: list[str], status: int = 2) -> str:
    capsys.readouterr()
    assert main(args) == status
    return capsys.readouterr().err


# --- D1: the copy a cut write left is kept, and put back by the command given ---------------


def test_a_damaged_calendar_s_whole_copy_is_kept_and_put_back_as_printed(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "calendar", "pass", "2"]) == 0  # day 3
    path = data / "genso" / "calendar.toml"
    left_by_a_cut_write(path, path.read_bytes())
    path.write_bytes(b"\0" * 100)
    err = err_of(capsys, ["genso", "calendar"])
    assert "reads as a whole calendar" in err
    kept = list(path.parent.glob("calendar.toml.unwritten-*"))
    assert len(kept) == 1 and not list(path.parent.glob(".*.tmp"))
    a_new_run()
    run(printed(err, "put it back instead with"))
    capsys.readouterr()
    assert main(["genso", "calendar", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["day"] == 3
    assert len(list(path.parent.glob("calendar.toml.corrupt-*"))) == 1  # the damaged one


def test_moving_a_damaged_calendar_aside_as_printed_deletes_no_copy(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The repro: the move aside the message gives, then a write of the calendar."""
    assert main(["genso", "calendar", "pass", "2"]) == 0
    path = data / "genso" / "calendar.toml"
    whole = path.read_bytes()
    left_by_a_cut_write(path, whole)
    path.write_bytes(b"\0" * 100)
    err = err_of(capsys, ["genso", "calendar"])
    a_new_run()
    run(printed(err, "move it aside"))
    assert main(["genso", "calendar", "pass", "1"]) == 0
    kept = [p.read_bytes() for p in path.parent.iterdir() if p != path]
    assert whole in kept and b"\0" * 100 in kept


def test_a_copy_that_is_not_whole_is_kept_and_said_so_with_no_command_to_put_it_back(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "calendar", "pass", "2"]) == 0
    path = data / "genso" / "calendar.toml"
    left_by_a_cut_write(path, b"\0" * 30)
    path.write_bytes(b"\0" * 100)
    err = err_of(capsys, ["genso", "calendar"])
    assert re.search(r"; calendar\.toml\.unwritten-\d{8}T\d{6}Z, kept beside it from a write "
                     r"cut short, is no whole calendar either\n$", err), err
    assert "put it back" not in err


def test_a_damaged_sheet_s_whole_copy_is_kept_and_put_back_as_printed(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(CY) == 0
    path = data / "genso" / "characters" / "Cy.toml"
    whole = path.read_bytes()
    left_by_a_cut_write(path, whole, "a1b2c3")
    path.write_bytes(b"\0" * len(whole))
    err = err_of(capsys, ["genso", "sheet", "Cy"])
    assert "reads as a whole sheet" in err
    # moved aside and made again as the message says: the copy stays
    a_new_run()
    run(printed(err, "move it aside"))
    assert main(CY) == 0
    kept = list(path.parent.glob("Cy.toml.unwritten-*"))
    assert [p.read_bytes() for p in kept] == [whole]
    # and the command that puts it back, given again, puts it back
    path.write_bytes(b"\0" * 10)
    err = err_of(capsys, ["genso", "sheet", "Cy"])
    run(printed(err, "put it back instead with"))
    assert path.read_bytes() == whole
    assert main(["genso", "sheet", "Cy"]) == 0


# --- D2 and N4: an empty calendar or sheet is damage -----------------------------------------


@pytest.mark.parametrize("text", [b"", b" \n\n\t\n"])
def test_an_empty_calendar_is_damaged_not_day_1(
        data: Path, capsys: pytest.CaptureFixture[str], text: bytes) -> None:
    assert main(["genso", "calendar", "pass", "2"]) == 0
    path = data / "genso" / "calendar.toml"
    path.write_bytes(text)
    for command in (["calendar"], ["calendar", "pass", "1"]):
        err = err_of(capsys, ["genso", *command])
        assert err.startswith(f"companion: error: {path}: the file is empty; move it aside "), err
        assert err.endswith("to start the calendar again at day 1: the day, the Death Curses "
                            "and the deaths it kept are lost\n")
    assert path.read_bytes() == text
    run(printed(err, "move it aside"))
    capsys.readouterr()
    assert main(["genso", "calendar", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["day"] == 1


def test_an_empty_saved_character_says_so_and_what_to_do(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(CY) == 0
    path = data / "genso" / "characters" / "Cy.toml"
    path.write_bytes(b"")
    err = err_of(capsys, ["genso", "sheet", "Cy"])
    assert err.startswith(f"companion: error: {path}: the file is empty; move it aside ")
    assert "to make the character again (`" in err and "genso new Cy …`)" in err
    run(printed(err, "move it aside"))
    assert main(CY) == 0


# --- R3: moving aside twice keeps both ------------------------------------------------------


def test_following_the_advice_twice_keeps_both_damaged_copies(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = data / "genso" / "calendar.toml"
    for size in (100, 90):
        assert main(["genso", "calendar", "pass", "1"]) == 0
        path.write_bytes(b"\0" * size)
        run(printed(err_of(capsys, ["genso", "calendar"]), "move it aside"))
    kept = sorted(p.stat().st_size for p in path.parent.glob("calendar.toml.corrupt-*"))
    assert kept == [90, 100]


# --- N5, N6: the fight files --------------------------------------------------------------


@pytest.mark.parametrize("default", [True, False])
def test_genso_fight_verbs_on_a_damaged_fight_file_name_the_next_step(
        data: Path, capsys: pytest.CaptureFixture[str], default: bool) -> None:
    path = data / "genso" / "fight.json" if default else data / "other fight.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\0" * 50)
    option = [] if default else ["--file", str(path)]
    fault = (f"{path}: not JSON (the fight file is all zero bytes: a power cut as it was "
             "written?)")
    quoted = "" if default else f" --file '{path}'"
    for verb in ("show", "end"):
        err = err_of(capsys, ["genso", "fight", verb, *option])
        assert err.startswith(f"companion: error: {fault}; it cannot be played on: `"), err
        assert err.endswith(f" genso fight new --party pc1 pc2 --monsters orc:2 --force{quoted}`"
                            " starts a new fight, keeping "
                            f"this file as {path.name}.corrupt-…\n"), err
    # fight new's own refusal says it once
    err = err_of(capsys, ["genso", "fight", "new", "--party", "pc1", *option])
    assert err == (f"companion: error: {fault}; it cannot be played on: pass --force to start "
                   f"over, keeping it as {path.name}.corrupt-…\n")


def test_force_help_names_the_corrupt_copy(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["coc", "fight", "new", "--help"], ["genso", "fight", "new", "--help"]):
        with pytest.raises(SystemExit):
            main(args)
        assert "(one that cannot be read: .corrupt-…" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("system", ["coc", "genso"])
def test_a_newer_companion_s_fight_is_not_one_that_cannot_be_played_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], system: str) -> None:
    path = tmp_path / "f.json"
    if system == "coc":
        path.write_text('{"format": 99}')
        args = ["coc", "fight", "new", "--investigators", str(EXAMPLES / "ann.toml"),
                "--foes", str(EXAMPLES / "cultist.toml"), "--file", str(path)]
        fault = "fight file format 99 is not one this companion reads (1 to "
    else:
        path.write_text('{"system": "genso", "version": 99}')
        args = ["genso", "fight", "new", "--party", "pc1", "--file", str(path)]
        fault = "fight file version 99 is not one this companion reads (1 to "
    err = err_of(capsys, args)
    assert fault in err and "cannot be played on" not in err
    assert err.endswith(": a newer companion's fight, to be played on there; or pass --force "
                        "to start over here, keeping it as f.json.corrupt-…\n"), err
