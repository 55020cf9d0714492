"""a77setup NIT 7: a config.toml whose good lines end in zero bytes, as an SD card leaves a
file rewritten in place when the power goes, was "Invalid statement (at line 5, column 1)":
nothing said that line 5 on is zero bytes, which an editor shows as ``^@`` if at all, and
the Pi lost its ``input.kind = "rfid"``."""

from __future__ import annotations

import tomllib

import pytest

from companion.app.config import load_config
from companion.files import toml_fault

SETTINGS = b'[input]\nkind = "rfid"\n[choices]\nkind = "gpio"\n'


def test_config_toml_ending_in_zero_bytes_names_them() -> None:
    path = load_config().path
    path.parent.mkdir(parents=True)
    path.write_bytes(SETTINGS + bytes(300))
    assert list(load_config(env={}).notices) == [
        f"{path} is not a valid TOML file (the file ends in 300 zero bytes from line 5: a "
        "power cut as it was written? delete them); the defaults are used until it is mended"]


def test_one_zero_byte_within_a_line_is_counted_on_that_line() -> None:
    data = SETTINGS.rstrip(b"\n") + b"\0"
    with pytest.raises(tomllib.TOMLDecodeError) as raised:
        tomllib.loads(data.decode())
    assert toml_fault(data, raised.value) == (
        "the file ends in 1 zero byte from line 4: a power cut as it was written? delete them")


def test_utf16_without_a_byte_order_mark_is_no_zero_tail() -> None:
    """r77setup: its last character's zero byte was "the file ends in 1 zero byte from
    line 3: a power cut as it was written? delete them", and deleting it mended nothing."""
    data = SETTINGS.decode().encode("utf-16-le")
    with pytest.raises(tomllib.TOMLDecodeError) as raised:
        tomllib.loads(data.decode())
    assert toml_fault(data, raised.value) == str(raised.value)
