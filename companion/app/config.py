"""The user's settings: packaged defaults, then config.toml, then environment, then flags.

Every setting is declared once, with its default and what a valid value looks
like, in the packaged ``data/config_defaults.toml``. The user's
``config.toml`` (in :func:`~companion.app.paths.config_dir`) overrides values;
``COMPANION_<SECTION>_<KEY>`` environment variables override the file; the
command line overrides everything. Each effective value remembers where it
came from, which ``companion config --show`` prints.

A value that is wrong gets a notice naming its key and the default is used;
a file that is not TOML at all gets a notice naming where it breaks and the
defaults are used. The file is the user's and stays where it is, so the next
run, after the user mends it, reads it. Loading never raises on a bad user file.
The notices write values as a TOML file does (``true``, ``"rfid"``), and name the
setting meant by a misspelt or misplaced key.
"""

from __future__ import annotations

import codecs
import difflib
import errno
import math
import os
import sys
import tomllib
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from importlib.resources import files
from pathlib import Path
from typing import Any

from companion.app.arg_types import not_a_file
from companion.app.command_name import companion_line
from companion.app.paths import CONFIG_VARIABLE, DATA_VARIABLE, config_dir
from companion.app.pin_numbers import header_pin_hint, pin_text_hint
from companion.errors import DataError, utf8_text
from companion.files import cut_short, parse_user_toml, toml_fault
from companion.hw.camera.choice import CameraChoice, names_a_file

# (at home where the systems may import it too since reviewe68 NIT 4)
from companion.systems.defaults import toml_value as toml_value

CONFIG_NAME = "config.toml"
ENV_PREFIX = "COMPANION_"

Value = bool | int | float | str


# The engine's profile is imported when a preset is checked, not with this module:
# `companion config` and every command read settings, and importing the rules package
# with them is what test_dice_tray_choice_expressions_and_poison_wording keeps out
# (reviewe68 RISK 2).
def checked_preset(text: str) -> str:
    """game.preset as the engine takes it (ez, plus, or ez+sleep_check+drops…) and says it,
    by its one name (profile.preset_name); refused with the engine's own list of options
    and the near miss (:func:`preset_meant`). The one check of config.toml, the
    environment, --set and every command's --preset, so all take and offer the same."""
    from companion.systems.jongrogue.profile import preset_name, preset_options
    try:
        return preset_name(preset_options(text))
    except DataError as exc:
        raise DataError(f"{exc}{preset_meant(text)}") from None


def preset_meant(text: str) -> str:
    """`` (did you mean "drops"?)`` for a preset refused: in ez+drop, the first part that is
    neither ez nor an EZ Plus option, near one of them; a whole word (pluss) near a preset
    or one option's (sleep_check: ez+sleep_check) (setup71 NIT 6). Wherever the preset was
    given, by one threshold, difflib's 0.6 as :func:`~companion.errors.did_you_mean`'s,
    and quoted as TOML writes it, as config's notices write values (reviews71 NIT 6: config
    matched a whole word at 0.75 and quoted "plus", --preset at 0.6 and 'ez+drops')."""
    from companion.systems.jongrogue.profile import (
        OPTION_JOIN,
        Option,
        preset_name,
        preset_options,
    )
    # Each part stripped: spaces beside + (ez +drops) are a slip of the typing, not a
    # misspelt part; their preset is offered whole, without them (reviews71 NIT 5: "ez"
    # was offered, which drops the option). Not taken: the engine's one parser refuses
    # them, and a preset is one word in the save, the log and the history.
    parts = [part.strip() for part in text.strip().lower().split(OPTION_JOIN)]
    if len(parts) == 1:
        return _near(parts[0], _jongrogue_presets())
    words = ("ez", *(option.value for option in Option))
    if all(part in words for part in parts):
        try:
            meant = preset_name(preset_options(OPTION_JOIN.join(parts)))
        except DataError:
            return ""  # named twice, or no ez: no preset to offer
        return f" (did you mean {toml_value(meant)}?)"
    return next((_near(part, words) for part in parts if part and part not in words), "")


def _near(word: str, known: tuple[str, ...]) -> str:
    """`` (did you mean "plus"?)`` when one of ``known`` is near ``word`` (lower case)."""
    close = difflib.get_close_matches(word, known, n=1)
    return f" (did you mean {toml_value(close[0])}?)" if close else ""


def _jongrogue_presets() -> tuple[str, ...]:
    """The presets a near miss of a whole word given as game.preset is offered from: ez,
    plus, and ez with one option on (sleep_check: did you mean ez+sleep_check?)."""
    from companion.systems.jongrogue.profile import OPTION_JOIN, PRESETS, Option
    return (*PRESETS, *(f"ez{OPTION_JOIN}{option.value}" for option in Option))


