"""A list table (door, chest, trap, monster, explore) saved as ended as the power went,
taken up at a start whose list file (``events_lists.toml``) is written wrong: its outcome
says that what the list picked is not shown only when the walk came to a step the list
picks for (a monster's species, EV-MON-1; the bonus room's items, EV-EXP-4). A door that
opened with no monster picked nothing (finala72 NIT 2)."""

from __future__ import annotations

import json

from companion.app.commands.events import LISTS_NAME
from companion.app.modes.dice_tray import LISTS_ENDED, DiceTrayMode, table_path
from companion.app.paths import config_dir
from companion.app.poisons import PoisonList, poisons_path
from companion.errors import DataError

BROKEN = "[[monster]]\nname = 'Goblin'\nlevel = 0\n"  # a level of 0: the file is refused


def ended_table_taken_up(table: str, throws: list[list[int]]) -> DiceTrayMode:
    """``table`` saved as ended at ``throws``, taken up with the list file broken."""
    lists = config_dir() / LISTS_NAME
    lists.parent.mkdir(parents=True, exist_ok=True)
    lists.write_text(BROKEN, encoding="utf-8")
    table_path().parent.mkdir(parents=True, exist_ok=True)
    table_path().write_text(json.dumps({"version": 1, "table": {
        "table": table, "expression": None, "throws": throws, "stage": "outcome",
        "resume": False, "held": False, "note": "", "ended": {"poisons": None}}}),
        encoding="utf-8")

    def still_broken() -> None:
        raise DataError(f"{lists}: still written wrong")

    mode = DiceTrayMode(("1D6",), "typed 入力", poisons=PoisonList(poisons_path()),
                        table_file=table_path(), lists_error=f"{lists}: written wrong",
                        reload_lists=still_broken, typed=True)
    mode.take_up_saved()
    return mode


def test_a_door_that_came_to_no_list_step_says_nothing_of_the_list() -> None:
    """A door at 1 (TRAPPED + LOCKED: a disarm and a lock for the GM) picks nothing from
    the list: its outcome is the one the list would give, and says no pick is missing."""
    mode = ended_table_taken_up("door", [[1]])
    assert mode.stage.value == "outcome"
    assert mode.trouble != LISTS_ENDED
    assert not any("what it picked is not shown" in step.text for step in mode.dice.steps)
    assert "TRAPPED + LOCKED" in mode.dice.steps[0].text


def test_a_monster_table_still_says_its_species_is_not_shown() -> None:
    """The monster table came to its species (EV-MON-1): that it is not shown is said."""
    mode = ended_table_taken_up("monster", [[1], [2]])
    assert mode.trouble == LISTS_ENDED
    assert mode.dice.steps[-1].text.startswith(
        "Taken up after a stop: the list file cannot be read, so what it picked is not shown")
