"""A stand-in for MicroPython's ``machine``: pins, an SPI bus, a watchdog and reset, recording
what they get."""

from __future__ import annotations


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, pin_id: int, mode: int | None = None, *, value: int | None = None) -> None:
        self.id = pin_id
        self.mode = mode
        self.level = 0 if value is None else value  # an RP2040 output starts low
        self.history: list[int] = []

    def value(self, level: int | None = None) -> int:
        if level is not None:
            self.level = level
            self.history.append(level)
        return self.level


class SPI:
    def __init__(self, spi_id: int, baudrate: int, sck: Pin, mosi: Pin, miso: Pin) -> None:
        self.id = spi_id
        self.baudrate = baudrate
        self.pins = (sck.id, mosi.id, miso.id)
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(bytes(data))

    def read(self, count: int) -> bytes:
        return bytes(count)


#: The register file ``machine.mem32`` reads and writes: address -> 32-bit word.
mem32: dict[int, int] = {}
WATCHDOG_CTRL = 0x40058000  # RP2040 datasheet, WATCHDOG CTRL; bit 30 is ENABLE
RESETS: list[str] = []  # one entry per machine.reset() (the real one never returns)


class WDT:
    """rp2's watchdog: started at once, with no way to stop it but its control register."""

    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        self.timeout = timeout
        self.feeds = 0
        mem32[WATCHDOG_CTRL] = mem32.get(WATCHDOG_CTRL, 0) | 1 << 30

    def feed(self) -> None:
        self.feeds += 1


def reset() -> None:
    RESETS.append("reset")
