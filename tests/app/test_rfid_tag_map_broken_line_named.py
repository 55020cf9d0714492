"""fix61d: a broken RFID tag map names the line to mend (review61d R3, N4)."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from companion.errors import DataError
from companion.hw.rfid.tagmap import TagMap
from companion.systems.jongrogue.tiles import Tile

MEND = " in a text editor: a sticker whose line is deleted is enrolled again by `companion " \
       "calibrate rfid`"


def refused(path: Path, raw: bytes) -> str:
    path.write_bytes(raw)
    with pytest.raises(DataError) as info:
        TagMap.load(path)
    return str(info.value).removeprefix(f"{path}: cannot read the RFID tag map: ")


def test_a_tag_map_cut_inside_a_japanese_comment_says_it_was_cut_short(
        tmp_path: Path) -> None:
    """R3: every line `save` writes ends in a Japanese comment (# 五萬 5 of characters); a
    file cut inside one of its characters said Python's "'utf-8' codec can't decode bytes
    in position 33-34: unexpected end of data", no line and no advice. It is told as a
    TOML file cut short is: its last line to mend or delete. Every such cut of a real map."""
    path = tmp_path / "rfid_tags.toml"
    tags = TagMap()
    tags.enrol("04AABB00", Tile.from_notation("5m"))
    tags.enrol("04AABB01", Tile.from_notation("1z"))
    tags.save(path)
    whole = path.read_bytes()
    cuts = [size for size in range(1, len(whole))
            if 0x80 <= whole[size] < 0xC0]  # the next byte goes on a character
    assert len(cuts) > 5
    for size in cuts:
        line = whole[:size].count(b"\n") + 1
        assert refused(path, whole[:size]) == (
            f"the file ends in the middle of a character (at the end of the file, line "
            f"{line}: cut short?); mend or delete line {line}{MEND}"), size


def test_a_byte_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    """R3: a bad byte in the middle (and after a byte order mark) names its line."""
    for bom in (b"", b"\xef\xbb\xbf"):
        raw = bom + b'version = 1\n[tags]\n"04AABB00" = "5p"  # \xff\n"04AABB01" = "6p"\n'
        assert refused(tmp_path / "rfid_tags.toml", raw) == (
            f"not UTF-8 text (at line 3); mend or delete line 3{MEND}")


@pytest.mark.parametrize(("text", "told"), [
    # N4: it blamed the last line, "(at the end of the file, line 5: cut short?)".
    ('version = 1\n[tags]\n"04AABB00" = """5p\n"04AABB01" = "6p"\n"04AABB02" = "7p"\n',
     "Unterminated string (a string opened on line 3 is never closed); mend or delete "
     "line 3"),
    # A literal string's ''' left open, a """ inside it but text.
    ("version = 1\n[tags]\n\"04AABB00\" = '''5p\n\"04AABB01\" = \"6p\"\n\"x\" = \"\"\"a\n",
     "Expected \"'''\" (a string opened on line 3 is never closed); mend or delete line 3"),
    # Cut short in a string opened on the last line: the last line, as before.
    ('version = 1\n[tags]\n"04AABB00" = "5p"\n"04AABB01" = """6p',
     "Unterminated string (at the end of the file, line 4: cut short?); mend or delete "
     "line 4"),
])
def test_a_string_left_open_names_the_line_it_opens_on(tmp_path: Path, text: str,
                                                       told: str) -> None:
    assert refused(tmp_path / "rfid_tags.toml", text.encode()) == told + MEND
    # review61g R2: with Windows line endings (Notepad's), the file up to the opening line
    # ended in a bare \r, an illegal character to tomllib: the last line was blamed.
    crlf = text.replace("\n", "\r\n")
    assert refused(tmp_path / "rfid_tags.toml", crlf.encode()) == told + MEND
    assert refused(tmp_path / "rfid_tags.toml",
                   codecs.BOM_UTF8 + crlf.encode()) == told + MEND
    # Blank lines after it: a cut-short line is still the last one written (the CRLF's \r
    # made each blank line count).
    assert refused(tmp_path / "rfid_tags.toml", (crlf + "\r\n" * 3).encode()) == told + MEND


def test_an_escaped_triple_quote_inside_the_open_string_is_its_text(tmp_path: Path) -> None:
    """review61g N1: an escaped triple quote inside the string left open was taken for the
    last triple quote, and the last line was blamed, "cut short?"."""
    text = ('version = 1\n[tags]\n"04AABB00" = """5p\n"04AABB01" = "6p"\n'
            'say \\""" twice\n"04AABB02" = "7p"\n')
    assert refused(tmp_path / "rfid_tags.toml", text.encode()) == (
        "Unterminated string (a string opened on line 3 is never closed); mend or delete "
        "line 3" + MEND)
