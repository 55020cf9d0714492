"""The buttons opened for the Stopped screen of a pin clash: only those whose pins clash stay
shut (reviews72 RISK 2: an LED/buzzer clash shut all four, and the screen still offered A),
and the reason no button opened comes after what closes the screen (reviews72 NIT 3). A
pin another program holds ('GPIO busy') shuts its button alone likewise (screen74 DEFECT 1:
the whole panel failed, and the stop still offered [A] OK)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import gpiozero
import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.cli import main
from companion.app.commands.config import start_problems
from companion.app.commands.play import press_sources
from companion.app.config import load_config
from companion.hw.buttons import Button, ButtonPanel, ButtonPins, NoGpio
from companion.hw.display.view import View
from tests.app.config_and_pins_helpers import (  # noqa: F401 (mock_pins_fixture: asked for by name)
    mock_pins_fixture,
    write_config,
)


def play_stopped(monkeypatch: pytest.MonkeyPatch, config: str, pin: int | None,
                 free: tuple[int, ...], code: int = 2) -> tuple[list[View], float]:
    """``play`` stopped by the buttons of ``config`` on the screen (shown up to 8 s), the
    button on ``pin`` pressed once the Stopped screen is drawn (None: none pressed), and
    each pin of ``free`` checked unopened while it shows (opened here and let go), the run
    ending with ``code``: the views drawn and how long the run took."""
    from companion.app.commands.play import telling
    from companion.hw.display.screen import ScreenDisplay

    write_config('[display]\nkind = "screen"\n[choices]\nkind = "gpio"\n' + config)
    monkeypatch.setattr(telling, "STOP_SHOWN_SECONDS", 8.0 if pin is not None else 0.3)
    views: list[View] = []
    held: list[int] = []  # pins of ``free`` the stop had opened
    factory = gpiozero.Device.pin_factory
    assert isinstance(factory, MockFactory)

    def press() -> None:
        assert pin is not None
        time.sleep(0.3)
        factory.pin(pin).drive_low()
        time.sleep(0.15)
        factory.pin(pin).drive_high()

    draw = ScreenDisplay.show

    def show(screen: ScreenDisplay, view: View) -> None:
        draw(screen, view)
        views.append(view)
        if len(views) == 1:
            for free_pin in free:
                try:
                    gpiozero.OutputDevice(free_pin).close()
                except gpiozero.GPIOPinInUse:
                    held.append(free_pin)
            if pin is not None:
                threading.Thread(target=press, daemon=True).start()

    monkeypatch.setattr(ScreenDisplay, "show", show)
    started = time.monotonic()
    assert main(["play", "--input", "sim"]) == code
    assert held == [], f"pins opened for the stop though shared: {held}"
    return views, time.monotonic() - started


def test_an_led_and_buzzer_clash_leaves_the_buttons_open_and_a_ends_the_stop(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The four buttons' pins are sound: A ends the stop, as the [A] OK 了解 box says. The
    LED and buzzer, whose pin is shared, are not opened for it."""
    views, took = play_stopped(monkeypatch, "[buttons]\nled_pin = 24\nbuzzer_pin = 24\n",
                               ButtonPins().attack, (24,))
    err = capsys.readouterr().err
    assert "are both GPIO24; give each part its own pin" in views[0].prompt
    assert "off until this is mended" not in views[0].prompt
    assert [o.button for o in views[0].options] == [Button.ATTACK]
    assert "press A there, or Ctrl-C here to end it" in err
    assert took < 5.0, f"the A press did not end the stop screen ({took:.1f} s)"


