"""A terminal's keys as a player types them (input audit 67 D1, D2; keys68).

D1: a number (or a letter that chose: ``f`` Back, ``a``) typed and then Enter, as at a shell
prompt: the Enter confirmed the next menu's highlighted option, unseen (a typed D4 taken as
1, a d100's 7 as 71, the tray's Door table rolled unasked).
D2: a held key's auto-repeat acted twice (a question's Yes taken, the next menu run into).

The first fix (0a90ea14, reverted in b5d7901b) timed keys when the game read them, and lost
real presses: a paste ``22``, two presses read together by a busy companion, every Enter
after the first sent as CR LF. The keyboard now stamps each key as it arrives (a reader
thread), with the read that brought it; these tests type on a real pty, each key at its
time on a clock the test moves, and wait for the keyboard to take it before the next.
"""

from __future__ import annotations

import os
import select
import threading
import time
from collections import deque
from collections.abc import Iterator

import pygame
import pytest

from companion.app.session.controls import Controls, DatesPresses, choose
from companion.app.session.keypad import Keypad
from companion.app.session.mode import RollAsk
from companion.hw.buttons import Button, Pick, Press
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Option
from companion.hw.key_runs import (
    KEY_HELD_WAIT_SECONDS,
    EnterEndsLine,
    HeldKeys,
    Key,
    KeyRuns,
)
from companion.hw.keyboard import KeyboardInput
from tests.app.session_helpers import StepClock
from tests.app.shown_helpers import Shown

POLL_KEYS = 0.05  # input.poll_seconds
A = Button.ATTACK
ENTER = b"\r"  # what a terminal sends for Enter


class Typist:
    """A player at a terminal: keys typed at the times given (seconds on the test's clock),
    each taken by the real KeyboardInput on a pty before the clock moves on."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        self.clock = StepClock()
        self.keyboard = KeyboardInput(self.slave, clock=self.clock)
        self.controls = Controls([self.keyboard], clock=self.clock)
        self.typed: deque[tuple[float, bytes]] = deque()
        self.sent = 0
        self.shown = Shown(self.clock)

    def type(self, *keys: tuple[float, bytes]) -> None:
        """``keys``: (seconds from now, bytes as the terminal sends them at once)."""
        now = self.clock.now
        self.typed.extend((now + at, key) for at, key in keys)

    def send(self, key: bytes) -> None:
        """``key`` sent now, and taken by the keyboard (stamped now) before going on."""
        os.write(self.master, key)
        self.sent += len(key)
        deadline = time.monotonic() + 10
        while self.keyboard.bytes_read < self.sent:
            assert time.monotonic() < deadline, "the keyboard took no key"
            time.sleep(0.001)

    def sleep(self, seconds: float) -> None:
        """The game's sleep between polls: the keys typed meanwhile are sent at their times."""
        end = self.clock.now + seconds
        while self.typed and self.typed[0][0] <= end + 1e-9:
            at, key = self.typed.popleft()
            self.clock.now = max(self.clock.now, at)
            self.send(key)
        self.clock.now = end
        assert self.clock.now < 30, self.shown.prompts[-1:]

    def polled(self, seconds: float) -> list[Press]:
        """Every press polled over ``seconds`` from now, at the game's poll."""
        presses: list[Press] = []
        end = self.clock.now + seconds
        while self.clock.now < end - 1e-9:
            presses += self.keyboard.poll()
            self.sleep(POLL_KEYS)
        return presses + self.keyboard.poll()

    def close(self) -> None:
        self.keyboard.close()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def typist() -> Iterator[Typist]:
    player = Typist()
    yield player
    player.close()


def held(key: bytes, start: float, delay: float, period: float, hold: float
         ) -> list[tuple[float, bytes]]:
    """A key held ``hold`` seconds, as the terminal sends it: at once, after its repeat delay,
    then every repeat period, each on its own."""
    sent = [(start, key)]
    t = delay
    while t <= hold + 1e-9:
        sent.append((start + t, key))
        t += period
    return sent


CONSOLE, GNOME, X = (0.25, 0.033), (0.5, 0.033), (0.66, 0.04)  # repeat delay, period


# D1: the Enter of a line.


@pytest.mark.parametrize("enter_after", [0.2, 0.6])
def test_enter_after_a_typed_d6_leaves_the_d4_waiting(typist: Typist,
                                                      enter_after: float) -> None:
    """coc's damage 1D6+1D4 typed: 3, Enter (the audit: the Enter took the D4's first face,
    1): the D4 keypad waits; its 2 typed at 2.5 s is the D4."""
    keypad = Keypad(typist.controls, POLL_KEYS, "typed", typist.sleep)
    typist.type((0.3, b"3"), (0.3 + enter_after, ENTER), (2.5, b"2"))
    d6 = keypad.next_throw(RollAsk("damage", 1, 6), typist.shown)
    d4 = keypad.next_throw(RollAsk("damage", 1, 4), typist.shown)
    assert (d6.values, d4.values) == ((3,), (2,))


