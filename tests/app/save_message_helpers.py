"""What a save that cannot be read says (the save-message tests; tidy72c: no test module
imports another)."""

from __future__ import annotations

import pytest

from companion.app.session.save import SaveGame
from companion.errors import DataError


def said(text: str) -> str:
    with pytest.raises(DataError) as info:
        SaveGame.from_json(text, "save.json")
    return str(info.value).removeprefix("save.json: ")
