"""Sword World pieces the `events` system uses: party members, checks and the rating table.

EV-CORE-2 (checks), EV-CORE-3 (base power from a user-supplied rating table).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Any

from companion.dice.notation import Comparison
from companion.dice.result import FAILURE, SUCCESS, Result
from companion.dice.roll import roll
from companion.dice.sources import DiceSource
from companion.errors import DataError

# Named again here as the events command imports it from this module.
from companion.systems.defaults import refuse_control, toml_value
from companion.systems.events.lists import players_toml

ABILITY_NAMES = {
    "dexterity": ("器用度", "DEX"),
    "agility": ("敏捷度", "AGI"),
    "intelligence": ("知力", "INT"),
    "strength": ("筋力", "STR"),
    "vitality": ("生命力", "VIT"),
}
CLASS_NAMES = {
    "adventurer": ("冒険者", "Adventurer"),
    "thief": ("シーフ", "Thief"),
    "sage": ("セージ", "Sage"),
    "sorcerer": ("ソーサラー", "Sorcerer"),
    "evasion": ("回避技能", "evasion class"),
}


@dataclass(frozen=True, slots=True)
class Member:
    """One party member (§1 state): levels, ability bonuses, pools, armor and shield.

    ``evasion`` is the level of the class the member evades with in combat; None or 0
    means they have none and make a flat roll (平目, EV-TRAP-5), as 0 does for every
    other class. ``armor`` is the damage the armor stops, a number the user enters
    (EV-TRAP-5/7 Default). ``hp`` and ``mp`` are None when the party file leaves them
    out: a walk then says no HP beside the damage, and nothing is kept of it (cli59 F4).
    """

    name: str
    adventurer: int = 0
    thief: int = 0
    sage: int = 0
    sorcerer: int = 0
    evasion: int | None = None
    shield: int = 0
    armor: int = 0
    dexterity: int = 0
    agility: int = 0
    intelligence: int = 0
    strength: int = 0
    vitality: int = 0
    hp: int | None = None
    mp: int | None = None
    max_hp: int = 0
    max_mp: int = 0

    def level(self, cls: str) -> int | None:
        """The member's level in ``cls``, or None when they have none (a flat roll)."""
        if cls == "best_thief_sage":
            value = max(self.thief, self.sage)
        elif cls == "evasion":
            # A party file writes "no evasion" as 0 as often as by leaving it out.
            value = self.evasion or 0
        else:
            value = getattr(self, cls)
        return value if value > 0 else None


