"""The four table buttons, and the LED and buzzer that say "waiting for a tile" (gpiozero).

Wiring (BCM numbers are configurable, ``[buttons]`` in config.toml): each
button goes between its GPIO pin and GND; the Pi's internal pull-up holds the
pin high, a press pulls it low. The LED goes from its pin through a 330 Ω
resistor to GND; an *active* buzzer (one that sounds on plain DC) goes from
its pin to GND (through a transistor if it draws more than ~15 mA).

Every class takes ``pin_factory=`` like gpiozero's own devices, so tests pass
``gpiozero.pins.mock.MockFactory()`` and press buttons with ``drive_low``. A part whose
pin cannot be had raises :class:`PinUnusable` naming the part, its other parts let go;
no GPIO at all raises :class:`NoGpio` saying why.

Keys, screen taps and the buttons all produce the same :data:`Press` values.
"""

from __future__ import annotations

import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from companion.errors import DeviceError

if TYPE_CHECKING:
    import gpiozero


class Button(Enum):
    """What a press means. Four buttons; a long press of ITEM is MENU, a longer one SYSTEM."""

    ATTACK = "attack"  # attack / confirm
    FLEE = "flee"  # flee / back: also rejects a tile read before it counts
    RANGED = "ranged"
    ITEM = "item"
    MENU = "menu"
    PREVIOUS = "previous"  # a keyboard's ← or ↑: the highlight back, whatever is offered
    SYSTEM = "system"  # the System 設定 menu: a new game, another mode, shutting down


@dataclass(frozen=True, slots=True)
class Pick:
    """A direct choice of the n-th option shown (a tap on it, or its number key). ``tap``:
    made on the touch screen, where a double tap's second lands on the next menu shown
    (a number key pressed twice is two digits); it does not change which option it picks."""

    index: int
    tap: bool = field(default=False, compare=False)


Press = Button | Pick
NUMBER_KEYS = "1234567890"  # the options a number key picks: 1 to 9, then 0 for the tenth


@dataclass(frozen=True, slots=True)
class ButtonPins:
    """BCM pin numbers of the four buttons."""

    attack: int = 17
    flee: int = 27
    ranged: int = 22
    item: int = 23


class NoGpio(DeviceError):
    """No GPIO pin can be used here at all; the message says why."""


class PinUnusable(DeviceError):
    """The pin of one part (``attack``, ``flee``, ``ranged``, ``item``, ``led`` or
    ``buzzer``) cannot be had: another program, a HAT or an overlay holds it."""

    def __init__(self, part: str, pin: int, reason: str) -> None:
        super().__init__(f"GPIO{pin} cannot be used ({reason})")
        self.part, self.pin, self.reason = part, pin, reason


def ensure_gpio(pin_factory: Any = None) -> None:
    """Load gpiozero's pin factory unless one is given, or raise :class:`NoGpio`.

    gpiozero tries each backend in turn and gives the reason each failed only as a
    warning, then raises "Unable to load any default pin factory!": the reasons are
    kept, to tell "not a Pi" from a Pi whose GPIO library is missing or not allowed.
    """
    if pin_factory is not None:
        return
    # (gpiozero is imported where a part is made: a command that only names the buttons,
    # `companion genso`, waited 0.5 s for it on a slow Pi core: pi59 F2.)
    import gpiozero
    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            gpiozero.Device.ensure_pin_factory()
        except BadPinFactory as exc:
            reasons = [str(w.message) for w in caught if issubclass(w.category, PinFactoryFallback)]
            raise NoGpio(why_no_gpio(reasons, str(exc))) from None
    for warning in caught:  # the others still reach the journal, as they would have
        if not issubclass(warning.category, PinFactoryFallback):
            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                   warning.lineno)


def why_no_gpio(reasons: list[str], error: str) -> str:
    """What gpiozero's fallback ``reasons`` ("Falling back from lgpio: ...") mean to a
    player. A backend that looked for the board's revision and found none is on no Pi;
    on a Pi, lgpio is the backend the companion installs, so its reason is the one told."""
    if any("unable to locate Pi revision" in reason for reason in reasons):
        return "no GPIO here: this is not a Raspberry Pi"
    lgpio = next((reason.removeprefix("Falling back from ") for reason in reasons
                  if reason.startswith("Falling back from lgpio:")), error)
    return (f"the GPIO cannot be opened ({lgpio}): run 'bash scripts/install-pi.sh' in the "
            "companion's folder (it installs python3-lgpio for the .venv and puts you in "
            "group gpio), then log out and back in")


