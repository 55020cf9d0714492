"""Dice the player throws and types on a keypad menu: the dice a camera cannot read (a D4,
a D20, a d100), or every die with ``--dice typed`` (real dice and no dice camera).

A die of up to ten faces is one menu of its faces; a larger one is typed digit by digit,
highest place first (a d100's tens, then units; a D200's hundreds too). Each place is the
ten digits in order, 1–9 then 0, so that a number key is the digit it names, as the keys
table says (1-9, 0: that option, 0 the tenth): a D20's 20 is ``2`` ``0``, a D12's 10 is
``1`` ``0``. The menu opens with its highlight on the first digit that leads to a face
(:func:`place_digits`): after a D20's ``2_`` on its 0, the 20, so that A takes it. A digit
that leads to no face is refused where it is typed, and the place is typed again: a typo
never becomes another face (reviews70 DEFECT 1: the units cut to the faces, a number key
picked by position, and a D12's ``1`` ``0`` Enter was 11). All zeros are the highest face
of percentile dice only (a d100's 00 is 100, as the keys say), whose faces show it; on
another die (a D20, a D200) they are refused, as typed dice on the command line refuse
them (:func:`~companion.dice.sources.zero_is_top`). Back goes back a place, and out of the
first.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from companion.app.session.controls import BACK, Controls, SystemAsked, choose
from companion.app.session.mode import RollAsk, Show, Throw
from companion.dice.sources import D6_READS, from_a_d6, zero_is_top
from companion.hw.buttons import Pick, Press
from companion.hw.display.view import Option

#: The most faces typed in one menu: its keys 1–9 and 0 (a D10's 10).
ONE_MENU_SIDES = 10
#: A larger die's digits, typed highest place first, by how many places follow.
PLACES = (("units", "一の位"), ("tens", "十の位"), ("hundreds", "百の位"), ("thousands", "千の位"),
          ("ten thousands", "万の位"))
#: The digits of a place, in the order of their number keys (0 the tenth).
DIGITS = (*range(1, 10), 0)


def typed_prompt(ask: RollAsk, typed: Sequence[int] = ()) -> str:
    """The prompt for the next die of a throw the player types (``typed``: the dice typed
    before it): it says so first, and not "in the dice area", where nothing reads it. A D3
    or D2 says a D6 will do, keyed as what it reads as (1-2 → 1 …), as typed dice on the
    command line say it (review59b F10)."""
    what = f": {ask.prompt}" if ask.prompt else ""
    d6 = from_a_d6(ask.sides)
    return f"{_head(ask, typed)} 1D{ask.sides}の出目を入力{what}" + (f" ({d6})" if d6 else "")


def not_on_the_die(digit: int, sides: int) -> str:
    """Why a number key past a small die's faces takes nothing: a D3's or D2's says how a
    D6 is typed for it (its 4 is the D3's 2), as typed dice on the command line say it.

    >>> not_on_the_die(4, 3)
    '4 is not on a 1D3: type again その目はありません; a D6 is typed as what it reads as, \
1-2 → 1, 3-4 → 2, 5-6 → 3 (its 4: 2)'
    >>> not_on_the_die(0, 6)
    '0 is not on a 1D6: type again その目はありません'
    """
    said = f"{digit} is not on a 1D{sides}: type again その目はありません"
    if sides in D6_READS and 1 <= digit <= 6:
        said += (f"; a D6 is typed as what it reads as, {D6_READS[sides]} (its {digit}: "
                 f"{-(-digit * sides // 6)})")
    return said


def place_prompt(ask: RollAsk, typed: Sequence[int], after: int) -> str:
    """The prompt for a place of a larger die (``after``: the places still to type after
    it), the dice typed before it ``typed``: the roll's own words first (whose roll, which
    skill), then the typing and the place, ``Ann キック/Kick+MA (1D100<=60,50) …: type the
    D100, tens 十の位``. Over a fight's keypad the prompt has one row, cut in its middle:
    with the typing first, the cut took the skill (screen64 NIT 7); the typing's words are
    few after the roll's (not "you threw"), so that with larger text the cut keeps the
    target too (review64s NIT 3). A bare roll says "Type the D20 you threw"."""
    english, japanese = PLACES[after]
    if not ask.prompt:
        return f"{_head(ask, typed)}, {english} {japanese}"
    return f"{ask.prompt}: type the D{ask.sides}{_which(ask, typed)}, {english} {japanese}"


def place_label(blanks: str, lowest: int, highest: int) -> str:
    """A first-place key: the number with a blank for each place to come and the numbers it
    begins, ``1_ (10–19)``, or the one it begins, ``2_ (20)`` on a D20. Read at a glance on a
    small screen, and not ``×10``, which the screen's keys use for presses (``M×10``). The
    session's dice keypad and the amounts the Keeper types (CoC) say it alike."""
    return f"{blanks} ({lowest})" if lowest == highest else f"{blanks} ({lowest}–{highest})"


