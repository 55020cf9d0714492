"""The ``companion`` command as the user can type it where they are, for the hints that
name it (play's last line, history's notes); apart from play's modules, which a listing
need not load (0.2 s)."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path


def companion_command() -> str:
    """The ``companion`` command as the user can type it here (install58 N1): by its name
    when that is on the PATH (install-pi.sh puts it there), else this venv's own script,
    which scripts/bootstrap.sh puts on no PATH: ``.venv/bin/companion`` from the checkout,
    ``./companion`` from .venv/bin (a bare name would be looked up on the PATH), its whole
    path from elsewhere, and from a working folder that was deleted: a hint never fails the
    command it ends (review58a N-4)."""
    script = Path(sys.executable).parent / "companion"
    if shutil.which("companion") or not script.is_file():
        return "companion"
    try:
        relative = script.relative_to(Path.cwd())
    except (OSError, ValueError):
        return shlex.quote(str(script))
    return shlex.quote(str(relative) if relative.parent != Path() else f"./{relative}")
