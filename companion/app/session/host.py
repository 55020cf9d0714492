"""The play session: one loop that hosts a mode, from its first ask until it is over.

The session tells the player what the mode needs next, gets the answer (a tile
from the camera, the RFID tray or a simulated wall; a choice from the buttons,
the keyboard, a tap or an auto-player; dice from the camera or the companion),
hands it to the mode, and shows what happened. After every step it saves
(atomically, see :mod:`companion.app.session.save`) *before* appending the
step's log lines (the last step logs first), so a power cut at any moment loses
nothing and doubles nothing: ``--resume`` replays the saved answers and rewrites
the log from where this game's lines began.

A save that cannot be written (a full disk, a folder gone read-only) does not stop
the game: the game goes on in memory, the player is told in one line on the screen
and the terminal how far it is safe, and every later step writes the save again
until it is whole (:meth:`Session.keep`). Stopping instead would lose the game in
memory, and a boot service would start again only to fail at its first write. A
``--log`` the disk refuses is the same: the game goes on, and the first step that can
writes the game's lines whole again (:meth:`Session.write_log`). A file a mode keeps
beside its save (a table's fight file, :class:`Beside`) the disk refuses is told as that
file's trouble, not the save's, which holds the game meanwhile; each later write tries it
again.
"""

from __future__ import annotations

import errno
import json
import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from companion.app.command_name import as_typed_here, companion_line
from companion.app.session.log import GameLog
from companion.app.session.mode import (
    Ask,
    ChoiceAsk,
    ChoiceFeed,
    Mode,
    RollFeed,
    TileAsk,
    TileFeed,
)
from companion.app.session.save import CorruptSave, SaveGame, write_save
from companion.app.session.system_menu import SystemMenu
from companion.errors import CompanionError, DeviceError, IllegalAction, ImpossibleRead
from companion.files import DISK_ERRNOS, NotDurable
from companion.hw.buttons import WaitingSignal
from companion.hw.display import Display
from companion.hw.display.view import Option

#: Why the disk refused a write, short and in both languages for the screen (stderr has the
#: OS's own words and the path); another error is said in the OS's words.
SHORT_REASONS = {
    errno.ENOSPC: "disk full 空き容量なし", errno.EDQUOT: "quota full 容量上限",
    errno.EROFS: "read-only 読み取り専用", errno.EACCES: "no permission 権限なし",
    errno.EPERM: "no permission 権限なし", errno.EIO: "disk error 入出力エラー",
    errno.EFBIG: "file too large 大きすぎ"}


@dataclass(frozen=True)
class Beside:
    """A file a mode writes beside its save (a table's fight file), for :meth:`Session.keep`:
    ``name`` says which (``the fight file /…/fight.json``) and ``kept`` what holds the game
    while the disk refuses it (``the table's save holds every action``), on stderr; ``screen``
    names it on the screen, short and in both languages (``戦闘ファイル fight.json``)."""

    name: str
    kept: str
    screen: str = ""


#: What a replay takes for a fault of the companion's own that a save's inputs meet: a
#: programming fault, the same at every replay, so each start (the boot service's, every
#: 3 s) failed on it again and the save was never set aside (soak62 R2). Anything else
#: passes, the save left as it is: an ImportError (a venv or compiled build broken mid-update),
#: a RecursionError or a RuntimeError ("can't start new thread"), an OSError, a MemoryError, a
#: stop are this system's trouble, not the save's, which plays on once that is mended
#: (review62c R1). A list of what is the save's, not of what is not: a trouble not thought of
#: stops the start rather than sets a good save aside. With no screen to show the stop
#: (``display.kind`` not "screen") the service's start limit catches that loop; on the screen
#: the stop says so at every start, held 30 s and so never tripping it, its System menu the
#: way on (Shut down, another mode, the console), the save kept (review62e R1). A
#: StopIteration is one raised outside a generator (``next()`` on an empty iterator in
#: ``restore``); inside one, Python turns it into ``RuntimeError: generator raised
#: StopIteration``, which passes as any RuntimeError (review62e N2).
COMPANION_FAULTS: tuple[type[Exception], ...] = (
    LookupError, AttributeError, TypeError, AssertionError, ArithmeticError, NameError,
    StopIteration)


