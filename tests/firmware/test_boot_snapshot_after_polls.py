"""The tray's power-up snapshot holds what lies on it (audit hw61 R1).

A USB replug cuts the tray's power, so main.py starts afresh with the tiles still lying
there. Its first SNAP used to come before any poll and said "-" for every slot: the host
saw each tile removed and placed again, and a game started then took a lying tile for a
fresh one.
"""

from __future__ import annotations

from types import ModuleType

from tests.firmware.tray_logic_helpers import make_tray, run


def test_boot_polls_every_reader_before_its_snapshot(logic: ModuleType) -> None:
    tray, readers, wire = make_tray(logic, slots=4)
    readers[0].uid = bytes.fromhex("04a1b2c3")
    readers[2].uid = bytes.fromhex("04112233445566")
    readers[3].broken = True
    tray.boot(0)
    assert wire.take() == [("HELLO", ("1.0.0", "4")),
                           ("SNAP", ("04A1B2C3", "-", "04112233445566", "?"))]
    run(tray, 40)
    assert wire.take() == []  # no PLACE, no READER_DOWN after it: the snapshot said it


def test_a_stack_lying_at_power_up_follows_the_snapshot(logic: ModuleType) -> None:
    tray, readers, wire = make_tray(logic, slots=2)
    readers[1].stacked = True
    tray.boot(0)
    assert wire.take() == [("HELLO", ("1.0.0", "2")), ("SNAP", ("-", "-")),
                           ("ERR", ("COLLISION", "1"))]


def test_the_boot_lines_are_numbered_from_zero(logic: ModuleType) -> None:
    """The quiet polls send nothing, so they use up no sequence numbers either."""
    tray, readers, wire = make_tray(logic, slots=2)
    readers[0].uid = bytes.fromhex("04a1b2c3")
    tray.boot(0)
    assert [m.seq for m in wire.messages] == [0, 1]
