"""Choices from a keyboard: over SSH in a terminal, or keys on the screen's window.

The same keys work everywhere:

====================  ==================
key                   means
====================  ==================
a, Enter, Space       attack / confirm
f, b, Esc, Backspace  flee / back (reject a read)
r                     ranged
i                     item
m, → ↓                menu: the highlight forward
← ↑                   the highlight back
1-9, 0                pick that option (0 the tenth)
s                     the System menu (a new game, another mode, shutting down)
====================  ==================
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import signal
import termios
import threading
import tty
from types import FrameType
from typing import Any

from companion.hw.buttons import NUMBER_KEYS, Button, Pick, Press

KEYMAP: dict[str, Button] = {
    "a": Button.ATTACK, "\r": Button.ATTACK, "\n": Button.ATTACK, " ": Button.ATTACK,
    "f": Button.FLEE, "b": Button.FLEE, "\x1b": Button.FLEE, "\x7f": Button.FLEE,
    "\b": Button.FLEE,
    "r": Button.RANGED,
    "i": Button.ITEM,
    "m": Button.MENU,
    "s": Button.SYSTEM,
}


#: The last letter of an arrow key's escape sequence (``ESC [ C`` is →), and its press.
ARROWS: dict[str, Button] = {"A": Button.PREVIOUS, "D": Button.PREVIOUS,
                             "B": Button.MENU, "C": Button.MENU}


def presses_for_text(text: str) -> list[Press]:
    """The presses typed text means. An arrow key arrives as an escape sequence: read
    whole, not as Esc (flee: a → pressed to move the highlight fled the fight) and two
    letters; another sequence (a function key) means nothing."""
    presses: list[Press] = []
    i = 0
    while i < len(text):
        if text[i] == "\x1b" and text[i + 1:i + 2] in ("[", "O"):
            end = i + 2
            while end < len(text) and not "@" <= text[end] <= "~":
                end += 1  # CSI parameters: digits and ;
            if end < len(text) and text[end] in ARROWS:
                presses.append(ARROWS[text[end]])
            i = end + 1
            continue
        press = press_for_key(text[i])
        if press is not None:
            presses.append(press)
        i += 1
    return presses


def split_unfinished(text: str) -> tuple[str, str]:
    """``text`` cut before the escape sequence it ends in the middle of, if any: (the text
    whole, the sequence begun). A read ends where the bytes in hand do: an arrow's ``ESC [ C``
    split after its ESC was Esc, flee, and the rest dropped (input audit 63 N3)."""
    start = text.rfind("\x1b")
    if start < 0:
        return text, ""
    rest = text[start + 1:]
    if rest == "" or (rest[0] in "[O" and not any("@" <= c <= "~" for c in rest[1:])):
        return text[:start], text[start:]
    return text, ""


def press_for_key(char: str) -> Press | None:
    """The press a typed character means, or None for keys with no meaning."""
    char = char.lower()
    if char in KEYMAP:
        return KEYMAP[char]
    if len(char) == 1 and char in NUMBER_KEYS:
        return Pick(NUMBER_KEYS.index(char))
    return None


class TerminalGone(KeyboardInterrupt):
    """The terminal the keys came from went away (its window closed, the SSH link cut) and
    its hangup signal did not end the process (a SIGHUP the shell or a parent ignores,
    ``trap '' HUP``): the run stops as on Ctrl-C, its game saved. It waited for keys for
    ever, holding the save, and the next ``play --resume`` was refused as "in use" (env58
    N6). (``nohup`` is no such case: it gives the game no terminal to read keys from.)"""


class KeyboardInput:
    """Reads keys from a terminal without waiting for Enter (cbreak mode), without blocking.

    ``fd`` defaults to standard input. The terminal's settings are restored by
    :meth:`close`. A file descriptor that is not a terminal (a pipe) is read
    as it is, its end as no more keys; a terminal's end is :class:`TerminalGone`.

    Stopped (Ctrl-Z) and brought back (``fg``), the game finds the shell's settings on its
    terminal (keys wait for Enter, Ctrl-D ends a line of none): cbreak is set again on
    SIGCONT (review58a N-1), where Ctrl-D then read as the terminal gone and stopped a
    live game.
    """

    def __init__(self, fd: int | None = None) -> None:
        self.fd = 0 if fd is None else fd
        self._saved: list[Any] | None = None
        # An escape sequence the last poll's bytes ended in the middle of (split_unfinished):
        # read with the next poll's, or, when none come, as it is (Esc alone is flee).
        self._unfinished = ""
        # SIGCONT's handler before ours (None: not one of Python's), put back by close().
        self._continued: Any = None
        self._on_continue = False
        self.terminal = os.isatty(self.fd)
        if self.terminal:
            self._saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
            # Python sets a signal's handler from the main thread alone.
            if threading.current_thread() is threading.main_thread():
                self._continued = signal.signal(signal.SIGCONT, self._continue)
                self._on_continue = True

    def _cbreak_again(self) -> None:
        """cbreak over the settings the terminal was given back (a terminal gone refuses)."""
        with contextlib.suppress(termios.error, OSError):
            tty.setcbreak(self.fd)

    def _continue(self, signum: int, frame: FrameType | None) -> None:
        """Brought back after a stop: cbreak again, over the settings the shell put back."""
        self._cbreak_again()
        if callable(self._continued):
            self._continued(signum, frame)

    def hung_up(self) -> bool:
        """Whether the terminal was hung up: it reads as ended for good then. A live one
        reads 0 bytes too, for Ctrl-D in the shell's settings."""
        polled = select.poll()
        polled.register(self.fd)
        return any(events & select.POLLHUP for _, events in polled.poll(0))

    def poll(self) -> list[Press]:
        """Presses typed since the last call. An escape sequence the bytes in hand end in
        the middle of waits for the next call: the key pressed is read whole then, and Esc
        pressed alone is flee a poll later."""
        text, self._unfinished = self._unfinished, ""
        fresh = False
        while select.select([self.fd], [], [], 0)[0]:
            try:
                data = os.read(self.fd, 64)
            except OSError as exc:
                if self.terminal and exc.errno == errno.EIO:
                    raise TerminalGone from None
                raise
            if not data:
                # In cbreak mode Ctrl-D is a key, not an end: a terminal ends when it is
                # hung up. One that is not had its settings put back (by whatever else
                # shares it): cbreak again, and the game goes on.
                if self.terminal and self.hung_up():
                    raise TerminalGone
                if self.terminal:
                    self._cbreak_again()
                break
            fresh = True
            text += data.decode("utf-8", errors="ignore")
        if fresh:
            text, self._unfinished = split_unfinished(text)
        return presses_for_text(text)

    def close(self) -> None:
        if self._on_continue:
            signal.signal(signal.SIGCONT,
                          signal.SIG_DFL if self._continued is None else self._continued)
            self._on_continue = False
        if self._saved is not None:
            # A terminal gone refuses its settings back (EIO): nothing is left to restore.
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None
