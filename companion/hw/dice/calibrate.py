"""Tuning the dice reader to the player's light, table and dice.

The player lays ``count`` dice still in view; a few frames are read at each of a few finder
thresholds (how sure the finder must be that a die is there). The threshold that reads all
the dice steadily in the most frames, each frame read given ``count`` as the dice tray
reads a throw, wins (ties go to the one nearest the one saved before); when the companion's
own threshold surely reads more dice than ``count`` in most frames, nothing is to be saved
(the player laid more dice than ``--count``). Fewer is no refusal: a lower threshold that
finds a faint die is what calibrating is for. A higher threshold (or the own one, its read
given ``count``) saved where the companion's own one finds more marks than ``count`` is
noted, naming where they lie and the ``--count`` to give if that many dice lie there; so is
a lower threshold that surely reads more dice than ``count`` (reviewx69 RISKs 1, 2). The
face-size limits are fitted afresh around the dice actually seen, and saved only when the
frames, read with them, read the dice as the threshold was scored (they move the finder's
looks): else the companion's own are kept (reviewd71 RISK 1). The dice lie on the table
for this, so one much larger than the others is of the player's set, not held nearer the
camera: they are read without the ``held_size`` bound, which is then set above the spread
of their sizes (HELD_MARGIN), so a throw of that set is read. The judge's and the counter's
thresholds (``min_top``, ``min_confidence``, ``min_side``, ``min_crowded``,
``min_counted``, ``min_alone``) are never changed here: they are what keeps the reader from
guessing. The caller saves the result.
"""

from __future__ import annotations

import math
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from companion.errors import ordinal
from companion.hw.dice.enrol import Enrolment, normalised, pair_values
from companion.hw.dice.frames import (
    MAT_AREA,
    NO_PICTURE_POLL_S,
    WHOLE_VIEW,
    Area,
    CameraStream,
    frame_iterator,
)
from companion.hw.dice.networks import TURNS, DiceNetworks, Spot
from companion.hw.dice.placement import larger_than_others, where_its_side_shows
from companion.hw.dice.reader import DiceReader
from companion.hw.dice.reader_config import Measured, ReaderConfig
from companion.hw.dice.readings import (
    NO_DICE_SEEN,
    TEACH_DICE,
    DiceRead,
    DieReading,
    ReadStatus,
    dice_count,
    place_of,
)
from companion.hw.dice.source import Motion, no_dice_said

FIND_THRESHOLDS = (0.15, 0.2, 0.3, 0.4, 0.5)
# A thrown die lands elsewhere in view than where it was laid, its size changed a little by
# the view's perspective: held_size is set this much above the laid dice's spread of sizes.
HELD_MARGIN = 1.15


@dataclass(frozen=True, slots=True)
class Tuning:
    """The outcome of a calibration: tuned thresholds and how well they read."""

    config: ReaderConfig
    frames_read: int  # frames where every die was read with the chosen thresholds, alike
    frames_seen: int
    values: list[int]  # what the dice showed in the chosen setting's reads
    message: str
    miscounted: str = ""  # why not to save, though frames read: --count is not the dice laid
    note: str = ""  # said after saving: the companion's own threshold found more marks
    # frames where every die was read, whatever the values: more than frames_read, the dice
    # showed other values from frame to frame (moved, or a folder of different throws)
    frames_whole: int = 0
    # no die was found in any setting: dice off the mat's dice area may be why (dicecam75
    # DEFECT 3), for the caller, which has the whole frames, to look
    none_found: bool = False

    @property
    def ok(self) -> bool:
        """Good enough to save: most frames read all the dice, and as many as were laid."""
        return (not self.miscounted and self.frames_seen > 0
                and self.frames_read >= 0.8 * self.frames_seen)


