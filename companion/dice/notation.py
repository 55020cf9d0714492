"""Dice notation in the BCDice convention (spec §0.2): parse text into an expression tree.

Accepted, case-insensitive, full-width characters allowed (``２Ｄ６＋３``):

- ``NdX`` dice; ``ND`` with no sides is N six-sided dice, as seeds 001 and 002 write it;
- ``1/2D``: half of one D6 (EV-CORE-4), as seed 001 writes it;
- whole numbers, ``+ - * /`` and parentheses; a division may end in ``U`` (round up),
  ``R`` (round half away from zero) or ``F`` (round down), else the default applies (§0.3);
- one comparison ``<= >= < > = <>`` against a target that has no dice;
- a leading ``S`` for a secret roll;
- text after the first space is a comment.

``str()`` gives the normalised notation back and ``repr`` is the parse call:

>>> parse("s2d6+3>=10 attack")
parse('S2D6+3>=10 attack')
>>> str(parse("（１Ｄ６）／２"))
'(1D6)/2'
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import Enum

from companion.errors import InvalidNotation

MAX_DICE = 200
MAX_SIDES = 1000
MAX_NESTING = 20

# Characters NFKC leaves alone but players type in Japanese text.
_EXTRA_FOLDS = {"−": "-", "×": "*", "÷": "/", "≦": "≤", "≧": "≥"}


class DiceSyntaxError(InvalidNotation):
    """Dice text that does not parse; the message shows the text with a caret under the fault."""

    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        caret = " " * _display_width(text[:position]) + "^"
        super().__init__(f"{reason} at character {position + 1}:\n  {text}\n  {caret}")


def _display_width(text: str) -> int:
    """Columns the text takes in a terminal, so the caret lines up under full-width input."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


class Rounding(Enum):
    """How a division result becomes a whole number (§0.3, EV-CORE-4)."""

    DOWN = "F"  # toward zero
    UP = "U"  # away from zero
    NEAREST = "R"  # halves away from zero

    def divide(self, numerator: int, denominator: int) -> int:
        """Divide whole numbers and round the quotient this way.

        >>> Rounding.DOWN.divide(5, 2), Rounding.UP.divide(5, 2), Rounding.NEAREST.divide(5, 2)
        (2, 3, 3)
        >>> Rounding.DOWN.divide(-5, 2), Rounding.UP.divide(-5, 2)
        (-2, -3)
        """
        if denominator == 0:
            raise ZeroDivisionError("division by zero")
        sign = -1 if (numerator < 0) != (denominator < 0) else 1
        quotient, remainder = divmod(abs(numerator), abs(denominator))
        if self is Rounding.UP and remainder:
            quotient += 1
        elif self is Rounding.NEAREST and 2 * remainder >= abs(denominator):
            quotient += 1
        return sign * quotient


class Comparison(Enum):
    """The comparisons BCDice accepts between a total and a target."""

    LE = "<="
    GE = ">="
    NE = "<>"
    LT = "<"
    GT = ">"
    EQ = "="

    def holds(self, total: int, target: int) -> bool:
        return {
            Comparison.LE: total <= target,
            Comparison.GE: total >= target,
            Comparison.NE: total != target,
            Comparison.LT: total < target,
            Comparison.GT: total > target,
            Comparison.EQ: total == target,
        }[self]


@dataclass(frozen=True, slots=True)
class Number:
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Dice:
    """``NdX``: roll ``count`` dice of ``sides`` sides and add them."""

    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}D{self.sides}"


@dataclass(frozen=True, slots=True)
class HalfDie:
    """``1/2D``: one D6 halved (EV-CORE-4); the rounding is a Default kept in rules data."""

    def __str__(self) -> str:
        return "1/2D"


@dataclass(frozen=True, slots=True)
class Negate:
    operand: Node

    def __str__(self) -> str:
        return f"-{self.operand}"


@dataclass(frozen=True, slots=True)
class Group:
    """Parentheses, kept so the result line shows them where the player typed them."""

    inner: Node

    def __str__(self) -> str:
        return f"({self.inner})"


@dataclass(frozen=True, slots=True)
class BinaryOp:
    """``left op right``; ``rounding`` is set only when a division carried U, R or F."""

    op: str
    left: Node
    right: Node
    rounding: Rounding | None = None

    def __str__(self) -> str:
        suffix = self.rounding.value if self.rounding else ""
        return f"{self.left}{self.op}{self.right}{suffix}"


Node = Number | Dice | HalfDie | Negate | Group | BinaryOp


def has_dice(node: Node) -> bool:
    match node:
        case Dice() | HalfDie():
            return True
        case Negate(operand) | Group(operand):
            return has_dice(operand)
        case BinaryOp(_, left, right):
            return has_dice(left) or has_dice(right)
    return False


@dataclass(frozen=True, slots=True)
class DiceCommand:
    """One parsed roll: the expression, an optional comparison and target, secret flag, comment."""

    expr: Node
    comparison: Comparison | None = None
    target: Node | None = None
    secret: bool = False
    comment: str = ""

    @property
    def formula(self) -> str:
        """The roll without the S prefix and comment, as shown in brackets: ``2D6+3>=10``."""
        cmp = f"{self.comparison.value}{self.target}" if self.comparison else ""
        return f"{self.expr}{cmp}"

    def __str__(self) -> str:
        secret = "S" if self.secret else ""
        comment = f" {self.comment}" if self.comment else ""
        return f"{secret}{self.formula}{comment}"

    def __repr__(self) -> str:
        return f"parse({str(self)!r})"


