"""How a player gives choices (input audit 67).

R1: a double A on the System menu's Unplug? (or Shut down's Yes), or on a mode that cannot be
played now, dismissed the message it brought at once, unread: "Not safe to unplug yet" too.
The message is now guarded against the press that chose, as a question is.

D1, D2: a number typed on the keypad and then Enter, as at a shell prompt, or a key held, on a
real keyboard (a pty) read on the test's clock: the Enter, or the key's repeats, answered the
next menu unseen (a typed D4 taken as 1, a table rolled).

The presses come one poll (0.1 s) apart on a clock that moves as the session sleeps.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Iterator

import pytest

from companion.app.session.controls import Controls, choose
from companion.app.session.keypad import Keypad
from companion.app.session.mode import RollAsk
from companion.app.session.system_menu import SystemMenu
from companion.hw.buttons import Button, Press
from companion.hw.display.view import Option
from companion.hw.keyboard import KeyboardInput
from tests.app.test_session_reads import ScriptedPresses, StepClock

POLL = 0.1
A = Button.ATTACK


class Shown:
    """Every prompt shown, with the clock's time."""

    def __init__(self, clock: StepClock) -> None:
        self.clock = clock
        self.prompts: list[tuple[float, str]] = []

    def __call__(self, prompt: str, **_: object) -> None:
        self.prompts.append((round(self.clock.now, 3), prompt))

    def when(self, start: str) -> list[float]:
        return [at for at, prompt in self.prompts if prompt.startswith(start)]


def system_menu(presses: list[list[Press]], shutdown: str = "",
                unplayable: str = "") -> tuple[SystemMenu, Shown]:
    clock = StepClock()
    controls = Controls([ScriptedPresses(presses)], clock=clock)
    menu = SystemMenu(controls, "dice", POLL, shutdown, lambda mode: unplayable,
                      sleep=clock.sleep, clock=clock, service="")
    return menu, Shown(clock)


def test_a_double_a_on_unplug_leaves_its_message_up() -> None:
    """← to Unplug?, A, and A again 0.1 s after "Safe to unplug now" shows: it stays up; an A
    at 0.5 s goes back to the table."""
    menu, shown = system_menu([[], [Button.PREVIOUS], [A], [], [A], [], [], [], [A]])
    menu.open(shown)  # back to the table once the message is dismissed
    safe = shown.when("Safe to unplug now 電源を抜いても大丈夫")
    assert len(safe) == 1
    assert round(shown.clock.now - safe[0], 3) >= 0.3, shown.prompts  # not the double A


def test_a_double_on_shut_down_yes_leaves_could_not_shut_down_up() -> None:
    """Shut down, → Yes, A; A again 0.1 s after "Could not shut down" shows: it stays up."""
    menu, shown = system_menu([[], [Button.PREVIOUS], [A], [], [Button.MENU], [A], [], [A],
                               [], [], [], [A]], shutdown="false")
    menu.open(shown)
    failed = shown.when("Could not shut down 電源を切れません")
    assert len(failed) == 1
    assert round(shown.clock.now - failed[0], 3) >= 0.3, shown.prompts  # not the double A


def test_a_double_a_on_a_mode_not_playable_leaves_why_up() -> None:
    """→ to a mode that cannot be played now (the first after Back), A, A again 0.1 s after
    the reason shows: it stays up, until an A of its own; B then leaves the menu."""
    why = "No coc fight yet 戦闘がありません: make one on a computer"
    menu, shown = system_menu([[], [Button.MENU], [A], [], [A], [], [], [], [A], [],
                               [Button.FLEE]], unplayable=why)
    menu.open(shown)
    said = shown.when(why)
    assert len(said) == 1
    back = [at for at, prompt in shown.prompts if prompt.startswith("System") and at > said[0]]
    assert back and round(back[0] - said[0], 3) >= 0.3, shown.prompts  # not the double A


# D1, D2 on a real keyboard: the keypad's next die, the dice tray's next menu.


