"""Two writers of one file, and files a session holds: unique temporary files, real flocks.

Writers run in child processes (as two companions do); a holder is a child process holding a
real ``flock`` through :func:`companion.file_locks.holding`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import files
from companion.file_locks import FileInUse, holding, lock_path
from companion.files import atomic_write_text

#: A child that writes ``argv[1]`` ``argv[3]`` times with ``argv[2]`` repeated, then says done.
WRITER = """
import sys
from pathlib import Path
from companion import files
from companion.files import atomic_write_text
path, text, times = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
for n in range(times):
    atomic_write_text(path, text * 2000)
print("done")
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


def child(code: str, *args: str, stdin: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", code, *args], stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def held_by_child(path: Path, holder: str) -> subprocess.Popen[str]:
    """A child process holding ``path``, once it says it holds it."""
    proc = child(HOLDER, str(path), holder, stdin=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


def test_two_writers_of_one_file_never_tear_each_others_writes(tmp_path: Path) -> None:
    """Each write has its own temporary file: two processes writing one file at once both
    succeed every time, and the file is always one of their writes, whole (with one fixed
    temporary name they renamed each other's half-written file, or found it gone)."""
    path = tmp_path / "save.json"
    writers = [child(WRITER, str(path), letter, "300") for letter in "ab"]
    seen = set()
    while any(w.poll() is None for w in writers):
        if path.exists():
            text = path.read_text()
            assert text in ("a" * 2000, "b" * 2000), text[:40]
            seen.add(text[0])
    for w in writers:
        out, err = w.communicate()
        assert (w.returncode, out, err) == (0, "done\n", "")
    assert path.read_text() in ("a" * 2000, "b" * 2000)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_a_folder_in_the_old_temporary_files_place_is_no_matter(tmp_path: Path) -> None:
    """``.save.json.tmp`` was the one temporary file of save.json: a folder there made every
    save fail, blamed on save.json ("Is a directory")."""
    path = tmp_path / "save.json"
    (tmp_path / ".save.json.tmp").mkdir()
    atomic_write_text(path, "whole")
    assert path.read_text() == "whole"


def test_an_error_names_what_failed_not_the_temporary_file() -> None:
    """No file can be made in /proc: the error names that folder (the temporary file's random
    name would mean nothing), not the file to be written as if it were the fault."""
    with pytest.raises(OSError) as err:
        atomic_write_text(Path("/proc/save.json"), "x")
    assert err.value.filename == "/proc"
    assert err.value.strerror == "no file can be made in this folder: No such file or directory"


def test_a_temporary_file_a_cut_left_is_removed_and_a_live_one_kept(tmp_path: Path) -> None:
    """Names are unique, so a cut's leftovers would pile up: the first write of a file in a
    process removes those older than the process (and than a minute); a younger one may be
    another process's write under way and stays."""
    path = tmp_path / "save.json"
    stale = tmp_path / ".save.json.k2j4h1l0.tmp"
    live = tmp_path / ".save.json.x8c7v6b5.tmp"
    other = tmp_path / ".other.json.a1b2c3d4.tmp"  # another file's: not save.json's to tidy
    for leftover in (stale, live, other):
        leftover.write_text("half")
    hours_ago = time.time() - 7200
    for old in (stale, other):
        os.utime(old, (hours_ago, hours_ago))
    atomic_write_text(path, "whole")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["save.json", live.name, other.name])


def test_a_written_file_has_the_mode_open_gives(tmp_path: Path) -> None:
    """The temporary file mkstemp makes is 0600; the file written is readable as before."""
    mask = os.umask(0o022)
    os.umask(mask)
    path = tmp_path / "camera.toml"
    atomic_write_text(path, "x = 1\n")
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask


def test_a_held_file_is_refused_to_another_holder_and_writer(tmp_path: Path) -> None:
    """Another process holding the file: holding it is refused, naming the pid and who it
    is, and so is writing it; reading it is not a write. Once the holder is gone, both work
    and no lock file is left."""
    path = tmp_path / "fight.json"
    atomic_write_text(path, "the fight")
    holder = held_by_child(path, "the genso table, companion play --mode genso")
    try:
        with pytest.raises(FileInUse) as refused, holding(path, "companion play"):
            pass
        assert str(refused.value) == (
            f"{path} is in use by another companion (pid {holder.pid}, the genso table, "
            "companion play --mode genso); stop it first")
        with pytest.raises(FileInUse, match=rf"^{path} is open in another companion \(pid "
                                            rf"{holder.pid}, the genso table, companion play "
                                            r"--mode genso\), which alone writes it while it "
                                            r"runs: do it there, or stop it first \(reading it "
                                            r"still works\)$"):
            atomic_write_text(path, "the command's")
        assert path.read_text() == "the fight"
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        assert holder.wait(timeout=30) == 0
    atomic_write_text(path, "the command's")
    with holding(path, "companion play"):
        atomic_write_text(path, "the table's")
    assert path.read_text() == "the table's"
    assert not lock_path(path).exists()


def test_a_link_to_a_held_file_is_the_same_file(tmp_path: Path) -> None:
    """A save kept elsewhere through a link (save.json -> stick/real.json): held by either
    name it is one file, and a write through the link replaces the file, keeping the link
    (it replaced the link with a file of its own, and the two names then parted)."""
    real = tmp_path / "stick" / "real.json"
    atomic_write_text(real, "the game")
    link = tmp_path / "save.json"
    link.symlink_to(real)
    assert lock_path(link) == lock_path(real)
    holder = held_by_child(real, "companion play")
    try:
        with pytest.raises(FileInUse), holding(link, "companion play"):
            pass
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        assert holder.wait(timeout=30) == 0
    atomic_write_text(link, "the game, a step on")
    assert link.is_symlink() and real.read_text() == "the game, a step on"


def test_a_killed_holder_holds_nothing(tmp_path: Path) -> None:
    """A power cut or kill -9 cannot leave a lock held: the kernel lets go of a dead process's
    flock (a pid file would have to be judged stale)."""
    path = tmp_path / "save.json"
    holder = held_by_child(path, "companion play")
    holder.kill()
    holder.wait(timeout=30)
    assert lock_path(path).exists()  # left by the kill, and no matter
    with holding(path, "companion play"):
        assert lock_path(path).read_text() == f"{os.getpid()}\ncompanion play\n"


def test_holding_twice_in_one_process_is_shared(tmp_path: Path) -> None:
    """A session opened again in the same process (a test's power cut, then its resume)."""
    path = tmp_path / "save.json"
    with holding(path, "companion play"), holding(path, "companion play"):
        atomic_write_text(path, "x")
    assert not lock_path(path).exists()


def test_a_writers_unlocked_temporary_made_just_before_this_process_loaded_is_spared(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two companions started together: one made its temporary and was held up before
    locking it while the other loaded and swept; made half a second before the sweeper's
    start, it was taken for a cut's left-over and deleted under its writer (a flake of the
    two-writers test, files75). One made in the second before this process loaded is
    spared; one a minute old and unlocked is still tidied."""
    monkeypatch.setattr(files, "_STARTED", time.time())
    monkeypatch.setattr(files, "_TIDIED", set())
    path = tmp_path / "save.json"
    starting = tmp_path / ".save.json.b7n4m2.tmp"
    starting.write_text("b" * 10)
    just_before = files._STARTED - 0.5
    os.utime(starting, (just_before, just_before))
    cut = tmp_path / ".save.json.k3j9x2.tmp"
    cut.write_text("half")
    minute_ago = time.time() - 60
    os.utime(cut, (minute_ago, minute_ago))
    atomic_write_text(path, "a" * 10)
    assert sorted(p.name for p in tmp_path.iterdir()) == [starting.name, "save.json"]
