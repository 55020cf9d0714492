"""Camera reads: a slot's agreeing frames must be consecutive frames it was seen in
(mutation round 3)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.hw.camera.capture import FileSource, RenderedSource
from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.reader import CameraTileReader, ReaderSettings
from companion.hw.camera.sim_scene import Camera, render_scene
from companion.hw.ports import Slot

STEADY = ReaderSettings(stable_frames=2, min_confidence=0.5)


@pytest.fixture(scope="module")
def classifier() -> TileClassifier:
    return TileClassifier()


def labels(reader: CameraTileReader) -> dict[Slot, str | None]:
    return {r.slot: r.label for r in reader.poll()}


def test_a_frame_without_the_mat_breaks_the_run_of_agreeing_frames(
        classifier: TileClassifier) -> None:
    """One frame before the mat was lost and one after it are not two agreeing frames: the
    tile may have been changed while the mat was out of view."""
    source = RenderedSource({Slot.DRAW: "3p"}, seed=1)
    reader = CameraTileReader(source, classifier, settings=STEADY)
    assert labels(reader) == {}
    source.hidden_markers = (0, 1, 2)
    assert labels(reader) == {}
    source.hidden_markers = ()
    assert labels(reader) == {}  # the first frame since: not yet stable
    assert labels(reader)[Slot.DRAW] == "3p"
    reader.close()


def test_a_slot_out_of_view_for_a_frame_starts_its_count_again(
        classifier: TileClassifier, tmp_path: Path) -> None:
    """The top-right slot, seen, then cut off by the picture's edge, then seen again, needs
    its agreeing frames anew; the draw slot, seen in all three, settles on the second."""
    frame = render_scene({Slot.DRAW: "5p", Slot.ROOM_TR: "1m"}, np.random.default_rng(3),
                         camera=Camera(nudge_px=4, tilt=0.01))
    cv2.imwrite(str(tmp_path / "0.png"), frame)
    cv2.imwrite(str(tmp_path / "1.png"), frame[:, :660])  # the right of the mat cut off
    cv2.imwrite(str(tmp_path / "2.png"), frame)
    cv2.imwrite(str(tmp_path / "3.png"), frame)
    reader = CameraTileReader(FileSource(tmp_path), classifier, settings=STEADY)
    assert labels(reader) == {}
    assert Slot.ROOM_TR not in labels(reader)
    assert Slot.ROOM_TR not in labels(reader)  # one frame since it came back
    assert labels(reader)[Slot.ROOM_TR] == "1m"
    reader.close()
