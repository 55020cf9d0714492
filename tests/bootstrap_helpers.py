"""scripts/bootstrap.sh run in a copy of the checkout with stand-ins for python3, sudo and apt,
for the bootstrap tests: the checkout, the stand-ins, the run and the commands it made."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "bootstrap.sh"
STAND_IN_PYTHON = '''\
import os, pathlib, shutil, sys
me = pathlib.Path(sys.argv[0])
venv = me.parent.parent if (me.parent.parent / "pyvenv.cfg").exists() else None
args = sys.argv[1:]
with open(os.environ["CALLS"], "a") as log:
    log.write(" ".join(["venv-python" if venv else "python3", *args]) + "\\n")
if args[:1] == ["-I"]:
    args = args[1:]
version = (venv / "version").read_text() if venv else os.environ["PYTHON3_VERSION"]
if args[:1] == ["-c"]:
    sys.version_info = tuple(int(part) for part in version.split("."))
    if os.environ.get("NO_ENSUREPIP") and not venv:
        sys.modules["ensurepip"] = None  # Debian's python3 without python3-venv
    if venv and (venv / "editable").exists():
        sys.path.insert(0, (venv / "editable").read_text())
    sys.argv = ["-c", *args[2:]]
    exec(args[1])
    sys.exit(0)
if args[:2] == ["-m", "venv"]:
    if "--help" in args:
        sys.exit(0)
    target = pathlib.Path(args[-1])
    if "--clear" in args and target.exists():
        shutil.rmtree(target)
    (target / "bin").mkdir(parents=True, exist_ok=True)
    system = "true" if "--system-site-packages" in args else "false"
    (target / "pyvenv.cfg").write_text(f"include-system-site-packages = {system}\\n")
    (target / "version").write_text(version)
    shutil.copy(me, target / "bin" / "python")
    if os.environ.get("NO_ENSUREPIP"):
        print("The virtual environment was not created successfully because ensurepip is not "
              "available. apt install python3.11-venv", file=sys.stderr)
        sys.exit(1)
    (target / "pip").touch()
    sys.exit(0)
if venv and args[:2] == ["-m", "pip"]:
    if not (venv / "pip").exists():
        print(f"{me}: No module named pip", file=sys.stderr)
        sys.exit(1)
    if "-e" in args:
        (venv / "editable").write_text(os.getcwd())
    sys.exit(0)
if venv and args[0].endswith("build_compiled.py"):
    sys.exit(0)
sys.exit(f"stand-in python: {args} not expected")
'''


def checkout(tmp_path: Path, name: str = "repo") -> Path:
    """A checkout holding what bootstrap.sh reads: itself, pyproject.toml, the package."""
    repo = tmp_path / name
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(SCRIPT, repo / "scripts" / "bootstrap.sh")
    (repo / "pyproject.toml").write_text('[project]\nname = "jongrogue-companion"\n')
    (repo / "companion").mkdir()
    (repo / "companion" / "__init__.py").write_text("")
    return repo


def stand_ins(tmp_path: Path, python3: str = "3.11.2", sudo_works: bool = True,
              ensurepip: bool = True) -> dict[str, str]:
    """The environment of a plain user (``player``, uid 1000) with the stand-ins first on PATH, a
    ``python3`` of version ``python3``."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    calls = tmp_path / "calls"

    def command(name: str, body: str) -> None:
        path = bin_dir / name
        path.write_text(body)
        path.chmod(0o755)

    command("python3", f"#!{sys._base_executable}\n{STAND_IN_PYTHON}")  # type: ignore[attr-defined]
    command("id", '#!/bin/sh\ncase "$*" in -u) echo 1000;; -un) echo player;;\n'
                  '*) exec /usr/bin/id "$@";; esac\n')
    command("apt-get", f'#!/bin/sh\necho "apt-get $*" >> "{calls}"\n')
    command("sudo", f'#!/bin/sh\necho "sudo $*" >> "{calls}"\n' + (
        'exec "$@"\n' if sudo_works else 'echo "sudo: a password is required" >&2; exit 1\n'))
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path), "CALLS": str(calls),
           "PYTHON3_VERSION": python3}
    if not ensurepip:
        env["NO_ENSUREPIP"] = "1"
    return env


def bootstrap(repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    calls = Path(env["CALLS"])
    calls.unlink(missing_ok=True)
    return subprocess.run(["bash", str(repo / "scripts" / "bootstrap.sh")], capture_output=True,
                          text=True, env=env, timeout=60)


def calls(env: dict[str, str]) -> list[str]:
    path = Path(env["CALLS"])
    return path.read_text().splitlines() if path.exists() else []


def installs(env: dict[str, str]) -> list[str]:
    return [call for call in calls(env) if call.startswith("venv-python -m pip install")]
