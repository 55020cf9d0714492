"""An RDM6300's start-up window is judged by when a tag's frame may have come, not by when a
poll read it (flaky64 P1).

The module repeats a present tag's frame every 0.1-0.3 s, so a tile lying on the reader when
it comes up is first read a poll or two after the port opens. A second poll coming late (a Pi
starved at boot, a slow first screen) read that frame more than ``startup_seconds`` after the
opening, and the tile was taken for one laid since: a game resumed after a power cut counted
it again, and ``calibrate rfid`` enrolled it as the first kind asked for. A frame read by a
poll may have come at any time since the poll before, so that poll is what is judged.

The reader's UART is a pty; the clock is the test's, moved by hand.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.calibrate.rfid import Enroller, NoKeys, run_enrolment
from companion.hw.rfid.events import TagAction
from companion.hw.rfid.rdm6300 import Rdm6300Reader, Rdm6300Settings
from companion.hw.rfid.tagmap import TagMap
from companion.systems.jongrogue.tiles import Tile
from tests.hw.rdm6300_helpers import Uart, uart_fixture  # noqa: F401 (asked for as uart)

TAG = "0F00A1B2C3"
# Absence is not what these tests are about: a tag read stays on the slot.
SETTINGS = Rdm6300Settings(absent_after=60.0)


@pytest.fixture
def reader(uart: Uart) -> Iterator[Rdm6300Reader]:
    rdm = Rdm6300Reader(uart.port, TagMap({TAG: Tile.from_notation("3s")}), settings=SETTINGS,
                        clock=uart.clock)
    yield rdm
    rdm.close()


@pytest.mark.parametrize("late", [0.9, 1.2, 5.0])
def test_a_tag_lying_there_read_by_a_late_second_poll_lay_there_at_start(
        uart: Uart, reader: Rdm6300Reader, late: float) -> None:
    """The first poll opens the port; the tag's frame comes just after; the next poll comes
    ``late`` s later. (It was a new tag past 1 s: counted again after a power cut.)"""
    assert reader.poll_events() == [] and reader.link.is_open
    uart.send(reader, TAG)
    uart.now = late
    events = reader.poll_events()
    assert [(e.action, e.uid, e.at_start) for e in events] == [(TagAction.PLACED, TAG, True)]


def test_a_tag_laid_after_the_window_is_a_new_one(uart: Uart, reader: Rdm6300Reader) -> None:
    """Polls that found nothing through the window: a tag read after them was laid since."""
    for uart.now in (0.0, 0.5, 1.05):
        assert reader.poll_events() == []
    uart.send(reader, TAG)
    uart.now = 1.1
    events = reader.poll_events()
    assert [(e.action, e.at_start) for e in events] == [(TagAction.PLACED, False)]


def test_calibrate_does_not_enrol_a_tile_lying_there_read_late(uart: Uart,
                                                                 reader: Rdm6300Reader,
                                                                 tmp_path: Path) -> None:
    """``calibrate rfid`` with a tile left on the reader: its loop's second poll comes 1.5 s
    after the first. The tile is not enrolled as the kind asked for; the player is told to
    lift it. (It was enrolled as 1m.)"""
    out = io.StringIO()
    enroller = Enroller(TagMap(), tmp_path / "tags.toml", out, keys=False)
    enroller.enrol([Tile.from_notation("1m")], copies=1)
    polls = 0

    def idle() -> None:
        nonlocal polls
        polls += 1
        if polls == 1:  # just after the port opened: the tile's frame comes
            uart.send(reader, TAG)
            uart.now += 1.5  # the loop starved before its next poll
        elif polls >= 3:
            enroller.stop()

    run_enrolment(enroller, reader, NoKeys(), idle)
    said = out.getvalue()
    assert f"A tile was already on the draw slot (sticker {TAG}): lift it off" in said
    assert enroller.tag_map.uids(Tile.from_notation("1m")) == []
    assert TAG in enroller.lying
