"""``companion calibrate camera``: find the mat, check the picture, enrol the player's own set.

    companion calibrate camera                      # the game's camera (input.camera_source)
    companion calibrate camera --source camera:0 --enrol
    companion calibrate camera --enrol-from my_tiles/   # 5p.jpg, 5p_2.jpg, back.png ...

It reads frames until one shows the whole mat (else it takes the last showing the
most corner markers) and saves that frame, with the corner markers and the slots it
found drawn on it, as ``camera_check.jpg`` in the data
folder (a Pi set up over SSH has no screen to show it on; when the mat is not
found, the last frame looked at is saved as it is; a data folder that refuses it, full,
is said in one line and the calibration goes on without it). Then it checks that all four
corner markers are seen, and the focus, exposure and glare, measured on the
rectified mat so the numbers mean the same under any camera. Glare is counted in
the slots, where tiles are read: the dice area is printed white, which is not
glare, and its light is checked by ``companion calibrate dice``. A check that
fails is listed with its fix and the command exits 1; what was measured is saved
all the same when there is no calibration yet, but a calibration there (a ``camera.toml``,
or the slots' empty looks) is kept, unless ``--force`` is given (:func:`kept_instead`). A
``camera.toml`` whose text is no calibration, which play refuses, is not: it is set aside
and written from the frame, the slots' empty looks kept.

The calibration goes to ``camera.toml`` in the user's config folder, and each
empty slot's look on this table under this light (what tells an empty slot from
a blank White) to ``camera_slots.npz``, which the play session's reader starts
from. A slot with something on it is read by its printed look; when no slot is
seen empty, a ``camera_slots.npz`` learnt before (in other light) is removed.

The slot looks are written first: a stop between the two files then leaves this
light's looks beside the ``camera.toml`` before, whose [reader] settings are the
ones written again anyway, never the old light's looks beside the new calibration.
When the folder refuses the looks (full, or not to be written) and takes ``camera.toml``,
the looks learnt before are removed (unlinking needs no room) and one line says the printed
look is used until the player frees space (or lets the folder be written) and calibrates
again. A looks file that cannot be made for another reason (a folder in its place) stops
the calibration before ``camera.toml`` is written, naming the file and what is wrong.

A calibration is of the camera it was made with: the line saying ``camera.toml`` is saved
names the source of the calibration it replaces, when that was another (a photo taken at
the table replacing the Pi camera's). A source that is no camera's view of the player's
table saves neither file, so that trying it leaves the calibration there as it is: the
rendered mat ``render:…`` (for checking the companion's own reading, with no camera), and
a drawing of the mat given as a picture file (its print file, docs/mat.png: paper pure
white, markers pure black), which is said, as its light is no light of the player's; a
camera's view is never called one, however burnt out (that is too much light). Neither sets
aside a ``camera.toml`` that cannot be read. ``--enrol`` is refused with a rendered mat: its
Draw slot shows the tile its spec draws whatever kind is asked for.

The enrolled tiles, embeddings of the player's own set, go to
``camera_enrolment.npz`` beside it. Each kind taken is saved at once, in place of
that kind's earlier shots and beside the other kinds', so redoing one kind keeps
the rest and stopping half-way (``q``, Ctrl-C) keeps what was taken.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import tomlkit

from companion.app.arg_types import positive_int
from companion.app.calibrate import NO_ROOM, describe, set_aside
from companion.app.camera_settings import (
    CALIBRATION_FILE,
    ENROLMENT_FILE,
    SLOT_LOOKS_FILE,
    read_settings,
)
from companion.app.command_name import companion_line
from companion.app.commands.classify import kept_for_model
from companion.app.config import load_config
from companion.app.help_format import wrap_kept
from companion.app.options import refuse_stray_options
from companion.app.paths import config_dir, data_dir
from companion.errors import DataError, DeviceError, error_text
from companion.files import DISK_ERRNOS, atomic_write_bytes, fsync_dir, loads_toml
from companion.hw.camera.capture import (
    BRIGHT_MEAN,
    BURNT_OUT,
    DARK_MEAN,
    IMAGE_SUFFIXES,
    FileSource,
    FrameSource,
    camera_named,
    frame_problem,
    is_drawing,
    may_be_drawn,
    open_source,
)
from companion.hw.camera.choice import CameraChoice
from companion.hw.camera.classifier import (
    MODEL_ENV,
    Enrolment,
    TileClassifier,
    default_model_path,
)
from companion.hw.camera.mat import MatDetection, MatDetector, MatStatus
from companion.hw.camera.occupancy import COVERED_SHADE, WHITE, Occupancy, SlotLooks
from companion.hw.camera.quality import (
    AUTOFOCUS,
    EXPOSURE_RANGE,
    FOCUS_IN_THE_DARK,
    MIN_FOCUS,
    PictureQuality,
    measure_quality,
)
from companion.hw.camera.reader import ReaderSettings, out_of_view_message, slot_words
from companion.hw.onnx_session import fingerprint
from companion.hw.pictures import VIDEO_SUFFIXES, PictureError, read_picture
from companion.hw.ports import SLOT_NAMES, Candidate, Slot
from companion.systems.jongrogue.tiles import ALL_KINDS, BACK, EMPTY, READER_LABELS, Tile
from companion.toml_writing import commented, table, write_toml

VIEW_FILE = "camera_check.jpg"  # in the data folder: a picture to look at, not a setting
FRAMES = 30  # frames tried for the mat unless --frames says (which goes only with a camera)
SAID_WIDTH = 80  # columns of a terminal: the widest line a long "mat not found" is said in
#: A refusal of the slot looks that room frees (the others: a folder that may not be written).
#: A tile's picture whose grey levels spread less than this is flat (a blank screen, a grey
#: card): nothing of a tile to learn. A blank White's face, the plainest, spreads about 7.
FLAT_STD = 2.0
#: The kinds whose face may be as plain and as bright as bare paper: a blank White's, and
#: the bare slot's own (``empty``). Neither is refused as bare paper, washed out or flat
#: (review62b R2: a tight, well-lit crop of a blank White was skipped as "washed out").
PLAIN_FACES = (EMPTY, WHITE)
#: A plain face's picture spreading less than this, and as bright as BURNT_OUT, is pure
#: white: no camera's noise, no tile's edge; a blank screen or a saved empty image.
NOISELESS_STD = 1.0


def settings_to_keep(classifier: TileClassifier) -> ReaderSettings:
    """The reader settings to write again (the player may have edited them); a
    ``camera.toml`` whose text is not a calibration is set aside and the defaults used."""
    defaults = ReaderSettings.from_classifier(classifier)
    path = config_dir() / CALIBRATION_FILE
    try:
        return read_settings(path.read_text(encoding="utf-8-sig"), defaults)
    except FileNotFoundError:
        return defaults
    except ValueError as exc:
        set_aside(path, str(exc))
        return defaults


def calibrated_from() -> str | None:
    """The source the ``camera.toml`` there was calibrated from, or None: no file, or one
    that does not say (:func:`settings_to_keep` sets an unreadable one aside)."""
    try:
        source = loads_toml((config_dir() / CALIBRATION_FILE).read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):  # TOMLDecodeError and UnicodeDecodeError are ValueErrors
        return None
    found = source.get("source")
    return found if isinstance(found, str) else None


def calibration_there() -> bool:
    """Whether a calibration is there for a failing frame to keep: a ``camera.toml`` in any
    state, or the slots' empty looks. The looks are what was learnt from the light; one
    hand-edit typo in ``camera.toml`` (or deleting it to reset the [reader] settings) let a
    dark frame replace them (calib62 D1). Only a first calibration, neither file there,
    saves a failing frame without ``--force``."""
    folder = config_dir()
    return (folder / CALIBRATION_FILE).exists() or (folder / SLOT_LOOKS_FILE).exists()


def is_rendered(source: str) -> bool:
    """Whether ``source`` is the rendered mat (``render:draw=5p``), not a camera's view."""
    return source.startswith("render:")


