"""fixd67: the dice tray's table part-thrown (a table whose dice are thrown one after another,
EV-MON-1's count after its species) is saved after every step in dice/tray.json, so a power
cut, a Quit or a stop loses none of it: the next start takes it up, awaiting the same die,
and its outcome is the one the run without the cut gave. A file from before it was kept
(no ``table``) loads; one that cannot be read is said with its path and kept aside, and
nothing else is lost. The power cut is the shared stand-in (tests.app.power_cuts); the
player a scripted screen (tests.app.table)."""

from __future__ import annotations

import argparse
import errno
import json
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion import files as files_module
from companion.app import poisons as poisons_module
from companion.app.cli import main
from companion.app.commands.play import session as play_session
from companion.app.commands.play import table_modes
from companion.app.commands.play.table_modes import run_dice_tray
from companion.app.config import load_config
from companion.app.modes import dice_tray
from companion.app.modes.dice_tray import (
    TABLE_STALE,
    TABLE_UNREADABLE,
    TABLE_UNREADABLE_LEFT,
    TABLE_UNWRITTEN,
    TRACK_REFUSED,
    UNREADABLE_LEFT_WHY,
    table_path,
)
from companion.app.poisons import PoisonList, poisons_path
from companion.app.session.controls import Controls
from companion.app.session.mode import Throw
from companion.app.session.system_menu import (
    TABLE_NOT_SAVED,
    TABLE_STALE_SAVED,
    TRAY_NOT_SAVED,
    UNPLUG_LOSES_TABLE,
    UNPLUG_STALE_TABLE,
    ConsoleAsked,
    ModeSwitch,
    SystemMenu,
)
from companion.hw.buttons import Button, Press
from companion.hw.display.view import View
from tests.app.dice_tray_file_helpers import game_with_its_menu, refuse_the_tray_s_file
from tests.app.dice_tray_helpers import MENU
from tests.app.dice_tray_table_helpers import MONSTER_PART_THROWN, ROLL_2, tray
from tests.app.play_pty_helpers import Terminal
from tests.app.system_menu_helpers import first_choice
from tests.app.table import PlayerAtTheScreen

SYSTEM = "System 設定"
SERVICE = "jongrogue-companion"
ALL_SAVED = "every step is saved 保存済み"


def outcome_of(screen: PlayerAtTheScreen) -> View:
    outcome = screen.views[-1]
    assert outcome.prompt.startswith("モンスター Monster: the table's outcome")
    return outcome


def test_a_table_part_thrown_is_taken_up_after_a_power_cut(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The Monster table's first die typed, then the power cut (the player was about to type
    the second): the next start asked the tray's menu again, and the table picked anew threw
    its first die again. Now it asks the table's roll 2, and its outcome is the one the run
    without the cut gave."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "uncut"))
    uncut_run = tray([*MONSTER_PART_THROWN, ("Type the D6", "4")])
    awaited = [v for v in uncut_run.views
               if v.prompt.startswith("Type the D6") and ROLL_2 in v.prompt]
    assert awaited  # the table's roll 2 on the keypad, awaited after its first die
    uncut = outcome_of(uncut_run)

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    cut = tray([*MONSTER_PART_THROWN, ("Type the D6", "4")], power_cut_after=3)
    assert cut.script == [("Type the D6", "4")]  # the second die never typed
    saved = json.loads(table_path().read_text())["table"]
    assert saved["table"] == "monster" and saved["throws"] == [[2]]

    again = tray([("Type the D6", "4")])
    first = again.views[0]
    assert first.prompt == awaited[0].prompt  # the same die awaited, not the menu
    assert first.dice == awaited[0].dice  # the walk so far shown as before the cut
    after_the_cut = outcome_of(again)
    assert after_the_cut.dice == uncut.dice and after_the_cut.prompt == uncut.prompt
    assert after_the_cut.dice is not None and len(after_the_cut.dice.rolls) == 2
    # The table done, the file holds none: the next start is the tray's menu.
    assert json.loads(table_path().read_text())["table"] is None
    assert tray([("Dice tray", "2")]).views[0].prompt.startswith(
        "Dice tray ダイストレイ: roll dice")