#: Settings whose value a rules system checks itself, by key, raising :class:`DataError`
#: with its own near miss (so Spec.check offers none of its own: one, never two). game.preset
#: had a list of choices here, ez and plus, while the engine takes EZ with any of its six
#: Plus options (rules70 RISK 3, fixr70b): one check, the engine's, keeps config.toml, the
#: environment and --set taking exactly what play, simulate and replay take.
CHECKED_BY: dict[str, Callable[[str], str]] = {
    "game.preset": checked_preset,
}


#: Settings that are a list written as one text, its items separated by commas.
COMMA_LISTS = frozenset({"dice.expressions"})


class Source(Enum):
    """Where an effective value came from, lowest precedence first."""

    DEFAULT = "default"
    FILE = "file"
    ENV = "env"
    COMMAND_LINE = "command line"


@dataclass(frozen=True, slots=True)
class Spec:
    """One setting as declared in the defaults file."""

    key: str  # "section.name"
    default: Value
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    #: Text that may not be empty (nor only spaces): a camera source, which names nothing
    #: when empty. It was taken silently and refused only when the camera was opened
    #: (fixcarry70 item 3); refused here, it is said as other bad values are.
    nonempty: bool = False

    @property
    def env_var(self) -> str:
        return ENV_PREFIX + self.key.replace(".", "_").upper()

    def check(self, value: object, written: str | None = None) -> Value:
        """``value`` converted to this setting's type; :class:`DataError` names the key.
        ``written``: the text it was given as (environment, ``--set``). A number out of
        range from there is quoted as written, not as converted: ``2``, ``-1``, ``1e400``,
        where the message said ``2.0``, ``-1.0``, ``inf`` (setup71 NIT 5). One from
        config.toml is quoted as TOML writes the value read, an int as an int (``2``, not
        ``2.0``), not as the file spells it (``1e1`` is ``10.0``, ``0x10`` is ``16``):
        tomllib keeps no value's text nor line, and only floats have a hook (parse_float),
        so ints could not be quoted so; config --show marks the same value (reviews71
        NIT 4)."""
        kind = type(self.default)
        shown = written if written is not None else toml_value(value)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if kind is str and isinstance(value, int) and not isinstance(value, bool) \
                and str(value) in self.choices:
            value = str(value)  # rotate = 90: the number is one of the words
        number_among_words = kind is str and bool(self.choices) \
            and isinstance(value, bool | int | float)  # told the words, not "text in quotes"
        if type(value) is not kind and not number_among_words:
            raise DataError(
                f"{self.key} must be {_KIND_WORDS[kind]}, found {toml_value(value)}"
                f"{self._joined(value)}"
                f"{pin_text_hint(self.key, value) if isinstance(value, str) else ''}"
            )
        assert isinstance(value, bool | int | float | str)
        if self.choices and value not in self.choices:  # a word, or a number not one
            raise DataError(f"{self.key} must be one of {', '.join(self.choices)}; found "
                            f"{toml_value(value)}{self._meant(value)}")
        checked_by = CHECKED_BY.get(self.key)
        if checked_by is not None and isinstance(value, str):
            try:
                value = checked_by(value)
            except DataError as exc:
                raise DataError(f"{self.key}: {exc}") from None  # its own near miss said
        if isinstance(value, float) and math.isnan(value):
            raise DataError(f"{self.key} must be {_KIND_WORDS[kind]}, found nan")
        if self.nonempty and isinstance(value, str) and not value.strip():
            raise DataError(f"{self.key} must not be empty, found {toml_value(value)}")
        if isinstance(value, int | float) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise DataError(f"{self.key} must be at least {self.minimum:g}, found {shown}")
            if self.maximum is not None and value > self.maximum:
                raise DataError(f"{self.key} must be at most {self.maximum:g}, found {shown}"
                                f"{header_pin_hint(self.key, value)}")
        return value

    def _joined(self, value: object) -> str:
        """`` (write them as one text, separated by commas: expressions = "2D6, 1D6")`` for a
        TOML list of texts given a setting that is a list in one text (:data:`COMMA_LISTS`),
        else empty. ``expressions = ["2D6", "1D6"]``, TOML's way to write a list, was told
        "must be text in quotes" alone, and the rolls were dropped for the default
        (setup75 NIT 6). Not taken as the list: the setting is one text in the environment,
        ``--set`` and ``config --show``, as the docs give it."""
        if self.key not in COMMA_LISTS or not isinstance(value, list) or not value \
                or not all(isinstance(item, str) for item in value):
            return ""
        name = self.key.split(".", 1)[1]
        return (f" (write them as one text, separated by commas: {name} = "
                f"{toml_value(', '.join(item.strip() for item in value))})")

    def _meant(self, value: object) -> str:
        """`` (did you mean "rfid"?)`` for a word near one of the choices (setup64 NIT 1)."""
        if not isinstance(value, str):
            return ""
        words = self.choices
        # Full-width letters as a Japanese IME types them (ｔｅｒｍｉｎａｌ) read as plain
        # ones, and a word begun (term) as the one choice it begins (setup75 NIT 7).
        typed = unicodedata.normalize("NFKC", value).strip().lower()
        same = [c for c in words if c.lower() == typed]
        begun = [c for c in words if len(typed) >= 3 and c.lower().startswith(typed)]
        near = same or (begun if len(begun) == 1 else []) \
            or difflib.get_close_matches(typed, words, 1, 0.75)
        return f" (did you mean {toml_value(near[0])}?)" if near else ""

    def unquoted(self, value: object) -> str:
        """`` (write it without quotes: fullscreen = false)`` for text in a file that,
        written bare, is a value this setting takes: ``"false"`` for a flag, ``"5"`` for a
        pin (setup64 NIT 2). Empty otherwise."""
        if not isinstance(value, str) or isinstance(self.default, str):
            return ""
        text = value.strip()
        if isinstance(self.default, bool):
            text = text.lower()  # "True", Python's spelling
        if not text or any(c in text for c in "\n\r#=\"'"):
            return ""
        try:
            parsed = tomllib.loads(f"v = {text}")
            if set(parsed) != {"v"}:
                return ""
            self.check(parsed["v"])
        except (tomllib.TOMLDecodeError, DataError):
            return ""
        return f" (write it without quotes: {self.key.split('.', 1)[1]} = {text})"

    def parse_text(self, text: str) -> Value:
        """A value given as text (environment, ``--set``), checked like a file value."""
        kind = type(self.default)
        value: object = text
        if kind is bool:
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                value = True
            elif lowered in ("0", "false", "no", "off"):
                value = False
        elif kind is int:
            try:
                value = int(text)
            except ValueError:
                pass
        elif kind is float:
            try:
                value = float(text)
            except ValueError:
                pass
        return self.check(value, text.strip() if value is not text else None)


