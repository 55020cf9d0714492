"""Build the compiled rules core (mypyc) for the sources as they are now, if it can be.

    .venv/bin/python scripts/build_compiled.py [--force] [--verbose]

The build goes to ``companion/systems/jongrogue/_compiled/<hash of the sources>/``
(see that package's docstring); older builds are removed. Nothing to do when the build
for these sources is there. Without mypyc or a C compiler, or when the compile fails,
it says so in one line and exits 0: the companion then runs the pure Python modules,
only slower, so a Pi without a compiler still plays.
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
    parser.add_argument("--force", action="store_true", help="build again even if up to date")
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
    shutil.rmtree(target.parent, ignore_errors=True)  # older builds can never be used again
    print("compiled rules core: building (a minute here, several on a Pi)", flush=True)
    start = time.perf_counter()
    # A child process compiles, so the compiler's own output can be kept quiet.
    child = subprocess.run(
        [sys.executable, __file__, "--into", str(target)],
        capture_output=not args.verbose, text=True, check=False,
    )
    if child.returncode != 0 or not target.is_dir():
        reason = _reason((child.stdout or "") + (child.stderr or ""))
        print(f"compiled rules core: not built ({reason}); pure Python is used")
        return 0
    print(f"compiled rules core: built in {time.perf_counter() - start:.0f} s ({target.name})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
