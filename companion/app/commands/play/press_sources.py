"""Where ``companion play``'s presses come from: the GPIO buttons (their pins checked
first), the keyboard, and the display's own keys and taps; and the LED and buzzer wired
beside the buttons. A GPIO part that cannot be opened is told naming its setting."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

from companion.app.command_name import companion_line
from companion.app.config import Config
from companion.app.session.controls import PressSource
from companion.errors import DataError, DeviceError
from companion.hw.buttons import (
    ButtonPanel,
    ButtonPins,
    NoGpio,
    PinUnusable,
    WaitingSignal,
    optional_pin,
)
from companion.hw.display import Display
from companion.hw.keyboard import KeyboardInput

T = TypeVar("T")

# The pins hardware/wiring.md says to avoid, and why: they work, but not as a plain pin.
PINS_TO_AVOID = {
    0: "the HAT ID EEPROM's data line (ID_SD)",
    1: "the HAT ID EEPROM's clock line (ID_SC)",
    2: "I²C SDA, with a fixed pull-up on the board",
    3: "I²C SCL, with a fixed pull-up on the board",
    14: "the serial console's TXD",
    15: "the serial console's RXD (and the RDM6300's)",
}


def check_pins(config: Config) -> list[str]:
    """Two parts on one GPIO pin would fight: say which settings clash. A pin the wiring
    guide says to avoid is allowed (the player may have freed it): the warnings are
    returned, for the settings notices on the screen, where the boot service's player
    sees them (buttons that press themselves on GPIO15 are otherwise a mystery)."""
    used: dict[int, str] = {}
    warnings: list[str] = []
    for key in ("attack_pin", "flee_pin", "ranged_pin", "item_pin", "led_pin", "buzzer_pin"):
        pin = config.integer(f"buttons.{key}")
        if pin < 0:
            continue
        if pin in used:
            raise DataError(f"buttons.{key} and buttons.{used[pin]} are both GPIO{pin}; "
                            f"give each part its own pin ({companion_line('config', '--show')})")
        used[pin] = key
        if pin in PINS_TO_AVOID:
            warnings.append(f"{config.where(f'buttons.{key}')} is GPIO{pin}, "
                            f"{PINS_TO_AVOID[pin]}; hardware/wiring.md says to avoid it")
    return warnings


def held_seconds(config: Config) -> tuple[float, float]:
    """How long the item button is held for the menu, and for the System menu: the second
    must be the longer, or one of the two could never be pressed."""
    long_press = config.number("buttons.long_press_seconds")
    system_press = config.number("buttons.system_press_seconds")
    if system_press <= long_press:
        raise DataError(f"{config.where('buttons.system_press_seconds')} is {system_press:g} s, "
                        f"not longer than {config.where('buttons.long_press_seconds')} "
                        f"({long_press:g} s): the System menu needs the longer hold")
    return long_press, system_press


def open_press_sources(config: Config,
                       display: Display | None) -> tuple[list[PressSource], list[str]]:
    """The buttons or the keyboard, plus the display's own keys and taps; and the warnings
    about the buttons' pins, for the settings notices (stderr and the screen)."""
    sources: list[PressSource] = []
    pin_warnings: list[str] = []
    kind = config.text("choices.kind")
    if kind == "gpio":
        pin_warnings = check_pins(config)
        pins = ButtonPins(config.integer("buttons.attack_pin"), config.integer("buttons.flee_pin"),
                          config.integer("buttons.ranged_pin"), config.integer("buttons.item_pin"))
        long_press, system_press = held_seconds(config)
        sources.append(gpio_parts(config, lambda: ButtonPanel(pins, long_press, system_press)))
        if sys.stdin.isatty() and config.text("display.kind") != "screen":
            # The terminal shows each choice's key ("(a) Fight"): they work beside the
            # buttons, as on the screen, which reads its own keys.
            sources.append(KeyboardInput())
    elif kind == "keyboard" and sys.stdin.isatty():
        sources.append(KeyboardInput())
    elif kind == "keyboard" and config.text("display.kind") != "screen":
        # Nothing else would take a key: the game would wait for ever.
        raise DataError("--choices keyboard reads keys from a terminal, and standard input "
                        "is not one (a pipe, or ssh without -t): run it in a terminal, or "
                        "use --choices auto")
    if display is not None:
        sources.append(display)
    return sources, pin_warnings


def open_waiting_signal(config: Config) -> WaitingSignal:
    """The LED and buzzer that say a tile is awaited, on their configured pins."""
    return gpio_parts(config, lambda: WaitingSignal(
        optional_pin(config.integer("buttons.led_pin")),
        optional_pin(config.integer("buttons.buzzer_pin"))))


def gpio_parts(config: Config, open_parts: Callable[[], T]) -> T:
    """``open_parts()``, a failure told as one line naming the setting and what to do: a
    traceback named no setting, and skipped the Stopped screen the boot service's player
    reads."""
    try:
        return open_parts()
    except NoGpio as exc:
        raise DeviceError(f"the buttons cannot be used: {exc}; without them, play with "
                          '--choices keyboard, or set choices.kind = "keyboard" in '
                          f"{config.path}") from None
    except PinUnusable as exc:
        raise DeviceError(
            f"{config.where(f'buttons.{exc.part}_pin')}: {exc}: a game already running holds "
            "it (the jongrogue-companion service? sudo systemctl stop jongrogue-companion), "
            "or another program, a HAT or a device-tree overlay does; choose a free pin "
            "(hardware/wiring.md), or play with --choices keyboard") from None
