"""Fixtures of the hardware adapters' tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import serial


@pytest.fixture
def wire() -> Iterator[serial.Serial]:
    """The tray's end of the line (pyserial's ``loop://``): bytes written to it are what the
    tray said."""
    port = serial.serial_for_url("loop://", timeout=0)
    yield port
    port.close()