def tune(frames: Sequence[np.ndarray], count: int, base: ReaderConfig,
         where: str = WHOLE_VIEW, networks: DiceNetworks | None = None,
         picture: bool = False) -> Tuning:
    """Find thresholds that read ``count`` still dice in ``frames``, ``where`` in view
    (WHOLE_VIEW or the mat's dice area, MAT_AREA), with ``networks`` (default: the packaged
    finder and judge, no dice enrolled). The app passes the ones the dice tray reads with,
    leaning on the player's enrolled dice (source.lean_on_enrolled): scored without them,
    odd dice the tray reads were refused as "not all read surely" (dicecam73 DEFECT 1).

    ``base`` is what was saved before; its size limits are not searched with but fitted
    afresh (from the packaged ones), as the camera may have moved or the dice changed
    since: dice smaller or larger than last time would be left out before being measured.
    No dice found in a mat's dice area too dark to be sure of is said so, as the dice tray
    says it (review 56b, finding 5), not guessed at. ``picture``: ``frames`` is a still
    picture's one, said "in the picture"."""
    results = []
    networks = DiceNetworks() if networks is None else networks
    packaged = ReaderConfig.load()
    base = replace(base, min_face_px=packaged.min_face_px, max_face_px=packaged.max_face_px,
                   held_size=packaged.held_size, measured=None)
    own = None  # how many dice the companion's own threshold surely reads in most frames
    own_marks = 0  # how many marks (dice read or not) it finds in most frames
    own_reads: list[DiceRead] = []
    for threshold in FIND_THRESHOLDS:
        config = replace(base, find_threshold=threshold, held_size=math.inf)
        reader = DiceReader(config, networks)
        reads = [reader.read(f) for f in frames]
        # dicecam71 DEFECT 1: the tray reads a throw given its count, which leaves out a mark
        # doubted as no die at all (a laptop's key, a die's own side): the setting is scored
        # on that read, or a lay the tray reads right is refused as "4 dice found". The reads
        # without the count still give the marks found, for the refusal and the notes below.
        counted = [reader.read(f, count) for f in frames]
        good = [r for r in counted if r.status is ReadStatus.OK and len(r.dice) == count]
        agreed = max((sum(1 for r in good if r.values == g.values) for g in good), default=0)
        seen = Counter(len(r.dice) for r in reads).most_common(1)[0][0] if reads else 0
        if threshold == packaged.find_threshold:
            own, own_marks, own_reads = surely_read(reads), seen, reads
        results.append((agreed, -abs(threshold - base.find_threshold), config, good, seen,
                        reads, counted))
    agreed, _, config, good, seen, _, saved_reads = max(results, key=lambda r: (r[0], r[1]))
    if own is not None and own > count:
        # dicecam69 DEFECT 1: three dice laid with --count left at 2 saved the highest
        # threshold, the one under which one die is not found, and said nothing. Only more
        # dice than --count refuse (reviewd69 RISK A): fewer at the own threshold is a die
        # too faint for it, which a lower threshold that reads it surely is saved for.
        return Tuning(base, 0, len(frames), [],
                      f"found {dice_count(own)} in most frames at the companion's own finder "
                      f"threshold ({packaged.find_threshold:g}), but --count says {count}",
                      miscounted=f"lay {dice_count(count)} in view, or run again with "
                                 f"--count {own}.")
    if not good and not seen and frames \
            and (dark := no_dice_said(Area(frames[-1], where))) != NO_DICE_SEEN:
        return Tuning(base, 0, len(frames), [], f"could not read {dice_count(count)}: {dark}")
    if not good:
        # Every die found, not every one read surely: dice of their own kind (an emblem on
        # the 1, dark pips), which the enrolment is for, not only the light (a77dice NIT 5).
        teach = f"; {TEACH_DICE}" if seen == count else ""
        return Tuning(base, 0, len(frames), [],
                      f"could not read {dice_count(count)} in any setting ({found(seen, count)}"
                      "): check the light, that the dice are in view and lie apart, and try "
                      "again" + (f" (or, if {dice_count(own)} {'lies' if own == 1 else 'lie'}"
                                 f" there, run again with --count {own})"
                                 if own is not None and own != count else "") + teach,
                      none_found=not seen)
    sides = [d.side_px for r in good for d in r.dice]
    spread = max(max(larger_than_others(r.dice)) for r in good)
    shapes = {f.shape[:2] for f in frames}
    # Where and at what size the faces were measured, so a frame of another size there has
    # them scaled (reader_config.py; calib62 D2). Frames of mixed sizes say no one size.
    measured = (Measured("mat" if where == MAT_AREA else "view", frames[0].shape[1],
                         frames[0].shape[0]) if len(shapes) == 1 else None)
    scored = config
    config = replace(config, min_face_px=round(max(12.0, 0.6 * min(sides)), 1),
                     max_face_px=round(1.6 * max(sides), 1),
                     held_size=max(base.held_size, round(HELD_MARGIN * spread, 2)),
                     measured=measured)
    # dicecam71 NIT 7: "in 1 of 4 frames" of a folder of four throws, three read whole,
    # hid that the others were read too, with other values.
    values = next(r.values for r in good if sum(1 for g in good if g.values == r.values)
                  == agreed)
    # reviewd71 RISK 1: the face sizes fitted move the finder's looks (scales.py), so the
    # setting saved was never read with: mp_Train_dice_43's five 1s, scored 1, 1, 1, 1, 1
    # at finder threshold 0.2, were read 1, 1, 1, 1, 2 under the sizes fitted to them, and
    # that dice.toml handed the player wrong rolls on other photos too. What is saved must
    # read the laid dice as they were scored (scripts/eval_dice_calibration.py); else the
    # companion's own face sizes, which the scoring read with, are kept.
    kept = ""
    if (otherwise := read_otherwise(config, networks, frames, saved_reads, count, values)):
        # The scored setting itself (its held_size aside, which only doubts a die larger
        # than the ones scored were): it reads the frames as scored, by construction.
        kept = (f", the companion's own (under the sizes fitted to these dice, "
                f"{config.min_face_px:g}-{config.max_face_px:g} px, they read {otherwise})")
        config = replace(scored, held_size=config.held_size)
    mixed = (f"; dice up to {spread:.2f} times the others' size, read up to "
             f"{config.held_size:g} times" if config.held_size > base.held_size else "")
    # reviewd69 RISK B: a die the own threshold finds but doubts is no sure count to refuse
    # by (the 12 photos told their true count saved past such a mark), but a higher
    # threshold under which it is not found is saved only with a word of it.
    # reviewx69 RISK 1: the note names where the marks beyond --count lie, in the words the
    # reader's doubts use, so the player can look there (it showed on 1 in 23 right counts).
    # dicecam71 DEFECT 1: the own threshold saved, its marks beyond --count left out only by
    # the count given to the read, is noted too (three dice told as two, one doubted).
    note = ""
    if config.find_threshold >= packaged.find_threshold and own_marks > count:
        note = more_than_count(f"at the companion's own finder threshold "
                               f"({packaged.find_threshold:g})", own_reads, own_marks,
                               saved_reads, count, frames, "mark", "found")
    # reviewx69 RISK 2: a threshold below the one saved that surely reads more dice than
    # --count (a faint die, the count told one short) was saved past in silence. Told their
    # true count, no real photo saves past such a threshold, so it is said, and first.
    surer = [(number, c.find_threshold, reads) for _, _, c, _, _, reads, _ in results
             if c.find_threshold < config.find_threshold
             and (number := surely_read(reads)) is not None and number > count]
    if surer:
        number, lower, reads = max(surer, key=lambda s: (s[0], s[1]))
        note = more_than_count(f"at finder threshold {lower:g}", reads, number, saved_reads,
                               count, frames, "die", "read surely") or note
    others = (f" (other values in {len(good) - agreed} more)" if len(good) > agreed else "")
    # A still picture (``picture``: read once, a77dice NIT 6) is no "1 of 1 frames"; nor
    # is a camera's one frame (--frames 1) "the picture" (r77dice NIT on e9d385a2).
    read_in = ("the picture" if picture else "1 frame" if len(frames) == 1
               else f"{agreed} of {len(frames)} frames")
    return Tuning(config, agreed, len(frames), values,
                  f"read {dice_count(count)} ({', '.join(map(str, values))}) in {read_in}"
                  f"{others}; finder threshold {config.find_threshold:g}, "
                  f"faces {config.min_face_px:g}-{config.max_face_px:g} px{kept}{mixed}",
                  note=note,
                  frames_whole=len(good))


