"""mutation13: a gap in the tests of what a save that is not JSON says
(companion/app/session/save.py ``json_fault``) that a hand-made mutant survived: a whole
number where JSON takes none, at the save's end, is no cut (no continuation would mend
it), so it is told where it is."""

from __future__ import annotations

import pytest

from companion.app.session.save import SaveGame
from companion.errors import DataError


@pytest.mark.parametrize(("text", "told"), [
    ("[1 2", "not valid JSON (expecting ',' delimiter at byte 4 of 4)"),
    ("{0", "not valid JSON (expecting property name enclosed in double quotes at byte 2 of 2)"),
])
def test_a_whole_number_where_json_takes_none_at_the_end_is_no_cut(text: str,
                                                                    told: str) -> None:
    with pytest.raises(DataError) as info:
        SaveGame.from_json(text, "save.json")
    assert str(info.value) == f"save.json: {told}"
