"""A companion run as its own process in a user's own folders, for the held-file tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def companion(argv: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "companion", *argv], env=env, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def user_env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
            "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "200"}
