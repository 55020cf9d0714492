"""Defaults keyed by rule ID, shared by the game systems (events, genso, coc).

Where a seed is silent the spec proposes a Default; each system keeps its Defaults as data
(``[defaults."RULE-ID"]``) beside the numbers its seed states (``[source."RULE-ID"]``).
:class:`Settings` holds the Defaults and which of them the user set: a value the user has
not set is labelled ``" (default)"`` (:data:`DEFAULT_TAG`) wherever it is shown, and
:meth:`Settings.with_overrides` takes the user's overrides, each checked by rule, key and
type, and refuses one of a number the seed states. Each system words its refusals its own
way (:class:`Wording`) and checks its values further itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import DataError

DEFAULT_TAG = " (default)"


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


@dataclass(frozen=True)
class Wording:
    """How a system words a refused override; ``{rule}``, ``{name}``, ``{value}`` (the
    seed's number) and ``{known}`` (the rule's settings) are filled in."""

    seed: str = "{rule}.{name} is the seed's rule ({value!r}), not a Default"
    no_rule: str = "no Default is kept for rule {rule!r}"
    no_name: str = "{rule} has no setting {name!r} (has {known})"


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

    def __getitem__(self, key: tuple[str, str]) -> Any:
        rule, name = key
        return self.values[rule][name]

    def tag(self, rule: str, name: str) -> str:
        """" (default)" for a value the user has not set, for the on-screen label."""
        return "" if (rule, name) in self.user_set else DEFAULT_TAG

    def entries(self) -> list[tuple[str, str, Any, bool]]:
        """Every (rule, key, value, is_default), in data-file order, for a settings list."""
        return [(rule, name, value, (rule, name) not in self.user_set)
                for rule, keys in self.values.items() for name, value in keys.items()]

    def user_values(self) -> dict[str, dict[str, Any]]:
        """What the user set, in the shape :meth:`with_overrides` takes."""
        out: dict[str, dict[str, Any]] = {}
        for rule, name in sorted(self.user_set):
            out.setdefault(rule, {})[name] = self.values[rule][name]
        return out

    def with_overrides(self, overrides: Mapping[str, Any], origin: str = "overrides",
                       source: Mapping[str, Mapping[str, Any]] | None = None) -> Settings:
        """New settings with ``overrides`` (``{rule: {key: value}}``) applied.

        First the shape of them all and the seed's numbers (a key of ``source`` that is no
        Default is refused), then each must name a kept rule and key and keep its type.
        """
        words = self.wording
        if not isinstance(overrides, Mapping):
            raise DataError(f"{origin}: the Defaults must be tables keyed by rule ID")
        for rule, keys in overrides.items():
            if not isinstance(keys, Mapping):
                raise DataError(f"{origin}: [{rule}] must be a table of settings")
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
                    raise DataError(f"{origin}: " + words.no_rule.format(rule=rule, name=name))
                if name not in values[rule]:
                    raise DataError(f"{origin}: " + words.no_name.format(
                        rule=rule, name=name, known=", ".join(sorted(values[rule]))))
                old = values[rule][name]
                if type(value) is not type(old):
                    raise DataError(f"{origin}: {rule}.{name} must be {kind_name(old)}, "
                                    f"found {value!r}")
                values[rule][name] = value
                user_set.add((rule, name))
        return Settings(values, frozenset(user_set), words)


def check_apart(source: Mapping[str, Mapping[str, Any]],
                defaults: Mapping[str, Mapping[str, Any]], origin: str) -> None:
    """Refuse data that keeps a key both as a seed's number and as a Default."""
    for rule, keys in defaults.items():
        both = set(keys) & set(source.get(rule, {}))
        if both:
            raise DataError(f"{origin}: {rule} keeps {sorted(both)} both as a seed number "
                            "and as a Default")
