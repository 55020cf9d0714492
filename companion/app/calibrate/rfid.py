"""``companion calibrate rfid``: enrol the sticker under every tile, or re-enrol a lost one.

The player is asked for the tiles kind by kind in MPSZ order (1m … 7z), four
copies each (JR-TILE-1), places each one on the tray (any slot) or the RDM6300,
and lifts it off again. A tile already lying on the reader when it comes up
(left there after a game) is not taken for the tile asked for: the player is
told to lift it. Every sticker is written to the tag map at once, so
stopping half-way (``q``, Ctrl-C, a crash) loses nothing and a later run
carries on with what is missing. A sticker already enrolled is refused. A disk
that refuses the map (full) stops the enrolment, saying how many stickers the
file holds and that the one just read is not among them, and the command exits 1.
Ctrl-C keeps what was saved and exits 130, as the camera and dice enrolments do, so a
setup script tells an interrupted enrolment from a finished one (``q``: 0).

``--reenrol 5p``: the player places the 5p with its new sticker; if 5p already
has four stickers, the player then places the other three 5p so the companion
can tell which old sticker was lost, and replaces it.

Keys (type, then Enter): ``s`` skip this kind, ``u`` undo the last sticker,
``q`` save and quit. With ``--port -`` (the tray's lines replayed from stdin, or an
RDM6300's frames) no keys are read, as stdin is the reader: each sticker placed is taken
as it comes, until the plan is done or the capture ends. An RDM6300's frames say no
place or lift: they are timed as they come, so one of the first second is a tag lying
there and a saved capture read all at once enrols nothing (:data:`RDM6300_STDIN`).
"""

from __future__ import annotations

import argparse
import codecs
import os
import select
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Protocol, TextIO

from companion.app.calibrate import describe
from companion.app.command_name import as_typed_here
from companion.app.commands.rfid import (
    STDIN_PORT,
    RfidReader,
    add_reader_arguments,
    answering,
    chosen_port,
    flash_again,
    flash_said,
    found_the_tray,
    open_reader,
    what_to_check,
)
from companion.app.config import load_config
from companion.app.paths import config_dir
from companion.errors import CompanionError, InvalidNotation, error_text
from companion.hw.ports import SLOT_NAMES, Slot
from companion.hw.rfid.events import TagAction, TagEvent
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.hw.rfid.tray import TrayReader
from companion.systems.jongrogue.tiles import ALL_KINDS, COPIES_PER_KIND, Tile, parse_tiles

#: What ``--port -`` with an RDM6300 does, said before the first tile (fixcarry74: it said
#: "stdin is the tray"): the module's frames name a tag, never a place or a lift, so they
#: are read as they come, as from the port; a tag's first frame within the reader's first
#: second (Rdm6300Settings.startup_seconds) lay there as it came up, and a lift is its
#: frames stopping. A capture saved to a file is read all at once: nothing in it enrols.
RDM6300_STDIN = ("No keys are read (stdin is the RDM6300's frames, timed as they come): a "
                 "sticker is taken when its frames come and lifted when they stop; frames "
                 "within the first second are a tag lying there, so a capture saved to a "
                 "file, read all at once, enrols nothing.")

#: The keys of a re-enrolment: it has no plan to skip in and nothing to undo, and it writes
#: the map only once the new sticker is known to replace the lost one. Short enough that
#: its opening "Keys (then Enter): …" line keeps to 80 columns, as the enrolment's does
#: (r77rfid NIT: 88).
REENROL_KEYS = "q = stop (the map is saved only with the new sticker)"


class Waiting(Enum):
    """What the enrolment waits for next."""

    TILE = "tile"  # the next tile of the plan
    LIFT = "lift"  # the tile just read to be taken away
    NEW_STICKER = "new sticker"  # re-enrol: the tile with the new sticker
    OLD_STICKERS = "old stickers"  # re-enrol: the other copies, to find the lost sticker
    DONE = "done"


class KeySource(Protocol):
    def poll(self) -> str | None:
        """A line the player typed (stripped, lower case), or None when there is none yet."""


