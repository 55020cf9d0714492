"""Errors that stop a start (shown on the Stopped screen as ``Stopped 停止: …``) keep
Japanese beside the English, as every status the player reads does (sweep53 #11)."""

from __future__ import annotations

import re

import pytest

from companion.app.commands.play.readers import open_reader
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.paths import config_dir
from companion.errors import DeviceError, IllegalAction
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import ALL_KINDS, Tile

JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")


def test_no_sticker_enrolled_is_said_in_japanese_too() -> None:
    with pytest.raises(DeviceError) as refused:
        open_reader("rfid", "", "loop://", Game("plus").ledger)
    assert "RFIDシール未登録" in str(refused.value)


def test_an_unknown_table_reader_is_said_in_japanese_too() -> None:
    with pytest.raises(DeviceError) as refused:
        open_reader("abacus", "", "", Game("plus").ledger)
    assert str(refused.value).startswith("no table reader called 'abacus'")
    assert JAPANESE.search(str(refused.value))


def test_an_unknown_rfid_reader_is_said_in_japanese_too() -> None:
    TagMap({"04a1b2c3": Tile.from_notation("3s")}).save(config_dir() / TAGMAP_FILENAME)
    with pytest.raises(DeviceError) as refused:
        open_reader("rfid", "", "loop://", Game("plus").ledger, rfid_kind="abacus")
    assert str(refused.value).startswith("no RFID reader called 'abacus'")
    assert JAPANESE.search(str(refused.value))


def test_a_save_the_seeds_wall_does_not_give_is_said_in_japanese_too() -> None:
    game = Game("plus")
    drawn = HeadlessPlayer(5).answer(Game("plus"))
    other = next(str(kind) for kind in ALL_KINDS if str(kind) != str(drawn))
    with pytest.raises(IllegalAction) as refused:
        JongRogueMode(game, HeadlessPlayer(5)).restore(other)
    assert str(refused.value).startswith(f"the wall of seed 5 gives {drawn} here")
    assert JAPANESE.search(str(refused.value))
