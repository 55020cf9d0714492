"""camplay65: a counted tile a hand passes over is not counted again, a twin swapped in
unseen is told to be laid again, and a hand moving over an empty slot offers no picks.

The real camera reader over the rendered mat, the real classifier and the session's
TableTiles, on game time (the harness of tests/app/test_session_camera.py); a hand is a
patch painted over the picture, over the fractions of the frame it covers."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from companion.app.session.controls import Controls
from companion.app.session.mode import TileAsk
from companion.app.session.reads import HELD_PICK_HINT, counted_already, covered_pick
from companion.hw.camera.classifier import TileClassifier
from companion.hw.display.screen import ScreenDisplay
from companion.hw.ports import Slot
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place, TileLedger
from tests.app.camera_hand_helpers import (
    COVERED_AT_START,
    DRAW_LOWER,
    DRAW_WHOLE,
    RELAID_PICK,
    Box,
    HandMat,
    Picker,
    hand,
    picks_since,
    statuses_since,
    table_of,
)
from tests.app.camera_table_helpers import POLL, Table
from tests.app.status_fit_helpers import fits

OVER_TL = (0.38, 0.35, 0.5, 0.5)  # a hand reaching over the top-left room slot
OVER_TR = (0.49, 0.25, 0.6, 0.5)  # a hand over the top-right room slot
# The wait's poll as the player's settings leave it (input.poll_seconds).
DEFAULT_POLL = tomllib.loads(resources.files("companion.app.data").joinpath(
    "config_defaults.toml").read_text("utf-8"))["input"]["poll_seconds"]["default"]


def counted(table: Table, ledger: TileLedger, slot: Slot, label: str) -> None:
    """``label`` laid on the empty ``slot``, read and counted, as the game counts it."""
    table.at(0.5, lambda: table.source.place(slot, label))
    tile = table.read(TileAsk("lay", slot, ledger))
    assert str(tile) == label
    assert tile is not None
    ledger.draw(tile, Place.TABLE)


COVERED_PICK = ("5m 五萬 on the draw slot: pick it if you laid it since start-up; if it lay "
                "there before, take it off 起動後に置いたなら選んで・前からなら取って; pick: "
                "item moves, A takes 選ぶ: I移動 A決定")
COUNTED_5M = ("5m 五萬 on the draw slot was counted already: if you laid a new one, lift it "
              "and lay it again 確定済みの牌: 新しい牌なら一度持ち上げて置き直して")


@pytest.mark.parametrize("box", [DRAW_LOWER, DRAW_WHOLE], ids=["lower-half", "whole-slot"])
def test_a_hand_over_the_counted_draw_tile_does_not_count_it_again(
    classifier: TileClassifier, box: Box,
) -> None:
    """DEFECT 1: 5m counted, left lying on the draw slot; the next draw asked for, a hand
    covers the tile for 0.5 s. Its slot read "uncertain", then 5m again, counted as a new
    draw; meanwhile 5m was offered to pick. Now nothing counts and nothing is offered to
    pick; the screen says the 5m was counted already, and how to count a new one."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    counted(table, ledger, Slot.DRAW, "5m")
    start = len(table.shown)
    hand(table, 1.0, 0.5, box)
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=5.0) is None
    assert not picks_since(table, start)
    assert table.last_status() == COUNTED_5M
    # Lifted and laid again, it counts: the slot was seen empty.
    table.at(0.0, lambda: table.source.remove(Slot.DRAW))
    table.at(0.6, lambda: table.source.place(Slot.DRAW, "5m"))
    assert str(table.read(TileAsk("lay", Slot.DRAW, ledger))) == "5m"


