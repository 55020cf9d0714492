"""Tiles read from the table: what a reading means, waiting for a new one, confirming it.

A tile read from the table is shown before it counts: the player can reject it
(FLEE / back) during ``accept_seconds``, confirm it at once (ATTACK), or let the
timeout accept it. It is only taken from a *new* placement on the slot, so a tile
left lying there from the last step is never counted twice (nor when its sticker
flickers, nor when a hand passes over it before the camera, see :meth:`ReadState.update`).
The offer follows the tile on the slot:
another tile laid there while a read is on offer replaces it (see
:func:`wait_for_tile`). Nor is a tile that already lay on a slot when the session
began (a new game, or ``--resume`` after a power cut: it may have been counted before
the cut): the player lifts it and lays it again to count it, and is told so.

A tile the camera cannot settle on (art it knows badly: a framed White, a peacock 1s)
is not only "straighten it": its likeliest legal tiles are offered, and the player
may pick one (a tap or number key, or ATTACK once a button has moved onto one). No
time runs out on that; a pick counts at once, being the player's own word. A camera's
"uncertain" is offered only once its slot lies still (:class:`TellsStill`): a hand moving
over a slot reads so too, and a pick of what is not there would count. A tile the camera
reads as empty (a blank White taken for bare paper) is given by the item button's long
press (:data:`EMPTY_PICK_PRESS`), which then offers every legal tile to pick.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from companion.app.session.controls import READ_OPTIONS, Confirm, Controls, in_window
from companion.app.session.mode import Show, TileAsk
from companion.errors import ImpossibleRead
from companion.hw.buttons import Button, Pick, Press
from companion.hw.camera.pace import Pace
from companion.hw.display.view import Option
from companion.hw.ports import SLOT_NAMES, SLOT_NAMES_JA, Slot, SlotReading, TileReader
from companion.hw.rfid.wallcheck import UnknownTag, check_drawn
from companion.systems.jongrogue.tiles import ALL_KINDS, BACK, EMPTY, Tile
from companion.systems.jongrogue.wall import TileLedger

PICKS = 3  # the likeliest legal tiles offered for a tile the reader cannot settle on
# The pick after those likeliest tiles that opens every legal tile (misread_picks): the tile
# laid may be one the camera ranks 4th or lower, or not at all (reviewc71 DEFECT 2).
OTHER = "other"
OTHER_LABEL = "Other tile… 他の牌"
# How often the player rejects the camera's same read of a slot before every legal tile is
# offered to pick (misread_picks): the tile laid again reads the same (camera71 DEFECT 4).
MISREAD_REJECTS = 2
# After the status of a tile offered as picks: how the four buttons pick (no number keys).
# The picks leave the status three narrow rows at 800x480: it and the problem are short.
PICK_HINT = "; or pick: item moves, A takes 選ぶ: I移動 A決定"
# After rejected_again, beside every legal tile to pick (one row at 800x480): how the buttons
# pick, then the camera taught the tile by `companion calibrate camera --enrol` after the game.
MISREAD_HINT = "; I moves, A takes; enrol it later 後で登録"
# The status beside every legal tile once the player opened "Other tile…" (OPENED_HINT after
# it): one row at 800x480 and 1024x600, as after rejected_again. The read's problem and
# PICK_HINT were cut there, and what A does with them (reviewc71b NIT 2); the player who
# chose to pick needs only how.
OPENED_STATUS = "pick the tile laid 置いた牌を選んで"
OPENED_HINT = "; I moves, A takes 選ぶ: I移動 A決定"
# After the status of a held start-up slot's tile offered as the one pick (held_pick).
HELD_PICK_HINT = "; pick: item moves, A takes 選ぶ: I移動 A決定"
# The press that opens every legal tile to pick (misread_picks) while the camera reads the
# slot asked for as empty: a tile it takes for bare paper (a blank White 5z 白) is laid
# there, and it would be asked for for ever (fixcam71b, empty reads). MENU, the item
# button's long press (key m, an arrow), moves the highlight through picks and does nothing
# while a tile is awaited and none is offered: a deliberate press, no ordinary one (an
# "Other tile…" pick offered on every empty slot had every ask show picks and scripted
# presses open them, and hid the "laid on the wrong slot" status).
EMPTY_PICK_PRESS = Button.MENU
# How long the camera must have read the slot asked for as empty, in the wait, before the
# status says how to pick a tile it does not see (EMPTY_HINT): the usual wait is a player
# drawing a tile, told nothing new.
EMPTY_HINT_SECONDS = 10.0
EMPTY_HINT = "laid it, not seen? hold item (key m) to pick it 読めない時: I長押しで選ぶ"
# The status of every legal tile offered so (MISREAD_HINT after it): a tile the camera takes
# for bare paper, to enrol after the game. One row at 800x480 beside 34 picks: the slot is
# not named (the prompt names it).
READS_EMPTY = "slot reads empty: pick the tile laid 空と読む: 置いた牌を選んで"
# How long the slot asked for must read empty before every legal tile up to pick ("Other
# tile…" opened, or a read rejected twice) is taken for lifted, and closes: a camera's read
# near its threshold flickers (a settled 3m "uncertain" a moment, and back), and a list
# closed and reopened lost the place of a player some presses into 34 (reviewc71b RISK 1).
LIFTED_SECONDS = 1.0
ONE_SLOT_ROOM_PROMPT = ("Lay this room's 4 tiles: draw one, put it on the draw slot to read it, "
                        "then lay it on the {slot} slot "
                        "部屋の4枚: 1枚引いて引き牌の枠で読ませ、{slot_ja}に置いて")


# How long a slot must stay empty before the sticker last counted from it counts again
# when it comes back. A flicker (a sticker at the edge of a reader's field: REMOVE then
# PLACE of the same UID) is well under a second; the same physical tile really coming
# back needs the discards shuffled into the wall and drawn again, far longer than this.
RELAY_SECONDS = 5.0
# How long the slot asked for shows the tile the camera last counted from it before the
# screen says so (counted_already): a twin swapped in faster than the camera saw the slot
# empty is never counted, and the player would wait for ever. Not at once: the usual case
# is a player who has not cleared the last step's tile yet (docs/playing.md, step 2).
COUNTED_HINT_SECONDS = 5.0
# How soon after a single RDM6300 (the one-slot reader) first works a sticker it reads was
# lying there when the session began. The tray sends its snapshot with its hello, but an
# RDM6300 only repeats a present tag's frame (every 0.1-0.3 s), so the first comes a poll
# or two after its port opened. Nobody lays a tile within a second of the companion starting.
RDM6300_STARTUP_SECONDS = 1.0
# How long a camera's start-up slot never seen empty or bare (ReadState.unlifted) must show
# a tile lying still, and be asked for, before that tile is offered to pick
# (ReadState.held_pick): a shadow across an empty slot at start-up never reads empty, and the
# player who laid the first tile there and waits is not to be held for ever (reviewc66
# DEFECT 1). Not at once: a hand over the start-up tile as reading began reads so too, a
# shadow's look changing with nothing laid reads a tile (reviewc66b DEFECT 2), and the player
# who cleared the old tile when asked must have the time to (reviewc66b RISK 1).
HELD_PICK_SECONDS = 5.0
# The readings of a held start-up slot kept (ReadState.looks): enough for any lift and lay.
HELD_LOOKS = 32


# Shown instead of the ask for a tile until the reader is up (ReadState.ready): a tile laid
# before its first readings would be taken for one that lay there at start-up, and refused.
STARTING_PROMPT = "Starting the tile reader: lay no tile yet 読み取り準備中、まだ牌を置かないで"
STARTING_STATUS = "starting the reader… wait 準備中"


def at_start_problem(slot: Slot, reading: SlotReading, relay_seconds: float) -> str:
    """What the player is told of a tile that lay on a slot when the session began."""
    where, where_ja = SLOT_NAMES[slot], SLOT_NAMES_JA[slot]
    if reading.uid is not None:  # its sticker back within relay_seconds is a flicker
        return (f"a tile lay on the {where} slot at start-up: to count it, lift it for "
                f"{relay_seconds:.0f} s and lay it again "
                f"起動時から{where_ja}にあった牌: {relay_seconds:.0f}秒離して置き直して")
    return (f"a tile lay on the {where} slot at start-up: lift it and lay it again to count "
            f"it 起動時から{where_ja}にあった牌: 置き直して")


def covered_at_start(slot: Slot) -> str:
    """What the player is told of a camera's start-up slot that did not show its tile plainly
    when the session began (a hand over it, a shadow across it: read "uncertain", face down
    or as another tile) and was never seen empty or bare since: a tile may have lain there,
    or none (a hand holding the first tile, a shadow over the empty slot: reviewc66 RISK 1)."""
    return (f"the {SLOT_NAMES[slot]} slot was covered or in shadow when the companion started: "
            "lift the tile and lay it again to count it 起動時に枠が隠れていた(影?): 置き直して")


def covered_pick(slot: Slot, label: str, relaid: bool = False) -> str:
    """The status of a held start-up slot's tile offered as the one pick
    (:meth:`ReadState.held_pick`), named so the player can check it against the mat: only
    the player knows whether it was laid since start-up (or, ``relaid``: it is the tile the
    slot showed then, lifted and laid again), and what to do if not (reviewc66b RISK 1)."""
    tile, where = Tile.from_notation(label), SLOT_NAMES[slot]
    if relaid:
        return (f"{tile} {tile.name_ja} on the {where} slot: pick it if you lifted it and laid "
                "it again; if not, take it off 置き直したなら選んで・違えば取って")
    return (f"{tile} {tile.name_ja} on the {where} slot: pick it if you laid it since "
            "start-up; if it lay there before, take it off "
            "起動後に置いたなら選んで・前からなら取って")


def came_back(looks: Sequence[str | None], steady: Sequence[bool],
              unboxed: Sequence[bool]) -> bool:
    """Whether the last of a held slot's readings is the tile it showed at start-up, and the
    slot showed in between, lying still (``steady``), the paper under a shadow: covered with
    no tile's outline, grey, still and paper on the same poll (``unboxed``,
    :meth:`ReadState.settle`; 5m, None, 5m): the tile was lifted and laid again, though the
    camera never saw the slot bare (a shadow across it: reviewc66b DEFECT 1). A hand passing
    over it (moving, never still) is not, nor one resting on it, which leaves the tile's
    outline in sight or shows its own, or its skin (reviewc66c DEFECT 2, reviewc67b DEFECT 1:
    after a still hand over the untouched start-up tile it was offered to pick, and counted
    twice): in plain light a lift is seen bare."""
    if len(looks) < 3 or looks[-1] in (None, BACK, EMPTY) or looks[-1] != looks[0]:
        return False
    return any(still and paper and look != looks[0]
               for look, still, paper in zip(looks[1:-1], steady[1:-1], unboxed[1:-1],
                                             strict=True))


def counted_already(slot: Slot, label: str) -> str:
    """What the player is told of the camera's tile counted from ``slot`` and never seen
    lifted since, while a new tile is asked for there: a twin laid in its place unseen (the
    camera down, a hand over the slot, a swap within a frame or two) counts only laid again
    (camplay65 RISK 1)."""
    tile = Tile.from_notation(label)
    return (f"{tile} {tile.name_ja} on the {SLOT_NAMES[slot]} slot was counted already: if you "
            "laid a new one, lift it and lay it again "
            "確定済みの牌: 新しい牌なら一度持ち上げて置き直して")


def misplaced(state: ReadState, slot: Slot) -> str:
    """What the player is told while ``slot`` is asked for and a new tile lies on another
    slot (laid on the wrong one): both slots named; else "". The reading stays fresh, so it
    counts when its own slot is asked for (a room's tiles laid ahead of the prompts)."""
    for other in Slot:
        reading = state.latest.get(other)
        if other is slot or other not in state.fresh or reading is None \
                or reading.label in (None, BACK, EMPTY):
            continue
        tile = Tile.from_notation(reading.label)
        return (f"{tile} is on the {SLOT_NAMES[other]} slot: the tile asked for goes on the "
                f"{SLOT_NAMES[slot]} slot {tile.name_ja}は{SLOT_NAMES_JA[other]}: "
                f"{SLOT_NAMES_JA[slot]}に置いて")
    return ""


def rejected_again(tile: Tile) -> str:
    """The status of a camera's read the player rejected :data:`MISREAD_REJECTS` times, with
    every legal tile offered to pick (:func:`misread_picks`): the game goes on with the
    player's word, and the camera is taught the tile by enrolling it after the game (it
    is saved: ``play --resume`` carries on), or it misreads it in every game (camera71
    DEFECT 4). What to do now first, in both languages, then how (:data:`MISREAD_HINT`,
    the enrol advice last): beside every legal tile's pick the screen leaves the status one
    row at 800x480, which cut the buttons' hint and the advice (reviewc71 NIT 6)."""
    return f"read {tile} {tile.name_ja} again: pick the tile laid 置いた牌を選んで"


def fifth_copy(tile: Tile, slot: Slot) -> str:
    """A read the wall refuses (JR-WALL-1): every copy of its kind is already out."""
    # Short: the picks offered beside it leave the status three narrow rows (PICK_HINT).
    return (f"{tile} {tile.name_ja} on the {SLOT_NAMES[slot]} slot: a 5th copy, lay it again "
            "5枚目: 置き直して")


@runtime_checkable
class TellsStacks(Protocol):
    """A reader that knows when two tiles or more lie on one slot (the RFID tray's ERR
    COLLISION); what such a slot holds is not known until one is lifted."""

    @property
    def stacked(self) -> Collection[Slot]: ...


@runtime_checkable
class TellsQuiet(Protocol):
    """A reader that knows its last poll saw nothing change on the table (the camera's):
    while it stays quiet it is polled a few times a second, not at every ``poll_seconds``
    (:class:`~companion.hw.camera.pace.Pace`)."""

    @property
    def quiet(self) -> bool: ...


@runtime_checkable
class TellsStill(Protocol):
    """A reader that knows whether a slot lies still (the camera's): what the slot settled
    on has not moved for as long as a read needs to settle. A hand moving over a slot is
    not still, though a camera may settle on "uncertain" under it as on a tile it cannot
    read: only a still slot's "uncertain" offers tiles to pick."""

    def still(self, slot: Slot) -> bool: ...


@runtime_checkable
class TellsPaper(Protocol):
    """A reader that knows whether a slot's last frames showed the paper under a shadow (the
    camera's): settled "uncertain", covered with no tile's outline. The readings cannot say
    it: "uncertain" settled under a hand moving over a tile stays the reading when the tile
    is lifted under the hand and the shadowed paper is left (reviewc67 DEFECT 1), and when a
    flat hand turns to its fingers resting on the tile (reviewc67b DEFECT 2)."""

    def paper(self, slot: Slot) -> bool: ...


@runtime_checkable
class TellsBare(Protocol):
    """A reader that says which slots its last poll saw bare (the camera's): the empty
    paper, in one frame, before an empty read settles. A tile lifted and laid again
    quicker than that was still seen gone; a hand over a tile is never bare paper."""

    @property
    def bare(self) -> Collection[Slot]: ...


def same_tile(a: SlotReading, b: SlotReading) -> bool:
    """Whether two readings are of the same tile: the same sticker, or (camera) the same label."""
    return (a.uid, a.label) == (b.uid, b.label)


@dataclass(slots=True)
class ReadState:
    """What the table reader last said about each slot, and which readings were already used.

    ``fresh`` holds the slots whose latest reading may still be counted; ``at_start``
    the slots holding a tile that lay there when reading began (with ``startup``), and
    ``unlifted`` those of them the camera read (never seen empty or bare since);
    ``counted`` the camera's labels of the tile counted from a slot and not seen lifted
    since (the tile counted first), and ``hidden`` those of its slots the camera has not
    seen plainly since (an uncertain read, another label, the reader down).
    """

    latest: dict[Slot, SlotReading] = field(default_factory=dict)
    fresh: set[Slot] = field(default_factory=set)
    used: dict[Slot, str] = field(default_factory=dict)  # the sticker last counted from a slot
    emptied: dict[Slot, float] = field(default_factory=dict)  # when a slot was last seen empty
    counted: dict[Slot, tuple[str, ...]] = field(default_factory=dict)  # see the docstring
    hidden: set[Slot] = field(default_factory=set)
    lifted: set[Slot] = field(default_factory=set)  # counted slots seen bare since (update)
    clock: Callable[[], float] = time.monotonic
    relay_seconds: float = RELAY_SECONDS
    # What lies on the table when reading begins is not fresh (see update): on for a
    # session's reads (TableTiles), off for a state picked up in the middle of a game.
    startup: bool = False
    at_start: set[Slot] = field(default_factory=set)
    unlifted: set[Slot] = field(default_factory=set)  # see the docstring
    # An unlifted slot's readings since start-up (the first what it showed then), whether
    # each lay still a while (settle), and since when the latest has: see held_pick.
    looks: dict[Slot, list[str | None]] = field(default_factory=dict)
    steady: dict[Slot, list[bool]] = field(default_factory=dict)
    unboxed: dict[Slot, list[bool]] = field(default_factory=dict)  # lay still as paper: settle
    steady_since: dict[Slot, float] = field(default_factory=dict)
    bared: set[Slot] = field(default_factory=set)  # seen bare before their first reading
    startup_seconds: float = 0.0  # see RDM6300_STARTUP_SECONDS
    first_worked: float | None = None  # when a poll first found the reader answering
    reported: bool = False  # the reader has reported a reading
    polled_at: float | None = None  # the clock at the last update (see update)

    def update(self, readings: Sequence[SlotReading], working: bool = True,
               bare: Collection[Slot] = ()) -> None:
        """Take the readings that changed; each is fresh, but for a flicker or a tile
        that lay on its slot when reading began.

        The flicker rule: a sticker counted from a slot that shows up on that slot
        again is not fresh, unless another sticker lay there in between or the slot
        stayed empty for ``relay_seconds``. A counted tile goes on to the discards (or
        stays on its room slot), so the same sticker on the same slot right after is
        its tag dropping out of the reader's field and back, not a new draw; the
        player's real moves (lay another tile, or draw this one again after the
        wall's reshuffle) still count. Camera readings carry no UID and cannot tell
        one copy of a kind from another, so the rule is for RFID readings only.

        The camera's rule: the tile counted from a slot counts again only after the slot
        has read empty (an empty read settles over as many frames as any read). A hand
        over it reads "uncertain" (or, for a moment, some other tile), then the same
        label when it leaves: that is the same tile still lying there, not a new one
        (camplay65 DEFECT 1). So while ``counted`` holds a slot, an uncertain reading of
        it or one of the counted tile's labels is not fresh, and the slot is ``hidden``
        (the player is told the tile was counted already: a twin swapped in under the
        hand counts only lifted and laid again). Another tile's label is fresh as ever.
        A poll with the reader down hides every slot holding a counted tile. A slot the
        camera saw bare paper on (``bare``: one frame, a hand over a tile is never that) was
        lifted, though too quickly for an empty read to settle: its slot is ``lifted``, and
        its next reading is fresh, the counted label too (camplay65b RISK 1: the same kind
        laid again within 0.2 s of a lift was not counted).

        The start-up rule (``startup``): a tile lying on a slot when the session
        began may have been counted before a power cut (or be the last game's), so
        it is not fresh until it is lifted and laid again (``at_start`` holds its
        slot). A camera's tile found so is ``counted`` too, as if counted from its slot:
        a hand passing over it is not its lift (camplay65b DEFECT 1: after ``--resume``
        or a mode switch the tile lying there was counted again under a hand). Its slot
        stays ``at_start`` (and ``unlifted``) until the camera sees it empty or bare, not
        only until its reading changes: a hand over the tile as reading began reads
        "uncertain" or another tile, and the tile's own label when the hand leaves (or
        once a glared or tilted tile is straightened) joins ``counted``, not fresh
        (review65c2 RISK 1). So a tile swapped in under a resting hand without the
        camera once seeing the slot bare is held too: the player is told to lift it and
        lay it again, and the tile read there may be offered to pick (:meth:`held_pick`:
        a shadow across an empty slot never reads empty or bare). What lay there is the
        first readings the reader gives. A camera gives
        every slot's, empty or not, once its first frames agree; a slot whose frames did
        not agree yet (a hand moving over it) settles later, and what it settles on lay
        there too, unless the camera saw the slot bare before (``bared``: a tile laid while
        the first frames settled is read as usual). An RFID reader gives
        the tiles on it when it comes up (the tray's snapshot follows its hello) and
        nothing for an empty slot, so its first readings are what lay there only if
        they could have come within ``startup_seconds`` of the poll that first finds it
        answering: working, or giving readings (the tray gives its whole first snapshot,
        empty slots too, with its hello; an RDM6300's first frame comes a little later).
        A reading may have waited in the port since the poll before the one that read it,
        so that poll's time is what is judged, not this one's: a session whose next poll
        came late (a starved Pi at boot, a slow first screen) took an RDM6300's tile lying
        there for a fresh draw, and counted it again after a power cut (flaky64 P1). It
        is not the status being ok that matters: a tray with one reader down is never
        quite working, and a tile laid long after its empty snapshot did not lie there
        (it was told to lift it for 5 s). A sticker found at start-up counts as used,
        for the flicker rule. ``working`` is whether the reader's status was ok after
        the poll that gave ``readings``.
        """
        now = self.clock()
        before, self.polled_at = self.polled_at, now
        if (working or readings) and self.first_worked is None:
            self.first_worked = now
        first_batch = not self.reported
        self.reported = self.reported or bool(readings)
        # The earliest the readings may have come: since the last poll, not before the
        # reader first answered (the tray's, with no window, in the poll that found it so).
        came = now if before is None or self.first_worked is None \
            or self.startup_seconds <= 0 else max(before, self.first_worked)
        lay_there = self.first_worked is not None \
            and came - self.first_worked <= self.startup_seconds
        if not working:
            self.hidden.update(self.counted)
        self.lifted.update(slot for slot in bare if slot in self.counted or slot in self.unlifted)
        if self.startup:
            self.bared.update(slot for slot in bare if slot not in self.latest)
        for reading in readings:
            slot = reading.slot
            # A camera's slot that settles after the first batch (a hand moving over it as
            # reading began) lay there too, unless the camera saw it bare before.
            late = self.startup and not first_batch and reading.uid is None \
                and slot not in self.latest and slot not in self.bared
            self.latest[slot] = reading
            if reading.label == EMPTY:
                self.emptied[slot] = now
                self.fresh.add(slot)
                self.counted.pop(slot, None)
                self.hidden.discard(slot)
                self.lifted.discard(slot)
                if slot in self.unlifted:  # a camera's: its start-up tile was lifted
                    self.release(slot)
                    self.at_start.discard(slot)
                continue
            if reading.uid is None and slot in self.lifted:
                # Seen bare since the count: lifted, whatever lies there now is laid anew.
                self.counted.pop(slot, None)
                self.hidden.discard(slot)
                self.lifted.discard(slot)
                self.release(slot)
            if reading.uid is None and slot in self.unlifted:
                # Still the tile that lay there at start-up, read at last (or misread, or
                # under a hand): never seen lifted, it may have been counted before the cut.
                looks = self.looks.setdefault(slot, [])
                steady = self.steady.setdefault(slot, [])
                unboxed = self.unboxed.setdefault(slot, [])
                looks.append(reading.label)
                steady.append(False)
                unboxed.append(False)  # until settle sees it lie still as the paper
                del looks[1:-HELD_LOOKS]  # the first (what it showed at start-up) is kept
                del steady[1:-HELD_LOOKS]
                del unboxed[1:-HELD_LOOKS]
                self.steady_since.pop(slot, None)
                if reading.label not in (None, BACK) \
                        and reading.label not in self.counted.get(slot, ()):
                    self.counted[slot] = (*self.counted.get(slot, ()), reading.label)
                self.fresh.discard(slot)
                continue
            if reading.uid is None and slot in self.counted:
                self.hidden.add(slot)  # not the tile as counted: the slot was out of sight
                if reading.label is None or reading.label in self.counted[slot]:
                    self.fresh.discard(slot)  # the counted tile, under a hand or back
                    continue
            emptied = self.emptied.pop(slot, now)
            if self.startup and ((first_batch and (reading.uid is None or lay_there)) or late):
                self.at_start.add(slot)
                self.fresh.discard(slot)
                if reading.uid is not None:
                    self.used[slot] = reading.uid
                    continue
                self.unlifted.add(slot)
                self.looks[slot] = [reading.label]
                self.steady[slot] = [False]
                self.unboxed[slot] = [False]
                self.steady_since.pop(slot, None)
                if reading.label not in (None, BACK):
                    self.counted[slot] = (reading.label,)
                continue
            if reading.uid is not None and reading.uid == self.used.get(slot) \
                    and now - emptied < self.relay_seconds:
                self.fresh.discard(slot)  # the counted sticker flickered
                continue
            self.used.pop(slot, None)
            self.at_start.discard(slot)
            self.fresh.add(slot)

    def relaid(self, still: Callable[[Slot], bool]) -> None:
        """A counted slot seen bare since (``lifted``) whose reading is the counted label
        again, lying ``still`` (its frames have agreed since the bare one): the tile was
        lifted and laid again too quickly for either read to settle anew (no hand, or a
        hand the camera saw the tile through), so no new reading came. It is fresh: the
        bare frame was its lift (camplay65b RISK 1)."""
        for slot in list(self.lifted):
            reading = self.latest.get(slot)
            if reading is None or reading.uid is not None or not still(slot) \
                    or reading.label not in self.counted.get(slot, ()):
                continue
            self.counted.pop(slot, None)
            self.hidden.discard(slot)
            self.lifted.discard(slot)
            self.at_start.discard(slot)
            self.release(slot)
            self.fresh.add(slot)

    def release(self, slot: Slot) -> None:
        """``slot`` no longer holds an unlifted start-up tile (seen empty or bare, counted)."""
        self.unlifted.discard(slot)
        self.looks.pop(slot, None)
        self.steady.pop(slot, None)
        self.unboxed.pop(slot, None)
        self.steady_since.pop(slot, None)

    def settle(self, still: Callable[[Slot], bool],
               paper: Callable[[Slot], bool] | None = None) -> None:
        """Mark each unlifted slot's latest look as having lain ``still`` (not a hand moving
        over it), and since when it has: see :meth:`held_pick`. Called after every poll.
        A look lying still as the ``paper`` under a shadow (:class:`TellsPaper`) on the same
        poll is marked ``unboxed``, and only so: its reading may have settled under the hand
        that lifted the tile (reviewc67 DEFECT 1), and one settled on a flat hand's
        outline-free frames is no paper when the hand rests with its fingers seen
        (reviewc67b DEFECT 2). Only marked, never unmarked: a look once seen as the paper
        was the tile lifted."""
        now = self.clock()
        for slot in self.unlifted:
            steady = self.steady.get(slot)
            if not steady:
                continue
            if still(slot):
                steady[-1] = True
                self.steady_since.setdefault(slot, now)
                if paper is not None and paper(slot):
                    self.unboxed[slot][-1] = True
            else:
                self.steady_since.pop(slot, None)

    def held_pick(self, slot: Slot, asked: float = float("-inf")) -> tuple[str, bool] | None:
        """The label of the tile an unlifted slot (a camera's start-up slot never seen empty
        or bare) may offer the player to pick, and whether it is the start-up tile laid
        again; or None. The tile must have lain still (:meth:`settle`) for
        ``HELD_PICK_SECONDS``, and the slot been asked for (since ``asked``) as long: a
        reading's change alone (a shadow's look shifting, reviewc66b DEFECT 2) offers
        nothing, nor does a tile lying there before the ask (reviewc66b RISK 1). The tile
        the slot showed at start-up only once it :func:`came_back` after a still look of the
        paper under a shadow (no tile's outline): lifted and laid again under a shadow
        (reviewc66b DEFECT 1), not a hand passing over it or resting on it (reviewc66c
        DEFECT 2).

        A shadow across an empty slot at start-up makes bare paper look covered: the slot
        reads "uncertain" or a tile (5z, 1s), never empty or bare, and held every tile laid
        there for good, lifted or not (reviewc66 DEFECT 1). The camera cannot tell that
        from a hand over a tile that lay there (a still hand reads 5z, then the tile), so
        nothing counts by itself: only the player's pick, which has no timeout."""
        looks, steady = self.looks.get(slot), self.steady.get(slot)
        reading = self.latest.get(slot)
        since = self.steady_since.get(slot)
        if slot not in self.unlifted or not looks or not steady or reading is None \
                or reading.uid is not None or reading.label in (None, BACK, EMPTY) \
                or since is None or self.clock() - max(since, asked) < HELD_PICK_SECONDS:
            return None
        relaid = reading.label == looks[0]
        if relaid and not came_back(looks, steady, self.unboxed[slot]):
            return None
        return reading.label, relaid

    def ready(self) -> bool:
        """Whether the reader has said what lay on the table when reading began (``startup``):
        its first readings came (a camera's first agreeing frames, the tray's snapshot), or
        an RDM6300 has answered for ``startup_seconds`` with no tag on it. Until then a
        tile laid counts as one that lay there at start-up, so no tile is asked for."""
        if not self.startup or self.reported:
            return True
        return self.startup_seconds > 0 and self.first_worked is not None \
            and self.clock() - self.first_worked > self.startup_seconds

    def use(self, slot: Slot, reading: SlotReading, tile: Tile | None = None) -> None:
        """``reading`` of ``slot`` was counted (as ``tile``, when picked or the wall's
        fallback): it is spent, and its sticker coming back soon is a flicker (see
        :meth:`update`); a camera's tile still lying there counts again only once its slot
        reads empty. Another tile already laid there since (the next tile on a one-slot
        reader) stays fresh."""
        if reading.uid is not None:
            self.used[slot] = reading.uid
        self.at_start.discard(slot)
        self.release(slot)
        latest = self.latest.get(slot)
        if latest is None or latest.label == EMPTY or same_tile(latest, reading):
            self.fresh.discard(slot)
        self.counted.pop(slot, None)
        self.hidden.discard(slot)
        self.lifted.discard(slot)
        if reading.uid is None and latest is not None and same_tile(latest, reading) \
                and latest.label not in (BACK, EMPTY):
            labels = (str(tile) if tile is not None else None, reading.label)
            kept = tuple(dict.fromkeys(label for label in labels if label is not None))
            if kept:
                self.counted[slot] = kept

    def consume(self, slot: Slot) -> None:
        """The read of ``slot`` was rejected: the next tile there must be a new placement
        (the same tile laid again counts: a rejected read was never used)."""
        self.fresh.discard(slot)


@dataclass(frozen=True, slots=True)
class Read:
    """A reading the session can offer the player: a legal tile, or a reason it cannot."""

    tile: Tile | None
    problem: str = ""


def interpret(reading: SlotReading, ledger: TileLedger) -> Read:
    """The tile of a reading if the wall allows it (JR-WALL-1), or why not; an RFID sticker's
    through :func:`companion.hw.rfid.wallcheck.check_drawn`. A camera's reading already fell
    back on a candidate it was sure enough of as it settled; one the wall refuses now is a
    5th copy, the player laying it again or picking among :func:`likeliest`."""
    slot = reading.slot
    where, where_ja = SLOT_NAMES[slot], SLOT_NAMES_JA[slot]
    if reading.uid and reading.label != EMPTY:
        # A sticker names one tile: there is no next candidate to fall back on, and laying
        # it again reads the same. Not enrolled, or a 5th copy (enrolled as the wrong kind):
        # check_drawn says how to enrol it.
        try:
            return Read(check_drawn(ledger, reading))
        except (UnknownTag, ImpossibleRead) as exc:
            return Read(None, str(exc))
    if reading.label is None:
        looks = reading.candidates[0].label if reading.candidates else EMPTY
        if looks not in (BACK, EMPTY):
            # The camera settles on None for a tile whose every sure read the wall refuses.
            tile = Tile.from_notation(looks)
            if refused(tile, ledger):
                return Read(None, fifth_copy(tile, slot))
        return Read(None, f"cannot read the {where} tile: straighten it 読めない: まっすぐ置いて")
    if reading.label == BACK:
        return Read(None, f"the tile on the {where} slot is face down: turn it over "
                          f"{where_ja}の牌が裏向き: 表にして")
    if reading.label == EMPTY:
        return Read(None, "")
    # The camera checked the wall as the tile settled, falling back then on a candidate it
    # was sure enough of (legal_candidate). Refused now, another copy was counted since (a
    # tile laid ahead of its slot's ask): not a candidate the camera doubts, however low,
    # but a 5th copy, with the likeliest legal tiles to pick (camaudit69 DEFECT 1).
    tile = Tile.from_notation(reading.label)
    if refused(tile, ledger):
        return Read(None, fifth_copy(tile, slot))
    return Read(tile)


def refused(tile: Tile, ledger: TileLedger) -> bool:
    """Whether the wall refuses ``tile`` now: every copy of its kind is out (JR-WALL-1)."""
    try:
        ledger.check_draw(tile)
    except ImpossibleRead:
        return True
    return False


def likeliest(reading: SlotReading, ledger: TileLedger) -> tuple[Tile, ...]:
    """The tiles the player may pick for a reading the reader could not settle on, or one
    it settled on that the wall refuses now (a 5th copy: :func:`interpret`): its
    likeliest candidates that may be drawn (JR-WALL-1), best first, up to PICKS; none for
    another settled reading or an RFID sticker (a tag names one tile, or none)."""
    if reading.uid:
        return ()
    if reading.label is not None and (reading.label in (BACK, EMPTY)
                                      or not refused(Tile.from_notation(reading.label), ledger)):
        return ()
    picks: list[Tile] = []
    for candidate in reading.candidates:
        if candidate.label in (BACK, EMPTY):
            continue
        tile = Tile.from_notation(candidate.label)
        try:
            ledger.check_draw(tile)
        except ImpossibleRead:
            continue
        picks.append(tile)
        if len(picks) == PICKS:
            break
    return tuple(picks)


def misread_picks(reading: SlotReading, ledger: TileLedger, misread: str) -> tuple[Tile, ...]:
    """Every tile the wall allows now (JR-WALL-1), for a camera's read of ``misread`` the
    player rejected :data:`MISREAD_REJECTS` times: the reader's other candidates first,
    best first, then the rest in the wall's order (``misread`` among them: the player may
    have laid it at last). The likeliest three alone (:data:`PICKS`) left a tile the
    camera ranks lower, or not at all, no way to be given (camera71 DEFECT 4)."""
    first = [c.label for c in reading.candidates if c.label not in (BACK, EMPTY, misread)]
    kinds = [*(Tile.from_notation(label) for label in first),
             *(t for t in ALL_KINDS if str(t) not in first)]
    return tuple(tile for tile in kinds if not refused(tile, ledger))


def tile_picks(reading: SlotReading, ledger: TileLedger,
               opened: bool) -> tuple[Tile | str, ...]:
    """The picks for a camera's reading the player may not count as read (uncertain, face
    down, a 5th copy): its :func:`likeliest` legal tiles, then :data:`OTHER`; once the
    player ``opened`` that, every legal tile, as after a read rejected twice
    (:func:`misread_picks`, the reader's candidates first). None for an RFID sticker, nor
    for an empty slot: nothing is laid there yet at every ask."""
    if reading.uid or reading.label == EMPTY:
        return ()
    if opened:
        return misread_picks(reading, ledger, "")
    return (*likeliest(reading, ledger), OTHER)


def _picked(presses: Sequence[Press], picks: tuple[Tile | str, ...],
            highlight: int | None) -> tuple[Tile | str | None, int | None, Press | None]:
    """A pick among ``picks`` by ``presses``, the highlight after them, and the press that
    took it. Nothing is highlighted at first, so ATTACK pressed from habit picks nothing:
    MENU or ITEM (FLEE or RANGED back, as the legend beside them says: "B/R prev") moves onto
    a pick, then ATTACK takes it; a tap or number key takes one at once."""
    for press in presses:
        if isinstance(press, Pick) and 0 <= press.index < len(picks):
            return picks[press.index], highlight, press
        if press is Button.ATTACK and highlight is not None:
            return picks[highlight], highlight, press
        if press in (Button.MENU, Button.ITEM):
            highlight = 0 if highlight is None else (highlight + 1) % len(picks)
        elif press in (Button.FLEE, Button.RANGED, Button.PREVIOUS):
            highlight = len(picks) - 1 if highlight is None else (highlight - 1) % len(picks)
    return None, highlight, None


def wait_for_tile(
    reader: TileReader,
    state: ReadState,
    slot: Slot,
    ledger: TileLedger,
    controls: Controls,
    confirm: Confirm[Tile],
    show: Callable[[str, Tile | None, tuple[Tile | str, ...], int | None, bool], None],
    poll_seconds: float,
    sleep: Callable[[float], None] = time.sleep,
    one_slot: bool = False,
) -> Tile:
    """Block until a tile on ``slot`` is read, shown and not rejected, or picked; return it.

    ``show(status, tile, picks, highlight, guidance)`` redraws the prompt with a status
    line, the tile read (or None), and the tiles the player may pick for a tile the reader
    could not settle on (see :func:`likeliest`), with the one highlighted; ``guidance``
    says the status is the player's usual next step (a read on offer, a tile to move to its
    slot), not trouble. The tile is only
    taken from a *new* placement on the slot, so a tile left lying there from the last
    step is never counted twice; one that lay there when the session began is not
    counted either, and the status says to lift it and lay it again to count it (a
    camera's slot covered or in shadow then offers the tile read there as the one pick once
    it has lain still a while, the slot asked for: :meth:`ReadState.held_pick`). Until the
    reader has said what lay there (:meth:`ReadState.ready`), the status says to wait
    (:data:`STARTING_STATUS`), not yet asking for the tile.

    The offer follows the tile on the slot: another tile laid there while one is on
    offer replaces it, and its countdown starts afresh (the player swapped a tile they
    laid by mistake; counting the first would journal a tile that is not on the table).
    Lifting the tile alone does not withdraw the offer. On a ``one_slot`` reader (a
    single RDM6300) lifting is the normal move: the tile is read there, then laid on its
    own slot; a tile laid after the lift is the next one, kept fresh for the next prompt,
    and the offer counts on. A reader fault is shown after the offer, not instead of it.

    Two tiles stacked on ``slot`` (a reader that :class:`TellsStacks`) withdraw the offer
    and hold any new one: either tile may be the one left (a player swapping by laying
    the new tile on top first), so nothing counts, by button or by timeout, until one is
    lifted; then what lies there is offered with a countdown of its own.

    A camera's tile counted from ``slot`` and lying there still (:meth:`ReadState.update`)
    is said to be counted already (:func:`counted_already`) once it was out of sight since
    (a twin may have been swapped in) and its slot lies still again, or after
    :data:`COUNTED_HINT_SECONDS`. A reader that
    :class:`TellsStill` offers picks for an uncertain read only once its slot lies still.
    Such a reader (a camera) reading ``slot`` as empty offers every legal tile to pick on
    :data:`EMPTY_PICK_PRESS` (:data:`READS_EMPTY`), until the slot reads otherwise for
    :data:`LIFTED_SECONDS` (a flicker keeps it: reviewf71 RISK 1); after
    :data:`EMPTY_HINT_SECONDS` of it, with nothing else to say, the status says how
    (:data:`EMPTY_HINT`), beside :data:`OTHER` to tap, which opens the same list (a
    touch-only screen has no :data:`EMPTY_PICK_PRESS`). RFID and sim readers read no tile
    as empty: nothing changes there.

    A reader that :class:`TellsQuiet` (the camera) is polled every ``poll_seconds`` while
    the table changes, and a few times a second once nothing has for some seconds (a player
    may talk for minutes before laying a tile); the buttons are polled every ``poll_seconds``
    all along.
    """
    quiet = reader if isinstance(reader, TellsQuiet) else None
    stillness = reader if isinstance(reader, TellsStill) else None
    baring = reader if isinstance(reader, TellsBare) else None
    papers = reader if isinstance(reader, TellsPaper) else None
    began = state.clock()
    pace = Pace(poll_seconds, state.clock) if quiet is not None else None
    confirm.value = None  # an offer left by an interrupted wait has no reading behind it
    shown: tuple[object, ...] | None = None
    note = ""  # says a read was rejected, until the slot changes
    picks: tuple[Tile | str, ...] = ()
    highlight: int | None = None
    opened = False  # the player picked OTHER for the tile there now: every tile is offered
    # When every legal tile came up to pick, if it did since the last picks, and which tiles
    # it held (kept over a flicker of the read, until a lift: LIFTED_SECONDS); the pick lit
    # last, lit again when the list comes back holding it; since when the slot reads empty.
    full_since: float | None = None
    full_set: frozenset[Tile | str] | None = None
    full_status = ""
    lit: Tile | str | None = None
    lift_at: float | None = None
    offered: SlotReading | None = None  # the reading behind the tile on offer
    lifted = False  # the tile on offer was seen lifted off the slot
    rejects: dict[str, int] = {}  # how often each camera's read was rejected in this wait
    misread: str | None = None  # the label rejected MISREAD_REJECTS times: see misread_picks
    # A camera's slot read as empty in this wait, since when; whether the player asked to
    # pick the tile laid there anyway (EMPTY_PICK_PRESS): see below.
    empty_since: float | None = None
    blank = False
    other_at: float | None = None  # since when the slot reads other than empty (see lift_at)
    if not state.ready():
        # Before the first poll: a camera's first picture and classifier run take seconds,
        # and the ask shown meanwhile would have a tile laid that is then refused. The
        # prompt says to wait (TableTiles); the status, after the poll, what the reader says.
        shown = ("", None, (), None, False)
        show("", None, (), None, False)
    while True:
        readings: Sequence[SlotReading] = []
        bare: Collection[Slot] = ()
        if pace is None or pace.due():
            readings = reader.poll()
            bare = baring.bare if baring is not None else ()
            if pace is not None and quiet is not None:
                pace.looked()
                if not quiet.quiet:
                    pace.changed()
        fault = reader.status()
        state.update(readings, working=fault.ok, bare=bare)
        if stillness is not None:
            state.relaid(stillness.still)
        state.settle(stillness.still if stillness is not None else _still,
                     papers.paper if papers is not None else None)
        stacked = isinstance(reader, TellsStacks) and slot in reader.stacked
        if stacked:
            confirm.value, offered = None, None
        here = [r for r in readings if r.slot is slot]
        if here:
            note = ""
        for change in here:
            if offered is None:
                break
            if change.label == EMPTY:
                lifted = True
            elif not same_tile(change, offered) and not (one_slot and lifted):
                confirm.value, offered = None, None  # swapped: offer what lies there now
        presses = controls.poll()
        status = note
        guided = False  # the status is trouble unless it is the usual next step below
        reading = state.latest.get(slot)
        offered_picks: tuple[Tile | str, ...] = ()
        hint = PICK_HINT
        kept = False  # every legal tile kept up over a read of the slot as empty a moment
        if reading is None or reading.label != EMPTY:
            lift_at = None
        elif lift_at is None:
            lift_at = state.clock()
        # A read of the slot as empty a moment is a flicker; a lift, once it lasts.
        lifting = lift_at is not None and state.clock() - lift_at < LIFTED_SECONDS
        if lift_at is not None and not lifting:
            opened, full_set, lit = False, None, None  # the tile is gone: its list too
        # The same rule the other way: the slot read as empty (its list, its hint's wait)
        # ends only once it reads otherwise a settled while, not on a flicker (reviewf71
        # RISK 1: the list a touch-only player opened from "Other tile…" closed on one
        # "uncertain" read, and the box came back EMPTY_HINT_SECONDS later).
        if reading is None or reading.label == EMPTY:
            other_at = None
        elif other_at is None:
            other_at = state.clock()
        if stacked or (other_at is not None and state.clock() - other_at >= LIFTED_SECONDS):
            empty_since, blank = None, False
        # Only a camera (TellsStill) reads a tile as empty: RFID and sim input never do.
        empty = stillness is not None and not stacked and confirm.value is None \
            and reading is not None and reading.uid is None and reading.label == EMPTY
        if empty and empty_since is None:
            empty_since = state.clock()
        if empty and picks in ((), (OTHER,)) and EMPTY_PICK_PRESS in presses:
            blank = True  # every legal tile from now on, until the slot reads otherwise
        # Stacked, nothing is offered: the reader's fault says "two tiles on the … slot".
        # The slot read as empty, read "uncertain" or face down a moment (a flicker): its
        # list stays up as it was, and the player's place in it (reviewf71 RISK 1).
        flickered = blank and bool(picks) and not stacked and confirm.value is None \
            and reading is not None and reading.uid is None and reading.label in (None, BACK)
        if (empty and blank) or flickered:
            # The player's word for a tile the camera sees as bare paper: every legal tile,
            # as after a read rejected twice (shared list), saved and replayed as any pick.
            assert reading is not None
            status, hint = READS_EMPTY, MISREAD_HINT
            offered_picks = picks if flickered else misread_picks(reading, ledger, "")
        elif lifting and full_set is not None and picks and confirm.value is None \
                and not stacked:
            # Every legal tile was up and the slot reads empty a moment: a flicker of the read
            # keeps the list, and the player's place in it, until the lift lasts.
            status, hint, offered_picks, kept = full_status, "", picks, True
        elif empty and empty_since is not None \
                and state.clock() - empty_since >= EMPTY_HINT_SECONDS and not note \
                and (one_slot or not misplaced(state, slot)):
            # A tile laid a while ago the camera takes for bare paper: how to give it, and
            # "Other tile…" to tap, which opens every legal tile as the long press does: a
            # touch-only screen has no MENU (fixcam71c). Not before: every ask would show a
            # pick, and scripted presses open it (see EMPTY_PICK_PRESS).
            status, hint, guided, offered_picks = EMPTY_HINT, "", True, (OTHER,)
        elif not stacked and confirm.value is None and reading is not None \
                and reading.uid is None and misread is not None and (
                    reading.label == misread
                    or (reading.label in (None, BACK) and full_set is not None)):
            # The camera's read the player rejected again (the tile lying there, or laid
            # again, or read "uncertain" or face down a moment since: a flicker, reviewc71b
            # RISK 1): not offered to count, whose countdown would count it, but every legal
            # tile to pick, the player's word (camera71 DEFECT 4). Still or not: a tile laid
            # again is fresh some polls before the camera's slot lies still, and the offer of
            # the misread kind it then got counted it (reviewc71 DEFECT 1). A read settled on
            # a kind is no hand's "uncertain" (camplay65 RISK 3), and a pick needs a press.
            status, hint = rejected_again(Tile.from_notation(misread)), MISREAD_HINT
            offered_picks = misread_picks(reading, ledger, misread)
        elif not stacked and confirm.value is None and reading is not None \
                and slot in state.fresh:
            read = interpret(reading, ledger)
            if read.tile is not None:
                confirm.offer(read.tile)
                # Another tile in question: a pick lit for the last must not be lit in the
                # next one's list, where a habitual A would take it (reviewf71 RISK 2).
                offered, lifted, lit = reading, False, None
                presses = []  # a press made before the tile was shown does not judge it
            else:
                status = read.problem
                # A hand moving over the slot is no tile to pick (camplay65 RISK 3).
                if stillness is None or stillness.still(slot):
                    offered_picks = tile_picks(reading, ledger, opened)
                if opened and offered_picks:
                    status, hint = OPENED_STATUS, OPENED_HINT
        elif confirm.value is None and reading is not None and slot in state.at_start \
                and reading.label != EMPTY:
            # It may have been counted before a power cut: it counts only laid again. A
            # tile that could not be counted anyway says why (no picks: picking counts);
            # but not a camera's "uncertain" or face down (a hand over it, glare): once
            # straightened or turned over in place it is still the start-up tile.
            read = interpret(reading, ledger)
            unlifted = slot in state.unlifted and reading.label in (None, BACK)
            status = read.problem if read.tile is None and read.problem and not unlifted \
                else held_problem(state, slot, reading)
            # A shadow may hold an empty slot for good: the player's pick releases it.
            held = state.held_pick(slot, began)
            if held is not None and str(read.tile) == held[0]:
                assert read.tile is not None
                status, offered_picks = covered_pick(slot, *held), (read.tile,)
        elif confirm.value is None and reading is not None and slot in state.counted \
                and slot not in state.fresh \
                and (reading.label is None or reading.label in state.counted[slot]) and (
                    (slot in state.hidden and (stillness is None or stillness.still(slot)))
                    or state.clock() - began >= COUNTED_HINT_SECONDS):
            # The camera cannot tell a twin from the tile counted: only a lift tells. (Not
            # of another tile there, rejected: the status says to lay that one again.) Not
            # while a hand moves over it: lifting it is the usual move (camplay65b NIT 1).
            status = counted_already(slot, state.counted[slot][0])
        if offered_picks != picks:
            if not offered_picks and not lifting:
                lit = None  # gone for good, not a flicker of the slot read empty a moment
            picks = offered_picks
            # The same tile stays lit in a list that still holds it (a flicker of the read
            # reorders the reader's candidates, or brings the list back).
            highlight = picks.index(lit) if lit in picks else None
            presses = []  # nor does a press made before the picks were shown pick one
            # Every legal tile, after a reject or OTHER: a habitual B then A at once took the
            # last of 34 (reviewc71 NIT 6). Guarded as a menu after an Accept is
            # (DOUBLE_PRESS_SECONDS, choose): no one reads 34 picks and chooses in less. The
            # same tiles back after a flicker are no new list: not guarded again.
            full = misread is not None or opened or blank
            if full and picks:
                if frozenset(picks) != full_set:
                    full_since = state.clock()
                full_set = frozenset(picks)
            elif picks:
                full_since, full_set = None, None
        if full_since is not None and in_window(state.clock(), full_since):
            presses = []
        if picks and reading is not None:
            # A player with the four buttons has no number keys: say how a pick is made.
            status += HELD_PICK_HINT if slot in state.unlifted else hint
            tile, highlight, taken_with = _picked(presses, picks, highlight)
            lit = picks[highlight] if highlight is not None else None
            if full_set is not None and not kept:
                full_status = status  # said again while a flicker holds the list
            if tile == OTHER and empty:
                blank = True  # the slot reads empty: every legal tile, as EMPTY_PICK_PRESS
            elif tile == OTHER:
                opened = True  # every legal tile, from the next poll on
            elif isinstance(tile, Tile):
                controls.accepted_with = taken_with  # guards the next menu as an Accept does
                state.use(slot, reading, tile)
                return tile
        if confirm.value is not None and offered is not None:
            on_offer = confirm.value
            decision = confirm.decide(presses)
            if decision is True:
                # A double tap's second A must not choose in the menu that follows (choose).
                controls.accepted_with = confirm.decided_by
                tile = confirm.value
                confirm.value = None
                state.use(slot, offered, tile)
                return tile
            if decision is False:
                state.consume(slot)
                if offered.uid is None:  # a sticker names one tile: not the camera's misread
                    label = str(on_offer)
                    rejects[label] = rejects.get(label, 0) + 1
                    if rejects[label] >= MISREAD_REJECTS:
                        misread = label
                offered, lit = None, None  # the reject's next list starts unlit too
                # Rejected again, the picks come next: "put it back" sent the player lifting
                # and laying the tile once more, into the same read (reviewc71 DEFECT 1).
                status = note = rejected_again(on_offer) if misread == str(on_offer) else (
                    "read rejected: take the tile off the slot and put it back "
                    "取り消し: 牌を取って置き直して")
        if not status and confirm.value is None and not picks and not one_slot:
            # Laid on the wrong slot, it was kept silently for later: the LED kept asking
            # and the screen did not change, as though the reader had not seen it.
            status = misplaced(state, slot)
            guided = bool(status)
        if confirm.value is not None:
            # The tile on offer lifted still counts (docs/playing.md, step 3): say so, or the
            # player takes the silence for "cancelled" and the game's table differs from
            # the mat. On a one-slot reader lifting it to lay it on its slot is the rule.
            now_empty = not one_slot and reading is not None and reading.label == EMPTY
            status = _offer_status(confirm, short=not fault.ok, lifted=now_empty)
            guided = fault.ok and not now_empty
        if not state.ready():
            # Nothing else can be said yet (no reading came), but why it is not up.
            status, guided = (STARTING_STATUS, True) if fault.ok else ("", False)
        if not fault.ok:
            status = f"{status}; {fault.message}" if status else fault.message
            guided = False
        # Readiness is in the key: the ask replaces the wait even with the same status.
        if (status, confirm.value, picks, highlight, state.ready()) != shown:
            shown = (status, confirm.value, picks, highlight, state.ready())
            show(status, confirm.value, picks, highlight, guided)
        sleep(poll_seconds)


def held_problem(state: ReadState, slot: Slot, reading: SlotReading) -> str:
    """What the player is told of ``slot``'s tile held at start-up (``at_start``): a camera's
    slot whose start-up reading was no tile, or another tile than it shows now, was covered
    (or in shadow) then: a tile may not have lain there at all (reviewc66 RISK 1)."""
    looks = state.looks.get(slot)
    if slot in state.unlifted and looks and (
            looks[0] in (None, BACK) or reading.label not in (None, BACK, looks[0])):
        return covered_at_start(slot)
    return at_start_problem(slot, reading, state.relay_seconds)


def _still(slot: Slot) -> bool:
    """A reader that does not tell stillness: every slot lies still."""
    return True


def tile_names(tile: Tile) -> str:
    """``5z 白 (White dragon)``: a tile as the offer and the picks name it, for a player who
    reads either language (the option box wraps the English to its second line)."""
    return f"{tile} {tile.name_ja} ({tile.name_en})"


def pick_option(pick: Tile | str) -> Option:
    """A pick as the screen offers it: a tile by its names, :data:`OTHER` as "Other tile…"."""
    return Option(str(pick), tile_names(pick) if isinstance(pick, Tile) else OTHER_LABEL)


def _offer_status(confirm: Confirm[Tile], short: bool, lifted: bool = False) -> str:
    """The status line of the tile on offer; ``short`` when a reader fault follows it (the
    screen's status has two lines, and the buttons say what A and B do). ``lifted``: its
    slot reads empty, and the read still counts unless B takes it back (in the trouble
    colour: the player who lifted it may think it cancelled)."""
    tile, seconds = confirm.value, confirm.remaining()
    assert tile is not None
    if lifted:
        if short:
            # (B is on its button: Reject やり直し)
            return (f"{tile} {tile.name_ja} lifted, counts in {seconds:.0f} s: B takes it back "
                    f"{seconds:.0f}秒で確定")
        return (f"{tile} {tile.name_ja} lifted: it still counts in {seconds:.0f} s "
                f"— B takes it back 取っても{seconds:.0f}秒で確定、Bで取り消し")
    if short:
        return f"read {tile} {tile.name_ja}, counts in {seconds:.0f} s {seconds:.0f}秒で確定"
    return (f"read {tile_names(tile)}: "
            f"B rejects, A accepts; counts in {seconds:.0f} s "
            f"Bでやり直し、{seconds:.0f}秒で確定")


class TableTiles:
    """Tiles laid on the table and read by a camera or RFID reader, confirmed by the player."""

    def __init__(self, reader: TileReader, controls: Controls, accept_seconds: float,
                 poll_seconds: float,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic,
                 one_slot: bool = False) -> None:
        """``one_slot``: the reader watches the draw slot only (a single RDM6300), so
        every tile is read there, a room's tiles before they are laid out."""
        self.reader = reader
        self.one_slot = one_slot
        self.controls = controls
        self.state = ReadState(clock=clock, startup=True,
                               startup_seconds=RDM6300_STARTUP_SECONDS if one_slot else 0.0)
        self.confirm: Confirm[Tile] = Confirm(accept_seconds, clock)
        self.poll_seconds = poll_seconds
        self.sleep = sleep

    def next_tile(self, ask: TileAsk, show: Show) -> Tile:
        prompt, slot = ask.prompt, ask.slot
        if self.one_slot and slot is not Slot.DRAW:
            prompt = ONE_SLOT_ROOM_PROMPT.format(slot=SLOT_NAMES[slot], slot_ja=SLOT_NAMES_JA[slot])
            slot = Slot.DRAW

        def shown(status: str, tile: Tile | None, picks: tuple[Tile | str, ...],
                  highlight: int | None, guidance: bool) -> None:
            if tile is not None:
                show(prompt, status=status, prompt_tile=str(tile), options=READ_OPTIONS,
                     highlight=0, guidance=guidance)
            elif not self.state.ready():
                # No "Draw a tile…" before the reader is up: a tile laid now is refused.
                show(STARTING_PROMPT, status=status, guidance=True)
            else:
                show(prompt, status=status, prompt_tile="back", highlight=highlight,
                     options=tuple(map(pick_option, picks)),
                     guidance=guidance)

        return wait_for_tile(self.reader, self.state, slot, ask.ledger, self.controls,
                             self.confirm, shown, self.poll_seconds, self.sleep,
                             one_slot=self.one_slot)

    def ready(self) -> bool:
        return self.state.ready()

    def close(self) -> None:
        self.reader.close()


