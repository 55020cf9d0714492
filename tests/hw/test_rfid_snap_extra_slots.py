"""rfid71 NIT 2: a SNAP with more fields than the host has slots (a tray built or flashed
for six readers): a sticker on a slot the host has no name for is counted as
``unknown_slot`` and named in the status, as a PLACE there is (firmware/PROTOCOL.md, host
behaviour item 4); an empty one is nothing ignored."""

from __future__ import annotations

from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader
from tests.hw.rfid_tray_helpers import TtyPort


def six_slot_tray(*snapshot: str) -> TrayReader:
    port = TtyPort()
    tray = TrayReader("/dev/ttyACM0", TagMap(), clock=lambda: 0.0,
                      opener=lambda device, baud: port)
    tray.poll_events()
    port.waiting += encode(0, Kind.HELLO, "1.3.3", "6") + encode(1, Kind.SNAP, *snapshot)
    tray.poll_events()
    return tray


def test_a_sticker_in_a_snapshot_field_past_the_hosts_slots_is_counted_and_named() -> None:
    status = six_slot_tray("-", "-", "-", "-", "-", "04A1B2C3").status()
    assert status.ok
    assert status.counters["unknown_slot"] == 1
    assert status.message.endswith("; ignored 1 line about slot numbers past 4, "
                                   "the companion's last slot")


def test_an_empty_field_past_the_hosts_slots_is_nothing_ignored() -> None:
    status = six_slot_tray(*"------").status()
    assert status.ok and status.counters["unknown_slot"] == 0
    assert "ignored" not in status.message
