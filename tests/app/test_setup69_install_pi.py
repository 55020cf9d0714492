"""setup69 DEFECT 1: scripts/install-pi.sh over a .venv it did not make on this system (a
checkout copied over from a PC, with the PC's venv) makes it again with --clear, says so,
checks that onnxruntime and OpenCV load, and does not blame the network when that venv is
what failed. The script runs from a copy of the checkout of the test's own, whose .venv
the test makes; the system's commands are stand-ins (as in test_install_pi.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install-pi.sh"


def stand_in(bin_dir: Path, name: str, body: str) -> None:
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def checkout(tmp_path: Path, uid: int = 65534, name: str = "nobody") -> tuple[Path, dict[str, str]]:
    """A copy of the checkout (its install-pi.sh alone) and a shell where ``id`` answers as
    ``name`` (``uid``) on a 64-bit Raspberry Pi OS (dpkg says arm64)."""
    repo, bin_dir = tmp_path / "repo", tmp_path / "bin"
    (repo / "scripts").mkdir(parents=True)
    bin_dir.mkdir()
    shutil.copy(SCRIPT, repo / "scripts" / "install-pi.sh")
    stand_in(bin_dir, "id", f'case "$*" in -u) echo {uid};; -un) echo {name};;\n'
                            f'*) exec /usr/bin/id "$@";; esac')
    stand_in(bin_dir, "dpkg", '[ "$1" = --print-architecture ] && echo arm64')
    return repo, {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}


def venv(repo: Path, python: str | None, home: str | None, stamp: str | None) -> Path:
    """A .venv whose bin/python links to ``python``, whose pyvenv.cfg says ``home`` and
    which has install-pi's stamp for the architecture ``stamp`` (None: no such part)."""
    folder = repo / ".venv"
    (folder / "bin").mkdir(parents=True)
    if python is not None:
        (folder / "bin" / "python").symlink_to(python)
    if home is not None:
        (folder / "pyvenv.cfg").write_text(f"home = {home}\ninclude-system-site-packages = "
                                           "false\nversion = 3.11.7\n")
    if stamp is not None:
        (folder / f".made-by-install-pi-{stamp}").touch()
    return folder


def planned_venv_lines(repo: Path, env: dict[str, str]) -> list[str]:
    out = subprocess.run(["bash", str(repo / "scripts" / "install-pi.sh"), "--dry-run",
                          "--no-service", "--no-compiled"], capture_output=True, text=True,
                         check=True, env=env).stdout.splitlines()
    start = out.index(f"== Python venv in {repo}/.venv")
    return out[start + 1:start + 4]


@pytest.mark.parametrize("python, home, stamp, why", [
    # The PC's pyenv Python, not on the Pi: venv kept the link, and every run failed.
    ("/nonexistent/pyenv/versions/3.11.7/bin/python3", "/nonexistent/pyenv/versions/3.11.7/bin",
     None, "its Python does not run here"),
    # A Python that runs, but not Debian's (its venv sees none of the apt packages).
    ("/bin/true", "/usr/local/bin", None,
     "its Python is /usr/local/bin (pyvenv.cfg's home), not Debian's /usr/bin"),
    # A Debian PC's venv (bootstrap.sh's): the same path runs, its wheels are x86-64 ones.
    ("/bin/true", "/usr/bin", None,
     "install-pi.sh did not make it on this arm64 system (scripts/bootstrap.sh, an earlier "
     "install-pi.sh or another machine did)"),
    ("/bin/true", "/usr/bin", "amd64",
     "install-pi.sh did not make it on this arm64 system (scripts/bootstrap.sh, an earlier "
     "install-pi.sh or another machine did)"),
])
def test_a_venv_made_elsewhere_is_made_again_and_said_so(
        tmp_path: Path, python: str, home: str, stamp: str | None, why: str) -> None:
    repo, env = checkout(tmp_path)
    venv(repo, python, home, stamp)
    lines = planned_venv_lines(repo, env)
    assert lines == [
        f"   this .venv was not made here by install-pi.sh ({why}): making it again, without "
        "its packages (pip fetches them again)",
        f"+ /usr/bin/python3 -m venv --system-site-packages --clear {repo}/.venv",
        f"+ touch {repo}/.venv/.made-by-install-pi-arm64"]


def test_its_own_venv_or_none_is_kept(tmp_path: Path) -> None:
    repo, env = checkout(tmp_path)
    assert planned_venv_lines(repo, env)[0] == \
        f"+ /usr/bin/python3 -m venv --system-site-packages {repo}/.venv"  # none yet
    venv(repo, "/bin/true", "/usr/bin", "arm64")
    assert planned_venv_lines(repo, env)[0] == \
        f"+ /usr/bin/python3 -m venv --system-site-packages {repo}/.venv"


