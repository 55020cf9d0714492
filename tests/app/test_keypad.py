"""The keypad menus a die is typed on: a die the camera cannot read, or every die with
``--dice typed`` (companion/app/session/keypad.py)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.app.session.controls import Controls
from companion.app.session.keypad import Keypad
from companion.app.session.mode import RollAsk, Throw
from companion.app.session.rolls import CameraRolls
from companion.errors import DeviceError
from companion.hw.keyboard import press_for_key
from tests.app.keypad_helpers import Keys, keypad


@pytest.mark.parametrize(("sides", "keys", "value"), [
    (100, "10", 10), (100, "05", 5), (100, "00", 100), (100, "99", 99), (10, "0", 10),
    (4, "3", 3), (20, "20", 20), (20, "05", 5), (20, "19", 19), (12, "10", 10),
    (12, "11", 11), (12, "07", 7), (37, "30", 30), (37, "37", 37), (16, "10", 10)])
def test_a_typed_die_is_the_digits_typed(sides: int, keys: str, value: int) -> None:
    """On the keypad a number key is the digit it names, on every place: 1 then 0 is a
    d100's 10 (the 1 used to pick 11 at once, the 0 did nothing), a D20's 20 is 2 then 0 and
    its 5 is 0 then 5, a D12's 10 is 1 then 0. Each place is the ten digits in order, 0 the
    tenth: with the places cut to the faces, a number key picked by position, and a D12's
    1 0 stalled on 11 12 10 (reviews70 DEFECT 1)."""
    pressed = Keys(keys)
    assert keypad(pressed).die(RollAsk("damage", 1, sides), pressed.show) == value
    if sides > 10:  # a place: 1–9, 0, Back
        assert all(len(options) == 11 for _, options, _ in pressed.menus)
    if sides == 20:  # its 2_ begins one face, not 20–29; 3_ begins none
        tens = [o.label for o in pressed.menus[0][1]]
        assert tens[:3] == ["1_ (10–19)", "2_ (20)", "3_"] and tens[9] == "0_ (1–9)"


def test_1_0_enter_on_a_d12_is_10_never_11() -> None:
    """A keyboard player's 1, 0, Enter on a D12: the 0 picked nothing on the units cut to
    11 12 10, and Enter took the highlighted 11, recorded with no warning (reviews70 DEFECT
    1). (Each menu's first poll drains what came before it: "".)"""
    shown: list[dict[str, Any]] = []
    pad = Keypad(Controls([Polls("", "1", "", "0", "\r")]), 0.0, "typed 手入力",
                 sleep=lambda s: None)
    assert pad.die(RollAsk("damage", 1, 12), lambda prompt, **kw: shown.append(kw)) == 10


@pytest.mark.parametrize(("sides", "typo", "then", "value"), [
    (20, "21", "0", 20), (12, "13", "0", 10), (16, "17", "0", 10), (20, "00", "9", 9),
    (37, "38", "7", 37)])
def test_a_typo_is_refused_where_it_is_typed_never_another_face(
        sides: int, typo: str, then: str, value: int) -> None:
    """A digit that leads to no face is refused, said as trouble, and the place is typed
    again: a D20's 2 then 1 was taken as its 20, a D12's 1 then 3 as its 10 (reviews70
    DEFECT 1); a D20 has no 00 (dice62 N4)."""
    pressed = Keys(typo + then)
    assert keypad(pressed).die(RollAsk("burst", 1, sides), pressed.show) == value
    assert [status for _, _, status in pressed.menus] == [
        "typed 手入力", "typed 手入力",
        f"{typo} is not on a 1D{sides}: type again その目はありません"]
    assert [prompt.endswith("units 一の位") for prompt, _, _ in pressed.menus] == [
        False, True, True]  # the units again, the tens kept


def test_the_d100_keypad_says_00_is_100() -> None:
    """The tens pad offered "0_ (×10)" and then "00", read as 100 with nothing on the screen
    saying so."""
    pressed = Keys("00")
    assert keypad(pressed).die(RollAsk("to hit", 1, 100), pressed.show) == 100
    tens, units = pressed.menus[0][1], pressed.menus[-1][1]
    assert next(o.label for o in tens if o.choice == "0") == "0_ (00=100)"
    # The other tens say the faces they begin, as the CoC amounts' keypad does (1_ (10–19)),
    # not "×10", which the screen's keys use for presses (M×10).
    assert [o.label for o in tens][:2] == ["1_ (10–19)", "2_ (20–29)"]
    assert next(o.label for o in units if o.choice == "0") == "00 (=100)"


def test_each_place_opens_on_the_first_digit_that_leads_to_a_face() -> None:
    """A d20's units after its tens 2 open on its 0, the 20: A takes it. They opened on the
    21 the die has not; A was refused (screen70 DEFECT 1). Each menu says why the die is
    typed."""
    pressed = Keys("2a")
    assert keypad(pressed).die(RollAsk("burst", 1, 20), pressed.show) == 20
    prompts = [prompt for prompt, _, _ in pressed.menus]
    assert prompts == ["burst: type the D20, tens 十の位", "burst: type the D20, units 一の位"]
    units = [o.label for o in pressed.menus[1][1]]
    assert units == [*(f"2{d}" for d in range(1, 10)), "20", "Back 戻る"]
    assert pressed.highlights == [0, 9]
    assert [status for _, _, status in pressed.menus] == ["typed 手入力"] * 2
    # A D200's 2__ opens on 20_, then on 200; its 0__ on 01_, then on 011.
    for keys, highlights, value in (("20a", [0, 9, 9], 200), ("01a", [0, 0, 0], 11)):
        d200 = Keys(keys)
        assert keypad(d200).die(RollAsk("table", 1, 200), d200.show) == value
        assert d200.highlights == highlights


def test_a_throw_of_two_dice_names_each_and_back_goes_back() -> None:
    """2D4: each die's menu says which of the two it is; back on the second gives no throw."""
    pressed = Keys("3b")
    throw = keypad(pressed).next_throw(RollAsk("damage", 2, 4), pressed.show)
    assert throw.back and not throw.values
    # The second die's prompt shows the first as typed (buttons-only audit F9).
    assert [prompt for prompt, _, _ in pressed.menus] == [
        "Type the D4 you threw (1 of 2) 1D4の出目を入力: damage",
        "Type the D4 you threw (2 of 2, so far 3 入力済) 1D4の出目を入力: damage"]
    both = Keys("34")
    assert keypad(both).next_throw(RollAsk("damage", 2, 4), both.show).values == (3, 4)


def test_back_from_the_units_goes_back_to_the_tens() -> None:
    pressed = Keys("5b42")
    assert keypad(pressed).die(RollAsk("to hit", 1, 100), pressed.show) == 42
    assert ["tens" in p for p, _, _ in pressed.menus] == [True, False, True, False]


@pytest.mark.parametrize(("keys", "value"), [("157", 157), ("199", 199), ("200", 200),
                                             ("005", 5), ("011", 11), ("099", 99)])
def test_a_die_over_100_faces_is_typed_by_hundreds_tens_and_units(keys: str, value: int) -> None:
    """A D200 (the tray's 1D200, a choice of more than 100) was typed as tens and units, so
    100–199 could not be typed at all (review 3 #3). Its hundreds are 1__, 2__ … 0__, keyed
    by their digits; 000 is refused, a D200 has no 0 (dice62 N4)."""
    pressed = Keys(keys)
    assert keypad(pressed).die(RollAsk("table", 1, 200), pressed.show) == value
    hundreds = pressed.menus[0][1]
    assert [o.label for o in hundreds] == ["1__ (100–199)", "2__ (200)",
                                           *(f"{d}__" for d in range(3, 10)), "0__ (1–99)",
                                           "Back 戻る"]
    assert [p.split(", ")[1].split(":")[0] for p, _, _ in pressed.menus[:3]] == [
        "hundreds 百の位", "tens 十の位", "units 一の位"]


def test_a_d200_refuses_250_and_back_steps_back_one_place() -> None:
    pressed = Keys("25" "b" "19" "b" "99")
    assert keypad(pressed).die(RollAsk("table", 1, 200), pressed.show) == 199
    assert pressed.menus[2][2] == "25_ is not on a 1D200: type again その目はありません"
    # Back from the tens to the hundreds, and from the units to the tens, not out of the die.
    assert [p.split(", ")[1].split(":")[0] for p, _, _ in pressed.menus] == [
        "hundreds 百の位", "tens 十の位", "tens 十の位", "hundreds 百の位", "tens 十の位",
        "units 一の位", "tens 十の位", "units 一の位"]


@pytest.mark.parametrize(("sides", "keys"), [(1000, "1000"), (1000, "0999"), (1000, "0001"),
                                             (10000, "10000"), (10000, "09999")])
def test_a_d1000s_1000_can_be_typed(sides: int, keys: str) -> None:
    """A D1000 (``1D1000`` in dice.expressions) was typed in three places, so its 1000 could
    not be typed at all; 000 is no face of it (reviews70 RISK 2). It is four places, as a
    D20's 20 is two; a D10000 (the most sides an expression may have) five."""
    pressed = Keys(keys)
    assert keypad(pressed).die(RollAsk("table", 1, sides), pressed.show) == int(keys)
    assert [o.label for o in pressed.menus[0][1]][::9] == [
        f"1{'_' * (len(keys) - 1)} ({sides})", f"0{'_' * (len(keys) - 1)} (1–{sides - 1})"]


def test_a_double_press_on_a_keypad_does_not_type_the_next_digit_too() -> None:
    """Table audit (genso, coc) #1: A pressed twice 80 ms apart on the tens' "3_" typed 31,
    the second press landing on the units' first key: a hit never thrown. The menu after a
    digit ignores that button's double for 0.4 s, as after an accepted read; number keys
    typed fast are digits each."""
    from companion.app.session.controls import Controls
    from companion.hw.buttons import Button, Pick, Press
    from tests.app.session_helpers import StepClock

    clock = StepClock()
    shown: list[str] = []
    # Poll by poll (0.1 s): A on 3_, its double 0.1 s after the units show, then the
    # player's own item ×4 and A on 5 at 0.6 s.
    script: list[list[Press]] = [[], [Button.MENU], [Button.MENU], [Button.ATTACK],
                                 [], [Button.ATTACK], [Button.ITEM], [Button.ITEM],
                                 [Button.ITEM], [Button.ITEM], [Button.ATTACK]]

    class Hands:
        def poll(self) -> list[Press]:
            return script.pop(0) if script else []

    pad = Keypad(Controls([Hands()], clock=clock), 0.1, "typed 手入力", sleep=clock.sleep)
    assert pad.die(RollAsk("to hit", 1, 100), lambda p, **k: shown.append(p)) == 35
    keys = Keys("33")  # number keys: 3, then 3 at once, is 33
    assert keypad(keys).die(RollAsk("to hit", 1, 100), keys.show) == 33
    assert Pick(2) == Pick(2, tap=True)  # a tap picks what its key would


def test_number_keys_typed_within_one_poll_are_the_next_keys() -> None:
    """Review63d NIT 1: 1 then 7 typed within one poll (a fast typist's rollover, < 50 ms)
    lost the 7, and the d20 keypad waited on the units. Number keys typed ahead are the next
    place's and the next die's; not past the throw, and taps (a double tap's second lands on
    the next menu) are not carried."""
    from companion.app.session.controls import Controls
    from companion.app.session.mode import Throw
    from companion.hw.buttons import Pick, Press
    from tests.app.session_helpers import StepClock

    clock = StepClock()
    script: list[list[Press]] = []

    class Hands:
        idle = 0  # polls past the script

        def poll(self) -> list[Press]:
            self.idle = 0 if script else self.idle + 1
            assert self.idle < 50, "the keypad waits for a key no one types"
            return script.pop(0) if script else []

    def typed(ask: RollAsk, polls: list[list[Press]]) -> Throw:
        """The throw the presses type, and then, on the same keypad, 2 typed for a D6: it is
        2, whatever was typed past the throw."""
        script[:] = polls
        pad = Keypad(Controls([Hands()], clock=clock), 0.1, "typed 手入力", sleep=clock.sleep)
        thrown = pad.next_throw(ask, lambda p, **k: None)
        script[:] = [[], [Pick(1)]]
        assert pad.next_throw(RollAsk("damage", 1, 6), lambda p, **k: None) == Throw((2,))
        return thrown

    one_d20 = RollAsk("to hit", 1, 20)
    assert typed(one_d20, [[], [Pick(0), Pick(6), Pick(2)]]) == Throw((17,))
    assert typed(RollAsk("luck", 2, 100), [[], [Pick(0), Pick(6), Pick(3), Pick(1)]]) \
        == Throw((17, 42))
    # Taps: the second is not the units' 7; the key 5 typed later is.
    tap_then_key = [[], [Pick(0, tap=True), Pick(6, tap=True)], [], [], [], [], [], [Pick(4)]]
    assert typed(one_d20, tap_then_key) == Throw((15,))


class Polls:
    """Keys pressed poll by poll, whatever the screen shows."""

    def __init__(self, *polls: str) -> None:
        self.polls = [[press_for_key(key) for key in keys] for keys in polls]

    def poll(self) -> list[Any]:
        assert self.polls, "the keys ran out before the die was typed"
        return self.polls.pop(0)


@pytest.mark.parametrize(("sides", "polls", "value"), [
    (6, ("", "7", "4"), 4), (20, ("", "4", "", "2", "", "0"), 20), (4, ("", "9", "b"), None)])
def test_a_number_key_past_the_keypads_digits_is_no_back(
        sides: int, polls: tuple[str, ...], value: int | None) -> None:
    """A number key picks a digit, never Back (the last option, drawn [B]): a 7 on a 1D6's
    keypad, a 4 or a 0 on a 1D20's tens (then 1_ 2_ 0_, keyed 1–3), gave up the throw and
    the dice typed before it (review63g); a 4 on its tens (4_) is refused, not Back. B still
    goes back. (Each menu's first poll drains what came before it: "".)"""
    shown: list[object] = []
    pad = Keypad(Controls([Polls(*polls)]), 0.0, "typed 手入力", sleep=lambda s: None)
    assert pad.die(RollAsk("damage", 1, sides), lambda prompt, **kw: shown.append(kw)) == value


@pytest.mark.parametrize("sides", [1000, 10000])
def test_a_d1000_the_dice_tray_offers_is_typed_up_to_its_1000(sides: int) -> None:
    """``1D1000`` in dice.expressions is taken (up to 10,000 sides), so the tray asks the
    keypad for it: its 1000 could not be typed (reviews70 RISK 2); typed, it is the total."""
    from companion.app.config import load_config
    from companion.app.modes.dice_tray import DiceTrayMode, parse_expressions
    from companion.app.session.mode import ChoiceAsk, Throw

    config = load_config(env={}, overrides={"dice.source": "typed",
                                            "dice.expressions": f"1D{sides}"})
    assert not config.problems
    tray = DiceTrayMode(parse_expressions(config.text("dice.expressions")), "typed 手入力")
    tray.answer(0)
    ask = tray.ask()
    assert isinstance(ask, RollAsk) and (ask.count, ask.sides) == (1, sides)
    pressed = Keys(str(sides))
    tray.answer(Throw((keypad(pressed).die(ask, pressed.show),)))
    shown = tray.ask()
    assert isinstance(shown, ChoiceAsk)
    view = tray.view(shown.prompt, options=shown.options, highlight=shown.highlight)
    assert view.dice is not None and view.dice.faces == (sides,)
    assert any(f"(1D{sides}) ＞ {sides}" in line for line in view.dice.rolls), view.dice.rolls


@pytest.mark.parametrize(("sides", "key", "said"), [
    (3, "4", "4 is not on a 1D3: type again その目はありません; a D6 is typed as what it reads "
             "as, 1-2 → 1, 3-4 → 2, 5-6 → 3 (its 4: 2)"),
    (2, "6", "6 is not on a 1D2: type again その目はありません; a D6 is typed as what it reads "
             "as, 1-3 → 1, 4-6 → 2 (its 6: 2)"),
    (3, "7", "7 is not on a 1D3: type again その目はありません"),
    (6, "0", "0 is not on a 1D6: type again その目はありません")])
def test_a_number_key_past_a_small_die_s_faces_says_why(sides: int, key: str, said: str) -> None:
    """events72 NIT 5: a 4 (the D6 face) on a D3's keypad, a 7 on a D6's, left the screen
    as it was, without a word; a D20's place and the command line say why. The menu is
    shown again with the status (not guidance), and waits on: the next key types the die."""
    shown: list[dict[str, Any]] = []
    pad = Keypad(Controls([Polls("", key, "", "2")]), 0.0, "typed 手入力", sleep=lambda s: None)
    assert pad.die(RollAsk("damage", 1, sides), lambda prompt, **kw: shown.append(kw)) == 2
    assert shown[0]["status"] == "typed 手入力" and shown[-1]["status"] == said
    assert shown[-1]["guidance"] is False


def test_a_throw_typed_on_the_keypad_is_marked_typed_wherever_it_is_typed() -> None:
    """reviewe72 RISK 3: the dice tray offers Undo for a typed die only (a thrown die's
    would be a free reroll), and knew the dice typed only by `--dice typed`. A keypad's
    throw now says it was typed: a die the camera does not read (a D3 under the camera), and
    the rest of a session whose camera gave no picture. The camera's own read is not."""
    pressed = Keys("2")
    assert keypad(pressed).next_throw(RollAsk("damage", 1, 3), pressed.show).typed
    controls = Controls([pressed := Keys("3")])
    camera = CameraRolls(None, None, controls, 3.0, 0.0,  # type: ignore[arg-type]
                         sleep=lambda s: None)
    d3 = camera.next_throw(RollAsk("damage", 1, 3), pressed.show)
    assert d3 == Throw((3,)) and d3.typed
    lost = Keys("\r5")  # "Type the dice 手入力で続ける" (A), then the D6 typed
    camera = CameraRolls(None, None, Controls([lost]), 3.0, 0.0,  # type: ignore[arg-type]
                         sleep=lambda s: None)
    d6 = camera.no_camera(DeviceError("unplugged"), RollAsk("to hit", 1, 6), lost.show)
    assert d6 == Throw((5,)) and d6.typed and camera.instead is not None
    assert not Throw((5,)).typed  # a throw read or simulated
