"""JR-TILE-1 and JR-WALL-1: notation, the 136-tile set, the ledger and the simulated wall."""

from __future__ import annotations

import pytest

from companion.dice.randomizer import seeded
from companion.errors import CompanionError, ImpossibleRead, InvalidNotation
from companion.systems.jongrogue.tiles import ALL_KINDS, SET_SIZE, Tile, parse_tiles
from companion.systems.jongrogue.wall import Place, SimulatedWall, TileLedger


@pytest.mark.parametrize("tile", ALL_KINDS, ids=str)
def test_jr_tile_1_notation_round_trips(tile: Tile) -> None:
    """JR-TILE-1: every kind round-trips through MPSZ and repr is the parse call."""
    assert Tile.from_notation(str(tile)) is tile
    assert eval(repr(tile)) is tile


def test_jr_tile_1_red_fives_count_as_fives() -> None:
    """JR-TILE-1: 0m/0p/0s are red fives and count as 5s."""
    assert [str(Tile.from_notation(f"0{s}")) for s in "mps"] == ["5m", "5p", "5s"]


@pytest.mark.parametrize("text", ["", "0z", "8z", "10m", "5x", "m5", "55p"])
def test_jr_tile_1_bad_notation_names_the_text(text: str) -> None:
    """JR-TILE-1: bad notation is an InvalidNotation that is also a ValueError."""
    with pytest.raises(InvalidNotation, match="is not a tile") as err:
        Tile.from_notation(text)
    assert isinstance(err.value, ValueError) and isinstance(err.value, CompanionError)


def test_jr_tile_1_compressed_runs() -> None:
    assert [str(t) for t in parse_tiles("19m19p19s1234567z")][-7:] == [
        "1z", "2z", "3z", "4z", "5z", "6z", "7z",
    ]
    with pytest.raises(InvalidNotation, match="no suit letter"):
        parse_tiles("123")


def test_jr_wall_1_fifth_copy_is_refused_and_named() -> None:
    """JR-WALL-1: a read that would be the 5th copy of a kind is refused, naming the tile."""
    ledger = TileLedger()
    east = Tile.from_notation("1z")
    for place in (Place.TABLE, Place.TABLE, Place.DISCARDS, Place.PC):
        ledger.move(east, Place.WALL, place)
    expected = r"1z cannot be drawn.*2 on the table, 1 in the discards, 1 held by the PC"
    with pytest.raises(ImpossibleRead, match=expected):
        ledger.move(east, Place.WALL, Place.TABLE)
    assert ledger.is_conserved()


def test_jr_wall_1_reshuffle_returns_discards() -> None:
    """JR-WALL-1: when the wall is empty the discards go back into it."""
    ledger = TileLedger()
    for tile in ALL_KINDS:
        for _ in range(4):
            ledger.move(tile, Place.WALL, Place.DISCARDS)
    assert ledger.total(Place.WALL) == 0
    assert ledger.reshuffle() == SET_SIZE
    assert ledger.total(Place.WALL) == SET_SIZE and ledger.is_conserved()


def test_jr_wall_1_simulated_wall_is_the_set_shuffled_and_seeded() -> None:
    """JR-WALL-1: the simulated wall holds the 136 tiles; the same seed gives the same order."""
    first = SimulatedWall(seeded(7))
    drawn = [first.draw() for _ in range(SET_SIZE)]
    assert sorted(t.index for t in drawn) == sorted(t.index for t in ALL_KINDS for _ in range(4))
    again = SimulatedWall(seeded(7))
    assert [again.draw() for _ in range(SET_SIZE)] == drawn
    assert drawn != [SimulatedWall(seeded(8)).draw() for _ in range(SET_SIZE)]
    with pytest.raises(IndexError, match="empty"):
        first.draw()
