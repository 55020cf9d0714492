"""An amount the Keeper enters (a SAN loss, fire damage, a fall's height): the common ones
one press each, and *Other… 他の値*, which opens a keypad menu for any other (buttons-only
audit F7: a SAN loss of 7, 9 or over 10 could not be entered).

The keypad is typed as the session's typed dice are (:mod:`companion.app.session.keypad`):
highest place first, its keys 1–9 then 0 (so a keyboard's number key types its own digit),
Back goes back a place. That keypad waits for presses itself; here each key is one answer
of the fight's journal (``other``, ``d:1``, ``d:7``), so a save replays the amount typed,
and the common amounts keep their keys (``n:5``): saves made before the keypad replay.
An amount outside its bounds is refused with why, and the same place is asked again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.app.modes.fight import option_index
from companion.app.session.controls import BACK
from companion.app.session.keypad import PLACES, place_label
from companion.app.session.mode import ChoiceAsk
from companion.errors import IllegalAction
from companion.hw.display.view import Option

#: The option that opens the keypad, and each key's prefix.
OTHER = Option("other", "Other… 他の値")
DIGIT = "d"
#: The keys in the order of a keyboard's number row: key 1 is the first option, 0 the tenth.
DIGITS = (*range(1, 10), 0)


@dataclass(frozen=True)
class Amount:
    """An amount menu: ``prompt``; ``common``, offered one press each (keys ``prefix:n``);
    ``low``–``high``, what may be typed, and ``why`` that is so (said when another is typed,
    with its rule ID); ``unit`` after each number (``" m"``)."""

    prompt: str
    common: tuple[int, ...]
    low: int
    high: int
    why: str
    unit: str = ""
    prefix: str = "n"


def amount(menu: Amount, rest: Sequence[str]) -> ChoiceAsk | tuple[int, list[str]]:
    """The amount picked at the head of ``rest`` (the options picked after the menu came)
    and the options after it; or the menu, or keypad place, still to answer."""
    if not rest:
        return ChoiceAsk(menu.prompt, (*(Option(f"{menu.prefix}:{n}", f"{n}{menu.unit}")
                                         for n in menu.common), OTHER, BACK))
    if rest[0] != OTHER.choice:
        return option_index(rest[0], menu.prefix), list(rest[1:])
    places = len(str(menu.high))
    typed = [_digit(key) for key in rest[1:1 + places]]
    after = places - len(typed)  # the places still to type
    so_far = "".join(map(str, typed))
    if typed:
        lowest, highest = int(so_far) * 10 ** after, (int(so_far) + 1) * 10 ** after - 1
        if highest < menu.low or lowest > menu.high:  # no amount begins so
            shown = so_far + "_" * after
            raise IllegalAction(f"{shown}{menu.unit}? {menu.why}: type again 入力し直し")
    if after == 0:
        return int(so_far), list(rest[1 + places:])
    english, japanese = PLACES[after - 1]
    keys = tuple(Option(f"{DIGIT}:{d}", _key_label(so_far, d, after - 1, menu))
                 for d in DIGITS)
    return ChoiceAsk(f"{menu.prompt} ({menu.low}–{menu.high}{menu.unit}), "
                     f"{english} {japanese}", (*keys, BACK))


def _digit(key: str) -> int:
    """A keypad key's digit (``d:7`` → 7)."""
    digit = option_index(key, DIGIT)
    if digit > 9:
        raise IllegalAction(f"there is no choice {key!r} now")
    return digit


def _key_label(so_far: str, digit: int, after: int, menu: Amount) -> str:
    """What a key says: the number with blanks for the places to come and, on the first
    place, the amounts it begins that may be typed (``1_ (10–19)``, ``0_ (1–9)`` for a loss
    of 1 or more, worded as the dice keypad's); on the last, the amount (``17 m``)."""
    number = f"{so_far}{digit}"
    if after == 0:
        return f"{int(number)}{menu.unit}"
    blanks = number + "_" * after
    if so_far:
        return blanks
    lowest = digit * 10 ** after
    highest = lowest + 10 ** after - 1
    if lowest <= menu.high and highest >= menu.low:  # else it begins none: said when pressed
        lowest, highest = max(lowest, menu.low), min(highest, menu.high)
    return place_label(blanks, lowest, highest)
