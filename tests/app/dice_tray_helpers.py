"""The dice tray driven as a player drives it, for the dice tray tests: a display that keeps
every view it was given, a player at a terminal typing on a pty (PtyPlayer; Keys types each
key once the screen shows what it waits for), the play session hosting the tray, the
screens a script waits for, and the tray's menu prompt."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from typing import Generic, TypeVar

from companion.app.modes.dice_tray import QUIT_PROMPT, DiceTrayMode
from companion.app.session.controls import Controls, MenuChoices
from companion.app.session.host import Session
from companion.app.session.mode import RollFeed
from companion.hw.buttons import Press
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.terminal import TerminalDisplay
from companion.hw.display.view import View
from companion.hw.keyboard import KeyboardInput

Step = TypeVar("Step")  # one step of a PtyPlayer's script


class Recorded:
    """A real display, with every view it was given kept for the test to read."""

    def __init__(self, inner: ScreenDisplay | TerminalDisplay) -> None:
        self.inner = inner
        self.views: list[View] = []

    def show(self, view: View) -> None:
        self.views.append(view)
        self.inner.show(view)

    def poll(self) -> list[Press]:
        return self.inner.poll()

    def close(self) -> None:
        self.inner.close()


class PtyPlayer(Generic[Step]):
    """A player at a terminal, the real KeyboardInput reading a pty, on the table's clock;
    the session's fake sleep is the player's turn to look at the screen and type a key,
    which a subclass's ``sleep`` does by its ``script`` (``Keys`` here, test_coc_mode's
    ``PtyKeys``: dedupe73 D11)."""

    def __init__(self, display: Recorded, script: list[Step]) -> None:
        self.master, self.slave = os.openpty()
        self.ticks = 0
        # Keys are timed as they arrive (keys68): on the table's clock, not the real one,
        # which the fake sleep leaves microseconds apart (a key typed on two screens in a
        # row was taken for a held key's repeat).
        self.keyboard = KeyboardInput(self.slave, clock=self.time_at_the_table)
        self.display = display
        self.script = list(script)
        self.glanced: View | None = None  # the screen awaited, as it was at the last poll

    def time_at_the_table(self) -> float:
        """A clock for the controls: each poll a glance of half a second, and each key typed
        a glance after its screen came up, so that the next key is read after the screen,
        not taken for the last one's double."""
        return self.ticks * 0.5

    def close(self) -> None:
        self.keyboard.close()
        os.close(self.master)
        os.close(self.slave)


class Keys(PtyPlayer[tuple[Callable[[View], bool], bytes]]):
    """A player at a terminal: types each key once the screen shows what it waits for."""

    def sleep(self, _: float) -> None:
        self.ticks += 1
        view = self.display.views[-1]
        assert self.ticks < 5000, f"stuck at {view}"
        # Typed a glance after the screen came up, looking the same a poll later, not at
        # once: a key read by a poll whose poll before came as the screen did may have come
        # then (came_at), and a question's Yes under the key that asked it is then its
        # double (review64f).
        # The screen glanced at is not asked again (a script's test may note what it saw), nor
        # when only its status line is redrawn (a read's countdown): it is glanced at again.
        if self.glanced is not None and view == self.glanced:
            self.glanced = None
            os.write(self.master, self.script.pop(0)[1])
        elif self.glanced is not None and replace(view, status="") == replace(self.glanced,
                                                                              status=""):
            self.glanced = view
        else:  # a screen came between, or none awaited yet: glance at it afresh
            self.glanced = view if self.script and self.script[0][0](view) else None


def tray(rolls: RollFeed, controls: Controls, display: Recorded, source_name: str,
         expressions: tuple[str, ...], sleep: Callable[[float], None]) -> Session:
    """The play session hosting the dice tray, as `companion play --mode dice` builds it."""
    return Session(DiceTrayMode(expressions, source_name),
                   choices=MenuChoices(controls, poll_seconds=0.0, sleep=sleep), rolls=rolls,
                   display=display)


def menu(view: View) -> bool:
    return any("Tables 表" in o.label for o in view.options)


def tables(view: View) -> bool:
    return any("Trap 罠" == o.label for o in view.options)


def outcome(view: View) -> bool:
    return any("Again" in o.label for o in view.options)


def quitting(view: View) -> bool:
    return view.prompt == QUIT_PROMPT


def shown_read(view: View) -> bool:
    return any("Accept" in o.label for o in view.options)


MENU = "roll dice, or an event table?"
