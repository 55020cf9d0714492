"""A play session: one game from the first draw to 生還 or death, at the table or headless.

The session tells the player what to do next, gets the answer (a tile from the
camera, the RFID tray or the simulated wall; a choice from the buttons, the
keyboard, a tap or the auto-player), feeds it to the rules engine, and shows
what happened. After every resolved step it saves the game (atomically, see
:mod:`companion.app.save`) *before* appending the step's log lines (the last
step logs first), so a power cut at any moment loses nothing and doubles nothing:
``--resume`` replays the saved inputs and rewrites the log from where this game's
lines began.

A tile read from the table is shown before it counts: the player can reject it
(FLEE / back) during ``accept_seconds``, confirm it at once (ATTACK), or let the
timeout accept it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from companion.app.save import CorruptSave, SaveGame, write_save
from companion.errors import CompanionError, DeviceError, IllegalAction, ImpossibleRead
from companion.hw.buttons import Button, Pick, Press, WaitingSignal
from companion.hw.display import Display
from companion.hw.display.view import Name, Option, SheetView, TileView, View
from companion.hw.ports import ROOM_SLOTS, Slot, SlotReading, TileReader
from companion.hw.rfid.wallcheck import UnknownTag
from companion.systems.jongrogue.actions import (
    Choice,
    ChoiceRequest,
    Purpose,
    TileRequest,
    Verb,
    input_from_notation,
    input_to_notation,
)
from companion.systems.jongrogue.autoplay import HeadlessPlayer, Strategy
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tables import TABLES
from companion.systems.jongrogue.tiles import BACK, EMPTY, Tile
from companion.systems.jongrogue.wall import TileLedger


class GameLog:
    """This game's JSON Lines in a ``--log`` file that may hold earlier games before it.

    ``start`` is the byte offset where this game's lines begin (kept in the
    save). :meth:`rewrite` truncates back to it and writes every line of the
    game so far; :meth:`append` adds a step's lines.
    """

    def __init__(self, path: Path, start: int) -> None:
        self.path = path
        self.start = start

    @classmethod
    def begin(cls, path: Path) -> GameLog:
        """A log for a new game, after whatever the file already holds.

        A file ending in the middle of a line (an earlier game cut off and never
        resumed) first gets its line ended, so the new game starts on a line of its own.
        """
        try:
            with open(path, "rb+") as handle:
                size = handle.seek(0, os.SEEK_END)
                if size and (handle.seek(size - 1), handle.read(1))[1] != b"\n":
                    handle.write(b"\n")
                    size += 1
        except FileNotFoundError:
            size = 0
        return cls(path, size)

    def rewrite(self, lines: Sequence[str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        with os.fdopen(fd, "r+b") as handle:
            size = handle.seek(0, os.SEEK_END)
            # A file cut shorter than where this game began (edited by hand): write at its end.
            start = min(self.start, size)
            handle.truncate(start)
            handle.seek(start)
            handle.write("".join(line + "\n" for line in lines).encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        self.start = start

    def append(self, lines: Sequence[str], sync: bool = False) -> None:
        """Add lines at the end; ``sync`` when no resume would rewrite what a cut lost."""
        if not lines:
            return
        with open(self.path, "ab") as handle:
            handle.write("".join(line + "\n" for line in lines).encode("utf-8"))
            if sync:
                handle.flush()
                os.fsync(handle.fileno())


class PressSource(Protocol):
    """Anything with ``poll() -> list[Press]``: ButtonPanel, KeyboardInput, a Display."""

    def poll(self) -> list[Press]: ...


class Controls:
    """Every source of presses at once: the buttons, the keyboard, the display's keys and taps."""

    def __init__(self, sources: Sequence[PressSource]) -> None:
        self.sources = list(sources)

    def poll(self) -> list[Press]:
        presses: list[Press] = []
        for source in self.sources:
            presses.extend(source.poll())
        return presses


@dataclass(slots=True)
class ReadState:
    """What the table reader last said about each slot, and which readings were already used."""

    latest: dict[Slot, SlotReading] = field(default_factory=dict)
    fresh: set[Slot] = field(default_factory=set)

    def update(self, readings: Sequence[SlotReading]) -> None:
        for reading in readings:
            self.latest[reading.slot] = reading
            self.fresh.add(reading.slot)

    def consume(self, slot: Slot) -> None:
        """The tile on ``slot`` was used: the next tile there must be a new placement."""
        self.fresh.discard(slot)