def test_a_table_backed_out_of_is_taken_up_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """Back on the table's roll 2 holds it (Again or Menu, review64e RISK 1); after a power
    cut it is held still, and Again asks roll 2, the first die kept."""
    tray([*MONSTER_PART_THROWN, ("Type the D6", Button.FLEE),
          ("Back 戻る: go on with the table", "0")], power_cut_after=4)
    again = tray([("Back 戻る: go on with the table", "0"), ("Type the D6", "4")])
    assert again.views[0].prompt.startswith("Back 戻る: go on with the table (Again)")
    assert any(ROLL_2 in v.prompt for v in again.views)
    outcome = outcome_of(again).dice
    assert outcome is not None
    rolls = outcome.rolls
    assert rolls[0].startswith("(1D6) ＞ 2") and rolls[1].startswith("(1D6) ＞ 4")


def test_the_system_menu_says_the_table_is_saved() -> None:
    """The menu over a table part-thrown said "lost if unplugged 電源断で消える" and Unplug
    that unplugging loses it: saved, every step is, and it is safe to unplug."""
    screen = tray([*MONSTER_PART_THROWN, ("Type the D6", Button.SYSTEM), (SYSTEM, "off"),
                   ("Safe to unplug now", "ok")])
    assert not screen.script
    menu = next(v for v in screen.views if v.prompt.startswith(SYSTEM))
    assert menu.prompt == f"{SYSTEM}: {ALL_SAVED}"
    assert TABLE_NOT_SAVED not in screen.prompts() and UNPLUG_LOSES_TABLE not in screen.prompts()
    assert f"Safe to unplug now 電源を抜いても大丈夫: {ALL_SAVED}" in screen.prompts()


