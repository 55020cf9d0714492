"""A tag map the player edited in a text editor keeps their comments, line ends and
byte-order mark when `calibrate rfid` writes a sticker into it (a77rfid item 1)."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from companion.app.paths import config_dir
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.systems.jongrogue.tiles import Tile
from tests.companion_process import run_companion
from tests.hw.rfid_calibrate_helpers import REPLAY_SECONDS, capture

FIVE_P = Tile.from_notation("5p")
SIX_P = Tile.from_notation("6p")
#: As Windows Notepad saves it: a byte-order mark, CRLF, and the player's notes.
EDITED = (codecs.BOM_UTF8
          + b"version = 1\r\n"
          b"[tags]\r\n"
          b"# set B: blue backs, stickers from batch 2\r\n"
          b'"04000001" = "5p"  # chipped corner\r\n'
          b'"04000002" = "6p"  # the odd one\r\n')


def test_enrolling_a_sticker_keeps_the_players_comments_crlf_and_bom(tmp_path: Path) -> None:
    path = config_dir() / TAGMAP_FILENAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(EDITED)
    with capture(tmp_path / "tray.bin", 1).open("rb") as stdin:
        result = run_companion("calibrate", "rfid", "--port", "-", "--only", "5p",
                               stdin=stdin, timeout=REPLAY_SECONDS)
    assert result.returncode == 0, result.stderr.decode()
    written = path.read_bytes()
    assert written == EDITED + '"04AABB00" = "5p"  # 五筒 5 of dots\r\n'.encode()
    assert TagMap.load(path).tile("04AABB00") is FIVE_P


def test_a_sticker_forgotten_takes_its_line_only(tmp_path: Path) -> None:
    """A re-enrolment forgets the lost sticker: its line goes, the notes above stay."""
    path = tmp_path / TAGMAP_FILENAME
    path.write_bytes(EDITED)
    tags = TagMap.load(path)
    tags.forget("04000002")
    tags.enrol("04:00:00:03", SIX_P)
    tags.save(path)
    assert path.read_bytes() == (
        EDITED.replace(b'"04000002" = "6p"  # the odd one\r\n', b"")
        + '"04000003" = "6p"  # 六筒 6 of dots\r\n'.encode())


def test_a_map_with_no_tags_table_gets_one(tmp_path: Path) -> None:
    path = tmp_path / TAGMAP_FILENAME
    path.write_text("# mine\nversion = 1\n", encoding="utf-8")
    TagMap({"04A1B2C3": FIVE_P}).save(path)
    assert path.read_text(encoding="utf-8") == (
        '# mine\nversion = 1\n\n[tags]\n"04A1B2C3" = "5p"  # 五筒 5 of dots\n')


def test_a_line_that_names_the_same_tile_otherwise_is_left_as_written(tmp_path: Path) -> None:
    """A red five written "0p", or "5P", loads as the 5p: its line is the player's still
    (r77rfid: compared as text, it was written "5p" and its comment lost at the next save)."""
    path = tmp_path / TAGMAP_FILENAME
    mine = ('version = 1\n[tags]\n"04000001" = "0p"  # the red five\n'
            '"04000002" = "5P"  # typed with caps lock\n')
    path.write_text(mine, encoding="utf-8")
    tags = TagMap.load(path)
    tags.enrol("04000003", SIX_P)
    tags.save(path)
    assert path.read_text(encoding="utf-8") == mine + '"04000003" = "6p"  # 六筒 6 of dots\n'
    assert TagMap.load(path).tile("04000001") is FIVE_P


def test_a_new_sticker_goes_under_the_last_sticker_not_under_a_closing_note(
        tmp_path: Path) -> None:
    """r77rfid NIT: a note the player left at the end of [tags] had the new sticker added
    under it, where it reads as one of the spares the note speaks of."""
    path = tmp_path / TAGMAP_FILENAME
    for end in ("\n", "\r\n"):
        path.write_bytes(('version = 1\n[tags]\n"04000001" = "5p"\n\n'
                          "# spares, not on tiles yet\n").replace("\n", end).encode())
        tags = TagMap.load(path)
        tags.enrol("04000002", SIX_P)
        tags.enrol("04000003", SIX_P)
        tags.save(path)
        assert path.read_bytes() == (
            'version = 1\n[tags]\n"04000001" = "5p"\n"04000002" = "6p"  # 六筒 6 of dots\n'
            '"04000003" = "6p"  # 六筒 6 of dots\n\n# spares, not on tiles yet\n'
        ).replace("\n", end).encode()
        assert TagMap.load(path).uids(SIX_P) == ["04000002", "04000003"]


def test_a_tomlkit_without_its_private_insert_still_saves_every_sticker(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The place under the last sticker is reached through tomlkit's private
    ``Container._insert_at``: a tomlkit without it (a later release on the Pi) saves the new
    stickers at the end of [tags], as before, and loses none."""
    monkeypatch.delattr("tomlkit.container.Container._insert_at")
    path = tmp_path / TAGMAP_FILENAME
    path.write_text('version = 1\n[tags]\n"04000001" = "5p"\n\n# spares, not on tiles yet\n')
    tags = TagMap.load(path)
    tags.enrol("04000002", SIX_P)
    tags.save(path)
    assert TagMap.load(path).uids(SIX_P) == ["04000002"]
    assert "# spares, not on tiles yet" in path.read_text()
