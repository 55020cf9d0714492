"""Which keys typed at a keyboard are presses: a line's Enter, a held key's repeats.

A player at a terminal types a number and then Enter, as at a shell prompt, and a terminal
repeats a held key (auto-repeat, キーリピート). Both came through as presses: the Enter
confirmed the next menu's highlighted option, unseen (input audit 67 D1: a typed D4 taken as
1, a d100's 7 as 71, the dice tray's Door table rolled unasked), and a held key's repeats
took a question's Yes or ran on into the next menu (D2: a held 2 ended a fight).

These rules judge each key by when it *arrived* and which read brought it (its chunk), not
when the game loop got round to it: the first fix timed keys as read, and a paste, or two
deliberate presses read together by a busy companion, were taken for a held key and lost
(reviewi67 DEFECT 2, RISK 1; reverted in b5d7901b). :class:`~companion.hw.keyboard.
KeyboardInput` stamps keys as their bytes arrive; the screen's window
(:class:`~companion.hw.display.screen.ScreenDisplay`) as its events are pumped, and uses
:class:`EnterEndsLine` alone (pygame sends no repeats).

Pure: keys come in with their times; no clock, no I/O, no threads.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.hw.buttons import Button, Press

#: The key Enter (carriage return, as a terminal sends it).
ENTER = "\r"
#: Line feed: a terminal set to send CR LF for Enter sends it after the CR (one Enter,
#: reviewi67 DEFECT 1); alone (Ctrl-J) it is Enter too.
LINE_FEED = "\n"

#: How long after a key that chose (a number, or a letter such as ``f`` Back or ``a``) an
#: Enter, with no key between, is the end of that line, not a confirm (input audit 67 D1,
#: reviewi67 RISK 2). A line's Enter follows its key within a second (0.15-0.6 s measured),
#: and no one reads a new menu and confirms it in less. Enter after Enter, or after a key
#: that on most menus only moves the highlight (an arrow, ``m``, ``i``, ``r``: see
#: :func:`chooses`), confirms.
ENTER_AFTER_CHOICE_SECONDS = 1.0

#: How soon after a key the same key again, brought by a later read, is the terminal
#: repeating it held (D2): a held key is sent again every 25-40 ms (the Linux console's
#: 33 ms, GNOME's 33, X's 40); no one presses a key twice in less (the fastest tapping is
#: about 8 a second). Renewed by each repeat dropped: the whole run is one press.
KEY_REPEAT_SECONDS = 0.1

#: How long the same key again after a pause is held back, to see whether it is the first
#: repeat of the key held (it comes after the terminal's repeat delay, 250-660 ms, so past
#: :data:`KEY_REPEAT_SECONDS`): held, the next repeat follows within the repeat period
#: (40 ms at the slowest default), and the two are dropped with the run; a press comes
#: through this much later.
KEY_HELD_WAIT_SECONDS = 0.08

#: The longest a terminal waits before it starts repeating a held key (the Linux console's
#: 250 ms, GNOME's 500, X's 660 by default; Windows' longest setting 1 s, GNOME's and
#: macOS' about 2 s), with a margin for a link's delays: the same key again later is a
#: press, with no wait. At 1.0 s, Windows' longest delay brought the first repeat just past
#: it, a second press (keys71 RISK 1); sooner, a press of the same key again only waits
#: :data:`KEY_HELD_WAIT_SECONDS`, judged as typed.
REPEAT_DELAY_LONGEST_SECONDS = 2.2


@dataclass(frozen=True, slots=True)
class Key:
    """A key as it arrived: ``name`` its text (lower case, :data:`ENTER`, an escape
    sequence whole), ``press`` what it means (None: nothing), ``at`` when it arrived,
    ``chunk`` the number of the read that brought it (keys of one read came together: a
    paste, or bytes bunched on the way)."""

    name: str
    press: Press | None
    at: float
    chunk: int = 0


#: Presses that only move the highlight, on every menu: an arrow, ``m``. Held, they run down
#: the menu (:class:`HeldKeys` lets their repeats through).
MOVES_ONLY = (Button.MENU, Button.PREVIOUS)


def chooses(press: Press | None) -> bool:
    """Whether a press chooses (or backs, or opens a menu), for :class:`EnterEndsLine`,
    rather than only moving the highlight (:data:`MOVES_ONLY`) or meaning nothing.

    ITEM (``i``) and RANGED (``r``) count as choosing, though on a menu with no Use or Fire
    they only move the highlight: where Use is offered, ``i`` asks "Use X now?" with Use
    highlighted, and an Enter typed after it as a line's end took that Yes and used the item
    (reviewk68b DEFECT 1). An Enter after them is dropped, then, wherever it came; on a
    menu where they only moved, the player presses Enter again (reviewk68 DEFECT 1, the
    safe side)."""
    return press is not None and press not in MOVES_ONLY


def runs_down(press: Press | None) -> bool:
    """Whether a held key's repeats are each a press (:data:`MOVES_ONLY`: held, it runs down
    the menu), not one press (:class:`HeldKeys`; ``i`` and ``r`` held are one press, as they
    may choose Use or Fire)."""
    return press in MOVES_ONLY


class EnterEndsLine:
    """An Enter right after a key that chose ends that key's line: it is dropped
    (:data:`ENTER_AFTER_CHOICE_SECONDS`; input audit 67 D1)."""

    def __init__(self, seconds: float = ENTER_AFTER_CHOICE_SECONDS) -> None:
        self.seconds = seconds
        self.last: Key | None = None  # the key before, whatever became of it

    def keep(self, key: Key) -> bool:
        """Whether ``key`` is a press as far as this rule goes (every key is given, in the
        order they arrived)."""
        last, self.last = self.last, key
        return not (key.name == ENTER and last is not None and last.name != ENTER
                    and chooses(last.press) and key.at - last.at < self.seconds)

    def interrupt(self) -> None:
        """Something other than a key came between (a tap on the screen): an Enter next
        confirms."""
        self.last = None


class HeldKeys:
    """A held key's auto-repeat is dropped: its first press counts, once (input audit 67
    D2). An arrow or ``m`` repeats as sent (held, it runs down a menu: :func:`runs_down`);
    a key with no meaning is let be.

    - The same key again, brought by a later read within :data:`KEY_REPEAT_SECONDS` of its
      copy before, is a repeat: dropped, and the window renewed.
    - Keys brought by one read all count (a paste ``22``, bytes bunched over SSH), unless
      the first of them went on a run of repeats.
    - The same key again after a pause (no other key between, sooner than
      :data:`REPEAT_DELAY_LONGEST_SECONDS`) may be the held key's first repeat: it is held
      back :data:`KEY_HELD_WAIT_SECONDS`, and dropped with its run when the key comes again
      in that time; else it counts then (:meth:`due`, or the next key).
    """

    def __init__(self) -> None:
        self.last: Key | None = None
        self.last_dropped = False  # the key before was a repeat dropped
        self.held: tuple[Key, bool] | None = None  # held back, and whether it is a press

    def feed(self, key: Key, keep: bool = True) -> list[tuple[Press, float]]:
        """The presses decided by ``key``'s arrival, each with when its key arrived (a key held
        back keeps its own time: it is judged as typed, not as let through; reviewk68
        DEFECT 2): one held back before it, and ``key`` itself (``keep``: False when another
        rule dropped it, as a key it still counts)."""
        out: list[tuple[Press, float]] = []
        if self.held is not None:
            held, held_keep = self.held
            self.held = None
            if key.name == held.name and key.chunk != held.chunk \
                    and key.at - held.at < KEY_HELD_WAIT_SECONDS:
                self.last, self.last_dropped = key, True  # the first repeat, and the next
                return out
            if held_keep and held.press is not None:
                out.append((held.press, held.at))
        last, self.last = self.last, key
        drop = False
        if last is not None and last.name == key.name and key.press is not None \
                and not runs_down(key.press):
            gap = key.at - last.at
            if key.chunk == last.chunk:
                drop = self.last_dropped  # a run read at once goes on; else a paste counts
            elif gap < KEY_REPEAT_SECONDS:
                drop = True
            elif gap < REPEAT_DELAY_LONGEST_SECONDS:
                self.held, self.last_dropped = (key, keep), False
                return out
        self.last_dropped = drop
        if keep and not drop and key.press is not None:
            out.append((key.press, key.at))
        return out

    def due(self, now: float) -> list[tuple[Press, float]]:
        """The key held back, when its wait has passed by ``now`` with no repeat, with when it
        arrived."""
        if self.held is None or now - self.held[0].at < KEY_HELD_WAIT_SECONDS:
            return []
        (held, keep), self.held = self.held, None
        return [(held.press, held.at)] if keep and held.press is not None else []

    @property
    def holding(self) -> bool:
        """Whether a key is held back (:meth:`due` gives it in time)."""
        return self.held is not None


class KeyRuns:
    """A terminal's keys to presses: CR LF is one Enter, an Enter ending a line is dropped
    (:class:`EnterEndsLine`), a held key is one press (:class:`HeldKeys`)."""

    def __init__(self) -> None:
        self.line = EnterEndsLine()
        self.held = HeldKeys()
        self.last: Key | None = None

    def feed(self, key: Key) -> list[tuple[Press, float]]:
        """The presses decided by ``key``'s arrival, each with when its key arrived (keys
        given in the order they came; :meth:`HeldKeys.feed`)."""
        last, self.last = self.last, key
        if key.name == LINE_FEED:
            if last is not None and last.name == ENTER and (
                    last.chunk == key.chunk or key.at - last.at < KEY_REPEAT_SECONDS):
                self.last = last
                return []  # CR LF: one Enter (sent together; a read may split them)
            key = Key(ENTER, key.press, key.at, key.chunk)
            self.last = key
        return self.held.feed(key, self.line.keep(key))

    def due(self, now: float) -> list[tuple[Press, float]]:
        """:meth:`HeldKeys.due`."""
        return self.held.due(now)
