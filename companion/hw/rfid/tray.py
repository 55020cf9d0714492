"""The RFID tray backend: a Pico with MFRC522 readers speaking protocol v1 over USB serial.

Connection life cycle (firmware/PROTOCOL.md, "Host behaviour"):

1. open the port (given, or found by USB VID:PID on every attempt);
2. send ``HELLO``; the tray answers ``HELLO <firmware> <slots>`` then ``SNAP``;
   no answer within ``hello_timeout`` → drop and retry;
3. reconcile the snapshot with what we last knew (only real changes become
   events, so a reconnect does not replay every tile; a sticker on two slots at
   once is taken on neither, :meth:`TrayReader.read_twice`);
4. follow ``PLACE``/``REMOVE``; a gap in the sequence numbers asks for a new
   ``SNAP``; silence longer than ``heartbeat_timeout`` → drop and reconnect,
   with backoff.

Nothing here raises on bad input: garbage, bad CRCs, wrong protocol versions,
lost, repeated and out-of-order lines, and lines about a slot the host has no
name for are counted and shown by :meth:`TrayReader.status`.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from companion.hw.ports import (
    ROOM_SLOTS,
    SLOT_NAMES,
    SLOT_NAMES_JA,
    ReaderStatus,
    Slot,
    SlotReading,
)
from companion.hw.rfid.events import TagAction, TagEvent, latest_readings
from companion.hw.rfid.firmware_source import chip_select_pin, firmware_constant
from companion.hw.rfid.link import Backoff, Port, PortSpec, SerialLink, open_serial
from companion.hw.rfid.protocol import (
    DOWN_UID,
    EMPTY_UID,
    SEQ_MODULO,
    Kind,
    LineReader,
    Message,
    encode,
    is_uid,
)
from companion.hw.rfid.rdm6300 import Rdm6300Framer
from companion.hw.rfid.tagmap import TagMap
from companion.systems.jongrogue.tiles import EMPTY

# MicroPython on the RP2040 enumerates as Raspberry Pi 2E8A:0005.
TRAY_VID = 0x2E8A
TRAY_PID = 0x0005
DEFAULT_SLOTS: tuple[Slot, ...] = (Slot.DRAW, *ROOM_SLOTS)
#: How long after a SNAP the stacks it put in doubt stay stacked for play when no other line
#: comes (:attr:`TrayReader.stacked`): the tray sends its ERR COLLISION lines straight after it.
SNAP_DOUBT_SECONDS = 0.25
#: A poll this long after the one before finds a backlog that may be stale (rfid71 DEFECT 1):
#: a game reads the tray only while it asks for a tile, and once the host's buffer is full
#: (some 4 KB, minutes of heartbeats) the tray drops its lines, so a backlog may keep the
#: PLACE of a tile laid then and lose the REMOVE of its lift. Such a poll asks for a SNAP
#: and takes no line as news until it answers (:meth:`TrayReader.catching_up`). Well under
#: the minutes a buffer takes to fill, and well over a polling loop's pace.
STALE_AFTER_SECONDS = 1.0
#: How long catching up keeps the status the reader had before it: the tray answers a SNAP
#: well within it, and a status flashing "catching up" at every ask after a menu is noise.
CATCH_UP_QUIET_SECONDS = 0.5
#: How long catching up waits for the SNAP it asked for before it asks again: the tray
#: answers within milliseconds, the host having just read its backlog, so no answer by
#: then is an answer lost (dropped or garbled), and the next one is the tray's word. At
#: hello_timeout (3 s), the first tile after such a menu came 3 s late (reviewr71 RISK 3).
CATCH_UP_REASK_SECONDS = 0.5
#: How many SNAPs catching up asks for, each unanswered for CATCH_UP_REASK_SECONDS, before
#: it takes the tray for one that never answers SNAP (an old or broken firmware) and drops
#: the link: the reconnect's HELLO brings a SNAP, which every tray sends. It waited for ever,
#: saying "catching up" (reviewr71 RISK 1).
CATCH_UP_ASKS = 2
#: What the status says of a tray that answers no SNAP (CATCH_UP_ASKS), and its fix.
IGNORES_SNAP = ("does not answer SNAP, so it is reconnected to read what lies on it after "
                "each pause: update the tray's firmware (firmware/README.md: stop the "
                "companion and run its step 3 again) "
                "トレイがSNAPに無応答: ファームウェアを更新して")
#: What the status says of a tray, known to answer SNAP, that left one catching up's asks
#: unanswered (CATCH_UP_ASKS): two answers lost in a row, rare but no sign of a firmware to
#: update, unless it happens again at the next catch-up (reviewz71 NIT 2).
MISSED_SNAPS = ("did not answer SNAP twice after a pause, so it was reconnected "
                "トレイがSNAPに2回無応答: 再接続した")
#: The setting and each command's option, as the RDM6300's word for the tray (rfid69 D2:
#: the setting alone, which --rfid-kind tray overrides).
RDM6300_KIND = ('the rdm6300 kind (input.rfid_kind = "rdm6300"; --rfid-kind rdm6300 for '
                "play, --kind rdm6300 for rfid monitor and calibrate rfid)")
#: A UART's device name: the Pi's serial pins (serial0, ttyAMA0, ttyAMA10 on a Pi 5) or a
#: PC's ttyS0; the tray is a USB CDC device (ttyACM0), never one of these.
UART_NAME = re.compile(r"serial\d+|ttyAMA\d+|ttyS\d+")


def is_a_uart(device: str | None) -> bool:
    """Whether ``device`` names a serial UART, by the name its symlinks lead to
    (``/dev/serial0`` → ``ttyS0`` or ``ttyAMA0``), or its own where it is no link: a port
    the tray is never on. A link's own name says nothing: a udev rule may call the tray
    ``serial1`` (reviewr69b NIT 2)."""
    if not device or "://" in device:
        return False
    return bool(UART_NAME.fullmatch(os.path.basename(os.path.realpath(device))))


@dataclass(frozen=True, slots=True)
class TraySettings:
    """Timings of the host side; the tests shorten them."""

    baudrate: int = 115200  # the tray speaks USB CDC only, which ignores it; pyserial wants one
    # The port comes with USB before main.py runs: the tray answers a HELLO only after its
    # imports and its power-up polls (firmware/PROTOCOL.md, "At power-up": 0.8 s at most,
    # with readers that do not answer). 3 s leaves room for a slow start.
    hello_timeout: float = 3.0
    heartbeat_timeout: float = 3.0  # the firmware sends HB every second when idle
    backoff: Backoff = field(default_factory=Backoff)
    # Listen only (a replayed capture): no hello, no heartbeat check; ok once a tray line
    # has come, and a capture that ends with none says what came instead (unheard).
    passive: bool = False
    # A poll this long after the one before catches up (TrayReader.catching_up); a test on
    # a stepped simulator and the real clock may raise it, as a loaded machine may leave
    # 1 s between two of its polls (reviewr71 NIT 2).
    stale_after: float = STALE_AFTER_SECONDS


class LinkState(Enum):
    DISCONNECTED = "disconnected"
    HANDSHAKE = "handshake"
    READY = "ready"


class TrayReader:
    """A :class:`companion.hw.ports.TileReader` for the RFID tray."""

    def __init__(self, port: PortSpec, tag_map: TagMap | None = None,
                 slots: Sequence[Slot] = DEFAULT_SLOTS, settings: TraySettings = TraySettings(),
                 clock: Callable[[], float] = time.monotonic,
                 opener: Callable[[str, int], Port] = open_serial) -> None:
        self.tag_map = tag_map if tag_map is not None else TagMap()
        self.slots = tuple(slots)
        self.settings = settings
        self.clock = clock
        self.link = SerialLink(port, settings.baudrate, backoff=settings.backoff, clock=clock,
                               opener=opener)
        self.lines = LineReader()
        self.state = LinkState.DISCONNECTED
        self.firmware: str | None = None
        self.tray_slots = 0
        self.uids: dict[Slot, str | None] = dict.fromkeys(self.slots)  # the tray's word
        self.shown: dict[Slot, str | None] = dict.fromkeys(self.slots)  # what events said
        self.down: set[Slot] = set()
        self._stacked: set[Slot] = set()  # slots with two tiles or more (ERR COLLISION)
        # Stacks a SNAP cleared whose ERR COLLISION lines may still be on their way (stacked).
        self._in_doubt: set[Slot] = set()
        # Stacks dropped as their reader went down, or whose COLLISION came while it was
        # down: a SNAP asked for when it is up again tells whether they still lie there
        # (_tray_error).
        self._stacked_when_down: set[Slot] = set()
        self._snap_at = 0.0
        # Slots whose sticker the tray reported with a field that is no UID (is_uid), with
        # that field: what lies there is not known (_uid_field).
        self.unreadable: dict[Slot, str] = {}
        self.counters: dict[str, int] = dict.fromkeys(
            ("lost", "duplicates", "out_of_order", "unknown_slot", "bad_uid", "tray_errors",
             "timeouts", "reconnects"), 0)
        self._host_seq = 0
        self._expect_seq: int | None = None
        self._last_message: Message | None = None
        self._hello_sent = 0.0
        self._last_heard = 0.0
        self._problem = "looking for the tray トレイを探し中"
        self._failed = False
        self._snapped = False  # a snapshot was reconciled (see poll)
        self._last_poll: float | None = None  # the clock at the last poll_events
        # SNAPs asked for and not answered yet, and, while a backlog is caught up with
        # (catching_up), how many SNAPs still to come answer what was asked before it.
        self._snaps_asked = 0
        self._stale_snaps: int | None = None
        self._caught_up_asked = 0.0  # when the SNAP that ends catching up was asked for
        self._unanswered = 0  # SNAPs asked again since the tray last sent one (CATCH_UP_ASKS)
        # The tray left SNAPs unanswered, and has answered none since: it works, as each
        # catching up reconnects, but its firmware needs updating (status). Said of a tray
        # that never answered a SNAP, or left them unanswered at two catch-ups in a row;
        # a tray that answers them and lost two answers once is told so neutrally
        # (_missed_snaps, MISSED_SNAPS; reviewz71 NIT 2).
        self._ignores_snap = False
        self._answered_snap = False  # this firmware answered a SNAP the host asked for
        self._missed_snaps = 0  # catch-ups in a row dropped for no SNAP (CATCH_UP_ASKS)
        self._snap_follows_hello = False  # the next SNAP is a HELLO's, answering no SNAP
        self._status_before: ReaderStatus | None = None  # as catching up began
        # Readings no event gives, for the poll that brought them (see poll): the first
        # snapshot's slots, and a slot given a held sticker at start that turned out empty.
        self._extra_readings: list[SlotReading] = []
        # Stickers the first snapshot reported on two slots, with those slots: they lay
        # there at start-up, wherever they turn out to lie (_publish).
        self._held_at_start: dict[str, list[Slot]] = {}
        # The exception type of the tray's last ERR CRASH; with firmware 1.3.4, "board.py"
        # and the error after it when board.py does not load (_crash_text).
        self._crash: tuple[str, ...] | None = None
        self._capture_hello = False  # a replayed capture's HELLO was read (status)
        # What arrived since this handshake began, to say why no HELLO came (_no_hello).
        # The LineReader's counters of lines it dropped, when it began.
        self._hello_dropped: dict[str, int] = {}
        self._hello_bytes = 0
        self._hello_lines = 0  # valid lines
        # The same bytes read as an RDM6300's frames: valid ones, checksum and all, are an
        # RDM6300 on the port (pointed at it, this reader is the wrong kind; rfid69 D2).
        self._hello_frames = Rdm6300Framer()
        # A handshake heard RDM6300 frames and no tray line (or none on a UART, with bytes
        # or a map with RDM6300 IDs), and no tray has said hello since: sticky, a later
        # silent handshake (the tag lifted) leaves it (found_an_rdm6300).
        self._rdm6300 = False

    # -- TileReader -----------------------------------------------------

    def poll(self) -> list[SlotReading]:
        """The slots that changed; with the first snapshot, every slot it reports.

        Events only say what changed, so the first snapshot's empty slots would say
        nothing, and a session could not tell an empty tray from one not heard yet (its
        status is not ok while a reader is down, or the tray has fewer readers than
        slots): the first tile laid, however late, was taken for one lying there at
        start-up. So the first snapshot is given whole, empty slots included, as a
        camera gives its first settled frame; a slot whose reader is down ("?") is left
        out, since nothing is known of it. A sticker that snapshot reports on two slots
        is given on both, as lying there at start-up: it is taken on neither for play
        (:meth:`read_twice`), but wherever it turns out to lie, it lay there (review61f
        F2); the slot it turns out not to lie on is given empty then.
        """
        readings = latest_readings(self.poll_events())
        if self._extra_readings:
            changed = {reading.slot for reading in readings}
            readings += [reading for reading in self._extra_readings
                         if reading.slot not in changed]
            self._extra_readings = []
        return readings

    def status(self) -> ReaderStatus:
        counters = {**self.lines.counters, **self.counters}
        # A replayed capture's link stays up after the tray's crash, which live would have
        # dropped it (the tray resets): its crash is its status too, until a HELLO (rfid75
        # NIT 4: a capture that began with ERR CRASH said "-- ok: tray on stdin" first).
        # Only before the capture's first HELLO: after one, the status is the tray's as the
        # lines came, a crash told at the capture's end, so a capture read in one batch
        # (HELLO, SNAP, PLACE, ERR CRASH) said the crash first and lost its "-- ok" line
        # (reviewrfid75 NIT 3).
        crashed_in_a_capture = self.settings.passive and self._crash is not None \
            and not self._capture_hello
        if self.state is not LinkState.READY or crashed_in_a_capture:
            if self._crash is not None and self._crash[1:2] == ("board.py",):
                # Not a bug a replug clears: the maker's own file, told with its error
                # (firmware/README.md, audit hw74 D2); the tray waits for a mended one.
                crash = _crash_text(self._crash)
                return ReaderStatus(False, f"the tray's firmware crashed ({crash}): mend "
                                    "firmware/board.py and copy it to the tray again "
                                    "(firmware/README.md, step 3) トレイのboard.pyに誤り: "
                                    "直して書き込み直して", counters)
            if self._crash is not None:
                # Not a cable to plug in: the tray said why it went (review61f F4).
                return ReaderStatus(False, f"the tray's firmware crashed ({self._crash[0]}): "
                                    "replug the tray; if it crashes again, flash its firmware "
                                    "again (firmware/README.md) トレイのファームウェアが停止: "
                                    "挿し直し、再発なら書き込み直して", counters)
            return ReaderStatus(False, self._problem or self.link.problem, counters)
        if self.unheard:
            # No tray line yet: a capture of junk, of an RDM6300 or of nothing said the tray
            # was there, and exited 0 (rfid73 DEFECT 2). Its end says what came instead.
            return ReaderStatus(False, f"reading the capture on {self.link.device}: no tray "
                                "line yet トレイの信号待ち", counters)
        where = f"tray on {self.link.device} (firmware {self.firmware}, {self.tray_slots} slots)"
        if self.awaiting_snapshot:
            # Its SNAP follows its HELLO, maybe in a later read: until then what lies on the
            # tray is not known, and a session taking the tray for working would take the
            # snapshot's tiles, a poll later, for tiles laid since (ReadState.update).
            return ReaderStatus(False, f"{where}: reading what lies on it トレイの牌を確認中",
                                counters)
        if self.catching_up:
            # Its backlog may be stale (see catching_up): what lies on it is not known yet.
            # For the moment the SNAP takes to come, the status it had (no flash at an ask).
            before = self._status_before
            if before is not None \
                    and self.clock() - self._caught_up_asked <= CATCH_UP_QUIET_SECONDS:
                return ReaderStatus(before.ok, before.message, counters)
            return ReaderStatus(False, f"{where}: catching up, reading what lies on it "
                                "トレイの牌を確認中", counters)
        if self._stacked:
            # The player's to fix, and the slot keeps its tile meanwhile (the tray reports
            # no removal): first, short, for the status line beside an offer.
            stacked = [s for s in self.slots if s in self._stacked]
            return ReaderStatus(False, f"two tiles on the {_slot_list(stacked)}: leave one "
                                f"{_slot_list_ja(stacked)}に牌が2枚: 1枚にして", counters)
        twice = self.read_twice()
        if twice:
            # Taken on neither slot (see _publish): the player's to put right, like a stack.
            uid, slots = twice[0]
            label = self.tag_map.label(uid)
            sticker = f"{label} {uid}" if label else uid
            # A tile askew over two slots, or a neighbour's antenna reaching a tile laid
            # square: either way, moving it until one slot alone reads it (review61f F7).
            return ReaderStatus(False, f"sticker {sticker} read on the {_slot_list(slots)}: "
                                "move it so only one slot reads it "
                                f"同じシールを{_slot_list_ja(slots)}で読み取り: "
                                "1つの枠だけが読むように動かして", counters)
        if self.unreadable:
            # A sticker the tray read but sent as no UID (tray firmware 1.3.0 cut a 4-byte
            # UID beginning 0x88 to 3 bytes): that slot is not read, the others are.
            slot = next(s for s in self.slots if s in self.unreadable)
            sticker = self.unreadable[slot]
            if len(sticker) > 20:
                sticker = sticker[:20] + "…"
            return ReaderStatus(False, f"the {_slot_list([slot])} reads a sticker as {sticker}, "
                                "no UID the companion takes: use another sticker, or update "
                                "the tray's firmware to 1.3.1 or later (firmware/README.md) "
                                f"{_slot_list_ja([slot])}のシールが読めない", counters)
        if self.no_reader_reads:
            # Every reader down at once is a wire they all share, not five loose ones
            # (hw74 DEFECT 1): what_to_check names those wires first.
            return ReaderStatus(False, f"none of the tray's {self.tray_slots} readers is "
                                "answering トレイの読み取り機がすべて無応答", counters)
        if self.down:
            down = [s for s in self.slots if s in self.down]
            readers = "reader" if len(down) == 1 else "readers"
            verb = "is" if len(down) == 1 else "are"
            # Short: during a read on offer it is shown after the offer (app.session.reads)
            # on a status line of two lines; the slot is what the player needs, not the port.
            return ReaderStatus(False, f"the {readers} under the {_slot_list(down)} {verb} not "
                                f"answering {_slot_list_ja(down)}の読み取り機が無応答", counters)
        if self.tray_slots < len(self.slots):
            missing = self.slots[self.tray_slots:]
            return ReaderStatus(False, f"{where}: no reader under the {_slot_list(missing)} "
                                f"{_slot_list_ja(missing)}に読み取り機なし", counters)
        if self.counters["unknown_slot"]:
            # Not a fault for play (every slot the game uses is read), but a tray built
            # or flashed for more slots than the host knows: say so in the monitor.
            lines = _plural(self.counters["unknown_slot"], "line")
            where += (f"; ignored {lines} about slot numbers "
                      f"past {len(self.slots) - 1}, the companion's last slot")
        if self._ignores_snap:
            where += f"; {IGNORES_SNAP}"
        elif self._missed_snaps:
            where += f"; {MISSED_SNAPS}"
        return ReaderStatus(True, where, counters)

    @property
    def stacked(self) -> set[Slot]:
        """The slots with two tiles or more (ERR COLLISION; :class:`TellsStacks`), for play:
        also those a SNAP just cleared until the lines after it are read (the next that is
        no ERR COLLISION, or :data:`SNAP_DOUBT_SECONDS`). The tray sends a stack's ERR
        COLLISION after its SNAP, and a read may end between them: the stack looked like
        one tile for a poll, and the tile under it was offered again (flaky64 P3). The
        status says what the tray has said."""
        return self._stacked | self._in_doubt

    @stacked.setter
    def stacked(self, slots: set[Slot]) -> None:
        """Take ``slots`` as what the tray says is stacked, nothing in doubt."""
        self._stacked, self._in_doubt = set(slots), set()

    @property
    def crashed(self) -> bool:
        """Whether the tray's last word was its firmware's crash (``ERR CRASH``, a board.py
        that does not load among them), no hello since: it answered, and its status says
        why it stopped (reviewfw74 N2)."""
        return self._crash is not None

    @property
    def awaiting_snapshot(self) -> bool:
        """Whether the tray has said hello but its first SNAP, which follows, is not read yet."""
        return self.state is LinkState.READY and not self._snapped and not self.settings.passive

    @property
    def unheard(self) -> bool:
        """Whether this is a replayed capture (``passive``) from which no valid tray line has
        come yet: the tray is not known to be there (status), and its end says what came
        instead (:meth:`_no_hello`)."""
        return self.settings.passive and self.state is LinkState.READY \
            and not self._hello_lines

    @property
    def catching_up(self) -> bool:
        """Whether a poll came :attr:`TraySettings.stale_after` (:data:`STALE_AFTER_SECONDS`)
        or more after the one before and
        the SNAP it asked for has not come yet (rfid71 DEFECT 1).

        Nothing reads the port between two asks for a tile (a fight, a menu, a talk at the
        table); once the host's buffer is full the tray drops its lines (MicroPython's USB
        stdout gives up after 500 ms), so the backlog may hold the PLACE of a tile laid
        meanwhile and not the REMOVE of its lift: that tile was offered, and counted though
        it lay on no slot. So the lines of such a backlog update what the host knows of
        each slot but give no event, and the SNAP asked for as the poll began is taken as
        the tray's word: only its differences from what the events said before become
        events. A tile laid in between and still lying there is PLACED then, as before (it
        counts when its slot is asked for); one laid and lifted gives nothing. The SNAPs
        that answer what was asked before that poll are older news and do not end it."""
        return self._stale_snaps is not None

    def read_twice(self) -> list[tuple[str, list[Slot]]]:
        """Each sticker the tray reports on two slots or more at once, with those slots.

        One sticker lies on one slot: the other reader reads its neighbour's tile (a
        sticker between two antennas, firmware/README.md), or a tile slid across the
        tray is still seen on the slot it left. Which slot holds it cannot be told, so
        it is taken on neither until one reader loses it (audit hw61 N2). A slot whose
        reader is down does not count: it keeps its last sticker, which a tile moved off
        it to a working slot would otherwise leave "on two slots" (review61f F1)."""
        where: dict[str, list[Slot]] = {}
        for slot in self.slots:
            uid = self.uids[slot]
            if uid is not None and slot not in self.down:
                where.setdefault(uid, []).append(slot)
        return [(uid, slots) for uid, slots in where.items() if len(slots) > 1]

    @property
    def no_reader_reads(self) -> bool:
        """Whether the tray answers but reports every one of its readers down: a wire they
        all share (SCK, MOSI, MISO, RST, 3.3V, GND) or board.py's SPI pins, not one reader's
        own chip-select wire (hw74 DEFECT 1)."""
        reported = self.slots[:self.tray_slots]
        return self.state is LinkState.READY and bool(reported) \
            and all(slot in self.down for slot in reported)

    def what_to_check(self) -> str | None:
        """For ``rfid monitor`` and ``calibrate rfid``: what to check for each reader the
        tray reports down (its chip-select wire and pin, its 3.3V and GND), while the tray
        answers and reads the other slots; when every reader is down
        (:attr:`no_reader_reads`), the wires they all share first, then the chip-select
        wires. None when no reader is down. The status line stays short, for play's
        two-line status."""
        if self.state is not LinkState.READY or not self.down:
            return None
        if self.no_reader_reads:
            return _shared_wires_to_check(self.tray_slots)
        checks = []
        for number, slot in enumerate(self.slots):
            if slot in self.down:
                pin = chip_select_pin(number)
                wire = (f"its SDA (chip select) wire to GP{pin}" if pin is not None
                        else "its SDA (chip select) wire")
                checks.append(f"slot {number}, the {SLOT_NAMES[slot]} slot: {wire}")
        return ("the tray answers and reads the other slots; check " + "; ".join(checks)
                + " (CS_PINS in firmware/board.py), and the reader's 3.3V and GND to the "
                "Pico's 3V3(OUT) and GND (hardware/wiring.md)")

    def found_an_rdm6300(self) -> bool:
        """Whether a handshake on this port heard an RDM6300's frames (checksums right)
        and no tray line, or got no tray line on a UART (:func:`is_a_uart`) with bytes or
        with RDM6300 IDs in the tag map, and no tray has said hello since: this reader is
        the wrong kind there (rfid69 D2). A real RDM6300 on a UART opened at the tray's
        speed sends bytes that are no frame: they are not taken for one, but the port's
        name tells (reviewr69 RISK 3); a silent UART alone does not (reviewr69b RISK 1).
        Still true once closed."""
        return self._rdm6300

    def close(self) -> None:
        self.link.close()
        self.state = LinkState.DISCONNECTED

    # -- driving --------------------------------------------------------

    def wait(self, timeout: float) -> None:
        """Block until bytes arrive or ``timeout`` passes; then call :meth:`poll_events`."""
        self.link.wait(timeout)

    def poll_events(self) -> list[TagEvent]:
        """Read what arrived, run the connection state machine, return the tag events."""
        events: list[TagEvent] = []
        self._extra_readings = []  # only the poll that brings them gives them
        polled, self._last_poll = self._last_poll, self.clock()
        if not self.link.is_open:
            if self.link.try_open():
                self._start_handshake()
                if not self.link.is_open:  # its HELLO not written: gone again
                    self._lost_link(self.link.problem)
            else:
                self._problem = self.link.problem
        if self.link.is_open:
            if polled is not None and self._last_poll - polled >= self.settings.stale_after:
                self._catch_up()  # before reading: its SNAP is the word after the backlog
            elif self.catching_up and self._unanswered < CATCH_UP_ASKS - 1 \
                    and self.clock() - self._caught_up_asked > CATCH_UP_REASK_SECONDS:
                # Long past any backlog: whatever SNAP comes next is news (an answer lost).
                self._unanswered += 1
                self._snaps_asked = 0
                self._catch_up()
            data = self.link.read()
            now = self.clock()
            if data:
                arrived = time.perf_counter()
                # What came before the first tray line, to say why none came (_no_hello).
                listening = self.state is LinkState.HANDSHAKE or self.unheard
                if listening:
                    self._hello_bytes += len(data)
                    self._hello_frames.feed(data)
                for message in self.lines.feed(data):
                    self._last_heard = now  # only a valid line proves the tray is alive
                    if listening:
                        self._hello_lines += 1
                    if not _after_snap(message):
                        self._in_doubt.clear()  # a SNAP's ERR COLLISION lines came before it
                    self._handle(message, arrived, events)
            if self._in_doubt and now - self._snap_at > SNAP_DOUBT_SECONDS:
                self._in_doubt.clear()
            if not self.link.is_open:
                self._lost_link(self.link.problem)
            else:
                self._check_timeouts(now)
        return events

    def _send(self, kind: Kind) -> None:
        self.link.write(encode(self._host_seq, kind))
        self._host_seq = (self._host_seq + 1) % SEQ_MODULO
        if kind is Kind.SNAP:
            self._snaps_asked += 1

    def _catch_up(self) -> None:
        """Begin :attr:`catching_up` (once the first snapshot is read; not for a capture)."""
        if self.state is not LinkState.READY or not self._snapped or self.settings.passive:
            return
        self._status_before = self.status()
        self._stale_snaps = self._snaps_asked  # their answers come first, as old news
        self._caught_up_asked = self.clock()
        self._send(Kind.SNAP)

    def _count_snap(self) -> bool:
        """Count a SNAP come in; whether it is the tray's word now, which ends
        :attr:`catching_up`, or an answer to what was asked before it (old news)."""
        answers = not self._snap_follows_hello  # a HELLO's own SNAP answers no SNAP asked
        self._snap_follows_hello = False
        self._unanswered = 0
        if answers:
            self._ignores_snap = False
            self._answered_snap, self._missed_snaps = True, 0
        if answers and self._snaps_asked:
            self._snaps_asked -= 1
        if self._stale_snaps is None:
            return True
        if not answers:
            return False  # a reboot's, maybe from the backlog: the SNAP asked for follows
        if self._stale_snaps:
            self._stale_snaps -= 1
            return False
        self._stale_snaps = None
        return True

    def _start_handshake(self) -> None:
        self.lines.reset()
        self._snaps_asked, self._stale_snaps, self._unanswered = 0, None, 0
        self._hello_dropped = {name: self.lines.counters[name]
                               for name in ("wrong_version", "bad_crc", "malformed")}
        self._hello_bytes = self._hello_lines = 0
        self._hello_frames = Rdm6300Framer()
        if self.settings.passive:
            self.state = LinkState.READY
            self.firmware, self.tray_slots = "unknown", len(self.slots)
            return
        self.state = LinkState.HANDSHAKE
        waiting = f"waiting for the tray on {self.link.device} to say hello トレイの応答待ち"
        # Keep the last failure in view: it is what the player needs to fix.
        self._problem = f"{waiting} (last time: {self._problem})" if self._failed else waiting
        self._hello_sent = self._last_heard = self.clock()
        self._send(Kind.HELLO)

    def _lost_link(self, problem: str) -> None:
        if self.link.ended and self.unheard:
            # A capture with no tray line in it: what came instead, as a live port's
            # handshake says it (rfid73 DEFECT 2).
            problem = (f"{problem}: {self._no_hello()}" if self._hello_bytes
                       else f"{problem}: the capture on {self.link.device} was empty, no tray "
                       "line in it 記録が空")
        self.state = LinkState.DISCONNECTED
        self._failed = True
        self._problem = problem
        if not self.link.ended:  # the end of a replayed capture is not a drop
            self.counters["reconnects"] += 1

    def _check_timeouts(self, now: float) -> None:
        if self.settings.passive:
            return
        quiet = now - self._last_heard
        unanswered = now - self._hello_sent
        if self.state is LinkState.HANDSHAKE and unanswered > self.settings.hello_timeout:
            problem = self._no_hello()
            self.counters["timeouts"] += 1
            self.link.drop(problem)
            self._lost_link(problem)
        elif self.state is LinkState.READY and quiet > self.settings.heartbeat_timeout:
            problem = (f"the tray on {self.link.device} went silent; reconnecting "
                       "トレイが無応答: 再接続中")
            self.counters["timeouts"] += 1
            self.link.drop(problem)
            self._lost_link(problem)
        elif self.catching_up and self._unanswered >= CATCH_UP_ASKS - 1 \
                and now - self._caught_up_asked > CATCH_UP_REASK_SECONDS:
            # The tray sends HB and moves but answers no SNAP: what lies on it is known
            # again only from the SNAP after a HELLO, so reconnect (reviewr71 RISK 1). A
            # tray that answered SNAPs before and did not at the last catch-up lost two
            # answers in a row (dropped or garbled): its firmware is fine, so the advice
            # waits for it to happen at the next catch-up too (reviewz71 NIT 2).
            self._missed_snaps += 1
            self._ignores_snap = self._missed_snaps > 1 or not self._answered_snap
            if self._ignores_snap:
                problem = f"the tray on {self.link.device} {IGNORES_SNAP}; reconnecting"
            else:
                problem = (f"the tray on {self.link.device} did not answer SNAP twice; "
                           "reconnecting トレイがSNAPに2回無応答: 再接続中")
            self.counters["timeouts"] += 1
            self.link.drop(problem)
            self._lost_link(problem)

    def _no_hello(self) -> str:
        """Why this handshake got no HELLO, judged by what arrived since it began only: a
        stray line of long ago says nothing of a tray gone silent now."""
        device = self.link.device
        if not self._hello_lines and is_a_uart(device):
            # The tray speaks USB only: a UART is never it, and on the Pi's an RDM6300 is
            # what the companion uses. Its frames come at 9600 baud, read here at the
            # tray's 115200 as no frame, or nothing comes with no tag laid: the port's name
            # tells, as the bytes cannot (reviewr69 RISK 3). Silence alone is no RDM6300:
            # nothing may be wired there, and the tray user who named the port by mistake
            # went round a loop, the resume's rdm6300 kind refused at start by a map of
            # tray stickers; so only bytes, or a map with RDM6300 IDs, say rdm6300
            # (reviewr69b RISK 1).
            self._rdm6300 = (self._rdm6300 or bool(self._hello_bytes)
                             or bool(self.tag_map.read_by("rdm6300")))
            got = (f"{_plural(self._hello_bytes, 'byte')} came from {device} but no tray line"
                   if self._hello_bytes else f"no hello from {device}")
            return (f"{got}: it is a serial UART (such as the Pi's pins), never the tray, "
                    "which speaks USB only: for the tray, give its USB port (/dev/ttyACM*; "
                    "`companion rfid list`), or no port at all (input.rfid_port empty, no "
                    "--rfid-port or --port), so it is found; an RDM6300 there needs "
                    f"{RDM6300_KIND} "
                    "シリアルはトレイではない: トレイはUSBのポートで、RDM6300なら種類をrdm6300に")
        dropped = {name: self.lines.counters[name] - before
                   for name, before in self._hello_dropped.items()}
        if dropped["wrong_version"]:
            return ("the tray speaks another protocol version than v1: "
                    "update its firmware (firmware/README.md) or the companion "
                    "トレイの通信の版が違う: ファームウェアを更新して")
        # Tray lines, but none to take: not another device (the bytes below), and not a
        # question of the reader kind (audit rfid63 R2).
        if dropped["bad_crc"]:
            lines = _plural(dropped["bad_crc"], "tray line")
            return (f"{lines} came from {device} but failed {_its(dropped['bad_crc'])} "
                    "checksum: a bad USB cable or hub? (bad_crc) トレイの信号が化けている: "
                    "ケーブルを確認")
        if dropped["malformed"]:
            lines = _plural(dropped["malformed"], "tray line")
            return (f"{lines} came from {device} in a shape this companion does not read: "
                    "update the companion or the tray's firmware (firmware/README.md) "
                    "(malformed) トレイの信号の形が違う: 更新して")
        if self._hello_bytes and not self._hello_lines:
            # Not silence: another device. The tray speaks over USB only, where no baud
            # rate applies, so a speed is never the cause. (The partial line is dropped
            # uncounted at the next handshake, so the counters miss it.)
            self._rdm6300 = self._hello_frames.counters["frames"] > 0
            if self._rdm6300:
                return (f"{_plural(self._hello_bytes, 'byte')} came from {device} but no tray "
                        f"line: they are an RDM6300's frames, which need {RDM6300_KIND} "
                        "RDM6300の信号: 種類をrdm6300に")
            if self.settings.passive:  # a capture: no port to list, bytes of another kind
                return (f"{_plural(self._hello_bytes, 'byte')} came from {device} but no tray "
                        "line: not a capture of the tray (another port or device, or a log?) "
                        "トレイの信号ではない")
            return (f"{_plural(self._hello_bytes, 'byte')} came from {device} but no tray "
                    f"line: an RDM6300 there needs {RDM6300_KIND}; else it is another device, "
                    "not the tray's Pico (`companion rfid list`) トレイの信号ではない")
        return f"no hello from {device}: is it the tray, running our firmware? トレイが応答しない"

    def _handle(self, message: Message, arrived: float, events: list[TagEvent]) -> None:
        if message.kind is Kind.ERR and message.args and message.args[0] == "CRASH":
            # Before its HELLO too: a crash in the tray's power-up polls comes first.
            self._crash = message.args[1:] if len(message.args) > 1 else ("unknown",)
        if _from_host(message):
            # A two-way capture holds the host's lines too (PROTOCOL.md's "A session"): its
            # numbering is not the tray's, so it made lost and out_of_order of the tray's
            # next line, and its argument-less SNAP read as an empty snapshot (rfid71 NIT 5).
            # Live too: a tray never sends one, and an echo of the host's SNAP (a REPL, a
            # loop) would end catching_up with nothing said of the slots.
            return
        if self.state is LinkState.HANDSHAKE:
            if message.kind is not Kind.HELLO or not message.args:
                return  # left over from before our hello; the snapshot will cover it
            self.state = LinkState.READY
            self._failed = False
            self._crash = None  # it is back
            self._rdm6300 = False  # the tray after all
            self.link.connected()
            if message.args[0] != self.firmware:  # another firmware: its SNAPs not known yet
                self._answered_snap = False
            self.firmware, self.tray_slots = message.args[0], int(message.args[1])
            self._expect_seq = None
        if message.kind is Kind.HELLO and message.args:
            # A HELLO's SNAP follows it; a tray that rebooted forgot what it was asked.
            self._snaps_asked, self._snap_follows_hello = 0, True
            self._crash = None  # a crash before this hello is over: the tray started again
            self._capture_hello = self.settings.passive
            if self.catching_up:
                self._stale_snaps = 0
                self._caught_up_asked = self.clock()
                self._send(Kind.SNAP)
        if not self._check_seq(message):
            return
        if message.kind is Kind.SNAP:
            self._count_snap()  # one that ends catching_up is published (_publish)
            self._reconcile(message.args, arrived, events)
        elif message.kind in (Kind.PLACE, Kind.REMOVE):
            slot = self._slot(message.args[0])
            if slot is not None:
                placed = message.kind is Kind.PLACE and self._uid_field(slot, message.args[1])
                self.uids[slot] = message.args[1] if placed else None
                if message.kind is Kind.REMOVE:
                    self.unreadable.pop(slot, None)  # whatever lay there has gone
                self._publish(arrived, events)
        elif message.kind is Kind.ERR:
            self._tray_error(message.args, arrived, events)
        elif message.kind is Kind.HELLO and message.args:
            # The tray rebooted under us: take its word for the slots.
            self.firmware, self.tray_slots = message.args[0], int(message.args[1])

    def _check_seq(self, message: Message) -> bool:
        """Follow the tray's numbering; True when the line is to be handled.

        A number ahead of the expected one counts the lines skipped as ``lost``. One
        behind it is not 65,000 lines lost: the line just handled, again (a bridge
        sending it twice), is a ``duplicate`` and dropped. Any other line from behind is
        ``out_of_order``: the tray restarted its numbering without a HELLO we saw (its
        lines go on from the new number), or a stale line. We follow its numbering but
        drop what it says, since it may be old news. After a gap or a jump back we ask
        for a SNAP: the tray's whole picture puts right whatever we missed or dropped.
        """
        expected = self._expect_seq
        handle = True
        if expected is not None and message.seq != expected and message.kind is not Kind.HELLO:
            if message == self._last_message:
                self.counters["duplicates"] += 1
                return False
            ahead = (message.seq - expected) % SEQ_MODULO
            if ahead < SEQ_MODULO // 2:
                self.counters["lost"] += ahead
            else:
                self.counters["out_of_order"] += 1
                handle = False
            if message.kind is not Kind.SNAP or not handle:
                self._send(Kind.SNAP)
        self._expect_seq = (message.seq + 1) % SEQ_MODULO
        self._last_message = message
        return handle

    def _slot(self, index_text: str) -> Slot | None:
        """The slot a tray line names, or None (counted) for a number past the host's slots."""
        index = int(index_text)
        if index < len(self.slots):
            return self.slots[index]
        self.counters["unknown_slot"] += 1
        return None

    def _uid_field(self, slot: Slot, uid: str) -> bool:
        """Whether a tray line's sticker on ``slot`` is a UID (:func:`is_uid`). One that is not
        makes the slot unreadable, counted (``bad_uid``) and named in the status, with no
        sticker known on it, rather than dropping the line: a SNAP tells every slot, and
        dropped whole for one bad field it told none, so play never began (audit rfid63 R1)."""
        if is_uid(uid):
            self.unreadable.pop(slot, None)
            return True
        self.counters["bad_uid"] += 1
        self.unreadable[slot] = uid
        return False

    def _reconcile(self, fields: tuple[str, ...], arrived: float, events: list[TagEvent]) -> None:
        first = not self._snapped  # its tiles lay on the tray before we came (at_start)
        # The tray follows a SNAP with an ERR COLLISION per stacked slot (see stacked).
        self._in_doubt |= self._stacked
        self._stacked.clear()
        self._snap_at = self.clock()
        if any(uid != EMPTY_UID for uid in fields[len(self.slots):]):
            # A sticker (or a reader down) on a slot the host has no name for: counted and
            # named in the status as a PLACE there is (PROTOCOL.md, host item 4), not dropped
            # without a word; an empty one says nothing to ignore (rfid71 NIT 2).
            self.counters["unknown_slot"] += 1
        for slot, uid in zip(self.slots, fields, strict=False):
            if uid in (DOWN_UID, EMPTY_UID):
                self.unreadable.pop(slot, None)
            if uid == DOWN_UID:
                self.down.add(slot)
                continue
            self.down.discard(slot)
            known = uid != EMPTY_UID and self._uid_field(slot, uid)
            self.uids[slot] = uid if known else None
        if first:
            self._snapped = True
            self._extra_readings = [SlotReading(slot, EMPTY, 1.0)
                                    for slot, uid in zip(self.slots, fields, strict=False)
                                    if uid == EMPTY_UID]
            for uid, slots in self.read_twice():
                self._held_at_start[uid] = slots
                self._extra_readings += [self._placed(slot, uid, arrived).reading()
                                         for slot in slots]
        self._publish(arrived, events, at_start=first)

    def _placed(self, slot: Slot, uid: str, arrived: float, at_start: bool = False) -> TagEvent:
        return TagEvent(TagAction.PLACED, slot, uid, self.tag_map.label(uid), arrived, at_start)

    def _publish(self, arrived: float, events: list[TagEvent], at_start: bool = False) -> None:
        """Turn the tray's word into events: each slot's sticker, unless the tray reports
        that sticker on another slot too (:meth:`read_twice`), when neither slot takes it.
        Removals come first, so a tile moved between two slots leaves one before it
        lies on the other. A down reader's last sticker, read now on a working slot, has
        left it. A sticker held back from the first snapshot lay there at start-up: its
        placing says so, and a slot it was given on that turns out empty is given empty
        (see :meth:`poll`). Nothing while :attr:`catching_up`: the lines of a backlog that
        may be stale are no news, the SNAP that ends it tells what changed."""
        if self.catching_up:
            return
        twice = {uid for uid, _ in self.read_twice()}
        live = {uid for slot, uid in self.uids.items() if slot not in self.down}
        wanted = {slot: None if uid in twice or (slot in self.down and uid in live) else uid
                  for slot, uid in self.uids.items()}
        changed = [slot for slot in self.slots if wanted[slot] != self.shown[slot]]
        lay_there: set[Slot] = set()
        for held in [held for held in self._held_at_start if held not in twice]:
            for slot in self._held_at_start.pop(held):
                if wanted[slot] == held:
                    lay_there.add(slot)
                elif slot not in changed:
                    self._extra_readings.append(SlotReading(slot, EMPTY, 1.0))
        for slot in changed:
            old = self.shown[slot]
            if old is not None:
                events.append(TagEvent(TagAction.REMOVED, slot, old, self.tag_map.label(old),
                                       arrived))
        for slot in changed:
            uid = wanted[slot]
            if uid is not None:
                events.append(self._placed(slot, uid, arrived, at_start or slot in lay_there))
            self.shown[slot] = uid

    def _tray_error(self, args: tuple[str, ...], arrived: float, events: list[TagEvent]) -> None:
        code = args[0]
        if code in ("READER_DOWN", "READER_UP") and len(args) > 1 and args[1].isdigit():
            slot = self._slot(args[1])
            if slot is not None:
                (self.down.add if code == "READER_DOWN" else self.down.discard)(slot)
                self._publish(arrived, events)  # whether its sticker counts twice changed
                if code == "READER_DOWN" and slot in self._stacked | self._in_doubt:
                    # A reader down reads no stack: "two tiles … leave one" stayed after
                    # both were lifted, and never said the reader was not answering
                    # (rfid73 NIT 3). The tray (before firmware 1.3.4) repeats its COLLISION
                    # after each SNAP, taken for no stack below while the reader is down.
                    self._stacked.discard(slot)
                    self._in_doubt.discard(slot)
                    self._stacked_when_down.add(slot)
                elif code == "READER_UP" and slot in self._stacked_when_down:
                    # Up again, a tray before firmware 1.3.4 does not send its COLLISION
                    # again if the tiles still lie stacked (it sent it once, and after each
                    # SNAP); 1.3.4 sends it right after the READER_UP, and COLLISION_END
                    # once clean reads follow: ask for a SNAP, which says it either way.
                    self._stacked_when_down.discard(slot)
                    self._send(Kind.SNAP)
            if code == "READER_UP":
                return
        if code in ("COLLISION", "COLLISION_END") and len(args) > 1 and args[1].isdigit():
            # Two tiles on one slot: the player's move, not a fault of the tray (not counted).
            slot = self._slot(args[1])
            if slot is not None and code == "COLLISION" and slot in self.down:
                # Not shown while its reader is down, but remembered: a host that learnt
                # of the down reader from a SNAP (a game restarted, a reconnection, a
                # READER_DOWN lost in an overflow) gets no new COLLISION at its READER_UP
                # from a tray before firmware 1.3.4 if the tiles still lie stacked, so
                # that READER_UP asks for a SNAP (reviewr73 RISK 1).
                self._stacked_when_down.add(slot)
            elif slot is not None:
                (self._stacked.add if code == "COLLISION" else self._stacked.discard)(slot)
            return
        self.counters["tray_errors"] += 1


