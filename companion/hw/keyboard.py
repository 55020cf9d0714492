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
Alt/Option + a key    nothing (Alt + an arrow: the arrow)
====================  ==================
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import math
import os
import select
import signal
import termios
import threading
import time
import tty
import unicodedata
import weakref
from collections.abc import Callable
from types import FrameType
from typing import Any

from companion.hw.buttons import NUMBER_KEYS, Button, Pick, Press
from companion.hw.key_runs import Key, KeyRuns

KEYMAP: dict[str, Button] = {
    "a": Button.ATTACK, "\r": Button.ATTACK, "\n": Button.ATTACK, " ": Button.ATTACK,
    "f": Button.FLEE, "b": Button.FLEE, "\x1b": Button.FLEE, "\x7f": Button.FLEE,
    "\b": Button.FLEE,
    "r": Button.RANGED,
    "i": Button.ITEM,
    "m": Button.MENU,
    "s": Button.SYSTEM,
}


#: How soon after a lone ESC a later read beginning with ESC must come to be read with it
#: (Alt+Esc, Alt+arrow): a terminal sends those in one write, so their bytes come together.
#: Later, the ESC was Esc pressed alone: two Escs (or Esc and an arrow) between two polls,
#: joined, read as Alt+Esc (or Alt+arrow), and an Esc was lost (a77keys RISK 3).
ESC_JOIN_SECONDS = 0.05


#: The last letter of an arrow key's escape sequence (``ESC [ C`` is →), and its press.
ARROWS: dict[str, Button] = {"A": Button.PREVIOUS, "D": Button.PREVIOUS,
                             "B": Button.MENU, "C": Button.MENU}


def keys_for_text(text: str) -> list[tuple[str, Press | None]]:
    """The keys typed text holds, each named (lower case; an escape sequence whole) with its
    press (None: a key with no meaning). An arrow key arrives as an escape sequence: read
    whole, not as Esc (flee: a → pressed to move the highlight fled the fight) and two
    letters; another sequence (a function key) means nothing.

    ESC with another key after it in the same read is that key with Alt (Meta, Option)
    held, as terminals send it, and one key: Alt+arrow (``ESC ESC [ D``, PuTTY's) is the
    arrow; any other (``ESC b``, macOS Terminal's ⌥←; Alt+letter) means nothing. Each
    read as Esc, flee, and a key: ⌥← fled a JongRogue fight, where Flee is taken at once
    (keys73 RISK 1). The Linux console's F1-F5 (``ESC [ [ A``) mean nothing too: read as
    ``ESC [ [`` and a letter, F1 took Fight and F2 fled (a77keys DEFECT 1). Esc pressed
    alone comes alone (:func:`split_unfinished` holds an ESC a read ends in for a poll), and
    is flee as before."""
    keys: list[tuple[str, Press | None]] = []
    i = 0
    while i < len(text):
        if text[i] == "\x1b" and i + 1 < len(text):
            meta = text[i + 1] == "\x1b" and text[i + 2:i + 3] in ("[", "O")
            start = i + 1 if meta else i  # Alt+arrow: the arrow's own sequence
            if text[start + 1:start + 3] == "[[":
                # The Linux console's F1-F5 (the Pi's own tty): ESC [ [ A-E, the letter
                # after the second [. Cut at that [, F1 was Fight (a) and F2 Flee (b).
                keys.append((text[i:start + 4], None))
                i = start + 4
                continue
            if text[start + 1:start + 2] in ("[", "O"):
                end = start + 2
                while end < len(text) and not "@" <= text[end] <= "~":
                    end += 1  # CSI parameters: digits and ;
                keys.append((text[i:end + 1], ARROWS.get(text[end:end + 1])))
                i = end + 1
                continue
            keys.append((text[i:i + 2].lower(), None))  # Alt and a key: no meaning
            i += 2
            continue
        key = half_width(text[i]).lower()
        keys.append((key, press_for_key(key)))
        i += 1
    return keys


def presses_for_text(text: str) -> list[Press]:
    """The presses typed text means, each key alone (:func:`keys_for_text`)."""
    return [press for _, press in keys_for_text(text) if press is not None]


