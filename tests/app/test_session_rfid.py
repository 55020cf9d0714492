"""A session at the table with the real RFID stack: tray firmware logic on a pty, the host's
TrayReader, the tag map; the player lays the tiles the companion asks for."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from companion.app.save import SaveGame
from companion.app.session import SLOT_NAMES, Controls, Session, TableTiles
from companion.hw.buttons import Press
from companion.hw.ports import Slot
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import DEFAULT_SLOTS, TrayReader
from companion.rules.actions import ChoiceRequest, TileRequest
from companion.rules.autoplay import HeadlessPlayer, find_strategy
from companion.rules.game import Game
from companion.rules.tiles import ALL_KINDS, Tile


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
        tile = wall.answer(game)
        assert isinstance(tile, Tile)
        used = set(on_slot.values())
        uid = next(uid_of(tile, c) for c in range(4) if uid_of(tile, c) not in used)
        tray.place(index, uid)
        on_slot[index] = uid
        laid.append(str(tile))
        placed_at[0] = len(game.inputs)
        tray.settle()

    class Choices:
        def next_choice(self, g: Game, request: ChoiceRequest) -> object:
            if len(g.inputs) >= 30:
                raise Stop
            return strategy(g, request)

    session = Session(game, SaveGame(seed=0, preset="plus", input_kind="rfid"),
                      tiles=None,  # type: ignore[arg-type]
                      choices=Choices(), display=None)  # type: ignore[arg-type]
    session.tiles = TableTiles(reader, Controls([NoPresses()]), prompts, accept_seconds=0.0,
                               poll_seconds=0.0, sleep=tick)
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
