"""The Pi's header pins and the BCM GPIO numbers the buttons' settings take.

hardware/wiring.md names each part's pin both ways, "GPIO21 [40]": the BCM number, which
``buttons.*_pin`` takes, and the physical header pin in brackets. A header pin written
for the BCM number is refused by the setting's range (0 to 27) when it is above 27; the
refusal then says which GPIO that header pin is (keys73 NIT 3: it said only the range, and
the maker who wrote 40 for GPIO21 [40] was not told what to write instead)."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib.resources import files

# The pins hardware/wiring.md says to avoid, and why: they work, but not as a plain pin.
PINS_TO_AVOID = {
    0: "the HAT ID EEPROM's data line (ID_SD)",
    1: "the HAT ID EEPROM's clock line (ID_SC)",
    2: "I²C SDA, with a fixed pull-up on the board",
    3: "I²C SCL, with a fixed pull-up on the board",
    14: "the serial console's TXD",
    15: "the serial console's RXD (and the RDM6300's)",
}


@cache
def _header_data() -> dict[str, dict[str, object]]:
    return tomllib.loads((files("companion.app.data") / "pi_header.toml").read_text("utf-8"))


def header_pins() -> dict[int, str]:
    """What each header pin is, by its number: ``"GPIO21"``, or ``"a ground pin"``."""
    return {int(pin): str(what) for pin, what in _header_data()["header"].items()}


def wired_pins() -> dict[str, int]:
    """hardware/wiring.md's wiring: the BCM GPIO each part is wired to, by its part
    (``attack``: 17)."""
    return {part: int(str(gpio)) for part, gpio in _header_data()["wiring"].items()}


def header_pin_of(gpio: int) -> int:
    """The header pin GPIO ``gpio`` is on (GPIO17: 11)."""
    return next(pin for pin, what in header_pins().items() if what == f"GPIO{gpio}")


def header_pins_written(pins: dict[str, int]) -> list[tuple[str, int, int]]:
    """Keys75 RISK 2: the parts (of ``pins``, a part's BCM setting by its part) set to the
    header pin hardware/wiring.md wires that part to, not its GPIO: ``attack_pin = 11``
    for GPIO17 [11]. Each such part, its setting and the GPIO meant, ``("attack", 11,
    17)``. Header pins 3 to 27 are BCM numbers too, so the setting is taken: nothing is
    wired there, and no button answers."""
    wired = wired_pins()
    return [(part, pin, wired[part]) for part, pin in pins.items()
            if part in wired and pin != wired[part] and pin == header_pin_of(wired[part])]


def header_pin_hint(key: str, value: object) -> str:
    """For a ``buttons.*_pin`` above the BCM numbers that is a header pin (28 to 40): what
    to read it as, `` (BCM GPIO numbers, not header pins: header pin 40 is GPIO21, so
    write 21)``; else ``""``. A header pin whose GPIO is one to avoid (28, GPIO1) says so,
    not "so write 1", which the pin check then warned of (a77keys NIT 4)."""
    if not (key.startswith("buttons.") and key.endswith("_pin")) or isinstance(value, bool) \
            or not isinstance(value, int) or value <= 27:
        return ""
    what = header_pins().get(value)
    if what is None:
        return ""
    gpio = int(what.removeprefix("GPIO")) if what.startswith("GPIO") else None
    if gpio is not None and gpio in PINS_TO_AVOID:
        return (f" (BCM GPIO numbers, not header pins: header pin {value} is {what}, "
                f"{PINS_TO_AVOID[gpio]}, a pin hardware/wiring.md says to avoid; choose "
                "another, as wiring.md gives each part's GPIO)")
    if gpio is not None:
        return (f" (BCM GPIO numbers, not header pins: header pin {value} is {what}, "
                f"so write {gpio})")
    return (f" (BCM GPIO numbers, not header pins: header pin {value} is {what}, "
            "not a GPIO; hardware/wiring.md gives each part's GPIO)")


#: A pin written as text: wiring.md's name for it ("GPIO17", "BCM17"), with its header pin
#: in brackets or not ("GPIO17 [11]", as the table has it), or a number quoted.
_PIN_TEXT = re.compile(r"\s*(?:(gpio|bcm)\s*)?(\d+)\s*(\[\s*\d+\s*\])?\s*", re.IGNORECASE)


def pin_text_hint(key: str, text: str) -> str:
    """For a ``buttons.*_pin`` given as text that names a pin, what to write instead: the
    GPIO's name as wiring.md writes it ("GPIO17", or copied with its header pin, "GPIO17
    [11]", r77keys) is `` (the BCM GPIO number alone: write 17)``, a header pin quoted
    ("40") is told as :func:`header_pin_hint` tells one bare; else ``""`` (a number in range
    quoted: :meth:`~companion.app.config.Spec.unquoted` says to write it without quotes).
    Both were told only "must be a whole number" (a77keys NIT 5)."""
    match = _PIN_TEXT.fullmatch(text)
    if not (key.startswith("buttons.") and key.endswith("_pin")) or match is None:
        return ""
    number = int(match[2])
    if match[1] is not None or match[3] is not None:
        return f" (the BCM GPIO number alone: write {number})" if number <= 27 else ""
    return header_pin_hint(key, number)