def folded_name(name: str) -> str:
    """A character's name as ``--who``, the party file and the tracked poisons compare it:
    whatever its width and case (``aki``, ``ＡＫＩ`` are Aki)."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def load_party(text: str, origin: str = "party file") -> tuple[Member, ...]:
    """Members from TOML ``[[member]]`` tables, in marching order; DataError names the field."""
    data = players_toml(text, origin)
    rows = data.get("member")
    if not isinstance(rows, list) or not rows:
        raise DataError(f"{origin}: needs at least one [[member]] table")
    known = {f.name for f in fields(Member)}
    members = []
    named: dict[str, int] = {}  # a name folded as --who matches it: the member who has it
    for number, row in enumerate(rows, 1):
        where = f"{origin}: member {number}"
        if not isinstance(row, dict):
            raise DataError(f"{where}: must be a [[member]] table, found {row!r}")
        unknown = set(row) - known
        if unknown:
            raise DataError(f"{where}: unknown field {sorted(unknown)[0]!r}")
        if not isinstance(row.get("name"), str) or not row["name"].strip():
            raise DataError(f"{where}: needs a name")
        refuse_control(row["name"], f"{where}: name")
        folded = folded_name(row["name"])
        if folded in named:
            raise DataError(f"{where}: {row['name']!r} is the name of member {named[folded]} "
                            "too (or but for case and width); each member needs their own, as "
                            "--who and the tracked poisons find one by it")
        named[folded] = number
        for key, value in row.items():
            if key != "name" and (not isinstance(value, int) or isinstance(value, bool)):
                raise DataError(f"{where}: {key} must be a whole number, found {toml_value(value)}")
        member = Member(**row)
        _check_ranges(member, f"{where} ({member.name})")
        members.append(member)
    return tuple(members)


#: Fields that can never be negative: class levels, ability bonuses, armor (the damage it
#: stops), the shield (its evasion bonus, added to EV-TRAP-5's roll: a −5 took 5 off it,
#: events70 DEFECT 6), the maximum pools and MP. HP may be: a Sword World PC at 0 or below
#: is down, not gone, so a party file may carry one.
NON_NEGATIVE = (*CLASS_NAMES, *ABILITY_NAMES, "armor", "shield", "max_hp", "max_mp", "mp")
#: The largest size of a party file's number (and of HP below 0). No Sword World character
#: comes near it; past it, a level or bonus of 10**30 failed in the dice notation, on a
#: check expression (2D6+bonus>=target) the user never typed (events70 NIT 10). It bounds
#: what a file may hold, not a rule, so it is kept beside the other field checks.
PARTY_NUMBER_MAX = 9999


def _check_ranges(member: Member, where: str) -> None:
    """§1 state: refuse values no character can have (a level of −1, HP over the maximum).

    A maximum of 0 means "not given" (recovery is then uncapped, EV-REC-1), so the pool
    is only checked against a maximum that is set.
    """
    for key in NON_NEGATIVE:
        value = getattr(member, key)
        if value is not None and value < 0:
            raise DataError(f"{where}: {key} must be 0 or more, found {value}")
    for key in (f.name for f in fields(Member) if f.name != "name"):
        value = getattr(member, key)
        if value is not None and value > PARTY_NUMBER_MAX:
            raise DataError(f"{where}: {key} must be {PARTY_NUMBER_MAX} or less, found {value}")
        if value is not None and value < -PARTY_NUMBER_MAX:
            raise DataError(f"{where}: {key} must be -{PARTY_NUMBER_MAX} or more, found {value}")
    for pool in ("hp", "mp"):
        value, most = getattr(member, pool), getattr(member, f"max_{pool}")
        if most and value is not None and value > most:
            raise DataError(f"{where}: {pool} {value} is over max_{pool} {most}")


@dataclass(frozen=True, slots=True)
class CheckSpec:
    """A check written 「X（Class・Ability）」, e.g. 罠解除（シーフ・器用度）."""

    key: str
    ja: str
    en: str
    cls: str
    ability: str
    fixed: str

    def label(self) -> str:
        cls_ja = "シーフ/セージ" if self.cls == "best_thief_sage" else CLASS_NAMES[self.cls][0]
        ability = "知識" if self.ability == "knowledge" else ABILITY_NAMES[self.ability][0]
        return f"{self.ja}（{cls_ja}・{ability}）/{self.en}"


@dataclass(frozen=True, slots=True)
class CheckRules:
    """The EV-CORE-2 settings a check needs."""

    comparison: Comparison = Comparison.GE
    double_six_success: bool = True
    knowledge_ability: str = "intelligence"


def check_bonus(member: Member, spec: CheckSpec, rules: CheckRules) -> int | None:
    """EV-CORE-2: class level + ability bonus (knowledge checks use the Default's
    ``knowledge_ability``), or None when the member lacks the class (平目, a flat roll)."""
    level = member.level(spec.cls)
    if level is None:
        return None
    ability = rules.knowledge_ability if spec.ability == "knowledge" else spec.ability
    bonus: int = level + getattr(member, ability)
    return bonus


def sw_check(
    source: DiceSource, bonus: int, target: int, rules: CheckRules, *, purpose: str = "",
) -> Result:
    """EV-CORE-2: 2D6 + bonus against target; double 1 fails, double 6 succeeds (Default).
    The dice are asked for as ``purpose (2D6+4>=8)`` (what the check is, then its roll).

    >>> from companion.dice.sources import ScriptedDice
    >>> sw_check(ScriptedDice([(6, 4), (6, 5)]), 4, 8, CheckRules()).text
    '(2D6+4>=8) ＞ 9[4,5]+4=13 ＞ 成功/success'
    >>> sw_check(ScriptedDice([(6, 1), (6, 1)]), 9, 8, CheckRules()).text
    '(2D6+9>=8) ＞ 2[1,1]+9=11 ＞ １ゾロ 自動失敗/automatic failure'
    """
    bonus_text = f"{bonus:+d}" if bonus else ""
    expr = f"2D6{bonus_text}{rules.comparison.value}{target}"
    base = roll(expr, source, purpose=f"{purpose} ({expr})" if purpose else expr)
    shown = base.steps[:-1]
    kw: dict[str, Any] = {"dice": base.dice, "target": target}
    if base.values == [1, 1]:
        return Result.fumbled(
            base.formula, (*shown, "１ゾロ 自動失敗/automatic failure"), base.total, **kw
        )
    if base.values == [6, 6] and rules.double_six_success:
        return Result.critical_success(
            base.formula, (*shown, "６ゾロ 自動成功/automatic success"), base.total, **kw
        )
    if base.success:
        return Result.succeeded(base.formula, (*shown, SUCCESS), base.total, **kw)
    return Result.failed(base.formula, (*shown, FAILURE), base.total, **kw)


#: The form of a rating table, for a player who has none yet: no numbers are built in
#: (EV-CORE-3: the table is the rulebook's), so there is no example file to copy either.
#: Here beside its reader, as a sw recovery refused for want of a table says it too.
#: A rating table's ``*`` cell as a walk says it (EV-CORE-3).
AUTOMATIC_MISS = "自動失敗/automatic miss"
RATINGS_FORM = ("a CSV whose first line is rating,2,3,4,5,6,7,8,9,10,11,12, then one line "
                "per rating: the rating, then the values for 2D6 totals 2 to 12 from your "
                "rulebook's 威力表 (* for an automatic miss)")


@dataclass(frozen=True, slots=True)
class RatingTable:
    """EV-CORE-3: a user-supplied Sword World rating table, rating × 2D6 (2–12) → value.

    A cell of ``*`` (or ``-``) is the rulebook's automatic miss: no damage. ``origin``
    names the table (its file) where an error says it lacks a rating.
    """

    rows: dict[int, tuple[int | None, ...]]
    origin: str = "rating table"

    def missed(self, rating: int, roll_total: int) -> bool:
        """EV-CORE-3: whether the cell at ``rating`` for a 2D6 total is ``*``, an automatic
        miss (:meth:`lookup` reads it as 0)."""
        row = self.rows.get(rating)
        return row is not None and row[roll_total - 2] is None

    def lookup(self, rating: int, roll_total: int) -> int | None:
        """EV-CORE-3: the value at ``rating`` for a 2D6 total, 0 for a ``*`` cell (an automatic
        miss); None if the rating is not in the table."""
        row = self.rows.get(rating)
        if row is None:
            return None
        value = row[roll_total - 2]
        return 0 if value is None else value


def _whole(cell: str, what: str, alternative: str = "") -> int:
    """A CSV cell (NFKC-folded) as a whole number, 0 to :data:`PARTY_NUMBER_MAX` (ratings
    and the damage read off them), or a DataError saying which cell and what it held. Its
    digits only: ``int()`` read ``1_0`` as 10 (events70 NIT 9).

    >>> _whole("1" + "0" * 41, "r.csv line 2: the value for 2D6=3")
    Traceback (most recent call last):
    ...
    companion.errors.DataError: r.csv line 2: the value for 2D6=3 must be 9999 or less, \
