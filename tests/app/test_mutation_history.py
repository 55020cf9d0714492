"""The history of finished games: edges no other test pinned (mutation round 3)."""

from __future__ import annotations

import re

from companion.app.history import History, default_history_path
from tests.app.history_run_helpers import _damage_a_table_page, make_run


def test_a_damaged_history_whose_every_run_is_lost_says_how_many() -> None:
    """The only page of runs damaged: none can be read, and the notice says the new history
    holds none of them and how many were lost, not only that a new one was begun."""
    for game_id in ("a", "bb", "ccc", "dddd"):
        History().record(make_run(game_id, False, 3, "frozen"))
    path = default_history_path()
    _damage_a_table_page(path, 0)
    history = History()
    assert history.runs() == []
    [notice] = history.notices
    # journey71 NIT 8: said as none of them, not "with the 0 games that could be read"
    assert re.search(r"starting a new one; none of its 4 games could be read \(they are in "
                     r"history\.sqlite3\.corrupt-[0-9TZ-]+\)$", notice), notice