def test_a_clash_of_a_shuts_a_alone_and_the_screen_names_the_button_that_ends_it(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A and B on GPIO27 stay shut; R and I, on pins of their own, are opened, and R ends
    the stop, as the screen says."""
    views, took = play_stopped(monkeypatch, "[buttons]\nattack_pin = 27\n",
                               ButtonPins().ranged, (27,))
    assert "are both GPIO27; give each part its own pin" in views[0].prompt
    assert views[0].prompt.endswith(
        "The A button is off until this is mended: press R to close this screen, or this "
        "screen closes by itself within a minute 1分で閉じます")
    # The OK box is keyed R, the button that ends it, not A (no highlight, which A takes).
    assert [o.button for o in views[0].options] == [Button.RANGED]
    assert views[0].highlight is None
    assert "the A button off: press R there (or tap OK)" in capsys.readouterr().err
    assert took < 5.0, f"the R press did not end the stop screen ({took:.1f} s)"


def test_with_every_button_in_a_clash_none_is_opened(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each button shares its pin: none is opened, the screen closes by itself, and its OK
    box is keyed by no button."""
    views, _ = play_stopped(
        monkeypatch, "[buttons]\nattack_pin = 27\nranged_pin = 23\n", None, (27, 23))
    assert views[0].prompt.endswith("The buttons are off until this is mended: this screen "
                                    "closes by itself within a minute 1分で閉じます")
    # No [A] under "the buttons are off": the box is tapped (or its key 1 typed).
    (ok,) = views[0].options
    assert ok.button is None and views[0].highlight is None and ok.label == "Tap OK 了解"


def test_the_closing_is_said_before_why_the_buttons_would_not_open(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No GPIO for a hold time's stop: "this screen closes by itself" came after some 400
    characters of install advice, and was cut at text_scale 1.25."""
    write_config('[display]\nkind = "screen"\n[choices]\nkind = "gpio"\n'
                 '[buttons]\nlong_press_seconds = 2.0\nsystem_press_seconds = 1.5\n')

    def no_gpio(*args: object, **kwargs: object) -> ButtonPanel:
        raise NoGpio("no GPIO here: this is not a Raspberry Pi")

    monkeypatch.setattr(press_sources, "ButtonPanel", no_gpio)
    config = load_config()
    problems = [problem for _, problem in start_problems(config)]
    display = object()
    sources, refusal = press_sources.stop_sources(config, display, problems)  # type: ignore[arg-type]
    assert sources == [display]
    assert isinstance(refusal, press_sources.ButtonsOff) and refusal.ends is None
    said = str(refusal)
    closes = ". The buttons are off: this screen closes by itself within a minute 1分で閉じます "
    assert closes in said
    assert said.index(closes) < said.index("the buttons cannot be used: no GPIO here")


def test_a_panel_leaves_its_shut_buttons_unopened(mock_pins: MockFactory) -> None:
    """``shut`` buttons' pins are not touched; the others press as ever."""
    pins = ButtonPins()
    panel = ButtonPanel(pins, shut=(Button.ATTACK, Button.FLEE), bounce_time=None)
    try:
        assert set(panel.devices) == {Button.RANGED, Button.ITEM}
        gpiozero.OutputDevice(pins.attack).close()  # free: never opened
        mock_pins.pin(pins.ranged).drive_low()
        assert panel.poll() == [Button.RANGED]
    finally:
        panel.close()


@pytest.fixture(name="busy")
def busy_fixture(mock_pins: MockFactory) -> Iterator[Callable[..., None]]:
    """Hold pins as another program would (a gpiozero LED on each, lgpio's 'GPIO busy' on a
    Pi), let go after the test."""
    squatters: list[gpiozero.LED] = []
    yield lambda *pins: squatters.extend(gpiozero.LED(pin) for pin in pins)
    for squatter in squatters:
        squatter.close()


def test_a_busy_item_pin_leaves_a_open_and_a_ends_the_stop(
        busy: Callable[..., None], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The item pin held: the stop names it, and A, its pin free, ends the stop as its
    [A] OK and stderr say (it waited the minute out: no button had been opened)."""
    pins = ButtonPins()
    busy(pins.item)
    views, took = play_stopped(monkeypatch, "", pins.attack, (), code=1)
    assert views[0].prompt.startswith(
        "Stopped 停止: buttons.item_pin (built in): GPIO23 cannot be used (pin GPIO23 is "
        "already in use by ")
    assert [o.button for o in views[0].options] == [Button.ATTACK]
    assert "press A there, or Ctrl-C here to end it" in capsys.readouterr().err
    assert took < 5.0, f"the A press did not end the stop screen ({took:.1f} s)"


def test_a_busy_a_pin_keys_the_stop_by_b(
        busy: Callable[..., None], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A's pin held: B ends the stop, and the screen and stderr name B, not A."""
    pins = ButtonPins()
    busy(pins.attack)
    views, took = play_stopped(monkeypatch, "", pins.flee, (), code=1)
    said = views[0].prompt
    assert said.startswith("Stopped 停止: buttons.attack_pin (built in): GPIO17 cannot be used")
    assert ("The A button is off until this is mended: press B to close this screen, or this "
            "screen closes by itself within a minute 1分で閉じます (a game already running "
            "holds it") in said
    assert [o.button for o in views[0].options] == [Button.FLEE]
    assert views[0].highlight is None
    err = capsys.readouterr().err
    assert "the A button off: press B there (or tap OK)" in err
    assert "press A there" not in err
    assert took < 5.0, f"the B press did not end the stop screen ({took:.1f} s)"


def test_with_every_button_pin_busy_the_stop_is_tapped(
        busy: Callable[..., None], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """All four pins held (another companion has them): the stop names each, says the
    buttons are off and it closes by itself, and its OK is tapped."""
    pins = ButtonPins()
    busy(pins.attack, pins.flee, pins.ranged, pins.item)
    views, _ = play_stopped(monkeypatch, "", None, (), code=1)
    said = views[0].prompt
    for part, pin in (("attack", 17), ("flee", 27), ("ranged", 22), ("item", 23)):
        assert f"buttons.{part}_pin (built in): GPIO{pin} cannot be used" in said
    assert ("The buttons are off until this is mended: this screen closes by itself within "
            "a minute 1分で閉じます (a game already running holds them") in said
    (ok,) = views[0].options
    assert ok.button is None and views[0].highlight is None and ok.label == "Tap OK 了解"
    err = capsys.readouterr().err
    assert "the buttons off: tap OK there" in err and "press A there" not in err


def test_a_clash_and_a_busy_pin_shut_both_buttons_and_the_rest_end_the_stop(
        busy: Callable[..., None], monkeypatch: pytest.MonkeyPatch) -> None:
    """A clash of A and B, and R's pin held: I alone ends the stop, and both are said."""
    busy(ButtonPins().ranged)
    views, took = play_stopped(monkeypatch, "[buttons]\nattack_pin = 27\n",
                               ButtonPins().item, (27,))
    said = views[0].prompt
    assert "are both GPIO27; give each part its own pin" in said
    assert "press I to close this screen" in said
    assert "buttons.ranged_pin (built in): GPIO22 cannot be used" in said
    assert [o.button for o in views[0].options] == [Button.ITEM]
    assert took < 5.0, f"the I press did not end the stop screen ({took:.1f} s)"


#: The hint a device error off a Pi gets (session.no_hardware_hint).
LAPTOP = "no camera, buttons or screen here (a laptop)?"


@pytest.mark.parametrize("held", ["item", "attack", "all"])
def test_a_busy_pin_gets_no_laptop_hint(
        held: str, busy: Callable[..., None], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A pin another program holds is a Pi's, its buttons there: "no camera, buttons or
    screen here (a laptop)?" followed its error on stderr, and pointed at a game with
    the keys that the busy pin does not call for (reviewscreen74 NIT 3; as the tray's
    refusal with no sticker enrolled gets none, b4c0f609)."""
    pins = ButtonPins()
    holds = {"item": (pins.item,), "attack": (pins.attack,),
             "all": (pins.attack, pins.flee, pins.ranged, pins.item)}[held]
    busy(*holds)
    ends = {"item": pins.attack, "attack": pins.flee, "all": None}[held]
    capsys.readouterr()
    play_stopped(monkeypatch, "", ends, (), code=1)
    err = capsys.readouterr().err
    assert "cannot be used" in err
    assert LAPTOP not in err, err


def test_a_busy_pin_at_a_terminal_gets_no_laptop_hint(
        busy: Callable[..., None], capsys: pytest.CaptureFixture[str]) -> None:
    """With the terminal for a display the busy pin stops the run at once, its error alone."""
    busy(ButtonPins().item)
    write_config('[display]\nkind = "terminal"\n[choices]\nkind = "gpio"\n')
    capsys.readouterr()
    assert main(["play", "--input", "sim"]) == 1
    err = capsys.readouterr().err
    assert "buttons.item_pin (built in): GPIO23 cannot be used" in err
    assert LAPTOP not in err, err
