"""Score what the player gets after ``companion calibrate dice``: calibrate on one real
photo, then read the others under the thresholds that calibration saved.

    .venv/bin/python scripts/eval_dice_calibration.py                      # test part, 24
    .venv/bin/python scripts/eval_dice_calibration.py --part all --limit 0  # every photo
    .venv/bin/python scripts/eval_dice_calibration.py --only mp_Train_six_48.jpg --part all
    .venv/bin/python scripts/eval_dice_calibration.py --enrol 4 --limit 5  # dice enrolled

scripts/eval_dice_reader.py measures the packaged thresholds only, but a player who has
calibrated reads every throw under the ``dice.toml`` calibration saved (its finder
threshold and face sizes), and calibration picks among several finder thresholds
(companion/hw/dice/calibrate.py FIND_THRESHOLDS). Here each of ``--limit`` photos of
``--part`` (spread evenly over them, from the labelled set of eval_dice_reader.py:
``labels.csv``, split by photo the same way) is one calibration, run through the command
itself, ``companion calibrate dice --source PHOTO --count K`` (K: the photo's labelled
dice), in a fresh config folder of its own. Every calibration that saves has the other
photos of the part from the same source (the same camera and table: a player calibrates
at their own; ``--across-sources`` reads every source) read under its ``dice.toml`` as
``companion roll --dice camera --source PHOTO ND6`` reads them: CameraDiceSource.read_frame,
given the throw's count N (the mat's dice area when its markers are in view, else the whole
view).

It prints the calibrations done (saved, refused), the finder thresholds saved (how many
calibrations saved each), and the reads under the saved settings in eval_dice_reader.py's
columns: fully right, ok-but-wrong (a wrong roll handed to the player as read), unsure
(the player is asked to re-roll or type); and, to set them against, the same photos read
the same way under the packaged thresholds (no ``dice.toml``): an ok-but-wrong read there
is the reader's own, one that is not is what calibrating brought. ``--show-wrong`` lists
every ok-but-wrong read, with the calibration it was read under.

``--enrol N`` first enrols, per source, the dice of N of its train photos, as
eval_dice_reader.py's ``--enrol`` does (the values of their labels, as ``companion calibrate
dice --enrol`` does with N throws), and gives each calibration on that source's photos that
enrolment (its ``dice_enrol.npz``), which ``calibrate dice`` reads with as the dice tray does
(dicecam73 DEFECT 1); its reads and the packaged ones lean on it too. Without it nothing is
enrolled (reviewb73 NIT 3: the path with an enrolment was measured nowhere).
"""

from __future__ import annotations

import os

# One core's CPU time, as the companion reads (companion/__init__.py).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import contextlib
import io
import shlex
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_dice_reader import (  # a script beside
    PHOTOS,
    Photo,
    Tally,
    enrolled_readers,
    photos,
    photos_missing,
)

from companion.app import cli
from companion.app.arg_types import positive_int
from companion.hw.dice.enrol import ENROL_FILE
from companion.hw.dice.networks import DiceNetworks
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.readings import ReadStatus
from companion.hw.dice.source import CameraDiceSource

DEFAULT_LIMIT = 24