def test_a_hand_over_a_counted_room_tile_is_no_tile_laid_on_the_wrong_slot(
    classifier: TileClassifier,
) -> None:
    """DEFECT 1, a room slot: 3p counted on the top-left; the top-right asked for, a hand
    reaches over the top-left for 0.6 s. The screen said "3p is on the top-left room slot:
    the tile asked for goes on the top-right room slot", and the next time the top-left was
    asked for the old 3p counted again, never laid again."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    counted(table, ledger, Slot.ROOM_TL, "3p")
    start = len(table.shown)
    hand(table, 1.0, 0.6, OVER_TL)
    assert table.read(TileAsk("lay", Slot.ROOM_TR, ledger), limit=4.0) is None
    assert not any("is on the top-left room slot" in s for s in statuses_since(table, start))
    counted(table, ledger, Slot.ROOM_TR, "6s")
    start = len(table.shown)
    assert table.read(TileAsk("lay", Slot.ROOM_TL, ledger), limit=3.0) is None
    assert not picks_since(table, start)


@pytest.mark.parametrize("gap", [0.3, 1.2])
def test_the_same_kind_drawn_again_after_a_lift_counts_again(
    classifier: TileClassifier, gap: float,
) -> None:
    """Pinned: 5m counted, lifted, and a second 5m laid ``gap`` seconds later (a normal
    draw of the same kind): the slot was seen empty, so the second counts."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    counted(table, ledger, Slot.DRAW, "5m")
    table.at(0.3, lambda: table.source.remove(Slot.DRAW))
    table.at(0.3 + gap, lambda: table.source.place(Slot.DRAW, "5m"))
    assert str(table.read(TileAsk("lay", Slot.DRAW, ledger), limit=6.0)) == "5m"


def test_a_twin_swapped_in_while_the_camera_was_unplugged_is_told_to_be_laid_again(
    classifier: TileClassifier,
) -> None:
    """RISK 1: 5m counted; the camera stops; the 5m is lifted and another laid meanwhile;
    the camera comes back. Nothing was seen to change, and the screen said nothing. Now it
    says the 5m there was counted already, and to lift a new one and lay it again; done,
    it counts."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    counted(table, ledger, Slot.DRAW, "5m")
    source = table.source
    assert isinstance(source, HandMat)
    table.at(1.0, lambda: setattr(source, "dead", True))
    table.at(2.0, lambda: source.remove(Slot.DRAW))
    table.at(3.0, lambda: source.place(Slot.DRAW, "5m"))
    table.at(4.0, lambda: setattr(source, "dead", False))
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=6.0) is None
    assert table.last_status() == COUNTED_5M
    table.at(0.0, lambda: source.remove(Slot.DRAW))
    table.at(0.8, lambda: source.place(Slot.DRAW, "5m"))
    assert str(table.read(TileAsk("lay", Slot.DRAW, ledger))) == "5m"


def test_a_twin_swapped_in_too_fast_to_see_is_told_to_be_laid_again_after_a_while(
    classifier: TileClassifier,
) -> None:
    """RISK 1: 5m counted and swapped for another 5m faster than the camera can see the
    slot empty: the screen said nothing for ever. After a few seconds of the counted tile
    lying on the slot asked for, the screen says it was counted already; not at once (the
    usual case: the player has not cleared it yet)."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    counted(table, ledger, Slot.DRAW, "5m")
    table.at(0.5, lambda: table.source.place(Slot.DRAW, "5m"))  # lifted and laid in a frame
    start = len(table.shown)
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=7.0) is None
    assert table.last_status() == COUNTED_5M
    first = next(at for at, status, _, _ in table.shown[start:] if status == COUNTED_5M)
    assert first - table.shown[start][0] >= 4.0


