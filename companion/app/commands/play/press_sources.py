"""Where ``companion play``'s presses come from: the GPIO buttons (their pins checked
first), the keyboard, and the display's own keys and taps; and the LED and buzzer wired
beside the buttons. A GPIO part that cannot be opened is told naming its setting."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from companion.app.command_name import companion_line
from companion.app.commands.config import (
    PIN_SETTINGS,
    header_pins_warning,
    hold_problem,
    pin_check,
    said_together,
    start_problems,
)
from companion.app.config import Config, Source, load_specs
from companion.app.pin_numbers import header_pins_written
from companion.app.session.controls import PressSource
from companion.errors import CompanionError, DataError, DeviceError
from companion.hw.buttons import (
    Button,
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


def refused(problems: list[str], also: str | None = None) -> DataError:
    """The settings play stops on, as one error, and what to do: ``config --show`` lists
    them all, each on its line marked. ``also``: a warning said after them, counted as no
    problem, as ``config --show`` counts it (:func:`header_pins_also`)."""
    said = said_together(problems, "mend {}, then check with " +
                         companion_line("config", "--show"))
    return DataError(said if also is None else f"{said}; also: {also}")


def check_pins(config: Config) -> list[str]:
    """Two parts on one GPIO pin would fight: every clash refused at once
    (:class:`DataError`), each setting named with where its value came from. A pin the
    wiring guide says to avoid is allowed (the player may have freed it): the warnings are
    returned, for the settings notices on the screen, where the boot service's player
    sees them (buttons that press themselves on GPIO15 are otherwise a mystery)."""
    clashes, warnings = pin_check(config)
    if clashes:
        raise refused([problem for _, problem in clashes], header_pins_also(config, clashes))
    return warnings


def header_pins_also(config: Config,
                     problems: list[tuple[tuple[str, ...], str]]) -> str | None:
    """The warning of parts set to the header pins wiring.md wires them to
    (:func:`header_pins_warning`), a pin problem's likely cause, to say after ``problems``
    (as ``(settings, problem)``) when a pin setting is among them, else None. Play's other
    warnings are dropped when it stops, and this one went with them, though its refusal
    (the Stopped screen, all the boot service's player sees) is all play says (a77keys
    RISK 2). Not counted as a problem nor said beside a refusal with no pin in it, as
    ``config --show`` says it (r77keys NIT: "2 problems" where config --show said 1)."""
    if not any(key in PIN_SETTINGS for keys, _ in problems for key in keys):
        return None
    return header_pins_warning(config)


def held_seconds(config: Config) -> tuple[float, float]:
    """How long the item button is held for the menu, and for the System menu: the second
    must be the longer, or one of the two could never be pressed."""
    if (problem := hold_problem(config)) is not None:
        raise DataError(problem)
    return config.number("buttons.long_press_seconds"), \
        config.number("buttons.system_press_seconds")


class ButtonsOff(CompanionError):
    """What ``play`` stops on while the A button stays shut (its pin shared with another
    part or held by another program, or buttons that would not open): its Stopped screen
    says so, and that it closes by itself (screen72 DEFECT 1: it offered A, which did
    nothing). ``ends``: the button opened that ends it instead (B, R or I, pins of their
    own), None when no button is open: a tap or the screen's own keys end it (reviews72
    RISK 2). Raised as :class:`SettingButtonsOff` or :class:`BusyButtonsOff`."""

    def __init__(self, message: str, ends: Button | None = None) -> None:
        super().__init__(message)
        self.ends = ends


class PinsHeld(DeviceError):
    """Button, LED or buzzer pins another program, a HAT or an overlay holds ('GPIO busy'):
    a Pi's error, whose buttons are there (no "a laptop?" hint follows it: reviewscreen74
    NIT 3)."""


class SettingButtonsOff(ButtonsOff, DataError):
    """A setting ``play`` stops on (a pin clash, a hold time), the A button shut."""


class BusyButtonsOff(ButtonsOff, PinsHeld):
    """A button's pin another program, a HAT or an overlay holds ('GPIO busy'), the A
    button shut with it or all four: a device error, as any other pin that cannot be had."""


class PinBusy(PinsHeld):
    """:func:`gpio_parts`' error for a part whose pin cannot be had (``part``: its setting's
    name, ``attack`` … ``buzzer``); ``pin_said``: the pin and why, naming its setting."""

    def __init__(self, message: str, part: str, pin_said: str) -> None:
        super().__init__(message)
        self.part, self.pin_said = part, pin_said


#: The buttons' parts, as their settings name them (``buttons.attack_pin``).
BUTTON_PARTS = ("attack", "flee", "ranged", "item")
#: How the Stopped screen ends when no button does: said last, so it is never cut off.
CLOSES_ITSELF = "this screen closes by itself within a minute 1分で閉じます"


def a_button_unread(config: Config) -> str | None:
    """With ``choices.kind = "gpio"``, the A button set to the header pin wiring.md wires
    it to (``attack_pin = 11`` for GPIO17 [11], among two or more so set: the settings
    notice warns of them): how the Settings screen is passed instead, as it says on it.
    Its OK was pressed on A, the very button the warning says does nothing, and under the
    boot service a Pi with the buttons alone stayed there (maker75 RISK 1). None when A is
    read as set, or no buttons are used."""
    if config.text("choices.kind") != "gpio":
        return None
    written = header_pins_written({key.removeprefix("buttons.").removesuffix("_pin"):
                                   config.integer(key) for key in PIN_SETTINGS})
    if len(written) < 2 or "attack" not in {part for part, _, _ in written}:
        return None
    return ("The A button is not read until attack_pin is mended: press a on a keyboard or "
            f"tap OK to go on, or {CLOSES_ITSELF}")


def open_press_sources(config: Config, display: Display | None
                       ) -> tuple[list[PressSource], list[str], CompanionError | None]:
    """The buttons or the keyboard, plus the display's own keys and taps; the warnings
    about the buttons' pins, for the settings notices (stderr and the screen); and the
    settings ``play`` stops on, as one error to raise once the controls are made of the
    sources (None when it goes on). On the screen a button pin another program holds is
    such an error too, the buttons whose pins are free opened to end its stop."""
    # Every setting play stops on is said at once, as config --show says them, not one
    # per start (keys71 DEFECT 1). A missing display.font alone is raised by the run once
    # the controls are open: its stop screen is then ended by the A button or the keys, as
    # before (reviewk71 DEFECT 1: A did nothing for a minute).
    problems = start_problems(config)
    if any(keys != ("display.font",) for keys, _ in problems):
        stopping, refusal = stop_sources(config, display,
                                         [problem for _, problem in problems],
                                         header_pins_also(config, problems))
        return stopping, [], refusal
    sources: list[PressSource] = []
    pin_warnings: list[str] = []
    kind = config.text("choices.kind")
    if kind == "gpio":
        pin_warnings = check_pins(config)
        long_press, system_press = held_seconds(config)
        if display is None or config.text("display.kind") != "screen":
            sources.append(gpio_parts(config, partial(ButtonPanel, button_pins(config),
                                                      long_press, system_press)))
        else:
            # A pin another program holds stops the run on the screen, the buttons whose
            # pins are free opened to end it (screen74 DEFECT 1: the whole panel failed,
            # yet the stop offered [A] OK and stderr said "press A there").
            panel, busy = open_buttons(config, long_press, system_press)
            if busy:
                return [*([] if panel is None else [panel]), display], [], \
                    busy_refusal(busy, panel)
            assert panel is not None
            sources.append(panel)
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
    return sources, pin_warnings, None


def button_pins(config: Config) -> ButtonPins:
    """The four buttons' pins, as configured."""
    return ButtonPins(config.integer("buttons.attack_pin"), config.integer("buttons.flee_pin"),
                      config.integer("buttons.ranged_pin"), config.integer("buttons.item_pin"))


