"""setup69 DEFECT 1: scripts/install-pi.sh over a .venv it did not make on this system (a
checkout copied over from a PC, with the PC's venv) makes it again with --clear, says so,
checks that onnxruntime and OpenCV load, and does not blame the network when that venv is
what failed. A venv of Debian's Python without the stamp (an earlier install-pi.sh's) is
kept, and stamped, when its onnxruntime and OpenCV load (reviews69 RISK 1). The script runs
from a copy of the checkout of the test's own, whose .venv the test makes (with Debian's
/usr/bin/python3 where the script would run it); the system's commands are stand-ins (as in
test_install_pi.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install-pi.sh"
DEBIAN_PYTHON = Path("/usr/bin/python3")
needs_debian_python = pytest.mark.skipif(
    not DEBIAN_PYTHON.is_file() or sys.platform != "linux",
    reason="the script makes its venv with Debian's /usr/bin/python3")
# What an x86-64 onnxruntime wheel says when it is imported on the Pi (aarch64).
WRONG_MACHINE = ("raise ImportError(\"No module named "
                 "'onnxruntime.capi.onnxruntime_pybind11_state'\")")
NOT_LOADED = ("install-pi.sh did not make it on this arm64 system, and its onnxruntime or "
              "OpenCV does not load here (another machine's, or a cut-short install)")


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


def site_packages(folder: Path) -> Path:
    return next(folder.glob("lib/python3*/site-packages"))


def camera_packages(folder: Path, onnxruntime: str | None = "", cv2: str | None = "") -> None:
    """Stand-ins for the venv's onnxruntime and cv2: each package's __init__.py (None: the
    package is not there)."""
    for name, body in (("onnxruntime", onnxruntime), ("cv2", cv2)):
        package = site_packages(folder) / name
        shutil.rmtree(package, ignore_errors=True)
        if body is not None:
            package.mkdir()
            (package / "__init__.py").write_text(body + "\n")


def debian_venv(repo: Path, stamp: str | None, onnxruntime: str | None = "",
                cv2: str | None = "") -> Path:
    """A real venv of Debian's Python (pyvenv.cfg's home /usr/bin, as an earlier
    install-pi.sh or a Debian PC's bootstrap.sh made it), with stand-in camera packages and
    install-pi's stamp for the architecture ``stamp`` (None: none)."""
    folder = repo / ".venv"
    subprocess.run([str(DEBIAN_PYTHON), "-m", "venv", "--without-pip", str(folder)], check=True)
    camera_packages(folder, onnxruntime, cv2)
    if stamp is not None:
        (folder / f".made-by-install-pi-{stamp}").touch()
    return folder


def planned_venv_lines(repo: Path, env: dict[str, str]) -> list[str]:
    out = subprocess.run(["bash", str(repo / "scripts" / "install-pi.sh"), "--dry-run",
                          "--no-service", "--no-compiled"], capture_output=True, text=True,
                         check=True, env=env).stdout.splitlines()
    start = out.index(f"== Python venv in {repo}/.venv")
    return out[start + 1:start + 4]


def remade(repo: Path, why: str) -> list[str]:
    return [f"   this .venv was not made here by install-pi.sh ({why}): making it again, "
            "without its packages (pip fetches them again)",
            f"+ /usr/bin/python3 -m venv --system-site-packages --clear {repo}/.venv",
            f"+ touch {repo}/.venv/.made-by-install-pi-arm64"]


@pytest.mark.parametrize("python, home, why", [
    # The PC's pyenv Python, not on the Pi: venv kept the link, and every run failed.
    ("/nonexistent/pyenv/versions/3.11.7/bin/python3", "/nonexistent/pyenv/versions/3.11.7/bin",
     "its Python does not run here"),
    # A Python that runs, but not Debian's (its venv sees none of the apt packages).
    ("/bin/true", "/usr/local/bin",
     "its Python is /usr/local/bin (pyvenv.cfg's home), not Debian's /usr/bin"),
])
def test_a_venv_of_another_python_is_made_again_and_said_so(
        tmp_path: Path, python: str, home: str, why: str) -> None:
    repo, env = checkout(tmp_path)
    venv(repo, python, home, None)
    assert planned_venv_lines(repo, env) == remade(repo, why)


@needs_debian_python
@pytest.mark.parametrize("stamp, onnxruntime, cv2, stray_cv2", [
    # A Debian PC's venv (bootstrap.sh's): the same Python path runs, its wheels are x86-64.
    (None, WRONG_MACHINE, "", False),
    # Stamped for the PC's architecture, not this one.
    ("amd64", WRONG_MACHINE, "", False),
    # An install cut short before OpenCV; a cv2/ folder in the checkout does not answer.
    (None, "", None, True),
])
def test_a_debian_venv_whose_camera_packages_do_not_load_is_made_again(
        tmp_path: Path, stamp: str | None, onnxruntime: str, cv2: str | None,
        stray_cv2: bool) -> None:
    repo, env = checkout(tmp_path)
    debian_venv(repo, stamp, onnxruntime, cv2)
    if stray_cv2:
        (repo / "cv2").mkdir()
        (repo / "cv2" / "__init__.py").write_text("")
    assert planned_venv_lines(repo, env) == remade(repo, NOT_LOADED)