def split_unfinished(text: str) -> tuple[str, str]:
    """``text`` cut before the escape sequence it ends in the middle of, if any: (the text
    whole, the sequence begun). A read ends where the bytes in hand do: an arrow's ``ESC [ C``
    split after its ESC was Esc, flee, and the rest dropped (input audit 63 N3); the Linux
    console's F1 split after ``ESC [ [`` was its letter, a (a77keys DEFECT 1)."""
    start = text.rfind("\x1b")
    if start < 0:
        return text, ""
    rest = text[start + 1:]
    if rest in ("", "[[") or (rest[0] in "[O" and not any("@" <= c <= "~" for c in rest[1:])):
        if start > 0 and keys_for_text(text[:start])[-1][0] == "\x1b":
            start -= 1  # an Alt+arrow begun (ESC ESC [): one key (keys_for_text)
        return text[:start], text[start:]
    return text, ""


def half_width(char: str) -> str:
    """A full-width character (``２``, ``ａ``, the full-width space ``　``) as its half-width
    key: a Japanese input method left in full-width mode types them, and they did nothing
    (keys71 NIT 2; the dice expressions and monster names take them already). Only the
    full-width forms: ``①`` or a ligature is no key typed so, and stays what it is."""
    if unicodedata.east_asian_width(char) != "F":
        return char
    return unicodedata.normalize("NFKC", char)


