"""newfix61: what a save that cannot be read says is wrong with it (newuser61 N3, N8)."""

from __future__ import annotations

import pytest

from companion.app.session.save import SaveGame
from companion.errors import DataError

WHOLE = SaveGame(seed=11, preset="plus", inputs=["draw 5p"] * 40).to_json()


@pytest.mark.parametrize(("text", "said"), [
    # A save cut inside a string said "Unterminated string starting at at line 1".
    (WHOLE[:400], "the save ends in the middle: cut short after 400 bytes"),
    (WHOLE[:-1], f"the save ends in the middle: cut short after {len(WHOLE) - 1} bytes"),
    ("", "the save is empty"),
    ("{half", "expecting property name enclosed in double quotes at byte 2 of 5"),
    # hist65 NIT 2: what a power cut on an SD card leaves, not a JSON fault at byte 1
    ("\0" * 512, "the save is all zero bytes: a power cut as it was written?"),
])
def test_json_that_is_not_a_save_says_where_and_how_in_a_users_words(text: str,
                                                                     said: str) -> None:
    with pytest.raises(DataError) as info:
        SaveGame.from_json(text, "save.json")
    assert str(info.value) == f"save.json: not valid JSON ({said})"
    assert " at at " not in str(info.value)


def test_a_save_with_no_version_says_it_has_none() -> None:
    """It said "version is None", Python's word for the field not being there."""
    with pytest.raises(DataError) as info:
        SaveGame.from_json('{"seed": "abc", "inputs": []}', "save.json")
    assert str(info.value) == ("save.json: the save has no version field (this companion "
                               "reads version 1)")
