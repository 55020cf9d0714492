"""The play session's dice tray mode (``companion play --mode dice``).

The player picks an event table of seed 001 (door, chest, trap, monster,
explore, recovery, poison; spec §1) or a plain dice expression, throws real
dice in the dice area, and reads the roll BCDice style with the table's
outcome and follow-ups, on the screen or in the terminal.

Camera dice are read like tiles: the source waits for the dice to lie still,
the read is shown before it counts (B / Reject rejects it, A / Accept or the
timeout accepts it), and a rejected throw must be thrown again: the camera
ignores the dice until it sees them move. Simulated dice (the companion
throws) count at once. B while waiting for a throw goes back to the menu.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.app.session import READ_OPTIONS, Controls
from companion.dice import DiceSource, DiceSyntaxError, parse, roll
from companion.errors import CompanionError, DataError
from companion.hw.buttons import Button, Pick
from companion.hw.display import Display
from companion.hw.display.view import DiceStep, DiceView, Option, View
from companion.systems.events.rules import EVENT_TABLES, EventRules
from companion.systems.events.tables import run_event

if TYPE_CHECKING:
    # frames are numpy images; the camera's code imports numpy and OpenCV when used
    import numpy as np

    from companion.hw.dice.source import FrameOrWhy

TITLE = "ダイストレイ Dice tray"

#: The menu's names of the event tables (the seed's table names, shortened for a button).
TABLE_NAMES: dict[str, str] = {
    "door": "扉 Door",
    "chest": "宝箱 Chest",
    "trap": "罠 Trap",
    "monster": "モンスター Monster",
    "explore": "探索 Explore",
    "recovery": "回復 Recovery",
    "poison": "毒 Poison",
}

Sleep = Callable[[float], None]
WAIT_OPTIONS = (Option("back", "Back 戻る", Button.FLEE),)  # while the dice are awaited


class RollCancelled(CompanionError):
    """The player went back to the menu instead of throwing."""


def parse_expressions(text: str, key: str = "dice.expressions") -> tuple[str, ...]:
    """The menu's plain rolls from a comma-separated setting; a bad one names the key."""
    expressions = tuple(part.strip() for part in text.split(",") if part.strip())
    for expression in expressions:
        try:
            parse(expression)
        except DiceSyntaxError as exc:
            raise DataError(f"{key}: {expression!r} is not a dice expression ({exc})") from None
    return expressions


@dataclass(frozen=True, slots=True)
class TrayPick:
    """What the player chose from the menu: an event table or an expression (one is None)."""

    table: str | None
    expression: str | None


class CameraFrames:
    """The camera's frames on their way to the dice reader, with the session around them.

    Each frame first polls the controls, so the window stays responsive and B
    goes back to the menu. After a rejected read, frames are held back until
    the dice are seen moving (a new throw), so the same dice are not read again.
    """

    def __init__(self, frames: Iterable[FrameOrWhy], controls: Controls,
                 moving: Callable[[np.ndarray], bool]) -> None:
        self.frames = iter(frames)
        self.controls = controls
        self.moving = moving
        self.rethrow = False

    def __iter__(self) -> Iterator[FrameOrWhy]:
        return self

    def __next__(self) -> FrameOrWhy:
        while True:
            if any(p is Button.FLEE or p == Pick(0) for p in self.controls.poll()):
                raise RollCancelled("back to the menu")
            frame = next(self.frames)
            if not self.rethrow or isinstance(frame, str):  # no picture: the roll says why
                return frame
            if self.moving(frame):
                self.rethrow = False
                return frame