@dataclass(frozen=True, slots=True)
class Read:
    """A reading the session can offer the player: a legal tile, or a reason it cannot."""

    tile: Tile | None
    problem: str = ""


def interpret(reading: SlotReading, ledger: TileLedger) -> Read:
    """The best legal tile of a reading (JR-WALL-1), falling back on the reader's candidates."""
    where = SLOT_NAMES[reading.slot]
    if reading.label is None and reading.uid:
        # An RFID sticker that was never enrolled: straightening the tile cannot help.
        return Read(None, str(UnknownTag(reading.uid, where)))
    if reading.label is None:
        return Read(None, f"cannot read the tile on the {where} slot: straighten it")
    if reading.label == BACK:
        return Read(None, f"the tile on the {where} slot is face down: turn it over")
    if reading.label == EMPTY:
        return Read(None, "")
    labels = [reading.label, *(c.label for c in reading.candidates)]
    first_error = ""
    for label in dict.fromkeys(labels):
        if label in (BACK, EMPTY):
            continue
        tile = Tile.from_notation(label)
        try:
            ledger.check_draw(tile)
        except ImpossibleRead as exc:
            first_error = first_error or str(exc)
            continue
        return Read(tile)
    return Read(None, first_error)


READ_OPTIONS = (Option("accept", "Accept 確定", Button.ATTACK),
                Option("reject", "Reject やり直し", Button.FLEE))


class Confirm:
    """Shows a read for ``accept_seconds``: FLEE rejects it, ATTACK accepts at once.

    On a touch screen the read is shown with :data:`READ_OPTIONS`; tapping them
    does the same.
    """

    def __init__(self, accept_seconds: float, clock: Callable[[], float] = time.monotonic):
        self.accept_seconds = accept_seconds
        self.clock = clock
        self.tile: Tile | None = None
        self.since = 0.0

    def offer(self, tile: Tile) -> None:
        self.tile = tile
        self.since = self.clock()

    def remaining(self) -> float:
        return max(0.0, self.accept_seconds - (self.clock() - self.since))

    def decide(self, presses: Sequence[Press]) -> bool | None:
        """True: accepted; False: rejected; None: still showing."""
        if self.tile is None:
            return None
        for press in presses:
            if press is Button.FLEE or press == Pick(1):
                self.tile = None
                return False
            if press is Button.ATTACK or press == Pick(0):
                return True
        return True if self.remaining() <= 0 else None


def wait_for_tile(
    reader: TileReader,
    state: ReadState,
    slot: Slot,
    ledger: TileLedger,
    controls: Controls,
    confirm: Confirm,
    show: Callable[[str, Tile | None], None],
    poll_seconds: float,
    sleep: Callable[[float], None] = time.sleep,
) -> Tile:
    """Block until a tile on ``slot`` is read, shown and not rejected; return it.

    ``show(status, tile)`` redraws the prompt with a status line and the tile
    read (or None). The tile is only taken from a *new* placement on the slot,
    so a tile left lying there from the last step is never counted twice.
    """
    shown: tuple[str, Tile | None] | None = None
    note = ""  # says a read was rejected, until the slot changes
    while True:
        readings = reader.poll()
        state.update(readings)
        if any(r.slot is slot for r in readings):
            note = ""
        presses = controls.poll()
        status = note
        reading = state.latest.get(slot)
        if confirm.tile is None and reading is not None and slot in state.fresh:
            read = interpret(reading, ledger)
            if read.tile is not None:
                confirm.offer(read.tile)
                presses = []  # a press made before the tile was shown does not judge it
            else:
                status = read.problem
        if confirm.tile is not None:
            decision = confirm.decide(presses)
            if decision is True:
                tile = confirm.tile
                confirm.tile = None
                state.consume(slot)
                return tile
            if decision is False:
                state.consume(slot)
                status = note = "read rejected: take the tile off the slot and put it back"
        if confirm.tile is not None:
            status = (f"read {confirm.tile} {confirm.tile.name_ja} ({confirm.tile.name_en}): "
                      f"B rejects, A accepts; counts in {confirm.remaining():.0f} s")
        reader_status = reader.status()
        if not reader_status.ok:
            status = reader_status.message
        if (status, confirm.tile) != shown:
            shown = (status, confirm.tile)
            show(status, confirm.tile)
        sleep(poll_seconds)


