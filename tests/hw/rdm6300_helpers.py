"""What the tests of an RDM6300 on a real stand-in UART share: ``Uart``, a pty whose master
is the module's side, with a clock the test moves by hand (reviewr73 NIT 3: no two test
modules keep a copy of it), and the ``uart`` fixture that opens one for a test: import
``uart_fixture`` into a test module to ask for ``uart`` there (named apart so a test's
argument does not shadow the import; dedupe73 D17); and ``Pty``, the module's side with no
clock, for the RDM6300 reader's, framing and mutation tests (tidy74: no test module imports
another)."""

from __future__ import annotations

import os
import tty
from collections.abc import Iterator
from types import TracebackType

import pytest

from companion.hw.rfid.rdm6300 import Rdm6300Reader, frame


class Uart:
    """The module's side of the UART (a pty master), and a clock the test moves."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    def send(self, reader: Rdm6300Reader, uid: str, times: int = 1) -> None:
        """``times`` frames of ``uid``, readable by ``reader``'s next poll."""
        os.write(self.master, frame(uid) * times)
        reader.wait(5.0)  # select: the pty hands the bytes on a moment later

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)

    def __enter__(self) -> Uart:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


class Pty:
    """The RDM6300's side of the UART: raw bytes into a pty master."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture(name="uart")
def uart_fixture() -> Iterator[Uart]:
    """A ``Uart`` open for the test, closed after it."""
    with Uart() as pty:
        yield pty
