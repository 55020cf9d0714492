"""``companion calibrate dice``: check the dice can be read here, and save tuned thresholds.

    companion calibrate dice                     # the dice camera, two dice
    companion calibrate dice --count 3 --source photo.jpg

Lay the dice apart, still, in view (on the mat's dice area if you use the mat).
A few frames are read under several thresholds; the best setting and the
size of the dice go to ``dice.toml`` in the user's config folder, which the
dice reader loads from then on. Nothing is saved if the dice could not be read.
"""

from __future__ import annotations

import argparse
import sys
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
