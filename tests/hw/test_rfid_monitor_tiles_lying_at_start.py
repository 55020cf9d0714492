"""`rfid monitor` tells a tile lying on the tray as it came up from one laid since
(a77rfid item 3): both were `placed`, and a tile left there after a game read as a placing
nobody did. The text line says `lying`; ``--json`` keeps ``"placed"`` and adds
``at_start``, so a script that counts placings can leave the ones at start out."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.paths import config_dir
from companion.hw.rfid.protocol import Kind, encode
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.systems.jongrogue.tiles import Tile
from tests.hw.rfid_monitor_helpers import json_lines, replay, replayed

#: A tile lying on the draw slot at the tray's hello, then one laid on room_tl.
CAPTURE = b"".join([encode(0, Kind.HELLO, "1.3.6", "5"),
                    encode(1, Kind.SNAP, "04000001", "-", "-", "-", "-"),
                    encode(2, Kind.PLACE, "1", "04000002")])


@pytest.fixture(autouse=True)
def enrolled() -> None:
    TagMap({"04000001": Tile.from_notation("5p"), "04000002": Tile.from_notation("6p")}).save(
        config_dir() / TAGMAP_FILENAME)


def test_the_text_line_says_lying_for_a_tile_there_at_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    replay(tmp_path, monkeypatch, CAPTURE)
    assert replayed(["rfid", "monitor", "--port", "-"]) == 0
    tiles = [line.split("  ", 1)[1] for line in capsys.readouterr().out.splitlines()
             if "0400000" in line]
    assert tiles == ["lying    draw     04000001              5p 五筒 5 of dots",
                     "placed   room_tl  04000002              6p 六筒 6 of dots"]


def test_json_says_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    replay(tmp_path, monkeypatch, CAPTURE)
    assert replayed(["rfid", "monitor", "--port", "-", "--json"]) == 0
    events = [(d["event"], d["slot"], d["tile"], d["at_start"])
              for d in json_lines(capsys.readouterr().out) if "uid" in d]
    assert events == [("placed", "draw", "5p", True), ("placed", "room_tl", "6p", False)]
