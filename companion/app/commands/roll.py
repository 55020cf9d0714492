"""``companion roll EXPR``: roll BCDice-style dice commands with simulated, typed or camera dice.

Also holds the ``--dice``/``--seed``/``--source`` options and the source they choose,
shared with ``companion events``.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.app.arg_types import seeds_below
from companion.app.command_list import COMMANDS
from companion.app.command_name import as_typed_here, companion_line
from companion.app.config import load_config
from companion.app.help_format import wrap_kept
from companion.app.paths import config_dir
from companion.app.session.save import SEED_LIMIT
from companion.dice import DiceSource, ManualDice, Result, SimulatedDice, roll
from companion.dice.notation import (
    ERROR_PREFIX,
    LINE_WIDTH,
    Command,
    DiceSyntaxError,
    RepeatCommand,
    display_width,
    parse,
)
from companion.dice.roll import dice_parts, reads_d66_as_thrown
from companion.dice.sources import DiceInputEnded, ReadsD66
from companion.errors import CompanionError, DeviceError, InvalidNotation

if TYPE_CHECKING:  # imported when a camera is asked for: it pulls in OpenCV
    from companion.hw.dice.source import CameraDiceSource

#: Where a command's dice come from (``--dice``): typed ones are ``typed``, as in ``--d100``.
DICE_CHOICES = ("sim", "typed", "camera")


def typed_alias(text: str) -> str:
    """A dice source as given to ``--dice`` or ``--d100``: ``manual``, the word of earlier
    versions for typed dice, is ``typed``, so a script written then still runs."""
    return "typed" if text == "manual" else text


def add_dice_arguments(parser: argparse.ArgumentParser, note: str = "") -> None:
    """--dice, --seed and --source; ``note`` ends --dice's help (a verb that rolls nothing
    says so)."""
    parser.add_argument(
        "--dice", type=typed_alias, choices=DICE_CHOICES, default="sim",
        help="where the dice come from: sim (simulated, the default), typed (thrown by "
             f"you and typed in), or camera{note}",
    )
    parser.add_argument(
        "--seed", type=seeds_below(SEED_LIMIT), default=None,
        help="seed for simulated dice, to repeat a roll (default: a fresh one, printed in --json)",
    )
    parser.add_argument(
        "--source",
        help="camera for --dice camera: camera:0, /dev/video0, picamera, a picture (one "
             "throw), a folder of pictures (read as a camera's frames in name order, like a "
             "video: a throw is read once its dice lie still in several in a row) or a video "
             "(default: dice.camera_source in `companion config`, normally the tile camera)",
    )


def take_negative_expressions(parser: argparse.ArgumentParser) -> None:
    """Let an expression start with a minus (``roll -1D6``, ``roll -(2D6)``, ``roll -D6``:
    BCDice's ``MINUS unary`` before ``D term``), full width too (``-（2D6）``, ``-Ｄ６``).

    argparse takes any word starting with '-' for an option unless it looks like a negative
    number; widening what looks like one is the only way short of asking players for ``--``.
    The options stay options: none is a minus and a digit, bracket or D (``-h``, ``--json``,
    ``--dice``, ``--d100``, ``--seed`` begin otherwise), and an option added after this
    call that did would make argparse read every such word as an option again.
    """
    parser._negative_number_matcher = re.compile(r"^-[\d(（DdＤｄ]")


def ask_on_terminal(prompt: str) -> str:
    """Prompt on stderr so stdout stays clean for ``--json``; EOF ends the input. A prompt
    wider than the terminal (a typo's reason before it, a long purpose) goes on within 80
    columns (dice62 N1)."""
    print(within_80(prompt), end="", file=sys.stderr, flush=True)
    line = sys.stdin.readline()
    if not line:
        print(file=sys.stderr)  # what is said of it starts a line of its own
        raise EOFError
    return line


def within_80(text: str, lead: str = "") -> str:
    """``text``, said after ``lead`` (``companion: error: ``, or nothing), in lines of
    :data:`~companion.dice.notation.LINE_WIDTH` cells with ``lead`` counted, as a dice
    syntax error is: each line that is wider goes on two cells further in, broken between
    words (a path kept whole), and a trailing space stays for what is typed after it. A
    message of the camera's or the typed dice', built of parts each right alone, ran to
    135 columns (dice62 N1)."""
    lines = [wrapped for at, line in enumerate(text.rstrip(" ").split("\n"))
             for wrapped in wrap_kept((lead if at == 0 else "") + line, LINE_WIDTH)]
    # The lead is the caller's to print; a first word too wide for its line is below it.
    lines[0] = lines[0].removeprefix(lead) if lines[0].startswith(lead) else ""
    return "\n".join(lines) + " " * (len(text) - len(text.rstrip(" ")))


def error_within_80(message: str) -> str:
    """An error's message in lines that fit with ``companion: error: `` before it."""
    return within_80(message, ERROR_PREFIX)


class CameraUnavailable(Exception):
    """The camera dice reader could not be loaded."""


#: Said after why ``--dice camera`` cannot read: a player with no camera (a laptop) can
#: still play, throwing real dice and typing them.
TYPED_INSTEAD = "no camera? throw your own dice and type them in with --dice typed"
#: Said after a folder of pictures or a video given as the camera ran out (dicecam69 NIT 3).
OR_TYPED = "or throw your own dice and type them in with --dice typed"


#: Said before a die the camera cannot read is typed on the terminal (events64 D2).
NOT_A_D6 = "the camera reads D6 only 6面ダイスのみ: throw"


#: How the end of typed input says the dice before it are lost (ManualDice's words), and
#: how it says it when they were thrown under the camera.
TYPED_DROPPED = "any dice typed before it are dropped; run the command again"
THROWN_DROPPED = ("the dice thrown under the camera before it are not kept; run the command "
                  "again to throw afresh")


class CameraThrows:
    """The camera's dice on the command line (``--dice camera``), a DiceSource.

    A throw the caller says the purpose of is said before the camera waits for it, with
    how many dice (``Throw 1D6 1D6を振って: how many monsters 何体 (1D6)``): between the
    throws of a walk the player saw only the camera's "throw taken: pick the dice up…"
    (events64 R1). ``roll``'s own throws, the dice the player typed, are not said again;
    nor is a still picture told to be thrown: it is read as it lies.

    A die the camera cannot read (EV-POI-9's D4 for the ability, a 1Dn for a member or a
    pick from the player's list) is asked on the terminal as ``--dice typed`` asks it,
    after a line saying why. It stopped the command with exit 2 after the walk's earlier
    throws were taken, and the walk, and the poison it gave, were lost (events64 D2). A
    command that can refuse such dice before the first throw still does (``roll``'s
    :func:`camera_refusal`)."""

    def __init__(self, camera: CameraDiceSource, say: Callable[[str], None],
                 typed: DiceSource) -> None:
        self.camera = camera
        self.say = say
        self.typed = typed
        # The rolls typed on the terminal, for --json (review64e NIT 3: "dice_source":
        # "camera" said nothing of them): {"dice": "1D4", "purpose": …, "values": [3]}.
        self.typed_rolls: list[dict[str, Any]] = []

    @property
    def still(self) -> bool:
        """Whether the camera is a still picture (one throw, read as it lies)."""
        return self.camera.still

    def types(self, sides: int) -> bool:
        """Whether a die of ``sides`` is typed on the terminal (:func:`say_stopped`)."""
        return sides != 6

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        return self._thrown(count, sides, purpose, f"{count}D{sides}")

    def roll_d66(self, *, purpose: str = "") -> list[int]:
        """A D66's two D6 thrown under the camera, asked and refused as the D66 it is
        (dicecam71 NIT 8: ``x2 D66`` on a picture said "the next roll (2D6)")."""
        return self._thrown(2, 6, purpose, "D66")

    def _thrown(self, count: int, sides: int, purpose: str, dice: str) -> list[int]:
        if sides != 6:
            self.say(f"{NOT_A_D6} the {dice} yourself and type it")
            try:
                values = self.typed.roll(count, sides, purpose=purpose)
            except DiceInputEnded as exc:
                # The dice before it were thrown under the camera, not typed (review64e
                # RISK 2): said so, its kind and so its exit status kept.
                raise DiceInputEnded(str(exc).replace(TYPED_DROPPED, THROWN_DROPPED)) from exc
            self.typed_rolls.append({"dice": dice, "purpose": purpose, "values": values})
            return values
        if purpose and not self.still:
            self.camera.open()  # one not plugged in is said first, with no throw asked
            self.say(f"Throw {dice} {dice}を振って: {purpose}")
        self.camera.asked = dice
        return self.camera.roll(count, sides, purpose=purpose)


def dice_source(args: argparse.Namespace) -> DiceSource:
    """Build the dice source the options ask for; fills ``args.seed`` for simulated dice.
    Camera dice are :class:`CameraThrows`: each throw said, a die not a D6 typed."""
    if args.dice == "typed":
        return ManualDice(ask_on_terminal)
    if args.dice == "camera":
        try:
            # Lazy: the camera reader pulls in OpenCV and camera backends.
            from companion.hw.dice.source import CameraDiceSource
        except ImportError as exc:
            raise CameraUnavailable(f"the camera dice reader is not available ({exc})") from exc
        # The thresholds `companion calibrate dice` tuned live in dice.toml.
        config = load_config()
        config.tell_notices()
        camera = CameraDiceSource(
            source=config.dice_camera(args.source),
            config_file=config_dir() / "dice.toml",
            on_status=lambda message: print(within_80(message), file=sys.stderr),
        )
        if camera.still:
            # A picture is read the same every time: what its read says is said once, by
            # the roll or by the error that ends it (it was said twice, the line above).
            camera.on_status = None
            camera.one_throw = one_throw(args, camera.given_as())
            camera.several = several_throws(args)
        throws = CameraThrows(camera, lambda message: print(within_80(message), file=sys.stderr),
                              ManualDice(ask_on_terminal))
        args.typed_rolls = throws.typed_rolls  # said in --json (print_json)
        return throws
    if args.seed is None:
        args.seed = secrets.randbits(32)
    return SimulatedDice.seeded(args.seed)


def one_throw(args: argparse.Namespace, given_as: str) -> str:
    """What a still picture's refusal of a second throw advises, naming the command that was
    run (``args``': its name, sub-command, verb and table) as it can be typed here, before
    the message is wrapped: ``companion events monster`` was pointed to `companion roll
    2D6` (fixcarry70 item 2). A walk or a fight is pointed where a roll of several throws
    cannot be: a folder of each throw's frames, given as ``given_as`` (``--source``)."""
    if args.command == "roll":
        several = several_throws(args)
        if several:  # the roll typed, and the command of each throw (dicecam75 NIT 5)
            return several
        return (f"A picture serves one throw (`{companion_line('roll', '2D6')}`, not "
                "'2D6+2D6' or 'x2 2D6'); throw the dice under a camera for more")
    words = [word for word in (args.command, getattr(args, "sub", None),
                               getattr(args, "verb", None), getattr(args, "table", None))
             if isinstance(word, str)]
    return (f"A picture serves one throw, and `{companion_line(*words)}` asked for another: "
            f"throw the dice under a camera, or give as {given_as} a folder holding the "
            "frames of each throw in turn, the dice seen moving between them")


#: A term of several D66s, as :func:`dice_parts` writes it ("2D66").
_D66S = re.compile(r"(\d+)D66")


def several_throws(args: argparse.Namespace) -> str:
    """Why a still picture cannot serve the roll command ``args`` runs, when it is several
    throws ("`2D6+1D6` is 2 throws (2D6, then 1D6), and a picture holds one: …"), said
    with the refusal of its first throw (:attr:`CameraDiceSource.several`); "" for one
    throw, or another command. dicecam73 NIT 5: three dice laid for ``2D6+1D6`` were refused
    as a tilted die, or as too many dice, and neither said that a picture holds one throw."""
    if args.command != "roll":
        return ""
    command = _parsed(" ".join(args.expression))
    parts = []
    for written, _ in dice_parts(command):
        # N D66s are N throws, each read as one D66 (dicecam75 NIT 5: `2D66` was counted
        # one, and its second throw's refusal pointed to `companion roll 2D6`)
        d66s = _D66S.fullmatch(written)
        parts += ["D66"] * int(d66s.group(1)) if d66s else [written]
    parts *= command.times if isinstance(command, RepeatCommand) else 1
    if len(parts) < 2:
        return ""
    listed = ", then ".join(parts[:3]) + (", …" if len(parts) > 3 else "")
    return (f"`{command.formula}` is {len(parts)} throws ({listed}), and a picture holds one: "
            f"give each throw its own picture (`{companion_line('roll', parts[0])}`), or "
            "throw the dice under a camera")


def run_with_source(
    args: argparse.Namespace, body: Any,
    make: Callable[[argparse.Namespace], DiceSource] = dice_source, lists_taken: bool = True,
) -> int:
    """Call ``body(source)`` with the dice ``make`` builds from the options (a system may
    build its own, as coc's percentile dice beside camera D6s), and turn a missing camera
    reader into a clear exit 1. A camera that cannot read (Picamera2 missing, unplugged)
    is said with how to play without one (:data:`TYPED_INSTEAD`). What the dice source
    says when it stops (the camera's why, typed input ended) is said within 80 columns.
    A ``--d100`` with no camera (:func:`refuse_idle_d100`), a ``--seed`` no simulated
    die takes (:func:`refuse_idle_seed`), and a ``--source`` no camera reads
    (:func:`refuse_idle_source`), are refused first.

    Ctrl-C at a die, or typed input that ends, says the rolls taken so far
    (:func:`say_stopped`, :func:`taken_lines`); ``lists_taken`` False: the body says them
    its own way (``events``' walk)."""
    refuse_idle_d100(args)
    refuse_idle_seed(args)
    refuse_idle_source(args)
    try:
        source = make(args)
    except CameraUnavailable as exc:
        print(f"{ERROR_PREFIX}{error_within_80(f'{exc}; {TYPED_INSTEAD}')}", file=sys.stderr)
        return 1
    except CompanionError as exc:
        # A dice.toml that cannot be read, raised as the camera's dice are made: said within
        # 80 columns too, its kind, and so its exit status, kept (dicecam69 NIT 4).
        if exc.args != (str(exc),):
            raise
        exc.args = (error_within_80(str(exc)),)
        raise
    taken = TakenDice(source)
    try:
        code: int = body(taken)
    except KeyboardInterrupt as exc:
        if exc is taken.stopped:  # Ctrl-C at a die, not said by the body already
            say_stopped(args.dice, taken)
        raise
    except DeviceError as exc:
        # The camera is opened at its first read, inside body.
        if args.dice != "camera":
            raise
        # Pictures or a video that ran out are no missing camera (dicecam69 NIT 3). The
        # rolls read from them before are listed, as the end of typed input lists them
        # (dicecam71 NIT 8: they were passing status lines only).
        ran_out = _ran_out(exc)
        instead = OR_TYPED if ran_out else TYPED_INSTEAD
        listed = taken_lines(taken) if lists_taken and ran_out else []
        said = as_typed_here(f"{exc}; {instead}")
        raise DeviceError(error_within_80("\n".join([said, *listed]))) from exc
    except CompanionError as exc:
        if not isinstance(exc, _source_errors(args)) or exc.args != (str(exc),):
            raise
        # Typed input that ended lists the rolls taken, as Ctrl-C does (review65t NIT 2); so
        # does a still picture's refusal of another throw (dicecam71 NIT 8: the first roll
        # read from it was said nowhere).
        listed = (taken_lines(taken) if lists_taken
                  and (isinstance(exc, DiceInputEnded) or _still_refused(exc)) else [])
        # A wait that gave up offers typed dice, as every other camera failure does
        # (a77dice NIT 4).
        said = f"{exc}; {OR_TYPED}" if _timed_out(exc) else str(exc)
        said = as_typed_here(said)  # an unclear die's hint names `calibrate dice --enrol`
        # Its kind, and so its exit status, kept.
        exc.args = (error_within_80("\n".join([said, *listed])),)
        raise
    return code


class TakenDice:
    """A command's dice source (``run_with_source``'s), keeping the rolls it gave and the one
    asked last, and the Ctrl-C that stopped a roll (``stopped``): the command says them as
    it stops (:func:`say_stopped`)."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.taken: list[tuple[str, list[int]]] = []  # (what, values) of each roll given
        self.asked = ""
        # Whether the roll asked is typed on the terminal, by a source that says (a die the
        # camera cannot read, CameraThrows.types); None: as the --dice option says.
        self.asked_typed: bool | None = None
        self.stopped: KeyboardInterrupt | None = None

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        return self._taken(f"{count}D{sides}", purpose,
                           lambda: self.source.roll(count, sides, purpose=purpose), sides)

    def roll_d66(self, *, purpose: str = "") -> list[int]:
        """A D66 read the source's own way (typed ``35``: 3 and 5), as unwrapped."""
        source = self.source
        return self._taken("D66", purpose, lambda: (
            source.roll_d66(purpose=purpose) if isinstance(source, ReadsD66)
            else source.roll(2, 6, purpose=purpose)), 6)

    def _taken(self, dice: str, purpose: str, get: Callable[[], list[int]],
               sides: int) -> list[int]:
        self.asked = purpose if dice in purpose else f"{purpose} ({dice})" if purpose else dice
        types = getattr(self.source, "types", None)
        self.asked_typed = types(sides) if callable(types) else None
        try:
            values = get()
        except KeyboardInterrupt as exc:
            self.stopped = exc
            raise
        self.taken.append((self.asked, list(values)))
        return values


#: Said above the rolls a command stopped by Ctrl-C had taken (入力済, as the keypad and
#: typed dice say it: reviewe68 NIT 5).
TAKEN_SO_FAR = "the dice taken so far 入力済 (not saved):"


def say_stopped(dice: str, taken: TakenDice) -> None:
    """Ctrl-C while a command waited for a typed or thrown die (``genso fight attack``,
    ``coc fight act``, a check): said on stderr as the end of typed input says it (nothing
    saved, the dice before it dropped, run the command again), with the rolls taken so far
    and their values, so the table sees what it had thrown. It exited 130 saying nothing
    (tables65 NIT 1). ``companion events`` says its walk itself (``say_walked``); its
    stop is not this one."""
    typed = dice != "camera" if taken.asked_typed is None else taken.asked_typed
    # A die typed beside the camera (a D4, coc's --d100 typed) is "typed", as the end of
    # input says it (review65t NIT 1); the dice before it were thrown all the same.
    dropped = THROWN_DROPPED if dice == "camera" else TYPED_DROPPED
    lines = ["", f"companion: stopped before {taken.asked} was "
                 f"{'typed' if typed else 'thrown'}: nothing was saved, and {dropped}"]
    print(within_80("\n".join([*lines, *taken_lines(taken)])), file=sys.stderr)


def taken_lines(taken: TakenDice) -> list[str]:
    """:data:`TAKEN_SO_FAR` and a line per roll taken (``  to hit 命中 (2D6): 4 5``); none
    when no roll was."""
    if not taken.taken:
        return []
    return [TAKEN_SO_FAR, *(f"  {what}: {' '.join(map(str, values))}"
                            for what, values in taken.taken)]


def _ran_out(exc: DeviceError) -> bool:
    """Whether ``exc`` is a folder of pictures or a video given as the camera running out."""
    try:
        from companion.hw.dice.source import FramesRanOut
    except ImportError:  # no camera reader here
        return False
    return isinstance(exc, FramesRanOut)


def _still_refused(exc: CompanionError) -> bool:
    """Whether ``exc`` is a still picture given as the camera refusing another throw."""
    try:
        from companion.hw.dice.source import NewThrowNeeded
    except ImportError:  # no camera reader here
        return False
    return isinstance(exc, NewThrowNeeded)


def _timed_out(exc: CompanionError) -> bool:
    """Whether ``exc`` is the camera giving up its wait for a steady read."""
    try:
        from companion.hw.dice.source import DiceReadTimeout
    except ImportError:  # no camera reader here
        return False
    return isinstance(exc, DiceReadTimeout)


def _source_errors(args: argparse.Namespace) -> tuple[type[CompanionError], ...]:
    """The errors with which the dice ``args`` chose stop a roll: the end of typed input;
    the camera's, from the module ``dice_source`` loaded for it."""
    if args.dice != "camera":
        return (DiceInputEnded,)
    try:
        from companion.hw.dice.source import DiceReadTimeout, NewThrowNeeded, UnsupportedDice
    except ImportError:  # no camera reader here (a stand-in's): its errors are its own
        return (DiceInputEnded,)
    return (DiceInputEnded, DiceReadTimeout, NewThrowNeeded, UnsupportedDice)


class SeedNotUsed(CompanionError, ValueError):
    """``--seed`` given where no die is simulated: taken and ignored, it promised a roll
    it does not repeat (events62 N9, dice62 N5)."""


def seeds_dice(args: argparse.Namespace) -> bool:
    """Whether the dice options simulate any die: ``--dice sim``, or coc's ``--d100 sim``
    beside camera D6s."""
    return args.dice == "sim" or (args.dice == "camera" and getattr(args, "d100", None) == "sim")


def refuse_idle_seed(args: argparse.Namespace, dice_said: str = "") -> None:
    """Refuse ``--seed`` when no die is simulated (:func:`seeds_dice`), said once for every
    command that takes the dice options (roll, coc, genso, events). ``dice_said``: where
    the dice were set, when not by ``--dice`` (a setting's key and its origin)."""
    if args.seed is None or seeds_dice(args):
        return
    d100 = ", or --d100 sim with --dice camera" if hasattr(args, "d100") else ""
    raise SeedNotUsed(error_within_80(
        f"--seed goes with simulated dice (--dice sim{d100}): "
        f"{dice_said or f'--dice {args.dice}'} dice are thrown, not seeded; leave --seed out"))


class SourceNotUsed(CompanionError, ValueError):
    """``--source`` given where no camera reads the dice: the photo of a throw was never
    opened, and a simulated roll printed in its place with exit 0 (a77dice DEFECT 1), as an
    idle ``--seed`` is refused (:class:`SeedNotUsed`)."""


def refuse_idle_source(args: argparse.Namespace) -> None:
    """Refuse ``--source`` unless the dice are the camera's (``--dice camera``): said for
    every command that takes the dice options (roll, coc, genso, events)."""
    if getattr(args, "source", None) is None or args.dice == "camera":
        return
    every = "typed" if args.dice == "typed" else "simulated"
    # An empty value is shown quoted: "not read from ;" (r77dice NIT on 71c9eb2c).
    source = args.source or repr(args.source)
    raise SourceNotUsed(error_within_80(
        f"--source names the camera of --dice camera: with --dice {args.dice} the dice are "
        f"{every}, not read from {source}; add --dice camera, or leave --source out"))


class D100NotUsed(CompanionError, ValueError):
    """``--d100`` given where no camera reads the dice: it names where the dice a camera
    cannot read come from, and with typed or simulated dice every die already comes from
    there. Taken and ignored, ``coc roll --dice typed --d100 sim`` asked for the d100 to be
    typed (tables65 NIT 6), as an idle ``--seed`` is refused (:class:`SeedNotUsed`)."""


def refuse_idle_d100(args: argparse.Namespace, dice_said: str = "") -> None:
    """Refuse ``--d100`` unless the dice are the camera's (``--dice camera``): said for every
    command that takes it (coc's, ``play``). ``dice_said``: where the dice were set, when
    not by ``--dice`` (``dice.source = typed (COMPANION_DICE_SOURCE)``: review65t NIT 3, it
    read "…(COMPANION_DICE_SOURCE): typed every die is typed")."""
    if getattr(args, "d100", None) is None or args.dice == "camera":
        return
    every = "typed" if args.dice == "typed" else "simulated"
    raise D100NotUsed(error_within_80(
        f"--d100 goes with --dice camera (for the dice the camera cannot read): with "
        f"{dice_said or f'--dice {args.dice}'}, every die is {every}; leave --d100 out"))


def print_json(args: argparse.Namespace, data: dict[str, Any]) -> None:
    """One JSON object, stamped with where the dice came from (and the seed of sim dice).
    With ``--dice camera``, the rolls the camera cannot read and the player typed on the
    terminal instead (a D4) are listed as ``typed_rolls`` when there were any, each
    ``{"dice": "1D4", "purpose": "which ability 能力値", "values": [3]}``: ``dice_source``
    names the option, and every other die was read by the camera (review64e NIT 3)."""
    data["dice_source"] = args.dice
    if args.dice == "sim":
        data["seed"] = args.seed
    if getattr(args, "typed_rolls", None):
        data["typed_rolls"] = args.typed_rolls
    print(json.dumps(data, ensure_ascii=False))


def pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns, a full-width letter (オーク) taking two,
    so the columns of a listing line up under Japanese names."""
    return text + " " * max(0, width - display_width(text))


def emit(args: argparse.Namespace, data: dict[str, Any], text: str, dice: bool = False) -> int:
    """A command's answer: ``text`` for people, or ``data`` as one JSON object with
    ``--json`` (stamped with the dice's source when ``dice`` were rolled)."""
    if args.json:
        if dice:
            print_json(args, data)
        else:
            print(json.dumps(data, ensure_ascii=False))
    else:
        print(text)
    return 0


SECRET_MARK = "[secret/シークレット]"


def shown(result: Result) -> str:
    """A roll's line as ``roll`` and ``coc roll`` print it: a secret one (``S2D6``,
    ``SCC<=50``) marked, since the terminal shows it all the same."""
    return f"{SECRET_MARK} {result.text}" if result.secret else result.text


#: A command of BCDice's Cthulhu system (CC, CCB, CBR, CBRB, RES, RESB), after a repeat or
#: secret prefix: not the base system's, so ``roll`` points to ``coc roll``.
CTHULHU_COMMAND = re.compile(r"(?:(?:x|rep|repeat)\d+\s+)?s?(?:cc|cbr|res)", re.IGNORECASE)


#: Said before a camera roll of a D66 read as thrown (docs/dice-notation.md, D66): which
#: die is the tens, by where it lies (companion.hw.dice.readings.lying_order).
D66_CAMERA_NOTE = ("companion: note: the die on the left is the tens of this D66 (of two\n"
                   "  one above the other, the upper one); D66S or D66D sorts them")


class NotForCamera(CompanionError, ValueError):
    """A roll with dice the camera cannot read, refused before any throw."""


def camera_refusal(command: Command, reads: tuple[int, ...] = (6,),
                   instead: str = "roll it with --dice sim or --dice typed") -> str | None:
    """Why the camera cannot roll ``command``: a part whose dice are of none of the sides
    it ``reads`` (six-sided pip dice; coc reads a D3 or D2 from a D6 too), named, and what
    to do ``instead``; None when it reads every die. Said before the first throw, which
    would otherwise be read and lost (dice62 D3)."""
    for written, sides in dice_parts(command):
        if sides not in reads:
            named = ", ".join(f"D{r}" for r in reads)
            return error_within_80(f"the camera reads {named} only: {written} throws a "
                                   f"D{sides};\n  {instead}")
    return None


def _parsed(expression: str) -> Command:
    """The command typed; one of Call of Cthulhu's is pointed to ``coc roll``."""
    try:
        return parse(expression)
    except DiceSyntaxError as exc:
        if CTHULHU_COMMAND.match(unicodedata.normalize("NFKC", expression).lstrip()):
            raise InvalidNotation(f"{exc}\n(CC, CBR and RES are Call of Cthulhu's rolls: "
                                  f"{companion_line('coc', 'roll', expression)})") from None
        raise


def run(args: argparse.Namespace) -> int:
    # Parsed before the dice source is made: bad text never opens the camera.
    command = _parsed(" ".join(args.expression))
    if args.dice == "camera" and (why := camera_refusal(command)) is not None:
        raise NotForCamera(why)

    def body(source: DiceSource) -> int:
        if args.dice == "camera" and reads_d66_as_thrown(command):
            print(D66_CAMERA_NOTE, file=sys.stderr)
        result = roll(command, source)
        if args.json:
            print_json(args, result.to_json())
        else:
            print(shown(result))
        return 0

    return run_with_source(args, body)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "roll",
        help=COMMANDS["roll"].help,
        description=(
            "Roll dice written as BCDice's base system takes them: NdX sums with + - * / "
            "and brackets (a division may end in U, R or F), D20, (2+3)D6, keep/drop "
            "(4D6KH3, 2D20KL1, DH, DL, MAX, MIN), a comparison (<= >= < > = <>); D66, "
            "D66S, D66D, D66N; pools 3B6>=4 counting successes; choice[a,b,c]; the "
            "calculator C(10+5*2); x3/rep3/repeat3 before a command to repeat it; a "
            "leading S for a secret roll; a comment after a space. See docs/dice-notation.md. "
            "Example: companion roll '2D6+4>=8 disarm'."
        ),
    )
    parser.add_argument(
        "expression", metavar="EXPR", nargs="+",
        help="dice command, e.g. 1D100<=50 or 'x3 2D6'; words after it are the comment",
    )
    take_negative_expressions(parser)
    add_dice_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run)
