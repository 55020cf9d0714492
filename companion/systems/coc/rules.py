"""The editable rules data of system `coc` (spec §3): profiles, seed numbers, Defaults.

``data/profiles.toml`` is the profile table of §3.22 (CO-CORE-2), ``data/rules.toml``
the seeds' numbers (``[source]``, never overridable) and every Default
(``[defaults]``, labelled "(default)" until the user sets it), ``data/skills.toml`` and
``data/weapons.toml`` the sheet's building blocks (CO-BASE-1). The Defaults are the
systems' shared mechanism (:mod:`companion.systems.defaults`); the profile cells the user
may set besides them are kept here.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from itertools import pairwise
from typing import Any

from companion.dice.notation import Rounding, parse
from companion.errors import DataError, InvalidNotation, did_you_mean
from companion.systems.coc.board import FACINGS
from companion.systems.coc.rounding import GLOBAL_RULE, SETTING, SETTING_NOTE
from companion.systems.defaults import (
    DEFAULT_TAG,
    Limits,
    Settings,
    Wording,
    check_apart,
    packaged_text,
    read_choices,
    read_limits,
    read_source_limits,
)

DATA_FILES = ("profiles.toml", "rules.toml", "skills.toml", "weapons.toml")
CHARACTERISTICS = ("STR", "CON", "POW", "DEX", "APP", "SIZ", "INT", "EDU")
CELLS = ("p003", "p004")
#: The rules that are a profile's frame: the engine plays them by the profile, never by their
#: cell (003's rounds of 3 AP and its 3-AP reload, 004's one action a turn and its reload), so
#: a cell set otherwise would be saved and shown as a setting but not played (a78cocfight
#: RISK 3); :meth:`CocRules.with_overrides` refuses it. The dying rules are refused together
#: when neither would run (:data:`DYING_RULES`, :func:`check_dying`).
FRAME = ("CO-TURN-1", "CO-TURN-3", "CO-FIRE-1", "CO-BASE-5", "CO-BASE-12", "CO-FIRE-10")
#: CO-DEATH-1 (003) and CO-BASE-8 (004): one of them must run, or one at HP 0 or below fights
#: on, neither unconscious nor dying.
DYING_RULES = ("CO-DEATH-1", "CO-BASE-8")
#: Defaults whose value must be one of a closed set: the branches the engine plays, so they
#: stay beside it in code. Checked wherever a Default is set (a saved fight replays with what
#: it was played with), and shown by `coc defaults` (:mod:`companion.systems.defaults`).
CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    # CO-MA-2 on 003's board: the thrower's facing, or a compass point (CO-TURN-2).
    ("CO-MA-2", "throw_toward"): ("facing", *FACINGS),
    # CO-BURN-1: what a scarring burn costs when the player does not say.
    ("CO-BURN-1", "choice"): ("APP", "CON"),
    # CO-TURN-1: a DEX/2 turn that ties a turn's DEX comes after it or before it.
    ("CO-TURN-1", "half_dex_ties"): ("after", "before"),
    # CO-PARRY-3: the half of an MA-boosted blow that gets through a parry.
    ("CO-PARRY-3", "half_rounds"): ("down", "up"),
    # CO-GRAP-8: whom a throw may be at (reading a) or also of (reading b).
    ("CO-GRAP-8", "reading"): ("a", "b"),
    # CO-RANGE-1: a part of a 10-SIZ step above 30 counts for nothing, or as a whole step.
    ("CO-RANGE-1", "steps_round"): ("down", "up"),
    # §0.3: how a share is rounded where its rule has no rounding of its own.
    (GLOBAL_RULE, "rounding"): tuple(SETTING),
    # CO-MA-4: the follow-up's damage, the doubled again (倍化) or ×1 (等倍).
    ("CO-MA-4", "damage"): ("doubled", "normal"),
}
#: Defaults read only while another setting has a value, and the words `coc defaults` puts
#: beside them (review60c R3): one set alone is accepted and does nothing.
USED_ONLY_WHEN: dict[tuple[str, str], str] = {
    # CO-GRAP-2: the cost of the BreakFree action, which exists only with each_turn = false.
    ("CO-GRAP-2", "ap"): "used only when CO-GRAP-2.each_turn is false",
}
#: What `coc defaults` says beside a :data:`FRAME` rule's profile cell, listed with the
#: settings but no setting (r78coc: it read as switchable as any other).
FRAME_NOTE = ("the profile's frame, not a setting: played by its profile whatever this cell "
              "says; it cannot be switched")
#: The words `coc defaults` puts beside a setting (its "note"): when it is read
#: (:data:`USED_ONLY_WHEN`), or what its choices say in Japanese and where it holds (§0.3),
#: or that a profile cell is no setting (:data:`FRAME_NOTE`).
ROW_NOTES: dict[tuple[str, str], str] = {
    **USED_ONLY_WHEN, (GLOBAL_RULE, "rounding"): SETTING_NOTE,
    **{(rule, cell): FRAME_NOTE for rule in FRAME for cell in CELLS},
    ("CO-BASE-1", "recompute"): "false: 最大耐久力 max HP and DB ダメージボーナス stay as "
                                "the fight began when STR, CON or SIZ changes by CO-BODY-5 "
                                "or CO-BURN-1",
    ("CO-BASE-2", "db_twice"): "true: an impale 貫通 adds DB to each of its two rolls"
                               "; read where CO-BASE-2 is played, profile 003 by Default",
    ("CO-MA-3", "doubled"): "true: the forced hit 必中 is doubled 倍化 as a full MA success",
    # reviewcoc74b NIT 4: 003 lists CO-RANGE-3 off, yet reads this key
    ("CO-RANGE-3", "reach_m"): "arm's reach 手が届く範囲 for touch タッチ and a blow; 003 "
                               "reads it too, off the board, for adjacent 隣接 (CO-FIRE-5) "
                               "and a blow (CO-MELEE-1), though its CO-RANGE-3 is off",
    ("CO-MA-4", "damage"): "doubled 倍化, as the seed's 2d3+DB+2d3+DB; normal 等倍, ×1",
    ("CO-MA-4", "own_roll"): "true: the follow-up 追撃 rolls the combination roll again, "
                             "landing on 成功 only",
    ("CO-DODGE-5", "dodge_needs_fatal_blow"):
        "true: only a blow the Keeper rules certainly fatal 命を確実に刈り取る一撃, "
        "fatal_blow=true on the attack; read in profile 004",
    ("CO-DODGE-5", "attack_needs_keeper"):
        "true: the Keeper's OK on each attack after dodging 回避後の攻撃, after_dodge=true"
        "; read in profile 004",
}
#: How `coc` words a refused override.
WORDING = Wording(
    seed="{rule}.{name} is the seed's rule ({value!r}), not a Default: it cannot be overridden",
    no_rule="{rule} has no setting {name!r} (no Defaults)",
    no_name="{rule} has no setting {name!r} ({known})")


class Profile(Enum):
    """Which seed's table runs (CO-CORE-2): 003 (board, action points) or 004 (DEX order)."""

    P003 = "003"
    P004 = "004"


