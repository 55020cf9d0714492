"""A session at the table with the real RFID stack: tray firmware logic on a pty, the host's
TrayReader, the tag map; the player lays the tiles the companion asks for."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.app.commands.play.readers import open_reader
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.paths import config_dir
from companion.app.session.controls import Controls
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk, Show, TileAsk
from companion.app.session.reads import (
    TableTiles,
    interpret,
    likeliest,
)
from companion.app.session.save import SaveGame
from companion.errors import DeviceError
from companion.hw.buttons import Press
from companion.hw.display.view import View
from companion.hw.ports import SLOT_NAMES, Candidate, Slot, SlotReading
from companion.hw.rfid.rdm6300 import Rdm6300Reader, frame
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.hw.rfid.tray import DEFAULT_SLOTS, TrayReader
from companion.systems.jongrogue.actions import ChoiceRequest, Purpose, TileRequest
from companion.systems.jongrogue.autoplay import HeadlessPlayer, find_strategy
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import ALL_KINDS, Tile
from companion.systems.jongrogue.wall import Place
from tests.app.rfid_session_helpers import Uart


class Stop(Exception):
    pass


def uid_of(tile: Tile, copy: int) -> str:
    return f"{tile.index:02X}{copy:02X}AA55"


class NoPresses:
    def poll(self) -> list[Press]:
        return []


class Prompts:
    """The display the player reads: only the last prompt matters here."""

    def __init__(self) -> None:
        self.prompt = ""
        self.status = ""

    def __call__(self, prompt: str, **kwargs: object) -> None:
        self.prompt, self.status = prompt, str(kwargs.get("status", ""))

    def show(self, view: View) -> None:
        """As the session's display: the screen's prompt and status line."""
        self(view.prompt, status=view.status)

    def poll(self) -> list[Press]:
        return []

    def close(self) -> None:
        return None


def test_rfid_tray_game(tmp_path: Path) -> None:
    tags = TagMap({uid_of(t, c): t for t in ALL_KINDS for c in range(4)})
    tray = TraySimulator(retry_ms=10)
    reader = TrayReader(tray.port, tags)
    game = Game("plus")
    wall = HeadlessPlayer(5)  # where the player's hand takes tiles from: a shuffled wall
    strategy = find_strategy("cautious")
    prompts = Prompts()
    on_slot: dict[int, str] = {}
    laid: list[str] = []
    asked: set[Slot] = set()
    placed_at = [-1]  # how many inputs the game had when the last tile was laid
    deadline = time.monotonic() + 60

    def tick(_: float) -> None:
        """The tray's firmware runs; the player lays the tile the prompt asks for."""
        tray.step(10)
        time.sleep(0.002)
        if time.monotonic() > deadline:
            raise AssertionError("the game stalled: " + prompts.prompt + " / " + prompts.status)
        if not isinstance(game.pending, TileRequest) or not prompts.prompt:
            return
        if not reader.status().ok:
            return  # the tray is still saying hello: a tile on it now lay there at start-up
        slot = next(s for s, name in SLOT_NAMES.items() if f"on the {name} slot" in prompts.prompt)
        asked.add(slot)
        index = DEFAULT_SLOTS.index(slot)
        if len(game.inputs) == placed_at[0]:
            return  # the tile just laid has not been read yet
        if index in on_slot:  # the last tile there: off the slot first
            tray.remove(index)
            del on_slot[index]
            tray.settle()
            return
        tile = wall.draw(game)
        used = set(on_slot.values())
        uid = next(uid_of(tile, c) for c in range(4) if uid_of(tile, c) not in used)
        tray.place(index, uid)
        on_slot[index] = uid
        laid.append(str(tile))
        placed_at[0] = len(game.inputs)
        tray.settle()

    class Choices:
        def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
            if len(game.inputs) >= 30:
                raise Stop
            request = game.pending
            assert isinstance(request, ChoiceRequest)
            return request.options.index(strategy(game, request))

    session = Session(JongRogueMode(game),
                      tiles=TableTiles(reader, Controls([NoPresses()]), accept_seconds=0.0,
                                       poll_seconds=0.0, sleep=tick),
                      choices=Choices(), display=prompts,
                      save=SaveGame(seed=0, preset="plus", input_kind="rfid"))
    try:
        with pytest.raises(Stop):
            session.run()
    finally:
        reader.close()
        tray.close()
    pushed = [str(v) for v in game.inputs if isinstance(v, Tile)]
    assert len(pushed) >= 8
    assert pushed == laid[: len(pushed)]
    assert set(asked) == set(Slot)  # the draw slot and all four room slots were used


