"""fix61g: a save with more after its end, a byte order mark, a version of true
(review61g N5, N6, N7)."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from companion.app.session.save import SaveGame, read_save
from tests.app.save_message_helpers import said


@pytest.mark.parametrize(("text", "told"), [
    # N5: the save is whole; the "tr" after it is no cut, as it was told.
    ('{"seed": 1} tr', "not valid JSON (extra data after the save's end at byte 13 of 14)"),
    ('{"seed": 1}\n{"seed": 2}\n',
     "not valid JSON (extra data after the save's end at byte 13 of 24)"),
    ('\ufeff{"seed": 1} x', "not valid JSON (extra data after the save's end at byte 16 of "
                           "16)"),
    # A cut inside a word at the end is still a cut.
    ('{"seed": tr', "not valid JSON (the save ends in the middle: cut short after 11 bytes)"),
    ('\ufeff{"seed": 1', "not valid JSON (the save ends in the middle: cut short after 13 "
                        "bytes)"),
])
def test_more_after_a_whole_save_is_extra_data_not_a_cut(text: str, told: str) -> None:
    assert said(text) == told


def test_a_save_an_editor_began_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """N6: a save edited in Notepad starts with a byte order mark: it was set aside as
    corrupt ("the save starts with a byte order mark"), with no way out given. It is read
    through the mark, as the tag map and camera.toml are."""
    save = SaveGame(seed=11, preset="plus", inputs=["draw 5p", "choice a"],
                    log_path="/tmp/ログ/g.jsonl")
    path = tmp_path / "save.json"
    path.write_bytes(codecs.BOM_UTF8 + f"{save.to_json()}\r\n".encode())
    loaded = read_save(path, SaveGame.from_json, "save")
    assert loaded == save
    assert path.exists() and list(tmp_path.iterdir()) == [path]


@pytest.mark.parametrize("flag", ["true", "false"])
def test_a_version_of_true_is_refused_as_no_number(flag: str) -> None:
    """N7: Python counts true as 1, so `"version": true` passed for version 1 (and the
    save failed later on another field, "preset must be str")."""
    assert said(f'{{"seed": 1, "preset": "plus", "version": {flag}}}') == (
        f"the save's version is {flag}, not a number (this companion reads version 1)")
