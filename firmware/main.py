"""Tray firmware entry point: wire the readers from board.py to the USB serial line.

Everything here touches hardware (``machine``, ``select``, USB stdin/stdout);
the logic lives in ``jrtray``. The tests run ``run()`` under CPython with fake
``machine`` and ``mfrc522`` modules and an in-memory link.
"""

import sys
import time

import board
import machine
from jrtray.logic import Tray
from mfrc522 import MFRC522

FIRMWARE_VERSION = "1.1.0"  # 1.1: ERR COLLISION (firmware/PROTOCOL.md)


def make_readers():
    """One MFRC522 per chip-select pin; a reader that fails to start is retried later."""
    spi = machine.SPI(board.SPI_ID, baudrate=board.SPI_BAUDRATE, sck=machine.Pin(board.SCK_PIN),
                      mosi=machine.Pin(board.MOSI_PIN), miso=machine.Pin(board.MISO_PIN))
    rst = machine.Pin(board.RST_PIN, machine.Pin.OUT)
    # Each chip-select starts high (deselected): an output starts low, and every reader
    # would otherwise answer the first one's words on the shared MISO line.
    return [LazyReader(spi, machine.Pin(cs, machine.Pin.OUT, value=1), rst)
            for cs in board.CS_PINS]


class LazyReader:
    """An MFRC522 built on first success, so a dead reader at power-up is only a down slot."""

    def __init__(self, spi, cs, rst):
        self.args = (spi, cs, rst)
        self.chip = None

    def init(self):
        if self.chip is None:
            self.chip = MFRC522(*self.args)
        else:
            self.chip.init()

    def read_uid(self):
        if self.chip is None:
            self.init()
        return self.chip.read_uid()


class UsbLink:
    """Non-blocking bytes in from, lines out to, the USB serial port (the REPL's stdin/stdout)."""

    def __init__(self, stdin, stdout):
        import select

        self.stdin = stdin.buffer if hasattr(stdin, "buffer") else stdin
        self.stdout = stdout
        self.poller = select.poll()
        self.poller.register(stdin, select.POLLIN)

    def read(self):
        data = b""
        while len(data) < 64 and self.poller.poll(0):
            data += self.stdin.read(1)
        return data

    def write(self, line):
        self.stdout.write(line)


def run(link, readers, ticks_ms, steps=None):
    """The main loop; ``steps`` bounds it for the tests (forever on the board)."""
    tray = Tray(readers, FIRMWARE_VERSION, link.write, heartbeat_ms=board.HEARTBEAT_MS,
                place_after=board.PLACE_AFTER, remove_after=board.REMOVE_AFTER,
                fail_after=board.FAIL_AFTER, retry_ms=board.RETRY_MS)
    tray.boot(ticks_ms())
    done = 0
    while steps is None or done < steps:
        data = link.read()
        if data:
            tray.feed(data, ticks_ms())
        tray.step(ticks_ms())
        done += 1
    return tray


if __name__ == "__main__":
    run(UsbLink(sys.stdin, sys.stdout), make_readers(), time.ticks_ms)