class Status(Enum):
    """A cell of the profile table (§3.22). OPTIONAL_ON is an optional rule switched on."""

    ON = "on"
    OFF = "off"
    OPTIONAL = "optional"
    OPTIONAL_ON = "optional_on"

    @property
    def runs(self) -> bool:
        return self in (Status.ON, Status.OPTIONAL_ON)


class WeaponKind(Enum):
    """How a weapon attacks: CO-MELEE, CO-FIRE, CO-THROW; unarmed techniques (CO-MA-1)."""

    MELEE = "melee"
    FIREARM = "firearm"
    THROWN = "thrown"
    UNARMED = "unarmed"


class DamageBonus(Enum):
    """How DB is added: all of it, half (½DB, CO-BASE-4), or not at all (firearms)."""

    FULL = "full"
    HALF = "half"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class SkillInfo:
    """A skill's names and its base: a number or a characteristic times a number."""

    key: str
    ja: str
    en: str
    base: int
    base_of: str = ""  # e.g. "DEX": the base is DEX × base

    @property
    def name(self) -> str:
        return f"{self.ja}/{self.en}"


@dataclass(frozen=True, slots=True)
class WeaponInfo:
    """A weapon of CO-BASE-1: skill, damage, attacks per round, durability, magazine, flags."""

    key: str
    ja: str
    en: str
    kind: WeaponKind
    skill: str
    damage: str
    db: DamageBonus
    attacks: int
    durability: int | None = None
    magazine: int = 0
    burst: int = 0
    range_m: int = 0
    impaling: bool = False
    stun: bool = False
    improvised: bool = False
    two_handed: bool = False
    long_gun: bool = False
    slashing: bool = False
    technique: bool = False
    jams: bool = True
    iai: bool = False       # CO-IAI-1: Japanese sword, bokuto
    blunt: bool = False     # CO-BASE-10: may knock out
    heavy: bool = False     # CO-BODY-4: destructive, may blow a part off
    laser: bool = False     # CO-AIM-2: laser sight, skill ×2
    cartridges: bool = False  # CO-BASE-12 option: loaded a cartridge at a time (revolver)
    scope: int = 0          # CO-AIM-3: the scope's magnification (0: none)
    bands: str = ""         # CO-FIRE-9: printed bands, or the name of a CO-FIRE-9 Default

    @property
    def name(self) -> str:
        return f"{self.ja}/{self.en}"


