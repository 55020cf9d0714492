"""Where dice values come from: the DiceSource port and its pure implementations.

A roller never makes up numbers itself; it asks a source. The camera source lives
in ``companion.hw.dice``; the sources here need no hardware.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import Protocol, runtime_checkable

from companion.dice.randomizer import Randomizer, seeded
from companion.errors import CompanionError, DeviceError


class DiceSource(Protocol):
    """Gives the faces of ``count`` dice of ``sides`` sides, one int in 1..sides each.

    Implementations must return exactly ``count`` values. A source that cannot
    (a camera that is unsure, a player who gave up) raises a CompanionError
    instead of guessing.

    ``purpose`` says what the roll is for, in a few words a player can read beside the dice
    (``to hit 命中``, ``damage ダメージ with 小刀/Knife 2D6-4``); "" when the caller did not say.
    It never changes the values: a source that asks a player (typed dice, a camera's
    prompt) shows it, the others pass it on or leave it.
    """

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]: ...


@runtime_checkable
class ReadsD66(Protocol):
    """A source with its own way of reading a D66's two D6 (typed dice take ``35`` as 3 and
    5, the way a D66 is read); any other source is asked for two D6 (review59b F1)."""

    def roll_d66(self, *, purpose: str = "") -> list[int]: ...


class SimulatedDice:
    """Dice thrown by an injected randomizer; the same seed gives the same throws."""

    def __init__(self, randomizer: Randomizer) -> None:
        self._random = randomizer

    @classmethod
    def seeded(cls, seed: int) -> SimulatedDice:
        return cls(seeded(seed))

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        return [self._random.randrange(sides) + 1 for _ in range(count)]


class ManualDice:
    """Real dice the player throws and types in, one prompt per roll.

    ``ask(prompt)`` returns the typed line (``input`` at a terminal). Values may be
    separated by spaces or commas, or typed over several lines, one die at a time: a line
    with fewer values than the roll needs is kept and the rest is asked for, while a line
    with all of them is the whole roll, typed afresh. A line that does not fit is asked
    for again with the reason, and what was kept stays, so a typo never loses the roll. On
    percentile and ten-sided dice a typed ``0``/``00`` reads as the top face (spec §0.2:
    "00" counts as 100). The prompt names the roll's purpose when the caller gave one.

    A D66 (:meth:`roll_d66`) takes a word of two digits as its two dice: ``12`` is 1 and 2,
    as a D66 is read. No other roll does: ``11`` typed for a 2D6 may be its total (5 and 6)
    as well as 1 and 1, so it is refused, and the player told to type each die (review59b
    F1). A D3 or D2, a die few players own, may be a D6 read as coc's camera reads it (1-2 →
    1, 3-4 → 2, 5-6 → 3 for a D3): the player types the reading, never the D6's face, as the
    prompt says; a D6's 4 to 6 typed for a D3 is refused with the reading. Taking the face
    instead would misread a real D3's 2, and a face of 1 to 3 cannot say which die it came
    from (review59b F5).
    """

    def __init__(self, ask: Callable[[str], str]) -> None:
        self._ask = ask

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        return self._typed(count, sides, purpose, digits=False)

    def roll_d66(self, *, purpose: str = "") -> list[int]:
        """A D66's two D6, typed apart or as the D66's two digits (``35``: 3 and 5)."""
        return self._typed(2, 6, purpose, digits=True)

    def _typed(self, count: int, sides: int, purpose: str, digits: bool) -> list[int]:
        what = "the value" if count == 1 else f"the {count} values"
        why = f" for {purpose}" if purpose else ""
        how = " (for the D66, 35 is 3 and 5)" if digits else _from_a_d6(sides)
        prompt = f"Roll {count}D{sides}{why} and type {what}{how} 出目を入力: "
        taken: list[int] = []
        while True:
            try:
                line = self._ask(prompt)
            except EOFError as exc:
                raise DiceInputEnded(_ended(count, sides, purpose, taken)) from exc
            problem, values = _read_values(line, sides, count, digits)
            if not problem and len(values) == count:  # the whole roll, even after part of it
                return values
            if not problem and len(taken) + len(values) > count:
                left = f"{count - len(taken)} more" if taken else str(count)
                problem = (f"got {len(values)} {_plural(len(values), 'value')}, need {left} "
                           "多すぎます")
            if not problem:
                taken += values
                if len(taken) == count:
                    return taken
            prompt = _asked_again(problem, taken, count, sides, purpose)


def _ended(count: int, sides: int, purpose: str, taken: list[int]) -> str:
    """Why the roll stopped when the input ended (Ctrl-D, a file of answers run out):
    whose roll was awaited, the part of it typed, and that nothing was saved. A command
    asks every die before it saves (an event's walk, a fight's action), so dice typed for
    earlier rolls of the same command are dropped too (cli59 F9)."""
    dice = f"{count}D{sides}"
    # A purpose may name its dice already ("damage 1D6"): said once (fixt65c).
    whose = (purpose if dice in purpose else f"{purpose} ({dice})") if purpose else f"the {dice}"
    kept = f" ({' '.join(map(str, taken))} typed of it)" if taken else ""
    return (f"the input ended before {whose} was typed{kept}: nothing was saved, and any dice "
            "typed before it are dropped; run the command again")


#: How a D6 reads as a die of fewer sides (coc's camera reads them so).
D6_READS = {2: "1-3 → 1, 4-6 → 2", 3: "1-2 → 1, 3-4 → 2, 5-6 → 3"}


def from_a_d6(sides: int) -> str:
    """For a D3 or D2: that a D6 will do, typed as what it reads as (never its face), and
    how it reads; "" for any other die. Typed dice and the tray's keypad say it alike, in
    few words: the keypad's prompt has two rows for it (review59c)."""
    if sides not in D6_READS:
        return ""
    return f"no D{sides}? type a D6 as {D6_READS[sides]}"


