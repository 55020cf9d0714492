"""Tiles in MPSZ notation (JR-TILE-1).

>>> Tile.from_notation("5p")
Tile.from_notation('5p')
>>> str(Tile.from_notation("0s"))  # a red five counts as a five
'5s'
>>> Tile.from_notation("7z").name_en
'Red dragon'
>>> len(ALL_KINDS)
34
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from companion.errors import InvalidNotation


class Suit(Enum):
    """The four suits, by their MPSZ letter."""

    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    MAN = "m"  # 萬子 characters
    PIN = "p"  # 筒子 dots
    SOU = "s"  # 索子 bamboo
    HONOR = "z"  # 字牌 winds and dragons


SUIT_NAMES: dict[Suit, tuple[str, str]] = {
    Suit.MAN: ("萬子", "characters"),
    Suit.PIN: ("筒子", "dots"),
    Suit.SOU: ("索子", "bamboo"),
    Suit.HONOR: ("字牌", "honours"),
}

HONOR_NAMES: tuple[tuple[str, str], ...] = (
    ("東", "East"),
    ("南", "South"),
    ("西", "West"),
    ("北", "North"),
    ("白", "White dragon"),
    ("發", "Green dragon"),
    ("中", "Red dragon"),
)

_KANJI_RANKS = "一二三四五六七八九"

COPIES_PER_KIND = 4
KIND_COUNT = 34
SET_SIZE = COPIES_PER_KIND * KIND_COUNT  # 136


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile kind. There are 34; build them with :meth:`from_notation`."""

    suit: Suit
    rank: int
    index: int = field(init=False, compare=False, repr=False)  # 0..33 in MPSZ order
    is_number: bool = field(init=False, compare=False, repr=False)  # m, p or s
    _text: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Computed once: the engine reads these for every tile it handles.
        object.__setattr__(self, "index", "mpsz".index(self.suit.value) * 9 + self.rank - 1)
        object.__setattr__(self, "is_number", self.suit is not Suit.HONOR)
        object.__setattr__(self, "_text", f"{self.rank}{self.suit.value}")

    @property
    def name_ja(self) -> str:
        if self.suit is Suit.HONOR:
            return HONOR_NAMES[self.rank - 1][0]
        return _KANJI_RANKS[self.rank - 1] + SUIT_NAMES[self.suit][0][0]

    @property
    def name_en(self) -> str:
        if self.suit is Suit.HONOR:
            return HONOR_NAMES[self.rank - 1][1]
        return f"{self.rank} of {SUIT_NAMES[self.suit][1]}"

    @staticmethod
    def from_notation(text: str) -> Tile:
        """JR-TILE-1: parse one tile in MPSZ: ``5p``, ``7z``; ``0m``/``0p``/``0s`` are red
        fives, which count as 5s."""
        tile = _BY_NOTATION.get(text.strip().lower())
        if tile is None:
            raise InvalidNotation(
                f"{text!r} is not a tile: write a rank and a suit letter, "
                "1-9 with m/p/s (0 for a red five) or 1-7 with z"
            )
        return tile

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Tile.from_notation('{self}')"


ALL_KINDS: tuple[Tile, ...] = tuple(
    Tile(suit, rank)
    for suit in (Suit.MAN, Suit.PIN, Suit.SOU, Suit.HONOR)
    for rank in range(1, 8 if suit is Suit.HONOR else 10)
)

_BY_NOTATION: dict[str, Tile] = {str(t): t for t in ALL_KINDS} | {
    f"0{s}": Tile(Suit(s), 5) for s in "mps"
}
# Interned: from_notation always hands back the one object per kind.
_BY_NOTATION = {k: ALL_KINDS[v.index] for k, v in _BY_NOTATION.items()}

# What a tile reader may report besides a tile kind (JR-TILE-1).
BACK = "back"
EMPTY = "empty"
READER_LABELS: tuple[str, ...] = (*(str(t) for t in ALL_KINDS), BACK, EMPTY)


def parse_tiles(text: str) -> list[Tile]:
    """JR-TILE-1: parse a run of tiles, each written in full or MPSZ-compressed.

    >>> [str(t) for t in parse_tiles("123m 5z")]
    ['1m', '2m', '3m', '5z']
    >>> [str(t) for t in parse_tiles("1m,2p")]
    ['1m', '2p']
    """
    tiles: list[Tile] = []
    digits = ""
    for ch in text.replace(",", " "):
        if ch.isdigit():
            digits += ch
        elif ch in "mpsz":
            if not digits:
                raise InvalidNotation(f"{text!r}: suit letter {ch!r} has no rank before it")
            tiles.extend(Tile.from_notation(d + ch) for d in digits)
            digits = ""
        elif ch.isspace():
            if digits:
                raise InvalidNotation(f"{text!r}: ranks {digits!r} have no suit letter")
        else:
            raise InvalidNotation(f"{text!r}: unexpected character {ch!r}")
    if digits:
        raise InvalidNotation(f"{text!r}: ranks {digits!r} have no suit letter")
    return tiles