def menu_press(press: Press, count: int, highlight: int,
               shortcuts: dict[Button, int]) -> tuple[int | None, int]:
    """Apply a press to a menu of ``count`` options: (chosen index or None, new highlight).

    A tap or number picks directly; MENU (a long press of ITEM) moves the
    highlight; ATTACK confirms the highlighted option; FLEE, RANGED and ITEM
    choose their own option when one is offered (``shortcuts``); FLEE with no
    flee option moves the highlight back.
    """
    if isinstance(press, Pick):
        return (press.index, highlight) if 0 <= press.index < count else (None, highlight)
    if press is Button.MENU:
        return None, (highlight + 1) % count
    if press is Button.ATTACK:
        return highlight, highlight
    if press in shortcuts:
        return shortcuts[press], highlight
    if press is Button.FLEE:
        return None, (highlight - 1) % count
    if press is Button.ITEM:
        return None, (highlight + 1) % count
    return None, highlight


# ---- what the screen shows of a game (spec §9) ------------------------------------

SLEEP_NAMES: dict[str, Name] = {
    "awake": Name("起", "awake"),
    "asleep": Name("眠", "asleep"),
    "deeply_asleep": Name("熟睡", "deeply asleep"),
}
PC_STATE_NAMES: dict[str, Name] = {
    "frozen": Name("凍結", "frozen"),
    "bound": Name("拘束", "bound"),
    "confused": Name("混乱", "confused"),
    "blind": Name("盲目", "blind"),
    "floating": Name("浮遊", "floating"),
}
ROLE_NAMES: dict[str, Name] = {
    "gold": Name("金塊", "gold"),
    "stairs": Name("階段", "stairs down"),
    "empty": Name("床", "empty floor"),
}


def item_name(game: Game, tile: Tile) -> Name:
    spec = game.profile.items[tile.rank]
    return Name(spec.name_ja, spec.name_en)


def room_tiles(game: Game) -> tuple[TileView, ...]:
    """The current room's 4 tiles with their meaning (spec §9; JR-MAP-2)."""
    if not game.room_no or game.room_no not in game.rooms:
        return ()
    room = game.rooms[game.room_no]
    monsters = {m.spot: m for m in game.monsters if m.room == room.number}
    views: list[TileView] = []
    for spot, tile in enumerate(room.tiles):
        if tile is None:
            gone = monsters.get(spot)
            detail = "defeated 撃破" if gone is not None and not gone.alive else "taken"
            views.append(TileView("empty", Name("", "(no tile)"), detail))
            continue
        m = monsters.get(spot)
        if m is not None and m.alive:
            flags = [str(SLEEP_NAMES[m.sleep.value])]
            flags += [text for on, text in ((m.hasted, "hasted 倍速"),
                                             (m.invisible, "invisible 透明"),
                                             (m.sealed, "sealed 封魔"),
                                             (m.on_gold is not None, "on gold 金塊の上"))
                      if on]
            views.append(TileView(str(tile), Name(m.monster.name_ja, m.monster.name_en),
                                  ", ".join(flags)))
            continue
        role = game.profile.role(tile).value
        if role == "item":
            views.append(TileView(str(tile), item_name(game, tile)))
        elif role == "gold":
            views.append(TileView(str(tile), ROLE_NAMES["gold"],
                                  f"{tile.rank * game.profile.gold_per_rank} gold"))
        elif role == "monster":
            views.append(TileView(str(tile), Name("", "monster"), "defeated 撃破"))
        else:
            views.append(TileView(str(tile), ROLE_NAMES[role]))
    return tuple(views)


