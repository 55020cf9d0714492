"""The tray: polls its readers round-robin, debounces, talks protocol v1.

A reader is any object with ``read_uid()`` (the tag's UID as bytes, or None
when no tag answers, or ``COLLISION`` when several tags answer at once; OSError
when the chip itself does not answer) and ``init()`` (re-initialise the chip
after a fault).

Two tiles stacked on one slot are a collision, not an empty slot: seen
``place_after`` polls in a row it is reported (``ERR COLLISION <slot>``, again
after every ``SNAP``) and the slot keeps its tile while its reads collide;
``remove_after`` clean polls in a row end it (``ERR COLLISION_END <slot>``). Once
they stop, a tile read cleanly ``place_after`` times is PLACEd, which may come
before that COLLISION_END (audit fw65 N3).

Debounce: a tag must be read ``place_after`` polls in a row to count as
placed, and missed ``remove_after`` polls in a row to count as removed, so a
tag at the edge of the field or a single failed anticollision does not flicker.
A UID of another length than 4, 7 or 10 bytes is no tag: no line carries it.
A reader that raises ``fail_after`` times in a row is reported down and only
retried (re-initialised) every ``retry_ms``; its slot keeps its last state, its collision
too: no ``ERR COLLISION`` follows a ``SNAP`` for it while it is down (the SNAP says
``?``), and its ``READER_UP`` is followed by ``ERR COLLISION`` again, which the next
reads end (``COLLISION_END``) if the tiles were lifted meanwhile. A reader that comes up
for fewer polls than a collision takes is still told as stacked each time (reviewa74 D1).
"""

try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython: the tests and the simulator pass plain milliseconds

    def ticks_add(ticks, delta):
        return ticks + delta

    def ticks_diff(new, old):
        return new - old


from jrtray import protocol

EMPTY = "-"
DOWN = "?"
COLLISION = "collision"  # read_uid: several tags answered (mfrc522.COLLISION)
# The UID lengths a line carries (PROTOCOL.md): a read of another length is no tag for the
# slot, never a line the host would drop whole, taking the other slots' news with it
# (audit rfid63 R1).
UID_LENGTHS = (4, 7, 10)


class SlotState:
    """What the tray believes about one slot."""

    def __init__(self):
        self.uid = None  # the settled tag, upper-case hex
        self.candidate = None  # the tag being confirmed
        self.seen = 0
        self.missed = 0
        self.failures = 0
        self.down = False
        self.retry_at = 0
        self.collisions = 0  # collision polls in a row
        self.clean = 0  # polls in a row without one, while colliding
        self.colliding = False  # ERR COLLISION sent, not yet ended


