"""Tests a mutation round of the table's saves and fight files found missing (fight_file.py,
fight_save.py, fight.py, genso_fight_files.py): each pins a behaviour a player or GM would
miss, which a small change of the source left every other test passing.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shlex
import stat
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.modes.coc import CocFightMode
from companion.app.modes.fight_file import FightFileChanged
from companion.app.modes.genso import GensoFightMode, table_session
from companion.app.session.host import replay
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.app.session.save import AnotherModesSave, CorruptSave, SaveGame
from companion.dice import SimulatedDice
from companion.errors import IllegalAction
from tests.app.coc_table_helpers import CHOICES, coc_mode_at_the_first_roll, new_fight
from tests.app.fight_file_disk_helpers import FOUR_ACTIONS, TiredCard, on_file, saved, sha
from tests.app.fight_new_helpers import NEW, hurt, saved_fight
from tests.app.genso_table_helpers import RULES, SEED, fight_file, play, two_actions_then_a_stop
from tests.app.table import Player
from tests.disk import left_by_a_cut


def test_the_gms_undo_in_the_same_clock_tick_as_the_tables_save_is_the_gms(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder's fsync failed after the fourth action's write, so the save keeps the SHA
    of the third's (a cut may bring it back); then the GM undid the fourth action on a
    computer, writing the third's bytes again. A file system whose times are coarse (FAT's
    two seconds, a clock's tick) gives the GM's file the very time of the table's save. Only
    a file older than the save is one a cut brought back: the GM's undo is asked about, and
    stays in the file, not written over with the action the GM took back."""
    fight_file(tmp_path)
    path, state = (tmp_path / "fight.json").resolve(), tmp_path / "table.json"
    with monkeypatch.context() as disk:
        card = TiredCard(path, disk, {5})  # 1: the table's start, 5: the fourth action
        first = play(tmp_path, FOUR_ACTIONS)
    assert card.failed == 1 and on_file(tmp_path) == first.fight.to_json()
    assert main(["genso", "fight", "undo", "--file", str(path)]) == 0
    undone = on_file(tmp_path)
    assert len(undone["journal"]) == 3 and sha(path) == saved(tmp_path).fight_sha_durable
    at = state.stat().st_mtime_ns  # the same tick as the save
    os.utime(path, ns=(at, at))
    with pytest.raises(FightFileChanged, match="changed since the table saved it"):
        table_session(RULES, path, state, resume=True, seed=SEED, choices=Player([]))
    assert on_file(tmp_path) == undone


@pytest.mark.parametrize("finished", [False, True])
def test_a_game_of_jongrogue_given_as_a_tables_state_names_its_command_only_if_unfinished(
        tmp_path: Path, finished: bool) -> None:
    """A game of JongRogue's save given to the table as --state is left where it is. An
    unfinished game is named with the command that carries it on; a finished one is over,
    and no command is named for it: nothing carries a finished game on."""
    fight_file(tmp_path)
    state = tmp_path / "save.json"
    state.write_text(SaveGame(seed=3, preset="ez", inputs=["1m"], events=1,
                              finished=finished).to_json(), encoding="utf-8")
    with pytest.raises(AnotherModesSave) as refused:
        table_session(RULES, tmp_path / "fight.json", state, resume=True, seed=SEED,
                      choices=Player([]))
    told = str(refused.value)
    assert told.startswith(f"{state} holds a game of JongRogue (ez), not a genso table's save")
    if finished:
        assert told.endswith("; it is over (kept for the history)")
        assert "companion play" not in told
    else:
        assert told.endswith(f"; carry that game on with `companion play --mode game --resume "
                             f"--state {state}`")


def test_back_in_a_fight_menu_goes_back_one_menu() -> None:
    """Going back (back) at "How?" after Attack → Cult goes back to "Attack whom", the target
    to pick again, not to the first menu with the attack to choose again."""
    mode = CocFightMode(new_fight("003"))
    for key in ["attack", "t:Cult", "back"]:
        mode.restore(key)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt.startswith("Attack whom")


def test_a_choice_past_the_menu_is_refused_and_changes_nothing() -> None:
    """An option number one past the menu's last is refused as no choice (the session says
    so and asks again), not an IndexError that stops the table."""
    mode = CocFightMode(new_fight("003"))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    with pytest.raises(IllegalAction, match=f"there is no choice {len(ask.options)} now"):
        mode.answer(len(ask.options))
    assert mode.ask() == ask and mode.journal == []


def test_a_throw_the_engine_refuses_leaves_the_action_to_be_thrown_again() -> None:
    """A throw of faces the dice do not have (101 on a D100, typed or misread) is refused;
    the next throw is the roll's, as if the refused one had never come (it was kept, and
    every throw after it was refused too, the action stuck)."""
    mode, clean = coc_mode_at_the_first_roll(), coc_mode_at_the_first_roll()
    with pytest.raises(IllegalAction, match=r"1D100 was wanted, the throw was \[101\]"):
        mode.answer(Throw((101,)))
    mode.answer(Throw((42,)))
    clean.answer(Throw((42,)))
    assert mode.ask() == clean.ask() and mode.journal == clean.journal == [*CHOICES[:4], "42"]


