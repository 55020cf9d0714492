"""Profile 003's 8×8 chessboard (CO-TURN-2): squares in chess notation, facings, distance in
king moves, adjacency, "behind", the line of fire (CO-TURN-7) and paths (CO-TURN-5).

Squares are written ``a1``…``h8`` (file a–h, rank 1–8); a facing is one of the eight
compass points ``N NE E SE S SW W NW`` (N towards rank 8). Everything here is pure geometry.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from companion.errors import IllegalAction

SIZE = 8
FACINGS: dict[str, tuple[int, int]] = {
    "N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
    "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1),
}
Square = tuple[int, int]


def parse(text: str) -> Square:
    """CO-TURN-2: ``e4`` → (4, 3); anything off the board is refused."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        raise IllegalAction(f"{text!r} is not a square of the 8×8 board (a1…h8) (CO-TURN-2)")
    return ord(text[0]) - ord("a"), int(text[1]) - 1


def name(square: Square) -> str:
    return f"{chr(ord('a') + square[0])}{square[1] + 1}"


def on_board(square: Square) -> bool:
    return 0 <= square[0] < SIZE and 0 <= square[1] < SIZE


def facing(text: str) -> str:
    if text.upper() not in FACINGS:
        raise IllegalAction(f"a facing is one of {' '.join(FACINGS)} (CO-TURN-2)")
    return text.upper()


def distance(a: Square, b: Square) -> int:
    """CO-TURN-2 Default: king moves (Chebyshev distance)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def adjacent(a: Square, b: Square) -> bool:
    """CO-TURN-2 Default: one of the 8 surrounding squares."""
    return distance(a, b) == 1


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def behind(target: Square, faces: str, attacker: Square, melee: bool) -> bool:
    """CO-TURN-2 Default: in melee, the 3 squares at the target's back; at range, the
    half-plane at its back."""
    fx, fy = FACINGS[faces]
    dx, dy = attacker[0] - target[0], attacker[1] - target[1]
    if melee:
        back = (-fx, -fy)
        return (_sign(dx), _sign(dy)) in _cone(back) and adjacent(target, attacker)
    return dx * fx + dy * fy < 0


def _cone(direction: tuple[int, int]) -> set[tuple[int, int]]:
    """A direction and its two neighbours 45° either side."""
    points = list(FACINGS.values())
    i = points.index(direction)
    return {points[i - 1], direction, points[(i + 1) % len(points)]}


def line(a: Square, b: Square) -> list[Square]:
    """CO-TURN-7 Default: the squares a straight line between the two centres passes through,
    without both ends (sampled between crossings; touching a corner is not passing)."""
    steps = 239
    seen: list[Square] = []
    for k in range(steps):
        t = (2 * k + 1) / (2 * steps)
        sq = (int(a[0] + (b[0] - a[0]) * t + 0.5), int(a[1] + (b[1] - a[1]) * t + 0.5))
        if sq not in (a, b) and sq not in seen:
            seen.append(sq)
    return seen


def away(attacker: Square, target: Square) -> Square:
    """CO-MELEE-2 Default: the square straight away from the attacker (diagonal if it is)."""
    return (target[0] + _sign(target[0] - attacker[0]),
            target[1] + _sign(target[1] - attacker[1]))


def path_length(start: Square, goal: Square, blocked: Iterable[Square]) -> int | None:
    """CO-TURN-5 Default: fewest king moves around occupied squares (None: no way there)."""
    walls = set(blocked)
    if goal in walls or not on_board(goal):
        return None
    todo: deque[tuple[Square, int]] = deque([(start, 0)])
    seen = {start}
    while todo:
        here, steps = todo.popleft()
        if here == goal:
            return steps
        for dx, dy in FACINGS.values():
            nxt = (here[0] + dx, here[1] + dy)
            if on_board(nxt) and nxt not in seen and nxt not in walls:
                seen.add(nxt)
                todo.append((nxt, steps + 1))
    return None


def slide(start: Square, direction: tuple[int, int], squares: int,
          blocked: Iterable[Square]) -> tuple[Square, bool]:
    """CO-MA-2 / CO-TACKLE-2 Default: move up to ``squares`` straight along ``direction``;
    an edge of the board (a wall) or an occupied square stops it on the last free square.
    Returns where it ends and whether something stopped it."""
    walls = set(blocked)
    here = start
    for _ in range(squares):
        nxt = (here[0] + direction[0], here[1] + direction[1])
        if not on_board(nxt) or nxt in walls:
            return here, True
        here = nxt
    return here, False


def nearest_free(square: Square, blocked: Iterable[Square],
                 first: str = "N") -> Square | None:
    """The free square nearest ``square`` (itself excluded), in king moves; ties go round the
    compass clockwise from ``first``, inner squares first (None: the board is full)."""
    walls = set(blocked)
    points = list(FACINGS)
    start = points.index(first)
    order = [FACINGS[points[(start + i) % len(points)]] for i in range(len(points))]
    for ring in range(1, SIZE):
        candidates: list[Square] = []
        for dx, dy in order:
            candidates.append((square[0] + dx * ring, square[1] + dy * ring))
        for x in range(square[0] - ring, square[0] + ring + 1):
            for y in range(square[1] - ring, square[1] + ring + 1):
                if distance(square, (x, y)) == ring and (x, y) not in candidates:
                    candidates.append((x, y))
        for sq in candidates:
            if on_board(sq) and sq not in walls:
                return sq
    return None