class NoKeys:
    """No keyboard: stdin carries the tray's lines (``--port -``)."""

    def poll(self) -> str | None:
        return None


class TerminalKeys:
    """Lines typed on stdin, without blocking; the end of input counts as ``q``.

    Read from the stream's descriptor with lines kept here, each handed out on its own
    poll: the text stream's readline() took every line one write brought into its buffer,
    where select() sees none, so two keys piped in one write waited for a third
    (f78carry). A last line with no newline is a key too, before the end's ``q``."""

    def __init__(self, stream: TextIO = sys.stdin) -> None:
        self.stream = stream
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.pending = ""  # read, not yet handed out
        self.ended = False

    def poll(self) -> str | None:
        if "\n" not in self.pending and not self.ended:
            fd = self.stream.fileno()
            ready, _, _ = select.select([fd], [], [], 0)
            if ready:
                data = os.read(fd, 4096)
                self.ended = not data
                self.pending += self.decoder.decode(data, final=self.ended)
        line, newline, rest = self.pending.partition("\n")
        if newline or (self.ended and line):
            self.pending = rest
            return line.strip().lower()
        return "q" if self.ended else None


def stickers(count: int) -> str:
    return f"{count} sticker{'' if count == 1 else 's'}"


class Enroller:
    """The enrolment conversation as a state machine: feed it tag events and keys."""

    def __init__(self, tag_map: TagMap, path: Path, out: TextIO, *, keys: bool = True,
                 kind: str | None = None) -> None:
        self.tag_map = tag_map
        self.path = path
        self.out = out
        self.keys = keys  # False: stdin is the tray's capture, and no key is read
        self.kind = kind  # the reader's kind (tray, rdm6300), to tell the other kind's stickers
        self.plan: list[Tile] = []
        self.asked: Tile | None = None  # the kind the last "Place a …" asked for
        self.held: str | None = None  # the first prompt, until the reader is ready
        self.copies = COPIES_PER_KIND
        self.total = 0
        self.waiting = Waiting.DONE
        self.after_lift = Waiting.DONE
        self.lift_uid = ""
        self.history: list[tuple[str, Tile]] = []
        self.reenrol_tile: Tile | None = None
        self.new_uid = ""
        self.checked: set[str] = set()
        self.lying: set[str] = set()  # stickers lying on the reader since it came up
        self.early: dict[str, Slot] = {}  # stickers laid before they were asked for
        self.saved = len(tag_map)  # the stickers the file holds, for a save that fails
        self.unsaved = False  # the disk refused the map: the enrolment stopped there
        self.interrupted = False  # stopped by Ctrl-C: the command exits 130 (calib62 R3)

    # -- starting -------------------------------------------------------

    def enrol(self, kinds: Sequence[Tile], copies: int = COPIES_PER_KIND, *,
              hold: bool = False) -> None:
        """Plan the missing stickers of ``kinds``, ``copies`` per kind, in the order given.
        ``hold``: the first prompt waits for :meth:`ready` (the reader not yet up)."""
        self.copies = copies
        self.plan = [t for t in kinds for _ in range(max(0, copies - len(self.tag_map.uids(t))))]
        self.total = len(self.plan)
        theirs = self.other_kinds(kinds)
        if not self.plan:
            # "0 stickers to enrol", the keys, then "Done" (calib62 N7): nothing is asked.
            self.waiting = Waiting.DONE
            # Their own count, not the whole map's, which holds every kind (review62b).
            held = sum(len(self.tag_map.uids(tile)) for tile in set(kinds))
            one = len(set(kinds)) == 1
            self.say(f"Every sticker of {'this kind' if one else 'these kinds'} is enrolled "
                     f"already ({stickers(held)} of {kinds[0] if one else 'them'} in "
                     f"{self.path}).")
            if theirs:
                self.say(theirs)
            return
        if theirs:
            self.say(theirs)
        self.say(f"{stickers(self.total)} to enrol; the map is saved after each one in "
                 f"{self.path}.")
        if self.keys:
            self.say("Keys (then Enter): s = skip this kind, u = undo the last one, "
                     "q = save and quit.")
        elif self.kind == "rdm6300":
            self.say(RDM6300_STDIN)
        else:
            self.say("No keys are read (stdin is the tray): each sticker placed is taken as it "
                     "comes.")
        self._next_tile(hold)

    def other_kinds(self, kinds: Sequence[Tile]) -> str:
        """What to say of the stickers of ``kinds`` enrolled that this reader kind never
        reads (the other kind's map): they count as enrolled, so none of its own would be
        asked for (reviewr69 RISK 4: "Every sticker of this kind is enrolled already" of 4
        RDM6300 IDs, on the tray). Empty when there are none, or the kind is not known."""
        if self.kind not in ("tray", "rdm6300"):
            return ""
        readable = set(self.tag_map.read_by(self.kind))
        count = sum(uid not in readable for tile in set(kinds) for uid in self.tag_map.uids(tile))
        if not count:
            return ""
        mine = "the tray" if self.kind == "tray" else "an RDM6300"
        what = ({"tray": "125 kHz RDM6300 ID", "rdm6300": "13.56 MHz tray sticker"}[self.kind]
                + ("" if count == 1 else "s"))
        them = "this kind" if len(set(kinds)) == 1 else "them"
        return (f"Note: {count} of the stickers enrolled for {them} "
                f"{'is a' if count == 1 else 'are'} {what}, which {mine} never reads, yet "
                f"{'it counts' if count == 1 else 'they count'} as enrolled: to enrol the "
                f"stickers {mine} reads, move {self.path} aside and run this again.")

    def reenrol(self, tile: Tile, *, hold: bool = False) -> None:
        theirs = self.other_kinds([tile])
        if theirs:
            self.say(theirs)
        self.reenrol_tile = tile
        self.waiting = Waiting.NEW_STICKER
        if self.keys:
            self.say(f"Keys (then Enter): {REENROL_KEYS}.")
        self._ask(f"Place the {describe(tile)} with its new sticker.", hold)

    def _ask(self, prompt: str, hold: bool) -> None:
        """Say ``prompt`` now, or, with ``hold``, once the reader is :meth:`ready`. While a
        prompt is held, the next one (``s`` typed before the reader is up) is held in its
        place: the held one, said later, asked for a kind skipped since, and the next tile
        laid was enrolled as the kind asked for after it (reviewcal66 RISK 2)."""
        if hold or self.held is not None:
            self.held = prompt
        else:
            self.say(prompt)

    def ready(self) -> None:
        """The reader is up: a tile laid now is read as laid, not as lying there at its
        start. The first prompt, held till now, is said: an RDM6300 takes a tag read within
        its first second as lying there, and a maker who laid the tile at the prompt, said
        before the port was opened, was told to lift it (cal66 N7)."""
        if self.held is not None:
            prompt, self.held = self.held, None
            if not self.done:
                self.say(prompt)

    @property
    def done(self) -> bool:
        return self.waiting is Waiting.DONE

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _save(self, what: str) -> bool:
        """Write the map; False when the disk refuses it (full, read-only): then say that
        ``what`` was just done is not saved, what the file holds, and what to do, and stop,
        as every sticker read after it would be lost the same way."""
        try:
            self.tag_map.save(self.path)
        except OSError as exc:
            held = (f"{stickers(self.saved)} {'is' if self.saved == 1 else 'are'} saved in "
                    "it" if self.saved else "no sticker is saved in it yet")
            self.say(f"Cannot save the tag map ({error_text(exc)}): {what} is not saved; "
                     f"{held}. Free space or fix the folder, then run the same command "
                     "again to carry on.")
            self.unsaved = True
            self.waiting = Waiting.DONE
            return False
        self.saved = len(self.tag_map)
        return True

    def _next_tile(self, hold: bool = False) -> None:
        if not self.plan:
            self.waiting = Waiting.DONE
            self.say(f"Done: {stickers(len(self.tag_map))} enrolled in {self.path}.")
            return
        tile = self.plan[0]
        self.waiting = Waiting.TILE
        self.asked = tile
        have = len(self.tag_map.uids(tile))
        number = self.total - len(self.plan) + 1
        self._ask(f"[{number}/{self.total}] Place a {describe(tile)} "
                  f"(copy {have + 1} of {self.copies}).", hold)

    def _lift(self, uid: str, then: Waiting) -> None:
        self.waiting, self.lift_uid, self.after_lift = Waiting.LIFT, uid, then
        self.say("  Lift it off.")

    # -- input ----------------------------------------------------------

    def on_event(self, event: TagEvent) -> None:
        if event.action is TagAction.PLACED:
            # The prompt comes first: for a tile laid since the reader came up, and before
            # "lift it off" for one lying there at its start (reviewcal66 NIT 2).
            self.ready()
        if self._lay_there(event) or self._laid_too_soon(event):
            return
        if self.waiting is Waiting.LIFT:
            if event.action is TagAction.REMOVED and event.uid == self.lift_uid:
                self._after_lift()
            return
        if event.action is not TagAction.PLACED:
            return
        if self.waiting is Waiting.TILE:
            self._read_tile(event.uid)
        elif self.waiting is Waiting.NEW_STICKER:
            self._read_new_sticker(event.uid)
        elif self.waiting is Waiting.OLD_STICKERS:
            self._read_old_sticker(event.uid)

    def _lay_there(self, event: TagEvent) -> bool:
        """Whether ``event`` is of a tile that lay on the reader when it came up (left on
        the tray after a game): such a tile is not the one asked for, whatever its sticker,
        so it is not enrolled (it was, as the first kind asked for). The player is told to
        lift it; laid again, it is read as any other."""
        if event.action is TagAction.PLACED and event.at_start:
            self.lying.add(event.uid)
            self.say(f"  A tile was already on the {SLOT_NAMES[event.slot]} slot (sticker "
                     f"{event.uid}): lift it off. Nothing lying there at the start is enrolled.")
            return True
        if event.action is TagAction.REMOVED and event.uid in self.lying:
            self.lying.discard(event.uid)
            return True
        return False

    def _laid_too_soon(self, event: TagEvent) -> bool:
        """Whether ``event`` is of a tile laid while the last one was still to be lifted (or
        its lifting): it was not asked for yet, so it is not read, and the player is told
        to lift it, then again under the next prompt if it still lies there; laid again,
        it is read as any other. (The tile to lift showing up on another slot is that tile
        moved, not another one.)"""
        if event.action is TagAction.PLACED and self.waiting is Waiting.LIFT \
                and event.uid != self.lift_uid:
            self.early[event.uid] = event.slot
            self.say(f"  One tile at a time: lift the tile on the {SLOT_NAMES[event.slot]} slot "
                     f"too (sticker {event.uid}), and lay it again when asked.")
            return True
        if event.action is TagAction.REMOVED and event.uid in self.early:
            del self.early[event.uid]
            return True
        return False

    def _after_lift(self) -> None:
        if self.after_lift is Waiting.TILE:
            self._next_tile()
        elif self.after_lift is Waiting.OLD_STICKERS:
            self.waiting = Waiting.OLD_STICKERS
            left = COPIES_PER_KIND - 1 - len(self.checked)
            tile = self.reenrol_tile
            assert tile is not None  # OLD_STICKERS comes in a re-enrolment only
            self.say(f"Place another {describe(tile)} that still has its sticker "
                     f"({left} to go).")
        else:
            self.waiting = self.after_lift
        if not self.done:
            # The prompt waits for a placement the player may think they have made.
            for uid, slot in self.early.items():
                self.say(f"  The tile on the {SLOT_NAMES[slot]} slot (sticker {uid}) was laid "
                         "before it was asked for and is not read: lift it and lay it again.")

    def _refuse_enrolled(self, uid: str, then: Waiting) -> bool:
        known = self.tag_map.tile(uid)
        if known is None:
            return False
        self.say(f"  Refused: sticker {uid} is already enrolled as {describe(known)}. "
                 "Use a tile without an enrolled sticker.")
        self._lift(uid, then)
        return True

    def _read_tile(self, uid: str) -> None:
        if self._refuse_enrolled(uid, Waiting.TILE):
            return
        tile = self.plan.pop(0)
        try:
            self.tag_map.enrol(uid, tile)
        except CompanionError as exc:  # not a UID we can store: say so, keep the tile planned
            self.plan.insert(0, tile)
            self.say(f"  Refused: {exc}")
            self._lift(uid, Waiting.TILE)
            return
        if not self._save(f"the sticker just read ({uid} = {tile})"):
            return
        self.history.append((uid, tile))
        self.say(f"  {uid} = {tile}")
        self._lift(uid, Waiting.TILE)

    def _read_new_sticker(self, uid: str) -> None:
        tile = self.reenrol_tile
        assert tile is not None
        if self._refuse_enrolled(uid, Waiting.NEW_STICKER):
            return
        self.new_uid = uid
        if len(self.tag_map.uids(tile)) < COPIES_PER_KIND:
            self._replace(None)
            return
        self.say(f"  {describe(tile)} already has {COPIES_PER_KIND} stickers: "
                 f"show me the other {COPIES_PER_KIND - 1} so I can tell which one was lost.")
        self._lift(uid, Waiting.OLD_STICKERS)

    def _read_old_sticker(self, uid: str) -> None:
        tile = self.reenrol_tile
        assert tile is not None
        known = self.tag_map.tile(uid)
        if known is not tile:
            # Say what it is: the new sticker once more, another kind's, or none at all.
            if uid == self.new_uid:
                what = f"That is the new sticker ({uid})"
            elif known is None:
                what = f"Sticker {uid} is not enrolled"
            else:
                what = f"That is a {describe(known)} sticker ({uid})"
            self.say(f"  {what}; place one of the other {describe(tile)} that still have "
                     "their sticker.")
            self._lift(uid, Waiting.OLD_STICKERS)
            return
        if uid in self.checked:
            self.say("  Already seen that one; place another.")
            self._lift(uid, Waiting.OLD_STICKERS)
            return
        self.checked.add(uid)
        self.say(f"  {uid} is fine.")
        if len(self.checked) < COPIES_PER_KIND - 1:
            self._lift(uid, Waiting.OLD_STICKERS)
            return
        (lost,) = set(self.tag_map.uids(tile)) - self.checked
        self._replace(lost)

    def _replace(self, lost: str | None) -> None:
        tile = self.reenrol_tile
        assert tile is not None
        if lost is not None:
            self.tag_map.forget(lost)
            self.say(f"  Forgot the lost sticker {lost}.")
        self.tag_map.enrol(self.new_uid, tile)
        if not self._save(f"the re-enrolment of {tile} (sticker {self.new_uid})"):
            return
        self.say(f"  {self.new_uid} = {tile}. Done: saved in {self.path}.")
        self.waiting = Waiting.DONE

    def stop(self, again: bool = True, capture: bool = False) -> None:
        """Stop where it is; every sticker read is already saved. ``again``: whether running
        the same command again may go on; not for a capture the reader never answered on (the
        wrong kind, junk, empty), which the same command replays to the same end (reviewr73
        NIT 6): the error line after says what to change. ``capture``: a tray's capture
        replayed to its end, whose stickers the same command would find enrolled: the
        stickers not in it are enrolled at the tray (reviewfw74 N9)."""
        if self.done:
            return
        if self.waiting is Waiting.LIFT and self.after_lift is Waiting.TILE and not self.plan:
            # The last sticker asked for is saved, only its lift unseen: the plan is done, not
            # "stopped … carry on", which ran it again to find nothing to enrol (reviewa74 N2).
            self._next_tile()
            return
        count = len(self.tag_map)
        if not count:  # nothing was written: naming the file would send the player to it
            # A capture replayed again ends the same: no "run it again" (reviewfw74 N9).
            self.say("Stopped; no sticker is enrolled yet. Run the same command again to start."
                     if again and not capture else "Stopped; no sticker is enrolled.")
        else:
            # A re-enrolment starts over, with the new sticker first (calib62 N8).
            advice = ("" if not again
                      else " The same capture again enrols no more (its stickers are "
                           "read): to carry on, enrol the next ones at the tray (the same "
                           f"command without --port {STDIN_PORT}), or replay a capture of "
                           "them." if capture
                      else " Run it again to start the re-enrolment over."
                      if self.reenrol_tile is not None
                      else " Run the same command again to carry on.")
            self.say(f"Stopped; {stickers(count)} {'is' if count == 1 else 'are'} saved in "
                     f"{self.path}.{advice}")
        self.waiting = Waiting.DONE

    def _skip_after_lift(self) -> None:
        """``s`` typed while the tile just read is still to be lifted: the kind asked for
        last is skipped once it is lifted. It was taken as no key, the key list shown and
        the same kind asked for again (cal66 N2: a maker with 3 copies of a kind types ``s``
        as soon as the third is read)."""
        kind = self.asked
        if kind is None or kind not in self.plan:
            self.say(f"  No more {kind} is asked for: lift the tile to go on.")
            return
        self.plan = [t for t in self.plan if t is not kind]
        self.say(f"  Skipped {kind} once it is lifted.")

    def on_key(self, key: str) -> None:
        if key == "q":
            self.stop()
        elif key == "s" and self.waiting is Waiting.TILE:
            skipped = self.plan[0]
            self.plan = [t for t in self.plan if t is not skipped]
            self.say(f"  Skipped {skipped}.")
            self._next_tile()
        elif key == "s" and self.waiting is Waiting.LIFT and self.after_lift is Waiting.TILE:
            self._skip_after_lift()
        elif key == "u" and self.history and self.waiting in (Waiting.TILE, Waiting.LIFT):
            uid, tile = self.history.pop()
            self.tag_map.forget(uid)
            if not self._save(f"the undo ({uid} = {tile} is still in the file)"):
                return
            self.plan.insert(0, tile)
            self.say(f"  Undid {uid} = {tile}.")
            self._next_tile()
        elif key and self.reenrol_tile is not None:
            # s and u do nothing here: the list of them sent the player round (a77rfid 2).
            self.say(f"  Keys: {REENROL_KEYS}.")
        elif key == "u" and not self.history:
            self.say("  Nothing to undo in this run.")
        elif key:
            self.say("  Keys: s = skip this kind, u = undo the last one, q = save and quit.")


