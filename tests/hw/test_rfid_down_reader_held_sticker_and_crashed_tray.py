"""The host's side of review61f: a down reader's last sticker (F1), a sticker held back at
start-up (F2), a crashed tray (F4c) and a tray slow to boot (F5); the simulator on a pty."""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.app.session.reads import ReadState
from companion.hw.ports import Slot
from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import LinkState, TrayReader, TraySettings
from companion.systems.jongrogue.tiles import EMPTY
from tests.hw.rfid_sim_helpers import (
    FIRMWARE_VERSION,
    PATIENCE,
    UID_5P,
    UID_7Z,
    host_only,
    placed,
    pump,
    ready,
    removed,
)


def test_a_tile_moved_off_a_down_reader_counts_on_its_new_slot(
        sim: TraySimulator, tray: TrayReader) -> None:
    """The down reader's slot keeps its last sticker: the tile laid on the draw slot was
    "read on two slots", taken on neither while the reader stayed down, and the status
    told the player to move it instead of naming the reader."""
    assert ready(sim, tray).ok
    sim.place(1, UID_7Z)
    sim.settle()
    assert placed(pump(sim, tray, until=bool)) == [(Slot.ROOM_TL, UID_7Z, "7z")]
    sim.break_reader(1)  # its wire comes loose, the tile still on it
    sim.settle()
    pump(sim, tray, until=lambda e: not tray.status().ok)
    sim.remove(1)
    sim.place(0, UID_7Z)  # the player moves the tile to the draw slot
    sim.settle()
    events = pump(sim, tray, until=lambda e: bool(placed(e)))
    assert removed(events) == [(Slot.ROOM_TL, UID_7Z)]  # it left the down slot
    assert placed(events) == [(Slot.DRAW, UID_7Z, "7z")]
    message = tray.status().message
    assert message.startswith("the reader under the top-left room slot is not answering")
    sim.break_reader(1, False)  # mended: the slot reads empty again, the draw keeps its tile
    sim.settle()
    # The tray retries the reader retry_ms later, and then needs 3 clean polls to remove
    # the sticker it kept: 0.3 s of pumping did not always see both on a loaded machine.
    pump(sim, tray, until=lambda e: tray.status().ok)
    assert tray.status().ok, tray.status().message
    assert tray.shown == {**dict.fromkeys(tray.slots), Slot.DRAW: UID_7Z}


def test_a_sticker_held_back_at_start_up_still_lay_there(
        sim: TraySimulator, tray: TrayReader) -> None:
    """A tile on the draw slot at start-up, its sticker read by the top-left reader too:
    once only the draw reader read it, it came as a fresh draw (the start-up rule lost)."""
    state = ReadState(startup=True)
    sim.place(0, UID_5P)
    sim.place(1, UID_5P)
    sim.settle()

    def read_until(done: Callable[[], bool]) -> None:
        deadline = time.monotonic() + PATIENCE
        while True:
            sim.step()
            state.update(tray.poll(), tray.status().ok)
            if done() or time.monotonic() >= deadline:
                return
            tray.wait(0.002)

    def draw_read_alone() -> bool:
        draw, room = state.latest.get(Slot.DRAW), state.latest.get(Slot.ROOM_TL)
        return draw is not None and draw.uid == UID_5P and room is not None \
            and room.label == EMPTY and tray.status().ok

    read_until(lambda: state.reported)  # the first snapshot (it was 0.5 s of reading)
    assert Slot.DRAW in state.at_start and Slot.DRAW not in state.fresh
    sim.remove(1)  # the top-left reader stops reaching it
    sim.settle()
    read_until(draw_read_alone)
    assert state.latest[Slot.DRAW].uid == UID_5P
    assert Slot.DRAW in state.at_start and Slot.DRAW not in state.fresh
    assert state.latest[Slot.ROOM_TL].label == EMPTY
    assert tray.status().ok, tray.status().message


def test_a_sticker_held_back_at_start_up_is_placed_as_lying_there(
        sim: TraySimulator, tray: TrayReader) -> None:
    """calibrate rfid refuses a tile that lay there (TagEvent.at_start): it took this one
    for the tile it asked for."""
    sim.place(0, UID_5P)
    sim.place(1, UID_5P)
    sim.settle()
    assert placed(pump(sim, tray, timeout=0.3)) == []
    sim.remove(1)
    sim.settle()
    events = pump(sim, tray, until=bool)
    assert [(e.slot, e.at_start) for e in events] == [(Slot.DRAW, True)]