# ---- an unknown sticker, and a single RDM6300 under the draw slot ---------------------

UNKNOWN = "0F00A1B2C3"
KNOWN = "1A2B3C4D5E"


def test_unknown_sticker_is_named_not_straightened() -> None:
    """JR-WALL-1 read path: a sticker missing from the tag map is named so it can be enrolled."""
    read = interpret(SlotReading(Slot.ROOM_TL, None, 0.0, uid=UNKNOWN), Game("plus").ledger)
    assert read.tile is None
    assert UNKNOWN in read.problem and "top-left room slot" in read.problem
    assert "companion calibrate rfid" in read.problem and "straighten" not in read.problem
    # Nothing to "say": a sticker names no tile, so no tiles are offered to pick from.
    assert "say which tile" not in read.problem and "lay another" in read.problem
    assert "--reenrol KIND" in read.problem
    assert likeliest(SlotReading(Slot.ROOM_TL, None, 0.0, uid=UNKNOWN), Game("plus").ledger) == ()
    camera = interpret(SlotReading(Slot.DRAW, None, 0.2), Game("plus").ledger)
    assert "straighten" in camera.problem  # an unsure camera read still asks to straighten


def test_a_fifth_copy_sticker_says_how_to_re_enrol_it_not_to_lay_it_again() -> None:
    """Audit rfid #3: a sticker enrolled as the wrong kind reads as a 5th copy; the player
    was told to place the tile again, which gives the same sticker and the same refusal."""
    game = Game("plus")
    five_m = Tile.from_notation("5m")
    for _ in range(4):
        game.ledger.move(five_m, Place.WALL, Place.TABLE)
    read = interpret(SlotReading(Slot.DRAW, "5m", 1.0, (Candidate("5m", 1.0),), uid="04040300"),
                     game.ledger)
    assert read.tile is None
    assert "again" not in read.problem
    assert read.problem.startswith("sticker 04040300 on the draw slot reads 5m (五萬), but 5m "
                                   "cannot be drawn")
    assert "delete its line in rfid_tags.toml" in read.problem
    assert "`companion calibrate rfid --reenrol KIND`" in read.problem


