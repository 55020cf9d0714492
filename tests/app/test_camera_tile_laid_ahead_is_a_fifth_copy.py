"""camaudit69 DEFECT 1: a tile laid ahead on its slot, whose kind ran out before its slot
was asked, is said to be a 5th copy with the likeliest legal tiles to pick, as it is when
laid after the 4th copy was counted; it is never counted as a near-0 % candidate.

The real camera reader over the rendered mat, the real classifier and the session's
TableTiles, on game time (the harness of tests/app/test_session_camera.py)."""

from __future__ import annotations

from companion.app.session.mode import TileAsk
from companion.app.session.reads import OTHER, interpret, likeliest
from companion.hw.camera.classifier import TileClassifier
from companion.hw.ports import Candidate, Slot, SlotReading
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place, TileLedger
from tests.app.camera_table_helpers import Table

EAST = Tile.from_notation("1z")


def test_a_tile_laid_ahead_whose_kind_ran_out_meanwhile_is_a_fifth_copy_with_picks(
    classifier: TileClassifier,
) -> None:
    """Three 1z out; a room's tiles laid at once, 1z on TL and on TR (the second stands for a
    tile misread as 1z). TL counts as the 4th 1z; TR, asked next, reads 1z the wall now
    refuses: the screen says so and offers picks, and nothing counts by itself (the old
    code counted the classifier's next candidate, 6m at 0.4 %)."""
    ledger = TileLedger()
    for _ in range(3):
        ledger.draw(EAST, Place.TABLE)
    table = Table(classifier, {}, ledger)
    table.at(0.5, lambda: table.source.place(Slot.ROOM_TL, "1z"))
    table.at(0.5, lambda: table.source.place(Slot.ROOM_TR, "1z"))  # laid at once
    first = table.read(TileAsk("lay", Slot.ROOM_TL, ledger))
    assert first == EAST
    ledger.draw(EAST, Place.TABLE)  # the 4th, as the game counts it
    start = len(table.shown)
    assert table.read(TileAsk("lay", Slot.ROOM_TR, ledger), limit=6.0) is None
    shown = table.shown[start:]
    assert all(tile in (None, "back") for _, _, tile, _ in shown)  # nothing offered to count
    status, picks = shown[-1][1], shown[-1][3]
    assert status.startswith("1z 東 on the top-right room slot: a 5th copy, lay it again "
                             "5枚目: 置き直して")
    reading = table.tiles.state.latest[Slot.ROOM_TR]
    assert reading.label == "1z"  # settled while it could still be drawn
    # then "Other tile…", which opens every legal tile (reviewc71 DEFECT 2)
    assert picks and picks == (*(str(t) for t in likeliest(reading, ledger)), OTHER)
    assert "1z" not in picks
    # The player lays the tile again: what is really there (here 9p) counts.
    table.at(0.0, lambda: table.source.remove(Slot.ROOM_TR))
    table.at(1.0, lambda: table.source.place(Slot.ROOM_TR, "9p"))
    assert str(table.read(TileAsk("lay", Slot.ROOM_TR, ledger))) == "9p"


def test_a_settled_read_the_wall_now_refuses_names_it_and_offers_its_legal_candidates() -> None:
    """interpret/likeliest alone: a camera reading settled on 1z, with every 1z now out, is
    a 5th copy of 1z (not the 0.4 % 6m behind it), and the picks are its legal candidates."""
    ledger = TileLedger()
    for _ in range(4):
        ledger.draw(EAST, Place.TABLE)
    reading = SlotReading(Slot.DRAW, "1z", 0.91,
                          (Candidate("1z", 0.91), Candidate("6m", 0.004), Candidate("8m", 0.003)))
    read = interpret(reading, ledger)
    assert read.tile is None
    assert read.problem == "1z 東 on the draw slot: a 5th copy, lay it again 5枚目: 置き直して"
    assert [str(t) for t in likeliest(reading, ledger)] == ["6m", "8m"]
