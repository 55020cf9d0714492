"""Grading a dice read against a rendered scene's truth, die by die (bench and tests)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.hw.dice.render import Scene, SceneKind


@dataclass(frozen=True, slots=True)
class Grade:
    """How a read of one scene compares with its truth, die by die."""

    right: int = 0  # a die read with its true value
    wrong: int = 0  # a die read with another value, or a die read where there is none
    unsure: int = 0  # a die reported unsure (the player would re-roll)
    missed: int = 0  # a die not reported at all

    @property
    def dice(self) -> int:
        """Every die graded (a value reported where there is no die counts as one)."""
        return self.right + self.wrong + self.unsure + self.missed

    def __add__(self, other: Grade) -> Grade:
        return Grade(self.right + other.right, self.wrong + other.wrong,
                     self.unsure + other.unsure, self.missed + other.missed)


def outcomes(scene: Scene, found: list[tuple[int | None, tuple[float, float]]]
             ) -> tuple[list[str], int]:
    """Match reported dice ``(value or None, centre)`` to the scene's true dice.

    Returns, for each true die in order, "right", "wrong", "unsure" or "missed",
    and the number of dice reported with a value where there is none. In a
    blurred scene the dice are moving, so any confident value is wrong.
    """
    result = []
    used: set[int] = set()
    for die in scene.dice:
        near = [(np.hypot(c[0] - die.centre[0], c[1] - die.centre[1]), i)
                for i, (_, c) in enumerate(found) if i not in used]
        near = [(d, i) for d, i in near if d < 0.5 * die.side_px]
        if not near:
            result.append("missed")
            continue
        _, i = min(near)
        used.add(i)
        value = found[i][0]
        if value is None:
            result.append("unsure")
        elif scene.kind is SceneKind.BLURRED or value != die.value:
            result.append("wrong")
        else:
            result.append("right")
    phantoms = sum(1 for i, (v, _) in enumerate(found) if i not in used and v is not None)
    return result, phantoms


def grade(scene: Scene, found: list[tuple[int | None, tuple[float, float]]]) -> Grade:
    """The outcomes of a read of ``scene`` summed up (a value with no die is wrong)."""
    result, phantoms = outcomes(scene, found)
    return Grade(result.count("right"), result.count("wrong") + phantoms,
                 result.count("unsure"), result.count("missed"))
