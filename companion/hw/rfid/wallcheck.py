"""RFID reads go through the same wall check as camera reads (JR-WALL-1).

A sticker is only as right as its enrolment: a tile whose sticker was enrolled
as the wrong kind shows up here as a 5th copy, and is refused with a message
that names the sticker, so the player can re-enrol it.
"""

from __future__ import annotations

from companion.errors import CompanionError, ImpossibleRead
from companion.hw.ports import SlotReading
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger


class UnknownTag(CompanionError, LookupError):
    """A sticker that is not in the tag map: the app asks the player what tile it is."""

    def __init__(self, uid: str, slot: str) -> None:
        super().__init__(
            f"the sticker {uid} on the {slot} slot is not enrolled: say which tile it is, "
            "or enrol it with `companion calibrate rfid`"
        )
        self.uid = uid


def check_drawn(ledger: TileLedger, reading: SlotReading) -> Tile:
    """The tile an RFID reading says was drawn, if the wall can still hold it.

    Raises :class:`UnknownTag` for a sticker that is not enrolled and
    :class:`ImpossibleRead` (JR-WALL-1) for a 5th copy of a kind.
    """
    slot = reading.slot.value
    if reading.label is None:
        raise UnknownTag(reading.uid or "(no UID)", slot)
    try:
        tile = Tile.from_notation(reading.label)
    except CompanionError as exc:
        raise ImpossibleRead(f"the {slot} slot reports {reading.label!r}, not a tile") from exc
    try:
        ledger.check_draw(tile)
    except ImpossibleRead as exc:
        raise ImpossibleRead(
            f"sticker {reading.uid} on the {slot} slot reads {tile} ({tile.name_ja}), but {exc}; "
            "if this tile is not really a "
            f"{tile}, re-enrol its sticker (`companion calibrate rfid --reenrol KIND`)"
        ) from exc
    return tile
