"""The ``companion`` script the hints name, for the tests of them: this venv's, and a PATH
with one on it (tidy74: no test module imports another)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest


def companion_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A PATH with a ``companion`` on it, as install-pi.sh leaves a Pi's."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "companion").symlink_to(Path(sys.executable).parent / "companion")
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")


def venv_script() -> Path:
    """This venv's ``companion`` script, which the hints name when none is on the PATH."""
    script = Path(sys.executable).parent / "companion"
    if not script.is_file():
        pytest.skip("no companion script beside this Python (not the checkout's .venv)")
    return script