def read_otherwise(config: ReaderConfig, networks: DiceNetworks,
                   frames: Sequence[np.ndarray], scored: Sequence[DiceRead], count: int,
                   values: list[int]) -> str:
    """How ``config`` reads, given ``count``, a frame whose ``scored`` read (the setting
    chosen, as it was scored) read ``count`` dice surely as ``values``, when it reads one
    otherwise ("1, 1, 1, 1, 2"; "2 2 ? ?, not every die read surely 読めません (a die's value
    is unclear in the middle)"); "" when it reads each of them alike. Said in a calibration's
    summary, where nothing is rolled: no "unsure: unsure (…): please re-roll" (reviewb73
    NIT 5), the read's own words for a throw."""
    reader = DiceReader(config, networks)
    for frame, read in zip(frames, scored, strict=True):
        if read.status is not ReadStatus.OK or len(read.dice) != count \
                or read.values != values:
            continue
        again = reader.read(frame, count)
        if again.status is ReadStatus.OK and again.values == values:
            continue
        if again.status is ReadStatus.OK:
            return ", ".join(map(str, again.values))
        return f"{shown(again) or 'none'}{not_read_surely(again)}"
    return ""


def not_read_surely(read: DiceRead) -> str:
    """Why ``read``, not OK, falls short, to follow what it shows in a calibration's words:
    ", not every die read surely 読めません (why, where)" for an unsure read, its doubts
    without the "please re-roll" a throw is told; " (no dice in view)" for none found."""
    if read.status is ReadStatus.UNSURE and read.doubts:
        return f", not every die read surely 読めません ({read.doubts})"
    return f" ({read.message})"


