"""The UID → tile file and the wall check that RFID reads go through (JR-WALL-1)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion.errors import DataError, ImpossibleRead
from companion.hw.ports import Slot, SlotReading
from companion.hw.rfid.tagmap import KindFull, TagAlreadyEnrolled, TagMap, normalise_uid
from companion.hw.rfid.wallcheck import UnknownTag, check_drawn
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place, TileLedger

FIVE_P = Tile.from_notation("5p")


def test_round_trip_through_a_readable_toml_file(tmp_path: Path) -> None:
    tags = TagMap()
    tags.enrol("04:a1:b2:c3", FIVE_P)
    tags.enrol("0F00A1B2C3", Tile.from_notation("7z"))
    path = tmp_path / "rfid_tags.toml"
    tags.save(path)
    text = path.read_text(encoding="utf-8")
    assert '"04A1B2C3" = "5p"  # 五筒 5 of dots' in text
    assert '"0F00A1B2C3" = "7z"  # 中 Red dragon' in text
    assert tomllib.loads(text)["tags"] == {"04A1B2C3": "5p", "0F00A1B2C3": "7z"}
    again = TagMap.load(path)
    assert again.label("04a1b2c3") == "5p"
    assert again.tile("0F00A1B2C3") == Tile.from_notation("7z")
    assert len(again) == 2


def test_missing_file_is_an_empty_map(tmp_path: Path) -> None:
    assert len(TagMap.load(tmp_path / "nothing.toml")) == 0


def test_a_uid_is_enrolled_once_and_a_kind_four_times() -> None:
    tags = TagMap()
    for n in range(4):
        tags.enrol(f"0400000{n}", FIVE_P)
    with pytest.raises(TagAlreadyEnrolled, match="already enrolled as 5p"):
        tags.enrol("04000001", Tile.from_notation("1m"))
    with pytest.raises(KindFull, match="--reenrol 5p"):
        tags.enrol("04000009", FIVE_P)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("version = 2\n", "version must be 1"),
        ("version = 1\n[tags]\n\"04A1B2C3\" = \"9z\"\n", "tags.04A1B2C3"),
        ("version = 1\n[tags]\n\"XYZ\" = \"1m\"\n", "not a tag UID"),
        ("version = 1\n[tags]\n\"04A1B2C3\" = 5\n", "must be text"),
        ("version = 1\ntags = 3\n", "must be a table"),
        ("version = \n", "cannot read"),
    ],
)
def test_a_broken_file_names_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "rfid_tags.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=message):
        TagMap.load(path)


def refusal(tmp_path: Path, text: str) -> tuple[Path, str]:
    """A tag map of ``text`` and what loading it is refused with."""
    path = tmp_path / "rfid_tags.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as error:
        TagMap.load(path)
    return path, str(error.value)


@pytest.mark.parametrize("text", ["", "# only a comment\n"])
def test_an_empty_file_says_it_is_empty(tmp_path: Path, text: str) -> None:
    """Audit rfid #10: a zero-byte rfid_tags.toml said "version must be 1, not None", as if
    one line were missing from a map with stickers in it."""
    path, refused = refusal(tmp_path, text)
    assert refused == (f"{path}: the file is empty (no version, no [tags]): delete "
                                "it, then run `companion calibrate rfid` to enrol the stickers")


def test_stickers_with_no_version_line_are_told_the_line_to_add(tmp_path: Path) -> None:
    """a77rfid item 5: a hand-written map with [tags] and no version said "version must be
    1, found None", Python's word, and not which line to add."""
    path, refused = refusal(tmp_path, '[tags]\n"04A1B2C3" = "5p"\n')
    assert refused == f"{path}: no version line: add `version = 1` as the first line"


def test_a_version_line_under_tags_is_told_to_move(tmp_path: Path) -> None:
    """A version line written at the end is a line of [tags]: "no version line" sent the
    player to add a second one, which was then refused as a sticker's (r77rfid)."""
    path, refused = refusal(tmp_path, '[tags]\n"04A1B2C3" = "5p"\nversion = 1\n')
    assert refused == (f"{path}: the version line is under [tags], where it is read as a "
                       "sticker: move it to the first line")
    path.write_text('version = 1\n[tags]\n"04A1B2C3" = "5p"\n', encoding="utf-8")
    assert TagMap.load(path).label("04A1B2C3") == "5p"  # moved as told, it loads


