"""The firmware's tray logic where mutation round 11 found no test looking, run under
CPython with simulated MFRC522 readers."""

from __future__ import annotations

from types import ModuleType

from tests.firmware.tray_logic_helpers import make_tray


def test_reader_faults_that_are_not_in_a_row_do_not_put_it_down(logic: ModuleType) -> None:
    """A reader is down after ``fail_after`` faults in a row; a good read between them
    starts the count again. Were scattered faults added up, a flaky cable would put the slot
    down: it would read '?' and the status say its reader is not answering, though it reads."""
    tray, readers, wire = make_tray(logic, slots=1, fail_after=3)
    readers[0].uid = bytes.fromhex("04A1B2C3")
    for step in range(4 * tray.fail_after):
        readers[0].broken = step % 2 == 0  # a fault every other poll, never two in a row
        tray.step(step)
    assert wire.take() == [("PLACE", ("0", "04A1B2C3"))]
    tray.snapshot(100)
    assert wire.take() == [("SNAP", ("04A1B2C3",))]