def test_enter_after_a_d100s_tens_is_no_units(typist: Typist) -> None:
    """A d100's tens 7, then Enter: the units are still asked (the audit: 71); 3 → 73. Then
    an A on the next menu, 3 s on, is taken at once."""
    keypad = Keypad(typist.controls, POLL_KEYS, "typed", typist.sleep)
    typist.type((0.3, b"7"), (0.5, ENTER), (2.0, b"3"), (5.0, b"a"))
    assert keypad.next_throw(RollAsk("Kick", 1, 100), typist.shown).values == (73,)
    options = (Option("fight", "Fight"), Option("back", "Back", Button.FLEE))
    assert choose(typist.controls, typist.shown, "Next", options, 0, POLL_KEYS,
                  typist.sleep) == 0


TRAY = (Option("roll", "Roll 1D6"), Option("tables", "Tables 表"),
        Option("quit", "Quit", Button.FLEE))
TABLES = (Option("door", "Door 扉"), Option("chest", "Chest 宝箱"), Option("trap", "Trap 罠"),
          Option("back", "Back 戻る", Button.FLEE))


def menu(typist: Typist, prompt: str, options: tuple[Option, ...]) -> int:
    return choose(typist.controls, typist.shown, prompt, options, 0, POLL_KEYS, typist.sleep)


def test_f_then_enter_goes_back_and_leaves_the_menu_before_waiting(typist: Typist) -> None:
    """f (Back) on Which table?, then Enter 0.2 s later (reviewi67 RISK 2: the Enter rolled
    the first menu's Roll 1D6): the first menu waits; its 2 typed at 3 s is taken."""
    typist.type((0.3, b"2"), (1.6, b"f"), (1.8, ENTER), (4.5, b"2"))
    assert menu(typist, "Dice tray", TRAY) == 1
    assert menu(typist, "Which table?", TABLES) == 3
    at = typist.clock.now
    assert menu(typist, "Dice tray", TRAY) == 1
    assert typist.clock.now - at > 2  # the Enter took nothing: the 2, later, chose


TRAY_2D6 = (Option("1d6", "Roll 1D6 振る"), Option("2d6", "Roll 2D6 振る"),
            Option("tables", "Tables 表"), Option("quit", "Quit", Button.FLEE))


USE_ASKED = (Option("use", "Yes, use it はい", Button.ATTACK), Option("back", "Back 戻る",
                                                                       Button.FLEE))


def test_enter_after_i_is_the_lines_not_the_use_questions_yes(typist: Typist) -> None:
    """i takes Use (the item's key), then Enter 0.4 s later, typed as the line's end: the
    question "Use healing potion now?" that i opened waits (reviewk68b DEFECT 1: with i
    counted as only moving the highlight, the Enter took Yes and the potion was drunk);
    the f typed at 3 s answers Back."""
    typist.type((0.3, b"i"), (0.7, ENTER), (3.0, b"f"))
    assert menu(typist, "Use healing potion now? 本当に回復薬を使う？", USE_ASKED) == 1
    assert typist.clock.now > 2.9


def test_an_enter_read_late_after_a_slow_draw_is_still_the_lines(typist: Typist) -> None:
    """3, Enter 0.2 s later, both read 1.3 s after the 3 (the next keypad slow to draw;
    reviewi67 RISK 1): the Enter is the line's, dropped, as it came 0.2 s after."""
    typist.send(b"3")
    typist.clock.now += 0.2
    typist.send(ENTER)
    typist.clock.now += 1.1
    assert typist.keyboard.poll() == [Pick(2)]


def test_enter_after_an_arrow_or_after_enter_confirms(typist: Typist) -> None:
    """3, ↓, Enter: the Enter confirms the highlight moved (an arrow chose nothing); and an
    Enter after an Enter is a second confirm."""
    typist.type((0.0, b"3"), (0.3, b"\x1b[B"), (0.6, ENTER), (0.9, ENTER))
    assert typist.polled(1.2) == [Pick(2), Button.MENU, A, A]


