"""reviewr69 RISK 3: the tray reader on a Pi's UART. The tray speaks USB only, so a UART is
never it; an RDM6300 there sends at 9600 baud, read at the tray's 115200 as bytes that are
no frame (or nothing, no tag laid), so only the port's name tells the kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import is_a_uart
from companion.systems.jongrogue.tiles import Tile
from tests.hw.rfid_uart_helpers import no_hello

KIND_OPTIONS = ('the rdm6300 kind (input.rfid_kind = "rdm6300"; --rfid-kind rdm6300 for '
                "play, --kind rdm6300 for rfid monitor and calibrate rfid)")


@pytest.mark.parametrize("device", ["/dev/serial0", "/dev/ttyAMA0", "/dev/ttyAMA10",
                                    "/dev/ttyS0"])
@pytest.mark.parametrize("sent", [b"", b"\xf8\x80\x00\xfe" * 10], ids=["silent", "9600 baud"])
def test_the_tray_kind_on_a_uart_is_the_wrong_kind(device: str, sent: bytes) -> None:
    """It was "no hello from /dev/serial0: is it the tray, running our firmware?" (silent)
    or "… an RDM6300 there needs …; else it is another device" (bytes), and the resume
    repeated --rfid-kind tray. An RDM6300's ID is enrolled: silent, a UART is taken for
    one only so (reviewr69b RISK 1, tests/hw/test_rfid_silent_uart_and_uart_names.py)."""
    reader = no_hello(device, sent, TagMap({"0F00A1B2C3": Tile.from_notation("1m")}))
    message = reader.status().message
    assert f"{device}" in message and "never the tray, which speaks USB only" in message, \
        message
    assert f"an RDM6300 there needs {KIND_OPTIONS}" in message, message
    assert "another device" not in message and "running our firmware" not in message, message
    assert reader.found_an_rdm6300()  # the resume takes --rfid-kind rdm6300
    reader.close()
    assert reader.found_an_rdm6300()


def test_a_symlink_to_a_uart_is_one(tmp_path: Path) -> None:
    link = tmp_path / "reader"
    link.symlink_to("/dev/ttyAMA0")  # /dev/serial0 is such a link
    assert is_a_uart(str(link))
    assert not is_a_uart("/dev/ttyACM0") and not is_a_uart("loop://")
    assert not is_a_uart(None) and not is_a_uart("/dev/pts/3")


def test_a_silent_usb_port_is_still_asked_about() -> None:
    """Not a UART (the tray's own name): silence says nothing of the kind."""
    reader = no_hello("/dev/ttyACM0", b"")
    assert "is it the tray, running our firmware?" in reader.status().message
    assert not reader.found_an_rdm6300()
