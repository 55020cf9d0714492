"""``companion rfid``: field diagnostics for the RFID tray or an RDM6300 reader.

``companion rfid monitor [--port P] [--kind tray|rdm6300] [--json]`` prints each
tag event as it happens (one JSON object per line with ``--json``) and the
error counters when it stops: Ctrl-C, SIGTERM, or the end of the input
(``--port -`` replays a capture from stdin). ``companion rfid list`` lists the
serial ports like ``python -m serial.tools.list_ports`` and marks the tray.
``companion rfid simulate`` runs a simulated tray on a pseudo-terminal, to try
``monitor`` (or the game) without hardware.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import shlex
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from serial.tools import list_ports

from companion.app.arg_types import seeds_below
from companion.app.command_list import COMMANDS
from companion.app.command_name import as_typed_here, companion_line
from companion.app.config import Config, load_config
from companion.app.help_format import cell_wrap
from companion.app.paths import config_dir
from companion.app.session.save import SEED_LIMIT
from companion.errors import DeviceError
from companion.hw.ports import ReaderStatus
from companion.hw.rfid.events import TagEvent
from companion.hw.rfid.firmware_source import shipped_if_newer, version_numbers
from companion.hw.rfid.link import (
    A_FILE,
    Port,
    StreamPort,
    is_a_file,
    open_serial,
    port_or_usb,
    unknown_url,
)
from companion.hw.rfid.protocol import UID_PATTERN
from companion.hw.rfid.rdm6300 import DEFAULT_PORT as RDM6300_PORT
from companion.hw.rfid.rdm6300 import Rdm6300Reader, Rdm6300Settings
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.hw.rfid.tray import (
    DEFAULT_SLOTS,
    STALE_AFTER_SECONDS,
    TRAY_PID,
    TRAY_VID,
    LinkState,
    TrayReader,
    TraySettings,
)
from companion.systems.jongrogue.tiles import ALL_KINDS, Tile

STDIN_PORT = "-"
STDIN_NAME = "stdin"  # the reader's port when it replays a capture from stdin
#: Said under the first problem of a reader that does not answer: the monitor waits for
#: it, as a tray unplugged is picked up again when it is plugged in, and a still terminal
#: looked hung. Not under a tray's own word (two tiles stacked, a reader down): it answers.
WAITING = "   (waiting for the reader: it is watched as soon as it answers; Ctrl-C stops)"

RfidReader = TrayReader | Rdm6300Reader


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "rfid", help=COMMANDS["rfid"].help,
        description="Watch the RFID tray or reader, list the serial ports, or simulate a "
                    "tray.")
    actions = parser.add_subparsers(dest="rfid_action", required=True, metavar="ACTION")
    monitor = actions.add_parser(
        "monitor", help="print each tag placed or removed (lying: there as the reader came "
                        "up), and the error counters on exit")
    add_reader_arguments(monitor)
    monitor.add_argument("--json", action="store_true", help="one JSON object per line")
    monitor.set_defaults(func=run_monitor)
    listing = actions.add_parser("list", help="list serial ports (like pyserial's list_ports)")
    listing.add_argument("regexp", nargs="?", type=regexp,
                         help="only ports whose name, description or hardware ID matches this "
                              "regular expression")
    listing.add_argument("-v", "--verbose", action="store_true", help="show hardware IDs")
    listing.set_defaults(func=run_list)
    simulate = actions.add_parser(
        "simulate", help="a simulated tray on a pseudo-terminal, moving stickers at random")
    simulate.add_argument("--seconds", type=run_seconds,
                          help="stop after this long (default: Ctrl-C)")
    simulate.add_argument("--seed", type=seeds_below(SEED_LIMIT),
                          help="seed of the random moves")
    simulate.set_defaults(func=run_simulate)


def run_seconds(text: str) -> float:
    """``--seconds``: a finite number of seconds, 0 or more (0: say the lines to try, and
    stop, as the tests use it). -1 and nan ran as 0 does, said nothing of it, and the port
    named was gone at once (rfid71 NIT 4); inf is Ctrl-C's default in words no one means."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(
            f"{text} is not a number of seconds of 0 or more (leave --seconds out to run "
            "until Ctrl-C)")
    return value