def test_cr_lf_is_one_enter_each_time(typist: Typist) -> None:
    """A terminal that sends CR LF for Enter: three Enters a second apart are three
    confirms (reviewi67 DEFECT 1: the first fix counted only the first of a session); and
    each CR LF is one Enter, not two (the second a left-over, or the next menu's)."""
    typist.type((0.0, b"\r\n"), (1.0, b"\r\n"), (2.0, b"\r\n"))
    assert typist.polled(2.5) == [A, A, A]


def test_two_enters_typed_together_are_two(typist: Typist) -> None:
    """LF alone (Ctrl-J) is Enter; Enter, Enter pasted (CR CR) is two."""
    typist.type((0.0, b"\n"), (1.0, b"\r\r"))
    assert typist.polled(1.5) == [A, A, A]


# D2: a held key.


@pytest.mark.parametrize(("rate", "hold"), [(CONSOLE, 0.45), (CONSOLE, 0.6), (GNOME, 0.6),
                                             (X, 0.8), (CONSOLE, 1.5)],
                         ids=["console-0.45", "console-0.6", "gnome-0.6", "x-0.8",
                              "console-1.5"])
def test_a_held_key_is_one_press(typist: Typist, rate: tuple[float, float],
                                 hold: float) -> None:
    """2 held, sent as the terminal repeats it: one press, however long."""
    delay, period = rate
    typist.type(*held(b"2", 0.0, delay, period, hold))
    assert typist.polled(hold + 0.5) == [Pick(1)]


@pytest.mark.parametrize("hold", [0.45, 0.6])
def test_tables_held_on_the_console_rolls_no_table(typist: Typist, hold: float) -> None:
    """2 (Tables) held on the Pi's console (the audit: the repeats took Trap): Which table?
    waits; its Trap (3) typed at 3 s is taken."""
    typist.type(*held(b"2", 0.3, *CONSOLE, hold), (3.0, b"3"))
    assert (menu(typist, "Dice tray", TRAY), menu(typist, "Which table?", TABLES)) == (1, 2)


def test_a_question_asked_with_a_held_key_is_not_answered(typist: Typist) -> None:
    """End fight held on the console 0.45 s: the question's Yes, keyed with the same 2, is
    not taken (the audit: FIGHT ENDED); B at 3 s answers No."""
    fight = (Option("attack", "Attack"), Option("end", "End fight"))
    question = (Option("no", "No", Button.FLEE), Option("yes", "Yes"))
    typist.type(*held(b"2", 0.3, *CONSOLE, 0.45), (3.0, b"b"))
    assert menu(typist, "Fight", fight) == 1
    typist.controls.guard_repeat()
    assert menu(typist, "End fight?", question) == 0


def test_a_held_i_is_one_press(typist: Typist) -> None:
    """i held (it may choose Use): one press, though an Enter after it confirms (DEFECT 1)."""
    typist.type(*held(b"i", 0.0, *CONSOLE, 0.6))
    assert typist.polled(1.1) == [Button.ITEM]


def test_a_held_arrow_runs_down_the_menu(typist: Typist) -> None:
    """↓ held: every repeat moves the highlight, as sent."""
    sent = held(b"\x1b[B", 0.0, *CONSOLE, 0.45)
    typist.type(*sent)
    assert typist.polled(0.8) == [Button.MENU] * len(sent)


@pytest.mark.parametrize("apart", [0.15, 0.3, 0.6, 1.5])
def test_a_key_pressed_twice_counts_twice(typist: Typist, apart: float) -> None:
    """2, 2 pressed deliberately, ``apart`` seconds: two presses (the second held back
    :data:`KEY_HELD_WAIT_SECONDS` at most, when it could be a first repeat)."""
    typist.type((0.0, b"2"), (apart, b"2"))
    assert typist.polled(apart + 0.3) == [Pick(1), Pick(1)]


def test_a_paste_of_one_key_twice_is_two_presses(typist: Typist) -> None:
    """2 on the tray's menu, then ``22`` pasted (one read) on a typed 2D6's keypad: both dice
    (reviewi67 DEFECT 2: the first fix lost both)."""
    keypad = Keypad(typist.controls, POLL_KEYS, "typed", typist.sleep)
    typist.type((0.3, b"2"), (1.3, b"22"))
    assert menu(typist, "Dice tray", TRAY) == 1
    assert keypad.next_throw(RollAsk("2D6", 2, 6), typist.shown).values == (2, 2)


def test_a_held_key_read_in_one_run_is_still_one_press(typist: Typist) -> None:
    """2 held, its repeats bunched two to a read: the run goes on, one press."""
    typist.type((0.0, b"2"), (0.25, b"2"), (0.283, b"22"), (0.35, b"22"), (0.42, b"2"))
    assert typist.polled(0.8) == [Pick(1)]


OPTS = (Option("fight", "Fight"), Option("wait", "Wait"))


