"""Mutation spot checks, round 4 (controls.py, keypad.py, system_menu.py): behaviour of the
player's hands no other test pinned; each test here fails on the slip named in it."""

from __future__ import annotations

import shlex
import sys

from companion.app.session.controls import BACK, Controls, choose, menu_press
from companion.app.session.keypad import typed_prompt
from companion.app.session.mode import RollAsk
from companion.app.session.system_menu import SystemMenu
from companion.hw.buttons import Pick
from companion.hw.display.view import Option
from tests.app.keypad_helpers import Keys, keypad
from tests.app.session_helpers import ScriptedPresses, StepClock

TWO = (Option("yes", "Yes はい"), Option("no", "No いいえ"))


def test_a_number_key_just_past_the_last_option_picks_nothing() -> None:
    """Key 3 on a menu of two options (Pick(2)) is no option: taken as one, the menu's caller
    would index past its options. (Mutant: ``index <= count``.)"""
    assert menu_press(Pick(2), 2, 0, {}) == (None, 0)
    clock = StepClock()
    controls = Controls([ScriptedPresses([[], [Pick(2)], [Pick(1)]])], clock=clock)
    assert choose(controls, lambda *a, **k: None, "Sure?", TWO, 0, 0.1, clock.sleep) == 1


def test_back_on_a_larger_dies_keypad_goes_back_one_place_only() -> None:
    """A D200 is typed hundreds, tens, units: Back at the units undoes the tens alone, and
    the hundreds typed stay. (Mutant: Back forgets every place typed.)"""
    pressed = Keys("1" "2" "b" "5" "0")
    assert keypad(pressed).die(RollAsk("damage", 1, 200), pressed.show) == 150
    assert [prompt.split(", ")[1].split(":")[0] for prompt, _, _ in pressed.menus] == [
        "hundreds 百の位", "tens 十の位", "units 一の位", "tens 十の位", "units 一の位"]


def test_a_d10_is_one_menu_of_its_faces() -> None:
    """A die of up to ten faces is one menu of its faces, 1 to 10, under the typed prompt,
    not a units keypad whose 0 means 10. (Mutant: ``sides < ONE_MENU_SIDES``.)"""
    pressed = Keys("0")
    ask = RollAsk("damage", 1, 10)
    assert keypad(pressed).die(ask, pressed.show) == 10
    prompt, options, _ = pressed.menus[0]
    assert prompt == typed_prompt(ask)
    assert [o.label for o in options] == [*map(str, range(1, 11)), BACK.label]


def _menu(command: str) -> SystemMenu:
    return SystemMenu(Controls([]), "game", 0.0, command, sleep=lambda s: None)


def test_a_shutdown_command_that_fails_is_named_by_its_last_words() -> None:
    """A failing shutdown command's last line of errors says why (systemctl's reason comes
    after its first lines). (Mutant: its first line said.)"""
    command = f"{shlex.quote(sys.executable)} -c " + shlex.quote(
        "import sys; print('Failed to power off system', file=sys.stderr); "
        "print('Access denied', file=sys.stderr); sys.exit(1)")
    assert _menu(command).power_off() == f"{command}: Access denied"


def test_a_shutdown_command_that_says_why_on_its_output_or_not_at_all_is_named() -> None:
    """A command that says why on its standard output, not its errors, is named by it; one
    that says nothing, by its exit status. (Mutant: standard error alone read.)"""
    says = f"{shlex.quote(sys.executable)} -c " + shlex.quote(
        "import sys; print('no permission to halt'); sys.exit(1)")
    assert _menu(says).power_off() == f"{says}: no permission to halt"
    silent = f"{shlex.quote(sys.executable)} -c " + shlex.quote("import sys; sys.exit(3)")
    assert _menu(silent).power_off() == f"{silent}: exit status 3"


def test_a_shutdown_command_with_an_unclosed_quote_is_a_failure_said_not_a_crash() -> None:
    """``play.shutdown_command`` is the user's text: a quote left open cannot be split into
    a command, and is said as a failure to shut down. (Mutant: ValueError not caught.)"""
    assert _menu("systemctl 'poweroff").power_off() == (
        "systemctl 'poweroff: No closing quotation")
