"""A run stopped under the boot service, its stop held 30 s (review62e's tests and
tests/hw/test_screen_sizes_nits; tidy72c: no test module imports another)."""

from __future__ import annotations

import pytest

from companion.app.commands.play import telling
from companion.app.session.controls import Controls
from companion.app.session.system_menu import SystemMenu
from companion.hw.buttons import Press
from tests.app.boot_stop_clock_helpers import FakeClock
from tests.app.table import PlayerAtTheScreen

SYSTEM = "System 設定"
HELD = "Stopped 停止, starting again shortly 間もなく再起動: camera unplugged"
SERVICE = "jongrogue-companion"


def stopped_under_the_service(
        script: list[tuple[str, str | Press]],
        monkeypatch: pytest.MonkeyPatch) -> tuple[PlayerAtTheScreen, FakeClock]:
    """The stop shown 4 s after the run's start under the boot service, with the System
    menu, ``script`` played at it; the screen and the clock after."""
    clock = FakeClock(1000.0)
    monkeypatch.setattr(telling, "time", clock)
    monkeypatch.setattr(telling, "STARTED", 1000.0 - 4.0)
    monkeypatch.setattr(telling, "STOP_SHOWN_SECONDS", 60.0)
    monkeypatch.setenv("COMPANION_SERVICE", SERVICE)
    screen = PlayerAtTheScreen(script, idle_after=True)
    controls = Controls([screen])
    menu = SystemMenu(controls, "game", 0.05, "", sleep=clock.sleep, clock=clock.monotonic,
                      service=SERVICE)
    telling.show_stop("camera unplugged", screen, controls, menu)
    return screen, clock
