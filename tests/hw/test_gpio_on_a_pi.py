"""The buttons on a Raspberry Pi whose GPIO refuses them: gpiozero's own lgpio backend over
a stand-in for python3-lgpio (the Pi's kernel, as lgpio reports it)."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any

import gpiozero
import gpiozero.pins.local
import pytest

from companion.hw.buttons import ButtonPanel, ButtonPins, NoGpio, PinUnusable, ensure_gpio

PI_4 = 0xC03112  # the board revision gpiozero reads from /proc on a Pi 4 Model B


def stand_in_lgpio(busy: int | None = None, chip_opens: bool = True) -> types.ModuleType:
    """python3-lgpio with its own error type, an Exception and no GPIOZeroError, whose text
    is the repr of lgpio's message: ``busy`` is a line another program or a kernel driver
    holds; ``chip_opens=False`` is a user not (yet) in group gpio."""
    lgpio = types.ModuleType("lgpio")

    class error(Exception):  # lgpio's own name
        def __str__(self) -> str:
            return repr(self.args[0])

    def gpiochip_open(chip: int) -> int:
        if not chip_opens:
            raise error("can not open gpiochip")
        return 1

    def claim(handle: int, gpio: int, *args: Any) -> int:
        if gpio == busy:
            raise error("GPIO busy")
        return 0

    class callback:
        def __init__(self, *args: Any) -> None:
            pass

        def cancel(self) -> None:
            pass

    vars(lgpio).update(
        error=error, callback=callback, gpiochip_open=gpiochip_open,
        gpiochip_close=lambda handle: None, gpio_claim_input=claim, gpio_claim_output=claim,
        gpio_claim_alert=claim, gpio_free=lambda handle, gpio: 0,
        gpio_get_mode=lambda handle, gpio: 0, gpio_read=lambda handle, gpio: 1,
        gpio_write=lambda handle, gpio, level: 0,
        gpio_set_debounce_micros=lambda handle, gpio, micros: 0, tx_pwm=lambda *args: 0,
        SET_PULL_UP=32, SET_PULL_DOWN=64, SET_PULL_NONE=128, SET_BIAS_PULL_UP=32,
        SET_BIAS_PULL_DOWN=64, SET_BIAS_DISABLE=128, BOTH_EDGES=3, RISING_EDGE=1,
        FALLING_EDGE=2)
    return lgpio


@pytest.fixture
def on_a_pi(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """A Pi 4 as gpiozero sees it, whose only GPIO library is lgpio (the one
    install-pi.sh installs); the test puts its stand-in in ``sys.modules``."""
    monkeypatch.setattr(gpiozero.pins.local, "get_pi_revision", lambda: PI_4)
    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    # The other backends are not installed (and gpiozero's native one must not poke at
    # this machine's memory as if it were a Pi's).
    for name in ("RPi", "pigpio", "gpiozero.pins.native"):
        monkeypatch.setitem(sys.modules, name, None)
    # gpiozero's lgpio backend is imported afresh over the stand-in, and forgotten after.
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    yield monkeypatch
    if gpiozero.Device.pin_factory is not None:
        gpiozero.Device.pin_factory.close()
    sys.modules.pop("gpiozero.pins.lgpio", None)


def test_a_busy_line_is_named_by_its_part_and_the_others_are_let_go(
        on_a_pi: pytest.MonkeyPatch) -> None:
    """lgpio's own lgpio.error('GPIO busy') is no GPIOZeroError: it came out as a traceback.
    The part is named, and the buttons opened before it are closed, free for another try."""
    on_a_pi.setitem(sys.modules, "lgpio", stand_in_lgpio(busy=23))
    with pytest.raises(PinUnusable) as refused:
        ButtonPanel(ButtonPins())
    assert (refused.value.part, refused.value.pin) == ("item", 23)
    assert str(refused.value) == "GPIO23 cannot be used ('GPIO busy')"
    ButtonPanel(ButtonPins(item=5)).close()  # 17, 27 and 22 were let go


def test_a_gpio_chip_the_user_may_not_open_says_why_and_what_to_do(
        on_a_pi: pytest.MonkeyPatch) -> None:
    """Before the next login (group gpio) it said only "Unable to load any default pin
    factory!": lgpio's reason was thrown away with gpiozero's warnings."""
    on_a_pi.setitem(sys.modules, "lgpio", stand_in_lgpio(chip_opens=False))
    with pytest.raises(NoGpio) as refused:
        ensure_gpio()
    said = str(refused.value)
    assert said.startswith("the GPIO cannot be opened (lgpio: 'can not open gpiochip'): ")
    assert "bash scripts/install-pi.sh" in said and "group gpio" in said
    assert "log out and back in" in said
