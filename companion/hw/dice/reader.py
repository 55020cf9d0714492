"""The camera dice reader: finds six-sided pip dice in a frame and counts their pips.

Classical vision, no trained model. A die's up face is an evenly coloured,
nearly square patch whose holes (the pips) sit where a d6 puts them. The reader

1. looks for pip-sized spots darker or lighter than their surroundings (every
   face has at least one pip, so every die yields seeds);
2. flood-fills the face colour from beside each spot, inside a window no bigger
   than the largest die, so a fill that runs into the table is dropped;
3. checks that the filled patch is die-sized, square and solid, that its holes
   are round pips of one size, and that their centres fit one of the six d6
   layouts (after undoing the perspective with the patch's own shape);
4. refuses to guess: a patch with pips that fails these checks, a face seen
   too obliquely, or two faces that belong to one cocked die make the read
   UNSURE, and the player is asked to re-roll.

A frame's work is bounded so a busy table cannot stall the camera: the 40
strongest spots are followed, each patch is judged on its own crop, past 40
judged patches no patch is tried a second time (new spots still are), and after
60 fills the frame stops; if it holds dice it is then unsure, never short of one.

Thresholds live in ``data/reader.toml``; ``companion calibrate dice`` saves tuned
ones in the user's config folder, and the app passes that file in.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from importlib.resources import files
from pathlib import Path

import cv2
import numpy as np

from companion.errors import DataError

Image = np.ndarray

# Pip centres of a d6 face, in units of the pip spread (centre to corner pip, per axis).
_LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([[0, 0]], dtype=np.float64),
    2: np.array([[-1, -1], [1, 1]], dtype=np.float64),
    3: np.array([[-1, -1], [0, 0], [1, 1]], dtype=np.float64),
    4: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], dtype=np.float64),
    5: np.array([[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], dtype=np.float64),
    6: np.array([[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]], dtype=np.float64),
}
_ALL_SPOTS = np.array([[x, y] for x in (-1, 0, 1) for y in (-1, 0, 1)], dtype=np.float64)
_MAX_SEEDS = 40  # the strongest pip-like spots a frame looks at (the time a frame takes)
_MAX_JUDGED = 40  # patches judged before a busy frame stops trying any patch again
_MAX_FILLS = 60  # flood fills a frame at most: the longest a busy frame may take
_REFILLS = (1.0, 0.5, 0.3)  # flood tolerance of each fill from a seed, as a share of the set one
_DIE_SIZED = 4  # a fill bigger than this many of the smallest faces may hold a die
_TRIES = 3  # seeds that may fill the same unreadable patch before it is given up
_HAT_SIZE = 5  # the pip search window, in pixels of each level of the pyramid
_RING = np.stack([np.cos(np.arange(8) * np.pi / 4), np.sin(np.arange(8) * np.pi / 4)], axis=1)
_NOT_A_FACE = "not a die face"
_TOO_BUSY = "too much in view to finish in time"
_SMUDGED = "smudged or moving pips"
_FACES_RUN_TOGETHER = "a die's faces run together"
_ANGLES = np.radians(np.arange(0, 180, 3))
_ROTATIONS = np.stack([np.stack([np.cos(_ANGLES), -np.sin(_ANGLES)], 1),
                       np.stack([np.sin(_ANGLES), np.cos(_ANGLES)], 1)], 1)  # (angle, 2, 2)
_SPREADS = np.linspace(0.18, 0.34, 9)  # pip spreads of real dice, in face sides
# Each layout turned through every angle at every spread: (spread, angle, pip, xy).
_TURNED = {n: _SPREADS[:, None, None, None] * np.einsum("aij,nj->ani", _ROTATIONS, t)
           for n, t in _LAYOUTS.items()}
# The places of the 3x3 grid where each layout has no pip.
_FREE = {n: np.array([p for p in _ALL_SPOTS if not any((p == q).all() for q in t)],
                     dtype=np.float64).reshape(-1, 2) for n, t in _LAYOUTS.items()}
_PIP_AREA_RANGE = (0.006, 0.07)  # one pip's area over the face's
_OFF_CENTRE = 0.12  # pips centred further than this from the patch's centre: not one face
_PIP_REACH = 0.46  # no pip centre lies nearer a face's edge than this (0.5 = on the edge)
_SAME_DIE = 0.9  # two faces whose centres are closer than this many sides: one die
_AS_OPEN = 1.45  # a neighbouring face squashed less than this many times more: as open
_SEEN_ASLANT = 1.2  # a face squashed more than this is seen aslant (or is a cocked side)
_SIDE_ASPECT = 2.3  # beside a face seen aslant, a face with pips opener than this is doubt
_COCKED_ASPECT = 1.9  # a neighbouring face with pips opener than this: the die is cocked
_EDGE_ON = 2.5  # a patch squashed more than this is a die's side seen edge-on, or nothing


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    """The reader's thresholds (see ``data/reader.toml`` for what each one means)."""

    pip_contrast: float
    pip_face_contrast: float
    flood_tolerance: float
    min_face_px: float
    max_face_px: float
    max_aspect: float
    min_solidity: float
    layout_tolerance: float
    min_confidence: float
    stable_frames: int
    still_px: float

    @staticmethod
    def load(user_file: Path | None = None) -> ReaderConfig:
        """The packaged thresholds, overlaid by a user's tuned file when it exists."""
        text = files("companion.hw.dice").joinpath("data/reader.toml").read_text("utf-8")
        config = _parse(tomllib.loads(text), "reader.toml", _default=None)
        if user_file is not None and user_file.exists():
            try:
                data = tomllib.loads(user_file.read_text("utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise DataError(f"{user_file}: not valid TOML ({exc})") from exc
            config = _parse(data, str(user_file), _default=config)
        return config

    def save(self, path: Path) -> None:
        """Write every threshold to ``path`` in the packaged file's layout."""
        reader = [f for f in fields(self) if f.name not in _STABILITY_KEYS.values()]
        lines = ["# Dice reader thresholds saved by `companion calibrate dice`.", "", "[reader]"]
        lines += [f"{f.name} = {getattr(self, f.name)!r}" for f in reader]
        lines += ["", "[stability]"]
        lines += [f"{key} = {getattr(self, name)!r}" for key, name in _STABILITY_KEYS.items()]
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        tmp.replace(path)


_STABILITY_KEYS = {"frames": "stable_frames", "still_px": "still_px"}


def _parse(data: dict[str, object], name: str, _default: ReaderConfig | None) -> ReaderConfig:
    """Shape-check a thresholds file; with a default, missing keys keep the default."""
    values: dict[str, float | int] = {}
    known = {f.name: f for f in fields(ReaderConfig)}
    for section, mapping in (("reader", None), ("stability", _STABILITY_KEYS)):
        table = data.get(section, {})
        if not isinstance(table, dict):
            raise DataError(f"{name}: [{section}] must be a table")
        for key, value in table.items():
            attr = mapping.get(key, "") if mapping else key
            if attr not in known or (mapping is None and key in _STABILITY_KEYS.values()):
                raise DataError(f"{name}: unknown key {key!r} in [{section}]")
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise DataError(f"{name}: [{section}] {key} must be a positive number")
            if attr == "stable_frames" and not isinstance(value, int):
                raise DataError(f"{name}: [{section}] {key} must be a whole number")
            values[attr] = value
    unknown = set(data) - {"reader", "stability"}
    if unknown:
        raise DataError(f"{name}: unknown table [{sorted(unknown)[0]}]")
    if _default is not None:
        return replace(_default, **values)  # type: ignore[arg-type]
    missing = set(known) - set(values)
    if missing:
        raise DataError(f"{name}: missing key {sorted(missing)[0]!r}")
    return ReaderConfig(**values)  # type: ignore[arg-type]


class ReadStatus(Enum):
    """What a frame showed, as a whole."""

    OK = "ok"  # every die found was read
    NO_DICE = "no dice"  # nothing die-like in view
    UNSURE = "unsure"  # something die-like could not be read: re-roll


@dataclass(frozen=True, slots=True)
class DieReading:
    """One die found in a frame: its value (None when unsure) and how sure the reader is."""

    value: int | None
    confidence: float
    centre: tuple[float, float]
    side_px: float
    reason: str = ""


@dataclass(frozen=True, slots=True)
class DiceRead:
    """Everything one frame showed: the dice, the overall status, a sentence for the player."""

    dice: tuple[DieReading, ...]
    status: ReadStatus
    message: str

    @property
    def values(self) -> list[int]:
        """The values read, sorted (only meaningful when ``status`` is OK)."""
        return sorted(d.value for d in self.dice if d.value is not None)


@dataclass(slots=True)
class _Face:
    centre: np.ndarray
    cov: np.ndarray
    side: float
    aspect: float
    pips: int
    value: int | None
    confidence: float
    reason: str


def _describe(dice: Sequence[DieReading]) -> tuple[ReadStatus, str]:
    if not dice:
        return ReadStatus.NO_DICE, "no dice in view"
    unsure = [d for d in dice if d.value is None]
    if unsure:
        why = unsure[0].reason or "a die could not be read"
        return ReadStatus.UNSURE, f"unsure ({why}): please re-roll"
    return ReadStatus.OK, "read " + ", ".join(str(d.value) for d in dice)


class DiceReader:
    """Reads the dice in single frames; see the module docstring for how."""

    def __init__(self, config: ReaderConfig | None = None) -> None:
        self.config = config or ReaderConfig.load()

    def read(self, frame: Image) -> DiceRead:
        """Find every die in ``frame`` (BGR or grey) and read its up face."""
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        faces, doubtful = self._faces(frame)
        dice = self._settle(faces, doubtful)
        status, message = _describe(dice)
        return DiceRead(tuple(dice), status, message)

    # -- finding faces ---------------------------------------------------------------

    def _seeds(self, gray: Image) -> list[tuple[int, int]]:
        """Points on die faces next to pip-like spots, in full-resolution pixels."""
        cfg = self.config
        small = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2),
                           interpolation=cv2.INTER_AREA)
        # The hat filter's window must be wider than a pip but narrower than the face
        # (or the whole face stands out as one spot): one small window over an image
        # pyramid finds the pips of small and big dice alike, at little cost.
        pip_max = 0.12 * cfg.max_face_px  # largest pip diameter at half size
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (_HAT_SIZE, _HAT_SIZE))
        seeds: list[tuple[float, int, int]] = []
        scale = 2
        while True:
            for op, sign in ((cv2.MORPH_BLACKHAT, -1.0), (cv2.MORPH_TOPHAT, 1.0)):
                # Dark pips (white dice) and light pips (coloured dice) apart: one pass
                # for both would join a pip to the dark rim around its face.
                spots = (cv2.morphologyEx(small, op, kernel) > cfg.pip_contrast).astype(np.uint8)
                _, _, stats, centroids = _components(spots, 8)
                self._ring_seeds(small, stats, centroids, sign, scale, seeds)
            if (_HAT_SIZE - 1) * scale / 2 >= pip_max or min(small.shape) < 40:
                break
            small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2),
                               interpolation=cv2.INTER_AREA)
            scale *= 2
        # Crisp spots on an even surround first; a busy table cannot eat the frame's time.
        seeds.sort(reverse=True)
        return [(x, y) for _, x, y in seeds[:_MAX_SEEDS]]

    def _ring_seeds(self, small: Image, stats: np.ndarray,
                    centroids: np.ndarray, sign: float, scale: int,
                    seeds: list[tuple[float, int, int]]) -> None:
        """For each pip-like spot, the point beside it most like its surround (the face)."""
        height, width = small.shape
        w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
        # Spots narrower than the window: pips. A small die's pips in a row (straight
        # or diagonal) may run together, so a row of up to three is let through.
        pip = (_HAT_SIZE - 1) ** 2
        keep = (area >= 2) & (area <= 3 * pip) & (np.maximum(w, h) <= 3 * _HAT_SIZE)
        centre = centroids[1:][keep]
        radius = 0.5 * (_HAT_SIZE - 1) + 1.5  # just outside a pip, on its face
        xs = np.rint(centre[:, :1] + radius * _RING[None, :, 0]).astype(int)
        ys = np.rint(centre[:, 1:] + radius * _RING[None, :, 1]).astype(int)
        inside = ((xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)).all(axis=1)
        xs, ys, centre = xs[inside], ys[inside], centre[inside]
        if not len(centre):
            return
        levels = small[ys, xs].astype(np.float64)  # (n, 8) the ring around each spot
        median = np.median(levels, axis=1)
        cy, cx = centre[:, 1].astype(int), centre[:, 0].astype(int)
        lift = sign * (small[cy, cx] - median)
        strength = lift - levels.std(axis=1)
        best = np.abs(levels - median[:, None]).argmin(axis=1)
        for k in np.flatnonzero(lift >= 0.6 * self.config.pip_contrast):
            seeds.append((float(strength[k]), scale * int(xs[k, best[k]]),
                          scale * int(ys[k, best[k]])))

    def _faces(self, frame: Image) -> tuple[list[_Face], list[_Face]]:
        """Faces read (or judged unreadable), and die-like patches that failed the checks."""
        cfg = self.config
        height, width = frame.shape[:2]
        visited = np.zeros((height, width), dtype=np.uint8)
        reach = int(1.1 * cfg.max_face_px)
        faces: list[_Face] = []
        doubtful: list[_Face] = []
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        judged = fills = 0
        for sx, sy in self._seeds(gray):
            if visited[sy, sx] >= _TRIES:
                continue
            if judged >= _MAX_JUDGED and visited[sy, sx]:
                # A busy frame: no more second tries at patches already judged, so
                # its time stays bounded; spots nowhere near them are still looked at.
                continue
            if fills >= _MAX_FILLS:
                if visited[sy, sx]:
                    continue  # a second try: not needed to call the frame
                if faces or doubtful:
                    # Out of time with a spot unexplored in a frame with dice: one more
                    # die may be there, so the frame is not called read. (A frame with
                    # nothing die-like in all those fills is a busy table: no dice.)
                    faces.append(_Face(np.array([sx, sy], dtype=np.float64), np.eye(2),
                                       cfg.min_face_px, 1.0, 1, None, 0.0, _TOO_BUSY))
                break
            x0, y0 = max(sx - reach, 0), max(sy - reach, 0)
            x1, y1 = min(sx + reach + 1, width), min(sy + reach + 1, height)
            face: _Face | None = None
            region: _Patch | None = None
            # Two touching dice of one colour, or a top face and a side face in a
            # similar light, can fill as one patch; a tighter fill from the same seed
            # usually stops at the rounded edge between them. The last patch judged
            # is kept, so a cocked die's face is not lost to a fill that found nothing.
            for share in _REFILLS:
                tried = _fill(frame, (x0, y0, x1, y1), (sx, sy), share * cfg.flood_tolerance)
                fills += 1
                if tried.open:
                    # Ran into the table, or down a die's side onto it.
                    if tried.area > 2 * cfg.max_face_px ** 2:
                        region = tried if face is None else region
                        break  # far more than one die: the table itself
                    continue
                attempt = self._face(tried, gray)
                judged += 1
                if attempt is None:
                    region = tried if face is None else region
                    if face is None and tried.area > _DIE_SIZED * cfg.min_face_px ** 2:
                        continue  # a die with its sides, too big to judge: try tighter
                    break
                face, region = attempt, tried
                if face.value is not None:
                    break
            if region is None:
                continue
            top, left = region.origin[1], region.origin[0]
            window = visited[top:top + region.mask.shape[0], left:left + region.mask.shape[1]]
            if face is None or face.value is not None:
                # Table, or a face read: no other seed need fill it again.
                np.maximum(window, _TRIES * region.mask, out=window)
            else:
                # A patch that failed stays open to a few more seeds, which may fill a
                # smaller, readable face inside it.
                window += region.mask
            if face is None:
                continue
            if (face.value is None and face.aspect > cfg.max_aspect) or face.reason == _NOT_A_FACE:
                doubtful.append(face)
            else:
                faces.append(face)
        return faces, doubtful

    def _face(self, fill: _Patch, frame_gray: np.ndarray) -> _Face | None:
        """Judge one filled patch: None if it is plainly not a die face."""
        cfg = self.config
        area = fill.area
        region, origin = fill.mask, fill.origin
        gray = frame_gray[origin[1]:origin[1] + region.shape[0],
                          origin[0]:origin[0] + region.shape[1]]
        if area < (0.7 * cfg.min_face_px) ** 2 or area > (1.15 * cfg.max_face_px) ** 2:
            return None
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        outline = max(contours, key=cv2.contourArea)
        hull = cv2.convexHull(outline)
        x, y, w, h = cv2.boundingRect(hull)
        filled = np.zeros((h, w), dtype=np.uint8)
        cv2.fillConvexPoly(filled, hull - np.array([x, y]), 1)
        patch = region[y:y + h, x:x + w]
        moments = cv2.moments(filled, binaryImage=True)
        hull_area = moments["m00"]
        if hull_area <= 0:
            return None
        centre = np.array([moments["m10"] / hull_area, moments["m01"] / hull_area])
        cov = np.array([[moments["mu20"], moments["mu11"]],
                        [moments["mu11"], moments["mu02"]]]) / hull_area
        eig = np.linalg.eigvalsh(cov)
        if eig[0] <= 0 or eig[1] >= _EDGE_ON ** 2 * eig[0]:
            return None  # a sliver: nothing to read, nor a die to doubt (see _settle)
        aspect = float(np.sqrt(eig[1] / eig[0]))
        side = float(np.sqrt(hull_area))
        # Pips are well inside the face: keep clear of the slivers the rounded edges leave.
        margin = max(1, round(0.06 * side))
        inner = cv2.erode(filled, cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (2 * margin + 1, 2 * margin + 1)))
        holes = cv2.bitwise_and(inner, 1 - patch)
        solidity = (area + int(cv2.countNonZero(cv2.bitwise_and(filled, 1 - patch)))) / hull_area
        origin_xy = np.array([origin[0] + x, origin[1] + y], dtype=np.float64)
        level = cv2.mean(gray[y:y + h, x:x + w], mask=patch)[0]
        pips, trouble = self._pips(holes, hull_area, centre, _whitener(cov),
                                   gray[y:y + h, x:x + w], level)
        face = _Face(centre + origin_xy, cov, side, aspect, len(pips), None, 0.0, _NOT_A_FACE)
        if not pips:
            return None  # no round pip-sized hole: the table, or a die seen edge-on
        if not cfg.min_face_px <= side <= cfg.max_face_px or solidity < cfg.min_solidity:
            return face
        if aspect > cfg.max_aspect:
            face.reason = "a die is tilted or seen too much from the side"
            return face
        if trouble:
            face.reason = trouble
            return face
        whiten = _whitener(cov)
        value, fit, spots = self._layout((np.array(pips) - centre) @ whiten.T)
        if value is None:
            face.reason = "pips do not form a die face"
            return face
        # Where this face has no pip the face colour must show: a pip lost in the
        # rounded edge would otherwise turn a 5 into a 1.
        unwhiten = np.linalg.inv(whiten)
        for spot in spots:
            px, py = (unwhiten @ spot + centre).round().astype(int)
            if not (0 <= px < w and 0 <= py < h) or not patch[py, px]:
                face.reason = "a pip is hidden or smudged"
                return face
        # Each margin is 1 when comfortably inside its limit and 0 at the limit.
        confidence = min(1.0 - fit / _tolerance(cfg, face.pips),
                         2.0 * (cfg.max_aspect - aspect) / (cfg.max_aspect - 1.0),
                         (solidity - cfg.min_solidity) / (1.0 - cfg.min_solidity))
        face.confidence = float(np.clip(confidence, 0.0, 1.0))
        if face.confidence < cfg.min_confidence:
            face.reason = "a borderline read"
            return face
        face.value = value
        face.reason = ""
        return face

    def _pips(self, holes: np.ndarray, face_area: float, centre: np.ndarray,
              whiten: np.ndarray, gray: np.ndarray, level: float
              ) -> tuple[list[np.ndarray], str]:
        """Pip centres among a face's holes, and what is wrong with them ("" if nothing).

        Only holes that stand out from the face as much as a pip (black on white,
        white on colour) count; a patch of patterned cloth has faint ones.
        """
        count, labels, stats, centroids = _components(holes, 8)
        lo, hi = _PIP_AREA_RANGE
        marks = []
        if count > 1:
            # Where each hole sits on the face, as if seen square on (0 = centre, 0.5 =
            # edge). Specks of noise and slivers where the rounded edge begins are no pips.
            reach = np.abs((centroids[1:] - centre) @ whiten.T).max(axis=1)
            size = stats[1:]
            keep = ((size[:, 4] >= 0.35 * lo * face_area)
                    & (np.minimum(size[:, 2], size[:, 3]) > 1) & (reach <= _PIP_REACH))
            candidates = np.flatnonzero(keep) + 1
        else:
            candidates = np.zeros(0, dtype=int)
        for i in candidates.tolist():
            x0, y0, w, h = stats[i, :4]
            box = (labels[y0:y0 + h, x0:x0 + w] == i).astype(np.uint8)
            # The pip's core, not its mean: a small pip is mostly blurred rim.
            darkest, lightest, _, _ = cv2.minMaxLoc(gray[y0:y0 + h, x0:x0 + w], mask=box)
            depth = max(level - darkest, lightest - level)
            if depth >= self.config.pip_face_contrast:
                marks.append((depth, i, box))
        pips: list[np.ndarray] = []
        areas: list[int] = []
        trouble = ""
        deepest = max((m[0] for m in marks), default=0.0)
        for depth, i, box in marks:
            if depth < 0.7 * deepest:
                continue  # fainter than the pips: a side face's pip through the rim, a shade
            x0, y0, w, h, area = stats[i]
            share = area / face_area
            if share > 4 * hi:
                # The patch rings something big: a die's sides around its top, or a
                # cocked die's faces run together. Not a face to read, but the pips
                # it holds are a die's, so it stays as doubt (see _settle).
                trouble = _FACES_RUN_TOGETHER
                continue
            if share < lo or share > hi or area < 0.4 * w * h or max(w, h) > 2.2 * min(w, h):
                # Pips of a small die can run together through the blur between them;
                # their darkest (or brightest) cores still stand apart.
                cores = _split(gray[y0:y0 + h, x0:x0 + w], box, level, face_area)
                if cores is None:
                    trouble = trouble or _SMUDGED
                else:
                    pips.extend(c + np.array([x0, y0]) for c in cores)
                continue
            pips.append(np.asarray(centroids[i], dtype=np.float64))
            areas.append(int(area))
        if areas and max(areas) > 2.2 * min(areas):
            trouble = trouble or _SMUDGED
        return pips, trouble

    def _layout(self, q: np.ndarray
                ) -> tuple[int | None, float, np.ndarray]:
        """Which d6 face the pip centres form (face seen square on, side 1).

        Returns the value, the worst pip offset in face sides, and the places
        where that face has no pip (in the same coordinates).
        """
        count = len(q)
        empty = np.zeros((0, 2))
        if count not in _LAYOUTS:
            return None, np.inf, empty
        # Every d6 layout is symmetric about the face centre, so the pips' own mean
        # is the centre; the patch's centre is off when a bit of a side face joined it.
        middle = q.mean(axis=0) if count > 1 else np.zeros(2)
        if np.abs(middle).max() > _OFF_CENTRE:
            return None, np.inf, empty
        q = q - middle
        # Every rotation and pip spread at once: (spread, angle, template pip, observed pip).
        gaps = _TURNED[count][:, :, :, None, :] - q[None, None, None, :, :]
        dist2 = np.einsum("sanmk,sanmk->sanm", gaps, gaps)
        nearest = dist2.argmin(axis=3)  # the observed pip matched to each template pip
        worst = dist2.min(axis=3).max(axis=2)  # (spread, angle), squared
        best: tuple[float, int, float] = (np.inf, 0, 0.0)
        for flat in np.argsort(worst, axis=None)[:4]:
            k, a = np.unravel_index(flat, worst.shape)
            if len(set(nearest[k, a].tolist())) == count:  # one observed pip per template pip
                best = (float(np.sqrt(worst[k, a])), int(a), float(_SPREADS[k]))
                break
        fit, a, spread = best
        if fit > _tolerance(self.config, count):
            return None, fit, empty
        spread = max(spread, 0.24)  # a lone centre pip says nothing about the spread
        return count, fit, _FREE[count] @ _ROTATIONS[a].T * spread + middle

    # -- the frame as a whole --------------------------------------------------------

    def _settle(self, faces: list[_Face], doubtful: list[_Face]) -> list[DieReading]:
        """Turn faces into dice, marking cocked dice and unexplained patches unsure."""
        read: list[_Face] = []
        for face in sorted((f for f in faces if f.value is not None),
                           key=lambda f: -f.confidence):
            same = [r for r in read if np.hypot(*(face.centre - r.centre)) < 0.5 * r.side]
            if not same:
                read.append(face)
            for r in same:
                if r.value != face.value:
                    # Two fills of one place read differently: a side face ran into it.
                    r.value, r.reason = None, _FACES_RUN_TOGETHER
        read = [r for r in read if r.value is not None]
        # A second fill of a face already read (seeded from another pip) adds nothing.
        faces = read + [f for f in faces if f.value is None and not any(
            np.hypot(*(f.centre - r.centre)) < 0.5 * r.side for r in read)]
        failed = [f for f in [*faces, *doubtful] if f.value is None and f.pips]
        for face in read:
            for patch in failed:
                gap = np.hypot(*(patch.centre - face.centre))
                near = gap < _SAME_DIE * max(face.side, patch.side)
                open_side = patch.aspect < min(_COCKED_ASPECT, _AS_OPEN * face.aspect) or (
                    face.aspect > _SEEN_ASLANT and patch.aspect < _SIDE_ASPECT)
                if near and open_side and 0.6 * face.side < patch.side < 1.25 * face.side:
                    # A second face with pips beside this one, nearly as open to the
                    # camera and unreadable: it may be this die's real top, seen askew (a
                    # cocked die). A flat die's side is seen far more edge-on than its
                    # top, unless the die itself is seen aslant (then any open side is
                    # doubt); a bigger patch is two dice run together, a much smaller
                    # one a scrap of rounded edge.
                    face.value, face.reason = None, "a die is tilted or cocked"
        for i, a in enumerate(read):
            for b in read[i + 1:]:
                if np.hypot(*(a.centre - b.centre)) < _SAME_DIE * max(a.side, b.side):
                    # Closer than two dice side by side can be: two faces of one die,
                    # both open to the camera, so which one is up is unclear.
                    for face in (a, b):
                        face.value, face.reason = None, "a die is tilted or cocked"
        # One unreadable die is one entry, however many fills of it failed.
        unread: list[_Face] = []
        for face in faces:
            if face.value is None and not any(
                    np.hypot(*(face.centre - u.centre)) < 0.5 * u.side for u in unread):
                unread.append(face)
        faces = [f for f in faces if f.value is not None] + unread
        lone: list[_Face] = []
        for patch in doubtful:
            # A patch is explained as the side of a die already listed: next to it and
            # no bigger (a side is seen more edge-on than the top). Anything else with
            # pips, up to two dice run together, is a die that could not be read.
            explained = any(np.hypot(*(patch.centre - f.centre)) < 1.0 * f.side
                            and patch.side <= 1.1 * f.side for f in [*faces, *lone])
            if not explained and patch.pips and patch.aspect < _EDGE_ON and (
                    0.7 * self.config.min_face_px <= patch.side <= 2 * self.config.max_face_px):
                patch.reason = "a die could not be made out"
                lone.append(patch)
        return [DieReading(f.value, round(f.confidence if f.value else 0.0, 3),
                           (round(float(f.centre[0]), 1), round(float(f.centre[1]), 1)),
                           round(f.side, 1), f.reason)
                for f in [*faces, *lone]]


