"""Training data from the real dice photos' train part: judge windows and finder scenes.

    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice-real
    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice-real2 --models /tmp/dice-models

The photos' labels are every die's value, a multiset with no boxes, so the boxes
are the reader's own marks (pseudo-boxes: its finder's, the face sizes searched as
when it reads), and the photo is kept when the finder marks as
many faces clearly as the label has dice (the n-th mark at least ACCEPT hot, the
next one at most GAP times as hot, or every mark hotter than that but n judged at
least NOT_A_DIE sure to be no die's top: a keyboard's keys, a cable's plug), or
when the judge reads every value of the label at least MATCH_SURE surely, each on
a hot mark of its own (``_matched``: then every other mark is no die, however
die-like). A fainter mark within NEAR face sides of a stronger one is that die's
side or edge, not a die. The values are given out by the label's multiset: in the
pairing of marks and values the judge's closer look (eight turns), its values
weighed by the counter's where the networks have one (``_opinions``), finds likeliest
as a whole, however unlikely it finds one die's value (``_settle``); a die whose
value a swap with another die's makes less than MARGIN times less likely is left
out. Marks beyond the n-th, points far from every die, and marks of a die's side
or edge at least FAR face sides from its top are NOTHING.

With ``--boxes`` (scripts/data/dice_boxes.csv: the tray photos' own boxes, and
scripts/data/dice_boxes_webcam.csv: the webcam photos', from their sources), a photo whose
boxes hold the label's values is taught by them instead: every die at its box, with the
box's value (``_boxed``), however crowded the photo and however unsure the networks are of
the die, and every other mark beyond FAR face sides of a die NOTHING. Those are the photos
and dice the rules above leave out (a tray of 20 dice where the finder marks 18, a
smoke-black die whose value the judge and the counter doubt). With them the counter's
check (scripts/train_dice_counter.py ``--check-every``) scores every tray die of the photos
held out, the hard ones too, not only those the rules above could label. On the webcam
photos the boxes bear the rules out: of the 447 dice windows the rules label there, none
is off its die's box (a flat die's own side, seen in perspective, is not taken for the
die), and the boxes add the two photos the rules left out. The committed networks were
not taught the boxes: see train_dice_counter.py and train_dice_reader.py for the trials.

Writes ``marks_real.npz`` (judge windows, as make_dice_data.py's ``--marks``
files, with ``photos``: the number of each window's photo in the train part) and
``shard_real.npz`` (finder scenes: windows of the photos scaled so a face is as big
as in the renders' shrunk scenes, as make_dice_data.py's shards), for
scripts/train_dice_reader.py and scripts/train_dice_counter.py. Only the ``train`` part of
scripts/eval_dice_reader.py's split is used.
"""

from __future__ import annotations

import argparse
import csv
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.errors import CompanionError
from companion.hw.dice.enrol import pair_values
from companion.hw.dice.networks import (
    CROP_PX,
    CROP_SIDES,
    NOTHING,
    TRAINED_FACE_PX,
    DiceNetworks,
    Spot,
    window,
)
from companion.hw.dice.reader import DiceReader

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_dice_reader import PHOTOS, photos, photos_missing

ACCEPT = 0.3
GAP = 0.6
# Two flat dice's tops are at least 0.86 face sides apart (placement.py, _ONE_DIE); a mark
# nearer a stronger one than NEAR is that die's side or edge, not a die of its own.
NEAR = 0.8
NOT_A_DIE = 0.9  # how sure the judge must be that a hot extra mark is no die's top
FAR = 0.55  # a mark this many face sides from its die's top is NOTHING (make_dice_data.py)
MARGIN = 20.0  # how much likelier a die's value than any swap with another die's
MATCH_SURE = 0.9  # how sure the judge must read each labelled value when other marks are hot
SCENE = (180, 320)  # a shrunk render's shape (rows, columns), for the finder
RENDER_SHRINK = 0.25  # the renders' shrunk scenes are a quarter of the 1280x720 frame
BOXED = 0.5  # a mark this many box sides from a box's centre is that die's (see _boxed)
FACE_OF_BOX = 0.85  # a top face's side in its die's box's sides, where no mark tells


def _marks(reader: DiceReader, image: np.ndarray) -> tuple[list[Spot], list[Spot]]:
    """The reader's marks (what it judges, where and as big as it judges them), strongest
    first, one per die; and the fainter marks within NEAR face sides of a stronger one (a
    flat die's side seen in perspective, or its edge)."""
    kept: list[Spot] = []
    near: list[Spot] = []
    for spot in reader.marks(image):
        if all(np.hypot(spot.x - k.x, spot.y - k.y) >= NEAR * max(k.side, spot.side)
               for k in kept):
            kept.append(spot)
        else:
            near.append(spot)
    return kept, near


