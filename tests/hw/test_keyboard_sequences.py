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
from companion.hw.keyboard import (
    ESC_JOIN_SECONDS,
    KeyboardInput,
    presses_for_text,
    split_unfinished,
)
from tests.app.session_helpers import StepClock


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
    # Esc, then b by a later read before the next poll, a while later: two keys, each flee.
    # (Esc again at once, by a later read, is a held Esc's repeat: keys68,
    # KEY_REPEAT_SECONDS.) Together in one read they are Alt+b, nothing (keys73 RISK 1).
    time.sleep(KEY_REPEAT_SECONDS + 0.05)
    os.write(write, b"\x1b")
    _wait_read(keys, 2)
    os.write(write, b"b")
    _wait_read(keys, 3)
    assert keys.poll() == [Button.FLEE, Button.FLEE]


def _wait_read(keys: KeyboardInput, count: int) -> None:
    """Until the keyboard's reader has read ``count`` bytes in all (each write its own read)."""
    deadline = time.monotonic() + 5
    while keys.bytes_read < count and time.monotonic() < deadline:
        time.sleep(0.01)
    assert keys.bytes_read == count


@pytest.fixture
def clock() -> StepClock:
    """The keyboard's clock, still unless a test moves it: reads split by a busy machine
    stay within ESC_JOIN_SECONDS of each other."""
    return StepClock()


@pytest.fixture
def terminal(clock: StepClock) -> Iterator[tuple[KeyboardInput, int]]:
    """The keyboard on a pty, as a game's over SSH: (it, the pty's far end to type on)."""
    master, slave = os.openpty()
    keys = KeyboardInput(slave, clock=clock)
    yield keys, master
    keys.close()
    os.close(slave)
    os.close(master)


@pytest.mark.parametrize(("typed", "presses"), [
    (b"\x1bb", []), (b"\x1bf", []), (b"\x1bB", []), (b"\x1ba", []), (b"\x1b2", []),
    (b"\x1b\x1b[D", [Button.PREVIOUS]), (b"\x1b\x1b[C", [Button.MENU]),
    (b"\x1b\x1b[A", [Button.PREVIOUS]), (b"\x1b\x1bOB", [Button.MENU]),
    (b"\x1b[1;3D", [Button.PREVIOUS]),
], ids=["macOS opt-left ESC b", "macOS opt-right ESC f", "alt-B", "alt-a", "alt-2",
        "PuTTY alt-left", "PuTTY alt-right", "PuTTY alt-up", "alt-down SS3",
        "xterm alt-left"])
def test_alt_and_a_key_is_no_esc(terminal: tuple[KeyboardInput, int], typed: bytes,
                                 presses: list[Button]) -> None:
    """keys73 RISK 1: a key with Alt (Option) held comes as ESC and the key, in one write.
    It read as Esc (flee, with no question on a JongRogue menu that offers Flee) and the
    key: macOS Terminal's ⌥← fled, as PuTTY's Alt+← did before moving the highlight back.
    Alt+arrow is the arrow; Alt and any other key means nothing."""
    keys, master = terminal
    os.write(master, typed)
    _wait_read(keys, len(typed))
    assert keys.poll() + keys.poll() == presses


@pytest.mark.parametrize("cut", [1, 2, 3], ids=["ESC", "ESC ESC", "ESC ESC ["])
def test_alt_arrow_split_between_reads_is_the_arrow(terminal: tuple[KeyboardInput, int],
                                                    cut: int) -> None:
    keys, master = terminal
    typed = b"\x1b\x1b[D"
    os.write(master, typed[:cut])
    _wait_read(keys, cut)
    assert keys.poll() == []
    os.write(master, typed[cut:])
    _wait_read(keys, len(typed))
    assert keys.poll() + keys.poll() == [Button.PREVIOUS]


def test_esc_alone_on_a_terminal_is_still_flee(terminal: tuple[KeyboardInput, int]) -> None:
    keys, master = terminal
    os.write(master, b"\x1b")
    _wait_read(keys, 1)
    assert keys.poll() + keys.poll() == [Button.FLEE]