def clashing_buttons(config: Config) -> frozenset[Button]:
    """The buttons whose pin another part also has (:func:`pin_check`): opening them
    would make the two fight."""
    return frozenset(Button(part) for keys, _ in pin_check(config)[0] for key in keys
                     for part in BUTTON_PARTS if key == f"buttons.{part}_pin")


def stop_sources(config: Config, display: Display | None, problems: list[str],
                 also: str | None = None) -> tuple[list[PressSource], DataError]:
    """What ends the Stopped screen of the buttons' ``problems`` (a pin clash, a hold time
    that could never be pressed), and the error it shows. Under the boot service the
    screen is all the player sees, and its OK is pressed on the buttons: they are opened
    with the built-in hold times (a hold time may be what is wrong), and A ends the stop as
    for any other (screen72 DEFECT 1: nothing was opened, A did nothing for a minute, and
    the service showed it again). A button whose pin another part has would fight it: it
    alone stays shut, and the others are opened, their pins their own; the LED and buzzer
    are never opened for the stop (reviews72 RISK 2: an LED/buzzer clash shut all four).
    A pin another program holds is shut likewise (screen74 DEFECT 1), and said. With A
    shut the screen says so, and which button ends it, or that it closes by itself. No
    stop screen (a terminal, no display): nothing is opened. ``also``: said after the
    problems (:func:`refused`)."""
    sources: list[PressSource] = [] if display is None else [display]
    refusal = refused(problems, also)
    if display is None or config.text("display.kind") != "screen":
        return sources, refusal
    shut = clashing_buttons(config)
    if len(shut) == len(BUTTON_PARTS):
        return sources, SettingButtonsOff(f"{refusal}. The buttons are off until this is "
                                          f"mended: {CLOSES_ITSELF}")
    specs = load_specs()
    try:
        panel, busy = open_buttons(config, float(specs["buttons.long_press_seconds"].default),
                                   float(specs["buttons.system_press_seconds"].default), shut)
    except DeviceError as exc:
        # What closes the screen first: the reason (the GPIO install advice, some 400
        # characters) is cut at larger text, and it was said before (reviews72 NIT 3).
        return sources, SettingButtonsOff(
            f"{refusal}. The buttons are off: {CLOSES_ITSELF} ({exc})")
    # A pin another program holds is shut as a shared one is, said after what ends the stop.
    held = f" ({busy_said(busy)})" if busy else ""
    if panel is None:
        return sources, SettingButtonsOff(
            f"{refusal}. The buttons are off until this is mended: {CLOSES_ITSELF}{held}")
    if Button.ATTACK in panel.devices:
        return [panel, *sources], DataError(f"{refusal}; {busy_said(busy)}") if busy else refusal
    ends = ending_button(panel)
    return [panel, *sources], SettingButtonsOff(
        f"{refusal}. The A button is off until this is mended: press {BUTTON_LETTER[ends]} to "
        f"close this screen, or {CLOSES_ITSELF}{held}", ends)