def test_a_camera_failure_note_goes_once_the_dice_are_thrown() -> None:
    """The camera stopped (the throw's failure, on the status line); then the dice were
    thrown and read: the status no longer says the camera failed."""
    mode = coc_mode_at_the_first_roll()
    mode.answer(Throw(failure="camera stopped カメラ停止"))
    assert "camera stopped" in mode.view("throw").status
    mode.answer(Throw((42,)))
    assert "camera stopped" not in mode.view("throw").status


def test_a_resume_moves_the_companions_dice_past_its_own_throws_only() -> None:
    """A coc table throws its d100s itself (``--dice camera --d100 sim``) and reads the rest
    from the camera: a resume moves the seeded dice past the d100s the journal threw, not
    past the camera's dice, so it goes on with the d100s an uninterrupted fight would have."""
    mode, dice = CocFightMode(new_fight("003")), SimulatedDice.seeded(SEED)
    for key in CHOICES[:15]:
        while isinstance(ask := mode.ask(), RollAsk):
            mode.answer(Throw(tuple(dice.roll(ask.count, ask.sides))))
        mode.restore(key)
    assert {sides for _, sides in mode.thrown} > {100}  # the camera's dice too
    resumed, uninterrupted = SimulatedDice.seeded(1), SimulatedDice.seeded(1)
    mode.advance(resumed, lambda sides: sides == 100)
    for count, sides in mode.thrown:
        if sides == 100:
            uninterrupted.roll(count, sides)
    assert resumed.roll(5, 100) == uninterrupted.roll(5, 100)


def test_back_at_a_roll_leaves_the_action_for_the_first_menu() -> None:
    """Going back at an action's dice (a wrong target picked) leaves the action: the first
    menu is asked again, not the same roll, which no answer but a throw would leave."""
    mode = coc_mode_at_the_first_roll()
    mode.answer(Throw(back=True))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt.startswith("Ann (3 AP): what")
    assert "attack" in [option.choice for option in ask.options]


def test_a_table_save_whose_fight_path_is_not_text_is_kept_aside_and_the_fight_taken_up(
        tmp_path: Path) -> None:
    """A damaged table save whose fight_path is a number: the resume stopped with a
    TypeError (a traceback, and the boot service's restart the same). The save is named
    unreadable, saying why, kept aside, and the fight file taken up as it is."""
    two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    state.write_text(json.dumps({**json.loads(state.read_text(encoding="utf-8")),
                                 "fight_path": 5}), encoding="utf-8")
    told: list[str] = []
    session = table_session(RULES, tmp_path / "fight.json", state, resume=True, seed=SEED,
                            choices=Player([]), tell=told.append)
    [kept] = tmp_path.glob("table.json.corrupt-*")
    assert told == [f"the fight save could not be read ({state}: fight_path must be str); "
                    f"it was kept as {kept}; taking up the fight file"]
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == on_file(tmp_path)


def test_a_save_whose_inputs_go_on_after_the_table_closed_does_not_replay() -> None:
    """A damaged or edited table save whose inputs go on after the Keeper closed the table:
    its replay stopped with an AttributeError (a traceback, the save neither replayed nor
    kept aside). It is a save that does not replay, named so (CorruptSave), which the table
    keeps aside before taking up the fight file."""
    closed, dice = CocFightMode(new_fight("003")), SimulatedDice.seeded(SEED)
    for key in CHOICES:
        while isinstance(ask := closed.ask(), RollAsk):
            closed.answer(Throw(tuple(dice.roll(ask.count, ask.sides))))
        closed.restore(key)
    assert closed.ask() is None
    inputs = [*closed.journal, "attack"]
    with pytest.raises(CorruptSave, match=re.escape(
            f"the save does not replay at input {len(inputs)} ('attack'): the fight was "
            "closed")):
        replay(CocFightMode(new_fight("003")), inputs, None)


