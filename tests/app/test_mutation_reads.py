"""Mutation spot checks, round 4 (reads.py): behaviour of tiles read from the table that no
other test pinned; each test here fails on the slip named in it."""

from __future__ import annotations

from companion.app.session.controls import Confirm, Controls
from companion.app.session.reads import (
    RELAY_SECONDS,
    ReadState,
    TableTiles,
    interpret,
    wait_for_tile,
)
from companion.hw.buttons import Button, Pick
from companion.hw.ports import Candidate, Slot, SlotReading
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place, TileLedger
from tests.app.session_helpers import ScriptedPresses, ScriptedReader, StepClock, draw


def sticker(uid: str, label: str = "5p") -> SlotReading:
    return SlotReading(Slot.DRAW, label, 1.0, uid=uid)


EMPTY_DRAW = SlotReading(Slot.DRAW, "empty", 1.0)


def test_a_counted_sticker_back_after_exactly_the_relay_time_is_fresh() -> None:
    """The flicker rule holds a counted sticker back while its slot was empty for less than
    RELAY_SECONDS; empty for the whole of it, the tile came back. (Mutant: ``<=``.)"""
    clock = StepClock()
    state = ReadState(clock=clock)
    state.update([sticker("A1")])
    state.use(Slot.DRAW, sticker("A1"))
    state.update([EMPTY_DRAW])
    clock.now = RELAY_SECONDS
    state.update([sticker("A1")])
    assert Slot.DRAW in state.fresh


def test_a_counted_sticker_reported_again_with_no_lift_between_is_not_fresh() -> None:
    """A sticker counted, then reported again by the reader without the slot being seen
    empty in between, is the same tile lying there, however long since the slot was last
    empty. (Mutant: the time the slot was emptied kept after a tile came, so a report long
    after it counted the same tile twice.)"""
    clock = StepClock()
    state = ReadState(clock=clock)
    state.update([EMPTY_DRAW])
    clock.now = 1.0
    state.update([sticker("B2")])
    state.use(Slot.DRAW, sticker("B2"))
    clock.now = 1.0 + 2 * RELAY_SECONDS
    state.update([sticker("B2")])
    assert Slot.DRAW not in state.fresh


def test_a_counted_sticker_back_after_another_lay_there_is_fresh_at_once() -> None:
    """Another sticker laid between them means the counted one came back for real, however
    soon. (Mutant: the sticker last counted kept when another was laid, so the first,
    back within RELAY_SECONDS, was taken for a flicker and never read.)"""
    clock = StepClock()
    state = ReadState(clock=clock)
    state.update([sticker("A1")])
    state.use(Slot.DRAW, sticker("A1"))
    for uid_or_empty in (None, "B2", None, "A1"):
        clock.now += 0.3
        state.update([EMPTY_DRAW if uid_or_empty is None else sticker(uid_or_empty, "7s")])
    assert Slot.DRAW in state.fresh and state.latest[Slot.DRAW].uid == "A1"


def test_a_one_slot_reader_is_ready_only_after_its_start_up_time_has_passed() -> None:
    """A reading at exactly ``startup_seconds`` after the reader first answered still counts
    as lying there at start-up, so the reader is not ready (no tile asked for) until later.
    (Mutant: ready at ``>=``, when a tile then laid is still refused.)"""
    clock = StepClock()
    state = ReadState(clock=clock, startup=True, startup_seconds=1.0)
    state.update([], working=True)
    clock.now = 1.0
    assert not state.ready()
    clock.now = 1.05
    assert state.ready()


def test_a_read_whose_every_candidate_is_a_fifth_copy_names_the_best_one() -> None:
    """JR-WALL-1: with no legal candidate the problem is the reader's best read's, the tile
    the player most likely laid, not its last guess's. (Mutant: the last error kept.)"""
    ledger = TileLedger()
    for notation in ("1z", "2z"):
        for _ in range(4):
            ledger.move(Tile.from_notation(notation), Place.WALL, Place.TABLE)
    read = interpret(SlotReading(Slot.DRAW, "1z", 0.9, (Candidate("2z", 0.1),)), ledger)
    assert read.tile is None and read.problem.startswith("1z 東 on the draw slot: a 5th copy")
    assert "2z" not in read.problem


def test_on_a_one_slot_reader_a_tile_swapped_without_a_lift_seen_replaces_the_offer() -> None:
    """A one-slot reader keeps the offer on only when the tile on offer was seen lifted (it
    is laid on its own slot, and the next tile is read): another tile read in its place with
    no lift between was swapped for it, and is offered instead. (Mutant: on a one-slot
    reader the offer is never replaced, and A counted a tile no longer there.)"""
    clock = StepClock()
    tile = wait_for_tile(
        ScriptedReader([[draw("3m")], [draw("8m")]]), ReadState(), Slot.DRAW, TileLedger(),
        Controls([ScriptedPresses([[], [], [Button.ATTACK]])]), Confirm(5.0, clock),
        lambda *shown: None, poll_seconds=0.1, sleep=clock.sleep, one_slot=True)
    assert tile == Tile.from_notation("8m")


def test_a_number_key_past_the_picks_picks_nothing() -> None:
    """Four picks (three tiles, then "Other tile…": reviewc71 DEFECT 2) are keys 1–4: key 5
    (Pick 4) is none of them and is passed over, and a key of one then takes it. (Mutant:
    ``index <= len(picks)``, an IndexError.)"""
    clock = StepClock()
    tile = wait_for_tile(
        ScriptedReader([[draw(None, "7p", "4z", "1s")]]), ReadState(), Slot.DRAW, TileLedger(),
        Controls([ScriptedPresses([[], [Pick(4)], [Pick(1)]])]), Confirm(1.0, clock),
        lambda *shown: None, poll_seconds=0.1, sleep=clock.sleep)
    assert tile == Tile.from_notation("4z")


def test_a_sticker_an_rdm6300_reads_half_a_second_after_it_answered_lay_there_at_start() -> None:
    """An RDM6300 repeats a present tag every 0.1–0.3 s, so its first frame may come a few
    polls after its port opened: a tag read half a second after it first answered lay on it
    when the session began (maybe counted before a power cut), and is not fresh.
    (Mutant: RDM6300_STARTUP_SECONDS 0.1, when it was taken for a tile laid.)"""
    clock = StepClock()
    tiles = TableTiles(ScriptedReader([]), Controls([]), 3.0, 0.1, clock=clock, one_slot=True)
    tiles.state.update([], working=True)
    clock.now = 0.5
    tiles.state.update([sticker("C3")], working=True)
    assert Slot.DRAW in tiles.state.at_start and Slot.DRAW not in tiles.state.fresh
