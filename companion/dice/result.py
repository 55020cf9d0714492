"""What a roll produced: totals, each die, the BCDice-style line and its outcome flags."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

SEPARATOR = " ＞ "
SUCCESS = "成功/success"
FAILURE = "失敗/failure"


class RollKind(Enum):
    """Which kind of command made a result; it decides how the line is laid out."""

    SUM = "sum"
    D66 = "d66"
    POOL = "pool"
    CHOICE = "choice"
    CALC = "calc"
    REPEAT = "repeat"


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die: how many sides it has and the face it showed (the BCDice ``rands`` pair)."""

    sides: int
    value: int


@dataclass(frozen=True, slots=True)
class Result:
    """A finished roll, shown as ``(2D6>=9) ＞ 7[3,4] ＞ 失敗/failure``.

    ``steps`` are the parts after the bracketed formula. The flags follow BCDice's
    ``Result``: a roll with no comparison has all four false. Build one with the
    named constructors so the flags always agree with each other.

    ``total`` is the sum of a sum roll, the 11–66 of a D66, the number of dice that
    met a pool's target (with none, the sum of its dice), the position (from 1) of
    the item a choice picked (of the first, when it picks more), a calculation's
    value, and for a repeat the sum of its rolls' totals, which are in ``rolls``.
    """

    formula: str
    steps: tuple[str, ...]
    total: int
    dice: tuple[DieRoll, ...] = ()
    success: bool = False
    failure: bool = False
    critical: bool = False
    fumble: bool = False
    secret: bool = False
    comment: str = ""
    target: int | None = None
    kind: RollKind = RollKind.SUM
    rolls: tuple[Result, ...] = ()

    @classmethod
    def plain(cls, formula: str, steps: tuple[str, ...], total: int, **kw: Any) -> Result:
        """A roll that is not checked against anything."""
        return cls(formula, steps, total, **kw)

    @classmethod
    def succeeded(cls, formula: str, steps: tuple[str, ...], total: int, **kw: Any) -> Result:
        return cls(formula, steps, total, success=True, **kw)

    @classmethod
    def failed(cls, formula: str, steps: tuple[str, ...], total: int, **kw: Any) -> Result:
        return cls(formula, steps, total, failure=True, **kw)

    @classmethod
    def critical_success(
        cls, formula: str, steps: tuple[str, ...], total: int, **kw: Any
    ) -> Result:
        """An automatic success, e.g. a Sword World double 6 (EV-CORE-2 Default)."""
        return cls(formula, steps, total, success=True, critical=True, **kw)

    @classmethod
    def fumbled(cls, formula: str, steps: tuple[str, ...], total: int, **kw: Any) -> Result:
        """An automatic failure, e.g. a Sword World double 1, １ゾロ (EV-CORE-2)."""
        return cls(formula, steps, total, failure=True, fumble=True, **kw)

    @property
    def values(self) -> list[int]:
        """Every die face in roll order."""
        return [die.value for die in self.dice]

    @property
    def text(self) -> str:
        """The BCDice-style line; a repeat gives its rolls as ``#1``, ``#2``... blocks."""
        if self.kind is RollKind.REPEAT:
            return "\n\n".join(f"#{n}\n{r.text}" for n, r in enumerate(self.rolls, 1))
        # BCDice shows a calculation without its formula: "計算結果 ＞ 20".
        parts = self.steps if self.kind is RollKind.CALC else (f"({self.formula})", *self.steps)
        line = SEPARATOR.join(parts)
        return f"{line} {self.comment}" if self.comment else line

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict[str, Any]:
        """The result as plain data for ``--json`` and the play session."""
        return {
            "kind": self.kind.value,
            "text": self.text,
            "formula": self.formula,
            "steps": list(self.steps),
            "total": self.total,
            "target": self.target,
            "dice": [{"sides": d.sides, "value": d.value} for d in self.dice],
            "success": self.success,
            "failure": self.failure,
            "critical": self.critical,
            "fumble": self.fumble,
            "secret": self.secret,
            "comment": self.comment,
            "rolls": [r.to_json() for r in self.rolls],
        }