def _from_host(message: Message) -> bool:
    """Whether ``message`` is shaped as the host's, never the tray's: a ``PING``, or a
    ``HELLO`` or ``SNAP`` with no arguments (the tray's carry its version and slot count, or
    one field per slot)."""
    return message.kind is Kind.PING or (
        message.kind in (Kind.HELLO, Kind.SNAP) and not message.args)


def _after_snap(message: Message) -> bool:
    """Whether ``message`` may come before a SNAP's last ERR COLLISION: one of them, or a
    SNAP (or the HELLO of a reconnection, its SNAP next) whose own ones then follow."""
    return message.kind in (Kind.SNAP, Kind.HELLO) \
        or (message.kind is Kind.ERR and message.args[:1] == ("COLLISION",))


def _plural(count: int, noun: str) -> str:
    """``1 byte``, ``2 bytes``: a count with its noun.

    >>> _plural(1, "tray line"), _plural(3, "byte")
    ('1 tray line', '3 bytes')
    """
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _its(count: int) -> str:
    return "its" if count == 1 else "their"


def _slot_list_ja(slots: Sequence[Slot]) -> str:
    """``_slot_list`` in Japanese: 引き牌の枠, 引き牌の枠と部屋の左上."""
    return "と".join(SLOT_NAMES_JA[s] for s in slots)


