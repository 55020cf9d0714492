"""Roll a parsed dice command with a DiceSource and build its BCDice-style Result.

The line reads like BCDice's: ``(2D6>=9) ＞ 7[3,4] ＞ 失敗/failure``; one die shows its
face alone (``(1D100<=60) ＞ 83 ＞ 失敗/failure``); arithmetic shows each dice term's sum
with its faces and the total after ``=`` (``(2D6+4>=8) ＞ 9[4,5]+4=13 ＞ 成功/success``,
the EV-CORE-2 Show line). The other commands show as BCDice shows them:
``(D66) ＞ 16``, ``(3B6>=4) ＞ 5,2,4 ＞ 成功数2/successes 2``, ``(choice[a,b]) ＞ a``,
``計算結果/result ＞ 20`` (BCDice's Japanese with the English beside, as a verdict has it),
and a repeat numbers its rolls ``#1``, ``#2``... (``docs/dice-notation.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.dice.notation import (
    D66_SIDES,
    BinaryOp,
    CalcCommand,
    ChoiceCommand,
    Command,
    D66Command,
    D66Order,
    DiceCommand,
    Group,
    HalfDie,
    Negate,
    Node,
    Number,
    PoolCommand,
    RepeatCommand,
    Rounding,
    evaluate,
    parse,
)
from companion.dice.notation import Dice as DiceTerm
from companion.dice.result import FAILURE, SUCCESS, DieRoll, Result, RollKind
from companion.dice.sources import DiceSource, checked_d66, checked_roll
from companion.errors import InvalidNotation

CALC_LABEL = "計算結果/result"


@dataclass(frozen=True, slots=True)
class RollOptions:
    """Defaults a system may set from its rules data.

    ``division`` rounds a plain ``/`` (§0.3: toward zero), ``half_die`` rounds 1/2D
    (EV-CORE-4) and ``d66_order`` reads a ``D66`` written without S, D or N (BCDice's
    base system reads it as thrown).
    """

    division: Rounding = Rounding.TOWARD_ZERO
    half_die: Rounding = Rounding.UP
    d66_order: D66Order = D66Order.AS_THROWN


class DiceArithmeticError(InvalidNotation, ArithmeticError):
    """A roll whose dice made a divisor zero, e.g. ``10/(1D6-1D6)``."""


class _Evaluator:
    def __init__(self, source: DiceSource, options: RollOptions, purpose: str = "") -> None:
        self.source = source
        self.options = options
        self.purpose = purpose  # what the roll is for, passed to every source.roll
        self.dice: list[DieRoll] = []

    def d66(self, order: D66Order) -> int:
        """Two D6 thrown together, read as tens and units after ``order`` arranges them."""
        first, second = checked_d66(self.source, purpose=self.purpose)
        self.dice += [DieRoll(6, first), DieRoll(6, second)]
        tens, units = order.arrange(first, second)
        return 10 * tens + units

    def faces(self, count: int, sides: int) -> list[int]:
        if sides == D66_SIDES:
            return [self.d66(self.options.d66_order) for _ in range(count)]
        values = checked_roll(self.source, count, sides, purpose=self.purpose)
        self.dice.extend(DieRoll(sides, v) for v in values)
        return values

    def eval(self, node: Node) -> tuple[int, str]:
        """Value of ``node`` and how it is shown in the result line."""
        match node:
            case Number(value):
                return value, str(value)
            case DiceTerm(count, sides, keep):
                values = self.faces(count, sides)
                if keep is None:
                    total = sum(values)
                    return total, f"{total}[{','.join(map(str, values))}]"
                # BCDice lists every die, low to high, after the sum of the kept ones.
                total = sum(keep.kind.select(values, keep.count))
                return total, f"{total}[{','.join(map(str, sorted(values)))}]"
            case HalfDie():
                (value,) = self.faces(1, 6)
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


def roll(command: Command | str, source: DiceSource, options: RollOptions | None = None, *,
         purpose: str = "") -> Result:
    """Roll ``command`` (parsed, or text to parse) with dice from ``source``; every die is
    asked for with ``purpose``, what the roll is for (:class:`DiceSource`)."""
    if isinstance(command, str):
        command = parse(command)
    options = options or RollOptions()
    match command:
        case RepeatCommand():
            return _roll_repeat(command, source, options, purpose)
        case D66Command():
            return _roll_d66(command, source, options, purpose)
        case PoolCommand():
            return _roll_pool(command, source, options, purpose)
        case ChoiceCommand():
            return _roll_choice(command, source, purpose)
        case CalcCommand():
            return _calculate(command, options)
    return _roll_sum(command, source, options, purpose)


def reads_d66_as_thrown(command: Command, options: RollOptions | None = None) -> bool:
    """Whether rolling ``command`` reads a D66's two dice as thrown, the first die the tens:
    ``D66N``, and ``D66``, ``1D66`` or ``2B66`` when ``options.d66_order`` says as thrown.
    The camera gives its dice in the order they lie, left to right (of two one above the
    other, the upper first: ``lying_order``), so its die on the left is the tens."""
    default = (options or RollOptions()).d66_order
    thrown = default is D66Order.AS_THROWN
    match command:
        case RepeatCommand():
            return reads_d66_as_thrown(command.command, options)
        case D66Command():
            return (command.suffix.order or default) is D66Order.AS_THROWN
        case PoolCommand():
            return thrown and any(pool.sides == D66_SIDES for pool in command.pools)
        case DiceCommand():
            return thrown and _has_d66(command.expr)
    return False


def dice_parts(command: Command) -> list[tuple[str, int]]:
    """Each part of ``command`` that throws dice, as written, with the sides of its dice (a
    D66's are 6, its two D6), in the order they are thrown: ``2D6+1D20`` is ``[("2D6", 6),
    ("1D20", 20)]``; a choice throws one die per pick, of as many sides as items are left
    (``choice2[a,b,c]`` a D3, then a D2). A source that reads only some dice (the camera,
    D6 alone) refuses a command by it before the first throw (dice62 D3)."""
    match command:
        case RepeatCommand():
            return dice_parts(command.command)
        case D66Command():
            return [(command.formula, 6)]
        case PoolCommand():
            return [(str(pool), _d6_of(pool.sides)) for pool in command.pools if pool.count]
        case ChoiceCommand():
            left = len(command.items)
            return [(command.formula, left - pick) for pick in range(command.takes)]
        case DiceCommand():
            return _node_parts(command.expr)
    return []


def _d6_of(sides: int) -> int:
    return 6 if sides == D66_SIDES else sides


def _node_parts(node: Node) -> list[tuple[str, int]]:
    match node:
        case DiceTerm(count, sides, _):
            return [(str(node), _d6_of(sides))] if count else []
        case HalfDie():
            return [(str(node), 6)]
        case Negate(operand) | Group(operand):
            return _node_parts(operand)
        case BinaryOp(_, left, right):
            return _node_parts(left) + _node_parts(right)
    return []


def _has_d66(node: Node) -> bool:
    match node:
        case DiceTerm(_, sides, _):
            return sides == D66_SIDES
        case Negate(operand) | Group(operand):
            return _has_d66(operand)
        case BinaryOp(_, left, right):
            return _has_d66(left) or _has_d66(right)
    return False


def _roll_sum(command: DiceCommand, source: DiceSource, options: RollOptions,
              purpose: str = "") -> Result:
    evaluator = _Evaluator(source, options, purpose)
    total, shown = evaluator.eval(command.expr)
    steps: list[str] = []
    match command.expr:
        case DiceTerm(1, _, None):
            steps.append(str(total))
        case DiceTerm() | Negate(DiceTerm()):
            steps.append(shown)
        case HalfDie():
            steps += [str(evaluator.dice[0].value), str(total)]
        case _:
            steps.append(f"{shown}={total}")
    kw: dict[str, Any] = {
        "dice": tuple(evaluator.dice),
        "secret": command.secret,
        "comment": command.comment,
    }
    if command.comparison is None or command.target is None:
        return Result.plain(str(command.expr), tuple(steps), total, **kw)
    target, _ = _Evaluator(source, options, purpose).eval(command.target)
    # BCDice shows the target worked out: "1d6>=1+2" is "(1D6>=3)".
    formula = f"{command.expr}{command.comparison.value}{target}"
    if command.comparison.holds(total, target):
        return Result.succeeded(formula, (*steps, SUCCESS), total, target=target, **kw)
    return Result.failed(formula, (*steps, FAILURE), total, target=target, **kw)


def _roll_d66(command: D66Command, source: DiceSource, options: RollOptions,
              purpose: str = "") -> Result:
    evaluator = _Evaluator(source, options, purpose)
    value = evaluator.d66(command.suffix.order or options.d66_order)
    return Result.plain(
        command.formula, (str(value),), value, dice=tuple(evaluator.dice),
        secret=command.secret, comment=command.comment, kind=RollKind.D66,
    )


def _roll_pool(command: PoolCommand, source: DiceSource, options: RollOptions,
               purpose: str = "") -> Result:
    evaluator = _Evaluator(source, options, purpose)
    values = [v for pool in command.pools for v in evaluator.faces(pool.count, pool.sides)]
    kw: dict[str, Any] = {
        "dice": tuple(evaluator.dice), "secret": command.secret,
        "comment": command.comment, "kind": RollKind.POOL,
    }
    listed = ",".join(map(str, values))
    formula = "+".join(map(str, command.pools))
    if command.comparison is None or command.target is None:
        return Result.plain(formula, (listed,), sum(values), **kw)
    target, _ = _Evaluator(source, options, purpose).eval(command.target)
    successes = sum(command.comparison.holds(v, target) for v in values)
    formula += f"{command.comparison.value}{target}"
    return Result.plain(formula, (listed, f"成功数{successes}/successes {successes}"), successes,
                        target=target, **kw)


def _roll_choice(command: ChoiceCommand, source: DiceSource, purpose: str = "") -> Result:
    """One die of as many sides as there are items left for each pick; an item picked is
    taken out (BCDice's ``Choice#roll``: ``roll_index`` then ``delete_at``). The total is
    the position of the first item picked."""
    left = list(command.items)
    picked: list[str] = []
    dice: list[DieRoll] = []
    for _ in range(command.takes):
        (index,) = checked_roll(source, 1, len(left), purpose=purpose)
        dice.append(DieRoll(len(left), index))
        picked.append(left.pop(index - 1))
    return Result.plain(
        command.formula, (command.separator.join(picked),), dice[0].value,
        dice=tuple(dice), secret=command.secret, comment=command.comment,
        kind=RollKind.CHOICE,
    )


def _calculate(command: CalcCommand, options: RollOptions) -> Result:
    try:
        value = evaluate(command.expr, options.division)
    except ZeroDivisionError:
        raise DiceArithmeticError("the calculation divides by zero") from None
    return Result.plain(
        command.formula, (CALC_LABEL, str(value)), value, secret=command.secret,
        comment=command.comment, kind=RollKind.CALC,
    )


def _roll_repeat(command: RepeatCommand, source: DiceSource, options: RollOptions,
                 purpose: str = "") -> Result:
    rolls = tuple(roll(command.command, source, options, purpose=purpose)
                  for _ in range(command.times))
    return Result.plain(
        command.formula, (), sum(r.total for r in rolls),
        dice=tuple(d for r in rolls for d in r.dice),
        secret=command.secret or any(r.secret for r in rolls),
        kind=RollKind.REPEAT, rolls=rolls,
    )