def chosen(pool: list[Photo], limit: int) -> list[Photo]:
    """``limit`` photos of ``pool`` spread evenly over it (0: all of them)."""
    if not limit or limit >= len(pool):
        return list(pool)
    return [pool[i * len(pool) // limit] for i in range(limit)]


def calibrate(photo: Path, count: int, folder: Path,
              networks: DiceNetworks | None = None) -> tuple[int, str, Path]:
    """Run ``companion calibrate dice --source photo --count count`` with ``folder`` as its
    config and data folder, and ``networks``' enrolment, if any, saved there as the player's
    ``dice_enrol.npz``: its exit status, what it printed, and the dice.toml path."""
    if networks is not None and networks.enrolment is not None:
        (folder / "config").mkdir(parents=True, exist_ok=True)
        networks.enrolment.save(folder / "config" / ENROL_FILE)
    saved = {name: os.environ.get(name) for name in ("COMPANION_CONFIG_DIR",
                                                      "COMPANION_DATA_DIR")}
    os.environ["COMPANION_CONFIG_DIR"] = str(folder / "config")
    os.environ["COMPANION_DATA_DIR"] = str(folder / "data")
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            status = cli.main(["calibrate", "dice", "--source", str(photo),
                               "--count", str(count)])
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return status, out.getvalue(), folder / "config" / "dice.toml"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, default=PHOTOS, metavar="DIR",
                        help="the labelled dice photos, labels.csv inside (default: "
                             "../shared/datasets/dice-photos, outside the repository)")
    parser.add_argument("--part", choices=("all", "train", "test"), default="test",
                        help="the photos calibrated on and read (default: test, held out)")
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, metavar="N",
                        help=f"calibrations: N photos of the part, spread evenly (default "
                             f"{DEFAULT_LIMIT}; 0: every photo)")
    parser.add_argument("--only", action="append", metavar="IMAGE",
                        help="calibrate on this photo of labels.csv only (repeatable)")
    parser.add_argument("--max-dice", type=positive_int, default=6, metavar="N",
                        help="photos of at most N dice (default 6: the dice tray's throws)")
    parser.add_argument("--across-sources", action="store_true",
                        help="read every source's photos under each calibration, not only "
                             "those of the source calibrated on")
    parser.add_argument("--enrol", type=positive_int, metavar="N",
                        help="enrol each source's dice from N of its train photos first, and "
                             "calibrate and read with them")
    parser.add_argument("--show-wrong", action="store_true",
                        help="list every read handed to the player as ok but wrong")
    args = parser.parse_args(argv)
    if (missing := photos_missing(args.photos)) is not None:
        parser.error(missing)
    if args.limit < 0:
        parser.error("--limit must be 0 or more")
    print("$ " + shlex.join(["scripts/eval_dice_calibration.py",
                             *(sys.argv[1:] if argv is None else argv)]))
    cv2.setNumThreads(1)
    part = [p for p in photos(args.photos, args.part) if len(p.dice) <= args.max_dice]
    if args.only:
        unknown = set(args.only) - {p.image for p in photos(args.photos)}
        if unknown:
            parser.error(f"not in labels.csv: {', '.join(sorted(unknown))}")
        every = {p.image: p for p in photos(args.photos)}
        calibrations = [every[name] for name in args.only]
    else:
        calibrations = chosen(part, args.limit)
    images = {}
    for photo in part:
        image = cv2.imread(str(args.photos / photo.image), cv2.IMREAD_COLOR)
        if image is None:
            parser.error(f"{args.photos / photo.image}: not a picture that can be read")
        images[photo.image] = image
    networks = DiceNetworks()
    start = time.monotonic()
    # Per source, the networks leaning on its dice enrolled (--enrol): with them calibrate
    # and read, as a player who enrolled does; the others read with none.
    enrolled = ({source: reader.networks for source, reader in enrolled_readers(
        ReaderConfig.load(), None, args.photos, args.enrol).items()} if args.enrol else {})
    # The same photos under the packaged thresholds (no dice.toml), read the same way: an
    # ok-but-wrong read there is the reader's own, not one calibrating brought.
    packaged, packaged_wrong = Tally(), set()
    for other in part:
        tray = CameraDiceSource("packaged", config=ReaderConfig.load(),
                                networks=enrolled.get(other.source, networks))
        read = tray.read_frame(images[other.image], len(other.dice))
        if not packaged.add(other.dice, read, None) and read.status is ReadStatus.OK:
            packaged_wrong.add(other.image)
    total, saved_at, wrong_at, refused, brought = Tally(), Counter[str](), Counter[str](), 0, 0
    leaned = 0  # calibrations that said they read with the enrolled dice (--enrol)
    with tempfile.TemporaryDirectory(prefix="eval-dice-calibration-") as scratch:
        for number, photo in enumerate(calibrations):
            folder = Path(scratch) / str(number)
            status, said, toml = calibrate(args.photos / photo.image, len(photo.dice), folder,
                                           enrolled.get(photo.source))
            leaned += "as the dice tray reads it, with your " in said
            if status != 0 or not toml.exists():
                refused += 1
                why = next((line for line in said.splitlines() if line.startswith("Not saved")
                            or "error" in line), said.strip().splitlines()[-1:])
                print(f"{photo.image} --count {len(photo.dice)}: not saved (exit {status}): "
                      f"{why}")
                continue
            config = ReaderConfig.load(toml)
            saved_at[f"{config.find_threshold:g}"] += 1
            threshold = f"{config.find_threshold:g}"
            tray = CameraDiceSource(str(args.photos / photo.image), config=config,
                                    networks=enrolled.get(photo.source, networks))
            tally = Tally()
            for other in part:
                if other.image == photo.image or (other.source != photo.source
                                                  and not args.across_sources):
                    continue
                began = time.process_time()
                read = tray.read_frame(images[other.image], len(other.dice))
                right = tally.add(other.dice, read, 1000 * (time.process_time() - began))
                if read.status is ReadStatus.OK and not right:
                    new = other.image not in packaged_wrong
                    brought += new
                    if args.show_wrong:
                        print(f"  under {photo.image}'s: {other.image} truth {other.dice} "
                              f"read {tuple(read.values)}"
                              + ("" if new else " (so under the packaged thresholds too)"))
            for key in ("frames", "right", "dice", "dice_right", "ok_wrong", "unsure",
                        "no_dice", "dice_missed", "typed", "typed_wrong"):
                setattr(total, key, getattr(total, key) + getattr(tally, key))
            total.ms += tally.ms
            wrong_at[threshold] += tally.ok_wrong
            print(f"{photo.image} --count {len(photo.dice)}: saved finder threshold "
                  f"{config.find_threshold:g}, faces {config.min_face_px:g}-"
                  f"{config.max_face_px:g} px: right {tally.right}, ok-but-wrong "
                  f"{tally.ok_wrong}, unsure {tally.unsure}, no dice {tally.no_dice} "
                  f"of {tally.frames}")
    sources = "every source's" if args.across_sources else "its own source's"
    dice = (f"; each source's dice enrolled from {args.enrol} train photos, calibrated and "
            "read with" if enrolled else "")
    print(f"Dice read after calibrating ({args.part} part of {args.photos}, photos of at most "
          f"{args.max_dice} dice{dice}; each calibration reads {sources} other photos, each "
          "given its count, as the dice tray reads a throw)")
    print(f"calibrations {len(calibrations)}: saved {len(calibrations) - refused}, "
          f"not saved {refused}"
          + (f"; read with the enrolled dice {leaned} of {len(calibrations)}" if enrolled else ""))
    print("finder thresholds saved: " + (", ".join(
        f"{threshold} x{n} (ok-but-wrong {wrong_at[threshold]})"
        for threshold, n in sorted(saved_at.items(), key=lambda t: float(t[0]))) or "none"))
    print(total.line("calibrated"))
    print(f"  (ok-but-wrong where the packaged thresholds read the photo otherwise: {brought})")
    print(packaged.line("packaged"))
    print(f"({len(part)} photos in the part; {time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main()