def place_places(sides: int) -> int:
    """How many places a die of more than ten faces is typed in: a d100's 00 is its 100, so
    two, as a D20's; a D1000 (no 0 on it) is four, 1000 being ``1`` ``0`` ``0`` ``0``: with
    three its 1000 could not be typed at all (reviews70 RISK 2)."""
    return len(str(sides - 1 if zero_is_top(sides) else sides))


def place_digits(typed: Sequence[int], after: int, sides: int) -> list[int]:
    """The digits of a place (1–9, then 0), the places ``typed`` before it and ``after`` it,
    that lead to a face of a 1D``sides``: the place's menu opens on the first of them. A
    D20's units after its tens 2 are its 0 alone (20); after its 0 (``0_ (1–9)``), 1–9, not
    00. The units opened on the 21 the die does not have: A, the natural "ok", was refused,
    and a 20 took two presses of R first (screen70 DEFECT 1)."""
    digits = []
    for digit in DIGITS:
        lowest = int("".join(map(str, (*typed, digit)))) * 10 ** after
        highest = lowest + 10 ** after - 1
        if lowest <= sides and (highest >= 1 or zero_is_top(sides)):
            digits.append(digit)
    return digits


def _key_label(typed: list[int], digit: int, after: int, sides: int) -> str:
    """What a digit's key says: the number so far with blanks for the places to come, the
    faces the first place begins (10–19), and that all zeros are the die's highest face
    (00=100). A digit that leads to no face says the number alone (a D20's ``3_``, ``21``)."""
    number = "".join(map(str, typed)) + str(digit)
    zeros = "0" * (len(number) + after)
    top = zero_is_top(sides)
    if digit not in place_digits(typed, after, sides):  # no face: the number, no faces
        return number + "_" * after
    if after == 0:
        return f"{zeros} (={sides})" if number == zeros and top else number
    if typed:
        return number + "_" * after
    if digit == 0 and top:
        return f"{number}{'_' * after} ({zeros}={sides})"
    lowest = digit * 10 ** after
    highest = min(sides, lowest + 10 ** after - 1)
    return place_label(number + "_" * after, max(1, lowest), highest)  # a D20's 0_: 1–9


def _head(ask: RollAsk, typed: Sequence[int]) -> str:
    """Which die of the throw is typed, and the dice typed before it (a die misremembered is
    seen before the throw counts)."""
    return f"Type the D{ask.sides} you threw{_which(ask, typed)}"


def _which(ask: RollAsk, typed: Sequence[int]) -> str:
    """`` (2 of 3, so far 4 入力済)``: which die of a throw of several is typed, and the dice
    typed before it; nothing for a throw of one die."""
    so_far = f", so far {', '.join(map(str, typed))} 入力済" if typed else ""
    return f" ({len(typed) + 1} of {ask.count}{so_far})" if ask.count > 1 else ""


class ThrowLeft(SystemAsked):
    """SYSTEM pressed part-way through a throw typed on the keypad: ``typed`` says the dice
    (and a die's places) typed of it, ``4 typed of 2D6``. A throw is kept as one answer,
    when its last die is typed; the dice typed before are not saved, and the throw is asked
    again from its first die after the System menu (Back, a mode switched to and back, a
    stop and ``--resume``). The menu's heading says so (tables65 NIT 2: "every step is
    saved" read as if they were kept), and ``typed`` is its status line."""

    def __init__(self, typed: str) -> None:
        super().__init__(typed)
        self.typed = typed