def add_reader_arguments(parser: argparse.ArgumentParser) -> None:
    """``--port`` and ``--kind``, shared with ``companion calibrate rfid``."""
    parser.add_argument(
        "--port", metavar="P",
        help="serial device or pyserial URL; '-' reads a capture from stdin. Default: "
             "input.rfid_port in `companion config`, else the tray by USB ID "
             f"{TRAY_VID:04X}:{TRAY_PID:04X}, or {RDM6300_PORT} for an RDM6300")
    parser.add_argument("--kind", choices=("tray", "rdm6300"),
                        help="a tray of MFRC522 readers or one RDM6300 on a UART (default: "
                             "input.rfid_kind in `companion config`, normally the tray)")


def load_tag_map() -> TagMap:
    return TagMap.load(config_dir() / TAGMAP_FILENAME)


def open_reader(args: argparse.Namespace, tag_map: TagMap, catch_up: bool = True) -> RfidReader:
    """The reader ``--kind``/``--port`` ask for, else the one the game uses; it opens (and
    reopens) its port on poll. ``catch_up=False``: a tray's or an RDM6300's backlog after a
    pause between polls is news, not stale (TrayReader.catching_up, Rdm6300Settings.
    stale_after), for a reader that polls all the time."""
    config = load_config()
    config.tell_notices()
    kind = args.kind or config.text("input.rfid_kind")
    port = chosen_port(args, config)
    opener: Callable[[str, int], Port] = open_serial
    settings = TraySettings(passive=port == STDIN_PORT,
                            stale_after=STALE_AFTER_SECONDS if catch_up else math.inf)
    if port == STDIN_PORT:
        stream = StreamPort(sys.stdin.buffer)
        opener = lambda device, baudrate: stream  # noqa: E731
        port = STDIN_NAME  # its name in the status ("tray on stdin"), not "-"
    if kind == "rdm6300":
        return Rdm6300Reader(port or RDM6300_PORT, tag_map, opener=opener,
                             settings=Rdm6300Settings(passive=settings.passive,
                                                      stale_after=settings.stale_after))
    return TrayReader(port_or_usb(port, TRAY_VID, TRAY_PID), tag_map, settings=settings,
                      opener=opener)


def chosen_port(args: argparse.Namespace, config: Config) -> str | None:
    """``--port``, else input.rfid_port (None: the kind's default), refused if it is one no
    wait mends (:func:`refuse_a_port_no_wait_mends`)."""
    port = args.port if args.port is not None else (config.text("input.rfid_port") or None)
    refuse_a_port_no_wait_mends(args, port, config.where("input.rfid_port"))
    return port


def refuse_a_port_no_wait_mends(args: argparse.Namespace, port: str | None = None,
                                setting: str = "input.rfid_port") -> None:
    """Refuse a port that names a regular file (a saved capture), or a URL of a scheme
    pyserial does not know (``bogus://x``): no port that waiting mends (rfid71 NIT 3: the
    monitor waited for ever, saying "(25, 'Inappropriate ioctl for device')"; rfid75 NIT 5:
    "invalid URL, protocol 'bogus' not known"). ``port``: the one in use, else
    ``--port``'s; ``setting``: where it came from when not from ``--port``
    (``Config.where``), so one from COMPANION_INPUT_RFID_PORT is named so, not as a line
    of a config.toml that has none (reviewrfid75 NIT 5)."""
    port = args.port if port is None else port
    # STDIN_PORT is stdin, never a file of that name in the folder (reviewr71 NIT 1).
    if port is None or port == STDIN_PORT:
        return
    given = "--port" if args.port is not None else setting
    if is_a_file(port):
        raise DeviceError(f"{given} {port}: {A_FILE.format(file=shlex.quote(port))}")
    if (problem := unknown_url(port)) is not None:
        raise DeviceError(f"{given} {problem}")


