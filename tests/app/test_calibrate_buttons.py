"""`companion calibrate buttons` (a77keys RISK 6): the buttons, LED and buzzer checked as
wired, on gpiozero's mock pins. A button on the wrong pin showed only as "A does nothing" in
a game."""

from __future__ import annotations

import _thread
import os
import sys
import threading
import time
from collections.abc import Callable

import gpiozero
import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.calibrate.buttons import q_typed
from companion.app.cli import main
from tests.app.config_and_pins_helpers import (
    mock_pins_fixture,  # noqa: F401 (asked for as mock_pins)
    write_config,
)


def _until(condition: Callable[[], object], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_each_press_is_named_with_its_setting_and_pin(
        mock_pins: MockFactory, capsys: pytest.CaptureFixture[str]) -> None:
    write_config("[buttons]\nattack_pin = 5\nbuzzer_pin = 25\n")
    led, buzzer, attack, flee = (mock_pins.pin(n) for n in (24, 25, 5, 27))

    def player() -> None:
        try:
            _until(lambda: led.state)  # the LED lit: the presses are watched
            for pin in (attack, flee):
                pin.drive_low()
                time.sleep(0.1)
                pin.drive_high()
                time.sleep(0.1)
            time.sleep(0.3)
        finally:
            _thread.interrupt_main()  # Ctrl-C (also when the LED never lit: no hang)

    typing = threading.Thread(target=player)
    typing.start()
    assert main(["calibrate", "buttons"]) == 130
    typing.join()
    out = capsys.readouterr().out
    assert "A pressed (buttons.attack_pin = 5)\nB pressed (buttons.flee_pin = 27)\n" in out
    assert "LED: buttons.led_pin = 24, lit now\nBuzzer: buttons.buzzer_pin = 25, beeped once\n" \
        in out
    assert True in [state for _, state in buzzer.states]  # the one beep
    assert not led.state  # closed on Ctrl-C


def test_a_held_i_is_named_by_the_menu_it_opens_in_the_game(
        mock_pins: MockFactory, capsys: pytest.CaptureFixture[str]) -> None:
    """r77keys: the menus a held I opens were named MENU and SYSTEM, the presses' own names,
    not as the game names them, Japanese beside English."""
    write_config("[buttons]\nlong_press_seconds = 0.2\n")
    led, item = mock_pins.pin(24), mock_pins.pin(23)

    def player() -> None:
        try:
            _until(lambda: led.state)
            item.drive_low()
            time.sleep(0.4)
            item.drive_high()
            time.sleep(0.3)
        finally:
            _thread.interrupt_main()

    typing = threading.Thread(target=player)
    typing.start()
    assert main(["calibrate", "buttons"]) == 130
    typing.join()
    out = capsys.readouterr().out
    assert "hold I for Menu メニュー, longer for System 設定" in out
    assert "I held: Menu メニュー (buttons.item_pin = 23)\n" in out


def test_one_part_on_its_header_pin_is_said_where_its_silence_is_seen(
        mock_pins: MockFactory, capsys: pytest.CaptureFixture[str]) -> None:
    """r77keys (a77keys RISK 6): attack_pin = 11, GPIO17's header pin, is no clash and, one
    alone, no warning; wired as wiring.md shows, A printed nothing, and nothing said why."""
    write_config("[buttons]\nattack_pin = 11\n")
    led, wired = mock_pins.pin(24), mock_pins.pin(17)

    def player() -> None:
        try:
            _until(lambda: led.state)
            wired.drive_low()  # the A button, wired to GPIO17 as wiring.md shows
            time.sleep(0.1)
            wired.drive_high()
            time.sleep(0.2)
        finally:
            _thread.interrupt_main()

    typing = threading.Thread(target=player)
    typing.start()
    assert main(["calibrate", "buttons"]) == 130
    typing.join()
    out = capsys.readouterr().out
    assert "buttons.attack_pin = 11 is the header pin of GPIO17, which hardware/wiring.md " \
        "wires the A button to: if the A button does nothing here, write attack_pin = 17\n" \
        in out
    assert "A pressed" not in out


def test_a_pin_clash_is_refused_as_play_refuses_it(
        mock_pins: MockFactory, capsys: pytest.CaptureFixture[str]) -> None:
    write_config("[buttons]\nbuzzer_pin = 22\n")
    assert main(["calibrate", "buttons"]) == 2  # a setting refused
    captured = capsys.readouterr()
    assert "are both GPIO22; give each part its own pin" in captured.err
    assert captured.out == ""


def test_a_clash_is_refused_with_the_header_pins_warning_as_play_gives_it(
        mock_pins: MockFactory, capsys: pytest.CaptureFixture[str]) -> None:
    """r77keys: led_pin = 18 and buzzer_pin = 22 are the header pins wiring.md wires them to,
    the buzzer's clash with the R button's likely cause: play's refusal says so (a77keys
    RISK 2), this one said the clash alone."""
    write_config("[buttons]\nled_pin = 18\nbuzzer_pin = 22\n")
    assert main(["calibrate", "buttons"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert err.startswith("companion: error: buttons.buzzer_pin")
    assert "); also: buttons.led_pin" in err and "are the header pins hardware/wiring.md " \
        "wires those parts to" in err and "write led_pin = 24 (header pin 18 is GPIO24)" in err


def test_a_pin_and_a_hold_refused_are_said_at_once(
        mock_pins: MockFactory, capsys: pytest.CaptureFixture[str]) -> None:
    """r77keys: a System hold not longer than the menu's was said only once the pins were
    mended, alone, without the way to check; play says every such setting at once."""
    write_config("[buttons]\nflee_pin = 40\nlong_press_seconds = 3.0\n"
                 "system_press_seconds = 2.0\n")
    assert main(["calibrate", "buttons"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "error: 2 problems with the settings: (1) " in err
    assert "buttons.flee_pin must be at most 27, found 40" in err
    assert "the System menu needs the longer hold (mend them, then check with " in err


def test_no_gpio_is_refused_saying_so(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    for name in ("RPi", "pigpio", "lgpio", "gpiozero.pins.native", "gpiozero.pins.lgpio"):
        monkeypatch.setitem(sys.modules, name, None)
    assert main(["calibrate", "buttons"]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("companion: error: the buttons cannot be checked: ")
    assert captured.out == ""


def test_q_on_the_terminal_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    master, slave = os.openpty()
    with open(slave, closefd=True) as terminal:
        monkeypatch.setattr(sys, "stdin", terminal)
        with q_typed() as typed:
            assert not typed()
            os.write(master, b"a")
            time.sleep(0.05)
            assert not typed()
            os.write(master, b"q")
            _until(typed)
    os.close(master)
