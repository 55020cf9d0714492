"""The dice tray with a list file (``events_lists.toml``) written wrong (events72 DEFECT 2):
it starts, its rolls, other tables and Tick go on, and only the tables that can come to a
list (door, chest, trap, monster, explore) wait, the file's error on the screen; the file
mended, *Again* reads it and the table goes on. A table part-thrown with the list is held,
not walked without it (nor kept aside as broken). A name in a list that would print raw
is refused so too (events72 DEFECT 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.commands.events import LISTS_NAME, user_lists
from companion.app.commands.play import table_modes
from companion.app.commands.play.table_modes import run_dice_tray
from companion.app.config import load_config
from companion.app.dice_expressions import parse_expressions
from companion.app.modes.dice_tray import (
    HELD,
    LISTS_BLOCKED,
    LISTS_ENDED,
    LISTS_PROMPT,
    DiceTrayMode,
    table_path,
)
from companion.app.paths import config_dir
from companion.app.session.controls import Controls
from companion.app.session.mode import RollAsk, Throw
from companion.app.session.system_menu import SystemMenu
from companion.errors import DataError
from tests.app.table import PlayerAtTheScreen

BAD = "[[monster]]\nname = 'Goblin'\nlevel = 0\n"
GOOD = "[[monster]]\nname = 'Goblin'\nlevel = 1\n[[monster]]\nname = 'Kobold'\nlevel = 1\n"
WRONG = "monster 1 (Goblin): level must be a whole number of 1 or more, found 0"
TABLES, MONSTER, RECOVERY = 2, 3, 5


@pytest.fixture(autouse=True)
def no_tray_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """No tray table held in memory by another test's run: what a new process has."""
    monkeypatch.setattr(table_modes, "_TRAY_LEFT", {})


def list_file(text: str) -> Path:
    path = config_dir() / LISTS_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def tray_with_the_list_file(table_file: Path | None = None) -> DiceTrayMode:
    """A tray as ``play --mode dice`` makes it, the list file read again at each try."""
    try:
        lists, error = user_lists(None), ""
    except DataError as exc:
        lists, error = None, str(exc)
    return DiceTrayMode(("1D6", "2D6"), "typed 入力", lists=lists, lists_error=error,
                        reload_lists=lambda: user_lists(None), table_file=table_file)


def prompt(mode: DiceTrayMode) -> str:
    ask = mode.ask()
    assert ask is not None
    return ask.prompt


def test_the_tray_starts_with_a_bad_list_file_and_blocks_its_tables_only(
        capsys: pytest.CaptureFixture[str]) -> None:
    """It exited 2 at start, the error on stderr only. Now a roll and the poison table
    (which reads no list) go on, and Monster says the file's error on the screen."""
    path = list_file(BAD)
    screen = PlayerAtTheScreen([
        ("Dice tray ダイストレイ: roll dice", "0"), ("Type the D6", "3"),
        ("1D6: total", "1"), ("Dice tray ダイストレイ: roll dice", "2"),
        ("Which table?", "6"), ("Type the D6", "3"), ("Type the D6", "1"),  # poison
        ("毒 Poison: the table's outcome", "1"),
        ("Dice tray ダイストレイ: roll dice", "2"), ("Which table?", "3")])
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    controls = Controls([screen])
    with pytest.raises(KeyboardInterrupt):
        run_dice_tray(config, screen, controls, None, SystemMenu(controls, "dice", 0.0, ""))
    first, blocked = screen.views[0].dice, screen.views[-1]
    assert first is not None and blocked.dice is not None
    shown = [step.text for step in first.steps]
    assert shown[0] == f"List file unreadable リスト読めず: {path}: {WRONG}"
    assert "1D6: total 合計 3" in screen.prompts()
    assert any(p.startswith("毒 Poison: the table's outcome") for p in screen.prompts())
    assert blocked.prompt == LISTS_PROMPT and blocked.status == LISTS_BLOCKED
    assert blocked.dice.steps[0].text == shown[0]
    assert f"{path}: {WRONG}: the dice tray's chest, door, explore, monster, trap tables " \
           "wait until it is mended" in capsys.readouterr().err


def test_the_list_mended_again_reads_it_and_the_table_goes_on() -> None:
    list_file(BAD)
    mode = tray_with_the_list_file()
    mode.answer(TABLES)
    mode.answer(MONSTER)
    assert mode.note == LISTS_BLOCKED and prompt(mode) == LISTS_PROMPT
    mode.answer(0)  # Again, still unmended
    assert mode.note == LISTS_BLOCKED
    list_file(GOOD)
    mode.answer(0)  # Again
    mode.answer(Throw((6,)))  # the monster table
    while isinstance(ask := mode.ask(), RollAsk):
        mode.answer(Throw((1,) * ask.count))
    assert mode.report is not None and not mode.lists_error
    assert mode.report.steps[-1].text.startswith("種類/species")