@pytest.mark.parametrize("text", [
    'version = 1\n[tags]\n"04AABB00" = "5p"\n"04AABB00" = "1m"\n',
    'version = 1\n[tags]  # stickers\n04AABB00 = "5p"\n04AABB00 = "1m"\n',
    "version = 1\n[ 'tags' ]\n'04AABB00' = \"5p\"\n\"04AABB00\" = \"1m\"\n",
])
def test_a_sticker_written_twice_alike_names_its_line(tmp_path: Path, text: str) -> None:
    """Audit rfid #10: the same UID on two lines said tomllib's "Cannot overwrite a value
    (at line 4, column 14)", not that a sticker was listed twice (bare or quoted, under a
    [tags] with a comment too)."""
    path, refused = refusal(tmp_path, text)
    assert refused == (f"{path}: line 4: the same sticker as an earlier line: delete "
                                "one of them")


@pytest.mark.parametrize(("text", "line"), [
    ('version = 1\nversion = 1\n[tags]\n"04A1B2C3" = "5p"\n', 2),
    ('version = 1\n[tagz]\n"04AABB00" = "5p"\n"04AABB00" = "1m"\n', 4),
    ('version = 1\n[tags]\nfive = "5p"\nfive = "1m"\n', 4),
])
def test_a_key_written_twice_that_is_no_sticker_says_to_mend_its_line(
        tmp_path: Path, text: str, line: int) -> None:
    """Review #4: any key written twice (``version = 1`` twice, a UID under a misspelt
    table, a line in [tags] that is no UID) was "the same sticker as an earlier line:
    delete one of them", as if a sticker were listed twice. Only a UID in [tags] is said
    so; any other is the line to mend or delete."""
    path, message = refusal(tmp_path, text)
    assert "same sticker" not in message
    assert message.startswith(f"{path}: cannot read the RFID tag map: Cannot overwrite a "
                              f"value (at line {line}, column ")
    assert message.endswith(f"; mend or delete line {line} in a text editor: a sticker "
                            "whose line is deleted is enrolled again by `companion calibrate "
                            "rfid`")


def test_a_tag_map_cut_short_says_what_to_do(tmp_path: Path) -> None:
    """A rfid_tags.toml cut short was refused in tomllib's words only ("Unterminated string
    (at end of document)"), with nothing on what to do; it is not set aside (it holds hours
    of enrolling), so the player is told to mend or delete the broken line: the last, named
    by its number ("the line it names" named none, newuser61 N7)."""
    path = tmp_path / "rfid_tags.toml"
    path.write_text('version = 1\n[tags]\n"04AABB00" = "5p"\n"04AABB01" = "5', encoding="utf-8")
    with pytest.raises(DataError) as error:
        TagMap.load(path)
    assert str(error.value) == (
        f"{path}: cannot read the RFID tag map: Unterminated string (at the end of the file, "
        "line 4: cut short?); mend or delete line 4 in a text editor: a sticker whose line is "
        "deleted is enrolled again by `companion calibrate rfid`")


def test_normalise_uid_rejects_non_hex() -> None:
    assert normalise_uid(" 04 a1 b2 c3 ") == "04A1B2C3"
    with pytest.raises(DataError):
        normalise_uid("04A1B2")


def test_jr_wall_1_an_rfid_read_of_a_fifth_copy_is_refused() -> None:
    """JR-WALL-1: a 5th copy of a kind is a misread, whatever reader reported it."""
    ledger = TileLedger()
    reading = SlotReading(Slot.DRAW, "5p", 1.0, uid="04A1B2C3")
    assert check_drawn(ledger, reading) == FIVE_P
    for _ in range(4):
        ledger.move(FIVE_P, Place.WALL, Place.DISCARDS)
    with pytest.raises(ImpossibleRead) as refused:
        check_drawn(ledger, reading)
    message = str(refused.value)
    assert "sticker 04A1B2C3 on the draw slot reads 5p" in message
    assert "5p cannot be drawn: all 4 are out of the wall already" in message
    assert "re-enrol" in message


def test_an_unknown_sticker_is_a_prompt_not_a_crash() -> None:
    reading = SlotReading(Slot.ROOM_TL, None, 0.0, uid="0102030405060708090A")
    with pytest.raises(UnknownTag, match="0102030405060708090A on the top-left room slot is not"):
        check_drawn(TileLedger(), reading)


def test_an_unknown_sticker_offers_only_what_the_player_can_do() -> None:
    """A sticker names no tile, so there is nothing to "say": the player lays another tile
    or enrols this one with the one command that enrols a single sticker."""
    message = str(UnknownTag("04FFFFFF", Slot.DRAW))
    assert "say which tile" not in message
    assert "lay another" in message
    assert "`companion calibrate rfid --reenrol KIND`" in message


