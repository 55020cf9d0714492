"""Where the companion keeps the user's files (platformdirs), overridable for tests.

``COMPANION_CONFIG_DIR`` and ``COMPANION_DATA_DIR`` replace the platform
defaults; tests point them at a temporary folder. A ``~`` in them is the home folder
(systemd's ``Environment=`` passes it as written); a relative one is refused
(:func:`check_folder_settings`).
"""

from __future__ import annotations

import difflib
import os
import pwd
import re
from collections.abc import Callable
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
        else _platform_folder(platformdirs.user_config_dir)


def data_dir() -> Path:
    """The user's data folder: the save file, the game history, logs."""
    override = os.environ.get(DATA_VARIABLE)
    return Path(override).expanduser() if override \
        else _platform_folder(platformdirs.user_data_dir)


def _platform_folder(folder: Callable[[str], str]) -> Path:
    """The platform's ``folder`` for the companion, which is under the home folder: with no
    HOME and no entry in the user database (a container run with a numeric ``--user``)
    platformdirs raises RuntimeError, and every command ended in its traceback (setup71
    RISK 3). What to set is said instead: HOME, or the variables of the folders not set.
    A HOME set but empty or relative is refused the same way; what it holds is said, not
    "not set" (reviews71 NIT 3)."""
    try:
        return Path(folder(APP_NAME))
    except RuntimeError:
        unset = " and ".join(variable for variable in (CONFIG_VARIABLE, DATA_VARIABLE)
                             if not os.environ.get(variable))
        home, fix = os.environ.get("HOME"), "HOME to a full path"
        if home is None:
            why, fix = "HOME is not set", "HOME"
        elif not home:
            why = "HOME is empty"
        elif not os.path.isabs(home):
            why = f"HOME={home} is not a full path"
        else:  # not seen: platformdirs takes a full HOME as it is
            why = f"HOME={home} was not taken"
        raise DataError(f"this user has no home folder ({why}, and the user database has no "
                        f"entry for user id {os.getuid()}): set {fix}, or {unset} to full "
                        "paths") from None


def data_dir_setting() -> str:
    """What chose the data folder, for a message that it cannot be used: the variable that
    set it, else the platform's place."""
    return (DATA_VARIABLE if os.environ.get(DATA_VARIABLE)
            else "the platform's data folder; COMPANION_DATA_DIR sets another")


def misspelt_folder_variables() -> list[str]:
    """A warning for each environment variable nearly ``COMPANION_CONFIG_DIR`` or
    ``COMPANION_DATA_DIR`` (COMPANION_DATADIR): ignored without a word, the saves went to the
    platform's folder, not the one the player backs up (a77setup RISK 4). Said for every
    command: ``history``, ``genso`` and ``coc`` read no config.toml, where the other
    settings' near misses are told (r77setup)."""
    folders = (CONFIG_VARIABLE, DATA_VARIABLE)
    warnings = []
    for name in sorted(os.environ):
        if name.startswith("COMPANION_") and name not in folders:
            near = difflib.get_close_matches(name, folders, 1, 0.85)
            if near:
                warnings.append(f"{name} is no setting; ignored (did you mean {near[0]}?)")
    return warnings


def check_folder_settings() -> None:
    """Refuse a relative ``COMPANION_CONFIG_DIR`` or ``COMPANION_DATA_DIR`` (env58 N4): it
    would name another folder from every folder the command is run in (the boot service
    runs in the player's home folder, scripts/install-pi.sh's WorkingDirectory; a command
    typed, in the folder it is typed in), and a game saved from one would not be found
    from the next. Refused, not
    made full: a player who typed it once types the full path, which the message gives,
    and it holds from anywhere. (platformdirs ignores a relative XDG_* the same way, as
    the XDG spec says, but in silence.)"""
    for variable in (CONFIG_VARIABLE, DATA_VARIABLE):
        value = os.environ.get(variable)
        if not value:
            continue
        if os.path.isabs(value) and os.path.exists(value):
            # A full path that is there is taken as written, a ``$`` in it and all (a share's
            # ``/srv/nas/a$b``): refused as "not expanded", it could not be used at all, for
            # it already is the full path (reviewsetup75 RISK 2).
            continue
        if value != value.strip():
            # A stray space (Environment="COMPANION_DATA_DIR= /home/pi/jr-data", a pasted
            # line) was "a relative path" with a nonsense full path offered, and one at the
            # end made a folder named with it on the first save (a77setup NIT 9).
            ends = " and ".join(side for side, blank in (
                ("begins", value != value.lstrip()), ("ends", value != value.rstrip())) if blank)
            fix = f"write {variable}={value.strip()}" if value.strip() \
                else f"give a full path, or unset {variable}"
            # A line end shown as written: a profile saved on Windows ends ``export …`` in
            # \r, which printed bare sent the cursor back over the start of the message and
            # was no space (r77setup).
            strays = value[:len(value) - len(value.lstrip())] + value[len(value.rstrip()):]
            blank = ("a Windows line end (\\r)" if "\r" in strays
                     else "a line end (\\n)" if "\n" in strays else "a space")
            raise DataError(f"{variable}={value!r} {ends} with {blank}: {fix}")
        if (unexpanded := not_expanded(variable, value)) is not None:
            raise DataError(unexpanded)
        try:
            folder = Path(value).expanduser()
        except RuntimeError:
            # ~user for a user there is none of, or ~ with no HOME and no home in the
            # user database: pathlib's "Could not determine home directory" was a
            # traceback (review58a N-2).
            user = value[1:].partition("/")[0]
            whose = f"there is no user {user}" if user else "this user has no home folder"
            raise DataError(f"{variable}={value} names a home folder, and {whose}: give the "
                            "full path") from None
        if not folder.is_absolute():
            raise DataError(f"{variable}={value} is a relative path, which names another "
                            "folder from each folder companion is run in: give the full "
                            f"path (from here: {variable}={Path(value).absolute()})")


