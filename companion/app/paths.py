"""Where the companion keeps the user's files (platformdirs), overridable for tests.

``COMPANION_CONFIG_DIR`` and ``COMPANION_DATA_DIR`` replace the platform
defaults; tests point them at a temporary folder. A ``~`` in them is the home folder
(systemd's ``Environment=`` passes it as written); a relative one is refused
(:func:`check_folder_settings`).
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import platformdirs

from companion.errors import DataError

APP_NAME = "jongrogue-companion"
CONFIG_VARIABLE = "COMPANION_CONFIG_DIR"
DATA_VARIABLE = "COMPANION_DATA_DIR"


def config_dir() -> Path:
    """The user's config folder: config.toml, calibrations, the RFID tag map."""
    override = os.environ.get(CONFIG_VARIABLE)
    return Path(override).expanduser() if override \
        else Path(platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    """The user's data folder: the save file, the game history, logs."""
    override = os.environ.get(DATA_VARIABLE)
    return Path(override).expanduser() if override \
        else Path(platformdirs.user_data_dir(APP_NAME))


def data_dir_setting() -> str:
    """What chose the data folder, for a message that it cannot be used: the variable that
    set it, else the platform's place."""
    return (DATA_VARIABLE if os.environ.get(DATA_VARIABLE)
            else "the platform's data folder; COMPANION_DATA_DIR sets another")


def check_folder_settings() -> None:
    """Refuse a relative ``COMPANION_CONFIG_DIR`` or ``COMPANION_DATA_DIR`` (env58 N4): it
    would name another folder from every folder the command is run in (the boot service
    runs in /), and a game saved from one would not be found from the next. Refused, not
    made full: a player who typed it once types the full path, which the message gives,
    and it holds from anywhere. (platformdirs ignores a relative XDG_* the same way, as
    the XDG spec says, but in silence.)"""
    for variable in (CONFIG_VARIABLE, DATA_VARIABLE):
        value = os.environ.get(variable)
        if value and not Path(value).expanduser().is_absolute():
            raise DataError(f"{variable}={value} is a relative path, which names another "
                            "folder from each folder companion is run in: give the full "
                            f"path (from here: {variable}={Path(value).absolute()})")


def root_folders_warning() -> str | None:
    """What a run as root by sudo says of its folders (env58 R4), or None when it is not one,
    or a COMPANION_*_DIR chose the folders.

    The folders are root's (sudo sets HOME to /root): a calibration, tag map or game kept
    there is not the one the boot service reads, which runs as the player; or, where sudo
    kept the player's HOME, they are the player's, and what is written there now belongs
    to root, which the service cannot change. The folders are not moved to the player's:
    files made there as root would be the service's trouble in the same way."""
    player = os.environ.get("SUDO_USER")
    if os.geteuid() != 0 or not player or player == "root" \
            or os.environ.get(CONFIG_VARIABLE) or os.environ.get(DATA_VARIABLE):
        return None
    folders = f"{config_dir()} and {data_dir()}"
    try:
        home = Path(pwd.getpwnam(player).pw_dir)
    except KeyError:
        home = None
    if home is not None and config_dir().is_relative_to(home):
        whose = (f"run as root by sudo, companion uses {player}'s folders {folders}, and "
                 f"what it writes there belongs to root: the boot service, run as {player}, "
                 "cannot change it")
    else:
        whose = (f"run as root by sudo, companion uses root's folders {folders}, not "
                 f"{player}'s: the boot service, run as {player}, never reads the "
                 "calibrations, tag map or games kept there")
    return (f"{whose}. Run it without sudo (scripts/install-pi.sh puts {player} in the "
            "groups for the camera, GPIO and serial port; log in again after it), or set "
            f"{CONFIG_VARIABLE} and {DATA_VARIABLE}")
