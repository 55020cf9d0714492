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

A terminal is typed at as a line, and repeats a held key: :class:`KeyboardInput` reads an
Enter typed after a number key as the end of that number, not the next menu's confirm
(:data:`ENTER_AFTER_NUMBER_SECONDS`), and a held key as one press
(:data:`KEY_REPEAT_SECONDS`, :data:`KEY_HELD_WAIT_SECONDS`); input audit 67 D1, D2.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import signal
import termios
import threading
import time
import tty
from collections.abc import Callable
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


#: The key Enter, as a terminal sends it: carriage return, or line feed (cbreak keeps ICRNL),
#: read as the same key.
ENTER = "\r"

#: How long after a number key an Enter, with no key between, is the end of that number, not
#: a confirm: a player at a terminal types a number and then Enter, as at a shell prompt (and
#: as ``companion calibrate`` asks); the number key already chose, and the Enter confirmed the
#: highlighted option of the menu it brought, unseen (input audit 67 D1: a typed D4 taken as
#: 1, a d100's 7 as 71, the dice tray's Door table rolled). A line's Enter follows its number
#: within a second (0.15-0.6 s measured), and no one reads a new menu and confirms it in
#: less. ``a`` and Space stay confirm at once, and an Enter after any other key counts.
ENTER_AFTER_NUMBER_SECONDS = 1.0

#: How soon after a key the same key again is the terminal repeating it held, not a press: a
#: held key is sent again every 25-40 ms (the Linux console's 33 ms, GNOME's 33, X's 40), read
#: by polls every ``input.poll_seconds`` (0.05 s) a poll apart, or several in one read; no one
#: presses a key twice in less (the fastest tapping is 8 a second), and two presses 0.15 s
#: apart, read by polls 0.05 s apart, are read at least this far apart, and count twice.
#: Renewed by each repeat dropped: a held key's whole run is one press (input audit 67 D2: a
#: held 2 ended a fight, a held 3 rolled a second table).
KEY_REPEAT_SECONDS = 0.1

#: How long the same key again after a pause is kept back, to see whether it is the first
#: repeat of the key held (sent after the terminal's repeat delay, 250-660 ms, so past
#: :data:`KEY_REPEAT_SECONDS`), or a press: held, the next repeat follows within the repeat
#: period (40 ms at the slowest default rate), and the run is dropped with it; a press is
#: given this much later. Only a key pressed again after itself waits.
KEY_HELD_WAIT_SECONDS = 0.06


def keys_for_text(text: str) -> list[tuple[str, Press | None]]:
    """The keys typed text holds, each with its press (None: a key with no meaning). An arrow
    key arrives as an escape sequence: read whole, not as Esc (flee: a → pressed to move the
    highlight fled the fight) and two letters; another sequence (a function key) means
    nothing. A key is named by its text, lower case, Enter's ``\\n`` as ``\\r``."""
    keys: list[tuple[str, Press | None]] = []
    i = 0
    while i < len(text):
        if text[i] == "\x1b" and text[i + 1:i + 2] in ("[", "O"):
            end = i + 2
            while end < len(text) and not "@" <= text[end] <= "~":
                end += 1  # CSI parameters: digits and ;
            keys.append((text[i:end + 1], ARROWS.get(text[end:end + 1])))
            i = end + 1
            continue
        key = text[i].lower()
        keys.append((ENTER if key == "\n" else key, press_for_key(key)))
        i += 1
    return keys


def presses_for_text(text: str) -> list[Press]:
    """The presses typed text means (:func:`keys_for_text`)."""
    return [press for _, press in keys_for_text(text) if press is not None]


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

    def __init__(self, fd: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.fd = 0 if fd is None else fd
        self.clock = clock
        # The last key read, and when (see poll): an Enter after a number key, or a key
        # repeated held, is judged against it.
        self._last_key: str | None = None
        self._last_at = 0.0
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
        pressed alone is flee a poll later.

        A terminal is typed at as a line, and repeats a held key; each key is judged against
        the key read before it (input audit 67):

        - an Enter right after a number key, within :data:`ENTER_AFTER_NUMBER_SECONDS`, is
          the end of the number, dropped (D1);
        - the same key again sooner than :data:`KEY_REPEAT_SECONDS` is the terminal repeating
          it held, dropped (D2);
        - the same key again after a pause is a press, or the first repeat of the key held,
          sent after the terminal's repeat delay: it is kept back up to
          :data:`KEY_HELD_WAIT_SECONDS`, and dropped when the key repeats in that time.

        A held key is then one press, its first; held no longer than its repeat delay and
        one repeat period, it reads as two presses, as the terminal sent it. An arrow or
        ``m`` (they only move the highlight) repeats as sent: held, it runs down a menu."""
        keys = self._read()
        presses: list[Press] = []
        while keys:
            key, press, at = keys.pop(0)
            last, gap = self._last_key, at - self._last_at
            self._last_key, self._last_at = key, at
            if press is None:
                continue
            if key == ENTER and last is not None and len(last) == 1 and last in NUMBER_KEYS \
                    and gap < ENTER_AFTER_NUMBER_SECONDS:
                continue  # the number's own Enter
            if key != last or press in (Button.MENU, Button.PREVIOUS):
                presses.append(press)
                continue
            if gap < KEY_REPEAT_SECONDS:
                continue  # a held key's repeat
            if not keys:
                keys = self._read(KEY_HELD_WAIT_SECONDS)
            if keys and keys[0][0] == key:
                continue  # the first repeat of the key held: its run follows, dropped
            presses.append(press)
        return presses

    def _read(self, wait: float = 0.0) -> list[tuple[str, Press | None, float]]:
        """The keys typed since the last read, each with when it was read; ``wait``: up to
        how long to wait for one."""
        text, self._unfinished = self._unfinished, ""
        fresh = False
        while self._ready(wait):
            wait = 0.0
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
        at = self.clock()
        return [(key, press, at) for key, press in keys_for_text(text)]

    def _ready(self, wait: float) -> bool:
        """Whether a key is there to read, waiting up to ``wait`` seconds for one."""
        return bool(select.select([self.fd], [], [], wait)[0])

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