def test_jr_wall_1_rfid_events_go_through_the_sessions_wall_check() -> None:
    """JR-WALL-1: the session's check of camera reads refuses a 5th copy from the tray too."""
    from companion.app.session.reads import interpret
    from companion.hw.rfid.events import TagAction, TagEvent

    ledger = TileLedger()
    event = TagEvent(TagAction.PLACED, Slot.DRAW, "04A1B2C3", "5p")
    assert interpret(event.reading(), ledger).tile == FIVE_P
    for _ in range(4):
        ledger.move(FIVE_P, Place.WALL, Place.TABLE)
    refused = interpret(event.reading(), ledger)
    assert refused.tile is None
    assert "5p cannot be drawn" in refused.problem
    unknown = TagEvent(TagAction.PLACED, Slot.DRAW, "0102030405060708090A", None)
    assert interpret(unknown.reading(), ledger).tile is None  # a prompt, not a crash


def test_a_file_with_a_fifth_sticker_of_a_kind_says_which_lines(tmp_path: Path) -> None:
    """Enrolment's advice (--reenrol 5p) fails on this very file: a line has to go."""
    path = tmp_path / "rfid_tags.toml"
    path.write_text("version = 1\n[tags]\n" + "".join(f'"04AABB0{n}" = "5p"\n' for n in range(5))
                    + '"04AABB09" = "1m"\n', encoding="utf-8")
    with pytest.raises(DataError) as error:
        TagMap.load(path)
    assert str(error.value) == (
        f"{path}: 5 stickers are 5p (五筒), but a set has 4 of each kind: delete the line of "
        "each one not under a 5p (tags 04AABB00, 04AABB01, 04AABB02, 04AABB03, 04AABB04)")


def test_a_file_with_many_stickers_of_a_kind_names_ten_and_counts_the_rest(
        tmp_path: Path) -> None:
    """Every UID was listed: 200,000 lines of 1m made 3.2 MB of message."""
    path = tmp_path / "rfid_tags.toml"
    path.write_text("version = 1\n[tags]\n" + "".join(f'"04AA{n:04X}" = "1m"\n'
                                                      for n in range(1000)), encoding="utf-8")
    with pytest.raises(DataError) as error:
        TagMap.load(path)
    named = ", ".join(f"04AA{n:04X}" for n in range(10))
    assert str(error.value) == (
        f"{path}: 1000 stickers are 1m (一萬), but a set has 4 of each kind: delete the line of "
        f"each one not under a 1m (tags {named} and 990 more)")


def test_a_byte_order_mark_is_no_fault(tmp_path: Path) -> None:
    """Windows Notepad starts a file with one: it was "Invalid statement (at line 1, column
    1)", and the advice to mend or delete that line could not help."""
    path = tmp_path / "rfid_tags.toml"
    path.write_bytes('\ufeffversion = 1\n[tags]\n"04AABB00" = "5p"\n'.encode())
    assert TagMap.load(path).label("04AABB00") == "5p"


def test_a_file_with_one_sticker_twice_says_to_delete_one(tmp_path: Path) -> None:
    path = tmp_path / "rfid_tags.toml"
    path.write_text('version = 1\n[tags]\n"04AABB00" = "5p"\n"04:aa:bb:00" = "1m"\n',
                    encoding="utf-8")
    with pytest.raises(DataError, match=r"tags\.04:aa:bb:00 is the same sticker as another"):
        TagMap.load(path)


@pytest.mark.parametrize(("text", "message"), [
    ('version = 1\n[tag]\n"04A1B2C3" = "5p"\n', "unknown table or key 'tag'; did you mean [tags]?"),
    ('version = 1\n[Tags]\n"04A1B2C3" = "5p"\n',
     "unknown table or key 'Tags'; did you mean [tags]?"),
    ('version = 1\n[tags]\n"04A1B2C3" = "5p"\n[spare]\n"04A1B2C4" = "5p"\n',
     "unknown table or key 'spare'; the file holds version and [tags] only"),
    ('versoin = 1\n[tags]\n', "unknown table or key 'versoin'; did you mean version?"),
    ("version = true\n[tags]\n", "version must be 1, found true"),
    ("version = 1.0\n[tags]\n", "version must be 1, found 1.0"),
    ('version = "1"\n[tags]\n', "version must be 1, found '1'"),
])
def test_a_table_or_version_save_does_not_write_is_refused(tmp_path: Path, text: str,
                                                            message: str) -> None:
    """A misnamed table loaded as an empty map, and the next save wrote only version and
    [tags]: its stickers were lost. It is named instead; true is not the version 1."""
    path = tmp_path / "rfid_tags.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as refused:
        TagMap.load(path)
    assert str(refused.value) == f"{path}: {message}"


