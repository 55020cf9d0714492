"""``companion calibrate dice``: check the dice can be read here, and save tuned thresholds.

    companion calibrate dice                     # the dice camera, two dice
    companion calibrate dice --count 3 --source photo.jpg

Lay the dice apart, still, in view (on the mat's dice area if you use the mat).
The frames are read as the dice tray reads them: only the mat's dice area, straightened,
when the mat's corner markers are in view, else the whole view. A few frames are read
under several thresholds; the best setting and the
size of the dice go to ``dice.toml`` in the user's config folder, which the
dice reader loads from then on; with the size, where it was measured and at what picture
size, so that a picture of another size there has it scaled (reader_config.py). Nothing
is saved if the dice could not be read.

    companion calibrate dice --enrol --throws 4   # teach the reader your own dice

With ``--enrol`` the player throws their own dice ``--throws`` times: for each, Enter
once they lie still, then the camera's read is shown and the player types the values
the dice show (any order; "2 5", "2,5", "2、5", "25"; Enter keeps a read of every die;
a typo is named and asked again; an answer the reader surely disagrees with is
confirmed first, a retyped one too; ``r`` leaves the throw out, ``u`` at the next throw
undoes the last, and on a terminal a last prompt offers to undo the run's last throw).
The judge's view of each die is kept with its value in ``dice_enrol.npz`` beside
``dice.toml`` (companion/hw/dice/enrol.py), and the reader leans on it from then on.
The camera is opened once: each throw is its next settled frame (a folder's next
picture); a still picture gives one throw. Each throw is saved as it is taken, added
to the dice enrolled before, so stopping (Ctrl-C, the end of input, a full disk)
keeps the throws taken. ``--forget`` deletes it and ``dice.toml``: the reader is back to
the companion's own thresholds (a new calibration fits the face sizes afresh anyway);
``--forget enrolled`` deletes only the enrolled dice, ``--forget thresholds`` only ``dice.toml``.
It calibrates nothing: given with an option that calibrates (``--enrol``, ``--source``,
``--count``…) it is refused rather than the option dropped.

Before the dice are asked for, as a webcam or Pi camera that gives no picture is said: a
picture, folder or video that is gone; a picture that cannot be read; a video OpenCV cannot
open; a folder with no pictures, or none that can be read (read in name order up to the
first that can). Ctrl-C says that nothing was saved and what calibration is kept.

The rendered mat of ``companion calibrate camera`` (``--source render:…``) is refused at
once: it draws no dice, so it would calibrate nothing.

A ``dice.toml`` or ``dice_enrol.npz`` that cannot be read is set aside (kept beside
it) before anything is asked, and calibration starts afresh.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.app.arg_types import positive_int
from companion.app.calibrate import kept_aside, room_fix, say_set_aside, set_aside
from companion.app.command_name import as_typed_here, companion_line
from companion.app.commands.dice import CALIBRATION_FILE
from companion.app.config import load_config
from companion.app.paths import config_dir
from companion.errors import DataError, DeviceError
from companion.files import DISK_ERRNOS, cut_copies_words

if TYPE_CHECKING:
    from companion.hw.dice.calibrate import ThrowFrames
    from companion.hw.dice.enrol import Enrolment
    from companion.hw.dice.networks import DiceNetworks
    from companion.hw.dice.reader_config import ReaderConfig
    from companion.hw.dice.readings import DiceRead

FORGETTABLE = ("all", "enrolled", "thresholds")
# How long a camera without a picture gets before calibration gives up, and how long an
# enrolment waits for a live view to lie still before saying it keeps moving.
CAMERA_WAIT_S = 5.0


#: The defaults of the options that calibrate (``--forget`` takes none of them): None in
#: argparse, so that one given with ``--forget`` is told apart from one left out.
COUNT, FRAMES, THROWS = 2, 8, 4
CALIBRATING = ("enrol", "source", "count", "frames", "throws")


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    from companion.hw.dice.enrol import ENROL_FILE

    parser = subparsers.add_parser(
        "dice", help="check the dice reader in this light and view; save tuned thresholds",
        # Where it saves, in what order to run it, and where the dice go were said nowhere
        # in the help, as `calibrate camera` said them (events64 N8).
        epilog="Run `companion calibrate camera` first. Lay the dice apart in the mat's dice "
               f"area. It saves {CALIBRATION_FILE} (and {ENROL_FILE}, with --enrol) in the "
               "config folder; a read that fails saves nothing and keeps the calibration "
               "there.")
    parser.add_argument("--source",
                        help="camera:0, /dev/video0, picamera, a picture, a folder of pictures "
                             "or a video (default: dice.camera_source in `companion config`, "
                             "normally the tile camera); a folder or a video is read as frames "
                             "of one lay of the dice (with --enrol: a throw a picture, or each "
                             "throw that settles in a video)")
    parser.add_argument("--count", type=positive_int, default=None,
                        help=f"how many dice you laid out (default {COUNT})")
    parser.add_argument("--frames", type=positive_int, default=None,
                        help=f"frames to read (default {FRAMES})")
    parser.add_argument("--enrol", action="store_true",
                        help="teach the reader your own dice: throw them and type the values; "
                             "each throw is added to the dice enrolled before")
    parser.add_argument("--throws", type=positive_int, default=None,
                        help=f"throws to enrol (default {THROWS})")
    parser.add_argument("--forget", nargs="?", const="all", choices=FORGETTABLE,
                        help="delete what calibration saved: both the tuned thresholds and "
                             "the enrolled dice (back to the companion's own), or only "
                             "'enrolled' or only 'thresholds'; it calibrates nothing, so it "
                             "takes none of the other options")
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
    deleted = {path for path, _ in chosen if path.exists()}
    if not gone:
        print("Nothing to forget: no " + " and no ".join(f"{what[4:]} ({path})"
                                                        for path, what in chosen) + ".")
        return 0
    for number, (path, what) in enumerate(chosen):
        try:
            path.unlink(missing_ok=True)
        except OSError as exc:
            if exc.errno not in DISK_ERRNOS:
                raise
            # cal66 N4: the bare OS error said neither what was still there nor what was not.
            done = [f"{w} ({p}) were deleted" for p, w in chosen[:number] if p in deleted]
            forget = ("calibrate", "dice", "--forget", *([] if which == "all" else [which]))
            print(f"companion: error: cannot delete {path} ({exc.strerror or exc}): "
                  f"{what} are still there; "
                  + ("; ".join(done) + "; " if done else "nothing else was changed; ")
                  + f"{room_fix(exc, path.parent)} and run `{companion_line(*forget)}` again",
                  file=sys.stderr)
            return 1
    after = ("the dice reader reads as before any calibration until you calibrate again"
             if not kept else "; ".join(kept))
    print(f"Forgotten: {' and '.join(gone)}; {after}.")
    return 0


def refuse_with_forget(args: argparse.Namespace) -> None:
    """``--forget`` with an option that calibrates (``--enrol``, ``--source``…): refused, as
    it calibrates nothing. ``--enrol --forget enrolled`` forgot the dice and enrolled none,
    with exit 0, where the player meant to enrol afresh (events64 N3)."""
    given = [f"--{name}" for name in CALIBRATING if getattr(args, name) not in (None, False)]
    if given:
        also = " and ".join([", ".join(given[:-1]), given[-1]] if len(given) > 1 else given)
        raise DataError(f"--forget deletes what calibration saved and calibrates nothing, so "
                        f"it takes no {also}: to start afresh, run "
                        f"`{companion_line('calibrate', 'dice', '--forget', args.forget)}` "
                        f"alone, then again with {also}")


def refuse_of_the_other_kind(args: argparse.Namespace) -> None:
    """``--throws`` without ``--enrol``, or ``--frames`` with it: refused, naming the option
    that would do nothing. `calibrate dice --throws 5` tuned the thresholds, exit 0, not a
    word of the 5 throws a player who meant ``--enrol --throws 5`` then never gave
    (dicecam75 NIT 6); an enrolment reads each throw as it settles, not ``--frames``. The
    command advised keeps the ``--count`` and ``--source`` given (reviewdice75 N2: pasted
    as printed, it read the configured camera for the default count)."""
    if args.throws is not None and not args.enrol:
        given = [word for name in ("count", "source") if getattr(args, name) is not None
                 for word in (f"--{name}", str(getattr(args, name)))]
        enrol = companion_line("calibrate", "dice", "--enrol", "--throws", str(args.throws),
                               *given)
        raise DataError("--throws is how many throws --enrol enrols, and this calibration "
                        f"enrols none: add --enrol to enrol your dice (`{enrol}`), or leave "
                        "--throws out to tune the thresholds")
    if args.frames is not None and args.enrol:
        raise DataError("--frames is how many frames of one lay the thresholds are tuned on, "
                        "and --enrol reads each throw as it settles: leave --frames out, or "
                        "run without --enrol to tune the thresholds")


def refuse_frames_of_a_picture(args: argparse.Namespace, camera: str) -> None:
    """``--frames`` with a still picture: refused, as ``--frames`` with ``--enrol`` is. A
    picture is read once; it was read ``--frames`` times, "in 8 of 8 frames" suggesting a
    steadiness check that never happened, and ``--frames 300`` took a minute for nothing
    (a77dice NIT 6). A picture set in ``dice.camera_source`` names where it is set: the
    player who gave ``--frames`` alone may not know a picture stands for the camera
    (r77dice)."""
    from companion.hw.camera.choice import CameraChoice
    from companion.hw.dice.frames import is_picture

    if args.frames is not None and not args.enrol and is_picture(camera):
        set_in = (f", set in {camera.setting}," if isinstance(camera, CameraChoice)
                  and camera.setting != "--source" else "")
        raise DataError(f"--frames is how many frames of one lay the thresholds are tuned on, "
                        f"and {camera}{set_in} is one picture, read once: leave --frames out, "
                        "or give a folder of pictures or a video of the dice lying still")


def source_missing(camera: str) -> str | None:
    """Why the picture, folder or video ``camera`` names gives no frame, or None: found
    before the dice are asked for, as a webcam's and a Pi camera's are (events64 N1), and
    as ``--enrol`` found it. Gone, a picture that cannot be read, a video OpenCV cannot
    open, a folder with no pictures (the source's own checks at open); and a folder none of
    whose pictures can be read, read in name order up to the first that can (review64e
    NIT 1: its pictures were found unreadable only once the dice were laid). A video that
    opens is not read ahead: its frames are the throws."""
    from companion.hw.camera.capture import FileSource, open_source
    from companion.hw.camera.choice import CameraChoice, names_a_file

    if not names_a_file(camera):
        return None
    try:
        source = open_source(camera)  # named with the option or setting that chose it
    except DeviceError as exc:
        return str(exc)
    try:
        if not (isinstance(source, FileSource) and source.path.is_dir()):
            return None
        problems: list[str] = []  # each picture's, "b.png: not a picture that can be read"
        while (frame := source.read()) is None and not source.ended:
            problems.append(source.message.removesuffix("; skipped"))
        if frame is not None or not problems:
            return None
        setting = f"{camera.setting}: " if isinstance(camera, CameraChoice) else ""
        which = ("its one picture cannot be read" if len(problems) == 1
                 else f"none of its {len(problems)} pictures can be read")
        more = "; …" if len(problems) > 1 else ""
        return f"{setting}{source.path}: {which} ({problems[0]}{more})"
    finally:
        source.close()


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


def pi_camera_missing(spec: str) -> str | None:
    """Why the Pi camera ``spec`` names gives no picture now (Picamera2 not installed, no
    camera on the ribbon, one held by the service), or None when it gives one (it is closed
    again) or ``spec`` names no Pi camera: found before the dice are asked for, as
    :func:`~companion.hw.camera.capture.webcam_missing` finds a webcam's (install58 N3)."""
    from companion.hw.camera.capture import open_source

    if spec not in ("picamera", "picamera:"):
        return None
    try:
        camera = open_source(spec)
    except DeviceError as exc:
        return str(exc)
    try:
        return None if camera.read() is not None else camera.message
    finally:
        camera.close()


def run(args: argparse.Namespace) -> int:
    from companion.hw.camera.capture import webcam_missing
    from companion.hw.dice.enrol import ENROL_FILE

    config = load_config()
    config.tell_notices()
    camera = config.dice_camera(args.source)
    path = config_dir() / CALIBRATION_FILE
    if args.forget:
        refuse_with_forget(args)
        return forget(path, args.forget)
    refuse_of_the_other_kind(args)
    refuse_frames_of_a_picture(args, camera)
    args.count = args.count or COUNT
    args.frames = args.frames or FRAMES
    args.throws = args.throws or THROWS
    if camera.startswith("render:"):
        # The rendered mat draws tiles and never a die: "check the light" would follow, and
        # for --enrol only after each throw was typed.
        print(f"companion: error: {camera} draws the mat with tiles on it, no dice: calibrate "
              "with the dice camera, or a photo of your dice lying still", file=sys.stderr)
        return 1
    base = tuned_before(path)
    # A webcam that does not open now (or a Pi camera) is not waited for (the game waits for
    # one to be plugged in, calibration would only fail after CAMERA_WAIT_S), nor found
    # missing only after the player has laid the dice, or thrown and typed the first throw.
    missing = webcam_missing(camera) or pi_camera_missing(camera)
    if missing:
        print(f"companion: error: no frames from {camera!r}: {missing}", file=sys.stderr)
        return 1
    if args.enrol:
        return run_enrol(args, camera, base)
    if (gone := source_missing(camera)) is not None:
        print(f"companion: error: {gone}", file=sys.stderr)
        return 1
    networks, enrolled = as_the_tray_reads(path.with_name(ENROL_FILE))
    try:
        return calibrate(args, camera, path, base, networks, enrolled)
    except KeyboardInterrupt:
        # Said as `calibrate camera` and `--enrol` say it (events64 N2: exit 130, no word).
        kept = (f"the tuned thresholds in {path} are kept as they were" if path.exists()
                else "the dice reader keeps the companion's own thresholds")
        print(f"\ncalibration stopped: nothing was saved; {kept}", file=sys.stderr)
        return 130


def as_the_tray_reads(enrolled: Path) -> tuple[DiceNetworks, str]:
    """The finder and judge as the dice tray reads with them: leaning on the player's dice
    enrolled at ``enrolled`` (source.lean_on_enrolled), and the words that say so, for the
    line naming what is read (", with your 3 dice enrolled"; "" for none). Read without
    them, odd dice the tray reads were refused, and a setting scored on reads the tray never
    makes (dicecam73 DEFECT 1). One taught to another dice model, or that a judge giving no
    embedding cannot lean on, is left out and said, and the file kept (the fault is not the
    file's: reviewb73 RISK 2). One that cannot be read is set aside, as ``--enrol`` sets it
    aside and hardware/camera.md says (dicecam73 NIT 6): while it lies there every roll of
    the tray and ``roll`` is refused, so a calibration saved past it in silence changed
    nothing the player could roll with. A whole copy a cut write left beside it is named
    with the command that puts it back (:func:`set_enrolment_aside`)."""
    from companion.hw.dice.enrol import Enrolment
    from companion.hw.dice.networks import DiceNetworks
    from companion.hw.dice.readings import dice_count
    from companion.hw.dice.source import WITHOUT_ENROLLED, use_enrolled

    networks = DiceNetworks()
    try:
        # copies=False: set_enrolment_aside keeps and names the copies cut writes left
        enrolment = Enrolment.load(enrolled, networks, copies=False)
    except DataError as exc:
        put_back = set_enrolment_aside(enrolled, str(exc), networks)
        until = (f"until a whole copy is put back ({enrolled.name} is aside already, so only "
                 f"the copy is moved; then calibrate again, to read with it){put_back}"
                 if put_back else
                 f"until `{companion_line('calibrate', 'dice', '--enrol')}` enrols yours again")
        print(f"companion: the dice are read without enrolled dice 登録ダイスなし, here and in "
              f"the dice tray, {until}", file=sys.stderr)
        return networks, ""
    try:
        number, notice = use_enrolled(networks, enrolment)
    except DataError as exc:  # the judge's, not the file's: it is kept
        number, notice = 0, f"{WITHOUT_ENROLLED}: {exc}; {enrolled.name} is kept"
    if notice:
        print(f"companion: {notice}", file=sys.stderr)
    return networks, f", with your {dice_count(number)} enrolled" if number else ""


def set_enrolment_aside(path: Path, problem: str, networks: DiceNetworks) -> str:
    """Set the enrolment at ``path`` that cannot be read (``problem``) aside, and return the
    words naming each copy a cut write of it left, kept now or by an earlier load (a
    ``roll``'s), and the command putting back one that reads whole ("" when none does):
    reviewb73 DEFECT 1, the player with a whole copy was sent to throw every die again, and
    the put-back ``roll`` had said, which moves ``path`` aside first, no longer ran."""
    from companion.hw.dice.enrol import ENROL_FILE, Enrolment

    kept = kept_aside(path)
    whole: list[Path] = []

    def reads(copy: Path) -> None:
        Enrolment.load(copy, networks, copies=False)
        whole.append(copy)

    # path is aside: nothing to move first; and no other way was offered before the copy,
    # so it is not "put it back instead" (finalb73 NIT 7)
    try:
        written_at: float | None = kept.path.stat().st_mtime  # a rename keeps it
    except OSError:
        written_at = None
    words = cut_copies_words(path, ENROL_FILE, reads, put_back="put it back with",
                             written_at=written_at)
    # The words returned name each copy: the set-aside line then names none (reviewa74 N3:
    # each was named twice, in it and in the put-back after it).
    say_set_aside(path, problem, kept, copies=not whole)
    return words if whole else ""


def calibrate(args: argparse.Namespace, camera: str, path: Path, base: ReaderConfig,
              networks: DiceNetworks | None = None, enrolled: str = "") -> int:
    """Lay the dice, read them under several thresholds, and save the best to ``path``;
    with ``networks`` as the tray reads with them (``enrolled``: the words saying which
    enrolled dice they lean on: :func:`as_the_tray_reads`)."""
    from companion.hw.camera.choice import names_a_file
    from companion.hw.dice.calibrate import tune
    from companion.hw.dice.frames import MAT_AREA, WHOLE_VIEW, area_of, is_picture, take_frames
    from companion.hw.dice.readings import dice_count

    lay_dice(args.count)
    wanted = 1 if is_picture(camera) else args.frames  # a picture is read once
    frames, why = take_frames(camera, wanted, CAMERA_WAIT_S)
    if not frames:
        print(f"companion: error: no frames from {camera!r}: {gave_up(why)}", file=sys.stderr)
        return 1
    if len(frames) < wanted and not names_a_file(camera):
        # A camera that stopped (a loose cable) was calibrated on the frames it gave, saved,
        # and its stopping never said (a77dice RISK 3).
        print(f"Not saved: the camera gave only {len(frames)} of {args.frames} frames: "
              f"{gave_up(why)}; check the cable and run it again")
        return 1
    if len(frames) < wanted:
        kind = "folder" if Path(camera).is_dir() else "video"
        print(f"Read {plural(len(frames), 'frame')} of the {args.frames} asked for: the "
              f"{kind} holds no more")
    areas = [area_of(frame, "auto") for frame in frames]
    # The tray reads the mat's dice area whenever it sees the mat: the sizes are measured there.
    on_mat = [a.image for a in areas if a.where == MAT_AREA and a.image is not None]
    looked = on_mat or [a.image for a in areas if a.image is not None]
    if not looked:
        print(f"companion: error: no frame from {camera!r} could be read: {areas[-1].where}",
              file=sys.stderr)
        return 1
    print(f"Read {MAT_AREA if on_mat else WHOLE_VIEW}, as the dice tray reads it{enrolled}"
          + ("" if on_mat else " (the mat's corner markers are not in view)"))
    tuning = tune(looked, args.count, base, MAT_AREA if on_mat else WHOLE_VIEW, networks,
                  picture=is_picture(camera))
    outside = ""
    if tuning.none_found and on_mat:
        # Dice in view but off the dice area are no "check that the dice are in view"
        # (dicecam75 DEFECT 3): the whole frame is read once, as `dice read --view` does.
        from companion.hw.dice.reader import DiceReader
        from companion.hw.dice.source import outside_said

        whole = next(frame for frame, area in zip(frames, areas, strict=True)
                     if area.where == MAT_AREA)
        outside = outside_said(whole, DiceReader(base, networks), base, args.count)
    if outside:
        print(f"Not saved: could not read {dice_count(args.count)} in {MAT_AREA}: "
              f"{outside}.")
        return 1
    print(as_typed_here(tuning.message))
    if tuning.miscounted:
        print(f"Not saved: {tuning.miscounted}")
        return 1
    if not tuning.ok and tuning.frames_whole > tuning.frames_read:
        # dicecam71 NIT 7: a folder of different throws (an enrolment's) was said read "in
        # only 1 of 4 frames", though 3 were: it is read as frames of one lay.
        print(f"Not saved: the dice read the same values in only {tuning.frames_read} of "
              f"{tuning.frames_seen} frames (8 in 10 needed): they moved, or the frames are of "
              "different throws (a folder or a video is read as frames of one lay of the dice: "
              "give pictures of one lay).")
        return 1
    if not tuning.ok:
        print("Not saved: " + (f"every die was read in only {tuning.frames_read} of "
                               f"{tuning.frames_seen} frames (8 in 10 needed)."
                               if tuning.frames_read else "no frame read them."))
        return 1
    try:
        tuning.config.save(path)
    except OSError as exc:
        kept = (f"the thresholds tuned before are kept in {path}" if path.exists()
                else "the dice reader keeps the companion's own thresholds")
        not_saved("what was just measured", path, exc, kept,
                  f"`{companion_line('calibrate', 'dice')}`")
        return 1
    print(f"Saved to {path}")
    if tuning.note:  # reviewd69 RISK B: more marks at the companion's own threshold
        print(f"Note: {tuning.note}.")
    return 0


def enrolled_before(path: Path, networks: DiceNetworks) -> Enrolment | None:
    """The dice enrolled at ``path``, to add to; None when there are none, when an older
    judge made them (they mean nothing to this one: said), or when the file cannot be
    read (it is set aside, and a whole copy a cut write left is named with how to put it
    back before any throw is saved over it: reviewb73 DEFECT 1)."""
    from companion.hw.dice.enrol import Enrolment

    try:
        # copies=False: set_enrolment_aside keeps the copies its cut writes left and names
        # them, which it cannot once Enrolment.load has kept them (dicecam73 NIT 4)
        earlier = Enrolment.load(path, networks, copies=False)
    except DataError as exc:
        put_back = set_enrolment_aside(path, str(exc), networks)
        if put_back:
            print("companion: the throws taken now are enrolled without the dice enrolled "
                  "before; to add them to those, stop now (Ctrl-C) and put a whole copy back "
                  f"first{put_back}", file=sys.stderr)
        return None
    if earlier is not None and earlier.judge != networks.judge_id:
        print("companion: the dice enrolled before were taught to an older dice model; the "
              "throws taken now replace them", file=sys.stderr)
        return None
    return earlier


UNDO = "u"
AGAIN = "r"
KEEP_ANYWAY = "y"
SETTLE_FRAMES = 3  # a live camera's frames with nothing moving before a throw is taken


@dataclass
class EnrolRun:
    """The throws of one ``--enrol`` run, saved one by one to ``target`` on top of the
    dice enrolled ``before``; each keeps the enrolment as it was before it, for undo."""

    target: Path
    before: Enrolment | None
    now: Enrolment | None = None
    # (the enrolment before it, the values typed, a folder's picture read for it, or "")
    throws: list[tuple[Enrolment | None, list[int], str]] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    undone: int = 0  # throws of this run taken back

    def __post_init__(self) -> None:
        self.now = self.before

    def dice(self, enrolment: Enrolment | None) -> int:
        return 0 if enrolment is None else enrolment.dice()

    def kept(self) -> str:
        """What stays saved, in words, when this run stops short."""
        from companion.hw.dice.readings import dice_count

        before = self.dice(self.before)
        if self.throws and self.before is not None:
            # "the die" for one (fixdice71b: "the 1 dice enrolled before" read so)
            return (f"the {plural(len(self.throws), 'throw')} taken now and the "
                    f"{'die' if before == 1 else 'dice'} enrolled before "
                    f"({self.dice(self.now)} in all) are kept in {self.target}")
        if self.throws:  # no dice enrolled before to speak of (dicecam71 NIT 5)
            return (f"the {plural(len(self.throws), 'throw')} taken now "
                    f"({dice_count(self.dice(self.now))} in all) "
                    f"{'is' if len(self.throws) == 1 else 'are'} kept in {self.target}")
        if self.before is not None:
            return (f"the {dice_count(before)} enrolled before {'is' if before == 1 else 'are'} "
                    f"kept in {self.target}")
        return "nothing is enrolled"

    def save(self, enrolment: Enrolment | None) -> None:
        """Write ``enrolment`` to ``target`` (none: no file), raising OSError as the disk does."""
        if enrolment is None:
            self.target.unlink(missing_ok=True)
        else:
            enrolment.save(self.target)
        self.now = enrolment

    def add(self, enrolment: Enrolment, values: list[int], picture: str = "") -> None:
        earlier = self.now
        self.save(enrolment)
        self.throws.append((earlier, values, picture))

    def undo(self) -> str:
        """Take back the last throw of this run, in words."""
        if not self.throws and self.before is None:
            # none enrolled before to speak of (dicecam73 NIT 3, as kept(): dicecam71 NIT 5)
            return "no throw of this run to undo"
        if not self.throws:
            forget = companion_line("calibrate", "dice", "--forget", "enrolled")
            return (f"no throw of this run to undo (the dice enrolled before stay; `{forget}` "
                    "removes them)")
        earlier, values, picture = self.throws[-1]
        self.save(earlier)
        self.throws.pop()
        self.undone += 1
        # A folder's picture is read once a run: which one to give again is said (a77dice
        # DEFECT 2: the next throw read the next picture, and the undone one was not named).
        again = f" (to enrol {picture} again, give it as --source in another run)" \
            if picture else ""
        return (f"undone: throw {len(self.throws) + 1} ({' '.join(map(str, values))}) is no "
                f"longer enrolled{again}")


def plural(count: int, what: str) -> str:
    return f"{count} {what}{'' if count == 1 else 's'}"


def ask(prompt: str) -> str | None:
    """The player's answer to ``prompt``, stripped; None at the end of input."""
    print(prompt, flush=True)
    line = sys.stdin.readline()
    return line.strip() if line else None


def values_for(read: DiceRead, count: int) -> list[int] | None:
    """The values the player gives for the throw the camera ``read``: typed, or the read
    kept with Enter when every die was read; a typed answer the reader surely disagrees
    with is confirmed before it is kept (review 56, finding 1). A typo is named and asked
    again (finding 2). None: this throw is left out (``r``). EOFError: the input ended, which
    ends the run as at the throw's prompt, not a throw "left out by you" (calib62 N2)."""
    from companion.hw.dice.calibrate import disagreeing, shown, typed_values

    whole = all(d.value is not None for d in read.dice)
    keep = f"Enter: keep {shown(read)} as read; " if whole else ""
    prompt = f"  type the values they show ({keep}{AGAIN}: leave this throw out):"
    retyped: str | None = None  # values typed at the confirmation, checked as any others
    while True:
        line = ask(prompt) if retyped is None else retyped
        retyped = None
        if line is None:
            raise EOFError
        if line.lower() == AGAIN:
            return None
        if not line and whole:
            return read.values
        values, why = typed_values(line, count)
        if not values:
            print(f"  {why}: type the {plural(count, 'value')} again")
            continue
        if not disagreeing(read, values):
            return values
        answer = ask(f"  you typed {' '.join(map(str, values))}, but the camera read "
                     f"{shown(read)}, surely: {KEEP_ANYWAY} to keep what you typed, or type "
                     "the values again:")
        if answer is None:
            raise EOFError
        if answer.lower() == KEEP_ANYWAY:
            return values
        # Every answer the reader surely disagrees with is confirmed, a retyped one too
        # (review 56b, finding 1: "1 3" after "1 1" for dice read 2 5 was saved unasked).
        prompt = f"  type the values they show ({AGAIN}: leave this throw out):"
        retyped = answer


def take_back(run: EnrolRun) -> None:
    """Undo the last throw of ``run``, saying so; a disk that refuses the write leaves the
    throw enrolled, and that is said, with how to try again (review 56b, finding 3)."""
    try:
        print(f"  {run.undo()}")
    except OSError as exc:
        _, values, _ = run.throws[-1]
        print(f"companion: error: cannot save {run.target} ({exc.strerror or exc}): throw "
              f"{len(run.throws)} ({' '.join(map(str, values))}) is still enrolled, as the "
              f"file could not be written without it; {room_fix(exc, run.target.parent)} "
              f"and type {UNDO} again", file=sys.stderr)


def last_chance_to_undo(run: EnrolRun) -> None:
    """On a terminal, once the throws are taken, offer to undo the last of them: ``u`` at
    the next throw's prompt cannot reach it (review 56b, finding 2). Piped input is not
    waited on (it ends with the throws it gives). Anything else typed is said and asked
    again, as at the throw's prompt (r77dice: it finished)."""
    while run.throws and sys.stdin.isatty():
        answer = ask(f"{UNDO}: undo throw {len(run.throws)} "
                     f"({' '.join(map(str, run.throws[-1][1]))}); Enter: finish")
        if not answer:
            return
        if answer.lower() != UNDO:
            print(f"  {answer!r} is no answer here: press Enter to finish, or {UNDO} to undo "
                  f"throw {len(run.throws)}")
            continue
        take_back(run)


def not_saved(what: str, path: Path, exc: OSError, kept: str, again: str) -> None:
    """Say that ``what`` could not be written to ``path`` and what is kept (finding 9)."""
    print(f"companion: error: cannot save {path} ({exc.strerror or exc}): {what} was not "
          f"saved; {kept}; {room_fix(exc, path.parent)} and run {again} again", file=sys.stderr)


def throw_asked(frames: ThrowFrames, camera: str, dice: str, number: int, throws: int) -> str:
    """The question before throw ``number`` of ``throws``: a camera's asks for ``dice`` to be
    thrown; a folder's names the picture it reads next, and a video's the video, since
    nothing is thrown (a77dice DEFECT 2: "when they lie still, press Enter", and the
    picture whose values were typed was never named)."""
    if frames.folder and not frames.upcoming:
        # Every picture read: Enter reads none (r77dice: it asked to "read the next
        # picture" of a folder that held no more).
        return (f"Throw {number} of {throws} ({dice}): {Path(camera).name} holds no more "
                "pictures: press Enter to finish")
    if frames.folder:
        return (f"Throw {number} of {throws} ({dice}): press Enter to read the next "
                f"picture, {frames.upcoming}")
    if frames.named:
        return (f"Throw {number} of {throws} ({dice}): press Enter to read the next throw "
                f"in {Path(camera).name}")
    return f"Throw {dice} of your own ({number} of {throws}); when they lie still, press Enter"


def run_enrol(args: argparse.Namespace, camera: str, config: ReaderConfig) -> int:
    from companion.hw.dice.calibrate import ThrowFrames, enrol, shown
    from companion.hw.dice.enrol import ENROL_FILE
    from companion.hw.dice.frames import MAT_AREA, area_of
    from companion.hw.dice.networks import DiceNetworks
    from companion.hw.dice.reader import DiceReader
    from companion.hw.dice.readings import NO_DICE_SEEN, dice_count
    from companion.hw.dice.source import no_dice_said, outside_said

    networks = DiceNetworks()
    target = config_dir() / ENROL_FILE
    run = EnrolRun(target, enrolled_before(target, networks))
    networks.enrol(None)  # the judge's own read is shown, as it pairs the values
    reader = DiceReader(config, networks)
    frames = ThrowFrames(camera, SETTLE_FRAMES, CAMERA_WAIT_S)

    def of_it(said: str) -> str:
        """``said`` of the throw just read, naming its picture or frame when it has one."""
        return f"{frames.name}: {said}" if frames.name else said

    input_ended = False
    try:
        while len(run.throws) < args.throws:
            number = len(run.throws) + 1
            undo = f"; {UNDO}: undo throw {number - 1}" if run.throws else ""
            line = ask(f"{throw_asked(frames, camera, dice_count(args.count), number, args.throws)}"
                       f"{undo}:")
            if line is None:
                input_ended = True
                break  # the end of input: the throws taken are saved
            if line.lower() == UNDO:
                take_back(run)
                continue
            if line:
                # Only Enter and u answer here: values typed early ("3 4" piped ahead) were
                # taken for Enter, and every later answer went to the prompt after its own
                # (a77dice DEFECT 2, r77dice).
                keys = f", or {UNDO} to undo throw {number - 1}" if run.throws else ""
                print(f"  {line!r} is no answer here: press Enter{keys}; the values are "
                      "typed once the camera has read the throw")
                continue
            frame = frames.next()
            if isinstance(frame, str):
                print(f"  {frame}")
                if frames.ended:
                    break
                if frames.skipped:  # a folder's picture that cannot be read
                    run.left_out.append(frame.removesuffix("; skipped"))
                continue
            looked = area_of(frame, "auto")  # as the tray reads it
            if looked.image is None:
                run.left_out.append(of_it(looked.where))
                print(f"  {of_it(looked.where)}: throw again")
                continue
            # The face sizes calibrated at another size of this area, scaled to this one's.
            sized = config.for_frame(looked.image.shape, looked.where == MAT_AREA)
            reader.config = sized
            # Given the count, as the tray reads a throw (dicecam71 DEFECT 2: a laptop's corner
            # beside the die was "2 dice found in view" here, and the throw left out, where
            # the tray leaves the mark out and reads the throw); enrol() reads it so too.
            read = reader.read(looked.image, args.count)
            if not read.dice and (dark := no_dice_said(looked)) != NO_DICE_SEEN:
                # the cause is known: the light, not the throw (review 56b, finding 5)
                run.left_out.append(of_it("the dice area too dark"))
                print(f"  {of_it(dark)}; then press Enter again")
                continue
            if not read.dice and looked.where == MAT_AREA \
                    and (outside := outside_said(frame, reader, config, args.count)):
                # in view, beside the dice area: not "no dice found in view" (dicecam75
                # DEFECT 3)
                run.left_out.append(of_it("the dice outside the dice area"))
                print(f"  {of_it(outside)}; then press Enter again")
                continue
            if len(read.dice) != args.count:
                why = (f"{len(read.dice) or 'no'} {'die' if len(read.dice) == 1 else 'dice'} "
                       f"found in view, --count says {args.count}")
                run.left_out.append(of_it(why))
                print(f"  {of_it(why)}: lay them apart in view and throw again")
                continue
            print(f"  {of_it(f'the camera read {shown(read)}')}")
            try:
                values = values_for(read, args.count)
            except EOFError:
                input_ended = True
                break  # as at the throw's prompt: the throws taken are saved
            if values is None:
                run.left_out.append(of_it("left out by you"))
                print(f"  {of_it('throw left out')}")  # the next prompt alone did not (N3)
                continue
            made = enrol([(looked.image, values)], sized, networks, earlier=run.now)
            # the same read of the same picture (given the count) found as many dice as named
            assert made.enrolment is not None
            try:
                # now, so that a stop keeps it
                run.add(made.enrolment, values, frames.name if frames.folder else "")
            except OSError as exc:
                not_saved(f"this throw ({' '.join(map(str, values))})", target, exc,
                          run.kept(), f"`{companion_line('calibrate', 'dice', '--enrol')}`")
                return 1
        if not input_ended:
            last_chance_to_undo(run)
    except KeyboardInterrupt:
        print(f"\nenrolment stopped; {run.kept()}", file=sys.stderr)
        return 130
    finally:
        frames.close()
    left = (f"; {plural(len(run.left_out), 'throw')} left out ({'; '.join(run.left_out)})"
            if run.left_out else "")
    if not run.throws:
        none = "No throw kept" if run.undone else "No throw could be used"
        print(f"{none}{left}: nothing new saved; {run.kept()}.")
        return 1
    dice = sum(len(values) for _, values, _ in run.throws)
    print(f"enrolled {dice_count(dice)} from {plural(len(run.throws), 'throw')}{left}; "
          f"{dice_count(run.dice(run.now))} enrolled in all")
    print(f"Saved to {target}")
    return 0
