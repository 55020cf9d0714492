"""The player's hands: every source of presses, menus, and confirming what a reader read.

These are shared by every mode of the play session: a JongRogue choice, the
dice tray's menu and a fight's actions are all menus of :class:`Option` s, and
a tile or a throw read from the table is shown with :data:`READ_OPTIONS`
before it counts (:class:`Confirm`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, runtime_checkable

from companion.app.session.mode import ChoiceAsk, Show
from companion.hw.buttons import Button, Pick, Press
from companion.hw.display.view import Option
from companion.hw.key_runs import KEY_HELD_WAIT_SECONDS

T = TypeVar("T")

class SystemAsked(Exception):
    """SYSTEM was pressed while the session offers its System menu: the ask being waited
    for is left, unanswered, for the menu (:mod:`companion.app.session.system_menu`)."""


class PressSource(Protocol):
    """Anything with ``poll() -> list[Press]``: ButtonPanel, KeyboardInput, a Display."""

    def poll(self) -> list[Press]: ...


@runtime_checkable
class DatesPresses(Protocol):
    """A source that knows when each press came, on the clock :class:`Controls` keeps
    (:class:`~companion.hw.buttons.ButtonPanel`: its edge's own time;
    :class:`~companion.hw.keyboard.KeyboardInput`: when its key arrived); the screen's keys
    and taps are read when polled, and may have come at any time since the poll before."""

    def poll_timed(self) -> list[tuple[Press, float]]: ...


@runtime_checkable
class GivesLate(Protocol):
    """A source that gives some presses a poll or more after they came (the keyboard: the
    same key again, held back to see whether it is a held key's repeat; an escape sequence
    begun). Told that a poll's presses are thrown away (:meth:`Controls.poll`,
    ``guarded=False``), it drops those that came before it as well, when they are due: they
    too were made before what the player is shown next (reviewk71 RISK 1)."""

    def thrown_away(self) -> None: ...


def came_at(at: float | None, since: float | None, start: float, now: float) -> float:
    """When a press came, to judge it against a window that began at ``start``: ``at``, a
    source's own time of it (:class:`DatesPresses`); else it was read now (``now``), and may
    have come at any time since the poll before (``since``; None: the first poll since
    ``start``).

    Read by polls close together (at most :data:`CLOSE_POLL_SECONDS` apart: a menu's, a
    wait's at ``input.poll_seconds``), it is judged as come when read: a double's second
    press, made in the window's first 0.3 s, is read inside it (see the constant), and a
    player's own repeat made just past the window counts at once (review65g RISK 1). Read by
    a poll far from the one before, or by the first since ``start``, it is taken to have come
    at the earliest it could have, ``max(since, start)``: so a guard's repeat is inside the
    guard however late the poll that reads it: one made while a question was drawn, read by
    a first poll that came late (flaky64 P2), or one made in a wait whose polls are far apart
    (the camera's dice wait reads and draws a frame between two: review64f RISK 1). The cost
    there is the safe one: a repeat read by the first poll after the window may be the
    player's own, and is dropped once; they press again."""
    if at is not None:
        return at
    if since is None or since < start:
        return start
    if now - since <= CLOSE_POLL_SECONDS + 1e-9:  # to the clock's rounding
        return now
    return since


def in_window(came: float, start: float) -> bool:
    """Whether a press that came at ``came`` is in the :data:`DOUBLE_PRESS_SECONDS` after
    ``start``. To the clock's rounding: one dated at a poll that came as the window ended
    (:func:`came_at`) is past it, however the clock's sums round."""
    return came - start < DOUBLE_PRESS_SECONDS - 1e-9


class Controls:
    """Every source of presses at once: the buttons, the keyboard, the display's keys and
    taps. ``player``: a person presses them; with the auto-player choosing, nobody will,
    and nothing outside a game waits for a press."""

    def __init__(self, sources: Sequence[PressSource], player: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.sources = list(sources)
        self.player = player
        self.clock = clock
        # The press that just accepted a read (None: its countdown did): the next menu is
        # guarded against that press's double (see choose).
        self.accepted_with: Press | None = None
        self.chose_with: Press | None = None  # the press that chose in the last menu
        # The presses of the poll that chose in the last menu, after the one that chose: not
        # applied there (see choose), but a keypad carries number keys typed ahead (Keypad).
        self.left_over: list[Press] = []
        # The press that opened a question, or left the System menu, and when (see
        # :meth:`guard_repeat`): the next ask, a menu or a wait, is guarded against its repeat.
        self.opened_with: Press | None = None
        self.opened_at = 0.0
        self.polled_at: float | None = None  # the clock at the last poll (see came_at)
        # While the session waits for an answer (not in its System menu, nor in a question
        # outside a session): SYSTEM leaves the wait for the menu, :class:`SystemAsked`.
        self.system_offered = False

    def poll(self, guarded: bool = True) -> list[Press]:
        """The presses since the last poll. SYSTEM raises :class:`SystemAsked` while the
        System menu is offered, and is dropped elsewhere (a menu takes it for no option).

        In the first :data:`DOUBLE_PRESS_SECONDS` after :meth:`guard_repeat`, a repeat of
        the press that opened the ask (:func:`repeats`) is dropped, until another press comes
        through: every wait is so guarded, not only a menu (a tile wait's picks, a read on
        offer, a throw awaited, whose first box or B lies under the System menu's Back; input
        audit 63 D2). ``guarded=False``: a poll whose presses are thrown away (a menu's first)
        leaves the guard as it was, and a source's press that came before it and is given
        later (:class:`GivesLate`) is thrown away too.

        A press is judged by when it came (:func:`came_at`), not when it is read: a wait's
        first poll coming late (a slow screen, a starved Pi) did not make a repeat made in
        the guard count."""
        return [press for press, _ in self.poll_timed(guarded)]

    def poll_timed(self, guarded: bool = True) -> list[tuple[Press, float | None]]:
        """:meth:`poll`, each press with when its source says it came (None: read now; see
        :func:`came_at`, and :attr:`polled_at` for the poll before)."""
        since = self.polled_at
        timed: list[tuple[Press, float | None]] = []
        for source in self.sources:
            if isinstance(source, DatesPresses):
                timed.extend(source.poll_timed())
            else:
                timed.extend((press, None) for press in source.poll())
        now = self.polled_at = self.clock()
        if not guarded:
            for source in self.sources:
                if isinstance(source, GivesLate):
                    source.thrown_away()
        if since is not None:
            # It came since the poll before (or was held back past it: HELD_BACK_SECONDS),
            # and not after now: a source's time is kept in these bounds (a test's panel on a
            # clock of its own is then read as now).
            early = since - HELD_BACK_SECONDS
            timed = [(p, None if at is None else min(max(at, early), now)) for p, at in timed]
        if any(p is Button.SYSTEM for p, _ in timed):
            if self.system_offered:
                raise SystemAsked
            timed = [(p, at) for p, at in timed if p is not Button.SYSTEM]
        if not guarded or self.opened_with is None:
            return timed
        for i, (press, at) in enumerate(timed):
            if not in_window(came_at(at, since, self.opened_at, now), self.opened_at) \
                    or not repeats(press, self.opened_with):
                self.opened_with = None  # a press that counts: the next is nobody's double
                return timed[i:]
        if not in_window(now, self.opened_at):
            self.opened_with = None  # every press from now on comes after the guard
        return []

    def guard_repeat(self) -> None:
        """Guard the next menu against a repeat of the press that chose in the last one
        (:func:`repeats`): called where that choice put a question before a drastic step
        (:class:`Question`, the System menu's own), or left the System menu for the ask it
        covered, whose option then lies under the finger. A double tap or a digit typed twice
        took the question's Yes (input audit 63 D1: End fight, Close table, Undo, Quit to
        console, New game), or the game's Fight under the menu's Back (D2); over a wait (a
        tile's picks or its read on offer, a throw awaited) :meth:`poll` drops the repeat."""
        self.opened_with, self.opened_at = self.chose_with, self.clock()


@dataclass(frozen=True, slots=True)
class Question(ChoiceAsk):
    """A mode's question before a drastic step (Undo, End fight, Close table, using an
    item): its menu is guarded against a repeat of the press that opened it
    (:meth:`Controls.guard_repeat`)."""


#: Back up a menu, or give up a throw awaited: flee/back, as on every screen.
BACK = Option("back", "Back 戻る", Button.FLEE)
READ_OPTIONS = (Option("accept", "Accept 確定", Button.ATTACK),
                Option("reject", "Reject やり直し", Button.FLEE))


class Confirm(Generic[T]):
    """Shows a read for ``accept_seconds``: FLEE rejects it, ATTACK accepts at once.

    On a touch screen the read is shown with :data:`READ_OPTIONS`; tapping them
    does the same. What is read is a tile or a throw of dice alike.
    """

    def __init__(self, accept_seconds: float, clock: Callable[[], float] = time.monotonic):
        self.accept_seconds = accept_seconds
        self.clock = clock
        self.value: T | None = None
        self.since = 0.0
        self.decided_by: Press | None = None  # the press behind the last decision, if any

    def offer(self, value: T) -> None:
        self.value = value
        self.since = self.clock()

    def remaining(self) -> float:
        return max(0.0, self.accept_seconds - (self.clock() - self.since))

    def decide(self, presses: Sequence[Press]) -> bool | None:
        """True: accepted; False: rejected; None: still showing (:attr:`decided_by` says
        which press decided, None when the countdown did)."""
        if self.value is None:
            return None
        for press in presses:
            if press is Button.FLEE or press == Pick(1):
                self.value, self.decided_by = None, press
                return False
            if press is Button.ATTACK or press == Pick(0):
                self.decided_by = press
                return True
        if self.remaining() <= 0:
            self.decided_by = None
            return True
        return None


def menu_press(press: Press, count: int, highlight: int,
               shortcuts: dict[Button, int]) -> tuple[int | None, int]:
    """Apply a press to a menu of ``count`` options: (chosen index or None, new highlight).

    A tap or number picks directly; MENU (a long press of ITEM) moves the
    highlight, PREVIOUS (an arrow key) moves it back; ATTACK confirms the
    highlighted option; FLEE, RANGED and ITEM choose their own option when one is
    offered (``shortcuts``); FLEE or RANGED with no option of its own moves the highlight
    back, ITEM with none forward.
    """
    if isinstance(press, Pick):
        return (press.index, highlight) if 0 <= press.index < count else (None, highlight)
    if press is Button.MENU:
        return None, (highlight + 1) % count
    if press is Button.PREVIOUS:
        return None, (highlight - 1) % count
    if press is Button.ATTACK:
        return highlight, highlight
    if press in shortcuts:
        return shortcuts[press], highlight
    # A submenu's FLEE is its Back: on four buttons, RANGED is then the one step back, so
    # that one press too many past an option is undone by one press, not a lap of the menu.
    if press in (Button.FLEE, Button.RANGED):
        return None, (highlight - 1) % count
    if press is Button.ITEM:
        return None, (highlight + 1) % count
    return None, highlight


#: How long after a menu shown straight after a read accepted with A an A press is taken for
#: the second press of a double tap on Accept, not a choice: no one reads a new menu and
#: decides in less, and a double tap's presses come 0.1-0.3 s apart.
DOUBLE_PRESS_SECONDS = 0.4

#: The longest a dated source (:class:`DatesPresses`) gives a press after the poll that
#: followed it: the keyboard holds back the same key again after a pause this long, to see
#: whether it is a held key's repeat (:data:`~companion.hw.key_runs.KEY_HELD_WAIT_SECONDS`),
#: and gives it at the first poll after, dated when it arrived; the poll before may have
#: come since. Dated at that poll (the bound before), a double A 0.35 s apart came past
#: :data:`DOUBLE_PRESS_SECONDS` (reviewk68 DEFECT 2). The GPIO panel's presses are kept to
#: the same bound: one whose callback ran late is judged by its edge's time, up to this much
#: before the poll before (reviewk68b NIT 1).
HELD_BACK_SECONDS = KEY_HELD_WAIT_SECONDS

#: The longest gap between two polls after which a key or a tap read is judged as come when
#: read (:func:`came_at`): the window's margin past a double's 0.3 s. A double's second press
#: comes at most 0.3 s after its first, made before the window began, and is read by the
#: first poll after it, at most this much later: so inside :data:`DOUBLE_PRESS_SECONDS`.
#: Polls farther apart (a slow camera wait) could read it past the window: there a press is
#: dated at the poll before.
CLOSE_POLL_SECONDS = 0.1


def doubles(press: Press, accepted_with: Press) -> bool:
    """Whether ``press`` may be the second half of the double press that accepted a read
    (or typed a keypad's digit):
    the same button, or any tap on the screen after a tap (the next menu's option under the
    finger need not be the first). A number key is not: a key typed twice is two digits."""
    if isinstance(press, Pick):
        return press.tap and isinstance(accepted_with, Pick) and accepted_with.tap
    return press == accepted_with


def repeats(press: Press, opened_with: Press) -> bool:
    """Whether ``press`` may be the second half of a double press on the option that opened
    a question (or left the System menu): the same button or number key (a digit typed twice,
    or a terminal's auto-repeat), or any tap after a tap."""
    if isinstance(press, Pick) and press.tap:
        return isinstance(opened_with, Pick) and opened_with.tap
    return press == opened_with


def choose(controls: Controls, show: Show, prompt: str, options: tuple[Option, ...],
           highlight: int, poll_seconds: float,
           sleep: Callable[[float], None] = time.sleep, carried: Sequence[Press] = (),
           number_keys: int | None = None,
           past_keys: Callable[[int], None] | None = None) -> int:
    """Show a menu and wait until a press picks one of its options; return its index.
    ``number_keys``: a number key (a :class:`Pick` not tapped) picks only among the first
    that many options (a keypad's digits, never its Back, drawn ``[B]``); one past them is
    given to ``past_keys`` (its index), and the menu shown again, its status saying why.

    When the menu directly follows a read accepted with A or a tap on Accept, or a keypad's
    digit (``controls.accepted_with``), the same press in its first :data:`DOUBLE_PRESS_SECONDS`
    is ignored (:func:`doubles`): an impatient double press on Accept would otherwise fight
    the highlighted monster, waking it if it slept (JR-STATE-1), or throw away the Game over
    screen. A question before a drastic step, and the ask the System menu's Back returns to,
    are guarded so against the press that opened them (:meth:`Controls.guard_repeat`,
    :func:`repeats`) until another press counts there (ITEM, then A, is no double A). Other
    presses count at once, and an ordinary menu after a choice is not guarded: two presses
    on two menus in quick succession both count.

    The presses of a poll after the one that chose are not applied here, nor to the next menu
    (:attr:`Controls.left_over`), unless it is given them: ``carried``, applied before
    its first poll (a keypad's digits typed ahead).
    """
    shortcuts = {o.button: i for i, o in enumerate(options) if o.button is not None}
    # A guard set for this menu (guard_repeat just before it: a question) runs from when it
    # is shown, however long drawing it took (flaky64 P2); one set for an ask before it that
    # was no menu (a tile awaited) and is older than the window is gone.
    stale = not in_window(controls.clock(), controls.opened_at)
    # Presses made while the last step resolved do not count here: one a source gives later
    # (the same key again, held back 0.08 s) neither, or it chose on this menu unseen
    # (reviewk71 RISK 1). ``carried`` alone comes from before: a keypad's digits typed ahead.
    controls.poll(guarded=False)
    pending: list[tuple[Press, float | None]] = [(press, None) for press in carried]
    guarded, controls.accepted_with = controls.accepted_with, None
    opened_with, controls.opened_with = (None if stale else controls.opened_with), None
    show(prompt, options=options, highlight=highlight)
    shown_at = controls.clock()
    first = True  # the first poll after the menu is drawn
    while True:
        # The presses of one poll are applied together and the menu shown once after them:
        # a tap on a long menu's page box is MENU as many times as the page is long, and was
        # drawn (and flipped) once a step (input audit 63 N2).
        was = highlight
        # Its poll before was the one before the menu was drawn (thrown away), or this one's
        # predecessor in the loop: came_at.
        since = None if first else controls.polled_at
        timed, pending, first = pending + controls.poll_timed(), [], False
        presses = [press for press, _ in timed]
        now = shown_at if controls.polled_at is None else controls.polled_at  # read now
        for n, (press, at) in enumerate(timed):
            # Judged by when it came (came_at): a press made while the menu was drawn, or
            # read by a poll that came late, is in the window.
            if in_window(came_at(at, since, shown_at, now), shown_at) and (
                    (guarded is not None and doubles(press, guarded))
                    or (opened_with is not None and repeats(press, opened_with))):
                continue
            if number_keys is not None and isinstance(press, Pick) and not press.tap \
                    and press.index >= number_keys:
                if past_keys is not None:  # said, not ignored (events72 NIT 5)
                    past_keys(press.index)
                    show(prompt, options=options, highlight=highlight)
                continue  # a digit typed past the keypad's digits: no key of the menu
            opened_with = None  # a press that counted here: the next is nobody's double
            chosen, highlight = menu_press(press, len(options), highlight, shortcuts)
            if chosen is not None:
                controls.chose_with, controls.left_over = press, presses[n + 1:]
                return chosen
        if highlight != was:
            show(prompt, options=options, highlight=highlight)
        sleep(poll_seconds)


class MenuChoices:
    """Choices from presses: buttons, keys, taps (see :func:`menu_press`)."""

    def __init__(self, controls: Controls, poll_seconds: float,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.controls = controls
        self.poll_seconds = poll_seconds
        self.sleep = sleep

    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        if isinstance(ask, Question):
            self.controls.guard_repeat()
        return choose(self.controls, show, ask.prompt, ask.options, ask.highlight,
                      self.poll_seconds, self.sleep)
