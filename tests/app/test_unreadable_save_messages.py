"""fix61d: what a save that cannot be read says (review61d N1, N2, N3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.session.save import CorruptSave, SaveGame, read_save
from tests.app.save_message_helpers import said


@pytest.mark.parametrize(("text", "told"), [
    # json's "Invalid control character at" gave "at at byte 9".
    ('{"a": "x\ny"}', "not valid JSON (invalid control character at byte 9 of 12)"),
    # A cut inside true, false, null or a number was "expecting value at byte 14 of 15".
    ('{"finished": tr', "not valid JSON (the save ends in the middle: cut short after 15 "
                        "bytes)"),
    ('{"a": [nu', "not valid JSON (the save ends in the middle: cut short after 9 bytes)"),
    ('{"a": -', "not valid JSON (the save ends in the middle: cut short after 7 bytes)"),
    ('{"a": 1.', "not valid JSON (the save ends in the middle: cut short after 8 bytes)"),
    ('{"a": 1e+', "not valid JSON (the save ends in the middle: cut short after 9 bytes)"),
    ('{"a": "\\u12', "not valid JSON (the save ends in the middle: cut short after 11 "
                     "bytes)"),
    ('{', "not valid JSON (the save ends in the middle: cut short after 1 byte)"),
    # An editor's byte order mark is read through (review61g N6), and counted in the bytes.
    ('\ufeff{"a": tx}', "not valid JSON (expecting value at byte 10 of 12)"),
    # Not cut: a fault before the last word is told where it is.
    ('[1 2]', "not valid JSON (expecting ',' delimiter at byte 4 of 5)"),
    ('{"a": tx}', "not valid JSON (expecting value at byte 7 of 9)"),
])
def test_a_save_that_is_not_json_is_told_in_a_users_words(text: str, told: str) -> None:
    assert said(text) == told


def test_a_null_version_is_told_as_empty_not_missing() -> None:
    """N3: `"version": null` said "the save has no version field"; the field is there."""
    assert said('{"seed": 1, "version": null}') == (
        "the save's version is empty (null; this companion reads version 1)")
    assert said('{"seed": 1}') == "the save has no version field (this companion reads " \
                                  "version 1)"


def test_a_save_cut_at_any_byte_says_it_was_cut_short(tmp_path: Path) -> None:
    """N1, N2: a save whose log path holds Japanese, cut at every byte: a cut inside a
    character (ロ is three bytes) said "not readable text", and inside true "expecting
    value". Each says it was cut short, after how many bytes."""
    whole = SaveGame(seed=11, preset="plus", inputs=["draw 5p", "choice a"], finished=True,
                     log_path="/tmp/ログ/g.jsonl").to_json().encode("utf-8")
    assert b'"finished": true' in whole
    path = tmp_path / "save.json"
    for size in range(1, len(whole)):
        path.write_bytes(whole[:size])
        with pytest.raises(CorruptSave) as info:
            read_save(path, SaveGame.from_json, "save")
        assert (f"(the save ends in the middle: cut short after {size} byte"
                f"{'s' if size > 1 else ''})") in str(info.value), (size, whole[:size])
        for kept in tmp_path.glob("save.json.*"):
            kept.unlink()


def test_a_byte_that_is_not_utf8_in_the_middle_is_named(tmp_path: Path) -> None:
    """Not a cut: a bad byte inside the save is named by its place."""
    path = tmp_path / "save.json"
    path.write_bytes(b'{"seed": \xff1}')
    with pytest.raises(CorruptSave) as info:
        read_save(path, SaveGame.from_json, "save")
    assert f"{path}: not readable text (byte 10 of 12 is not UTF-8)" in str(info.value)
