"""Rendered dice throws the camera reader reads in full (checked, not assumed), for tests of
what takes camera rolls."""

from __future__ import annotations

from functools import cache

from companion.errors import CompanionError
from companion.hw.dice.render import Scene, SceneKind, Table, render_scene
from companion.hw.dice.source import CameraDiceSource


@cache
def still_scene(first_seed: int, count: int, unlike: tuple[int, ...] = ()) -> Scene:
    """The first throw of ``count`` dice from ``first_seed`` on that the reader reads right,
    its sorted values other than ``unlike`` (so two rolls tell apart)."""
    def values(scene: Scene) -> list[int]:
        return sorted(d.value for d in scene.dice)

    for seed in range(first_seed, first_seed + 60):
        scene = render_scene(seed, kind=SceneKind.LOOSE, count=count, table=Table.FELT)
        if tuple(values(scene)) == unlike:
            continue
        try:
            read = CameraDiceSource(frames=[scene.image] * 6).roll(count, 6)
        except CompanionError:
            continue
        if sorted(read) == values(scene):
            return scene
    raise AssertionError("no readable scene among the seeds")
