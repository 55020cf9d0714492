"""The dice reader's three small networks: what they are shown, and their ONNX sessions.

The *finder* looks at the whole frame shrunk so dice are about TRAINED_FACE_PX across and
marks the centre of every die's top face (a heat map, one cell per STRIDE
pixels of its input, with the centre's offset inside the cell and the face's
size). The *judge* looks at each place marked, cut from the full frame CROP_SIDES
face sides wide, and says which face is up: NOTHING (no die's top is there),
1 to 6, MOVING (a die is there but blurred by motion), or COCKED (a face of a
die leaning on another, not its top). The *counter* looks at the middle of the
judge's window, COUNT_PX of its JUDGE_PX pixels (4/3 of a face side): the top face
alone, and says which of the six values it shows (scripts/train_dice_counter.py). Training
(scripts/train_dice_reader.py) and the reader use these same functions, so
the networks see at run time exactly what they were trained on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import DataError, StaleEnrolment
from companion.hw.dice.enrol import Enrolment
from companion.hw.onnx_session import fingerprint, open_session

TRAINED_FACE_PX = 16.0  # a typical die face's side in the finder's training inputs
STRIDE = 4  # finder input pixels per heat map cell
CROP_SIDES = 3.0  # the judge's stored window, in face sides (training jitters inside it)
CROP_PX = 72  # pixels across that stored window
JUDGE_SIDES = 3.0  # the judge's input window, in face sides: the die and what it leans on
JUDGE_PX = 72  # pixels across the judge's input
COUNT_PX = 32  # pixels across the counter's input: the middle of the judge's window
TURNS = 8  # windows the judge sees in a closer look: four quarter turns, mirrored and not
NOTHING, MOVING, COCKED = 0, 7, 8  # the judge's classes besides the values 1..6
CLASSES = ("nothing", "1", "2", "3", "4", "5", "6", "moving", "cocked")


def shrink(frame: np.ndarray, face_px: float = TRAINED_FACE_PX * 4) -> np.ndarray:
    """``frame`` resized so a die face of ``face_px`` pixels is TRAINED_FACE_PX across.

    The finder was trained on 1280x720 renders shrunk 4 times, where a face is
    9 to 28 pixels across; scaling by the dice's size, not the frame's, keeps it
    in that range for any camera and for the mat's straightened dice area.
    """
    height, width = frame.shape[:2]
    scale = TRAINED_FACE_PX / face_px
    size = (max(STRIDE, round(width * scale)), max(STRIDE, round(height * scale)))
    return _averaged(frame, size)


def _averaged(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` shrunk to ``size`` (width, height) by averaging (cv2.INTER_AREA).

    OpenCV halves an image fast (0.3 ms for 1280x720) and shrinks it by any other factor
    slowly (4 ms by 1/3.95, a quarter of a read): so it is halved while it stays at least as
    large as asked, and only what is left is shrunk the slow way. That way is kept exact:
    stretching what is left to twice the size and halving it (every pixel within 1 level, a
    third of the time) moved the reader's choices, and a die twice the others' size beside
    them went unseen, the roll read OK one die short (test_dice_scale.py's [2.0] case).
    """
    while image.shape[1] >= 2 * size[0] and image.shape[0] >= 2 * size[1]:
        even = image[:image.shape[0] // 2 * 2, :image.shape[1] // 2 * 2]
        image = cv2.resize(even, (even.shape[1] // 2, even.shape[0] // 2),
                           interpolation=cv2.INTER_AREA)
    if image.shape[1::-1] == size:
        return image
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def window(frame: np.ndarray, centre: tuple[float, float], side: float, sides: float,
           px: int) -> np.ndarray:
    """The square ``sides`` face sides wide around ``centre``, resized to ``px`` pixels.

    Parts outside the frame repeat its edge, so a die at the border is still cut out whole.
    """
    half = sides * side / 2
    x0, y0 = round(centre[0] - half), round(centre[1] - half)
    span = max(1, round(2 * half))
    height, width = frame.shape[:2]
    pad = max(0, -x0, -y0, x0 + span - width, y0 + span - height)
    if pad:
        frame = cv2.copyMakeBorder(frame, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        x0, y0 = x0 + pad, y0 + pad
    cut = frame[y0:y0 + span, x0:x0 + span]
    if span > px:
        return _averaged(cut, (px, px))
    return cv2.resize(cut, (px, px), interpolation=cv2.INTER_LINEAR)


def count_windows(windows: np.ndarray) -> np.ndarray:
    """The counter's inputs: the middle COUNT_PX pixels of judge windows (n, JUDGE_PX,
    JUDGE_PX, 3)."""
    start = (JUDGE_PX - COUNT_PX) // 2
    return windows[:, start:start + COUNT_PX, start:start + COUNT_PX]


def models_dir() -> Path:
    """``models/`` of this checkout, where the networks live."""
    return Path(__file__).resolve().parents[3] / "models"


@dataclass(frozen=True, slots=True)
class Spot:
    """A place the finder marked: a top face's centre and side (frame pixels), and how sure."""

    x: float
    y: float
    side: float
    heat: float


class DiceNetworks:
    """The finder and the judge, loaded from ``folder`` (default: ``models/``)."""

    FINDER = "dice_finder.onnx"
    JUDGE = "dice_judge.onnx"
    COUNTER = "dice_counter.onnx"

    def __init__(self, folder: Path | None = None, enrolment: Enrolment | None = None) -> None:
        """``enrolment`` is the player's own dice (companion/hw/dice/enrol.py), which the
        judge's answers are blended with."""
        # A folder the player named (a script's --models) is fixed by its path, not by
        # reinstalling the companion, whose own models are fine (r78tilecam).
        hint = ("reinstall the companion" if folder is None else
                "check --models' path (a folder holding dice_finder.onnx and dice_judge.onnx)"
                ) + ", or retrain with scripts/train_dice_reader.py"
        folder = folder if folder is not None else models_dir()
        self._finder = open_session(folder / self.FINDER, "dice finder model", hint)
        self._judge = open_session(folder / self.JUDGE, "dice judge model", hint)
        shape = self._judge.get_inputs()[0].shape
        if list(shape[1:]) != [3, JUDGE_PX, JUDGE_PX]:
            raise DataError(f"{folder / self.JUDGE}: the dice judge model takes windows of "
                            f"{shape[1:]}, the reader cuts [3, {JUDGE_PX}, {JUDGE_PX}]; {hint}")
        self._embeds = [o.name for o in self._judge.get_outputs()][1:2] == ["embedding"]
        # The counter is a second opinion on the judge's values; a folder without one
        # (models/dice_v1, the renders-only networks) reads with the judge alone.
        self._counter = None
        if (folder / self.COUNTER).exists():
            self._counter = open_session(folder / self.COUNTER, "dice counter model", hint)
        self._folder = folder
        # Which judge this is, for enrolments (enrol.py): its file's fingerprint.
        self.judge_id = fingerprint(folder / self.JUDGE)
        self.enrolment: Enrolment | None = None
        if enrolment is not None:
            self.enrol(enrolment)

    @property
    def embedding_width(self) -> int | None:
        """How many numbers the judge's embedding of a window holds (None: no embedding, or
        the model does not say), which an enrolment made with it must match."""
        if not self._embeds:
            return None
        width = self._judge.get_outputs()[1].shape[-1]
        return width if isinstance(width, int) else None

    def enrol(self, enrolment: Enrolment | None) -> None:
        """Blend the judge's answers with ``enrolment`` from now on (None: stop).

        Raises StaleEnrolment for an enrolment another judge made."""
        if enrolment is not None and not self._embeds:
            raise DataError(f"{self._folder / self.JUDGE}: this dice judge gives no embedding "
                            "to enrol dice with; update the companion")
        if enrolment is not None and enrolment.judge != self.judge_id:
            raise StaleEnrolment("the enrolled dice were taught to another dice model than "
                                 "this one (the companion was updated since); run `companion "
                                 "calibrate dice --enrol` again")
        self.enrolment = enrolment

    def find(self, frame: np.ndarray, threshold: float, face_px: float,
             small: np.ndarray | None = None) -> list[Spot]:
        """Every top-face centre the finder marks at ``threshold`` or above, strongest first.

        ``face_px`` is about how big a die face is in ``frame`` (within a factor of 2).
        ``small`` is ``frame`` already shrunk for ``face_px`` (or near enough: the marks
        are placed by its own scale), to save shrinking it again.
        """
        if small is None:
            small = shrink(frame, face_px)
        scale = small.shape[1] / frame.shape[1]
        blob = small.astype(np.float32).transpose(2, 0, 1)[None]
        out = self._finder.run(None, {"frame": blob})[0][0]
        heat = out[0]
        # A centre is the hottest cell among its eight neighbours.
        peaks = (heat >= threshold) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
        spots = []
        for iy, ix in zip(*np.nonzero(peaks), strict=True):
            dx, dy, log_side = out[1:, iy, ix]
            # The side in float32, as numpy 2 divides a float32 by a Python float (numpy 1.x
            # did it in float64: NEP 50), so every numpy gives the reader the same marks.
            spots.append(Spot(float((ix + dx) * STRIDE / scale), float((iy + dy) * STRIDE / scale),
                              float(np.exp(log_side) / np.float32(scale)), float(heat[iy, ix])))
        return sorted(spots, key=lambda s: -s.heat)

    def judge(self, frame: np.ndarray, spots: list[Spot], turned: bool = False) -> np.ndarray:
        """For each spot, the judge's probabilities of CLASSES (one row per spot).

        ``turned`` is a closer look, for TURNS times the work: each window is judged
        in its four quarter turns, mirrored and not, and the answers averaged.
        A die's faces look the same turned any way, so the judge's answer should not
        change; where it does, the mean is steadier than any one of them.
        """
        if not spots:
            return np.zeros((0, len(CLASSES)), np.float32)
        probs, embeddings = self._run(self.windows(frame, spots, turned))
        if self.enrolment is not None:
            probs = self.enrolment.adjust(probs, embeddings)
        mean: np.ndarray = probs.reshape(-1, len(spots), len(CLASSES)).mean(axis=0)
        return mean

    def count(self, frame: np.ndarray, spots: list[Spot]) -> np.ndarray | None:
        """For each spot, the counter's probabilities of the values 1..6 (one row per
        spot); None when these networks have no counter.

        One look at each face: the counter pools over the face and was taught it at every
        turn, and the mean of its eight turns (as the judge's closer look) read the train
        part of the shared real photos no better, for eight times the work.
        """
        if self._counter is None:
            return None
        if not spots:
            return np.zeros((0, 6), np.float32)
        windows = count_windows(self.windows(frame, spots, turned=False))
        probs: np.ndarray = self._counter.run(None, {"windows": windows.astype(np.float32)
                                                     .transpose(0, 3, 1, 2)})[0]
        return probs

    def embed(self, frame: np.ndarray, spots: list[Spot]) -> tuple[np.ndarray, np.ndarray]:
        """The judge's probabilities and embeddings of each spot's window in its TURNS
        turns: rows ``turn * len(spots) + spot`` (without the enrolment's blending)."""
        if not self._embeds:
            raise DataError(f"{self._folder / self.JUDGE}: this dice judge gives no embedding "
                            "to enrol dice with; update the companion")
        return self._run(self.windows(frame, spots, turned=True))

    @staticmethod
    def windows(frame: np.ndarray, spots: list[Spot], turned: bool) -> np.ndarray:
        """The judge's input windows of ``spots``; ``turned``: in TURNS turns, turn-major."""
        windows = np.stack([window(frame, (s.x, s.y), s.side, JUDGE_SIDES, JUDGE_PX)
                            for s in spots])
        if turned:
            quarter = [np.rot90(windows, k, axes=(1, 2)) for k in range(4)]
            windows = np.concatenate(quarter + [q[:, :, ::-1] for q in quarter])
        return windows

    def _run(self, windows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        blob = windows.astype(np.float32).transpose(0, 3, 1, 2)
        if not self._embeds:
            return self._judge.run(None, {"windows": blob})[0], np.zeros((len(blob), 0))
        probs, embeddings = self._judge.run(None, {"windows": blob})
        return probs, embeddings
