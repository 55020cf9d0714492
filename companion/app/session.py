"""A play session: one game from the first draw to 生還 or death, at the table or headless.

The session tells the player what to do next, gets the answer (a tile from the
camera, the RFID tray or the simulated wall; a choice from the buttons, the
keyboard, a tap or the auto-player), feeds it to the rules engine, and shows
what happened. After every resolved step it saves the game (atomically, see
:mod:`companion.app.save`) *before* appending the step's log lines, so a power
cut at any moment loses nothing and doubles nothing: ``--resume`` replays the
saved inputs and rewrites the log from where this game's lines began.

A tile read from the table is shown before it counts: the player can reject it
(FLEE / back) during ``accept_seconds``, confirm it at once (ATTACK), or let the
timeout accept it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from companion.errors import ImpossibleRead
from companion.hw.buttons import Button, Pick, Press
from companion.hw.ports import Slot, SlotReading, TileReader
from companion.rules.tiles import BACK, EMPTY, Tile
from companion.rules.wall import TileLedger


class GameLog:
    """This game's JSON Lines in a ``--log`` file that may hold earlier games before it.

    ``start`` is the byte offset where this game's lines begin (kept in the
    save). :meth:`rewrite` truncates back to it and writes every line of the
    game so far; :meth:`append` adds a step's lines. Both fsync.
    """

    def __init__(self, path: Path, start: int) -> None:
        self.path = path
        self.start = start

    @classmethod
    def begin(cls, path: Path) -> GameLog:
        """A log for a new game, after whatever the file already holds."""
        try:
            start = path.stat().st_size
        except FileNotFoundError:
            start = 0
        return cls(path, start)

    def rewrite(self, lines: Sequence[str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        with os.fdopen(fd, "r+b") as handle:
            size = handle.seek(0, os.SEEK_END)
            # A file cut shorter than where this game began (edited by hand): write at its end.
            start = min(self.start, size)
            handle.truncate(start)
            handle.seek(start)
            handle.write("".join(line + "\n" for line in lines).encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        self.start = start

    def append(self, lines: Sequence[str]) -> None:
        if not lines:
            return
        with open(self.path, "ab") as handle:
            handle.write("".join(line + "\n" for line in lines).encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())


class PressSource(Protocol):
    """Anything with ``poll() -> list[Press]``: ButtonPanel, KeyboardInput, a Display."""

    def poll(self) -> list[Press]: ...


class Controls:
    """Every source of presses at once: the buttons, the keyboard, the display's keys and taps."""

    def __init__(self, sources: Sequence[PressSource]) -> None:
        self.sources = list(sources)

    def poll(self) -> list[Press]:
        presses: list[Press] = []
        for source in self.sources:
            presses.extend(source.poll())
        return presses


@dataclass(slots=True)
class ReadState:
    """What the table reader last said about each slot, and which readings were already used."""

    latest: dict[Slot, SlotReading] = field(default_factory=dict)
    fresh: set[Slot] = field(default_factory=set)

    def update(self, readings: Sequence[SlotReading]) -> None:
        for reading in readings:
            self.latest[reading.slot] = reading
            self.fresh.add(reading.slot)

    def consume(self, slot: Slot) -> None:
        """The tile on ``slot`` was used: the next tile there must be a new placement."""
        self.fresh.discard(slot)


@dataclass(frozen=True, slots=True)
class Read:
    """A reading the session can offer the player: a legal tile, or a reason it cannot."""

    tile: Tile | None
    problem: str = ""


def interpret(reading: SlotReading, ledger: TileLedger) -> Read:
    """The best legal tile of a reading (JR-WALL-1), falling back on the reader's candidates."""
    where = reading.slot.value.replace("_", " ")
    if reading.label is None:
        return Read(None, f"cannot read the tile on the {where} slot: straighten it")
    if reading.label == BACK:
        return Read(None, f"the tile on the {where} slot is face down: turn it over")
    if reading.label == EMPTY:
        return Read(None, "")
    labels = [reading.label, *(c.label for c in reading.candidates)]
    first_error = ""
    for label in dict.fromkeys(labels):
        if label in (BACK, EMPTY):
            continue
        tile = Tile.from_notation(label)
        try:
            ledger.check_draw(tile)
        except ImpossibleRead as exc:
            first_error = first_error or str(exc)
            continue
        return Read(tile)
    return Read(None, first_error)


