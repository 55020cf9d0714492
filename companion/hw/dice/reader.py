"""The camera dice reader: finds six-sided pip dice in a frame and reads their up faces.

Small networks trained on rendered dice and the shared real photos
(companion/hw/dice/networks.py, scripts/train_dice_reader.py,
scripts/train_dice_counter.py) do the seeing:

1. the *finder* looks at the whole frame, shrunk, and marks the centre and size
   of every die's top face;
2. the *judge* looks at each mark, cut from the full frame, and says what is
   there: no die's top, a value 1 to 6, a die blurred by motion, or the side
   of a die leaning on another (*cocked*);
3. the *counter* gives a second opinion on the values (below).

The reader refuses to guess. A mark is read only when the judge is at least
``min_top`` sure that a die's top is there to be read and at least
``min_confidence`` sure which value it shows, and left out as no die only when
the judge is ``min_nothing`` sure it is none; a die in motion, a mark that is
neither clearly a die nor clearly nothing, and two different faces closer
together than two dice can lie (one die leaning on another, its top unclear)
make the read UNSURE, and the player is asked to re-roll. So does a mark the
finder thinks as likely a die as those read (at least ``hot_share`` as hot as the
coolest die read, its size within ``hot_size`` of theirs, apart from every die
read) that the judge calls no die less than ``min_nothing_hot`` sure: the two
networks disagree on a die, and a roll read without it may be short of it (a
coloured die whose 1 is an emblem, taken for no die). So does a die whose top face
the frame's edge cuts (``_in_view``), and a die much larger in view than the others
(``held_size``: nearer the camera, held or still falling; ``_held``). Only when the judge
is at least ``min_side`` sure that one of the two is the leaning die's side
does the other, read as a top, give the die's value; so it does when the judge is
sure of the value and only doubted the other, or could not read it (a flat die's own
side, seen in perspective beside its top: see ``_side_of``). A die leans only on
another die: one with no other face near has nothing to lean on, and the judge's
doubt that it is cocked is held to the lower ``min_alone`` (its other doubts are not).

A mark the judge leaves unsure gets a second, closer look before the reader
gives up on it: the judge sees its window turned and mirrored eight ways, and
the mean of its eight answers is held to the same thresholds. Flat dice that
touch another, or lie on a busy pattern, are often doubted in one view and read
steadily in eight. A mark read at once, but nearer another face than two flat
dice can lie, gets the closer look too: it may be a leaning die's top, or its
side seen as squarely as a top, which one view can read as a sure wrong value
(the window holds the die it leans on, pips and all). Such a crowded value is
kept only when the judge is at least ``min_crowded`` sure of it. A value read
less than surely with another face near enough to lean on gets the closer look
too: a leaning die's side, seen squarely beside the die it leans on, can look
like a flat die's top in one view. A leaning die's top is often not marked at all
where its open side is: beside a lone face the judge is sure is a leaning die's
side, it looks closer where the top must be (between that side and the die it
leans on), and a value read there as surely as a crowded value must be is the die's.

After those looks, the counter looks at the top face alone, more closely than the
judge's window (which holds the dice around it, to tell a leaning die's side), and
says which of the six values it shows. Where the judge saw
a top but left its value unclear, a value the counter is ``min_counted`` sure of is
read; a value the judge read less than surely stands only where the counter is as sure
of it (``_counted``). On the shared real photos the judge leaves many of the tray's
marbled and smoke-black dice unclear, and the counter, taught on them too, reads them;
and where one of the two networks reads a die wrongly, the other is seldom as sure.

The finder sees dice best at about the size it was trained on, so the reader
searches the sizes (an image pyramid): its first looks assume the middle of the
face sizes read (``min_face_px``..``max_face_px``; ``companion calibrate dice``
fits them to the dice at the table), and twice and four times that, and half of it
where the frame is small enough to afford it; the look whose three hottest marks
are hottest wins (the middle one unless another is clearly better). When the dice
it marks are much smaller or larger than that look assumed, it looks again with the
frame scaled to their own size (small dice touching each other are one blur at
the first look's scale, and one of them goes unmarked). A die much larger than the
others (another set's, or one nearer the camera) is beyond the sight of that second
look: a first look's mark at least _BEYOND_SIGHT times the size it looked for, apart
from every die it marked, is kept (``_beyond_sight``). (The looks at larger sizes, so
merged, marked the companion mat's markers and tiles as dice.)

A frame's work is bounded so a busy table cannot stall the camera: at most
MAX_MARKS marks are judged (with more, the frame is unsure), and closer looks
are given, strongest mark first and looks beside a side last, only while the
judge's windows stay within MAX_WINDOWS.

Thresholds live in ``data/reader.toml``; ``companion calibrate dice`` saves tuned
ones in the user's config folder, and the app passes that file in.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.hw.dice.networks import (
    COCKED,
    MOVING,
    NOTHING,
    TURNS,
    DiceNetworks,
    Spot,
    shrink,
)
from companion.hw.dice.placement import (
    _COCKED,
    _LEANING_SIDE,
    _ONE_DIE,
    _TAKEN_FOR_NOTHING,
    _alone,
    _crowded,
    _doubtful,
    _held,
    _in_view,
    _one_per_die,
    _thrown,
    _top_beside,
)
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.readings import (
    _NOT_READ,
    _TOO_BUSY,
    _WHICH_VALUE,
    DiceRead,
    DieReading,
    ReadStatus,
    _describe,
    _placed,
    other_count_in_view,
)
from companion.hw.dice.scales import _around, _beyond_sight, _sizes, _strength

Image = np.ndarray

# The most places judged in one frame: 25 dice and a mark to spare, at 0.25 ms a window
# (at 16, every frame of 17 dice or more was unsure: 9 of the 89 tray photos of the shared
# real photos' train part).
MAX_MARKS = 26
# The most windows the judge sees in one frame, closer looks (TURNS windows each) included:
# with the finder's two looks, at most about 18 ms of work on one core here (0.25 ms a
# window, 4 to 5 ms the finder's first look, and at most 1.5 times that its second). A
# frame of more marks than that gets no closer look.
MAX_WINDOWS = 20
# The finder looks again when the dice it marked are more than this many times smaller or
# larger than its first look assumed; then it sees their median face at
# networks.TRAINED_FACE_PX / _OWN_SIZE pixels, a little larger than it was mostly trained
# on, so touching faces lie further apart in its heat map. (On the rendered tuning scenes,
# 6,326 dice, the second look reads 13 more and misses 1 where the first alone missed 10;
# with _OWN_SIZE 0.95 or 1.0 it reads 7 to 10 fewer than at 0.85.)
_LOOK_AGAIN = 1.2
_OWN_SIZE = 0.85
# The first looks mark, besides dice, the places at _HINT times the finder's threshold: the
# second look sees the part of the frame around them too (scales.py, _around), for a die the
# first look did not mark touches one it marked, or is one of those places.
_HINT = 0.5
# The finder's work grows with the pixels it is given: the second look is given at most this
# many times the first look's.
_LOOK_WORK = 1.5
# A first look at another size wins over the one at the middle size only when its
# _STRONGEST strongest marks are _PREFER_MIDDLE hotter (scales.py, _strength): a look at
# faces twice too small marks pips faintly, one at faces twice too large marks the dice
# faintly, or not at all.
_PREFER_MIDDLE = 0.1
# The finder sizes a real die's face up to this many times larger than it is (on the shared
# real photos, a webcam's dice seen in perspective, their sides with the top): a mark up to
# max_face_px times this is read. (Raising max_face_px instead moves the middle look, and
# the rendered leaning dice were read less well.)
_SIZE_SLACK = 1.4
_SAME_DIE = 0.3  # two marks closer than this many face sides are one mark
# A value the judge read less sure than this stands only where the counter (networks.py)
# confirms it.
_COUNTED_BELOW = 0.99
# Why a die is doubted (DieReading.reason); readings.py and placement.py hold the other reasons.
_MAY_LEAN = "a die may lean on another"  # a crowded value not read surely enough
_MOVING = "the dice are moving"
_AT_EDGE = "a die is at the edge of view"  # see _in_view


class DiceReader:
    """Reads the dice in single frames; see the module docstring for how."""

    def __init__(self, config: ReaderConfig | None = None,
                 networks: DiceNetworks | None = None) -> None:
        self.config = config or ReaderConfig.load()
        self.networks = networks or DiceNetworks()

    def read(self, frame: Image, count: int | None = None) -> DiceRead:
        """Find every die in ``frame`` (BGR or grey) and read its up face.

        ``count`` is how many dice were thrown, when the caller knows (the play session
        does): marks doubted only as perhaps no die at all are then left out when the dice
        read surely are that many (``_thrown``), and a read of another number is unsure."""
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        marks = self.marks(frame)
        busy = len(marks) > MAX_MARKS
        marks = marks[:MAX_MARKS]
        probs = list(self.networks.judge(frame, marks))
        dice = [self._verdict(mark, p) for mark, p in zip(marks, probs, strict=True)]
        doubtful = [i for i, die in enumerate(dice) if die is not None and _doubtful(die, dice)]
        tops = [(i, top) for i, die in enumerate(dice)
                if die is not None and (top := _top_beside(die, dice)) is not None]
        # The strongest marks first (they are the likeliest dice), then the unmarked tops.
        looks = [(i, marks[i], False) for i in doubtful] + [(i, top, True) for i, top in tops]
        looks = looks[:max(0, MAX_WINDOWS - len(marks)) // TURNS]
        leaning: set[int] = set()  # dice read by a leaning die's top, beside its side
        if looks:
            closer = self.networks.judge(frame, [spot for _, spot, _ in looks], turned=True)
            for (i, spot, beside), look in zip(looks, closer, strict=True):
                verdict = self._verdict(spot, look)
                if not beside:
                    dice[i], probs[i] = verdict, look
                elif verdict is not None and verdict.value is not None \
                        and verdict.confidence >= self.config.min_crowded:
                    dice[i] = verdict  # the leaning die, read by its top instead of its side
                    leaning.add(i)
        dice = self._counted(frame, dice, leaning)
        # A crowded value is likely a leaning die's face, which every view of the judge can
        # read alike and wrong (its window holds the die it leans on): it must be surer.
        dice = [replace(die, value=None, confidence=0.0, reason=_MAY_LEAN)
                if die is not None and die.value is not None
                and die.confidence < self.config.min_crowded and _crowded(die, dice) else die
                for die in dice]
        # A die with no face near enough to lean on lies flat: the judge's doubt that it is
        # cocked is held to the lower min_alone.
        dice = [self._verdict(marks[i], probs[i], alone=True)
                if die is not None and die.reason == _COCKED and _alone(die, dice) else die
                for i, die in enumerate(dice)]
        found = [die if die.value is None or _in_view(die, frame.shape)
                 else replace(die, value=None, confidence=0.0, reason=_AT_EDGE)
                 for die in _one_per_die([d for d in dice if d is not None])]
        found = _held(found, self.config.held_size)
        found += self._taken_for_nothing(marks, probs, dice)
        if busy:
            extra = marks[-1]
            found.append(DieReading(None, 0.0, (round(extra.x, 1), round(extra.y, 1)),
                                    round(extra.side, 1), _TOO_BUSY))
        if count is not None:
            found = _thrown(found, count)
        found = _placed(found, frame.shape)
        status, message = _describe(found)
        if count is not None and status is ReadStatus.OK and len(found) != count:
            status = ReadStatus.UNSURE
            message = other_count_in_view(count, len(found))
        return DiceRead(tuple(found), status, message)

    def marks(self, frame: Image) -> list[Spot]:
        """The finder's marks of die-sized faces, one per die, strongest first.

        The first look takes the dice for the middle of the face sizes read; when
        they are far from it, a second look sees them at their own size.
        """
        config = self.config
        looks = []
        middle = None
        for size in _sizes(config, frame.shape):
            small = None
            if middle is not None and size > middle[0]:
                # A larger size: the middle look's input halved (and halved), which costs far
                # less than shrinking the whole frame again.
                factor = middle[0] / size
                small = cv2.resize(middle[1], (max(1, round(middle[1].shape[1] * factor)),
                                               max(1, round(middle[1].shape[0] * factor))),
                                   interpolation=cv2.INTER_AREA)
            elif middle is None:
                small = shrink(frame, size)
                middle = (size, small)
            looks.append((size, self._marks_at(frame, size, config.find_threshold * _HINT,
                                               small)))
        face_px, hints = looks[0]
        best = _strength(hints, config.find_threshold) + _PREFER_MIDDLE
        for size, found in looks[1:]:
            if _strength(found, config.find_threshold) > best:
                face_px, hints, best = size, found, _strength(found, config.find_threshold)
        marks = [h for h in hints if h.heat >= config.find_threshold]
        if marks:
            x0, y0, x1, y1 = _around(hints, frame.shape[:2])
            own = max(float(np.median([m.side for m in marks])) * _OWN_SIZE,
                      face_px * float(np.sqrt((y1 - y0) * (x1 - x0)
                                              / (_LOOK_WORK * frame.shape[0] * frame.shape[1]))))
            if max(own / face_px, face_px / own) > _LOOK_AGAIN:
                again = [Spot(m.x + x0, m.y + y0, m.side, m.heat) for m in
                         self._marks_at(frame[y0:y1, x0:x1], own, config.find_threshold)]
                marks = _beyond_sight(again, own, marks)
        return marks

    def _marks_at(self, frame: Image, face_px: float, threshold: float,
                  small: Image | None = None) -> list[Spot]:
        """The finder's marks at ``threshold``, the frame scaled as if a face were ``face_px``
        (``small``: so scaled already)."""
        config = self.config
        kept: list[Spot] = []
        for spot in self.networks.find(frame, threshold, face_px, small):
            if not config.min_face_px <= spot.side <= config.max_face_px * _SIZE_SLACK:
                continue
            if any(np.hypot(spot.x - k.x, spot.y - k.y) < _SAME_DIE * k.side for k in kept):
                continue
            kept.append(spot)
            if len(kept) > MAX_MARKS:
                break
        return kept

    def _taken_for_nothing(self, marks: list[Spot], probs: list[np.ndarray],
                           dice: list[DieReading | None]) -> list[DieReading]:
        """The marks left out as no die (``dice[i]`` None) that the finder thinks as likely
        dice as those read, and the judge is less than ``min_nothing_hot`` sure are none:
        each an unsure die, for the roll read without it may be short of it.

        As likely dice: at least ``hot_share`` as hot as the coolest mark read as a die,
        its side within ``hot_size`` times (or 1 / ``hot_size``) the median side of those,
        and not within _ONE_DIE face sides of one (a read die's own side or edge). On the
        shared real photos' train part such marks are a die the judge knows badly (a
        green die whose 1 is a yellow emblem, 0.92 nothing) or, judged surer, a
        keyboard's key or a cable's plug beside the dice.
        """
        config = self.config
        read = [marks[i] for i, die in enumerate(dice) if die is not None and die.value is not None]
        if not read:
            return []
        coolest = min(m.heat for m in read)
        side = float(np.median([m.side for m in read]))
        doubted = []
        for mark, p, die in zip(marks, probs, dice, strict=True):
            if (die is None and mark.heat >= config.hot_share * coolest
                    and config.hot_size <= mark.side / side <= 1 / config.hot_size
                    and float(p[NOTHING]) < config.min_nothing_hot
                    and all(np.hypot(mark.x - m.x, mark.y - m.y)
                            >= _ONE_DIE * max(m.side, mark.side) for m in read)):
                doubted.append(DieReading(None, 0.0, (round(mark.x, 1), round(mark.y, 1)),
                                          round(mark.side, 1), _TAKEN_FOR_NOTHING))
        return doubted

    def _counted(self, frame: Image, dice: list[DieReading | None],
                 leaning: set[int]) -> list[DieReading | None]:
        """``dice`` with the counter's second opinion on the values of flat dice.

        A value the judge saw a top for but left unclear is the counter's value where it
        is at least ``min_counted`` sure of one. A value the judge read less than
        _COUNTED_BELOW sure stands only where the counter is as sure of it; else it is
        unclear. Not asked about: a crowded face (a leaning die's side may read as any
        value, to the counter as to the judge) and the dice ``leaning`` on another, read
        by a top the judge found beside their side: the counter, taught on flat tops,
        reads one seen aslant less surely (seed 3,000,177's 5, a 6 to it, 0.71 sure).

        Not kept: a value neither network is sure of alone, read where they agree and the
        product of their opinions is sure (at 0.7 to 0.95). On the fifth of the train
        photos the trial networks were not taught (train_dice_counter.py --check-every 5)
        it read one or two of 48 frames more; on the whole train part with these networks
        one of 236 more, and at 0.7 one more roll wrong, and a painted render die wrong.
        """
        asked = {i: die for i, die in enumerate(dice) if die is not None and i not in leaning
                 and not _crowded(die, dice) and (
                     die.reason == _WHICH_VALUE
                     or (die.value is not None and die.confidence < _COUNTED_BELOW))}
        # Looked at where each die was read.
        counted = self.networks.count(frame, [Spot(*die.centre, die.side_px, 0.0)
                                              for die in asked.values()])
        if counted is None:
            return dice
        dice = list(dice)
        for (i, die), probs in zip(asked.items(), counted, strict=True):
            value = 1 + int(probs.argmax())
            sure = probs[value - 1] >= _as(probs, self.config.min_counted)
            if die.value is not None and not (sure and value == die.value):
                dice[i] = replace(die, value=None, confidence=0.0, reason=_WHICH_VALUE)
            elif die.value is None and sure:
                dice[i] = replace(die, value=value, confidence=round(float(probs[value - 1]), 3),
                                  reason="")
        return dice

    def _verdict(self, mark: Spot, probs: np.ndarray, alone: bool = False) -> DieReading | None:
        """What one mark is: a die read, a die unsure, or (None) no die at all.

        A mark is no die at all only when the judge is ``min_nothing`` sure of it; a
        mark it thinks likelier nothing, but less surely, is a die not read (a real
        die the judge took for nothing would otherwise be left out of a roll read OK).
        Two questions, each with its threshold: is a die's top face there to be
        read (not nothing, not moving, not a leaning die's side: ``min_top``, or
        ``min_alone`` when the die is ``alone`` and the judge's doubt is that it is
        cocked), and which of the six values does it show (``min_confidence``,
        among the values)? A mark the judge is ``min_side`` sure is a leaning die's
        side says so.
        """
        best = int(probs.argmax())
        centre = (round(mark.x, 1), round(mark.y, 1))
        if best == NOTHING and probs[best] >= _as(probs, self.config.min_nothing):
            return None
        top = float(probs[1:7].sum())
        value = 1 + int(probs[1:7].argmax())
        if top < self.config.min_top:
            doubt = max((NOTHING, MOVING, COCKED), key=lambda c: float(probs[c]))
            if not (alone and doubt == COCKED and top >= self.config.min_alone):
                why = {MOVING: _MOVING, COCKED: _COCKED}.get(doubt, _NOT_READ)
                if doubt == COCKED and probs[COCKED] >= _as(probs, self.config.min_side):
                    why = _LEANING_SIDE
                return DieReading(None, 0.0, centre, round(mark.side, 1), why)
        if probs[value] < _as(probs, self.config.min_confidence * top):
            return DieReading(None, 0.0, centre, round(mark.side, 1), _WHICH_VALUE)
        return DieReading(value, round(float(probs[value]), 3), centre, round(mark.side, 1))


def _as(probs: np.ndarray, threshold: float) -> np.floating:
    """``threshold`` in the type of ``probs`` (the networks' float32), to hold a probability
    to: numpy 2 compares a float32 with a Python float in float32, numpy 1.x compared them
    in float64 (NEP 50), so a probability that rounds to its threshold passed on one and
    not on the other. Explicitly, every numpy compares as numpy 2."""
    value: np.floating = probs.dtype.type(threshold)
    return value