#: The letter each button other than A is named by on the Stopped screen.
BUTTON_LETTER = {Button.FLEE: "B", Button.RANGED: "R", Button.ITEM: "I"}


def ending_button(panel: ButtonPanel) -> Button:
    """The button opened that ends a stop with A shut: the first of B, R and I opened."""
    return next(button for button in BUTTON_LETTER if button in panel.devices)


def open_buttons(config: Config, long_press: float, system_press: float,
                 shut: frozenset[Button] = frozenset()
                 ) -> tuple[ButtonPanel | None, list[PinBusy]]:
    """The buttons not ``shut``, opened as a panel (None when none is): a button whose pin
    cannot be had (another program, a HAT or an overlay holds it) is shut in turn and the
    others opened, so that one still ends the Stopped screen that names it; with the pins
    that could not be had, in the order met."""
    busy: list[PinBusy] = []
    while len(shut) < len(BUTTON_PARTS):
        try:
            return gpio_parts(config, partial(ButtonPanel, button_pins(config), long_press,
                                              system_press, shut=shut)), busy
        except PinBusy as exc:
            busy.append(exc)
            shut = shut | {Button(exc.part)}
    return None, busy


def busy_advice(count: int) -> str:
    """What to do about ``count`` pins another holds."""
    return (f"a game already running holds {'it' if count == 1 else 'them'} (the "
            "jongrogue-companion service? sudo systemctl stop jongrogue-companion), or "
            "another program, a HAT or a device-tree overlay does; choose a free pin "
            "(hardware/wiring.md), or play with --choices keyboard")


def busy_said(busy: list[PinBusy]) -> str:
    """The pins another holds, each naming its setting, and what to do."""
    return f"{'; '.join(exc.pin_said for exc in busy)}: {busy_advice(len(busy))}"


def busy_refusal(busy: list[PinBusy], panel: ButtonPanel | None) -> PinsHeld:
    """The error a run on the screen stops on when button pins are held by another: the
    busy pins named, and which button ends the stop (its OK box keyed by it), A where it
    opened; with A shut the button that did, or with none open that the screen closes by
    itself (said before the advice, which larger text cuts)."""
    if panel is not None and Button.ATTACK in panel.devices:
        return PinsHeld(busy_said(busy))
    pins = "; ".join(exc.pin_said for exc in busy)
    advice = busy_advice(len(busy))
    if panel is None:
        return BusyButtonsOff(f"{pins}. The buttons are off until this is mended: "
                              f"{CLOSES_ITSELF} ({advice})")
    ends = ending_button(panel)
    return BusyButtonsOff(
        f"{pins}. The A button is off until this is mended: press {BUTTON_LETTER[ends]} to "
        f"close this screen, or {CLOSES_ITSELF} ({advice})", ends)


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
        # The hint sets choices.kind where it was set: the environment and a flag win
        # over config.toml (a77setup DEFECT 1).
        how = config.how_to_set("choices.kind", "keyboard")
        instead = how if config.settings["choices.kind"].source is Source.COMMAND_LINE \
            else f"--choices keyboard, or set {how}"
        raise DeviceError(f"the buttons cannot be used: {exc}; without them, play with "
                          f"{instead}") from None
    except PinUnusable as exc:
        said = f"{config.where(f'buttons.{exc.part}_pin')}: {exc}"
        raise PinBusy(f"{said}: {busy_advice(1)}", exc.part, said) from None
