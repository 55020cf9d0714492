"""Training data from the real dice photos' train part: judge windows and finder scenes.

    python scripts/make_dice_real_data.py --out /tmp/dice-real
    python scripts/make_dice_real_data.py --out /tmp/dice-real2 --models /tmp/dice-models

The photos' labels are every die's value, a multiset with no boxes, so the boxes
are the finder's own marks (pseudo-boxes): each photo is looked at with the faces
assumed as big as its ``die_px``, and the photo is kept when the finder marks as
many faces clearly as the label has dice (the n-th mark at least ACCEPT hot, the
next one at most GAP times as hot, or every mark hotter than that but n judged at
least NOT_A_DIE sure to be no die's top: a keyboard's keys, a cable's plug). A
fainter mark within NEAR face sides of a stronger one is that die's side or edge,
not a die. The values are given out by the label's
multiset: the judge's closer look (eight turns) over the kept marks, the surest
pairing of mark and value first, while that value is left in the multiset; a
die whose value so given the judge thinks less than MIN_GIVEN likely is left
out. Marks beyond the n-th, points far from every die, and marks of a die's side
or edge at least FAR face sides from its top are NOTHING.

Writes ``marks_real.npz`` (judge windows, as make_dice_data.py's ``--marks``
files) and ``shard_real.npz`` (finder scenes: windows of the photos scaled so a
face is as big as in the renders' shrunk scenes, as make_dice_data.py's
shards), for scripts/train_dice_reader.py. Only the ``train`` part of
scripts/eval_dice_reader.py's split is used.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.hw.dice.networks import (
    CROP_PX,
    CROP_SIDES,
    NOTHING,
    TRAINED_FACE_PX,
    DiceNetworks,
    Spot,
    window,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_dice_reader import PHOTOS, photos

ACCEPT = 0.3
GAP = 0.6
# Two flat dice's tops are at least 0.86 face sides apart (reader.py, _ONE_DIE); a mark
# nearer a stronger one than NEAR is that die's side or edge, not a die of its own.
NEAR = 0.8
NOT_A_DIE = 0.9  # how sure the judge must be that a hot extra mark is no die's top
FAR = 0.55  # a mark this many face sides from its die's top is NOTHING (make_dice_data.py)
MIN_GIVEN = 0.02
SCENE = (180, 320)  # a shrunk render's shape (rows, columns), for the finder
RENDER_SHRINK = 0.25  # the renders' shrunk scenes are a quarter of the 1280x720 frame


def _marks(networks: DiceNetworks, image: np.ndarray, face: float) -> tuple[list[Spot],
                                                                           list[Spot]]:
    """The finder's marks, strongest first, one per die; and the fainter marks within NEAR
    face sides of a stronger one (a flat die's side seen in perspective, or its edge)."""
    kept: list[Spot] = []
    near: list[Spot] = []
    for spot in networks.find(image, 0.05, face):
        if all(np.hypot(spot.x - k.x, spot.y - k.y) >= NEAR * max(k.side, spot.side)
               for k in kept):
            kept.append(spot)
        else:
            near.append(spot)
    return kept, near


def _give_values(probs: np.ndarray, values: tuple[int, ...]) -> list[int | None]:
    """Each mark's value from the multiset, surest pairing first; None when unlikely."""
    left = {v: values.count(v) for v in set(values)}
    given: list[int | None] = [None] * len(probs)
    pairs = sorted(((float(probs[i, v]), i, v) for i in range(len(probs)) for v in left),
                   reverse=True)
    done: set[int] = set()
    for p, i, v in pairs:
        if i in done or left[v] == 0:
            continue
        done.add(i)
        left[v] -= 1
        given[i] = v if p >= MIN_GIVEN else None
    return given


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--models", type=Path, metavar="DIR", help="default: models/")
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    networks = DiceNetworks(args.models)
    crops, labels, small, rows = [], [], [], []
    kept_photos = kept_dice = left_out = 0
    train = photos(args.photos, "train")
    for photo in train:
        image = cv2.imread(str(args.photos / photo.image), cv2.IMREAD_COLOR)
        marks, near = _marks(networks, image, photo.die_px)
        n = len(photo.dice)
        if len(marks) < n or marks[n - 1].heat < ACCEPT:
            continue
        if len(marks) > n and marks[n].heat > GAP * marks[n - 1].heat:
            # A mark nearly as hot as the n-th: kept when the judge is sure every mark
            # down to it but n is no die's top (a key of a keyboard, a cable's plug).
            hot = [m for m in marks if m.heat > GAP * marks[n - 1].heat]
            nothing = networks.judge(image, hot, turned=True)[:, NOTHING] >= NOT_A_DIE
            if int((~nothing).sum()) != n:
                continue
            marks = [m for m, no in zip(hot, nothing, strict=True) if not no] + [
                m for m, no in zip(hot, nothing, strict=True) if no] + marks[len(hot):]
        dice, rest = marks[:n], marks[n:]
        probs = networks.judge(image, dice, turned=True)
        given = _give_values(probs, photo.dice)
        kept_photos += 1
        for spot, value in zip(dice, given, strict=True):
            if value is None:
                left_out += 1
                continue
            kept_dice += 1
            crops.append(window(image, (spot.x, spot.y), spot.side, CROP_SIDES, CROP_PX))
            labels.append(value)
        side = float(np.median([d.side for d in dice]))
        far = [s for s in rest
               if min(np.hypot(s.x - d.x, s.y - d.y) for d in dice) > 1.2 * side]
        far += [s for s in near
                if min(np.hypot(s.x - d.x, s.y - d.y) / d.side for d in dice) > FAR]
        height, width = image.shape[:2]
        while len(far) < max(4, n):
            x, y = rng.uniform(0, width), rng.uniform(0, height)
            if min(np.hypot(x - d.x, y - d.y) for d in dice) > 1.2 * side:
                far.append(Spot(float(x), float(y), side * rng.uniform(0.7, 1.3), 0.0))
        for spot in far:
            crops.append(window(image, (spot.x, spot.y), spot.side, CROP_SIDES, CROP_PX))
            labels.append(NOTHING)
        # Finder scenes: the photo scaled so a face is TRAINED_FACE_PX across (times 0.8 to
        # 1.25), cut or padded to a shrunk render's shape, two windows a photo.
        for _ in range(2):
            scale = TRAINED_FACE_PX / side * rng.uniform(0.8, 1.25)
            scaled = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            pad_y, pad_x = max(0, SCENE[0] - scaled.shape[0]), max(0, SCENE[1] - scaled.shape[1])
            scaled = cv2.copyMakeBorder(scaled, pad_y // 2, pad_y - pad_y // 2, pad_x // 2,
                                        pad_x - pad_x // 2, cv2.BORDER_REFLECT)
            y0 = int(rng.integers(scaled.shape[0] - SCENE[0] + 1))
            x0 = int(rng.integers(scaled.shape[1] - SCENE[1] + 1))
            k = len(small)
            small.append(scaled[y0:y0 + SCENE[0], x0:x0 + SCENE[1]])
            for spot, value in zip(dice, given, strict=True):
                x = (spot.x * scale + pad_x // 2 - x0) / RENDER_SHRINK
                y = (spot.y * scale + pad_y // 2 - y0) / RENDER_SHRINK
                rows.append((k, x, y, spot.side * scale / RENDER_SHRINK, value or 0, 0))
    args.out.mkdir(parents=True, exist_ok=True)
    np.savez(args.out / "marks_real.npz", crops=np.stack(crops),
             labels=np.array(labels, dtype=np.int8))
    np.savez(args.out / "shard_real.npz", small=np.stack(small),
             dice=np.array(rows, dtype=np.float32), crops=np.zeros((0, CROP_PX, CROP_PX, 3),
                                                                   np.uint8),
             labels=np.zeros(0, np.int8))
    print(f"{kept_photos} of {len(train)} train photos kept, {kept_dice} dice windows "
          f"({left_out} left out), {len(labels) - kept_dice} nothing windows, "
          f"{len(small)} finder scenes")


if __name__ == "__main__":
    main()
