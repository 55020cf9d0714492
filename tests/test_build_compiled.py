"""scripts/build_compiled.py replaces a compiled rules core only with one that was built
(rules74 RISK 1): ``--force`` deleted the build in use before compiling, so a forced build
that failed (a compiler gone, mypy missing after a venv change, a Pi out of memory) left
pure Python, and said so with exit 0. Each test runs in a copy of the package, so the
checkout's own build is never touched."""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.systems import jongrogue
from tests.disk import without_root_override
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
BAD_CC = "/nonexistent-cc"
#: What the compiler's failure is said as: setuptools' own words for a compiler not found.
WHY = f"error: command '{BAD_CC}' failed: No such file or directory"


def _copy(tmp_path: Path) -> Path:
    """A checkout of what the build compiles (the package and the companion's modules it
    imports) and the script, with no build; the folder its builds go in."""
    package = Path(jongrogue.__file__).resolve().parent
    (tmp_path / "scripts").mkdir(parents=True)
    shutil.copy2(ROOT / "scripts" / "build_compiled.py", tmp_path / "scripts")
    ignore = shutil.ignore_patterns("_compiled", "__pycache__")
    for part in ("dice", "systems/jongrogue"):
        shutil.copytree(package.parents[1] / part, tmp_path / "companion" / part, ignore=ignore)
    for name in ("__init__.py", "errors.py", "systems/__init__.py"):
        shutil.copy2(package.parents[1] / name, tmp_path / "companion" / name)
    return tmp_path / "companion" / "systems" / "jongrogue" / "_compiled"


def _temporary(checkout: Path) -> str:
    """A system temporary folder of the test's own (TMPDIR): a run sweeps the one it is
    given, and the real one holds other runs' live compiles (reviewh74b R2)."""
    folder = checkout / "systmp"
    folder.mkdir(exist_ok=True)
    return str(folder)


def _build(checkout: Path, *args: str, prefix: tuple[str, ...] = ()
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*prefix, sys.executable, str(checkout / "scripts" / "build_compiled.py"), *args],
        env={**os.environ, "CC": BAD_CC, "TMPDIR": _temporary(checkout)},
        capture_output=True, text=True, timeout=600, check=False)


def _tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_a_forced_build_that_fails_keeps_the_build_there_and_exits_1(tmp_path: Path) -> None:
    """The build of these sources and an older one are left as they were, nothing the
    failed build began is left beside them, and the failure names why, on stderr."""
    pytest.importorskip("mypyc")
    builds = _copy(tmp_path)
    current = builds / jongrogue.source_hash()  # the copy's sources are the checkout's
    current.mkdir(parents=True)
    (current / "game.so").write_text("the build in use")
    (builds / "0123456789abcdef0123").mkdir()
    (builds / "0123456789abcdef0123" / "game.so").write_text("an older build")
    before = _tree(builds)
    done = _build(tmp_path, "--force")
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout == "compiled rules core: building (a minute here, several on a Pi)\n"
    assert done.stderr == (f"compiled rules core: not built ({WHY}); the build there is kept "
                           f"({current.name})\n")
    assert _tree(builds) == before
    assert sorted(p.name for p in builds.iterdir()) == sorted([current.name,
                                                               "0123456789abcdef0123"])


