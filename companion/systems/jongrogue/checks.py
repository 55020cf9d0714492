"""The arithmetic of checks, rates and damage (JR-DICE-1/2, JR-RATE-1, JR-DMG-1).

>>> rate_terms(attack=6, level=1, weapon=2, strength=None)
(3, [('attack', 6), ('level', -1), ('weapon', -2)], 3)
>>> rate_terms(attack=25, level=1, weapon=2, strength=0)[2]
9
>>> damage(table_damage=4, defence=3), damage(table_damage=4, defence=9), damage(0, 3)
(1, 1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.systems.jongrogue.profile import Profile
from companion.systems.jongrogue.tiles import Tile


@dataclass(slots=True)
class D9:
    """One 1d9 drawn from the wall (JR-DICE-1): the tiles it took and what they mean."""

    tiles: tuple[Tile, ...]  # honours set aside first, the deciding tile last
    value: int  # 1..9; a critical counts 9 and a fumble 1 where a number is wanted
    critical: bool = False
    fumble: bool = False


def read_d9(drawn: tuple[Tile, ...], profile: Profile) -> D9 | None:
    """JR-DICE-1: the 1d9 the tiles drawn so far make, read by their last: a number tile
    counts its rank, the profile's critical or fumble tile its value; None while the last
    is another honour, set aside (draw another)."""
    tile = drawn[-1]
    if tile.is_number:
        return D9(drawn, tile.rank)
    if tile is profile.critical:
        return D9(drawn, profile.critical_value, critical=True)
    if tile is profile.fumble:
        return D9(drawn, profile.fumble_value, fumble=True)
    return None


def split_d9s(tiles: Sequence[Tile], profile: Profile) -> list[D9] | None:
    """The 1d9s a run of tiles drawn one after another made (2d9 damage logs its tiles in
    one list), each read as :func:`read_d9` reads it; None when the run does not end on a
    tile that decides (not drawn under this profile's critical and fumble tiles).

    >>> from companion.systems.jongrogue.profile import DEFAULT_PROFILE
    >>> [(d.value, d.critical) for d in split_d9s(
    ...     [Tile.from_notation(t) for t in "6z 7z 5z".split()], DEFAULT_PROFILE)]
    [(9, True), (1, False)]
    """
    out: list[D9] = []
    drawn: tuple[Tile, ...] = ()
    for tile in tiles:
        drawn += (tile,)
        d9 = read_d9(drawn, profile)
        if d9 is not None:
            out.append(d9)
            drawn = ()
    return None if drawn else out


def passes(d9: D9, target: int, automatic: bool) -> bool:
    """JR-DICE-2: ``1d9 >= target``; with ``automatic`` a critical always succeeds and a
    fumble always fails (the melee procedure says so; other checks just use the value)."""
    if automatic and (d9.critical or d9.fumble):
        return d9.critical
    return d9.value >= target


def rate_terms(
    attack: int, level: int, weapon: int, strength: int | None
) -> tuple[int, list[tuple[str, int]], int]:
    """JR-RATE-1: the monster rate as (raw sum, its terms, the rate clamped to 1..9).

    ``strength`` is None when the strength rule (強さルール) is off.
    """
    if strength is None:
        raw = attack - level - weapon
        terms = [("attack", attack), ("level", -level), ("weapon", -weapon)]
    else:
        raw = attack - level - strength - weapon
        terms = [("attack", attack), ("level", -level), ("strength", -strength),
                 ("weapon", -weapon)]
    return raw, terms, (9 if raw > 9 else 1 if raw < 1 else raw)


def damage(table_damage: int, defence: int) -> int:
    """JR-DMG-1: table damage − armour defence, at least 1; 0 when the table says 0."""
    if table_damage == 0:
        return 0
    return max(1, table_damage - defence)