found '10000000…(42 characters)'
    """
    if not re.fullmatch(r"[+-]?[0-9]+", cell):
        raise DataError(f"{what} must be a whole number{alternative}, found {cell!r}")
    # Held to PARTY_NUMBER_MAX, as a party file's numbers are: a cell of 10**41 became a
    # kept HP that TOML's 64-bit integers cannot hold, and one of 5000 digits was past
    # int()'s limit, a ValueError (events72 NIT 7). Its digits counted before it is read.
    digits = cell.lstrip("+-").lstrip("0")
    if cell.startswith("-") and digits:
        raise DataError(f"{what} must be 0 or more{alternative}, found {cell!r}")
    if len(digits) > len(str(PARTY_NUMBER_MAX)) or int(digits or "0") > PARTY_NUMBER_MAX:
        shown = cell if len(cell) <= 20 else f"{cell[:8]}…({len(cell)} characters)"
        raise DataError(f"{what} must be {PARTY_NUMBER_MAX} or less{alternative}, found "
                        f"{shown!r}")
    return int(digits or "0")


def _csv_rows(text: str, origin: str) -> Iterator[list[str]]:
    """The CSV's rows; a row the csv module cannot read (a cell over its 128 KiB limit, as a
    pasted blob or a binary file without line ends gives) is a DataError naming the line."""
    reader = csv.reader(io.StringIO(text))
    try:
        yield from reader
    except csv.Error as exc:
        raise DataError(f"{origin} line {reader.line_num}: not a rating table ({exc})") from None


def load_rating_table(text: str, origin: str = "rating table") -> RatingTable:
    """Parse the CSV: a header ``rating,2,3,...,12`` then one row per rating."""
    rows: dict[int, tuple[int | None, ...]] = {}
    header_seen = False
    for line_no, cells in enumerate(_csv_rows(text, origin), 1):
        # Folded, so that a cell typed full-width reads as typed half-width: ５ and ０ were
        # read, but ＊ was refused (events70 NIT 9).
        cells = [unicodedata.normalize("NFKC", c).strip() for c in cells]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if not header_seen:
            if cells[1:] != [str(n) for n in range(2, 13)]:
                raise DataError(
                    f"{origin} line {line_no}: the header must be rating,2,3,...,12"
                )
            header_seen = True
            continue
        if len(cells) != 12:
            raise DataError(f"{origin} line {line_no}: needs 12 cells, found {len(cells)}")
        where = f"{origin} line {line_no}"
        rating = _whole(cells[0], f"{where}: rating")
        values = tuple(
            None if c in ("*", "-") else _whole(c, f"{where}: the value for 2D6={n}", " or *")
            for n, c in enumerate(cells[1:], 2)
        )
        if rating in rows:
            raise DataError(f"{origin} line {line_no}: rating {rating} appears twice")
        rows[rating] = values
    if not rows:
        raise DataError(f"{origin}: no rating rows")
    return RatingTable(rows, origin)
