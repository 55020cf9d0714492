"""Build the compiled rules core (mypyc) for the sources as they are now, if it can be.

    .venv/bin/python scripts/build_compiled.py [--force] [--verbose]

The build goes to ``companion/systems/jongrogue/_compiled/<hash of the sources>/``
(see that package's docstring). Nothing to do when the build for these sources is there;
``--force`` builds it again all the same. A build is made beside the one in use and put
in its place only once it has succeeded; then the older builds are removed. Without
mypyc or a C compiler, or when the compile fails, it says why in one line and changes
nothing: with no build for these sources it exits 0, and the companion runs the pure
Python modules, only slower, so a Pi without a compiler still plays. A failed
``--force`` exits 1, and the build that was there, if any, is still used.

Each run works in folders named by its process id, so two runs at once (bootstrap.sh and
a hand-typed one) never remove each other's work, and it swaps its build in under a lock
on the builds' folder (without one where the filesystem has no locks). Every run, an
up-to-date one too, removes what a killed build left: work folders whose process is gone,
or, named by none, older than :data:`STALE_SECONDS`; in the system's temporary folder
only this user's. A build that could not be put in place (a read-only install) is said
before the compile, not after it.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.systems import jongrogue

GROUP = "companion.systems.jongrogue.rules"  # the shared library all the modules use
#: A work folder named by no process (0b4950d6's runs) this old is a killed build's: a run
#: makes them only after its compile, and filling one (a copy) or swapping it in takes
#: seconds. Not for a name with a pid: the compiling child's temporary folder lasts the
#: whole compile, minutes on a Pi, with its own mtime unchanged from the first of them
#: (reviewh74b R1: it was removed from under a live compile); that process tells.
STALE_SECONDS = 10 * 60
#: A run's work folders: ``.<hash>.<pid>.new`` (and the child's ``..<hash>.<pid>.new.partial``
#: as it fills it) and ``.<hash>.<pid>.old``; without a pid, the names of 0b4950d6's runs.
WORK = re.compile(r"\.+[0-9a-f]+(?:\.(?P<pid>\d+))?\.(?:new|old)(?:\.partial)?")
#: The compiling child's temporary folder in the system's, named by its process id too.
TEMPORARY = "jongrogue-mypyc-"


def compile_into(target: Path) -> None:
    """Compile the modules with mypyc and put the extension modules in ``target``."""
    from mypyc.build import mypycify
    from setuptools import setup

    package = Path(jongrogue.__file__).resolve().parent
    paths = [str(package / f"{name}.py") for name in jongrogue.COMPILED_MODULES]
    with tempfile.TemporaryDirectory(prefix=f"{TEMPORARY}{os.getpid()}-") as tmp:
        os.chdir(tmp)  # setuptools reads the pyproject.toml of the working directory
        setup(
            name="jongrogue-rules-compiled",
            ext_modules=mypycify(paths, opt_level="3", group_name=GROUP),
            script_args=["build_ext", "--build-lib", "lib", "--build-temp", "tmp"],
        )
        built = Path(tmp) / "lib" / "companion" / "systems" / "jongrogue"
        staging = target.parent / f".{target.name}.partial"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        for library in built.iterdir():
            shutil.copy2(library, staging / library.name)
        staging.rename(target)  # whole or not at all: the package checks for every module


def _reason(output: str) -> str:
    """The line of a failed build that says why."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.lower().startswith("error:") or "No module named" in line:
            return line[:160]
    return lines[-1][:160] if lines else "unknown error"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--force", action="store_true", help="build again even if up to date; "
                        "if that fails, exit 1 and keep the build there")
    parser.add_argument("--verbose", action="store_true", help="show the compiler's output")
    parser.add_argument("--into", type=Path, help=argparse.SUPPRESS)  # the compiling child
    args = parser.parse_args()
    if args.into:
        compile_into(args.into)
        return 0
    target = jongrogue.compiled_dir()
    builds = target.parent
    sweep(builds)  # what killed builds left, an up-to-date run too (reviewb74 R2)
    if target.is_dir() and not args.force:
        print(f"compiled rules core: up to date ({target.name})")
        return 0
    # Beside the build in use, never over it: --force deleted it before compiling, and a
    # compile that failed then left pure Python, with exit 0 (rules74 RISK 1). Named by
    # this process: one name for all runs let two at once remove each other's (reviewb74 R1).
    fresh = builds / f".{target.name}.{os.getpid()}.new"
    shutil.rmtree(fresh, ignore_errors=True)  # a run of the same pid killed long ago
    if (unwritable := _unwritable(builds, fresh)) is not None:
        # Said now, not once the compile is done and its build cannot be put anywhere
        # (reviewh74b N4: a read-only install's --force compiled for minutes, then failed).
        return _not_built(unwritable, target, args.force)
    print("compiled rules core: building (a minute here, several on a Pi)", flush=True)
    start = time.perf_counter()
    # A child process compiles, so the compiler's own output can be kept quiet.
    child = subprocess.run(
        [sys.executable, __file__, "--into", str(fresh)],
        capture_output=not args.verbose, text=True, check=False,
    )
    if child.returncode != 0 or not fresh.is_dir():
        for left in (fresh, builds / f".{fresh.name}.partial"):  # this run's own
            shutil.rmtree(left, ignore_errors=True)
        return _not_built(_reason((child.stdout or "") + (child.stderr or "")), target,
                          args.force)
    install(fresh, target)
    print(f"compiled rules core: built in {time.perf_counter() - start:.0f} s ({target.name})")
    return 0


