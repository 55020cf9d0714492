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
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.systems import jongrogue

GROUP = "companion.systems.jongrogue.rules"  # the shared library all the modules use


def compile_into(target: Path) -> None:
    """Compile the modules with mypyc and put the extension modules in ``target``."""
    from mypyc.build import mypycify
    from setuptools import setup

    package = Path(jongrogue.__file__).resolve().parent
    paths = [str(package / f"{name}.py") for name in jongrogue.COMPILED_MODULES]
    with tempfile.TemporaryDirectory(prefix="jongrogue-mypyc-") as tmp:
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
    if target.is_dir() and not args.force:
        print(f"compiled rules core: up to date ({target.name})")
        return 0
    builds = target.parent
    # Beside the build in use, never over it: --force deleted it before compiling, and a
    # compile that failed then left pure Python, with exit 0 (rules74 RISK 1).
    fresh = builds / f".{target.name}.new"
    shutil.rmtree(fresh, ignore_errors=True)  # what a build stopped midway left
    print("compiled rules core: building (a minute here, several on a Pi)", flush=True)
    start = time.perf_counter()
    # A child process compiles, so the compiler's own output can be kept quiet.
    child = subprocess.run(
        [sys.executable, __file__, "--into", str(fresh)],
        capture_output=not args.verbose, text=True, check=False,
    )
    if child.returncode != 0 or not fresh.is_dir():
        for left in (fresh, builds / f".{fresh.name}.partial"):
            shutil.rmtree(left, ignore_errors=True)
        reason = _reason((child.stdout or "") + (child.stderr or ""))
        kept = f"the build there is kept ({target.name})" if target.is_dir() \
            else "pure Python is used"
        # Not forced, exit 0: bootstrap.sh and install-pi.sh go on with the pure core.
        print(f"compiled rules core: not built ({reason}); {kept}",
              file=sys.stderr if args.force else sys.stdout)
        return 1 if args.force else 0
    install(fresh, target)
    print(f"compiled rules core: built in {time.perf_counter() - start:.0f} s ({target.name})")
    return 0


def install(fresh: Path, target: Path) -> None:
    """Put the build ``fresh`` in the place of ``target`` (a build of the same sources, or
    none), then remove every other build beside it: older ones can never be used again."""
    old = target.parent / f".{target.name}.old"
    shutil.rmtree(old, ignore_errors=True)
    if target.is_dir():
        target.rename(old)  # a process running from it keeps the modules it has loaded
    fresh.rename(target)
    for other in target.parent.iterdir():
        if other != target:
            shutil.rmtree(other, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