def sheet(game: Game) -> SheetView:
    """The PC sheet (spec §9; JR-PC-1)."""
    pc = game.pc
    levels = TABLES.level_xp
    xp_next = levels[pc.level] if pc.level < len(levels) else None
    strength_on = any(o.value == "strength" for o in game.options)
    held: list[str] = []
    if pc.shuriken:
        held.append(f"手裏剣 shuriken ×{pc.shuriken} (+{pc.shuriken_attack})")
    if pc.potions:
        held.append(f"{item_name(game, pc.potions[0])} ×{len(pc.potions)}")
    held += [f"{item_name(game, t)} (spare)" for t in pc.spare_rings]
    return SheetView(
        level=pc.level, xp=pc.xp, xp_next=xp_next, hp=pc.hp, hp_max=pc.max_hp, gold=pc.gold,
        weapon=Name(pc.weapon.name_ja, pc.weapon.name_en), weapon_attack=pc.weapon.value,
        ranged=Name(pc.ranged.name_ja, pc.ranged.name_en), ranged_attack=pc.ranged.value,
        ammo=pc.arrows,
        armour=Name(pc.armour.name_ja, pc.armour.name_en), armour_defence=pc.armour.value,
        strength=pc.strength if strength_on else None,
        rings=tuple(item_name(game, t) for t in pc.rings),
        states=tuple(PC_STATE_NAMES[s.value] for s in sorted(pc.states, key=lambda s: s.value)),
        items=tuple(held),
    )


# ---- the game loop -------------------------------------------------------------------

VERB_BUTTONS: dict[Verb, Button] = {
    Verb.FLEE: Button.FLEE,
    Verb.SHOOT: Button.RANGED,
    Verb.USE: Button.ITEM,
}

SLOT_NAMES: dict[Slot, str] = {
    Slot.DRAW: "draw",
    Slot.ROOM_TL: "top-left room",
    Slot.ROOM_TR: "top-right room",
    Slot.ROOM_BL: "bottom-left room",
    Slot.ROOM_BR: "bottom-right room",
}

TILE_PROMPTS: dict[Purpose, str] = {
    Purpose.START_ROOM: "Draw a tile and put it on the draw slot: 1d9 for the start room",
    Purpose.ROOM: "Lay this room's 4 tiles: draw one and put it on the {slot} slot",
    Purpose.CHECK: "Draw a tile and put it on the draw slot: {what}",
    Purpose.NUMBER: "Draw a tile and put it on the draw slot: {what}",
    Purpose.DROP: "Draw a tile and put it on the draw slot: {what}",
    Purpose.MIMIC: "Draw a tile and put it on the draw slot: {what}",
}
ONE_SLOT_ROOM_PROMPT = ("Lay this room's 4 tiles: draw one, put it on the draw slot to read it, "
                        "then lay it on the {slot} slot")


SPOT_SHORT = ("TL", "TR", "BL", "BR")  # where a monster's tile lies in its room (JR-MAP-2)


def choice_label(game: Game, choice: Choice, alone: bool = True) -> str:
    """What the player reads for a choice, short enough for a button on the screen.

    ``alone`` is False when the same verb is offered for several targets; the
    label then names the target (and where its tile lies: TL, TR, BL, BR).
    """
    verb, arg = choice.verb, choice.arg
    if verb in (Verb.FIGHT, Verb.SHOOT) and arg:
        act = "Fight 戦う" if verb is Verb.FIGHT else "Shoot 射撃"
        if alone:
            return act
        m = game.monster(int(arg))
        return f"{act.split()[0]} {m.monster.name_ja} {SPOT_SHORT[m.spot]}"
    if verb in (Verb.USE, Verb.EQUIP, Verb.UNEQUIP) and arg:
        item = item_name(game, Tile.from_notation(arg))
        act = {Verb.USE: "Use", Verb.EQUIP: "Equip", Verb.UNEQUIP: "Remove"}[verb]
        return f"{act} {item.ja}"
    if verb is Verb.MOVE:
        return f"Room {arg} 部屋{arg}へ"
    return {
        Verb.ENTER: "Enter 入る",
        Verb.CLOSE: "Close in 接近",
        Verb.DOOR: "To the door ドアへ",
        Verb.FLEE: "Flee 逃げる",
        Verb.TAKE: "Take 拾う",
        Verb.STAIRS: "Stairs 階段",
        Verb.KEEP: "Keep mine 今のまま",
        Verb.DEFEND: "Defend 防御",
        Verb.EQUIP: "Equip 装備",
    }.get(verb, str(choice))


