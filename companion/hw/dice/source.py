"""Real dice read by the camera: a DiceSource (``roll(count, sides)``) backed by frames.

The source waits until the dice lie still (nothing moving between frames, then
the same read over ``stable_frames`` frames in a row, no die moving more than
``still_px``) and only then returns their values. While the dice roll, or when
the reader is unsure, it keeps watching and tells the player why through
``on_status`` (e.g. "unsure ...: please re-roll"), so a cocked or hidden die
is re-rolled instead of guessed. The reader is told how many dice were thrown
(``DiceReader.read``'s ``count``). The play session may also take a steady read
short only of values the player can type (:meth:`CameraDiceSource.read_throw`).

Each :meth:`CameraDiceSource.roll` is a throw of its own: the first reads the dice lying
in view, and every later one waits until the camera sees the dice area change (the dice
picked up and thrown again), so the dice of one throw never count for two rolls (a
``2D6+2D6`` or ``x2 2D6`` is two throws); a change elsewhere in view (a hand over the mat)
leaves the dice taken unmoved, and a read of the same values where they lay is no new
throw (:func:`same_dice`). A still picture holds one throw: a second
roll from it is refused (:class:`NewThrowNeeded`) rather than read again.

Waiting costs little (soak57 F2): a camera's frames are taken at most 30 a second, and a
few a second once nothing has moved for some seconds (:class:`~companion.hw.camera.pace.Pace`),
so a source that does not block (a video, a rendered scene) is not read in a busy loop.
Each frame taken is read in full: a white die landing on a white tray changes too few
pixels to count as motion, and only its read sees it (review57b). No time runs out while the
player is not throwing (nothing moving, no dice in view, or the last throw's dice lying
there): a table talks for minutes before a throw. The wait gives up (:class:`DiceReadTimeout`)
only on a view that has kept from settling for ``timeout_s``: dice moving or unsure. A camera
that has given no picture for ``no_picture_s`` (unplugged, never sending) is a
:class:`~companion.errors.DeviceError` naming it, and a webcam not plugged in at all is one at
the first roll, so the player hears of it at once and may type the dice instead (dice62 D2).

Frames come from an iterator of BGR images, an object with ``read()`` (a
``cv2.VideoCapture``), or a camera source string as the tile camera takes them
(:mod:`companion.hw.dice.frames`: ``camera:0``, ``/dev/video0``, ``picamera``, a
picture, which then stands still for ever, a folder or a video). While a live camera
has no picture (unplugged, still starting) the stream holds its message in words
instead of a frame, so the roll waits a few seconds for it and says why. The camera is
opened only when the first roll needs it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError, DeviceError, StaleEnrolment
from companion.hw.camera.change import SHARE, THRESHOLD, changed, shrink
from companion.hw.camera.pace import FRAME_PERIOD_S, Pace
from companion.hw.camera.quality import EXPOSURE_RANGE
from companion.hw.camera.video_length import declared_past_end
from companion.hw.dice.enrol import ENROL_FILE, Enrolment
from companion.hw.dice.frames import (
    MAT_AREA,
    NO_PICTURE_POLL_S,
    Area,
    CameraStream,
    Frame,
    FrameOrWhy,
    FrameReader,
    area_of,
    frame_iterator,
    is_picture,
)
from companion.hw.dice.networks import DiceNetworks
from companion.hw.dice.reader import DiceReader
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.readings import (
    MOVING,
    NO_DICE_SEEN,
    SAME_DICE,
    THROW_AGAIN,
    DiceRead,
    ReadStatus,
    as_picture,
    dice_count,
    is_outside,
    none_in_view,
    outside_area,
    teach_dice,
    too_dark,
)

#: What the refusal of a still picture's second throw advises, by default (no command named:
#: :attr:`CameraDiceSource.one_throw` is its caller's).
ONE_THROW = "A picture serves one throw; throw the dice under a camera for more"

#: How long a camera may give no picture before a roll gives up on it (DeviceError): a
#: webcam reopens every 2 s, so an unplugged one has been tried several times by then.
NO_PICTURE_S = 10.0


class UnsupportedDice(CompanionError, ValueError):
    """The camera reads six-sided pip dice only."""


class DiceReadTimeout(CompanionError, TimeoutError):
    """No steady read of the dice came in time."""


class NewThrowNeeded(CompanionError):
    """A roll needs a new throw, and the camera is a still picture that never gives one."""


class FramesRanOut(DeviceError):
    """A folder of pictures or a video given as the camera ended before the dice were read:
    ``source`` ``ended`` (its pictures ran out, the video ended) and ``why``, joined by
    ``joint``. :attr:`after_ran_out` is the same without ``ended``, for a caller that says
    first that the pictures ran out (the dice tray: maker75 NIT 4, "pictures ran out …
    its pictures ran out", five colons in a row)."""

    def __init__(self, source: object, ended: str, why: str, joint: str = ": ") -> None:
        super().__init__(f"{source}: {ended}{joint}{why}")
        self.after_ran_out = f"{source}: {why}"


def _read_ok(read: DiceRead) -> bool:
    return read.status is ReadStatus.OK


class Steadiness:
    """Passes a read on only once the same dice have lain still for ``frames`` frames.

    Only ``usable`` reads count (default: those the reader was sure of)."""

    def __init__(self, frames: int, still_px: float,
                 usable: Callable[[DiceRead], bool] = _read_ok) -> None:
        self.frames = frames
        self.still_px = still_px
        self.usable = usable
        self._history: list[DiceRead] = []

    def update(self, read: DiceRead) -> DiceRead | None:
        """Add one frame's read; return it when the dice have been still long enough."""
        usable = self.usable(read)
        if not usable or (self._history and not self._same(self._history[-1], read)):
            self._history.clear()
        if usable:
            self._history.append(read)
        if len(self._history) >= self.frames:
            return read
        return None

    def _same(self, before: DiceRead, now: DiceRead) -> bool:
        if before.values != now.values:
            return False
        for die in now.dice:
            moved = min((np.hypot(die.centre[0] - b.centre[0], die.centre[1] - b.centre[1])
                         for b in before.dice), default=np.inf)
            if moved > self.still_px:
                return False
        return True


def same_dice(before: DiceRead, now: DiceRead, still_px: float) -> bool:
    """Whether ``now`` reads dice of ``before`` lying where they lay: every die of ``now``
    showing the value of a die of ``before`` (a doubted value, None, as its own) and within
    ``still_px`` or half its side (a die's centre wanders that much between reads) of it,
    each die of ``before`` matched once. ``now`` may have fewer dice than ``before``: some
    of them lifted away, the rest left lying, are no new throw either (reviewdice66 DEFECT 1:
    one die of a 2D6 to-hit picked up, the other left, counted as the 1D6 damage).
    Positions are the read area's (the mat's dice area, or the view).

    A throw taken (or rejected) and then counted again once anything moved in view (a hand
    over the mat's tile slots, a webcam's picture gone and back) were these dice, unmoved
    (dice66 D1). A real throw landing every die on the value of a die of ``before`` within
    half a side of where that die lay is taken for it, and waited on as unmoved
    (:data:`~companion.hw.dice.readings.SAME_DICE`: the player throws again). For one die
    thrown after one die that is a sixth times a spot of half a side's radius: on the mat
    (a 16 mm die, an 85x130 mm dice area) about 1.8 % of the area, some 1 throw in 330 if
    dice landed anywhere alike (more often for a die dropped rather than thrown, and per
    die of ``before``: twice after two); rarer with more dice thrown (reviewdice66 RISK 1)."""
    if not now.dice:
        return False
    left = list(before.dice)
    for die in now.dice:
        near = [b for b in left if b.value == die.value and np.hypot(
            die.centre[0] - b.centre[0], die.centre[1] - b.centre[1])
            <= max(still_px, die.side_px / 2)]
        if not near:
            return False
        left.remove(near[0])
    return True


class Motion:
    """Tells whether anything moved between consecutive frames (a throw in progress).

    Frames are compared at quarter size, where sensor noise averages out
    (:mod:`companion.hw.camera.change`); a share of changed pixels above ``share`` means
    something in view is moving. The first frame, or one of another size, is not moving.
    """

    def __init__(self, threshold: int = THRESHOLD, share: float = SHARE) -> None:
        self.threshold = threshold
        self.share = share
        self._last: np.ndarray | None = None

    def moving(self, frame: Frame) -> bool:
        small = shrink(frame)
        last, self._last = self._last, small
        if last is None or last.shape != small.shape:
            return False
        return changed(last, small, self.threshold, self.share)


def outside_said(frame: Frame, reader: DiceReader, config: ReaderConfig,
                 count: int | None = None) -> str:
    """:func:`outside_area` for the dice ``reader`` reads in the whole ``frame`` with
    ``config`` (its sizes for the whole view) when it reads every mark found as a die, as
    ``dice read --view`` would; "" else. A read with a mark not read as a die says nothing:
    tiles beside the dice area are marks too (dicecam75 DEFECT 3). Said of as many dice as
    are read there, ``count`` or not (reviewdice75 R1: three dice beside the area, a 2D6
    asked, or a die lost off the table, were "none in view")."""
    reader.config = config.for_frame(frame.shape, False)
    whole = reader.read(frame, count)
    if not whole.dice or any(d.value is None for d in whole.dice):
        return ""
    return outside_area(len(whole.dice))


def no_dice_said(looked: Area) -> str:
    """What a read finding no dice in ``looked`` says: "no dice in view", or, when it is the
    mat's dice area and its printed-white paper is darker than the camera's check allows
    (``EXPOSURE_RANGE``, the same grey `calibrate camera` calls dark), that it is too dark to
    be sure. The whole view has no paper of known white to judge it by."""
    if looked.where == MAT_AREA and looked.image is not None:
        image = looked.image
        grey = float(np.median(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
                               if image.ndim == 3 else image))
        if grey < EXPOSURE_RANGE[0]:
            return too_dark(grey, EXPOSURE_RANGE[0])
    return NO_DICE_SEEN


#: How the dice are said read without the player's enrolled dice (a notice's start).
WITHOUT_ENROLLED = "dice read without your enrolled dice 登録ダイスなし"


def lean_on_enrolled(networks: DiceNetworks, path: Path, *,
                     copies: bool = True) -> tuple[int, str]:
    """Have ``networks`` read with the player's dice enrolled at ``path`` (``dice_enrol.npz``,
    by `companion calibrate dice --enrol`), as the dice tray, ``roll`` and `dice read` read:
    how many dice are enrolled (0: none, or not used), and why they are not used, "" when
    they are or there are none. One taught to another dice model is left out, safely (the
    judge alone, only less sure of odd dice), and said. One that cannot be read is a
    DataError naming the file (:meth:`Enrolment.load`, with ``copies``). `calibrate dice`
    reads with its two steps (:meth:`Enrolment.load`, :func:`use_enrolled`), so that it
    scores its settings on the reads the tray will make (dicecam73 DEFECT 1: enrolled odd
    dice the tray read were refused there as "not all read surely") and tells the file's
    faults from the judge's (reviewb73 RISK 2)."""
    return use_enrolled(networks, Enrolment.load(path, networks, copies=copies))


def use_enrolled(networks: DiceNetworks, enrolment: Enrolment | None) -> tuple[int, str]:
    """:func:`lean_on_enrolled` once ``enrolment`` is read: how many dice ``networks`` lean
    on, and why none, "" when they do or there are none. StaleEnrolment is said; the
    DataError of a judge that gives no embedding to enrol with is raised, as it is no fault
    of the file (`calibrate dice` keeps the file for it: reviewb73 RISK 2)."""
    if enrolment is None:
        return 0, ""
    try:
        networks.enrol(enrolment)
    except StaleEnrolment as exc:
        return 0, f"{WITHOUT_ENROLLED}: {exc}"
    return enrolment.dice(), ""


class CameraDiceSource:
    """Dice thrown on the table and read by the camera (a DiceSource)."""

    def __init__(self, source: str = "camera:0", *,
                 frames: Iterable[FrameOrWhy] | FrameReader | None = None,
                 config: ReaderConfig | None = None, config_file: Path | None = None,
                 networks: DiceNetworks | None = None, timeout_s: float = 120.0,
                 no_picture_s: float = NO_PICTURE_S, area: str = "auto",
                 on_status: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        """``config_file`` is the user's tuned thresholds (the app passes
        ``config_dir() / "dice.toml"``); ``frames`` overrides ``source``, which then only
        names them (the play session's: a folder or a video that runs out is named);
        ``networks`` shares a finder and judge already loaded (default: the packaged ones).
        ``area`` is ``"view"`` (dice anywhere in the frame), ``"mat"`` (only the
        printed mat's dice area, straightened by its markers) or ``"auto"`` (the
        mat's dice area when its markers are in view, so tiles on the mat are never
        taken for dice; else the whole view)."""
        if area not in ("view", "mat", "auto"):
            raise UnsupportedDice(f"dice area {area!r}: use 'view', 'mat' or 'auto'")
        self.area = area
        self.source = source
        self.config = config or ReaderConfig.load(config_file)
        self.on_status = on_status
        self.enrolled = 0  # the player's enrolled dice the judge uses (said by `dice read`)
        # Why the player's enrolled dice are not used, said once: by ``on_status`` now, or by
        # a caller that has no status yet (the dice tray says it at start: dicecam71 DEFECT 3).
        self.enrol_notice = ""
        if networks is None and config_file is not None:
            # The player's own dice, enrolled by `companion calibrate dice --enrol`.
            networks = DiceNetworks()
            self.enrolled, self.enrol_notice = lean_on_enrolled(
                networks, config_file.with_name(ENROL_FILE))
            if self.enrol_notice and on_status is not None:
                on_status(self.enrol_notice)
        self.reader = DiceReader(self.config, networks)
        self.own_sizes_in: str | None = None  # see read_frame
        self.read_where = ""  # where read_frame read the last frame (frames.area_of)
        self.timeout_s = timeout_s
        self.no_picture_s = no_picture_s
        self._clock = clock
        self._sleep = sleep
        self._given = frames
        self._frames: Iterator[FrameOrWhy] | None = None
        # Whether moving is judged against the frame before, across rolls too: dice
        # thrown again between two rolls are seen as a change.
        self._motion = Motion()
        self._taken = 0  # throws roll() has returned
        # Throws read_throw() has returned: roll()'s, or the play session's, which reads
        # each throw itself, rejected ones too (the frames they took are gone all the same).
        self._read = 0
        self._last: DiceRead | None = None  # the last of them (roll's ``unlike``)
        # What roll's refusal of a still picture's second throw advises: the caller's to
        # set, naming the command that was run (fixcarry70 item 2: `companion events` was
        # pointed to `companion roll 2D6`).
        self.one_throw = ONE_THROW
        # What the next roll was asked as, when not its count of D6 (the roll command's D66,
        # read as two D6): its caller's to set before each roll (dicecam71 NIT 8).
        self.asked = ""
        # Why a still picture cannot serve the caller's command, when it is several throws,
        # said with the refusal of its first throw: the caller's to set (the roll command's
        # "`2D6+1D6` is 2 throws …": dicecam73 NIT 5).
        self.several = ""

    @property
    def still(self) -> bool:
        """Whether the frames are a still picture (one throw, for ever)."""
        if self._given is None:
            return is_picture(self.source)
        return bool(getattr(self._given, "still", False))

    @property
    def from_files(self) -> bool:
        """Whether the frames are a folder's pictures or a video's, as ``source`` names
        them (a camera's name is no file)."""
        named = Path(self.source) if self.source else None
        return named is not None and (named.is_dir() or named.is_file())

    def open(self) -> None:
        """Open the camera now rather than at the first roll: a webcam not plugged in is
        said (:class:`~companion.errors.DeviceError`) before the player is told to throw."""
        self._open()

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        """Wait for a throw of ``count`` still dice and return their values in the order
        they lie, left to right (:func:`~companion.hw.dice.readings.lying_order`: a D66's
        left die is its tens). The first roll reads the dice in view; each later one is a
        new throw: it waits until the dice are seen moving (picked up and thrown again),
        and a still picture, whose dice never move, refuses it (:class:`NewThrowNeeded`),
        naming the roll as :attr:`asked` says (a D66: dicecam71 NIT 8), else as ``count`` D
        ``sides``. ``purpose`` (what the roll is for) does not change what is read: the
        prompt is the caller's."""
        if self._taken and self.still and sides == 6 and count >= 1:
            where = f"{self.source} is" if self._given is None else "the frames are"
            raise NewThrowNeeded(
                f"{where} a still picture: it holds one throw, read for the first roll, "
                f"and the next roll ({self.asked or f'{count}D{sides}'}) needs a new throw. "
                f"{self.one_throw}")
        read = self.read_throw(count, sides, new_throw=self._taken > 0, unlike=self._last,
                               throw=self._taken + 1)
        self._taken += 1
        self._last = read
        return read.as_lying

    def read_throw(self, count: int, sides: int, may_type: bool = False,
                   new_throw: bool = False, unlike: DiceRead | None = None,
                   throw: int = 1) -> DiceRead:
        """Wait for ``count`` still dice and return their read, which is OK; or, with
        ``may_type``, short only of values the player may type (:meth:`DiceRead.to_type`:
        flat dice whose value alone the reader doubts), so the play session asks the
        player for those rather than a re-roll of every die. With ``new_throw`` the dice
        lying in view are a throw already taken: nothing is read until the camera sees
        the dice area change (:data:`THROW_AGAIN` meanwhile). ``unlike``: the read of the
        throw before (taken or rejected): a read of the same dice lying where they lay
        (:func:`same_dice`) is those dice, not a new throw, and is waited past as
        :data:`THROW_AGAIN` too, however much else moved in view. A still picture never
        changes: once it has read the same over ``stable_frames`` frames and that read is
        not one to return, the wait stops at once with why (:class:`NewThrowNeeded`).
        Waiting for a throw never runs out (see the module); a view that keeps from settling
        for ``timeout_s`` does (:class:`DiceReadTimeout`). ``throw``: which throw of the
        caller's roll or walk this is, named if the frames run out (:meth:`_ran_out`)."""
        if sides != 6:
            raise UnsupportedDice(
                f"the camera reads six-sided pip dice only, not D{sides}; "
                "use simulated or typed dice for this roll")
        if count < 1:
            raise UnsupportedDice(f"cannot read {count} dice")
        frames = self._open()
        # The camera's own frames; frames handed in are their giver's to pace (CameraFrames).
        pace = Pace(FRAME_PERIOD_S, self._clock) if isinstance(frames, CameraStream) else None
        steady = Steadiness(self.config.stable_frames, self.config.still_px,
                            lambda read: _read_ok(read) or (may_type and bool(read.to_type(count))))
        # The same read over the stable frames: a still view has settled on it (and a still
        # picture will never give another).
        still = self.still
        # Frames of a file (a picture, a folder, a video): no die in them can be taken away,
        # nor added, nor re-rolled, so none is asked for (reviewdice75 N3: a video's unsure
        # throw said "please re-roll", then ran out saying the die could not be read surely).
        on_file = still or self.from_files
        same = Steadiness(self.config.stable_frames, self.config.still_px, lambda _: True)
        same_as: tuple[ReadStatus, str] | None = None
        trying_since: float | None = None  # the view has kept from settling since then
        dark_since: float | None = None  # the camera has given no picture since then
        said = ""
        # How many dice the last frames held lying still, read as dice, where that is not
        # ``count`` (None else): why frames that run out gave no throw (maker73 NIT 4).
        still_shown: int | None = None
        # The last frames' read, held still, where a die in it could not be read surely
        # (None else): that is why, not stillness (dicecam75 DEFECT 2).
        still_unsure: DiceRead | None = None
        # What the last frames, held still with no dice in the mat's dice area, said of dice
        # outside it (None else): why no dice lay there (reviewdice75 D1).
        still_outside: str | None = None
        # What a read of the whole view said of dice outside the mat's dice area, since the
        # view last moved (None: not read yet): read once a settle, not at every frame.
        outside: str | None = None
        while True:
            if pace is not None:
                pace.wait(self._sleep)
            looked = False  # the read is the reader's, of the dice in the frame
            waiting = False  # the player is not throwing: no time runs out
            frame = next(frames, None)
            if frame is None:
                raise self._ran_out(count, sides, throw, still_shown, still_unsure,
                                    still_outside)
            if not isinstance(frame, str):
                dark_since = None
            if isinstance(frame, str):
                read = DiceRead((), ReadStatus.UNSURE, f"no picture 映像なし: {frame}")
                now = self._clock()
                if dark_since is None:
                    dark_since = now
                elif now - dark_since >= self.no_picture_s:
                    # Unplugged, or never sending: no throw can be read (dice62 D2).
                    raise DeviceError(f"no picture from the camera in {self.no_picture_s:.0f} s"
                                      f" 映像なし: {frame.removesuffix('; retrying')}")
                self._sleep(NO_PICTURE_POLL_S)
            elif self._motion.moving(frame):
                # A throw in progress: nothing to read until the dice settle.
                read = DiceRead((), ReadStatus.UNSURE, "the dice are moving")
                new_throw = False
                outside = None
                if pace is not None:
                    pace.changed()
            elif new_throw:  # the dice of the throw taken before, lying where they fell
                read = DiceRead((), ReadStatus.UNSURE, THROW_AGAIN)
                waiting = True
            else:
                read = self.read_frame(frame, count, outside=False)
                looked = True
                if (read.status is ReadStatus.NO_DICE and read.message == NO_DICE_SEEN
                        and self.read_where == MAT_AREA):
                    if outside is None:
                        outside = self.outside_said(frame, count)
                    if outside:
                        read = DiceRead(read.dice, read.status, outside)
                waiting = read.status is ReadStatus.NO_DICE
                if unlike is not None and read.dice and same_dice(unlike, read,
                                                                  self.config.still_px):
                    # The throw before's dice, where they lay: something else moved, or
                    # some were lifted away; said as such (reviewdice66 RISK 1).
                    read = DiceRead((), ReadStatus.UNSURE, SAME_DICE)
                    looked, waiting = False, True
            message = read.message
            if read.message == "the dice are moving":
                message = MOVING
            elif read.status is ReadStatus.NO_DICE and read.message == NO_DICE_SEEN:
                message = none_in_view(count)
            elif on_file:  # no die can be taken away from a file, nor added, nor re-rolled
                message = as_picture(read)
            if message != said and self.on_status is not None:
                self.on_status(message)
            said = message
            settled = steady.update(read)
            if settled is not None and len(settled.dice) == count:
                self._read += 1
                return settled
            if (read.status, read.message) != same_as:
                same_as = (read.status, read.message)
                same = Steadiness(self.config.stable_frames, self.config.still_px,
                                  lambda _: True)
            steadily = same.update(read) is not None
            still_shown = len(read.dice) if (
                steadily and looked and len(read.dice) != count
                and all(d.value is not None for d in read.dice)) else None
            still_unsure = read if (
                steadily and looked and read.status is ReadStatus.UNSURE
                and any(d.value is None for d in read.dice)) else None
            still_outside = read.message if (
                still_shown == 0 and is_outside(read.message)) else None
            if still and steadily:  # read steadily, and never to change
                where = (f"the picture {self.source}" if self._given is None
                         else "the still picture")
                shown = len(read.dice)
                # Marks the reader is unsure of may not be dice (`dice read` says "marks
                # that may be dice"): counted as dice shown only when each was read as a die
                # (events64 N6: "shows 3 dice" of a blurred throw).
                if looked and shown != count and all(d.value is not None for d in read.dice):
                    inside = " in the mat's dice area" if is_outside(read.message) else ""
                    why = (f"{where} shows {shown or 'no'} {'die' if shown == 1 else 'dice'}"
                           f"{inside}, {count} {'was' if count == 1 else 'were'} asked for")
                else:
                    why = f"{where} never changes and does not read as {count}D{sides}"
                several = f". {self.several}" if self.several and throw == 1 else ""
                teach = teach_dice(read, count) if looked else ""
                raise NewThrowNeeded(f"{why}: {message}{teach}{several}")
            now = self._clock()
            if waiting:
                trying_since = None
            elif trying_since is None:
                trying_since = now
            elif now - trying_since >= self.timeout_s:
                # Dice that lay still, a die's value among them unclear (one the tray asks
                # to be typed), are said so: the wait named no cause (a77dice NIT 4).
                doubt = "" if still_unsure is None or not still_unsure.to_type(count) else (
                    f": the dice lay still, but {still_unsure.doubts}; re-roll the dice "
                    f"振り直し{teach_dice(still_unsure, count)}")
                raise DiceReadTimeout(f"no steady read of {dice_count(count)} in "
                                      f"{self.timeout_s:.0f} s 読み取れず{doubt}")

    def read_frame(self, frame: Frame, count: int | None = None,
                   outside: bool = True) -> DiceRead:
        """Read one frame, cut down to the mat's dice area as ``area`` says; ``count`` is
        how many dice were thrown, when known. With ``outside``, a dice area that reads no
        dice has the whole frame read too, and dice read there are said to lie outside it
        (:func:`outside_said`)."""
        looked = area_of(frame, self.area)
        self.read_where = looked.where
        if looked.image is None:
            return DiceRead((), ReadStatus.UNSURE, looked.where)
        # The face sizes calibrated at another size of this area, scaled to this frame's.
        on_mat = looked.where == MAT_AREA
        self.reader.config = self.config.for_frame(looked.image.shape, on_mat)
        # Where the last frame was read with the companion's own face sizes, the saved ones
        # measured in the other area: that area (said by `dice read`, cal66 N6), else None.
        self.own_sizes_in = looked.where if self.config.measured_elsewhere(on_mat) else None
        read = self.reader.read(looked.image, count)
        if read.status is ReadStatus.NO_DICE:
            said = no_dice_said(looked)
            if outside and said == NO_DICE_SEEN and looked.where == MAT_AREA:
                said = self.outside_said(frame, count) or said
            return DiceRead(read.dice, read.status, said)
        return read

    def outside_said(self, frame: Frame, count: int | None = None) -> str:
        """What to say of dice lying in ``frame`` outside the mat's dice area, which read
        none (:func:`outside_said`)."""
        return outside_said(frame, self.reader, self.config, count)

    def _ran_out(self, count: int, sides: int, throw: int, still_shown: int | None = None,
                 still_unsure: DiceRead | None = None,
                 still_outside: str | None = None) -> DeviceError:
        """Why the frames ended before the dice were read: a folder or a video given as the
        camera is named, with how it is read (dicecam69 NIT 3: a folder of one throw per
        picture ran out with "the camera stopped", and the player was asked "no camera?").
        The throw awaited is named (reviewd69 DEFECT C): a walk of several throws runs out
        at a later one, for which one picture of a throw is no help; at the first, both are
        advised (reviewx69 NIT 3). The play session hands its frames in, ``source`` naming
        them: its throws (rejected ones too) are counted as ``roll``'s are, and the picture
        advised goes where the folder was chosen (``--source``, else dice.camera_source:
        the tray has no ``--source``). The tray said "the dice camera gives no picture: the
        camera stopped giving frames" (fixcarry70 item 1). The throw named is ``throw``, of
        the roll or walk the player is on: the folder's count since the tray opened (plain
        rolls before, reads rejected) named a table's first die "throw 3" (reviewe70 RISK 2);
        the throws the folder gave are said apart, as the folder's. ``still_shown``: the
        dice the last frames held lying still where another count was asked; that is why,
        and said so: "ran out before the dice lay still" blamed stillness (maker73 NIT 4).
        ``still_unsure``: the read the last frames held still where a die could not be read
        surely; said as the single picture says it, as the dice did lie still (dicecam75
        DEFECT 2: "the video ended before the dice lay still", of dice still in every
        frame). ``still_outside``: what those frames, with no dice in the mat's dice area,
        said of dice outside it; said so (reviewdice75 D1: "no dice were in view" of three
        dice lying in view beside the area, just said to lie outside it)."""
        steady = self.config.stable_frames
        read = self._read
        named = Path(self.source) if self.source else None  # "" is no folder, "." as a Path
        dice = f"the dice of throw {throw} ({count}D{sides})" if throw > 1 else "the dice"
        ended = "its pictures ran out" if named is not None and named.is_dir() \
            else self._video_ended(named)
        of = f" for throw {throw} ({count}D{sides})" if throw > 1 else ""
        if named is not None and still_unsure is not None and (named.is_dir()
                                                               or named.is_file()):
            return FramesRanOut(self.source, ended, f"the dice lay still, but not every "
                                f"die could be read surely{of}: {as_picture(still_unsure)}; "
                                f"give frames where each die's face is clear"
                                f"{teach_dice(still_unsure, count)}")
        if named is not None and still_shown is not None and (named.is_dir()
                                                              or named.is_file()):
            asked = f"{count} {'was' if count == 1 else 'were'} asked"
            if not still_shown and still_outside:
                return FramesRanOut(self.source, ended, f"no dice in the mat's dice area "
                                    f"where {asked}{of}: {still_outside}; give frames of "
                                    f"{dice_count(count)} in the dice area")
            lay = f"{dice_count(still_shown)} lay still" if still_shown \
                else "no dice were in view"
            return FramesRanOut(self.source, ended, f"{lay} where {asked}{of}; give "
                                f"frames of {dice_count(count)}")
        if named is not None and named.is_dir():
            # The first throw's advice fits a single roll and a walk alike: the source
            # cannot know whether more throws are to be asked (reviewx69 NIT 3: one picture,
            # as advised, refused a walk's second throw).
            advice = (f"give one picture of the throw as {self.given_as()} for a single "
                      "roll, or, for several throws (an events walk), a folder holding the "
                      "frames of each throw in turn, the dice seen moving between them"
                      if not read else
                      f"a folder holds the frames of every throw in turn, the dice seen "
                      f"moving between them; {read} "
                      f"{'throw was' if read == 1 else 'throws were'} read from it")
            return FramesRanOut(
                self.source, "its pictures ran out", f"before {dice} lay still in {steady} "
                "of them in a row (a folder is read as a camera's frames, in name order, not "
                f"one throw per picture); {advice}", " ")
        if named is not None and named.is_file():
            return FramesRanOut(self.source, ended, f"before {dice} lay still "
                                f"for {steady} frames in a row", " ")
        return DeviceError("the camera stopped giving frames before the dice were read")

    @staticmethod
    def _video_ended(named: Path | None) -> str:
        """How a video given as the camera ended: where it is cut short, when it holds fewer
        bytes than its header declares (:func:`declared_past_end`), as the tile camera says
        it; ``roll --source`` of a half-copied video blamed only the dice (r76 remaining)."""
        if named is not None and named.is_file() and declared_past_end(named):
            return ("the video ended where it is cut short (the file holds less than its "
                    "header says, as an unfinished copy or download does: copy it again)")
        return "the video ended"

    def given_as(self) -> str:
        """Where the dice camera was given, for advice: ``--source``, or else the setting
        that chose it (a :class:`~companion.hw.camera.choice.CameraChoice`'s), which is
        dice.camera_source even when its "auto" took the tiles' camera: the dice alone are
        changed there."""
        setting = getattr(self.source, "setting", "--source")
        return "--source" if setting == "--source" else "dice.camera_source"

    def _open(self) -> Iterator[FrameOrWhy]:
        if self._frames is None:
            frames = frame_iterator(self._given if self._given is not None else self.source)
            if isinstance(frames, CameraStream):
                frames.refuse_absent()  # a webcam not plugged in: said now, not waited for
            self._frames = frames
        return self._frames