def test_a_hand_moving_over_an_empty_slot_offers_no_picks_and_a_tile_laid_under_it_counts(
    classifier: TileClassifier,
) -> None:
    """RISK 3: the top-right room slot asked for, empty; a hand moves over it for 1.2 s. Its
    slot read "uncertain", and tiles that were not there were offered to pick (a pick counts
    at once). A moving hand is not a tile lying still: nothing is offered. A tile laid under
    the hand counts once the hand leaves, once only."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=1.0) is None  # start-up
    start = len(table.shown)
    hand(table, 0.5, 1.2, OVER_TR, moving=True)
    assert table.read(TileAsk("lay", Slot.ROOM_TR, ledger), limit=3.0) is None
    assert not picks_since(table, start)
    hand(table, 0.3, 1.2, OVER_TR, moving=True)
    table.at(0.6, lambda: table.source.place(Slot.ROOM_TR, "2s"))
    start = len(table.shown)
    tile = table.read(TileAsk("lay", Slot.ROOM_TR, ledger))
    assert str(tile) == "2s" and table.now >= 1.5
    assert not picks_since(table, start)
    assert tile is not None
    ledger.draw(tile, Place.TABLE)
    assert table.read(TileAsk("lay", Slot.ROOM_TR, ledger), limit=3.0) is None


def test_a_tile_laid_under_a_still_hand_counts_once(
    classifier: TileClassifier,
) -> None:
    """RISK 3 and DEFECT 1 on a room slot: 2s laid on the empty top-right slot under a hand
    held there 1.5 s counts once the hand leaves; a hand passing over it later (the slot
    asked for again, the 2s never lifted) does not count it again."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=1.0) is None
    table.at(0.2, lambda: table.source.place(Slot.ROOM_TR, "2s"))
    hand(table, 0.2, 1.5, OVER_TR)
    tile = table.read(TileAsk("lay", Slot.ROOM_TR, ledger))
    assert str(tile) == "2s" and table.now >= 1.7
    assert tile is not None
    ledger.draw(tile, Place.TABLE)
    hand(table, 0.5, 0.6, OVER_TR)
    assert table.read(TileAsk("lay", Slot.ROOM_TR, ledger), limit=3.0) is None


@pytest.mark.needs_japanese_font
def test_the_counted_already_status_fits_whole_beside_a_camera_fault(
    screen: ScreenDisplay,
) -> None:
    """The longest slot name, with the camera's fault after it as the screen shows it."""
    status = counted_already(Slot.ROOM_BR, "5m")
    assert fits(screen, status)
    assert fits(screen, f"{status}; camera 0 stopped sending pictures (unplugged?); retrying "
                        "カメラの映像なし")


@pytest.mark.parametrize("moving", [False, True], ids=["still-hand", "moving-hand"])
def test_a_tile_lying_there_at_start_up_is_not_counted_under_a_hand(
    classifier: TileClassifier, moving: bool,
) -> None:
    """camplay65b DEFECT 1: on ``--resume`` (or a System-menu mode switch, which reads
    afresh) 5m lies on the draw slot, counted before; the draw slot asked for, a hand covers
    the tile for 0.5 s. Its slot read "uncertain", then 5m again, and the 5m never lifted
    was counted. Now nothing counts and nothing is offered to pick; lifted and laid again,
    it counts."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    table.source.place(Slot.DRAW, "5m")
    ledger.draw(Tile.from_notation("5m"), Place.TABLE)  # counted before the cut
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=2.0) is None
    start = len(table.shown)
    hand(table, 0.3, 0.5, DRAW_LOWER, moving=moving)
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=4.0) is None
    assert not picks_since(table, start)
    assert "start-up" in table.last_status()
    table.at(0.0, lambda: table.source.remove(Slot.DRAW))
    table.at(0.6, lambda: table.source.place(Slot.DRAW, "5m"))
    assert str(table.read(TileAsk("lay", Slot.DRAW, ledger))) == "5m"


@pytest.mark.parametrize(("poll", "gap", "by_hand"), [
    (DEFAULT_POLL, 0.05, True), (DEFAULT_POLL, 0.1, True), (DEFAULT_POLL, 0.2, True),
    (POLL, 0.1, True), (POLL, 0.2, True), (DEFAULT_POLL, 0.1, False), (POLL, 0.2, False),
])
def test_the_same_kind_laid_again_after_a_quick_lift_counts(
    classifier: TileClassifier, poll: float, gap: float, by_hand: bool,
) -> None:
    """camplay65b RISK 1, at the default poll (20 a second) and at half that (a loaded Pi):
    5m counted; a hand lifts it (0.25 s), the slot lies bare ``gap`` seconds, a hand lays
    another 5m (0.25 s). The bare slot never settled on "empty" (3 frames), so the second
    5m was taken for the first and not counted. Without the hands in the picture no new
    read came at all (the slot read 5m throughout, but for the bare frames). One frame of
    bare paper is a lift: it counts, once."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    counted(table, ledger, Slot.DRAW, "5m")
    table.tiles.poll_seconds = poll
    if by_hand:
        hand(table, 0.3, 0.25, DRAW_LOWER, moving=True)
        hand(table, 0.55 + gap, 0.25, DRAW_LOWER, moving=True)
    table.at(0.4, lambda: table.source.remove(Slot.DRAW))
    table.at((0.65 if by_hand else 0.4) + gap, lambda: table.source.place(Slot.DRAW, "5m"))
    tile = table.read(TileAsk("lay", Slot.DRAW, ledger), limit=6.0)
    assert str(tile) == "5m"
    assert tile is not None
    ledger.draw(tile, Place.TABLE)
    hand(table, 0.5, 0.5, DRAW_LOWER, moving=True)  # passing over it: no lift
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=3.0) is None