def test_rdm6300_reads_every_tile_on_the_draw_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--rfid-kind rdm6300`: open_reader builds the RDM6300 reader on the given port; a room
    tile is asked for on the draw slot; an unknown sticker is named, then the known one counts."""
    uart = Uart()
    TagMap({KNOWN: Tile.from_notation("3s")}).save(config_dir() / TAGMAP_FILENAME)
    game = Game("plus")
    game.push(Tile.from_notation("5m"))  # the start room: next the game asks for room tiles
    request = game.pending
    assert isinstance(request, TileRequest) and request.purpose is Purpose.ROOM
    reader = open_reader("rfid", "", uart.port, game.ledger, rfid_kind="rdm6300")
    assert isinstance(reader, Rdm6300Reader) and reader.slot is Slot.DRAW
    prompts = Prompts()
    statuses: list[str] = []
    deadline = time.monotonic() + 10

    def show(prompt: str, **kwargs: object) -> None:
        prompts(prompt, **kwargs)
        statuses.append(prompts.status)

    def tick(_: float) -> None:
        """The player holds the unknown tile over the reader until told, then the known one."""
        assert time.monotonic() < deadline, statuses
        known = any(UNKNOWN in s for s in statuses)
        os.write(uart.master, frame(KNOWN if known else UNKNOWN))
        time.sleep(0.01)

    tiles = TableTiles(reader, Controls([NoPresses()]), accept_seconds=0.0,
                       poll_seconds=0.0, sleep=tick, one_slot=True)
    ask = JongRogueMode(game).ask()
    assert isinstance(ask, TileAsk) and ask.slot is Slot.ROOM_TL
    try:
        tile = tiles.next_tile(ask, show)
    finally:
        tiles.close()
        uart.close()
    assert str(tile) == "3s"
    assert "put it on the draw slot" in prompts.prompt and "top-left room slot" in prompts.prompt
    assert any("companion calibrate rfid" in s for s in statuses)


@pytest.mark.parametrize("rfid_kind", ["tray", "rdm6300"])
def test_playing_with_no_sticker_enrolled_says_to_calibrate_first(rfid_kind: str) -> None:
    """Audit rfid #5: never calibrated, the game started without a word and said of every
    tile "not enrolled: lay another, or --reenrol KIND", neither of which helps with none
    of 136 stickers enrolled."""
    path = config_dir() / TAGMAP_FILENAME
    assert not path.exists()
    with pytest.raises(DeviceError) as refused:
        open_reader("rfid", "", "loop://", Game("plus").ledger, rfid_kind=rfid_kind)
    assert str(refused.value) == (
        f"no RFID stickers are enrolled ({path} is missing or empty) RFIDシール未登録: run "
        "`companion calibrate rfid` first, to enrol the sticker under every tile")


def test_rfid_kind_flag_sets_the_config(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.app.cli import main

    assert main(["config", "--show"]) == 0
    assert "input.rfid_kind" in capsys.readouterr().out
    parser_args = ["play", "--input", "rfid", "--rfid-kind", "nfc"]
    with pytest.raises(SystemExit) as stop:
        main(parser_args)
    assert stop.value.code == 2
    assert "rdm6300" in capsys.readouterr().err


# ---- the offer follows the tile on the slot; flickers; faults beside the offer --------------

UID_1M, UID_9M, UID_5M, UID_7S = "04000000", "04000020", "04000010", "04000060"
EM_1M, EM_3S = "0F00000000", "0F00000030"  # 125 kHz tags, for the RDM6300
TABLE_TAGS = TagMap({uid: Tile.from_notation(label) for uid, label in [
    (UID_1M, "1m"), (UID_9M, "9m"), (UID_5M, "5m"), (UID_7S, "7s"), (EM_1M, "1m"),
    (EM_3S, "3s")]})
DRAW_ASK = "Draw a tile and put it on the draw slot"


class Table:
    """Game time for the session, the reader and the player's hands: each poll's sleep
    runs the far end (the tray's firmware, or an RDM6300 sending frames) and the moves
    due by then, so the tests read as a timeline."""

    def __init__(self, moves: list[tuple[float, Callable[[], None]]],
                 far_end: Callable[[], None]) -> None:
        self.now = 0.0
        self.moves = sorted(moves, key=lambda move: move[0])
        self.far_end = far_end
        self.statuses: list[str] = []
        self.deadline = time.monotonic() + 20

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert time.monotonic() < self.deadline, self.statuses[-3:]
        while self.moves and self.moves[0][0] <= self.now:
            self.moves.pop(0)[1]()
        self.far_end()
        time.sleep(0.002)  # the bytes cross the pty
        self.now += seconds

    def show(self, prompt: str, **kwargs: object) -> None:
        status = str(kwargs.get("status", ""))
        if not self.statuses or self.statuses[-1] != status:
            self.statuses.append(status)

    def tiles(self, reader: TrayReader | Rdm6300Reader, accept_seconds: float,
              one_slot: bool = False) -> TableTiles:
        return TableTiles(reader, Controls([NoPresses()]), accept_seconds=accept_seconds,
                          poll_seconds=0.05, sleep=self.sleep, clock=self.clock,
                          one_slot=one_slot)

    def draw(self, tiles: TableTiles) -> tuple[Tile, float]:
        """The tile counted for a draw, and the game time it counted at."""
        tile = tiles.next_tile(TileAsk(DRAW_ASK, Slot.DRAW, Game("plus").ledger), self.show)
        return tile, self.now

    def draw_from_tray(self, reader: TrayReader, tray: TraySimulator,
                       accept_seconds: float) -> tuple[Tile, float]:
        """:meth:`draw` from ``reader`` on ``tray``, both closed after."""
        try:
            return self.draw(self.tiles(reader, accept_seconds=accept_seconds))
        finally:
            reader.close()
            tray.close()


def tray_table(moves: list[tuple[float, Callable[[], None]]]) -> tuple[Table, TraySimulator,
                                                                         TrayReader]:
    tray = TraySimulator(retry_ms=10)
    reader = TrayReader(tray.port, TABLE_TAGS)
    deadline = time.monotonic() + 5
    while not reader.status().ok:  # the handshake, before the game's clock starts
        assert time.monotonic() < deadline, reader.status().message
        tray.step(5)
        reader.poll()
        time.sleep(0.002)
    return Table(moves, lambda: tray.step(5)), tray, reader


@pytest.mark.parametrize("lifted_for", [0.0, 0.3], ids=["swapped at once", "lifted, then laid"])
def test_a_tile_swapped_during_the_countdown_is_the_one_journalled(lifted_for: float) -> None:
    """QA s5: 1m laid, then within the 1 s countdown swapped for 9m on the same slot. 9m lies
    there, so 9m counts, after a countdown of its own; 1m is not journalled."""
    moves: list[tuple[float, Callable[[], None]]] = []
    table, tray, reader = tray_table(moves)
    table.moves = [(0.2, lambda: tray.place(0, UID_1M)), (0.5, lambda: tray.remove(0)),
                   (0.5 + lifted_for, lambda: tray.place(0, UID_9M))]
    tile, at = table.draw_from_tray(reader, tray, 1.0)
    assert str(tile) == "9m"
    assert at >= 0.5 + lifted_for + 1.0
    assert any(s.startswith("read 1m") for s in table.statuses)
    assert any(s.startswith("read 9m") for s in table.statuses)


def test_a_tile_on_offer_does_not_count_while_another_is_stacked_on_it() -> None:
    """Audit rfid #2: 1m laid, then swapped by laying 9m on top of it first; the countdown
    went on under "two tiles on the draw slot" and 1m was counted though the player then
    lifted it out from under 9m. Stacked, nothing counts; 9m, left there, does."""
    moves: list[tuple[float, Callable[[], None]]] = []
    table, tray, reader = tray_table(moves)

    def lift_the_bottom_tile() -> None:
        tray.place(0, UID_9M)
        tray.stack(0, False)

    table.moves = [(0.2, lambda: tray.place(0, UID_1M)), (0.5, lambda: tray.stack(0)),
                   (2.5, lift_the_bottom_tile)]
    tile, at = table.draw_from_tray(reader, tray, 1.0)
    assert str(tile) == "9m"
    assert at >= 2.5 + 1.0
    assert "two tiles on the draw slot: leave one 引き牌の枠に牌が2枚: 1枚にして" in table.statuses


def test_a_tile_left_on_the_slot_is_not_counted_when_its_sticker_flickers() -> None:
    """QA s12: 5m counted and left on the draw slot; its sticker drops out of the field and
    back (the tray sends REMOVE 0 then PLACE 0 of its UID): at the next draw prompt it is not
    counted again. The tile the player then lays is."""
    moves: list[tuple[float, Callable[[], None]]] = []
    table, tray, reader = tray_table(moves)
    table.moves = [(0.2, lambda: tray.place(0, UID_5M)),
                   (2.0, lambda: tray.remove(0)), (2.5, lambda: tray.place(0, UID_5M)),
                   (5.0, lambda: tray.remove(0)), (5.5, lambda: tray.place(0, UID_7S))]
    tiles = table.tiles(reader, accept_seconds=0.5)
    try:
        first, _ = table.draw(tiles)
        second, at = table.draw(tiles)
    finally:
        reader.close()
        tray.close()
    assert (str(first), str(second)) == ("5m", "7s")
    assert at >= 5.5
    assert reader.counters["lost"] == 0


def test_a_reader_fault_elsewhere_is_shown_beside_the_offer() -> None:
    """QA s6: the reader under the bottom-left room slot goes down while 1m is on offer: the
    offer and its countdown stay in view and the fault is added, in the prompts' words."""
    moves: list[tuple[float, Callable[[], None]]] = []
    table, tray, reader = tray_table(moves)
    table.moves = [(0.2, lambda: tray.place(0, UID_1M)), (0.4, lambda: tray.break_reader(3))]
    tile, _ = table.draw_from_tray(reader, tray, 1.5)
    assert str(tile) == "1m"
    both = [s for s in table.statuses if "not answering" in s]
    assert both, table.statuses
    assert all(s.startswith("read 1m 一萬, counts in ") for s in both)
    assert both[0].endswith("; the reader under the bottom-left room slot is not answering "
                            "部屋の左下の読み取り機が無応答")


def rdm6300_table(held: list[str], moves: list[tuple[float, Callable[[], None]]],
                  accept_seconds: float) -> tuple[Table, TableTiles, Uart]:
    """A single RDM6300 on a pty, sending the frame of each tag in ``held`` (the tags over
    it) every poll, as the module repeats a present tag's frame; the player's ``moves``."""
    uart = Uart()

    def rdm6300() -> None:
        for uid in held:
            os.write(uart.master, frame(uid))

    table = Table(moves, rdm6300)
    reader = Rdm6300Reader(uart.port, TABLE_TAGS, clock=table.clock)
    return table, table.tiles(reader, accept_seconds, one_slot=True), uart


def test_rdm6300_the_tile_laid_after_a_lift_waits_for_the_next_prompt() -> None:
    """A single RDM6300: 1m is read, lifted off to its room slot, and 3s is already held
    over the reader while 1m's countdown runs. Lifting is the normal move here, so 1m counts
    and 3s is read for the next prompt, not in 1m's place."""
    held: list[str] = []
    # A second in: what lies on the reader as the game starts is not counted (see below).
    table, tiles, uart = rdm6300_table(held, [
        (1.2, lambda: held.append(EM_1M)), (1.6, held.clear),
        (2.3, lambda: held.append(EM_3S))], accept_seconds=2.0)
    try:
        first, at = table.draw(tiles)
        second, _ = table.draw(tiles)
    finally:
        tiles.close()
        uart.close()
    assert (str(first), str(second)) == ("1m", "3s")
    assert at >= 3.0  # 1m counted when its own countdown ran out
    assert any(s.startswith("read 3s") for s in table.statuses)


def test_a_tile_left_on_the_rdm6300_through_an_unplug_is_not_counted_twice() -> None:
    """The audit's repro: 1m counted and left on the RDM6300; the reader unplugged for 7 s
    (longer than RELAY_SECONDS) and plugged back with 1m still on it. The next draw is the
    tile laid after, not 1m again (it was: "inputs": ["1m", "1m"] for one tile)."""
    held: list[str] = []
    uarts = [Uart()]

    def unplug() -> None:
        uarts.pop().close()  # the reader is unplugged: its pty goes away

    def rdm6300() -> None:
        for uid in held:
            if uarts:
                os.write(uarts[-1].master, frame(uid))

    table = Table([(1.2, lambda: held.append(EM_1M)), (2.5, unplug),
                   (9.5, lambda: uarts.append(Uart())), (12.0, held.clear),
                   (12.5, lambda: held.append(EM_3S))], rdm6300)
    reader = Rdm6300Reader(lambda: uarts[-1].port if uarts else "/nonexistent/rdm6300",
                           TABLE_TAGS, clock=table.clock)
    tiles = table.tiles(reader, accept_seconds=0.5, one_slot=True)
    try:
        first, _ = table.draw(tiles)
        table.statuses.clear()
        second, at = table.draw(tiles)
    finally:
        tiles.close()
        for uart in uarts:
            uart.close()
    assert (str(first), str(second)) == ("1m", "3s")
    assert at >= 12.5
    assert not any(s.startswith("read 1m") for s in table.statuses)


Moves = list[tuple[float, Callable[[], None]]]  # the player's hands, by game time


def _draw_after_start_up(tray: TraySimulator, uid: str,
                         moves: Moves) -> tuple[Tile, float, Table]:
    """The draw-slot tile a resumed game takes, with ``uid`` (if any) lying on the slot when the
    companion comes up (the tray is up long before it: the Pi boots slower) and the
    player's ``moves`` after; when it was taken, and the table that saw it."""
    if uid:
        tray.place(0, uid)
    tray.settle()
    reader = TrayReader(tray.port, TABLE_TAGS)
    table = Table(moves, lambda: tray.step(5))
    tile, at = table.draw_from_tray(reader, tray, 0.5)
    return tile, at, table


def test_a_sticker_on_the_tray_when_the_game_resumes_is_not_counted_again() -> None:
    """A power cut with 5m (counted: the save holds it) on the draw slot. On `--resume` the
    tray's snapshot reports it: it is not counted, not even when its tag flickers; the
    screen says how to count it, and the tile the player lays in its place counts."""
    tray = TraySimulator(retry_ms=10)
    tile, at, table = _draw_after_start_up(tray, UID_5M, [
        (1.0, lambda: tray.remove(0)), (1.3, lambda: tray.place(0, UID_5M)),
        (3.0, lambda: tray.remove(0)), (3.5, lambda: tray.place(0, UID_7S))])
    assert str(tile) == "7s" and at >= 3.5
    assert not any(s.startswith("read 5m") for s in table.statuses)
    assert ("a tile lay on the draw slot at start-up: to count it, lift it for 5 s and lay "
            "it again 起動時から引き牌の枠にあった牌: 5秒離して置き直して") in table.statuses


def test_a_sticker_found_at_start_up_counts_once_lifted_long_enough() -> None:
    """The tile on the draw slot at start-up had not been counted before the cut: lifted for
    longer than a tag's flicker and laid again, it counts."""
    tray = TraySimulator(retry_ms=10)
    tile, at, _ = _draw_after_start_up(tray, UID_1M, [
        (1.0, lambda: tray.remove(0)), (7.0, lambda: tray.place(0, UID_1M))])
    assert str(tile) == "1m" and at >= 7.0


@pytest.mark.parametrize("trouble", ["reader down", "fewer readers"])
def test_a_tile_laid_late_on_a_tray_never_fully_ok_is_counted(trouble: str) -> None:
    """The audit's repro: the bottom-right reader does not answer (or the tray has 4
    readers for 5 slots), so the status is never ok; the draw slot was empty at start-up,
    and 5m laid 5 s later is offered and counts. It was called "a tile lay on the draw slot
    at start-up", and following the screen lost the draw. The reader fault is still shown."""
    tray = TraySimulator(slots=4 if trouble == "fewer readers" else 5, retry_ms=10)
    if trouble == "reader down":
        tray.break_reader(4)
    tile, at, table = _draw_after_start_up(tray, "", [(5.0, lambda: tray.place(0, UID_5M))])
    assert str(tile) == "5m" and at >= 5.0
    assert not any("start-up" in s for s in table.statuses), table.statuses
    assert any(s.startswith("read 5m") for s in table.statuses)
    assert any("bottom-right" in s for s in table.statuses)


def test_a_tile_on_a_tray_with_a_reader_down_at_start_up_is_still_not_counted() -> None:
    """The start-up rule holds with a reader down: 5m lying on the draw slot when the
    companion comes up is not counted; the tile laid in its place is."""
    tray = TraySimulator(retry_ms=10)
    tray.break_reader(4)
    tile, at, table = _draw_after_start_up(tray, UID_5M, [
        (1.0, lambda: tray.remove(0)), (1.5, lambda: tray.place(0, UID_7S))])
    assert str(tile) == "7s" and at >= 1.5
    assert not any(s.startswith("read 5m") for s in table.statuses)
    assert any(s.startswith("a tile lay on the draw slot at start-up") for s in table.statuses)


def test_a_tag_on_the_rdm6300_when_the_game_starts_is_not_counted() -> None:
    """A single RDM6300 sends only a present tag's frames, a poll or two after its port
    opened (the tray sends a snapshot with its hello): 3s lying on it at start-up (a resume
    after a power cut, the last game's tile) is not counted, and the screen says how to
    count it; the tile laid after it is. (It counted 3s at once, again on each resume.)"""
    held = [EM_3S]
    table, tiles, uart = rdm6300_table(held, [
        (2.0, held.clear), (2.5, lambda: held.append(EM_1M))], accept_seconds=0.5)
    try:
        tile, at = table.draw(tiles)
    finally:
        tiles.close()
        uart.close()
    assert str(tile) == "1m" and at >= 3.0
    assert not any(s.startswith("read 3s") for s in table.statuses)
    assert ("a tile lay on the draw slot at start-up: to count it, lift it for 5 s and lay "
            "it again 起動時から引き牌の枠にあった牌: 5秒離して置き直して") in table.statuses
