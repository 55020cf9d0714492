"""Dice tables as data: a roll such as ``1D6`` or ``D66`` and rows keyed by result.

A table rolled with one die (``1D6``) has a row for every face; a table rolled by
D66 is keyed by the two-digit 11–66 (tens and units each 1–6), as most Japanese
tables are: every key ``D66`` can give must have exactly one row (``D66S`` gives
only keys whose tens are not above their units, 21 of them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.dice.notation import D66_SIDES, D66Command, D66Order, Dice, DiceCommand, parse
from companion.dice.result import Result
from companion.dice.roll import RollOptions, roll
from companion.dice.sources import DiceSource
from companion.errors import DataError, InvalidNotation


@dataclass(frozen=True, slots=True)
class TableRow:
    """One row: the faces that select it and its fields as written in the data file."""

    faces: tuple[int, ...]
    fields: Mapping[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]


@dataclass(frozen=True, slots=True)
class DiceTable:
    """A table rolled with one die (``1D6``) or by D66; every result it can give has one row."""

    key: str
    rule: str
    name_ja: str
    name_en: str
    roll: DiceCommand | D66Command
    rows: tuple[TableRow, ...]

    @property
    def title(self) -> str:
        return f"{self.name_ja}/{self.name_en}"

    def row_for(self, face: int) -> TableRow:
        for row in self.rows:
            if face in row.faces:
                return row
        raise DataError(f"table {self.key} has no row for {face}")

    def roll_on(
        self, source: DiceSource, options: RollOptions | None = None, *, purpose: str = ""
    ) -> tuple[Result, TableRow]:
        """Roll the table (its dice asked for with ``purpose``, by default the table's
        names and rule: ``the Monsters モンスター table (EV-MON-1)``) and find its row."""
        result = roll(self.roll, source, options, purpose=purpose
                      or f"the {self.name_en} {self.name_ja} table ({self.rule})")
        return result, self.row_for(result.total)


def d66_keys(order: D66Order | None) -> list[int]:
    """The keys a D66 read in ``order`` can give; ``None`` (the Default) may give all 36."""
    pairs = [(tens, units) for tens in range(1, 7) for units in range(1, 7)]
    if order is D66Order.ASCENDING:
        pairs = [(t, u) for t, u in pairs if t <= u]
    elif order is D66Order.DESCENDING:
        pairs = [(t, u) for t, u in pairs if t >= u]
    return [10 * t + u for t, u in pairs]


def load_table(
    key: str, raw: Mapping[str, Any], required: tuple[str, ...], origin: str
) -> DiceTable:
    """Build a table from its TOML mapping; DataError names the file, table and field."""
    where = f"{origin}: table {key}"
    for name in ("rule", "name_ja", "name_en", "roll", "rows"):
        if name not in raw:
            raise DataError(f"{where}: missing {name!r}")
    try:
        command = parse(raw["roll"])
    except InvalidNotation as exc:
        raise DataError(f"{where}: roll {raw['roll']!r} is not dice notation") from exc
    if isinstance(command, D66Command):
        expected = d66_keys(command.suffix.order)
    elif (isinstance(command, DiceCommand) and isinstance(command.expr, Dice)
          and command.expr.count == 1 and command.expr.keep is None
          and command.expr.sides != D66_SIDES and not command.comparison):
        expected = list(range(1, command.expr.sides + 1))
    else:
        raise DataError(
            f"{where}: roll must be a single die such as 1D6, or D66, found {raw['roll']!r}"
        )
    rows = []
    seen: list[int] = []
    for number, row in enumerate(raw["rows"], 1):
        missing = [name for name in ("faces", *required) if name not in row]
        if missing:
            raise DataError(f"{where}: row {number} lacks {missing[0]!r}")
        faces = tuple(row["faces"])
        seen.extend(faces)
        fields = {k: v for k, v in row.items() if k != "faces"}
        rows.append(TableRow(faces, fields))
    if sorted(seen) != expected:
        raise DataError(
            f"{where}: rows must cover {_span(expected)} once each, found {sorted(seen)}"
        )
    return DiceTable(key, raw["rule"], raw["name_ja"], raw["name_en"], command, tuple(rows))


def _span(keys: list[int]) -> str:
    if keys == list(range(1, len(keys) + 1)):
        return f"faces 1-{len(keys)}"
    return f"the D66 keys {', '.join(map(str, keys))}"