def _settle(probs: np.ndarray, values: tuple[int, ...]) -> list[int | None]:
    """The label's values, one per mark (as many marks as values), in the pairing the
    judge finds likeliest as a whole; a mark whose value a swap with another mark makes
    less than MARGIN times less likely is left out (None).

    As many marks as dice means every value is some mark's, even one the judge reads
    wrong for sure: a clear die's 1 it takes for a 3 by its glare, a die whose 1 is an
    emblem it takes for no die. Those are the dice it most needs to be taught; only which
    mark has which value can be in doubt.
    """
    cost = -np.log(np.clip(probs, 1e-6, 1.0))
    given = pair_values(probs, list(values))
    n = len(given)

    def gain(i: int, j: int) -> float:
        a, b = given[i], given[j]
        assert a is not None and b is not None
        return float(cost[i, a] + cost[j, b] - cost[i, b] - cost[j, a])

    better = True
    while better:
        better = False
        for i in range(n):
            for j in range(i + 1, n):
                if given[i] != given[j] and gain(i, j) > 1e-9:
                    given[i], given[j] = given[j], given[i]
                    better = True
    doubt = np.log(MARGIN)
    return [None if any(given[i] != given[j] and -gain(i, j) < doubt for j in range(n))
            else given[i] for i in range(n)]


def _opinions(networks: DiceNetworks, image: np.ndarray, dice: list[Spot]) -> np.ndarray:
    """The judge's closer look at ``dice``, its values weighed by the counter's where the
    networks have one: two opinions on a value, one of the whole window, one of the top."""
    probs = networks.judge(image, dice, turned=True)
    counted = networks.count(image, dice)
    if counted is not None:
        values = probs[:, 1:7] * counted
        probs[:, 1:7] = values / np.maximum(values.sum(axis=1, keepdims=True), 1e-9) * \
            probs[:, 1:7].sum(axis=1, keepdims=True)
    return probs


def _matched(networks: DiceNetworks, image: np.ndarray, marks: list[Spot],
             values: tuple[int, ...]) -> list[Spot] | None:
    """The marks of the labelled dice, when the judge reads every value of the label surely
    on a mark of its own, however many other hot marks there are; else None.

    The label names every die in view, so the other marks are no die: a keyboard's key
    the judge half takes for a 2, a flat die's side seen in perspective. These are the
    photos the hot-mark rule drops, and the marks it cannot teach.
    """
    hot = [m for m in marks if m.heat >= ACCEPT]
    if len(hot) < len(values):
        return None
    probs = networks.judge(image, hot, turned=True)
    given = pair_values(probs, list(values))
    dice = [(m, v) for m, v in zip(hot, given, strict=True) if v is not None]
    if len(dice) != len(values) or any(
            probs[hot.index(m), v] < MATCH_SURE for m, v in dice):
        return None
    return [m for m, _ in dice]


@dataclass(frozen=True, slots=True)
class Box:
    """A labelled die in a photo: its box's centre and side (pixels), and its value."""

    x: float
    y: float
    side: float
    value: int


def read_boxes(path: Path) -> dict[str, list[Box]]:
    """The boxes of ``path`` (columns image, value, x, y, w, h; lines starting # are
    comments), by photo."""
    boxes: dict[str, list[Box]] = {}
    with path.open(newline="") as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            boxes.setdefault(row["image"], []).append(
                Box(float(row["x"]), float(row["y"]),
                    float(np.sqrt(float(row["w"]) * float(row["h"]))), int(row["value"])))
    return boxes


