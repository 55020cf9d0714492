"""Defaults keyed by rule ID, shared by the game systems (events, genso, coc).

Where a seed is silent the spec proposes a Default; each system keeps its Defaults as data
(``[defaults."RULE-ID"]``) beside the numbers its seed states (``[source."RULE-ID"]``).
:class:`Settings` holds the Defaults and which of them the user set: a value the user has
not set is labelled ``" (default)"`` (:data:`DEFAULT_TAG`) wherever it is shown, and
:meth:`Settings.with_overrides` takes the user's overrides, each checked by rule, key and
type, and refuses one of a number the seed states, or one outside its range. A numeric
Default that only makes sense in a range keeps it beside it as data
(``[limits."RULE-ID"]``, read by :func:`read_limits`), so every system checks ranges the
same way; the range where play makes sense of a seed's number is data of the same shape
(``[source_limits."RULE-ID"]``, :func:`read_source_limits`). A Default that must be one
of a closed set of words (or numbers) is refused with its choices when it is set to
anything else; the sets stay in each system's code
(``CHOICES``), beside the branches that play them, and :func:`read_choices` checks them
against the data. A settings list shows both beside a Default (:meth:`Settings.notes`,
:func:`notes_text`). Each system words its refusals its own way (:class:`Wording`) and
checks its other values further itself.

Being the one module every system may import (tests/test_layers.py), it also keeps the
check each system makes of a name the player wrote (:func:`refuse_control`), and how a
value is written in TOML for a message about it (:func:`toml_value`), which the app's
config uses too.
"""

from __future__ import annotations

import datetime
import json
import math
import operator
import re
import tomllib
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib.resources import files
from typing import Any

from companion.errors import DataError, bound_text, did_you_mean, utf8_text

DEFAULT_TAG = " (default)"


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_CONTROLS = re.compile("[\x7f-\x9f]")  # json.dumps leaves them raw (review64c NIT 4)


