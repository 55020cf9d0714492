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
from companion.app.commands.play import check_pins
from companion.app.commands.play.press_sources import open_press_sources
from companion.app.config import load_config
from companion.errors import DeviceError
from tests.app.config_and_pins_helpers import mock_pins_fixture  # noqa: F401 (asked for as mock_pins)


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


def test_a_pin_to_avoid_is_on_the_settings_screen(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The warning went to stderr alone: under the boot service a button on GPIO15 (the
    serial console's) pressed itself, or the RDM6300 read nothing, and only the journal
    said why."""
    import pygame

    from companion.hw.display.screen import ScreenDisplay

    monkeypatch.setenv("COMPANION_BUTTONS_FLEE_PIN", "15")
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
