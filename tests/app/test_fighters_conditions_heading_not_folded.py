"""fix61g: the fighters' table's conditions heading beside a condition (review61g N2)."""

from __future__ import annotations

import pytest

from tests.app.fighters_column_helpers import conditions_column, rendered


@pytest.mark.parametrize("width", range(40, 81, 2))
def test_the_conditions_heading_is_never_folded_mid_word(width: int) -> None:
    """N2: a condition folds (so it reads whole), and the heading folded with it: below
    about 57 columns it read "condition" over "s 状態". The heading has its own "…", and
    状態 stays whole."""
    heading = conditions_column(rendered(width, ("全力回避 full dodge",)), "┃")
    assert heading[-1].endswith("状態"), heading
    first = heading[0].removesuffix(" 状態")
    assert first == "conditions" or (first.endswith("…") and len(heading) == 2), heading
