"""`calibrate rfid`'s keys (:class:`TerminalKeys`) piped in one write are each handed out at
once: f78carry: the text stream's readline() took the first and buffered the rest, where
select() saw none, so "s" and "q" written together left the "q" unread until a third key
came. A pipe stands in for the terminal, the edge of the world."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from companion.app.calibrate.rfid import TerminalKeys


@pytest.fixture
def pipe() -> Iterator[tuple[TerminalKeys, int]]:
    """Keys read from a pipe's read end, and its write end."""
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "r", encoding="utf-8") as stream:
        try:
            yield TerminalKeys(stream), write_end
        finally:
            try:
                os.close(write_end)
            except OSError:  # closed by the test, as the end of input
                pass


def test_two_keys_in_one_write_are_both_read_without_a_third(
        pipe: tuple[TerminalKeys, int]) -> None:
    keys, write_end = pipe
    os.write(write_end, b"S\nq\n")
    assert [keys.poll(), keys.poll()] == ["s", "q"]
    assert keys.poll() is None  # nothing more typed: no key, no end


def test_a_key_typed_in_parts_waits_for_its_line_and_the_end_says_q(
        pipe: tuple[TerminalKeys, int]) -> None:
    keys, write_end = pipe
    os.write(write_end, b"A\n\xe3\x81")  # a key, half of a Japanese character, the rest
    assert [keys.poll(), keys.poll()] == ["a", None]
    os.write(write_end, b"\x82\n\nU")
    assert [keys.poll(), keys.poll(), keys.poll()] == ["\u3042", "", None]
    os.close(write_end)
    assert [keys.poll(), keys.poll(), keys.poll()] == ["u", "q", "q"]
