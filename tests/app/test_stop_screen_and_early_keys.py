"""The stop screen's A button, keys typed before a menu, config --show pin clashes.

reviewk71's findings on the key and config fixes: a missing ``display.font`` alone still
lets the A button end its stop screen (DEFECT 1); a key typed before a menu came does not
count on it, even the same key again, held back to see whether it was a repeat (RISK 1)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.cli import main
from companion.app.session.controls import Controls, choose
from companion.hw.buttons import ButtonPins
from companion.hw.display.view import Option, View
from companion.hw.keyboard import KeyboardInput
from tests.app.config_and_pins_helpers import (  # noqa: F401 (mock_pins_fixture: asked for by name)
    mock_pins_fixture,
    setting_lines,
    write_config,
)


def test_the_a_button_ends_the_stop_screen_of_a_missing_font(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The font's refusal was raised before the buttons were opened, so the stop screen
    read only the screen's own keys: its OK 了解 waited a minute for an A that did nothing.
    The buttons are opened first again; only a pin clash or a hold time stops before."""
    from companion.app.commands.play import telling
    from companion.hw.display.screen import ScreenDisplay

    path = write_config('[display]\nkind = "screen"\nfont = "none.ttf"\n'
                        '[choices]\nkind = "gpio"\n')
    # Long enough that the stop ended by its time is told from one ended by the press.
    monkeypatch.setattr(telling, "STOP_SHOWN_SECONDS", 8.0)
    attack = mock_pins.pin(ButtonPins().attack)
    prompts: list[str] = []

    def press_a() -> None:
        time.sleep(0.3)  # the player reads the screen, then presses A
        attack.drive_low()
        time.sleep(0.15)
        attack.drive_high()

    draw = ScreenDisplay.show

    def show(screen: ScreenDisplay, view: View) -> None:
        draw(screen, view)
        prompts.append(view.prompt)
        if view.prompt.startswith("Stopped 停止") and len(prompts) == 1:
            threading.Thread(target=press_a, daemon=True).start()

    monkeypatch.setattr(ScreenDisplay, "show", show)
    started = time.monotonic()
    assert main(["play", "--mode", "dice", "--dice", "sim"]) == 2
    took = time.monotonic() - started
    err = capsys.readouterr().err
    assert (f"companion: error: display.font ({path}): {path.parent / 'none.ttf'}: no such "
            "file" in err)
    assert "press A there, or Ctrl-C here to end it" in err
    assert "(mend it, then check with " in err and "config --show)" in err
    assert prompts[0].startswith("Stopped 停止: display.font")
    assert took < 5.0, f"the A press did not end the stop screen ({took:.1f} s)"


# ---- RISK 1: a key typed before a menu came does not count on it --------------------------

OPTIONS = (Option("a", "Fight", button=None), Option("b", "Other"))


def no_show(*args: object, **kwargs: object) -> None:
    return None


@pytest.fixture
def typed() -> Iterator[tuple[int, Controls]]:
    """The real keyboard reader on a pty: the master to type at, and the controls."""
    master, slave = os.openpty()
    keyboard = KeyboardInput(slave)
    try:
        yield master, Controls([keyboard])
    finally:
        os.write(master, b"\x1b[B")  # a menu a failed test left waiting: moved, not chosen
        keyboard.close()
        os.close(master)
        os.close(slave)


def menu_shown(controls: Controls) -> tuple[threading.Thread, list[int]]:
    """A menu shown now (``OPTIONS``, Fight lit), waiting on its own thread: what it chose."""
    chose: list[int] = []
    waiting = threading.Thread(target=lambda: chose.append(
        choose(controls, no_show, "m2", OPTIONS, 0, 0.02)), daemon=True)
    waiting.start()
    return waiting, chose


@pytest.mark.parametrize("key", [b"a", b"f"])
@pytest.mark.parametrize("busy", [0.6, 1.5, 2.0])
def test_a_key_typed_while_the_companion_is_busy_does_not_count_on_the_next_menu(
        typed: tuple[int, Controls], busy: float, key: bytes) -> None:
    """``a`` chose; while the step after it ran (a save, the dice camera), the player typed
    again, 40 ms before the next menu's first poll. Another key (``f``) was dropped, as the
    docs say; the same key (``a``), held back 0.08 s to see whether it was a repeat, came
    after that poll and chose on a menu not yet seen. A press after the menu counts."""
    master, controls = typed
    threading.Timer(0.3, os.write, (master, b"a")).start()
    assert choose(controls, no_show, "m1", OPTIONS, 0, 0.02) == 0
    time.sleep(busy - 0.04)
    os.write(master, key)
    time.sleep(0.04)
    waiting, chose = menu_shown(controls)
    waiting.join(0.5)
    assert chose == []
    os.write(master, b"a")  # pressed once the menu is up
    waiting.join(1.0)
    assert chose == [0]


