"""Dice tables as data: a roll such as ``1D6`` and rows keyed by face, size-checked on load."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.dice.notation import Dice, DiceCommand, parse
from companion.dice.result import Result
from companion.dice.roll import roll
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
    """A table rolled with one die (``1D6``); every face from 1 to the sides has exactly one row."""

    key: str
    rule: str
    name_ja: str
    name_en: str
    roll: DiceCommand
    rows: tuple[TableRow, ...]

    @property
    def title(self) -> str:
        return f"{self.name_ja}/{self.name_en}"

    def row_for(self, face: int) -> TableRow:
        for row in self.rows:
            if face in row.faces:
                return row
        raise DataError(f"table {self.key} has no row for {face}")

    def roll_on(self, source: DiceSource) -> tuple[Result, TableRow]:
        result = roll(self.roll, source)
        return result, self.row_for(result.total)


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
    if not isinstance(command.expr, Dice) or command.expr.count != 1 or command.comparison:
        raise DataError(f"{where}: roll must be a single die such as 1D6, not {raw['roll']!r}")
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
    expected = list(range(1, command.expr.sides + 1))
    if sorted(seen) != expected:
        raise DataError(
            f"{where}: rows must cover faces 1-{command.expr.sides} once each, "
            f"found {sorted(seen)}"
        )
    return DiceTable(key, raw["rule"], raw["name_ja"], raw["name_en"], command, tuple(rows))