#: Earlier words still taken for a setting's value, by key: ``manual`` was the word for typed
#: dice (as ``--dice``/``--d100`` still take it, commands/roll.py ``typed_alias``). Read as
#: the word of now, with a notice, so a config.toml written then keeps its dice.
ALIASES: dict[str, dict[str, str]] = {
    "dice.source": {"manual": "typed"},
    "dice.d100": {"manual": "typed"},
}


def _unaliased(key: str, value: object, where: str, notices: list[str]) -> object:
    """``value`` of ``key`` (given in ``where``) with an earlier word read as today's, said in
    a notice; any other value as it is."""
    now = ALIASES.get(key, {}).get(value) if isinstance(value, str) else None
    if now is None:
        return value
    notices.append(f"{where}: {key} = {toml_value(value)} is read as {toml_value(now)}, its "
                   f"name now; write {toml_value(now)} to quiet this")
    return now


def _either(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _folded(name: str) -> str:
    """A name as a misspelling may differ only in case, ``-`` or ``_`` (``camerasource``,
    ``Full-Screen``)."""
    return name.lower().replace("-", "").replace("_", "")


def _closest(word: str, words: list[str], cutoff: float) -> list[str]:
    """The ``words`` nearest ``word`` (difflib's ratio, at least ``cutoff``), every one of
    those equally near, in their order: no arbitrary pick among equals."""
    ratios = [difflib.SequenceMatcher(None, word, w).ratio() for w in words]
    best = max(ratios, default=0.0)
    return [w for w, r in zip(words, ratios, strict=True) if r >= cutoff and r == best]


def _nearest(name: str, keys: list[str], cutoff: float) -> list[str]:
    """The ``keys`` (``section.name``) whose name ``name`` may mean, the first of these
    that finds any, each with all it finds: the same name (``Fullscreen``,
    ``camerasource``); names it begins (``pace`` for pace_seconds) or ends on a word
    (``source`` for camera_source, ``pin`` for each ``…_pin``); the closest at ``cutoff``."""
    names = [k.partition(".")[2] for k in keys]
    word = name.lower().replace("-", "_")
    same = [k for k, n in zip(keys, names, strict=True) if _folded(n) == _folded(name)]
    part = [k for k, n in zip(keys, names, strict=True)
            if len(word) >= 3 and (n.startswith(word) or n.endswith("_" + word))]
    if same or part:
        return same or part
    close = set(_closest(name, names, cutoff)) if name else set()
    return [k for k, n in zip(keys, names, strict=True) if n in close]


def _meant_keys(key: str, specs: Mapping[str, Spec], value: object = None) -> list[str]:
    """The settings an unknown ``section.name`` (or a bare ``name``) may have meant, the
    likeliest first (setup64 NIT 1, review64c RISK 1):

    - its own section's (or, for a misspelt section, ``[inputs]``, the nearest section's) by
      :func:`_nearest`: ``[input] source`` is input.camera_source before dice.source;
    - then the same name under another section: ``[display] rfid_port`` is input.rfid_port,
      ``[inputs] kind`` is input.kind, then display.kind and choices.kind;
    - a bare name, or one under a section near none, is looked for in every section.

    Of those, the ones that take ``value`` (given, not None) when any does: ``kind =
    "rfid"`` is input.kind alone, ``source = "/dev/video0"`` not dice.source.
    """
    meant = _meant_anyhow(key, specs)
    if value is None:
        return meant
    return [k for k in meant if _takes(specs[k], value)] or meant


def _takes(spec: Spec, value: object) -> bool:
    """Whether ``spec`` takes ``value``, a file's value or a text (environment, ``--set``),
    an earlier word of it included."""
    value = ALIASES.get(spec.key, {}).get(value, value) if isinstance(value, str) else value
    try:
        if isinstance(value, str) and not isinstance(spec.default, str):
            spec.parse_text(value)
        else:
            spec.check(value)
    except DataError:
        return False
    return True


def _meant_anyhow(key: str, specs: Mapping[str, Spec]) -> list[str]:
    """:func:`_meant_keys` whatever the value."""
    section, dot, name = key.partition(".")
    if not dot:
        section, name = "", key
    sections = list(dict.fromkeys(k.partition(".")[0] for k in specs))
    own = [section] if section in sections else _closest(section, sections, 0.75) \
        if section else []
    if not own:
        return _nearest(name, list(specs), 0.8)
    mine = _nearest(name, [k for k in specs if k.partition(".")[0] in own], 0.6)
    others = [k for k in specs if k.partition(".")[0] not in own]
    theirs = [k for k in others if _folded(k.partition(".")[2]) == _folded(name)]
    return mine + theirs if mine or theirs else _nearest(name, others, 0.8)


def _unknown(key: str, specs: Mapping[str, Spec], value: object = None) -> str:
    """`` (did you mean display.fullscreen?)`` for an unknown key near a setting (those of
    them that take ``value``, when any does), or ``""``."""
    meant = _meant_keys(key, specs, value)
    return f" (did you mean {_either(meant)}?)" if meant else ""


def _outside(path: Path, name: str, value: object, specs: Mapping[str, Spec],
             tables: set[str]) -> str:
    """The notice for ``name = value`` above every [section] of the file, whose sections are
    ``tables``: the settings it may be, and where to put it, into its section below when the
    file has it (a second ``[display]`` is a TOML error: review64c DEFECT 2), else under a
    [section] line written above it (setup64 NIT 1)."""
    if isinstance(value, dict | list):
        return f"{path}: {name!r} should be a [section] table; ignored"
    own = [k for k in specs if k.partition(".")[0] == name]
    if own:
        return _section_given_a_value(path, name, value, own, specs)
    meant = _meant_keys(name, specs, value)
    if not meant:
        return f"{path}: {name!r} should be a [section] table; ignored"
    heads = list(dict.fromkeys(f"[{k.partition('.')[0]}]" for k in meant))
    below = [h for h in heads if h[1:-1] in tables]
    above = [h for h in heads if h[1:-1] not in tables]
    where = []
    if below:
        into = f"the {below[0]} section" if len(below) == 1 else \
            _either(below) if above else f"its section, {_either(below)},"
        where.append(f"move it into {into} below")
    if above:
        what = above[0] if len(above) == 1 else \
            _either(above) if below else f"its section, {_either(above)},"
        where.append(f"write {what} on a line above it")
    return (f"{path}: {name} = {toml_value(value)} is under no [section]; ignored (did you mean "
            f"{_either(meant)}? {', or '.join(where)})")


def _section_given_a_value(path: Path, name: str, value: object, own: list[str],
                           specs: Mapping[str, Spec]) -> str:
    """The notice for ``input = "rfid"``: a section's name given a value (setup65: it got no
    hint). The setting meant is the one whose words hold the value (input.kind, for "rfid"),
    else those that take it; past three, the player picks from config --show.
    Its section cannot be in the file too: TOML refuses ``input`` defined twice."""
    worded = [k for k in own if specs[k].choices and _takes(specs[k], value)]
    meant = worded or [k for k in own if _takes(specs[k], value)]
    shown = toml_value(value)
    lines = [f"{k.partition('.')[2]} = {shown}" for k in meant]
    # None that takes the value: the general words, not "then  under it" (setup73 NIT 3).
    then = (f"then {' or '.join(lines)} under it" if 0 < len(lines) <= 3
            else "then the setting's name = the value under it "
            f"({companion_line('config', '--show')} lists them)")
    return (f"{path}: {name} = {shown} is under no [section]; ignored ([{name}] is a section "
            f"of settings: write [{name}] on a line above it, {then})")


_KIND_WORDS: dict[type, str] = {
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    str: "text in quotes",
}


@dataclass(frozen=True, slots=True)
class Setting:
    """An effective value and where it came from (a file path, a variable, a flag)."""

    spec: Spec
    value: Value
    source: Source
    origin: str


def home_not_found(text: str) -> str | None:
    """Why the path ``text`` names a home folder that cannot be found (``~pi/pics`` from a
    config.toml copied off a Pi onto a machine with no user pi; ``~`` with no HOME and no
    home in the user database), or None. pathlib's "Could not determine home directory"
    was a traceback from ``config --show`` and ``play`` (reviewsetup75 DEFECT 1); it is
    said as paths.py says it of COMPANION_CONFIG_DIR and COMPANION_DATA_DIR."""
    if not text.startswith("~"):
        return None
    try:
        Path(text).expanduser()
    except RuntimeError:
        user = text[1:].partition("/")[0]
        whose = (f"there is no user {user} here, so ~{user} cannot be expanded" if user
                 else "this user has no home folder, so ~ cannot be expanded")
        return f"{text}: {whose}: give the full path"
    return None


@dataclass(frozen=True, slots=True)
class Config:
    """The effective settings, plus the notices loading produced (bad keys, a moved file).

    ``problems`` are the notices of a value refused or a key ignored (not of an earlier word
    read as today's); ``refused`` names, by setting, each value refused
    (``config.toml's "RFID"``), for ``config --show`` to mark its line; ``refusals`` says
    why, by setting, each as its problem says it but for the fallback (``…/config.toml:
    buttons.flee_pin must be at most 27, found 40 (…)``), for ``play`` to stop on a
    button's pin refused, not run that button on the default pin (keys73 NIT 3)."""

    settings: dict[str, Setting]
    notices: tuple[str, ...]
    path: Path
    problems: tuple[str, ...] = ()
    refused: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    refusals: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Value:
        return self.settings[key].value

    def where(self, key: str) -> str:
        """The setting ``key`` and where its value came from, for a message:
        ``input.camera_source (/home/pi/.config/jongrogue-companion/config.toml)``."""
        return f"{key} ({self.settings[key].origin})"

    def file_path(self, key: str) -> Path | None:
        """A setting that names a file, as a path (None when it is empty). ``~`` is the
        home folder. A relative path written in config.toml is taken from config.toml's
        folder, where the player put the file beside it, not from wherever the command
        runs (the boot service runs in the home folder); one from the environment or the
        command line is taken from the current folder, as a shell takes it."""
        text = self.text(key)
        if not text:
            return None
        if (reason := home_not_found(text)) is not None:
            raise DataError(f"{self.where(key)}: {reason}")
        path = Path(text).expanduser()
        if not path.is_absolute() and self.settings[key].source is Source.FILE:
            path = self.path.parent / path
        return path

    def existing_file(self, key: str) -> Path | None:
        """:meth:`file_path`, refused (:class:`DataError`) naming the setting and the full
        path, and how a relative one was taken, when no such file is there or it is no
        regular file (a folder, a device: :func:`~companion.app.arg_types.not_a_file`)."""
        path = self.file_path(key)
        trouble = None if path is None else not_a_file(path)
        if path is None or trouble is None:
            return path
        text = self.text(key)
        base = "config.toml's folder" if self.settings[key].source is Source.FILE \
            else "the current folder"
        relative = "" if Path(text).expanduser().is_absolute() else \
            f" (the relative path {text} is taken from {base})"
        raise DataError(f"{self.where(key)}: {path.absolute()}: {trouble}{relative}")

    def camera_source(self) -> CameraChoice:
        """input.camera_source, the camera that reads the tiles, naming where it was set,
        and how the RFID tray reads them instead, as input.kind was given (f78carry: the
        Pi camera's hint said config.toml while COMPANION_INPUT_KIND or --input chose)."""
        return self._camera("input.camera_source", instead="No camera, the RFID tray "
                            f"instead: {self.how_to_set('input.kind', 'rfid')}")

    def dice_camera(self, given: str | None = None) -> CameraChoice:
        """The dice camera: ``given`` (a --source), else dice.camera_source, where "auto"
        is the camera that reads the tiles (the mat has a dice area); each names the
        setting that chose it, for the messages about it."""
        if given is not None:  # --source "" is refused, not the configured one (reviewc69 RISK B)
            return CameraChoice.option(given)
        if self.text("dice.camera_source") != "auto":
            return self._camera("dice.camera_source")
        # A USB camera for the dice alone is set in dice.camera_source, not in the tiles'.
        return self._camera("input.camera_source", ', as dice.camera_source is "auto"',
                            usb_key="dice.camera_source")

    def _camera(self, key: str, why: str = "", usb_key: str | None = None,
                instead: str = "") -> CameraChoice:
        written = self.text(key)
        # A folder of pictures beside config.toml is found there.
        spec = str(self.file_path(key)) if names_a_file(written) else written
        return CameraChoice(spec, self.where(key) + why,
                            self.how_to_set(usb_key or key, "camera:0"), written, instead)

    def how_to_set(self, key: str, value: str) -> str:
        """How to give ``key`` the value ``value``, where its value came from now: the
        environment and the command line win over config.toml, so "input.camera_source =
        "camera:0" in config.toml" did nothing while COMPANION_INPUT_CAMERA_SOURCE=picamera
        was set, and the player who did it got the same error again (camera75 DEFECT 1;
        the buttons' and the dice camera's hints, a77setup DEFECT 1)."""
        setting = self.settings[key]
        if setting.source is Source.ENV:
            return (f"{setting.origin}={value} (the environment sets {key}, over "
                    f"{self.path.name}; or unset it)")
        if setting.source is Source.COMMAND_LINE:
            joint = "=" if setting.origin.startswith("--set ") else " "
            return f"{setting.origin}{joint}{value}"
        # Under its [section], not the dotted key: "input.kind = ..." pasted under an
        # [input] that is already there reads as input.input.kind, and pasted above it
        # defines [input] twice, which is no TOML at all (r78carry).
        section, name = key.split(".", 1)
        return f"{name} = {toml_value(value)} under [{section}] in {self.path}"

    def tell_notices(self) -> None:
        """Print the notices on stderr: the command goes on, the user learns what was off."""
        for notice in self.notices:
            print(f"companion: {notice}", file=sys.stderr)

    def text(self, key: str) -> str:
        value = self[key]
        assert isinstance(value, str), key
        return value

    def number(self, key: str) -> float:
        value = self[key]
        assert isinstance(value, int | float) and not isinstance(value, bool), key
        return float(value)

    def integer(self, key: str) -> int:
        value = self[key]
        assert isinstance(value, int) and not isinstance(value, bool), key
        return value

    def flag(self, key: str) -> bool:
        value = self[key]
        assert isinstance(value, bool), key
        return value


def load_specs() -> dict[str, Spec]:
    """Read and shape-check the packaged defaults; a broken one is a bug, so it raises."""
    resource = files("companion.app.data") / "config_defaults.toml"
    source = "companion/app/data/config_defaults.toml"
    raw = tomllib.loads(resource.read_text(encoding="utf-8"))
    specs: dict[str, Spec] = {}
    for section, table in raw.items():
        for name, entry in table.items():
            key = f"{section}.{name}"
            if not isinstance(entry, dict) or "default" not in entry or "help" not in entry:
                raise DataError(f"{source}: [{key}] needs a default and a help line")
            extra = set(entry) - {"default", "help", "choices", "min", "max", "nonempty"}
            if extra:
                raise DataError(f"{source}: [{key}] has unknown field {sorted(extra)[0]!r}")
            if not isinstance(entry.get("nonempty", False), bool):
                raise DataError(f"{source}: [{key}] nonempty must be true or false")
            spec = Spec(
                key=key,
                default=entry["default"],
                help=entry["help"],
                choices=tuple(entry.get("choices", ())),
                minimum=entry.get("min"),
                maximum=entry.get("max"),
                nonempty=entry.get("nonempty", False),
            )
            spec.check(spec.default)
            specs[key] = spec
    return specs


def default_config_path() -> Path:
    return config_dir() / CONFIG_NAME


def load_config(
    path: Path | None = None,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, object] | None = None,
    flag_names: Mapping[str, str] | None = None,
) -> Config:
    """The effective config.

    ``overrides`` are command-line values by key (already typed by argparse,
    or text from ``--set``); ``flag_names`` says which flag gave each, for
    ``config --show``. A bad command-line value raises :class:`DataError`
    (the user is right there to fix it); bad file or environment values only
    produce notices.
    """
    specs = load_specs()
    path = path or default_config_path()
    env = os.environ if env is None else env
    notices: list[str] = []
    problems: list[str] = []
    refused: dict[str, tuple[str, ...]] = {}
    refusals: dict[str, tuple[str, ...]] = {}
    # A file value refused, by setting: its notice, "…; using the default …", and why.
    defaulted: dict[str, tuple[str, str]] = {}
    settings = {k: Setting(s, s.default, Source.DEFAULT, "built in") for k, s in specs.items()}

    def problem(text: str) -> None:
        notices.append(text)
        problems.append(text)

    for key, value in _read_file(path, problem, specs).items():
        spec = specs.get(key)
        if spec is None:
            problem(f"{path}: unknown setting {key!r} ignored{_unknown(key, specs, value)}")
            continue
        value = _unaliased(key, value, str(path), notices)
        try:
            settings[key] = Setting(spec, spec.check(value), Source.FILE, str(path))
        except DataError as exc:
            why = f"{path}: {exc}{spec.unquoted(value)}"
            problem(said := f"{why}; using the default {toml_value(spec.default)}")
            defaulted[key] = (said, why)
            refused[key] = (*refused.get(key, ()), f"{path.name}'s {toml_value(value)}")
            refusals[key] = (*refusals.get(key, ()), why)

    for key, spec in specs.items():
        text = env.get(spec.env_var)
        if text is None:
            continue
        text = str(_unaliased(key, text, spec.env_var, notices))
        try:
            settings[key] = Setting(spec, spec.parse_text(text), Source.ENV, spec.env_var)
        except DataError as exc:
            problem(f"{spec.env_var}: {exc}; ignored")
            refused[key] = (*refused.get(key, ()), f"{spec.env_var}'s {toml_value(text)}")
            refusals[key] = (*refusals.get(key, ()), f"{spec.env_var}: {exc}")
    for text in _misspelt_env(env, specs):
        problem(text)

    for key, value in (overrides or {}).items():
        spec = specs.get(key)
        if spec is None:
            raise DataError(f"unknown setting {key!r}{_unknown(key, specs, value)}; see "
                            f"`{companion_line('config', '--show')}`")
        origin = (flag_names or {}).get(key, f"--set {key}")
        value = _unaliased(key, value, origin, notices)
        try:
            typed = spec.parse_text(value) if isinstance(value, str) else spec.check(value)
        except DataError as exc:
            raise DataError(f"{origin}: {exc}") from None
        settings[key] = Setting(spec, typed, Source.COMMAND_LINE, origin)

    # A refused file value set again by the environment or the command line: that value is
    # used, not the default the notice said (fixcarry74: "using the default 27" while the
    # environment's GPIO5 was the pin the button was read on).
    replaced = {text: f"{why}; using {toml_value(settings[key].value)} from "
                      f"{settings[key].origin}"
                for key, (text, why) in defaulted.items()
                if settings[key].source is not Source.DEFAULT}
    notices = [replaced.get(text, text) for text in notices]
    problems = [replaced.get(text, text) for text in problems]
    if settings["choices.kind"].value == "gpio":
        notices, problems = _pins_play_stops_on(settings, refusals, notices, problems)
    return Config(settings, tuple(notices), path, tuple(problems), refused, refusals)


