"""`companion replay` of a log cut short inside its last line (audit hist63 F2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.played_log_helpers import _play


def _two_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, list[bytes]]:
    log = tmp_path / "games.jsonl"
    _play(log, 11, capsys)
    _play(log, 12, capsys)
    return log, log.read_bytes().splitlines(keepends=True)


def test_a_log_cut_inside_its_last_line_replays_the_games_before_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A power cut in the middle of a line: `replay` refused the whole file with exit 2
    ("not a JSON line (Unterminated string starting at)"), the whole first game with it.
    The half line is left out and said, the games before it replay, exit 0, as for a log
    cut at a line end."""
    log, lines = _two_games(tmp_path, capsys)
    second = max(n for n, line in enumerate(lines) if b'"log": "jongrogue-companion"' in line)
    cut = second + 30  # an event of the second game, its first half kept
    log.write_bytes(b"".join(lines[:cut]) + lines[cut][: len(lines[cut]) // 2])
    assert main(["replay", str(log)]) == 0
    out, err = capsys.readouterr()
    first, rest = out.split("\n", 1)
    assert first == f"game 1 (seed 11, ez): {second - 1} events match"
    assert rest.startswith(f"game 2 (seed 12, ez): {cut - second - 1} events match; the log "
                           f"ends before the game does (its last line, {cut + 1}, was cut "
                           "short and is left out): ")
    assert err == ""


def test_a_log_whose_tail_a_power_cut_filled_with_nul_bytes_replays_its_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ext4 leaves a block of NUL bytes after a power cut during an append: every whole game
    before them was refused ("not a JSON line (Expecting value)")."""
    log, lines = _two_games(tmp_path, capsys)
    log.write_bytes(b"".join(lines) + b"\0" * 4096)
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out[:2]] == ["game 1 (seed 11, ez)",
                                                       "game 2 (seed 12, ez)"]
    assert "the log ends before the game does" not in "".join(out)
    assert out[2] == (f"{log}:{len(lines) + 1}: the log ends early: its last line was cut "
                      "short (a power cut as it was written?) and is left out")


def test_a_cut_line_with_lines_after_it_is_still_refused_naming_where_it_stops(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Only the log's end can be cut short: a damaged line with a line end after it is
    refused by its number, and json's "Unterminated string starting at" no longer stops
    at "at"."""
    log, lines = _two_games(tmp_path, capsys)
    lines[40] = b'{"kind": "floo\n'
    log.write_bytes(b"".join(lines))
    assert main(["replay", str(log)]) == 2
    assert capsys.readouterr().err == (f"companion: error: {log}:41: not a JSON line "
                                       "(Unterminated string starting at column 10)\n")


def test_a_file_of_one_unreadable_line_is_no_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without a game before it, a last line that cannot be read is not a cut log's end."""
    log = tmp_path / "notes.txt"
    log.write_bytes(b"shopping: eggs")
    assert main(["replay", str(log)]) == 2
    assert capsys.readouterr().err == (f"companion: error: {log}:1: not a JSON line, so no "
                                       "log: replay takes the file `companion play --log "
                                       "FILE` wrote\n")


def test_a_log_an_editor_saved_with_a_byte_order_mark_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """a76saves DEFECT 2: a log saved by Notepad (a byte order mark first) was refused as
    "is a game log …, not a log", while `play --log` went on writing games into it, none of
    which replay could then read. It replays, the games played on into it with it."""
    log = tmp_path / "games.jsonl"
    _play(log, 11, capsys)
    log.write_bytes(b"\xef\xbb\xbf" + log.read_bytes())
    _play(log, 12, capsys)
    other = tmp_path / "other.jsonl"
    _play(other, 13, capsys)
    # one so saved joined to its end (`cat`, r76lead NIT 4: "Unexpected UTF-8 BOM")
    log.write_bytes(log.read_bytes() + b"\xef\xbb\xbf" + other.read_bytes())
    assert main(["replay", str(log)]) == 0
    out, err = capsys.readouterr()
    assert [line.split(":")[0] for line in out.splitlines()] == [
        "game 1 (seed 11, ez)", "game 2 (seed 12, ez)", "game 3 (seed 13, ez)"]
    assert all("events match" in line for line in out.splitlines()) and err == ""
