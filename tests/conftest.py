"""Shared fixtures. Tests reach the outside world only through the stand-ins the brief names."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

# Every test that touches pygame draws into memory, never onto a screen.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

if TYPE_CHECKING:
    from companion.hw.display.screen import ScreenDisplay


# Hypothesis builds its table of characters on its first text drawn, which on a clean clone
# of a loaded machine took long enough to fail its health check (robust59 F2); no property
# test here is about speed.
settings.register_profile("companion", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("companion")


@pytest.fixture(autouse=True)
def user_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep every test's config and data in its own temporary folder, with no setting the
    shell exported (``COMPANION_GAME_PRESET``: robust59 F4) and a terminal of 80 columns,
    which output read by the tests is written for, whatever ``COLUMNS`` the shell has (F3);
    a test of another width sets its own."""
    for name in [name for name in os.environ if name.startswith("COMPANION_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("LINES", raising=False)
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture(autouse=True)
def nobody_reads_the_stop_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """No key is ever pressed on a test's screen: the error that stops `companion play` is
    drawn there and left at once, where a player would have a minute to read it."""
    from companion.app.commands.play import telling

    monkeypatch.setattr(telling, "STOP_SHOWN_SECONDS", 0)


@pytest.fixture(scope="module")
def screen() -> Iterator[ScreenDisplay]:
    """The smallest screen the companion is made for, 800x480, that a module's texts must
    fit; a module that tries every layout has a ``screen`` of its own."""
    from companion.hw.display.screen import ScreenDisplay

    display = ScreenDisplay("800x480")
    yield display
    display.close()