def _pins_play_stops_on(settings: Mapping[str, Setting],
                        refusals: Mapping[str, tuple[str, ...]], notices: list[str],
                        problems: list[str]) -> tuple[list[str], list[str]]:
    """``notices`` and ``problems`` with a button pin's refusal ending as play takes it: with
    ``choices.kind = "gpio"`` play stops on a refused ``buttons.…_pin`` that nothing set
    again (``refused_pins`` in the config command), so "using the default 27" or "ignored"
    was untrue there, and beside ``config --show``'s "play stops on it" (reviewa73 NIT 3)."""
    ends = {}
    for key, whys in refusals.items():
        if key.startswith("buttons.") and key.endswith("_pin") \
                and settings[key].source in (Source.DEFAULT, Source.FILE):
            for why in whys:
                ends[why] = f'{why}; play stops on it (with choices.kind = "gpio")'

    def ended(text: str) -> str:
        why, _, tail = text.rpartition("; ")
        return ends[why] if why in ends and (tail == "ignored"
                                             or tail.startswith("using the default ")) else text
    return [ended(t) for t in notices], [ended(t) for t in problems]


def _misspelt_env(env: Mapping[str, str], specs: Mapping[str, Spec]) -> list[str]:
    """A notice for each ``COMPANION_…`` variable that is no setting's but nearly one's: a
    typo there was ignored without a word. A near miss of a folder variable is left to
    :func:`~companion.app.paths.misspelt_folder_variables`, which every command says.
    (Variables far from all of them are other parts' and left alone.)"""
    known = [spec.env_var for spec in specs.values()]
    folders = [CONFIG_VARIABLE, DATA_VARIABLE]
    notices = []
    for name in sorted(env):
        if name.startswith(ENV_PREFIX) and name not in known + folders:
            section = name.removeprefix(ENV_PREFIX).lower()
            if any(key.partition(".")[0] == section for key in specs):
                notices.append(_env_section(name, section, env[name], specs))
                continue
            if difflib.get_close_matches(name, folders, 1, 0.85):
                continue  # told by every command (paths.misspelt_folder_variables)
            near = difflib.get_close_matches(name, known, 1, 0.85)
            if near:
                notices.append(f"{name} is no setting; ignored (did you mean {near[0]}?)")
    return notices


