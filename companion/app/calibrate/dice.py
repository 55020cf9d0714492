"""``companion calibrate dice``: check the dice can be read here, and save tuned thresholds.

    companion calibrate dice                     # the dice camera, two dice
    companion calibrate dice --count 3 --source photo.jpg

Lay the dice apart, still, in view (on the mat's dice area if you use the mat).
The frames are read as the dice tray reads them: only the mat's dice area, straightened,
when the mat's corner markers are in view, else the whole view. A few frames are read
under several thresholds; the best setting and the
size of the dice go to ``dice.toml`` in the user's config folder, which the
dice reader loads from then on. Nothing is saved if the dice could not be read.

    companion calibrate dice --enrol --throws 4   # teach the reader your own dice

With ``--enrol`` the player throws their own dice ``--throws`` times and types
the values each throw shows; the judge's view of each die is kept with its value
in ``dice_enrol.npz`` beside ``dice.toml`` (companion/hw/dice/enrol.py), and the
reader leans on it from then on. Each throw is saved as it is taken, added to the
dice enrolled before, so stopping (Ctrl-C, the end of input) keeps the throws
taken. ``--forget`` deletes it and ``dice.toml``: the reader is back to the companion's own
thresholds (a new calibration fits the face sizes afresh anyway); ``--forget enrolled``
deletes only the enrolled dice, ``--forget thresholds`` only ``dice.toml``.

The rendered mat of ``companion calibrate camera`` (``--source render:…``) is refused at
once: it draws no dice, so it would calibrate nothing.

A ``dice.toml`` or ``dice_enrol.npz`` that cannot be read is set aside (kept beside
it) before anything is asked, and calibration starts afresh.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.app.arg_types import positive_int
from companion.app.calibrate import set_aside
from companion.app.commands.dice import CALIBRATION_FILE
from companion.app.config import load_config
from companion.app.paths import config_dir
from companion.errors import DataError

if TYPE_CHECKING:
    from companion.hw.dice.enrol import Enrolment
    from companion.hw.dice.networks import DiceNetworks
    from companion.hw.dice.reader_config import ReaderConfig

FORGETTABLE = ("all", "enrolled", "thresholds")
CAMERA_WAIT_S = 5.0  # how long a camera without a picture gets before calibration gives up


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "dice", help="check the dice reader in this light and view; save tuned thresholds")
    parser.add_argument("--source",
                        help="camera:0, picamera, a photo or video file (default: "
                             "dice.camera_source in `companion config`, normally the tile camera)")
    parser.add_argument("--count", type=positive_int, default=2,
                        help="how many dice you laid out (default 2)")
    parser.add_argument("--frames", type=positive_int, default=8,
                        help="frames to read (default 8)")
    parser.add_argument("--enrol", action="store_true",
                        help="teach the reader your own dice: throw them and type the values; "
                             "each throw is added to the dice enrolled before")
    parser.add_argument("--throws", type=positive_int, default=4,
                        help="throws to enrol (default 4)")
    parser.add_argument("--forget", nargs="?", const="all", choices=FORGETTABLE,
                        help="delete what calibration saved: both the tuned thresholds and "
                             "the enrolled dice (back to the companion's own), or only "
                             "'enrolled' or only 'thresholds'")
    parser.set_defaults(func=run)


def tuned_before(path: Path) -> ReaderConfig:
    """The thresholds to start from: the packaged ones under ``path`` (``dice.toml``); one
    that cannot be used is set aside, as calibration writes it again."""
    from companion.hw.dice.reader_config import ReaderConfig

    packaged = ReaderConfig.load()  # a fault of the companion's own file is not the player's
    try:
        return ReaderConfig.load(path)
    except DataError as exc:
        set_aside(path, str(exc))
        return packaged


def forget(tuned: Path, which: str) -> int:
    """Delete what calibration saved: with ``which`` "all", ``tuned`` (``dice.toml``) and
    the enrolled dice beside it, so the dice reader reads as before any calibration (the
    way out when the saved sizes no longer fit the camera); "enrolled" or "thresholds",
    only that one, so a bad enrolment goes without the light calibration (review 56,
    finding 1). It names each file it deletes, and the one it keeps."""
    from companion.hw.dice.enrol import ENROL_FILE

    saved = {"thresholds": (tuned, "the tuned thresholds"),
             "enrolled": (tuned.with_name(ENROL_FILE), "the enrolled dice")}
    chosen = [saved[which]] if which != "all" else list(saved.values())
    gone = [f"{what} ({path})" for path, what in chosen if path.exists()]
    kept = [f"{what} ({path}) are kept" for name, (path, what) in saved.items()
            if which not in ("all", name) and path.exists()]
    if not gone:
        print("Nothing to forget: no " + " and no ".join(f"{what[4:]} ({path})"
                                                        for path, what in chosen) + ".")
        return 0
    for path, _ in chosen:
        path.unlink(missing_ok=True)
    after = ("the dice reader reads as before any calibration until you calibrate again"
             if not kept else "; ".join(kept))
    print(f"Forgotten: {' and '.join(gone)}; {after}.")
    return 0


def gave_up(why: str) -> str:
    """A camera's message once calibration has stopped waiting: no longer "retrying"."""
    return why.removesuffix("; retrying")


def lay_dice(count: int) -> None:
    """Ask for ``count`` dice laid still, and on a terminal wait for Enter: the frames are
    read in well under a second, so a player who lays the dice after starting would find
    none (review 56, finding 7). Piped input is not waited on: the dice lie there already."""
    from companion.hw.dice.readings import dice_count

    if not sys.stdin.isatty():
        print(f"Reading {dice_count(count)} laid still in view, apart ...")
        return
    print(f"Lay {dice_count(count)} still in view, apart, then press Enter:", flush=True)
    sys.stdin.readline()


