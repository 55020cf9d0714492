"""The printed play mat: its geometry (``mat.toml``), marker detection, rectification, crops.

The mat carries four ArUco markers at known positions. Each frame, the markers
seen give a homography from camera pixels to mat millimetres; every slot and
the dice area are then cut out of the frame as straight, upright images at a
fixed scale, however the camera or the mat was nudged. Two markers are enough
(a hand over a corner is normal while placing a tile); fewer means the mat is
out of view, and the status says so in words.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import Enum
from importlib.resources import files
from pathlib import Path

import cv2
import numpy as np

from companion.errors import DataError
from companion.files import loads_toml
from companion.hw.camera.white_balance import balanced
from companion.hw.ports import Slot

MIN_MARKERS = 2  # each marker gives 4 corners; two give a well-posed homography
MAX_REPROJECTION_MM = 3.0  # seen marker corners must land this close to where the mat says
DETECT_WIDTH = 960  # wider frames are searched for markers at half size, then refined


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned box on the mat, in millimetres from the paper's top-left corner."""

    x_mm: float
    y_mm: float
    width_mm: float
    height_mm: float

    def corners_mm(self) -> np.ndarray:
        """The 4 corners, clockwise from the top-left."""
        x, y, w, h = self.x_mm, self.y_mm, self.width_mm, self.height_mm
        return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype=np.float32)


@dataclass(frozen=True, slots=True)
class MarkerSpec:
    """One ArUco marker printed on the mat; ``x_mm``/``y_mm`` is its top-left corner."""

    id: int
    x_mm: float
    y_mm: float
    size_mm: float

    def corners_mm(self) -> np.ndarray:
        """The 4 corners in ArUco order (top-left, top-right, bottom-right, bottom-left)."""
        x, y, s = self.x_mm, self.y_mm, self.size_mm
        return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], dtype=np.float32)


@dataclass(frozen=True, slots=True)
class SlotSpec:
    """A slot outlined on the mat, with its printed names."""

    slot: Slot
    label_en: str
    label_ja: str
    rect: Rect