def test_fight_apply_over_a_sheet_deleted_since_says_it_is_gone(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`fight apply` after the sheet file a PC came from was deleted: it says the sheet is
    gone since the fight began (not a failed read of a file the GM may think is there),
    and writes nothing."""
    sheet = hurt(tmp_path, capsys)
    assert main(["genso", "fight", "end"]) == 0
    sheet.unlink()
    capsys.readouterr()
    assert main(["genso", "fight", "apply"]) == 2
    err = capsys.readouterr().err
    assert f"{sheet.resolve()} is gone since the fight began; nothing was written" in err
    assert not sheet.exists()


def test_a_save_that_does_not_replay_keeps_the_whole_copy_a_cut_left_beside_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table save that reads but does not replay (a damaged card), and beside it the whole
    save a cut write left as a temporary file: the save is kept aside as .corrupt-…, and the
    copy as .unwritten-…, named with the command that plays it on; moved aside alone, the
    save's next write deleted the copy unread, the table's only whole save."""
    two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    whole = state.read_text(encoding="utf-8")
    left = left_by_a_cut(state, whole.encode("utf-8"), monkeypatch)
    damaged = json.loads(whole)
    damaged["inputs"] = [*damaged["inputs"], "no-such-choice"]
    state.write_text(json.dumps(damaged), encoding="utf-8")
    told: list[str] = []
    table_session(RULES, tmp_path / "fight.json", state, resume=True, seed=SEED,
                  choices=Player([]), tell=told.append)
    [kept] = tmp_path.glob("table.json.corrupt-*")
    [copy] = tmp_path.glob("table.json.unwritten-*")
    assert copy.read_text(encoding="utf-8") == whole and not left.exists()
    assert json.loads(kept.read_text(encoding="utf-8")) == damaged
    assert len(told) == 1 and copy.name in told[0]


def test_a_new_table_over_an_unreadable_fight_file_names_the_copy_a_cut_left(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new table starts over an unfinished one whose fight file cannot be read, and beside
    it a copy of a write a cut kept from being renamed: the note named the unreadable file
    kept aside but not the copy kept beside it, which may hold the last write whole. Both
    are named."""
    two_actions_then_a_stop(tmp_path)
    path = tmp_path / "fight.json"
    left_by_a_cut(path, path.read_bytes(), monkeypatch)
    path.write_text('{"journal": [', encoding="utf-8")  # cut short
    told: list[str] = []
    table_session(RULES, path, tmp_path / "table.json", resume=False, seed=SEED,
                  choices=Player([]), tell=told.append)
    [copy] = tmp_path.glob("fight.json.unwritten-*")
    [note] = [line for line in told if "could not be read" in line]
    assert f"was kept as {copy.name}" in note


def test_fight_new_force_whose_folder_sync_fails_names_where_the_old_fight_is_kept(
        user_dirs: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`genso fight new --force` over a fight: the new fight's write went through but its
    folder's fsync failed (EIO on a tired card). The old fight was kept aside without a
    word of where; the note names it, and the command that shows it."""
    path = saved_fight(user_dirs, "genso")
    old = path.read_bytes()
    real_replace, real_fsync, armed = os.replace, os.fsync, [False]

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        real_replace(src, dst, **kwargs)
        armed[0] = Path(dst) == path

    def fsync(fd: int) -> None:
        if armed[0] and stat.S_ISDIR(os.fstat(fd).st_mode):
            armed[0] = False
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_fsync(fd)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "fsync", fsync)
    capsys.readouterr()
    main([*NEW["genso"][0], "--force"])
    err = capsys.readouterr().err
    [kept] = path.parent.glob("fight.json.replaced-*")
    assert kept.read_bytes() == old
    assert (f"the fight replaced is kept as {kept.name}, beside fight.json: companion genso "
            f"fight show --file {kept}") in err.replace("\n", " ")


def test_fight_new_force_stopped_mid_write_puts_the_old_fight_back(
        user_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C as `genso fight new --force` renames the new fight into place, the old one
    already kept aside: the old fight goes back to fight.json, so the table is not left
    with no fight and nothing kept aside."""
    path = saved_fight(user_dirs, "genso")
    old = path.read_bytes()
    real_replace = os.replace

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        if Path(dst) == path and Path(src).name.endswith(".tmp"):
            raise KeyboardInterrupt
        real_replace(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    with contextlib.suppress(KeyboardInterrupt):
        main([*NEW["genso"][0], "--force"])
    monkeypatch.undo()
    assert path.read_bytes() == old
    assert not list(path.parent.glob("fight.json.replaced-*"))


@pytest.mark.parametrize("system", sorted(NEW))
def test_fight_new_force_names_where_the_old_fight_is_kept(
        system: str, user_dirs: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`fight new --force` over a fight: the old fight is kept aside, and the note names
    the copy and the command that shows it (else the GM thinks it gone), a command that
    works as printed in a data folder whose name has a space."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(user_dirs / "my data"))
    assert main(NEW[system][0]) == 0
    path = user_dirs / "my data" / system / "fight.json"
    old = path.read_bytes()
    capsys.readouterr()
    assert main([*NEW[system][0], "--force"]) == 0
    [kept] = path.parent.glob("fight.json.replaced-*")
    assert kept.read_bytes() == old
    said = capsys.readouterr().err.replace("\n", " ")
    assert f"note: the fight replaced is kept as {kept.name}, beside fight.json: " in said
    command = said.split("beside fight.json: ", 1)[1].split(" shows it", 1)[0]
    assert shlex.split(command) == ["companion", system, "fight", "show", "--file", str(kept)]