@dataclass(frozen=True, slots=True)
class Heard:
    """How :func:`run_enrolment` found the reader: ``answered``, it answered at some point
    (its status was ok, a tag was read, or a tray past its hello had a reader that reads)
    and its last word was not every reader down; ``none_read``, the tray's status when its
    last word was every one of its readers down ("" if not), which the end names, not
    "never answered" (hw74 DEFECT 1), whatever they did before, as ``rfid monitor`` ends
    (reviewfw74 N1: a reader down, then all, ended as a tray that answered)."""

    answered: bool
    none_read: str = ""


def run_enrolment(enroller: Enroller, reader: RfidReader, keys: KeySource,
                  idle: Callable[[], None] | None = None) -> Heard:
    """Feed the enroller the reader's events and the player's keys until it is done, stopped
    (``q``, Ctrl-C) or a replayed capture ends, or an RDM6300's port turns out to be the
    RFID tray (:func:`found_the_tray`); how the reader answered (:class:`Heard`). A tray
    with one reader down answers, as ``rfid monitor`` takes it: the other slots read."""
    last_status = ""
    answered = False
    none_read = ""  # the tray's word while it answered with every reader down
    told_flash = False  # flash_again, said once
    try:
        while not enroller.done:
            if enroller.held is not None and not starting(reader):
                enroller.ready()
            for event in reader.poll_events():
                answered = True
                enroller.on_event(event)
                if enroller.done:
                    return Heard(answered)
            status = reader.status()
            answered = answered or status.ok
            if status.ok and not told_flash and (flash := flash_again(reader)):
                told_flash = True
                enroller.say(flash_said(flash, "  "))
            if isinstance(reader, TrayReader) and answering(reader) and not reader.unheard:
                # Past its hello: its problem is its own word (a stack, a reader down), not
                # silence. Every reader down is no answer, and the end says so as the
                # monitor's does; the status then, not the "end of input" that may follow.
                none_read = status.message if reader.no_reader_reads else ""
                answered = answered or not none_read
            if not status.ok and status.message != last_status:
                # The adapters name a bare `companion …`: as typed here (rfid67 RISK 1).
                enroller.say(f"  ({as_typed_here(status.message)})")
                if found_the_tray(reader):  # the wrong kind of reader: no wait mends it
                    break
                check = what_to_check(reader)
                if check is not None:
                    enroller.say(f"  ({check})")
            last_status = "" if status.ok else status.message
            if reader.link.ended:  # a capture replayed from stdin ran out: nothing more comes
                # An RDM6300's frames on stdin: the same command on the same capture ends the
                # same, and RDM6300_STDIN has just said a saved one enrols nothing: "run the
                # same command again" sent the player round (reviewa74 N2).
                # A tray's capture replayed enrols its stickers once: the same command
                # again refuses each as enrolled (reviewfw74 N9), so the end says so.
                enroller.stop(again=answered and enroller.kind != "rdm6300",
                              capture=True)
                break
            key = keys.poll()
            if key is not None:
                enroller.on_key(key)
            if idle is not None:
                idle()
            else:
                reader.wait(0.05)
    except KeyboardInterrupt:
        enroller.stop()
        enroller.interrupted = True
    return Heard(answered and not none_read, none_read)


