"""scripts/install-pi.sh run as a user it stands in for, and the steps it closes with (the
install-pi tests and those that quote its steps; tidy72c: no test module imports another)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install-pi.sh"


def logged_in_as(tmp_path: Path, name: str, uid: int, arch: str = "arm64") -> dict[str, str]:
    """The environment of a shell where ``id`` answers as ``name`` (uid ``uid``) does,
    whoever runs the test (CI runs as root), on a system whose dpkg says ``arch`` (a Pi's
    64-bit Raspberry Pi OS unless told)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake_id = bin_dir / "id"
    fake_id.write_text(f'#!/bin/sh\ncase "$*" in -u) echo {uid};; -un) echo {name};;\n'
                       f'*) exec /usr/bin/id "$@";; esac\n')
    fake_id.chmod(0o755)
    stand_in(bin_dir, "dpkg", f'[ "$1" = --print-architecture ] && echo {arch}')
    return {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}


def stand_in(bin_dir: Path, name: str, body: str) -> Path:
    """A command ``name`` on the test's PATH that runs ``body`` (sh)."""
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def next_steps(out: str) -> list[str]:
    """The numbered steps an install closes with."""
    return [line.split(". ", 1)[1] for line in out[out.index("== done."):].splitlines()
            if re.match(r"   \d+\. ", line)]