def test_the_maps_own_file_loads_with_its_comments(tmp_path: Path) -> None:
    """What save() writes (comments, version, [tags]) is all the file holds, and loads; so
    does a [tags] with nothing in it, or none at all."""
    path = tmp_path / "rfid_tags.toml"
    TagMap({"04A1B2C3": FIVE_P}).save(path)
    assert set(tomllib.loads(path.read_text(encoding="utf-8"))) == {"version", "tags"}
    assert TagMap.load(path).tile("04A1B2C3") is FIVE_P
    TagMap().save(path)
    assert len(TagMap.load(path)) == 0
    path.write_text("version = 1\n", encoding="utf-8")
    assert len(TagMap.load(path)) == 0


def enrolled_map(folder: Path, stickers: int) -> Path:
    """A tag map of ``stickers`` saved in ``folder``, and the whole copy a power cut left
    beside it (an hour old: its writer long gone), the map itself zeroed by the cut, last
    written a minute before the copy's write (the cut write is the newer: a copy older than
    the file's last write is said so, reviewdice75 R2)."""
    import os
    import time

    tags = TagMap()
    for n in range(stickers):
        tags.enrol(f"04AABB{n:02X}", Tile.from_notation(f"{n % 9 + 1}m"))
    path = folder / "rfid_tags.toml"
    tags.save(path)
    copy = folder / ".rfid_tags.toml.k3j9x2.tmp"
    copy.write_bytes(path.read_bytes())
    an_hour_ago = time.time() - 3600
    os.utime(copy, (an_hour_ago, an_hour_ago))
    path.write_bytes(b"\0" * len(path.read_bytes()))
    os.utime(path, (an_hour_ago - 60, an_hour_ago - 60))
    return path


def test_a_zeroed_tag_map_names_the_power_cut_and_keeps_the_whole_copy(tmp_path: Path) -> None:
    """hist72 DEFECT 1: a rfid_tags.toml zeroed by a power cut was tomllib's "Invalid
    statement (at line 1, column 1); mend or delete line 1", and the next save of
    `calibrate rfid` deleted, unread, the whole copy the cut write left beside it (all 8
    stickers). The zeros are named as a power cut, the copy is kept under a name no save
    deletes, and the command printed to put it back does (run by bash, in a folder whose
    name has a space)."""
    import subprocess

    folder = tmp_path / "my config"
    folder.mkdir()
    path = enrolled_map(folder, 8)
    with pytest.raises(DataError) as error:
        TagMap.load(path)
    said = str(error.value)
    assert said.startswith(f"{path}: cannot read the RFID tag map: the file is all zero "
                           "bytes: a power cut as it was written?; move it aside (`mv ")
    assert "Invalid statement" not in said and "delete line" not in said
    kept = sorted(folder.glob("rfid_tags.toml.unwritten-*"))
    assert len(kept) == 1 and not list(folder.glob(".*.tmp"))
    assert f"; {kept[0].name}, kept beside it from a write cut short, reads as a whole tag " \
           "map: put it back instead with `mv " in said
    # What the player may do instead: enrol again from nothing; the copy stays.
    TagMap().save(path)
    assert len(TagMap._read(kept[0])) == 8
    path.write_bytes(b"\0" * 100)
    command = said.rsplit("put it back instead with `", 1)[1].removesuffix("`")
    subprocess.run(["bash", "-c", command], check=True)
    assert len(TagMap.load(path)) == 8
    assert len(list(folder.glob("rfid_tags.toml.corrupt-*"))) == 1


def test_a_tag_map_with_a_typing_fault_names_a_copy_a_cut_write_left(tmp_path: Path) -> None:
    """hist72 DEFECT 1: a fault that is a line to mend keeps its advice, and the copy a cut
    write left beside it is kept and named too (the save after the mend deleted it)."""
    path = enrolled_map(tmp_path, 3)
    path.write_text('version = 1\n[tags]\n"04AABB00" = "1m\n', encoding="utf-8")
    with pytest.raises(DataError) as error:
        TagMap.load(path)
    said = str(error.value)
    assert "; mend or delete line 3 in a text editor" in said
    assert "power cut" not in said
    kept = sorted(tmp_path.glob("rfid_tags.toml.unwritten-*"))
    assert len(kept) == 1 and f"{kept[0].name}, kept beside it" in said
    path.write_text('version = 1\n[tags]\n"04AABB00" = "1m"\n', encoding="utf-8")
    TagMap.load(path).save(path)
    assert kept[0].exists()