@dataclass(frozen=True, slots=True)
class Band:
    """One printed range band of a weapon (CO-FIRE-9, CO-RANGE-2): its damage up to a distance."""

    up_to_m: int
    damage: str


_BANDS = re.compile(r"^\s*(\S+(?:\s*/\s*\S+)*)\s*@\s*(\d+(?:\s*/\s*\d+)*)\s*(?:m)?\s*$")


def parse_bands(text: object, where: str) -> tuple[Band, ...]:
    """CO-FIRE-9: a weapon's printed distances and damage falloff, written as the rulebook
    prints a shotgun, damages then distances in metres: ``"4D6/2D6/1D6 @ 10/20/50"`` (4D6 up
    to 10 m, 2D6 up to 20 m, 1D6 up to 50 m). Distances rise; each damage is dice notation.

    >>> parse_bands("4D6/2D6/1D6 @ 10/20/50", "x")
    (Band(up_to_m=10, damage='4D6'), Band(up_to_m=20, damage='2D6'), Band(up_to_m=50, damage='1D6'))
    """
    found = _BANDS.match(text) if isinstance(text, str) else None
    if found is None:
        raise DataError(f"{where}: range bands are written like \"4D6/2D6/1D6 @ 10/20/50\" "
                        f"(damage / ... @ metres / ...), found {text!r}")
    damages = [d.strip() for d in found[1].split("/")]
    metres = [int(m) for m in found[2].split("/")]
    if len(damages) != len(metres):
        raise DataError(f"{where}: {len(damages)} damages but {len(metres)} distances in "
                        f"{text!r}")
    if metres[0] < 1 or any(b <= a for a, b in pairwise(metres)):
        raise DataError(f"{where}: the distances must rise from 1 m, found {text!r}")
    return tuple(Band(m, check_dice(d, f"{where} band {m} m"))
                 for d, m in zip(damages, metres, strict=True))


def show_bands(bands: tuple[Band, ...]) -> str:
    """The bands as :func:`parse_bands` reads them, with the unit: ``4D6/2D6/1D6 @ 10/20/50 m``."""
    return (f"{'/'.join(b.damage for b in bands)} @ "
            f"{'/'.join(str(b.up_to_m) for b in bands)} m")


@dataclass(frozen=True, slots=True)
class DbTable:
    """CO-BASE-1's damage-bonus table (``[source."CO-BASE-1"]``): ``rows`` of (the highest
    STR + SIZ, its bonus), rising; above the last row each ``step_above`` more, or part of
    it, adds 1D6 to the last row's ``+ND6``."""

    rows: tuple[tuple[int, str], ...]
    step_above: int

    def bonus(self, str_siz: int) -> str:
        """CO-BASE-1: the damage bonus of ``str_siz`` ("0", "+1D4", "-1D6", ...)."""
        for top, bonus in self.rows:
            if str_siz <= top:
                return bonus
        top, last = self.rows[-1]
        return f"+{int(last[1:-2]) + -(-(str_siz - top) // self.step_above)}D6"


_LAST_DB = re.compile(r"^\+\d+D6$")


