"""What the camera dice reader makes of a frame: each die found (``DieReading``), the frame
as a whole (``DiceRead``, ``ReadStatus``), and the sentence that tells the player, naming
why and where each doubted die is (``_describe``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

# Why a die is doubted (DieReading.reason); placement.py and reader.py hold the other reasons.
_NOT_READ = "a die could not be read"  # the judge doubts a readable top is there at all
_WHICH_VALUE = "a die's value is unclear"  # a top is there; which of the six is not sure
_TOO_BUSY = "too much in view to judge in time"
# An unsure frame names at most _NAMED of the dice it doubts, each by its third of the view
# across and down (see _describe).
_NAMED = 3
_ROWS = ("top", "", "bottom")
_COLUMNS = ("left", "", "right")


def dice_count(count: int) -> str:
    """``count`` dice in words: "1 die", "2 dice" (the reader's messages reach the player)."""
    return f"{count} {'die' if count == 1 else 'dice'}"


# What the camera's source says while the player's next step is the usual one, in both
# languages as all the screen says: guidance (drawn as the prompt is), not trouble.
MOVING = "the dice are moving: waiting for them to settle 転がり中"
THROW_AGAIN = "throw taken: pick the dice up and throw them again 確定: 拾って振り直し"
#: Said when, after something moved in view, the dice read are the last throw's lying where
#: they lay (source.same_dice): a throw just made that landed so is not taken for a miss of
#: the camera's (reviewdice66 RISK 1).
SAME_DICE = "the same dice as the last throw: throw them again 前と同じダイス: 振り直して"
NO_DICE_SEEN = "no dice in view"  # a frame's read, said as none_in_view while waiting
RE_ROLL = ": please re-roll 読めません: 振り直し"  # how an unsure read ends, for a throw
_WAITING = "waiting for "
_READ = "read "  # a read of every die found, not yet steady (guidance() knows it by this)
_READ_JA = "読み取り "  # beside it, as the read screen's "Read 読み取り 1D6: …" (dice66 NIT 3)


#: Said where every die was found but a value was unclear: dice of their own kind (an
#: emblem on the 1, dark pips), which the enrolment is for, not only the light (a77dice
#: NIT 5; roll and `dice read` too: r77dice). The app names the command as typed here.
TEACH_DICE = "if the light is good, teach the reader your dice: `companion calibrate dice --enrol`"


def teach_dice(read: DiceRead, count: int) -> str:
    """"; " and :data:`TEACH_DICE` when ``read``, of a throw of ``count`` dice, found each
    die and only a value is unclear (:meth:`DiceRead.to_type`); "" otherwise."""
    return f"; {TEACH_DICE}" if read.to_type(count) else ""


def none_in_view(count: int) -> str:
    """Said while no die is in view yet: "waiting for 2 dice, none in view …"."""
    return f"{_WAITING}{dice_count(count)}, none in view ダイス待ち"


#: How :func:`outside_area` starts after the count: what tells its read apart.
_OUTSIDE = " seen outside the dice area 賽の領域の外"


def outside_area(seen: int) -> str:
    """Said instead of "no dice in view" when the mat's dice area reads no dice but the
    whole view reads ``seen`` dice: they are in view, beside the dice area, which alone is
    read when the mat is seen (dicecam75 DEFECT 3: "waiting for 3 dice, none in view" of
    three dice lying plain in the picture)."""
    return (f"{dice_count(seen)}{_OUTSIDE}: move them into the mat's dice area, or throw "
            "them again there")


def is_outside(message: str) -> bool:
    """Whether ``message`` is :func:`outside_area`'s."""
    return _OUTSIDE in message


def too_dark(grey: float, least: float) -> str:
    """Said instead of "no dice in view" when the dice area's paper (its median ``grey``) is
    under the ``least`` grey the camera's check wants: dice there may be unseen, and the fix
    is the light, not the throw (review 56, finding 4)."""
    return (f"no dice seen, but the dice area is too dark to be sure (paper grey {grey:.0f}, "
            f"{least:.0f} or more wanted) 暗すぎます: turn on the lamp or add light")


def other_count_in_view(count: int, seen: int) -> str:
    """Said while the dice read are not as many as thrown, with what to do: "waiting for 1
    die, 2 in view ダイス待ち（2個）: take 1 away 1個どけて" (the last throw's dice still lying
    there), "waiting for 2 dice, 1 in view ダイス待ち（1個）: add 1 もう1個" (dice66 NIT 4: the
    screen said the count, not what to do about it)."""
    said = f"{_WAITING}{dice_count(count)}, {seen} in view ダイス待ち（{seen}個）"
    return said + _to_do(count, seen)


def _to_do(count: int, seen: int) -> str:
    """What :func:`other_count_in_view` tells the player to do: take dice away, or add some."""
    if seen > count:
        return f": take {seen - count} away {seen - count}個どけて"
    return f": add {count - seen} もう{count - seen}個"


def for_a_picture(message: str) -> str:
    """``message`` said of a still picture: without :func:`other_count_in_view`'s take away or
    add, which no file can do (as a picture's unsure read says no "please re-roll")."""
    return re.sub(r": (take \d+ away \d+個どけて|add \d+ もう\d+個)$", "", message)


_OTHER_COUNT = re.compile(r"waiting for (\d+) di(?:e|ce), (\d+) in view ダイス待ち（\d+個）")


def shown_not_asked(message: str) -> str:
    """``message`` (:func:`as_picture`'s) said of a picture read given a count of dice it
    does not show: "the picture shows 2 dice, 3 were asked for ダイス2個（3個指定）", not
    "waiting for 3 dice, 2 in view ダイス待ち（2個）", as nothing waits on a file (dicecam73
    NIT 7: `dice read --count 3`; a roll's refusal of a picture says it so, before the
    read's own words), in both languages as the rest (reviewb73 NIT 4). Any other
    ``message`` is returned as it is."""
    found = _OTHER_COUNT.fullmatch(message)
    if found is None:
        return message
    asked, seen = int(found[1]), int(found[2])
    return (f"the picture shows {dice_count(seen)}, {asked} "
            f"{'was' if asked == 1 else 'were'} asked for ダイス{seen}個（{asked}個指定）")


def as_picture(read: DiceRead) -> str:
    """``read``'s sentence for a still picture: an unsure read says what was seen, not
    "please re-roll", which no file can do (review 56, finding 11: a photo of tiles). Said
    so by `dice read` and by a roll on a picture (dicecam71 NIT 4: `roll --dice camera` on a
    photo of an unclear die said "please re-roll")."""
    if read.status is not ReadStatus.UNSURE or not read.message.endswith(RE_ROLL):
        return for_a_picture(read.message)
    marks = len(read.dice)
    sure = sum(d.value is not None for d in read.dice)
    return (f"{read.message.removesuffix(RE_ROLL)}: {marks} mark{'' if marks == 1 else 's'} "
            f"that may be dice, {sure or 'none'} read surely 読めません")


def guidance(message: str) -> bool:
    """Whether a status the camera's source said is the player's usual next step (the dice
    rolling, none or too few in view yet, read and settling, the last throw still lying
    there, dice thrown beside the dice area: :func:`outside_area`, as common as dice too
    many), not trouble (a die it doubts, no picture)."""
    return (message in (MOVING, THROW_AGAIN, SAME_DICE) or message.startswith((_WAITING, _READ))
            or is_outside(message))


class ReadStatus(Enum):
    """What a frame showed, as a whole."""

    OK = "ok"  # every die found was read
    NO_DICE = "no dice"  # nothing die-like in view
    UNSURE = "unsure"  # something die-like could not be read: re-roll


@dataclass(frozen=True, slots=True)
class DieReading:
    """One die found in a frame: its value (None when unsure) and how sure the reader is."""

    value: int | None
    confidence: float
    centre: tuple[float, float]
    side_px: float
    reason: str = ""
    place: str = ""  # where a doubted die lies, in words ("at the top left"; see place_of)


@dataclass(frozen=True, slots=True)
class DiceRead:
    """Everything one frame showed: the dice, the overall status, a sentence for the player."""

    dice: tuple[DieReading, ...]
    status: ReadStatus
    message: str

    @property
    def values(self) -> list[int]:
        """The values read, sorted (only meaningful when ``status`` is OK)."""
        return sorted(d.value for d in self.dice if d.value is not None)

    @property
    def as_lying(self) -> list[int]:
        """The values read in the order the dice lie (:func:`lying_order`): a D66's first
        die, its tens, is the one on the left (only meaningful when ``status`` is OK)."""
        return [d.value for d in lying_order(self.dice) if d.value is not None]

    @property
    def doubts(self) -> str:
        """Why and where each die doubted lies, as the unsure sentence names them ("a die's
        value is unclear in the middle"); "" when none is doubted. Kept as data for the
        sentences said beside it, which cut it out of ``message`` and broke silently with
        its wording (r77dice NIT on ca5f76b9)."""
        return _doubts(self.dice)

    def to_type(self, count: int) -> tuple[DieReading, ...]:
        """The dice the player may type, in a throw of ``count`` dice: those whose top the
        judge saw but whose value alone is unclear, when they and the dice read surely are
        ``count`` and nothing else is doubted (none otherwise).

        The throw's count says every die is found, and each of these is a flat die's top
        (no leaning, moving, held or half-seen die, no mark that may be no die), so the
        player's word on its value completes the roll instead of a re-roll of every die
        for one (the tray's smoke-black dice with red pips, issue 23).
        """
        doubted = tuple(d for d in self.dice if d.value is None)
        if (self.status is not ReadStatus.UNSURE or len(self.dice) != count
                or any(d.reason != _WHICH_VALUE for d in doubted)):
            return ()
        return doubted


def lying_order(dice: Sequence[DieReading]) -> list[DieReading]:
    """``dice`` in the order they lie in the picture, as a D66's two dice are read (the
    first the tens): left to right; of two less than half a die's side apart across, the
    upper in the picture first. Where the dice lie tells nothing of their values, so a D66
    read in this order comes up 11 to 66 alike (the camera's read ``values`` are sorted,
    which made a plain D66 a D66S: dice62 D1).

    Three or more dice are put in columns by a sweep across: from the leftmost die not yet
    placed, the dice less than half a die's side right of it are its column, upper first;
    then the next column. One order for the dice however they are handed in (reviewdice75
    N1: a comparison of pairs, not transitive for dice on a slant, listed three dice in
    three orders by the order they were found); two dice keep the pair's rule.

    >>> die = lambda x, y: DieReading(1, 1.0, (x, y), 50.0)
    >>> [d.centre for d in lying_order([die(40, 0), die(20, 50), die(0, 100)])]
    [(20, 50), (0, 100), (40, 0)]
    """
    across = sorted(dice, key=lambda d: (d.centre[0], d.centre[1], d.side_px))
    lying: list[DieReading] = []
    while across:
        first = across[0]
        near = [d.centre[0] - first.centre[0] < max(d.side_px, first.side_px) / 2
                for d in across]
        column = [d for d, within in zip(across, near, strict=True) if within]
        across = [d for d, within in zip(across, near, strict=True) if not within]
        lying += sorted(column, key=lambda d: (d.centre[1], d.centre[0]))
    return lying


def place_of(die: DieReading, shape: tuple[int, ...]) -> str:
    """Where ``die`` lies in a frame of ``shape``, in words, by its third of the view across
    and down: "at the top left", "at the right", "in the middle" (the doubts' words, also
    calibrate's for a die it saved past: reviewx69 RISK 1)."""
    height, width = shape[:2]
    column = _COLUMNS[min(2, max(0, int(3 * die.centre[0] / width)))]
    row = _ROWS[min(2, max(0, int(3 * die.centre[1] / height)))]
    where = " ".join(part for part in (row, column) if part)
    return f"at the {where}" if where else "in the middle"


def _placed(dice: list[DieReading], shape: tuple[int, ...]) -> list[DieReading]:
    """``dice`` with the place in a frame of ``shape`` of each it doubts, but of a frame too
    busy to judge, which is doubted as a whole: its last mark's place means nothing."""
    return [replace(d, place=place_of(d, shape)) if d.value is None and d.reason != _TOO_BUSY
            else d for d in dice]


def _doubts(dice: Sequence[DieReading]) -> str:
    """The reason and place of each die of ``dice`` doubted, each once, up to _NAMED of
    them; "" when none is."""
    doubts = list(dict.fromkeys(f"{d.reason or _NOT_READ} {d.place}".strip()
                                for d in dice if d.value is None))
    return "; ".join(doubts[:_NAMED] + (["and more"] if len(doubts) > _NAMED else []))


def _describe(dice: Sequence[DieReading]) -> tuple[ReadStatus, str]:
    """The frame's status and its sentence for the player. An unsure frame says why and where
    for each die it doubts (each reason and place once, up to _NAMED of them), so the player
    knows which die to look at among many (issue 23: "which die it doubts")."""
    if not dice:
        return ReadStatus.NO_DICE, NO_DICE_SEEN
    if any(d.value is None for d in dice):
        return ReadStatus.UNSURE, f"unsure ({_doubts(dice)}){RE_ROLL}"
    # Left to right, as a D66 takes them and the tray shows them (dicecam75 NIT 4).
    return ReadStatus.OK, _READ + _READ_JA + ", ".join(str(d.value)
                                                       for d in lying_order(dice))