def _boxed(marks: list[Spot], boxes: list[Box]) -> list[Spot]:
    """One spot per box: the reader's mark on it, where it has one within BOXED box sides
    of its centre, or of the photo's marks' median side where the box is smaller (a
    webcam's box may hold only the top's pips, a 1's as small as its pip), so the window is
    cut where and as big as the reader cuts it; else the box's centre at the face size the
    photo's marks give its boxes (a tray's box holds the whole die, a little more than its
    top face)."""
    free = list(marks)
    face_side = float(np.median([m.side for m in marks])) if marks else 0.0
    found: list[Spot | None] = []
    for box in boxes:
        reach = BOXED * max(box.side, face_side)
        near = [m for m in free if np.hypot(m.x - box.x, m.y - box.y) < reach]
        mark = min(near, key=lambda m: np.hypot(m.x - box.x, m.y - box.y), default=None)
        if mark is not None:
            free.remove(mark)
        found.append(mark)
    ratios = [m.side / b.side for m, b in zip(found, boxes, strict=True) if m is not None]
    face = float(np.median(ratios)) if ratios else FACE_OF_BOX
    return [m if m is not None else Spot(b.x, b.y, b.side * face, 0.0)
            for m, b in zip(found, boxes, strict=True)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="folder to write marks_real.npz and shard_real.npz into")
    parser.add_argument("--models", type=Path, metavar="DIR", help="default: models/")
    parser.add_argument("--photos", type=Path, default=PHOTOS, metavar="DIR",
                        help="the labelled dice photos, labels.csv inside (default: "
                             "../shared/datasets/dice-photos, outside the repository)")
    parser.add_argument("--boxes", type=Path, nargs="+", default=[], metavar="CSV",
                        help="the photos' own boxes (scripts/data/dice_boxes*.csv)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the random choices made in cutting the windows (default "
                             "%(default)s)")
    args = parser.parse_args(argv)
    if (missing := photos_missing(args.photos)) is not None:
        parser.error(missing)
    boxes = {image: found for path in args.boxes
             for image, found in read_boxes(path).items()}
    rng = np.random.default_rng(args.seed)
    try:
        networks = DiceNetworks(args.models)
    except CompanionError as exc:  # a missing or broken --models folder, named as
        parser.error(str(exc))  # eval_dice_reader does, not a traceback (r78tilecam)
    reader = DiceReader(networks=networks)
    crops, labels, sources, small, rows = [], [], [], [], []
    kept_photos = proven_photos = boxed_photos = kept_dice = left_out = 0
    train = photos(args.photos, "train")
    for number, photo in enumerate(train):
        image = cv2.imread(str(args.photos / photo.image), cv2.IMREAD_COLOR)
        marks, near = _marks(reader, image)
        n = len(photo.dice)
        proven = False  # the judge read the label on n marks: every other mark is no die
        given: list[int | None] | None = None  # the values of the first n marks, if known
        boxed = boxes.get(photo.image, [])
        if sorted(b.value for b in boxed) == list(photo.dice):
            dice = _boxed(marks, boxed)
            marks = dice + [m for m in marks if m not in dice]
            given = [b.value for b in boxed]
            boxed_photos += 1
        elif len(marks) < n or marks[n - 1].heat < ACCEPT:
            continue
        elif len(marks) > n and marks[n].heat > GAP * marks[n - 1].heat:
            # A mark nearly as hot as the n-th: kept when the judge is sure every mark
            # down to it but n is no die's top (a key of a keyboard, a cable's plug).
            hot = [m for m in marks if m.heat > GAP * marks[n - 1].heat]
            nothing = networks.judge(image, hot, turned=True)[:, NOTHING] >= NOT_A_DIE
            if int((~nothing).sum()) == n:
                marks = [m for m, no in zip(hot, nothing, strict=True) if not no] + [
                    m for m, no in zip(hot, nothing, strict=True) if no] + marks[len(hot):]
            elif (matched := _matched(networks, image, marks, photo.dice)) is not None:
                marks = matched + [m for m in marks if m not in matched]
                proven = True
            else:
                continue
        dice, rest = marks[:n], marks[n:]
        if given is None:
            given = _settle(_opinions(networks, image, dice), photo.dice)
            proven_photos += proven
        else:
            proven = True  # the boxes name every die: every other mark is no die
        kept_photos += 1
        for spot, value in zip(dice, given, strict=True):
            if value is None:
                left_out += 1
                continue
            kept_dice += 1
            crops.append(window(image, (spot.x, spot.y), spot.side, CROP_SIDES, CROP_PX))
            labels.append(value)
            sources.append(number)
        side = float(np.median([d.side for d in dice]))
        # Beside a die, a mark that is no die of its own may yet be its top seen off
        # centre; unless the label is proven on other marks, only far marks are NOTHING.
        reach = FAR if proven else 1.2
        far = [s for s in rest
               if min(np.hypot(s.x - d.x, s.y - d.y) / d.side for d in dice) > reach]
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
            sources.append(number)
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
             labels=np.array(labels, dtype=np.int8), photos=np.array(sources, np.int16))
    np.savez(args.out / "shard_real.npz", small=np.stack(small),
             dice=np.array(rows, dtype=np.float32), crops=np.zeros((0, CROP_PX, CROP_PX, 3),
                                                                   np.uint8),
             labels=np.zeros(0, np.int8))
    print(f"{kept_photos} of {len(train)} train photos kept ({boxed_photos} by their boxes, "
          f"{proven_photos} by the judge's reading of the label among other hot marks), "
          f"{kept_dice} dice windows "
          f"({left_out} left out), {len(labels) - kept_dice} nothing windows, "
          f"{len(small)} finder scenes")


if __name__ == "__main__":
    main()
