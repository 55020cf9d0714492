"""Score the camera dice reader on real photos, per source, and print what it does.

    python scripts/eval_dice_reader.py                      # every photo of the shared set
    python scripts/eval_dice_reader.py --part test          # the held-out photos only
    python scripts/eval_dice_reader.py --part test --large  # and the "large white dice" frames
    python scripts/eval_dice_reader.py --models /tmp/new-models --config /tmp/reader.toml

The photos are ``/work/shared/datasets/dice-photos/`` (``labels.csv``: every die's
top value, a multiset, no boxes). They are split by photo (:func:`part`, a hash
of the file name): about a third of each source is ``test``, held out from
training and from choosing thresholds; the rest is ``train``.

Per source it prints:

- frames fully right: reported ``ok`` with exactly the labelled values;
- dice right: of all labelled dice, how many the reader read surely with their value
  (the multiset intersection of the sure values and the label, per frame);
- ok but wrong: frames reported ``ok`` whose values are not the label (a wrong roll
  handed to the player: a die missed, one too many or a wrong value);
- unsure: frames reported ``unsure`` (the player is asked to re-roll);
- missed: frames reported ``no dice`` though dice are there; and dice missed (labelled
  dice beyond the number of readings, of any kind, the reader made);
- the CPU time of a read on one core (cv2.setNumThreads(1)), median and p95.

``--large`` adds the source ``large-white``: the webcam photos of 2 or 3 white dice
(matteop65) of the part scored scaled up LARGE_SCALE times, so their dice are about 170 px
across, as in the six photos of 2-3 big white dice the issue names.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import time
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from companion.hw.dice.networks import DiceNetworks
from companion.hw.dice.reader import DiceRead, DiceReader, ReaderConfig, ReadStatus

PHOTOS = Path("/work/shared/datasets/dice-photos")
TEST_SHARE = 0.33  # of each source's photos, held out
LARGE_SCALE = 4.4  # ~39 px webcam dice become ~170 px


def part(image: str) -> str:
    """``test`` or ``train``: a fixed split by photo, from the file name alone."""
    return "test" if zlib.crc32(image.encode()) % 100 < 100 * TEST_SHARE else "train"


@dataclass(frozen=True, slots=True)
class Photo:
    image: str
    dice: tuple[int, ...]
    die_px: float
    source: str


def photos(folder: Path = PHOTOS, which: str = "all") -> list[Photo]:
    """The labelled photos of ``which`` part (``all``, ``train`` or ``test``)."""
    with (folder / "labels.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    out = [Photo(r["image"], tuple(sorted(int(v) for v in r["dice"].split())),
                 float(r["die_px"]), r["source"].split("/")[0]) for r in rows]
    return [p for p in out if which == "all" or part(p.image) == which]


@dataclass(slots=True)
class Tally:
    frames: int = 0
    right: int = 0
    dice: int = 0
    dice_right: int = 0
    ok_wrong: int = 0
    unsure: int = 0
    no_dice: int = 0
    dice_missed: int = 0
    ms: list[float] = field(default_factory=list)

    def add(self, truth: tuple[int, ...], read: DiceRead, ms: float) -> bool:
        """Count one frame; whether it was read fully right."""
        self.frames += 1
        self.dice += len(truth)
        sure = Counter(d.value for d in read.dice if d.value is not None)
        self.dice_right += sum((sure & Counter(truth)).values())
        self.dice_missed += max(0, len(truth) - len(read.dice))
        self.ms.append(ms)
        right = read.status is ReadStatus.OK and tuple(read.values) == truth
        self.right += right
        self.ok_wrong += read.status is ReadStatus.OK and not right
        self.unsure += read.status is ReadStatus.UNSURE
        self.no_dice += read.status is ReadStatus.NO_DICE
        return right

    def line(self, name: str) -> str:
        n = max(1, self.frames)
        ordered = sorted(self.ms) or [0.0]
        return (f"{name:<12} frames {self.frames:4d}  fully right {100 * self.right / n:6.2f}%  "
                f"dice right {100 * self.dice_right / max(1, self.dice):6.2f}% of {self.dice:4d}  "
                f"ok-but-wrong {100 * self.ok_wrong / n:5.2f}% ({self.ok_wrong})  "
                f"unsure {100 * self.unsure / n:5.2f}%  "
                f"missed {100 * self.no_dice / n:5.2f}% (dice {self.dice_missed})  "
                f"ms median {statistics.median(ordered):5.1f} "
                f"p95 {ordered[int(0.95 * (len(ordered) - 1))]:5.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--part", choices=("all", "train", "test"), default="all")
    parser.add_argument("--large", action="store_true",
                        help="add the part's webcam photos of 2-3 dice, scaled up "
                             f"{LARGE_SCALE:g} times")
    parser.add_argument("--models", type=Path, metavar="DIR",
                        help="the folder of the finder, judge and counter (default: models/)")
    parser.add_argument("--config", type=Path, metavar="TOML",
                        help="a thresholds file over the packaged ones (as calibrate saves)")
    parser.add_argument("--show-wrong", action="store_true",
                        help="list every frame reported ok but wrong, and every unsure one")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    reader = DiceReader(ReaderConfig.load(args.config), DiceNetworks(args.models))
    chosen = photos(args.photos, args.part)
    jobs: list[tuple[str, Photo, float]] = [(p.source, p, 1.0) for p in chosen]
    if args.large:
        jobs += [("large-white", p, LARGE_SCALE) for p in chosen
                 if p.source == "matteop65" and len(p.dice) in (2, 3)]
    tallies: dict[str, Tally] = defaultdict(Tally)
    warm = cv2.imread(str(args.photos / chosen[0].image), cv2.IMREAD_COLOR)
    for _ in range(2):
        reader.read(warm)
    for source, photo, scale in jobs:
        image = cv2.imread(str(args.photos / photo.image), cv2.IMREAD_COLOR)
        if scale != 1.0:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        start = time.process_time()
        read = reader.read(image)
        ms = 1000 * (time.process_time() - start)
        right = tallies[source].add(photo.dice, read, ms)
        if args.show_wrong and not right:
            got = " ".join("?" if d.value is None else str(d.value) for d in read.dice)
            print(f"  {source} {photo.image} x{scale:g}: truth {photo.dice} read [{got}] "
                  f"{read.status.value}: {read.message}")
    print(f"Dice reader on real photos ({args.part} part of {args.photos})")
    every = Tally()
    for source in sorted(tallies):
        print(tallies[source].line(source))
        if source != "large-white":
            t = tallies[source]
            for name in ("frames", "right", "dice", "dice_right", "ok_wrong", "unsure",
                         "no_dice", "dice_missed"):
                setattr(every, name, getattr(every, name) + getattr(t, name))
            every.ms += t.ms
    print(every.line("all photos"))
    held = sum(part(p.image) == "test" for p in photos(args.photos))
    print(f"(split by photo: {held} test, {len(photos(args.photos)) - held} train; "
          f"per-frame CPU time on one core)")


if __name__ == "__main__":
    main()