def open_parts(parts: dict[str, tuple[int, Callable[[int], Any]]],
               pin_factory: Any = None) -> dict[str, Any]:
    """Each part's gpiozero device, made on its pin. When one cannot be made the ones
    made before it are closed, so that their pins are free for a second try in the same
    process, and :class:`PinUnusable` names the part."""
    if parts:
        ensure_gpio(pin_factory)
    devices: dict[str, Any] = {}
    for part, (pin, make) in parts.items():
        try:
            devices[part] = make(pin)
        # Not only GPIOZeroError: lgpio raises its own lgpio.error ('GPIO busy') for a line
        # another process or a kernel driver holds, and gpiozero lets it through.
        except Exception as exc:
            for device in devices.values():
                device.close()
            raise PinUnusable(part, pin, str(exc)) from None
    return devices


#: How late an edge's callback may run and still be dated when it runs
#: (:meth:`ButtonPanel._edge_at`): a callback on time comes within a millisecond or two,
#: which changes nothing, and the clock a test gives is not mixed with the pins' real time.
EDGE_LATE_S = 0.005
#: The oldest an edge may be when its callback runs and still be dated by its timestamp:
#: past it, the timestamp is taken for another clock's.
EDGE_AGE_LIMIT_S = 10.0


class ButtonPanel:
    """The four buttons as a queue of :class:`Button` presses.

    ATTACK, FLEE and RANGED count when pressed. ITEM counts when released, as MENU if
    it was held at least ``long_press`` seconds, else as ITEM; held ``system_press``
    seconds it counts as SYSTEM at once, still held (the System menu opens under the
    finger: a player told to hold I for it lets go when it shows), and not again when let go.

    ``bounce_time`` is handed to gpiozero (lgpio, the companion's backend on the Pi, filters
    with it), and kept here too with ``clock``: an edge of a button within ``bounce_time``
    of that button's last edge is its contacts bouncing, not the player, and is ignored.
    gpiozero's mock pins ignore bounce, and a backend that only ignores edges for a while
    after a press let the release's bounce through: a second ATTACK, or a long press of
    item read as MENU, then ITEM (input audit 63 R1). None: no debounce here either.

    Each edge is dated when it happened, not when its callback runs (:meth:`_edge_at`):
    gpiozero keeps the pin's own timestamp of it (lgpio: the kernel's, each edge late by
    the debounce alike, so gaps and holds stay right), and a callback may
    come late, its thread waiting for the interpreter while the screen is drawn. A tap
    whose press and release came one after the other was a release "bouncing" 0 ms after
    its press, and the ITEM was lost (review63d RISK 1).

    ``shut``: buttons left unopened, their pins untouched (a pin shared with another part,
    which would fight it: the others still end a Stopped screen, reviews72 RISK 2).
    """

    def __init__(
        self,
        pins: ButtonPins,
        long_press: float = 0.8,
        system_press: float = 3.0,
        *,
        bounce_time: float | None = 0.03,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        shut: Collection[Button] = (),
    ) -> None:
        self.long_press = long_press
        self.bounce_time = bounce_time
        self._clock = clock
        self._queue: deque[tuple[Button, float]] = deque()  # each press, with when it came
        self._lock = threading.Lock()
        self._item_down_at: float | None = None
        self._last_edge: dict[Button, float] = {}  # each button's last edge, bounce or not

        import gpiozero

        def button(pin: int, hold_time: float = 1.0) -> gpiozero.Button:
            return gpiozero.Button(pin, bounce_time=bounce_time, hold_time=hold_time,
                                   pin_factory=pin_factory)

        parts: dict[str, tuple[int, Callable[[int], Any]]] = {
            "attack": (pins.attack, button), "flee": (pins.flee, button),
            "ranged": (pins.ranged, button),
            "item": (pins.item, lambda pin: button(pin, system_press))}
        self.devices: dict[Button, gpiozero.Button] = {
            Button(part): device for part, device in open_parts(
                {part: made for part, made in parts.items() if Button(part) not in shut},
                pin_factory).items()}
        for meaning, device in self.devices.items():
            if meaning is Button.ITEM:
                device.when_pressed = self._item_pressed
                device.when_released = self._item_released
                device.when_held = self._item_held
            else:
                device.when_pressed = self._pusher(meaning)
                device.when_released = self._releaser(meaning)

    def _edge_at(self, meaning: Button, pressed: bool) -> float:
        """When the edge of ``meaning`` being handled (a press, or a release) happened, on
        ``clock``: now less the time gpiozero says the button has been pressed (released)
        since, which it counts from the pin's timestamp of the edge. Call from the edge's own
        callback. Now, when the callback is on time (:data:`EDGE_LATE_S`), or that age is
        not to be had or not believable (a backend whose timestamps are on another clock)."""
        device = self.devices.get(meaning)
        age: float | None = None if device is None else (device.active_time if pressed
                                                         else device.inactive_time)
        now = self._clock()
        if age is None or not EDGE_LATE_S < age <= EDGE_AGE_LIMIT_S:
            return now
        return now - age

    def _bounced(self, meaning: Button, at: float) -> bool:
        """Whether an edge of ``meaning`` at ``at`` is a bounce: within ``bounce_time`` of its
        last edge. Each edge is remembered, so a burst of them is one bounce. Call under the
        lock."""
        last = self._last_edge.get(meaning)
        self._last_edge[meaning] = at
        return self.bounce_time is not None and last is not None \
            and at - last < self.bounce_time

    def _pusher(self, meaning: Button) -> Callable[[], None]:
        return lambda: self._push(meaning)

    def _releaser(self, meaning: Button) -> Callable[[], None]:
        def released() -> None:
            at = self._edge_at(meaning, pressed=False)
            with self._lock:
                self._bounced(meaning, at)  # only remembered: a press just after it bounces
        return released

    def _push(self, meaning: Button) -> None:
        at = self._edge_at(meaning, pressed=True)
        with self._lock:
            if not self._bounced(meaning, at):
                self._queue.append((meaning, at))

    # The hold comes from gpiozero's hold thread, the release from the pin's callback: each
    # reads and clears the press under the lock, so one press is SYSTEM or MENU, never both.
    # An edge of item that bounces changes nothing: a release bouncing after a long press
    # is no second, short one (ITEM after MENU), nor a press bouncing a long press short.
    def _item_pressed(self) -> None:
        at = self._edge_at(Button.ITEM, pressed=True)
        with self._lock:
            if not self._bounced(Button.ITEM, at):
                self._item_down_at = at

    def _item_held(self) -> None:
        with self._lock:
            if self._item_down_at is None:
                return
            self._item_down_at = None  # its release is no press
            self._queue.append((Button.SYSTEM, self._clock()))

    def _item_released(self) -> None:
        at = self._edge_at(Button.ITEM, pressed=False)
        with self._lock:
            if self._bounced(Button.ITEM, at):
                return
            down, self._item_down_at = self._item_down_at, None
            if down is not None:
                held = at - down
                self._queue.append((Button.MENU if held >= self.long_press else Button.ITEM, at))

    def poll(self) -> list[Press]:
        """Presses since the last call, oldest first."""
        return [press for press, _ in self.poll_timed()]

    def poll_timed(self) -> list[tuple[Press, float]]:
        """:meth:`poll`, each press with when it came on ``clock`` (its edge's time: a press
        counts when pressed, ITEM and MENU when let go; SYSTEM when its hold fires): a double
        press is judged by when the player made it, not when a late poll read it."""
        with self._lock:
            presses: list[tuple[Press, float]] = list(self._queue)
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
        import gpiozero

        parts: dict[str, tuple[int, Callable[[int], Any]]] = {}
        if led_pin is not None:
            parts["led"] = (led_pin, lambda pin: gpiozero.LED(pin, pin_factory=pin_factory))
        if buzzer_pin is not None:
            parts["buzzer"] = (buzzer_pin,
                               lambda pin: gpiozero.Buzzer(pin, pin_factory=pin_factory))
        devices = open_parts(parts, pin_factory)
        self.led: gpiozero.LED | None = devices.get("led")
        self.buzzer: gpiozero.Buzzer | None = devices.get("buzzer")
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
