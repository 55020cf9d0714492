"""``companion calibrate camera``: find the mat, check the picture, enrol the player's own set.

    companion calibrate camera                      # camera:0, checks and saves camera.toml
    companion calibrate camera --source picamera --enrol
    companion calibrate camera --enrol-from my_tiles/   # 5p.jpg, 5p_2.jpg, back.png ...

The checks (focus, exposure, glare) are measured on the rectified mat, so the
numbers mean the same under any camera. The calibration goes to
``camera.toml`` in the user's config folder; the enrolled tiles, embeddings
of the player's own set, to ``camera_enrolment.npz`` beside it; and each
empty slot's look on this table under this light (what tells an empty slot
from a blank White) to ``camera_slots.npz``, which the play session's reader
starts from. A slot with something on it keeps the printed look.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import tomlkit

from companion.app.config import load_config
from companion.app.paths import config_dir
from companion.errors import DataError
from companion.files import commented, table, write_toml
from companion.hw.camera.capture import FrameSource, frame_problem, open_source
from companion.hw.camera.classifier import Enrolment, TileClassifier
from companion.hw.camera.mat import MatDetector, MatGeometry
from companion.hw.camera.occupancy import COVERED_SHADE, SlotLooks
from companion.hw.camera.reader import ReaderSettings
from companion.hw.pictures import PictureError, read_picture
from companion.hw.ports import Slot
from companion.systems.jongrogue.tiles import ALL_KINDS, BACK, EMPTY, READER_LABELS

CALIBRATION_FILE = "camera.toml"
ENROLMENT_FILE = "camera_enrolment.npz"
SLOT_LOOKS_FILE = "camera_slots.npz"
MIN_FOCUS = 60.0  # variance of the Laplacian over the rectified mat; below it looks soft
EXPOSURE_RANGE = (110.0, 240.0)  # median grey of the paper
MAX_GLARE = 0.01  # share of burnt-out pixels in the slots and dice area


@dataclass(frozen=True, slots=True)
class PictureQuality:
    """How good the camera's view of the mat is; each check has a fix in words."""

    focus: float
    exposure: float
    glare: float

    def problems(self) -> list[str]:
        found = []
        if self.focus < MIN_FOCUS:
            found.append(f"the picture is soft (focus {self.focus:.0f} < {MIN_FOCUS:.0f}): "
                         "turn the lens ring or move the camera to its focus distance")
        if self.exposure < EXPOSURE_RANGE[0]:
            found.append(f"the mat looks dark (paper grey {self.exposure:.0f}): add light")
        if self.exposure > EXPOSURE_RANGE[1]:
            found.append(f"the mat looks washed out (paper grey {self.exposure:.0f}): "
                         "less light or lower exposure")
        if self.glare > MAX_GLARE:
            found.append(f"glare on {self.glare:.1%} of the slots: move the lamp to the side")
        return found


def measure_quality(mat_image: np.ndarray, detector: MatDetector) -> PictureQuality:
    """Focus, exposure and glare of a rectified mat image."""
    grey = cv2.cvtColor(mat_image, cv2.COLOR_BGR2GRAY)
    focus = float(cv2.Laplacian(grey, cv2.CV_64F).var())
    g = detector.geometry
    mask = np.zeros(grey.shape, bool)
    for rect in [s.rect for s in g.slots] + [g.dice]:
        x, y = round(rect.x_mm * g.px_per_mm), round(rect.y_mm * g.px_per_mm)
        w, h = g.size_px(rect)
        mask[y : y + h, x : x + w] = True
    return PictureQuality(focus, float(np.median(grey)), float((grey[mask] >= 250).mean()))


def load_settings(classifier: TileClassifier) -> ReaderSettings:
    """The reader settings: the model's defaults, overridden by ``camera.toml`` if saved."""
    defaults = ReaderSettings.from_classifier(classifier)
    path = config_dir() / CALIBRATION_FILE
    if not path.exists():
        return defaults
    try:
        reader = tomllib.loads(path.read_text(encoding="utf-8")).get("reader", {})
        return ReaderSettings(
            int(reader.get("stable_frames", defaults.stable_frames)),
            float(reader.get("min_confidence", defaults.min_confidence)),
        )
    except (OSError, tomllib.TOMLDecodeError, ValueError, TypeError) as exc:
        raise DataError(f"{path}: [reader] is malformed ({exc}); fix it or calibrate again") \
            from exc


