"""keys71 NIT 2: full-width keys (a Japanese input method's ２, ａ, the full-width space)
act as their half-width keys: they did nothing, and nothing said why."""

from __future__ import annotations

import os
import time

import pytest

from companion.hw.buttons import Button, Pick
from companion.hw.keyboard import KeyboardInput, presses_for_text


@pytest.mark.parametrize(("typed", "presses"), [
    ("２", [Pick(1)]), ("０", [Pick(9)]), ("ａ", [Button.ATTACK]), ("Ａ", [Button.ATTACK]),
    ("　", [Button.ATTACK]), ("ｆ", [Button.FLEE]), ("ｓ", [Button.SYSTEM]),
    ("２ａ　", [Pick(1), Button.ATTACK, Button.ATTACK]),
])
def test_full_width_keys_are_their_half_width_keys(typed: str, presses: list[object]) -> None:
    assert presses_for_text(typed) == presses


def test_only_full_width_forms_are_read_as_keys() -> None:
    """A circled ① or a ligature is no key typed in full-width mode: it means nothing."""
    assert presses_for_text("①ﬁ㈠") == []


def test_full_width_keys_on_a_terminal() -> None:
    """A player in Japanese input mode types ２ on the pty: it picks option 2."""
    master, slave = os.openpty()
    keyboard = KeyboardInput(slave)
    try:
        typed = "２".encode()
        os.write(master, typed)
        deadline = time.monotonic() + 5
        while keyboard.bytes_read < len(typed) and time.monotonic() < deadline:
            time.sleep(0.01)
        presses: list[object] = []
        while time.monotonic() < deadline and not presses:
            presses = list(keyboard.poll())
            time.sleep(0.02)
        assert presses == [Pick(1)]
    finally:
        keyboard.close()
        os.close(slave)
        os.close(master)


@pytest.mark.parametrize("cut", [1, 2], ids=["1+2", "2+1"])
def test_a_key_split_between_reads_on_a_terminal(cut: int) -> None:
    """keys73 NIT 2: ２ (three bytes) whose bytes come in two reads, as at a paste's
    1024-byte cut or over a link that splits packets: it is the one key, not dropped."""
    master, slave = os.openpty()
    keyboard = KeyboardInput(slave)
    try:
        typed = "２".encode()
        presses: list[object] = []
        for part, read in ((typed[:cut], cut), (typed[cut:], len(typed))):
            os.write(master, part)
            deadline = time.monotonic() + 5
            while keyboard.bytes_read < read and time.monotonic() < deadline:
                time.sleep(0.01)
            assert keyboard.bytes_read == read  # each part its own read
            presses += keyboard.poll()
        presses += keyboard.poll()
        assert presses == [Pick(1)]
    finally:
        keyboard.close()
        os.close(slave)
        os.close(master)