#: A text no setting with a check of its own takes: a setting that takes it takes any text.
ANY_TEXT = "\u0000any text\u0000"


def _env_section(name: str, section: str, value: str, specs: Mapping[str, Spec]) -> str:
    """The notice for ``COMPANION_DISPLAY=terminal``: a section's name given a value, the
    setting meant chosen by the value as in config.toml (:func:`_section_given_a_value`):
    by its name alone COMPANION_DISPLAY got DISPLAY_SIZE, and COMPANION_PLAY=dice nothing,
    ignored without a word (setup73 NIT 5)."""
    own = [key for key in specs if key.partition(".")[0] == section]
    worded = [k for k in own if specs[k].choices and _takes(specs[k], value)]
    taken = [k for k in own if _takes(specs[k], value)]
    # A setting that checks the value (a preset's name) before one taking any text (a
    # profile's file): COMPANION_GAME=ez was offered COMPANION_GAME_PROFILE=ez too,
    # and no profile file is ez (reviewa73 NIT 9).
    meant = worded or [k for k in taken if not _takes(specs[k], ANY_TEXT)] or taken
    if 0 < len(meant) <= 3:
        return (f"{name} is no setting; ignored (did you mean "
                f"{_either([f'{specs[k].env_var}={value}' for k in meant])}?)")
    return (f"{name} is no setting; ignored ([{section}] is a section of settings: "
            f"COMPANION_{section.upper()}_<KEY>, as {specs[own[0]].env_var}; "
            f"{companion_line('config', '--show')} lists them)")