class DiceTray:
    """The dice tray loop: menu, throw, (confirm), outcome; until the player quits."""

    def __init__(
        self,
        source: DiceSource,
        controls: Controls,
        display: Display,
        *,
        source_name: str,
        expressions: Sequence[str],
        rules: EventRules | None = None,
        accept_seconds: float | None = None,
        frames: CameraFrames | None = None,
        poll_seconds: float = 0.05,
        sleep: Sleep = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``accept_seconds`` None: the dice count at once (simulated); else each read is
        shown that long first. ``frames`` is the camera's frame stream, to re-arm it."""
        self.source = source
        self.controls = controls
        self.display = display
        self.source_name = source_name
        self.expressions = tuple(expressions)
        self.rules = rules
        self.accept_seconds = accept_seconds
        self.frames = frames
        self.poll_seconds = poll_seconds
        self.sleep = sleep
        self.clock = clock
        self.dice = DiceView(title="", source=source_name)
        self.prompt = ""
        self.status = ""
        self.throws: list[list[int]] = []

    # -- the screen -------------------------------------------------------------------

    def show(self, prompt: str | None = None, *, options: tuple[Option, ...] = (),
             highlight: int | None = None, status: str | None = None) -> None:
        if prompt is not None:
            self.prompt = prompt
        if status is not None:
            self.status = status
        self.display.show(View(
            floor=None, room=None, room_tiles=(), sheet=None, prompt=self.prompt,
            options=options, highlight=highlight, status=self.status, title=TITLE,
            dice=self.dice))

    def on_camera_status(self, message: str) -> None:
        self.show(status=message, options=WAIT_OPTIONS)

    # -- the loop ---------------------------------------------------------------------

    def run(self) -> None:
        """Menu, throw, outcome, again; returns when the player quits."""
        chosen: TrayPick | None = None
        while True:
            if chosen is None:
                chosen = self.menu()
                if chosen is None:
                    return
            try:
                self.throw(chosen)
            except RollCancelled:
                chosen = None
                self.status = ""
                continue
            except CompanionError as exc:  # a camera that stopped, dice it cannot read
                self.prompt = "No roll 振れませんでした: throw again, or back to the menu?"
                self.status = str(exc)
            if self.ask(("Again もう一度", "Menu メニュー")) != 0:
                chosen = None
            self.status = ""

    def menu(self) -> TrayPick | None:
        """The top menu, then the table menu; None when the player quits."""
        while True:
            self.dice = DiceView(title="Choose a roll or a table 選んでください",
                                 source=self.source_name)
            labels = [f"Roll {e}" for e in self.expressions]
            top = self.ask((*labels, "Event table イベント表", "Quit 終了"),
                           "Dice tray: roll dice, or an event table?")
            if top < len(labels):
                return TrayPick(None, self.expressions[top])
            if top > len(labels):
                return None
            names = list(TABLE_NAMES)
            self.dice = DiceView(
                title="Event tables イベント表",
                steps=tuple(DiceStep(EVENT_TABLES[t], f"{i}. {TABLE_NAMES[t]}")
                            for i, t in enumerate(names, 1)),
                source=self.source_name)
            table = self.ask((*(TABLE_NAMES[t] for t in names), "Back 戻る"), "Which table?")
            if table < len(names):
                return TrayPick(names[table], None)

    def ask(self, labels: Sequence[str], prompt: str | None = None) -> int:
        """A menu in the footer: ATTACK the highlighted one, FLEE the last (back, quit), a tap
        or a number its option; MENU (or ITEM, RANGED) moves the highlight."""
        last = len(labels) - 1
        options = tuple(Option(str(i), label, Button.FLEE if i == last else None)
                        for i, label in enumerate(labels))
        highlight = 0
        self.controls.poll()  # presses made while rolling do not pick here
        self.show(prompt, options=options, highlight=highlight)
        while True:
            for press in self.controls.poll():
                if isinstance(press, Pick) and 0 <= press.index < len(options):
                    return press.index
                if press is Button.ATTACK:
                    return highlight
                if press is Button.FLEE:
                    return len(options) - 1
                if press in (Button.MENU, Button.ITEM, Button.RANGED):
                    highlight = (highlight + 1) % len(options)
                    self.show(options=options, highlight=highlight)
            self.sleep(self.poll_seconds)

    def throw(self, chosen: TrayPick) -> None:
        """Roll the table or the expression, then show the outcome."""
        self.throws = []
        if chosen.table is not None:
            title = f"{TABLE_NAMES[chosen.table]} ({EVENT_TABLES[chosen.table]})"
            self.dice = DiceView(title=title, source=self.source_name)
            report = run_event(chosen.table, self, rules=self.rules)
            self.dice = DiceView(
                title=title,
                faces=tuple(self.throws[-1]) if self.throws else (),
                rolls=tuple(s.roll.text for s in report.steps if s.roll is not None),
                steps=tuple(DiceStep(s.rule, s.text, s.depth) for s in report.steps),
                source=self.source_name)
            self.prompt = f"{TABLE_NAMES[chosen.table]}: the table's outcome"
        else:
            assert chosen.expression is not None
            self.dice = DiceView(title=chosen.expression, source=self.source_name)
            result = roll(chosen.expression, self)
            self.dice = DiceView(
                title=chosen.expression,
                faces=tuple(d.value for d in result.dice if d.sides == 6),
                rolls=(result.text,), source=self.source_name)
            self.prompt = f"{chosen.expression}: {result.total}"

    def roll(self, count: int, sides: int) -> list[int]:
        """One throw for the roller (the tray is its DiceSource): wait for the dice, show
        them, let the player judge them."""
        what = f"{count}D{sides}"
        note = "" if self.accept_seconds is None else "waiting for the dice"
        while True:
            self.show(f"Throw {what} in the dice area", options=WAIT_OPTIONS, status=note)
            values = self.source.roll(count, sides)
            if self.accept_seconds is None or self.judge(what, values):
                self.throws.append(values)
                return values
            if self.frames is not None:
                self.frames.rethrow = True
            # Said until the camera sees the dice move again.
            note = "read rejected: pick the dice up and throw them again"

    def judge(self, what: str, values: list[int]) -> bool:
        """Show a read before it counts: B rejects, A accepts, the timeout accepts (like tiles)."""
        assert self.accept_seconds is not None
        self.dice = DiceView(title=self.dice.title, faces=tuple(values), rolls=self.dice.rolls,
                             steps=self.dice.steps, source=self.source_name)
        self.controls.poll()  # a press made before the dice were shown does not judge them
        since = self.clock()
        shown = -1
        while True:
            for press in self.controls.poll():
                if press is Button.FLEE or press == Pick(1):
                    return False
                if press is Button.ATTACK or press == Pick(0):
                    return True
            left = self.accept_seconds - (self.clock() - since)
            if left <= 0:
                return True
            if round(left) != shown:
                shown = round(left)
                self.show(f"Read {what}: {', '.join(map(str, values))}",
                          options=READ_OPTIONS, highlight=0,
                          status=f"B rejects, A accepts; counts in {left:.0f} s")
            self.sleep(self.poll_seconds)
