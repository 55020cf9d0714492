"""``companion calibrate buttons``: the buttons, LED and buzzer checked as wired, before a game.

A button on the wrong pin, a loose GND or a pin read as another part (a header pin written
for a GPIO, ``attack_pin = 11``, which is no clash) showed only as "A does nothing" in a
game; under the boot service, with the buttons alone, the player could not get past the
first menu (a77keys RISK 6). This lights the LED and beeps once, then names each press with
its setting and pin, until Ctrl-C or q. The pins are checked as ``play`` checks them."""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import sys
import termios
import time
import tty
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, TextIO

from companion.app.commands.config import (
    PART_NAMES,
    hold_problem,
    pin_check,
    refused_pins,
)
from companion.app.commands.play.press_sources import (
    button_pins,
    gpio_parts,
    header_pins_also,
    held_seconds,
    open_waiting_signal,
    refused,
)
from companion.app.config import Config, load_config
from companion.app.pin_numbers import header_pins_written
from companion.errors import DeviceError
from companion.hw.buttons import Button, ButtonPanel, NoGpio, WaitingSignal, ensure_gpio

#: Each press as the line names it, and the button (its setting's part) it came from. The
#: menus a held I opens are named as the game names them, Japanese beside English (they
#: were the presses' own names, MENU and SYSTEM, r77keys).
SAID: dict[Button, tuple[str, str]] = {
    Button.ATTACK: ("A pressed", "attack"),
    Button.FLEE: ("B pressed", "flee"),
    Button.RANGED: ("R pressed", "ranged"),
    Button.ITEM: ("I pressed", "item"),
    Button.MENU: ("I held: Menu メニュー", "item"),
    Button.SYSTEM: ("I held longer: System 設定", "item"),
}

#: How often the buttons are looked at (s): a press is named within it.
POLL_SECONDS = 0.05


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "buttons", help="check the buttons, LED and buzzer: each press named with its pin",
        description="Light the LED and beep once, then name each button pressed with its "
                    "setting and pin, until Ctrl-C or q.")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config = load_config()
    config.tell_notices()
    # The pins and holds checked as play checks them, all said at once: a refused value (its
    # part would be read on the built-in pin), a clash or a System hold not the longer
    # stops here, with the warning of parts set to their header pins, a clash's likely
    # cause, as play's refusal carries it (a77keys RISK 2); a pin to avoid is warned of.
    clashes, warnings = pin_check(config)
    problems = [*refused_pins(config), *clashes]
    if (held := hold_problem(config)) is not None:
        # Was said only once the pins were mended (r77keys).
        problems.append((("buttons.system_press_seconds",), held))
    if problems:
        raise refused([problem for _, problem in problems], header_pins_also(config, problems))
    for warning in warnings:
        print(f"companion: warning: {warning}", file=sys.stderr)
    long_press, system_press = held_seconds(config)
    try:
        ensure_gpio()
    except NoGpio as exc:
        raise DeviceError(f"the buttons cannot be checked: {exc}") from None
    panel = gpio_parts(config, partial(ButtonPanel, button_pins(config), long_press,
                                       system_press))
    try:
        signal = open_waiting_signal(config)
    except BaseException:
        panel.close()
        raise
    try:
        with q_typed() as stop:
            watch(config, panel, signal, sys.stdout, stop)
    finally:
        signal.waiting(False)  # not left lit (a closed pin keeps its level) on Ctrl-C
        signal.close()
        panel.close()
    return 0


def watch(config: Config, panel: ButtonPanel, signal: WaitingSignal, out: TextIO,
          stop: Callable[[], bool]) -> None:
    """Light the LED, beep once, and name each press on ``out`` until ``stop()``."""
    signal.waiting(True)
    for name, key, done in (("LED", "buttons.led_pin", "lit now"),
                            ("Buzzer", "buttons.buzzer_pin", "beeped once")):
        pin = config.integer(key)
        print(f"{name}: {key} = {pin}, " + (done if pin >= 0 else "none fitted"), file=out)
    # One part on the header pin wiring.md wires it to is no warning of its own (a pin may
    # be chosen so): said here, where its silence is seen (a77keys RISK 6, attack_pin = 11).
    # Two or more: pin_check's warning, said before.
    written = header_pins_written({part: config.integer(f"buttons.{part}_pin")
                                   for part in PART_NAMES})
    if len(written) == 1:
        part, pin, gpio = written[0]
        print(f"buttons.{part}_pin = {pin} is the header pin of GPIO{gpio}, which "
              f"hardware/wiring.md wires the {PART_NAMES[part]} to: if the "
              f"{PART_NAMES[part]} does nothing here, write {part}_pin = {gpio}", file=out)
    print("Press each button; hold I for Menu メニュー, longer for System 設定.\n"
          "Ctrl-C or q ends.", file=out, flush=True)
    while not stop():
        for press in panel.poll():
            if isinstance(press, Button) and press in SAID:
                said, part = SAID[press]
                key = f"buttons.{part}_pin"
                print(f"{said} ({key} = {config.integer(key)})", file=out, flush=True)
        time.sleep(POLL_SECONDS)


@contextlib.contextmanager
def q_typed() -> Iterator[Callable[[], bool]]:
    """Whether q was typed on the terminal (cbreak: no Enter needed), its settings put back
    after; standard input that is no terminal is not read, and Ctrl-C alone ends."""
    fd = sys.stdin.fileno() if sys.stdin is not None and sys.stdin.isatty() else None
    if fd is None:
        yield lambda: False
        return
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)

    def typed() -> bool:
        while select.select([fd], [], [], 0)[0]:
            data = os.read(fd, 1024)
            if not data or b"q" in data.lower():
                return True
        return False

    try:
        yield typed
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