def _not_built(reason: str, target: Path, forced: bool) -> int:
    """Say why nothing was built, and what is used instead; the exit status."""
    kept = f"the build there is kept ({target.name})" if target.is_dir() \
        else "pure Python is used"
    # Not forced, exit 0: bootstrap.sh and install-pi.sh go on with the pure core.
    print(f"compiled rules core: not built ({reason}); {kept}",
          file=sys.stderr if forced else sys.stdout)
    return 1 if forced else 0


def _unwritable(builds: Path, fresh: Path) -> str | None:
    """Why no build can be put in ``builds`` (None: it can), found by making there the
    folder the child fills (``fresh``'s ``.partial``, a name :func:`_sweep` removes if this
    run is killed before it is removed again): a mode's check would pass a read-only mount
    or, as root, a dropped capability."""
    probe = builds / f".{fresh.name}.partial"
    shutil.rmtree(probe, ignore_errors=True)  # a run of the same pid killed long ago
    try:
        builds.mkdir(parents=True, exist_ok=True)
        probe.mkdir()
        probe.rmdir()
    except FileExistsError:  # a killed run's that could not be removed: the child says why
        return None
    except OSError as error:
        return f"{builds} cannot be written in: {error.strerror or error}"
    return None


def install(fresh: Path, target: Path) -> None:
    """Put the build ``fresh`` in the place of ``target`` (a build of the same sources, or
    none), then remove every other build beside it: older ones can never be used again.
    Under the lock, so two runs never swap at once; another run's work folders are left to
    it (reviewb74 R1: it removed them), a killed one's removed (:func:`sweep`)."""
    builds = target.parent
    old = builds / f".{target.name}.{os.getpid()}.old"
    with _locked(builds):
        shutil.rmtree(old, ignore_errors=True)
        if target.is_dir():
            target.rename(old)  # a process running from it keeps the modules it has loaded
        fresh.rename(target)
        shutil.rmtree(old, ignore_errors=True)
        for other in builds.iterdir():
            if other != target and not other.name.startswith("."):
                shutil.rmtree(other, ignore_errors=True)
        _sweep(builds)


def sweep(builds: Path) -> None:
    """Remove what killed builds left in ``builds`` and in the system's temporary folder
    (:func:`_sweep`; there, only this user's); a folder that cannot be opened or written in
    (no builds yet, a read-only checkout) is left as it is: an up-to-date run says so all
    the same."""
    with contextlib.suppress(OSError):
        with _locked(builds):
            _sweep(builds)
    for left in Path(tempfile.gettempdir()).glob(f"{TEMPORARY}*"):
        pid, named, _ = left.name.removeprefix(TEMPORARY).partition("-")
        # Only this user's: a shared /tmp holds other users' builds, which root's run (sudo,
        # install-pi.sh) could remove in spite of the sticky bit (reviewh74b R1).
        with contextlib.suppress(OSError):
            if left.lstat().st_uid == os.getuid() and \
                    _stale(left, int(pid) if named and pid.isdigit() else None):
                shutil.rmtree(left, ignore_errors=True)


def _sweep(builds: Path) -> None:
    """Remove each work folder in ``builds`` (:data:`WORK`) whose run is gone (killed while it
    compiled, copied or swapped, it left them; 0b4950d6's runs removed them only in the next
    build of the same sources, or once another build was swapped in). A live run's are
    kept."""
    for other in builds.iterdir():
        if (work := WORK.fullmatch(other.name)) is not None and \
                _stale(other, int(work["pid"]) if work["pid"] else None):
            shutil.rmtree(other, ignore_errors=True)


def _stale(path: Path, pid: int | None) -> bool:
    """Whether the work folder ``path`` of the run ``pid`` (None: not known) is a killed
    run's: that process is gone, whatever the folder's age (a live one's is kept, however
    long it compiles: reviewh74b R1; a pid used again since only puts off the removal), or,
    named by no process, the folder is older than :data:`STALE_SECONDS`."""
    if pid is None:
        try:
            return time.time() - path.lstat().st_mtime > STALE_SECONDS
        except OSError:  # gone meanwhile
            return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # another user's process: alive
        return False
    return False


@contextlib.contextmanager
def _locked(builds: Path) -> Iterator[None]:
    """Hold a lock on the folder ``builds`` itself until the block ends: no lock file is
    left among the builds, and a folder that is not there yet raises FileNotFoundError.
    A filesystem that has no locks (NFS mounted nolock, some FUSE ones) runs the block
    without: a build made was lost to a traceback (reviewh74b R3), and two runs at once
    on such a checkout are as before the lock."""
    folder = os.open(builds, os.O_RDONLY | os.O_DIRECTORY)
    try:
        # A blocking flock fails only where it cannot lock at all: ENOLCK on NFS without
        # lockd, EOPNOTSUPP, EINVAL or EBADF on some FUSE filesystems.
        with contextlib.suppress(OSError):
            fcntl.flock(folder, fcntl.LOCK_EX)
        yield
    finally:
        os.close(folder)


if __name__ == "__main__":
    raise SystemExit(main())
