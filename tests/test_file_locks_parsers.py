"""file_locks' quiet short waits (review58b N4) and its readers of the kernel's tables,
/proc/self/mountinfo and /proc/locks, on sample texts (review58b N5)."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from companion import file_locks
from companion.file_locks import changing, filesystem_of, lock_path


def test_a_change_waiting_milliseconds_says_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """N4: `changing` said "waiting for it" at once, even for a wait of a few ms (7 of 160
    racing commands), in the middle of the dice tray's frame. Another holder, let go at
    the first pause of the wait, is waited for unsaid."""
    path = tmp_path / "poisoned.toml"
    other = os.open(lock_path(path), os.O_RDWR | os.O_CREAT, 0o644)  # another's open file
    fcntl.flock(other, fcntl.LOCK_EX)
    real_sleep = file_locks.time.sleep

    def let_go_then_sleep(seconds: float) -> None:
        fcntl.flock(other, fcntl.LOCK_UN)
        real_sleep(seconds)

    monkeypatch.setattr(file_locks.time, "sleep", let_go_then_sleep)
    try:
        with changing(path, "companion, a test"):
            path.write_text("held\n")
    finally:
        os.close(other)
    assert capsys.readouterr().err == ""
    assert not lock_path(path).exists()


MOUNTINFO = r"""22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw
30 22 0:26 / /tmp rw,nosuid,nodev shared:5 - tmpfs tmpfs rw
31 30 0:27 / /tmp/with\040space rw,relatime shared:6 - tmpfs none rw
40 22 0:40 / /mnt/data rw,relatime shared:9 - nfs4 pi:/srv rw,vers=4.2
41 22 0:41 / /mnt/database rw,relatime shared:10 - vfat /dev/sdb1 rw
"""


@pytest.mark.parametrize(("folder", "said"), [
    ("/tmp/with space/jongrogue", "tmpfs filesystem mounted at /tmp/with space"),
    ("/tmp/with", "tmpfs filesystem mounted at /tmp"),
    ("/mnt/data/companion", "nfs4 filesystem mounted at /mnt/data"),
    ("/mnt/database", "vfat filesystem mounted at /mnt/database"),
    ("/mnt/datab", "ext4 filesystem mounted at /"),
])
def test_the_filesystem_of_a_folder_is_its_longest_mount(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str, said: str) -> None:
    """The mount point's octal escapes (\\040, a space) read back, and the longest mount
    holding the folder, not one whose name only begins alike (/mnt/data, /mnt/database)."""
    (tmp_path / "mountinfo").write_text(MOUNTINFO)
    monkeypatch.setattr(file_locks, "MOUNTINFO", tmp_path / "mountinfo")
    assert filesystem_of(Path(folder)) == said


def test_no_mountinfo_is_a_filesystem_untold(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(file_locks, "MOUNTINFO", tmp_path / "none")
    assert filesystem_of(tmp_path) == "filesystem"


def test_the_kernel_names_only_the_flock_holders_of_that_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """/proc/locks: the FLOCK holders of the lock file's device and inode; not a waiter's
    line ("->"), a POSIX or OFD lock on it, a pid another namespace hides (0, -1), nor
    another file's lock."""
    lock = tmp_path / "fight.json.lock"
    lock.touch()
    fd = os.open(lock, os.O_RDONLY)
    try:
        stat = os.fstat(fd)
        file = f"{os.major(stat.st_dev):02x}:{os.minor(stat.st_dev):02x}:{stat.st_ino}"
        table = "\n".join([
            *(f"{n}: FLOCK  ADVISORY  WRITE {9000 + n} fe:00:{n} 0 EOF" for n in range(1, 500)),
            f"600: POSIX  ADVISORY  WRITE 7001 {file} 0 EOF",
            f"601: OFDLCK ADVISORY  WRITE -1 {file} 0 EOF",
            f"602: FLOCK  ADVISORY  WRITE 0 {file} 0 EOF",
            f"603: FLOCK  ADVISORY  WRITE 8573 {file} 0 EOF",
            f"603: -> FLOCK  ADVISORY  WRITE 8600 {file} 0 EOF",
            f" 603: -> FLOCK  ADVISORY  WRITE 8601 {file} 0 EOF",
        ]) + "\n"
        (tmp_path / "locks").write_text(table)
        monkeypatch.setattr(file_locks, "PROC_LOCKS", tmp_path / "locks")
        assert file_locks._kernel_holders(fd) == ["8573"]
        monkeypatch.setattr(file_locks, "PROC_LOCKS", tmp_path / "none")
        assert file_locks._kernel_holders(fd) == []
    finally:
        os.close(fd)