@dataclass(frozen=True, slots=True)
class MatGeometry:
    """Everything the reader and the mat printer need to agree on."""

    name: str
    width_mm: float
    height_mm: float
    aruco_dictionary: str
    px_per_mm: float
    markers: tuple[MarkerSpec, ...]
    slots: tuple[SlotSpec, ...]
    dice: Rect
    dice_label_en: str
    dice_label_ja: str

    @staticmethod
    def load(path: Path | None = None) -> MatGeometry:
        """Read and shape-check ``mat.toml`` (the packaged one unless ``path`` is given)."""
        source = path if path is not None else files("companion.hw.camera") / "mat.toml"
        name = str(source)
        try:
            data = loads_toml(source.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise DataError(f"{name}: cannot read the mat geometry: {exc}") from exc
        return _parse_geometry(data, name)

    def slot_spec(self, slot: Slot) -> SlotSpec:
        for spec in self.slots:
            if spec.slot is slot:
                return spec
        raise KeyError(slot)

    def corner_name(self, marker: MarkerSpec) -> str:
        """The mat's corner ``marker`` lies in, as the player sees it (``top-left``): a
        marker's id is printed nowhere the player would look."""
        middle_x = marker.x_mm + marker.size_mm / 2
        middle_y = marker.y_mm + marker.size_mm / 2
        return (f"{'top' if middle_y < self.height_mm / 2 else 'bottom'}-"
                f"{'left' if middle_x < self.width_mm / 2 else 'right'}")

    def size_px(self, rect: Rect | None = None) -> tuple[int, int]:
        """(width, height) in pixels of the rectified image of ``rect`` (the whole mat if None)."""
        w, h = (self.width_mm, self.height_mm) if rect is None else (rect.width_mm, rect.height_mm)
        return round(w * self.px_per_mm), round(h * self.px_per_mm)


def _number(table: dict[str, object], key: str, where: str) -> float:
    value = table.get(key)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise DataError(f"{where}: {key!r} must be a number, found {value!r}")
    return float(value)


def _text(table: dict[str, object], key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str):
        raise DataError(f"{where}: {key!r} must be text, found {value!r}")
    return value


def _rect(table: dict[str, object], where: str) -> Rect:
    rect = Rect(*(_number(table, k, where) for k in ("x_mm", "y_mm", "width_mm", "height_mm")))
    if rect.width_mm <= 0 or rect.height_mm <= 0:
        raise DataError(f"{where}: width_mm and height_mm must be positive")
    return rect


def _parse_geometry(data: dict[str, object], name: str) -> MatGeometry:
    mat = data.get("mat")
    markers = data.get("markers")
    slots = data.get("slots")
    dice = data.get("dice")
    if not isinstance(mat, dict) or not isinstance(dice, dict):
        raise DataError(f"{name}: needs a [mat] and a [dice] table")
    if not isinstance(markers, list) or len(markers) < 4:
        raise DataError(f"{name}: needs at least 4 [[markers]]")
    if not isinstance(slots, list) or not slots:
        raise DataError(f"{name}: needs [[slots]]")
    dictionary = _text(mat, "aruco_dictionary", f"{name} [mat]")
    if not hasattr(cv2.aruco, dictionary):
        raise DataError(f"{name} [mat]: unknown ArUco dictionary {dictionary!r}")
    marker_specs = []
    for i, m in enumerate(markers):
        where = f"{name} markers[{i}]"
        if not isinstance(m, dict) or not isinstance(m.get("id"), int):
            raise DataError(f"{where}: needs an integer 'id'")
        marker_specs.append(
            MarkerSpec(
                m["id"], _number(m, "x_mm", where), _number(m, "y_mm", where),
                _number(m, "size_mm", where),
            )
        )
    if len({m.id for m in marker_specs}) != len(marker_specs):
        raise DataError(f"{name}: marker ids must be distinct")
    slot_specs = []
    for i, s in enumerate(slots):
        where = f"{name} slots[{i}]"
        if not isinstance(s, dict):
            raise DataError(f"{where}: must be a table")
        try:
            slot = Slot(_text(s, "name", where))
        except ValueError as exc:
            known = ", ".join(x.value for x in Slot)
            raise DataError(f"{where}: 'name' must be one of {known}") from exc
        labels = _text(s, "label_en", where), _text(s, "label_ja", where)
        slot_specs.append(SlotSpec(slot, *labels, _rect(s, where)))
    if len({s.slot for s in slot_specs}) != len(slot_specs):
        raise DataError(f"{name}: each slot may appear once")
    return MatGeometry(
        name=_text(mat, "name", f"{name} [mat]"),
        width_mm=_number(mat, "width_mm", f"{name} [mat]"),
        height_mm=_number(mat, "height_mm", f"{name} [mat]"),
        aruco_dictionary=dictionary,
        px_per_mm=_number(mat, "px_per_mm", f"{name} [mat]"),
        markers=tuple(marker_specs),
        slots=tuple(slot_specs),
        dice=_rect(dice, f"{name} [dice]"),
        dice_label_en=_text(dice, "label_en", f"{name} [dice]"),
        dice_label_ja=_text(dice, "label_ja", f"{name} [dice]"),
    )


class MatStatus(Enum):
    """How well the mat was seen in one frame."""

    FOUND = "found"  # every marker seen
    PARTIAL = "partial"  # some markers hidden, enough to locate the mat
    LOST = "lost"  # the mat is out of view or covered


@dataclass(frozen=True, slots=True)
class MatDetection:
    """Where the mat is in a frame: ``homography`` maps frame pixels to mat millimetres."""

    status: MatStatus
    message: str
    markers_seen: tuple[int, ...] = ()
    homography: np.ndarray | None = None
    frame_size: tuple[int, int] = (0, 0)  # (width, height) of the frame it was found in

    @property
    def found(self) -> bool:
        return self.homography is not None

    def in_view(self, rect: Rect) -> bool:
        """Whether ``rect`` (a slot, the dice area) lies wholly inside the frame.

        One cut out where the frame ends is black there (warpPerspective's fill), and a
        black slot reads as a face-down tile: what is not in view must not be read.
        """
        if self.homography is None:
            return False
        to_frame = np.linalg.inv(self.homography)
        points = cv2.perspectiveTransform(rect.corners_mm().reshape(-1, 1, 2).astype(np.float64),
                                          to_frame).reshape(-1, 2)
        width, height = self.frame_size
        # A straight-edged box maps to a straight-edged box: its corners inside, all of it is.
        return bool(np.all(points >= -0.5) and np.all(points <= (width - 0.5, height - 0.5)))


class MatDetector:
    """Finds the mat in camera frames and cuts out the slots and the dice area."""

    def __init__(self, geometry: MatGeometry | None = None) -> None:
        self.geometry = geometry if geometry is not None else MatGeometry.load()
        dictionary = cv2.aruco.getPredefinedDictionary(
            getattr(cv2.aruco, self.geometry.aruco_dictionary)
        )
        params = cv2.aruco.DetectorParameters()
        # Two threshold window sizes (7 and 23 px at half size) instead of three: the
        # markers are big and high-contrast, and it saves a third of the search time.
        params.adaptiveThreshWinSizeMin = 7
        params.adaptiveThreshWinSizeMax = 23
        params.adaptiveThreshWinSizeStep = 16
        self._detector = cv2.aruco.ArucoDetector(dictionary, params)
        self._markers = {m.id: m for m in self.geometry.markers}

    def detect(self, frame: np.ndarray) -> MatDetection:
        """Locate the mat in a BGR or grey frame; never raises on a bad frame."""
        if frame is None or frame.ndim not in (2, 3) or frame.size == 0:
            return MatDetection(MatStatus.LOST, "no picture to look for the mat in")
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        seen = self._find_markers(grey)
        total = len(self._markers)
        size = (grey.shape[1], grey.shape[0])
        if len(seen) < MIN_MARKERS:
            # A webcam's mirror setting (or a photo through a mirror) swaps left and right:
            # the markers are then unreadable, and the mat was said to be out of view.
            if len(self._find_markers(cv2.flip(grey, 1))) >= MIN_MARKERS:
                return MatDetection(
                    MatStatus.LOST,
                    "the picture is mirrored (left and right swapped): turn off the camera's "
                    "mirror or flip setting",
                    tuple(sorted(seen)), frame_size=size,
                )
            return MatDetection(
                MatStatus.LOST,
                f"mat not in view: {len(seen)} of {total} corner markers seen; "
                "point the camera at the whole mat and keep its corners uncovered",
                tuple(sorted(seen)),
            )
        src = np.concatenate([seen[i] for i in sorted(seen)]).astype(np.float32)
        dst = np.concatenate([self._markers[i].corners_mm() for i in sorted(seen)])
        homography, _ = cv2.findHomography(src, dst, 0)
        if homography is None or not _plausible(homography, src, dst):
            return MatDetection(
                MatStatus.LOST,
                "mat markers seen but they do not fit the mat's shape; is it folded or is "
                "this a different mat?",
                tuple(sorted(seen)),
            )
        if len(seen) == total:
            return MatDetection(MatStatus.FOUND, "mat found", tuple(sorted(seen)), homography,
                                size)
        hidden = self.hidden_corners(tuple(seen))
        markers = "marker" if len(hidden) == 1 else "markers"
        return MatDetection(
            MatStatus.PARTIAL,
            f"mat found; the {' and '.join(hidden)} corner {markers} hidden",
            tuple(sorted(seen)),
            homography,
            size,
        )

    def hidden_corners(self, seen: tuple[int, ...]) -> tuple[str, ...]:
        """The corners (``top-left``) whose marker is not among the ``seen`` ids."""
        return tuple(self.geometry.corner_name(m) for m in self.geometry.markers
                     if m.id not in seen)

    def _find_markers(self, grey: np.ndarray) -> dict[int, np.ndarray]:
        # Searching a half-size picture is 3-4x faster; corners are then refined at full size.
        shrink = grey.shape[1] > DETECT_WIDTH
        small = cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA) \
            if shrink else grey
        corners, ids, _ = self._detector.detectMarkers(small)
        seen: dict[int, np.ndarray] = {}
        if ids is None:
            return seen
        for marker_corners, marker_id in zip(corners, ids.ravel(), strict=True):
            if int(marker_id) in self._markers:
                seen[int(marker_id)] = marker_corners.reshape(4, 2).astype(np.float32)
        if shrink and seen:
            points = np.concatenate(list(seen.values())) * 2.0 + 0.5
            criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
            refined = cv2.cornerSubPix(grey, points.reshape(-1, 1, 2), (5, 5), (-1, -1),
                                       criteria).reshape(-1, 4, 2)
            seen = dict(zip(seen, refined, strict=True))
        return seen

    def warp(self, frame: np.ndarray, detection: MatDetection, rect: Rect | None) -> np.ndarray:
        """The upright image of ``rect`` (whole mat if None) at ``px_per_mm``."""
        if detection.homography is None:
            raise ValueError("the mat was not found in this frame")
        g = self.geometry
        x, y = (0.0, 0.0) if rect is None else (rect.x_mm, rect.y_mm)
        scale = np.array(
            [[g.px_per_mm, 0, -x * g.px_per_mm], [0, g.px_per_mm, -y * g.px_per_mm], [0, 0, 1]]
        )
        return cv2.warpPerspective(
            frame, scale @ detection.homography, g.size_px(rect), flags=cv2.INTER_AREA
        )

    def in_frame(self, detection: MatDetection, rect: Rect | None) -> np.ndarray:
        """Which pixels of :meth:`warp`'s image of ``rect`` (whole mat if None) come from
        inside the frame (True); the others are black fill, not the mat's colour."""
        width, height = detection.frame_size
        inside = np.full((height, width), 255, np.uint8)
        mask: np.ndarray = self.warp(inside, detection, rect) == 255
        return mask

    def out_of_view(self, detection: MatDetection) -> tuple[Slot, ...]:
        """The slots not wholly inside the frame (none if the mat was not found)."""
        if not detection.found:
            return ()
        return tuple(s.slot for s in self.geometry.slots if not detection.in_view(s.rect))

    def slot_crops(self, frame: np.ndarray, detection: MatDetection) -> dict[Slot, np.ndarray]:
        """One upright crop per slot wholly in view (empty dict if the mat was not found),
        the light's colour taken out by the mat's paper (white_balance.py). A slot
        :meth:`out_of_view` has no crop: its black fill would read as a face-down tile."""
        if not detection.found:
            return {}
        crops = {s.slot: self.warp(frame, detection, s.rect) for s in self.geometry.slots
                 if detection.in_view(s.rect)}
        return balanced(crops, self.geometry.px_per_mm)

    def rectify(self, frame: np.ndarray) -> tuple[np.ndarray | None, MatDetection]:
        """The whole mat seen from straight above, and how it was found."""
        detection = self.detect(frame)
        if not detection.found:
            return None, detection
        return self.warp(frame, detection, None), detection

    def dice_crop(self, frame: np.ndarray) -> tuple[np.ndarray | None, MatDetection]:
        """The dice area seen from straight above, and how the mat was found."""
        detection = self.detect(frame)
        if not detection.found:
            return None, detection
        return self.warp(frame, detection, self.geometry.dice), detection


def _plausible(homography: np.ndarray, src: np.ndarray, dst: np.ndarray) -> bool:
    projected = cv2.perspectiveTransform(src.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return bool(np.max(np.linalg.norm(projected - dst, axis=1)) <= MAX_REPROJECTION_MM)


_DEFAULT: MatDetector | None = None


def _default_detector() -> MatDetector:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = MatDetector()
    return _DEFAULT


def rectify(frame: np.ndarray) -> tuple[np.ndarray | None, MatDetection]:
    """The whole packaged mat seen from above in ``frame`` (None and why, if not found)."""
    return _default_detector().rectify(frame)


def dice_crop(frame: np.ndarray) -> tuple[np.ndarray | None, MatDetection]:
    """The dice area of the packaged mat in ``frame`` (None and why, if not found)."""
    return _default_detector().dice_crop(frame)