def starting(reader: RfidReader) -> bool:
    """Whether ``reader`` would take a tag read now as lying there when it came up: an
    RDM6300 in its first second (``starting``); the tray says which tiles lay there in its
    snapshot, so it never is."""
    check = getattr(reader, "starting", None)
    return bool(check()) if callable(check) else False


def parse_kinds(text: str) -> list[Tile]:
    """``"5p 123m"`` → the distinct kinds in the order written."""
    kinds: list[Tile] = []
    for tile in parse_tiles(text):
        if tile not in kinds:
            kinds.append(tile)
    return kinds


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "rfid", help="enrol the RFID sticker under each tile (or re-enrol a lost one)",
        epilog=f"With --port {STDIN_PORT} stdin is the tray's lines (with an RDM6300, "
               "--kind rdm6300 or input.rfid_kind in config.toml, the RDM6300's frames, "
               "timed as they come), so no keys are read: each sticker placed is taken as "
               "it comes, until the capture ends.")
    add_reader_arguments(parser)
    parser.add_argument("--only", metavar="TILES",
                        help="only these kinds, in this order, e.g. '5p 123m' (default: all 34)")
    # No default here: given beside --reenrol it is refused (run), not silently ignored.
    parser.add_argument("--copies", type=int, choices=range(1, 5),
                        help="stickers per kind (default 4: all 136 tiles)")
    parser.add_argument("--reenrol", metavar="KIND", help="replace a lost sticker of this kind")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Before the plan is printed: no capture is read from a file name, and no port of
    # an unknown URL scheme is waited for, given by --port or by config.toml (the plan
    # came first, then the refusal: reviewrfid75).
    config = load_config()
    # A capture on stdin by input.rfid_port = "-" too: no keys are read from it (r76lead
    # NIT 1: the keys were offered, on the stdin the tray's lines came on).
    from_stdin = chosen_port(args, config) == STDIN_PORT
    path = config_dir() / TAGMAP_FILENAME
    tag_map = TagMap.load(path)
    # The reader kind, as open_reader takes it, to tell the other kind's stickers.
    kind = args.kind or config.text("input.rfid_kind")
    enroller = Enroller(tag_map, path, sys.stdout, keys=not from_stdin, kind=kind)
    if args.reenrol is not None:
        # --only and --copies plan an enrolment: beside --reenrol they were ignored without
        # a word, and another kind than the one the player meant was re-enrolled (rfid73
        # NIT 4). A usage error, before anything is asked.
        beside = [option for option, value in (("--only", args.only), ("--copies", args.copies))
                  if value is not None]
        if beside:
            raise InvalidNotation(
                f"--reenrol KIND replaces one lost sticker of that kind; {' and '.join(beside)} "
                f"{'is' if len(beside) == 1 else 'are'} for enrolling, not beside it: give "
                "--reenrol alone (e.g. --reenrol 5p), or leave it out to enrol "
                "(e.g. --only '5p 123m' --copies 2)")
        # --reenrol '' is a --reenrol with no kind, not "no --reenrol": it planned all 136.
        if not args.reenrol.strip():
            raise InvalidNotation("--reenrol needs the kind of the tile with the new sticker, "
                                  "e.g. --reenrol 5p")
        enroller.reenrol(Tile.from_notation(args.reenrol), hold=True)
    else:
        # --only '' is an --only with no kinds, refused below, not "no --only": it planned
        # all 136 stickers.
        try:
            kinds = parse_kinds(args.only) if args.only is not None else list(ALL_KINDS)
        except InvalidNotation as exc:  # "'東': unexpected character '東'" showed no way out
            raise InvalidNotation(f"{exc}; --only takes MPSZ kinds, e.g. --only '5p 123m 1z' "
                                  "(lower-case m p s z; 1z = 東 East, 5z = 白 White dragon)"
                                  ) from exc
        if not kinds:
            raise InvalidNotation("--only needs at least one tile kind, e.g. --only '5p 123m'")
        copies = args.copies if args.copies is not None else COPIES_PER_KIND
        enroller.enrol(kinds, copies, hold=True)
    if enroller.done:  # every sticker asked for is enrolled already: no reader needed
        return 0
    reader = open_reader(args, tag_map)
    keys = NoKeys() if from_stdin else TerminalKeys()
    saved_before = enroller.saved
    try:
        heard = run_enrolment(enroller, reader, keys)
        status = reader.status()
        stopped_by_player = not reader.link.ended
    finally:
        reader.close()
    if found_the_tray(reader):  # its message says which kind to use
        print(f"companion: error: {as_typed_here(status.message)}", file=sys.stderr)
        return 1
    if isinstance(reader, TrayReader) and reader.crashed:
        # It answered, with its firmware's crash: its status is the whole error, as rfid
        # monitor's end (reviewfw74 N2). Its last word, whatever it read before: a tray
        # that read stickers, then crashed, exited 0 (reviewy74 R4); those are saved.
        new = enroller.saved - saved_before
        nothing = (f"the {stickers(new)} enrolled before it "
                   f"{'is' if new == 1 else 'are'} saved" if new > 0
                   else "nothing new was enrolled" if len(tag_map) else "nothing was enrolled")
        print(f"companion: error: {as_typed_here(status.message)}; {nothing}",
              file=sys.stderr)
        return 130 if enroller.interrupted else 1
    if not heard.answered:
        # q (or Ctrl-C) before the reader's first word may be the player's haste, not the
        # reader's fault: say what happened, not which. A tray that answered with every
        # reader down did answer: "never answered" sent the maker to the cable (hw74
        # DEFECT 1, as rfid monitor's end).
        what = ("the tray answered, but none of its readers reads" if heard.none_read
                else "stopped before the RFID reader answered" if stopped_by_player
                else "the RFID reader never answered")
        said = heard.none_read or status.message
        # Stickers saved before stay; "nothing was enrolled" beside "2 stickers are saved"
        # read as a contradiction (calib62 N6).
        nothing = ("nothing new was enrolled" if len(tag_map)
                   else "nothing was enrolled")
        print(f"companion: error: {what} ({as_typed_here(said)}); {nothing}",
              file=sys.stderr)
        return 130 if enroller.interrupted else 1
    if enroller.interrupted:  # as the camera and dice enrolments: a setup script can tell
        return 130
    return 1 if enroller.unsaved else 0
