"""a77setup NIT 8: ``sh scripts/bootstrap.sh`` (as many Pi guides type it, ``sudo sh …``
too) stopped at dash's "set: Illegal option -o pipefail", which names the shell's option,
not the fix. Each script run by a shell that is not bash says to run it with bash, and
does nothing else: a copy is run, in a folder of its own, so no step of it can reach the
checkout."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SH = shutil.which("dash") or shutil.which("sh")


@pytest.mark.skipif(SH is None or subprocess.run(
    [SH, "-c", 'test -z "${BASH_VERSION:-}"']).returncode != 0, reason="no sh but bash here")
@pytest.mark.parametrize(("script", "name"), [
    ("scripts/bootstrap.sh", "bootstrap.sh"), ("scripts/install-pi.sh", "install-pi.sh"),
    (".ci/run", ".ci/run")])
def test_a_script_run_with_sh_says_to_run_it_with_bash(
        tmp_path: Path, script: str, name: str) -> None:
    assert SH is not None
    (tmp_path / script).parent.mkdir()
    shutil.copy(ROOT / script, tmp_path / script)
    done = subprocess.run([SH, script], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"{name}: run it with bash: bash {script}\n"
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == \
        sorted({script, str(Path(script).parent)})  # nothing made


@pytest.mark.skipif(SH is None or subprocess.run(
    [SH, "-c", 'test -z "${BASH_VERSION:-}"']).returncode != 0, reason="no sh but bash here")
@pytest.mark.parametrize(("script", "name"), [
    ("scripts/bootstrap.sh", "bootstrap.sh"), ("scripts/install-pi.sh", "install-pi.sh"),
    (".ci/run", ".ci/run")])
def test_run_with_sh_from_another_folder_the_command_given_finds_the_script(
        tmp_path: Path, script: str, name: str) -> None:
    """r77setup: ``sh ~/jr/scripts/bootstrap.sh`` typed in the home folder was told ``bash
    scripts/bootstrap.sh``, no file there: the script is named as it was typed."""
    assert SH is not None
    copy = tmp_path / "checkout" / script
    copy.parent.mkdir(parents=True)
    shutil.copy(ROOT / script, copy)
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    done = subprocess.run([SH, str(copy)], cwd=elsewhere, capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stderr) == (2, f"{name}: run it with bash: bash {copy}\n")
    assert list(elsewhere.iterdir()) == []  # nothing made


@pytest.mark.parametrize("script", ["scripts/bootstrap.sh", "scripts/install-pi.sh",
                                    ".ci/run"])
def test_the_script_parses_in_bash(script: str) -> None:
    subprocess.run(["bash", "-n", str(ROOT / script)], check=True)
