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


class Registers(dict[int, int]):
    """The register file ``machine.mem32`` reads and writes: address -> 32-bit word; a
    register never written reads 0 (the watchdog's reset values). A write to a register's
    atomic set (+0x2000) or clear (+0x3000) alias sets or clears the bits written in the
    register, with no read (RP2040 datasheet 2.1.2, RP2350 2.1.3). Each access is kept in
    ``accesses``, its address the very object given (an int made anew or not)."""

    def __init__(self) -> None:
        super().__init__()
        self.accesses: list[tuple[str, int, int]] = []  # ("read" or "write", address, word)

    def __missing__(self, address: int) -> int:
        return 0

    def __getitem__(self, address: int) -> int:
        word = super().__getitem__(address)
        self.accesses.append(("read", address, word))
        return word

    def __setitem__(self, address: int, word: int) -> None:
        self.accesses.append(("write", address, word))
        if address & CLEAR_ALIAS == SET_ALIAS:
            address -= SET_ALIAS
            word |= self.get(address, 0)
        elif address & CLEAR_ALIAS == CLEAR_ALIAS:
            address -= CLEAR_ALIAS
            word = self.get(address, 0) & ~word
        super().__setitem__(address, word)


#: A peripheral register's atomic aliases: its address with bits 12-13 set to 2 or 3.
SET_ALIAS, CLEAR_ALIAS = 0x2000, 0x3000
mem32 = Registers()
#: WATCHDOG CTRL (bit 30 is ENABLE) of each chip: RP2040 datasheet 4.7.6, RP2350 12.9.7.
WATCHDOG_BASES = {"RP2040": 0x40058000, "RP2350": 0x400D8000}
WATCHDOG_CTRL = WATCHDOG_BASES["RP2040"]
RESETS: list[str] = []  # one entry per machine.reset() (the real one never returns)


class WDT:
    """rp2's watchdog: started at once, with no way to stop it but its control register
    (the chip's, by ``sys.implementation._machine``)."""

    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        import sys

        self.timeout = timeout
        self.feeds = 0
        self.fed_at = NOW[0]  # the board's time (elapse) at its start or last feed
        WATCHDOGS.append(self)
        machine_name = getattr(sys.implementation, "_machine", "")
        chip = "RP2350" if "RP2350" in machine_name else "RP2040"
        mem32[WATCHDOG_BASES[chip] + SET_ALIAS] = 1 << 30  # the pico-sdk's hw_set_bits

    def feed(self) -> None:
        self.feeds += 1
        self.fed_at = NOW[0]


class WatchdogReset(BaseException):
    """The watchdog's reset of the board: nothing of the firmware runs after it, no
    ``except Exception`` handler, no ERR CRASH (so not an Exception)."""


NOW = [0]  # the board's time in ms, as elapse moves it
WATCHDOGS: list[WDT] = []


def elapse(ms: int) -> None:
    """``ms`` of the board's time go by (a fake reader's poll, say): a watchdog not fed
    for longer than its timeout resets the board (WatchdogReset)."""
    NOW[0] += ms
    for watchdog in WATCHDOGS:
        if NOW[0] - watchdog.fed_at > watchdog.timeout:
            raise WatchdogReset(f"not fed for {NOW[0] - watchdog.fed_at} ms")


def reset() -> None:
    RESETS.append("reset")
