"""What an RFID reader reports: a tag placed on or removed from a slot."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from companion.hw.ports import Candidate, Slot, SlotReading
from companion.systems.jongrogue.tiles import EMPTY


class TagAction(Enum):
    PLACED = "placed"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True)
class TagEvent:
    """One tag event. ``label`` is the enrolled tile (MPSZ) or None for an unknown UID.

    ``arrived`` is the ``time.perf_counter()`` at which the bytes that finished
    the event were read: ``scripts/bench_rfid.py`` times the host's share of the
    latency from it.

    ``at_start``: a PLACED of a tag that lay on the slot when the reader came up (the
    tray's first snapshot, an RDM6300's first second), not one the player has just
    laid: ``companion calibrate rfid`` must not take it for the tile it asked for.
    """

    action: TagAction
    slot: Slot
    uid: str
    label: str | None
    arrived: float = 0.0
    at_start: bool = False

    def reading(self) -> SlotReading:
        """The slot's new settled reading, for the TileReader port."""
        if self.action is TagAction.REMOVED:
            return SlotReading(self.slot, EMPTY, 1.0)
        if self.label is None:
            return SlotReading(self.slot, None, 0.0, uid=self.uid)
        return SlotReading(self.slot, self.label, 1.0, (Candidate(self.label, 1.0),), uid=self.uid)


def latest_readings(events: list[TagEvent]) -> list[SlotReading]:
    """The last reading of each slot that changed, in the order the slots first changed."""
    last: dict[Slot, SlotReading] = {}
    for event in events:
        last[event.slot] = event.reading()
    return list(last.values())