def _not_utf8(data: bytes, path: Path) -> str:
    """What to do with a settings file that is not UTF-8, in the player's terms (setup69
    NIT 6: an old Japanese editor's Shift-JIS got Python's "'utf-8' codec can't decode byte
    0x90", and the RFID tray's player played on the camera's defaults): the byte as
    :func:`companion.errors.utf8_text` counts it, UTF-16 named by its byte order mark
    (Notepad's "Unicode"), Shift-JIS guessed when the bytes read so. A UTF-8 file that ends
    in the middle of a character is said cut short, as :func:`toml_fault` says it: "save it
    as UTF-8" sent the player of a file cut by a power cut the wrong way (a77setup NIT 6)."""
    try:
        said = utf8_text(data, "settings file", path)  # not reached: the bytes are not UTF-8
    except DataError as exc:
        said = str(exc)
        cause = exc.__cause__
        if isinstance(cause, UnicodeDecodeError) \
                and (fault := toml_fault(data, cause)) == cut_short(len(data), "file"):
            return f"{path} is not a valid TOML file ({fault})"
    try:
        text = data.decode("cp932")  # Windows' Shift-JIS, a superset of it
    except UnicodeDecodeError:
        text = "\0"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        said = said.removesuffix(")") + "; saved as UTF-16 (Notepad's Unicode)?)"
    elif all(char.isprintable() or char in "\t\r\n" for char in text):  # not UTF-16's NULs
        said = said.removesuffix(")") + "; saved as Shift-JIS?)"
    return f"{said}: save it as UTF-8 (UTF-8で保存してください)"