def resume_when_fixed() -> str:
    """Once the companion is fixed, a save it set aside for its own fault plays on as it is."""
    return (f"once the companion is fixed, `{companion_line('play', '--resume', '--state')}` "
            "with the kept copy named next plays it on")


_told_fault = [""]  # the last fault's traceback printed: a table replays a save up to 3 times


def told_fault() -> None:
    """The traceback of the fault being handled, on stderr for a report (the terminal, the
    journal), once: the same save's replays after it (a table's, to see whether it is over
    or behind) meet the same fault and print nothing more (review62c N6)."""
    text = traceback.format_exc()
    if text != _told_fault[0]:
        _told_fault[0] = text
        print(text, end="", file=sys.stderr)


def replay(mode: Mode, inputs: Sequence[str], events: int | None,
           revision: int | None = None) -> None:
    """Bring a fresh mode to where a save stopped: its ``inputs`` given again, after which
    the mode must have made the ``events`` the save counted (None: not checked); a count
    that differs names the save's rules ``revision`` (None: a mode without one).

    Pure (the mode only), so a save can be tried before any hardware is opened. A save that
    does not replay (other rules, an edited file, a fault of the companion its inputs meet,
    :data:`COMPANION_FAULTS`) raises :class:`CorruptSave`.

    A mode with a ``replayed(events)`` is told the inputs are over before the count is
    checked: a question added since the save was made, which its last input went straight
    past, is answered there as the save played (review63c RISK 2, genso's ring payment).
    """
    steps: list[tuple[str, Callable[[], object]]] = [
        (f"at input {n} ({text!r})", partial(mode.restore, text))
        for n, text in enumerate(inputs, 1)]
    ended = getattr(mode, "replayed", None)
    if ended is not None and events is not None:
        steps.append(("after its last input", partial(ended, events)))
    for at, step in steps:
        try:
            step()
        except (CompanionError, ValueError) as exc:
            raise CorruptSave(f"the save does not replay {at}: {exc}") from None
        except COMPANION_FAULTS as exc:
            told_fault()
            raise CorruptSave(f"the save does not replay {at}: the "
                              f"companion failed on it ({type(exc).__name__}: {exc}); unless the "
                              "save was edited, that is a fault of the companion's: please "
                              f"report it with the kept save; {resume_when_fixed()}") from None
    if events is not None and mode.progress() != events:
        # Not "did the rules change?", which the player cannot answer (hist65 NIT 3): a save
        # is replayed by the rules revision it was played by.
        plays = "plays it" if revision is None else f"plays its rules revision {revision}"
        raise CorruptSave(f"the save expected {events} events, replaying its inputs gave "
                          f"{mode.progress()}: the save was edited, or this companion {plays} "
                          "differently (a fault: please report it with the kept save); "
                          f"{resume_when_fixed()}")


class StoppedBehind(KeyboardInterrupt):
    """A stop (Ctrl-C, the service stopped) while the save is behind the game, its last
    write refused: the stop's last word says how far the save holds, not that the game is
    saved (env58 R2). ``saved_moves``: the moves the save on disk is sure of; ``moves``:
    those played."""

    def __init__(self, saved_moves: int, moves: int) -> None:
        super().__init__()
        self.saved_moves = saved_moves
        self.moves = moves


def _holds(path: Path, save: SaveGame) -> bool:
    """Does the save file at ``path`` hold ``save``'s game and every input of it (the one
    it was resumed from)? False when it cannot be read."""
    try:
        on_disk = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
        return False
    return isinstance(on_disk, dict) and on_disk.get("game_id") == save.game_id \
        and on_disk.get("inputs") == list(save.inputs)


