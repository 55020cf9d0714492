"""reviewr69b's findings on a tray reader on a UART: a tray user who named a silent UART by
mistake was sent to the rdm6300 kind, which a map of tray stickers refuses (RISK 1); a
link's own name made it a UART (NIT 2); every ttyS* was "the Pi's pins" (NIT 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader, is_a_uart
from companion.systems.jongrogue.tiles import Tile
from tests.hw.rfid_tray_helpers import TtyPort
from tests.hw.rfid_uart_helpers import no_hello

TRAY_ONLY = {"04A1B2C3": Tile.from_notation("2m")}
MIXED = {"04A1B2C3": Tile.from_notation("2m"), "0F00A1B2C3": Tile.from_notation("1m")}
JUNK = b"\xf8\x80\x00\xfe" * 10  # an RDM6300 at 9600 baud, read at the tray's 115200


def test_a_silent_uart_with_a_map_of_tray_stickers_is_no_rdm6300() -> None:
    """RISK 1: the tray's sticker enrolled, the port set to the Pi's silent serial0 by
    mistake: the resume took --rfid-kind rdm6300, which play refuses of a map of tray
    stickers, whose way on, --rfid-kind tray, led back here. The port is what is wrong:
    the message names the tray's way out, and the kind is not taken for rdm6300."""
    reader = no_hello("/dev/serial0", b"", TagMap(dict(TRAY_ONLY)))
    message = reader.status().message
    assert "no hello from /dev/serial0: it is a serial UART" in message, message
    assert ("for the tray, give its USB port (/dev/ttyACM*; `companion rfid list`), or no "
            "port at all (input.rfid_port empty, no --rfid-port or --port), so it is found"
            in message), message
    assert "an RDM6300 there needs the rdm6300 kind" in message, message  # one may be wired
    assert not reader.found_an_rdm6300()
    reader.close()
    assert not reader.found_an_rdm6300()


@pytest.mark.parametrize(("sent", "tags"), [(JUNK, TRAY_ONLY), (b"", MIXED), (JUNK, MIXED)],
                         ids=["bytes, tray map", "silent, RDM6300 IDs", "bytes, RDM6300 IDs"])
def test_a_uart_with_bytes_or_rdm6300_ids_enrolled_is_an_rdm6300(
        sent: bytes, tags: dict[str, Tile]) -> None:
    """Bytes that are no tray line on a UART are an RDM6300 at the wrong speed, and a map
    with its IDs says one is in use: those keep reviewr69 RISK 3's rdm6300 resume."""
    reader = no_hello("/dev/ttyAMA0", sent, TagMap(dict(tags)))
    assert "/dev/ttyACM*" in reader.status().message
    assert reader.found_an_rdm6300()


def test_a_later_silent_handshake_keeps_the_rdm6300_found() -> None:
    """Sticky, as on a USB port: the tag lifted, the next handshake is silent."""
    now = [0.0]
    port = TtyPort()
    reader = TrayReader("/dev/serial0", TagMap(dict(TRAY_ONLY)), clock=lambda: now[0],
                        opener=lambda name, baud: port)
    reader.poll_events()
    port.waiting += JUNK
    reader.poll_events()
    for later in (3.5, 7.0, 20.0, 40.0):
        now[0] = later
        reader.poll_events()
        assert reader.found_an_rdm6300(), later


def test_every_uart_is_not_said_to_be_the_pis_pins() -> None:
    """NIT 3: a PC's /dev/ttyS0 is no Pi's pins."""
    message = no_hello("/dev/ttyS0", b"", TagMap(dict(MIXED))).status().message
    assert "it is a serial UART (such as the Pi's pins), never the tray" in message, message


def test_a_links_own_name_makes_no_uart(tmp_path: Path) -> None:
    """NIT 2: a link named serial1 (a udev rule's SYMLINK+="serial1") to the tray's
    ttyACM0 was a UART, and the tray on it "never the tray"."""
    link = tmp_path / "serial1"
    link.symlink_to("/dev/ttyACM0")
    assert not is_a_uart(str(link))
    to_a_uart = tmp_path / "reader"
    to_a_uart.symlink_to("/dev/ttyAMA0")
    assert is_a_uart(str(to_a_uart))


def test_usb_ports_are_no_uarts(tmp_path: Path) -> None:
    """Guards: a /dev/serial/by-id link to the tray's ttyACM0, and a USB serial adapter."""
    by_id = tmp_path / "usb-MicroPython_Board_in_FS_mode_e6614103e7-if00"
    by_id.symlink_to("/dev/ttyACM0")
    assert not is_a_uart(str(by_id))
    assert not is_a_uart("/dev/ttyUSB0")
    reader = no_hello("/dev/ttyUSB0", b"", TagMap(dict(MIXED)))
    assert "is it the tray, running our firmware?" in reader.status().message
    assert not reader.found_an_rdm6300()
