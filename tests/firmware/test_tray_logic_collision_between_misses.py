"""The firmware's tray logic where mutation round 12 found no test looking, run under
CPython with simulated MFRC522 readers."""

from __future__ import annotations

from types import ModuleType

from tests.firmware.tray_logic_helpers import make_tray


def test_a_collision_between_misses_starts_the_miss_count_again(logic: ModuleType) -> None:
    """A collision read keeps the slot's tile, neither missed nor replaced: what lies there
    is not known. Misses before it and after it are not in a row, so a tile whose read
    flickers as a second tile slides over it is not reported lifted."""
    tray, readers, wire = make_tray(logic, slots=1, remove_after=3)
    readers[0].uid = bytes.fromhex("04A1B2C3")
    for step in range(2):
        tray.step(step)
    assert wire.take() == [("PLACE", ("0", "04A1B2C3"))]
    readers[0].uid = None
    for step, stacked in enumerate((False, False, True, False, False), start=2):
        readers[0].stacked = stacked
        tray.step(step)
    assert wire.take() == []
    tray.step(7)  # the third miss in a row since the collision
    assert wire.take() == [("REMOVE", ("0", "04A1B2C3"))]