def _from_a_d6(sides: int) -> str:
    said = from_a_d6(sides)
    return f" ({said})" if said else ""


def _two_faces(sides: int) -> str:
    """Two faces typed apart, against their total and their digits run together, as a die
    of ``sides`` can show them (review59c: a D3 was shown 3 5)."""
    low, high = (3, 5) if sides >= 5 else (sides - 1, sides)
    return f"{low} {high}, not their total {low + high} nor {low}{high}"


def _asked_again(problem: str, taken: list[int], count: int, sides: int,
                 purpose: str = "") -> str:
    """The prompt after a line: why it was refused (if it was), the values kept so far, how
    many more the roll needs and, as the first prompt said, what for: in a chain of rolls
    (a trap's damage after its disarm) the prompt after a typo named none (dice62 N2)."""
    said = f"{problem}; " if problem else ""
    why = f", for {purpose}" if purpose else ""
    if not taken:
        return f"{said}type {count} {_plural(count, 'value')} for {count}D{sides}{why} 出目を入力: "
    left = count - len(taken)
    return (f"{said}{' '.join(map(str, taken))} so far 入力済; type {left} more "
            f"{_plural(left, 'value')} for {count}D{sides}{why} 出目を入力: ")


#: Dice whose faces show a 0, which is their top face: a D10's 0 is 10, percentile dice's
#: 00 is 100 (spec §0.2).
ZERO_FACE_SIDES = (10, 100)


def zero_is_top(sides: int) -> bool:
    """Whether a typed 0 (or 00) is the top face of a die of ``sides``: only on one that
    shows a 0 (:data:`ZERO_FACE_SIDES`). A D20 or D12 has no 0: a 00 typed for one is a
    slip (a 10 or 20 mistyped), and read as 20 it would be a D20's best face, a critical
    in many rules, never thrown. Typed dice and the table's keypad refuse it alike
    (dice62 N4)."""
    return sides in ZERO_FACE_SIDES


class DiceInputEnded(CompanionError, EOFError):
    """The player closed the input before typing the dice."""