def a_then_the_next_menu(typist: Typist, gap: float) -> None:
    """a typed (accepting a read, or opening a question), polled by the controls; the next
    menu drawn 0.02 s later; a second a ``gap`` s after the first (an impatient double), then
    ↓ and Enter at 3 s: the Wait the player meant."""
    typist.type((0.0, b"a"), (gap, b"a"), (3.0, b"\x1b[B"), (3.3, ENTER))
    typist.sleep(0.001)
    assert typist.controls.poll() == [A]
    typist.sleep(0.019)


@pytest.mark.parametrize("gap", [0.25, 0.3, 0.35])
def test_a_double_a_on_accept_is_guarded(typist: Typist, gap: float) -> None:
    """A read accepted with a; the menu after it guards its double for 0.4 s
    (``accepted_with``). The second a ``gap`` s later is the same key after a pause, held back
    0.08 s to see whether it is a held key's repeat: judged as typed, it is inside the guard
    (reviewk68 DEFECT 2: dated when let through, 0.3 s and on fought the highlighted option,
    waking a sleeper)."""
    a_then_the_next_menu(typist, gap)
    typist.controls.accepted_with = A
    assert menu(typist, "Fight or wait", OPTS) == 1


@pytest.mark.parametrize("gap", [0.25, 0.3, 0.35])
def test_a_double_a_on_a_question_is_guarded(typist: Typist, gap: float) -> None:
    """A question (End fight?) opened with a, Yes highlighted: its guard (``opened_with``)
    drops the double a ``gap`` s later, held back as above (reviewk68 DEFECT 2: it took Yes);
    ↓, Enter take No."""
    a_then_the_next_menu(typist, gap)
    typist.controls.chose_with = A
    typist.controls.guard_repeat()
    question = (Option("yes", "Yes"), Option("no", "No"))
    assert menu(typist, "End fight?", question) == 1


def test_a_held_back_key_is_dated_when_it_arrived(typist: Typist) -> None:
    """2, 2 0.3 s apart: the second, held back, comes with the time it arrived."""
    assert isinstance(typist.keyboard, DatesPresses)  # Controls takes its times
    typist.type((0.0, b"2"), (0.3, b"2"))
    timed: list[tuple[Press, float]] = []
    for _ in range(12):
        timed += typist.keyboard.poll_timed()
        typist.sleep(POLL_KEYS)
    assert timed == [(Pick(1), 0.0), (Pick(1), pytest.approx(0.3))]


def test_two_presses_count_twice_while_the_game_is_busy() -> None:
    """Real time: 2, 2 typed 0.15 s apart while the game sleeps 0.3 s between polls (drawing,
    saving): both count, timed as they arrived (reviewi67 DEFECT 2: the first fix read them
    together, as a held key, and lost both). Then 3 held on the console, a busy poll
    between its repeats: one press."""
    master, slave = os.openpty()
    keys = KeyboardInput(slave)
    try:
        def typed() -> None:
            time.sleep(0.1)
            os.write(master, b"2")
            time.sleep(0.15)
            os.write(master, b"2")
            time.sleep(1.5)
            for at, key in held(b"3", 0.0, *CONSOLE, 0.6):
                time.sleep(max(0.0, start + at - time.monotonic()))
                os.write(master, key)

        start = 0.0
        writer = threading.Thread(target=typed)
        begun = time.monotonic()
        start = begun + 1.75 + 0.1
        writer.start()
        got: list[Press] = []
        while time.monotonic() - begun < 3.2:
            got += keys.poll()
            time.sleep(0.3)
        writer.join()
        got += keys.poll()
        assert got[:2] == [Pick(1), Pick(1)]
        assert got[2:] == [Pick(2)]
    finally:
        keys.close()
        os.close(master)
        os.close(slave)


def test_closing_stops_the_reader_and_gives_the_terminal_back() -> None:
    """Closed, the keyboard's reader thread ends, and a key typed after is not taken."""
    master, slave = os.openpty()
    try:
        keys = KeyboardInput(slave)
        reader = keys._reader
        assert reader.is_alive()
        keys.close()
        assert not reader.is_alive()
        os.write(master, b"a\n")  # a line: the terminal's own settings are back
        time.sleep(0.05)
        assert keys.bytes_read == 0
        assert select.select([slave], [], [], 5)[0]
        assert os.read(slave, 10) == b"a\n"  # there for whoever reads the terminal next
    finally:
        os.close(master)
        os.close(slave)


# The rules alone.