def more_than_count(at: str, more: Sequence[DiceRead], number: int,
                    saved: Sequence[DiceRead], count: int, frames: Sequence[np.ndarray],
                    what: str, how: str) -> str:
    """The note that ``more`` (reads ``at`` another threshold) finds ``number`` ``what``s
    (marks, dice), ``how`` (found, read surely), where ``saved`` reads ``count`` dice:
    "… a 4th mark was found at the top left: if a die lies there, run again with --count
    4". Where is said as a reader's doubt says it (readings.place_of), from a frame in
    which ``more`` finds ``number`` and ``saved`` reads ``count``: each of the former lying
    on none of the latter (reviewx69 RISK 1: "5 marks were found" next to 3 dice read named
    nothing the player could check). When all of them lie on the dice read (one die found
    as two marks), there is nothing to say; with no such frame, the number alone.

    A doubted mark lying where a die read shows its own side to a camera at the table's
    near edge (``own_side_of``) is that die, not one more: it is not counted or named
    (reviewd71 NIT 1: mp_Train_six_23's three 6s, the top one's front side found as a 4th
    mark, noted "a 4th mark was found at the top: if a die lies there, run again with
    --count 4", and --count 4 was then refused, as no 4th die lies there)."""
    places: list[str] = []
    for frame, wider, read in zip(frames, more, saved, strict=True):
        if len(wider.dice) != number or read.status is not ReadStatus.OK \
                or len(read.dice) != count:
            continue
        beyond = [d for d in wider.dice
                  if not any(math.dist(d.centre, s.centre) < max(d.side_px, s.side_px) / 2
                             for s in read.dice)]
        others = [d for d in beyond if not any(own_side_of(d, s) for s in read.dice)]
        number -= len(beyond) - len(others)
        places = list(dict.fromkeys(place_of(d, frame.shape) for d in others))
        if not places or number <= count:
            return ""
        break
    extra = number - count
    words = (f"{article(number)} {ordinal(number)} {what} was {how}" if extra == 1
             else f"{extra} more {'dice' if what == 'die' else what + 's'} were {how}")
    if places:
        words += f" {' and '.join(places)}"
    return (f"{at} {words}: if {'a die lies' if extra == 1 else 'dice lie'} there, run again "
            f"with --count {number}")


def own_side_of(mark: DieReading, die: DieReading) -> bool:
    """Whether ``mark``, a doubted one (no value read), lies where a camera at the table's
    near edge sees the side of the flat ``die`` read (placement.where_its_side_shows, by
    the distance of their centres), as the read given a throw's count leaves such a side
    out (placement._own_side). Unlike
    there, whatever the doubt and however sure the die's value: this only keeps the note
    from sending the player to look for a die there, and calibrating asks for the dice
    laid apart (mp_Train_dice_8: the one die's front side, doubted as unread, below a 1
    read 0.88 sure)."""
    return (mark.value is None and die.value is not None
            and where_its_side_shows(mark, die, math.dist(mark.centre, die.centre)))


def article(number: int) -> str:
    """"an" before a number said with a vowel first (8th, 11th, 18th, 80th-89th), else "a"."""
    return "an" if str(number).startswith("8") or number in (11, 18) else "a"


def surely_read(reads: Sequence[DiceRead]) -> int | None:
    """How many dice ``reads`` read surely (status OK) in more than half of them, if one
    number is (a still view of laid dice reads alike frame after frame)."""
    counts = Counter(len(r.dice) for r in reads if r.status is ReadStatus.OK)
    if not counts:
        return None
    number, frames = counts.most_common(1)[0]
    return number if number and 2 * frames > len(reads) else None


