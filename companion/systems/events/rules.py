"""System `events`: the editable rules data of seed 001's event tables (spec §1).

Tables, checks, the other numbers the seed states and every Default live in
``data/events.toml``, keyed by rule ID. The seed's numbers (``[source]``) are the
book's rules: an override of one is refused. The user may override Defaults, and
output labels each value that is still the packaged Default "(default)"; the mechanism is
the systems' shared one (:mod:`companion.systems.defaults`), and so are the ranges of the
whole-number Defaults (``[limits]`` in the data: EV-CORE-1's DM level and fixed rolls,
EV-CORE-3, EV-DOOR-4, EV-TRAP-3, EV-POI-2), refused where an override is set.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from companion.dice.notation import (
    BinaryOp,
    Comparison,
    Dice,
    DiceCommand,
    Group,
    Negate,
    Node,
    Rounding,
    has_dice,
    parse,
)
from companion.dice.tables import DiceTable, load_table
from companion.errors import CompanionError, DataError, InvalidNotation
from companion.systems.defaults import (
    KIND_NAMES,
    Settings,
    Wording,
    packaged_text,
    read_choices,
    read_limits,
    toml_value,
)
from companion.systems.events.sword_world import (
    ABILITY_NAMES,
    CheckSpec,
)

DATA_FILE = "events.toml"
# The seed writes numbers in Japanese text full-width: 判定－１.
FULL_WIDTH_DIGITS = str.maketrans("0123456789", "０１２３４５６７８９")
#: How `events` words a refused override (seed 001 is "the book").
WORDING = Wording(seed="{rule}.{name} is the book's rule (seed 001: {value!r}), not a Default")

#: ``companion events TABLE``: the names a user picks an event by (§1: picked by hand).
EVENT_TABLES: dict[str, str] = {
    "door": "EV-DOOR-1",
    "chest": "EV-DOOR-1",
    "trap": "EV-TRAP-1",
    "monster": "EV-MON-1",
    "explore": "EV-EXP-1",
    "recovery": "EV-REC-1",
    "poison": "EV-POI-4",
}
#: The rule chapters (or single rules) each table and action can come to, by the walk's
#: follow-ups: a door's trap can poison and its alarm call monsters, a recovery spot cures
#: poisons. A table any of whose chapters holds a rule the player's events.toml set wrong
#: (:attr:`~companion.systems.defaults.Settings.refused`) is refused before its first die
#: (:func:`refused_reach`): it stopped part-way, at the first read of that rule, after the
#: player's throws were taken (reviewe74 DEFECT 2). A test walks every table reading
#: through a recording Settings, so a new follow-up cannot leave this list behind.
REACHES: dict[str, tuple[str, ...]] = {
    "door": ("§1", "EV-CORE", "EV-DOOR", "EV-TRAP", "EV-POI", "EV-MON"),
    "chest": ("§1", "EV-CORE", "EV-DOOR", "EV-TRAP", "EV-POI", "EV-MON"),
    # trap --who NAME: the disarmer named is checked against EV-DOOR-2's thief_only, the
    # one door rule it reads (reviewe74b RISK 1): a rule ID, not its whole chapter
    "trap": ("§1", "EV-CORE", "EV-DOOR-2", "EV-TRAP", "EV-POI", "EV-MON"),
    "monster": ("§1", "EV-CORE", "EV-MON"),
    "explore": ("§1", "EV-CORE", "EV-EXP", "EV-MON"),
    "recovery": ("§1", "EV-CORE", "EV-REC", "EV-POI"),
    "poison": ("§1", "EV-CORE", "EV-POI"),
    "act": ("§1", "EV-CORE", "EV-POI"),
    # The poison actions that read no die: a tick (end-block, rest, the tray's Tick) reads
    # EV-POI-2's hours and EV-POI-10's healing; a cure EV-POI-10 and 11. Refused before the
    # poison list or the HP is written, not after (reviewe74b DEFECT 1 and 2).
    # Rule IDs, not the chapter, so a slip in another poison rule (EV-POI-5's act penalty)
    # does not stop cures and time passing (finala74 NIT 1).
    "tick": ("EV-POI-2", "EV-POI-10"),
    "cure": ("EV-POI-10", "EV-POI-11"),
}


def chapter(rule: str) -> str:
    """A rule ID's chapter: ``EV-DOOR`` for ``EV-DOOR-3``; ``§1`` is its own.

    >>> chapter("EV-DOOR-3"), chapter("§1")
    ('EV-DOOR', '§1')
    """
    head, _, number = rule.rpartition("-")
    return head if head and number.isdigit() else rule


def refused_reach(settings: Settings, table: str) -> tuple[str, str] | None:
    """The first rule ``table`` can come to (:data:`REACHES`) whose value the player's
    file set wrong, and why (the file, key and value named); None when none is."""
    reach = REACHES[table]
    for rule, why in settings.refused.items():
        if chapter(rule) in reach or rule in reach:
            return rule, why
    return None


#: Each table's Japanese name, as seed 001 heads it, for the help beside its key.
TABLE_NAMES_JA: dict[str, str] = {
    "door": "扉", "chest": "宝箱", "trap": "罠", "monster": "モンスター", "explore": "探索",
    "recovery": "回復", "poison": "毒",
}

_REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    "door": ("ja", "en", "trap", "lock"),
    "trap": ("kind", "ja", "en", "target", "target_ja", "counter", "counter_ja",
             "outcome_ja", "outcome_en", "follow"),
    "monster": ("ja", "level", "count"),
    "explore": ("ja", "en", "follow"),
    "poison": ("ja", "en", "name_ja", "name_en", "type_ja", "type_en", "follow"),
}


class Mode(Enum):
    """§1 Default (mode): ``generic`` reports; ``sw`` also rolls the Sword World checks."""

    GENERIC = "generic"
    SW = "sw"


class NoParty(CompanionError, ValueError):
    """``sw`` mode needs party members to roll checks for."""


# --- rules data ------------------------------------------------------------------

#: Settings whose value must be one of a closed set: the branches the engine plays, most of
#: them its enums, so they stay beside it in code. Checked wherever a Default is set, and
#: shown by `events defaults` (:mod:`companion.systems.defaults`).
CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("§1", "mode"): tuple(m.value for m in Mode),
    # A Sword World check is rolled high against its target (the best bonus is picked,
    # ６ゾロ succeeds): the seed leaves open only whether meeting it is enough (events62 R2).
    ("EV-CORE-2", "comparison"): (Comparison.GE.value, Comparison.GT.value),
    ("EV-CORE-2", "knowledge_ability"): tuple(ABILITY_NAMES),
    ("EV-CORE-4", "rounding"): tuple(r.name.lower() for r in Rounding),
    ("EV-TRAP-2", "individual"): ("disarmer", "random"),
}
#: Settings that are dice notation.
DICE_SETTINGS = (("EV-POI-9", "ability_die"), ("EV-POI-9", "sign_die"))

#: The numbers the seed states besides its tables (``[source]`` in the data), with
#: their types. They are the book's rules, so the user cannot override them.
SOURCE_KEYS: dict[tuple[str, str], type] = {
    ("EV-TRAP-3", "rating_drop"): int,
    ("EV-TRAP-7", "damage_per_metre"): int,
    ("EV-REC-1", "rating_per_dm_level"): int,
    ("EV-REC-2", "rating"): int,
    ("EV-REC-2", "bonus_minimum"): int,
    ("EV-POI-1", "duration"): str,
    ("EV-POI-5", "penalty"): int,
    ("EV-POI-8", "maximum"): str,
    ("EV-POI-9", "abilities"): list,
    ("EV-POI-9", "change"): int,
    ("EV-POI-9", "minimum"): int,
}
SOURCE_DICE = (("EV-POI-1", "duration"), ("EV-POI-8", "maximum"))


def _dice_text(text: Any, where: str) -> None:
    try:
        parse(str(text))
    except InvalidNotation as exc:
        raise DataError(f"{where} is not dice notation: {exc}") from exc


def _check_source(source: Mapping[str, Mapping[str, Any]], origin: str) -> None:
    for (rule, name), kind in SOURCE_KEYS.items():
        value = source.get(rule, {}).get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise DataError(f"{origin}: [source.\"{rule}\"] needs {name} as "
                            f"{KIND_NAMES.get(kind, kind.__name__)}, found {toml_value(value)}")
    for rule, name in SOURCE_DICE:
        _dice_text(source[rule][name], f"{origin}: source {rule}.{name}")
    if set(source["EV-POI-9"]["abilities"]) - set(ABILITY_NAMES):
        raise DataError(f"{origin}: source EV-POI-9.abilities must name abilities from "
                        f"{', '.join(ABILITY_NAMES)}")


def _a_sum(node: Node) -> bool:
    """Whether ``node`` only adds and takes away (dice, numbers, brackets, a sign): a
    product or quotient of a roll (``1D6*2``, ``1/2D6``) is even, or 0, whatever the
    faces, so EV-POI-9's sign read from it would never change (reviewe68 NIT 5)."""
    match node:
        case Negate(operand) | Group(operand):
            return _a_sum(operand)
        case BinaryOp(op, left, right):
            return op in "+-" and _a_sum(left) and _a_sum(right)
    return True


