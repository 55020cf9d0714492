"""`companion play --choices gpio` checks its pins: the ones hardware/wiring.md says to avoid
are warned about, not refused."""

from __future__ import annotations

import pytest

from companion.app.commands.play import check_pins
from companion.app.config import load_config


@pytest.mark.parametrize(("pin", "why"), [(14, "the serial console's TXD"),
                                          (2, "I²C SDA, with a fixed pull-up on the board"),
                                          (0, "the HAT ID EEPROM's data line (ID_SD)")])
def test_pins_to_avoid_are_warned_about_and_allowed(
    pin: int, why: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COMPANION_BUTTONS_ATTACK_PIN", str(pin))
    check_pins(load_config())  # no error: the player may have freed the pin
    assert capsys.readouterr().err == (f"companion: warning: buttons.attack_pin is GPIO{pin}, "
                                       f"{why}; hardware/wiring.md says to avoid it\n")


def test_the_default_pins_are_not_warned_about(capsys: pytest.CaptureFixture[str]) -> None:
    check_pins(load_config())
    assert capsys.readouterr().err == ""
