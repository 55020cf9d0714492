"""`companion play --choices gpio` checks its pins: the ones hardware/wiring.md says to avoid
are warned about, not refused, and on the screen too. A part whose pin cannot be had is
told naming its setting, on gpiozero's mock pins."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import gpiozero
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.cli import main
from companion.app.command_name import companion_line
from companion.app.commands.config import pin_check, refused_pins, start_problems
from companion.app.commands.play import check_pins
from companion.app.commands.play.press_sources import open_press_sources
from companion.app.config import load_config
from companion.errors import DataError, DeviceError
from tests.app.config_and_pins_helpers import (
    mock_pins_fixture,  # noqa: F401 (asked for as mock_pins)
    setting_lines,
    write_config,
)


@pytest.mark.parametrize(("pin", "why"), [(14, "the serial console's TXD"),
                                          (2, "I²C SDA, with a fixed pull-up on the board"),
                                          (0, "the HAT ID EEPROM's data line (ID_SD)")])
def test_pins_to_avoid_are_warned_about_and_allowed(
    pin: int, why: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COMPANION_BUTTONS_ATTACK_PIN", str(pin))
    # No error: the player may have freed the pin.
    assert check_pins(load_config()) == [
        f"buttons.attack_pin (COMPANION_BUTTONS_ATTACK_PIN) is GPIO{pin}, {why}; "
        "hardware/wiring.md says to avoid it"]


def test_the_default_pins_are_not_warned_about() -> None:
    assert check_pins(load_config()) == []


def played_past_the_settings_screen(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """`companion play --choices gpio` on the screen: OK (the A key) pressed on the Settings
    screen, then the window closed at the next view. The prompts shown, in order."""
    import pygame

    from companion.hw.display.screen import ScreenDisplay

    shown: list[str] = []
    draw = ScreenDisplay.show

    def show(screen: ScreenDisplay, view: Any) -> None:
        shown.append(view.prompt)
        draw(screen, view)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, unicode="a")
                          if view.prompt.startswith("Settings 設定")
                          else pygame.event.Event(pygame.QUIT))

    monkeypatch.setattr(ScreenDisplay, "show", show)
    assert main(["play", "--input", "sim", "--choices", "gpio", "--display", "screen"]) == 130
    return shown


def test_a_pin_to_avoid_is_on_the_settings_screen(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The warning went to stderr alone: under the boot service a button on GPIO15 (the
    serial console's) pressed itself, or the RDM6300 read nothing, and only the journal
    said why."""
    monkeypatch.setenv("COMPANION_BUTTONS_FLEE_PIN", "15")
    shown = played_past_the_settings_screen(monkeypatch)
    warning = ("buttons.flee_pin (COMPANION_BUTTONS_FLEE_PIN) is GPIO15, the serial console's "
               "RXD (and the RDM6300's); hardware/wiring.md says to avoid it")
    assert shown[0] == f"Settings 設定: {warning}"
    assert not shown[1].startswith("Settings")  # OK pressed, the game went on
    assert f"companion: warning: {warning}\n" in capsys.readouterr().err


def test_a_pin_in_use_names_its_setting_and_lets_the_other_buttons_go(
        mock_pins: MockFactory) -> None:
    """It said "the buttons cannot be used here (pin GPIO23 is already in use ...); play
    with --choices keyboard": no setting to change, and the three buttons opened before
    stayed claimed."""
    squatter = gpiozero.LED(23)
    with pytest.raises(DeviceError) as refused:
        open_press_sources(load_config(), None)
    squatter.close()
    said = str(refused.value)
    assert said.startswith("buttons.item_pin (built in): GPIO23 cannot be used (pin GPIO23 "
                           "is already in use by ")
    assert said.endswith("choose a free pin (hardware/wiring.md), or play with --choices "
                         "keyboard")
    for pin in (17, 27, 22):
        gpiozero.Button(pin).close()


