"""RFID reads go through the same wall check as camera reads (JR-WALL-1).

A sticker is only as right as its enrolment: a tile whose sticker was enrolled
as the wrong kind shows up here as a 5th copy, and is refused with a message
that names the sticker and how to re-enrol it (laying it again cannot help).
"""

from __future__ import annotations

from companion.errors import CompanionError, ImpossibleRead
from companion.hw.ports import SLOT_NAMES, SLOT_NAMES_JA, Slot, SlotReading
from companion.hw.rfid.tagmap import TAGMAP_FILENAME
from companion.systems.jongrogue.tiles import COPIES_PER_KIND, Tile
from companion.systems.jongrogue.wall import TileLedger


class UnknownTag(CompanionError, LookupError):
    """A sticker that is not in the tag map.

    The message offers only what the player can do at the table: a sticker names
    no tile, so there is nothing to pick from (unlike an unsure camera read), and
    the game holds the reader's port, so enrolling means stopping the game first.
    ``--reenrol KIND`` is the one command that enrols a single sticker, whether
    KIND still has room for it or it replaces a lost one.
    """

    def __init__(self, uid: str, slot: Slot) -> None:
        # The Japanese early: the command after it may be cut on a small screen.
        super().__init__(
            f"sticker {uid} on the {SLOT_NAMES[slot]} slot is not enrolled: put the tile "
            f"back in the wall and lay another {SLOT_NAMES_JA[slot]}のシールは未登録: 山に戻して"
            "別の牌を; or stop the game and run "
            "`companion calibrate rfid --reenrol KIND` (KIND: its tile, e.g. 5p)"
        )
        self.uid = uid


def check_drawn(ledger: TileLedger, reading: SlotReading) -> Tile:
    """The tile an RFID reading says was drawn, if the wall can still hold it.

    Raises :class:`UnknownTag` for a sticker that is not enrolled and
    :class:`ImpossibleRead` (JR-WALL-1) for a 5th copy of a kind.
    """
    slot, slot_ja = SLOT_NAMES[reading.slot], SLOT_NAMES_JA[reading.slot]
    if reading.label is None:
        raise UnknownTag(reading.uid or "(no UID)", reading.slot)
    try:
        tile = Tile.from_notation(reading.label)
    except CompanionError as exc:
        raise ImpossibleRead(f"the {slot} slot reports {reading.label!r}, not a tile "
                             f"{slot_ja}の読み取りが牌ではない") from exc
    try:
        ledger.check_draw(tile)
    except ImpossibleRead as exc:
        # Not the ledger's "place the tile again": laid again, the sticker reads the same.
        # Enrolment refuses a sticker enrolled already, so its line goes first, then
        # --reenrol takes it anew.
        raise ImpossibleRead(
            f"sticker {reading.uid} on the {slot} slot reads {tile} ({tile.name_ja}), but "
            f"{tile} cannot be drawn: all {COPIES_PER_KIND} are out of the wall already "
            f"({tile.name_ja}は山牌に無い: シールの登録違い?). If the "
            f"tile is not a {tile}, its sticker was enrolled wrong: to re-enrol it, stop the "
            f"game, delete its line in {TAGMAP_FILENAME} and run "
            "`companion calibrate rfid --reenrol KIND` (KIND: the tile it is)"
        ) from exc
    return tile
