"""reviewk71's findings on the key and config fixes: a missing ``display.font`` alone still
lets the A button end its stop screen (DEFECT 1)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import gpiozero
import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.cli import main
from companion.hw.buttons import ButtonPins
from companion.hw.display.view import View


@pytest.fixture
def mock_pins(monkeypatch: pytest.MonkeyPatch) -> Iterator[MockFactory]:
    """gpiozero's mock pins for every device made without a factory of its own."""
    factory = MockFactory()
    monkeypatch.setattr(gpiozero.Device, "pin_factory", factory)
    yield factory
    factory.reset()


def write_config(text: str) -> Path:
    folder = Path(os.environ["COMPANION_CONFIG_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_a_button_ends_the_stop_screen_of_a_missing_font(
        mock_pins: MockFactory, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The font's refusal was raised before the buttons were opened, so the stop screen
    read only the screen's own keys: its OK 了解 waited a minute for an A that did nothing.
    The buttons are opened first again; only a pin clash or a hold time stops before."""
    from companion.app.commands.play import telling
    from companion.hw.display.screen import ScreenDisplay

    path = write_config('[display]\nkind = "screen"\nfont = "none.ttf"\n'
                        '[choices]\nkind = "gpio"\n')
    # Long enough that the stop ended by its time is told from one ended by the press.
    monkeypatch.setattr(telling, "STOP_SHOWN_SECONDS", 8.0)
    attack = mock_pins.pin(ButtonPins().attack)
    prompts: list[str] = []

    def press_a() -> None:
        time.sleep(0.3)  # the player reads the screen, then presses A
        attack.drive_low()
        time.sleep(0.15)
        attack.drive_high()

    draw = ScreenDisplay.show

    def show(screen: ScreenDisplay, view: View) -> None:
        draw(screen, view)
        prompts.append(view.prompt)
        if view.prompt.startswith("Stopped 停止") and len(prompts) == 1:
            threading.Thread(target=press_a, daemon=True).start()

    monkeypatch.setattr(ScreenDisplay, "show", show)
    started = time.monotonic()
    assert main(["play", "--mode", "dice", "--dice", "sim"]) == 2
    took = time.monotonic() - started
    err = capsys.readouterr().err
    assert (f"companion: error: display.font ({path}): {path.parent / 'none.ttf'}: no such "
            "file" in err)
    assert "press A there, or Ctrl-C here to end it" in err
    assert prompts[0].startswith("Stopped 停止: display.font")
    assert took < 5.0, f"the A press did not end the stop screen ({took:.1f} s)"
