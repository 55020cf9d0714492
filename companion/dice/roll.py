"""Roll a parsed dice command with a DiceSource and build its BCDice-style Result.

The line reads like BCDice's: ``(2D6>=9) ＞ 7[3,4] ＞ 失敗/failure``; one die shows its
face alone (``(1D100<=60) ＞ 83 ＞ 失敗/failure``); arithmetic shows each dice term's sum
with its faces and the total after ``=`` (``(2D6+4>=8) ＞ 9[4,5]+4=13 ＞ 成功/success``,
the EV-CORE-2 Show line).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.dice.notation import (
    BinaryOp,
    DiceCommand,
    Group,
    HalfDie,
    Negate,
    Node,
    Number,
    Rounding,
    parse,
)
from companion.dice.notation import Dice as DiceTerm
from companion.dice.result import FAILURE, SUCCESS, DieRoll, Result
from companion.dice.sources import DiceSource, checked_roll
from companion.errors import InvalidNotation


@dataclass(frozen=True, slots=True)
class RollOptions:
    """Rounding Defaults: ``division`` for plain ``/`` (§0.3), ``half_die`` for 1/2D (EV-CORE-4)."""

    division: Rounding = Rounding.DOWN
    half_die: Rounding = Rounding.UP


class _Evaluator:
    def __init__(self, source: DiceSource, options: RollOptions) -> None:
        self.source = source
        self.options = options
        self.dice: list[DieRoll] = []

    def eval(self, node: Node) -> tuple[int, str]:
        """Value of ``node`` and how it is shown in the result line."""
        match node:
            case Number(value):
                return value, str(value)
            case DiceTerm(count, sides):
                values = checked_roll(self.source, count, sides)
                self.dice.extend(DieRoll(sides, v) for v in values)
                total = sum(values)
                shown = ",".join(map(str, values))
                return total, f"{total}[{shown}]"
            case HalfDie():
                (value,) = checked_roll(self.source, 1, 6)
                self.dice.append(DieRoll(6, value))
                half = self.options.half_die.divide(value, 2)
                # "5/2" inside arithmetic would read as plain division ("2*5/2" is not 6).
                return half, f"{half}[{value}]"
            case Negate(operand):
                value, shown = self.eval(operand)
                return -value, f"-{shown}"
            case Group(inner):
                value, shown = self.eval(inner)
                return value, f"({shown})"
            case BinaryOp(op, left, right, rounding):
                a, left_shown = self.eval(left)
                b, right_shown = self.eval(right)
                suffix = rounding.value if rounding else ""
                return _apply(op, a, b, rounding or self.options.division), (
                    f"{left_shown}{op}{right_shown}{suffix}"
                )
        raise TypeError(f"not a dice expression node: {node!r}")


def _apply(op: str, a: int, b: int, rounding: Rounding) -> int:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise DiceArithmeticError("the roll divides by zero")
    return rounding.divide(a, b)


class DiceArithmeticError(InvalidNotation, ArithmeticError):
    """A roll whose dice made a divisor zero, e.g. ``10/(1D6-1D6)``."""


def roll(
    command: DiceCommand | str, source: DiceSource, options: RollOptions | None = None
) -> Result:
    """Roll ``command`` (parsed, or text to parse) with dice from ``source``."""
    if isinstance(command, str):
        command = parse(command)
    evaluator = _Evaluator(source, options or RollOptions())
    total, shown = evaluator.eval(command.expr)
    steps: list[str] = []
    match command.expr:
        case DiceTerm(count, _) if count == 1:
            steps.append(str(total))
        case DiceTerm():
            steps.append(shown)
        case HalfDie():
            steps += [str(evaluator.dice[0].value), str(total)]
        case _:
            steps.append(f"{shown}={total}")
    kw = {
        "dice": tuple(evaluator.dice),
        "secret": command.secret,
        "comment": command.comment,
    }
    if command.comparison is None or command.target is None:
        return Result.plain(command.formula, tuple(steps), total, **kw)
    target, _ = _Evaluator(source, evaluator.options).eval(command.target)
    if command.comparison.holds(total, target):
        return Result.succeeded(command.formula, (*steps, SUCCESS), total, target=target, **kw)
    return Result.failed(command.formula, (*steps, FAILURE), total, target=target, **kw)
