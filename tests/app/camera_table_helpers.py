"""A session's tile reads on the rendered mat through the real camera reader and classifier, on
game time: the mat drawn once per layout (StillMat), and the table whose hands move tiles as
its polls sleep (Table)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from companion.app.session.controls import Controls
from companion.app.session.mode import TileAsk
from companion.app.session.reads import TableTiles
from companion.hw.buttons import Press
from companion.hw.camera.capture import RenderedSource
from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.reader import CameraTileReader
from companion.hw.ports import Slot
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger

POLL = 0.1  # game seconds between two frames
ACCEPT = 0.5  # a read shown this long counts


class StillMat(RenderedSource):
    """The rendered mat, drawn once per layout of tiles (drawing is the slow part): a still
    table gives the same picture until a hand moves a tile."""

    def __init__(self, tiles: dict[Slot, str]) -> None:
        super().__init__(tiles, seed=3)
        self.frames: dict[frozenset[tuple[Slot, str]], np.ndarray | None] = {}

    def read(self) -> np.ndarray | None:
        layout = frozenset(self.tiles.items())
        if layout not in self.frames:
            self.frames[layout] = super().read()
        return self.frames[layout]


class NoPresses:
    def poll(self) -> list[Press]:
        return []


class Table:
    """The rendered mat, its camera reader and the session's reads, on game time: each poll's
    sleep makes the hands' moves due by then. ``limit`` game seconds per tile asked for."""

    def __init__(self, classifier: TileClassifier, mat: dict[Slot, str],
                 ledger: TileLedger) -> None:
        self.source = StillMat(mat)
        self.reader = CameraTileReader(self.source, classifier, ledger=ledger)
        self.now = 0.0
        self.moves: list[tuple[float, Callable[[], None]]] = []
        self.shown: list[tuple[float, str, str | None, tuple[str, ...]]] = []
        self.prompts: list[str] = []
        self.tiles = TableTiles(self.reader, Controls([NoPresses()]), accept_seconds=ACCEPT,
                                poll_seconds=POLL, sleep=self.sleep, clock=lambda: self.now)
        self.deadline = 0.0

    def at(self, seconds: float, move: Callable[[], None]) -> None:
        self.moves = sorted([*self.moves, (self.now + seconds, move)], key=lambda m: m[0])

    def sleep(self, seconds: float) -> None:
        if self.now >= self.deadline:
            raise TimeoutError
        while self.moves and self.moves[0][0] <= self.now:
            self.moves.pop(0)[1]()
        self.now += seconds

    def show(self, prompt: str, **kwargs: object) -> None:
        self.prompts.append(prompt)
        options = kwargs.get("options") or ()
        self.shown.append((self.now, str(kwargs.get("status", "")),
                           kwargs.get("prompt_tile"),  # type: ignore[arg-type]
                           tuple(o.choice for o in options)))  # type: ignore[attr-defined]

    def read(self, ask: TileAsk, limit: float = 8.0) -> Tile | None:
        """The tile counted for ``ask`` within ``limit`` game seconds, or None."""
        self.deadline = self.now + limit
        try:
            return self.tiles.next_tile(ask, self.show)
        except TimeoutError:
            return None

    def last_status(self) -> str:
        return self.shown[-1][1]
