"""A stack the tray reports again after a SNAP stays a stack while those lines are on their way
(flaky64 P3).

The tray follows a SNAP with an ERR COLLISION per slot holding two tiles; a read of the port
may end between them (it does, unloaded, a few times in a thousand). The SNAP cleared what
the host knew of stacks, so for that poll the stacked draw slot looked like one tile: the
tile under the stack, withdrawn from offer, was offered again with a new countdown and then
withdrawn. For play (``TrayReader.stacked``) a stack a SNAP cleared holds until the next line
that is not an ERR COLLISION, or SNAP_DOUBT_SECONDS; the status says what the tray has said.

Over pyserial's ``loop://`` (the host's own HELLO comes back off it, and is ignored), on a
clock the test moves.
"""

from __future__ import annotations

from typing import Any

import serial

from companion.app.session.controls import Confirm, Controls
from companion.app.session.reads import ReadState, wait_for_tile
from companion.hw.buttons import Press
from companion.hw.ports import Slot
from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.tray import SNAP_DOUBT_SECONDS
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger
from tests.app.session_helpers import StepClock
from tests.hw.rfid_tray_helpers import UID_5P, said_hello

ON_THE_DRAW_SLOT = (UID_5P, "-", "-", "-", "-")
EMPTY_TRAY = ("-", "-", "-", "-", "-")


def test_a_stack_stays_one_until_the_lines_after_the_snap_are_read(
        wire: serial.Serial) -> None:
    now = [0.0]
    tray = said_hello(wire, now)
    wire.write(encode(0, Kind.HELLO, "1.3.1", "5") + encode(1, Kind.SNAP, *ON_THE_DRAW_SLOT)
               + encode(2, Kind.ERR, "COLLISION", "0"))
    tray.poll_events()
    assert Slot.DRAW in tray.stacked and "two tiles" in tray.status().message
    # A SNAP read alone: its ERR COLLISION is still to come. (The stack was forgotten.)
    wire.write(encode(3, Kind.SNAP, *ON_THE_DRAW_SLOT))
    assert tray.poll_events() == []
    assert Slot.DRAW in tray.stacked
    wire.write(encode(4, Kind.ERR, "COLLISION", "0") + encode(5, Kind.HB, "10"))
    tray.poll_events()
    assert tray.stacked == {Slot.DRAW} and "two tiles" in tray.status().message
    # The top tile lifted: a SNAP with no ERR COLLISION after it, the next line a heartbeat.
    wire.write(encode(6, Kind.SNAP, *ON_THE_DRAW_SLOT))
    tray.poll_events()
    assert Slot.DRAW in tray.stacked
    assert tray.status().ok  # the tray's word, as it has said it
    wire.write(encode(7, Kind.HB, "11"))
    tray.poll_events()
    assert tray.stacked == set()
    # No line after a SNAP: the doubt ends SNAP_DOUBT_SECONDS after it.
    wire.write(encode(8, Kind.ERR, "COLLISION", "0"))
    tray.poll_events()
    wire.write(encode(9, Kind.SNAP, *ON_THE_DRAW_SLOT))
    tray.poll_events()
    now[0] += SNAP_DOUBT_SECONDS / 2
    tray.poll_events()
    assert Slot.DRAW in tray.stacked
    now[0] += SNAP_DOUBT_SECONDS
    tray.poll_events()
    assert tray.stacked == set() and tray.status().ok
    tray.close()


class Enough(Exception):
    pass


class Tray:
    """What the tray says after each of the session's polls (the next poll reads it): 5p laid
    on the empty draw slot, another tile stacked on it, then a SNAP (asked for after a lost
    line) read apart from its ERR COLLISION."""

    def __init__(self, wire: serial.Serial, clock: StepClock) -> None:
        self.wire = wire
        self.clock = clock
        self.polls = 0
        self.script: dict[int, bytes] = {
            1: encode(2, Kind.PLACE, "0", UID_5P),
            4: encode(3, Kind.ERR, "COLLISION", "0"),
            8: encode(4, Kind.SNAP, *ON_THE_DRAW_SLOT),
            9: encode(5, Kind.ERR, "COLLISION", "0") + encode(6, Kind.HB, "10"),
        }

    def poll(self) -> list[Press]:
        self.polls += 1
        if self.polls > 20:
            raise Enough  # the player has not moved: the test looks at what was shown
        if self.polls in self.script:
            self.wire.write(self.script[self.polls])
        return []


def test_the_tile_under_a_stack_is_not_offered_again_by_a_snap_read_alone(
        wire: serial.Serial) -> None:
    """5p is offered, then withdrawn when a tile is stacked on it; the SNAP read a poll before
    its ERR COLLISION offered 5p again, with a new countdown, for that poll. (Counted only by
    a press in that poll, it flickered on the screen.)"""
    clock = StepClock()
    tray = said_hello(wire, [0.0])  # its own clock stays: the lines alone end the doubt
    wire.write(encode(0, Kind.HELLO, "1.3.1", "5") + encode(1, Kind.SNAP, *EMPTY_TRAY))
    shown: list[tuple[str, Tile | None]] = []

    def show(status: str, tile: Tile | None, *_: Any) -> None:
        shown.append((status, tile))

    try:
        wait_for_tile(tray, ReadState(clock=clock, startup=True), Slot.DRAW, TileLedger(),
                      Controls([Tray(wire, clock)], clock=clock), Confirm(5.0, clock), show,
                      poll_seconds=0.05, sleep=clock.sleep)
    except Enough:
        pass
    finally:
        tray.close()
    offers = [i for i, (_, tile) in enumerate(shown)
              if tile is not None and (i == 0 or shown[i - 1][1] is None)]
    assert len(offers) == 1, shown
    assert shown[-1] == ("two tiles on the draw slot: leave one 引き牌の枠に牌が2枚: 1枚にして",
                         None)
