"""A genso sheet or the calendar a power cut left with zero bytes after whole lines
(a78saves item 5): the message said "delete them", then to move the file aside and make the
character again, "the HP, MP, items and growth it held are lost". It gives the command that
deletes them (with a line they cut in two) and keeps the whole lines, run here by a shell as
printed, in a data folder whose name has a space."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from companion.app.cli import main

AKI = ["genso", "new", "Aki", "--body", "6", "--perception", "5", "--magic", "4", "--skill",
       "magic", "--seed", "1"]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "my data"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(folder))
    return folder


def zeroed_from(path: Path, line: int, into: int = 0) -> int:
    """Zero bytes over ``path`` from ``into`` bytes into its line ``line`` to its end, as a
    card cut off while the file was rewritten in place leaves it; the bytes of the lines
    before that line."""
    data = path.read_bytes()
    start = sum(len(text) for text in data.splitlines(keepends=True)[:line - 1])
    path.write_bytes(data[:start + into] + b"\0" * (len(data) - start - into))
    return start


def mended_as_printed(capsys: pytest.CaptureFixture[str], args: list[str], lines: int,
                      later: int) -> None:
    """``args`` refused, telling the command that keeps lines 1 to ``lines`` and that what
    followed, from line ``later`` on, is lost; that command, run, mends the file."""
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "are lost" not in err and "move it aside" not in err
    assert f"keeping lines 1 to {lines}, the whole ones: what the file held from line " \
           f"{later} on is lost, to be written again by hand" in err
    found = re.search(r"delete them\); `(truncate -s \d+ [^`]+)` deletes them", err)
    assert found is not None, err
    subprocess.run(["bash", "-c", found.group(1)], check=True)
    assert main(args) == 0


def test_a_sheet_cut_in_its_weapons_line_keeps_the_lines_before(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(AKI) == 0
    sheet = data / "genso" / "characters" / "Aki.toml"
    line = next(number for number, text in enumerate(sheet.read_text().splitlines(), 1)
                if text.startswith("weapons"))
    kept = zeroed_from(sheet, line, into=10)  # `weapons = ` and then zero bytes
    mended_as_printed(capsys, ["genso", "sheet", "Aki", "--json"], line - 1, line)
    assert sheet.stat().st_size == kept
    assert '"name": "Aki"' in capsys.readouterr().out


def test_the_calendar_with_zero_bytes_from_a_line_keeps_the_lines_before(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "calendar", "pass", "2"]) == 0  # day 3
    calendar = data / "genso" / "calendar.toml"
    line = next(number for number, text in enumerate(calendar.read_text().splitlines(), 1)
                if text.startswith("day"))
    zeroed_from(calendar, line + 1)
    mended_as_printed(capsys, ["genso", "calendar", "--json"], line, line + 1)
    assert '"day": 3' in capsys.readouterr().out


def test_zero_bytes_after_no_whole_table_still_say_to_start_again(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A comment alone before the zero bytes holds nothing to keep."""
    assert main(AKI) == 0
    sheet = data / "genso" / "characters" / "Aki.toml"
    zeroed_from(sheet, 2)
    capsys.readouterr()
    assert main(["genso", "sheet", "Aki"]) == 2
    err = capsys.readouterr().err
    assert "truncate" not in err and "the HP, MP, items and growth it held are lost" in err