def run(args: argparse.Namespace) -> int:
    from companion.hw.camera.capture import webcam_missing
    from companion.hw.dice.calibrate import tune
    from companion.hw.dice.frames import MAT_AREA, WHOLE_VIEW, area_of, take_frames

    config = load_config()
    config.tell_notices()
    camera = config.dice_camera(args.source)
    path = config_dir() / CALIBRATION_FILE
    if args.forget:
        return forget(path, args.forget)
    if camera.startswith("render:"):
        # The rendered mat draws tiles and never a die: "check the light" would follow, and
        # for --enrol only after each throw was typed.
        print(f"companion: error: {camera} draws the mat with tiles on it, no dice: calibrate "
              "with the dice camera, or a photo of your dice lying still", file=sys.stderr)
        return 1
    base = tuned_before(path)
    # A webcam that does not open now is not waited for (the game waits for one to be
    # plugged in, calibration would only fail after CAMERA_WAIT_S), nor, when enrolling,
    # found missing only after the player has thrown and typed the first throw.
    missing = webcam_missing(camera)
    if missing:
        print(f"companion: error: no frames from {camera!r}: {missing}", file=sys.stderr)
        return 1
    if args.enrol:
        return run_enrol(args, camera, base)
    lay_dice(args.count)
    frames, why = take_frames(camera, args.frames, CAMERA_WAIT_S)
    if not frames:
        print(f"companion: error: no frames from {camera!r}: {gave_up(why)}", file=sys.stderr)
        return 1
    areas = [area_of(frame, "auto") for frame in frames]
    # The tray reads the mat's dice area whenever it sees the mat: the sizes are measured there.
    on_mat = [a.image for a in areas if a.where == MAT_AREA and a.image is not None]
    looked = on_mat or [a.image for a in areas if a.image is not None]
    if not looked:
        print(f"companion: error: no frame from {camera!r} could be read: {areas[-1].where}",
              file=sys.stderr)
        return 1
    print(f"Read {MAT_AREA if on_mat else WHOLE_VIEW}, as the dice tray reads it"
          + ("" if on_mat else " (the mat's corner markers are not in view)"))
    tuning = tune(looked, args.count, base)
    print(tuning.message)
    if not tuning.ok:
        print("Not saved: the dice were not read steadily enough.")
        return 1
    tuning.config.save(path)
    print(f"Saved to {path}")
    return 0


def enrolled_before(path: Path, networks: DiceNetworks) -> Enrolment | None:
    """The dice enrolled at ``path``, to add to; None when there are none, when an older
    judge made them (they mean nothing to this one: said), or when the file cannot be
    read (it is set aside)."""
    from companion.hw.dice.enrol import Enrolment

    try:
        earlier = Enrolment.load(path, networks)
    except DataError as exc:
        set_aside(path, str(exc))
        return None
    if earlier is not None and earlier.judge != networks.judge_id:
        print("companion: the dice enrolled before were taught to an older dice model; the "
              "throws taken now replace them", file=sys.stderr)
        return None
    return earlier


def run_enrol(args: argparse.Namespace, camera: str, config: ReaderConfig) -> int:
    from companion.hw.dice.calibrate import enrol
    from companion.hw.dice.enrol import ENROL_FILE
    from companion.hw.dice.frames import area_of, take_frames
    from companion.hw.dice.networks import DiceNetworks
    from companion.hw.dice.readings import dice_count

    target = config_dir() / ENROL_FILE
    networks = DiceNetworks()
    enrolment = enrolled_before(target, networks)
    typed = used = dice = 0
    try:
        for number in range(1, args.throws + 1):
            still = ("when it lies still, type the value it shows (e.g. 3)" if args.count == 1
                     else "when they lie still, type the values they show (e.g. 3 5)")
            print(f"Throw {dice_count(args.count)} of your own ({number} of {args.throws}); "
                  f"{still} and Enter:")
            line = sys.stdin.readline()
            if not line:
                break  # the end of input: the throws taken are saved
            try:
                named = [int(v) for v in line.replace(",", " ").split()]
            except ValueError:
                named = []
            if len(named) != args.count or not all(1 <= v <= 6 for v in named):
                print(f"  not {args.count} {'value' if args.count == 1 else 'values'} from 1 to 6:"
                      " this throw is left out")
                continue
            typed += 1
            frames, why = take_frames(camera, 1, CAMERA_WAIT_S)
            if not frames:
                print(f"companion: error: no frames from {camera!r}: {gave_up(why)}",
                      file=sys.stderr)
                return 1
            looked = area_of(frames[-1], "auto")  # as the tray reads it
            if looked.image is None:
                print(f"  {looked.where}: this throw is left out")
                continue
            made = enrol([(looked.image, named)], config, networks, earlier=enrolment)
            if not made.throws_used:  # the only reason enrol leaves a throw out
                print(f"  not {dice_count(args.count)} found in view: this throw is left out")
                continue
            enrolment = made.enrolment
            assert enrolment is not None  # a throw was used
            enrolment.save(target)  # now, so that a stop keeps it
            used, dice = used + 1, dice + len(named)
    except KeyboardInterrupt:
        throws = "1 throw" if used == 1 else f"{used} throws"
        kept = f"the {throws} used {'is' if used == 1 else 'are'} saved in {target}" if used \
            else "nothing was saved"
        print(f"\nenrolment stopped; {kept}", file=sys.stderr)
        return 130
    if not used:
        print("No throw could be used: not saved.")
        return 1
    print(f"enrolled {dice_count(dice)} from {used} of {typed} throws")
    print(f"Saved to {target}")
    return 0
