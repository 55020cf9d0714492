"""The camera dice reader's thresholds (``ReaderConfig``): the packaged ones in
``data/reader.toml``, overlaid by the ones ``companion calibrate dice`` saves in the user's
config folder, and how such a file is read, checked and written.

The face sizes calibration saves are pixels of the frame it measured them in. It says which
(``[measured]``: the area read, the whole view or the mat's dice area, and that area's size
in pixels), and a frame of that area of another size has them scaled to it
(:meth:`ReaderConfig.for_frame`; calib62 D2: tuned on a 1280x720 view, a 640x360 one read
"no dice in view"). Scaling is sound for the same view at another resolution, the case met
(a webcam giving 640x480 for the 1280x720 asked, a phone photo's size): a die's face is the
same share of the picture. Where the aspect ratio differs too, the camera may have cropped
or squeezed its view: the sizes are widened to span both the width's and the height's ratio.
A frame of the other area (the mat out of view of a camera calibrated on it, or in view of
one calibrated without it) is read with the companion's own face sizes: the pixels of one
say nothing of the other's. A file saved before has no ``[measured]`` and is read as it
always was, unscaled.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, fields, replace
from functools import cache
from importlib.resources import files
from pathlib import Path

import tomlkit

from companion.errors import DataError, did_you_mean
from companion.files import (
    aside_command,
    cut_copies_words,
    file_there,
    parse_user_toml,
    toml_fault,
)
from companion.toml_writing import table, write_toml


@dataclass(frozen=True, slots=True)
class Measured:
    """Where ``calibrate dice`` measured the face sizes: ``area`` "view" (the whole view) or
    "mat" (the mat's dice area), in a picture ``width`` x ``height`` pixels."""

    area: str
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    """The reader's thresholds (see ``data/reader.toml`` for what each one means)."""

    find_threshold: float
    min_top: float
    min_confidence: float
    min_side: float
    min_crowded: float
    min_counted: float
    min_alone: float
    min_nothing: float
    hot_share: float
    hot_size: float
    min_nothing_hot: float
    held_size: float
    min_face_px: float
    max_face_px: float
    stable_frames: int
    still_px: float
    measured: Measured | None = None  # where the face sizes were measured (None: unsaid)

    def for_frame(self, shape: tuple[int, ...], on_mat: bool) -> ReaderConfig:
        """These thresholds for a picture of ``shape`` (height, width, ...) of the area read
        (``on_mat``: the mat's dice area, else the whole view): the face sizes scaled from
        the size they were measured at, when that was the same area (see the module)."""
        measured = self.measured
        if measured is None:
            return self
        if self.measured_elsewhere(on_mat):
            # Pixels of the other area say nothing of this one's (the mat's dice area is cut
            # to its own size): the companion's own face sizes, made for any frame.
            packaged = _packaged()
            return replace(self, min_face_px=packaged.min_face_px,
                           max_face_px=packaged.max_face_px)
        height, width = shape[0], shape[1]
        if (width, height) == (measured.width, measured.height):
            return self
        across, down = width / measured.width, height / measured.height
        return replace(self, min_face_px=self.min_face_px * min(across, down),
                       max_face_px=self.max_face_px * max(across, down))

    def measured_elsewhere(self, on_mat: bool) -> bool:
        """Whether the saved face sizes were measured in the other area than the one read
        (``on_mat``: the mat's dice area, else the whole view): then :meth:`for_frame` reads
        with the companion's own, and ``dice read`` says so (cal66 N6)."""
        return self.measured is not None and self.measured.area != ("mat" if on_mat else "view")

    @staticmethod
    def load(user_file: Path | None = None) -> ReaderConfig:
        """The packaged thresholds, overlaid by a user's tuned file when it exists."""
        text = files("companion.hw.dice").joinpath("data/reader.toml").read_text("utf-8")
        config = _parse(tomllib.loads(text), "reader.toml", _default=None)
        if user_file is not None and file_there(user_file):
            raw = b""
            try:
                raw = user_file.read_bytes()
                data = parse_user_toml(raw)  # a Notepad BOM is no fault
                config = _parse(data, str(user_file), _default=config)
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                # A power cut's zeros were tomllib's "Invalid statement (at line 1, column
                # 1)"; the copies its cut writes left are kept, as a dice.toml deleted as
                # told, then calibrated, would delete them unread (hist72 DEFECT 1).
                raise DataError(f"{user_file}: not valid TOML ({toml_fault(raw, exc)}); "
                                f"{_FIX}{_copies(user_file)}") from exc
            except DataError as exc:
                raise DataError(f"{exc}; {_FIX}{_copies(user_file)}") from exc
        return config

    def save(self, path: Path) -> None:
        """Write the thresholds that differ from the packaged ones to ``path``, in its layout.

        The others keep following the packaged file, so that a better packaged value
        (thresholds chosen for a retrained judge) reaches a player who calibrated before.
        """
        packaged = ReaderConfig.load()
        changed = {f.name for f in fields(self)
                   if getattr(self, f.name) != getattr(packaged, f.name)}
        reader = [f.name for f in fields(self) if f.name in changed
                  and f.name not in _STABILITY_KEYS.values() and f.name != _MEASURED]
        document = tomlkit.document()
        document.add(tomlkit.comment(
            "Dice reader thresholds saved by `companion calibrate dice`; any not here"))
        document.add(tomlkit.comment(
            "follow the companion's own (companion/hw/dice/data/reader.toml)."))
        document.add("reader", table({name: getattr(self, name) for name in reader}))
        stability = {key: getattr(self, name) for key, name in _STABILITY_KEYS.items()
                     if name in changed}
        if stability:  # an empty [stability] header read as a value lost (calib62 N4)
            document.add("stability", table(stability))
        if self.measured is not None:
            measured = table({"area": self.measured.area, "width": self.measured.width,
                              "height": self.measured.height})
            measured.comment("where the face sizes were measured: scaled to other sizes there")
            document.add(_MEASURED, measured)
        write_toml(path, document)


# The fix a player's thresholds file that cannot be used is named with (review 56, finding 10).
_FIX = ("mend it, or run `companion calibrate dice` again (it sets this file aside and tunes "
        "afresh)")
_STABILITY_KEYS = {"frames": "stable_frames", "still_px": "still_px"}
_MEASURED = "measured"  # the table (and the field) saying where the face sizes were measured
_AREAS = ("view", "mat")
# The largest side a measured picture may have, in pixels: larger is a slip (a 12000 px
# photo is the biggest a phone takes).
_MOST_MEASURED_PX = 20000
# The smallest: a picture narrower than this holds no throw of dice to measure. The reader
# reads faces 10 pixels across at the least (_FACE_PX_RANGE), and two dice lying apart with
# room around them take some six of those; no camera gives less (the smallest webcam mode is
# 160x120). Less is a slip (width = 1), and the face sizes scaled from it by the frame's
# 640 or 1280 pixels would be over the largest face read: "no dice in view", with no word
# why (review62b D2).
_LEAST_MEASURED_PX = 64
# The smallest and the largest side of a die face that is read, in pixels.
_FACE_SIZES = ("min_face_px", "max_face_px")
# What either face size may be. The reader is asked to read dice about 20 to 300 pixels
# across in any frame. `calibrate dice` saves 0.6 times the smallest face it read, but not
# below 12, and 1.6 times the largest, which can reach 560 (faces up to 1.4 times the
# packaged max_face_px are read). 10 and 1000 leave room around those. They are checks on
# the reader's own cost, not rules to tune: the frame is scaled so a face of the sizes
# looked for is TRAINED_FACE_PX (16) across. With both at 10, a 1920x1080 frame takes
# 0.4 GB and half a second to read; at 4 it takes 2 GB and 4 seconds; a min_face_px of 0.01
# took 5.7 GB on a 1280x720 one. A face over 1000 pixels is half a 1080p frame's height, so
# no throw of dice would fit in view.
_FACE_PX_RANGE = (10, 1000)
# The most frames the dice must lie still over. The camera gives 10 to 30 frames a second,
# and a throw that must be still for more than 100 of them would wait seconds for nothing,
# so a larger number is a slip, not a setting. The camera's tiles have the same bound
# (MAX_STABLE_FRAMES in hw/camera/classifier.py).
_MOST_STABLE_FRAMES = 100
# The least distance a die centre may wander between still frames: a die lying still is
# placed a little apart from frame to frame (the camera's noise, the finder's grid), so
# with less every die counts as moving and no throw is ever read.
_LEAST_STILL_PX = 0.5
_SHARES = {"find_threshold", "min_top", "min_confidence", "min_side", "min_crowded",
           "min_counted", "min_alone", "min_nothing", "hot_share", "hot_size", "min_nothing_hot"}
# Keys only the pip-counting reader of before the networks had; `calibrate dice` saved them.
_EARLIER_READER_KEYS = {"pip_contrast", "pip_face_contrast", "flood_tolerance", "max_aspect",
                        "min_solidity", "layout_tolerance"}


def _parse(data: dict[str, object], name: str, _default: ReaderConfig | None) -> ReaderConfig:
    """Shape-check a thresholds file; with a default, missing keys keep the default."""
    values: dict[str, float | int] = {}
    known = {f.name: f for f in fields(ReaderConfig) if f.name != _MEASURED}
    for section, mapping in (("reader", None), ("stability", _STABILITY_KEYS)):
        table = data.get(section, {})
        if not isinstance(table, dict):
            raise DataError(f"{name}: [{section}] must be a table")
        for key, value in table.items():
            attr = mapping.get(key, "") if mapping else key
            if mapping is None and key in _EARLIER_READER_KEYS:
                # Its thresholds (a min_confidence of 0.35 among them) mean other things here.
                raise DataError(f"{name}: tuned for the earlier dice reader (it has {key!r})")
            if attr not in known or (mapping is None and key in _STABILITY_KEYS.values()):
                # min_face_pix named like camera.toml's misspellings (calib62 N5)
                keys = list(mapping) if mapping else [k for k in known
                                                      if k not in _STABILITY_KEYS.values()]
                raise DataError(f"{name}: unknown key {key!r} in [{section}]"
                                f"{did_you_mean(key, keys)}")
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not value > 0:  # nan is not above 0, nor below or equal to it
                raise DataError(f"{name}: [{section}] {key} must be a positive number, "
                                f"found {value!r}")
            low, high = _FACE_PX_RANGE
            if attr in _FACE_SIZES and not low <= value <= high:
                raise DataError(f"{name}: [{section}] {key} must be from {low} to {high} "
                                f"pixels (a die face's side), found {value:g}")
            if attr in _SHARES and value >= 1:
                raise DataError(f"{name}: [{section}] {key} must be below 1 (it is a probability), "
                                f"found {value!r}")
            if attr == "stable_frames" and (not isinstance(value, int)
                                            or value > _MOST_STABLE_FRAMES):
                raise DataError(f"{name}: [{section}] {key} must be a whole number from 1 to "
                                f"{_MOST_STABLE_FRAMES} (the frames the dice lie still), "
                                f"found {value}")
            if attr == "still_px" and not _LEAST_STILL_PX <= value < math.inf:
                raise DataError(f"{name}: [{section}] {key} must be a number of pixels, "
                                f"{_LEAST_STILL_PX:g} or more, found {value:g}")
            values[attr] = value
    unknown = set(data) - {"reader", "stability", _MEASURED}
    if unknown:
        raise DataError(f"{name}: unknown table [{sorted(unknown)[0]}]")
    measured = _measured(data.get(_MEASURED), name)
    if _default is not None:
        config = replace(_default, **values, measured=measured)  # type: ignore[arg-type]
    else:
        missing = set(known) - set(values)
        if missing:
            raise DataError(f"{name}: missing key {sorted(missing)[0]!r}")
        config = ReaderConfig(**values, measured=measured)  # type: ignore[arg-type]
    _check_face_sizes(config, name, set(values))
    return config


def _copies(user_file: Path) -> str:
    """The words for the copies of ``user_file`` its cut writes left, kept beside it."""
    return cut_copies_words(user_file, "dice.toml", ReaderConfig.load,
                            move=aside_command(user_file))


@cache
def _packaged() -> ReaderConfig:
    """The packaged thresholds, read once (:meth:`ReaderConfig.for_frame` asks per frame)."""
    return ReaderConfig.load()


def _measured(found: object, name: str) -> Measured | None:
    """The ``[measured]`` table ``found`` (None: not there), checked."""
    if found is None:
        return None
    if not isinstance(found, dict):
        raise DataError(f"{name}: [{_MEASURED}] must be a table")
    for key in found:
        if key not in ("area", "width", "height"):
            raise DataError(f"{name}: unknown key {key!r} in [{_MEASURED}]; it holds area, "
                            "width and height")
    area = found.get("area")
    if area not in _AREAS:
        raise DataError(f"{name}: [{_MEASURED}] area must be \"view\" or \"mat\", "
                        + _found(found, "area"))
    sides = []
    for key in ("width", "height"):
        value = found.get(key)
        if isinstance(value, bool) or not isinstance(value, int) \
                or not _LEAST_MEASURED_PX <= value <= _MOST_MEASURED_PX:
            raise DataError(f"{name}: [{_MEASURED}] {key} must be a whole number of pixels "
                            f"from {_LEAST_MEASURED_PX} to {_MOST_MEASURED_PX}, "
                            + _found(found, key))
        sides.append(value)
    return Measured(str(area), sides[0], sides[1])


def _found(table: dict[str, object], key: str) -> str:
    """What ``table`` has for ``key``, as its TOML spells it (true, "1280"), for a message;
    Python's None and True read as words of no file (review62b D2)."""
    if key not in table:
        return "but it is missing"
    value = table[key]
    if isinstance(value, bool):
        return f"found {'true' if value else 'false'}"
    if isinstance(value, str):
        return "found " + '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"found {value!r}"


def _check_face_sizes(config: ReaderConfig, name: str, given: set[str]) -> None:
    """Refuse a smallest face side above the largest: no die could be read."""
    smallest, largest = _FACE_SIZES
    low, high = getattr(config, smallest), getattr(config, largest)
    if low <= high:
        return
    kept = [key for key in _FACE_SIZES if key not in given]
    # Only one of the two may be in the player's file: the other is the packaged one.
    packaged = f" ({kept[0]} is the companion's own, in data/reader.toml)" if kept else ""
    raise DataError(f"{name}: [reader] min_face_px ({low:g}) is above max_face_px ({high:g})"
                    f"{packaged}: no die could be read; make min_face_px the smaller")
