"""Dice notation in the BCDice convention (spec §0.2): parse text into a command.

The commands of BCDice's base system (its ``DiceBot``) are accepted, case-insensitive,
full-width characters allowed (``２Ｄ６＋３``); ``docs/dice-notation.md`` is the reference:

- sums: ``NdX``, ``D20`` (one die), ``2D`` (six-sided, as seeds 001 and 002 write),
  ``(2+3)D6`` (a worked-out count), ``NdXKHn``/``KL``/``DH``/``DL``/``MAX``/``MIN``
  (keep or drop dice), ``ND66`` (D66 dice added up), ``1/2D`` (half a D6, EV-CORE-4),
  whole numbers, ``+ - * /`` and brackets; a division may end in ``U``/``C`` (round up),
  ``R`` (round half away from zero) or ``F`` (round down), else the default applies (§0.3);
  one comparison (``<= >= < > = <>``, also ``=< => == !=``) against a target with no dice;
- ``D66``, ``D66S``/``D66A`` (sorted), ``D66D`` (sorted high first), ``D66N`` (as thrown);
- ``3B6``, ``2B6+4B10>=4``: a pool of dice listed one by one, counting successes;
- ``choice[a,b,c]``, ``choice(a,b,c)``, ``choice a b c``: pick one item; ``choice[1-6]``,
  ``choice[A-D]``: one of a range; ``choice2[a,b,c]``: two items, none twice;
- ``C(10+5*2)``: the calculator;
- ``x3 2D6``, ``rep3 2D6``, ``repeat3 2D6``: the same command several times;
- a leading ``S`` for a secret roll; text after the first space (a tab, a full-width space,
  any white space) is a comment.

``str()`` gives the normalised notation back and ``repr`` is the parse call:

>>> parse("s2d6+3>=10 attack")
parse('S2D6+3>=10 attack')
>>> str(parse("（１Ｄ６）／２"))
'(1D6)/2'
>>> str(parse("(2+3)d6--1"))
'5D6+1'
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise

from companion.errors import InvalidNotation

MAX_DICE = 200  # BCDice's UPPER_LIMIT_DICE_TIMES
MAX_SIDES = 10_000  # at least BCDice's (1,000 in the sources read; see docs/dice-notation.md)
MAX_NESTING = 20
MAX_REPEAT = 100  # BCDice's Repeat::REPEAT_LIMIT
MAX_CHOICE_ITEMS = 100  # BCDice's Choice: 項目数は100以下としてください
# BCDice sets no limit on the two below. They keep a result within the 4,300 digits Python
# turns into text (101 numbers of 30 digits multiplied make at most 3,030) and the parse
# tree within Python's recursion limit (a Python traceback, not a refusal, otherwise).
MAX_DIGITS = 30  # in one number
MAX_OPERATIONS = 100  # + - * / in one command
D66_SIDES = 66  # ``ND66`` is N D66 dice, never a 66-sided die (BCDice)

# Characters NFKC leaves alone but players type in Japanese text. The katakana long mark
# ー is what a Japanese input method often gives for a minus; in the command's arithmetic
# it can mean nothing else. Choice items and comments are cut from the text as typed, so
# the ー of カレー stays a long mark there (_choice_range reads a lone item's as a minus).
_EXTRA_FOLDS = {"−": "-", "ー": "-", "×": "*", "÷": "/", "≦": "≤", "≧": "≥"}
# Dashes are not minus signs: BCDice refuses them, and in typeset text, where they come
# from (a key gives -, or an input method's ー), one is as often a range (1–6) or sets off
# a comment as it is a minus. Refused, with what to type (dice62 N6).
_DASHES = frozenset("‐‑‒–—―")
_DASH_SAID = " (a dash; type - for a minus)"
_REPEAT = re.compile(r"(REPEAT|REP|X)(\d*)")
_D66 = re.compile(r"D66([ASDN]?)")


class DiceSyntaxError(InvalidNotation):
    """Dice text that does not parse; the message shows the text with a caret under the fault."""

    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        caret = " " * display_width(text[:position]) + "^"
        where = f"at\xa0character\xa0{position + 1}:"  # kept whole on its line
        said = "\n  ".join(textwrap.wrap(f"{reason} {where}", LINE_WIDTH,
                                         initial_indent=" " * len(ERROR_PREFIX),
                                         break_long_words=False, break_on_hyphens=False))
        super().__init__(f"{said.lstrip()}\n  {_one_line(text)}\n  {caret}".replace("\xa0", " "))


#: A terminal's width, and what the command line's error line starts with: the reason and
#: where fit that line, as the --help texts do, or go on below (dice62 N1).
LINE_WIDTH = 78
ERROR_PREFIX = "companion: error: "


def _one_line(text: str) -> str:
    """``text`` with a tab or line break shown as a space: a terminal would move the rest of
    the line (a tab to the next stop) and the caret would miss the fault."""
    return "".join(" " if c.isspace() and display_width(c) == 1 else c for c in text)


def display_width(text: str) -> int:
    """Columns the text takes in a terminal, so the caret lines up under full-width input."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