@needs_debian_python
def test_an_earlier_install_pis_venv_whose_packages_load_is_kept_and_stamped(
        tmp_path: Path) -> None:
    """reviews69 RISK 1: the stamp came in with setup69's fix, and a Pi installed before it
    had its good venv made again, onnxruntime, OpenCV and numpy downloaded anew."""
    repo, env = checkout(tmp_path)
    folder = debian_venv(repo, None)
    assert planned_venv_lines(repo, env)[:2] == [
        f"+ /usr/bin/python3 -m venv --system-site-packages {repo}/.venv",
        f"+ touch {repo}/.venv/.made-by-install-pi-arm64"]
    # The check ran the venv's packages (as root, under sudo) and wrote no .pyc into them.
    assert not list(site_packages(folder).rglob("__pycache__"))


def test_its_own_venv_or_none_is_kept(tmp_path: Path) -> None:
    repo, env = checkout(tmp_path)
    assert planned_venv_lines(repo, env)[0] == \
        f"+ /usr/bin/python3 -m venv --system-site-packages {repo}/.venv"  # none yet
    venv(repo, "/bin/true", "/usr/bin", "arm64")  # stamped: its packages are not tried
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


def pi_checkout(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A checkout with a PC's venv, for ``sudo bash install-pi.sh`` (id -u says 0; SUDO_USER
    is the player), its steps stand-ins: apt-get, usermod and getent; sudo -u makes the venv
    for real (with Debian's Python, pip left out), runs touch and rm, and fails the step
    ``$FAIL`` names: venv, or import (the check after pip); compileall stops the run (42)."""
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
  *" -m venv "*) if [ "$FAIL" = venv ]; then
      echo "Error: [Errno 13] Permission denied: '{repo}/.venv/bin/python3'" >&2; exit 1
    fi
    exec "$@" --without-pip;;
  *"import onnxruntime, cv2"*) [ "$FAIL" = import ] || exit 0
    echo "ModuleNotFoundError: No module named 'onnxruntime.capi.onnxruntime_pybind11_state'" >&2
    exit 1;;
  *compileall*) exit 42;;
  touch*|rm*) exec "$@";;
esac""")
    return repo, env


def install(repo: Path, env: dict[str, str], fail: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(repo / "scripts" / "install-pi.sh"), "--no-service",
                           "--no-compiled"], capture_output=True, text=True,
                          env={**env, "SUDO_USER": "nobody", "FAIL": fail})


def test_a_venv_step_failing_over_a_copied_venv_names_it_not_the_network(
        tmp_path: Path) -> None:
    """The step failed, and the line after it said "no network? a full card?"."""
    repo, env = pi_checkout(tmp_path)
    done = install(repo, env, "venv")
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


@needs_debian_python
def test_an_onnxruntime_that_does_not_load_stops_the_install_and_the_next_run_remakes_it(
        tmp_path: Path) -> None:
    """An x86-64 onnxruntime pip kept passed the final check, which looked at pygame, lgpio
    and picamera2 alone; `companion classify` then ended in a traceback. Three runs on the
    same checkout and venv (reviews69 NIT 2): the check fails; the next run makes the venv
    again; once it loads, the run after keeps it."""
    repo, env = pi_checkout(tmp_path)
    calls, folder = tmp_path / "calls", repo / ".venv"
    done = install(repo, env, "import")
    assert done.returncode == 1
    assert "   error: the venv's onnxruntime or OpenCV (cv2) does not load here (above)" \
        in done.stderr
    assert "(exit 1; a package built for another machine? running it again makes the venv " \
        "afresh)" in done.stderr.splitlines()[-1]
    assert not list(folder.glob(".made-by-install-pi-*"))
    # What failed to load: the x86-64 wheel pip kept in the venv.
    camera_packages(folder, onnxruntime=WRONG_MACHINE)
    calls.unlink()

    done = install(repo, env, "none")
    assert done.returncode == 42, done.stderr
    assert f"   this .venv was not made here by install-pi.sh ({NOT_LOADED}): making it " \
        "again, without its packages (pip fetches them again)" in done.stdout.splitlines()
    assert "sudo -u nobody /usr/bin/python3 -m venv --system-site-packages --clear " \
        f"{folder}\n" in calls.read_text()
    assert not (site_packages(folder) / "onnxruntime").exists()  # --clear emptied it
    assert (folder / ".made-by-install-pi-arm64").is_file()
    calls.unlink()

    done = install(repo, env, "none")
    assert done.returncode == 42, done.stderr
    assert "making it again" not in done.stdout
    assert "sudo -u nobody /usr/bin/python3 -m venv --system-site-packages " \
        f"{folder}\n" in calls.read_text()
    assert (folder / ".made-by-install-pi-arm64").is_file()
