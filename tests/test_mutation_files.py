"""Behaviour of the companion's own files that no other test pinned (mutation round 3)."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from pathlib import Path

import pytest

from companion import files
from companion.file_locks import holding, let_go, lock_path
from companion.files import atomic_write_bytes, atomic_write_text


def test_tidying_spares_a_temporary_its_writer_holds_and_one_just_made_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A temporary file is a write under way while its writer holds its flock, however old
    it looks, or when made in this run an instant ago (before the writer locked it). One no
    writer holds goes, however young (30 s, made before this run) or dated ahead of the
    clock (a Pi that started an hour behind the files its last run wrote)."""
    monkeypatch.setattr(files, "_STARTED", time.time() - 5)
    path = tmp_path / "save.json"
    ages = {"held": 86400, "just1": 0, "young1": 30, "ahead1": -3600, "old111": 86400}
    for name, age in ages.items():
        stray = tmp_path / f".save.json.{name}.tmp"
        stray.write_bytes(b"{")
        then = time.time() - age
        os.utime(stray, (then, then))
    writer = os.open(tmp_path / ".save.json.held.tmp", os.O_RDONLY)
    fcntl.flock(writer, fcntl.LOCK_EX)  # another process's write under way
    try:
        atomic_write_bytes(path, b"{}")
    finally:
        os.close(writer)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".save.json.held.tmp", ".save.json.just1.tmp", "save.json"]


def test_a_name_taken_twice_over_gets_the_next_number(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Three files kept aside within one second: ``-2`` and ``-3``, none written over."""
    monkeypatch.setattr(time, "gmtime", lambda *_: time.struct_time(
        (2026, 1, 2, 3, 4, 5, 4, 2, 0)))
    path = tmp_path / "save.json"
    kept = []
    for n in range(3):
        path.write_text(str(n))
        kept.append(files.move_aside(path, "replaced"))
    assert [p.name for p in kept] == ["save.json.replaced-20260102T030405Z",
                                      "save.json.replaced-20260102T030405Z-2",
                                      "save.json.replaced-20260102T030405Z-3"]
    assert [p.read_text() for p in kept] == ["0", "1", "2"]


@pytest.mark.parametrize("extra", [0, 1])
def test_a_file_of_the_limit_is_read_and_one_byte_more_is_too_large(tmp_path: Path,
                                                                   extra: int) -> None:
    """``read_regular``'s limit is the largest size read: at it, the file is read whole."""
    path = tmp_path / "save.json"
    path.write_bytes(b"x" * (1024 + extra))
    if extra:
        with pytest.raises(files.TooLarge, match="larger than 1 KiB, so not a save"):
            files.read_regular(path, 1024, "save")
    else:
        assert files.read_regular(path, 1024, "save") == b"x" * 1024



def another_holder(path: Path, operation: int) -> int:
    """The lock file of ``path`` opened anew and flocked with ``operation``: another holder,
    as another process would be (a flock belongs to its open file, not to the process)."""
    fd = os.open(lock_path(path), os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.flock(fd, operation | fcntl.LOCK_NB)
    return fd


def held_elsewhere(path: Path) -> bool:
    try:
        os.close(another_holder(path, fcntl.LOCK_EX))
    except BlockingIOError:
        return True
    return False


def test_a_writer_goes_ahead_beside_another_writer(tmp_path: Path) -> None:
    """Writers share the lock (a command writing a file while another command writes it):
    only a session's hold refuses a write."""
    path = tmp_path / "fight.json"
    fd = another_holder(path, fcntl.LOCK_SH)  # a command's write under way
    try:
        atomic_write_text(path, "{}")
    finally:
        os.close(fd)
    assert path.read_text() == "{}"


def test_a_session_waits_briefly_for_a_write_under_way(tmp_path: Path) -> None:
    """A lock held for a moment (a command writing the file) is waited for, not refused."""
    path = tmp_path / "fight.json"
    fd = another_holder(path, fcntl.LOCK_SH)
    threading.Timer(0.1, os.close, (fd,)).start()
    with holding(path, "companion play"):
        assert held_elsewhere(path)


def test_a_lock_file_removed_as_it_is_taken_is_not_the_lock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder lets go (and removes its lock file) between this process's open and its
    flock: the flocked file is no longer the lock, and the one there now is taken, so a
    third holder is refused."""
    path = tmp_path / "save.json"
    lock = lock_path(path)
    lock.write_text("")
    real = fcntl.flock
    let_go_now = [True]

    def flock(fd: int, operation: int) -> None:
        if let_go_now[0]:
            let_go_now[0] = False
            lock.unlink()
        real(fd, operation)

    monkeypatch.setattr(fcntl, "flock", flock)
    with holding(path, "companion play"):
        monkeypatch.setattr(fcntl, "flock", real)
        assert held_elsewhere(path)


def test_a_file_let_go_for_a_while_is_held_again_once_taken_back(tmp_path: Path) -> None:
    """``let_go``: others may have the file during the block, and its ``take_back`` holds
    it again; a block left without it (the table leaving) leaves the file to others."""
    path = tmp_path / "fight.json"
    with holding(path, "companion play"):
        with let_go(path) as take_back:
            assert not held_elsewhere(path)
            assert take_back()
        assert held_elsewhere(path)
        with let_go(path):
            pass
        assert not held_elsewhere(path)
