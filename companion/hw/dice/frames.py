"""Frames for the dice reader: where they come from, and the part of each that is read.

``frame_iterator`` turns an iterator of BGR images, an object with ``read()`` (a
``cv2.VideoCapture``) or a camera source string (:func:`companion.hw.camera.capture.open_source`:
``camera:0``, ``/dev/video0``, ``picamera``, a picture, which then stands still for ever,
a folder or a video) into frames; a source string's are a :class:`CameraStream`. While a
live camera has no picture (unplugged, still starting) the stream holds its message in
words instead of a frame. ``take_frames`` takes a few at once (``calibrate dice``).

``area_of`` cuts a frame down to what the reader reads: the printed mat's dice area, or
the whole view.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from companion.errors import DeviceError
from companion.hw.camera.capture import (
    IMAGE_SUFFIXES,
    FileSource,
    FrameSource,
    OpenCVCamera,
    PicameraSource,
    device_node,
    frame_problem,
    open_source,
)

if TYPE_CHECKING:
    from companion.hw.camera.mat import MatDetector

Frame = np.ndarray
FrameOrWhy = np.ndarray | str  # a frame, or why a live camera has none right now
NO_PICTURE_POLL_S = 0.05  # a camera without a picture is asked again this often


class FrameReader(Protocol):
    """Anything with ``read()`` giving ``(ok, frame)`` like cv2.VideoCapture, or a frame/None."""

    def read(self) -> Any: ...


MAT_AREA = "the mat's dice area"
WHOLE_VIEW = "the whole view"
OUT_OF_VIEW = ("the mat's dice area is partly outside the camera's view: move the camera so "
               "the whole mat is in the picture")


@dataclass(frozen=True, slots=True)
class Area:
    """What the reader reads of a frame: ``image``, and ``where`` it is (MAT_AREA or
    WHOLE_VIEW); or no image, and ``where`` says why there is nothing to read."""

    image: Frame | None
    where: str


def area_of(frame: Frame, area: str) -> Area:
    """The part of ``frame`` the reader reads for ``area`` (see :class:`CameraDiceSource`).

    The tray, ``dice read`` and ``calibrate dice`` all cut frames here, so that the face
    sizes calibration measures are the sizes the tray reads. A black or washed-out frame
    is not read: its dice could not be seen, and "no dice" would hide a covered lens. A
    drawing of the mat is not let through as the tile reader lets a picture file's through
    (:func:`~companion.hw.camera.capture.frame_problem`): it has no dice to read."""
    problem = frame_problem(frame)
    if problem is not None:
        return Area(None, problem)
    if area != "view":
        mat = _mat_detector()
        crop, detection = mat.dice_crop(frame)
        if crop is not None and not detection.in_view(mat.geometry.dice):
            # Cut off, it is black fill there: its dice would be "none in view".
            return Area(None, OUT_OF_VIEW)
        if crop is not None:
            return Area(crop, MAT_AREA)
        if area == "mat":
            return Area(None, detection.message)
    return Area(frame, WHOLE_VIEW)


@cache
def _mat_detector() -> MatDetector:
    """The printed mat's detector, made once (the "view" area never needs it)."""
    from companion.hw.camera.mat import MatDetector

    return MatDetector()


class CameraStream(Iterator[FrameOrWhy]):
    """A camera source string's frames (or, while it has none, why), and what it is:
    ``still``, a picture (one throw, for ever); ``live``, a camera watching the table
    (dice may have lain there before it started, e.g. since before a power cut)."""

    def __init__(self, camera: FrameSource) -> None:
        self.still = isinstance(camera, FileSource) and is_picture(str(camera.path))
        self.live = isinstance(camera, OpenCVCamera | PicameraSource)
        self._camera = camera
        self._frames = _from_camera(camera)

    @property
    def pictures(self) -> tuple[Path, ...]:
        """The pictures given one by one, in their order (a folder's; none for a camera or
        a video)."""
        return self._camera.files if isinstance(self._camera, FileSource) else ()

    def __next__(self) -> FrameOrWhy:
        return next(self._frames)

    def refuse_absent(self) -> None:
        """Raise :class:`DeviceError` now when the camera is a webcam that is not there at
        all: it cannot be opened and its device node (``/dev/video9``) does not exist, so
        it is not plugged in. A roll would only wait for it (dice62 D2, R1); a webcam there
        but giving no picture yet (starting, in use) is waited for by the roll."""
        camera = self._camera
        if (isinstance(camera, OpenCVCamera) and not camera.open()
                and not device_node(camera.device).exists()):
            raise DeviceError(camera.message.removesuffix("; retrying"))

    def close(self) -> None:
        # The camera itself: a generator never started runs no ``finally`` when closed.
        self._frames.close()
        self._camera.close()


def frame_iterator(source: Iterable[FrameOrWhy] | FrameReader | str) -> Iterator[FrameOrWhy]:
    """Frames from an iterable, a reader with ``read()``, or a source string (see module;
    a :class:`CameraStream`)."""
    if isinstance(source, str):
        return CameraStream(_open_camera(source))
    if isinstance(source, Iterable):
        return iter(source)
    return _from_reader(source)


def is_picture(spec: str) -> bool:
    """Whether ``spec`` names a picture file (a still picture: one throw, for ever)."""
    path = Path(spec)
    return path.suffix.lower() in IMAGE_SUFFIXES and path.is_file()


def _from_reader(reader: FrameReader) -> Iterator[Frame]:
    while True:
        got = reader.read()
        frame = got[1] if isinstance(got, tuple) and got and got[0] else (
            None if isinstance(got, tuple) else got)
        if frame is None:
            return
        yield frame


def _open_camera(spec: str) -> FrameSource:
    """The camera ``spec`` names, opened as the play session opens its own: a picture that
    cannot be read is said before any roll, naming the setting or option that chose it
    (``open_source`` reads it once; review64e NIT 2: it was read twice and the setting not
    named). Dice on a photo lie still: it is read again and again."""
    source = open_source(spec)
    if isinstance(source, FileSource) and source.still:
        source.loop = True
    return source


def _from_camera(camera: FrameSource) -> Generator[FrameOrWhy, None, None]:
    try:
        while True:
            frame = camera.read()
            if frame is not None:
                yield frame
            elif isinstance(camera, FileSource) and camera.ended:
                return
            else:
                yield camera.message
    finally:
        camera.close()


def take_frames(spec: str, count: int, wait_s: float,
                clock: Callable[[], float] = time.monotonic,
                sleep: Callable[[float], None] = time.sleep) -> tuple[list[Frame], str]:
    """Up to ``count`` frames from the camera ``spec``; a camera that gives no picture for
    ``wait_s`` seconds has stopped. The wait restarts at each frame: counted from the start,
    a slow webcam that then dropped one frame was refused as unplugged (r77dice RISK 3).
    Also returns why there were fewer."""
    frames: list[Frame] = []
    why = "the source ended"
    deadline = clock() + wait_s
    stream = _from_camera(_open_camera(spec))
    try:
        for item in stream:
            if isinstance(item, str):
                why = item
                if clock() > deadline:
                    break
                sleep(NO_PICTURE_POLL_S)
                continue
            frames.append(item)
            if len(frames) == count:
                break
            deadline = clock() + wait_s
    finally:
        stream.close()
    return frames, why