def _components(mask: np.ndarray, connectivity: int
                ) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """Connected components with their stats; 16-bit labels are much faster here."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, connectivity, cv2.CV_16U, cv2.CCL_DEFAULT)
    return count, labels, stats, centroids


@dataclass(frozen=True, slots=True)
class _Patch:
    """A flood fill: its 0/1 mask cropped to it with a one-pixel rim (the crop is all a
    face is judged on, much cheaper than the fill's whole window), where the crop
    sits in the frame, the fill's area, and whether it reached its window's edge."""

    mask: np.ndarray
    origin: tuple[int, int]
    area: int
    open: bool


def _fill(frame: Image, window: tuple[int, int, int, int], seed: tuple[int, int],
          tolerance: float) -> _Patch:
    """The patch within ``tolerance`` of the seed's colour, confined to ``window``."""
    x0, y0, x1, y1 = window
    height, width = frame.shape[:2]
    mask = np.zeros((y1 - y0 + 2, x1 - x0 + 2), dtype=np.uint8)
    flags = 4 | cv2.FLOODFILL_FIXED_RANGE | cv2.FLOODFILL_MASK_ONLY | (1 << 8)
    tol = (tolerance,) * 3
    area, _, _, (rx, ry, rw, rh) = cv2.floodFill(
        frame[y0:y1, x0:x1], mask, (seed[0] - x0, seed[1] - y0), (0, 0, 0), tol, tol, flags)
    # The fill reached a side of its window that is not the frame's edge.
    reached = ((x0 > 0 and rx == 0) or (y0 > 0 and ry == 0)
               or (x1 < width and rx + rw == x1 - x0) or (y1 < height and ry + rh == y1 - y0))
    left, top = int(rx > 0), int(ry > 0)
    right, bottom = int(rx + rw < x1 - x0), int(ry + rh < y1 - y0)
    crop = mask[1 + ry - top:1 + ry + rh + bottom, 1 + rx - left:1 + rx + rw + right]
    return _Patch(crop, (x0 + rx - left, y0 + ry - top), int(area), bool(reached))


def _split(gray: np.ndarray, hole: np.ndarray, level: float,
           face_area: float) -> list[np.ndarray] | None:
    """Centres of the pip cores inside one hole, or None if it is not a run of pips."""
    depth = np.abs(gray.astype(np.float64) - level) * hole
    core = (depth > 0.7 * depth.max()).astype(np.uint8)
    count, _, stats, centroids = _components(core, 4)
    if count < 3:
        return None  # one blob: a smear, not pips that ran together
    cores = []
    for i in range(1, count):
        w, h, area = stats[i, 2], stats[i, 3], stats[i, 4]
        share = area / face_area
        lo, hi = _PIP_AREA_RANGE
        if not 0.25 * lo <= share <= hi or max(w, h) > 2.2 * min(w, h):
            return None
        cores.append(np.asarray(centroids[i], dtype=np.float64))
    return cores


def _tolerance(config: ReaderConfig, pips: int) -> float:
    """How far pips may sit from a d6 layout; a lone pip is measured from the patch's
    centre, which a sliver of side face can shift, so it gets more room."""
    return config.layout_tolerance * (1.5 if pips == 1 else 1.0)


def _whitener(cov: np.ndarray) -> np.ndarray:
    """The linear map that turns a patch with these second moments into a unit square."""
    vals, vecs = np.linalg.eigh(cov)
    out: np.ndarray = vecs @ np.diag(1.0 / np.sqrt(12.0 * vals)) @ vecs.T
    return out


def read_dice(frame: Image, config: ReaderConfig | None = None) -> DiceRead:
    """Read one frame with the packaged (or given) thresholds."""
    return DiceReader(config).read(frame)
