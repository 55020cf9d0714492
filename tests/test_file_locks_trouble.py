"""Locks in trouble (concurrency audit 58 F5, F6, N1, N2): a folder that took no lock file at
first, a filesystem that keeps no locks, a holder that could not write its pid, and the boot
service as the holder.

Holders are child processes holding real flocks; a read-only folder is ``os.open`` refusing
to make or write a lock file (EROFS), and a filesystem without locks is ``flock`` failing
as the NFS client does without its lock manager (ENOLCK): the edges of the world.
"""

from __future__ import annotations

import errno
import fcntl
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.file_locks import FileInUse, holding, lock_path
from companion.files import atomic_write_text

#: ``os.open`` in a read-only folder, for lock files: one cannot be made or written, an old
#: one can be opened to read (and flocked so).
READ_ONLY_LOCKS = """
import errno, os
real_open = os.open
def read_only(path, flags, *args, **kwargs):
    if str(path).endswith(".lock") and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
    return real_open(path, flags, *args, **kwargs)
"""

#: A second game started in the read-only folder (no lock file made), its folder writable
#: again once it runs; it writes its save when a line comes on its standard input.
SECOND_GAME = READ_ONLY_LOCKS + """
import sys
from pathlib import Path
from companion.file_locks import holding
from companion.files import atomic_write_text
path = Path(sys.argv[1])
os.open = read_only
with holding(path, "companion play"):
    os.open = real_open
    print("started", flush=True)
    sys.stdin.readline()
    try:
        atomic_write_text(path, "the second game's")
        print("wrote", flush=True)
    except Exception as exc:
        print(f"refused: {exc}", flush=True)
"""

#: A game in a read-only folder holding its save through the lock file a killed game left
#: (it cannot write its pid in it) until its standard input closes.
HOLDER_READ_ONLY = READ_ONLY_LOCKS + """
import sys
from pathlib import Path
from companion.file_locks import holding
os.open = read_only
with holding(Path(sys.argv[1]), "companion play"):
    print("held", flush=True)
    sys.stdin.read()
"""

#: A child that holds ``argv[1]`` as ``argv[2]`` until its standard input closes.
HOLDER = """
import sys
from pathlib import Path
from companion.file_locks import holding
with holding(Path(sys.argv[1]), sys.argv[2]):
    print("held", flush=True)
    sys.stdin.read()
"""


