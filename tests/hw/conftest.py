"""Fixtures of the hardware adapters' tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pygame
import pygame.freetype
import pytest
import serial

from companion.hw.display.fonts import FontFile
from companion.hw.display.screen import ScreenDisplay
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader
from companion.systems.jongrogue.tiles import Tile
from tests.hw.rfid_sim_helpers import FAST, PATIENT, UID_5P, UID_7Z
from tests.hw.screen_layout_helpers import screen  # noqa: F401  (each layout, for tests/hw)


@pytest.fixture
def wire() -> Iterator[serial.Serial]:
    """The tray's end of the line (pyserial's ``loop://``): bytes written to it are what the
    tray said."""
    port = serial.serial_for_url("loop://", timeout=0)
    yield port
    port.close()


@pytest.fixture
def sim() -> Iterator[TraySimulator]:
    """The tray's firmware logic on a pseudo-terminal, stepped by the test, leaving no
    thread behind."""
    threads = threading.active_count()
    with TraySimulator(heartbeat_ms=50) as simulator:
        yield simulator
    assert threading.active_count() == threads


@pytest.fixture
def tag_map() -> TagMap:
    return TagMap({UID_5P: Tile.from_notation("5p"), UID_7Z: Tile.from_notation("7z")})


@pytest.fixture
def tray(sim: TraySimulator, tag_map: TagMap) -> Iterator[TrayReader]:
    """The host's driver of ``sim``, which a test unplugs and replugs, closed at the end."""
    reader = TrayReader(lambda: sim.port if sim.plugged else None, tag_map, settings=FAST)
    yield reader
    reader.close()
    assert not reader.link.is_open


@pytest.fixture
def patient_tray(sim: TraySimulator, tag_map: TagMap) -> Iterator[TrayReader]:
    """``tray`` with timeouts no stall reaches (``PATIENT``), for a test that feeds the host
    lines by hand and is not about timeouts."""
    reader = TrayReader(lambda: sim.port if sim.plugged else None, tag_map, settings=PATIENT)
    yield reader
    reader.close()
    assert not reader.link.is_open


@pytest.fixture(params=["found font", "pygame's font"])
def display(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    """The screen with the Japanese font found (if any), or with pygame's, which has none."""
    plain = FontFile(Path(pygame.__file__).parent / pygame.freetype.get_default_font())
    shown = ScreenDisplay("800x480", font=plain if request.param == "pygame's font" else None,
                          find_font=request.param == "found font")
    yield shown
    shown.close()