def toml_value(value: object) -> str:
    """``value`` as a TOML file writes it, for a message about one: ``true``, ``"rfid"``,
    ``2.5``, ``inf``, ``[1, 2]``, where Python's repr said ``True`` and ``'rfid'`` (setup64
    NIT 2). Anything TOML has no spelling for is given as Python writes it. One formatter
    for the app and the systems, which each had their own partial copies (reviewe68 NIT 4).

    >>> toml_value(True), toml_value("Goblin"), toml_value([1.5, {"a b": None}])
    ('true', '"Goblin"', '[1.5, { "a b" = None }]')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):  # DEL and the C1 controls escaped too: no raw DEL in TOML
        return _CONTROLS.sub(lambda m: f"\\u{ord(m[0]):04x}",
                             json.dumps(value, ensure_ascii=False))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(
            f"{k if _BARE_KEY.fullmatch(str(k)) else json.dumps(str(k))} = {toml_value(v)}"
            for k, v in value.items()) + " }" if value else "{}"
    return repr(value)


#: How a setting's type is named to a player (never Python's "int" or "str").
KIND_NAMES: dict[type, str] = {
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    str: "text",
    list: "a list",
    dict: "a table",
}


def kind_name(value: Any) -> str:
    """The kind of value a setting holds, in words: ``kind_name(3)`` is "a whole number".

    >>> kind_name(True), kind_name(3), kind_name("up")
    ('true or false', 'a whole number', 'text')
    """
    return KIND_NAMES.get(type(value), f"a {type(value).__name__}")


def refuse_control(name: str, what: str) -> None:
    """A name holding a control character (ESC, BEL, a line end) is refused, naming ``what``
    and the character: a name is printed to the terminal as it is, where ``Ann\\e[2J``
    would clear the screen. Refused, not shown escaped, as no one names a character so.
    Every system's reader of a name the player wrote calls it (a party member, a sheet).

    >>> refuse_control("Ann\\x1b[7m", "sheet.toml: name")
    Traceback (most recent call last):
    ...
    companion.errors.DataError: sheet.toml: name 'Ann\\x1b[7m' holds a control character \
('\\x1b'); give the name as printable text
    """
    bad = next((c for c in name if unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise DataError(f"{what} {name!r} holds a control character ({bad!r}); give the name "
                        "as printable text")


@dataclass(frozen=True)
class Wording:
    """How a system words a refused override; ``{rule}``, ``{name}``, ``{value}`` (the
    seed's number) and ``{known}`` (the rule's settings) are filled in."""

    seed: str = "{rule}.{name} is the seed's rule ({value!r}), not a Default"
    no_rule: str = "no Default is kept for rule {rule!r}"
    no_name: str = "{rule} has no setting {name!r} (has {known})"


#: How a range may bound a number: ``min`` and ``max`` inclusive, ``above`` strictly. A bound
#: is a whole number or names another number: ``"key"`` of the same rule or
#: ``"RULE-ID.key"``, a Default (as it is now) or a seed's number.
BOUNDS = ("min", "max", "above")
#: For each kind of bound, when a value breaks it.
_BREAKS: dict[str, Callable[[int, int], bool]] = {
    "min": operator.lt, "max": operator.gt, "above": operator.le}


@dataclass(frozen=True)
class Limits:
    """The range of each numeric Default that has one, keyed by (rule, key).

    >>> limits = Limits({("X-1", "n"): {"min": 1}, ("X-1", "top"): {"above": "n"}})
    >>> limits.problems({"X-1": {"n": 0, "top": 0}})
    ['X-1.n must be 1 or more, found 0', 'X-1.top must be above 0 (X-1.n), found 0']
    """

    bounds: Mapping[tuple[str, str], Mapping[str, int | str]] = field(default_factory=dict)
    #: The seed's numbers a bound may name (they never change, unlike a Default).
    source: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, repr=False)

    def _number(self, values: Mapping[str, Mapping[str, Any]], rule: str,
                bound: int | str) -> tuple[int, str]:
        """A bound's number now, and how it is shown: ``(2, "2 (CO-BASE-8.unconscious_max)")``."""
        if isinstance(bound, int):
            return bound, bound_text(bound)
        other, name = _named(rule, bound)
        number = _look_up(values, self.source, other, name)
        return int(number), f"{bound_text(int(number))} ({other}.{name})"

    def span(self, values: Mapping[str, Mapping[str, Any]], rule: str, name: str) -> str:
        """The range in words, "1 or more", "from 0 to 100", "above 5 (CO-CORE-1.critical_max_004)";
        "" for a setting without one."""
        bounds = self.bounds.get((rule, name), {})
        shown = {kind: self._number(values, rule, b)[1] for kind, b in bounds.items()}
        parts = []
        if "min" in shown and "max" in shown:
            parts.append(f"from {shown['min']} to {shown['max']}")
        elif "min" in shown:
            parts.append(f"{shown['min']} or more")
        elif "max" in shown:
            parts.append(f"{shown['max']} or less")
        if "above" in shown:
            parts.append(f"above {shown['above']}")
        return " and ".join(parts)

    def holds(self, values: Mapping[str, Mapping[str, Any]], rule: str, name: str) -> bool:
        """Whether the setting's value is inside its range (always, for one without)."""
        value = values[rule][name]
        return not any(_BREAKS[kind](value, self._number(values, rule, bound)[0])
                       for kind, bound in self.bounds.get((rule, name), {}).items())

    def check_source_number(self, value: object, rule: str, name: str, place: str) -> None:
        """Refuse a seed's number (``[source]`` in rules.toml, ranged by
        ``[source_limits]``) that is missing, not a whole number, or outside its range: a
        DataError naming ``place`` (the file and the table), the key and the range. ``name``
        is the number's key in ``rule``'s ranges (``part.key`` for one in a sub-table); a
        bound names the seed's own numbers.

        >>> Limits({("X-1", "n"): {"min": 1}}).check_source_number(0, "X-1", "n", "x: [X-1]")
        Traceback (most recent call last):
        companion.errors.DataError: x: [X-1] n must be a whole number 1 or more, found 0
        """
        now = {rule: {name: value}}
        span = self.span(now, rule, name)
        key = name.rpartition(".")[2]
        if value is None:
            raise DataError(f"{place} lacks {key}, a whole number {span}")
        if not _whole(value) or not self.holds(now, rule, name):
            raise DataError(f"{place} {key} must be a whole number {span}, "
                            f"found {toml_value(value)}")

    def problems(self, values: Mapping[str, Mapping[str, Any]]) -> list[str]:
        """Each setting outside its range, named with its range and its value."""
        return [self.problem(values, rule, name)
                for rule, name in self.bounds if not self.holds(values, rule, name)]

    def problem(self, values: Mapping[str, Mapping[str, Any]], rule: str, name: str,
                set_now: Iterable[tuple[str, str]] = ()) -> str:
        """A setting outside its range, in words. When a bound it breaks names a setting
        in ``set_now`` (what the user has just set) and it is not one of them itself, the
        words start from the one set: "X-1.n = 9 leaves X-1.top (5) outside its range: it
        must be above 9 (X-1.n)"; a refusal naming only a key the user never touched hid
        which of their values did it.

        >>> limits = Limits({("X-1", "top"): {"above": "n"}})
        >>> limits.problem({"X-1": {"n": 9, "top": 5}}, "X-1", "top", [("X-1", "n")])
        'X-1.n = 9 leaves X-1.top (5) outside its range: it must be above 9 (X-1.n)'
        """
        value, span = values[rule][name], self.span(values, rule, name)
        now = set(set_now)
        if (rule, name) not in now:
            for kind, bound in self.bounds.get((rule, name), {}).items():
                number = self._number(values, rule, bound)[0]
                if isinstance(bound, str) and _named(rule, bound) in now \
                        and _BREAKS[kind](value, number):
                    other, key = _named(rule, bound)
                    return (f"{other}.{key} = {toml_value(number)} leaves {rule}.{name} "
                            f"({toml_value(value)}) "
                            f"outside its range: it must be {span}")
        return f"{rule}.{name} must be {span}, found {toml_value(value)}"


def _named(rule: str, bound: str) -> tuple[str, str]:
    """The (rule, key) a bound names: ``"key"`` of ``rule`` itself, or ``"RULE-ID.key"``."""
    other, _, name = bound.rpartition(".")
    return other or rule, name


def _look_up(values: Mapping[str, Mapping[str, Any]], source: Mapping[str, Mapping[str, Any]],
             rule: str, name: str) -> Any:
    """A Default's value now, else the seed's number (None for neither)."""
    return values.get(rule, {}).get(name, source.get(rule, {}).get(name))


def _whole(value: object) -> bool:
    """A whole number, and not true or false (which Python counts as 1 and 0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _read_range(spec: object, where: str, rule: str, names_one: Callable[[str, str], bool],
                named: str) -> dict[str, int | str]:
    """One range of ``rule`` as data writes it (``{ min = 1, above = "key" }``, see
    :data:`BOUNDS`): each bound a whole number or the name of a (rule, key) ``names_one``
    takes, ``named`` saying which it takes."""
    if not isinstance(spec, Mapping) or not spec or set(spec) - set(BOUNDS):
        raise DataError(f"{where}: a range is a table of {', '.join(BOUNDS)}, found {spec!r}")
    for bound in spec.values():
        if not _whole(bound) and not (isinstance(bound, str)
                                      and names_one(*_named(rule, bound))):
            raise DataError(f"{where}: {bound!r} is neither a whole number nor the name of "
                            f"{named}")
    return dict(spec)


def _rules_tables(raw: object, table: str, origin: str) -> Mapping[str, Mapping[str, Any]]:
    """``[table."RULE-ID"]``'s rules, each a table of ranges."""
    if not isinstance(raw, Mapping):
        raise DataError(f"{origin}: [{table}] must be tables keyed by rule ID")
    for rule, keys in raw.items():
        if not isinstance(keys, Mapping):
            raise DataError(f"{origin}: [{table}.\"{rule}\"] must be a table of ranges")
    return raw


def read_limits(raw: object, defaults: Mapping[str, Mapping[str, Any]],
                source: Mapping[str, Mapping[str, Any]], origin: str) -> Limits:
    """The ranges a system's data keeps beside its Defaults, ``[limits."RULE-ID"]`` with
    ``key = { min = 1 }`` (see :data:`BOUNDS`), each checked against the data: it must bound
    a whole-number Default, and a bound it names must be a whole number there."""
    bounds: dict[tuple[str, str], Mapping[str, int | str]] = {}
    for rule, keys in _rules_tables(raw, "limits", origin).items():
        for name, spec in keys.items():
            where = f"{origin}: limits {rule}.{name}"
            if not _whole(defaults.get(rule, {}).get(name)):
                raise DataError(f"{where}: no whole-number Default {rule}.{name} to bound")
            bounds[rule, name] = _read_range(
                spec, where, rule,
                lambda other, key: _whole(_look_up(defaults, source, other, key)), "one")
    return Limits(bounds, source)


def read_source_limits(raw: object, source: Mapping[str, Mapping[str, Any]],
                       origin: str) -> Limits:
    """The ranges of a seed's numbers, ``[source_limits."RULE-ID"]`` in the shape of
    ``[limits]``: the range where play makes sense of each number of ``[source."RULE-ID"]``
    (a divisor of 1 or more). Read here, not checked against ``source``: the system checks
    its numbers with them (coc's ``check_source``), in this table's order, so a bound may
    name only a number ranged before it, which is then known to be whole. A key may be a
    path into the rule's sub-tables (``"arm.str_multiplier"``), as the system reads it."""
    bounds: dict[tuple[str, str], Mapping[str, int | str]] = {}
    for rule, keys in _rules_tables(raw, "source_limits", origin).items():
        for name, spec in keys.items():
            bounds[rule, name] = _read_range(
                spec, f"{origin}: source_limits {rule}.{name}", rule,
                lambda other, key: (other, key) in bounds, "a number ranged before it")
    return Limits(bounds, source)


#: A closed set of values per setting, keyed by (rule, key), in the order a player is shown it.
Choices = Mapping[tuple[str, str], tuple[Any, ...]]


def read_choices(choices: Choices, defaults: Mapping[str, Mapping[str, Any]],
                 origin: str) -> dict[tuple[str, str], tuple[Any, ...]]:
    """A system's closed sets (kept in its code) checked against its data: each names a
    Default that is not true or false (a switch needs no list) and holds values of that
    Default's kind; whether the packaged value is one of them is checked with the rest
    (:meth:`Settings.not_chosen`)."""
    for (rule, name), allowed in choices.items():
        where = f"{origin}: choices of {rule}.{name}"
        if name not in defaults.get(rule, {}):
            raise DataError(f"{where}: no Default {rule}.{name}")
        kind = type(defaults[rule][name])
        if kind is bool or not allowed or any(type(a) is not kind for a in allowed):
            raise DataError(f"{where}: must be values of the Default's kind "
                            f"({kind_name(defaults[rule][name])}), found {allowed!r}")
    return dict(choices)


def choice_text(allowed: tuple[Any, ...]) -> str:
    """A closed set in words: ``choice_text(("gm", "wg"))`` is "gm, wg"."""
    return ", ".join(map(str, allowed))


def notes_text(row: Mapping[str, Any]) -> str:
    """What a settings list prints after a Default's value, from the row that
    :meth:`Settings.notes` filled: "  range: from 8 to 20", "  one of: gm, wg", or ""."""
    return ((f"  range: {row['range']}" if "range" in row else "")
            + (f"  one of: {choice_text(tuple(row['choices']))}" if "choices" in row else ""))


class RuleRefused(DataError):
    """A rule read whose value in the player's Defaults file was refused
    (:attr:`Settings.refused`): the message names the file, the key and the bad value."""


@dataclass(frozen=True)
class Settings:
    """Defaults keyed by rule ID, with a record of which values the user set.

    ``settings["EV-DOOR-3", "enabled"]`` gives the value; :meth:`tag` gives " (default)"
    for a value the user has not set, for the label beside it.

    >>> s = Settings({"X-1": {"n": 1}}).with_overrides({"X-1": {"n": 2}})
    >>> s["X-1", "n"], s.tag("X-1", "n"), Settings({"X-1": {"n": 1}}).tag("X-1", "n")
    (2, '', ' (default)')
    """

    values: Mapping[str, Mapping[str, Any]]
    user_set: frozenset[tuple[str, str]] = frozenset()
    wording: Wording = field(default_factory=Wording, compare=False)
    limits: Limits = field(default_factory=Limits, compare=False)
    #: The closed sets (:func:`read_choices`).
    choices: Choices = field(default_factory=dict, compare=False)
    #: What is wrong with the settings a saved fight was begun with and keeps
    #: (``limits=False``): a later override is refused for its own faults, not for these.
    kept: frozenset[str] = field(default=frozenset(), compare=False)
    #: The rules whose values in the player's file were refused, and why (the file, key
    #: and value named): reading one is :class:`RuleRefused`, so only what reads that rule
    #: stops, not every table, action and the dice tray (events74 RISK 2).
    refused: Mapping[str, str] = field(default_factory=dict, compare=False)

    def __getitem__(self, key: tuple[str, str]) -> Any:
        rule, name = key
        if rule in self.refused:
            # Not "the rest goes on": on the command line this ends the run (reviewe74
            # NIT 2); the tray says on its panel what goes on.
            raise RuleRefused(f"{self.refused[rule]}; what reads {rule} waits until it is "
                              "mended")
        return self.values[rule][name]

    def tag(self, rule: str, name: str) -> str:
        """" (default)" for a value the user has not set, for the on-screen label."""
        return "" if (rule, name) in self.user_set else DEFAULT_TAG

    def entries(self) -> list[tuple[str, str, Any, bool]]:
        """Every (rule, key, value, is_default), in data-file order, for a settings list."""
        return [(rule, name, value, (rule, name) not in self.user_set)
                for rule, keys in self.values.items() for name, value in keys.items()]

    def in_range(self, rule: str, name: str) -> bool:
        """Whether a Default is inside its range (:class:`Limits`); one without is."""
        return self.limits.holds(self.values, rule, name)

    def range_of(self, rule: str, name: str) -> str:
        """A Default's range in words ("1 or more"), "" for one without."""
        return self.limits.span(self.values, rule, name)

    def out_of_range(self) -> list[str]:
        """Each Default outside its range: "CO-BASE-8.wake_hp must be 1 or more, found 0"."""
        return self.limits.problems(self.values)

    def choices_of(self, rule: str, name: str) -> tuple[Any, ...]:
        """The values a Default must be one of, ``()`` for one without a closed set."""
        return tuple(self.choices.get((rule, name), ()))

    def not_chosen(self) -> list[str]:
        """Each Default that is none of its choices, as ``GM-MON-7.orc_warrior must be one
        of gm, wg; found "xx"``."""
        return [_not_one_of(rule, name, allowed, self.values[rule][name])
                for (rule, name), allowed in self.choices.items()
                if self.values[rule][name] not in allowed]

    def notes(self, rule: str, name: str) -> dict[str, Any]:
        """What a settings list shows beside a Default, as JSON: its ``"range"`` in words
        and its ``"choices"`` as a list, each left out where it has none (a switch has
        neither)."""
        out: dict[str, Any] = {}
        if span := self.range_of(rule, name):
            out["range"] = span
        if allowed := self.choices_of(rule, name):
            out["choices"] = list(allowed)
        return out

    def user_values(self) -> dict[str, dict[str, Any]]:
        """What the user set, in the shape :meth:`with_overrides` takes."""
        out: dict[str, dict[str, Any]] = {}
        for rule, name in sorted(self.user_set):
            out.setdefault(rule, {})[name] = self.values[rule][name]
        return out

    def with_overrides(self, overrides: Mapping[str, Any], origin: str = "overrides",
                       source: Mapping[str, Mapping[str, Any]] | None = None,
                       limits: bool = True) -> Settings:
        """New settings with ``overrides`` (``{rule: {key: value}}``) applied.

        First the shape of them all and the seed's numbers (a key of ``source`` that is no
        Default is refused), then each must name a kept rule and key and keep its type, then
        every Default must be one of its choices (:attr:`choices`) and inside its range
        (:class:`Limits`), where the override is loaded and not when a fight needs it.
        ``limits=False`` takes values outside them, for a saved fight begun before they
        were checked: it replays with what it was played with, and they are :attr:`kept`
        (a later override is not refused for them).
        """
        words = self.wording
        if not isinstance(overrides, Mapping):
            raise DataError(f"{origin}: the Defaults must be tables keyed by rule ID")
        for rule, keys in overrides.items():
            if not isinstance(keys, Mapping):
                raise DataError(f"{origin}: [{rule}] must be a table of settings")
            if not keys and rule not in self.values:
                # Checked by its keys below, a misspelt rule ID whose keys were yet to come
                # passed, and was dropped unsaid at the next write of the file holding it.
                # A kept rule's empty table holds no value and changes nothing.
                raise DataError(f"{origin}: no Default is kept for rule {rule!r}"
                                + did_you_mean(rule, self.values))
            for name in keys:
                seed = (source or {}).get(rule, {})
                if name in seed and name not in self.values.get(rule, {}):
                    raise DataError(f"{origin}: " + words.seed.format(
                        rule=rule, name=name, value=seed[name]))
        values = {rule: dict(keys) for rule, keys in self.values.items()}
        user_set = set(self.user_set)
        for rule, keys in overrides.items():
            for name, value in keys.items():
                if rule not in values:
                    raise DataError(f"{origin}: " + words.no_rule.format(rule=rule, name=name)
                                    + did_you_mean(rule, values))
                if name not in values[rule]:
                    raise DataError(f"{origin}: " + words.no_name.format(
                        rule=rule, name=name, known=", ".join(sorted(values[rule]))))
                old = values[rule][name]
                if type(value) is not type(old):
                    if allowed := self.choices_of(rule, name):
                        raise DataError(f"{origin}: "
                                        + _not_one_of(rule, name, allowed, value))
                    raise DataError(f"{origin}: {rule}.{name} must be {kind_name(old)}, "
                                    f"found {toml_value(value)}")
                values[rule][name] = value
                user_set.add((rule, name))
        settings = Settings(values, frozenset(user_set), words, self.limits, self.choices)
        problems = settings.not_chosen() + settings.out_of_range()
        if limits:
            set_now = [(rule, name) for rule, keys in overrides.items() for name in keys]
            for problem in settings.not_chosen():
                if problem not in self.kept:
                    raise DataError(f"{origin}: {problem}")
            for rule, name in self.limits.bounds:
                if not settings.in_range(rule, name) \
                        and self.limits.problem(values, rule, name) not in self.kept:
                    raise DataError(f"{origin}: "
                                    + self.limits.problem(values, rule, name, set_now))
        return replace(settings, kept=frozenset(problems))


def listing(entries: Iterable[tuple[str, str, Any, bool]],
            settings: Settings) -> list[dict[str, Any]]:
    """The rows of a settings list (`defaults`): each entry's rule, key, value and whether it
    is the packaged Default, with its notes (:meth:`Settings.notes`)."""
    return [{"rule": rule, "key": key, "value": value, "default": default,
             **settings.notes(rule, key)} for rule, key, value, default in entries]


def _not_one_of(rule: str, name: str, allowed: tuple[Any, ...], value: Any) -> str:
    return f"{rule}.{name} must be one of {choice_text(allowed)}; found {toml_value(value)}"


def packaged_text(package: str, name: str) -> str:
    """A system's packaged data file ``data/<name>`` of ``package`` as text, read as the app
    reads a player's file (:func:`~companion.errors.utf8_text`): a UTF-8 byte-order mark
    before it dropped (an edit in Windows Notepad), and a bad byte or a file that is gone a
    DataError naming it and where, not a UnicodeDecodeError or FileNotFoundError traceback
    (reviewj68 NIT 3: the systems' readers did this each their own way, or not at all)."""
    label = f"{package.replace('.', '/')}/data/{name}"
    try:
        data = files(package).joinpath("data", name).read_bytes()
    except OSError as exc:
        raise DataError(f"{label}: cannot read: {exc.strerror or exc}") from exc
    return utf8_text(data, "rules data file", label)


def fixed_readings(package: str, settings: Settings) -> dict[str, str]:
    """The spec's Defaults a system plays as fixed readings, not settings: ``rule → one line``
    from its ``data/readings.toml`` (``[readings]``), so a settings list shows them as the
    companion's choices (spec §0.1 labels every Default). A rule there that also keeps a
    setting in ``settings`` is refused: it is one or the other."""
    origin = f"{package}: data/readings.toml"
    try:
        data = tomllib.loads(packaged_text(package, "readings.toml"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{origin}: not TOML ({exc})") from exc
    readings = data.get("readings")
    if set(data) != {"readings"} or not isinstance(readings, Mapping):
        raise DataError(f"{origin}: holds one table, [readings], of rule = \"one line\"")
    for rule, line in readings.items():
        if not isinstance(line, str) or not line.strip() or "\n" in line:
            raise DataError(f"{origin}: {rule} must be one line of text, "
                            f"found {toml_value(line)}")
        if rule in settings.values:
            raise DataError(f"{origin}: {rule} keeps a setting ([defaults]), so it is no "
                            "fixed reading")
    return dict(readings)


def readings_text(readings: Mapping[str, str], width: int) -> str:
    """A settings list's closing part: each fixed reading, its rule ID padded to ``width``."""
    return ("\nFixed readings (the companion's choice where the seed is unclear; no setting "
            "changes them):\n" + "\n".join(f"{rule:<{width}} {line}"
                                          for rule, line in readings.items()))


def check_apart(source: Mapping[str, Mapping[str, Any]],
                defaults: Mapping[str, Mapping[str, Any]], origin: str) -> None:
    """Refuse data that keeps a key both as a seed's number and as a Default."""
    for rule, keys in defaults.items():
        both = set(keys) & set(source.get(rule, {}))
        if both:
            raise DataError(f"{origin}: {rule} keeps {sorted(both)} both as a seed number "
                            "and as a Default")