def load_slot_looks(geometry: MatGeometry) -> SlotLooks | None:
    """The slots' empty look saved by calibration, or None (the printed look is used)."""
    path = config_dir() / SLOT_LOOKS_FILE
    return SlotLooks.load(geometry, path) if path.exists() else None


def learn_empty_slots(frame: np.ndarray, detection: Any, detector: MatDetector,
                      classifier: TileClassifier, min_confidence: float,
                      ) -> tuple[SlotLooks, list[Slot], list[Slot]]:
    """Take each slot that holds nothing as its empty look; (looks, learnt, covered).

    The mat should be clear when it is calibrated; what the print lacks there
    (a pencil mark, a stain, the lamp's light) is then the slot's own look. A
    slot keeps the printed look if a tile or a back is read on it with
    ``min_confidence``, or if its inside is far from the print's shade (a
    hand, a box): the player is told to clear it.
    """
    looks = SlotLooks(detector.geometry)
    learnt, covered = [], []
    crops = detector.slot_crops(frame, detection)
    for slot, (prediction, evidence) in looks.read(classifier, crops).items():
        best = prediction.best
        if (best.label != EMPTY and best.confidence >= min_confidence) \
                or evidence.shade >= COVERED_SHADE:
            covered.append(slot)
            continue
        looks.remember(slot, crops[slot], weight=1.0)
        learnt.append(slot)
    return looks, learnt, covered


def save_calibration(path: Path, source: str, quality: PictureQuality, markers: tuple[int, ...],
                     settings: ReaderSettings) -> None:
    document = tomlkit.document()
    document.add(tomlkit.comment(
        "Written by 'companion calibrate camera'; the [reader] values may be edited."))
    document.add("source", source)
    document.add("quality", table({
        "focus": round(quality.focus, 1), "exposure": round(quality.exposure, 1),
        "glare": round(quality.glare, 4), "markers_seen": list(markers),
    }))
    document.add("reader", table({
        "stable_frames": commented(settings.stable_frames, "frames that must agree"),
        "min_confidence": commented(settings.min_confidence, "below it a slot is 'uncertain'"),
    }))
    write_toml(path, document)


def find_mat(source: FrameSource, detector: MatDetector, frames: int,
             say: Callable[[str], None]) -> tuple[np.ndarray, Any] | None:
    """Read up to ``frames`` frames until one shows the mat; say what is wrong otherwise."""
    last = "no frame"
    for _ in range(frames):
        frame = source.read()
        if frame is None:
            if getattr(source, "ended", False) and last != "no frame":
                break  # a picture or video ran out: what its frames showed is the reason
            last = source.message
            continue
        problem = frame_problem(frame)
        if problem:
            last = problem
            continue
        warped, detection = detector.rectify(frame)
        if warped is not None:
            return frame, detection
        last = detection.message
    say(f"mat not found: {last.removesuffix('; retrying')}")  # calibration has given up
    return None


def enrol_from_folder(folder: Path, classifier: TileClassifier) -> Enrolment:
    """Embed every picture named ``<label>[_n].<ext>`` (``5p.jpg``, ``back_2.png``)."""
    enrolment = Enrolment(model=classifier.model_id)
    for path in sorted(folder.iterdir()):
        label = path.stem.split("_")[0].lower()
        if label not in READER_LABELS:
            continue
        try:
            image = read_picture(path)
        except PictureError as exc:
            print(f"  {exc.problem}: {path.name} skipped")
            continue
        enrolment.add(label, classifier.predict([image])[0].embedding)
    if not len(enrolment):
        raise DataError(f"{folder}: no pictures named after a tile (e.g. 5p.jpg, 1z_2.png)")
    return enrolment