#: The wires every reader of the tray shares, with the board.py name of each one's pin.
SHARED_WIRES = (("SCK", "SCK_PIN"), ("MOSI", "MOSI_PIN"), ("MISO", "MISO_PIN"),
                ("RST", "RST_PIN"))


def _shared_wires_to_check(readers: int) -> str:
    """What to check when none of the tray's ``readers`` answers: the SPI bus, reset and
    power wires they all share, with their pins from firmware/board.py, before each
    reader's own chip-select wire (hw74 DEFECT 1)."""
    wires = []
    for wire, name in SHARED_WIRES:
        pin = firmware_constant("board.py", name)
        wires.append(f"{wire} to GP{pin}" if isinstance(pin, int) else wire)
    pins = [chip_select_pin(number) for number in range(readers)]
    chip_selects = ", ".join(f"GP{pin}" for pin in pins if pin is not None)
    return ("no reader on the tray answers, so check first the wires they all share: "
            + ", ".join(wires) + " (SPI0's pins: SCK_PIN, MOSI_PIN, MISO_PIN, RST_PIN in "
            "firmware/board.py), and the readers' 3.3V and GND to the Pico's 3V3(OUT), or to "
            "the separate 3.3 V regulator, and GND (hardware/wiring.md, power budget); then "
            "each reader's SDA (chip select) wire"
            + (f" ({chip_selects}: CS_PINS in firmware/board.py)" if chip_selects else ""))


def _crash_text(crash: tuple[str, ...]) -> str:
    """An ERR CRASH of a board.py that does not load, ``<type> board.py <error words>``, as
    the status says it: "SyntaxError in board.py: invalid syntax"."""
    words = " ".join(crash[2:])
    return f"{crash[0]} in {crash[1]}" + (f": {words}" if words else "")


def _slot_list(slots: Sequence[Slot]) -> str:
    """``the {…}``: "draw slot", "draw and top-left room slots", as the prompts name them."""
    names = [SLOT_NAMES[s] for s in slots]
    if len(names) == 1:
        return f"{names[0]} slot"
    return f"{', '.join(names[:-1])} and {names[-1]} slots"
