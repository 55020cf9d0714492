"""``companion dice read IMAGE... [--json]``: read the dice in photos with the camera dice reader.

One result per image: the value of every die found (left to right, as they lie and as a
D66 takes them, the first its tens; ``null`` for a die the reader is unsure of), each
die's confidence, and the status of the whole picture (``ok``, ``unsure``, ``no dice``; an
unsure picture says how many marks may be dice and how many were read surely, as a file
cannot be re-rolled). As the dice tray does, it reads only the printed mat's dice area when
the mat's markers are in the picture (tiles and markers on the mat are no dice), else the
whole picture; ``--mat`` reads the dice area or nothing, ``--view`` the whole picture. Dice
seen beside the dice area are said so. The reader uses the thresholds ``companion
calibrate dice`` saved, if any. ``--count N`` tells it how many dice were thrown, as the
play session does: marks that may be no die at all are then left out when N dice are read
surely, and a read of another number of dice is unsure.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.app.command_list import COMMANDS
from companion.app.command_name import as_typed_here
from companion.app.paths import config_dir
from companion.errors import CompanionError
from companion.files import file_there
from companion.hw.dice.readings import (
    as_picture,
    is_outside,
    lying_order,
    shown_not_asked,
    teach_dice,
)

if TYPE_CHECKING:
    from companion.hw.dice.source import CameraDiceSource

CALIBRATION_FILE = "dice.toml"


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "dice", help=COMMANDS["dice"].help,
        description="Read real dice in photos with the camera dice reader that --dice camera "
                    "rolls with: a check of what it reads in your light, before or after "
                    "`companion calibrate dice`. Example: companion dice read throw.jpg "
                    "--count 2")
    actions = parser.add_subparsers(dest="dice_action", required=True, metavar="ACTION")
    read = actions.add_parser(
        "read", help="read the dice in one or more images",
        description="Read the dice in each picture: the faces, or why a die cannot be read, "
                    "and the thresholds and enrolled dice the reader used. --mat reads only "
                    "the printed mat's dice area, --view the whole picture. The dice are "
                    "listed left to right, as a D66 takes them (the first die is its tens). "
                    "Example: "
                    "companion dice read throw1.jpg throw2.jpg --count 3 --json")
    read.add_argument("images", nargs="+", metavar="IMAGE", help="photo(s) of dice")
    read.add_argument("--json", action="store_true", help="one JSON object per image")
    where = read.add_mutually_exclusive_group()
    where.add_argument("--mat", action="store_true",
                       help="read only the dice area of the printed mat, and nothing when "
                            "its markers are not seen")
    where.add_argument("--view", action="store_true",
                       help="read the whole picture, even with the mat in it")
    read.add_argument("--count", type=_count, metavar="N",
                      help="how many dice were thrown (as the play session knows)")
    read.set_defaults(func=run_read)


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of dice (1 or more)")
    return int(text)


def used_by(reader: CameraDiceSource, config_file: Path, notices: list[str]) -> str:
    """One line saying what the reader reads with: the thresholds (tuned in ``config_file``
    or the companion's own) and the player's enrolled dice, or why not (``notices``: an
    enrolment made for another dice model), so whether a calibration took effect is seen
    (review 56, finding 8)."""
    from companion.hw.dice.enrol import ENROL_FILE

    thresholds = (f"your tuned thresholds ({config_file})" if file_there(config_file)
                  else "the companion's own thresholds (no `companion calibrate dice` saved)")
    if reader.enrolled:
        enrolled = (f"your {reader.enrolled} enrolled dice "
                    f"({config_file.with_name(ENROL_FILE)})")
    else:
        enrolled = notices[0] if notices else "no enrolled dice"
    return f"companion: dice read with {thresholds}; {enrolled}"


def own_sizes(name: str, area: str, config_file: Path) -> str:
    """The line saying the picture ``name`` was read, in ``area``, with the companion's own
    face sizes: the ones ``config_file`` holds were measured in the other area, and say
    nothing of this one's. The check line's "your tuned thresholds" alone was untrue for
    a dice.toml that holds only those sizes (cal66 N6)."""
    from companion.hw.dice.frames import MAT_AREA, WHOLE_VIEW

    other = WHOLE_VIEW if area == MAT_AREA else MAT_AREA
    fix = ("calibrate again with the mat in view" if area == MAT_AREA
           else "read with the mat in view, as calibrated, or calibrate again without it")
    return (f"companion: {name}: read in {area} with the companion's own face sizes, not "
            f"yours: {config_file.name} measured them in {other}; {fix}")


def run_read(args: argparse.Namespace) -> int:
    # Lazy: OpenCV loads only for the commands that use it.
    from companion.app.commands.roll import error_within_80
    from companion.hw.dice.source import CameraDiceSource
    from companion.hw.pictures import PictureError, read_picture

    config_file = config_dir() / CALIBRATION_FILE
    notices: list[str] = []
    try:
        reader = CameraDiceSource(frames=[], config_file=config_file, on_status=notices.append,
                                  area="mat" if args.mat else "view" if args.view else "auto")
    except CompanionError as exc:
        # A dice.toml that cannot be read: said within 80 columns, its kind, and so its exit
        # status, kept (dicecam69 NIT 4).
        if exc.args != (str(exc),):
            raise
        exc.args = (error_within_80(str(exc)),)
        raise
    print(used_by(reader, config_file, notices), file=sys.stderr)
    failed = False
    told: set[str] = set()  # the areas said to be read with the companion's face sizes
    for name in args.images:
        try:
            frame = read_picture(Path(name))
        except PictureError as exc:
            failed = True
            result: dict[str, Any] = {"image": name, "dice": [], "confidence": [],
                                      "status": "error",
                                      "message": exc.problem}
        else:
            read = reader.read_frame(frame, args.count)
            if reader.own_sizes_in is not None and reader.own_sizes_in not in told:
                told.add(reader.own_sizes_in)
                print(own_sizes(name, reader.own_sizes_in, config_file), file=sys.stderr)
            # Left to right, as roll and the tray take them: a D66's tens first (dicecam75
            # NIT 4: the finder's order said "3 5" of dice a D66 read as 53).
            dice = lying_order(read.dice)
            message = shown_not_asked(as_picture(read)) + as_typed_here(
                teach_dice(read, args.count or len(read.dice)))
            if is_outside(message) and not args.view:
                message += "; or read the whole picture with --view"
            result = {
                "image": name,
                "dice": [d.value for d in dice],
                "confidence": [d.confidence for d in dice],
                "status": read.status.value,
                "message": message,
            }
        if args.json:
            print(json.dumps(result, ensure_ascii=False))
        else:
            shown = " ".join("?" if v is None else str(v) for v in result["dice"])
            print(f"{name}: {shown or '-'} ({result['message']})")
    return 1 if failed else 0
