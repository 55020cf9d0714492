"""Spec §0.3, the global rounding Default: how `coc` turns a half, a third or any other
share into a whole number where the rule making it has no rounding of its own.

The spec's Default is "round down (toward zero) everywhere" (切り捨て); the setting
``§0.3.rounding`` in ``data/rules.toml`` also offers "nearest" (四捨五入: a half goes up,
as a Japanese table rounds) and "up" (切り上げ: any part counts as a whole, away from
zero). A rule whose own Default names another rounding keeps it (CO-BASE-1's maximum HP
rounds up, CO-PARRY-3 and CO-RANGE-1 keep settings of their own).
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction

#: The rules data's key: §0.3 has no rule ID, so its setting is kept under its section.
GLOBAL_RULE = "§0.3"


class Rounding(Enum):
    """§0.3: the ways a share may be rounded, the spec's Default first."""

    DOWN = "down"        # 切り捨て, toward zero
    NEAREST = "nearest"  # 四捨五入, a half away from zero
    UP = "up"            # 切り上げ, away from zero

    @property
    def words(self) -> str:
        """The setting in words, Japanese beside English: "down 切り捨て"."""
        return {Rounding.DOWN: "down 切り捨て", Rounding.NEAREST: "nearest 四捨五入",
                Rounding.UP: "up 切り上げ"}[self]


def rounded(value: Fraction | int, how: Rounding) -> int:
    """§0.3: ``value`` as a whole number, rounded ``how``; a negative one as its size is,
    keeping the sign (toward zero for down).

    >>> [rounded(Fraction(n, 2), Rounding.DOWN) for n in (5, 4, -5)]
    [2, 2, -2]
    >>> [rounded(Fraction(n, 6), Rounding.NEAREST) for n in (14, 15, 16, -15)]
    [2, 3, 3, -3]
    >>> [rounded(Fraction(n, 3), Rounding.UP) for n in (6, 7, -7)]
    [2, 3, -3]
    """
    size = abs(Fraction(value))
    whole = int(size)
    part = size - whole
    if part and (how is Rounding.UP or (how is Rounding.NEAREST and part >= Fraction(1, 2))):
        whole += 1
    return whole if value >= 0 else -whole


def share(value: int, divisor: int, how: Rounding) -> int:
    """§0.3: ``value`` ÷ ``divisor``, rounded ``how`` (a half skill, a third of a blow)."""
    return rounded(Fraction(value, divisor), how)
