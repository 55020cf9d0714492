"""What tests/app/test_config_show_start_checks.py, test_stop_screen_and_early_keys.py and
test_play_pins.py share: a config.toml written where the player's config is read, each
setting's line of ``config --show`` with its mark (also for test_config.py and the dice
tray's tests), and gpiozero's mock pins (dedupe71: no test module imports another).
Import ``mock_pins_fixture`` into a test module to ask for ``mock_pins`` there (named apart
so a test's argument does not shadow the import)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import gpiozero
import pytest
from gpiozero.pins.mock import MockFactory


def write_config(text: str) -> Path:
    """``text`` as the config.toml in COMPANION_CONFIG_DIR: its path."""
    folder = Path(os.environ["COMPANION_CONFIG_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def setting_lines(out: str) -> dict[str, str]:
    """Each setting's line of ``config --show``'s ``out`` by its key, ``key = value  #
    where``, a ``where`` folded below it (the line past the terminal's width) joined back
    on: its marks (refused, play stops on it) are on the setting's line either way."""
    lines: dict[str, str] = {}
    key = folded = None
    for line in out.splitlines():
        if key is not None and line.startswith("#   ^ "):
            lines[key] += f" # {line.removeprefix('#   ^ ')}"
            folded = key
        elif folded is not None and line.startswith("#     "):
            lines[folded] += f" {line.removeprefix('#     ')}"
        else:
            folded = None
            key = line.split(" = ")[0].rstrip() if line and not line.startswith("#") else None
            if key is not None:
                lines[key] = line
    return lines


@pytest.fixture(name="mock_pins")
def mock_pins_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[MockFactory]:
    """gpiozero's mock pins for every device made without a factory of its own."""
    factory = MockFactory()
    monkeypatch.setattr(gpiozero.Device, "pin_factory", factory)
    yield factory
    factory.reset()