def test_quit_to_console_keeps_the_table_for_the_next_start(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Quit to console said the table part-thrown was lost, and it was: the next start takes
    it up."""
    monkeypatch.setenv("COMPANION_SERVICE", SERVICE)
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    screen = PlayerAtTheScreen([*MONSTER_PART_THROWN, ("Type the D6", Button.SYSTEM),
                                (SYSTEM, "console"), ("Quit to the console?", "yes")])
    controls = Controls([screen])
    with pytest.raises(ConsoleAsked):
        run_dice_tray(config, screen, controls, 1,
                      SystemMenu(controls, "dice", 0.0, "", service=SERVICE))
    err = capsys.readouterr().err
    assert "(every step is saved)" in err and "lost" not in err
    assert ROLL_2 in tray([("Type the D6", "4")]).views[0].prompt


def test_in_another_mode_the_menu_says_all_is_saved_and_a_cut_there_loses_nothing(
        ) -> None:
    """The tray left for JongRogue with its table part-thrown: the game's menu said "not the
    dice tray's table: lost if unplugged"; saved, all is, and after the power goes in the
    game the tray's next start awaits the same die."""
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    screen = PlayerAtTheScreen([*MONSTER_PART_THROWN, ("Type the D6", Button.SYSTEM),
                                (SYSTEM, "mode:game")])
    controls = Controls([screen])
    with pytest.raises(ModeSwitch):
        run_dice_tray(config, screen, controls, 1, SystemMenu(controls, "dice", 0.0, ""))
    awaited = [v.prompt for v in screen.views if ROLL_2 in v.prompt]

    game = PlayerAtTheScreen([(first_choice(), Button.SYSTEM), (SYSTEM, "off"),
                              ("Safe to unplug", "ok")])
    with pytest.raises(KeyboardInterrupt):
        game_with_its_menu(game).run()
    menu = next(v for v in game.views if v.prompt.startswith(SYSTEM))
    assert menu.prompt == f"{SYSTEM}: {ALL_SAVED}" and TRAY_NOT_SAVED not in menu.prompt

    table_modes._TRAY_LEFT.clear()  # the power went: a new process holds nothing
    assert tray([("Type the D6", "4")]).views[0].prompt == awaited[-1]


def test_a_save_without_the_table_field_loads(capsys: pytest.CaptureFixture[str]) -> None:
    """A tray file with no ``table`` (from before it was kept, or none held) loads as no
    table: the tray's menu, nothing said; the next table part-thrown is saved in it."""
    table_path().parent.mkdir(parents=True)
    table_path().write_text('{"version": 1}\n')
    screen = tray([("Dice tray ダイストレイ: roll dice", "2"), ("Which table?", "3"),
                   ("Type the D6", "2")])
    assert screen.views[0].prompt.startswith("Dice tray ダイストレイ: roll dice")
    assert not screen.views[0].status
    assert "tray.json" not in capsys.readouterr().err
    assert json.loads(table_path().read_text())["table"]["throws"] == [[2]]


def test_no_file_is_made_before_a_table_is_part_thrown() -> None:
    """A tray only rolled plain dice, or never used, leaves the data folder as it was."""
    tray([("Dice tray ダイストレイ: roll dice", "0"), ("Type the", "3")])
    assert not table_path().exists()


CORRUPT = {
    "a field wrong": json.dumps({"version": 1, "table": {
        "table": "monster", "expression": None, "throws": "2", "stage": "throw",
        "resume": False, "held": False, "note": ""}}),
    "cut short": '{"version": 1, "table": {"table": "monster", "expression": null, "thr',
    "zero bytes": "\0" * 64,
    "an unknown table": json.dumps({"version": 1, "table": {
        "table": "dragon", "expression": None, "throws": [[2]], "stage": "throw",
        "resume": False, "held": False, "note": ""}}),
}


@pytest.mark.parametrize("kind", CORRUPT)
def test_a_corrupt_table_is_said_with_its_file_and_kept_aside(
        kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A table file that cannot be read is said on stderr, naming it, and on the tray's
    status line; it is kept aside whole (never deleted), the poisons tracked are kept, and
    the tray starts at its menu, a new table saved in a new file."""
    poisons_path().parent.mkdir(parents=True)
    poisons_path().write_text('["victim"]\nface = 2\nrule = "EV-POI-6"\ntoxicity = 8\n'
                              'hours_left = 3\n')
    tracked = poisons_path().read_bytes()
    table_path().parent.mkdir(parents=True)
    table_path().write_text(CORRUPT[kind])
    screen = tray(MONSTER_PART_THROWN)
    err = capsys.readouterr().err
    assert f"{table_path()}: the dice tray's table part-thrown could not be taken up (" in err
    kept = sorted(table_path().parent.glob("tray.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text() == CORRUPT[kind]
    assert f"it was kept as {kept[0].name}, and the tray starts at its menu" in err
    # A file cut inside a string was "not valid JSON (Unterminated string starting at)"
    # (reviewd67 NIT): cut, as the power cut left it.
    assert ("(cut short or empty (a power cut as it was written?))" in err) == (
        kind in ("cut short", "zero bytes"))
    first = screen.views[0]
    assert first.prompt.startswith("Dice tray ダイストレイ: roll dice")
    assert first.status == TABLE_UNREADABLE.format(name="tray.json")
    assert poisons_path().read_bytes() == tracked
    assert json.loads(table_path().read_text())["table"]["throws"] == [[2]]
    poisons = PoisonList(poisons_path())
    assert list(poisons.poisons) == ["victim"] and not poisons.notices


def test_play_session_menu_sees_the_tray_held_only_in_memory_when_its_file_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The counter-check: the disk refusing the tray's file, another mode's menu still says
    the table held is lost if unplugged (play.session.system_menu, table_modes.tray_held)."""
    refuse_the_tray_s_file(monkeypatch)
    menu = the_game_s_menu([*MONSTER_PART_THROWN, ("Type the D6", Button.SYSTEM)])
    assert table_modes.tray_held() and menu.held_table() == TRAY_NOT_SAVED


def the_game_s_menu(script: list[tuple[str, Any]]) -> SystemMenu:
    """The tray played by ``script`` up to its System menu, left there for JongRogue: the
    System menu ``play`` gives the game then (play.session.system_menu)."""
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    screen = PlayerAtTheScreen([*script, (SYSTEM, "mode:game")])
    controls = Controls([screen])
    with pytest.raises(ModeSwitch):
        run_dice_tray(config, screen, controls, 1, SystemMenu(controls, "dice", 0.0, ""))
    menu = play_session.system_menu(load_config(overrides={"play.mode": "game"}), screen,
                                    Controls([screen]), lambda mode: "")
    assert menu is not None
    return menu


def test_a_kill_9_of_the_tray_loses_no_throw(tmp_path: Path) -> None:
    """`companion play --mode dice` killed (SIGKILL, as a power cut stops it) while the
    Monster table's roll 2 is awaited: the next start (the boot service's ``--resume``)
    awaits roll 2, not the tray's menu."""
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "200"}
    argv = ["--mode", "dice", "--dice", "typed", "--display", "terminal", "--choices",
            "keyboard"]
    term = Terminal(argv, env)
    term.answer(MENU, 1, b"3")
    term.answer("Which table?", 1, b"4")  # Monster
    term.answer("Type the D6", 1, b"2")
    term.answer(ROLL_2, 1, b"")
    os.kill(term.proc.pid, signal.SIGKILL)
    assert term.finish() == -signal.SIGKILL
    again = Terminal([*argv, "--resume"], env)
    again.answer(ROLL_2, 1, b"")
    assert MENU not in again.text()
    os.kill(again.proc.pid, signal.SIGKILL)
    again.finish()


# ---- reviewd67: the table's end, a refused write, the status line ----------------------------

#: The tray's menu → Tables → Poison (EV-POI-4, row 6: D6 6, then D6 1, D4 1, D6 3), its
#: first three dice typed: its roll 4 awaited. The fourth ends it, tracking a poison.
POISON_PART_THROWN: list[tuple[str, str | Press]] = [
    ("Dice tray ダイストレイ: roll dice", "2"), ("Which table?", "6"), ("Type the D6", "6"),
    ("Type the D6", "1"), ("Type the D4", "1")]
ROLL_4 = "roll 4 4投目"
POISON_OUTCOME = "毒 Poison: the table's outcome 結果"


def tracked_poisons() -> list[str]:
    return list(PoisonList(poisons_path()).poisons)


def cut_at_write(monkeypatch: pytest.MonkeyPatch, cut: Callable[[str, str], bool]) -> None:
    """The power cut between two writes of one step (the shared stand-in,
    :func:`cut_after_saves`, cuts between steps): every write of the tray's file and of the
    poison list goes as the real one does, until the first for which ``cut(which, text)``
    holds (``which``: "tray" or "poisons"); the power goes before it is made."""
    for which, module in (("tray", dice_tray), ("poisons", poisons_module)):
        def write(path: Path, text: str, _which: str = which,
                  _real: Callable[[Path, str], None] = module.atomic_write_text) -> None:
            if cut(_which, text):
                raise KeyboardInterrupt
            _real(path, text)
        monkeypatch.setattr(module, "atomic_write_text", write)


#: Where the power goes as the Poison table ends: before the tray's file says it ended, before
#: the poison list is written, before the tray's file says no table, after all of them.
CUTS: dict[str, Callable[[str, str], bool]] = {
    "before its end is saved": lambda which, text: which == "tray" and '"ended"' in text,
    "before its poison is written": lambda which, text: which == "poisons",
    "before its file says no table": lambda which, text: (
        which == "tray" and '"table": null' in text),
}


@pytest.mark.parametrize("cut", [*CUTS, "after all"])
def test_a_power_cut_as_a_table_ends_neither_asks_its_dice_again_nor_tracks_twice(
        cut: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewd67 DEFECT 1: the poison list was written before the tray's file, which still
    awaited the last die: a power cut between the two, and the next start asked that die
    again (a free reroll) and tracked a second poison. Now the end is saved first (its
    throws, the list as it was), then the poison, then no table. At every cut the poison is
    tracked once, and no die is asked again once the end is saved: the start shows the
    table's outcome."""
    with monkeypatch.context() as patch:
        if cut in CUTS:
            cut_at_write(patch, CUTS[cut])
        tray([*POISON_PART_THROWN, ("Type the D6", "3")],
             power_cut_after=0 if cut in CUTS else 6)
    ended_saved = cut != "before its end is saved"
    # The list before the start: the poison tracked only once the list was written.
    assert len(tracked_poisons()) == (cut in ("before its file says no table", "after all"))
    again = tray([("Dice tray", "2")] if cut == "after all" else [(POISON_OUTCOME, "1")]
                 if ended_saved else [("Type the D6", "3")])
    first = again.views[0]
    if cut == "after all":
        assert first.prompt.startswith("Dice tray ダイストレイ: roll dice")
    elif ended_saved:
        assert first.prompt == POISON_OUTCOME  # its outcome, no die asked
        assert first.dice is not None and len(first.dice.rolls) == 4
    else:  # cut before anything of the end was written: the die was never kept
        assert ROLL_4 in first.prompt
        assert again.views[-1].prompt == POISON_OUTCOME
    assert len(tracked_poisons()) == 1
    assert json.loads(table_path().read_text())["table"] is None
    err = capsys.readouterr().err
    # The poison written before the cut is in the list: said tracked already (reviewd67b
    # DEFECT 3: "not tracked again" was said of a poison never tracked too).
    tracked_before = cut == "before its file says no table"
    assert ("its poison is in the poison list already" in err) == tracked_before
    assert any("tracked already 記録済み" in s.text for s in again.views[0].dice.steps) \
        == tracked_before


def test_a_table_ended_on_a_full_disk_is_not_asked_again(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewd67 DEFECT 3: the disk full after the first die, the table went on and ended,
    and the file still held it at its first die: the menu said "every step is saved", and
    the next start asked dice 2-4 again. Now the refused write removes the older file (a
    full disk lets a file be removed): the table is then said held in memory only, and once
    it ended, nothing is lost and the next start is the menu."""
    with monkeypatch.context() as patch:
        refuse_the_tray_s_file(patch, after=1)
        screen = tray([*POISON_PART_THROWN, ("Type the D6", "3"), (POISON_OUTCOME, "1")])
        typed = [v for v in screen.views if ROLL_4 in v.prompt]
        assert typed and typed[0].status == TABLE_UNWRITTEN.format(why="disk full 空き容量なし")
        assert not table_path().exists()
    err = capsys.readouterr().err
    assert f"cannot save the dice tray's table part-thrown in {table_path()}" in err
    assert "the older file is removed" in err
    assert tray([("Dice tray", "2")]).views[0].prompt.startswith(
        "Dice tray ダイストレイ: roll dice")


def test_a_table_file_that_cannot_be_removed_either_is_said_older_until_written(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The same on a read-only disk, where the older file cannot be removed: the tray says
    an older table is on the disk (status line, and the System menu's table_unsaved) at its
    menu too, until a write succeeds; then that is said, and the file is right again."""
    table_path().parent.mkdir(parents=True)
    tray_mode = dice_tray.DiceTrayMode(("1D6",), "typed 入力", table_file=table_path())
    with monkeypatch.context() as patch:
        refusing = refuse_the_tray_s_file(patch, after=1, err=errno.EROFS, unlink_too=True)
        for answer in (1, 3, Throw((2,)), Throw((4,))):  # Monster: species, then count
            tray_mode.answer(answer)
        assert tray_mode.stage is dice_tray.Stage.OUTCOME
        assert json.loads(table_path().read_text())["table"]["throws"] == [[2]]  # older
        stale = TABLE_STALE.format(why="read-only 読み取り専用")
        assert tray_mode.table_unsaved() and tray_mode.view("x").status == stale
        tray_mode.answer(1)  # Menu: no table, the older one still there
        assert tray_mode.table_unsaved() and tray_mode.view("x").status == stale
        refusing[0] = False
        tray_mode.answer(1)  # Tables: the disk takes it, and the file says no table
    assert not tray_mode.table_unsaved() and not tray_mode.view("x").status
    assert json.loads(table_path().read_text())["table"] is None
    err = capsys.readouterr().err
    assert "the older file could not be removed" in err and "saved again" in err


def test_a_table_saved_again_after_a_refusal_clears_the_status(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewd67 NIT: the disk refuses the file at the table's roll 2 and is freed before
    roll 3: stderr says it is saved again, the status clears, and the file holds all three."""
    tray_mode = dice_tray.DiceTrayMode(("1D6",), "typed 入力", table_file=table_path())
    with monkeypatch.context() as patch:
        refusing = refuse_the_tray_s_file(patch, after=1)
        for answer in (1, 6, Throw((6,)), Throw((1,))):  # Poison: roll 3 awaited
            tray_mode.answer(answer)
        assert tray_mode.table_unsaved() and not table_path().exists()
        refusing[0] = False
        tray_mode.answer(Throw((1,)))
    assert not tray_mode.table_unsaved() and not tray_mode.view("x").status
    assert json.loads(table_path().read_text())["table"]["throws"] == [[6], [1], [1]]
    assert f"the dice tray's table is saved again in {table_path()}" in capsys.readouterr().err


def test_the_table_not_saved_is_said_over_the_keypad_and_the_held_note(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewd67 DEFECT 4: with typed dice the keypad's "your own dice, typed" (and after
    Back the held note) hid the table held in memory only: it showed in the System menu
    alone. It is said first, as docs/playing.md says the status line says it."""
    refuse_the_tray_s_file(monkeypatch, after=0)
    screen = tray([*MONSTER_PART_THROWN, ("Type the D6", Button.FLEE)])
    unwritten = TABLE_UNWRITTEN.format(why="disk full 空き容量なし")
    keypad = [v for v in screen.views if ROLL_2 in v.prompt]
    assert keypad and all(v.status == unwritten for v in keypad)
    held = screen.views[-1]
    assert held.prompt.startswith("Back 戻る: go on with the table") and held.status == unwritten


def test_a_table_file_that_cannot_be_kept_aside_is_left_and_never_written(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewd67 NIT: an unreadable file in a folder that lets nothing be renamed said "kept
    aside" all the same. It says it is left as it was, is never written over, and a table
    then started says it is held in memory only."""
    table_path().parent.mkdir(parents=True)
    table_path().write_text(CORRUPT["cut short"])
    real_replace = os.replace

    def replace(src: Any, dst: Any) -> None:
        if Path(src) == table_path():
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(src))
        real_replace(src, dst)

    monkeypatch.setattr(files_module.os, "replace", replace)
    screen = tray(MONSTER_PART_THROWN)
    assert "it could not be kept aside" in capsys.readouterr().err
    assert screen.views[0].status == TABLE_UNREADABLE_LEFT
    assert TABLE_UNREADABLE not in [v.status for v in screen.views]
    left = TABLE_UNWRITTEN.format(why=UNREADABLE_LEFT_WHY)
    assert [v.status for v in screen.views if ROLL_2 in v.prompt] == [left]
    assert table_path().read_text() == CORRUPT["cut short"]


def test_the_other_mode_holds_the_tray_s_file_while_its_table_is_left() -> None:
    """reviewd67 DEFECT 2: the tray left for JongRogue with its table part-thrown let go of
    dice/tray.json: a second tray took the table up and ended it, and back in the first its
    copy asked the last die again and tracked the poison twice. The run now holds the file
    in the other mode while it holds the table (a real second run: test_play_lock)."""
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    screen = PlayerAtTheScreen([*MONSTER_PART_THROWN, ("Type the D6", Button.SYSTEM),
                                (SYSTEM, "mode:game")])
    controls = Controls([screen])
    game = argparse.Namespace(state=None, fight=None)
    assert (table_path(), "companion play") not in play_session.held_files(
        game, load_config(overrides={"play.mode": "game"}), None)
    with pytest.raises(ModeSwitch):
        run_dice_tray(config, screen, controls, 1, SystemMenu(controls, "dice", 0.0, ""))
    for mode in ("game", "genso", "coc"):
        held = play_session.held_files(game, load_config(overrides={"play.mode": mode}), None)
        assert (table_path(), "companion play") in held


# -- reviewd67b: the older table on a read-only disk, the poison list's check ----------------

READ_ONLY = TABLE_STALE.format(why="read-only 読み取り専用")
#: The Poison table typed whole (EV-POI-4, row 6), its outcome shown.
POISON_WHOLE: list[tuple[str, str | Press]] = [*POISON_PART_THROWN, ("Type the D6", "3")]


def test_an_older_table_on_disk_is_carried_over_a_mode_switch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewd67b DEFECT 1: the disk read-only after the Poison table's first die, the table
    ended (its file holding it at roll 2); System → JongRogue, then back to the tray in the
    same run: a new tray took the older file up as saved and asked the finished table's roll
    2 again, no longer saying the file is older. The tray is carried over the switch."""
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    refuse_the_tray_s_file(monkeypatch, after=1, err=errno.EROFS, unlink_too=True)
    screen = PlayerAtTheScreen([*POISON_WHOLE, (POISON_OUTCOME, Button.SYSTEM),
                                (SYSTEM, "mode:game")])
    controls = Controls([screen])
    with pytest.raises(ModeSwitch):
        run_dice_tray(config, screen, controls, 1, SystemMenu(controls, "dice", 0.0, ""))
    assert json.loads(table_path().read_text())["table"]["throws"] == [[6]]  # older
    assert table_modes.tray_left()  # the other mode holds the tray's file meanwhile
    assert table_modes.tray_stale() and not table_modes.tray_held()
    game = PlayerAtTheScreen([(first_choice(), Button.SYSTEM), (SYSTEM, "back")])
    with pytest.raises(KeyboardInterrupt):
        game_with_its_menu(game).run()
    menu = next(v for v in game.views if v.prompt.startswith(SYSTEM))
    assert TRAY_NOT_SAVED not in menu.prompt  # nothing of the tray's is lost if unplugged
    back = tray([(POISON_OUTCOME, "1")])
    assert back.views[0].prompt == POISON_OUTCOME and ROLL_2 not in back.views[0].prompt
    tray_menu = back.views[-1]
    assert tray_menu.prompt.startswith("Dice tray ダイストレイ: roll dice")
    assert tray_menu.status == READ_ONLY
    assert len(tracked_poisons()) == 1


def test_the_poison_list_s_note_it_by_hand_is_not_hidden_by_an_older_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewd67b DEFECT 2: on a read-only disk (the tray's file older, the poison list
    refused) the outcome's status said only "old table on disk", and the poison list's "note
    it by hand" went to stderr alone. The older table goes first only while a table is under
    way; at the menu it is said again."""
    table_path().parent.mkdir(parents=True)
    tray_mode = dice_tray.DiceTrayMode(("1D6",), "typed 入力", poisons=PoisonList(poisons_path()),
                                       table_file=table_path())

    def refused(path: Path, text: str) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    monkeypatch.setattr(poisons_module, "atomic_write_text", refused)
    refuse_the_tray_s_file(monkeypatch, after=1, err=errno.EROFS, unlink_too=True)
    for answer in (1, 6, Throw((6,)), Throw((1,))):  # Poison: its roll 3 awaited
        tray_mode.answer(answer)
    assert tray_mode.view("x").status == READ_ONLY  # under way: the older table first
    for answer in (Throw((1,)), Throw((3,))):
        tray_mode.answer(answer)
    assert tray_mode.stage is dice_tray.Stage.OUTCOME and tray_mode.table_unsaved()
    status = tray_mode.view("x").status
    assert status.startswith("poison list not saved") and "note it by hand" in status
    tray_mode.answer(1)  # Menu
    assert tray_mode.view("x").status == READ_ONLY


def cut_before_the_poison(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Poison table typed whole, the power gone after its end was saved and before its
    poison was written."""
    with monkeypatch.context() as patch:
        cut_at_write(patch, CUTS["before its poison is written"])
        tray(POISON_WHOLE)
    assert json.loads(table_path().read_text())["table"]["ended"] is not None
    assert not tracked_poisons()


def test_a_list_rewritten_with_no_poison_changed_still_tracks_the_table_s_poison(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewd67b DEFECT 3: the cut before the poison was written, then `companion events
    end-block` with none tracked (it writes the list's header alone): the start compared the
    file's bytes, said "not tracked again", and the poison was never tracked. The list read
    is as it was: the start tracks it, once."""
    cut_before_the_poison(monkeypatch)
    assert main(["events", "end-block"]) == 0
    assert poisons_path().exists()
    capsys.readouterr()
    again = tray([(POISON_OUTCOME, "1")])
    assert again.views[0].prompt == POISON_OUTCOME
    assert tracked_poisons() == ["victim"]
    assert any("Tracking victim's poison" in s.text for s in again.views[0].dice.steps)
    assert "not tracked" not in capsys.readouterr().err


def test_a_list_changed_since_does_not_say_its_poison_tracked(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewd67b DEFECT 3: the cut before the poison was written, then `companion events
    poison --who alice`: the start said "not tracked again 再記録なし", a poison never
    tracked. The table's poison is not in the list, which changed: it is not tracked (it
    might be twice), and the status says so in red, to note it by hand."""
    cut_before_the_poison(monkeypatch)
    assert main(["events", "poison", "--dice", "sim", "--seed", "1", "--who", "alice"]) == 0
    capsys.readouterr()
    again = tray([(POISON_OUTCOME, "1")])
    outcome = again.views[0]
    assert outcome.prompt == POISON_OUTCOME and outcome.status == TRACK_REFUSED
    assert not outcome.guidance
    assert tracked_poisons() == ["alice"]
    assert "再記録なし" not in str(outcome.dice)
    assert "note it by hand" in capsys.readouterr().err


def test_a_poison_list_unreadable_as_the_table_ended_is_said_at_the_start(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewd67b NIT 9: the poison list unreadable as the table ended (its file says so),
    then a power cut: the start tracked nothing and said nothing. It is not tracked (it might
    be twice), and said to note by hand."""
    table_path().parent.mkdir(parents=True)
    table_path().write_text(json.dumps({"version": 1, "table": {
        "table": "poison", "expression": None, "throws": [[6], [1], [1], [3]],
        "stage": "outcome", "resume": False, "held": False, "note": "",
        "ended": {"poisons": dice_tray.UNREADABLE_LIST}}}))
    again = tray([(POISON_OUTCOME, "1")])
    assert again.views[0].prompt == POISON_OUTCOME
    assert again.views[0].status == TRACK_REFUSED
    assert not tracked_poisons()
    assert "the poison list cannot be read" in capsys.readouterr().err


@pytest.mark.parametrize("second", ["1", "4"])
def test_an_older_table_on_dice_read_only_does_not_track_its_poison_twice(
        second: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewd67b RISK 4: only dice/ read-only (events/ writable): the Poison table ended and
    tracked its poison, its file holding it at roll 2. A start with dice/ writable again asks
    roll 2 again, and finishing it tracked a second poison, unsaid. The list changed since
    the table began: its poison, the same, is said tracked already; another is not tracked
    and said to note by hand."""
    with monkeypatch.context() as patch:
        refuse_the_tray_s_file(patch, after=1, err=errno.EACCES, unlink_too=True)
        tray([*POISON_WHOLE, (POISON_OUTCOME, "1")])
    assert json.loads(table_path().read_text())["table"]["throws"] == [[6]]
    assert tracked_poisons() == ["victim"]
    again = tray([("Type the D6", second), ("Type the D4", "1"), ("Type the D6", "3")])
    outcome = again.views[-1]
    assert outcome.prompt == POISON_OUTCOME
    assert tracked_poisons() == ["victim"]
    if second == "1":  # the same dice: the same poison, in the list
        assert any("tracked already 記録済み" in s.text for s in outcome.dice.steps)
        assert not outcome.status
    else:
        assert outcome.status == TRACK_REFUSED
    assert json.loads(table_path().read_text())["table"] is None


def test_the_system_menu_says_an_older_table_is_on_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewd67b RISK 5: the table ended on a read-only disk, its file holding it at roll
    2: the System menu said "not this table: lost if unplugged", and Unplug that unplugging
    loses its throws. No table is under way; an older one is on the disk, and a start asks
    its dice again: that is said."""
    refuse_the_tray_s_file(monkeypatch, after=1, err=errno.EROFS, unlink_too=True)
    screen = tray([*POISON_WHOLE, (POISON_OUTCOME, Button.SYSTEM), (SYSTEM, "off"),
                   ("every step is saved, but", "ok")])
    assert not screen.script
    menu = next(v for v in screen.views if v.prompt.startswith(SYSTEM))
    assert menu.prompt == f"{SYSTEM}: {TABLE_STALE_SAVED}"
    assert UNPLUG_STALE_TABLE in screen.prompts() and UNPLUG_LOSES_TABLE not in screen.prompts()


def test_another_mode_s_menu_says_the_tray_s_older_table_is_on_disk(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewd67b RISK 5 in another mode: the tray left with only an older table in its file
    (the disk refusing its write and its removal), JongRogue's System menu said "every step
    is saved": play.session.system_menu now gives it the tray's ``tray_stale`` too."""
    refuse_the_tray_s_file(monkeypatch, after=1, err=errno.EROFS, unlink_too=True)
    menu = the_game_s_menu([*POISON_WHOLE, (POISON_OUTCOME, Button.SYSTEM)])
    assert table_modes.tray_stale() and menu.held_table() == TABLE_STALE_SAVED