def child(code: str, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", code, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)


def said(proc: subprocess.Popen[str], line: str = "") -> str:
    """What ``proc`` prints next, after ``line`` is given it (when one is)."""
    assert proc.stdin is not None and proc.stdout is not None
    if line:
        proc.stdin.write(line)
        proc.stdin.flush()
    return proc.stdout.readline()


def ended(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0


def read_only_lock_files(real_open: Callable[..., int]) -> Callable[..., int]:
    def read_only(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(path).endswith(".lock") and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *args, **kwargs)
    return read_only


def test_a_session_that_could_not_lock_its_save_locks_it_before_it_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """F5: two games resumed in a folder where no lock file could be made held nothing; once
    it was writable both saved in turn, an older game over a newer one. Now the first to
    write takes the lock, and the other is refused, naming it: it writes no more."""
    path = tmp_path / "save.json"
    atomic_write_text(path, "the game")
    monkeypatch.setattr(os, "open", read_only_lock_files(os.open))
    with holding(path, "companion play"):
        monkeypatch.undo()  # the folder writable again
        second = child(SECOND_GAME, str(path))
        try:
            assert said(second) == "started\n"
            atomic_write_text(path, "the first game's")
            refusal = said(second, "\n")
        finally:
            ended(second)
        assert lock_path(path).read_text() == f"{os.getpid()}\ncompanion play\n"
    assert refusal == (
        f"refused: {path} was taken up by another companion (pid {os.getpid()}, companion "
        "play) while this one could hold no lock on it (its folder took no lock file): this "
        "one writes it no more, so as not to put its older copy over that one's; go on "
        "there, or stop it first, then start this one again\n")
    assert path.read_text() == "the first game's"
    assert not lock_path(path).exists()


def test_the_holder_named_is_the_live_one_not_the_pid_a_killed_one_left(
        tmp_path: Path) -> None:
    """N2: in a read-only folder the live holder cannot write its pid into the lock file a
    killed game left: the refusal named the dead game's pid. The kernel says who holds it."""
    path = tmp_path / "save.json"
    atomic_write_text(path, "the game")
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    lock_path(path).write_text(f"{gone.stdout.strip()}\ncompanion play\n")
    holder = child(HOLDER_READ_ONLY, str(path))
    try:
        assert said(holder) == "held\n"
        with pytest.raises(FileInUse) as refused, holding(path, "companion play"):
            pass
    finally:
        ended(holder)
    assert str(refused.value) == (f"{path} is in use by another companion (pid {holder.pid}, "
                                  "companion); stop it first")


def test_the_boot_service_as_the_holder_is_named_with_how_to_stop_it(tmp_path: Path) -> None:
    """N1: "stop it first" never said how when the boot service held the file; its unit
    (COMPANION_SERVICE, which install-pi.sh's unit sets) is named, and its stop command."""
    path = tmp_path / "save.json"
    atomic_write_text(path, "the game")
    holder = child(HOLDER, str(path), "companion play",
                   env={**os.environ, "COMPANION_SERVICE": "jongrogue-companion"})
    try:
        assert said(holder) == "held\n"
        with pytest.raises(FileInUse) as refused, holding(path, "companion play"):
            pass
        with pytest.raises(FileInUse) as written:
            atomic_write_text(path, "a command's")
    finally:
        ended(holder)
    service = (f"(pid {holder.pid}, companion play, the boot service jongrogue-companion)")
    how = "stop it first: sudo systemctl stop jongrogue-companion"
    assert str(refused.value) == f"{path} is in use by another companion {service}; {how}"
    assert str(written.value) == (f"{path} is open in another companion {service}, which "
                                  f"alone writes it while it runs: do it there, or {how} "
                                  "(reading it still works)")


@pytest.mark.parametrize("code", [errno.ENOLCK, errno.EBADF], ids=["ENOLCK", "EBADF"])
def test_a_filesystem_without_locks_plays_on_and_says_so_once(
        code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """F6: on NFS without its lock manager every flock fails (ENOLCK; EBADF for an exclusive
    lock through a read-only open): nothing could be played, and the error named no file
    ("a file: No locks available"). The game plays on unlocked, and one line names the
    lock file, its filesystem, and what that means."""
    def no_locks(fd: int, operation: int) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(fcntl, "flock", no_locks)
    save = tmp_path / "save.json"
    assert main(["play", "--headless", "--seed", "3", "--state", str(save)]) == 0
    told = [line for line in capsys.readouterr().err.splitlines() if "no locks" in line]
    assert len(told) == 1
    assert told[0].startswith(f"companion: {save}.lock: the ")
    assert told[0].endswith(f" keeps no locks ({os.strerror(code)}): a second companion on "
                            f"the files in {tmp_path} is not refused there, so run one at a "
                            "time")
    assert " filesystem" in told[0]  # which one, and where it is mounted, when it is known


def test_another_failure_to_lock_names_the_lock_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """F6: an flock error that is no sign of a filesystem without locks (EIO) stops, naming
    the lock file (it said "a file: …"), and leaves no file open."""
    def failing(fd: int, operation: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(fcntl, "flock", failing)
    path = tmp_path / "save.json"
    open_before = len(os.listdir("/proc/self/fd"))
    with pytest.raises(OSError) as err, holding(path, "companion play"):
        pass
    assert (err.value.errno, err.value.filename) == (errno.EIO, str(lock_path(path)))
    assert len(os.listdir("/proc/self/fd")) == open_before


def nfs_flock(real_flock: Callable[[int, int], None]) -> Callable[[int, int], None]:
    """``flock`` as the NFS client does it, with working locks: byte-range locks, so an
    exclusive one through a file open to read only is EBADF."""
    def flock(fd: int, operation: int) -> None:
        read_only = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY
        if operation & fcntl.LOCK_EX and read_only:
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        real_flock(fd, operation)
    return flock


def test_on_nfs_a_lock_file_open_to_read_still_refuses_a_second_companion(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """review58b R4: on NFS, where locks work, a lock file that could only be opened to read
    (a read-only export; one a killed `sudo companion` left, root's) refused the exclusive
    lock with EBADF, taken for "keeps no locks": a second companion was started over a live
    one, and a false line said so. The live holder is found by a shared lock and refuses
    both the start and a write; with none holding it, the game holds nothing, saying
    nothing."""
    path = tmp_path / "save.json"
    atomic_write_text(path, "the game")
    holder = child(HOLDER, str(path), "companion play")
    try:
        assert said(holder) == "held\n"
        monkeypatch.setattr(os, "open", read_only_lock_files(os.open))
        monkeypatch.setattr(fcntl, "flock", nfs_flock(fcntl.flock))
        with pytest.raises(FileInUse) as refused, holding(path, "companion play"):
            pass
        with pytest.raises(FileInUse):
            atomic_write_text(path, "a command's")
    finally:
        ended(holder)
    assert str(refused.value) == (f"{path} is in use by another companion (pid {holder.pid}, "
                                  "companion play); stop it first")
    lock_path(path).write_text("1\ncompanion play\n")  # a killed one's, left behind
    with holding(path, "companion play"):
        atomic_write_text(path, "this game's")
    assert path.read_text() == "this game's"
    assert "no locks" not in capsys.readouterr().err
