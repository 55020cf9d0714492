"""Where ``companion play``'s presses come from: the GPIO buttons (their pins checked
first), the keyboard, and the display's own keys and taps."""

from __future__ import annotations

import sys
import warnings

from gpiozero.exc import GPIOZeroError, PinFactoryFallback

from companion.app.config import Config
from companion.app.session.controls import PressSource
from companion.errors import DataError, DeviceError
from companion.hw.buttons import ButtonPanel, ButtonPins
from companion.hw.display import Display
from companion.hw.keyboard import KeyboardInput

# The pins hardware/wiring.md says to avoid, and why: they work, but not as a plain pin.
PINS_TO_AVOID = {
    0: "the HAT ID EEPROM's data line (ID_SD)",
    1: "the HAT ID EEPROM's clock line (ID_SC)",
    2: "I²C SDA, with a fixed pull-up on the board",
    3: "I²C SCL, with a fixed pull-up on the board",
    14: "the serial console's TXD",
    15: "the serial console's RXD (and the RDM6300's)",
}


def check_pins(config: Config) -> None:
    """Two parts on one GPIO pin would fight: say which settings clash. A pin the wiring
    guide says to avoid is allowed (the player may have freed it) with a warning."""
    used: dict[int, str] = {}
    for key in ("attack_pin", "flee_pin", "ranged_pin", "item_pin", "led_pin", "buzzer_pin"):
        pin = config.integer(f"buttons.{key}")
        if pin < 0:
            continue
        if pin in used:
            raise DataError(f"buttons.{key} and buttons.{used[pin]} are both GPIO{pin}; "
                            "give each part its own pin (companion config --show)")
        used[pin] = key
        if pin in PINS_TO_AVOID:
            print(f"companion: warning: buttons.{key} is GPIO{pin}, {PINS_TO_AVOID[pin]}; "
                  "hardware/wiring.md says to avoid it", file=sys.stderr)


def open_press_sources(config: Config, display: Display | None) -> list[PressSource]:
    """The buttons or the keyboard, plus the display's own keys and taps."""
    sources: list[PressSource] = []
    kind = config.text("choices.kind")
    if kind == "gpio":
        check_pins(config)
        pins = ButtonPins(config.integer("buttons.attack_pin"), config.integer("buttons.flee_pin"),
                          config.integer("buttons.ranged_pin"), config.integer("buttons.item_pin"))
        try:
            with warnings.catch_warnings():
                # Off a Pi, gpiozero warns about each backend it tries; the error says it all.
                warnings.simplefilter("ignore", PinFactoryFallback)
                sources.append(ButtonPanel(pins, config.number("buttons.long_press_seconds")))
        except GPIOZeroError as exc:
            raise DeviceError(f"the buttons cannot be used here ({exc}); "
                              "play with --choices keyboard") from None
    elif kind == "keyboard" and sys.stdin.isatty():
        sources.append(KeyboardInput())
    elif kind == "keyboard" and config.text("display.kind") != "screen":
        # Nothing else would take a key: the game would wait for ever.
        raise DataError("--choices keyboard reads keys from a terminal, and standard input "
                        "is not one (a pipe, or ssh without -t): run it in a terminal, or "
                        "use --choices auto")
    if display is not None:
        sources.append(display)
    return sources
