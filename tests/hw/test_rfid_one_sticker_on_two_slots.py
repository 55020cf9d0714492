"""One sticker read on two slots at once (audit hw61 N2): a reader reading its neighbour's
tile. It was taken on both, so a session could count one tile from two slots."""

from __future__ import annotations

from companion.hw.ports import Slot
from companion.hw.rfid.events import TagAction
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tray import TrayReader
from tests.hw.rfid_sim_helpers import UID_5P, UID_7Z, placed, pump, ready, removed


def test_a_neighbour_reading_the_sticker_too_takes_it_off_both_and_names_them(
        sim: TraySimulator, tray: TrayReader) -> None:
    assert ready(sim, tray).ok
    sim.place(0, UID_5P)
    sim.settle()
    assert placed(pump(sim, tray, until=bool)) == [(Slot.DRAW, UID_5P, "5p")]
    sim.place(1, UID_5P)  # the top-left reader reaches the draw slot's sticker
    sim.settle()
    events = pump(sim, tray, until=bool, timeout=0.5)
    events += pump(sim, tray, timeout=0.1)
    assert placed(events) == []
    assert removed(events) == [(Slot.DRAW, UID_5P)]
    status = tray.status()
    assert not status.ok
    assert status.message.startswith(
        "sticker 5p 04A1B2C3 read on the draw and top-left room slots: move it so only one "
        "slot reads it")
    assert "引き牌の枠と部屋の左上" in status.message
    sim.remove(1)  # the player sets the tile square on the draw slot
    sim.settle()
    events = pump(sim, tray, until=bool, timeout=0.5)
    assert placed(events) == [(Slot.DRAW, UID_5P, "5p")]
    assert tray.status().ok, tray.status().message


def test_a_sticker_on_two_slots_at_start_is_placed_on_neither(
        sim: TraySimulator, tray: TrayReader) -> None:
    """No PLACED for it; the first readings (what lay there at start-up, never counted)
    give it on both slots, since wherever it turns out to lie, it lay there (review61f F2,
    tests/hw/test_rfid_down_reader_held_sticker_and_crashed_tray.py)."""
    sim.place(2, UID_7Z)
    sim.place(4, UID_7Z)
    sim.place(0, UID_5P)
    sim.settle()
    events = pump(sim, tray, until=bool)
    assert placed(events) == [(Slot.DRAW, UID_5P, "5p")]
    assert "sticker 7z 04112233445566 read on the top-right room and bottom-right room slots" in (
        tray.status().message)


def test_a_tile_slid_to_the_next_slot_leaves_one_before_it_lies_on_the_other(
        sim: TraySimulator, tray: TrayReader) -> None:
    """Its new slot's PLACE (2 polls) comes before its old one's REMOVE (3 polls)."""
    sim.place(1, UID_7Z)
    sim.settle()
    assert ready(sim, tray).ok
    pump(sim, tray, timeout=0.1)
    sim.remove(1)
    sim.place(2, UID_7Z)
    sim.settle()
    events = pump(sim, tray, until=lambda e: len(e) == 2)
    assert [(e.action, e.slot) for e in events] == [(TagAction.REMOVED, Slot.ROOM_TL),
                                                   (TagAction.PLACED, Slot.ROOM_TR)]
    assert tray.status().ok
