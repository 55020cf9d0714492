"""scripts/bootstrap.sh on a checkout of its own, with stand-ins for ``python3``, the venv's
Python, ``sudo`` and ``apt-get`` that log their calls: a venv it cannot use is made again,
and what it cannot mend stops it with the line that says what to do (install58 D1, R1, R2).

The stand-in Python runs the script's ``-c`` code for real, as the Python version it is
told to be; ``-m venv`` makes a venv of stand-ins (with pip unless ensurepip is missing),
``-m pip`` answers for the pip the venv has, and an editable install points the venv's
``import companion`` at the checkout it was made in, as setuptools' does."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.bootstrap_helpers import (
    ROOT,
    SCRIPT,
    bootstrap,
    calls,
    checkout,
    installs,
    stand_ins,
)


def test_a_fresh_checkout_is_set_up_and_a_second_run_changes_nothing(tmp_path: Path) -> None:
    repo = checkout(tmp_path)
    env = stand_ins(tmp_path)
    done = bootstrap(repo, env)
    assert done.returncode == 0, done.stderr
    assert "python3 -m venv .venv" in calls(env)
    assert installs(env)[-1] == "venv-python -m pip install -q -e .[test]"
    done = bootstrap(repo, env)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert not any(" venv " in call for call in calls(env)) and not installs(env)


def test_a_venv_with_no_pip_is_made_again(tmp_path: Path) -> None:
    """A bootstrap cut while ``python3 -m venv`` ran ensurepip left a .venv/bin/python with
    no pip: every later run stopped at "No module named pip"."""
    repo = checkout(tmp_path)
    env = stand_ins(tmp_path)
    assert bootstrap(repo, env).returncode == 0
    (repo / ".venv" / "pip").unlink()
    for stamp in (repo / ".venv").glob(".installed-*"):
        stamp.unlink()  # the cut came before the install
    done = bootstrap(repo, env)
    assert done.returncode == 0, done.stderr
    assert ".venv cannot be used: it has no pip" in done.stdout
    assert "python3 -m venv --clear .venv" in calls(env)
    assert installs(env)[-1] == "venv-python -m pip install -q -e .[test]"


def test_python3_venv_that_cannot_be_installed_stops_with_what_to_install(
        tmp_path: Path) -> None:
    """A fresh Debian 12 lacks python3-venv, and a plain user there often has no sudo: the
    failed ``sudo apt-get`` went by, ``python3 -m venv`` left a venv with no pip, and once
    python3-venv was installed every run said "No module named pip"."""
    repo = checkout(tmp_path)
    env = stand_ins(tmp_path, sudo_works=False, ensurepip=False)
    done = bootstrap(repo, env)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "bootstrap.sh: could not install python3-venv (above): sudo apt install python3-venv "
        "(or as root: apt install python3-venv), then run this again")
    assert not any(" venv " in call and "--help" not in call for call in calls(env))
    # Installed as root since, python3 makes a venv with pip, and the run goes on.
    del env["NO_ENSUREPIP"]
    done = bootstrap(repo, env)
    assert done.returncode == 0, done.stderr
    assert (repo / ".venv" / "pip").exists()


def test_a_venv_made_when_ensurepip_failed_is_made_again_once_it_is_there(
        tmp_path: Path) -> None:
    """The Debian message's own way out (apt install python3.11-venv, as root) came after a
    pip-less venv was made: the next run must make it again, not stop at its pip."""
    repo = checkout(tmp_path)
    env = stand_ins(tmp_path, ensurepip=False)  # sudo "installs" it, to no avail
    done = bootstrap(repo, env)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "bootstrap.sh: python3 -m venv failed (above): mend what it says, then run this again")
    del env["NO_ENSUREPIP"]
    done = bootstrap(repo, env)
    assert done.returncode == 0, done.stderr
    assert "python3 -m venv --clear .venv" in calls(env)


def test_a_python_older_than_3_11_is_refused_by_name(tmp_path: Path) -> None:
    """pip's "requires a different Python: 3.10.13 not in '>=3.11'" came after the venv was
    made of it, and that venv was kept once a newer python3 was first on PATH."""
    repo = checkout(tmp_path)
    env = stand_ins(tmp_path, python3="3.10.13")
    done = bootstrap(repo, env)
    assert done.returncode == 1
    assert done.stderr == ("bootstrap.sh: needs Python 3.11 or newer, and python3 is 3.10.13: "
                           "put a newer python3 first on PATH (Debian 12 has 3.11) and run "
                           "this again\n")
    assert not (repo / ".venv").exists() and not installs(env)


def test_a_venv_of_an_older_python_is_made_again_with_the_newer_python3(
        tmp_path: Path) -> None:
    repo = checkout(tmp_path)
    env = stand_ins(tmp_path, python3="3.10.13")
    # A venv the old bootstrap.sh made with it (pip then refused the companion).
    subprocess.run([str(tmp_path / "bin" / "python3"), "-m", "venv", str(repo / ".venv")],
                   env=env, check=True)
    env["PYTHON3_VERSION"] = "3.11.2"
    done = bootstrap(repo, env)
    assert done.returncode == 0, done.stderr
    assert ".venv cannot be used: its Python is 3.10.13, not 3.11 or newer" in done.stdout
    assert (repo / ".venv" / "version").read_text() == "3.11.2"
    assert installs(env)


def test_a_moved_checkout_makes_its_venv_again(tmp_path: Path) -> None:
    """After `mv repo moved`, the venv's companion was the old folder's: bootstrap.sh said
    nothing but a traceback it let pass, and exited 0, and .venv/bin/companion could not
    be run."""
    repo = checkout(tmp_path)
    env = stand_ins(tmp_path)
    assert bootstrap(repo, env).returncode == 0
    moved = repo.rename(tmp_path / "moved")
    done = bootstrap(moved, env)
    assert done.returncode == 0, done.stderr
    assert (".venv cannot be used: its companion is not this folder's (the checkout was "
            "moved or copied since); making it again") in done.stdout
    assert "python3 -m venv --clear .venv" in calls(env)
    assert (moved / ".venv" / "editable").read_text() == str(moved)
    done = bootstrap(moved, env)  # and now it is
    assert done.returncode == 0 and not installs(env)


def test_a_pis_venv_is_left_for_install_pi_to_make_again(tmp_path: Path) -> None:
    """review58a R-2: scripts/install-pi.sh's venv sees the system's picamera2, lgpio and
    pygame, and pins numpy<2 (picamera2 cannot import numpy 2): made again here with a plain
    pip install, it took numpy 2. Its own script makes it again, and points the boot service
    at a moved checkout."""
    repo = checkout(tmp_path)
    env = stand_ins(tmp_path)
    subprocess.run([str(tmp_path / "bin" / "python3"), "-m", "venv", "--system-site-packages",
                    str(repo / ".venv")], env=env, check=True)
    (repo / ".venv" / "pip").unlink()
    done = bootstrap(repo, env)
    assert done.returncode == 1
    assert done.stderr == (
        "bootstrap.sh: .venv cannot be used: it has no pip (its making was cut short, or "
        "python3-venv was missing then). It is scripts/install-pi.sh's (it sees the system's "
        "packages): run `bash scripts/install-pi.sh` again, which makes it with the Pi's pins "
        "(numpy<2 for the camera) and points the boot service at this folder; not on a Pi, "
        "remove .venv and run this again\n")
    assert not any(" venv " in call for call in calls(env)) and not installs(env)
    assert (repo / ".venv" / "pyvenv.cfg").exists()


def test_a_compiled_build_that_breaks_is_no_success(tmp_path: Path) -> None:
    """build_compiled.py exits 0 when it cannot build (no compiler): any other exit is a
    fault, which ``|| true`` passed over with exit 0."""
    repo = checkout(tmp_path)
    env = stand_ins(tmp_path)
    assert bootstrap(repo, env).returncode == 0
    python = repo / ".venv" / "bin" / "python"
    python.write_text(python.read_text().replace(
        'args[0].endswith("build_compiled.py"):\n    sys.exit(0)',
        'args[0].endswith("build_compiled.py"):\n    sys.exit(1)'))
    done = bootstrap(repo, env)
    assert done.returncode == 1
    assert done.stderr.endswith("bootstrap.sh: scripts/build_compiled.py failed (above)\n")


def test_the_script_parses() -> None:
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True)


def test_ci_says_when_it_leaves_the_fonts_out(tmp_path: Path) -> None:
    """install58 N6: .ci/run, not root, skipped installing the fonts without a word, and the
    tests that need them were skipped with no reason given at the top."""
    repo = checkout(tmp_path)
    (repo / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", repo / ".ci" / "run")
    (repo / "scripts" / "bootstrap.sh").write_text("exit 3\n")  # no tests run here
    env = stand_ins(tmp_path)
    (tmp_path / "bin" / "fc-list").write_text("#!/bin/sh\nexit 0\n")  # no font at all
    (tmp_path / "bin" / "fc-list").chmod(0o755)
    done = subprocess.run(["bash", str(repo / ".ci" / "run")], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 3 and not calls(env)  # no apt-get, no sudo
    assert done.stdout == ("note: fonts-noto-cjk fonts-symbola not installed (installing "
                           "them needs root, and this is player); the tests that need them "
                           "will be skipped\n")


def test_ci_finds_the_fonts_whatever_fc_list_prints(tmp_path: Path) -> None:
    """a77setup RISK 3: ``fc-list | grep -q .`` under pipefail: grep stopped at the first
    line, fc-list died of SIGPIPE with more to write (a machine with many CJK fonts), and
    .ci/run said the fonts were not installed, or, as root, ran apt-get for nothing."""
    repo = checkout(tmp_path)
    (repo / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", repo / ".ci" / "run")
    (repo / "scripts" / "bootstrap.sh").write_text("exit 3\n")  # no tests run here
    env = stand_ins(tmp_path)
    line = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc: Noto Sans CJK JP:style=Regular"
    (tmp_path / "bin" / "fc-list").write_text(  # about 400 KB, past any pipe's buffer
        f'#!/bin/sh\ni=0\nwhile [ $i -lt 5000 ]; do echo "{line}"; i=$((i+1)); done\n')
    (tmp_path / "bin" / "fc-list").chmod(0o755)
    done = subprocess.run(["bash", str(repo / ".ci" / "run")], capture_output=True, text=True,
                          env=env, timeout=60)
    assert (done.returncode, done.stdout) == (3, "") and not calls(env)


def test_ci_parses() -> None:
    subprocess.run(["bash", "-n", str(ROOT / ".ci" / "run")], check=True)
