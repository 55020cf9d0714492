"""On a Pi with the real tray plugged in (``pytest -m hardware``): handshake and a live tile."""

from __future__ import annotations

import time

import pytest

from companion.hw.rfid.link import find_usb_port
from companion.hw.rfid.tray import TRAY_PID, TRAY_VID, TrayReader


@pytest.mark.hardware
def test_the_plugged_in_tray_says_hello_and_reports_a_placed_tile() -> None:
    port = find_usb_port(TRAY_VID, TRAY_PID)
    if port is None:
        pytest.skip("no tray (USB 2E8A:0005) plugged in")
    tray = TrayReader(port)
    try:
        deadline = time.monotonic() + 3
        while not tray.status().ok and time.monotonic() < deadline:
            tray.poll_events()
            tray.wait(0.05)
        assert tray.status().ok, tray.status().message
        print("Place any stickered tile on the draw slot within 10 s")
        deadline = time.monotonic() + 10
        events = []
        while not events and time.monotonic() < deadline:
            tray.wait(0.05)
            events = tray.poll_events()
        assert events, "no tag event in 10 s"
    finally:
        tray.close()