def test_the_plan_checks_that_onnxruntime_and_opencv_load(tmp_path: Path) -> None:
    repo, env = checkout(tmp_path)
    out = subprocess.run(["bash", str(repo / "scripts" / "install-pi.sh"), "--dry-run"],
                         capture_output=True, text=True, check=True, env=env).stdout
    lines = out.splitlines()
    check = lines.index(f"+ {repo}/.venv/bin/python -c 'import onnxruntime, cv2'")
    install = next(n for n, line in enumerate(lines) if " -e " in line and "pip install" in line)
    assert install < check


def run_for_real(tmp_path: Path, fail: str) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """``sudo bash install-pi.sh`` (id -u says 0; SUDO_USER is the player) over a PC's venv,
    its steps stand-ins: apt-get, usermod and getent; sudo -u runs the player's touch and
    rm for real and fails the step ``fail`` names (venv, import, or compileall to stop the
    run after the check)."""
    repo, env = checkout(tmp_path, uid=0, name="root")
    venv(repo, "/nonexistent/pyenv/versions/3.11.7/bin/python3", "/nonexistent/pyenv", None)
    bin_dir, home = tmp_path / "bin", tmp_path / "home"
    calls = tmp_path / "calls"
    stand_in(bin_dir, "apt-get", "exit 0")
    stand_in(bin_dir, "usermod", "exit 0")
    stand_in(bin_dir, "getent", f'[ "$1" = passwd ] && echo "nobody:x:65534:65534::{home}:/bin/sh"'
                                '\nexit 0')
    stand_in(bin_dir, "sudo", f"""echo "sudo $*" >> "{calls}"
[ "$1" = -u ] && shift 2
case "$*" in
  *" -m venv "*) [ "$FAIL" = venv ] || exit 0
    echo "Error: [Errno 13] Permission denied: '{repo}/.venv/bin/python3'" >&2; exit 1;;
  *"import onnxruntime, cv2"*) [ "$FAIL" = import ] || exit 0
    echo "ModuleNotFoundError: No module named 'onnxruntime.capi.onnxruntime_pybind11_state'" >&2
    exit 1;;
  *compileall*) exit 42;;
  touch*|rm*) exec "$@";;
esac""")
    done = subprocess.run(["bash", str(repo / "scripts" / "install-pi.sh"), "--no-service",
                           "--no-compiled"], capture_output=True, text=True,
                          env={**env, "SUDO_USER": "nobody", "FAIL": fail})
    return repo, done


def test_a_venv_step_failing_over_a_copied_venv_names_it_not_the_network(
        tmp_path: Path) -> None:
    """The step failed, and the line after it said "no network? a full card?"."""
    repo, done = run_for_real(tmp_path, "venv")
    assert done.returncode == 1
    assert "making it again" in done.stdout
    assert "sudo -u nobody /usr/bin/python3 -m venv --system-site-packages --clear " \
        f"{repo}/.venv" in (tmp_path / "calls").read_text()
    last = done.stderr.splitlines()[-1]
    assert "no network" not in last
    assert last.startswith("install-pi.sh: stopped: the step above failed (exit 1; this .venv "
                           f"came from elsewhere: if the step names it, remove it: rm -rf "
                           f"{repo}/.venv): mend what it says, then run bash "
                           "scripts/install-pi.sh again")


def test_an_onnxruntime_that_does_not_load_stops_the_install_and_the_next_run_remakes_it(
        tmp_path: Path) -> None:
    """An x86-64 onnxruntime pip kept passed the final check, which looked at pygame, lgpio
    and picamera2 alone; `companion classify` then ended in a traceback."""
    repo, done = run_for_real(tmp_path, "import")
    assert done.returncode == 1
    assert "   error: the venv's onnxruntime or OpenCV (cv2) does not load here (above)" \
        in done.stderr
    assert "(exit 1; a package built for another machine? running it again makes the venv " \
        "afresh)" in done.stderr.splitlines()[-1]
    assert not list((repo / ".venv").glob(".made-by-install-pi-*"))
    # Once it loads, the venv is stamped as this script's: the next run keeps it.
    _, done = run_for_real(tmp_path / "again", "none")
    assert done.returncode == 42, done.stderr
    assert (tmp_path / "again" / "repo" / ".venv" / ".made-by-install-pi-arm64").is_file()