def _check_values(
    values: Mapping[str, Mapping[str, Any]], source: Mapping[str, Mapping[str, Any]], origin: str
) -> None:
    def get(rule: str, name: str) -> Any:
        return values.get(rule, {}).get(name)

    for rule, name in DICE_SETTINGS:
        _dice_text(get(rule, name), f"{origin}: {rule}.{name}")
    # EV-POI-9: the seed names the four abilities; the Default only orders them on a die.
    named = source["EV-POI-9"]["abilities"]
    abilities = get("EV-POI-9", "abilities") or []
    if (not isinstance(abilities, list) or not all(isinstance(a, str) for a in abilities)
            or set(abilities) != set(named)):
        raise DataError(f"{origin}: EV-POI-9.abilities must name abilities from "
                        f"{', '.join(named)} (器用度・敏捷度・知力・筋力), each at least once")
    command = parse(get("EV-POI-9", "ability_die"))
    die = command.expr if isinstance(command, DiceCommand) else None
    if not isinstance(die, Dice) or die.count != 1 or die.sides != len(abilities):
        raise DataError(f"{origin}: EV-POI-9.ability_die must be one die with a face per "
                        f"ability, 1D{len(abilities)}; "
                        f"found {toml_value(get('EV-POI-9', 'ability_die'))}")
    # EV-POI-9: the sign is read from a sum, odd −, even +; a choice's, pool's or repeat's
    # number is an index or a count, and would apply a sign other than the one shown.
    sign = parse(get("EV-POI-9", "sign_die"))
    if (not isinstance(sign, DiceCommand) or sign.comparison is not None
            or not has_dice(sign.expr) or not _a_sum(sign.expr)):
        raise DataError(f"{origin}: EV-POI-9.sign_die must be a dice sum read odd −, even + "
                        "(奇数 −・偶数 +, e.g. 1D6); "
                        f"found {toml_value(get('EV-POI-9', 'sign_die'))}")