def found(seen: int, count: int) -> str:
    """How many dice the reader found, against the ``count`` the player gave (review 56,
    finding 13: "could not read 3 dice" hid that 2 were in view)."""
    if seen == count:
        return f"{dice_count(seen)} found, not all read surely"
    return f"{seen or 'no'} {'die' if seen == 1 else 'dice'} found, --count says {count}"


@dataclass(frozen=True)
class Enrolled:
    """The outcome of an enrolment: the player's dice, and what was learned from each throw."""

    enrolment: Enrolment | None  # None: no throw could be used
    throws_used: int
    message: str


def enrol(throws: Sequence[tuple[np.ndarray, list[int]]], config: ReaderConfig,
          networks: DiceNetworks | None = None,
          earlier: Enrolment | None = None) -> Enrolled:
    """Enrol the player's dice from ``throws``: a frame of each throw and the values the
    player says it shows (any order).

    A throw counts when the reader, told how many were named (as the dice tray is told a
    throw's count: dicecam71 DEFECT 2), finds that many dice (read or not: the dice it is
    unsure of are the ones to learn); each die is paired with a
    value named (the judge's surest pairing first) and its window's embedding, in all
    TURNS turns, is kept with it, after those of an ``earlier`` enrolment (unless another
    judge made that one: then it is started again).
    """
    networks = DiceNetworks() if networks is None else networks
    networks.enrol(None)  # the judge's own answers pair the values
    reader = DiceReader(config, networks)
    used, notes = 0, []
    if earlier is not None and earlier.judge != networks.judge_id:
        notes.append("the dice enrolled before were taught to an older dice model: "
                     "enrolled again from these throws")
        earlier = None
    embeddings = [] if earlier is None else [earlier.embeddings]
    values = [] if earlier is None else [earlier.values]
    for number, (frame, named) in enumerate(throws, 1):
        read = reader.read(frame, len(named))  # given the count, as the tray reads a throw
        if len(read.dice) != len(named):
            notes.append(f"throw {number}: {dice_count(len(read.dice))} found, {len(named)} named; "
                         "left out")
            continue
        spots = [Spot(d.centre[0], d.centre[1], d.side_px, 1.0) for d in read.dice]
        probs, embedded = networks.embed(frame, spots)
        mean = probs.reshape(TURNS, len(spots), -1).mean(axis=0)
        given = pair_values(mean, named)
        for turn in range(TURNS):
            rows = embedded[turn * len(spots):(turn + 1) * len(spots)]
            embeddings.append(normalised(rows))
            values.append(np.array(given, dtype=np.int64))
        used += 1
    if not used:
        return Enrolled(earlier, 0, "no throw could be used: " + "; ".join(notes))
    enrolment = Enrolment(np.concatenate(embeddings), np.concatenate(values),
                          networks.judge_id)
    dice = enrolment.dice()
    return Enrolled(enrolment, used, f"enrolled {dice_count(dice)} from {used} of {len(throws)} "
                                     "throws" + ("; " + "; ".join(notes) if notes else ""))


# What a Japanese keyboard types between values: the full-width comma and space become
# "," and " " under NFKC, the ideographic comma does not.
_SEPARATORS = (",", "、")


def typed_values(line: str, count: int) -> tuple[list[int], str]:
    """The ``count`` die values typed on ``line`` (any order), or none and why not, in words
    that name what was typed wrong (review 56, finding 2). Full-width digits, commas and
    spaces and the ideographic comma 、 are taken, and a run of single digits when it is
    exactly ``count`` long ("25" for two dice)."""
    text = unicodedata.normalize("NFKC", line).strip()
    for separator in _SEPARATORS:
        text = text.replace(separator, " ")
    words = text.split()
    if not words:
        return [], "nothing typed"
    if len(words) == 1 and count > 1 and words[0].isdigit() and len(words[0]) == count:
        words = list(words[0])
    wrong = [w for w in words if not w.isdigit()]
    if wrong:
        return [], f"{wrong[0]!r} is not a number"
    values = [int(w) for w in words]
    if len(values) != count:
        return [], (f"{len(values)} {'value' if len(values) == 1 else 'values'} typed, "
                    f"{dice_count(count)} thrown")
    beyond = [v for v in values if not 1 <= v <= 6]
    if beyond:
        return [], f"{beyond[0]} is not a die's value (1 to 6)"
    return values, ""


def shown(read: DiceRead) -> str:
    """The dice of ``read`` as the player would type them, "?" for a die not read surely."""
    return " ".join(sorted((str(d.value) if d.value is not None else "?") for d in read.dice))