class Keypad:
    """A throw typed die by die; ``why`` is said under each menu (why the die is typed)."""

    def __init__(self, controls: Controls, poll_seconds: float, why: str,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.controls = controls
        self.poll_seconds = poll_seconds
        self.why = why
        self.sleep = sleep
        self.ahead: tuple[Press, ...] = ()  # number keys typed ahead, for the next key
        self.places = ""  # the places of a larger die typed so far (a d100's tens: "3")

    def next_throw(self, ask: RollAsk, show: Show) -> Throw:
        """The throw ``ask`` asks for, typed die by die. SYSTEM part-way is
        :class:`ThrowLeft`, saying what of it was typed (lost: asked again after)."""
        values: list[int] = []
        self.ahead = ()
        try:
            for _ in range(ask.count):
                value = self.die(ask, show, tuple(values))
                if value is None:
                    return Throw(back=True)
                values.append(value)
        except SystemAsked as asked:
            keyed = [*map(str, values), *([f"{self.places}_"] if self.places else [])]
            if keyed and not isinstance(asked, ThrowLeft):
                raise ThrowLeft(f"{', '.join(keyed)} typed of {ask.count}D{ask.sides}") \
                    from asked
            raise
        finally:
            self.ahead = ()  # typed past the throw's last die: not the next throw's
            self.places = ""
        return Throw(tuple(values), typed=True)

    def die(self, ask: RollAsk, show: Show, before: tuple[int, ...] = ()) -> int | None:
        """The next die of the throw keyed in, after the dice typed ``before``; None: the
        player went back."""
        status = self.why
        guidance = True

        def with_status(prompt: str, **kwargs: object) -> None:
            show(prompt, **kwargs, status=status, guidance=guidance)

        if ask.sides <= ONE_MENU_SIDES:
            faces = [*range(1, ask.sides + 1)]
            options = (*(Option(f"{v}", str(v)) for v in faces), BACK)

            def past(index: int) -> None:
                # A number key past the faces was ignored without a word, where a D20's
                # place says so and the command line explains a D6 typed for a D3 (events72
                # NIT 5): said as they say it, the keypad waiting on.
                nonlocal status, guidance
                key = DIGITS[index] if index < len(DIGITS) else index + 1  # keys 1-9, 0
                status, guidance = not_on_the_die(key, ask.sides), False

            picked = self._choose(with_status, typed_prompt(ask, before), options, past=past)
            return None if picked == len(faces) else faces[picked]
        places = place_places(ask.sides)
        typed: list[int] = []
        while True:
            self.places = "".join(map(str, typed))
            after = places - len(typed) - 1  # the places still to type after this one
            faces = place_digits(typed, after, ask.sides)
            options = (*(Option(f"{d}", _key_label(typed, d, after, ask.sides))
                         for d in DIGITS), BACK)
            picked = self._choose(with_status, place_prompt(ask, before, after), options,
                                  DIGITS.index(faces[0]))
            status, guidance = self.why, True
            if picked == len(DIGITS):  # back: to the place before, or out of the first
                if not typed:
                    return None
                typed.pop()
                continue
            if DIGITS[picked] not in faces:  # refused here, not taken: this place again
                number = self.places + str(DIGITS[picked]) + "_" * after
                status = f"{number} is not on a 1D{ask.sides}: type again その目はありません"
                guidance = False
                continue
            typed.append(DIGITS[picked])
            if len(typed) < places:
                continue
            value = int("".join(map(str, typed)))
            self.places = ""
            # Only faces were taken (place_digits): all zeros is a d100's 100.
            return ask.sides if value == 0 else value

    def _choose(self, show: Show, prompt: str, options: tuple[Option, ...],
                highlight: int = 0, past: Callable[[int], None] | None = None) -> int:
        """A key of the keypad. A digit counts once chosen, with no read to confirm: the
        menu after it (the next place, the next die, the fight's next menu) is guarded
        against a double press of the same button or tap, as after an accepted read.

        Number keys typed in the same poll after the one that chose (a fast typist's ``17``
        within a poll) are the next keys' (review63d NIT 1: the 7 was lost, and the keypad
        waited on the units); taps and buttons are not carried (a tap's second lands on the
        next menu: a double, not a key typed ahead)."""
        carried, self.ahead = self.ahead, ()
        # A number key picks a digit, never Back (the last option, drawn [B]): a 7 typed on
        # a 1D6's keypad, or a 4 on a 1D20's tens (then 1_ 2_ 0_), gave up the throw and the
        # dice typed before it (review63g). A place's digits are all ten, 0 the tenth.
        picked = choose(self.controls, show, prompt, options, highlight, self.poll_seconds,
                        self.sleep, carried=carried, number_keys=len(options) - 1,
                        past_keys=past)
        self.controls.accepted_with = self.controls.chose_with
        ahead: list[Press] = []
        for press in self.controls.left_over:
            if not isinstance(press, Pick) or press.tap:
                break
            ahead.append(press)
        self.ahead = tuple(ahead)
        return picked