def learn_empty_slots(frame: np.ndarray, detection: MatDetection, detector: MatDetector,
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


def save_slot_looks(looks: SlotLooks, learnt: list[Slot],
                    covered: list[Slot]) -> OSError | None:
    """Keep the ``learnt`` slots' empty look, and say what the others are read by; the
    folder's refusal to take the looks (full), for :func:`forget_slot_looks` once
    ``camera.toml`` is written, else None."""
    path = config_dir() / SLOT_LOOKS_FILE
    refused: OSError | None = None
    if learnt:
        try:
            looks.save(path, learnt)
        except OSError as exc:
            if exc.errno not in DISK_ERRNOS:
                # Not the disk's refusal but the place itself (a folder named like the file):
                # calibrating again does the same, so stop before camera.toml is written.
                what, fix = (("a folder is in its place", "move it away")
                             if exc.errno == errno.EISDIR
                             else (exc.strerror or str(exc), "see what is at that path"))
                raise OSError(exc.errno, f"cannot save the slots' empty look there: {what}, "
                              f"so {CALIBRATION_FILE} was not written; {fix} and calibrate "
                              "again", str(path)) from exc
            # The looks before stay until camera.toml is written: a folder too full for
            # both then keeps the whole calibration before.
            refused = exc
        else:
            print(f"saved the empty look of {len(learnt)} slot"
                  f"{'' if len(learnt) == 1 else 's'} to {path}")
    if covered:
        print(f"  {slot_words(covered)}: not empty, so the printed look is used there (clear "
              f"{'it' if len(covered) == 1 else 'them'} and calibrate again to learn "
              f"{'it' if len(covered) == 1 else 'them'})")
    if not learnt and path.exists():
        # Looks learnt in other light would be trusted over the print: as the words say,
        # the print is what these slots are read by now.
        path.unlink()
        print(f"  no slot was seen empty: removed the empty looks learnt before ({path})")
    return refused


def forget_slot_looks(refused: OSError) -> None:
    """The new empty looks were ``refused`` and the new calibration written: remove the
    looks learnt before, in other light, which would be trusted over the print beside it
    (unlinking needs no room on a full disk), and say so in one line."""
    path = config_dir() / SLOT_LOOKS_FILE
    removed = path.exists()
    path.unlink(missing_ok=True)
    fix = ("free space in the config folder" if refused.errno in NO_ROOM
           else "let the config folder be written")
    print(f"companion: cannot save the slots' empty look ({error_text(refused)}): "
          + ("removed the looks learnt before, so " if removed else "")
          + f"every slot is read by its printed look; {fix} and "
          "calibrate again to learn them", file=sys.stderr)


def save_calibration(path: Path, source: str, quality: PictureQuality, markers: tuple[int, ...],
                     settings: ReaderSettings) -> None:
    document = tomlkit.document()
    document.add(tomlkit.comment(
        "Written by 'companion calibrate camera'; the [reader] values may be edited."))
    document.add("source", source)
    document.add("quality", table({
        "focus": round(quality.focus, 1), "exposure": round(quality.exposure, 1),
        "glare": commented(round(quality.worst_glare, 4), "the worst slot's"),
        "markers_seen": list(markers),
    }))
    document.add("reader", table({
        "stable_frames": commented(settings.stable_frames, "frames that must agree"),
        "min_confidence": commented(settings.min_confidence, "below it a slot is 'uncertain'"),
    }))
    write_toml(path, document)


def unreadable(path: Path) -> str | None:
    """Why the ``camera.toml`` at ``path`` cannot be read off the disk (a folder in its
    place, no permission), in words; None when it reads, or is not there. One read whose
    text is no calibration is set aside and written anew (:func:`no_calibration_text`)."""
    try:
        path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"it cannot be read: {error_text(exc)}"
    return None


def no_calibration_text(path: Path, classifier: TileClassifier) -> bool:
    """Whether the ``camera.toml`` at ``path`` is there and read, but its text is no
    calibration (a typo, not TOML, not UTF-8, a power cut's zeros): play refuses it, and the
    next saved calibration sets it aside (:func:`settings_to_keep`)."""
    try:
        read_settings(path.read_text(encoding="utf-8-sig"),
                      ReaderSettings.from_classifier(classifier))
    except OSError:
        return False
    except ValueError:
        return True
    return False


#: A failing frame enrols no tiles either (review 56b, finding 8): they would be learnt in
#: the light that failed.
NO_TILES_EITHER = ("no tiles enrolled either: they would be photographed in this same "
                   "light; fix what is listed and run `--enrol` again, or add --force to "
                   "enrol them as it is")


def kept_instead(path: Path, earlier: str | None, trouble: str | None = None) -> str:
    """The line saying a frame that failed a check replaced nothing: the calibration there
    (``path``, from the source ``earlier``; ``trouble``: why it cannot be read, from
    :func:`unreadable`) and the slots' empty looks are kept as they are, naming only those
    there (review62b D1: a deleted camera.toml was said kept, and a typo in it never said).

    A frame taken with the lamp off or the lens out of focus would otherwise replace a good
    calibration and remove the empty looks, as no slot of it looks empty, with no way back
    (review 56, finding 5). Refusing keeps both files whole, with nothing to restore by
    hand; ``--force`` saves it when the player means to."""
    kept: list[str] = []
    if path.exists():
        which = f"the calibration from {earlier}" if earlier is not None else "the calibration"
        kept.append(f"{which} ({path}; {trouble})" if trouble is not None
                    else f"{which} ({path})")
    looks = path.with_name(SLOT_LOOKS_FILE)
    if looks.exists():
        kept.append(f"the slots' empty looks ({looks.name})")
    plural = len(kept) > 1 or not path.exists()  # the looks, a plural, alone
    kept_as = "are kept as they were" if plural else "is kept as it was"
    place = "their" if plural else "its"
    return (f"not saved: this frame failed the checks above, so {' and '.join(kept)} "
            f"{kept_as}; fix what is listed and calibrate again, or add --force to save "
            f"this frame's calibration in {place} place")


def calibration_refused(exc: OSError, path: Path, earlier: str | None) -> str:
    """The line saying the disk refused ``camera.toml`` (``path``; full, read-only): what is
    kept and what to do, rather than the bare OS error (review 56, finding 9). The file is
    written whole or not at all, so the calibration there before is untouched."""
    fix = ("free space in the config folder" if exc.errno in NO_ROOM
           else "let the config folder be written")
    if path.exists():
        kept_there = ("the calibration there before"
                      + (f" (from {earlier})" if earlier is not None else "") + " is kept")
    else:
        kept_there = "no calibration is saved"
    return (f"companion: cannot save {path.name} ({error_text(exc)}): {kept_there}; {fix} "
            "and calibrate again")


def find_mat(source: FrameSource, detector: MatDetector, frames: int,
             say: Callable[[str], None]) -> tuple[np.ndarray, MatDetection] | None:
    """Read up to ``frames`` frames until one shows the whole mat: that frame and where the
    mat is.

    A frame with some corner markers hidden is kept while the next frames are read: the
    first frames of a live camera are the likeliest to be bad (its exposure settling, the
    player's hand leaving the mat). When none shows every marker, the last one showing the
    most is given. Without the mat in any, say what is wrong and give the last frame
    looked at with its detection (the mat not found), or None when no frame could be
    looked at. A camera that sent no picture at all is a :class:`DeviceError`: there was
    nothing to check.
    """
    last = "no frame"
    pictures = 0
    looked: tuple[np.ndarray, MatDetection] | None = None
    best: tuple[np.ndarray, MatDetection] | None = None
    for _ in range(frames):
        frame = source.read()
        if frame is None:
            if getattr(source, "ended", False) and last != "no frame":
                break  # a picture or video ran out: what its frames showed is the reason
            last = source.message
            continue
        pictures += 1
        problem = frame_problem(frame, picture_file=may_be_drawn(source))
        if problem:
            last = problem
            continue
        detection = detector.detect(frame)
        if detection.status is MatStatus.FOUND:
            return frame, detection
        if detection.found and (best is None or len(detection.markers_seen)
                                >= len(best[1].markers_seen)):
            best = frame, detection
        looked, last = (frame, detection), detection.message
    if best is not None:
        return best
    reason = last.removesuffix("; retrying")  # calibration has given up
    if not pictures:  # not a mat out of view
        raise DeviceError(f"no picture from the camera: {reason}")
    focus = frame_focus(looked[0]) if looked is not None else MIN_FOCUS
    paper = frame_paper_grey(looked[0]) if looked is not None else EXPOSURE_RANGE[0]
    if focus < MIN_FOCUS and paper < EXPOSURE_RANGE[0]:
        # Dim, a sharp picture measures soft: the lens ring is not the fix (cal66 R2).
        say(f"mat not found: the picture is dark (paper grey about {paper:.0f}): add light"
            f"{FOCUS_IN_THE_DARK.format(focus=focus)}; if it is lit: {reason}")
    elif focus < MIN_FOCUS and paper < EXPOSURE_RANGE[0] * GUESSED_PAPER_SPREAD:
        # The paper's grey, guessed from the whole frame, may be the floor's or under it:
        # both causes, light first (reviewcal66 RISK 1: "turn its lens ring" at a light the
        # mat found is told to add light in).
        # In lines of 80, each wider one two cells further in: with AUTOFOCUS it ran to
        # about 330 columns (r78tilecam NIT 5).
        say("\n".join(wrap_kept(
            f"mat not found: the picture is soft (focus {focus:.0f}, under {MIN_FOCUS:.0f}) "
            f"or too dim for its focus to be judged (paper grey about {paper:.0f}): add light "
            "first; if it is lit and still soft, turn the camera's lens ring until the mat's "
            f"print is sharp ({AUTOFOCUS}), and calibrate again; if it is sharp: {reason}",
            SAID_WIDTH)))
    elif focus < MIN_FOCUS:
        # Blurred, the markers are not found however the camera points: focus comes first.
        say("\n".join(wrap_kept(
            f"mat not found: the picture is soft (focus {focus:.0f}, under {MIN_FOCUS:.0f}): "
            "focus the camera first (turn its lens ring until the mat's print is sharp; "
            f"{AUTOFOCUS}) and calibrate again; if it is sharp: {reason}", SAID_WIDTH)))
    else:
        say(f"mat not found: {reason}")
    if getattr(source, "cut_short", False):
        # Its last frames were looked at, but the rest of the video never came (r76 remaining).
        say(source.message)
    return looked


#: The width a whole frame is brought to before its focus is measured, so that the figure
#: means the same for any camera's resolution (about the mat's rectified width, in pixels).
FOCUS_WIDTH = 1280


def frame_focus(frame: np.ndarray) -> float:
    """The sharpness of a whole ``frame`` (variance of the Laplacian at FOCUS_WIDTH pixels
    wide), on the scale of ``MIN_FOCUS``: when the mat is not found there is no mat to
    measure it on (review 56, finding 12: a blurred mat was called out of view)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    if grey.shape[1] > FOCUS_WIDTH:
        grey = cv2.resize(grey, (FOCUS_WIDTH, round(grey.shape[0] * FOCUS_WIDTH
                                                    / grey.shape[1])),
                          interpolation=cv2.INTER_AREA)
    return float(cv2.Laplacian(grey, cv2.CV_64F).var())


#: How far above the paper's grey, as the exposure check measures it on the mat found,
#: :func:`frame_paper_grey` may read it where the mat is not found (the table's share of
#: the frame): the rendered mat at every light reads 4-5% above it, and the 90th
#: percentile of the frame, guessed before, 10% (reviewcal66 RISK 1). Not a reader
#: threshold: in this band a soft picture with no mat found is told both causes.
GUESSED_PAPER_SPREAD = 1.15


def frame_paper_grey(frame: np.ndarray) -> float:
    """About the grey of the mat's paper in a whole ``frame``, where the mat is not found,
    on the scale of ``EXPOSURE_RANGE`` (the median of the paper found): the mat fills most
    of the frame and its paper most of the mat, so the brighter half of the frame is paper,
    and its median is the paper's (:data:`GUESSED_PAPER_SPREAD`)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    brighter = grey[grey > np.median(grey)]
    return float(np.median(brighter if brighter.size else grey))


def draw_view(frame: np.ndarray, detector: MatDetector, detection: MatDetection) -> np.ndarray:
    """The frame with what was found drawn on it, where the mat says it is: each corner
    marker (green, or red where a hidden one lies), each slot and the dice area."""
    view = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR) if frame.ndim == 2 else frame[..., :3].copy()
    if detection.homography is None:
        return view  # the mat was not found: the frame shows what the camera sees instead
    to_frame = np.linalg.inv(detection.homography)
    thickness = max(1, round(view.shape[1] / 640))
    scale = view.shape[1] / 1600

    def outline(corners: np.ndarray, colour: tuple[int, int, int], label: str,
                inside: bool = False) -> None:
        """``inside``: the label fitted into the outline above its bottom edge. A slot's
        name under it ran into the name of the slot beside it and the outline below."""
        points = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float64),
                                          to_frame).reshape(-1, 2)
        cv2.polylines(view, [np.round(points).astype(np.int32)], True, colour, thickness)
        x, y = points[3]  # the bottom-left corner
        if not inside:  # under the corner, inside the frame for every marker
            cv2.putText(view, label, (round(x), round(y) + 14 * thickness),
                        cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
            return
        margin = 3 * thickness
        room = float(np.linalg.norm(points[2] - points[3])) - 2 * margin
        (wide, _), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
        size = min(scale, scale * room / wide)
        weight = max(1, round(thickness * size / scale))
        cv2.putText(view, label, (round(x) + margin, round(y) - margin - weight),
                    cv2.FONT_HERSHEY_SIMPLEX, size, colour, weight, cv2.LINE_AA)

    g = detector.geometry
    for marker in g.markers:
        if marker.id not in detection.markers_seen:
            outline(marker.corners_mm(), (0, 0, 255), f"{g.corner_name(marker)} not seen")
        else:
            outline(marker.corners_mm(), (0, 200, 0), f"marker {marker.id}")
    for spec in g.slots:
        outline(spec.rect.corners_mm(), (255, 128, 0), SLOT_NAMES[spec.slot], inside=True)
    outline(g.dice.corners_mm(), (0, 200, 255), "dice", inside=True)
    return view


def save_view(view: np.ndarray) -> Path | None:
    """Write the annotated frame to the data folder, whole or not at all; its path, or None
    when the folder refuses it (full of logs, read-only): that is said in one line, and the
    calibration goes on, as the picture is only there to be looked at."""
    encoded, data = cv2.imencode(".jpg", view)
    if not encoded:
        raise DataError("the camera's frame could not be written as a JPEG picture")
    path = data_dir() / VIEW_FILE
    try:
        atomic_write_bytes(path, data.tobytes())
    except OSError as exc:
        print(f"companion: cannot save the check picture ({error_text(exc)}): the "
              "calibration goes on without it; free space in the data folder to see it "
              "next time", file=sys.stderr)
        return None
    return path


def earlier_enrolment(path: Path, classifier: TileClassifier) -> Enrolment:
    """The enrolment of this tile model saved at ``path``, to add to. When ``path`` holds
    none (missing, unreadable: it is set aside, or another model's: it is set aside when
    the first kind is saved, :func:`save_enrolment`), this model's own set kept aside
    (:func:`kept_for_model`, from an enrolment with another model since) is carried on
    with, and said; else it is empty (reviewcal66 DEFECT 2: going back to the game's model
    started afresh beside its own set)."""
    fresh = Enrolment(model=classifier.model_id)
    earlier: Enrolment | None = None
    if path.exists():
        try:
            earlier = classifier.load_enrolment(path)
        except DataError as exc:
            set_aside(path, str(exc))
    if holds_own(earlier, classifier.model_id):
        assert earlier is not None
        return earlier
    own = kept_for_model(path, classifier.model_id)
    if not own.exists():
        return fresh
    try:
        kept = classifier.load_enrolment(own)
    except DataError as exc:
        set_aside(own, str(exc))
        return fresh
    if not holds_own(kept, classifier.model_id):
        return fresh
    print(f"companion: carrying on with this tile model's {kinds(kept)} enrolled before, "
          f"kept as {own.name} while {path.name} held another model's", file=sys.stderr)
    return kept


def holds_own(enrolment: Enrolment | None, model: str) -> bool:
    """Whether ``enrolment`` (None: no file) is a set of tiles of the tile model ``model``."""
    return enrolment is not None and len(enrolment) > 0 and enrolment.model == model


class EnrolmentNotSaved(Exception):
    """The disk refused the enrolment file (full, read-only): ``error`` is the OS error,
    ``kept`` says what is still saved (the file is written whole or not at all, and another
    model's set renamed aside for it is renamed back) and ``mine`` counts this model's kinds
    among it."""

    def __init__(self, path: Path, error: OSError, kept: str, mine: int) -> None:
        super().__init__(f"{path}: {error_text(error)}")
        self.path, self.error, self.kept, self.mine = path, error, kept, mine

    def line(self, what: str, again: str, were: bool = False) -> str:
        """One line for stderr: that ``what`` (``were``: several things) was not saved, what
        is kept, and what to do (``again``: the command to run again), as ``calibrate rfid``
        and ``calibrate dice --enrol`` say it (cal66 D2: the bare OS error said neither)."""
        fix = ("free space in the config folder" if self.error.errno in NO_ROOM
               else "let the config folder be written")
        why = self.error.strerror or error_text(self.error)  # the file is named once
        return (f"companion: cannot save {self.path.name} ({why}): {what} "
                f"{'were' if were else 'was'} not saved; {self.kept}; {fix} and run "
                f"{again} again")


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def save_enrolment(enrolment: Enrolment, path: Path) -> None:
    """Write ``enrolment`` at ``path``. An enrolment there of another tile model (the
    companion updated since, or ``--model`` given now or then) is first set aside, kept as
    :func:`kept_for_model` names it (in place of an older one of that model) and said,
    never replaced: a maker trying ``--model`` lost every kind enrolled for the model the
    game reads with (cal66 R1). This model's own set kept so, which
    :func:`earlier_enrolment` carried on with, is in ``enrolment``: its file goes once
    ``path`` is written. A disk that refuses (full, read-only) raises
    :class:`EnrolmentNotSaved`, with the other model's set renamed back (a rename needs no
    free space): the game's enrolment was left out of play's reach (reviewcal66 DEFECT 1)."""
    try:
        on_disk = Enrolment.load(path) if path.exists() else None
    except DataError:
        on_disk = None  # not readable now: earlier_enrolment set a bad one aside at the start
    other = on_disk is not None and len(on_disk) > 0 and on_disk.model != enrolment.model
    own = kept_for_model(path, enrolment.model)
    adopted = own.exists() and not holds_own(on_disk, enrolment.model)
    aside = kept_for_model(path, on_disk.model) if other and on_disk is not None else None
    moved = False  # the other model's set is renamed aside
    try:
        if aside is not None:
            os.replace(path, aside)
            moved = True
            fsync_dir(path.parent)
        enrolment.save(path)
    except OSError as exc:
        if moved and aside is not None:
            try:
                os.replace(aside, path)
                moved = False
            except OSError:
                pass  # said below: where it is
        if exc.errno not in DISK_ERRNOS:
            raise
        raise EnrolmentNotSaved(path, exc, *still_kept(
            path, others=on_disk if other else None, moved=aside if moved else None,
            own=own if adopted else None, mine=None if other else on_disk)) from exc
    if adopted:
        try:
            own.unlink()  # carried on with: it is in ``path`` now
            fsync_dir(path.parent)
        except OSError:
            pass  # a copy of what is saved: the next model's set to be put aside replaces it
    if aside is not None and on_disk is not None:
        one = len(set(on_disk.labels)) == 1
        print(f"companion: the {kinds(on_disk)} enrolled before {'was' if one else 'were'} "
              f"taught to another tile model; {'it is' if one else 'they are'} kept as "
              f"{aside.name}, which that model reads with again (the "
              "game, classify and --enrol with it), and this model's enrolment "
              + (f"is back in {path.name}" if adopted else "starts afresh"),
              file=sys.stderr)


def still_kept(path: Path, *, others: Enrolment | None, moved: Path | None,
               own: Path | None, mine: Enrolment | None) -> tuple[str, int]:
    """What a refused save leaves saved, in words, and how many of its kinds are this
    model's: ``others``, another model's set in ``path`` (``moved``: renamed aside and not
    back); ``own``, this model's set kept aside; ``mine``, this model's set in ``path``."""
    said: list[str] = []
    count = 0
    if others is not None:
        are = "is" if len(set(others.labels)) == 1 else "are"
        said.append(f"the {kinds(others)} of another tile model in it {are} kept "
                    + (f"as {moved.name}" if moved is not None else "as they were"))
    if own is not None:
        try:
            count = len(set(Enrolment.load(own).labels))
        except DataError:
            count = 0
        if count:
            said.append(f"this model's {plural(count, 'kind')} enrolled before "
                        f"{'is' if count == 1 else 'are'} kept in {own}")
    if mine is not None and len(mine):
        count = len(set(mine.labels))
        said.append(f"{plural(count, 'kind')} enrolled before "
                    f"{'is' if count == 1 else 'are'} kept in {path}")
    return ("; ".join(said) or "no kind is saved in it yet"), count


def retake(enrolment: Enrolment, label: str, embeddings: list[np.ndarray]) -> None:
    """Make ``embeddings`` the shots of ``label`` in ``enrolment``, in place of any it had
    (a kind taken again); the other kinds' shots stay."""
    keep = [i for i, known in enumerate(enrolment.labels) if known != label]
    enrolment.labels = [enrolment.labels[i] for i in keep]
    enrolment.embeddings = enrolment.embeddings[keep]
    for embedding in embeddings:
        enrolment.add(label, embedding)


def enrol_from_folder(folder: Path, classifier: TileClassifier,
                      ask: Callable[[str], str] | None = None,
                      as_named: bool = False) -> dict[str, list[np.ndarray]]:
    """Embed every picture named ``<label>[_n].<ext>`` (``5p.jpg``, ``back_2.png``): the
    embeddings by label.

    A picture of the whole mat, a black or washed-out one, one all of one grey, or one the
    model reads as bare paper, is left out, saying why: taken as a tile's picture, it would
    teach the reader a wrong look of that kind. The plain faces (:data:`PLAIN_FACES`) are
    as bright, flat and bare themselves: of them only a black or a pure white one is.

    One the model surely reads as another kind may be misnamed, or be the very tile the
    set is enrolled for (its art read as another kind's): as on the mat (:func:`confirm`),
    ``ask`` (a terminal) is asked whether to enrol it as named; with no terminal to ask it
    is skipped, saying how to take it; ``as_named`` (``--as-named``) takes it as named,
    saying so (reviewc69 RISK A, reviewc69b NIT 4).
    """
    if folder.is_file():  # it exists: "no such folder" sent the player looking for it
        raise DataError(f"{folder}: a picture, not a folder; put your tile pictures in a "
                        "folder, each named after its tile (5p.jpg, back.png ...), and "
                        "give the folder")
    if not folder.is_dir():
        raise DataError(f"{folder}: no such folder; give the folder holding your tile "
                        "pictures (5p.jpg, back.png ...)")
    detector = MatDetector()
    taken: dict[str, list[np.ndarray]] = {}
    tiles_named = 0  # the pictures named after a tile, taken or skipped
    for path in sorted(folder.iterdir()):
        label = path.stem.split("_")[0].lower()
        if label in ("0m", "0p", "0s"):  # a red five, as the tile notation writes it: the
            label = "5" + label[1]  # reader reads it as its five (a76tilecam NIT 2)
        if label not in READER_LABELS:
            # A phone's or a file manager's copy (5p (2).jpg, 5p-1.jpg) is not taken either.
            print(f"  {path.name} skipped: not named after a tile (the tile, then _ and "
                  f"anything: 5p.jpg, 5p_2.jpg, 1z_b.png, back.png)")
            continue
        tiles_named += 1
        try:
            image = read_picture(path)
        except PictureError as exc:
            # A kind OpenCV does not read (a phone's .heic) was skipped with no word on the
            # kinds that are read (camera75 NIT 6).
            kinds = "" if path.suffix.lower() in (*IMAGE_SUFFIXES, *VIDEO_SUFFIXES) else (
                f" (pictures read: {', '.join(IMAGE_SUFFIXES)}; a phone's .heic: save it as "
                "JPEG)")
            print(f"  {exc.problem}{kinds}: {path.name} skipped")
            continue
        problem = picture_problem(image, label)
        if problem is not None:  # a lens cap's black: no tile's look to learn (calib62 R2)
            print(f"  {path.name} skipped: {problem}")
            continue
        if detector.detect(image).found:
            print(f"  {path.name} skipped: it shows the mat, not one tile; crop it to the "
                  "tile, or enrol on the mat with --enrol")
            continue
        prediction = classifier.predict([image])[0]
        best = prediction.best
        # A blank White's face is as plain as bare paper: only the mat tells them apart.
        if best.label == EMPTY and label not in PLAIN_FACES \
                and best.confidence >= classifier.info.picture_confidence:
            print(f"  {path.name} skipped: it looks like bare paper, not {label}; "
                  "photograph the tile's face")
            continue
        # Said after bare paper: a grey card is bare paper, when the model is sure of it.
        if label not in PLAIN_FACES and float(np.std(image)) < FLAT_STD:
            print(f"  {path.name} skipped: it is all one grey, with no tile's face in it; "
                  "photograph the tile's face")
            continue
        # A misnamed file (easy among dozens renamed) would pull the kind it shows towards
        # its name at the table; a tile of the set's own art, read as another kind, is what
        # enrolling is for: as the mat's enrolment asks (surely_other, calib62 R1), so does
        # this, or it is skipped saying how to keep it (camaudit69 RISK 2, reviewc69 RISK A).
        other = surely_other([best], label, classifier.info.picture_confidence)
        if other is not None and as_named:
            # Said, one line each: a misnamed file among dozens went in without a word
            # (reviewc69b NIT 4).
            print(f"  {path.name}: {reads_as(other, best.confidence)}, taken as "
                  f"{named(label)} (--as-named)")
        elif other is not None and not keep_as_named(ask, path, other, best.confidence,
                                                     label):
            continue
        taken.setdefault(label, []).append(prediction.embedding)
    if not taken and tiles_named:
        # Not "no pictures named after a tile" when there were some (events64 N4).
        which = ("the picture named after a tile could not be enrolled (skipped above)"
                 if tiles_named == 1 else f"none of the {tiles_named} pictures named after a "
                 "tile could be enrolled (each skipped above)")
        raise DataError(f"{folder}: {which}")
    if not taken:
        raise DataError(f"{folder}: no pictures named after a tile (e.g. 5p.jpg, 1z_2.png)")
    return taken


def reads_as(other: str, confidence: float) -> str:
    """What the model surely reads a picture as, in words: ``it reads as 1s 一索 (85%)``."""
    looks = f"{other} {Tile.from_notation(other).name_ja}" if other != BACK else named(other)
    return f"it reads as {looks} ({confidence:.0%})"


def keep_as_named(ask: Callable[[str], str] | None, path: Path, other: str,
                  confidence: float, label: str) -> bool:
    """Whether to enrol the picture at ``path``, named after ``label``, that the model surely
    reads as ``other``: ``ask`` (a terminal) answers, as :func:`confirm` does on the mat
    (``y`` keeps it; Enter, ``n`` or the end of input skip it); with no ``ask`` it is
    skipped, saying how to take it anyway (--as-named) and the rename that would keep its
    ``_n`` (reviewc69 RISK A, NIT 2)."""
    reads = f"{reads_as(other, confidence)}, surely not {named(label)}"
    # 8s_2.jpg -> 1s_2.jpg, not 1s.jpg: two pictures were told to take one name.
    renamed = other + path.name[len(path.stem.split("_")[0]):]
    if ask is None:
        print(f"  {path.name} skipped: {reads}; if it is {named(other)}, rename it {renamed}; "
              f"if it is {named(label)} (your set's look of it), run this at a terminal to "
              f"be asked, or with --as-named")
        return False
    print(f"  {path.name}: {reads} (if it is {named(other)}, skip it and rename it {renamed})")
    kept_as = "a back" if label == BACK else label
    while True:
        try:
            answer = ask(f"  {KEEP} keeps it as {kept_as}; Enter skips it: ").strip().lower()
        except EOFError:
            print()  # the end of input echoes no newline: "skipped" had the prompt's line
            answer = ""  # (reviewc69b NIT 1)
        if answer in (KEEP, "yes"):
            return True
        if answer in ("", "n", "no", SKIP):
            print(f"  {path.name} skipped")
            return False
        print(f"  {answer!r} is not an answer here: {KEEP} or Enter")


def picture_problem(image: np.ndarray, label: str) -> str | None:
    """Why the picture ``image``, named after ``label``, has no tile's look to learn (black,
    washed out), or None. A picture is of one tile, not of the mat: the mat's words
    (:func:`frame_problem`) would blame light on a mat not in it.

    The plain faces (:data:`PLAIN_FACES`: a blank White, bare paper) are as bright and as
    flat as a washed-out or a blank picture: of them only black and pure white (no camera's
    noise) are refused, here, and none as flat (:func:`enrol_from_folder`). A drawing of the
    whole mat is let through to be said as the mat."""
    mean, spread = float(image.mean()), float(np.std(image))
    if mean < DARK_MEAN:
        return "the picture is black: is the lens covered, or the light off?"
    if label in PLAIN_FACES:
        if mean >= BURNT_OUT and spread < NOISELESS_STD:
            return ("it is pure white, with no tile's edge in it; photograph the tile, "
                    "its edge showing")
        return None
    if mean > BRIGHT_MEAN and not is_drawing(image):
        return "the picture is washed out: too much light or glare on the tile"
    return None


def draw_shots(source: FrameSource, detector: MatDetector, classifier: TileClassifier,
               looks: SlotLooks, label: str, shots: int,
               ) -> tuple[list[np.ndarray], str, list[Candidate]]:
    """Up to ``shots`` embeddings of the tile on the Draw slot, from up to ``shots * 5``
    frames; when none, why not in words (the last frame's trouble); and the kind the model
    reads best in each shot taken.

    A frame whose Draw slot holds nothing is not taken: an empty slot filed as ``label``
    (Enter pressed before the tile was laid) would teach the reader a wrong picture of it.
    """
    embeddings: list[np.ndarray] = []
    read: list[Candidate] = []
    why = "no frame from the camera"
    for _ in range(shots * 5):
        frame = source.read()
        if frame is None:
            # The enrolment has stopped waiting, back at the prompt: not "retrying" (cal66 N5).
            why = source.message.removesuffix("; retrying")
            if getattr(source, "ended", False):
                break
            continue
        problem = frame_problem(frame, picture_file=may_be_drawn(source))
        if problem:
            why = problem
            continue
        detection = detector.detect(frame)
        crops = detector.slot_crops(frame, detection)
        if Slot.DRAW not in crops:
            why = detection.message if not detection.found \
                else out_of_view_message((Slot.DRAW,))
            continue
        prediction, evidence = looks.read(classifier, {Slot.DRAW: crops[Slot.DRAW]})[Slot.DRAW]
        # A blank White's face is as plain as bare paper: the mat under it alone tells them
        # apart (occupancy.py).
        if evidence.occupancy is Occupancy.BARE \
                or (prediction.best.label == EMPTY and label != WHITE):
            why = f"the Draw slot looks empty: put {label} on it"
            continue
        shot = classifier.predict([crops[Slot.DRAW]])[0]
        embeddings.append(shot.embedding)
        read.append(shot.best)
        if len(embeddings) == shots:
            break
    return embeddings, why, read


def surely_other(read: list[Candidate], label: str, sure: float) -> str | None:
    """The kind every shot was read as, at ``sure`` or above, when it is not ``label`` (a
    tile laid one step late, 2m while 1m is asked): to be confirmed before it is filed as
    ``label``, as ``calibrate dice --enrol`` confirms values the reader surely disagrees
    with (calib62 R1). None when the reader is unsure, or agrees."""
    kinds = {best.label for best in read}
    if len(kinds) != 1 or not all(best.confidence >= sure for best in read):
        return None
    (kind,) = kinds
    return kind if kind not in (label, EMPTY) else None


def shots_read(read: list[Candidate], label: str, sure: float) -> str | None:
    """What the shots of the Draw slot were read as, in words (``9m (78%) and 1s (93%), none
    1m``; ``not all 1m`` when one of them is),
    when any of them is read as another kind than ``label``, sure or not, and they are not
    all surely one other kind (:func:`surely_other` says that one): the player confirms
    before they are filed as ``label`` (camera71 DEFECT 1). Two shots read as two other
    kinds (two tiles laid in turn, a folder's frames), or one read unsure as another kind
    (glare, the hand leaving, a tile laid a step late) were filed as ``label`` without a
    word, and the game read those kinds as ``label`` until they were enrolled again. None
    when every shot is read as ``label`` (or, for the blank White, as the bare paper it
    looks like)."""
    if all(best.label in (label, EMPTY) for best in read) \
            or surely_other(read, label, sure) is not None:
        return None
    # "not all 1m" when no shot read 1m suggested some did (reviewc71 NIT 4).
    some = any(best.label == label for best in read)
    return " and ".join(f"{named(best.label)} ({best.confidence:.0%}"
                        f"{'' if best.confidence >= sure else ', unsure'})" for best in read) \
        + f", {'not all' if some else 'none'} {named(label)}"


#: The answers to the Draw slot's prompt: Enter (take the shots), skip, finish.
SKIP, FINISH, KEEP = "s", "q", "y"


def enrol_on_mat(source: FrameSource, detector: MatDetector, classifier: TileClassifier,
                 ask: Callable[[str], str], enrolment: Enrolment, path: Path,
                 shots: int = 2, looks: SlotLooks | None = None) -> list[str]:
    """Ask for each kind on the Draw slot in turn and take ``shots`` embeddings of it into
    ``enrolment`` (:func:`retake`), saved at ``path`` as each kind is taken; the kinds
    taken. A kind that could not be taken (the slot empty, the mat out of view) is said
    and asked for again; a camera that ran out of frames ends the enrolment. ``looks``:
    the slots' empty look (the printed one if None)."""
    looks = looks if looks is not None else SlotLooks(detector.geometry)
    taken: list[str] = []
    for label in [*(str(t) for t in ALL_KINDS), BACK]:
        answered: str | None = None  # an answer given at a confirmation, for the next shot
        if label != BACK:  # named in words too, as `calibrate rfid` names it (cal66 N1)
            print(describe(Tile.from_notation(label)))
        while True:
            answer = (answered if answered is not None
                      else ask(f"Put {laid(label)} on {slot_named(label)}, "
                               f"then Enter ({SKIP} skip, {FINISH} finish): ")).strip().lower()
            answered = None
            if answer == FINISH:
                return taken
            if answer == SKIP:
                break
            if answer:
                # A stray word took the shot as Enter does (calib62 R1).
                print(f"  {answer!r} is not an answer here: Enter takes {named(label)}, "
                      f"{SKIP} skips it, {FINISH} finishes")
                continue
            embeddings, why, read = draw_shots(source, detector, classifier, looks, label,
                                               shots)
            sure = classifier.info.picture_confidence
            other = surely_other(read, label, sure)
            read_as = shots_read(read, label, sure)
            if embeddings and (other is not None or read_as is not None):
                answered = confirm(ask, other, label, read_as)
                if answered != KEEP:
                    continue
                answered = None
            if embeddings:
                retake(enrolment, label, embeddings)
                save_enrolment(enrolment, path)
                taken.append(label)
                # Said before the next kind's prompt: with nothing said, that prompt came
                # at once, and "each kind is saved as it is taken" had no line to see it by
                # (maker73 NIT 6).
                count = len(embeddings)
                print(f"  {named(label)} taken 登録 ({count} "
                      f"picture{'' if count == 1 else 's'})")
                break
            if getattr(source, "ended", False):
                print(f"  {why}: {label} not taken, enrolment stopped")
                return taken
            print(f"  {why}; {label} not taken yet")
    return taken


def laid(label: str) -> str:
    """What to lay for ``label`` in the Draw slot's prompts: "Put back on" read as an order
    to put something back (calib62 N1)."""
    return "a tile face down" if label == BACK else label


def slot_named(label: str) -> str:
    """The Draw slot in ``label``'s prompt: named in Japanese too, as printed on the mat,
    but for the last kind (a tile's back), after 34 prompts naming it, which kept its prompt
    under 80 columns (review62b R1)."""
    return "the draw slot" if label == BACK else "the draw slot (引き牌の枠)"


def named(label: str) -> str:
    """``label`` as a kind the reader may read a tile as: "not back" read as "not yet back"
    (review62b R1)."""
    return "a tile's back" if label == BACK else label


def confirm(ask: Callable[[str], str], other: str | None, label: str,
            shots: str | None = None) -> str:
    """Ask whether the tile the reader surely reads as ``other``, or whose shots it read as
    ``shots`` says (:func:`shots_read`), is ``label`` all the same: KEEP (y) keeps it as
    ``label``; Enter, SKIP or FINISH are answered as at the Draw slot's prompt (Enter looks
    again). Anything else is asked again.

    What the reader saw is a line of its own and the prompt is short: a prompt wider than
    the terminal wraps mid-word, the cursor on its second line (review62b R1)."""
    print(f"  the shots read {shots}" if shots is not None
          else f"  the draw slot shows {named(other or EMPTY)}, surely, not {named(label)}")
    kept_as = "a back" if label == BACK else label  # "a tile's back" made it 86 wide
    # y files every shot, whatever each read (reviewc71 NIT 4): "them" when they differ.
    them = "them" if shots is not None and " and " in shots else "it"
    while True:
        answer = ask(f"  {KEEP} keeps {them} as {kept_as}; or lay {laid(label)} and Enter "
                     f"({SKIP} skip, {FINISH} finish): ").strip().lower()
        if answer in ("", KEEP, SKIP, FINISH):
            return answer
        print(f"  {answer!r} is not an answer here: {KEEP}, Enter, {SKIP} or {FINISH}")


def kinds(enrolment: Enrolment) -> str:
    count = len(set(enrolment.labels))
    return f"{count} kind{'' if count == 1 else 's'}"


def kept(enrolment: Enrolment, path: Path) -> str:
    """Where the enrolment is kept, for the last line: no file was written for none."""
    return f"{kinds(enrolment)} saved in {path}" if len(enrolment) else "nothing saved"


def enrol_set(source: FrameSource, detector: MatDetector, classifier: TileClassifier,
              looks: SlotLooks) -> int:
    """``--enrol``: the player's set, kind by kind on the Draw slot (``looks``: the slots'
    empty look, to tell an empty Draw slot); the exit code, 1 when the camera ran out."""
    path = config_dir() / ENROLMENT_FILE
    enrolment = earlier_enrolment(path, classifier)
    try:
        taken = enrol_on_mat(source, detector, classifier, input, enrolment, path, looks=looks)
    except (KeyboardInterrupt, EOFError) as exc:
        stopped = isinstance(exc, KeyboardInterrupt)
        print(f"\nenrolment {'stopped' if stopped else 'stopped: no more input'}; "
              f"{kept(enrolment, path)}", file=sys.stderr)
        return 130 if stopped else 1
    except EnrolmentNotSaved as disk:
        # The label being taken is the last one added to the enrolment (retake adds last).
        again = companion_line("calibrate", "camera", "--enrol")
        print(disk.line(named(enrolment.labels[-1]), f"`{again}`")
              + (f" ({SKIP} skips the kinds already taken)" if disk.mine else ""),
              file=sys.stderr)
        return 1
    print(f"enrolled {len(taken)} kind{'' if len(taken) == 1 else 's'}; "
          + (f"{kinds(enrolment)} in all in {path}" if len(enrolment) else "nothing saved"))
    return 1 if getattr(source, "ended", False) else 0


def not_the_games_model(classifier: TileClassifier) -> None:
    """Say, before enrolling, when ``classifier`` (``--model``) is not the tile model the
    game reads with: the tiles enrolled now are for it, and the game reads without them
    (cal66 R1)."""
    games = default_model_path()
    if classifier.path.resolve() == games.resolve() \
            or (games.is_file() and fingerprint(games) == classifier.model_id):
        return
    # Its whole path when its name is the game's model's: a downloaded alternative keeps
    # the name tile_classifier.onnx, and "for tile_classifier.onnx" read as the game's.
    which = classifier.path if classifier.path.name == games.name else classifier.path.name
    print(f"companion: note: the game reads tiles with {games}, not {classifier.path}: the "
          f"tiles enrolled now are for {which}, and the game uses them only "
          f"with {MODEL_ENV}={classifier.path}", file=sys.stderr)


#: The setting of the camera the game reads the tiles with.
KEY_CAMERA = "input.camera_source"


def not_the_games_camera(chosen: CameraChoice) -> None:
    """Say, once the mat is found, when ``--source`` is a camera the game does not read the
    tiles with (``input.camera_source``): the slots' empty looks are learnt from it, and
    the game reads another camera's view with them, as ``--model`` says of the model
    (camera75 NIT 9). A picture, a folder or a video (a photo taken at the table, as
    hardware/camera.md says) is no other camera: nothing is said of it."""
    mine = camera_named(chosen)
    if mine is None:
        return
    try:
        config = load_config()
    except DataError:
        return  # a config.toml that cannot be read is said by the commands that read it
    games = config.camera_source()
    if camera_named(games) == mine:
        return
    # A config.toml that cannot be read, or whose camera_source is refused, leaves the
    # game the built-in camera: said first, or the note sent the player to edit a file it
    # never said was unread (reviewcam75 NIT 6).
    config.tell_notices()
    # The environment wins over config.toml: the fix is made where the value came from.
    fix = config.how_to_set(KEY_CAMERA, chosen.written)
    print(f"companion: note: the game reads the tiles with {games.written}, from "
          f"{games.setting}, not {chosen.written}: the slots' looks learnt now are of "
          f"{chosen.written}'s view; if it is the table's camera, set {fix}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    if args.enrol_from is not None:
        # Given with it, they were dropped without a word: no camera is looked through.
        refuse_stray_options(args, "--enrol-from", {
            "enrol": ((), "a camera (each kind photographed on the Draw slot)"),
            "source": ((), "a camera to calibrate or enrol with"),
            # Nothing is calibrated nor looked through: they were dropped without a word
            # (camera73 NIT 4).
            "force": ((), "a calibration (a failing check saved all the same)"),
            "frames": ((), "a camera (the frames it tries for the mat)"),
        })
    elif args.as_named:
        raise DataError("--as-named goes with --enrol-from (pictures named after their "
                        "tile), not a camera")
    classifier = TileClassifier(args.model)
    if args.enrol or args.enrol_from is not None:
        not_the_games_model(classifier)
    if args.enrol_from is not None:
        path = config_dir() / ENROLMENT_FILE
        try:
            taken = enrol_from_folder(args.enrol_from, classifier,
                                      input if sys.stdin.isatty() else None, args.as_named)
        except KeyboardInterrupt:
            # Exit 130 with only "^C" hid that the y answers given were lost: a folder is
            # saved whole, unlike the mat's kinds, each saved as taken (reviewc69b NIT 2).
            print(f"\nenrolment stopped; nothing of {args.enrol_from} saved (a folder is "
                  "saved once all its pictures are looked at; the kinds enrolled before are "
                  "kept as they were)", file=sys.stderr)
            return 130
        enrolment = earlier_enrolment(path, classifier)
        for label, embeddings in taken.items():
            retake(enrolment, label, embeddings)
        pictures = sum(map(len, taken.values()))
        try:
            save_enrolment(enrolment, path)
        except EnrolmentNotSaved as disk:
            again = companion_line("calibrate", "camera", "--enrol-from", str(args.enrol_from))
            print(disk.line(f"the {plural(pictures, 'picture')} of "
                            f"{plural(len(taken), 'kind')} enrolled now", f"`{again}`",
                            were=pictures != 1), file=sys.stderr)
            return 1
        print(f"enrolled {pictures} picture{'' if pictures == 1 else 's'} of {len(taken)} "
              f"kind{'' if len(taken) == 1 else 's'} ({kinds(enrolment)} in all) into {path}")
        return 0
    detector = MatDetector()
    if args.source is None:  # the camera the game will read from
        config = load_config()
        config.tell_notices()
        chosen = config.camera_source()
    else:
        chosen = CameraChoice.option(args.source)
    if is_rendered(chosen) and args.enrol:
        raise DataError(f"--enrol takes your own tiles from a camera, or a folder or video "
                        f"of them; {chosen} "
                        "draws the companion's own, the same tile whatever kind is asked for")
    earlier = calibrated_from()
    source = open_source(chosen)
    try:
        if args.enrol and isinstance(source, FileSource) and source.one_picture:
            # Finding the mat uses up its one frame: no kind could be taken, and the
            # calibration would be replaced all the same (camaudit69 NIT 5); a folder of
            # one picture too (reviewc69 NIT 3).
            one = "holds one picture" if source.path.is_dir() else "is one picture"
            raise DataError(f"--enrol takes your tiles one by one from a camera, or a folder "
                            f"or video of them; {chosen} {one}: enrol pictures "
                            "named after their tile (5p.jpg, 1z_2.png) with --enrol-from "
                            "FOLDER")
        try:
            found = find_mat(source, detector, args.frames or FRAMES, print)
        except KeyboardInterrupt:
            # Exit 130 with no word left the player wondering what was kept (calib62 N10).
            kept = ("the calibration there is kept as it was" if calibration_there()
                    else "there is no calibration yet")
            print(f"\nstopped before the mat was found: nothing was saved; {kept}",
                  file=sys.stderr)
            return 130
        if found is None:
            return 1
        frame, detection = found
        view = save_view(draw_view(frame, detector, detection))
        if not detection.found:
            if view is not None:
                print(f"saved the camera's last frame to {view}")
            return 1
        if args.source is not None:  # said once the camera works and shows the mat
            not_the_games_camera(chosen)
        warped = detector.warp(frame, detection, None)
        quality = measure_quality(warped, detector, detection)
        print(f"{detection.message}; focus {quality.focus:.0f}, paper grey "
              f"{quality.exposure:.0f}, glare {quality.worst_glare:.2%} (worst slot)")
        drawing = may_be_drawn(source) and is_drawing(frame)
        # A drawing's white paper is no lamp's light: "washed out" and "glare" would be untrue.
        problems = [f"{chosen.written} is a drawing of the mat (paper pure white, markers "
                    "pure black), such as its print file, not a camera's view of it: the mat "
                    "is found in it, but it has none of your table's light to learn; "
                    "calibrate with the camera, or a photo taken at the table"] if drawing \
            else quality.problems()
        for problem in problems:
            print(f"  - {problem}")
        if view is not None:
            print(f"saved the frame with the markers and slots found drawn on it to {view}")
        path = config_dir() / CALIBRATION_FILE
        if drawing or is_rendered(chosen):
            left = (f"the calibration from {earlier} ({path}) is left as it is"
                    if earlier is not None else f"{path} is not written")
            what = "a drawing" if drawing else "a rendered mat"
            print(f"{what}: nothing calibrated; {left}")
            return 1 if problems else 0
        # The slots' empty looks kept, camera.toml written anew (see below).
        keep_looks = False
        if problems and calibration_there() and not args.force:
            if not no_calibration_text(path, classifier):
                print(kept_instead(path, earlier, unreadable(path)))
                if args.enrol:
                    print(NO_TILES_EITHER)
                return 1
            # A camera.toml whose text is no calibration is what play refuses, saying
            # "calibrate again": keeping it kept nothing the game can use, and the
            # calibration it advised was refused (camera73 NIT 6). It is set aside and
            # written from this frame; the slots' empty looks, learnt from the light, are
            # what a failing frame must not replace (calib62 D1), and are kept.
            keep_looks = (config_dir() / SLOT_LOOKS_FILE).exists()
        # Only now: a drawing or a rendered mat leaves camera.toml alone, even one that
        # cannot be read.
        settings = settings_to_keep(classifier)
        refused = None
        if not keep_looks:
            looks, learnt, covered = learn_empty_slots(frame, detection, detector, classifier,
                                                       settings.min_confidence)
            refused = save_slot_looks(looks, learnt, covered)  # first: see the module's words
        try:
            save_calibration(path, str(chosen), quality, detection.markers_seen, settings)
        except OSError as exc:
            if exc.errno not in DISK_ERRNOS:
                raise
            print(calibration_refused(exc, path, earlier), file=sys.stderr)
            return 1
        replaced = f", in place of the calibration from {earlier}" \
            if earlier is not None and earlier != str(chosen) else ""
        print(f"saved {path}{replaced}")
        if keep_looks:
            print(f"the slots' empty looks ({SLOT_LOOKS_FILE}) are kept as they were: this "
                  "frame failed the checks above; fix what is listed and calibrate again, or "
                  "add --force to save this frame's looks in their place")
            if args.enrol:
                print(NO_TILES_EITHER)
            return 1
        if refused is not None:
            forget_slot_looks(refused)
        code = 1 if problems or refused is not None else 0
        if args.enrol:
            code = enrol_set(source, detector, classifier, looks) or code
        return code
    finally:
        source.close()


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "camera", help="find the mat, check focus, exposure and glare, enrol your tile set",
        # Where the files go, and what saves none, was said nowhere in the help (calib62 N11).
        epilog=f"It saves {CALIBRATION_FILE} and {SLOT_LOOKS_FILE} (and {ENROLMENT_FILE}, "
               "with --enrol or --enrol-from) in the config folder, and the check picture "
               f"{VIEW_FILE} in the data folder; --source render:... and the mat's print "
               "file (docs/mat.png) save no calibration.")
    parser.add_argument("--source",
                        help="camera:0, /dev/video0, picamera, a picture, a folder of "
                             "pictures or a video, or render:draw=5p (default: the game's camera, "
                             "input.camera_source in `companion config`)")
    parser.add_argument("--force", action="store_true",
                        help="save even when a check fails, in place of the calibration "
                             "there (without it a failing frame replaces nothing)")
    parser.add_argument("--frames", type=positive_int, default=None,
                        help=f"frames to try (default {FRAMES})")
    parser.add_argument("--enrol", action="store_true",
                        help="then photograph each kind of your set on the Draw slot; each "
                             "kind taken replaces only its own earlier shots")
    parser.add_argument("--enrol-from", type=Path, metavar="DIR",
                        help="enrol from pictures named after their tile (5p.jpg, back_2.png)")
    parser.add_argument("--as-named", action="store_true",
                        help="with --enrol-from: enrol each picture as its name says, even "
                             "one the model is sure shows another kind (your set's own look "
                             "of it); without it a terminal is asked, and else it is skipped")
    parser.add_argument("--model", type=Path, help="another tile_classifier.onnx")
    parser.set_defaults(func=run)