def read_db_table(raw: Mapping[str, Any], where: str) -> DbTable:
    """Check the shape of CO-BASE-1's ``db_table`` and ``db_step_above``; a bad one is a
    DataError naming the key."""
    rows, step = raw.get("db_table"), raw.get("db_step_above")
    key = f"{where}: CO-BASE-1.db_table"
    if not isinstance(rows, list) or not rows:
        raise DataError(f"{key} must be a list of [highest STR+SIZ, bonus] rows, found "
                        f"{rows!r}")
    table: list[tuple[int, str]] = []
    for row in rows:
        if (not isinstance(row, list) or len(row) != 2 or not isinstance(row[0], int)
                or isinstance(row[0], bool) or not isinstance(row[1], str)):
            raise DataError(f"{key}: each row is [highest STR+SIZ, bonus] like [16, \"-1D4\"], "
                            f"found {row!r}")
        if table and row[0] <= table[-1][0]:
            raise DataError(f"{key}: the STR+SIZ values must rise, found {row[0]} after "
                            f"{table[-1][0]}")
        if row[1] != "0" and not re.match(r"^[+-]\d+D\d+$", row[1]):
            raise DataError(f"{key}: a bonus is like \"+1D4\", \"-1D6\" or \"0\", found "
                            f"{row[1]!r}")
        table.append((row[0], row[1]))
    if not _LAST_DB.match(table[-1][1]):
        raise DataError(f"{key}: the last row's bonus is +ND6, which each step above it "
                        f"raises by 1D6, found {table[-1][1]!r}")
    if not isinstance(step, int) or isinstance(step, bool) or step < 1:
        raise DataError(f"{where}: CO-BASE-1.db_step_above must be a whole number 1 or more, "
                        f"found {step!r}")
    return DbTable(tuple(table), step)


@dataclass(frozen=True)
class CocRules:
    """Everything the `coc` engine reads; ``profile`` picks the column of §3.22 that runs."""

    title: str
    profile: Profile
    table: Mapping[str, Mapping[str, Any]]
    source: Mapping[str, Mapping[str, Any]]
    defaults: Settings
    skills: Mapping[str, SkillInfo]
    weapons: Mapping[str, WeaponInfo]
    db_table: DbTable  # CO-BASE-1
    cells_set: frozenset[tuple[str, str]] = frozenset()  # the profile cells the user set

    def status(self, rule: str) -> Status:
        """CO-CORE-2: this rule's cell in the running profile."""
        if rule not in self.table:
            raise DataError(f"no rule {rule!r} in the profile table (§3.22)")
        return Status(self.table[rule][f"p{self.profile.value}"])

    def on(self, rule: str) -> bool:
        """CO-CORE-2: whether the rule runs in this profile (on, or optional switched on)."""
        return self.status(rule).runs

    def num(self, rule: str, name: str) -> Any:
        """A number a seed states (``[source]``)."""
        return self.source[rule][name]

    def default(self, rule: str, name: str) -> Any:
        """A Default's current value."""
        return self.defaults[rule, name]

    def rounding(self) -> Rounding:
        """§0.3: how a share is rounded where its rule has no rounding of its own."""
        return SETTING[self.defaults[GLOBAL_RULE, "rounding"]][0]

    def tag(self, rule: str, name: str) -> str:
        """" (default)" for a value (a Default or a profile cell) the user has not set."""
        if name in CELLS:
            return "" if (rule, name) in self.cells_set else DEFAULT_TAG
        return self.defaults.tag(rule, name)

    def entries(self) -> list[tuple[str, str, Any, bool]]:
        """Every (rule, key, value, is_default): the Defaults, then the profile cells."""
        return self.defaults.entries() + [
            (rule, cell, cells[cell], (rule, cell) not in self.cells_set)
            for rule, cells in self.table.items() for cell in CELLS]

    def settings(self) -> dict[str, dict[str, Any]]:
        """What the user set (Defaults and profile cells), in the shape :meth:`with_overrides`
        takes: a saved fight keeps it so its replay runs under the same rules."""
        out: dict[str, dict[str, Any]] = {}
        for rule, name in sorted(self.defaults.user_set | self.cells_set):
            out.setdefault(rule, {})[name] = (self.table[rule][name] if name in CELLS
                                              else self.defaults[rule, name])
        return out

    def skill(self, key: str) -> SkillInfo:
        """A skill by key or by its Japanese or English name."""
        found = self.skills.get(key) or next(
            (s for s in self.skills.values() if key in (s.ja, s.en) or key.lower() == s.en.lower()),
            None)
        if found is None:
            raise DataError(f"no skill {key!r} (known: {', '.join(self.skills)})")
        return found

    def weapon(self, key: str) -> WeaponInfo:
        """A packaged weapon by key or name."""
        if not isinstance(key, str):  # a list would crash the look-up (unhashable)
            raise DataError(f"a weapon is named by its key as text, found {key!r}")
        found = self.weapons.get(key) or next(
            (w for w in self.weapons.values() if key in (w.ja, w.en)), None)
        if found is None:
            raise DataError(f"no weapon {key!r} (known: {', '.join(self.weapons)})")
        return found

    def bands(self, info: WeaponInfo) -> tuple[tuple[Band, ...], str]:
        """CO-FIRE-9: a weapon's printed range bands and how they are shown: its own (a
        sheet's numbers), or the CO-FIRE-9 Default it names, labelled "(default)" until the
        user sets it. ``((), "")`` for a weapon without bands."""
        if not info.bands:
            return (), ""
        named = self.defaults.values.get("CO-FIRE-9", {})
        if info.bands in named:
            bands = parse_bands(named[info.bands], f"CO-FIRE-9.{info.bands}")
            return bands, f"{show_bands(bands)} ({info.bands}){self.tag('CO-FIRE-9', info.bands)}"
        bands = parse_bands(info.bands, info.name)
        return bands, show_bands(bands)

    def with_profile(self, profile: Profile) -> CocRules:
        return replace(self, profile=profile)

    def with_overrides(self, overrides: Mapping[str, Any], origin: str = "overrides",
                       limits: bool = True) -> CocRules:
        """New rules with Defaults or profile cells overridden; seed numbers are refused.

        A profile cell is set as ``{"CO-FIRE-9": {"p003": "optional_on"}}``. A cell that is
        "off" may be switched on only by writing "on": the user owns the table (CO-CORE-2).
        Each Default must be one of its :data:`CHOICES` (CO-MA-2's throw a compass point
        or "facing") and inside its range (``[limits]`` in ``data/rules.toml``, e.g.
        CO-CORE-1's fumble range above its critical range, CO-DEATH-1 death below −2 at the
        highest); ``limits=False`` skips both, for a fight begun before they were checked.
        """
        if not isinstance(overrides, Mapping):
            raise DataError(f"{origin}: the Defaults must be tables keyed by rule ID")
        table = {rule: dict(cells) for rule, cells in self.table.items()}
        cells_set = set(self.cells_set)
        plain: dict[str, dict[str, Any]] = {}
        for rule, keys in overrides.items():
            if not isinstance(keys, Mapping):
                raise DataError(f"{origin}: [{rule}] must be a table of settings")
            if not keys and rule not in table:
                plain[rule] = {}  # the Defaults' check refuses it if no Default is kept for it
            for name, value in keys.items():
                if name not in CELLS:
                    if rule not in table and rule not in self.defaults.values:
                        # coc74 NIT 5: "CO-NOPE-1 has no setting 'x' (no Defaults)" read as
                        # if CO-NOPE-1 were a rule
                        raise DataError(f"{origin}: no rule {rule!r} in coc's rules, so no "
                                        f"setting {rule}.{name}"
                                        + did_you_mean(rule, [*table, *self.defaults.values]))
                    plain.setdefault(rule, {})[name] = value
                    continue
                if rule not in table:
                    raise DataError(f"{origin}: no rule {rule!r} in the profile table")
                try:
                    status = Status(value)
                except ValueError as exc:
                    raise DataError(f"{origin}: {rule}.{name} must be on, off, optional "
                                    f"or optional_on; found {value!r}") from exc
                if limits and rule in FRAME and status.runs != Status(self.table[rule][name]).runs:
                    raise DataError(f"{origin}: "
                                    + _frame_refusal(rule, name, self.table[rule], status.runs))
                table[rule][name] = value
                cells_set.add((rule, name))
        defaults = self.defaults.with_overrides(plain, origin, self.source, limits)
        for name, value in plain.get("CO-FIRE-9", {}).items():
            parse_bands(value, f"{origin}: CO-FIRE-9.{name}")
        return replace(self, defaults=defaults, table=table, cells_set=frozenset(cells_set))


