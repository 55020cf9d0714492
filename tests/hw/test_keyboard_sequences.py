"""An arrow key's escape sequence split across reads (input audit 63 N3): KeyboardInput
read 64 bytes at a time and parsed each read alone, so ``ESC [ C`` cut after its ESC read as
Esc (flee: a read on offer rejected) and the rest was dropped. The sequence begun waits for
the next poll; Esc pressed alone is still flee, a poll later."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from companion.hw.buttons import Button
from companion.hw.key_runs import KEY_REPEAT_SECONDS
from companion.hw.keyboard import KeyboardInput, split_unfinished


@pytest.fixture
def pipe() -> Iterator[tuple[KeyboardInput, int]]:
    read, write = os.pipe()
    keys = KeyboardInput(read)
    yield keys, write
    keys.close()
    os.close(read)
    os.close(write)


def test_arrows_pending_past_one_read_are_all_arrows(pipe: tuple[KeyboardInput, int]) -> None:
    keys, write = pipe
    os.write(write, b"\x1b[C" * 22)  # 66 bytes: the 22nd split after 64
    assert keys.poll() == [Button.MENU] * 22


@pytest.mark.parametrize("cut", [1, 2, 3], ids=["ESC", "ESC [", "ESC [ 1"])
def test_a_sequence_split_between_polls_is_read_whole(pipe: tuple[KeyboardInput, int],
                                                      cut: int) -> None:
    keys, write = pipe
    sequence = b"\x1b[1C"  # → with a parameter, as some terminals send it
    os.write(write, b"a" + sequence[:cut])
    assert keys.poll() == [Button.ATTACK]
    os.write(write, sequence[cut:])
    assert keys.poll() == [Button.MENU]


def test_esc_pressed_alone_is_flee_a_poll_later(pipe: tuple[KeyboardInput, int]) -> None:
    keys, write = pipe
    os.write(write, b"\x1b")
    assert keys.poll() == []
    assert keys.poll() == [Button.FLEE]
    # Esc then b typed together (Alt+b in a terminal), a while later: as before. (Esc again
    # at once, by a later read, is a held Esc's repeat: keys68, KEY_REPEAT_SECONDS.)
    time.sleep(KEY_REPEAT_SECONDS + 0.05)
    os.write(write, b"\x1bb")
    assert keys.poll() == [Button.FLEE, Button.FLEE]


def test_split_unfinished_cuts_only_a_sequence_begun() -> None:
    assert split_unfinished("a\x1b[") == ("a", "\x1b[")
    assert split_unfinished("a\x1bO") == ("a", "\x1bO")
    assert split_unfinished("\x1b[C\x1b[2") == ("\x1b[C", "\x1b[2")
    assert split_unfinished("\x1b[Ca") == ("\x1b[Ca", "")
    assert split_unfinished("\x1bb") == ("\x1bb", "")