def press_for_key(char: str) -> Press | None:
    """The press a typed character means, or None for keys with no meaning. A full-width
    key is its half-width one (:func:`half_width`)."""
    char = "".join(map(half_width, char)).lower()
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

    A reader thread takes the keys as they arrive, each stamped with ``clock()`` then and
    the read that brought it, while the game draws, saves or sleeps; :meth:`poll` reads what
    is there as well, and gives the presses :class:`~companion.hw.key_runs.KeyRuns` makes of
    them: an Enter typed right after a key that chose ends its line, and a held key is one
    press (input audit 67 D1, D2; keys68). The terminal's CR is kept apart from LF (ICRNL
    off), so that CR LF is one Enter.

    It dates its presses (:class:`~companion.app.session.controls.DatesPresses`):
    :meth:`poll_timed` gives each with when its key arrived (``clock``: the controls' own,
    ``time.monotonic`` in both, or a test's passed to both). A key held back to see whether it
    is a held key's repeat is then judged by the double-press guards as typed, not as let
    through 0.08 s later: a double A 0.3 s apart, dated when let through, came past their
    0.4 s window (reviewk68 DEFECT 2).

    :meth:`close` stops the reader thread. A keyboard made on the main thread is held by its
    SIGCONT handler until then: dropped unclosed, its thread reads on (until the process
    ends), taking keys meant for whatever reads the terminal next. Close every one (the play
    session does, in ``finally``, and before a mode switch opens the next).
    """

    def __init__(self, fd: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.fd = 0 if fd is None else fd
        self.clock = clock
        self._saved: list[Any] | None = None
        # An escape sequence the last read's bytes ended in the middle of (split_unfinished),
        # when it came, and whether a poll has seen it since: read with the next bytes, or,
        # when none come by the next poll, as it is (Esc alone is flee).
        self._unfinished = ""
        self._unfinished_at = 0.0
        self._unfinished_seen = False
        # One decoder for every read: a character's bytes split between two reads (a
        # full-width ２ from an input method, at a paste's 1024-byte cut) are the one key,
        # where each read decoded alone dropped both halves (keys73 NIT 2).
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="ignore")
        # SIGCONT's handler before ours (None: not one of Python's), put back by close().
        self._continued: Any = None
        self._on_continue = False
        self._on_hangup = False  # SIGHUP's handler is ours (the default's, put back by close)
        self.terminal = os.isatty(self.fd)
        if self.terminal:
            self._saved = termios.tcgetattr(self.fd)
            self._cbreak()
            # Python sets a signal's handler from the main thread alone.
            if threading.current_thread() is threading.main_thread():
                self._continued = signal.signal(signal.SIGCONT, self._continue)
                self._on_continue = True
                # A hangup would end the process there and then, the terminal left in
                # cbreak (keys71 NIT 1: `kill -HUP`, with no job-control shell to mend it):
                # it stops the run as its terminal gone does, the settings put back. One
                # ignored (`trap '' HUP`) or handled by the program stays so.
                if signal.getsignal(signal.SIGHUP) is signal.SIG_DFL:
                    signal.signal(signal.SIGHUP, _hung_up)
                    self._on_hangup = True
        self._runs = KeyRuns()
        self._lock = threading.Lock()
        self._presses: list[tuple[Press, float]] = []  # decided (and when), not yet polled
        # Presses that came before this (on ``clock``) are not given: a poll's were thrown
        # away (thrown_away), and those of keys held back or begun then with them.
        self._given_from = -math.inf
        self._chunks = 0
        #: Bytes read from ``fd`` so far (a test waits for what it typed to be taken).
        self.bytes_read = 0
        self.read_nothing = False  # the last read was 0 bytes from a live terminal
        self._ended = False  # a pipe's end: nothing more to read
        self._failed: BaseException | None = None  # raised by the next poll
        self._stop = threading.Event()
        wake_read, wake_write = os.pipe()
        self._reader = threading.Thread(
            target=_read_on, args=(weakref.ref(self), self.fd, wake_read, self._stop),
            name=f"keyboard fd {self.fd}", daemon=True)
        # Stops the reader when closed; also when dropped unclosed, if nothing else holds the
        # keyboard (the SIGCONT handler of one made on the main thread does, until close()).
        self._stop_reader = weakref.finalize(self, _wake, self._stop, wake_write)
        self._reader.start()

    def _cbreak(self) -> None:
        """cbreak, and CR read as CR (not turned into LF: CR LF is then one Enter); and
        Ctrl-S a key, not XOFF (IXON off, as curses' raw mode has it): Ctrl-S, a "save"
        reflex, stopped the terminal's output, and the game froze on its next write until
        Ctrl-Q (keys71 RISK 2). :meth:`close` puts the terminal's own settings back."""
        tty.setcbreak(self.fd)
        attrs = termios.tcgetattr(self.fd)
        attrs[0] &= ~(termios.ICRNL | termios.IXON)
        termios.tcsetattr(self.fd, termios.TCSANOW, attrs)

    def _cbreak_again(self) -> None:
        """cbreak over the settings the terminal was given back (a terminal gone refuses).
        Not once closed: the terminal's own settings, put back, stay."""
        if self._saved is None:
            return
        with contextlib.suppress(termios.error, OSError):
            self._cbreak()

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
        """Presses typed since the last call (:meth:`poll_timed`, without the times)."""
        return [press for press, _ in self.poll_timed()]

    def poll_timed(self) -> list[tuple[Press, float]]:
        """Presses typed since the last call, each with when its key arrived on ``clock``.
        An escape sequence the bytes in hand end in the middle of waits for the next call:
        the key pressed is read whole then, and Esc pressed alone is flee a poll later
        (dated when its byte came).

        A key held back by :class:`~companion.hw.key_runs.HeldKeys` (the same key again
        after a pause: maybe a held key's first repeat) comes through by the first poll
        :data:`~companion.hw.key_runs.KEY_HELD_WAIT_SECONDS` after it arrived, dated when it
        arrived."""
        with self._lock:
            if self._failed is None and not self._ended:
                try:
                    self._pump()
                except (TerminalGone, OSError) as exc:
                    self._failed = exc
            if self._unfinished and self._unfinished_seen:
                # Nothing more came since the last poll: the keys begun are what they are.
                text, self._unfinished = self._unfinished, ""
                self._take(text, self._unfinished_at)
            self._unfinished_seen = bool(self._unfinished)
            self._presses += self._runs.due(self.clock())
            presses, self._presses = self._presses, []
            presses = [(press, at) for press, at in presses if at >= self._given_from]
            if not presses and self._failed is not None:
                raise self._failed  # once the presses before it are given
            return presses

    def thrown_away(self) -> None:
        """The presses of the poll just made were thrown away (a menu's first poll: they were
        made before the menu was shown). A key that came before it and is still to be given
        goes with them: the same key again, held back to see whether it is a held key's
        repeat, or an escape sequence begun. Given a poll later, dated as typed, it chose on
        the menu the player had not seen yet, while any other key typed then was dropped
        (reviewk71 RISK 1). (:class:`~companion.app.session.controls.GivesLate`.)"""
        with self._lock:
            self._given_from = self.clock()

    def _pump(self) -> None:
        """Read what is there, each read's keys stamped as they came (the lock held)."""
        while select.select([self.fd], [], [], 0)[0]:
            try:
                data = os.read(self.fd, 1024)
            except OSError as exc:
                if self.terminal and exc.errno == errno.EIO:
                    raise TerminalGone from None
                raise
            at = self.clock()
            if not data:
                # In cbreak mode Ctrl-D is a key, not an end: a terminal ends when it is
                # hung up. One that is not had its settings put back (by whatever else
                # shares it): cbreak again, and the game goes on.
                if self.terminal and self.hung_up():
                    raise TerminalGone
                if self.terminal:
                    self._cbreak_again()
                    self.read_nothing = True
                else:
                    self._ended = True
                return
            self.bytes_read += len(data)
            self.read_nothing = False
            text = self._decoder.decode(data)
            if self._unfinished == "\x1b" and (
                    text[:1] not in ("", "[", "O", "\x1b")
                    or (text[:1] == "\x1b" and at - self._unfinished_at > ESC_JOIN_SECONDS)):
                # Esc pressed alone, a key after it in a later read (or Esc again, or an
                # arrow, well after it): the two are no Alt and a key, nor a sequence
                # (keys_for_text), which a terminal sends in one write. A read beginning
                # with [ or O is the rest of a sequence, however late: no key begins so,
                # and cut from its ESC an arrow's ESC [ A was Esc and A, flee and attack
                # (r77keys).
                self._take(self._unfinished, self._unfinished_at)
                self._unfinished = ""
            text = self._unfinished + text
            if not self._unfinished:
                self._unfinished_at = at
            text, self._unfinished = split_unfinished(text)
            self._unfinished_seen = False
            self._take(text, at)

    def _take(self, text: str, at: float) -> None:
        """The keys of one read, come ``at``, through the rules to presses."""
        self._chunks += 1
        for name, press in keys_for_text(text):
            self._presses += self._runs.feed(Key(name, press, at, self._chunks))

    def _read_arrived(self) -> bool:
        """The reader thread's read, the keys there now; False: no more to read."""
        with self._lock:
            if self._stop.is_set() or self._ended or self._failed is not None:
                return False
            try:
                self._pump()
            except (TerminalGone, OSError) as exc:
                self._failed = exc
                return False
            return not self._ended

    def close(self) -> None:
        """Stop the reader, and put back the terminal's settings and the signals' handlers.
        The settings go back first, SIGHUP held off meanwhile, and the reader is waited for
        after: a hangup that lands in close() then stops the run (:class:`TerminalGone`)
        with them back. Landing in the wait for the reader, it left the terminal in cbreak,
        with IXON and ICRNL off (reviewk71 NIT 3)."""
        self._stop_reader()
        held_off = self._on_hangup and threading.current_thread() is threading.main_thread()
        # Held off by a handler that only notes it, not by blocking SIGHUP: a signal blocked
        # in this thread goes to another (the reader's), and Python still runs its handler
        # here, at once, before the settings are back.
        hung_up: list[int] = []
        if held_off:
            signal.signal(signal.SIGHUP, lambda signum, frame: hung_up.append(signum))
        try:
            try:
                with self._lock:  # not while the reader reads: a 0 read sets cbreak again
                    if self._saved is not None:
                        # A terminal gone refuses its settings back (EIO): nothing is left
                        # to restore.
                        with contextlib.suppress(termios.error, OSError):
                            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
                        self._saved = None
                if self._on_continue:
                    signal.signal(signal.SIGCONT, signal.SIG_DFL if self._continued is None
                                  else self._continued)
                    self._on_continue = False
            finally:
                if held_off:
                    signal.signal(signal.SIGHUP, _hung_up)
                    if hung_up:  # one held off: now
                        raise TerminalGone
            if self._reader is not threading.current_thread():
                self._reader.join(timeout=2)
        finally:
            if self._on_hangup:
                signal.signal(signal.SIGHUP, signal.SIG_DFL)
                self._on_hangup = False


def _hung_up(signum: int, frame: FrameType | None) -> None:
    """SIGHUP: the terminal hung up, or a ``kill -HUP``; the run stops as on Ctrl-C."""
    raise TerminalGone


def _wake(stop: threading.Event, wake_write: int) -> None:
    """Stop a keyboard's reader thread: it wakes from its wait and ends."""
    stop.set()
    with contextlib.suppress(OSError):
        os.write(wake_write, b"x")
    os.close(wake_write)


def _read_on(keyboard: weakref.ref[KeyboardInput], fd: int, wake_read: int,
             stop: threading.Event) -> None:
    """A keyboard's reader thread: waits for bytes, and has them read (stamped) at once.
    It holds the keyboard only while reading, so the keyboard's finalizer (close(), or its
    being dropped when nothing else holds it: see :class:`KeyboardInput`) can stop it."""
    try:
        while not stop.is_set():
            try:
                ready = select.select([fd, wake_read], [], [])[0]
            except (OSError, ValueError):
                return  # the fd closed under it
            if wake_read in ready or stop.is_set():
                return
            reader = keyboard()
            if reader is None or not reader._read_arrived():
                return
            spin, reader = reader.read_nothing, None
            if spin:
                time.sleep(0.05)  # a terminal read 0 bytes (Ctrl-D): not spinning on it
    finally:
        os.close(wake_read)
