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

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from importlib.resources import files
from pathlib import Path

import cv2
import numpy as np
import tomlkit

from companion.errors import DataError
from companion.files import table, write_toml
from companion.hw.dice.networks import (
    COCKED,
    MOVING,
    NOTHING,
    TRAINED_FACE_PX,
    TURNS,
    DiceNetworks,
    Spot,
    shrink,
)

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
# The second look sees the dice at their median size; one much larger than the others (a
# 16 mm die among 10 mm ones) is too large for it. A first look's mark at least _BEYOND_SIGHT
# times the size the second look assumed (the finder sees faces up to about 1.7 times the
# size it assumes) and further than _EXPLAINED face sides from every second look's mark is
# kept (see _beyond_sight). Of any size, such marks were the sides of a webcam's dice, which
# the second look rightly left out (two frames of the shared real photos' train part).
_BEYOND_SIGHT = 1.7
_EXPLAINED = 0.75
# The second look is at the dice only: the part of the frame within _AROUND face sides of
# the first look's marks, and of the places it marked at _HINT times the finder's threshold
# (a die the first look did not mark touches one it marked, or is one of those places).
_AROUND = 1.5
_HINT = 0.5
# The finder's work grows with the pixels it is given: the second look is given at most this
# many times the first look's.
_LOOK_WORK = 1.5
# The size search: the first looks assume face sizes _LADDER times apart (the finder was
# trained on faces 9 to 28 px in its input, about TRAINED_FACE_PX times 1.7 either way), and
# the look whose marks are strongest (see _strength) is the first look. Looks at
# smaller sizes see a larger frame: they are made only while they cost at most _SMALL_WORK
# times the look at the middle size on a 1280x720 frame (_BASE_PIXELS in the finder's input).
# A look at another size wins over the middle one only when its _STRONGEST strongest marks
# are _PREFER_MIDDLE hotter (see _strength): a look at faces twice too small marks pips
# faintly, one at faces twice too large marks the dice faintly, or not at all.
_STRONGEST = 3
_PREFER_MIDDLE = 0.1
_LADDER = 2.0
_SMALL_WORK = 2.0
_BASE_PIXELS = 320 * 180
# The finder sizes a real die's face up to this many times larger than it is (on the shared
# real photos, a webcam's dice seen in perspective, their sides with the top): a mark up to
# max_face_px times this is read. (Raising max_face_px instead moves the middle look, and
# the rendered leaning dice were read less well.)
_SIZE_SLACK = 1.4
_SAME_DIE = 0.3  # two marks closer than this many face sides are one mark
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
# A value the judge read less sure than this stands only where the counter (networks.py)
# confirms it.
_COUNTED_BELOW = 0.99
_COCKED = "a die is tilted or cocked"
_MAY_LEAN = "a die may lean on another"  # a crowded value not read surely enough
_TWO_FACES = "a die leaning on another shows two faces"
_LEANING_SIDE = "a die leans on another"  # the judge is sure: this is its side
_NOT_READ = "a die could not be read"  # the judge doubts a readable top is there at all
_WHICH_VALUE = "a die's value is unclear"  # a top is there; which of the six is not sure
_MOVING = "the dice are moving"
_TOO_BUSY = "too much in view to judge in time"
_TAKEN_FOR_NOTHING = "a die-like mark may be a die"  # see _taken_for_nothing
_AT_EDGE = "a die is at the edge of view"  # see _in_view
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
# An unsure frame names at most _NAMED of the dice it doubts, each by its third of the view
# across and down (see _describe).
_NAMED = 3
_ROWS = ("top", "", "bottom")
_COLUMNS = ("left", "", "right")


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    """The reader's thresholds (see ``data/reader.toml`` for what each one means)."""

    find_threshold: float
    min_top: float
    min_confidence: float
    min_side: float
    min_crowded: float
    min_counted: float
    min_alone: float
    min_nothing: float
    hot_share: float
    hot_size: float
    min_nothing_hot: float
    held_size: float
    min_face_px: float
    max_face_px: float
    stable_frames: int
    still_px: float

    @staticmethod
    def load(user_file: Path | None = None) -> ReaderConfig:
        """The packaged thresholds, overlaid by a user's tuned file when it exists."""
        text = files("companion.hw.dice").joinpath("data/reader.toml").read_text("utf-8")
        config = _parse(tomllib.loads(text), "reader.toml", _default=None)
        if user_file is not None and user_file.exists():
            try:
                data = tomllib.loads(user_file.read_text("utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise DataError(f"{user_file}: not valid TOML ({exc})") from exc
            config = _parse(data, str(user_file), _default=config)
        return config

    def save(self, path: Path) -> None:
        """Write the thresholds that differ from the packaged ones to ``path``, in its layout.

        The others keep following the packaged file, so that a better packaged value
        (thresholds chosen for a retrained judge) reaches a player who calibrated before.
        """
        packaged = ReaderConfig.load()
        changed = {f.name for f in fields(self)
                   if getattr(self, f.name) != getattr(packaged, f.name)}
        reader = [f.name for f in fields(self)
                  if f.name in changed and f.name not in _STABILITY_KEYS.values()]
        document = tomlkit.document()
        document.add(tomlkit.comment(
            "Dice reader thresholds saved by `companion calibrate dice`; any not here"))
        document.add(tomlkit.comment(
            "follow the companion's own (companion/hw/dice/data/reader.toml)."))
        document.add("reader", table({name: getattr(self, name) for name in reader}))
        document.add("stability", table({key: getattr(self, name)
                                         for key, name in _STABILITY_KEYS.items()
                                         if name in changed}))
        write_toml(path, document)


_STABILITY_KEYS = {"frames": "stable_frames", "still_px": "still_px"}
_SHARES = {"find_threshold", "min_top", "min_confidence", "min_side", "min_crowded",
           "min_counted", "min_alone", "min_nothing", "hot_share", "hot_size", "min_nothing_hot"}
# Keys only the pip-counting reader of before the networks had; `calibrate dice` saved them.
_EARLIER_READER_KEYS = {"pip_contrast", "pip_face_contrast", "flood_tolerance", "max_aspect",
                        "min_solidity", "layout_tolerance"}


def _parse(data: dict[str, object], name: str, _default: ReaderConfig | None) -> ReaderConfig:
    """Shape-check a thresholds file; with a default, missing keys keep the default."""
    values: dict[str, float | int] = {}
    known = {f.name: f for f in fields(ReaderConfig)}
    for section, mapping in (("reader", None), ("stability", _STABILITY_KEYS)):
        table = data.get(section, {})
        if not isinstance(table, dict):
            raise DataError(f"{name}: [{section}] must be a table")
        for key, value in table.items():
            attr = mapping.get(key, "") if mapping else key
            if mapping is None and key in _EARLIER_READER_KEYS:
                # Its thresholds (a min_confidence of 0.35 among them) mean other things here.
                raise DataError(f"{name}: tuned for the earlier dice reader (it has {key!r}); "
                                "run `companion calibrate dice` again")
            if attr not in known or (mapping is None and key in _STABILITY_KEYS.values()):
                raise DataError(f"{name}: unknown key {key!r} in [{section}]")
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise DataError(f"{name}: [{section}] {key} must be a positive number")
            if attr in _SHARES and value >= 1:
                raise DataError(f"{name}: [{section}] {key} must be below 1 (it is a probability)")
            if attr == "stable_frames" and not isinstance(value, int):
                raise DataError(f"{name}: [{section}] {key} must be a whole number")
            values[attr] = value
    unknown = set(data) - {"reader", "stability"}
    if unknown:
        raise DataError(f"{name}: unknown table [{sorted(unknown)[0]}]")
    if _default is not None:
        return replace(_default, **values)  # type: ignore[arg-type]
    missing = set(known) - set(values)
    if missing:
        raise DataError(f"{name}: missing key {sorted(missing)[0]!r}")
    return ReaderConfig(**values)  # type: ignore[arg-type]


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
    place: str = ""  # where a doubted die lies, in words ("at the top left"; see _place)


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


def _place(die: DieReading, shape: tuple[int, ...]) -> str:
    """Where ``die`` lies in a frame of ``shape``, in words, by its third of the view across
    and down: "at the top left", "at the right", "in the middle"."""
    height, width = shape[:2]
    column = _COLUMNS[min(2, max(0, int(3 * die.centre[0] / width)))]
    row = _ROWS[min(2, max(0, int(3 * die.centre[1] / height)))]
    where = " ".join(part for part in (row, column) if part)
    return f"at the {where}" if where else "in the middle"


def _placed(dice: list[DieReading], shape: tuple[int, ...]) -> list[DieReading]:
    """``dice`` with the place in a frame of ``shape`` of each it doubts, but of a frame too
    busy to judge, which is doubted as a whole: its last mark's place means nothing."""
    return [replace(d, place=_place(d, shape)) if d.value is None and d.reason != _TOO_BUSY
            else d for d in dice]


def _describe(dice: Sequence[DieReading]) -> tuple[ReadStatus, str]:
    """The frame's status and its sentence for the player. An unsure frame says why and where
    for each die it doubts (each reason and place once, up to _NAMED of them), so the player
    knows which die to look at among many (issue 23: "which die it doubts")."""
    if not dice:
        return ReadStatus.NO_DICE, "no dice in view"
    unsure = [d for d in dice if d.value is None]
    if unsure:
        doubts = list(dict.fromkeys(f"{d.reason or _NOT_READ} {d.place}".strip()
                                    for d in unsure))
        said = doubts[:_NAMED] + (["and more"] if len(doubts) > _NAMED else [])
        return ReadStatus.UNSURE, f"unsure ({'; '.join(said)}): please re-roll"
    return ReadStatus.OK, "read " + ", ".join(str(d.value) for d in dice)


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
            status, message = ReadStatus.UNSURE, f"waiting for {count} dice, {len(found)} in view"
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
            sure = probs[value - 1] >= self.config.min_counted
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
        if best == NOTHING and probs[best] >= self.config.min_nothing:
            return None
        top = float(probs[1:7].sum())
        value = 1 + int(probs[1:7].argmax())
        if top < self.config.min_top:
            doubt = max((NOTHING, MOVING, COCKED), key=lambda c: float(probs[c]))
            if not (alone and doubt == COCKED and top >= self.config.min_alone):
                why = {MOVING: _MOVING, COCKED: _COCKED}.get(doubt, _NOT_READ)
                if doubt == COCKED and probs[COCKED] >= self.config.min_side:
                    why = _LEANING_SIDE
                return DieReading(None, 0.0, centre, round(mark.side, 1), why)
        if probs[value] < self.config.min_confidence * top:
            return DieReading(None, 0.0, centre, round(mark.side, 1), _WHICH_VALUE)
        return DieReading(value, round(float(probs[value]), 3), centre, round(mark.side, 1))


def _sizes(config: ReaderConfig, shape: tuple[int, ...]) -> list[float]:
    """The face sizes the finder's first looks assume, the middle of those read first.

    The finder sees faces within about _LADDER times of the size it assumes; the sizes
    step by _LADDER from the middle of ``min_face_px``..``max_face_px`` up and down while
    they can see a face within those limits, and down only while the look costs at most
    _SMALL_WORK times a 1280x720 frame's look at the middle size.
    """
    middle = float(np.sqrt(config.min_face_px * config.max_face_px))
    sizes = [middle]
    size = middle * _LADDER
    while size / _LADDER ** 0.5 <= config.max_face_px:
        sizes.append(size)
        size *= _LADDER
    size = middle / _LADDER
    pixels = shape[0] * shape[1]
    while (size * _LADDER ** 0.5 >= config.min_face_px
           and pixels * (TRAINED_FACE_PX / size) ** 2 <= _SMALL_WORK * _BASE_PIXELS):
        sizes.append(size)
        size /= _LADDER
    return sizes


def _beyond_sight(marks: list[Spot], sight: float, other: list[Spot]) -> list[Spot]:
    """``marks``, of a second look that assumed faces of ``sight`` pixels, and the first
    look's marks (``other``) it could not see: dice at least _BEYOND_SIGHT times larger,
    further than _EXPLAINED face sides (the side of the die it marked) from each of
    ``marks``. Nearer, it is the same die, or two touching dice the first look saw as one
    blur between them (about half a side from each); a larger die touching a smaller one
    lies at least a side of the smaller from it."""
    seen = list(marks)
    for mark in other:
        if mark.side > _BEYOND_SIGHT * sight and all(
                np.hypot(mark.x - m.x, mark.y - m.y) >= _EXPLAINED * m.side for m in marks):
            seen.append(mark)
    return seen


def _strength(marks: list[Spot], threshold: float) -> float:
    """How much like dice a look's marks are: the heat of its _STRONGEST strongest marks at
    ``threshold`` or above, over _STRONGEST (a mark short counts 0).

    Not the sum of all: a look at faces much smaller than the dice marks many pips faintly;
    not the hottest alone: a look at faces much larger than two or three dice can mark one
    of them hotly and miss the others.
    """
    heats = sorted((m.heat for m in marks if m.heat >= threshold), reverse=True)[:_STRONGEST]
    return sum(heats) / _STRONGEST


def _around(marks: list[Spot], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The part of a frame of ``shape`` within _AROUND face sides of ``marks``: x0, y0, x1, y1."""
    margin = _AROUND * max(m.side for m in marks)
    return (max(0, int(min(m.x for m in marks) - margin)),
            max(0, int(min(m.y for m in marks) - margin)),
            min(shape[1], int(max(m.x for m in marks) + margin) + 1),
            min(shape[0], int(max(m.y for m in marks) + margin) + 1))


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
    """
    tops = [d for d in dice if d.value is not None]
    if len(tops) != count or any(
            d.value is None and d.reason not in _NO_DIE_DOUBTS
            and not any(_own_side(d, top) for top in tops) for d in dice):
        return dice
    return tops


def _own_side(face: DieReading, top: DieReading) -> bool:
    """Whether ``face``, taken for cocked, lies where a camera at the table's near edge sees
    the side of the flat die ``top`` is read on: below it in the view, within
    _OWN_SIDE_ANGLE degrees of straight down and _OWN_SIDE_REACH face sides, the top read at
    least _SURE_TOP sure."""
    down = face.centre[1] - top.centre[1]
    across = abs(face.centre[0] - top.centre[0])
    return (face.reason == _COCKED and top.value is not None and top.confidence >= _SURE_TOP
            and down > 0 and math.degrees(math.atan2(across, down)) <= _OWN_SIDE_ANGLE
            and _gap(face, top) <= _OWN_SIDE_REACH * top.side_px)


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


def read_dice(frame: Image, config: ReaderConfig | None = None) -> DiceRead:
    """Read one frame with the packaged (or given) thresholds."""
    return DiceReader(config).read(frame)