def options_for(game: Game, request: ChoiceRequest) -> tuple[tuple[Option, ...], int]:
    """The request's choices as view options, and which one ATTACK confirms at first.

    FLEE, SHOOT and USE get their button (the first of each); the highlight
    starts on the first FIGHT (ATTACK = fight), else on the first choice.
    """
    taken: set[Button] = set()
    options: list[Option] = []
    for choice in request.options:
        button = VERB_BUTTONS.get(choice.verb)
        if button in taken:
            button = None
        if button is not None:
            taken.add(button)
        alone = sum(c.verb is choice.verb for c in request.options) == 1
        options.append(Option(str(choice), choice_label(game, choice, alone), button))
    highlight = next((i for i, c in enumerate(request.options) if c.verb is Verb.FIGHT), 0)
    return tuple(options), highlight


class TileFeed(Protocol):
    """Where the session gets a tile the game asks for; ``close`` lets go of its device."""

    def next_tile(self, game: Game, request: TileRequest, slot: Slot) -> Tile: ...

    def close(self) -> None: ...


class ChoiceFeed(Protocol):
    """Where the session gets a decision the game asks for."""

    def next_choice(self, game: Game, request: ChoiceRequest) -> Choice: ...


class SimTiles:
    """The companion draws for the player from its seeded simulated wall."""

    def __init__(self, player: HeadlessPlayer) -> None:
        self.player = player

    def next_tile(self, game: Game, request: TileRequest, slot: Slot) -> Tile:
        return self.player.draw(game)

    def close(self) -> None:
        return None


class AutoChoices:
    """The auto-player decides (a strategy is a pure function of the game)."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy

    def next_choice(self, game: Game, request: ChoiceRequest) -> Choice:
        return self.strategy(game, request)


Show = Callable[..., None]


class TableTiles:
    """Tiles laid on the table and read by a camera or RFID reader, confirmed by the player."""

    def __init__(self, reader: TileReader, controls: Controls, show: Show,
                 accept_seconds: float, poll_seconds: float,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic,
                 one_slot: bool = False) -> None:
        """``one_slot``: the reader watches the draw slot only (a single RDM6300), so
        every tile is read there, a room's tiles before they are laid out."""
        self.reader = reader
        self.one_slot = one_slot
        self.controls = controls
        self.show = show
        self.state = ReadState()
        self.confirm = Confirm(accept_seconds, clock)
        self.poll_seconds = poll_seconds
        self.sleep = sleep

    def next_tile(self, game: Game, request: TileRequest, slot: Slot) -> Tile:
        prompt = tile_prompt(request, slot)
        if self.one_slot and slot is not Slot.DRAW:
            prompt = ONE_SLOT_ROOM_PROMPT.format(slot=SLOT_NAMES[slot])
            slot = Slot.DRAW
        return wait_for_tile(
            self.reader, self.state, slot, game.ledger, self.controls, self.confirm,
            lambda status, tile: self.show(
                prompt, status=status, prompt_tile=str(tile) if tile else "back",
                options=READ_OPTIONS if tile else (), highlight=0 if tile else None),
            self.poll_seconds, self.sleep,
        )

    def close(self) -> None:
        self.reader.close()


