"""A stand-in for MicroPython's ``machine``: pins and an SPI bus that record what they get."""

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