def _plural(count: int, word: str) -> str:
    return word if count == 1 else f"{word}s"


def _read_values(line: str, sides: int, count: int = 1,
                 digits: bool = False) -> tuple[str, list[int]]:
    """The values one line holds for ``count`` dice, or why it cannot be taken (a word that
    is no number, a value no face shows). ``digits`` (a D66): a word of digits each on the
    die is one die a digit (``12``: 1 and 2)."""
    # Full-width digits and spaces, as a Japanese input method types them, are digits and
    # spaces (docs/dice-notation.md: any character may be typed full-width).
    line = unicodedata.normalize("NFKC", line)
    words = [w for w in re.split(r"[\s,、，]+", line.strip()) if w]
    values: list[int] = []
    for word in words:
        # A minus typed (-3, or NFKC's − read as U+2212) is a number, on no face: said so,
        # not "is not a number" (events74 NIT 6).
        if re.fullmatch(r"[-\u2212][0-9]+", word):
            return f"{word} is not on a D{sides}: no die shows a negative その目はありません", []
        if not word.isdigit() or not word.isascii():
            return f"{word!r} is not a number 数字ではありません", []
        if digits and len(word) > 1 and all(1 <= int(digit) <= sides for digit in word):
            values += map(int, word)
            continue
        value = int(word)
        if value == 0 and zero_is_top(sides):
            value = sides
        if not 1 <= value <= sides:
            as_d6 = (f": a D6 is typed as what it reads as, {D6_READS[sides]} (its {value}: "
                     f"{-(-value * sides // 6)})" if sides in D6_READS and value <= 6 else "")
            each = (f": type each die on its own, a space between ({_two_faces(sides)})"
                    if count > 1 and len(word) > 1 and not (as_d6 or digits) else "")
            return f"{value} is not on a D{sides} その目はありません{as_d6}{each}", []
        values.append(value)
    if not values:
        return "no value typed 未入力", []
    return "", values


class ScriptedDice:
    """Replays scripted ``(sides, value)`` pairs in order, the BCDice test pattern.

    Each die asked for must match the next pair's sides, so a test also checks
    which dice the rules asked for and in what order.
    """

    def __init__(self, rands: Iterable[tuple[int, int]]) -> None:
        self._rands = list(rands)
        self._next = 0

    @property
    def remaining(self) -> list[tuple[int, int]]:
        """Pairs not yet used; a finished test expects none."""
        return self._rands[self._next:]

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        values = []
        for _ in range(count):
            if self._next >= len(self._rands):
                raise ScriptExhausted(f"the script has no die left for a D{sides}")
            want_sides, value = self._rands[self._next]
            if want_sides != sides:
                raise ScriptExhausted(
                    f"die {self._next + 1} of the script is a D{want_sides}, "
                    f"but a D{sides} was rolled"
                )
            self._next += 1
            values.append(value)
        return values


class ScriptExhausted(CompanionError, LookupError):
    """A scripted source was asked for a die it does not have."""


def checked_roll(source: DiceSource, count: int, sides: int, *, purpose: str = "") -> list[int]:
    """Ask ``source`` for dice (for ``purpose``) and refuse values that cannot be on such
    dice."""
    return _checked(list(source.roll(count, sides, purpose=purpose)), count, sides)


def checked_d66(source: DiceSource, *, purpose: str = "") -> list[int]:
    """A D66's two D6 from ``source``, read its own way when it has one (:class:`ReadsD66`),
    else as any two D6; values no D6 shows are refused."""
    values = (source.roll_d66(purpose=purpose) if isinstance(source, ReadsD66)
              else source.roll(2, 6, purpose=purpose))
    return _checked(list(values), 2, 6)


def _checked(values: list[int], count: int, sides: int) -> list[int]:
    if len(values) != count or any(not 1 <= v <= sides for v in values):
        raise DeviceError(f"the dice source gave {values} for {count}D{sides}")
    return values