@dataclass(frozen=True)
class EventRules:
    """The tables, check definitions, the seed's other numbers and the Defaults of `events`.

    ``source["EV-TRAP-3"]["rating_drop"]`` is a number the seed states; ``settings``
    holds the Defaults the user may change.
    """

    title: str
    tables: Mapping[str, DiceTable]
    checks: Mapping[str, CheckSpec]
    source: Mapping[str, Mapping[str, Any]]
    settings: Settings

    def with_overrides(
        self, overrides: Mapping[str, Mapping[str, Any]], origin: str = "overrides"
    ) -> EventRules:
        """New rules with ``overrides`` of Defaults; the seed's own numbers are refused, and
        so is a value none of its :data:`CHOICES` or a whole number outside its range
        (``[limits]``: EV-CORE-1 DM level 1 or more)."""
        settings = self.settings.with_overrides(overrides, origin, self.source)
        _check_values(settings.values, self.source, origin)
        return replace(self, settings=settings)

    def with_refused(self, refused: Mapping[str, str]) -> EventRules:
        """These rules with ``refused`` (rule → why its value in the player's file was
        refused) kept out: reading one is a :class:`~companion.systems.defaults.RuleRefused`
        naming the file, key and value, so only the tables and actions that read it stop
        (events74 RISK 2). Apply it last: a later override makes new settings."""
        return replace(self, settings=replace(self.settings, refused=dict(refused)))


def load_rules(text: str | None = None, origin: str = DATA_FILE) -> EventRules:
    """Load and shape-check the rules data (the packaged file unless ``text`` is given)."""
    if text is None:  # a BOM dropped, a bad byte a DataError naming it (reviewj68)
        text = packaged_text("companion.systems.events", DATA_FILE)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{origin}: not TOML ({exc})") from exc
    for section in ("tables", "checks", "source", "defaults", "limits"):
        if section not in data:
            raise DataError(f"{origin}: missing [{section}]")
    tables = {}
    for key, required in _REQUIRED_FIELDS.items():
        if key not in data["tables"]:
            raise DataError(f"{origin}: missing [tables.{key}]")
        tables[key] = load_table(key, data["tables"][key], required, origin)
    checks = {}
    for key, raw in data["checks"].items():
        try:
            checks[key] = CheckSpec(
                key, raw["ja"], raw["en"], raw["class"], raw["ability"], raw["fixed"]
            )
        except KeyError as exc:
            raise DataError(f"{origin}: [checks.{key}] lacks {exc.args[0]!r}") from exc
        if checks[key].fixed not in data["defaults"]["EV-CORE-1"]:
            raise DataError(f"{origin}: [checks.{key}] uses unknown fixed roll {raw['fixed']!r}")
    _check_source(data["source"], origin)
    system = data.get("system", {})
    if not {"name_ja", "name_en"} <= set(system):
        raise DataError(f"{origin}: [system] needs name_ja and name_en")
    title = f"{system['name_ja']}/{system['name_en']}"
    limits = read_limits(data["limits"], data["defaults"], data["source"], origin)
    choices = read_choices(CHOICES, data["defaults"], origin)
    packaged = EventRules(title, tables, checks, data["source"],
                          Settings(data["defaults"], wording=WORDING, limits=limits,
                                   choices=choices))
    # with no override, this checks the packaged Defaults: their choices, their ranges and
    # the values _check_values knows (dice, EV-POI-9's abilities)
    return packaged.with_overrides({}, origin)