def test_a_build_that_fails_with_none_there_exits_0_for_the_pure_core(tmp_path: Path) -> None:
    """Not forced, with no build of these sources: exit 0, as bootstrap.sh and
    install-pi.sh need to go on with the pure core; an older build is not removed by a
    build that did not succeed."""
    pytest.importorskip("mypyc")
    builds = _copy(tmp_path)
    (builds / "0123456789abcdef0123").mkdir(parents=True)
    done = _build(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == (
        f"compiled rules core: not built ({WHY}); pure Python is used")
    assert [p.name for p in builds.iterdir()] == ["0123456789abcdef0123"]


def _pids() -> tuple[subprocess.Popen[bytes], int]:
    """A live process (to be ended by the caller) and the id of one that has ended."""
    ended = subprocess.Popen(["true"])
    ended.wait()
    return subprocess.Popen(["sleep", "60"]), ended.pid


def _aged(path: Path, seconds: float) -> None:
    os.utime(path, (time.time() - seconds, time.time() - seconds))


def test_a_build_made_takes_the_place_of_the_one_there_and_the_rest_go(tmp_path: Path) -> None:
    """What main does once the child has built: the new build where the old one of the
    same sources was, and every other build (older sources) removed, with what killed
    builds left (their process gone, or a name with none older than STALE_SECONDS); a
    live run's work folders are its own, left to it (reviewb74 R1: they were removed)."""
    script = load_script("build_compiled")
    builds = tmp_path / "_compiled"
    live, ended = _pids()
    try:
        mine = os.getpid()
        for name, text in [("abc", "old"), (f".abc.{mine}.new", "new"), ("0123", "older sources"),
                           (f"..abc.{ended}.new.partial", "a killed build"),
                           (f".abc.{ended}.old", "a swap cut"),
                           ("..abc.new.partial", "a killed build of 0b4950d6"),
                           (".abc.new", "another of 0b4950d6's"),
                           (f"..abd.{live.pid}.new.partial", "a build going on"),
                           (".abd.new", "0b4950d6's, new")]:
            (builds / name).mkdir(parents=True)
            (builds / name / "game.so").write_text(text)
        for name in ("..abc.new.partial", ".abc.new"):
            _aged(builds / name, 3600)  # older than STALE_SECONDS
        script.install(builds / f".abc.{mine}.new", builds / "abc")
        assert _tree(builds) == {"abc/game.so": "new",
                                 f"..abd.{live.pid}.new.partial/game.so": "a build going on",
                                 ".abd.new/game.so": "0b4950d6's, new"}
        (builds / f".abd.{mine}.new").mkdir()  # with no build of its sources there
        script.install(builds / f".abd.{mine}.new", builds / "abd")
        assert sorted(p.name for p in builds.iterdir()) == [
            f"..abd.{live.pid}.new.partial", ".abd.new", "abd"]
    finally:
        live.kill()
        live.wait()


def test_an_up_to_date_run_removes_what_killed_builds_left(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build killed while it compiled, copied or swapped left its work folders, and the
    compiling child its temporary one: only the next build of the same sources removed
    them, and an up-to-date run never did (reviewb74 R2). A live run's are kept."""
    builds = _copy(tmp_path / "checkout")
    current = builds / jongrogue.source_hash()
    current.mkdir(parents=True)
    temporary = tmp_path / "tmp"
    live, ended = _pids()
    try:
        left = [builds / f"..{current.name}.{ended}.new.partial",
                builds / f".{current.name}.{ended}.old", builds / "..0123.new.partial",
                temporary / f"jongrogue-mypyc-{ended}-x1y2", temporary / "jongrogue-mypyc-ab_c"]
        kept = [builds / f"..{current.name}.{live.pid}.new.partial",
                temporary / f"jongrogue-mypyc-{live.pid}-q9"]
        for folder in left + kept:
            (folder / "lib").mkdir(parents=True)
        for folder in (builds / "..0123.new.partial", temporary / "jongrogue-mypyc-ab_c"):
            _aged(folder, 3600)
        done = subprocess.run(
            [sys.executable, str(tmp_path / "checkout" / "scripts" / "build_compiled.py")],
            env={**os.environ, "TMPDIR": str(temporary)}, capture_output=True, text=True,
            timeout=600, check=False)
        assert (done.returncode, done.stdout, done.stderr) == (
            0, f"compiled rules core: up to date ({current.name})\n", "")
        assert [folder for folder in left if folder.exists()] == []
        assert all(folder.is_dir() for folder in kept)
        assert current.is_dir()
    finally:
        live.kill()
        live.wait()


#: A stand-in for mypyc in the copy's script: each module's file written slowly (SLOW
#: seconds each), as the real copy into the work folder is, then the folder renamed.
FAKE_COMPILE = """
def compile_into(target: Path) -> None:
    staging = target.parent / f".{target.name}.partial"
    staging.mkdir(parents=True)
    for name in jongrogue.COMPILED_MODULES:
        (staging / f"{name}.so").write_text(os.environ["BUILT_BY"])
        time.sleep(float(os.environ["SLOW"]))
    staging.rename(target)


if __name__ == "__main__":
"""


def test_two_builds_at_once_each_build_and_neither_removes_the_others_work(
        tmp_path: Path) -> None:
    """A forced build run while another is copying its build in (bootstrap.sh and one
    typed by hand): one work folder name for every run, each removed the other's, and the
    slow one said 'not built (FileNotFoundError ...)' (reviewb74 R1). Each builds now, and
    the build left is whole, one run's."""
    builds = _copy(tmp_path)
    script = tmp_path / "scripts" / "build_compiled.py"
    text = script.read_text(encoding="utf-8")
    script.write_text(text.replace('\n\nif __name__ == "__main__":\n', FAKE_COMPILE, 1),
                      encoding="utf-8")
    target = builds / jongrogue.source_hash()
    command = [sys.executable, str(script), "--force"]
    env = {**os.environ, "TMPDIR": _temporary(tmp_path)}
    slow = subprocess.Popen(command, env={**env, "BUILT_BY": "slow", "SLOW": "0.2"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not list(builds.glob("..*.partial")):
            assert slow.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        fast = subprocess.run(command, env={**env, "BUILT_BY": "fast", "SLOW": "0"},
                              capture_output=True, text=True, timeout=120, check=False)
        out, err = slow.communicate(timeout=120)
    finally:
        if slow.poll() is None:
            slow.kill()
            slow.wait()
    for done in (fast.returncode, fast.stdout, fast.stderr), (slow.returncode, out, err):
        assert done[0] == 0 and done[2] == "", done
        assert done[1].splitlines()[-1].startswith("compiled rules core: built in "), done
    assert slow.poll() == 0
    assert sorted(p.name for p in builds.iterdir()) == [target.name]
    built = {p.read_text() for p in target.iterdir()}
    assert built == {"slow"} and len(list(target.iterdir())) == len(jongrogue.COMPILED_MODULES)


def test_a_live_compile_keeps_its_folders_however_long_it_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiling child's temporary folder lasts the whole compile with its mtime left
    from its first minute: any other run's sweep (an up-to-date one, another checkout's)
    removed it once older than STALE_SECONDS, with its process still compiling, and that
    build failed (reviewh74b R1). A folder named by a process is kept while it lives; one
    whose process is gone goes at once, and only a name with no pid goes by its age."""
    script = load_script("build_compiled")
    temporary = tmp_path / "tmp"
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    builds = tmp_path / "_compiled"
    live, ended = _pids()
    try:
        kept = [temporary / f"jongrogue-mypyc-{live.pid}-abcd1234",
                builds / f"..abc.{live.pid}.new.partial",
                temporary / "jongrogue-mypyc-new_one"]
        left = [temporary / f"jongrogue-mypyc-{ended}-x1y2", builds / f".abc.{ended}.old",
                temporary / "jongrogue-mypyc-ab_c"]
        for folder in kept + left:
            for part in ("build", "tmp"):
                (folder / part).mkdir(parents=True)
        for folder in kept[:2] + left[2:]:
            _aged(folder, 3 * script.STALE_SECONDS)
        script.sweep(builds)
        assert [folder for folder in kept if not folder.is_dir()] == []
        assert [folder for folder in left if folder.exists()] == []
    finally:
        live.kill()
        live.wait()


def test_the_sweep_leaves_another_users_temporary_folders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The system's temporary folder is shared: root's run (sudo, install-pi.sh), whom the
    sticky bit does not stop, removed every user's folders it took for killed builds
    (reviewh74b R1). Only this user's are removed."""
    if os.geteuid() != 0:
        pytest.skip("a folder of another user's is made by root only")
    script = load_script("build_compiled")
    temporary = tmp_path / "tmp"
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    _, ended = _pids()
    theirs = [temporary / f"jongrogue-mypyc-{ended}-x1y2", temporary / "jongrogue-mypyc-ab_c"]
    mine = temporary / f"jongrogue-mypyc-{ended}-q9"
    for folder in [*theirs, mine]:
        folder.mkdir(parents=True)
    for folder in theirs:
        os.chown(folder, 65534, 65534)  # nobody's
        _aged(folder, 3 * script.STALE_SECONDS)
    script.sweep(tmp_path / "_compiled")
    assert all(folder.is_dir() for folder in theirs)
    assert not mine.exists()


def test_a_build_made_is_put_in_place_where_the_filesystem_cannot_lock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkout on NFS mounted nolock (or some FUSE filesystems) refuses flock: a build
    that compiled ended in a traceback, exit 1, and bootstrap.sh stopped (reviewh74b R3).
    It is put in place without the lock, the older build removed."""
    script = load_script("build_compiled")

    def refused(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(script, "fcntl", SimpleNamespace(flock=refused, LOCK_EX=fcntl.LOCK_EX))
    builds = tmp_path / "_compiled"
    fresh = builds / f".abc.{os.getpid()}.new"
    for folder, text in [(fresh, "new"), (builds / "abc", "old"), (builds / "0123", "older")]:
        folder.mkdir(parents=True)
        (folder / "game.so").write_text(text)
    script.install(fresh, builds / "abc")
    assert _tree(builds) == {"abc/game.so": "new"}


def test_a_build_that_cannot_be_put_in_place_is_said_before_compiling(tmp_path: Path) -> None:
    """A read-only install: --force compiled for minutes (on a Pi), then failed on the
    folder it was to fill (reviewh74b N4). It says so at once, naming the folder, and
    compiles nothing; not forced, with no build of these sources, exit 0 with pure Python."""
    prefix = tuple(without_root_override())
    builds = _copy(tmp_path)
    current = builds / jongrogue.source_hash()
    current.mkdir(parents=True)
    (current / "game.so").write_text("the build in use")
    package = builds.parent
    try:
        builds.chmod(0o555)
        done = _build(tmp_path, "--force", prefix=prefix)
        assert (done.returncode, done.stdout, done.stderr) == (
            1, "", f"compiled rules core: not built ({builds} cannot be written in: "
            f"Permission denied); the build there is kept ({current.name})\n")
        assert _tree(builds) == {f"{current.name}/game.so": "the build in use"}
        builds.chmod(0o755)
        shutil.rmtree(builds)
        package.chmod(0o555)  # no builds' folder yet, and none can be made
        done = _build(tmp_path, prefix=prefix)
        assert (done.returncode, done.stdout, done.stderr) == (
            0, f"compiled rules core: not built ({builds} cannot be written in: "
            "Permission denied); pure Python is used\n", "")
        assert not builds.exists()
    finally:
        for folder in (package, builds):
            if folder.exists():
                folder.chmod(folder.stat().st_mode | stat.S_IWUSR)
