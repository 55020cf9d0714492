"""mutation13: gaps in the tests of ``play --log``'s rotation (companion/app/session/log.py)
that hand-made mutants survived: FILE.1 holding something no ``--log`` wrote is never
written over, a log past the limit only by a line cut off is not moved, and a lock the
filesystem fails (EIO) is not taken for a filesystem that keeps no locks."""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

import pytest

from companion.app.session import log as log_module
from companion.app.session.log import GameLog, older_log

HEADER = '{"game_id": "%s", "log": "jongrogue-companion"}\n'
BIG = HEADER % "a" + '{"e": 1}\n' * 8  # past the 64 bytes the tests set


@pytest.fixture(autouse=True)
def small_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(log_module, "ROTATE_AT", 64)


def test_a_file_1_holding_something_else_is_never_written_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(BIG)
    notes = older_log(path, 1)
    notes.write_text("my notes\n")
    assert GameLog.begin(path).start == len(BIG)
    assert f"{notes} is not a log `companion play --log` wrote" in capsys.readouterr().err
    assert notes.read_text() == "my notes\n" and path.read_text() == BIG
    assert not older_log(path, 2).exists()


def test_a_log_past_the_limit_only_by_a_line_cut_off_is_not_moved(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The cut-off part of a line goes first; the whole lines left are not past the limit."""
    monkeypatch.setattr(log_module, "ROTATE_AT", len(BIG))
    path = tmp_path / "games.jsonl"
    path.write_text(BIG + '{"e": ')
    assert GameLog.begin(path).start == len(BIG)
    assert path.read_text() == BIG and not older_log(path, 1).exists()


def test_a_lock_the_filesystem_fails_is_not_taken_for_no_locks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(fd: int, operation: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    path = tmp_path / "games.jsonl"
    path.write_text(BIG)
    monkeypatch.setattr(fcntl, "flock", failing)
    with pytest.raises(OSError) as raised:
        GameLog.begin(path)
    assert raised.value.errno == errno.EIO
    assert path.read_text() == BIG and not older_log(path, 1).exists()