def runs(*keys: tuple[str, float, int]) -> list[Press]:
    """The presses KeyRuns makes of ``keys`` (name, arrived, read), and of a poll after."""
    from companion.hw.keyboard import press_for_key

    rules = KeyRuns()
    out: list[tuple[Press, float]] = []
    for name, at, chunk in keys:
        out += rules.feed(Key(name, press_for_key(name), at, chunk))
    return [press for press, _ in out + rules.due(keys[-1][1] + 1)]


def test_the_rules_alone() -> None:
    assert runs(("3", 0, 1), ("\r", 0.5, 2)) == [Pick(2)]
    assert runs(("3", 0, 1), ("\r", 1.0, 2)) == [Pick(2), A]
    assert runs(("3", 0, 1), ("x", 0.2, 2), ("\r", 0.4, 3)) == [Pick(2), A]
    assert runs(("3", 0, 1), ("\r", 0.0, 1), ("\n", 0.0, 1)) == [Pick(2)]  # "3\r\n"
    assert runs(("\r", 0, 1), ("\n", 0, 1), ("\r", 1, 2), ("\n", 1, 2)) == [A, A]
    assert runs(("2", 0, 1), ("2", 0.25, 2), ("2", 0.28, 3), ("2", 0.31, 4)) == [Pick(1)]
    assert runs(("2", 0, 1), ("2", 0.25, 2)) == [Pick(1), Pick(1)]  # no repeat followed
    assert runs(("2", 0, 1), ("2", 0.05, 2)) == [Pick(1)]
    assert runs(("2", 0, 1), ("2", 0.05, 1)) == [Pick(1), Pick(1)]  # one read: a paste
    assert runs(("2", 0, 1), ("2", 1.0, 2), ("2", 1.0, 2)) == [Pick(1)] * 3
    assert runs(("i", 0, 1), ("\r", 0.4, 2)) == [Button.ITEM]  # the line's (reviewk68b)
    assert runs(("r", 0, 1), ("\r", 0.4, 2)) == [Button.RANGED]
    assert runs(("i", 0, 1), ("i", 0.25, 2), ("i", 0.28, 3)) == [Button.ITEM]  # held: once


def test_a_held_back_key_comes_when_its_wait_ends() -> None:
    rule = HeldKeys()
    assert rule.feed(Key("2", Pick(1), 0.0, 1)) == [(Pick(1), 0.0)]
    assert rule.feed(Key("2", Pick(1), 0.3, 2)) == []
    assert rule.due(0.3 + KEY_HELD_WAIT_SECONDS / 2) == []
    assert rule.due(0.3 + KEY_HELD_WAIT_SECONDS) == [(Pick(1), 0.3)]  # dated as it came
    assert rule.feed(Key("2", Pick(1), 1.0, 4)) == []
    assert rule.feed(Key("3", Pick(2), 1.05, 5)) == [(Pick(1), 1.0), (Pick(2), 1.05)]


def test_enter_ends_the_line_of_a_key_that_chose() -> None:
    line = EnterEndsLine()
    for name, press in (("f", Button.FLEE), ("a", A), (" ", A), ("s", Button.SYSTEM),
                        ("i", Button.ITEM), ("r", Button.RANGED)):
        line.interrupt()
        assert line.keep(Key(name, press, 0.0))
        assert not line.keep(Key("\r", A, 0.3)), name
    for name, press in (("m", Button.MENU), ("\x1b[A", Button.PREVIOUS), ("\r", A)):
        line.interrupt()
        assert line.keep(Key(name, press, 0.0))
        assert line.keep(Key("\r", A, 0.3)), name


# The screen's window: D1 (no auto-repeat there).


def key_down(key: int, text: str) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=text))


def test_the_window_drops_a_lines_enter_too() -> None:
    """A keyboard on the Pi with the screen (reviewi67 RISK 3: 3, Enter rolled the Door
    table): 3, Enter 0.2 s later → the 3 only; Enter again → confirm; ↓, Enter → both."""
    screen = ScreenDisplay("800x480")
    try:
        screen.poll()
        key_down(pygame.K_3, "3")
        assert screen.poll() == [Pick(2)]
        time.sleep(0.2)
        key_down(pygame.K_RETURN, "\r")
        assert screen.poll() == []
        key_down(pygame.K_RETURN, "\r")
        assert screen.poll() == [A]
        key_down(pygame.K_f, "f")
        key_down(pygame.K_RETURN, "\r")
        key_down(pygame.K_DOWN, "")
        key_down(pygame.K_RETURN, "\r")
        key_down(pygame.K_2, "2")
        key_down(pygame.K_2, "2")
        assert screen.poll() == [Button.FLEE, Button.MENU, A, Pick(1), Pick(1)]
    finally:
        screen.close()