class Confirm:
    """Shows a read for ``accept_seconds``: FLEE rejects it, ATTACK accepts at once."""

    def __init__(self, accept_seconds: float, clock: Callable[[], float] = time.monotonic):
        self.accept_seconds = accept_seconds
        self.clock = clock
        self.tile: Tile | None = None
        self.since = 0.0

    def offer(self, tile: Tile) -> None:
        self.tile = tile
        self.since = self.clock()

    def remaining(self) -> float:
        return max(0.0, self.accept_seconds - (self.clock() - self.since))

    def decide(self, presses: Sequence[Press]) -> bool | None:
        """True: accepted; False: rejected; None: still showing."""
        if self.tile is None:
            return None
        for press in presses:
            if press is Button.FLEE:
                self.tile = None
                return False
            if press is Button.ATTACK:
                return True
        return True if self.remaining() <= 0 else None


def wait_for_tile(
    reader: TileReader,
    state: ReadState,
    slot: Slot,
    ledger: TileLedger,
    controls: Controls,
    confirm: Confirm,
    show: Callable[[str, Tile | None], None],
    poll_seconds: float,
    sleep: Callable[[float], None] = time.sleep,
) -> Tile:
    """Block until a tile on ``slot`` is read, shown and not rejected; return it.

    ``show(status, tile)`` redraws the prompt with a status line and the tile
    read (or None). The tile is only taken from a *new* placement on the slot,
    so a tile left lying there from the last step is never counted twice.
    """
    shown: tuple[str, Tile | None] | None = None
    while True:
        state.update(reader.poll())
        presses = controls.poll()
        status = ""
        reading = state.latest.get(slot)
        if confirm.tile is None and reading is not None and slot in state.fresh:
            read = interpret(reading, ledger)
            if read.tile is not None:
                confirm.offer(read.tile)
                presses = []  # a press made before the tile was shown does not judge it
            else:
                status = read.problem
        if confirm.tile is not None:
            decision = confirm.decide(presses)
            if decision is True:
                tile = confirm.tile
                confirm.tile = None
                state.consume(slot)
                return tile
            if decision is False:
                state.consume(slot)
                status = "read rejected: take the tile off the slot and put it back"
        if confirm.tile is not None:
            status = (f"read {confirm.tile} {confirm.tile.name_ja} ({confirm.tile.name_en}): "
                      f"B rejects, A accepts; counts in {confirm.remaining():.0f} s")
        reader_status = reader.status()
        if not reader_status.ok:
            status = reader_status.message
        if (status, confirm.tile) != shown:
            shown = (status, confirm.tile)
            show(status, confirm.tile)
        sleep(poll_seconds)


def menu_press(press: Press, count: int, highlight: int,
               shortcuts: dict[Button, int]) -> tuple[int | None, int]:
    """Apply a press to a menu of ``count`` options: (chosen index or None, new highlight).

    A tap or number picks directly; MENU (a long press of ITEM) moves the
    highlight; ATTACK confirms the highlighted option; FLEE, RANGED and ITEM
    choose their own option when one is offered (``shortcuts``); FLEE with no
    flee option moves the highlight back.
    """
    if isinstance(press, Pick):
        return (press.index, highlight) if 0 <= press.index < count else (None, highlight)
    if press is Button.MENU:
        return None, (highlight + 1) % count
    if press is Button.ATTACK:
        return highlight, highlight
    if press in shortcuts:
        return shortcuts[press], highlight
    if press is Button.FLEE:
        return None, (highlight - 1) % count
    if press is Button.ITEM:
        return None, (highlight + 1) % count
    return None, highlight