def _toml_fault(data: bytes, exc: tomllib.TOMLDecodeError) -> str:
    """Why the settings file of ``data`` is not TOML, in the words every kept file's fault
    is said in (:func:`toml_fault`: zero bytes a power cut left, hist70 N2), but a file
    that ends in the middle is said with its last line: the player edits this file, and a
    quote or bracket left open there ends it so as well as a cut does ("cut short after 20
    bytes" alone sent them looking for a cut)."""
    said = toml_fault(data, exc)
    if said != cut_short(len(data), "file"):
        return said
    line = data.rstrip().count(b"\n") + 1
    why = str(exc).removesuffix(" (at end of document)")
    return (f"{why[:1].lower()}{why[1:]} at the file's end, line {line}: a quote or bracket "
            "left open there, or the file cut short?")


def file_in_the_way(path: Path) -> Path | None:
    """The file (not a folder) where a folder of ``path``'s is wanted, or None: the config
    folder given as a file (``COMPANION_CONFIG_DIR=~/notes.txt``) was said "cannot be read
    (Not a directory)" and, by ``config --show``, "(not created)", naming no file
    (setup75 NIT 4). The nearest of its folders that is there is the one looked at."""
    for folder in path.parents:
        if folder.exists():
            return None if folder.is_dir() else folder
    return None