class Typist:
    """A player at a terminal: keys typed at the times given, read by a real KeyboardInput
    on a pty, on the clock the session's polls move."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        self.clock = StepClock()
        self.keyboard = TypistsKeys(self)
        self.controls = Controls([self.keyboard], clock=self.clock)
        self.typed: deque[tuple[float, bytes]] = deque()
        self.shown = Shown(self.clock)

    def send_until(self, now: float) -> None:
        """The keys typed by ``now`` sent; the clock moved to the last (or to ``now``)."""
        due, last = b"", now
        while self.typed and self.typed[0][0] <= now + 1e-9:
            last, key = self.typed.popleft()
            due += key
        if due:
            os.write(self.master, due)
            time.sleep(0.01)  # through the pty
        self.clock.now = last

    def sleep(self, seconds: float) -> None:
        self.send_until(self.clock.now + seconds)
        assert self.clock.now < 30, self.shown.prompts[-1:]

    def type(self, *keys: tuple[float, bytes]) -> None:
        """``keys``: (seconds from now, bytes), the bytes as the terminal sends them."""
        now = self.clock.now
        self.typed.extend((now + at, key) for at, key in keys)

    def close(self) -> None:
        self.keyboard.close()
        os.close(self.master)
        os.close(self.slave)


class TypistsKeys(KeyboardInput):
    """The keyboard, its wait for a key kept back (a held key's next repeat?) passing on the
    test's clock: the keys the terminal sends in that time are written then."""

    def __init__(self, typist: Typist) -> None:
        super().__init__(typist.slave, clock=typist.clock)
        self.typist = typist

    def _ready(self, wait: float) -> bool:
        if wait > 0:
            self.typist.send_until(self.typist.clock.now + wait)
        return super()._ready(0.0)


@pytest.fixture
def typist() -> Iterator[Typist]:
    player = Typist()
    yield player
    player.close()


POLL_KEYS = 0.05  # input.poll_seconds


@pytest.mark.parametrize("enter_after", [0.2, 0.6])
def test_enter_after_a_typed_d6_is_not_the_d4s_1(typist: Typist, enter_after: float) -> None:
    """coc's damage 1D6+1D4 typed: 3, Enter (as at a shell prompt): the D4 is still asked;
    its 2 typed later is the D4 (the audit: the Enter took the D4's first face, 1)."""
    keypad = Keypad(typist.controls, POLL_KEYS, "typed", typist.sleep)
    typist.type((0.3, b"3"), (0.3 + enter_after, b"\n"), (2.5, b"2"))
    d6 = keypad.next_throw(RollAsk("damage", 1, 6), typist.shown)
    d4 = keypad.next_throw(RollAsk("damage", 1, 4), typist.shown)
    assert (d6.values, d4.values) == ((3,), (2,))


def test_enter_after_a_d100s_tens_is_no_units(typist: Typist) -> None:
    """A d100's tens typed 7, then Enter: the units are still asked (the audit: the Enter took
    the units' first key, 71); its 3 typed at 2 s is taken, 73. Then the fight's next menu:
    an A there, 3 s on, is its deliberate confirm, taken at once."""
    keypad = Keypad(typist.controls, POLL_KEYS, "typed", typist.sleep)
    typist.type((0.3, b"7"), (0.5, b"\n"), (2.0, b"3"), (5.0, b"a"))
    assert keypad.next_throw(RollAsk("Kick", 1, 100), typist.shown).values == (73,)
    options = (Option("fight", "Fight"), Option("back", "Back", Button.FLEE))
    assert choose(typist.controls, typist.shown, "Next", options, 0, POLL_KEYS,
                  typist.sleep) == 0


TRAY = (Option("roll", "Roll 1D6"), Option("tables", "Tables 表"),
        Option("quit", "Quit", Button.FLEE))
TABLES = (Option("door", "Door 扉"), Option("chest", "Chest 宝箱"), Option("trap", "Trap 罠"),
          Option("back", "Back 戻る", Button.FLEE))


def tray_then_table(typist: Typist) -> tuple[int, int]:
    """The dice tray's first menu, then its Which table?: what each took."""
    first = choose(typist.controls, typist.shown, "Dice tray", TRAY, 0, POLL_KEYS, typist.sleep)
    table = choose(typist.controls, typist.shown, "Which table?", TABLES, 0, POLL_KEYS,
                   typist.sleep)
    return first, table


@pytest.mark.parametrize("enter_after", [0.15, 0.3, 0.6])
def test_enter_after_tables_leaves_which_table_waiting(typist: Typist,
                                                       enter_after: float) -> None:
    """2 (Tables), Enter: Which table? waits; its Chest (2) typed at 3 s is taken."""
    typist.type((0.3, b"2"), (0.3 + enter_after, b"\n"), (3.0, b"2"))
    assert tray_then_table(typist) == (1, 1)


def held(key: bytes, start: float, delay: float, period: float, hold: float
         ) -> list[tuple[float, bytes]]:
    """A key held ``hold`` seconds, as the terminal sends it: at once, after its repeat delay,
    then every repeat period."""
    sent = [(start, key)]
    t = delay
    while t <= hold + 1e-9:
        sent.append((start + t, key))
        t += period
    return sent


@pytest.mark.parametrize(("delay", "period", "hold"),
                         [(0.25, 0.033, 0.45), (0.25, 0.033, 0.6), (0.5, 0.033, 0.6),
                          (0.66, 0.04, 0.8)],
                         ids=["console-0.45", "console-0.6", "gnome-0.6", "x-0.8"])
def test_tables_held_rolls_no_table(typist: Typist, delay: float, period: float,
                                    hold: float) -> None:
    """2 (Tables) held: Which table? waits (the audit: the held key's repeats took Chest, or
    Trap with 3); its Trap (3) typed at 3 s is taken."""
    typist.type(*held(b"2", 0.3, delay, period, hold), (3.0, b"3"))
    assert tray_then_table(typist) == (1, 2)


def test_a_question_asked_with_a_held_key_is_not_answered(typist: Typist) -> None:
    """End fight held on the console (0.45 s): the question's Yes, keyed with the same 2, is
    not taken by the key's repeats (the audit: FIGHT ENDED); B at 3 s answers No."""
    fight = (Option("attack", "Attack"), Option("end", "End fight"))
    question = (Option("no", "No", Button.FLEE), Option("yes", "Yes"))
    typist.type(*held(b"2", 0.3, 0.25, 0.033, 0.45), (3.0, b"b"))
    assert choose(typist.controls, typist.shown, "Fight", fight, 0, POLL_KEYS,
                  typist.sleep) == 1
    typist.controls.guard_repeat()
    assert choose(typist.controls, typist.shown, "End fight?", question, 0, POLL_KEYS,
                  typist.sleep) == 0
