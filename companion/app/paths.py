"""Where the companion keeps the user's files (platformdirs), overridable for tests.

``COMPANION_CONFIG_DIR`` and ``COMPANION_DATA_DIR`` replace the platform
defaults; tests point them at a temporary folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "jongrogue-companion"


def config_dir() -> Path:
    """The user's config folder: config.toml, calibrations, the RFID tag map."""
    override = os.environ.get("COMPANION_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    """The user's data folder: the save file, the game history, logs."""
    override = os.environ.get("COMPANION_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME))


def data_dir_setting() -> str:
    """What chose the data folder, for a message that it cannot be used: the variable that
    set it, else the platform's place."""
    return ("COMPANION_DATA_DIR" if os.environ.get("COMPANION_DATA_DIR")
            else "the platform's data folder; COMPANION_DATA_DIR sets another")