def disagreeing(read: DiceRead, typed: Sequence[int]) -> list[int]:
    """The values the reader read surely that ``typed`` does not hold (as many times)."""
    return sorted((Counter(d.value for d in read.dice if d.value is not None)
                   - Counter(typed)).elements())


class ThrowFrames:
    """One frame for each throw of an enrolment, from the camera ``spec`` opened once
    (review 56, finding 3: opened again for each throw, a folder or video gave its first
    frame every time).

    A folder gives its next picture; a video the next frames once something moved and then
    settled (``settle`` frames with nothing moving); a live camera, asked once the player
    says the dice lie still, the first frame after ``settle`` still ones, so a frame
    buffered before the throw is not taken. A still picture gives one throw only.

    A folder's or a video's throw is named (``name``: the picture, or the video's frame),
    and a folder's next picture is named before it is read (``upcoming``): the player types
    the values a photo shows, and was never told which photo (a77dice DEFECT 2). A
    folder's picture that cannot be read is said as the throw's (``skipped``), not passed
    over in silence, which moved every later value onto the wrong photo.
    """

    def __init__(self, spec: str, settle: int, wait_s: float,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.spec = spec
        stream = frame_iterator(spec)
        assert isinstance(stream, CameraStream)  # a source string's frames always are
        self._stream = stream
        self.still = self._stream.still
        self._live = self._stream.live
        self.folder = Path(spec).is_dir()
        # A folder gives its pictures in this order, one item each (a frame, or why not):
        # the names are the source's own, not the folder listed again, which could name
        # another photo than the one read (r77dice NIT on 80b8d04c).
        self._names = [path.name for path in stream.pictures] if self.folder else []
        self._items = 0  # the pictures or frames of a folder or video given so far
        self._settle = settle
        self._wait_s = wait_s
        self._clock, self._sleep = clock, sleep
        self.taken = 0
        self.ended = False  # no throw will come any more
        self.name = ""  # the picture or frame of the last throw given (a folder's, a video's)
        self.skipped = False  # the last answer was a folder's picture that cannot be read

    @property
    def named(self) -> bool:
        """Whether each throw is a picture of a folder or a frame of a video, named."""
        return not self.still and not self._live

    @property
    def upcoming(self) -> str:
        """The folder's picture the next throw reads ("" when none is left, or no folder)."""
        return self._names[self._items] if self._items < len(self._names) else ""

    def next(self) -> np.ndarray | str:
        """The next throw's frame, or why there is none (``ended`` says if for good)."""
        if self.still and self.taken:
            self.ended = True
            # Read, not "taken": the throw may have been left out, refused or undone
            # (dicecam71 NIT 6: "taken already", then "No throw could be used").
            return (f"{self.spec} is a still picture: it holds one throw, read already; "
                    "throw the dice under a camera, or give a folder of photos, for more")
        moved = self.folder or self._live or not self.taken
        motion, still_frames = Motion(), 0
        deadline = self._clock() + self._wait_s
        self.skipped = False
        for item in self._stream:
            self._items += not self._live  # each is one picture of a folder, or frame
            if isinstance(item, str) and self.named:
                # a folder's picture that cannot be read ("b.jpg: …; skipped"): said, as
                # this throw's, so the values typed next are for the picture they name
                self.skipped = True
                return item
            if isinstance(item, str):  # a live camera without a picture just now
                if self._clock() > deadline:
                    return f"no frames from {self.spec!r}: {item.removesuffix('; retrying')}"
                self._sleep(NO_PICTURE_POLL_S)
                continue
            if self._live and self._clock() > deadline:
                # A hand or a fan in view, or a flickering light, never lets the view settle:
                # said, not waited on for ever (review 56b, finding 6).
                return (f"the view keeps moving (nothing in view lay still for {self._wait_s:g} "
                        "s: a hand or something else moving in view, or a flickering light): "
                        "keep hands out of view, steady the light and press Enter again, or "
                        "Ctrl-C to stop (the throws taken are kept)")
            moving = motion.moving(item)
            moved = moved or moving
            still_frames = 0 if moving else still_frames + 1
            if self.folder or self.still or (moved and still_frames > self._settle):
                self.taken += 1
                self.name = (self._names[self._items - 1] if self.folder
                             else f"frame {self._items}" if self.named else "")
                return item
        self.ended = True
        return f"{self.spec}: no more frames, so no more throws"

    def close(self) -> None:
        self._stream.close()
