"""firmware/main.py's crash handling, by the addresses it gives ``machine.mem32`` (review61i
R1), under CPython with the fake ``machine``.

The watchdog's addresses are over 2**30: on MicroPython's rp2 port each one computed is a
heap long int, and stopping the watchdog by reading CTRL made another. In the handler of a
MemoryError, with the heap still full, that raised again: the watchdog kept resetting the
board and the crash was never counted.
"""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.firmware.main_helpers import (
    ENABLE,
    RP2040,
    RP2350,
    SCRATCH0,
    Clock,
    FailingLink,
    board_clock,
)

ATOMIC_CLEAR = 0x3000  # RP2040 datasheet 2.1.2, RP2350 2.1.3: the bit-clear alias


def test_each_address_is_made_once_before_the_loop(
        firmware_main: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """Within a start, every address over 2**30 given to mem32 is one object, made before
    the loop: the crash handling computes none (CPython, like MicroPython, makes a new int
    for each ``base + offset``). Two crashes reset the board; the third stays at the REPL."""
    import machine

    board_clock(monkeypatch, "Raspberry Pi Pico with RP2040")
    for start in range(3):
        machine.mem32.accesses.clear()
        try:
            firmware_main.main(FailingLink(MemoryError(), after=5),
                               firmware_main.make_readers())
        except MemoryError:
            assert start == 2
        objects: dict[int, list[int]] = {}
        for _, address, _ in machine.mem32.accesses:
            if all(address is not other for other in objects.setdefault(address, [])):
                objects[address].append(address)
        assert objects.keys() >= {RP2040 + SCRATCH0}
        assert {address: len(made) for address, made in objects.items()
                if address >= 1 << 30 and len(made) > 1} == {}, start
    assert machine.RESETS == ["reset"] * 2
    assert not machine.mem32[RP2040] & ENABLE


@pytest.mark.parametrize("machine_name, base", [
    ("Raspberry Pi Pico with RP2040", RP2040),
    ("Raspberry Pi Pico 2 with RP2350", RP2350),
    ("Raspberry Pi Pico 2 with RP2350-RISCV", RP2350),
])
def test_the_watchdog_is_stopped_by_its_clear_alias_with_no_read(
        firmware_main: ModuleType, monkeypatch: pytest.MonkeyPatch, machine_name: str,
        base: int) -> None:
    """Stopping writes ENABLE to CTRL's bit-clear alias: no read of CTRL (bit 30 set, a
    long int) and no ``~`` or ``&`` to compute (the pico-sdk's watchdog_disable)."""
    import machine

    board_clock(monkeypatch, machine_name)
    firmware_main.main(FailingLink(MemoryError(), after=5), firmware_main.make_readers())
    machine.mem32.accesses.clear()
    with pytest.raises(KeyboardInterrupt):  # mpremote's Ctrl-C: the watchdog is stopped
        firmware_main.main(FailingLink(KeyboardInterrupt(), after=5),
                           firmware_main.make_readers())
    ctrl = [access for access in machine.mem32.accesses
            if access[1] in (base, base + ATOMIC_CLEAR)]
    assert ctrl == [("write", base + ATOMIC_CLEAR, ENABLE)]
    assert ctrl[0][2] is firmware_main.WATCHDOG_ENABLE  # the import's, not one made anew
    assert not dict.__getitem__(machine.mem32, base) & ENABLE


def test_a_crash_whose_handling_cannot_stop_the_watchdog_shows_the_crash(
        firmware_main: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """N1: the handling's own error (here, stopping the watchdog) is not what the REPL
    shows: the crash is, as ERR CRASH told the host."""
    import machine

    clock: Clock = board_clock(monkeypatch, "Raspberry Pi Pico with RP2040")

    class Unwritable(machine.Registers):  # type: ignore[name-defined,misc]
        def __setitem__(self, address: int, word: int) -> None:
            if address == RP2040 + ATOMIC_CLEAR:
                raise MemoryError("the handler's own")
            super().__setitem__(address, word)

    monkeypatch.setattr(machine, "mem32", Unwritable())
    machine.mem32[RP2040 + SCRATCH0] = 0x4A52_02  # two crashes in a row before this one
    link = FailingLink(ValueError("a bug"), after=5)
    with pytest.raises(ValueError, match="a bug"):
        firmware_main.main(link, firmware_main.make_readers())
    assert link.out[-1] == ("ERR", ("CRASH", "ValueError"))
    assert machine.RESETS == [] and clock.slept == []
