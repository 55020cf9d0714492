"""The tray refuses a host CRC not spelt as 4 upper-case hex digits (PROTOCOL.md).

reviewr67 NIT 1: the tray took a CRC from the host spelt otherwise than PROTOCOL.md's
"4 upper-case hex digits" (``int(…, 16)`` took lower case, ``0x``, a space or a sign), as
the host did before rfid63 N2: both sides refuse it now."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest


@pytest.fixture
def protocol(logic: ModuleType) -> ModuleType:
    """The firmware's jrtray.protocol (its package loaded by the ``logic`` fixture)."""
    return importlib.import_module("jrtray.protocol")


def ping_line(protocol: ModuleType, crc_below: int) -> tuple[str, int]:
    """A PING line's body from the host (its CRC left off) whose CRC is below ``crc_below``
    and has a letter among its hex digits (lower case differs), and its CRC."""
    for seq in range(65536):
        body = f"J1 {seq} PING"
        crc = protocol.crc16(body.encode())
        if crc < crc_below and any(c in "ABCDEF" for c in f"{crc:X}"):
            return body, crc
    raise AssertionError("no such line")


@pytest.mark.parametrize(("spelt", "crc_below"), [
    ("{:04x}", 0x10000), ("0x{:02X}", 0x100), (" {:03X}", 0x1000), ("+{:03X}", 0x1000),
    ("{:05X}", 0x10000)])
def test_the_tray_refuses_a_crc_spelt_otherwise_than_four_upper_case_hex_digits(
        protocol: ModuleType, spelt: str, crc_below: int) -> None:
    body, crc = ping_line(protocol, crc_below)
    seq = int(body.split()[1])
    assert protocol.parse(f"{body} *{crc:04X}\r\n".encode()) == (seq, "PING", []), \
        "the line as the spec spells it"
    text = spelt.format(crc)
    assert int(text, 16) == crc and text != f"{crc:04X}"
    assert protocol.parse(f"{body} *{text}\n".encode()) == "BAD_LINE"
