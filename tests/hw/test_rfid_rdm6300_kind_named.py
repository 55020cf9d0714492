"""rfid69: what the RDM6300 variant's maker is told.

- RISK 4: with no tray on USB, the status said "plug the tray in by USB" only: an RDM6300
  on the Pi's serial pins, whose kind was never set, is named with the setting and the
  options that choose it.
- NIT 5: a silent RDM6300 port read "RDM6300 on /dev/serial0 (draw slot)", as for one
  that reads, while nothing wired, a loose TX and a Pi 5's debug header are silent too:
  until the first frame it says no tag was read yet, and what to check.
"""

from __future__ import annotations

from companion.hw.rfid.rdm6300 import Rdm6300Reader, frame
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import TrayReader
from tests.hw.rfid_tray_helpers import TtyPort


def test_no_tray_found_names_the_rdm6300_kind() -> None:
    tray = TrayReader(lambda: None, TagMap())  # no tray among the USB ports
    tray.poll_events()
    said = tray.status().message
    assert said.startswith("no tray found: plug the tray in by USB"), said
    assert ('an RDM6300 on the Pi\'s serial pins needs input.rfid_kind = "rdm6300" '
            "(--kind rdm6300 for rfid monitor and calibrate rfid, --rfid-kind rdm6300 for "
            "play)") in said, said


def test_a_silent_rdm6300_port_says_no_tag_read_yet_until_the_first_frame() -> None:
    now = [0.0]
    port = TtyPort()
    reader = Rdm6300Reader("/dev/serial0", TagMap(), clock=lambda: now[0],
                           opener=lambda device, baud: port)
    for now[0] in (0.0, 2.0, 5.0):  # open, proven, silent still
        reader.poll_events()
        status = reader.status()
        assert status.ok, status  # a tag not laid yet is no fault
        assert status.message == (
            "RDM6300 port /dev/serial0 open, no tag read yet: lay a tile on it (nothing in "
            "a few seconds? hardware/wiring.md, RDM6300) タグ未読: 牌を置いて"), status
    port.waiting += frame("0F00A1B2C3")
    reader.poll_events()
    status = reader.status()
    assert status.ok and status.message == "RDM6300 on /dev/serial0 (draw slot)", status
    now[0] = 9.0  # the tag lifted long ago: the port has read, so it is not in doubt
    reader.poll_events()
    assert reader.status().message == "RDM6300 on /dev/serial0 (draw slot)"
    reader.close()
