"""`calibrate rfid` against the simulated tray, for the rfid calibrate tests: tray settings that
time out fast, the keys and the player at the terminal, a session, a sticker's tag and a
capture of stickers placed (REPLAY_SECONDS of it)."""

from __future__ import annotations

import io
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.calibrate.rfid import Enroller, Waiting
from companion.app.paths import config_dir
from companion.hw.rfid.link import Backoff
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.hw.rfid.tray import TrayReader, TraySettings
from companion.systems.jongrogue.tiles import Tile

#: A capture replayed (``--port -``) ends the command with it, in well under a second: a
#: regression that waits on for more fails the test after this many seconds, not hangs it.
REPLAY_SECONDS = 20
FAST = TraySettings(hello_timeout=0.5, heartbeat_timeout=1.0,
                    backoff=Backoff(initial=0.01, maximum=0.1))


@pytest.fixture(name="sim")
def calibrate_sim_fixture() -> Iterator[TraySimulator]:
    """The simulated tray, a sticker lifted counted gone after two polls."""
    with TraySimulator(heartbeat_ms=200, remove_after=2) as simulator:
        yield simulator


@pytest.fixture(name="tray")
def calibrate_tray_fixture(sim: TraySimulator) -> Iterator[TrayReader]:
    """The tray reader over the simulated tray, timing out fast."""
    reader = TrayReader(sim.port, settings=FAST)
    yield reader
    reader.close()


def sticker(tile: Tile, copy: int) -> str:
    """The UID under copy ``copy`` (0-3) of ``tile`` in the test's mahjong set."""
    return f"04{tile.index:02X}{copy:02X}AA"


class Keys:
    """Scripted keyboard: lines queued by the test, handed out one per poll."""

    def __init__(self) -> None:
        self.queue: deque[str] = deque()

    def poll(self) -> str | None:
        return self.queue.popleft() if self.queue else None


class Player:
    """Does what the prompts ask, on the simulated tray's draw reader.

    ``choose(tile)`` picks the sticker to place when asked for ``tile``; by
    default the next copy of the set in order. Asked this many times in a row with nothing
    to place or lift (once is the most a working enrolment asks), it fails the test: an
    enrolment waiting for what the script does not hold would otherwise spin for ever.
    """

    NOTHING_TO_DO_AT_MOST = 1000

    def __init__(self, sim: TraySimulator, tray: TrayReader, enroller: Enroller) -> None:
        self.sim, self.tray, self.enroller = sim, tray, enroller
        self.copies: dict[Tile, int] = {}
        self.script: deque[str] = deque()  # UIDs to place next, before the default choice
        self.on_tray: str | None = None
        self.nothing_to_do = 0

    def choose(self, tile: Tile) -> str:
        if self.script:
            return self.script.popleft()
        copy = self.copies.get(tile, 0)
        self.copies[tile] = copy + 1
        return sticker(tile, copy)

    def __call__(self) -> None:
        waiting = self.enroller.waiting
        self.nothing_to_do += 1
        if self.nothing_to_do > self.NOTHING_TO_DO_AT_MOST:
            raise AssertionError(f"the enrolment still waits ({waiting.name}) with nothing "
                                 "left in the player's script to place or lift")
        if waiting is Waiting.LIFT and self.on_tray:
            self.sim.remove(0)
            self.on_tray = None
            self.nothing_to_do = 0
        elif waiting is not Waiting.LIFT and self.on_tray is None:
            if waiting is Waiting.TILE:
                uid = self.choose(self.enroller.plan[0])
            elif self.script:
                uid = self.script.popleft()
            else:
                return
            self.sim.place(0, uid)
            self.on_tray = uid
            self.nothing_to_do = 0
        self.sim.settle()
        self.tray.wait(0.001)


def session(sim: TraySimulator, tray: TrayReader, tag_map: TagMap | None = None
            ) -> tuple[Enroller, Player, Keys, io.StringIO]:
    out = io.StringIO()
    enroller = Enroller(tag_map or TagMap(), config_dir() / TAGMAP_FILENAME, out)
    tray.tag_map = enroller.tag_map
    return enroller, Player(sim, tray, enroller), Keys(), out


def capture(path: Path, stickers: int) -> Path:
    """A tray's lines as ``companion rfid monitor`` reads them from ``--port -``: hello, a
    snapshot, then each sticker placed and lifted after a second of heartbeats."""
    from companion.hw.rfid.protocol import encode

    lines = [("HELLO", "1.0.0", "5"), ("SNAP", "-", "-", "-", "-", "-")]
    for n in range(stickers):
        lines += [("HB", "1")] * 60
        lines += [("PLACE", "0", f"04AABB{n:02X}"), ("REMOVE", "0", f"04AABB{n:02X}")]
    path.write_bytes(b"".join(encode(seq, *fields) for seq, fields in enumerate(lines)))
    return path
