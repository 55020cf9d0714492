"""``companion calibrate dice``: check the dice can be read here, and save tuned thresholds.

    companion calibrate dice                     # the dice camera, two dice
    companion calibrate dice --count 3 --source photo.jpg

Lay the dice apart, still, in view (on the mat's dice area if you use the mat).
A few frames are read under several thresholds; the best setting and the
size of the dice go to ``dice.toml`` in the user's config folder, which the
dice reader loads from then on. Nothing is saved if the dice could not be read.

    companion calibrate dice --enrol --throws 4   # teach the reader your own dice

With ``--enrol`` the player throws their own dice ``--throws`` times and types
the values each throw shows; the judge's view of each die is kept with its value
in ``dice_enrol.npz`` beside ``dice.toml`` (companion/hw/dice/enrol.py), and the
reader leans on it from then on. ``--forget`` deletes it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.app.commands.dice import CALIBRATION_FILE
from companion.app.config import load_config
from companion.app.paths import config_dir

CAMERA_WAIT_S = 5.0  # how long a camera without a picture gets before calibration gives up


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "dice", help="check the dice reader in this light and view; save tuned thresholds")
    parser.add_argument("--source",
                        help="camera:0, picamera, a photo or video file (default: "
                             "dice.camera_source in `companion config`, normally the tile camera)")
    parser.add_argument("--count", type=int, default=2,
                        help="how many dice you laid out (default 2)")
    parser.add_argument("--frames", type=int, default=8,
                        help="frames to read (default 8)")
    parser.add_argument("--enrol", action="store_true",
                        help="teach the reader your own dice: throw them and type the values")
    parser.add_argument("--throws", type=int, default=4,
                        help="throws to enrol (default 4)")
    parser.add_argument("--forget", action="store_true",
                        help="delete the enrolled dice")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.hw.dice.calibrate import tune
    from companion.hw.dice.reader import ReaderConfig
    from companion.hw.dice.source import take_frames

    if args.count < 1 or args.frames < 1:
        print("companion: error: --count and --frames must be at least 1", file=sys.stderr)
        return 2
    config = load_config()
    config.tell_notices()
    camera = config.dice_camera(args.source)
    path = config_dir() / CALIBRATION_FILE
    if args.forget:
        from companion.hw.dice.enrol import ENROL_FILE

        (config_dir() / ENROL_FILE).unlink(missing_ok=True)
        print("The enrolled dice are forgotten.")
        return 0
    if args.enrol:
        return run_enrol(args, camera, path)
    print(f"Lay {args.count} dice apart and still in view ...")
    frames, why = take_frames(camera, args.frames, CAMERA_WAIT_S)
    if not frames:
        print(f"companion: error: no frames from {camera!r}: {why}", file=sys.stderr)
        return 1
    tuning = tune(frames, args.count, ReaderConfig.load(path))
    print(tuning.message)
    if not tuning.ok:
        print("Not saved: the dice were not read steadily enough.")
        return 1
    tuning.config.save(path)
    print(f"Saved to {path}")
    return 0


def run_enrol(args: argparse.Namespace, camera: str, path: Path) -> int:
    from companion.errors import CompanionError
    from companion.hw.dice.calibrate import enrol
    from companion.hw.dice.enrol import ENROL_FILE, Enrolment
    from companion.hw.dice.reader import ReaderConfig
    from companion.hw.dice.source import take_frames

    if args.throws < 1:
        print("companion: error: --throws must be at least 1", file=sys.stderr)
        return 2
    throws = []
    for number in range(1, args.throws + 1):
        print(f"Throw {args.count} of your dice ({number} of {args.throws}); when they lie "
              "still, type the values they show (e.g. 3 5) and Enter:")
        line = sys.stdin.readline()
        try:
            named = [int(v) for v in line.replace(",", " ").split()]
        except ValueError:
            named = []
        if len(named) != args.count or not all(1 <= v <= 6 for v in named):
            print(f"  not {args.count} values from 1 to 6: this throw is left out")
            continue
        frames, why = take_frames(camera, 1, CAMERA_WAIT_S)
        if not frames:
            print(f"companion: error: no frames from {camera!r}: {why}", file=sys.stderr)
            return 1
        throws.append((frames[-1], named))
    target = config_dir() / ENROL_FILE
    try:
        earlier = Enrolment.load(target)
    except CompanionError:
        earlier = None  # unreadable: start again
    enrolled = enrol(throws, ReaderConfig.load(path), earlier=earlier)
    print(enrolled.message)
    if enrolled.enrolment is None or not enrolled.throws_used:
        print("Not saved.")
        return 1
    enrolled.enrolment.save(target)
    print(f"Saved to {target}")
    return 0
