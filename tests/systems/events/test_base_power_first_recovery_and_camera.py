"""``companion events`` and ``roll`` as a new player meets them (dice-systems audit 55):
the base power "?" says how to get a number (EV-CORE-3), a first recovery without --room
is not told it got nothing (EV-REC-1), and a missing camera names typed dice."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from companion.app.cli import main

PARTY = """
[[member]]
name = "Aki"
adventurer = 3
vitality = 2
"""


def _events(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["events", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_base_power_without_a_rating_table_names_ratings_and_the_csv_form(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """EV-CORE-3: with no table the walk ends in "(look up) ＞ ?"; the lines under it said
    nothing of --ratings, which is the way to a number."""
    code, out, _ = _events(capsys, "recovery", "--seed", "1")
    assert code == 0 and "(look up) ＞ ?" in out
    assert ("基本威力/base power ?: give your rating table with --ratings FILE, a CSV whose "
            "first line is rating,2,3,4,5,6,7,8,9,10,11,12, then one line per rating: the "
            "rating, then the values for 2D6 totals 2 to 12 from your rulebook's 威力表 (* for "
            "an automatic miss) (EV-CORE-3)") in out.splitlines()


def test_a_rating_table_without_the_rating_rolled_names_the_file_and_the_rating(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """EV-CORE-3: a table given but lacking the rating (DM Lv 1 × 5 = 5) still gives "?",
    and the note says which rating the file needs; a table holding it gives no note. The
    recovery table in sw mode gives no "?" but is refused before its spot is spent
    (events70 DEFECT 2, tests/systems/events/test_doors_recovery_and_party_fixes.py): generic
    mode still walks it."""
    party = tmp_path / "party.toml"
    party.write_text(PARTY, encoding="utf-8")
    # Made-up values: the test needs a table's shape, not the rulebook's numbers.
    lacking = tmp_path / "r7.csv"
    lacking.write_text("rating,2,3,4,5,6,7,8,9,10,11,12\n7,*,1,1,1,1,1,1,1,1,1,1\n",
                       encoding="utf-8")
    code, out, _ = _events(capsys, "recovery", "--party", str(party),
                           "--ratings", str(lacking), "--seed", "1")
    assert code == 0
    assert (f"基本威力/base power ?: {lacking} has no line for rating 5: add it, the rating, "
            "then the values for 2D6 totals 2 to 12 (EV-CORE-3)") in out.splitlines()
    code, out, _ = _events(capsys, "trap", "--trap", "explosion", "--mode", "sw", "--party",
                           str(party), "--ratings", str(lacking), "--seed", "1")
    assert code == 0  # the explosion's rating at DM Lv 1 is 0 (EV-TRAP-3)
    assert (f"基本威力/base power ?: {lacking} has no line for rating 0: add it, the rating, "
            "then the values for 2D6 totals 2 to 12 (EV-CORE-3)") in out.splitlines()
    holding = tmp_path / "r5.csv"
    holding.write_text("rating,2,3,4,5,6,7,8,9,10,11,12\n5,*,1,1,1,1,1,1,1,1,1,1\n",
                       encoding="utf-8")
    code, out, _ = _events(capsys, "recovery", "--mode", "sw", "--party", str(party),
                           "--ratings", str(holding), "--seed", "1")
    assert code == 0 and "?" not in out and "base power ?" not in out


def test_a_first_recovery_without_a_room_is_said_used_not_spent(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """EV-REC-1: "this room's spot is spent: coming back gives nothing" on a first visit read
    as if the party got nothing; the line says the spot is now used, and the note under it
    how to have the room remembered."""
    code, out, _ = _events(capsys, "recovery", "--seed", "1")
    assert code == 0
    lines = out.splitlines()
    assert ("EV-REC-1  この部屋は使用済み/this room's spot is now used, once per room (no room "
            "named, so not remembered)") in lines
    assert "spent" not in out
    assert lines[-1].startswith("To have the room remembered, name it with --room NAME")


@pytest.mark.parametrize("command", [["roll", "2D6"], ["events", "door"]])
def test_a_camera_that_cannot_start_names_typed_dice(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    """--dice camera with no Picamera2 (a laptop): the long install message now ends with
    the way to play without a camera, --dice typed."""
    monkeypatch.setitem(sys.modules, "picamera2", None)  # not installed
    code = main([*command, "--dice", "camera", "--source", "picamera"])
    err = capsys.readouterr().err
    assert code == 1 and "Picamera2 is not installed" in err
    assert " ".join(err.split()).endswith(  # wrapped at 80 columns (dice62 N1)
        "; no camera? throw your own dice and type them in with --dice typed")


def test_a_camera_reader_that_cannot_load_names_typed_dice(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # OpenCV missing (the edge of the world): the reader's module is imported afresh
    # without it; monkeypatch puts the loaded one back after.
    # Loaded first, so that whether another test loaded it before does not matter.
    importlib.import_module("companion.hw.dice.source")
    monkeypatch.setitem(sys.modules, "cv2", None)
    monkeypatch.delitem(sys.modules, "companion.hw.dice.source")
    assert main(["roll", "2D6", "--dice", "camera"]) == 1
    assert " ".join(capsys.readouterr().err.split()) == (  # within 80 columns (dice62 N1)
        "companion: error: the camera dice reader is not available (import of cv2 halted; "
        "None in sys.modules); no camera? throw your own dice and type them in with --dice "
        "typed")
