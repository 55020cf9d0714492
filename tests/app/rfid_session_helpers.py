"""The RDM6300's side of a UART on a pty, for the tests of a session reading RFID tiles."""

from __future__ import annotations

import os
import tty


class Uart:
    """The RDM6300's side of the UART: raw bytes into a pty master."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)