def test_an_led_pin_in_use_stops_play_on_the_screen_naming_its_setting(
        mock_pins: MockFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The LED and buzzer are opened with the game, outside what turned a pin's error into
    one line: a traceback naming no setting, and under the boot service a black screen
    while the service started the companion again every 3 s."""
    from companion.hw.display.screen import ScreenDisplay

    picture = tmp_path / "mat.png"  # the camera: a picture of an empty table
    cv2.imwrite(str(picture), np.zeros((480, 640, 3), np.uint8))
    monkeypatch.setenv("COMPANION_INPUT_CAMERA_SOURCE", str(picture))
    shown: list[str] = []
    draw = ScreenDisplay.show
    monkeypatch.setattr(ScreenDisplay, "show",
                        lambda screen, view: (shown.append(view.prompt), draw(screen, view)))
    squatter = gpiozero.LED(24)
    try:
        assert main(["play", "--input", "camera", "--choices", "gpio",
                     "--display", "screen"]) == 1
    finally:
        squatter.close()
    refused = "buttons.led_pin (built in): GPIO24 cannot be used (pin GPIO24 is already in use"
    assert f"companion: error: {refused}" in capsys.readouterr().err
    assert shown[-1].startswith(f"Stopped 停止: {refused}")


#: How a refused button pin's notice ends where play stops on it (reviewa73 NIT 3: it said
#: "using the default 27", and play used none).
STOPS = 'play stops on it (with choices.kind = "gpio")'
HEADER_40 = ("buttons.flee_pin must be at most 27, found 40 (BCM GPIO numbers, not header "
             "pins: header pin 40 is GPIO21, so write 21)")


def test_a_header_pin_written_for_a_bcm_one_says_which_gpio_it_is(
        capsys: pytest.CaptureFixture[str]) -> None:
    """keys73 NIT 3: wiring.md names a part's pin both ways, "GPIO21 [40]"; a maker who
    wrote the header pin, 40, was told only the range. A header pin that is no GPIO says
    so; a number above the header says the range alone, as before."""
    path = write_config("[buttons]\nflee_pin = 40\nled_pin = 39\nbuzzer_pin = 41\n")
    assert main(["config", "--show"]) == 1
    out, err = capsys.readouterr()
    assert err.count(HEADER_40) == 1  # said once, as refused, though play stops on it too
    assert f"companion: {path}: {HEADER_40}; {STOPS}\n" in err
    assert setting_lines(out)["buttons.flee_pin"].endswith(
        "# default (config.toml's 40 refused) (play stops on it プレイが止まります)")
    assert (f"companion: {path}: buttons.led_pin must be at most 27, found 39 (BCM GPIO "
            "numbers, not header pins: header pin 39 is a ground pin, not a GPIO; "
            f"hardware/wiring.md gives each part's GPIO); {STOPS}\n") in err
    assert (f"companion: {path}: buttons.buzzer_pin must be at most 27, found 41; "
            f"{STOPS}\n") in err
    # The same from the command line, and the range of another setting says no pins.
    with pytest.raises(DataError, match=r"header pin 29 is GPIO5, so write 5\)$"):
        load_config(overrides={"buttons.attack_pin": "29"})
    with pytest.raises(DataError, match=r"must be at most 60, found 1e400$"):
        load_config(overrides={"input.accept_seconds": "1e400"})


def test_a_refused_pin_says_the_default_only_where_play_uses_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewa73 NIT 3: a refused pin's notice said "using the default 27" where play stops
    on it (the buttons read, choices.kind = "gpio"), from config.toml or the environment
    ("ignored", while play stopped); with the buttons unread the default is what is used,
    and said so."""
    path = write_config("[buttons]\nflee_pin = 40\nattack_pin = 5\n")
    monkeypatch.setenv("COMPANION_BUTTONS_ATTACK_PIN", "99")
    stops = load_config()
    assert stops.notices == (f"{path}: {HEADER_40}; {STOPS}",
                             "COMPANION_BUTTONS_ATTACK_PIN: buttons.attack_pin must be at most "
                             f"27, found 99; {STOPS}")
    assert stops.problems == stops.notices
    goes_on = load_config(overrides={"choices.kind": "keyboard"})
    assert goes_on.notices == (f"{path}: {HEADER_40}; using the default 27",
                               "COMPANION_BUTTONS_ATTACK_PIN: buttons.attack_pin must be at "
                               "most 27, found 99; ignored")


def test_play_stops_on_a_button_pin_refused_as_config_show_says_it(
        mock_pins: MockFactory) -> None:
    """keys73 NIT 3: play said the refusal as a notice and ran flee on the built-in GPIO27,
    where nothing is wired, the button on GPIO21 never read. It stops, saying why as
    config --show does (that one says the default it shows; play uses none)."""
    path = write_config("[buttons]\nflee_pin = 40\n")
    sources, warnings, refusal = open_press_sources(load_config(), None)
    assert sources == [] and warnings == []
    assert str(refusal) == (f"{path}: {HEADER_40} (mend it, then check with "
                            f"{companion_line('config', '--show')})")
    assert not mock_pins.pins  # no button opened: on the terminal nothing ends a stop


def test_a_pin_refused_but_set_again_or_unused_does_not_stop_play(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment's pin over the config.toml's refused is the pin: play goes on; with
    the keyboard no pin is opened, and the refusal stays a notice."""
    write_config("[buttons]\nflee_pin = 40\n")
    monkeypatch.setenv("COMPANION_BUTTONS_FLEE_PIN", "21")
    sources, _, refusal = open_press_sources(load_config(), None)
    assert refusal is None and mock_pins.pin(21).state  # opened, pulled up
    for source in sources:
        source.close()  # type: ignore[attr-defined]
    assert refused_pins(load_config()) == []
    monkeypatch.delenv("COMPANION_BUTTONS_FLEE_PIN")
    assert refused_pins(load_config()) != []
    assert start_problems(load_config(overrides={"choices.kind": "keyboard"})) == []


def test_a_refused_pin_set_again_by_the_environment_names_the_pin_play_reads(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """fixcarry74: config.toml's refused flee_pin said "using the default 27" while the
    environment's GPIO5 was the pin play read the button on, on the settings screen and on
    stderr; it names that pin, and where it came from."""
    path = write_config("[buttons]\nflee_pin = 40\n")
    monkeypatch.setenv("COMPANION_BUTTONS_FLEE_PIN", "5")
    shown = played_past_the_settings_screen(monkeypatch)
    notice = f"{path}: {HEADER_40}; using 5 from COMPANION_BUTTONS_FLEE_PIN"
    assert shown[0] == f"Settings 設定: {notice}"
    assert f"companion: {notice}\n" in capsys.readouterr().err
    opened = {info.name for info in mock_pins.pins}
    assert "GPIO5" in opened and "GPIO27" not in opened  # the button read on GPIO5


@pytest.mark.parametrize("port", ["", "/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0"])
def test_a_part_on_the_rdm6300s_serial_pins_is_a_clash(
        port: str, mock_pins: MockFactory, capsys: pytest.CaptureFixture[str]) -> None:
    """keys73 RISK 2: with an RDM6300 on the Pi's serial pins, a buzzer on GPIO15 (its
    RXD) was only warned of; opened as a GPIO pin it is taken from the UART, and the reader
    reads nothing. config --show and play refuse it, naming the part and the reader.
    GPIO14 (TXD) is only warned of: the reader's RX is not connected (hardware/wiring.md),
    so a part there takes nothing the reader uses (reviewa73 DEFECT 1)."""
    path = write_config(f'[input]\nkind = "rfid"\nrfid_kind = "rdm6300"\nrfid_port = "{port}"\n'
                        "[buttons]\nbuzzer_pin = 15\nled_pin = 14\n")
    reader = (f"the RDM6300 on {port or '/dev/serial0'} (input.rfid_kind ({path}), "
              f"input.rfid_port ({path}))")
    buzzer = (f"buttons.buzzer_pin ({path}) is GPIO15, the serial port's RXD, on which "
              f"{reader} reads its tags: opened as a GPIO pin it is taken from the port, and "
              "the reader reads nothing; give the part another pin")
    led = (f"buttons.led_pin ({path}) is GPIO14, the serial console's TXD; "
           "hardware/wiring.md says to avoid it")
    assert main(["config", "--show"]) == 1
    err = capsys.readouterr().err
    assert f"companion: {buzzer}\n" in err and f"warning: {led}" in err
    assert "GPIO14, the serial port" not in err  # a warning, not a clash
    _, _, refusal = open_press_sources(load_config(), None)
    assert str(refusal) == (f"{buzzer} (mend it, then check with "
                            f"{companion_line('config', '--show')})")


def test_gpio14_beside_an_rdm6300_is_warned_of_and_play_goes_on() -> None:
    """reviewa73 DEFECT 1: the RDM6300 only sends (its RX is not connected,
    hardware/wiring.md), so a part on GPIO14 beside it is the warning of a pin to avoid,
    not a clash play stops on."""
    write_config('[input]\nkind = "rfid"\nrfid_kind = "rdm6300"\n[buttons]\nled_pin = 14\n')
    config = load_config()
    clashes, warnings = pin_check(config)
    assert clashes == [] and start_problems(config) == []
    assert [w.split(" is ")[1] for w in warnings] == [
        "GPIO14, the serial console's TXD; hardware/wiring.md says to avoid it"]


@pytest.mark.parametrize("settings", [
    'kind = "rfid"\nrfid_kind = "rdm6300"\nrfid_port = "/dev/ttyUSB0"\n',  # a USB adapter
    'kind = "rfid"\nrfid_kind = "tray"\n',  # the tray is on USB
    'kind = "camera"\nrfid_kind = "rdm6300"\n',  # no reader read
])
def test_gpio15_beside_no_reader_on_the_serial_pins_is_warned_of_as_before(
        settings: str) -> None:
    write_config(f"[input]\n{settings}[buttons]\nbuzzer_pin = 15\n")
    clashes, warnings = pin_check(load_config())
    assert clashes == [] and [w.split(" is ")[1] for w in warnings] == [
        "GPIO15, the serial console's RXD (and the RDM6300's); hardware/wiring.md says to "
        "avoid it"]


def test_the_wiring_tables_header_pins_written_for_its_gpios_are_warned_of(
        capsys: pytest.CaptureFixture[str]) -> None:
    """keys75 RISK 2: hardware/wiring.md gives "GPIO17 [11]", and a maker who copied the
    bracketed header pins (attack_pin = 11 …) had four dead buttons, each a legal BCM
    number taken silently. config --show and play's start warn, naming the GPIO meant; the
    pins are allowed (they are legal, and may be wired so)."""
    path = write_config('[choices]\nkind = "gpio"\n[buttons]\nattack_pin = 11\nflee_pin = 13\n'
                        "ranged_pin = 15\nitem_pin = 16\nled_pin = 18\n")
    written = (f"buttons.attack_pin ({path}) = 11, buttons.flee_pin ({path}) = 13, "
               f"buttons.ranged_pin ({path}) = 15, buttons.item_pin ({path}) = 16, "
               f"buttons.led_pin ({path}) = 18 are the header pins hardware/wiring.md wires "
               "those parts to, not their BCM GPIO numbers, which the settings take: wired as "
               "wiring.md shows, nothing is on those GPIOs and those parts do nothing; then "
               "write attack_pin = 17 (header pin 11 is GPIO17), flee_pin = 27 (header pin "
               "13 is GPIO27), ranged_pin = 22 (header pin 15 is GPIO22), item_pin = 23 "
               "(header pin 16 is GPIO23), led_pin = 24 (header pin 18 is GPIO24)")
    assert main(["config", "--show"]) == 0
    err = capsys.readouterr().err
    assert f"companion: warning: {written}\n" in err
    warnings = check_pins(load_config())  # play's start: said, and play goes on
    # a76maker NIT 2: ranged_pin = 15 was first warned of as GPIO15, "hardware/wiring.md
    # says to avoid it", sending the maker off a pin the line after says means GPIO22
    assert warnings == [written] and "avoid it" not in err


def test_a_pin_to_avoid_beside_the_tables_header_pins_is_still_warned_of() -> None:
    """a76maker NIT 2: only the settings the header-pin warning names lose their pin-to-avoid
    warning; the buzzer on GPIO15 (its header pin is 22) is a GPIO chosen, warned of."""
    path = write_config('[choices]\nkind = "gpio"\n[buttons]\nattack_pin = 11\nflee_pin = 13\n'
                        "buzzer_pin = 15\n")
    warnings = check_pins(load_config())
    assert len(warnings) == 2 and warnings[0] == (
        f"buttons.buzzer_pin ({path}) is GPIO15, the serial console's RXD (and the RDM6300's); "
        "hardware/wiring.md says to avoid it")
    assert warnings[1].startswith(f"buttons.attack_pin ({path}) = 11, buttons.flee_pin ({path})"
                                  " = 13 are the header pins")


@pytest.mark.parametrize("buttons", [
    "led_pin = 18\n",  # one alone: a pin chosen so (GPIO18), the others as wired
    "buzzer_pin = 25\n",  # as wired: ranged's 22 is the buzzer's header pin, not its own
    "attack_pin = 13\nflee_pin = 11\n",  # another part's header pins: no copy of the table
])
def test_pins_that_are_not_the_tables_header_pins_are_not_warned_of(buttons: str) -> None:
    write_config(f'[choices]\nkind = "gpio"\n[buttons]\n{buttons}')
    assert check_pins(load_config()) == []


def test_the_settings_screen_of_an_a_button_on_its_header_pin_passes_without_a(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """maker75 RISK 1: with the wiring table's header pins written (attack_pin = 11 …) the
    Settings screen waited behind "[A] OK" for the very button its warning says does
    nothing: under the boot service a Pi with the buttons alone stayed there. It now says
    to press a on a keyboard or tap, and goes on by itself; nothing is pressed here."""
    import threading

    import pygame

    from companion.app.commands.play import telling
    from companion.hw.display.screen import ScreenDisplay

    write_config("[buttons]\nattack_pin = 11\nflee_pin = 13\nranged_pin = 15\nitem_pin = 16\n")
    monkeypatch.setattr(telling, "STOP_SHOWN_SECONDS", 0.3)
    shown: list[Any] = []
    draw = ScreenDisplay.show

    def show(screen: ScreenDisplay, view: Any) -> None:
        shown.append(view)
        draw(screen, view)
        if not view.prompt.startswith("Settings 設定"):
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    monkeypatch.setattr(ScreenDisplay, "show", show)
    # The old screen waited for ever: the window is closed after 10 s to end the test.
    timer = threading.Timer(10, lambda: pygame.event.post(pygame.event.Event(pygame.QUIT)))
    timer.start()
    try:
        assert main(["play", "--input", "sim", "--choices", "gpio",
                     "--display", "screen"]) == 130
    finally:
        timer.cancel()
    settings = shown[0]
    assert settings.prompt.startswith("Settings 設定: ")
    assert settings.prompt.endswith(
        "\nThe A button is not read until attack_pin is mended: press a on a keyboard or tap "
        "OK to go on, or this screen closes by itself within a minute 1分で閉じます")
    assert [o.button for o in settings.options] == [None]  # no [A] on its OK
    assert not shown[1].prompt.startswith("Settings")  # it went on by itself


def test_the_settings_screen_is_held_for_ok_when_a_is_read(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Header pins written for the other parts only: A is read as set, and the warning
    waits for its OK as every settings notice does."""
    from companion.app.commands.play.press_sources import a_button_unread

    write_config('[choices]\nkind = "gpio"\n[buttons]\nflee_pin = 13\nitem_pin = 16\n')
    assert len(check_pins(load_config())) == 1 and a_button_unread(load_config()) is None
    write_config('[choices]\nkind = "gpio"\n[buttons]\nattack_pin = 11\nflee_pin = 13\n')
    assert a_button_unread(load_config()) is not None


def test_one_part_on_its_header_pin_is_told_so_where_its_pin_is_a_problem() -> None:
    """a77keys RISK 2: one part set to the header pin wiring.md wires it to is no warning of
    its own (it may be a pin chosen so), but where that pin clashes or is one to avoid, the
    header pin is the likely cause: "give each part its own pin" alone sent the maker to move
    the ranged button wired right, and "avoid it" off the pin, not to GPIO22."""
    path = write_config("[buttons]\nbuzzer_pin = 22\n")
    with pytest.raises(DataError) as refused:
        check_pins(load_config())
    assert (f"buttons.buzzer_pin ({path}) and buttons.ranged_pin (built in) are both GPIO22; "
            "give each part its own pin; 22 is the header pin of GPIO25, which "
            "hardware/wiring.md wires the buzzer to: write buzzer_pin = 25") in str(refused.value)
    write_config("[buttons]\nranged_pin = 15\n")
    assert [w.split(" is ", 1)[1] for w in check_pins(load_config())] == [
        "GPIO15, the serial console's RXD (and the RDM6300's); 15 is the header pin of GPIO22, "
        "which hardware/wiring.md wires the R button to: write ranged_pin = 22"]
    write_config('[input]\nkind = "rfid"\nrfid_kind = "rdm6300"\n[buttons]\nranged_pin = 15\n')
    clashes, _ = pin_check(load_config())
    assert [problem.endswith("give the part another pin; 15 is the header pin of GPIO22, "
                             "which hardware/wiring.md wires the R button to: write "
                             "ranged_pin = 22") for _, problem in clashes] == [True]


def test_header_pin_28_is_not_told_to_be_written_as_a_pin_to_avoid() -> None:
    """a77keys NIT 4: header pin 28 is GPIO1, the HAT ID EEPROM's clock line; the hint said
    "so write 1", a pin the same check then warned to avoid."""
    with pytest.raises(DataError) as refused:
        load_config(overrides={"buttons.buzzer_pin": "28"})
    assert str(refused.value).endswith(
        "buttons.buzzer_pin must be at most 27, found 28 (BCM GPIO numbers, not header pins: "
        "header pin 28 is GPIO1, the HAT ID EEPROM's clock line (ID_SC), a pin "
        "hardware/wiring.md says to avoid; choose another, as wiring.md gives each part's "
        "GPIO)")


def test_plays_refusal_of_a_clash_carries_the_header_pins_warning() -> None:
    """a77keys RISK 2: config --show warned that led_pin = 18 and buzzer_pin = 22 are the
    header pins wiring.md wires them to, but play raised the clash alone (its warnings
    dropped), and its Stopped screen is all the boot service's player sees."""
    path = write_config("[buttons]\nled_pin = 18\nbuzzer_pin = 22\n")
    _, _, refusal = open_press_sources(load_config(), None)
    with pytest.raises(DataError) as refused:
        check_pins(load_config())
    said = str(refused.value)
    assert str(refusal) == said
    assert said.startswith(f"buttons.buzzer_pin ({path}) and buttons.ranged_pin (built in) "
                           "are both GPIO22")
    assert (f"config --show); also: buttons.led_pin ({path}) = 18, buttons.buzzer_pin ({path})"
            " = 22 are the header pins hardware/wiring.md wires those parts to") in said
    assert "write led_pin = 24 (header pin 18 is GPIO24), buzzer_pin = 25" in said


def test_the_header_pins_warning_is_no_problem_and_said_only_beside_a_pin() -> None:
    """r77keys NIT: play counted the header pins' warning as a problem, and added it to a
    refusal with no pin in it: "2 problems" where config --show said 1 and listed the
    warning as no problem."""
    config = ('[choices]\nkind = "gpio"\n[buttons]\nled_pin = 18\nitem_pin = 16\n'
              "long_press_seconds = 2.0\nsystem_press_seconds = 1.5\n")
    write_config(config)
    _, _, refusal = open_press_sources(load_config(), None)
    assert [len(start_problems(load_config())), "header pins" in str(refusal),
            str(refusal).startswith("buttons.system_press_seconds")] == [1, False, True]
    write_config(config.replace("item_pin = 16", "item_pin = 16\nflee_pin = 17"))
    _, _, refusal = open_press_sources(load_config(), None)
    assert str(refusal).startswith("2 problems with the settings: (1) buttons.flee_pin")
    assert "; (3) " not in str(refusal) and "); also: buttons.item_pin" in str(refusal)


def test_two_parts_on_their_header_pins_are_told_what_to_write_once() -> None:
    """r77keys NIT: with two or more parts set to their header pins, the clash carried the
    one part's note ("...: write buzzer_pin = 25") and the warning said it again."""
    write_config("[buttons]\nled_pin = 18\nbuzzer_pin = 22\n")
    with pytest.raises(DataError) as refused:
        check_pins(load_config())
    said = str(refused.value)
    assert said.count("buzzer_pin = 25") == 1 and "is the header pin of" not in said
    clashes, warnings = pin_check(load_config())
    assert [" ".join([*(p for _, p in clashes), *warnings]).count("buzzer_pin = 25")] == [1]


@pytest.mark.parametrize(("written", "hint"), [
    ('"GPIO17"', " (the BCM GPIO number alone: write 17)"),
    ('"bcm17"', " (the BCM GPIO number alone: write 17)"),
    ('"GPIO17 [11]"', " (the BCM GPIO number alone: write 17)"),  # wiring.md's cell whole
    ('"40"', " (BCM GPIO numbers, not header pins: header pin 40 is GPIO21, so write 21)"),
])
def test_a_pin_written_as_wiring_md_names_it_or_a_header_pin_quoted_is_told_what_to_write(
        written: str, hint: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """a77keys NIT 5: wiring.md names each pin "GPIO17 [11]"; the name copied, or a header
    pin quoted, was told only "must be a whole number"."""
    path = write_config(f"[buttons]\nattack_pin = {written}\n")
    assert load_config().notices == (
        f"{path}: buttons.attack_pin must be a whole number, found {written}{hint}; {STOPS}",)
    write_config("")
    monkeypatch.setenv("COMPANION_BUTTONS_ATTACK_PIN", written.strip('"'))
    if written != '"40"':  # bare in the environment: a number, told by its range
        assert load_config().notices == (
            f"COMPANION_BUTTONS_ATTACK_PIN: buttons.attack_pin must be a whole number, found "
            f"{written}{hint}; {STOPS}",)
