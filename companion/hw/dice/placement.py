"""How the dice the camera dice reader found lie, in the frame and beside each other:
whether a die is wholly in view (``_in_view``), nearer the camera than the others
(``_held``), near, crowded or alone (``_near``, ``_crowded``, ``_alone``), where a leaning
die's unmarked top must be (``_top_beside``), which faces are one die's side and top
(``_side_of``, ``_one_per_die``), and what a throw's count settles (``_thrown``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from companion.hw.dice.networks import Spot
from companion.hw.dice.readings import _NOT_READ, _WHICH_VALUE, DieReading

# Faces closer than these many face sides belong to one die (see _one_per_die). On the
# rendered tuning scenes, the top faces of two flat dice are at least 0.86 sides apart in
# the picture (a face's side is measured at its centre, and perspective shortens the gap);
# a leaning die's top and an open side 0.5 to 1.0, 0.64 typically. The finder's marks
# stray from the centres, and at 0.7 two touching flat dice of one value were taken for one.
_ONE_DIE = 0.6
# A face the judge is sure is a leaning die's side and a value read at least _SURE_TOP sure
# within _SIDE_OF face sides of it are that die's side and top (above: 0.5 to 1.0 sides
# apart; the die it leans on is further, see _LEAN_REACH). Beyond _ONE_DIE a less sure value
# may be the leaning die itself and the "side" the die under it, taken for a side (seen
# once on the benched ranges): both are kept, and the side makes the frame unsure. So is a
# face the judge doubts a readable top is there at all: a flat die's own side, which a
# webcam beside the table sees up to 0.8 sides below the top (issue 23, the shared real
# photos); a face whose value alone is unclear may be a leaning die's top (rendered seeds
# 110,248 and 110,305), and one the judge doubts is cocked may be the top of a flat die
# touching the other, seen from 50 degrees (seeds 3,100,028 and 3,100,079, where a roll
# would lack a die): beyond _ONE_DIE each stays a die. Even below the top only (where an
# upright camera sees a die's sides), such a face joined to the top up to _SIDE_OF read no
# die more right and missed more: scripts/bench_dice.py --max-tilt 60 (and 50)
# --first-seed 3300000 --scenes 300, frames OK 210 -> 214 (236 -> 237), dice missed
# 4.28% -> 4.53% (1.91% -> 2.09%), frames OK with a die missed 5 -> 8 (3 -> 4).
_SIDE_OF = 0.8
_SURE_TOP = 0.95
# Faces nearer than this are hardly both flat dice (see above); a value read there gets a
# closer look, being likely a leaning die's, whose faces one view of the judge can misread.
_CROWDED = 0.75
# A leaning die's top is this many face sides from its open side (the median on the rendered
# tuning scenes; 0.57 to 0.75 for nine in ten), and the die it leans on at most _LEAN_REACH
# face sides from that side (1.14 to 1.72 for nine in ten), and nearer its top (tipped
# towards it): a face with no other within _LEAN_REACH has nothing to lean on.
_TOP_FROM_SIDE = 0.67
_LEAN_REACH = 2.0
# Why a die is doubted (DieReading.reason); readings.py and reader.py hold the other reasons.
_COCKED = "a die is tilted or cocked"
_TWO_FACES = "a die leaning on another shows two faces"
_LEANING_SIDE = "a die leans on another"  # the judge is sure: this is its side
_TAKEN_FOR_NOTHING = "a die-like mark may be a die"  # see DiceReader._taken_for_nothing
_HELD = "a die is nearer the camera than the others (held, or still falling)"  # see _held
# Doubts that a mark is a die at all: a throw's count may settle them (see _thrown).
_NO_DIE_DOUBTS = (_NOT_READ, _TAKEN_FOR_NOTHING)
# A camera at the table's near edge sees a flat die's own side below its top in the view (on
# the shared real photos' webcam, 0.6 to 0.85 face sides below it), and the judge often takes
# it for cocked: such a face within _OWN_SIDE_REACH face sides of a top read at least
# _SURE_TOP sure, and within _OWN_SIDE_ANGLE degrees of straight down from it, is that die's
# side once the throw's count is met (see _thrown). Chosen on the train part (reach 0.8 read
# one frame fewer, 1.0 none more; 45 degrees one fewer).
_OWN_SIDE_REACH = 0.9
_OWN_SIDE_ANGLE = 60.0
# A mark doubted as perhaps no die is die-like (see _die_like) when its side is within the
# dice read surely's spread of sides, widened by this share of it either way, and it lies
# among them. On the shared real photos' train part, told one die fewer than lay in view,
# the real dice so doubted were 0.94 to 1.59 times the smallest die read's side (and up to
# 0.99 times the largest), the marks left out of rightly read frames at most 0.85 times it.
_DIE_LIKE_SPREAD = 0.9


def _in_view(die: DieReading, shape: tuple[int, ...]) -> bool:
    """Whether ``die``'s top face lies wholly inside a frame of ``shape``.

    A die the frame's edge cuts may be one the player did not throw (the shared real
    photos' webcam: a die at the edge, out of the roll), and its face may be read from
    the part in view; the player is asked to move it into view or out of it.
    """
    half = die.side_px / 2
    x, y = die.centre
    return half <= x <= shape[1] - half and half <= y <= shape[0] - half


def _thrown(dice: list[DieReading], count: int) -> list[DieReading]:
    """``dice`` of a throw of ``count`` dice: when exactly ``count`` are read surely, the
    marks doubted only as perhaps no die (_NO_DIE_DOUBTS) are left out, for every die thrown
    is read, and so is a face taken for cocked that lies where a read die's own side does
    (``_own_side``). A die doubted otherwise (its value unclear, two faces, moving, held, at
    the edge) is a die, or a sign that one read is not, and keeps the read unsure. So does a
    face taken for cocked anywhere else: it is some die's face, and beside a die read it may
    be that die's top while the value read is its side (a webcam's steep view of large dice:
    mp_Train_six_20 scaled 4.4 times, two 6s, read 6 and 4 beside a cocked face above the 4).

    On the shared real photos' train part the marks so left out were a laptop's keys beside
    the dice (three frames) and flat dice's own sides in a webcam's view. Told the count,
    frames fully right went 78.39% -> 80.08% (the large copies of the webcam's 2-3 dice
    81.25% -> 85.42%), and with the own sides 81.36% (89.58%), none wrong
    (``scripts/eval_dice_reader.py --part train --large --count``); read as other cameras
    might see them (``--looks --count``) 74.54% -> 75.92% with the own sides, 4 frames wrong
    either way. Without the count, a face below a top so joined to it hid a flat die touching
    the other in front, seen from 50 degrees, and rendered rolls lacked a die (see _SIDE_OF);
    told the count, such a read is a die short, and unsure.

    A mark doubted as perhaps no die that is die-like (``_die_like``: a die's size, among
    the dice) is not left out, and keeps the read unsure (dicecam69 RISK 2: six dice in view
    of a 5D6 read "ok", the one it could not read dropped). On the test part, told the count,
    frames fully right stayed 69.79%, none wrong (``--part test --large --count``).
    """
    tops = [d for d in dice if d.value is not None]
    if len(tops) != count or any(
            d.value is None and (d.reason not in _NO_DIE_DOUBTS or _die_like(d, tops))
            and not any(_own_side(d, top) for top in tops) for d in dice):
        return dice
    return tops


def _die_like(mark: DieReading, tops: list[DieReading]) -> bool:
    """Whether ``mark``, doubted as perhaps no die, is as likely a die the reader could not
    read as no die: its side within the ``tops``' spread of sides (widened by
    _DIE_LIKE_SPREAD either way) and its centre among theirs (within one face side of the
    box around them). Such a mark keeps a throw's read unsure, though the others read are
    the dice thrown (dicecam69 RISK 2): a die lying beside the throw (one rolled off the
    tray, one thrown too many) that reads poorly was left out, or one thrown, a leftover die
    read in its place; a die that reads well is said ("take 1 away")."""
    if not tops:
        return False
    sides = [t.side_px for t in tops]
    if not _DIE_LIKE_SPREAD * min(sides) <= mark.side_px <= max(sides) / _DIE_LIKE_SPREAD:
        return False
    reach = float(np.median(sides))
    xs = [t.centre[0] for t in tops]
    ys = [t.centre[1] for t in tops]
    return (min(xs) - reach <= mark.centre[0] <= max(xs) + reach
            and min(ys) - reach <= mark.centre[1] <= max(ys) + reach)


def where_its_side_shows(mark: DieReading, die: DieReading, distance: float) -> bool:
    """Whether ``mark`` lies where a camera at the table's near edge sees the side of the
    flat ``die``: below it in the view, within _OWN_SIDE_ANGLE degrees of straight down,
    ``distance`` (measured as the caller judges nearness) within _OWN_SIDE_REACH face
    sides."""
    down = mark.centre[1] - die.centre[1]
    across = abs(mark.centre[0] - die.centre[0])
    return (down > 0 and math.degrees(math.atan2(across, down)) <= _OWN_SIDE_ANGLE
            and distance <= _OWN_SIDE_REACH * die.side_px)


def _own_side(face: DieReading, top: DieReading) -> bool:
    """Whether ``face``, taken for cocked, is the side of the flat die ``top`` is read on
    (:func:`where_its_side_shows`, by the gap between them), the top read at least
    _SURE_TOP sure."""
    return (face.reason == _COCKED and top.value is not None and top.confidence >= _SURE_TOP
            and where_its_side_shows(face, top, _gap(face, top)))


def larger_than_others(dice: Sequence[DieReading]) -> list[float]:
    """How many times each die's side is the median of the others' sides (1.0 alone)."""
    return [die.side_px / float(np.median(others)) if (others := [
        d.side_px for j, d in enumerate(dice) if j != i]) else 1.0
        for i, die in enumerate(dice)]


def _held(dice: list[DieReading], factor: float) -> list[DieReading]:
    """``dice`` with any value read on a die ``factor`` times larger than the median of the
    others made unsure: the dice of one throw lie at one distance from the camera, give or
    take the view's perspective, so a die that much larger is nearer it, in the player's
    fingers or not yet landed, and not part of the roll."""
    return [replace(die, value=None, confidence=0.0, reason=_HELD)
            if die.value is not None and ratio > factor else die
            for die, ratio in zip(dice, larger_than_others(dice), strict=True)]


def _gap(a: DieReading, b: DieReading) -> float:
    """How far apart two readings are, in pixels."""
    return float(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]))


def _near(a: DieReading, b: DieReading, sides: float) -> bool:
    """Whether two readings are closer than ``sides`` face sides."""
    return _gap(a, b) < sides * max(a.side_px, b.side_px)


def _crowded(die: DieReading, dice: list[DieReading | None]) -> bool:
    """Whether ``die`` was read nearer another face than two dice lying flat can be."""
    return any(other is not None and other is not die and _near(die, other, _CROWDED)
               for other in dice)


def _top_beside(side: DieReading, dice: list[DieReading | None]) -> Spot | None:
    """Where to look for the top of a leaning die of which only ``side`` was marked.

    The finder marks a leaning die's open side, seen about as squarely as a top, more
    strongly than its top: next to the side's mark, the top is often no peak of its own.
    A die leans on another with its top tipped towards that die, so the top lies between
    its open side and the die it leans on, _TOP_FROM_SIDE face sides from the side.
    Only a side the judge is sure of is looked beside, when no other mark is beside it
    and the nearest, within _LEAN_REACH, is a die read: the one it leans on.
    """
    if side.reason != _LEANING_SIDE or _crowded(side, dice):
        return None  # (asked of every reading, every frame: the cheap test first)
    others = [d for d in dice if d is not None and d is not side]
    if not others:
        return None
    leaned_on = min(others, key=lambda d: _gap(side, d))
    if not _near(side, leaned_on, _LEAN_REACH) or leaned_on.value is None:
        return None  # nothing to lean on, or an unread face: likely this die's own top
    step = _TOP_FROM_SIDE * side.side_px / _gap(side, leaned_on)
    return Spot(side.centre[0] + step * (leaned_on.centre[0] - side.centre[0]),
                side.centre[1] + step * (leaned_on.centre[1] - side.centre[1]), side.side_px, 0.0)


def _alone(die: DieReading, dice: list[DieReading | None]) -> bool:
    """Whether no other face is within _LEAN_REACH face sides of ``die``: nothing for it to
    lean on, on a flat table, so it lies flat."""
    return not any(other is not None and other is not die and _near(die, other, _LEAN_REACH)
                   for other in dice)


def _doubtful(die: DieReading, dice: list[DieReading | None]) -> bool:
    """Whether one look of the judge is not enough for ``die``: it was not read (and
    the judge is not sure it is a leaning die's side), or it was read crowded, or less
    than _SURE_TOP sure with another face near enough to lean on (it may be a leaning
    die's side: seed 50,353 of the benched ranges, a side showing 1 read 0.86 sure in
    one view and 0.68 in eight)."""
    if die.value is None:
        return die.reason != _LEANING_SIDE
    return _crowded(die, dice) or (die.confidence < _SURE_TOP and not _alone(die, dice))


def _side_and_top(a: DieReading, b: DieReading) -> bool:
    """Whether one of two readings is a face the judge is sure is a leaning die's side, or
    doubts is a readable top at all, and the other a value read at least _SURE_TOP sure."""
    return any(side.reason in (_LEANING_SIDE, _NOT_READ) and top.value is not None
               and top.confidence >= _SURE_TOP for side, top in ((a, b), (b, a)))


def _side_of(face: DieReading, top: DieReading) -> bool:
    """Whether ``face``, near ``top``, is the side of the die ``top`` is the value of: a
    face the judge is sure is a leaning die's side beside any value, or a face the judge
    doubted was cocked, or could not read, beside a value read at least _SURE_TOP sure.

    The second is a flat die's own side, seen in perspective beside its top (0.4 to 0.8
    face sides from it, see _SIDE_OF) and marked by the finder: faintly from above, about
    as strongly as the top by a webcam beside the table (issue 23: sixteen of the shared
    real photos' train frames of white dice on wood were unsure for it).
    """
    if top.value is None:
        return False
    return face.reason == _LEANING_SIDE or (face.reason in (_COCKED, _NOT_READ, _WHICH_VALUE)
                                            and top.confidence >= _SURE_TOP)


def _one_per_die(dice: list[DieReading]) -> list[DieReading]:
    """One reading per die, from readings nearer together than two dice can lie.

    Within _ONE_DIE face sides, the same value twice is one die marked twice (one
    die's faces all differ), and a value beside a face that is its die's side (see
    _side_of) is that die, read by its top (within _SIDE_OF face sides, when the
    judge is sure of the side, or that no readable top is there, and of the value).
    Two different values, or a value read less than _SURE_TOP sure and a face not
    read, are one die with two faces open to the camera: a die leaning on another,
    whose top is unclear (the face read may be its side, seen more squarely than its
    top). It is reported once, unsure, between the two, whatever either face read.
    """
    kept: list[DieReading] = []
    for die in dice:  # strongest mark first
        for i, other in enumerate(kept):
            if not _near(die, other, _SIDE_OF if _side_and_top(die, other) else _ONE_DIE):
                continue
            if _side_of(die, other):
                break
            if _side_of(other, die):
                kept[i] = die
            elif die.value is None or die.value != other.value:
                between = (round((die.centre[0] + other.centre[0]) / 2, 1),
                           round((die.centre[1] + other.centre[1]) / 2, 1))
                kept[i] = DieReading(None, 0.0, between, max(die.side_px, other.side_px),
                                     _TWO_FACES)
            break
        else:
            kept.append(die)
    return kept