#: A shell variable as written, not expanded: ``$HOME``, ``${HOME}``.
_VARIABLE = re.compile(r"\$(\{)?([A-Za-z_][A-Za-z0-9_]*)(?(1)\})")


def not_expanded(variable: str, value: str) -> str | None:
    """Why the folder ``variable=value`` holds a shell variable not expanded (``$HOME/d``,
    as systemd's ``Environment=`` passes it, or a shell in single quotes), or None. It was
    refused as "a relative path", and the full path offered named a folder called
    ``$HOME`` in the current one (setup75 NIT 5). The path it was meant to be is offered,
    the variables as this shell has them, and ``~`` for the home folder, which companion
    expands itself."""
    found = _VARIABLE.search(value)
    if found is None:
        return None
    name = found.group(2)
    meant = Path(os.path.expandvars(value)).expanduser()
    full = f": {variable}={meant}" if meant.is_absolute() \
        and not _VARIABLE.search(str(meant)) else ""
    home = f" (or {variable}=~{value[found.end():]}, which companion expands itself)" \
        if found.start() == 0 and name == "HOME" else ""
    return (f"{variable}={value}: {found.group()} is not expanded here (systemd does not "
            f"expand ${name} in Environment=, nor a shell in single quotes): write the full "
            f"path{full}{home}")


def root_folders_warning() -> str | None:
    """What a run as root by sudo says of its folders (env58 R4), or None when it is not one,
    or COMPANION_CONFIG_DIR and COMPANION_DATA_DIR chose both folders. One of them set, the
    other folder is still said (review58a N-3): the config folder left as root's is where
    the calibrations and the tag map go.

    The folders are root's (sudo sets HOME to /root): a calibration, tag map or game kept
    there is not the one the boot service reads, which runs as the player; or, where sudo
    kept the player's HOME, they are the player's, and what is written there now belongs
    to root, which the service cannot change. The folders are not moved to the player's:
    files made there as root would be the service's trouble in the same way."""
    player = os.environ.get("SUDO_USER")
    if os.geteuid() != 0 or not player or player == "root":
        return None
    unset = [(variable, folder, kept) for variable, folder, kept in (
        (CONFIG_VARIABLE, config_dir(), ("calibrations", "tag map")),
        (DATA_VARIABLE, data_dir(), ("games",))) if not os.environ.get(variable)]
    if not unset:
        return None
    folders = ("folders " if len(unset) > 1 else "folder ") \
        + " and ".join(str(folder) for _, folder, _ in unset)
    *kept, last_kept = [what for _, _, held in unset for what in held]
    kept_there = f"{', '.join(kept)} or {last_kept}" if kept else last_kept
    try:
        home = Path(pwd.getpwnam(player).pw_dir)
    except KeyError:
        home = None
    if home is not None and unset[0][1].is_relative_to(home):
        whose = (f"run as root by sudo, companion uses {player}'s {folders}, and "
                 f"what it writes there belongs to root: the boot service, run as {player}, "
                 "cannot change it")
    else:
        whose = (f"run as root by sudo, companion uses root's {folders}, not "
                 f"{player}'s: the boot service, run as {player}, never reads the "
                 f"{kept_there} kept there")
    variables = " and ".join(variable for variable, _, _ in unset)
    return (f"{whose}. Run it without sudo (scripts/install-pi.sh puts {player} in the "
            "groups for the camera, GPIO and serial port; log in again after it), or set "
            f"{variables}")
