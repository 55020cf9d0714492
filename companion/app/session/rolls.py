"""Dice a mode asks for: thrown by the companion, or real dice read by the camera.

Camera dice are read like tiles: the source waits for the dice to lie still,
the read is shown before it counts (B / Reject rejects it, A / Accept or the
timeout accepts it). Every roll asked for is a throw of its own: once a throw is
read (accepted, by key or timeout, or rejected), the camera ignores the dice
until it sees them move (picked up and thrown again), so the dice still lying
there never count for the next roll: nor once something else moved in view (a hand
over the mat, the camera's picture gone and back), the same values read where they lay
being those dice (:func:`~companion.hw.dice.source.same_dice`). On a live camera the
session's first read is not taken by the timeout: dice may have lain there since
before it started (a throw already taken before a power cut), so A takes it and B asks
for a new throw. A still
picture (a file as the camera) holds one throw: the rolls after it wait, saying so.
Simulated dice count at once. B while waiting for a throw goes back
(:attr:`Throw.back`), but not the second press of a double on the read's Accept or Reject
before it (:meth:`CameraFrames.guard`).

When the camera has found every die thrown but cannot tell some flat dice's values
(``DiceRead.to_type``), the player is asked each of those values, its place named, or
may re-roll; no time runs out on that question, and the values typed are shown with
the others before the throw counts. A die other than a D6 (a D4, a D20), which the
camera cannot read, the player throws and types on a keypad (:mod:`.keypad`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from companion.app.session.controls import (
    BACK,
    READ_OPTIONS,
    Confirm,
    Controls,
    SystemAsked,
    came_at,
    choose,
    doubles,
    in_window,
)
from companion.app.session.keypad import Keypad
from companion.app.session.mode import RollAsk, Show, Throw
from companion.dice import DiceSource
from companion.dice.notation import D66Order
from companion.errors import CompanionError, DeviceError, IllegalAction
from companion.hw.buttons import Button, Pick, Press
from companion.hw.camera.pace import FRAME_PERIOD_S, Pace
from companion.hw.dice.readings import THROW_AGAIN, guidance, lying_order
from companion.hw.display.view import TO_TYPE, Option

if TYPE_CHECKING:
    # frames are numpy images; the camera's code imports numpy and OpenCV when used
    import numpy as np

    from companion.hw.dice.frames import FrameOrWhy
    from companion.hw.dice.readings import DiceRead
    from companion.hw.dice.source import CameraDiceSource

WAIT_OPTIONS = (BACK,)  # while the dice are awaited
# The player's next step while the dice are awaited or judged (guidance, not trouble), each
# in both languages as all the screen says.
WAITING = "waiting for the dice ダイス待ち"
REJECTED = "read rejected: pick the dice up and throw them again やり直し: 拾って振り直し"
# Said while the dice of a throw taken (accepted) still lie there, until they move: the
# words the camera source says for it, so the player meets one sentence.
TAKEN = THROW_AGAIN
STILL = " (a still picture never moves 静止画: B goes back 戻る)"
# The session's first read on a live camera: the dice may have lain there since before.
FIRST_LIVE = "first throw of the session: A accepts (no timeout) 最初の出目: Aで確定"
#: A throw with a value the player typed: the typed value may be a reflex's (review62f).
TYPED_CHECK = "check the value you typed: A accepts (no timeout) 入力値を確認: Aで確定"
#: Said after a read with typed values, each marked with a star (``2*``).
TYPED_MARK = "* typed 入力"
FACES = tuple(range(1, 7))
TYPED_WHY = "the camera reads D6 only カメラはD6のみ"  # under a typed die's keypad
NO_PICTURE_WHY = "the dice camera gives no picture カメラ映像なし"  # under it, the camera lost
#: What a roll whose camera gives no picture asks (play.table_modes asks the same at start).
NO_PICTURE_OPTIONS = (Option("typed", "Type the dice 手入力で続ける", Button.ATTACK),
                      Option("again", "Try the camera again 再試行", Button.FLEE))
#: A folder of pictures or a video given as the dice camera ran out: no camera is missing,
#: and trying again gives no more pictures, so the other way is back (the roll fails).
RAN_OUT = "the dice camera's pictures ran out 画像切れ"
RAN_OUT_OPTIONS = (NO_PICTURE_OPTIONS[0], Option("back", "Back 戻る", Button.FLEE))
# The value of a die the camera doubts, typed: its faces, then a re-roll instead.
TYPE_OPTIONS = (*(Option(str(v), str(v)) for v in FACES),
                Option("reject", "Re-roll 振り直し", Button.FLEE))
#: Where the question opens: on Re-roll, not a face. It comes up where a read's "A accepts"
#: screen would, so an A pressed from habit must not type a value the player never gave (a
#: "1" that the timed read after it then took: dice62 R2); nor is the reader's own best guess
#: offered, being the value it doubted. A face is chosen by its number, a tap, or moving.
#: The other accept habits do pick a face (the key "1" is face 1, a tap on Accept's place
#: face 5), so a throw with a typed value has no countdown: only an A (or Accept) on the
#: screen showing the value takes it, and not a double press's second (review62f DEFECT 1).
REROLL = len(FACES)


class RollCancelled(CompanionError):
    """The player went back instead of throwing."""


def throw_prompt(ask: RollAsk) -> str:
    """The screen's prompt while the dice are awaited: the throw, where, and what it is for
    (``ask.prompt``: who attacks whom, which table, its purpose first), so a wait says whose
    roll it is."""
    what = f"{ask.count}D{ask.sides}"
    return f"Throw {what} in the dice area {what}を振って: {ask.prompt}"


@dataclass(frozen=True, slots=True)
class Rolled:
    """A roll a mode's engine took from the throws so far: its dice, the faces and what the
    engine said it is for (``purpose``), so that while the next die is awaited the screen
    shows the throws already made (a table's first roll, a fight's to-hit)."""

    count: int
    sides: int
    values: tuple[int, ...]
    purpose: str = ""
    #: The two D6 of a D66 (:meth:`Thrown.roll_d66`): no sum, they read as a number.
    d66: bool = False
    #: The number a D66's pair reads as (12 for [1,2] read as thrown, 21 for [2,1] read
    #: ascending), when the source knew the order (:attr:`Thrown.d66_order`); None if not.
    reads: int | None = None
    #: How the roll wrote its D66 (``D66S``, ``D66D``…), shown as written: the pair under
    #: way said "(D66)" and the outcome "(D66S)" (dicecam75 NIT 7).
    d66_name: str = "D66"

    def line(self) -> str:
        """BCDice style, with what it was for: ``(2D6) ＞ 12[6,6]: to hit 命中``; a D66's
        pair ``(D66) ＞ 12[1,2]``, the number it reads as: "(2D6) ＞ 3[1,2]" halfway through
        a 2D66 read as a 2D6 of 3 (events74 NIT 5), and "(D66) ＞ [1,2]" gave none of the
        12 it reads as (reviewe74 NIT 4)."""
        faces = f"[{','.join(map(str, self.values))}]" if len(self.values) > 1 else ""
        head = (f"({self.d66_name}) ＞ {'' if self.reads is None else self.reads}{faces}"
                if self.d66
                else f"({self.count}D{self.sides}) ＞ {sum(self.values)}{faces}")
        return f"{head}: {self.purpose}" if self.purpose else head


#: Beside the throws of a roll whose next die is awaited: an action's in a fight's Result
#: panel, a table's walk in the dice tray's Table panel.
SO_FAR = "so far 途中"


class NeedDice(Exception):
    """An action (or a table's walk) reached a throw beyond those made so far: ``count``
    dice of ``sides`` sides, for ``purpose``, what the engine said the roll is for (``to
    hit 命中``, ``Cult parry 日本刀/Japanese Sword (1D100<=40)``; "" when it did not say);
    ``rolled``: the rolls the throws so far gave it, shown while this one is awaited."""

    def __init__(self, count: int, sides: int, purpose: str = "",
                 rolled: tuple[Rolled, ...] = ()) -> None:
        super().__init__(f"{count}D{sides}")
        self.count = count
        self.sides = sides
        self.purpose = purpose
        self.rolled = rolled


class Thrown:
    """The throws made so far for one action of a pure engine (a fight's attack, a dice
    table's walk), as its DiceSource; past them, it asks for more.

    A throw is used whole for one roll of the engine, which asks for each roll's dice at
    once (2D6, then 1D6 for the weapon), as the RollAsk asked for them. The NeedDice past
    them carries what the engine said that roll is for, and the rolls it had before.
    """

    def __init__(self, throws: Sequence[tuple[int, ...]],
                 d66_order: D66Order | None = None, d66_name: str = "D66") -> None:
        self.throws = list(throws)
        self.rolled: list[Rolled] = []  # each roll handed out, for the NeedDice past them
        #: How the roll reads a D66's pair (its suffix, else the options' order), so the
        #: pair shows the number it reads as; None: not known, the faces alone.
        self.d66_order = d66_order
        self.d66_name = d66_name  # how the roll wrote it (Rolled.d66_name)

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        if not self.throws:
            raise NeedDice(count, sides, purpose, tuple(self.rolled))
        values = list(self.throws.pop(0))
        if len(values) != count or any(not 1 <= v <= sides for v in values):
            raise IllegalAction(f"{count}D{sides} was wanted, the throw was {values}")
        self.rolled.append(Rolled(count, sides, tuple(values), purpose))
        return values

    def roll_d66(self, *, purpose: str = "") -> list[int]:
        """A D66's two D6, taken as :meth:`roll` takes two D6 (:class:`ReadsD66`: the dice
        layer asks a D66 so), kept marked a D66's pair for the screen (:meth:`Rolled.line`)."""
        values = self.roll(2, 6, purpose=purpose)
        reads = None
        if self.d66_order is not None:
            tens, units = self.d66_order.arrange(*values)
            reads = 10 * tens + units
        self.rolled[-1] = replace(self.rolled[-1], d66=True, reads=reads,
                                  d66_name=self.d66_name)
        return values


class SimRolls:
    """The companion throws the dice (a seeded source); they count at once."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source

    def next_throw(self, ask: RollAsk, show: Show) -> Throw:
        # Nothing shown: the dice are thrown at once, so "Throw 1D100 in the dice area"
        # only flashed before the next step (on a terminal, a whole screen each roll).
        return Throw(tuple(self.source.roll(ask.count, ask.sides)))


class CameraFrames:
    """The camera's frames on their way to the dice reader, with the session around them.

    Each frame first polls the controls, so the window stays responsive and B
    goes back. After a read (taken or rejected: ``rethrow``), frames are held back
    until the dice are seen moving (a new throw), so the same dice are not read again.
    ``moving`` sees every frame, so a frame is judged against the one before it, and
    dice thrown again while no roll was waiting count as moved.

    Frames are taken at most 30 a second, and a few a second once nothing has moved for
    some seconds (:class:`~companion.hw.camera.pace.Pace`): a camera that does not block
    (a video, a picture, a rendered scene) is not read in a busy loop, and a table where
    nobody throws costs little (soak57 F2).
    """

    def __init__(self, frames: Iterable[FrameOrWhy], controls: Controls,
                 moving: Callable[[np.ndarray], bool],
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.frames = iter(frames)
        self.controls = controls
        self.moving = moving
        self.sleep = sleep
        self.pace = Pace(FRAME_PERIOD_S, clock)
        self.rethrow = False
        # The press that judged the read before this wait (see guard), and from when.
        self.guarded: Press | None = None
        self.guarded_from = 0.0
        self.guard_polled: float | None = None  # the guarded wait's poll before
        self.backed_with: Press | None = None  # the press that left the last wait (Back)

    @property
    def still(self) -> bool:
        """The frames are a still picture (:class:`~companion.hw.dice.frames.CameraStream`)."""
        return bool(getattr(self.frames, "still", False))

    @property
    def live(self) -> bool:
        """The frames come from a camera watching the table, not a file or a test's list."""
        return bool(getattr(self.frames, "live", False))

    def __iter__(self) -> Iterator[FrameOrWhy]:
        return self

    def close(self) -> None:
        """Let go of the camera behind the frames (a list of frames has none)."""
        close = getattr(self.frames, "close", None)
        if close is not None:
            close()

    def guard(self) -> None:
        """Guard the wait shown now against the double of the press that judged the read
        before it (``controls.accepted_with``: an Accept's, a Reject's or a Re-roll's), as a
        menu after an Accept is guarded (:func:`~companion.app.session.controls.choose`,
        which takes the press the same way): in the first
        :data:`~companion.app.session.controls.DOUBLE_PRESS_SECONDS` its double
        (:func:`~companion.app.session.controls.doubles`) is dropped, until a press counts.
        B pressed twice on *Reject やり直し* gave up the throw awaited, and in a fight the
        action with its accepted to-hit, a free re-roll (dice66 D2); a double tap on
        *Accept 確定* tapped the next wait's *Back 戻る*, drawn where Accept was."""
        self.guarded, self.controls.accepted_with = self.controls.accepted_with, None
        self.guarded_from, self.guard_polled = self.controls.clock(), None

    def unguarded(self) -> list[Press]:
        """The presses since the last poll, less the guarded press's double (:meth:`guard`),
        each judged by when it came (:func:`~companion.app.session.controls.came_at`)."""
        timed = self.controls.poll_timed()
        if self.guarded is None:
            return [press for press, _ in timed]
        now = self.controls.polled_at
        assert now is not None  # poll_timed sets it
        since, self.guard_polled = self.guard_polled, now
        for i, (press, at) in enumerate(timed):
            if not in_window(came_at(at, since, self.guarded_from, now), self.guarded_from) \
                    or not doubles(press, self.guarded):
                self.guarded = None  # a press that counts: the next is nobody's double
                return [press for press, _ in timed[i:]]
        if not in_window(now, self.guarded_from):
            self.guarded = None  # every press from now on comes after the guard
        return []

    def __next__(self) -> FrameOrWhy:
        while True:
            backs = [p for p in self.unguarded() if p is Button.FLEE or p == Pick(0)]
            if backs:
                self.backed_with = backs[0]
                raise RollCancelled("back to the menu")
            self.pace.wait(self.sleep)
            frame = next(self.frames)
            if isinstance(frame, str):  # no picture: the roll says why
                return frame
            moved = self.moving(frame)
            if moved:
                self.pace.changed()
            if moved or not self.rethrow:
                self.rethrow = False
                return frame


@dataclass(frozen=True, slots=True)
class DiceLeft:
    """What a table's camera rolls knew of the dice in view when the table was left for
    another mode (:meth:`CameraRolls.left`): the last read judged, whether it was taken, and
    whether its dice were still to be seen moving. The run's next camera rolls take it on
    (:meth:`CameraRolls.carry_on`), so dice read before the switch are not read again as a
    new throw (reviewdice66 DEFECT 2: the dice tray's table carried on read the die taken
    for its roll 1 as roll 2)."""

    last_read: DiceRead | None
    taken: bool
    rethrow: bool


class CameraRolls:
    """Real dice read by the camera, each read shown for the player's word before it counts."""

    def __init__(self, source: CameraDiceSource, frames: CameraFrames, controls: Controls,
                 accept_seconds: float, poll_seconds: float,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.source = source
        self.frames = frames
        self.controls = controls
        self.confirm: Confirm[tuple[int, ...]] = Confirm(accept_seconds, clock)
        self.poll_seconds = poll_seconds
        self.sleep = sleep
        self.reads = 0  # reads offered to the player this session
        self.instead: Keypad | None = None  # the dice typed, the camera having failed
        self.taken = False  # the last read was taken (else rejected): what its wait says
        self.judged_with: Press | None = None  # the press that judged the last read (judge)
        self.last_read: DiceRead | None = None  # its dice: never read again unmoved (D1)

    def no_camera(self, exc: DeviceError, ask: RollAsk, show: Show) -> Throw:
        """The camera gave no picture (unplugged mid-session, never sending): the player may
        type the dice they throw for the rest of the session, as a table whose camera
        cannot be opened offers (dice62 R1), or try the camera again (the roll fails, and
        the mode offers it again). A folder of pictures or a video given as the camera that
        ran out is said as the source says it (:data:`RAN_OUT`: the folder or video and the
        throw named), not as a camera giving no picture, and offers typing or going back
        (fixcarry70 item 1: "gives no picture: the camera stopped giving frames"); its
        pictures said to run out once (maker75 NIT 4)."""
        from companion.hw.dice.source import FramesRanOut  # loaded: the source is its module's

        ran_out = isinstance(exc, FramesRanOut)
        said, why = (RAN_OUT[0].upper() + RAN_OUT[1:], RAN_OUT) if ran_out else (
            "The dice camera gives no picture カメラ映像なし", NO_PICTURE_WHY)
        # The source's own "its pictures ran out" is not said again after RAN_OUT.
        told = exc.after_ran_out if isinstance(exc, FramesRanOut) else str(exc)
        prompt = f"{said}: {told}. Type the dice you throw for this session?"
        options = RAN_OUT_OPTIONS if ran_out else NO_PICTURE_OPTIONS
        if choose(self.controls, show, prompt, options, 0, self.poll_seconds,
                  self.sleep) != 0:
            return Throw(failure=str(exc))
        self.instead = Keypad(self.controls, self.poll_seconds, why, self.sleep)
        return self.instead.next_throw(ask, show)

    def close(self) -> None:
        """Let go of the dice camera: another mode of the same run may open it next."""
        self.frames.close()

    def left(self) -> DiceLeft:
        """What these rolls know of the dice lying in view, for the run's next rolls."""
        return DiceLeft(self.last_read, self.taken, self.frames.rethrow)

    def carry_on(self, left: DiceLeft) -> None:
        """Take on what the run's camera rolls before knew of the dice in view: their last
        read is never read again unmoved, and the wait says it is taken (or rejected) until
        the dice move, as if the mode had never been left."""
        self.last_read, self.taken = left.last_read, left.taken
        self.frames.rethrow = left.rethrow

    def next_throw(self, ask: RollAsk, show: Show) -> Throw:
        if self.instead is not None:  # the camera gave no picture: typed this session
            return self.instead.next_throw(ask, show)
        if ask.sides != 6:  # the player throws their own and types it
            return Keypad(self.controls, self.poll_seconds, TYPED_WHY,
                          self.sleep).next_throw(ask, show)
        prompt = throw_prompt(ask)

        def camera_says(message: str) -> None:  # what the camera sees goes under the prompt
            if message == THROW_AGAIN and not self.taken:  # the dice rejected, unmoved
                message = REJECTED
            show(prompt, options=WAIT_OPTIONS, status=message,
                 guidance=message == REJECTED or guidance(message))

        self.source.on_status = camera_says
        note = WAITING
        if self.frames.rethrow:  # the throw read last still lies there, unmoved
            # Taken, or rejected and the roll backed out of: not said taken (dice66 NIT 1).
            note = (TAKEN if self.taken else REJECTED) + (STILL if self.frames.still else "")
        while True:
            show(prompt, options=WAIT_OPTIONS, status=note, guidance=True)
            self.frames.guard()  # a double press's second judges no wait (dice66 D2)
            try:
                # The dice of the read before, lying where they lay, are no new throw however
                # much else moved in view (dice66 D1).
                read = self.source.read_throw(ask.count, ask.sides, may_type=True,
                                              unlike=self.last_read, throw=ask.throw)
            except RollCancelled:
                # B (or a tap on Back) left the wait: the menu after it (a fight's held
                # action's question, the tray's, the action menu) drops its double in the
                # first DOUBLE_PRESS_SECONDS (controls.choose), as after the keypad's Back.
                # A double B on the wait gave up the action held by the first (reviewf67
                # RISK 1).
                self.controls.accepted_with = self.frames.backed_with
                return Throw(back=True)
            except DeviceError as exc:  # no picture (unplugged): the player may type instead
                return self.no_camera(exc, ask, show)
            except CompanionError as exc:  # a camera that stopped, dice it cannot read
                return Throw(failure=str(exc))
            # Taken or not, these dice are read: the next read waits for them to move.
            self.frames.rethrow = True
            first = self.reads == 0
            self.reads += 1
            try:
                values = self.typed(read, ask.count, show)
                typed = bool(read.to_type(ask.count))
                # Where the typed values lie among the dice (values are in lying order).
                typed_at = tuple(i for i, d in enumerate(lying_order(read.dice))
                                 if d.value is None)
                taken = values is not None and self.judge(
                    ask, values, show, timed=not ((first and self.frames.live) or typed),
                    typed_with=self.controls.chose_with if typed else None, typed_at=typed_at)
            except SystemAsked:
                # Left for the System menu, undecided: the same dice are read again after it.
                self.frames.rethrow, self.reads = False, self.reads - 1
                raise
            self.taken, self.last_read = taken, read
            if taken:
                assert values is not None
                return Throw(values)
            # The press that rejected it, or chose Re-roll, guards the wait after it as an
            # Accept's guards the menu after it (CameraFrames.guard: dice66 D2).
            self.controls.accepted_with = (self.controls.chose_with if values is None
                                           else self.judged_with)
            note = REJECTED + (STILL if self.frames.still else "")  # until the dice move

    def typed(self, read: DiceRead, count: int, show: Show) -> tuple[int, ...] | None:
        """The read's values in the order the dice lie (a D66's left die is its tens:
        :func:`~companion.hw.dice.readings.lying_order`), with the player's value for each
        die it doubts (none when it was sure); None: the player chose to re-roll instead."""
        doubted = read.to_type(count)
        lying = lying_order(read.dice)
        asked = [i for i, d in enumerate(lying) if any(d is x for x in doubted)]
        values: dict[int, int] = {i: d.value for i, d in enumerate(lying) if d.value is not None}
        for n, i in enumerate(asked, 1):
            # The dice as they lie, this one "[?]", the others still to type "?", the ones
            # typed starred: two unclear dice were both "at the left", and the panel shows
            # only the dice read, so nothing told them apart (a77dice NIT 8).
            lying_said = ", ".join(
                "[?]" if k == i else f"{values[k]}{'*' if k in asked else ''}" if k in values
                else "?" for k in range(len(lying)))
            which = (f" ({n} of {len(asked)}: {lying_said})" if len(asked) > 1
                     else f" ({lying_said})" if len(lying) > 1 else "")
            # The dice read beside it, in the order they lie, "?" for each still to type as
            # the question says (the panel showed the dice read alone: f78panels item 3).
            known = tuple(values.get(k, TO_TYPE) for k in range(len(lying)))

            def with_read(prompt: str, known: tuple[int, ...] = known,
                          **kwargs: object) -> None:
                show(prompt, **kwargs, prompt_faces=known)

            picked = choose(self.controls, with_read,
                            f"Type the die {lying[i].place}{which}: the camera cannot tell its "
                            "value 出目を入力", TYPE_OPTIONS, REROLL, self.poll_seconds,
                            self.sleep)
            if picked == len(FACES):
                return None
            values[i] = FACES[picked]
        return tuple(values[i] for i in sorted(values))

    def judge(self, ask: RollAsk, values: tuple[int, ...], show: Show,
              timed: bool = True, typed_with: Press | None = None,
              typed_at: tuple[int, ...] = ()) -> bool:
        """Show a read before it counts, with what the throw is for (the player deciding
        whether it counts must see which roll it is): B rejects, A accepts, the timeout
        accepts (like tiles); without ``timed`` only A accepts. ``typed_with``: the press that
        typed a value of it (then untimed): an accept that may be that press's double's
        second (:func:`~companion.app.session.controls.doubles`: a tap after a tap) in the
        first :data:`~companion.app.session.controls.DOUBLE_PRESS_SECONDS` is ignored.
        ``typed_at``: the places in ``values`` the player typed, marked ``2*`` in the read
        line: told to "check the value you typed", they were shown no sign of which it was
        (a77dice NIT 8)."""
        marked = [f"{v}*" if i in typed_at else str(v) for i, v in enumerate(values)]
        read = (f"Read 読み取り {ask.count}D{ask.sides}: {', '.join(marked)}"
                + (f" ({TYPED_MARK})" if typed_at else ""))
        prompt = f"{read} — {ask.prompt}" if ask.prompt else read
        confirm = self.confirm if timed else Confirm(math.inf, self.confirm.clock)
        confirm.offer(values)
        # A press made before the dice were shown does not judge them (nor lifts the guard
        # after the System menu's Back: Controls.poll).
        self.controls.poll(guarded=False)
        untimed = FIRST_LIVE if typed_with is None else TYPED_CHECK  # why no countdown
        shown = -1

        def draw() -> None:  # the read, and its countdown when a second of it has passed
            nonlocal shown
            left = confirm.remaining()
            if round(min(left, 1e6)) != shown:
                shown = round(min(left, 1e6))
                status = (f"B rejects, A accepts; counts in {left:.0f} s "
                          f"Bでやり直し、{left:.0f}秒で確定" if timed
                          else f"B rejects Bでやり直し; {untimed}")
                show(prompt, options=READ_OPTIONS,
                     highlight=0, status=status, guidance=True, prompt_faces=values)

        draw()
        # The double of the press that typed a value is judged by when it came (came_at), in
        # the window from when the read was shown, however long drawing it took or late the
        # poll that reads it (as choose judges a menu's: review64f).
        shown_at = self.controls.clock()
        since: float | None = None  # the poll before (None: the first since it was shown)
        while True:
            polled = self.controls.poll_timed()
            now = shown_at if self.controls.polled_at is None else self.controls.polled_at
            presses = [p for p, at in polled
                       if typed_with is None or not doubles(p, typed_with)
                       or not in_window(came_at(at, since, shown_at, now), shown_at)]
            since = now
            decision = confirm.decide(presses)
            if decision is not None:
                # A double tap's second A must not choose in the menu that follows (choose).
                self.controls.accepted_with = confirm.decided_by if decision else None
                self.judged_with = confirm.decided_by
                confirm.value = None
                return decision
            draw()
            self.sleep(self.poll_seconds)
