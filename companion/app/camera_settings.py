"""The tile camera's files in the config folder that calibration writes and play reads:
``camera.toml``'s reader settings, the enrolled tiles, and each slot's empty look."""

from __future__ import annotations

import difflib
import tomllib
from pathlib import Path

from companion.app.paths import config_dir
from companion.errors import DataError
from companion.files import (
    aside_command,
    cut_copies_words,
    file_there,
    loads_toml,
    toml_fault,
)
from companion.hw.camera.classifier import MAX_STABLE_FRAMES, TileClassifier
from companion.hw.camera.mat import MatGeometry
from companion.hw.camera.occupancy import SlotLooks
from companion.hw.camera.reader import ReaderSettings
from companion.systems.defaults import toml_value

CALIBRATION_FILE = "camera.toml"


ENROLMENT_FILE = "camera_enrolment.npz"


SLOT_LOOKS_FILE = "camera_slots.npz"


# What ``save_calibration`` writes at the top of ``camera.toml``: only [reader] is read back.
_CALIBRATION_KEYS = ("source", "quality", "reader")


_READER_KEYS = ("stable_frames", "min_confidence")


def _did_you_mean(key: str, known: tuple[str, ...], shown: str = "{}") -> str:
    close = difflib.get_close_matches(key.lower(), known, n=1)
    return f"; did you mean {shown.format(close[0])}?" if close else ""


def read_settings(text: str, defaults: ReaderSettings) -> ReaderSettings:
    """The ``[reader]`` of a ``camera.toml``'s text over ``defaults``; ValueError says what
    is wrong with it, naming the key and the value found.

    stable_frames is a whole number 1 or more (0 would never let a read settle: no tile
    is ever read) and min_confidence a number strictly between 0 and 1 (1 or more, nan:
    nothing is ever sure enough; 0 or less: every guess is taken). A key or a table the
    calibration does not write (a misspelling, ``[Reader]``) is refused, not ignored.
    """
    try:
        data = loads_toml(text)
    except tomllib.TOMLDecodeError as exc:
        # A power cut's zeros were "Invalid statement (at line 1, column 1)" (hist72 D1).
        raise ValueError(f"not TOML: {toml_fault(text.encode('utf-8'), exc)}") from exc
    for name in data:
        if name not in _CALIBRATION_KEYS:
            raise ValueError(f"unknown table or key {name!r}"
                             + (_did_you_mean(name, _CALIBRATION_KEYS, "[{}]")
                                or "; camera.toml holds source, [quality] and [reader]"))
    reader = data.get("reader", {})
    if not isinstance(reader, dict):
        raise ValueError(f"[reader] must be a table, found {toml_value(reader)}")
    for key in reader:
        if key not in _READER_KEYS:
            raise ValueError(f"unknown key {key!r} in [reader]"
                             + (_did_you_mean(key, _READER_KEYS)
                                or "; it holds stable_frames and min_confidence"))
    stable_frames = reader.get("stable_frames", defaults.stable_frames)
    if "stable_frames" in reader and (isinstance(stable_frames, bool)
                                      or not isinstance(stable_frames, int)
                                      or not 1 <= stable_frames <= MAX_STABLE_FRAMES):
        # The model's own stable_frames has the same bound: more and no tile ever settles.
        raise ValueError(f"stable_frames must be a whole number from 1 to {MAX_STABLE_FRAMES} "
                         f"(the frames that must agree), found {toml_value(stable_frames)}")
    min_confidence = reader.get("min_confidence", defaults.min_confidence)
    if "min_confidence" in reader and (isinstance(min_confidence, bool)
                                       or not isinstance(min_confidence, int | float)
                                       or not 0 < min_confidence < 1):  # nan is not
        raise ValueError("min_confidence must be a number above 0 and below 1, such as 0.9, "
                         f"found {toml_value(min_confidence)}")
    return ReaderSettings(stable_frames, float(min_confidence))


def load_settings(classifier: TileClassifier) -> ReaderSettings:
    """The reader settings: the model's defaults, overridden by ``camera.toml`` if saved."""
    defaults = ReaderSettings.from_classifier(classifier)
    path = config_dir() / CALIBRATION_FILE
    if not file_there(path):
        return defaults
    data = b""
    try:
        data = path.read_bytes()
        return read_settings(data.decode("utf-8-sig"), defaults)
    except OSError as exc:  # its own text names the path again: "[Errno 21] …: '<path>'"
        raise DataError(f"{path}: cannot be read ({exc.strerror}); fix it or calibrate "
                        "again") from exc
    except ValueError as exc:  # UnicodeDecodeError among them
        # A byte that is not UTF-8 said as every settings file says it, not in the codec's
        # words (camera73 NIT 5). The copies cut writes left are kept: a camera.toml
        # deleted as told, then calibrated, would delete them unread (hist72 DEFECT 1).
        problem = toml_fault(data, exc) if isinstance(exc, UnicodeDecodeError) else str(exc)
        copies = cut_copies_words(path, "camera.toml", lambda copy: _whole(copy, defaults),
                                  move=aside_command(path))
        raise DataError(f"{path}: {problem}; fix it or calibrate again{copies}") from exc


def _whole(path: Path, defaults: ReaderSettings) -> ReaderSettings:
    """The settings of a copy of camera.toml; DataError when it cannot be read."""
    try:
        return read_settings(path.read_text(encoding="utf-8-sig"), defaults)
    except (ValueError, UnicodeDecodeError) as exc:  # UnicodeDecodeError is a ValueError
        raise DataError(f"{path}: {exc}") from exc


def load_slot_looks(geometry: MatGeometry) -> SlotLooks | None:
    """The slots' empty look saved by calibration, or None (the printed look is used)."""
    path = config_dir() / SLOT_LOOKS_FILE
    return SlotLooks.load(geometry, path) if file_there(path) else None
