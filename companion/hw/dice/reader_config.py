"""The camera dice reader's thresholds (``ReaderConfig``): the packaged ones in
``data/reader.toml``, overlaid by the ones ``companion calibrate dice`` saves in the user's
config folder, and how such a file is read, checked and written.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, fields, replace
from importlib.resources import files
from pathlib import Path

import tomlkit

from companion.errors import DataError
from companion.files import file_there, loads_toml, table, write_toml


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

    @staticmethod
    def load(user_file: Path | None = None) -> ReaderConfig:
        """The packaged thresholds, overlaid by a user's tuned file when it exists."""
        text = files("companion.hw.dice").joinpath("data/reader.toml").read_text("utf-8")
        config = _parse(tomllib.loads(text), "reader.toml", _default=None)
        if user_file is not None and file_there(user_file):
            try:
                data = loads_toml(user_file.read_text("utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise DataError(f"{user_file}: not valid TOML ({exc})") from exc
            config = _parse(data, str(user_file), _default=config)
        return config

    def save(self, path: Path) -> None:
        """Write the thresholds that differ from the packaged ones to ``path``, in its layout.

        The others keep following the packaged file, so that a better packaged value
        (thresholds chosen for a retrained judge) reaches a player who calibrated before.
        """
        packaged = ReaderConfig.load()
        changed = {f.name for f in fields(self)
                   if getattr(self, f.name) != getattr(packaged, f.name)}
        reader = [f.name for f in fields(self)
                  if f.name in changed and f.name not in _STABILITY_KEYS.values()]
        document = tomlkit.document()
        document.add(tomlkit.comment(
            "Dice reader thresholds saved by `companion calibrate dice`; any not here"))
        document.add(tomlkit.comment(
            "follow the companion's own (companion/hw/dice/data/reader.toml)."))
        document.add("reader", table({name: getattr(self, name) for name in reader}))
        document.add("stability", table({key: getattr(self, name)
                                         for key, name in _STABILITY_KEYS.items()
                                         if name in changed}))
        write_toml(path, document)


_STABILITY_KEYS = {"frames": "stable_frames", "still_px": "still_px"}
# The smallest and the largest side of a die face that is read, in pixels.
_FACE_SIZES = ("min_face_px", "max_face_px")
_SHARES = {"find_threshold", "min_top", "min_confidence", "min_side", "min_crowded",
           "min_counted", "min_alone", "min_nothing", "hot_share", "hot_size", "min_nothing_hot"}
# Keys only the pip-counting reader of before the networks had; `calibrate dice` saved them.
_EARLIER_READER_KEYS = {"pip_contrast", "pip_face_contrast", "flood_tolerance", "max_aspect",
                        "min_solidity", "layout_tolerance"}


def _parse(data: dict[str, object], name: str, _default: ReaderConfig | None) -> ReaderConfig:
    """Shape-check a thresholds file; with a default, missing keys keep the default."""
    values: dict[str, float | int] = {}
    known = {f.name: f for f in fields(ReaderConfig)}
    for section, mapping in (("reader", None), ("stability", _STABILITY_KEYS)):
        table = data.get(section, {})
        if not isinstance(table, dict):
            raise DataError(f"{name}: [{section}] must be a table")
        for key, value in table.items():
            attr = mapping.get(key, "") if mapping else key
            if mapping is None and key in _EARLIER_READER_KEYS:
                # Its thresholds (a min_confidence of 0.35 among them) mean other things here.
                raise DataError(f"{name}: tuned for the earlier dice reader (it has {key!r}); "
                                "run `companion calibrate dice` again")
            if attr not in known or (mapping is None and key in _STABILITY_KEYS.values()):
                raise DataError(f"{name}: unknown key {key!r} in [{section}]")
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not value > 0:  # nan is not above 0, nor below or equal to it
                raise DataError(f"{name}: [{section}] {key} must be a positive number")
            if attr in _FACE_SIZES and math.isinf(value):  # the finder's sizes never end
                raise DataError(f"{name}: [{section}] {key} must be a number of pixels, "
                                "not inf")
            if attr in _SHARES and value >= 1:
                raise DataError(f"{name}: [{section}] {key} must be below 1 (it is a probability)")
            if attr == "stable_frames" and not isinstance(value, int):
                raise DataError(f"{name}: [{section}] {key} must be a whole number")
            values[attr] = value
    unknown = set(data) - {"reader", "stability"}
    if unknown:
        raise DataError(f"{name}: unknown table [{sorted(unknown)[0]}]")
    if _default is not None:
        config = replace(_default, **values)  # type: ignore[arg-type]
    else:
        missing = set(known) - set(values)
        if missing:
            raise DataError(f"{name}: missing key {sorted(missing)[0]!r}")
        config = ReaderConfig(**values)  # type: ignore[arg-type]
    _check_face_sizes(config, name, set(values))
    return config


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
