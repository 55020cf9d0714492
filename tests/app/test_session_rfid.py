"""A session at the table with the real RFID stack: tray firmware logic on a pty, the host's
TrayReader, the tag map; the player lays the tiles the companion asks for."""

from __future__ import annotations

import os
import time
import tty
from pathlib import Path

import pytest

from companion.app.modes.jongrogue import JongRogueMode
from companion.app.paths import config_dir
from companion.app.session.controls import Controls
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk, Show, TileAsk
from companion.app.session.reads import SLOT_NAMES, TableTiles, interpret, open_reader
from companion.app.session.save import SaveGame
from companion.hw.buttons import Press
from companion.hw.display.view import View
from companion.hw.ports import Slot, SlotReading
from companion.hw.rfid.rdm6300 import Rdm6300Reader, frame
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.hw.rfid.tray import DEFAULT_SLOTS, TrayReader
from companion.systems.jongrogue.actions import ChoiceRequest, Purpose, TileRequest
from companion.systems.jongrogue.autoplay import HeadlessPlayer, find_strategy
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import ALL_KINDS, Tile


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
    camera = interpret(SlotReading(Slot.DRAW, None, 0.2), Game("plus").ledger)
    assert "straighten" in camera.problem  # an unsure camera read still asks to straighten


class Uart:
    """The RDM6300's side of the UART: raw bytes into a pty master."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


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


def test_rfid_kind_flag_sets_the_config(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.app.cli import main

    assert main(["config", "--show"]) == 0
    assert "input.rfid_kind" in capsys.readouterr().out
    parser_args = ["play", "--input", "rfid", "--rfid-kind", "nfc"]
    with pytest.raises(SystemExit) as stop:
        main(parser_args)
    assert stop.value.code == 2
    assert "rdm6300" in capsys.readouterr().err