def _read_file(path: Path, problem: Callable[[str], None],
               specs: Mapping[str, Spec]) -> dict[str, Any]:
    """The file's values by ``section.key``; a file that is not TOML gives none and a notice
    (``problem``)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        if path.is_symlink():  # a dotfiles link whose target moved: every setting lost
            problem(f"{path} is a link to {os.readlink(path)}, which is not there; using "
                    "the defaults")
        return {}
    except OSError as exc:
        if exc.errno == errno.ENOTDIR and (in_the_way := file_in_the_way(path)) is not None:
            named = f" ({CONFIG_VARIABLE} names it)" if in_the_way == path.parent \
                and os.environ.get(CONFIG_VARIABLE) else ""
            problem(f"{path}: cannot be read: {in_the_way} is a file, not a folder{named}; "
                    "using the defaults")
        else:
            problem(f"{path}: cannot be read ({exc.strerror}); using the defaults")
        return {}
    try:
        raw = parse_user_toml(data)
    except UnicodeDecodeError:
        problem(f"{_not_utf8(data, path)}; the defaults are used until it is mended")
        return {}
    except tomllib.TOMLDecodeError as exc:
        problem(f"{path} is not a valid TOML file ({_toml_fault(data, exc)}); the defaults "
                "are used until it is mended")
        return {}
    values: dict[str, Any] = {}
    tables = {section for section, table in raw.items() if isinstance(table, dict)}
    for section, table in raw.items():
        if not isinstance(table, dict):
            problem(_outside(path, section, table, specs, tables))
            continue
        for name, value in table.items():
            values[f"{section}.{name}"] = value
    return values