def check_dying(rules: CocRules, sources: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
    """CO-DEATH-1 (003) / CO-BASE-8 (004): refuse rules in which neither :data:`DYING_RULES`
    runs in a profile, or one at HP 0 or below fights on. Checked on the rules as finally
    combined, not after each source: coc.toml may switch CO-DEATH-1.p003 off and ``--set``
    CO-BASE-8.p003 on (r78coc RISK 2). ``sources`` are the ``(origin, overrides)`` applied,
    in order; each cell is said with the last that set it, else the packaged table."""
    for name in CELLS:
        if any(Status(rules.table[rule][name]).runs for rule in DYING_RULES):
            continue
        said = []
        for rule in DYING_RULES:
            where = next((origin for origin, overrides in reversed(sources)
                          if name in overrides.get(rule, {})), "profiles.toml, as packaged")
            said.append(f"{rule}.{name} is {rules.table[rule][name]} ({where})")
        raise DataError(f"no dying rule would run in profile {name[1:]}: {' and '.join(said)}; "
                        f"switch one on with the other off")


def _frame_refusal(rule: str, cell: str, cells: Mapping[str, Any], on: bool) -> str:
    """Why a :data:`FRAME` rule's cell cannot be switched: the profile whose cell runs in
    ``cells`` (the table's) always plays it, the other never does."""
    framed = next(c for c in CELLS if Status(cells[c]).runs)
    other = next(c for c in CELLS if c != framed)
    if on:
        return (f"{rule}.{cell} cannot be switched on: {rule} is profile {framed[1:]}'s frame, "
                f"never played in profile {cell[1:]}; play profile {framed[1:]} for it")
    return (f"{rule}.{cell} cannot be switched off: {rule} is profile {framed[1:]}'s frame, "
            f"always played there; play profile {other[1:]} without it")


def check_source(source: Mapping[str, Any], limits: Limits,
                 origin: str = "rules.toml") -> None:
    """Refuse a ``[source]`` number outside its range (``[source_limits]`` in rules.toml,
    :func:`~companion.systems.defaults.read_source_limits`), missing, or not a whole number,
    worded as a Default's range is: a DataError naming the file, the table, the key and the
    range. An edited rules.toml with one outside it (a divisor of 0, a negative cost) would
    crash or play nonsense later. A bound names a number checked before it (the table's
    order). Then each dice text there must roll."""
    for rule, path in limits.bounds:
        table = source.get(rule)
        if not isinstance(table, Mapping):
            raise DataError(f"{origin}: missing [source.\"{rule}\"]")
        part, _, key = path.rpartition(".")
        if part == "part":  # each body part that has the key
            places = [(f"[source.\"{rule}\".{name}]", sub) for name, sub in table.items()
                      if isinstance(sub, Mapping) and key in sub]
        else:
            sub = table.get(part, {}) if part else table
            places = [(f"[source.\"{rule}\"{'.' + part if part else ''}]", sub)]
        for place, values in places:
            value = values.get(key) if isinstance(values, Mapping) else None
            limits.check_source_number(value, rule, path, f"{origin}: {place}")
    for rule, table in source.items():
        if not isinstance(table, Mapping):
            raise DataError(f"{origin}: [source.\"{rule}\"] must be a table, found {table!r}")
        if rule == "CO-BASE-1":  # its table of bonuses: read_db_table
            continue
        parts = [(f"[source.\"{rule}\"]", table)] + [
            (f"[source.\"{rule}\".{name}]", sub) for name, sub in table.items()
            if isinstance(sub, Mapping)]
        for place, values in parts:
            for key, value in values.items():
                if isinstance(value, str) and key not in ("skill", "within"):  # named, not rolled
                    check_dice(value, f"{origin}: {place} {key}")
            if rule == "CO-BODY-5" and values is not table and "count" not in values:
                raise DataError(f"{origin}: {place} lacks count, a whole number 1 or more (how "
                                "many of the part a body has, CO-BODY-5)")
            if rule == "CO-BODY-5" and values is not table:
                check_within(table, place, values, origin)
            if "skill" in values and "skill_divisor" not in values:  # CO-BODY-5's lost part
                raise DataError(f"{origin}: {place} names skill {values['skill']!r} but lacks "
                                "skill_divisor, a whole number 1 or more (what it is divided "
                                "by when the part is lost)")
            stats = values.get("stats", {})
            if not isinstance(stats, Mapping):
                raise DataError(f"{origin}: {place} stats must be a table like "
                                f"{{ STR = \"1D3\" }}, found {stats!r}")
            for stat, loss in stats.items():  # CO-BODY-5: dice, or a number as text
                if isinstance(loss, str) and not loss.isdigit():
                    check_dice(loss, f"{origin}: {place} stats.{stat}")
                elif not isinstance(loss, str):
                    raise DataError(f"{origin}: {place} stats.{stat} must be dice like \"1D3\" "
                                    f"or a whole number 0 or more as text like \"1\", found "
                                    f"{loss!r}")


def check_within(parts: Mapping[str, Any], place: str, values: Mapping[str, Any],
                 origin: str) -> None:
    """CO-BODY-5's ``within`` and ``per`` (a hand on an arm, five fingers on a hand): both or
    neither, ``within`` another part, not round in a circle, and ``count`` that part's count
    times ``per`` (the two say the same number, and the engine reads both)."""
    if ("within" in values) != ("per" in values):
        raise DataError(f"{origin}: {place} needs within and per together (the part it is on "
                        "and how many are on each, CO-BODY-5)")
    seen: list[str] = []
    at = values
    while "within" in at:
        within = at["within"]
        if not isinstance(within, str) or not isinstance(parts.get(within), Mapping):
            raise DataError(f"{origin}: {place} within must name another part of "
                            f"[source.\"CO-BODY-5\"] ({', '.join(parts)}), found {within!r}")
        if parts[within] is values and not seen:
            raise DataError(f"{origin}: {place} within names the part itself, found "
                            f"{within!r} (CO-BODY-5)")
        if within in seen or parts[within] is values:
            raise DataError(f"{origin}: {place} within goes round in a circle "
                            f"({' → '.join([*seen, within])}, CO-BODY-5)")
        seen.append(within)
        at = parts[within]
    if "within" in values:
        on = parts[values["within"]]
        if not isinstance(on.get("count"), int):
            raise DataError(f"{origin}: {place} within {values['within']!r}, a part with no "
                            "count (CO-BODY-5)")
        if values.get("count") != values["per"] * on["count"]:
            raise DataError(f"{origin}: {place} count must be {values['per'] * on['count']} "
                            f"(per {values['per']} × the {values['within']}'s count "
                            f"{on['count']}), found {values.get('count')!r} (CO-BODY-5)")


def _read(name: str) -> str:
    """A packaged data file's text (:func:`~companion.systems.defaults.packaged_text`: a BOM
    dropped, a bad byte or a file that cannot be read a DataError naming it, reviewj68)."""
    return packaged_text("companion.systems.coc", name)


def _parse(text: str, origin: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{origin}: not TOML ({exc})") from exc


def _need(raw: Mapping[str, Any], names: tuple[str, ...], where: str) -> None:
    for name in names:
        if name not in raw:
            raise DataError(f"{where} lacks {name!r}")


def check_dice(text: str, where: str) -> str:
    """Refuse a damage expression the shared dice layer cannot roll ("0" means none)."""
    if text == "0":
        return text
    try:
        parse(text)
    except InvalidNotation as exc:
        raise DataError(f"{where}: {text!r} is not dice notation") from exc
    return text


def _skill(raw: Mapping[str, Any], where: str) -> SkillInfo:
    _need(raw, ("key", "ja", "en", "base"), where)
    base = raw["base"]
    if isinstance(base, int) and not isinstance(base, bool):
        if not 0 <= base <= 100:  # a percentage: a negative one could never succeed
            raise DataError(f"{where}: base must be a whole number from 0 to 100 or e.g. "
                            f"\"DEX*2\", found {base!r}")
        return SkillInfo(raw["key"], raw["ja"], raw["en"], base)
    char, star, times = str(base).partition("*")
    if not star or char not in CHARACTERISTICS or not times.isdigit():
        raise DataError(f"{where}: base must be a number or e.g. \"DEX*2\", found {base!r}")
    return SkillInfo(raw["key"], raw["ja"], raw["en"], int(times), char)


WEAPON_FLAGS = ("impaling", "stun", "improvised", "two_handed", "long_gun", "slashing",
                "technique", "jams", "iai", "blunt", "heavy", "laser", "cartridges")
#: Every field :func:`weapon_from_mapping` reads: a weapon's data (CO-BASE-1).
WEAPON_FIELDS = ("key", "ja", "en", "kind", "skill", "damage", "db", "attacks", "durability",
                 "magazine", "burst", "range_m", "scope", "bands", *WEAPON_FLAGS)


def weapon_from_mapping(raw: Mapping[str, Any], where: str, skills: Mapping[str, Any],
                        band_names: Collection[str] = ()) -> WeaponInfo:
    """Build a weapon, checking each field (CO-BASE-1). ``bands`` (CO-FIRE-9), for a ranged
    weapon only, is its printed range bands (``"4D6/2D6/1D6 @ 10/20/50"``) or the name of a
    CO-FIRE-9 Default (one of ``band_names``)."""
    _need(raw, ("key", "ja", "en", "kind", "skill", "damage", "db", "attacks"), where)
    try:
        kind = WeaponKind(raw["kind"])
        db = DamageBonus(raw["db"])
    except ValueError as exc:
        raise DataError(f"{where}: kind must be melee, firearm, thrown or unarmed and db full, "
                        f"half or none") from exc
    for name in ("key", "ja", "en", "skill"):  # a list would crash the skill look-up
        if not isinstance(raw[name], str):
            raise DataError(f"{where}: {name} must be text, found {raw[name]!r}")
    if raw["skill"] not in skills:
        raise DataError(f"{where}: unknown skill {raw['skill']!r}")
    for name in ("attacks", "magazine", "burst", "range_m", "durability", "scope"):
        value = raw.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise DataError(f"{where}: {name} must be a whole number 0 or more, found {value!r}")
    if raw["attacks"] < 1:
        raise DataError(f"{where}: attacks must be 1 or more")
    flags = {}
    for name in WEAPON_FLAGS:
        value = raw.get(name, name == "jams")
        if not isinstance(value, bool):
            raise DataError(f"{where}: {name} must be true or false")
        flags[name] = value
    if kind is WeaponKind.FIREARM and raw.get("magazine", 0) < 1:
        raise DataError(f"{where}: a firearm needs a magazine of 1 or more")
    bands = raw.get("bands", "")
    if not isinstance(bands, str):  # a list would crash the look-up among the Defaults
        raise DataError(f"{where}: bands must be text like \"4D6/2D6/1D6 @ 10/20/50\" or the "
                        f"name of a CO-FIRE-9 Default, found {bands!r}")
    if bands:
        if kind not in (WeaponKind.FIREARM, WeaponKind.THROWN):
            raise DataError(f"{where}: only a firearm or a thrown weapon has range bands")
        if bands not in band_names:
            parse_bands(bands, f"{where} bands")
    return WeaponInfo(
        raw["key"], raw["ja"], raw["en"], kind, raw["skill"],
        check_dice(str(raw["damage"]), f"{where} damage"), db, raw["attacks"],
        raw.get("durability"), raw.get("magazine", 0), raw.get("burst", 0),
        raw.get("range_m", 0), scope=raw.get("scope", 0), bands=bands, **flags)


def load_rules(profile: Profile = Profile.P003, texts: Mapping[str, str] | None = None
               ) -> CocRules:
    """Load and shape-check the packaged data; ``texts`` replaces files by name (tests)."""
    data = {name: _parse((texts or {}).get(name) or _read(name), name) for name in DATA_FILES}
    table = data["profiles.toml"].get("profile", {})
    for rule, cells in table.items():
        for p in Profile:
            try:
                Status(cells.get(f"p{p.value}"))
            except ValueError as exc:
                raise DataError(f"profiles.toml: {rule} p{p.value} must be on, off, optional "
                                "or optional_on") from exc
    rules = data["rules.toml"]
    for section in ("system", "source", "source_limits", "defaults", "limits"):
        if section not in rules:
            raise DataError(f"rules.toml: missing [{section}]")
    for rule in (*rules["source"], *rules["defaults"]):
        if rule not in table and rule != GLOBAL_RULE:  # §0.3 is no rule with a profile cell
            raise DataError(f"rules.toml: {rule} is not in the profile table")
    check_apart(rules["source"], rules["defaults"], "rules.toml")
    # before the Defaults' ranges, some of which name them
    check_source(rules["source"], read_source_limits(rules["source_limits"], rules["source"],
                                                     "rules.toml"))
    band_names = rules["defaults"].get("CO-FIRE-9", {})
    for name, value in band_names.items():
        parse_bands(value, f"rules.toml: CO-FIRE-9.{name}")
    skills: dict[str, SkillInfo] = {}
    for number, raw in enumerate(data["skills.toml"].get("skill", []), 1):
        skill = _skill(raw, f"skills.toml: [[skill]] {number}")
        if skill.key in skills:
            raise DataError(f"skills.toml: skill {skill.key!r} twice")
        skills[skill.key] = skill
    weapons: dict[str, WeaponInfo] = {}
    for number, raw in enumerate(data["weapons.toml"].get("weapon", []), 1):
        weapon = weapon_from_mapping(raw, f"weapons.toml: [[weapon]] {number}", skills,
                                     band_names)
        if weapon.key in weapons:
            raise DataError(f"weapons.toml: weapon {weapon.key!r} twice")
        weapons[weapon.key] = weapon
    system = rules["system"]
    limits = read_limits(rules["limits"], rules["defaults"], rules["source"], "rules.toml")
    choices = read_choices(CHOICES, rules["defaults"], "rules.toml")
    # with no override, this checks the packaged Defaults against their choices and ranges
    settings = Settings(rules["defaults"], wording=WORDING, limits=limits,
                        choices=choices).with_overrides({}, "rules.toml")
    db_table = read_db_table(rules["source"].get("CO-BASE-1", {}), "rules.toml")
    return CocRules(f"{system['name_ja']}/{system['name_en']}", profile, table,
                    rules["source"], settings, skills, weapons, db_table)