def _fold(text: str) -> str:
    """Fold full-width and look-alike characters one for one, so positions stay valid."""
    out = []
    for char in text:
        char = _EXTRA_FOLDS.get(char, char)
        folded = unicodedata.normalize("NFKC", char)
        out.append(folded.upper() if len(folded) == 1 else char)
    return "".join(out)


class _Parser:
    """Recursive descent over the command part of the text (before the first space)."""

    def __init__(self, original: str, folded: str, start: int, end: int) -> None:
        self.original = original
        self.text = folded
        self.pos = start
        self.end = end
        self.nesting = 0

    def fail(self, reason: str, position: int | None = None) -> DiceSyntaxError:
        return DiceSyntaxError(self.original, self.pos if position is None else position, reason)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < self.end else ""

    def peek_comparison(self) -> str:
        for symbol in ("<=", ">=", "<>", "≤", "≥", "<", ">", "="):
            if self.text.startswith(symbol, self.pos) and self.pos + len(symbol) <= self.end:
                return symbol
        return ""

    def number(self) -> tuple[int, int]:
        start = self.pos
        while self.peek().isdigit() and self.peek().isascii():
            self.pos += 1
        if self.pos == start:
            raise self.fail("expected a number")
        return int(self.text[start:self.pos]), start

    def expression(self) -> Node:
        node = self.term()
        while self.peek() in ("+", "-"):
            op = self.peek()
            self.pos += 1
            node = BinaryOp(op, node, self.term())
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.peek() in ("*", "/"):
            op = self.peek()
            self.pos += 1
            right_at = self.pos
            right = self.unary()
            rounding = None
            if op == "/":
                if right == Number(0):
                    raise self.fail("division by zero", right_at)
                if self.peek() in ("U", "C", "R", "F"):
                    rounding = Rounding.UP if self.peek() == "C" else Rounding(self.peek())
                    self.pos += 1
            node = BinaryOp(op, node, right, rounding)
        return node

    def unary(self) -> Node:
        if self.peek() == "-":
            self.pos += 1
            return Negate(self.unary())
        if self.peek() == "+":
            self.pos += 1
            return self.unary()
        return self.primary()

    def primary(self) -> Node:
        char = self.peek()
        if char == "(":
            open_at = self.pos
            self.nesting += 1
            if self.nesting > MAX_NESTING:
                raise self.fail(f"more than {MAX_NESTING} brackets inside each other")
            self.pos += 1
            inner = self.expression()
            self.nesting -= 1
            if self.peek() != ")":
                if self.pos >= self.end:
                    raise self.fail("this bracket is never closed", open_at)
                raise self.fail("expected ')'")
            self.pos += 1
            return Group(inner)
        if char.isdigit() and char.isascii():
            half_die = self.text.startswith("1/2D", self.pos, self.end)
            if half_die and not self._digit_at(self.pos + 4):
                self.pos += 4
                return HalfDie()
            value, start = self.number()
            if self.peek() != "D":
                return Number(value)
            if not 1 <= value <= MAX_DICE:
                raise self.fail(f"the number of dice must be 1 to {MAX_DICE}", start)
            self.pos += 1
            if not self._digit_at(self.pos):
                return Dice(value, 6)  # "1D", "2D": six-sided, as seeds 001 and 002 write
            sides, sides_at = self.number()
            if not 1 <= sides <= MAX_SIDES:
                raise self.fail(f"a die must have 1 to {MAX_SIDES} sides", sides_at)
            return Dice(value, sides)
        if char == "D":
            raise self.fail("write how many dice before D, e.g. 1D6")
        if not char:
            raise self.fail("the expression ends too early")
        raise self.fail(f"unexpected {self.original[self.pos]!r}")

    def _digit_at(self, index: int) -> bool:
        return index < self.end and self.text[index].isdigit() and self.text[index].isascii()


def parse(text: str) -> DiceCommand:
    """Parse one dice command; raise :class:`DiceSyntaxError` pointing at the fault."""
    folded = _fold(text)
    start = len(folded) - len(folded.lstrip())
    end = folded.find(" ", start)
    if end < 0:
        end = len(folded)
    comment = text[end:].strip()
    if start == end:
        raise DiceSyntaxError(text, start, "no dice expression given")
    secret = folded[start] == "S"
    parser = _Parser(text, folded, start + secret, end)
    expr = parser.expression()
    comparison = target = None
    symbol = parser.peek_comparison()
    if symbol:
        comparison = Comparison({"≤": "<=", "≥": ">="}.get(symbol, symbol))
        parser.pos += len(symbol)
        target_at = parser.pos
        if parser.pos >= end:
            raise parser.fail("the comparison has no target")
        target = parser.expression()
        if has_dice(target):
            raise parser.fail("a target cannot contain dice", target_at)
    if parser.pos < end:
        if parser.peek_comparison() and comparison:
            raise parser.fail("only one comparison is allowed")
        raise parser.fail(f"unexpected {text[parser.pos]!r}")
    if not has_dice(expr):
        raise DiceSyntaxError(text, start + secret, "the expression rolls no dice")
    return DiceCommand(expr, comparison, target, secret, comment)