class Rounding(Enum):
    """How a division result becomes a whole number; the value is the suffix BCDice writes.

    ``UP``/``DOWN`` are BCDice's ``U``/``F``: toward +∞ and −∞. ``TOWARD_ZERO`` is
    the spec's §0.3 Default for a plain ``/`` (BCDice's own plain ``/`` rounds down).
    """

    DOWN = "F"
    UP = "U"
    NEAREST = "R"  # halves away from zero, as Ruby's Float#round
    TOWARD_ZERO = ""

    def divide(self, numerator: int, denominator: int) -> int:
        """Divide whole numbers and round the quotient this way.

        >>> [r.divide(-4, 3) for r in Rounding]
        [-2, -1, -1, -1]
        >>> [r.divide(5, 2) for r in Rounding]
        [2, 3, 3, 2]
        """
        if denominator == 0:
            raise ZeroDivisionError("division by zero")
        if self is Rounding.UP:
            return -(-numerator // denominator)
        if self is Rounding.DOWN:
            return numerator // denominator
        sign = -1 if (numerator < 0) != (denominator < 0) else 1
        quotient, remainder = divmod(abs(numerator), abs(denominator))
        if self is Rounding.NEAREST and 2 * remainder >= abs(denominator):
            quotient += 1
        return sign * quotient


class Comparison(Enum):
    """The comparisons BCDice accepts between a total and a target; the value is as shown."""

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


# Every spelling BCDice's Normalize.comparison_operator folds, plus the Japanese signs.
_COMPARISONS = {
    "<=": Comparison.LE, "=<": Comparison.LE, "≤": Comparison.LE,
    ">=": Comparison.GE, "=>": Comparison.GE, "≥": Comparison.GE,
    "<>": Comparison.NE, "!=": Comparison.NE, "=!": Comparison.NE, "≠": Comparison.NE,
    "<": Comparison.LT, ">": Comparison.GT, "=": Comparison.EQ, "==": Comparison.EQ,
}
_COMPARISON_CHARS = "<>=!≤≥≠"


class KeepKind(Enum):
    """Which dice of a roll count toward its sum; ``MAX``/``MIN`` are ``KH1``/``KL1``."""

    KEEP_HIGHEST = "KH"
    KEEP_LOWEST = "KL"
    DROP_HIGHEST = "DH"
    DROP_LOWEST = "DL"

    def select(self, values: list[int], n: int) -> list[int]:
        """The faces that are added up, from ``values`` sorted low to high."""
        ordered = sorted(values)
        if self is KeepKind.KEEP_HIGHEST:
            return ordered[max(len(ordered) - n, 0):] if n else []
        if self is KeepKind.KEEP_LOWEST:
            return ordered[:n]
        if self is KeepKind.DROP_HIGHEST:
            return ordered[:max(len(ordered) - n, 0)]
        return ordered[n:]


@dataclass(frozen=True, slots=True)
class Keep:
    """``KH3``: which dice count (``kind``) and how many (``count``, 0 or more)."""

    kind: KeepKind
    count: int

    def __str__(self) -> str:
        return f"{self.kind.value}{self.count}"


@dataclass(frozen=True, slots=True)
class Number:
    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Dice:
    """``NdX``: roll ``count`` dice of ``sides`` sides and add them (the kept ones, if ``keep``).

    Sides of 66 are D66 dice (two D6 read as tens and units), as in BCDice.
    """

    count: int
    sides: int
    keep: Keep | None = None

    def __str__(self) -> str:
        return f"{self.count}D{self.sides}{self.keep or ''}"


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
    """``left op right``; ``rounding`` is set only when a division carried U, C, R or F."""

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


def evaluate(node: Node, division: Rounding = Rounding.TOWARD_ZERO) -> int:
    """The value of arithmetic without dice; a plain ``/`` rounds as ``division`` says."""
    match node:
        case Number(value):
            return value
        case Negate(operand):
            return -evaluate(operand, division)
        case Group(inner):
            return evaluate(inner, division)
        case BinaryOp(op, left, right, rounding):
            a, b = evaluate(left, division), evaluate(right, division)
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            return (rounding or division).divide(a, b)
    raise TypeError(f"{node!r} rolls dice and has no value before it is rolled")


def _always_zero(node: Node) -> bool:
    """Whether arithmetic without dice is 0, or divides by zero itself, however a plain
    ``/`` in it rounds: a system may choose that rounding (``RollOptions.division``), and
    ``1/2`` is 0 rounded toward zero but 1 rounded up, so only a divisor that is zero under
    every rounding can be refused before the roll."""
    for rounding in Rounding:
        try:
            if evaluate(node, rounding) != 0:
                return False
        except ZeroDivisionError:
            pass
    return True


class _Written:
    """A command written back as typed: ``S`` when secret, its formula, its comment; its
    ``repr`` is the parse call that makes it."""

    __slots__ = ()
    secret: bool
    comment: str

    @property
    def formula(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        secret = "S" if self.secret else ""
        comment = f" {self.comment}" if self.comment else ""
        return f"{secret}{self.formula}{comment}"

    def __repr__(self) -> str:
        return f"parse({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class DiceCommand(_Written):
    """A sum roll: the expression, an optional comparison and target, secret flag, comment."""

    expr: Node
    comparison: Comparison | None = None
    target: Node | None = None
    secret: bool = False
    comment: str = ""

    @property
    def formula(self) -> str:
        """The roll without the S prefix and comment, as typed (normalised): ``2D6+3>=10``."""
        cmp = f"{self.comparison.value}{self.target}" if self.comparison else ""
        return f"{self.expr}{cmp}"


class D66Order(Enum):
    """How the two D6 of a D66 become tens and units."""

    AS_THROWN = "N"
    ASCENDING = "S"
    DESCENDING = "D"

    def arrange(self, first: int, second: int) -> tuple[int, int]:
        if self is D66Order.ASCENDING:
            return min(first, second), max(first, second)
        if self is D66Order.DESCENDING:
            return max(first, second), min(first, second)
        return first, second


class D66Suffix(Enum):
    """The letter after ``D66``; none means the system's Default order (RollOptions)."""

    DEFAULT = ""
    A = "A"
    S = "S"
    D = "D"
    N = "N"

    @property
    def order(self) -> D66Order | None:
        return {
            D66Suffix.DEFAULT: None,
            D66Suffix.A: D66Order.ASCENDING,
            D66Suffix.S: D66Order.ASCENDING,
            D66Suffix.D: D66Order.DESCENDING,
            D66Suffix.N: D66Order.AS_THROWN,
        }[self]


@dataclass(frozen=True, slots=True, repr=False)
class D66Command(_Written):
    """``D66``: two D6 read as tens and units, 11–66 (the key of most Japanese tables)."""

    suffix: D66Suffix = D66Suffix.DEFAULT
    secret: bool = False
    comment: str = ""

    @property
    def formula(self) -> str:
        return f"D66{self.suffix.value}"


@dataclass(frozen=True, slots=True)
class Pool:
    """``NBX``: ``count`` dice of ``sides`` sides, listed one by one (BCDice バラバラロール)."""

    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}B{self.sides}"


@dataclass(frozen=True, slots=True, repr=False)
class PoolCommand(_Written):
    """``3B6>=4``: roll the pools, list every die, and count the dice that meet the target."""

    pools: tuple[Pool, ...]
    comparison: Comparison | None = None
    target: Node | None = None
    secret: bool = False
    comment: str = ""

    @property
    def formula(self) -> str:
        cmp = f"{self.comparison.value}{self.target}" if self.comparison else ""
        return "+".join(map(str, self.pools)) + cmp


class ChoiceStyle(Enum):
    """How the items of a choice were written; the value opens the list."""

    BRACKET = "["
    PAREN = "("
    SPACE = " "

    @property
    def close(self) -> str:
        return {ChoiceStyle.BRACKET: "]", ChoiceStyle.PAREN: ")", ChoiceStyle.SPACE: ""}[self]


@dataclass(frozen=True, slots=True, repr=False)
class ChoiceCommand(_Written):
    """``choice[a,b,c]``: pick one item with a die of as many sides as there are items;
    ``choice2[a,b,c]`` picks ``takes`` items, none twice (BCDice since its PR #490).

    ``items`` are the items after a range is written out (``choice[1-3]`` has 1, 2, 3),
    and the formula lists them so, as BCDice shows ``(choice[1,2,3])``. A range of one
    item (``choice[3-3]``) is shown as ``choice[3-3]``, so that the formula reads back as
    the same command (BCDice shows ``choice[3]``, which it would not take as typed).
    """

    items: tuple[str, ...]
    style: ChoiceStyle = ChoiceStyle.BRACKET
    secret: bool = False
    comment: str = ""
    takes: int = 1

    @property
    def formula(self) -> str:
        joiner = " " if self.style is ChoiceStyle.SPACE else ","
        items = self.items if len(self.items) > 1 else (f"{self.items[0]}-{self.items[0]}",)
        takes = self.takes if self.takes > 1 else ""
        return f"choice{takes}{self.style.value}{joiner.join(items)}{self.style.close}"

    @property
    def separator(self) -> str:
        """Between the items picked, as BCDice writes them: ``a, b`` or ``a b``."""
        return " " if self.style is ChoiceStyle.SPACE else ", "


@dataclass(frozen=True, slots=True, repr=False)
class CalcCommand(_Written):
    """``C(10+5*2)``: work out arithmetic without dice."""

    expr: Node
    secret: bool = False
    comment: str = ""

    @property
    def formula(self) -> str:
        return f"C{self.expr}"


SingleCommand = DiceCommand | D66Command | PoolCommand | ChoiceCommand | CalcCommand


class RepeatKeyword(Enum):
    """The three spellings of BCDice's repeat, kept so ``str()`` gives back what was typed."""

    X = "x"
    REP = "rep"
    REPEAT = "repeat"


@dataclass(frozen=True, slots=True)
class RepeatCommand:
    """``x3 2D6``: the same command ``times`` times, each roll independent of the others."""

    times: int
    command: SingleCommand
    keyword: RepeatKeyword = RepeatKeyword.X
    secret: bool = False

    @property
    def formula(self) -> str:
        return f"{self.keyword.value}{self.times} {self.command.formula}"

    def __str__(self) -> str:
        secret = "S" if self.secret else ""
        return f"{secret}{self.keyword.value}{self.times} {self.command}"

    def __repr__(self) -> str:
        return f"parse({str(self)!r})"


Command = SingleCommand | RepeatCommand


def _fold(text: str) -> str:
    """Fold full-width and look-alike characters one for one, so positions stay valid.

    A character whose NFKC form or upper case is longer than one character (``ﬁ``, and
    ``ß``, whose upper case is ``SS``) is kept as typed: a choice's items are cut from the
    text as typed at positions found in the folded text.

    >>> _fold("ｃｈｏｉｃｅ[Straße,ﬁx]")
    'CHOICE[STRAßE,ﬁX]'
    """
    out = []
    for char in text:
        if char.isspace():
            # A tab or a line break ends the command as a space does (the comment follows).
            out.append(" ")
            continue
        folded = unicodedata.normalize("NFKC", char)
        if len(folded) != 1:
            out.append(char)
            continue
        # After NFKC, so that the half-width ｰ (NFKC: ー) is folded too.
        folded = _EXTRA_FOLDS.get(folded, folded)
        upper = folded.upper()
        out.append(upper if len(upper) == 1 else folded)
    return "".join(out)


def _is_digit(char: str) -> bool:
    return char.isdigit() and char.isascii()


class _Parser:
    """Recursive descent over the folded text; errors point into the original text."""

    def __init__(self, original: str, folded: str, start: int, end: int) -> None:
        self.original = original
        self.text = folded
        self.pos = start
        self.end = end
        self.nesting = 0
        self.operations = 0

    def operation(self) -> None:
        """Count one ``+ - * /`` (the parser stands on it) against MAX_OPERATIONS."""
        self.operations += 1
        if self.operations > MAX_OPERATIONS:
            raise self.fail(f"more than {MAX_OPERATIONS} operations (+ - * /) in one command")

    def fail(self, reason: str, position: int | None = None) -> DiceSyntaxError:
        return DiceSyntaxError(self.original, self.pos if position is None else position, reason)

    def peek(self, ahead: int = 0) -> str:
        index = self.pos + ahead
        return self.text[index] if index < self.end else ""

    def at(self, word: str) -> bool:
        return self.text.startswith(word, self.pos, self.end)

    def number(self) -> tuple[int, int]:
        start = self.pos
        while _is_digit(self.peek()):
            self.pos += 1
        if self.pos == start:
            raise self.fail("expected a number")
        if self.pos - start > MAX_DIGITS:
            raise self.fail(f"a number may have at most {MAX_DIGITS} digits", start)
        return int(self.text[start:self.pos]), start

    def unexpected(self) -> DiceSyntaxError:
        if self.pos >= self.end:
            return self.fail("the expression ends too early")
        char = self.original[self.pos]
        return self.fail(f"unexpected {char!r}{_DASH_SAID if char in _DASHES else ''}")

    # --- arithmetic and dice -------------------------------------------------------

    def expression(self) -> Node:
        node = self.term()
        while self.peek() in ("+", "-"):
            op = self.peek()
            self.operation()
            self.pos += 1
            right = self.term()
            if isinstance(right, Negate):
                # BCDice writes "2d10--3" as "2D10+3": a negative right side flips the sign.
                op, right = ("-" if op == "+" else "+"), right.operand
            node = BinaryOp(op, node, right)
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.peek() and self.peek() in "*/":
            op = self.peek()
            self.operation()
            self.pos += 1
            right_at = self.pos
            right = self.unary()
            rounding = None
            if op == "/":
                if not has_dice(right) and _always_zero(right):
                    # Refused now, before the player throws: at the roll it would cost a throw.
                    raise self.fail("division by zero", right_at)
                if self.peek() and self.peek() in "UCRF":
                    rounding = Rounding.UP if self.peek() == "C" else Rounding(self.peek())
                    self.pos += 1
            node = BinaryOp(op, node, right, rounding)
        return node

    def unary(self) -> Node:
        """Signs before a term, any number of them (a loop: a chain of a thousand is no
        recursion); an even number of minuses cancel, as BCDice's ``--1`` is ``1``."""
        negative = False
        while self.peek() in ("-", "+"):
            negative ^= self.peek() == "-"
            self.pos += 1
        operand = self.dice()
        return Negate(operand) if negative else operand

    def dice(self) -> Node:
        start = self.pos
        if self.peek() == "D":
            if self.at("D66") and not _is_digit(self.peek(3)):
                raise self.fail("D66 is a command of its own; write 1D66 to add it up")
            self.pos += 1
            if not (_is_digit(self.peek()) or self.peek() == "("):
                raise self.fail("write the sides after D, or how many dice before it: 1D6", start)
            return self.dice_rest(1, start)
        if _is_digit(self.peek()) and self.at("1/2D") and not _is_digit(self.peek(4)):
            self.pos += 4
            return HalfDie()
        count_node = self.primary()
        if self.peek() != "D":
            return count_node
        count = self.constant(count_node, start, "the number of dice")
        if not 1 <= count <= MAX_DICE:
            raise self.fail(f"the number of dice must be from 1 to {MAX_DICE}", start)
        self.pos += 1
        return self.dice_rest(count, start)

    def dice_rest(self, count: int, start: int) -> Dice:
        """Sides (six if none are written, as seeds 001 and 002 write ``2D``) and a filter."""
        sides = 6
        if _is_digit(self.peek()) or self.peek() == "(":
            sides_at = self.pos
            sides = self.constant(self.primary(), sides_at, "the sides")
            if not 1 <= sides <= MAX_SIDES:
                raise self.fail(f"a die must have 1 to {MAX_SIDES:,} sides", sides_at)
        return Dice(count, sides, self.keep())

    def keep(self) -> Keep | None:
        if self.at("MAX") or self.at("MIN"):
            kind = KeepKind.KEEP_HIGHEST if self.at("MAX") else KeepKind.KEEP_LOWEST
            self.pos += 3
            return Keep(kind, 1)
        pair = self.text[self.pos:self.pos + 2] if self.pos + 2 <= self.end else ""
        if pair not in {k.value for k in KeepKind}:
            return None
        self.pos += 2
        n = 1
        if _is_digit(self.peek()) or self.peek() == "(":
            n_at = self.pos
            n = self.constant(self.primary(), n_at, f"the number after {pair}")
            if not 0 <= n <= MAX_DICE:
                raise self.fail(f"{pair} takes 0 to {MAX_DICE} dice", n_at)
        return Keep(KeepKind(pair), n)

    def constant(self, node: Node, at: int, what: str) -> int:
        """Work out a count or sides now, so the formula shows it as BCDice does: ``5D6``."""
        if has_dice(node):
            raise self.fail(f"{what} cannot contain dice", at)
        try:
            return evaluate(node)
        except ZeroDivisionError:
            raise self.fail("division by zero", at) from None

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
        if _is_digit(char):
            value, _ = self.number()
            return Number(value)
        raise self.unexpected()

    # --- comparisons -----------------------------------------------------------------

    def comparison(self) -> Comparison | None:
        start = self.pos
        while self.peek() and self.peek() in _COMPARISON_CHARS:
            self.pos += 1
        symbol = self.text[start:self.pos]
        if not symbol:
            return None
        if symbol not in _COMPARISONS:
            raise self.fail(f"{self.original[start:self.pos]!r} is not a comparison", start)
        return _COMPARISONS[symbol]

    def target(self) -> Node:
        if self.pos >= self.end:
            raise self.fail("the comparison has no target")
        target_at = self.pos
        target = self.expression()
        if has_dice(target):
            raise self.fail("a target cannot contain dice", target_at)
        return target

    def finish(self, has_comparison: bool) -> None:
        if self.pos < self.end:
            if has_comparison and self.peek() in _COMPARISON_CHARS:
                raise self.fail("only one comparison is allowed")
            raise self.unexpected()

    # --- pools (B) -------------------------------------------------------------------

    def starts_pool(self) -> bool:
        """Whether the command is ``NBX...``: a count, then ``B``."""
        save = self.pos, self.nesting, self.operations
        try:
            self.pool_number("the number of dice")
            return self.peek() == "B"
        except DiceSyntaxError:
            return False
        finally:
            self.pos, self.nesting, self.operations = save

    def pool_number(self, what: str) -> int:
        at = self.pos
        if not (_is_digit(self.peek()) or self.peek() == "("):
            raise self.unexpected()
        return self.constant(self.primary(), at, what)

    def pool(self) -> Pool:
        start = self.pos
        count = self.pool_number("the number of dice")
        if not 1 <= count <= MAX_DICE:
            raise self.fail(f"the number of dice must be from 1 to {MAX_DICE}", start)
        if self.peek() != "B":
            raise self.fail("every part of a B roll is a pool such as 3B6")
        self.pos += 1
        sides_at = self.pos
        sides = self.pool_number("the sides")
        if not 1 <= sides <= MAX_SIDES:
            raise self.fail(f"a die must have 1 to {MAX_SIDES:,} sides", sides_at)
        return Pool(count, sides)


def _command_end(folded: str, start: int) -> int:
    """Where the command part ends: the first space, which ``_fold`` made of any white
    space (BCDice: the rest is a comment)."""
    end = folded.find(" ", start)
    return len(folded) if end < 0 else end


def parse(text: str) -> Command:
    """Parse one dice command; raise :class:`DiceSyntaxError` pointing at the fault."""
    folded = _fold(text)
    start = len(folded) - len(folded.lstrip())
    if start == len(folded):
        raise DiceSyntaxError(text, start, "no dice expression given")
    return _parse_at(text, folded, start, allow_repeat=True)


def _parse_at(text: str, folded: str, start: int, *, allow_repeat: bool) -> Command:
    secret = folded[start] == "S"
    at = start + secret
    repeat = _REPEAT.match(folded, at)
    if repeat and (repeat.group(1) != "X" or repeat.group(2)):
        if not allow_repeat:
            raise DiceSyntaxError(text, at, "a repeat cannot repeat another repeat")
        return _parse_repeat(text, folded, at, repeat, secret)
    if folded.startswith("CHOICE", at):
        return _parse_choice(text, folded, at + len("CHOICE"), secret)
    end = _command_end(folded, at)
    comment = text[end:].strip()
    parser = _Parser(text, folded, at, end)
    if at >= end:
        raise parser.unexpected()
    if folded[at] == "C":
        parser.pos += 1
        expr_at = parser.pos
        expr = parser.expression()
        parser.finish(False)
        if has_dice(expr):
            raise DiceSyntaxError(text, expr_at, "the calculator C(...) takes no dice")
        return CalcCommand(expr, secret, comment)
    d66 = _D66.fullmatch(folded, at, end)
    if d66:
        return D66Command(D66Suffix(d66.group(1)), secret, comment)
    d66 = _D66.match(folded, at, end)
    if d66 and d66.end() < end and folded[d66.end()].isalpha():
        # D66X, D66SS: a letter no D66 takes, named (it read "write 1D66 to add it up").
        raise DiceSyntaxError(text, d66.end(), f"unexpected {text[d66.end()]!r}: D66 takes "
                                               "one letter after it, S, A, D or N")
    if parser.starts_pool():
        pools = [parser.pool()]
        while parser.peek() == "+":
            parser.pos += 1
            pools.append(parser.pool())
        comparison = parser.comparison()
        target = parser.target() if comparison else None
        parser.finish(comparison is not None)
        return PoolCommand(tuple(pools), comparison, target, secret, comment)
    expr = parser.expression()
    comparison = parser.comparison()
    target = parser.target() if comparison else None
    parser.finish(comparison is not None)
    if not has_dice(expr):
        ended = (f" (a space ends the command: {comment.split()[0]!r} after it is a "
                 "comment)" if comment else "")  # `2 D6` (dice62 N3)
        raise DiceSyntaxError(text, at, f"the expression rolls no dice{ended}")
    return DiceCommand(expr, comparison, target, secret, comment)


def _parse_repeat(
    text: str, folded: str, at: int, match: re.Match[str], secret: bool
) -> RepeatCommand:
    keyword = RepeatKeyword(match.group(1).lower())
    if not match.group(2):
        raise DiceSyntaxError(text, match.end(), f"write how many times after {keyword.value}")
    times = int(match.group(2)) if len(match.group(2)) <= MAX_DIGITS else MAX_REPEAT + 1
    if not 1 <= times <= MAX_REPEAT:
        raise DiceSyntaxError(text, match.start(2), f"repeat 1 to {MAX_REPEAT} times")
    rest = match.end()
    if rest >= len(folded) or folded[rest] != " ":
        raise DiceSyntaxError(text, rest, f"put a space and the command after {keyword.value}N")
    inner_at = len(folded) - len(folded[rest:].lstrip())
    if inner_at == len(folded):
        raise DiceSyntaxError(text, inner_at, "no command to repeat")
    inner = _parse_at(text, folded, inner_at, allow_repeat=False)
    assert not isinstance(inner, RepeatCommand)  # allow_repeat=False refuses them
    return RepeatCommand(times, inner, keyword, secret)


def _parse_choice(text: str, folded: str, at: int, secret: bool) -> ChoiceCommand:
    """BCDice's choice (``common_command/choice.rb``, since its PR #490): ``[a,b]`` and
    ``(a,b)`` split at commas, ``choice a b`` at spaces; ``choice2[a,b,c]`` picks two
    items, none twice; one item written as a range (``1-6``, ``A-D``, ``b-g``) is its
    members. BCDice takes no command with one item that is not a range, a range running
    backwards, more picks than items, or over 100 items; these are refused here."""
    takes_at = at
    while at < len(folded) and _is_digit(folded[at]):
        at += 1
    if at - takes_at > MAX_DIGITS:
        raise DiceSyntaxError(text, takes_at, f"a number may have at most {MAX_DIGITS} digits")
    takes = int(folded[takes_at:at]) if at > takes_at else 1
    if at > takes_at and takes == 0:
        raise DiceSyntaxError(text, takes_at, "choice0 picks nothing: write choice2[a,b,c] "
                                              "to pick two items")
    opener = folded[at] if at < len(folded) else ""
    if opener not in ("[", "(", " "):
        raise DiceSyntaxError(text, at, "write choice[a,b], choice(a,b) or choice a b")
    style = ChoiceStyle(opener)
    comment = ""
    if style is ChoiceStyle.SPACE:
        spans = [m.span() for m in re.finditer(r"\S+", folded[at:])]
        items = [text[at + a:at + b] for a, b in spans]
    else:
        close = folded.find(style.close, at + 1)
        if close < 0:
            raise DiceSyntaxError(text, at, "this bracket is never closed")
        after = close + 1
        if after < len(folded) and folded[after] != " ":
            raise DiceSyntaxError(text, after, f"unexpected {text[after]!r}")
        comment = text[after:].strip()
        cuts = [at] + [i for i in range(at + 1, close) if folded[i] == ","] + [close]
        items = [text[a + 1:b].strip() for a, b in pairwise(cuts)]
        items = [item for item in items if item]
    if not items:
        raise DiceSyntaxError(text, at, "choice needs at least two items, or a range such "
                                        "as 1-6 or A-D")
    if len(items) == 1:
        items = _choice_range(text, max(text.find(items[0], at), at), items[0])
    if len(items) > MAX_CHOICE_ITEMS:
        raise DiceSyntaxError(text, at, f"choice takes at most {MAX_CHOICE_ITEMS} items")
    if takes > len(items):
        raise DiceSyntaxError(text, takes_at, f"choice{takes} picks {takes} items but there "
                                              f"are only {len(items)}")
    return ChoiceCommand(tuple(items), style, secret, comment, takes)


_NUMBER_RANGE = re.compile(r"(\d+)-(\d+)", re.ASCII)
_LETTER_RANGE = re.compile(r"([a-z])-([a-z])|([A-Z])-([A-Z])")


def _choice_range(text: str, at: int, item: str) -> list[str]:
    """The members of a one-item choice (``item``, at ``at`` in ``text``) written as a
    range, as BCDice's ``parse_multi_item_shorthand``: whole numbers ``3-10`` (shown
    without leading zeros) or one letter to one letter of the same case ``b-g``. Typed
    full width (``１-６``, ``Ａ-Ｄ``) it is read the same and its members are shown half
    width."""
    # A lone item must be a range, so its ー (which a Japanese input method gives for a
    # minus) can mean nothing else; among several items it is kept, as in カレー.
    shorthand = unicodedata.normalize("NFKC", item).replace("−", "-").replace("ー", "-")
    if numbers := _NUMBER_RANGE.fullmatch(shorthand):
        first_text, last_text = numbers.groups()
        if max(len(first_text), len(last_text)) > MAX_DIGITS:
            raise DiceSyntaxError(text, at, f"a number may have at most {MAX_DIGITS} digits")
        first, last = int(first_text), int(last_text)
        if first > last:
            raise DiceSyntaxError(text, at, f"the range {item} runs backwards: write "
                                            f"{last}-{first}")
        if last - first + 1 > MAX_CHOICE_ITEMS:
            raise DiceSyntaxError(text, at, f"choice takes at most {MAX_CHOICE_ITEMS} items")
        return [str(n) for n in range(first, last + 1)]
    if letters := _LETTER_RANGE.fullmatch(shorthand):
        first_letter, last_letter = [g for g in letters.groups() if g]
        if first_letter > last_letter:
            raise DiceSyntaxError(text, at, f"the range {item} runs backwards: write "
                                            f"{last_letter}-{first_letter}")
        return [chr(c) for c in range(ord(first_letter), ord(last_letter) + 1)]
    reason = "choice needs at least two items, or a range such as 1-6 or A-D"
    if len(item.split()) > 1:
        reason += "; brackets split at commas only: choice[a,b] or choice a b"
    raise DiceSyntaxError(text, at, reason)
