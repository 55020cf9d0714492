"""Rendered dice throws the camera reader reads in full (checked, not assumed), for tests of
what takes camera rolls."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.hw.camera.mat import MatDetector
from companion.hw.camera.sim_scene import Camera
from companion.hw.camera.sim_scene import render_scene as render_mat
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


def on_the_mat(scene: Scene, size: tuple[int, int] = (1280, 720),
               beside: bool = False) -> np.ndarray:
    """A camera frame ``size`` pixels wide and high of the printed mat, the dice of ``scene``
    lying in its dice area at their true size (a 16 mm die), one above the other: what the
    dice tray sees. ``beside``: lying on the table left of the mat instead, in view but off
    the dice area (dice that bounced out of it)."""
    frame = render_mat({}, camera=Camera(size=size, tilt=0.01, nudge_px=4))
    detector = MatDetector()
    detection = detector.detect(frame)
    assert detection.homography is not None
    to_frame = np.linalg.inv(detection.homography)
    area = detector.geometry.dice
    for number, die in enumerate(scene.dice, 1):
        spot = np.array([[[-25.0 if beside else area.x_mm + area.width_mm / 2,
                           area.y_mm + area.height_mm * number / (len(scene.dice) + 1)]]],
                        np.float32)
        cx, cy = cv2.perspectiveTransform(spot, to_frame)[0, 0]
        ex, ey = cv2.perspectiveTransform(spot + np.float32([10, 0]), to_frame)[0, 0]
        px_per_mm = float(np.hypot(ex - cx, ey - cy)) / 10
        x, y, side = die.centre[0], die.centre[1], die.side_px
        patch = scene.image[int(y - side):int(y + side), int(x - side):int(x + side)]
        scale = 16 * px_per_mm / side
        patch = cv2.resize(patch, None, fx=scale, fy=scale,
                           interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
        h, w = patch.shape[:2]
        top, left = int(cy - h / 2), int(cx - w / 2)
        frame[top:top + h, left:left + w] = patch
    return frame
