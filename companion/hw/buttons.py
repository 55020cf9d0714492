"""The four table buttons, and the LED and buzzer that say "waiting for a tile" (gpiozero).

Wiring (BCM numbers are configurable, ``[buttons]`` in config.toml): each
button goes between its GPIO pin and GND; the Pi's internal pull-up holds the
pin high, a press pulls it low. The LED goes from its pin through a 330 Ω
resistor to GND; an *active* buzzer (one that sounds on plain DC) goes from
its pin to GND (through a transistor if it draws more than ~15 mA).

Every class takes ``pin_factory=`` like gpiozero's own devices, so tests pass
``gpiozero.pins.mock.MockFactory()`` and press buttons with ``drive_low``.

Keys, screen taps and the buttons all produce the same :data:`Press` values.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import gpiozero


class Button(Enum):
    """What a press means. Four buttons; a long press of ITEM is MENU."""

    ATTACK = "attack"  # attack / confirm
    FLEE = "flee"  # flee / back: also rejects a tile read before it counts
    RANGED = "ranged"
    ITEM = "item"
    MENU = "menu"
    PREVIOUS = "previous"  # a keyboard's ← or ↑: the highlight back, whatever is offered


@dataclass(frozen=True, slots=True)
class Pick:
    """A direct choice of the n-th option shown (a tap on it, or its number key)."""

    index: int


Press = Button | Pick
NUMBER_KEYS = "1234567890"  # the options a number key picks: 1 to 9, then 0 for the tenth


@dataclass(frozen=True, slots=True)
class ButtonPins:
    """BCM pin numbers of the four buttons."""

    attack: int = 17
    flee: int = 27
    ranged: int = 22
    item: int = 23


class ButtonPanel:
    """The four buttons as a queue of :class:`Button` presses.

    ATTACK, FLEE and RANGED count when pressed. ITEM counts when released, as
    MENU if it was held at least ``long_press`` seconds, else as ITEM.
    """

    def __init__(
        self,
        pins: ButtonPins,
        long_press: float = 0.8,
        *,
        bounce_time: float | None = 0.03,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.long_press = long_press
        self._clock = clock
        self._queue: deque[Button] = deque()
        self._lock = threading.Lock()
        self._item_down_at: float | None = None
        self.devices: dict[Button, gpiozero.Button] = {}
        for meaning, pin in (
            (Button.ATTACK, pins.attack),
            (Button.FLEE, pins.flee),
            (Button.RANGED, pins.ranged),
            (Button.ITEM, pins.item),
        ):
            device = gpiozero.Button(pin, bounce_time=bounce_time, pin_factory=pin_factory)
            if meaning is Button.ITEM:
                device.when_pressed = self._item_pressed
                device.when_released = self._item_released
            else:
                device.when_pressed = self._pusher(meaning)
            self.devices[meaning] = device

    def _pusher(self, meaning: Button) -> Callable[[], None]:
        return lambda: self._push(meaning)

    def _push(self, meaning: Button) -> None:
        with self._lock:
            self._queue.append(meaning)

    def _item_pressed(self) -> None:
        self._item_down_at = self._clock()

    def _item_released(self) -> None:
        if self._item_down_at is None:
            return
        held = self._clock() - self._item_down_at
        self._item_down_at = None
        self._push(Button.MENU if held >= self.long_press else Button.ITEM)

    def poll(self) -> list[Press]:
        """Presses since the last call, oldest first."""
        with self._lock:
            presses: list[Press] = list(self._queue)
            self._queue.clear()
        return presses

    def close(self) -> None:
        for device in self.devices.values():
            device.close()


class WaitingSignal:
    """An LED that is lit while the companion waits for a tile, and a buzzer that beeps once.

    Either may be absent (pin ``None``).
    """

    def __init__(
        self,
        led_pin: int | None,
        buzzer_pin: int | None,
        *,
        beep_seconds: float = 0.08,
        pin_factory: Any = None,
    ) -> None:
        self.beep_seconds = beep_seconds
        self.led = gpiozero.LED(led_pin, pin_factory=pin_factory) if led_pin is not None else None
        self.buzzer = (
            gpiozero.Buzzer(buzzer_pin, pin_factory=pin_factory)
            if buzzer_pin is not None
            else None
        )
        self._waiting = False

    def waiting(self, on: bool) -> None:
        """Light the LED (and beep once, when it turns on) or switch both off."""
        if on == self._waiting:
            return
        self._waiting = on
        if self.led is not None:
            self.led.value = on
        if self.buzzer is not None:
            if on:
                self.buzzer.beep(on_time=self.beep_seconds, off_time=0, n=1, background=True)
            else:
                self.buzzer.off()

    def close(self) -> None:
        for device in (self.led, self.buzzer):
            if device is not None:
                device.close()


def optional_pin(pin: int) -> int | None:
    """Config uses -1 for "not fitted"."""
    return None if pin < 0 else pin