def test_split_unfinished_cuts_only_a_sequence_begun() -> None:
    assert split_unfinished("a\x1b[") == ("a", "\x1b[")
    assert split_unfinished("a\x1bO") == ("a", "\x1bO")
    assert split_unfinished("\x1b[C\x1b[2") == ("\x1b[C", "\x1b[2")
    assert split_unfinished("\x1b[Ca") == ("\x1b[Ca", "")
    assert split_unfinished("\x1bb") == ("\x1bb", "")
    # An Alt+arrow begun (ESC ESC [) waits whole: its first ESC is no Esc alone.
    assert split_unfinished("a\x1b\x1b[") == ("a", "\x1b\x1b[")
    assert split_unfinished("a\x1b\x1b") == ("a", "\x1b\x1b")
    assert split_unfinished("\x1bb\x1b") == ("\x1bb", "\x1b")


def test_linux_console_function_keys_mean_nothing() -> None:
    """a77keys DEFECT 1: the Pi's own console (TERM=linux) sends F1-F5 as ESC [ [ A-E. Cut
    at the second [, F1 read as a (Fight) and F2 as b (Flee)."""
    assert presses_for_text("\x1b[[A\x1b[[B\x1b[[C\x1b[[D\x1b[[E") == []
    assert presses_for_text("\x1b[[A\x1b[C") == [Button.MENU]
    assert split_unfinished("a\x1b[[") == ("a", "\x1b[[")


def test_linux_console_f1_split_between_reads_is_nothing(
        terminal: tuple[KeyboardInput, int]) -> None:
    keys, master = terminal
    os.write(master, b"\x1b[[")
    _wait_read(keys, 3)
    assert keys.poll() == []
    os.write(master, b"A")
    _wait_read(keys, 4)
    assert keys.poll() + keys.poll() == []


@pytest.mark.parametrize(("second", "presses"), [
    (b"\x1b", [Button.FLEE, Button.FLEE]), (b"\x1b[A", [Button.FLEE, Button.PREVIOUS]),
], ids=["Esc Esc", "Esc Up"])
def test_esc_then_a_key_read_well_after_it_are_two_keys(
        terminal: tuple[KeyboardInput, int], clock: StepClock, second: bytes,
        presses: list[Button]) -> None:
    """a77keys RISK 3: a lone ESC was joined to any later read that began with ESC, [ or O,
    however long after: two Escs 0.2 s apart between two polls read as Alt+Esc (nothing),
    Esc then Up as Alt+Up (the Esc lost)."""
    keys, master = terminal
    os.write(master, b"\x1b")
    _wait_read(keys, 1)
    clock.sleep(0.2)
    os.write(master, second)
    _wait_read(keys, 1 + len(second))
    clock.sleep(0.2)  # past a same key's hold-back (KEY_HELD_WAIT_SECONDS)
    assert keys.poll() + keys.poll() == presses


def test_esc_and_a_sequence_within_the_join_window_are_one_key(
        terminal: tuple[KeyboardInput, int], clock: StepClock) -> None:
    keys, master = terminal
    os.write(master, b"\x1b")
    _wait_read(keys, 1)
    clock.sleep(ESC_JOIN_SECONDS / 2)
    os.write(master, b"\x1b[D")
    _wait_read(keys, 4)
    assert keys.poll() + keys.poll() == [Button.PREVIOUS]


def test_an_arrow_split_after_its_esc_is_the_arrow_however_late(
        terminal: tuple[KeyboardInput, int], clock: StepClock) -> None:
    """r77keys: the rest of an arrow read well after its ESC (a slow link's split) was cut
    from it by the join window, ESC [ A read as Esc and A: flee and attack. No key begins
    with [ or O: such a read is the rest of the sequence, whenever it comes."""
    keys, master = terminal
    read = 0
    for rest, press in ((b"[A", Button.PREVIOUS), (b"OB", Button.MENU)):
        os.write(master, b"\x1b")
        _wait_read(keys, read := read + 1)
        clock.sleep(0.2)
        os.write(master, rest)
        _wait_read(keys, read := read + len(rest))
        assert keys.poll() + keys.poll() == [press]
