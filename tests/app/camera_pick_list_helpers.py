"""What the tile camera's pick-list tests (tests/app/test_camera_pick_lists.py and
test_camera_pick_lists_closing.py) share: a camera at the edge of the world (``Edge``), a
draw slot's reading (``on``), and a game waited on until it stops (``run``, ``Stop``), what
it showed kept as ``Shown`` rows (tidy72: no test module imports another)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.app.session.controls import Confirm, Controls
from companion.app.session.reads import ReadState, wait_for_tile
from companion.hw.buttons import Press
from companion.hw.ports import Candidate, ReaderStatus, Slot, SlotReading
from companion.systems.jongrogue.tiles import EMPTY, Tile
from companion.systems.jongrogue.wall import TileLedger
from tests.app.session_helpers import StepClock

Shown = tuple[float, str, tuple[str, ...], int | None]


def on(label: str | None, *candidates: str) -> SlotReading:
    """The draw slot read as ``label``, the reader's candidates best first."""
    return SlotReading(Slot.DRAW, label, 0.9,
                       tuple(Candidate(c, 0.3 - 0.1 * i) for i, c in enumerate(candidates)))


class Edge:
    """A camera at the edge of the world: the readings that changed, by game time, every
    slot lying still (a flicker is the classifier's, over a still picture)."""

    def __init__(self, clock: StepClock, plan: Sequence[tuple[float, SlotReading]]) -> None:
        self.clock, self.plan = clock, list(plan)

    def poll(self) -> list[SlotReading]:
        due = [r for t, r in self.plan if t <= self.clock.now]
        self.plan = [(t, r) for t, r in self.plan if t > self.clock.now]
        return due

    def status(self) -> ReaderStatus:
        return ReaderStatus(True, "")

    def still(self, slot: Slot) -> bool:
        return True

    def close(self) -> None:
        return None


class Stop(Exception):
    pass


def run(plan: Sequence[tuple[float, SlotReading]], act: Callable[[float, Shown], Sequence[Press]],
        ledger: TileLedger | None = None, limit: float = 20.0) -> tuple[Tile, list[Shown]]:
    """Wait for the draw slot's tile with ``act`` pressing by what was shown last."""
    clock = StepClock()
    shown: list[Shown] = []
    first = [SlotReading(slot, EMPTY, 1.0) for slot in Slot]
    reader = Edge(clock, [(0.0, r) for r in first] + list(plan))

    class Hands:
        def poll(self) -> list[Press]:
            return list(act(clock.now, shown[-1])) if shown else []

    def show(status: str, tile: Tile | None, picks: tuple[Tile | str, ...],
             lit: int | None, guided: bool) -> None:
        shown.append((clock.now, status, tuple(map(str, picks)), lit))

    def sleep(seconds: float) -> None:
        if clock.now > limit:
            raise Stop(f"no tile was counted: {shown[-3:]}")
        clock.sleep(seconds)

    tile = wait_for_tile(reader, ReadState(startup=True, clock=clock), Slot.DRAW,
                         ledger or TileLedger(), Controls([Hands()]), Confirm(3.0, clock),
                         show, poll_seconds=0.1, sleep=sleep)
    return tile, shown