@pytest.mark.parametrize("gap", [0.2, 0.5, 1.0, 1.5, 2.0])
def test_a_then_a_on_two_menus_both_count(typed: tuple[int, Controls], gap: float) -> None:
    """Each A pressed after its menu shows: the second (held back 0.08 s, as the same key
    again) is dated after the next menu's first poll, and counts there."""
    master, controls = typed
    threading.Timer(0.3, os.write, (master, b"a")).start()
    assert choose(controls, no_show, "m1", OPTIONS, 0, 0.02) == 0
    threading.Timer(gap, os.write, (master, b"a")).start()
    waiting, chose = menu_shown(controls)
    waiting.join(gap + 1.0)
    assert chose == [0]


# ---- NIT 1: both lines of a pin clash are marked ------------------------------------------

def marked_lines(out: str) -> list[str]:
    return [line for line in setting_lines(out).values()
            if "(play stops on it プレイが止まります)" in line]


def test_config_show_marks_both_settings_of_a_pin_clash(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The player wrote attack_pin = 27, the flee button's default: only the later setting,
    the built-in flee_pin, was marked, not the line the player wrote."""
    path = write_config("[buttons]\nattack_pin = 27\n")
    assert main(["config", "--show"]) == 1
    out, err = capsys.readouterr()
    assert err == (f"companion: buttons.flee_pin (built in) and buttons.attack_pin ({path}) "
                   "are both GPIO27; give each part its own pin\n")
    assert [line.split()[0] for line in marked_lines(out)] == ["buttons.attack_pin",
                                                               "buttons.flee_pin"]
    assert marked_lines(out)[0].split()[1:3] == ["=", "27"]
    assert "# file: config.toml (play stops" in marked_lines(out)[0] and path.name == "config.toml"


# ---- NIT 2: config --show says play's warning of a pin to avoid ---------------------------

def test_config_show_says_a_pin_to_avoid_as_play_does_and_exits_0(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """play warns of GPIO2 at its start and goes on; config --show, the maker's check
    (hardware/README.md), said nothing of it. It says it now, as a warning: no problem."""
    monkeypatch.setenv("COMPANION_BUTTONS_FLEE_PIN", "2")
    warning = ("warning: buttons.flee_pin (COMPANION_BUTTONS_FLEE_PIN) is GPIO2, I²C SDA, with "
               "a fixed pull-up on the board; hardware/wiring.md says to avoid it")
    assert main(["config", "--show"]) == 0
    out, err = capsys.readouterr()
    assert err == f"companion: {warning}\n"
    assert "# - warning: buttons.flee_pin (COMPANION_BUTTONS_FLEE_PIN) is GPIO2" in out
    assert not marked_lines(out) and "problem" not in out
    # The keyboard opens no pin: nothing to warn of.
    assert main(["config", "--show", "--set", "choices.kind=keyboard"]) == 0
    assert capsys.readouterr().err == ""


# ---- NIT 3: a hangup that lands in close() leaves the terminal's settings back ------------

@pytest.fixture
def opened_on_a_pty() -> Iterator[tuple[int, KeyboardInput]]:
    """A keyboard on a pty, made on the main thread (it takes SIGHUP): the slave and it."""
    import signal

    master, slave = os.openpty()
    before = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        yield slave, KeyboardInput(slave)
    finally:
        signal.signal(signal.SIGHUP, before)
        signal.signal(signal.SIGCONT, signal.SIG_DFL)
        os.close(master)
        os.close(slave)


def hangup() -> None:
    """``kill -HUP`` now: while the keyboard takes it (by default it ends the test run)."""
    import signal

    if signal.getsignal(signal.SIGHUP) is not signal.SIG_DFL:
        os.kill(os.getpid(), signal.SIGHUP)


@pytest.mark.parametrize("where", ["waiting for the reader", "putting the settings back"])
def test_a_hangup_in_close_stops_the_run_with_the_terminal_put_back(
        opened_on_a_pty: tuple[int, KeyboardInput], where: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """close() waited up to 2 s for the reader before it put the settings back: a
    ``kill -HUP`` landing then raised TerminalGone there, and the terminal stayed in cbreak
    (IXON and ICRNL off), SIGCONT still the keyboard's."""
    import signal
    import termios

    from companion.hw import keyboard as keyboard_module
    from companion.hw.keyboard import TerminalGone

    slave, keys = opened_on_a_pty
    saved = keys._saved
    assert saved is not None and termios.tcgetattr(slave) != saved  # cbreak while open
    if where == "waiting for the reader":
        join = keys._reader.join
        monkeypatch.setattr(keys._reader, "join",
                            lambda timeout=None: (hangup(), join(timeout))[1])
    else:
        put_back = termios.tcsetattr
        monkeypatch.setattr(keyboard_module.termios, "tcsetattr",
                            lambda *args: (hangup(), put_back(*args))[1])
    with pytest.raises(TerminalGone):
        keys.close()
    monkeypatch.undo()
    assert termios.tcgetattr(slave) == saved
    assert signal.getsignal(signal.SIGCONT) is signal.SIG_DFL
    assert signal.getsignal(signal.SIGHUP) is signal.SIG_DFL


def test_a_hangup_in_close_with_another_thread_running_still_puts_the_terminal_back(
        opened_on_a_pty: tuple[int, KeyboardInput], monkeypatch: pytest.MonkeyPatch) -> None:
    """The companion runs other threads (a reader, a display's): a SIGHUP blocked in the
    main thread alone went to one of them, and Python ran its handler in the main thread at
    once, before the settings were back (the full suite's xdist workers showed it)."""
    import signal
    import termios
    import threading

    from companion.hw import keyboard as keyboard_module
    from companion.hw.keyboard import TerminalGone

    slave, keys = opened_on_a_pty
    saved = keys._saved
    stop = threading.Event()
    bystander = threading.Thread(target=stop.wait, daemon=True)
    bystander.start()
    put_back = termios.tcsetattr

    def hangup_then_put_back(*args: object) -> None:
        hangup()
        time.sleep(0.1)  # the bystander takes the signal meanwhile
        put_back(*args)

    monkeypatch.setattr(keyboard_module.termios, "tcsetattr", hangup_then_put_back)
    try:
        with pytest.raises(TerminalGone):
            keys.close()
    finally:
        stop.set()
        bystander.join()
    monkeypatch.undo()
    assert termios.tcgetattr(slave) == saved
    assert signal.getsignal(signal.SIGHUP) is signal.SIG_DFL
    keys._reader.join(timeout=2)  # told to stop: it ends, if not waited for
    assert not keys._reader.is_alive()


# ---- screen72 DEFECT 1: the stop of a hold time or a pin clash ---------------------------

def test_the_a_button_ends_the_stop_screen_of_a_hold_time_that_cannot_be_pressed(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A System hold no longer than the menu's stopped play before any button was opened:
    the screen offered [A] OK 了解 and stderr said "press A there", and A did nothing for a
    minute. The pins are sound: the buttons are opened with the built-in holds for the stop."""
    from companion.app.commands.play import telling
    from companion.hw.display.screen import ScreenDisplay

    write_config('[display]\nkind = "screen"\n[choices]\nkind = "gpio"\n'
                 '[buttons]\nlong_press_seconds = 2.0\nsystem_press_seconds = 1.5\n')
    monkeypatch.setattr(telling, "STOP_SHOWN_SECONDS", 8.0)
    attack = mock_pins.pin(ButtonPins().attack)
    prompts: list[str] = []

    def press_a() -> None:
        time.sleep(0.3)
        attack.drive_low()
        time.sleep(0.15)
        attack.drive_high()

    draw = ScreenDisplay.show

    def show(screen: ScreenDisplay, view: View) -> None:
        draw(screen, view)
        prompts.append(view.prompt)
        if len(prompts) == 1:
            threading.Thread(target=press_a, daemon=True).start()

    monkeypatch.setattr(ScreenDisplay, "show", show)
    started = time.monotonic()
    assert main(["play", "--input", "sim"]) == 2
    took = time.monotonic() - started
    err = capsys.readouterr().err
    assert "buttons.system_press_seconds" in prompts[0]
    assert "buttons are off" not in prompts[0]
    assert "press A there, or Ctrl-C here to end it" in err
    assert took < 5.0, f"the A press did not end the stop screen ({took:.1f} s)"


def test_the_stop_screen_of_a_pin_clash_says_the_buttons_are_off_and_it_closes_itself(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Two parts on one pin would fight, so no pin is opened: the screen said [A] OK 了解 and
    stderr "press A there", and no button ended it. It says the buttons are off and that it
    closes by itself; stderr sends the player to the screen's tap or key. No pin is held."""
    import gpiozero

    from companion.app.commands.play import telling
    from companion.hw.display.screen import ScreenDisplay

    # Every button shares its pin (A and B, R and I): a button of its own pin is opened
    # (reviews72 RISK 2, tests/hw/test_stop_screen_buttons_of_a_pin_clash.py).
    write_config('[display]\nkind = "screen"\n[choices]\nkind = "gpio"\n'
                 '[buttons]\nattack_pin = 27\nranged_pin = 23\n')
    monkeypatch.setattr(telling, "STOP_SHOWN_SECONDS", 0.3)
    prompts: list[str] = []
    draw = ScreenDisplay.show

    def show(screen: ScreenDisplay, view: View) -> None:
        draw(screen, view)
        prompts.append(view.prompt)
        for pin in (27, 23):  # free while the stop is shown: opened here and let go
            gpiozero.Button(pin).close()

    monkeypatch.setattr(ScreenDisplay, "show", show)
    assert main(["play", "--input", "sim"]) == 2
    err = capsys.readouterr().err
    said = "are both GPIO27; give each part its own pin"
    assert said in prompts[0] and said in err
    off = ("The buttons are off until this is mended: this screen closes by itself within a "
           "minute 1分で閉じます")
    assert prompts[0].endswith(off)
    assert err.endswith("companion: the error stays on the screen up to a minute, the buttons "
                        "off: tap OK there (or type 1 on its keyboard), or press Ctrl-C here "
                        "to end it\n")
    assert "press A there" not in err
