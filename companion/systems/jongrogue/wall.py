"""Where every tile of the set is: the wall, the table, the discards, the PC (JR-WALL-1).

The companion never sees the order of a real wall, but it always knows the
multiset of tiles still in it, so it can refuse a read that would be a 5th
copy of a kind. The simulated wall adds an order drawn from a seeded
:class:`~companion.dice.randomizer.Randomizer`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from enum import IntEnum
from typing import Protocol

from companion.dice.randomizer import Randomizer
from companion.errors import ImpossibleRead
from companion.systems.jongrogue.tiles import ALL_KINDS, COPIES_PER_KIND, KIND_COUNT, SET_SIZE, Tile


class Place(IntEnum):
    """Where a tile can be (an IntEnum so it indexes the ledger's lists directly)."""

    WALL = 0  # 山牌
    TABLE = 1  # laid out on the encounter map
    DISCARDS = 2  # 捨て牌
    PC = 3  # held by the player character (items)

    @property
    def label(self) -> str:
        return self.name.lower()


_WHERE = {
    Place.TABLE: "on the table",
    Place.DISCARDS: "in the discards",
    Place.PC: "held by the PC",
}


class TileLedger:
    """Counts of every kind in every place; the four counts of a kind always sum to 4.

    >>> ledger = TileLedger()
    >>> five_p = Tile.from_notation("5p")
    >>> for _ in range(4):
    ...     ledger.move(five_p, Place.WALL, Place.TABLE)
    >>> try:
    ...     ledger.check_draw(five_p)
    ... except ImpossibleRead as err:
    ...     for part in str(err).split("; "):
    ...         print(part)
    5p cannot be drawn: all 4 are already out of the wall (4 on the table)
    place the tile again 五筒は山牌に無い: 置き直して
    """

    __slots__ = ("_counts", "wall_total")

    def __init__(self) -> None:
        self._counts: list[list[int]] = [[0] * KIND_COUNT for _ in Place]
        self._counts[Place.WALL] = [COPIES_PER_KIND] * KIND_COUNT
        self.wall_total = SET_SIZE  # kept up to date: every draw asks for it

    def count(self, tile: Tile, place: Place) -> int:
        return self._counts[place][tile.index]

    def total(self, place: Place) -> int:
        return sum(self._counts[place])

    def tiles(self, place: Place) -> list[Tile]:
        """The multiset in ``place``, in MPSZ order."""
        return [t for t in ALL_KINDS for _ in range(self._counts[place][t.index])]

    def check_draw(self, tile: Tile) -> None:
        """JR-WALL-1: raise :class:`ImpossibleRead` unless ``tile`` can still come out of the
        wall (a 5th copy of a kind is a misread, never accepted)."""
        if self._counts[Place.WALL][tile.index] == 0:
            where = ", ".join(
                f"{n} {_WHERE[p]}"
                for p in (Place.TABLE, Place.DISCARDS, Place.PC)
                if (n := self._counts[p][tile.index])
            )
            raise ImpossibleRead(
                f"{tile} cannot be drawn: all {COPIES_PER_KIND} are already out of the wall "
                f"({where}); place the tile again {tile.name_ja}は山牌に無い: 置き直して"
            )

    def draw(self, tile: Tile, target: Place) -> None:
        """``move(tile, Place.WALL, target)``, in fewer steps (every tile drawn comes here)."""
        i = tile.index
        wall = self._counts[Place.WALL]
        if wall[i] == 0:
            self.check_draw(tile)
        wall[i] -= 1
        self._counts[target][i] += 1
        self.wall_total -= 1

    def move(self, tile: Tile, source: Place, target: Place) -> None:
        counts = self._counts[source]
        if counts[tile.index] == 0:
            if source is Place.WALL:
                self.check_draw(tile)
            raise ImpossibleRead(f"{tile} is not in the {source.label}")
        counts[tile.index] -= 1
        self._counts[target][tile.index] += 1
        if source is Place.WALL:
            self.wall_total -= 1
        elif target is Place.WALL:
            self.wall_total += 1

    def reshuffle(self) -> int:
        """JR-WALL-1: when the wall runs out, shuffle every discard back into it; return how
        many tiles moved."""
        moved = 0
        wall, discards = self._counts[Place.WALL], self._counts[Place.DISCARDS]
        for i in range(KIND_COUNT):
            wall[i] += discards[i]
            moved += discards[i]
            discards[i] = 0
        self.wall_total += moved
        return moved

    def is_conserved(self) -> bool:
        """True when every kind has exactly 4 copies across the places."""
        return all(
            sum(self._counts[p][i] for p in Place) == COPIES_PER_KIND for i in range(KIND_COUNT)
        ) and sum(self.total(p) for p in Place) == SET_SIZE


class HasLedger(Protocol):
    """A game, as far as its simulated wall needs to know it."""

    @property
    def ledger(self) -> TileLedger: ...


_BITS = tuple(n.bit_length() for n in range(SET_SIZE + 1))


def _shuffle(rng: random.Random, items: list[Tile]) -> None:
    """``rng.shuffle(items)``, the very same order for the same state of ``rng``, in fewer
    steps: CPython's Fisher-Yates with its ``_randbelow`` (rejection sampling on
    ``getrandbits``) written in-line (a test holds it to ``random.shuffle``)."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = _BITS[n] if n <= SET_SIZE else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


class SimulatedWall:
    """A shuffled wall for headless play: the next tile is decided by the seeded randomizer.

    The order only matters to this class; the game itself just sees tiles
    arrive, exactly as it would from a camera or RFID reader.
    """

    __slots__ = ("_order", "_rng")

    def __init__(self, rng: Randomizer) -> None:
        self._rng = rng
        self._order: list[Tile] = []
        self.refill([t for t in ALL_KINDS for _ in range(COPIES_PER_KIND)])

    def refill(self, tiles: Iterable[Tile]) -> None:
        """Shuffle ``tiles`` (the discards, or the whole set) under whatever is left."""
        fresh = list(tiles)
        if type(self._rng) is random.Random:
            _shuffle(self._rng, fresh)
        else:
            self._rng.shuffle(fresh)
        self._order[:0] = fresh

    def draw_for(self, game: HasLedger) -> Tile:
        """The next tile for ``game``; after its reshuffle, the wall is its discards again."""
        order = self._order
        if not order:
            self.refill(game.ledger.tiles(Place.WALL))
        return order.pop()

    def draw(self) -> Tile:
        try:
            return self._order.pop()
        except IndexError:
            raise IndexError("the simulated wall is empty; refill it with the discards") from None

    def __len__(self) -> int:
        return len(self._order)
