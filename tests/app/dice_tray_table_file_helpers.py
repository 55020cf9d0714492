"""The dice tray's table file as a part-thrown table leaves it."""

from __future__ import annotations

import json

from companion.app.modes.dice_tray import table_path
from tests.app.dice_tray_table_helpers import MONSTER_PART_THROWN, tray


def part_thrown() -> bytes:
    """A Monster table part-thrown, its first die typed, as the power cut left it."""
    tray([*MONSTER_PART_THROWN, ("Type the D6", "4")], power_cut_after=3)
    assert json.loads(table_path().read_text())["table"]["throws"] == [[2]]
    return table_path().read_bytes()
