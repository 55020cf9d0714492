"""Stable reads from the camera: settling, uncertainty, the wall check, and trouble statuses."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.hw.camera.capture import FileSource, RenderedSource
from companion.hw.camera.classifier import Prediction, TileClassifier
from companion.hw.camera.reader import (
    CameraTileReader,
    ReaderSettings,
    SlotTracker,
    grey_inside,
    legal_candidate,
)
from companion.hw.camera.sim_scene import Camera, render_scene
from companion.hw.ports import Candidate, Slot, TileReader
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place, TileLedger
from tests.hw.camera_prediction_helpers import predicted

STEADY = ReaderSettings(stable_frames=2, min_confidence=0.5)


@pytest.fixture(scope="module")
def classifier() -> TileClassifier:
    return TileClassifier()


def settle(reader: CameraTileReader, frames: int) -> dict[Slot, str | None]:
    changed: dict[Slot, str | None] = {}
    for _ in range(frames):
        changed.update({r.slot: r.label for r in reader.poll()})
    return changed


def exhaust(ledger: TileLedger, label: str) -> None:
    tile = Tile.from_notation(label)
    for _ in range(4):
        ledger.move(tile, Place.WALL, Place.DISCARDS)


def test_tiles_settle_after_agreeing_frames_and_only_changes_are_reported(
    classifier: TileClassifier,
) -> None:
    source = RenderedSource({Slot.DRAW: "3p", Slot.ROOM_TL: "6z", Slot.ROOM_BR: "back"}, seed=1)
    reader = CameraTileReader(source, classifier, settings=STEADY)
    port: TileReader = reader  # what the app holds
    assert all(callable(getattr(port, name)) for name in ("poll", "status", "close"))
    assert reader.poll() == []  # one frame is not yet stable
    second = {r.slot: r.label for r in reader.poll()}
    assert second == {Slot.DRAW: "3p", Slot.ROOM_TL: "6z", Slot.ROOM_BR: "back",
                      Slot.ROOM_TR: "empty", Slot.ROOM_BL: "empty"}
    assert reader.poll() == []  # nothing changed
    assert reader.status().ok and reader.status().counters["frames"] == 3
    source.place(Slot.DRAW, "8m")
    assert settle(reader, 2) == {Slot.DRAW: "8m"}
    reading = reader.readings()[Slot.DRAW]
    assert reading.candidates[0].label == "8m" and len(reading.candidates) > 1
    reader.close()


def test_below_the_threshold_a_slot_is_uncertain_and_the_player_is_asked(
    classifier: TileClassifier,
) -> None:
    source = RenderedSource({Slot.DRAW: "2s"}, seed=2)
    picky = ReaderSettings(stable_frames=2, min_confidence=1.01)  # nothing is ever that sure
    reader = CameraTileReader(source, classifier, settings=picky)
    readings = settle(reader, 2)
    assert readings[Slot.DRAW] is None
    # the slots as the prompts name them, not room_tl
    assert reader.status().message.endswith("adjust the tiles on the draw, top-left room, "
                                            "top-right room, bottom-left room and "
                                            "bottom-right room slots 牌を置き直して")


def test_legal_candidate_skips_a_fifth_copy() -> None:
    """JR-WALL-1: a read the wall refuses falls back to the next best legal tile."""
    ledger = TileLedger()
    exhaust(ledger, "5p")
    candidates = (Candidate("5p", 0.8), Candidate("6p", 0.15), Candidate("5s", 0.05))
    assert legal_candidate(candidates, ledger, 0.1) == Candidate("6p", 0.15)
    assert legal_candidate(candidates, None, 0.1) == Candidate("5p", 0.8)
    # the next legal tile must still be sure enough
    assert legal_candidate(candidates, ledger, 0.5) is None
    exhaust(ledger, "6p")
    assert legal_candidate((Candidate("6p", 0.9), Candidate("back", 0.08)), ledger, 0.05) == (
        Candidate("back", 0.08)
    )


def test_reader_applies_the_wall_check(classifier: TileClassifier) -> None:
    """JR-WALL-1: with every 9s out of the wall, a 9s on the mat is not read as 9s."""
    ledger = TileLedger()
    exhaust(ledger, "9s")
    source = RenderedSource({Slot.DRAW: "9s"}, seed=4)
    reader = CameraTileReader(source, classifier, ledger=ledger,
                              settings=ReaderSettings(2, 0.0))
    draw = settle(reader, 2)[Slot.DRAW]
    assert draw != "9s"
    assert reader.readings()[Slot.DRAW].candidates[0].label == "9s"  # what it looked like


def test_mat_out_of_view_then_back(classifier: TileClassifier) -> None:
    source = RenderedSource({Slot.ROOM_TR: "1m"}, seed=5)
    reader = CameraTileReader(source, classifier, settings=STEADY)
    source.hidden_markers = (0, 1, 2)
    assert reader.poll() == []
    status = reader.status()
    assert not status.ok and "mat not in view" in status.message
    assert status.counters["mat_lost"] == 1
    source.hidden_markers = (3,)  # a hand over one corner is fine
    assert settle(reader, 2)[Slot.ROOM_TR] == "1m"
    assert reader.status().ok and "the bottom-left corner marker hidden" in \
        reader.status().message


def test_a_slot_outside_the_picture_is_said_to_be_out_of_view_not_face_down(
        classifier: TileClassifier, tmp_path: Path) -> None:
    """The camera sees the left of the mat only: the right-hand room slots were read as
    face-down tiles ("the tile on the top-right room slot is face down: turn it over")."""
    frame = render_scene({Slot.DRAW: "5p"}, np.random.default_rng(3),
                         camera=Camera(nudge_px=4, tilt=0.01))
    cv2.imwrite(str(tmp_path / "half.png"), frame[:, :660])
    reader = CameraTileReader(FileSource(tmp_path / "half.png", loop=True), classifier,
                              settings=STEADY)
    readings = settle(reader, 3)
    assert Slot.ROOM_TR not in readings and Slot.ROOM_BR not in readings
    assert readings[Slot.DRAW] == "5p" and readings[Slot.ROOM_TL] == "empty"
    status = reader.status()
    assert not status.ok
    assert status.message.startswith("the top-right room and bottom-right room slots are outside "
                              "the camera's view: move the camera so the whole mat is in the "
                              "picture")
    reader.close()


def test_black_frames_and_no_frames_are_statuses(classifier: TileClassifier,
                                                 tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "0.png"), np.zeros((720, 1280, 3), np.uint8))
    reader = CameraTileReader(FileSource(tmp_path), classifier, settings=STEADY)
    assert reader.poll() == []
    assert "black" in reader.status().message and not reader.status().ok
    assert reader.poll() == []
    assert "no more pictures" in reader.status().message
    assert reader.status().counters == {"frames": 1, "no_frame": 1, "bad_frame": 1,
                                        "mat_lost": 0}
    reader.close()


def test_a_tile_lying_on_the_mat_keeps_its_read_when_its_kind_runs_out(
    classifier: TileClassifier,
) -> None:
    """JR-WALL-1 is checked as a tile settles: 5m read on the top-left slot stays 5m (no new
    reading) when the 4th 5m is counted elsewhere; a 5m laid after that is a new tile, and
    the wall refuses it (no sure legal candidate: None, its candidates saying it looked
    like 5m)."""
    ledger = TileLedger()
    source = RenderedSource({Slot.ROOM_TL: "5m"}, seed=6)
    reader = CameraTileReader(source, classifier, ledger=ledger, settings=STEADY)
    assert settle(reader, 2)[Slot.ROOM_TL] == "5m"
    exhaust(ledger, "5m")
    assert settle(reader, 4) == {}
    assert reader.readings()[Slot.ROOM_TL].label == "5m"
    source.place(Slot.DRAW, "5m")
    assert settle(reader, 2) == {Slot.DRAW: None}
    assert reader.readings()[Slot.DRAW].candidates[0].label == "5m"
    reader.close()


def test_a_frame_at_exactly_min_confidence_is_certain() -> None:
    """'at least min_confidence': a frame exactly at the threshold counts, both for the
    slot's agreement and for the wall's check of the candidates."""
    settings = ReaderSettings(stable_frames=2, min_confidence=0.8)
    tracker = SlotTracker(Slot.DRAW, settings)
    assert tracker.update(predicted(("3m", 0.8), ("4m", 0.1)), TileLedger()) is None
    reading = tracker.update(predicted(("3m", 0.8), ("4m", 0.1)), TileLedger())
    assert reading is not None and (reading.label, reading.confidence) == ("3m", 0.8)
    assert legal_candidate((Candidate("3m", 0.8),), None, 0.8) == Candidate("3m", 0.8)
    assert legal_candidate((Candidate("3m", 0.79),), None, 0.8) is None


def test_a_look_that_resolves_to_the_settled_tile_is_not_reported_twice() -> None:
    """A tile read as a 5th 1m settles as its next best, 2m (JR-WALL-1). When the frames
    then agree it looks like a 2m after all, it is the same tile: no second 2m reading,
    which the session would count as another drawn tile."""
    ledger = TileLedger()
    exhaust(ledger, "1m")
    tracker = SlotTracker(Slot.DRAW, STEADY)
    readings = [tracker.update(predicted(("1m", 0.95), ("2m", 0.9)), ledger)
                for _ in range(STEADY.stable_frames)]
    labels = [r.label if r else None for r in readings]
    assert labels == [None] * (STEADY.stable_frames - 1) + ["2m"]
    again = [tracker.update(predicted(("2m", 0.95), ("3m", 0.02)), ledger)
             for _ in range(STEADY.stable_frames + 2)]
    assert again == [None] * (STEADY.stable_frames + 2)
    assert tracker.settled is not None and tracker.settled.label == "2m"


class Counting(TileClassifier):
    """The packaged classifier, counting the slot crops it is shown."""

    def __init__(self) -> None:
        super().__init__()
        self.crops = 0

    def predict(self, crops: list[np.ndarray]) -> list[Prediction]:
        self.crops += len(crops)
        return super().predict(crops)


def test_a_still_table_is_quiet_yet_every_poll_classifies_every_slot() -> None:
    """soak57 F2: a table where nothing moves says so (quiet), for the wait to poll it a
    few times a second. Every poll still classifies every slot: a blank White laid on an
    empty slot changes its crop too little for the cheap difference (review57b), so a
    settled slot kept its stale read when not classified again. A tile laid later reads
    exactly as a fresh reader reads it, after as many frames."""
    counting = Counting()
    source = RenderedSource({Slot.ROOM_TL: "6z"}, seed=7)
    reader = CameraTileReader(source, counting, settings=STEADY)
    slots = len(reader.trackers)
    settle(reader, STEADY.stable_frames - 1)
    assert not reader.quiet  # not settled yet
    assert set(settle(reader, 1)) == set(reader.trackers)  # each slot settles
    assert settle(reader, 20) == {} and counting.crops == slots * (STEADY.stable_frames + 20)
    assert reader.quiet and reader.status().ok
    source.place(Slot.DRAW, "8m")
    news = [reader.poll() for _ in range(STEADY.stable_frames + 3)]
    assert [[(r.slot, r.label) for r in n] for n in news] == \
        [[]] * (STEADY.stable_frames - 1) + [[(Slot.DRAW, "8m")]] + [[]] * 3
    # A reader classifying every slot of the same frames (the same camera, from the frame
    # the tile was laid on) reads the tile the same.
    twin = RenderedSource({Slot.ROOM_TL: "6z"}, seed=7)
    for _ in range(STEADY.stable_frames + 20):
        twin.read()
    twin.place(Slot.DRAW, "8m")
    fresh = CameraTileReader(twin, counting, settings=STEADY)
    settle(fresh, STEADY.stable_frames)
    assert fresh.readings()[Slot.DRAW] == reader.readings()[Slot.DRAW]


def test_a_blank_white_laid_on_a_settled_empty_slot_is_read(
        classifier: TileClassifier) -> None:
    """review57b: a settled slot whose crop the cheap difference saw unchanged kept its read
    unclassified, and a blank White (5z) laid on an empty slot with no hand in between
    (seed 11's draw slot) changes the crop too little for it: the slot stayed "empty"."""
    source = RenderedSource({}, seed=11)
    reader = CameraTileReader(source, classifier)
    settle(reader, reader.settings.stable_frames + 1)
    assert reader.readings()[Slot.DRAW].label == "empty"
    source.place(Slot.DRAW, "5z")
    settle(reader, reader.settings.stable_frames + 10)
    assert reader.readings()[Slot.DRAW].label == "5z"


def test_the_paper_under_a_shadow_is_grey_and_a_palm_is_not() -> None:
    """reviewc67b DEFECT 1: a flat palm over a tile looks to occupancy as the paper under a
    shadow does (covered, no outline); the paper, balanced grey, stays grey however dark or
    half-shaded, with its printed outline and sensor noise; skin over most of the inside is
    tinted. The slot's outline (the inset) is not looked at."""
    rng = np.random.default_rng(1)
    paper = np.full((120, 90, 3), 240.0) + rng.normal(0, 3, (120, 90, 3))
    paper[:, :45] *= 0.5  # a hard shadow over half the slot
    cv2.rectangle(paper, (2, 2), (87, 117), (150, 150, 150), 2)
    assert grey_inside(np.clip(paper, 0, 255).astype(np.uint8), 6)
    palm = paper.copy()
    palm[20:100, 10:80] = (95, 130, 190)  # B, G, R: skin, over the inside's middle
    assert not grey_inside(np.clip(palm, 0, 255).astype(np.uint8), 6)
    edge = paper.copy()
    edge[:6] = (95, 130, 190)  # skin on the outline only (a finger's tip on the rim)
    assert grey_inside(np.clip(edge, 0, 255).astype(np.uint8), 6)
    assert grey_inside(np.full((120, 90), 200, np.uint8), 6)  # a grey camera: no colour