class Tray:
    """The firmware state machine; ``send`` takes each framed line as a str."""

    def __init__(self, readers, version, send, heartbeat_ms=1000, place_after=2,
                 remove_after=3, fail_after=3, retry_ms=1000, boot_misses=2):
        self.readers = readers
        self.version = version
        self.send = send
        self.heartbeat_ms = heartbeat_ms
        self.place_after = place_after
        self.remove_after = remove_after
        self.fail_after = fail_after
        self.retry_ms = retry_ms
        self.boot_misses = boot_misses
        self.slots = [SlotState() for _ in readers]
        self.seq = 0
        self.next_slot = 0
        self.last_sent = 0
        self.inbox = b""
        self.overflowed = False
        self.quiet = False

    # -- output ---------------------------------------------------------

    def emit(self, kind, args, now):
        if self.quiet:  # boot's first polls: the snapshot after them tells what they found
            return
        self.send(protocol.frame(self.seq, kind, args))
        self.seq = (self.seq + 1) & 0xFFFF
        self.last_sent = now

    def hello(self, now):
        self.emit("HELLO", (self.version, str(len(self.slots))), now)

    def snapshot(self, now):
        fields = []
        for state in self.slots:
            fields.append(DOWN if state.down else (state.uid or EMPTY))
        self.emit("SNAP", fields, now)
        for index, state in enumerate(self.slots):  # a host that just came needs them too
            if state.colliding and not state.down:  # a down slot's comes at its READER_UP
                self.emit("ERR", ("COLLISION", str(index)), now)

    def boot(self, now, feed=None):
        """Read every slot, then announce ourselves once at power-up (the host may not be
        listening yet). A USB replug cuts the tray's power: a snapshot sent before any poll
        said "empty" for every tile that stayed put, and the host saw each one removed and
        placed again (audit hw61 R1). So each reader is polled as often as a tile takes to
        count as placed (or a reader as down), without a word: the snapshot says it all.
        A tag at the edge of the field may be missed ``boot_misses`` times among those
        polls and still be in it (review61f F6), see :meth:`boot_rounds`. A host's HELLO
        sent meanwhile waits in the USB buffer.

        ``feed`` (the watchdog's) is called after each round: board.py's counts set how
        many rounds there are, and with PLACE_AFTER 32 or FAIL_AFTER 30 they outlasted the
        8 s watchdog, which reset the tray before its HELLO, again at every start, with no
        ERR CRASH (reviewrfid75 R2). A round is one poll of each reader, well under it."""
        self.quiet = True
        try:
            for _ in range(self.boot_rounds()):
                for index in range(len(self.slots)):
                    self.poll_slot(index, now)
                if feed is not None:
                    feed()
        finally:  # a crash in these polls must still be told (ERR CRASH, firmware/main.py)
            self.quiet = False
        self.hello(now)
        self.snapshot(now)

    def boot_rounds(self):
        """Polls of each reader at power-up: with ``boot_misses`` misses among them, some
        ``place_after`` reads still come in a row (the misses split the reads into
        ``boot_misses + 1`` runs, one of which is that long); and enough for a dead reader
        to count as down. 2 and 2: 6 rounds."""
        return max(self.place_after * (self.boot_misses + 1), self.fail_after)

    # -- input ----------------------------------------------------------

    def feed(self, data, now):
        """Take bytes from the host; act on every complete command line."""
        self.inbox += data
        while True:
            end = self.inbox.find(b"\n")
            if end < 0:
                break
            line, self.inbox = self.inbox[:end], self.inbox[end + 1:]
            if self.overflowed:
                self.overflowed = False  # the tail of an overlong line
                continue
            if len(line) > protocol.MAX_LINE:  # overlong though whole in one read: dropped too
                self.emit("ERR", ("OVERFLOW",), now)
                continue
            if line.strip():
                self.command(line, now)
        if len(self.inbox) > protocol.MAX_LINE:
            self.inbox = b""
            if not self.overflowed:  # one ERR OVERFLOW a line, however many reads it takes
                self.overflowed = True
                self.emit("ERR", ("OVERFLOW",), now)

    def command(self, line, now):
        parsed = protocol.parse(line)
        if isinstance(parsed, str):
            self.emit("ERR", (parsed,), now)
            return
        kind = parsed[1]
        if kind == "HELLO":
            self.hello(now)
            self.snapshot(now)
        elif kind == "SNAP":
            self.snapshot(now)
        elif kind == "PING":
            self.heartbeat(now)
        else:
            self.emit("ERR", ("BAD_CMD", kind[:16]), now)

    # -- polling --------------------------------------------------------

    def heartbeat(self, now):
        self.emit("HB", (str(now // 1000),), now)

    def step(self, now):
        """Poll the next reader; send a heartbeat when the line has been quiet."""
        if self.slots:
            index = self.next_slot
            self.next_slot = (index + 1) % len(self.slots)
            self.poll_slot(index, now)
        if ticks_diff(now, self.last_sent) >= self.heartbeat_ms:
            self.heartbeat(now)

    def poll_slot(self, index, now):
        state = self.slots[index]
        reader = self.readers[index]
        if state.down and ticks_diff(now, state.retry_at) < 0:
            return
        try:
            if state.down:
                reader.init()
            raw = reader.read_uid()
        except OSError:
            self.reader_failed(index, state, now)
            return
        if state.down or state.failures:
            state.failures = 0
            if state.down:
                state.down = False
                self.emit("ERR", ("READER_UP", str(index)), now)
                if state.colliding:  # held while down: said again before any SNAP can ask
                    self.emit("ERR", ("COLLISION", str(index)), now)
        if raw == COLLISION:
            self.collided(index, state, now)
            return
        self.uncollided(index, state, now)
        self.debounce(index, state, hex_uid(raw) if raw and len(raw) in UID_LENGTHS else None,
                      now)

    def collided(self, index, state, now):
        """Several tags on the slot: say so once it holds; keep the slot's tile (neither
        missed nor replaced: what lies there is not known)."""
        state.collisions += 1
        state.clean = 0
        state.missed = 0
        state.candidate = None
        state.seen = 0
        if not state.colliding and state.collisions >= self.place_after:
            state.colliding = True
            self.emit("ERR", ("COLLISION", str(index)), now)

    def uncollided(self, index, state, now):
        state.collisions = 0
        if state.colliding:
            state.clean += 1
            if state.clean >= self.remove_after:
                state.colliding = False
                state.clean = 0
                self.emit("ERR", ("COLLISION_END", str(index)), now)

    def reader_failed(self, index, state, now):
        state.failures += 1
        state.retry_at = ticks_add(now, self.retry_ms)
        if not state.down and state.failures >= self.fail_after:
            state.down = True
            # A reader down reads no stack, but its collision is kept (not repeated after a
            # SNAP while it is down, fixcarry74) and told again at its READER_UP: forgotten
            # here, a reader up for fewer polls than a collision takes (a loose wire) never
            # said the stack again, and the host took the slot's old tile for the only one
            # (reviewa74 D1). Its counts carry on past the failures, as its debounce does:
            # a stack lifted meanwhile ends after REMOVE_AFTER clean reads however it flaps.
            self.emit("ERR", ("READER_DOWN", str(index)), now)

    def debounce(self, index, state, uid, now):
        if uid is None:
            state.candidate = None
            state.seen = 0
            if state.uid is not None:
                state.missed += 1
                if state.missed >= self.remove_after:
                    self.emit("REMOVE", (str(index), state.uid), now)
                    state.uid = None
                    state.missed = 0
            return
        state.missed = 0
        if uid == state.uid:
            state.candidate = None
            state.seen = 0
            return
        if uid == state.candidate:
            state.seen += 1
        else:
            state.candidate = uid
            state.seen = 1
        if state.seen >= self.place_after:
            if state.uid is not None:
                self.emit("REMOVE", (str(index), state.uid), now)
            state.uid = uid
            state.candidate = None
            state.seen = 0
            self.emit("PLACE", (str(index), uid), now)


def hex_uid(raw):
    """UID bytes as upper-case hex, the way every line carries them."""
    return "".join(f"{b:02X}" for b in raw)