class Session:
    """Runs one mode: ask, read or decide, answer, save, log, show; until the mode is over.

    A mode that is not saved (the dice tray) has no ``save``; one that never asks
    for tiles or dice needs no ``tiles`` or ``rolls`` feed.
    """

    def __init__(
        self,
        mode: Mode,
        *,
        choices: ChoiceFeed,
        tiles: TileFeed | None = None,
        rolls: RollFeed | None = None,
        display: Display | None = None,
        save: SaveGame | None = None,
        save_path: Path | None = None,
        log: GameLog | None = None,
        log_header: Sequence[str] = (),
        on_events: Callable[[Sequence[Any]], None] = lambda events: None,
        pace: float = 0.0,
        signal: WaitingSignal | None = None,
        system_menu: SystemMenu | None = None,
        sleep: Callable[[float], None] = time.sleep,
        unattended: bool = False,
    ) -> None:
        self.mode = mode
        self.choices = choices
        self.tiles = tiles
        self.rolls = rolls
        self.display = display
        self.save = save
        self.save_path = save_path
        self.log = log
        self.log_header = list(log_header)
        self.on_events = on_events
        self.pace = pace
        self.signal = signal
        self.system_menu = system_menu
        self.sleep = sleep
        self.status = ""
        # ``status`` is good news (the save or a file beside it written again), drawn as
        # guidance is: in the trouble colour it read as one more thing gone wrong.
        self.status_news = False
        # Whether the good news was on the screen while something waited (the player's
        # menu, the table's reader, the pace): the simulated wall answers its tile asks at
        # once, and the next draw came before the player's menu, so "saved again" was never
        # seen (journey71 NIT 6). Kept until then.
        self._news_seen = False
        # The auto-player answers the choices (``--choices auto``): no screen waits for a
        # player, so the draw after a step is all the good news gets; kept until a screen
        # that waits, it sat on every later screen of the game (reviewj71 NIT 2).
        self.unattended = unattended
        self._asking = False  # a feed is getting an answer (:meth:`get`)
        self._told = ""  # the last problem told on stderr, with no display
        self._typed: dict[str, str] = {}  # statuses shown, as typed here (:meth:`show`)
        # Why the save is behind the game (a write failed), said on every screen until a
        # write succeeds; and how many answers the save on disk holds.
        self.save_trouble = ""
        self.saved_moves = len(save.inputs) if save is not None else 0
        # Whether the save on disk is known to hold the game as far as saved_moves: one
        # resumed from it, or written in this run. A table taking up a fight file, with no
        # save of it yet, writes that file before its first save, and on a read-only disk
        # said "the table's save holds every action", then "nothing of this game is saved
        # yet" (hist72 NIT 4).
        self.save_written = save is not None and save_path is not None \
            and _holds(save_path, save)
        # The same for each file beside the save (Beside.name → what is said) whose last
        # write failed: the save's trouble is the player's game, this only that file's.
        self.beside_trouble: dict[str, str] = {}
        self.log_behind = False  # a log write failed: the next rewrites the game's lines

    # -- saving and the log ---------------------------------------------------------

    def replay(self, inputs: Sequence[str]) -> None:
        """Bring a fresh mode to where a save stopped (see :func:`replay`)."""
        replay(self.mode, inputs, None if self.save is None else self.save.events)

    def start_log(self) -> None:
        """Write this game's log lines so far, from where the game began in the file. A
        write the disk refuses (read-only, full) is told as :meth:`write_log` tells one, and
        the game goes on (hist70 R1: a read-only disk refused the whole game, a resume's as
        a new one's), the log written whole again once it can be."""
        if self.log is None:
            return
        try:
            self.log.rewrite(self.log_header + self.mode.log_lines(self.mode.history()))
        except OSError as exc:
            if exc.errno not in DISK_ERRNOS:
                raise
            self._log_refused(self.log.path, exc.errno, finished=False)
            return
        if self.save is not None and self.save.log_start != self.log.start:
            # Moved when the file was cut by hand, or after games logged since the stop.
            self.save.log_start = self.log.start
            self.keep_saved()

    def _commit(self, events: Sequence[Any], finished: bool) -> None:
        """Save first, then log: a cut between the two is repaired by :meth:`start_log`.

        The last step logs first, synced: a finished save is never resumed, so nothing
        would repair its log; a cut before that save leaves the game a step short, and
        the resume plays the step again and rewrites the log.
        """
        if finished:
            self.write_log(events, finished)
        if self.save is not None:
            self.save.inputs = self.mode.journal
            self.save.events = self.mode.progress()
            self.save.finished = finished
            self.keep_saved()
        if not finished:
            self.write_log(events, finished)

    def write_log(self, events: Sequence[Any], finished: bool) -> None:
        """Add a step's lines to the log; after a write the disk refused, the game's lines
        whole, from where they begin. A refused write (full, read-only) is told once, and
        again if the game ends with the log behind; play goes on, as for the save: the log
        only tells the game, the save keeps it."""
        if self.log is None:
            return
        try:
            if self.log_behind:
                self.log.rewrite(self.log_header + self.mode.log_lines(self.mode.history()))
            else:
                self.log.append(self.mode.log_lines(events), sync=finished)
        except OSError as exc:
            if exc.errno not in DISK_ERRNOS:
                raise
            self._log_refused(self.log.path, exc.errno, finished)
            return
        if self.log_behind:
            self.log_behind = False
            print(f"companion: the log {self.log.path} holds the whole game again",
                  file=sys.stderr, flush=True)

    def _log_refused(self, path: Path, code: int, finished: bool) -> None:
        """Tell a write of the log ``path`` the disk refused with errno ``code`` (once, and
        again if the game ends with the log behind); the next write rewrites the game's
        lines whole."""
        if finished or not self.log_behind:
            after = ("it stops before the game's end" if finished else
                     "the game goes on, and the log is written whole again once it can be")
            print(f"companion: cannot write the log {path} ({os.strerror(code)}): {after}",
                  file=sys.stderr, flush=True)
        self.log_behind = True

    def keep_saved(self, *, starting: bool = False) -> None:
        """Write the save (when there is one), as :meth:`keep` does any write."""
        if self.save is not None and self.save_path is not None:
            save, path = self.save, self.save_path
            self.keep(lambda: write_save(path, save), starting=starting)

    def keep(self, write: Callable[[], object], *, starting: bool = False,
             beside: Beside | None = None) -> bool:
        """Run ``write`` (the save, or with ``beside`` a file the mode keeps beside it); False
        when it failed.

        A write the disk or folder refuses (full, read-only) is told in one line, on the
        screen (every screen, until a write succeeds) and on stderr, and play goes on: the
        next step writes the whole save again, and the first that succeeds says so. A file
        beside the save is told as its own: its refusal is not the save's (which says how
        far the game is safe), and a write of it that succeeds does not make the save whole.
        ``starting``: the first write of a session, where an error that says the path itself
        is wrong (a folder, no such folder) is raised, as for any bad file given.
        """
        try:
            write()
        except OSError as exc:
            if starting and exc.errno not in DISK_ERRNOS:
                raise
            reason = os.strerror(exc.errno) if exc.errno else str(exc)  # the OS's words only
            short = SHORT_REASONS.get(exc.errno or 0, reason)
            # Written, its folder not synced: the file is in place, a power cut may undo it.
            doubt = isinstance(exc, NotDurable)
            if beside is not None:
                self._beside_refused(beside, reason, short, doubt)
                return False
            n = self.saved_moves  # the moves a save synced to the disk holds
            safe = (f"the game is safe up to move {n}" if n
                    else "nothing of this game is saved yet")
            # The screen's line is short (the player needs what and how far, a row beside
            # the menu); stderr, the journal under the service, has the OS's words and the
            # folder to mend (setup64 NIT 3).
            said = ((f"保存未確定 saved, may not be on the card: {short}; " if doubt
                     else f"保存できません cannot save: {short}; ")
                    + (f"safe to move {n} {n}手目まで保存済" if n else "nothing saved yet 未保存"))
            if said != self.save_trouble:
                folder = "" if self.save_path is None else f" {self.save_path.absolute().parent}"
                print("companion: " + (
                    f"saved, but its folder could not be synced ({reason}): a power cut may "
                    "undo it; it is written again at the next step" if doubt else
                    f"cannot save ({reason}): free space or fix the folder{folder}") + f"; {safe}",
                      file=sys.stderr, flush=True)
            self.save_trouble = said
            if self.status_news:  # "saved again", kept to be seen, is no longer so
                self.status, self.status_news = "", False
            return False
        if beside is not None:
            if self.beside_trouble.pop(beside.name, ""):
                self.status = f"{beside.screen or beside.name} written again 書込再開"
                self.status_news, self._news_seen = True, False
                print(f"companion: written again: {beside.name} is whole again",
                      file=sys.stderr, flush=True)
            return True
        if self.save is not None:
            self.saved_moves = len(self.save.inputs)
            self.save_written = True
        if self.save_trouble:
            self.save_trouble = ""
            n = self.saved_moves
            self.status = f"saved again 保存再開: the whole game, move {n} {n}手目まで"
            self.status_news, self._news_seen = True, False
            print(f"companion: saved again: the save holds the whole game again (move {n})",
                  file=sys.stderr, flush=True)
        return True

    def _beside_refused(self, beside: Beside, reason: str, short: str, doubt: bool) -> None:
        """Tell that the disk refused ``beside`` (once on stderr, with its path; on every
        screen, short, until it is written), or with ``doubt`` that it was written and its
        folder not synced, so a power cut may undo it. What holds the game meanwhile is said
        only while the save is whole, written in this run and not refused since: when the
        save is refused too, its own line says how far the game is safe."""
        whole = self.save_written and not self.save_trouble
        kept = f"{beside.kept}, and " if whole else ""
        said = (f"{beside.screen or beside.name} "
                + ("may not be on the card 書込未確定" if doubt else "not written 書込不可")
                + f": {short}" + ("; the save holds all 保存は完全" if whole else ""))
        if said != self.beside_trouble.get(beside.name):
            what = (f"wrote {beside.name}, but its folder could not be synced ({reason}): a "
                    "power cut may undo that write; " if doubt
                    else f"cannot write {beside.name} ({reason}): ")
            print(f"companion: {what}{kept}the file is written again when it can be",
                  file=sys.stderr, flush=True)
        self.beside_trouble[beside.name] = said

    # -- the loop ---------------------------------------------------------------------

    def run(self) -> None:
        """Play until the mode is over. Closing the window or Ctrl-C stops it, saved; with
        the save behind the game, as :class:`StoppedBehind`."""
        try:
            self._play()
        except KeyboardInterrupt:
            if self.save is None or not self.save_trouble:
                raise
            raise StoppedBehind(self.saved_moves, len(self.mode.journal)) from None

    def _play(self) -> None:
        ask = self.mode.ask()
        while ask is not None:
            value = self.get(ask)
            try:
                events = self.mode.answer(value)
            except (ImpossibleRead, IllegalAction) as exc:
                self.status, self.status_news = str(exc), False
                continue
            if not self.status_news or self._news_seen:  # good news waits to be seen
                self.status, self.status_news = "", False
            ask = self.mode.ask()
            self._commit(events, finished=ask is None)
            self.on_events(events)
            if self.display is not None:
                self.show_next()
                if self.unattended:
                    self._news_seen = self._news_seen or self.status_news
            if self.pace:
                self.wait(self.pace)
                self._news_seen = self._news_seen or self.status_news

    def get(self, ask: Ask) -> Any:
        """The answer to an ask, from the feed that gives its kind. SYSTEM pressed while it
        is awaited opens the System menu (``system_menu``), and the ask is asked again after
        it: nothing was answered, so the mode and its save are as they were."""
        self._asking = True
        try:
            if self.system_menu is None:
                return self.answer_of(ask)
            return self.system_menu.answering(lambda: self.answer_of(ask), self.menu_show,
                                              lambda: self.save_trouble)
        finally:
            self._asking = False

    def menu_show(self, prompt: str, **kwargs: Any) -> None:
        """:meth:`show` for the System menu: the LED and beep ask for no tile meanwhile."""
        if self.signal is not None:
            self.signal.waiting(False)
        self.show(prompt, **kwargs)

    def answer_of(self, ask: Ask) -> Any:
        if isinstance(ask, ChoiceAsk):
            return self.choices.next_choice(ask, self.show)
        if isinstance(ask, TileAsk):
            if self.tiles is None:
                raise DeviceError("this mode asks for tiles and nothing here reads them")
            tiles, signal = self.tiles, self.signal
            if signal is None:
                return tiles.next_tile(ask, self.show)

            def show(prompt: str, **kwargs: Any) -> None:
                # The LED and beep ask for the tile once the reader is up, not before: a
                # tile laid while it starts is refused as lying there at start-up.
                signal.waiting(tiles.ready())
                self.show(prompt, **kwargs)

            tile = tiles.next_tile(ask, show)
            signal.waiting(False)
            return tile
        if self.rolls is None:
            raise DeviceError("this mode asks for dice and nothing here throws or reads them")
        return self.rolls.next_throw(ask, self.show)

    def close(self) -> None:
        """Let go of the reader, the LED and the ``--log`` file (the display and buttons
        belong to the caller): a game left for another mode held its log until the process
        ended, though its save was let go (reviewh68 RISK 2)."""
        if self.tiles is not None:
            self.tiles.close()
        if self.signal is not None:
            self.signal.close()
        if self.log is not None:
            self.log.close()

    def wait(self, seconds: float) -> None:
        """Pause, keeping a window responsive (its events are read; presses are ignored)."""
        if self.display is None:
            self.sleep(seconds)
            return
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.display.poll()
            self.sleep(min(left, 0.05))

    def show_next(self) -> None:
        """Show what the mode asks next, or its closing frame. A menu is shown with its
        options, the frame it first shows itself, so a terminal prints each step once."""
        ask = self.mode.ask()
        if isinstance(ask, ChoiceAsk):
            self.show(ask.prompt, options=ask.options, highlight=ask.highlight)
        elif isinstance(ask, TileAsk) and self.tiles is not None and not self.tiles.ready():
            return  # the reader's start-up screen comes next, not an ask that cannot count
        else:
            self.show(ask.prompt if ask is not None else self.mode.closing())

    def next_prompt(self) -> str:
        ask = self.mode.ask()
        return ask.prompt if ask is not None else self.mode.closing()

    # -- the screen -------------------------------------------------------------------

    def _typed_here(self, text: str) -> str:
        """``text`` (a status or a problem: the reader's, the rules', a file's) with each
        `companion …` it names as the user can type it here (reviewr67 RISK 1: the tray's
        "`companion rfid list`" was "command not found" after scripts/bootstrap.sh). Each
        is rewritten once (it looks the PATH up): the screen is drawn again each time a
        reading changes, with the same problem."""
        if "`companion " not in text:
            return text
        if text not in self._typed:
            if len(self._typed) > 16:
                self._typed.clear()
            self._typed[text] = as_typed_here(text)
        return self._typed[text]

    def show(self, prompt: str, *, options: tuple[Option, ...] = (), highlight: int | None = None,
             status: str = "", prompt_tile: str | None = None,
             prompt_faces: tuple[int, ...] = (), guidance: bool = False) -> None:
        """Show the mode's view. ``guidance``: ``status`` is the player's usual next step
        (throw again, A accepts), not trouble; trouble beside it makes the line trouble."""
        told = self._typed_here(status or self.status)
        guidance = (guidance and bool(status)) or (not status and self.status_news)
        if self.display is None:
            # Nothing shows the step: a problem (no camera, no tray) goes to stderr, once,
            # rather than the game waiting for a tile without a word. (A save's trouble
            # went there when it began.)
            if told and told != self._told:
                print(f"companion: {told}", file=sys.stderr, flush=True)
            self._told = told
            return
        # First: the player's game is not being kept (the save), or not all of it where
        # other commands read it (a file beside the save).
        troubles = [self._typed_here(t)
                    for t in (self.save_trouble, *self.beside_trouble.values()) if t]
        if troubles:
            told = " · ".join([*troubles, told] if told else troubles)
        if self._asking and self.status_news and not status:
            self._news_seen = True  # drawn by what waits for the answer (the menu, the reader)
        view = self.mode.view(prompt, options=options, highlight=highlight, status=told,
                              prompt_tile=prompt_tile, prompt_faces=prompt_faces)
        self.display.show(replace(view, guidance=(guidance and not troubles) or view.guidance,
                                  system=self.system_menu is not None
                                  and not self.system_menu.showing))
