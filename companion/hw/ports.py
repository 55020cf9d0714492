"""The small interfaces every hardware backend implements (the app sees only these).

Slots are the places on the table a reader watches: the draw slot, the four
tiles of a room's encounter map (JR-MAP-2, laid out 2x2) and, on the camera
mat, the dice area.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol


class Slot(Enum):
    """A place on the mat or tray that holds one tile."""

    DRAW = "draw"
    ROOM_TL = "room_tl"
    ROOM_TR = "room_tr"
    ROOM_BL = "room_bl"
    ROOM_BR = "room_br"


ROOM_SLOTS: tuple[Slot, ...] = (Slot.ROOM_TL, Slot.ROOM_TR, Slot.ROOM_BL, Slot.ROOM_BR)

# The slots as the player knows them, in the words of the game's prompts ("put it on the
# bottom-left room slot"): a prompt or a reader's status naming a slot uses these, never
# the enum's values.
SLOT_NAMES: dict[Slot, str] = {
    Slot.DRAW: "draw",
    Slot.ROOM_TL: "top-left room",
    Slot.ROOM_TR: "top-right room",
    Slot.ROOM_BL: "bottom-left room",
    Slot.ROOM_BR: "bottom-right room",
}
#: The same in Japanese, beside them on the screen.
SLOT_NAMES_JA: dict[Slot, str] = {
    Slot.DRAW: "引き牌の枠",
    Slot.ROOM_TL: "部屋の左上",
    Slot.ROOM_TR: "部屋の右上",
    Slot.ROOM_BL: "部屋の左下",
    Slot.ROOM_BR: "部屋の右下",
}


@dataclass(frozen=True, slots=True)
class Candidate:
    """One possible reading of a slot: a READER_LABELS label and how sure the reader is."""

    label: str
    confidence: float


@dataclass(frozen=True, slots=True)
class SlotReading:
    """What a reader settled on for one slot.

    ``label`` is a tile in MPSZ (``"5p"``), ``"back"``, ``"empty"``, or ``None``
    when the reader is unsure (the player should adjust the tile).
    ``candidates`` keeps the top-k alternatives, best first, so a read the wall
    refuses (a 5th copy, JR-WALL-1) can fall back to the next best legal tile.
    ``uid`` is the RFID tag's UID (upper-case hex) when the reader is RFID.
    Whether an uncertain read is the paper under a shadow is not a reading's: the camera
    reader's ``paper(slot)`` says how the slot looks now (reviewc67b DEFECT 2).
    """

    slot: Slot
    label: str | None
    confidence: float
    candidates: tuple[Candidate, ...] = ()
    uid: str | None = None


@dataclass(frozen=True, slots=True)
class ReaderStatus:
    """Whether a reader can currently see the table, in words for the player."""

    ok: bool
    message: str
    counters: dict[str, int] = field(default_factory=dict)


class TileReader(Protocol):
    """A source of slot readings: camera, RFID tray, or the simulated wall's fake.

    ``poll`` never blocks for long and never raises on a bad frame or line; it
    returns the slots whose settled reading changed since the last call, and
    reports trouble through ``status``.
    """

    def poll(self) -> list[SlotReading]: ...

    def status(self) -> ReaderStatus: ...

    def close(self) -> None: ...