class MenuChoices:
    """Choices from presses: buttons, keys, taps (see :func:`menu_press`)."""

    def __init__(self, controls: Controls, show: Show, poll_seconds: float,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.controls = controls
        self.show = show
        self.poll_seconds = poll_seconds
        self.sleep = sleep

    def next_choice(self, game: Game, request: ChoiceRequest) -> Choice:
        options, highlight = options_for(game, request)
        index = choose(self.controls, self.show, request.prompt, options, highlight,
                       self.poll_seconds, self.sleep)
        return request.options[index]


def choose(controls: Controls, show: Show, prompt: str, options: tuple[Option, ...],
           highlight: int, poll_seconds: float,
           sleep: Callable[[float], None] = time.sleep) -> int:
    """Show a menu and wait until a press picks one of its options; return its index."""
    shortcuts = {o.button: i for i, o in enumerate(options) if o.button is not None}
    controls.poll()  # presses made while the last step resolved do not count here
    show(prompt, options=options, highlight=highlight)
    while True:
        for press in controls.poll():
            chosen, moved = menu_press(press, len(options), highlight, shortcuts)
            if chosen is not None:
                return chosen
            if moved != highlight:
                highlight = moved
                show(prompt, options=options, highlight=highlight)
        sleep(poll_seconds)


def tile_prompt(request: TileRequest, slot: Slot) -> str:
    """Where to put the tile, then what it is for (the engine's words, minus "draw a tile")."""
    what = request.prompt
    for part in ("Draw a tile for the check: ", ": draw a tile"):
        what = what.replace(part, "")
    return TILE_PROMPTS[request.purpose].format(slot=SLOT_NAMES[slot], what=what)


class Session:
    """Runs one game: ask, read or decide, push, save, log, show; until the game is over."""

    def __init__(
        self,
        game: Game,
        save: SaveGame,
        *,
        tiles: TileFeed,
        choices: ChoiceFeed,
        display: Display | None,
        save_path: Path | None = None,
        log: GameLog | None = None,
        log_header: Sequence[str] = (),
        log_lines: Callable[[Sequence[Event]], list[str]] = lambda events: [],
        on_events: Callable[[Sequence[Event]], None] = lambda events: None,
        describe: Callable[[Event], str] = Event.describe,
        pace: float = 0.0,
        signal: WaitingSignal | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.game = game
        self.save = save
        self.tiles = tiles
        self.choices = choices
        self.display = display
        self.save_path = save_path
        self.log = log
        self.log_header = list(log_header)
        self.log_lines = log_lines
        self.on_events = on_events
        self.describe = describe
        self.pace = pace
        self.signal = signal
        self.sleep = sleep
        self.room_spot = 0  # which of the 4 room slots the next ROOM tile goes on
        self.journal: list[str] = []  # the game's inputs in notation; becomes the save's
        self.status = ""

    # -- saving and the log ---------------------------------------------------------

    def replay(self, inputs: Sequence[str], sim: HeadlessPlayer | None) -> None:
        """Bring a fresh game to where a save stopped; a simulated wall is drawn along.

        A save that does not replay (other rules, an edited file) raises
        :class:`CorruptSave`.
        """
        for n, text in enumerate(inputs, 1):
            try:
                value = input_from_notation(text)
                if sim is not None and isinstance(self.game.pending, TileRequest):
                    drawn = sim.answer(self.game)
                    if drawn != value:
                        raise IllegalAction(f"the wall of seed {self.save.seed} gives {drawn} "
                                            f"here, the save says {text}")
                self._push(value)
            except (CompanionError, ValueError) as exc:
                reason = f"the save does not replay at input {n} ({text!r}): {exc}"
                raise CorruptSave(reason) from None
        if len(self.game.events) != self.save.events:
            raise CorruptSave(f"the save expected {self.save.events} events, replaying its "
                              f"inputs gave {len(self.game.events)}: did the rules change?")

    def start_log(self) -> None:
        """Write this game's log lines so far, from where the game began in the file."""
        if self.log is not None:
            self.log.rewrite(self.log_header + self.log_lines(self.game.events))
            self.save.log_start = self.log.start  # moved only if the file was cut by hand

    def _commit(self, events: Sequence[Event]) -> None:
        """Save first, then log: a cut between the two is repaired by :meth:`start_log`.

        The last step logs first, synced: a finished save is never resumed, so nothing
        would repair its log; a cut before that save leaves the game a step short, and
        the resume plays the step again and rewrites the log.
        """
        self.save.inputs = self.journal
        self.save.events = len(self.game.events)
        self.save.finished = self.game.pending is None
        if self.log is not None and self.save.finished:
            self.log.append(self.log_lines(events), sync=True)
        if self.save_path is not None:
            write_save(self.save_path, self.save)
        if self.log is not None and not self.save.finished:
            self.log.append(self.log_lines(events))

    def _push(self, value: Tile | Choice) -> list[Event]:
        request = self.game.pending
        events = self.game.push(value)
        self.journal.append(input_to_notation(value))
        if isinstance(request, TileRequest) and request.purpose is Purpose.ROOM:
            self.room_spot = (self.room_spot + 1) % len(ROOM_SLOTS)
        return events

    # -- the loop ---------------------------------------------------------------------

    def run(self) -> None:
        """Play until the game is over. Closing the window or Ctrl-C stops it, saved."""
        game = self.game
        while game.pending is not None:
            request = game.pending
            if isinstance(request, TileRequest):
                slot = ROOM_SLOTS[self.room_spot] if request.purpose is Purpose.ROOM else (
                    Slot.DRAW)
                if self.signal is not None:
                    self.signal.waiting(True)
                value: Tile | Choice = self.tiles.next_tile(game, request, slot)
                if self.signal is not None:
                    self.signal.waiting(False)
            else:
                value = self.choices.next_choice(game, request)
            try:
                events = self._push(value)
            except (ImpossibleRead, IllegalAction) as exc:
                self.status = str(exc)
                continue
            self.status = ""
            self._commit(events)
            self.on_events(events)
            if self.display is not None:
                self.show(self.next_prompt())
            if self.pace:
                self.wait(self.pace)

    def close(self) -> None:
        """Let go of the reader and the LED (the display and buttons belong to the caller)."""
        self.tiles.close()
        if self.signal is not None:
            self.signal.close()

    def wait(self, seconds: float) -> None:
        """Pause, keeping a window responsive (its events are read; presses are ignored)."""
        if self.display is None:
            self.sleep(seconds)
            return
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.display.poll()
            self.sleep(min(left, 0.05))

    def next_prompt(self) -> str:
        request = self.game.pending
        if request is None:
            outcome = self.game.outcome()
            if outcome is not None and outcome.won:
                return f"生還! You left floor {outcome.floor} alive."
            return f"Game over on floor {outcome.floor if outcome else self.game.floor}."
        return request.prompt

    # -- the screen -------------------------------------------------------------------

    def show(self, prompt: str, *, options: tuple[Option, ...] = (), highlight: int | None = None,
             status: str = "", prompt_tile: str | None = None) -> None:
        if self.display is None:
            return
        game = self.game
        events = game.events
        self.display.show(View(
            floor=game.floor,
            room=game.room_no or None,
            room_tiles=room_tiles(game),
            sheet=sheet(game),
            prompt=prompt,
            options=options,
            highlight=highlight,
            prompt_tile=prompt_tile,
            last_check=last_check(events, self.describe),
            log=tuple(self.describe(e) for e in events[-12:]),
            status=status or self.status,
        ))


def last_check(events: Sequence[Event], describe: Callable[[Event], str]) -> tuple[str, ...]:
    """The last check and what followed it (damage, defeat, level), spelled out (spec §9)."""
    for i in range(len(events) - 1, -1, -1):
        if events[i].kind is Kind.CHECK:
            return tuple(describe(e) for e in events[i:i + 4])
    return ()


RDM6300_DEFAULT_PORT = "/dev/serial0"  # the Pi's GPIO UART (pins 8/10)


def open_reader(kind: str, camera_source: str, rfid_port: str, ledger: TileLedger,
                rfid_kind: str = "tray") -> TileReader:
    """The table's tile reader by name; each backend is imported only when chosen.

    ``rfid_kind``: ``tray`` (MFRC522 readers under every slot, found by USB id) or
    ``rdm6300`` (one reader under the draw slot, on the Pi's UART unless a port is given).
    """
    if kind == "camera":
        from companion.app.calibrate.camera import load_settings
        from companion.app.commands.classify import load_classifier
        from companion.hw.camera.capture import open_source
        from companion.hw.camera.reader import CameraTileReader

        # What `companion calibrate camera` saved: the reader's settings and the player's set.
        classifier = load_classifier(None)
        return CameraTileReader(open_source(camera_source), classifier,
                                settings=load_settings(classifier), ledger=ledger)
    if kind == "rfid":
        from companion.app.paths import config_dir
        from companion.hw.rfid.link import port_or_usb
        from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
        from companion.hw.rfid.tray import TRAY_PID, TRAY_VID, TrayReader

        tags = TagMap.load(config_dir() / TAGMAP_FILENAME)
        if rfid_kind == "rdm6300":
            from companion.hw.rfid.rdm6300 import Rdm6300Reader

            return Rdm6300Reader(rfid_port or RDM6300_DEFAULT_PORT, tags)
        if rfid_kind != "tray":
            raise DeviceError(f"no RFID reader called {rfid_kind!r}: choose tray or rdm6300")
        return TrayReader(port_or_usb(rfid_port or None, TRAY_VID, TRAY_PID), tags)
    raise DeviceError(f"no table reader called {kind!r}: choose camera or rfid")