class StopSignal:
    """Turn SIGTERM into a flag the loop checks, for the time the monitor runs."""

    def __init__(self) -> None:
        self.stopped = False
        self._previous: Any = None

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.stopped = True

    def __enter__(self) -> StopSignal:
        self._previous = signal.signal(signal.SIGTERM, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        signal.signal(signal.SIGTERM, self._previous)


def reader_options(args: argparse.Namespace) -> tuple[str, ...]:
    """The ``--port`` and ``--kind`` given to ``rfid monitor``, as words for the ``calibrate
    rfid`` it suggests: that one finds the same reader (rfid67 RISK 2: a port given on the
    command line was left out, and calibrate found no tray). Not ``--port -``: calibrate
    would enrol from a capture on stdin, not from the tray."""
    port = getattr(args, "port", None)
    kind = getattr(args, "kind", None)
    return (*(("--port", port) if port not in (None, STDIN_PORT) else ()),
            *(("--kind", kind) if kind else ()))


def enrol_hint(options: tuple[str, ...] = ()) -> str:
    """What the monitor says of a sticker that is not enrolled: the ``calibrate rfid`` that
    enrols it, with the monitor's ``options`` (:func:`reader_options`); the monitor holds the
    port, which calibrate needs for itself."""
    return (f"(not enrolled: stop this monitor and run "
            f"`{companion_line('calibrate', 'rfid', *options)}`)")


def describe(event: TagEvent, options: tuple[str, ...] = ()) -> str:
    """One tag event as the monitor prints it; ``options``: :func:`reader_options`."""
    if event.label is None:
        tile = enrol_hint(options)
    else:
        known = Tile.from_notation(event.label)
        tile = f"{known} {known.name_ja} {known.name_en}"
    stamp = datetime.now().strftime("%H:%M:%S.%f")[:-3]
    # A tile lying on the tray as the reader came up was laid by no one now: "placed" for
    # it, a tile left there after a game, read as a placing the maker never did (a77rfid 3).
    action = LYING if event.at_start else event.action.value
    return f"{stamp}  {action:<8} {event.slot.value:<8} {event.uid:<20}  {tile}"


#: The monitor's word for a tile read lying on the tray as the reader came up.
LYING = "lying"


def event_json(event: TagEvent) -> str:
    """One tag event as ``--json`` prints it. ``at_start``: a ``placed`` of a tile that lay
    there as the reader came up (the text line's ``lying``), not one laid since."""
    return json.dumps({"event": event.action.value, "slot": event.slot.value, "uid": event.uid,
                       "tile": event.label, "at_start": event.at_start,
                       "time": round(time.time(), 3)}, ensure_ascii=False)


def what_to_check(reader: RfidReader) -> str | None:
    """What to check for a tray's reader that is down (:meth:`TrayReader.what_to_check`)."""
    return reader.what_to_check() if isinstance(reader, TrayReader) else None


def found_the_tray(reader: RfidReader) -> bool:
    """Whether an RDM6300's port is the RFID tray (:meth:`Rdm6300Reader.found_the_tray`):
    the wrong kind of reader, which waiting never mends."""
    return isinstance(reader, Rdm6300Reader) and reader.found_the_tray()


def status_line(status: ReaderStatus, as_json: bool, connecting: bool = False) -> str:
    """A status as the monitor prints it: ``-- ok``, ``-- problem``, or ``-- connecting``
    while the tray's hello is awaited (``connecting``): every normal start began with
    ``-- problem: waiting for the tray…`` (newuser61 N10)."""
    if as_json:
        return json.dumps({"event": "status", "ok": status.ok, "message": status.message},
                          ensure_ascii=False)
    label = "ok" if status.ok else "connecting" if connecting else "problem"
    return f"-- {label}: {as_typed_here(status.message)}"


def connecting(reader: RfidReader) -> bool:
    """Whether ``reader`` is a tray whose port is open and whose hello, or the first
    snapshot after it, is awaited: no problem yet (one that stopped it before is in its
    message); or a replayed capture whose first valid line or frame is awaited. Not a tray
    whose last word was its firmware's crash: the host still says HELLO to it, but the
    crash is a problem, one a board.py to mend waits on a person for (rfid75 NIT 3: it
    was labelled "-- connecting" for good)."""
    if isinstance(reader, TrayReader):
        return not reader.crashed and (reader.state is LinkState.HANDSHAKE
                                       or reader.awaiting_snapshot or reader.unheard)
    return reader.settings.passive and reader.link.is_open \
        and not reader.framer.counters["frames"] and not reader.found_the_tray()


def flash_again(reader: RfidReader) -> str | None:
    """What a tray whose hello named firmware older than this checkout's (firmware/main.py)
    is to do, said once beside its first ok line by ``rfid monitor`` and ``calibrate
    rfid``: "firmware 1.3.3" alone did not say that the tray, flashed before the companion
    was updated, misses the newer firmware's board.py checks (maker75 NIT 2). None for a
    tray as new, an RDM6300, or no hello yet."""
    if not isinstance(reader, TrayReader):
        return None
    shipped = shipped_if_newer(reader.firmware)
    if shipped is None:
        return None
    theirs = version_numbers(reader.firmware)
    # The worst the tray misses, by its version (firmware/PROTOCOL.md): "the newer board.py
    # checks" alone, said to a tray that never reports stacked tiles, read as a reflash
    # only a maker with a board.py of their own needs (a77rfid item 4).
    why = next((said for below, said in _OLDER_FIRMWARE_MISSES
                if theirs is not None and theirs < below),
               "the newer firmware checks board.py for more mistakes")
    return (f"this companion ships {shipped}: flash the tray again (firmware/README.md, "
            f"\"Flash it\", step 3); {why}")


def flash_said(flash: str, indent: str) -> str:
    """:func:`flash_again`'s words in brackets after ``indent``, within 80 columns, the
    lines after the first under the bracket's text, as the help pages wrap theirs
    (:func:`cell_wrap`): it was one line of about 150 columns (r77rfid NIT)."""
    first, *rest = cell_wrap(f"({flash})", 79 - len(indent))
    return "\n".join([f"{indent}{first}", *(f"{indent} {line}" for line in rest)])


#: What a tray's firmware before a version does that a newer one does not, worst first.
_OLDER_FIRMWARE_MISSES: tuple[tuple[tuple[int, ...], str], ...] = (
    ((1, 2), "firmware before 1.2 reports every tile lying on the tray as laid anew after "
             "a replug"),
    ((1, 3, 2), "firmware before 1.3.2 never reports two stacked tiles (they read as an "
                "empty slot)"),
)


def answering(reader: RfidReader) -> bool:
    """Whether ``reader`` answers: a tray past its hello, whose problem (two tiles stacked,
    a reader down, a sticker read on two slots) is its own word, not a silence the monitor
    waits out (rfid67 NIT 2). An RDM6300 sends only frames: its every problem is one."""
    return isinstance(reader, TrayReader) and reader.state is LinkState.READY


def counters_line(status: ReaderStatus, as_json: bool) -> str:
    if as_json:
        return json.dumps({"event": "counters", "counters": status.counters})
    return "counters: " + " ".join(f"{k}={v}" for k, v in status.counters.items())


@dataclass(frozen=True, slots=True)
class MonitorEnd(ReaderStatus):
    """The monitor's last status; ``tray_answered``: a tray's line came (its hello, or
    any line of a capture), whatever its readers did (hw74 DEFECT 1)."""

    tray_answered: bool = False


def monitor(reader: RfidReader, out: TextIO, as_json: bool, stop: StopSignal,
            options: tuple[str, ...] = ()) -> MonitorEnd:
    """Print events and status changes until stopped or the input ends; return the last
    status, ok when the reader answered at some point (its status was ok, a tag read, or
    the tray answered) and is not the wrong kind, unless the tray's last word was every one
    of its readers down or its firmware's crash (reviewy74 R4), whatever they did before, as
    ``calibrate rfid`` ends (reviewfw74 N1: a tray first ok, then all down, exited 0; first
    one down, then all down, 1). One
    reader down, no sticker laid, is ok: the other slots read. The first
    problem of a live reader that does not answer (:func:`answering`) is followed by
    :data:`WAITING` (not in JSON), and a tray's reader down by what to check instead; an
    RDM6300's port found to be the tray stops it, its problem said. ``options``: the
    monitor's own (:func:`reader_options`), for the ``calibrate rfid`` named beside a
    sticker that is not enrolled."""
    last: tuple[bool, str] | None = None
    answered = False
    tray_answered = none_read = False  # a tray past its hello; every reader of it down
    tray_said = ""
    told_waiting = as_json or reader.link.port == STDIN_NAME  # a capture ends by itself
    told_flash = as_json  # flash_again, said once
    status = reader.status()
    try:
        while not stop.stopped and not reader.link.ended:
            # A poll's status is said before its events: the tray's hello comes with the
            # stickers already lying on it, and an RDM6300 is known by its first tag; said
            # after them, "-- ok: tray on …" followed the lines it introduces (maker73
            # NIT 5; hardware/README.md says the tray is named first).
            events = list(reader.poll_events())
            answered = answered or bool(events)
            status = reader.status()
            answered = answered or status.ok
            if isinstance(reader, TrayReader) and answering(reader) and not reader.unheard:
                tray_answered, none_read = True, reader.no_reader_reads
                tray_said = status.message  # not the "end of input" that may follow
            found = False
            if (status.ok, status.message) != last:
                last = (status.ok, status.message)
                hello = connecting(reader)
                print(status_line(status, as_json, hello), file=out, flush=True)
                if status.ok and not told_flash and (flash := flash_again(reader)):
                    told_flash = True
                    print(flash_said(flash, "   "), file=out, flush=True)
                found = found_the_tray(reader)  # the message says which kind to use
                check = what_to_check(reader) if not (status.ok or as_json or found) \
                    else None
                if check is not None:  # the tray answers: it is not waited for
                    print(f"   ({check})", file=out, flush=True)
                # A crash is the tray's own word, which says what to do, not a silence to
                # wait out: a board.py to mend is copied by mpremote, which needs the port.
                elif not (status.ok or hello or told_waiting or answering(reader) or found
                          or (isinstance(reader, TrayReader) and reader.crashed)):
                    told_waiting = True
                    print(WAITING, file=out, flush=True)
            for event in events:
                print(event_json(event) if as_json else describe(event, options), file=out,
                      flush=True)
            if found:
                break
            reader.wait(0.05)
    except KeyboardInterrupt:
        pass  # Ctrl-C is the normal way out
    finally:
        reader.close()
        print(counters_line(reader.status(), as_json), file=out, flush=True)
    # An RDM6300's port that was "ok" until the tray's lines came did not answer as one.
    reads = (answered or tray_answered) and not (tray_answered and none_read)
    message = tray_said if tray_answered and not reads else status.message
    if isinstance(reader, TrayReader) and reader.crashed:
        # Its last word was its firmware's crash (a crash-looping tray stopped by Ctrl-C
        # among them): not ok, whatever it read before, its status the error (reviewy74
        # R4: it exited 0, a service saw success).
        reads, message = False, reader.status().message
    return MonitorEnd(reads and not found_the_tray(reader), message, status.counters,
                      tray_answered)


def run_monitor(args: argparse.Namespace) -> int:
    """Exit 1 when the reader never answered (a port that never opened, a capture with no
    valid line), when the tray's firmware crashed, when the tray answered but none of its
    readers reads (every one down at the end, whatever they did before),
    or when it is the wrong kind (an RDM6300's port is the tray), as ``calibrate rfid``
    does: a script or a service sees it failed. A tray with one reader down whose other
    readers read exits 0, whether or not a sticker was laid (hw74 DEFECT 1)."""
    # The monitor reads the tray every 0.05 s: a backlog after a stall (Ctrl-Z, a slow
    # terminal) holds moves its user watches for, not the stale news a game's ask after a
    # menu finds, so each move received is shown (reviewr71 RISK 2). Lines the tray dropped
    # meanwhile are still told, by the lost counter.
    reader = open_reader(args, load_tag_map(), catch_up=False)
    with StopSignal() as stop:
        result = monitor(reader, sys.stdout, args.json, stop, reader_options(args))
    if not result.ok:
        # The tray answers, as the wrong kind of reader or with its firmware's crash: its
        # message is the whole error (reviewfw74 N2: "never answered (the tray's firmware
        # crashed (…))" of a tray that did).
        crashed = isinstance(reader, TrayReader) and reader.crashed
        error = (result.message if found_the_tray(reader) or crashed
                 else f"the tray answered, but none of its readers reads ({result.message})"
                 if result.tray_answered
                 else f"the RFID reader never answered ({result.message})")
        print(f"companion: error: {as_typed_here(error)}", file=sys.stderr)
        return 1
    return 0


def regexp(text: str) -> str:
    """``rfid list REGEXP``: a regular expression Python can compile, as pyserial's grep."""
    try:
        re.compile(text)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not a regular expression ({exc})") from None
    return text


def run_list(args: argparse.Namespace) -> int:
    found = list_ports.grep(args.regexp) if args.regexp else list_ports.comports()
    ports = sorted(found, key=lambda p: p.device)
    for info in ports:
        # Any Pico running MicroPython has this USB ID, our firmware or not: only the tray's
        # hello (rfid monitor) tells the tray.
        mark = ("  <- a Pico with MicroPython (the RFID tray? rfid monitor tells)"
                if (info.vid, info.pid) == (TRAY_VID, TRAY_PID) else "")
        print(f"{info.device:<20} {info.description}{mark}")
        if args.verbose:
            print(f"    hwid: {info.hwid}")
    print(f"{len(ports)} {'port' if len(ports) == 1 else 'ports'} found", file=sys.stderr)
    return 0


def try_lines(port: str) -> list[str]:
    """Whole command lines that watch, enrol and play the simulated tray on ``port``, as the
    user types them here (rfid67 DEFECT 1: "play --input rfid" alone stopped on a laptop,
    which has no screen, and "with COMPANION_INPUT_RFID_PORT=… set" was no command). Play
    names the port with ``--rfid-port``, which its resume line repeats (reviewr67 RISK 2:
    the variable was not, and the game carried on found no tray). With the tray kind when
    the setting names another, which would not read the tray."""
    tray = load_config().text("input.rfid_kind") == "tray"
    kind = () if tray else ("--kind", "tray")
    return [companion_line("rfid", "monitor", "--port", port, *kind),
            companion_line("calibrate", "rfid", "--port", port, *kind),
            companion_line("play", "--input", "rfid", *(() if tray else ("--rfid-kind", "tray")),
                           "--rfid-port", port, "--choices", "keyboard", "--display",
                           "terminal")]


def aside_steps(path: Path, count: int, enrol: str, play: str) -> str:
    """How to play the simulated tray when the tag map at ``path`` holds ``count`` RDM6300
    IDs and no tray sticker: play refuses such a map on a tray, so it is set aside for the
    time of the try, some of the made-up stickers enrolled and played, and put back after
    (reviewr69 DEFECT 1: the play line offered was refused, and the note said the made-up
    stickers would be named as not enrolled by a game that never started). A map set aside
    before, and not put back, is kept (reviewr69b NIT 6)."""
    kept = path.with_name(path.name + ".rdm6300")
    # A map set aside before and never put back is kept: the name is a free one, and
    # mv -n leaves one that came since (reviewr69b NIT 6: mv replaced it, unasked).
    more = 1
    while kept.exists() or kept.is_symlink():
        more += 1
        kept = path.with_name(f"{path.name}.rdm6300.{more}")
    ids = "ID" if count == 1 else "IDs"
    return "\n".join([
        f"play refuses {path} on a tray (its {count} {ids} are an RDM6300's, which a tray "
        "never reads): to play the tray here, set it aside, enrol some of the made-up "
        "stickers the tray moves (q when a few are), play, and put it back after:",
        f"  {shlex.join(['mv', '-n', str(path), str(kept)])}",
        f"  {enrol}",
        f"  {play}",
        f"  {shlex.join(['mv', str(kept), str(path)])}"])


def run_simulate(args: argparse.Namespace) -> int:
    """Place and lift enrolled stickers (or made-up ones) on the simulated tray, every second."""
    rng = random.Random(args.seed)
    tag_map = load_tag_map()
    enrolled = [uid for tile in ALL_KINDS for uid in tag_map.uids(tile)]
    # Only a UID the tray protocol carries (an ISO 14443A UID: 8, 14 or 20 hex digits): an
    # RDM6300's 10-digit EM4100 IDs would be sent and rejected by every host as malformed,
    # so nothing at all was seen, without a word.
    stickers = [uid for uid in enrolled if UID_PATTERN.match(uid)]
    note = ""
    if len(stickers) < len(enrolled):
        note = (f"{len(enrolled) - len(stickers)} of the {len(enrolled)} enrolled stickers "
                "cannot lie on a tray (RDM6300 125 kHz IDs of 10 hex digits; a tray reads "
                "13.56 MHz tags of 8, 14 or 20): "
                + ("they are left out" if stickers else "made-up stickers are moved instead"))
    # A map of RDM6300 IDs only is refused by play on a tray (rfid69 R3): its play line
    # would be refused (reviewr69 DEFECT 1).
    refused = bool(enrolled) and not stickers
    stickers = stickers or [f"04{n:06X}" for n in range(8)]
    with TraySimulator() as sim, StopSignal() as stop:
        print(f"Simulated tray on {sim.port}; try, in another terminal:", flush=True)
        if refused:
            watch, enrol, play = try_lines(sim.port)
            print(f"  {watch}", flush=True)
            print(aside_steps(config_dir() / TAGMAP_FILENAME, len(enrolled), enrol, play),
                  flush=True)
        else:
            for line in try_lines(sim.port):
                print(f"  {line}", flush=True)
            print("(the stickers it moves are those you enrolled, or made-up ones that a game "
                  "names as not enrolled; a game needs one sticker enrolled at least)",
                  flush=True)
        if note:
            print(note, flush=True)
        end = None if args.seconds is None else time.monotonic() + args.seconds
        next_move = time.monotonic()
        try:
            while not stop.stopped and (end is None or time.monotonic() < end):
                if time.monotonic() >= next_move:
                    slot = rng.randrange(len(sim.readers))
                    name = DEFAULT_SLOTS[slot].value
                    on_tray = {r.uid.hex().upper() for r in sim.readers if r.uid}
                    free = [uid for uid in stickers if uid not in on_tray]
                    if sim.readers[slot].uid is None and free:
                        uid = rng.choice(free)
                        sim.place(slot, uid)
                        print(f"  put {tag_map.label(uid) or uid} on {name}", flush=True)
                    else:
                        sim.remove(slot)
                        print(f"  lifted the tile on {name}", flush=True)
                    next_move = time.monotonic() + 1.0
                sim.step()
                time.sleep(0.005)
        except KeyboardInterrupt:
            pass
    return 0