def test_an_ordinary_lift_of_the_counted_tile_shows_no_counted_already_line(
    classifier: TileClassifier,
) -> None:
    """camplay65b NIT 1: 5m counted, the draw slot asked for; a hand lifts the 5m (0.4 s)
    and 2s is laid a second later. The "counted already" line flashed in the trouble colour
    while the hand was over the 5m, on every ordinary lift. It shows only over a still
    slot (test_a_hand_over_the_counted_draw_tile_does_not_count_it_again: once the hand
    has gone)."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    counted(table, ledger, Slot.DRAW, "5m")
    start = len(table.shown)
    hand(table, 1.0, 0.4, DRAW_LOWER, moving=True)
    table.at(1.3, lambda: table.source.remove(Slot.DRAW))
    table.at(2.4, lambda: table.source.place(Slot.DRAW, "2s"))
    assert str(table.read(TileAsk("lay", Slot.DRAW, ledger))) == "2s"
    assert COUNTED_5M not in statuses_since(table, start)


@pytest.mark.parametrize(("box", "moving"), [
    (DRAW_WHOLE, False), (DRAW_LOWER, False), (DRAW_WHOLE, True),
], ids=["whole-slot-still", "lower-half-still", "whole-slot-moving"])
def test_a_tile_lying_there_at_start_up_under_a_hand_is_not_counted_when_it_leaves(
    classifier: TileClassifier, box: Box, moving: bool,
) -> None:
    """review65c2 RISK 1: on ``--resume`` 5m lies on the draw slot, counted before the cut,
    and a hand is already over it as reading begins (read "uncertain", or 5z under a still
    hand over the whole slot); the hand leaves at 1.5 s. The 5m, never lifted, was read and
    counted. Now nothing counts, the screen says the slot was covered (reviewc66 RISK 1: or
    in shadow) and to lift the tile and lay it again, and nothing is offered to pick for
    HELD_PICK_SECONDS; then the 5m is the one pick (reviewc66 DEFECT 1: a shadow reads so
    too), and left alone it never counts: only picked, or lifted and laid again."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    source = table.source
    assert isinstance(source, HandMat)
    source.place(Slot.DRAW, "5m")
    ledger.draw(Tile.from_notation("5m"), Place.TABLE)  # counted before the cut
    source.hand = (box, moving)
    table.at(1.5, lambda: setattr(source, "hand", None))
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=5.0) is None
    assert not picks_since(table, 0)
    assert table.last_status() == COVERED_AT_START
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=10.0) is None  # nobody picks
    assert picks_since(table, 0) == {("5m",)}
    assert table.last_status() == COVERED_PICK
    assert all(tile in (None, "back") for _, _, tile, _ in table.shown)  # no read on offer
    table.at(0.0, lambda: source.remove(Slot.DRAW))
    table.at(0.6, lambda: source.place(Slot.DRAW, "5m"))
    assert str(table.read(TileAsk("lay", Slot.DRAW, ledger))) == "5m"