def enrol_on_mat(source: FrameSource, detector: MatDetector, classifier: TileClassifier,
                 ask: Callable[[str], str], shots: int = 2) -> Enrolment:
    """Ask for each kind on the draw slot in turn and keep ``shots`` embeddings of it."""
    enrolment = Enrolment(model=classifier.model_id)
    for label in [*(str(t) for t in ALL_KINDS), BACK]:
        answer = ask(f"Put {label} on the Draw (ツモ) slot, then Enter (s skip, q finish): ")
        if answer.strip().lower() == "q":
            break
        if answer.strip().lower() == "s":
            continue
        taken = 0
        for _ in range(shots * 5):
            frame = source.read()
            if frame is None or frame_problem(frame):
                continue
            detection = detector.detect(frame)
            crops = detector.slot_crops(frame, detection)
            if Slot.DRAW in crops:
                enrolment.add(label, classifier.predict([crops[Slot.DRAW]])[0].embedding)
                taken += 1
            if taken == shots:
                break
        if taken == 0:
            print(f"  could not see the mat for {label}; skipped")
    return enrolment


def run(args: argparse.Namespace) -> int:
    classifier = TileClassifier(args.model)
    if args.enrol_from is not None:
        enrolment = enrol_from_folder(args.enrol_from, classifier)
        enrolment.save(config_dir() / ENROLMENT_FILE)
        print(f"enrolled {len(enrolment)} pictures of {len(set(enrolment.labels))} kinds "
              f"into {config_dir() / ENROLMENT_FILE}")
        return 0
    detector = MatDetector()
    if args.source is None:  # the camera the game will read from
        config = load_config()
        config.tell_notices()
        args.source = config.text("input.camera_source")
    source = open_source(args.source)
    try:
        found = find_mat(source, detector, args.frames, print)
        if found is None:
            return 1
        frame, detection = found
        warped = detector.warp(frame, detection, None)
        quality = measure_quality(warped, detector)
        print(f"{detection.message}; focus {quality.focus:.0f}, paper grey "
              f"{quality.exposure:.0f}, glare {quality.glare:.2%}")
        for problem in quality.problems():
            print(f"  - {problem}")
        path = config_dir() / CALIBRATION_FILE
        settings = load_settings(classifier)
        save_calibration(path, args.source, quality, detection.markers_seen, settings)
        print(f"saved {path}")
        looks, learnt, covered = learn_empty_slots(frame, detection, detector, classifier,
                                                   settings.min_confidence)
        if learnt:
            looks.save(config_dir() / SLOT_LOOKS_FILE, learnt)
            print(f"saved the empty look of {len(learnt)} slots to "
                  f"{config_dir() / SLOT_LOOKS_FILE}")
        if covered:
            print(f"  {', '.join(s.value for s in covered)}: not empty, so the printed look "
                  "stays (clear it and calibrate again to learn it)")
        if args.enrol:
            enrolment = enrol_on_mat(source, detector, classifier, input)
            if len(enrolment):
                enrolment.save(config_dir() / ENROLMENT_FILE)
                print(f"enrolled {len(set(enrolment.labels))} kinds into "
                      f"{config_dir() / ENROLMENT_FILE}")
        return 1 if quality.problems() else 0
    except EOFError:
        print("enrolment stopped: no more input", file=sys.stderr)
        return 1
    finally:
        source.close()


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "camera", help="find the mat, check focus, exposure and glare, enrol your tile set"
    )
    parser.add_argument("--source",
                        help="camera:0, /dev/video0, picamera, a picture/folder/video, "
                             "or render:draw=5p (default: the game's camera, "
                             "input.camera_source in `companion config`)")
    parser.add_argument("--frames", type=int, default=30, help="frames to try (default 30)")
    parser.add_argument("--enrol", action="store_true",
                        help="then photograph each kind of your set on the Draw slot")
    parser.add_argument("--enrol-from", type=Path, metavar="DIR",
                        help="enrol from pictures named after their tile (5p.jpg, back_2.png)")
    parser.add_argument("--model", type=Path, help="another tile_classifier.onnx")
    parser.set_defaults(func=run)