def test_a_table_part_thrown_waits_for_its_list_and_is_not_kept_aside() -> None:
    """Monster's first die taken with the list, the tray stopped, the list broken before
    the next start: the table is held at its outcome (not walked without the list, which
    kept it aside as walking to no die); mended, Again asks its roll 2."""
    list_file(GOOD)
    first = tray_with_the_list_file(table_file=table_path())
    first.answer(TABLES)
    first.answer(MONSTER)
    first.answer(Throw((2,)))  # level ± 0, how many: 1D6
    first._keep_table()
    saved = table_path().read_text(encoding="utf-8")
    list_file(BAD)
    second = tray_with_the_list_file(table_file=table_path())
    second.take_up_saved()
    assert second.note == LISTS_BLOCKED and second.throws == [(2,)]
    assert table_path().read_text(encoding="utf-8") == saved  # not kept aside
    list_file(GOOD)
    second.answer(0)  # Again
    ask = second.ask()
    assert isinstance(ask, RollAsk) and ask.throw == 2


def test_a_table_held_for_its_list_is_taken_up_held_once_the_list_reads() -> None:
    list_file(GOOD)
    first = tray_with_the_list_file(table_file=table_path())
    first.answer(TABLES)
    first.answer(MONSTER)
    first.answer(Throw((2,)))
    list_file(BAD)
    first.lists_error = "broken"  # as a tray started with it broken would hold it
    first.answer(Throw(back=True))
    first.answer(0)  # Again: blocked, held for the list
    assert first.note == LISTS_BLOCKED
    list_file(GOOD)
    second = tray_with_the_list_file(table_file=table_path())
    second.take_up_saved()
    assert prompt(second) == HELD


def ended_monster_table_taken_up(text: str) -> DiceTrayMode:
    """The monster table saved as ended (1 × level-3 monster, its species die 2) as the
    power went, taken up at a start with the list file ``text``."""
    list_file(text)
    table_path().parent.mkdir(parents=True, exist_ok=True)
    table_path().write_text(json.dumps({"version": 1, "table": {
        "table": "monster", "expression": None, "throws": [[1], [2]], "stage": "outcome",
        "resume": False, "held": False, "note": "", "ended": {"poisons": None}}}),
        encoding="utf-8")
    mode = tray_with_the_list_file(table_file=table_path())
    mode.take_up_saved()
    return mode


LEVEL_3 = "[[monster]]\nname = 'Orc'\nlevel = 3\n[[monster]]\nname = 'Ogre'\nlevel = 3\n"


def test_a_table_ended_taken_up_without_its_list_says_its_pick_is_not_shown() -> None:
    """reviewe72 RISK 4: the player saw Ogre; the list broken before the next start, the
    outcome was shown as "the GM picks the species" without a word. Now the status and the
    Table panel say the list's pick is not shown, and why."""
    with_list = ended_monster_table_taken_up(LEVEL_3)
    assert with_list.dice.steps[-1].text.endswith("(1D2) ＞ 2 ＞ Ogre")
    assert not with_list.trouble
    broken = ended_monster_table_taken_up(BAD)
    assert broken.stage.value == "outcome" and broken.trouble == LISTS_ENDED
    assert broken.dice.steps[-1].text == (
        "Taken up after a stop: the list file cannot be read, so what it picked is not "
        f"shown 選択は表示なし ({config_dir() / LISTS_NAME}: {WRONG})")


def test_a_control_character_in_dice_expressions_is_refused() -> None:
    """A roll's comment was printed raw in the tray's roll line (an ESC cleared it);
    line ends between the rolls (a TOML multi-line string) are spacing."""
    with pytest.raises(DataError, match=r"holds a control character \('\\x1b'\)"):
        parse_expressions("1D6, 2D6 hit\x1b[31m]")
    assert parse_expressions("1D6,\n  2D6\t,\r\n3D6") == ("1D6", "2D6", "3D6")


def test_the_list_error_leaves_the_panels_once_the_file_is_mended() -> None:
    """reviewe72 NIT 7: the menu and Tables panels showed the list file's error until a
    table that uses it was tried, the file long mended. Opening the Tables menu, or going
    back to the menu, reads it again."""
    list_file(BAD)
    mode = tray_with_the_list_file()
    assert mode.dice.steps[0].text.startswith("List file unreadable")
    mode.answer(TABLES)
    assert mode.dice.steps[-2].text.startswith("List file unreadable")  # still bad
    list_file(GOOD)
    mode.answer(RECOVERY)  # a table that uses no list; then back to the menu
    mode.answer(Throw((3, 3)))
    mode.answer(Throw((3, 3)))
    mode.answer(1)  # Menu
    assert not mode.lists_error and mode.lists is not None
    assert not any(s.text.startswith("List file unreadable") for s in mode.dice.steps)
    mode.lists_error = "broken"  # read broken at the start, mended since
    mode.answer(TABLES)
    assert not any(s.text.startswith("List file unreadable") for s in mode.dice.steps)