def test_a_crashed_tray_is_named_not_taken_for_an_unplugged_one(
        sim: TraySimulator, tray: TrayReader) -> None:
    assert ready(sim, tray).ok
    sim.tray.emit("ERR", ("CRASH", "MemoryError"), sim.now_ms())  # as firmware/main.py does
    pump(sim, tray, until=lambda e: tray.status().counters["tray_errors"] >= 1)
    sim.unplug()  # it resets: USB goes
    pump(sim, tray, until=lambda e: not tray.link.is_open)
    message = tray.status().message
    assert message.startswith("the tray's firmware crashed (MemoryError): replug the tray")
    assert "ファームウェア" in message
    sim.power_cycle()  # back: the crash is over
    assert ready(sim, tray).ok


def test_a_crash_in_the_power_up_polls_is_named_too(
        sim: TraySimulator, patient_tray: TrayReader) -> None:
    """Its ERR CRASH comes before any HELLO, while the host waits for one (long enough
    that a stall cannot time the wait out: the test is not about timeouts)."""
    tray = patient_tray
    assert ready(sim, tray).ok
    sim.unplug()
    sim.power_cycle(boot_seconds=10)
    # the host opens the port and says HELLO
    pump(sim, tray, until=lambda e: tray.state is LinkState.HANDSHAKE)
    lines = tray.status().counters["lines"]
    sim.tray.emit("ERR", ("CRASH", "ValueError"), sim.now_ms())
    pump(sim, tray, until=lambda e: tray.status().counters["lines"] > lines)  # read
    sim.unplug()
    pump(sim, tray, until=lambda e: not tray.link.is_open)
    assert tray.status().message.startswith("the tray's firmware crashed (ValueError)")


def test_a_tray_slow_to_boot_is_waited_for(sim: TraySimulator, tag_map: TagMap) -> None:
    """Imports and power-up polls delay the tray's HELLO past a second (five dead readers:
    0.75 s of polls alone): the host gave up at 1 s, and said "no hello … is it the tray"."""
    sim.place(0, UID_5P)
    reader = TrayReader(lambda: sim.port if sim.plugged else None, tag_map,
                        settings=TraySettings())
    try:
        sim.unplug()
        sim.power_cycle(boot_seconds=1.5)
        events = pump(sim, reader, until=bool, timeout=10.0)
        assert reader.status().ok, reader.status().message
        assert reader.counters["timeouts"] == 0
        assert placed(events) == [(Slot.DRAW, UID_5P, "5p")]
    finally:
        reader.close()


def test_a_hello_read_before_its_snapshot_still_leaves_the_tiles_lying_there(
        sim: TraySimulator, patient_tray: TrayReader) -> None:
    """The tray's HELLO and its first SNAP came in two reads (a loaded Pi, a slow USB hub):
    the poll that read the HELLO alone found the tray working, so the snapshot's tile, a
    poll later, was taken for a fresh draw (the CI run of stop 63). (The lines are fed by
    hand, the tray silent: a patient reader, which no stall times out.)"""
    tray = patient_tray
    state = ReadState(startup=True)

    def read_until(done: Callable[[], bool]) -> None:
        deadline = time.monotonic() + PATIENCE
        while not done() and time.monotonic() < deadline:
            tray.wait(0.005)
            state.update(tray.poll(), tray.status().ok)

    # the host opens the port and sends its HELLO; the tray is silent
    host_only(tray, PATIENCE, until=lambda e: tray.state is LinkState.HANDSHAKE)
    sim.inject(encode(0, Kind.HELLO, FIRMWARE_VERSION, "5"))
    read_until(lambda: tray.state is LinkState.READY)
    assert tray.state is LinkState.READY and not state.latest
    assert not tray.status().ok
    assert "what lies on it" in tray.status().message
    time.sleep(0.01)
    sim.inject(encode(1, Kind.SNAP, UID_5P, "-", "-", "-", "-"))
    read_until(lambda: Slot.DRAW in state.latest)
    assert state.latest[Slot.DRAW].uid == UID_5P
    assert Slot.DRAW in state.at_start and Slot.DRAW not in state.fresh
    assert tray.status().ok, tray.status().message
