"""scripts/build_compiled.py replaces a compiled rules core only with one that was built
(rules74 RISK 1): ``--force`` deleted the build in use before compiling, so a forced build
that failed (a compiler gone, mypy missing after a venv change, a Pi out of memory) left
pure Python, and said so with exit 0. Each test runs in a copy of the package, so the
checkout's own build is never touched."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.systems import jongrogue
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
BAD_CC = "/nonexistent-cc"
#: What the compiler's failure is said as: setuptools' own words for a compiler not found.
WHY = f"error: command '{BAD_CC}' failed: No such file or directory"


def _copy(tmp_path: Path) -> Path:
    """A checkout of what the build compiles (the package and the companion's modules it
    imports) and the script, with no build; the folder its builds go in."""
    package = Path(jongrogue.__file__).resolve().parent
    (tmp_path / "scripts").mkdir()
    shutil.copy2(ROOT / "scripts" / "build_compiled.py", tmp_path / "scripts")
    ignore = shutil.ignore_patterns("_compiled", "__pycache__")
    for part in ("dice", "systems/jongrogue"):
        shutil.copytree(package.parents[1] / part, tmp_path / "companion" / part, ignore=ignore)
    for name in ("__init__.py", "errors.py", "systems/__init__.py"):
        shutil.copy2(package.parents[1] / name, tmp_path / "companion" / name)
    return tmp_path / "companion" / "systems" / "jongrogue" / "_compiled"


def _build(checkout: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(checkout / "scripts" / "build_compiled.py"), *args],
        env={**os.environ, "CC": BAD_CC}, capture_output=True, text=True, timeout=600,
        check=False)


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


def test_a_build_made_takes_the_place_of_the_one_there_and_the_rest_go(tmp_path: Path) -> None:
    """What main does once the child has built: the new build where the old one of the
    same sources was, and every other build (older sources, a stopped build's leftovers)
    removed."""
    install = load_script("build_compiled").install
    builds = tmp_path / "_compiled"
    for name, text in [("abc", "old"), (".abc.new", "new"), ("0123", "older sources"),
                       ("..abc.new.partial", "a stopped build"), (".abc.old", "a swap cut")]:
        (builds / name).mkdir(parents=True)
        (builds / name / "game.so").write_text(text)
    install(builds / ".abc.new", builds / "abc")
    assert _tree(builds) == {"abc/game.so": "new"}
    (builds / ".abd.new").mkdir()  # with no build of its sources there
    install(builds / ".abd.new", builds / "abd")
    assert [p.name for p in builds.iterdir()] == ["abd"]