@pytest.mark.parametrize("shadow", [0.6, 0.75, 0.85])
@pytest.mark.parametrize("lifted", [True, False], ids=["lifted-and-laid", "left-there"])
def test_a_tile_laid_on_a_slot_in_shadow_since_start_up_counts_when_picked(
    classifier: TileClassifier, shadow: float, lifted: bool,
) -> None:
    """reviewc66 DEFECT 1: a hard shadow edge lies across the empty draw slot from start-up
    (a lamp's arm): the bare paper reads "uncertain" or 5z, never empty or bare, and was held
    as a tile lying there at start-up. The first tile laid there was held for good: lifted
    and laid again, it read the shadow's look, then 5m, again and again. Now the screen says
    the slot was covered or in shadow; the 5m is offered to pick, named, once it has lain
    still a while with the slot asked for, and counts when picked (never by itself)."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    source = table.source
    assert isinstance(source, HandMat)
    source.shadow = shadow
    picker = Picker(table)
    picker.on = not lifted
    table.tiles.controls = Controls([picker])
    table.at(1.5, lambda: source.place(Slot.DRAW, "5m"))
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=4.0) is None
    assert not picks_since(table, 0)
    assert table.last_status() == COVERED_AT_START
    start = len(table.shown)
    if lifted:
        picker.on = True
        table.at(0.0, lambda: source.remove(Slot.DRAW))
        table.at(1.0, lambda: source.place(Slot.DRAW, "5m"))
    tile = table.read(TileAsk("lay", Slot.DRAW, ledger), limit=9.0)
    assert str(tile) == "5m"
    assert picks_since(table, start) == {("5m",)}
    assert all(tile in (None, "back") for _, _, tile, _ in table.shown)  # picked, not read
    assert COVERED_PICK in statuses_since(table, start)
    assert tile is not None
    ledger.draw(tile, Place.TABLE)
    hand(table, 0.5, 0.5, DRAW_LOWER, moving=True)  # passing over it: no lift
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=3.0) is None


@pytest.mark.parametrize("shadow", [0.6, 0.75, 0.85])
def test_the_start_up_tile_lifted_and_laid_again_under_a_shadow_counts_when_picked(
    classifier: TileClassifier, shadow: float,
) -> None:
    """reviewc66b DEFECT 1: ``--resume`` with 5m lying on the shadowed draw slot, not counted
    before the cut. The player lifts it and lays it again as told; the lift is never seen
    bare under the shadow, and the start-up tile was never offered: it could not be counted
    at all. Now it is the one pick, "if you lifted it and laid it again", and counts when
    picked; a hand moving over it alone offers nothing."""
    ledger = TileLedger()
    table = table_of(classifier, ledger)
    source = table.source
    assert isinstance(source, HandMat)
    source.shadow = shadow
    source.place(Slot.DRAW, "5m")
    hand(table, 1.0, 0.6, DRAW_LOWER, moving=True)  # passing over it: no lift
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=10.0) is None
    assert not picks_since(table, 0)
    start = len(table.shown)
    picker = Picker(table)
    table.tiles.controls = Controls([picker])
    table.at(1.0, lambda: source.remove(Slot.DRAW))
    table.at(2.0, lambda: source.place(Slot.DRAW, "5m"))
    assert str(table.read(TileAsk("lay", Slot.DRAW, ledger), limit=10.0)) == "5m"
    assert picks_since(table, start) == {("5m",)}
    assert RELAID_PICK in statuses_since(table, start)
    assert all(tile in (None, "back") for _, _, tile, _ in table.shown)  # picked, not read


@pytest.mark.needs_japanese_font
def test_the_start_up_statuses_of_a_covered_slot_fit_whole(screen: ScreenDisplay) -> None:
    """reviewc66: the covered slot's status, and its one pick's with the pick's hint, with
    the tile's name (reviewc66b RISK 1), for every slot and the longest names."""
    assert fits(screen, COVERED_AT_START)
    for slot in Slot:
        for label, relaid in (("5m", False), ("5m", True), ("7z", False), ("7z", True)):
            status = covered_pick(slot, label, relaid) + HELD_PICK_HINT
            assert fits(screen, status, picks=(Tile.from_notation(label),)), status
