"""The genso fight mode of the play session (`companion play --mode genso`, issue 25).

A fight made with the engine (as `companion genso fight new` makes it) is played at the
table: keys on a pty (the real KeyboardInput) and gpiozero MockFactory buttons pick the
actions, the companion throws the dice (seeded), the screen is pygame on the SDL dummy
driver and the terminal rich to a StringIO. The engine itself, pushed directly with the
same dice, is the reference.
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from companion.app.cli import main
from companion.app.commands.play import telling
from companion.app.modes.fight_file import FightClosed
from companion.app.modes.genso import (
    Checked,
    FightSave,
    GensoFightMode,
    table_session,
    write_fight_file,
)
from companion.app.session.controls import Controls, MenuChoices
from companion.app.session.mode import ChoiceAsk
from companion.dice import SimulatedDice
from companion.errors import DataError, IllegalAction
from companion.hw.display.screen import HIGHLIGHT, ScreenDisplay
from companion.hw.display.terminal import TerminalDisplay
from companion.hw.display.view import View
from companion.systems.genso import checks
from companion.systems.genso.combat import Attack, Cast, Dodge, EndFight, Fight, entrants_for
from companion.systems.genso.sheet import preset
from tests.app.dice_tray_helpers import Keys, Recorded
from tests.app.genso_table_helpers import (
    CHOICES,
    PC1,
    PC2,
    RULES,
    SEED,
    fight_file,
    genso_table_in_a_terminal,
    new_fight,
    play,
    two_actions_then_a_stop,
)
from tests.app.table import Buttons, CutRolls, Player
from tests.disk import refuse_moving


def prompt_is(start: str) -> Callable[[View], bool]:
    return lambda view: view.prompt.startswith(start)


#: pc1 attacks Orc 1 with the club; pc2 heals pc1; Orc 1 attacks pc2; the GM ends the fight.
SCRIPT = [
    (prompt_is(f"{PC1} PC 1: what now"), b"a"),
    (prompt_is("Attack whom"), b"a"),
    (prompt_is("With which weapon"), b"a"),
    (prompt_is(f"{PC2} PC 2: what now"), b"r"),
    (prompt_is("Which spell"), b"a"),
    (prompt_is("On whom"), b"1"),
    (prompt_is("オーク1 Orc 1: what now"), b"a"),
    (prompt_is("Attack whom"), b"2"),
    (prompt_is("オーク2 Orc 2: what now"), b"7"),
    (prompt_is("GM: which step"), b"2"),
    (prompt_is("End the fight"), b"2"),  # asked first, Back lit
    (prompt_is("The fight is over"), b"a"),
]
ACTIONS = [Attack(PC1, "オーク1", 0), Cast(PC2, "healing", (PC1,)), Attack("オーク1", PC2),
           EndFight()]


def reference(seed: int = SEED) -> Fight:
    """The same fight pushed straight into the engine with the same seeded dice."""
    fight, dice = new_fight(), SimulatedDice.seeded(seed)
    for action in ACTIONS:
        fight.push(action, dice)
    return fight


def test_a_fight_at_the_table_with_keys_on_the_screen(tmp_path: Path) -> None:
    """The scripted fight, played with keys: the table ends where the engine does, the screen
    marks whose turn it is and shows each result with its terms, and both files are saved
    (docs/screen-genso-800x480.png is this kind of screen: scripts/bench_display.py)."""
    screen = ScreenDisplay("800x480")
    display = Recorded(screen)
    keys = Keys(display, list(SCRIPT))
    path, state = fight_file(tmp_path), tmp_path / "table.json"
    session = table_session(RULES, path, state, resume=False, seed=SEED,
                            choices=MenuChoices(Controls([keys.keyboard, display],
                                                         clock=keys.time_at_the_table),
                                                0.0, keys.sleep),
                            display=display)
    try:
        session.show_next()
        session.run()
        # The orc's turn after the heal: its row is highlighted (the third row).
        shot = next(v for v in display.views
                    if v.prompt.startswith("オーク1 Orc 1: what now"))
        surface = screen.render(shot)
        screen.save_png(tmp_path / "fight.png")
        row_y = screen.m(38 + 4 + 24 + 24) + 2 * screen.m(44) + screen.m(22)
        assert surface.get_at((screen.m(250), row_y))[:3] == HIGHLIGHT
    finally:
        keys.close()
        screen.close()
    assert not keys.script
    # The first frame is the first menu with its keys (show_next), as each later one is.
    first = display.views[0]
    assert first.prompt.startswith(f"{PC1} PC 1: what now") and first.options
    expected = reference()
    mode = session.mode
    assert isinstance(mode, GensoFightMode)
    assert mode.fight.to_json() == expected.to_json()
    assert mode.fight.state == expected.state
    assert mode.journal == ["attack", "t:オーク1", "w:0", *mode.journal[3:]]
    # Every action's lines were on the screen, each roll with its terms.
    results = {step.text for v in display.views if v.fight for step in v.fight.result}
    for entry in expected.journal:  # the names with their English beside them
        assert {mode.with_english(line.text) for line in entry.lines} <= results
    attack = expected.journal[0].lines[0]
    assert attack.result is not None and attack.result.text in attack.text
    assert "(2D6+7>13) ＞" in attack.text
    assert shot.fight is not None and shot.fight.turn == "オーク1 Orc 1"
    assert [f.acting for f in shot.fight.fighters] == [False, False, True, False]
    # Saved: the table (finished) and the fight file, which `companion genso fight` reads.
    saved = FightSave.from_json(state.read_text(encoding="utf-8"))
    assert saved.finished and saved.inputs == mode.journal
    assert json.loads(path.read_text(encoding="utf-8")) == expected.to_json()


def test_buttons_drive_a_fight_in_the_terminal(tmp_path: Path) -> None:
    """The four buttons: ATTACK attacks the highlighted target with the highlighted weapon;
    ITEM moves the highlight to *GM*; the terminal shows the result lines with their terms."""
    buttons = Buttons()
    console = Console(file=io.StringIO(), width=200)
    display = Recorded(TerminalDisplay(console))
    presses = [(prompt_is(f"{PC1} PC 1: what"), ["attack"]), (prompt_is("Attack whom"), ["attack"]),
               (prompt_is("With which"), ["attack"]),
               (prompt_is(f"{PC2} PC 2: what"), ["item"] * 7 + ["attack"]),
               (prompt_is("GM: which"), ["item", "attack"]),
               (prompt_is("End the fight"), ["item", "attack"]),  # Back lit: one A goes back
               (prompt_is("The fight is over"), ["attack"])]

    def sleep(_: float) -> None:
        if presses and presses[0][0](display.views[-1]):
            buttons.press(*presses.pop(0)[1])

    session = table_session(RULES, fight_file(tmp_path), tmp_path / "table.json",
                            resume=False, seed=SEED, choices=buttons.choices(display, sleep),
                            display=display)
    buttons.run(session)
    assert not presses
    expected = new_fight()
    dice = SimulatedDice.seeded(SEED)
    for action in (Attack(PC1, "オーク1", 0), EndFight()):
        expected.push(action, dice)
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == expected.to_json()
    text = console.file.getvalue()  # type: ignore[attr-defined]
    for line in expected.journal[0].lines:  # the names with their English beside them
        assert session.mode.with_english(line.text) in text
        if line.result is not None:
            assert line.result.text in text  # e.g. (2D6+7>13) ＞ 7[2,5]+7=14 ＞ 成功/success
    assert "GM-COMBAT-2" in text and "Result 結果" in text and "▶" in text
    # Each step printed once: after an answer the frame was printed, then its menu printed
    # the same frame again, options and all, so every step read twice in a terminal.
    steps = [view for n, view in enumerate(display.views) if n == 0 or view != display.views[n - 1]]
    assert text.count("幻想迷宮冒険譚 Fight 戦闘\n") == len(steps) < len(display.views)


@pytest.mark.parametrize("cut", [1, 2, 4])
def test_a_resume_from_the_journal_equals_an_uninterrupted_fight(tmp_path: Path,
                                                                 cut: int) -> None:
    """A power cut between two throws of one attack (after its 2D6, before its 1D6), or
    between actions: `--resume` replays the table's journal, the half-thrown attack too, and
    the fight goes on with the dice it would have had; it ends exactly as an uninterrupted
    fight, and so do the save and the fight file."""
    whole = tmp_path / "whole"
    whole.mkdir()
    fight_file(whole)
    uninterrupted = play(whole, CHOICES)
    assert uninterrupted.done

    cut_dir = tmp_path / "cut"
    cut_dir.mkdir()
    fight_file(cut_dir)
    first = play(cut_dir, CHOICES, rolls=CutRolls(SEED, cut))
    assert not first.done
    saved = FightSave.from_json((cut_dir / "table.json").read_text(encoding="utf-8"))
    assert saved.inputs == first.journal and not saved.finished
    on_file = json.loads((cut_dir / "fight.json").read_text(encoding="utf-8"))
    assert on_file == first.fight.to_json()  # every finished action is in the fight file
    rest = CHOICES[sum(1 for i in first.journal if not i[0].isdigit()):]
    resumed = play(cut_dir, rest, resume=True)
    assert resumed.done
    assert resumed.fight.to_json() == uninterrupted.fight.to_json()
    assert resumed.journal == uninterrupted.journal
    for name in ("table.json", "fight.json"):
        a = json.loads((whole / name).read_text(encoding="utf-8"))
        b = json.loads((cut_dir / name).read_text(encoding="utf-8"))
        if name == "table.json":
            # the cut dice were a feed; a replayed fight writes its keys in another order
            for key in ("game_id", "fight_path", "input_kind", "fight_sha"):
                a.pop(key), b.pop(key)
        assert a == b


def test_undo_at_the_table_and_a_refused_spell(tmp_path: Path) -> None:
    """GM → Undo takes the last action back (the fight file too); a spell the caster cannot
    pay is refused with the rule, and the menu stays where it was."""
    fight = new_fight()
    fight.push(Attack(PC1, "オーク1", 0), SimulatedDice.seeded(1))
    write_fight_file(tmp_path / "fight.json", fight)
    mode = play(tmp_path, ["gm", "undo?", "undo"])
    assert mode.fight.journal == []
    assert json.loads((tmp_path / "fight.json").read_text(encoding="utf-8")) == \
        new_fight().to_json()
    short = replace(preset(RULES, "pc2"), mp=3)  # come into the fight short of MP
    broke = GensoFightMode(RULES, Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1"), short],
                                                            [("orc", 1)])))
    for choice in ("wait", "cast", "s:healing"):
        broke.restore(choice)
    with pytest.raises(IllegalAction, match="GM-MAGIC-1"):
        broke.restore("t:" + PC1)
    assert broke.path == ["cast", "s:healing"] and broke.journal[-1] == "s:healing"
    assert broke.fight.state.get(PC2).mp == 3 and len(broke.fight.journal) == 1


def test_a_resume_refuses_a_fight_file_changed_behind_its_back(tmp_path: Path) -> None:
    two_actions_then_a_stop(tmp_path)
    other = new_fight()
    other.push(EndFight(), SimulatedDice.seeded(0))
    write_fight_file(tmp_path / "fight.json", other)
    with pytest.raises(DataError, match="changed since the table saved it"):
        play(tmp_path, [], resume=True)


def test_a_resume_writes_an_unreadable_fight_file_again_from_the_table_save(
        tmp_path: Path) -> None:
    """The table save holds the whole fight: a fight file cut short or garbled is kept aside
    and written again, where the resume refused it as "changed" (and playing it without
    --resume then failed on it)."""
    first = two_actions_then_a_stop(tmp_path)
    path = tmp_path / "fight.json"
    whole = path.read_text(encoding="utf-8")
    path.write_text(whole[:200], encoding="utf-8")
    told: list[str] = []
    session = table_session(RULES, path, tmp_path / "table.json", resume=True, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == first.fight.to_json()
    assert json.loads(path.read_text(encoding="utf-8")) == first.fight.to_json()
    (kept,) = tmp_path.glob("fight.json.corrupt-*")
    assert kept.read_text(encoding="utf-8") == whole[:200]
    assert "could not be read" in told[0] and "written again from the table save" in told[0]


def test_an_unreadable_fight_file_s_whole_copy_a_cut_left_is_kept_and_named(
        tmp_path: Path) -> None:
    """A cut that left the fight file's last write whole in its temporary: kept beside the
    unreadable file, and named where the resume tells of it (review 54, #2)."""
    two_actions_then_a_stop(tmp_path)
    path = tmp_path / "fight.json"
    whole = path.read_text(encoding="utf-8")
    path.write_text(whole[:200], encoding="utf-8")
    left = tmp_path / ".fight.json.k3j9x2.tmp"
    left.write_text(whole, encoding="utf-8")
    cut = time.time() - 120
    os.utime(left, (cut, cut))
    told: list[str] = []
    table_session(RULES, path, tmp_path / "table.json", resume=True, seed=SEED,
                  choices=Player([]), tell=told.append)
    (copy,) = tmp_path.glob("fight.json.unwritten-*")
    assert copy.read_text(encoding="utf-8") == whole and not left.exists()
    assert f"which may hold the last write whole, was kept as {copy.name})" in told[0]


def test_a_table_save_that_does_not_replay_is_kept_aside_and_the_file_taken_up(
        tmp_path: Path) -> None:
    first = two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    saved = json.loads(state.read_text(encoding="utf-8"))
    saved["inputs"][0] = "zz"
    state.write_text(json.dumps(saved), encoding="utf-8")
    told: list[str] = []
    session = table_session(RULES, tmp_path / "fight.json", state, resume=True, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == first.fight.to_json()
    assert f"the table save {state} does not replay" in told[0] and "'zz'" in told[0]
    (kept,) = tmp_path.glob("table.json.corrupt-*")
    assert json.loads(kept.read_text(encoding="utf-8")) == saved


@pytest.mark.parametrize("resume", [True, False])
@pytest.mark.parametrize(("key", "value"), [("name", []), ("name", 5), ("monster", [1])])
def test_a_table_save_with_a_field_of_the_wrong_type_is_kept_aside_not_a_traceback(
        tmp_path: Path, resume: bool, key: str, value: object) -> None:
    """Valid JSON, a list or a number for an entrant's name or monster: every start of the
    table ended in a TypeError traceback until the save was deleted by hand. It is kept
    aside with a message, and the fight file taken up."""
    first = two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    saved = json.loads(state.read_text(encoding="utf-8"))
    entrant = 2 if key == "monster" else 0
    assert ("monster" in saved["fight"]["entrants"][entrant]) == (key == "monster")
    saved["fight"]["entrants"][entrant][key] = value
    state.write_text(json.dumps(saved), encoding="utf-8")
    told: list[str] = []
    session = table_session(RULES, tmp_path / "fight.json", state, resume=resume, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == first.fight.to_json()
    (kept,) = tmp_path.glob("table.json.corrupt-*" if resume else "table.json.replaced-*")
    assert json.loads(kept.read_text(encoding="utf-8")) == saved
    assert any(kept.name in t for t in told)
    if resume:
        assert f"entrant {entrant + 1}: {key} must be" in told[0]


def test_a_table_marked_over_while_its_fight_runs_is_kept_aside_not_replaced(
        tmp_path: Path) -> None:
    """Fuzz audit 2: a table save saying ``finished: true`` whose fight replays still asking
    (a hand edit, a damaged card) was replaced by the next table without a copy, its
    half-thrown action lost. It is kept aside as an unfinished table is, and said so."""
    first = two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    saved = {**json.loads(state.read_text(encoding="utf-8")), "finished": True}
    state.write_text(json.dumps(saved), encoding="utf-8")
    told: list[str] = []
    session = table_session(RULES, tmp_path / "fight.json", state, resume=False, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == first.fight.to_json()
    (kept,) = tmp_path.glob("table.json.replaced-*")
    assert json.loads(kept.read_text(encoding="utf-8")) == saved
    assert any("marked over but replaying to a fight still running" in t and kept.name in t
               for t in told)


def mark_over(state: Path) -> dict[str, Any]:
    """The table save at ``state`` said ``finished: true`` (a hand edit, a damaged card)."""
    saved = {**json.loads(state.read_text(encoding="utf-8")), "finished": True}
    state.write_text(json.dumps(saved), encoding="utf-8")
    return saved


def test_a_table_marked_over_while_its_fight_runs_plays_on_at_a_resume(
        tmp_path: Path) -> None:
    """Review 54 #1, the twin above under --resume (the boot service's start): the table was
    called "over and closed" (FightClosed), and once the GM made the next fight its save
    was replaced with no copy. It plays on, says so, and is saved unfinished."""
    first = two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    mark_over(state)
    told: list[str] = []
    session = table_session(RULES, tmp_path / "fight.json", state, resume=True, seed=SEED,
                            choices=Player(["wait"]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.journal == first.journal
    assert told == [f"the table save {state} was marked over, but its fight replays still "
                    "running: it plays on"]
    with pytest.raises(KeyboardInterrupt):
        session.run()
    now = FightSave.from_json(state.read_text(encoding="utf-8"))
    assert now.inputs == [*first.journal, "wait"] and not now.finished
    assert json.loads((tmp_path / "fight.json").read_text(encoding="utf-8")) == \
        session.mode.fight.to_json()
    assert not list(tmp_path.glob("table.json.*"))


def test_a_resume_of_a_table_marked_over_leaves_it_whole_when_the_file_is_the_next_fight(
        tmp_path: Path) -> None:
    """Review 54 #1 (/tmp/r54/t_resume.py): the GM made the next fight over a table marked
    over while its fight ran, and the resume replaced that save with no copy. The file is
    the GM's change, refused as for any unfinished table; its save stays as it was (a start
    without --resume keeps it aside)."""
    two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    mark_over(state)
    before = state.read_bytes()
    write_fight_file(tmp_path / "fight.json", new_fight())
    with pytest.raises(DataError, match="changed since the table saved it"):
        table_session(RULES, tmp_path / "fight.json", state, resume=True, seed=SEED,
                      choices=Player([]))
    assert state.read_bytes() == before and not list(tmp_path.glob("table.json.*"))


def test_resuming_another_fight_sets_aside_a_table_marked_over_while_it_runs(
        tmp_path: Path) -> None:
    """`play --resume --fight B` over a table of A marked over while A runs: A's save was
    replaced by B's with no copy. It is kept aside, said so, as an unfinished table is."""
    two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    saved = mark_over(state)
    other = tmp_path / "other"
    other.mkdir()
    fight_file(other)
    told: list[str] = []
    session = table_session(RULES, other / "fight.json", state, resume=True, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode) and session.mode.fight.journal == []
    (kept,) = tmp_path.glob("table.json.replaced-*")
    assert json.loads(kept.read_text(encoding="utf-8")) == saved
    assert any("marked over but replaying to a fight still running" in t and kept.name in t
               for t in told)


def test_a_closed_table_that_no_longer_replays_is_over_not_called_corrupt(
        tmp_path: Path) -> None:
    """Review 54 #6: a table closed at its end whose save no longer replays (other rules
    since, an edit) was kept aside as corrupt at the next start, with a "does not replay"
    warning about a fight that ended as it should. It is over: a resume says the fight is
    closed, and the next table replaces its save, nothing said, as for any closed table."""
    fight_file(tmp_path)
    assert play(tmp_path, CHOICES).done
    state = tmp_path / "table.json"
    saved = json.loads(state.read_text(encoding="utf-8"))
    assert saved["finished"]
    saved["inputs"][0] = "zz"
    state.write_text(json.dumps(saved), encoding="utf-8")
    told: list[str] = []
    with pytest.raises(FightClosed):
        table_session(RULES, tmp_path / "fight.json", state, resume=True, seed=SEED,
                      choices=Player([]), tell=told.append)
    table_session(RULES, tmp_path / "fight.json", state, resume=False, seed=SEED,
                  choices=Player([]), tell=told.append)
    assert told == [] and not list(tmp_path.glob("table.json.*"))
    assert not FightSave.from_json(state.read_text(encoding="utf-8")).finished


def test_a_table_closed_at_its_end_is_replaced_by_the_next_with_no_copy(
        tmp_path: Path) -> None:
    """A table whose fight was played to its end and closed holds nothing to play on: the
    next table's save replaces it, no copy kept and nothing said."""
    fight_file(tmp_path)
    assert play(tmp_path, CHOICES).done
    state = tmp_path / "table.json"
    assert FightSave.from_json(state.read_text(encoding="utf-8")).finished
    told: list[str] = []
    table_session(RULES, tmp_path / "fight.json", state, resume=False, seed=SEED,
                  choices=Player([]), tell=told.append)
    assert told == [] and not list(tmp_path.glob("table.json.*-*"))


def test_a_new_table_in_a_read_only_folder_names_the_folder_not_the_save(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unfinished table save in a folder that lets nothing be renamed: a new table ended
    in ".../table.json: Permission denied", though the file is readable and the folder is
    what cannot be changed. The folder is named, and what could not be done; nothing is
    lost (the save stays, and --resume plays it on)."""
    first = two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    before = state.read_bytes()
    with monkeypatch.context() as folder, pytest.raises(OSError) as refused:
        refuse_moving(state, folder, errno.EACCES)
        table_session(RULES, tmp_path / "fight.json", state, resume=False, seed=SEED,
                      choices=Player([]))
    assert refused.value.filename == str(tmp_path)
    assert refused.value.strerror.startswith(
        f"the unfinished table of {(tmp_path / 'fight.json').resolve()} saved in table.json "
        "cannot be kept aside for a new one: no file in this folder can be renamed "
        "(Permission denied); play it on (companion play --mode genso --resume --state "
        f"{state} --fight {(tmp_path / 'fight.json').resolve()}), or fix the folder")
    assert state.read_bytes() == before
    assert play(tmp_path, [], resume=True).fight.to_json() == first.fight.to_json()


def cut_before_the_last_write(folder: Path, on_file: dict[str, Any]) -> None:
    """The table's files as a cut between its last save and that action's fight-file
    write leaves them: the file one action behind, the save knowing it as last written."""
    sha = write_fight_file(folder / "fight.json", Fight.from_json(RULES, on_file))
    state = folder / "table.json"
    saved = json.loads(state.read_text(encoding="utf-8"))
    state.write_text(json.dumps({**saved, "fight_sha": sha}), encoding="utf-8")


def test_a_new_table_catches_up_the_action_a_cut_kept_from_the_fight_file(
        tmp_path: Path) -> None:
    """A cut after the table saved an action but before the fight file was written: taking
    the fight up without --resume used to drop that action while saying every finished
    action was in the fight file."""
    first = two_actions_then_a_stop(tmp_path)
    path = tmp_path / "fight.json"
    on_file = json.loads(path.read_text(encoding="utf-8"))
    assert len(on_file["journal"]) == 2
    on_file["journal"] = on_file["journal"][:-1]
    cut_before_the_last_write(tmp_path, on_file)
    told: list[str] = []
    session = table_session(RULES, path, tmp_path / "table.json", resume=False, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == first.fight.to_json()
    assert json.loads(path.read_text(encoding="utf-8")) == first.fight.to_json()
    assert "is now in" in told[0] and "every action it finished" in told[1]


def test_the_gms_undo_after_the_table_stopped_stays_undone(tmp_path: Path) -> None:
    """`genso fight undo` on the file of a stopped table is the GM's: neither a new table
    nor a resume puts the action back (it looked like the action a cut kept from the file),
    whatever the clock says (a Pi without a clock may boot with it behind)."""
    two_actions_then_a_stop(tmp_path)
    path = tmp_path / "fight.json"
    on_file = json.loads(path.read_text(encoding="utf-8"))
    on_file["journal"] = on_file["journal"][:-1]
    # As `genso fight undo` writes it: the very bytes the table wrote one action before.
    write_fight_file(path, Fight.from_json(RULES, on_file))
    saved_at = (tmp_path / "table.json").stat().st_mtime_ns
    os.utime(path, ns=(saved_at - 10**9, saved_at - 10**9))  # a clock set back since
    with pytest.raises(DataError, match="changed since the table saved it"):
        play(tmp_path, [], resume=True)
    told: list[str] = []
    session = table_session(RULES, path, tmp_path / "table.json", resume=False, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode)
    assert len(session.mode.fight.journal) == 1
    assert told == [told[0]] and "every action it finished" not in told[0]


def test_resuming_another_fight_sets_the_stopped_table_aside_caught_up(tmp_path: Path) -> None:
    """`play --resume --fight B` while the table save holds fight A unfinished: A's save was
    overwritten by B's (and the action a cut kept from A's file was lost)."""
    first = two_actions_then_a_stop(tmp_path)
    path = tmp_path / "fight.json"
    on_file = json.loads(path.read_text(encoding="utf-8"))
    on_file["journal"] = on_file["journal"][:-1]
    cut_before_the_last_write(tmp_path, on_file)
    other = tmp_path / "other"
    other.mkdir()
    fight_file(other)
    told: list[str] = []
    session = table_session(RULES, other / "fight.json", tmp_path / "table.json", resume=True,
                            seed=SEED, choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode) and session.mode.fight.journal == []
    assert json.loads(path.read_text(encoding="utf-8")) == first.fight.to_json()
    (kept,) = tmp_path.glob("table.json.replaced-*")
    assert json.loads(kept.read_text(encoding="utf-8"))["fight_path"] == str(path.resolve())
    assert any("every action it finished is in that fight file" in t for t in told)


def test_a_new_table_writes_an_unreadable_fight_file_again_from_the_stopped_table(
        tmp_path: Path) -> None:
    first = two_actions_then_a_stop(tmp_path)
    path = tmp_path / "fight.json"
    path.write_text("{garbage", encoding="utf-8")
    told: list[str] = []
    session = table_session(RULES, path, tmp_path / "table.json", resume=False, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == first.fight.to_json()
    assert "could not be read" in told[0] and "every action it finished" in told[1]
    (kept,) = tmp_path.glob("fight.json.corrupt-*")
    assert kept.read_text(encoding="utf-8") == "{garbage"


def test_play_mode_genso_needs_a_fight_and_a_player(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """No fight to take up: said on stderr, and on the screen, where the player at the table
    (the boot service's) looks; the screen was black, then closed, and the service started
    it again."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    assert main(["play", "--mode", "genso", "--display", "terminal", "--choices", "auto"]) != 0
    assert "a genso fight needs a display and a player" in capsys.readouterr().err
    shown: list[View] = []
    draw = ScreenDisplay.show
    monkeypatch.setattr(ScreenDisplay, "show",
                        lambda screen, view: (shown.append(view), draw(screen, view))[-1])
    monkeypatch.setattr(telling, "STOP_SHOWN_SECONDS", 0.2)  # nobody presses a key here
    assert main(["play", "--mode", "genso", "--display", "screen", "--choices", "keyboard",
                 "--dice", "sim"]) == 2
    err = capsys.readouterr().err
    assert "companion genso fight new" in err
    # The last line, the wait this terminal is told of, is for stderr: the screen is what
    # waits. Here no terminal's keys are read (not a tty), so the screen's A ends it.
    error, wait = err.rstrip("\n").rsplit("\n", 1)
    assert wait == ("companion: the error stays on the screen up to a minute: press A there, "
                    "or Ctrl-C here to end it")
    stopped = error.removeprefix("companion: error: ")
    assert shown[-1].prompt == f"Stopped 停止: {stopped}"
    assert [option.label for option in shown[-1].options] == ["OK 了解"]
    # Under the table's own title, as its fight screens (it bore JongRogue's).
    assert shown[-1].title == "幻想迷宮冒険譚 Fight 戦闘"


def test_play_mode_genso_in_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`companion genso fight new`, then `companion play --mode genso --dice sim` on a pty:
    pc1 attacks, the GM ends the fight, the table closes; `companion genso fight log` shows
    the table's attack."""
    fight, term = genso_table_in_a_terminal(tmp_path, monkeypatch,
                                            ["--dice", "sim", "--seed", str(SEED)])
    term.answer(f"{PC1} PC 1: what now", 1, b"a")
    term.answer("Attack whom", 1, b"a")
    term.answer("With which weapon", 1, b"a")
    term.answer(f"{PC2} PC 2: what now", 1, b"8")  # her Spell makes GM the 8th
    term.answer("GM: which step", 1, b"2")
    term.answer("End the fight", 1, b"2", 0.5)  # read: a 2 at once is the double's
    term.answer("The fight is over", 1, b"a")
    assert term.finish() == 0, term.proc.stderr.read() if term.proc.stderr else b""
    expected = new_fight()
    expected.push(Attack(PC1, "オーク1", 0), SimulatedDice.seeded(SEED))
    assert expected.journal[0].lines[0].text.split(": ")[-1] in term.text()
    saved = json.loads(fight.read_text(encoding="utf-8"))
    assert saved["journal"][0] == expected.journal[0].to_json()
    assert (tmp_path / "data" / "genso" / "table.json").exists()


#: After pc1's attack the GM calls two checks (§2.3): pc2 looks for a normally set trap (+1),
#: then pc1 and pc2 an opposed Body check, pc1 active, pc2 at −1; then the fight goes on as
#: CHOICES.
CHECK_CHOICES = [*CHOICES[:3], "gm", "check", "c:trap", "t:" + PC2, "d:normally_set", "m:1",
                 "gm", "check", "c:opposed", "t:" + PC1, "t:" + PC2, "a:body", "act:yes",
                 "m:0", "m:-1", *CHOICES[3:]]


def test_checks_at_the_table_and_a_resume_after_them(tmp_path: Path) -> None:
    """GM → Check 判定 rolls a check of §2.3 with the fight's dice (GM-CHECK-3 trap detection,
    GM-CHECK-5 opposed): who rolls defaults to whose turn it is, the result lines are the
    engine's own check with the same dice, terms and rule ID; the fight is unchanged; a power
    cut between the opposed check's two throws, then --resume, ends as an uninterrupted
    session."""
    attacked = tmp_path / "attacked"
    attacked.mkdir()
    fight_file(attacked)
    first = play(attacked, CHECK_CHOICES[:9])  # the attack, then the trap check
    dice = SimulatedDice.seeded(SEED)
    expected = new_fight()
    expected.push(ACTIONS[0], dice)
    trap = checks.trap_check(RULES, dice, preset(RULES, "pc2"), "normally_set", 1)
    assert first.fight.to_json() == expected.to_json()  # a check changes nothing
    shown = first.fight_view()
    assert shown.result_title == f"{PC2} PC 2 判定 check: 罠発見 trap detection"
    # each line beside its rule, which the line does not say twice
    assert trap.text.startswith("GM-CHECK-3 罠発見")
    assert [step.text for step in shown.result] == [
        first.with_english(line.removeprefix("GM-CHECK-3 ")) for line in trap.text.splitlines()]
    assert all(step.rule == "GM-CHECK-3" for step in shown.result)
    assert shown.result[0].text.startswith("罠発見")
    assert re.fullmatch(r"\(2D6\+\d+>12\) ＞ \d+\[\d,\d\]\+\d+=\d+ ＞ (成功/success|失敗/failure)",
                        trap.result.text), trap.result.text
    assert trap.result.text in [step.text for step in shown.result]
    # Who rolls: the party's sheets only (no orcs), whose turn it is highlighted.
    mode = GensoFightMode(RULES, new_fight())
    for choice in ("wait", "gm", "check", "c:general"):
        mode.restore(choice)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert [o.choice for o in ask.options] == ["t:" + PC1, "t:" + PC2, "back"]
    assert ask.options[ask.highlight].choice == "t:" + PC2

    whole = tmp_path / "whole"
    whole.mkdir()
    fight_file(whole)
    uninterrupted = play(whole, CHECK_CHOICES)
    assert uninterrupted.done
    opposed = next(e for e in uninterrupted.history() if isinstance(e, Checked)
                   and e.call.kind == "opposed").check
    reference_dice = SimulatedDice.seeded(SEED)
    plain = new_fight()
    plain.push(ACTIONS[0], reference_dice)
    checks.trap_check(RULES, reference_dice, preset(RULES, "pc2"), "normally_set", 1)
    assert opposed == checks.opposed_check(RULES, reference_dice, preset(RULES, "pc1"),
                                           preset(RULES, "pc2"), "body", active=True,
                                           b_modifier=-1)

    cut_dir = tmp_path / "cut"
    cut_dir.mkdir()
    fight_file(cut_dir)
    cut = len(first.thrown) + 1  # after pc1's throw of the opposed check, before pc2's
    stopped = play(cut_dir, CHECK_CHOICES, rolls=CutRolls(SEED, cut))
    assert not stopped.done and stopped.path[:2] == ["check", "c:opposed"]
    rest = CHECK_CHOICES[sum(1 for i in stopped.journal if not i[0].isdigit()):]
    resumed = play(cut_dir, rest, resume=True)
    assert resumed.done
    assert resumed.journal == uninterrupted.journal
    assert resumed.fight.to_json() == uninterrupted.fight.to_json()
    assert [e.to_json() for e in resumed.history()] == \
        [e.to_json() for e in uninterrupted.history()]
    for name in ("table.json", "fight.json"):
        a = json.loads((whole / name).read_text(encoding="utf-8"))
        b = json.loads((cut_dir / name).read_text(encoding="utf-8"))
        if name == "table.json":
            for key in ("game_id", "fight_path", "input_kind", "fight_sha"):
                a.pop(key), b.pop(key)
        assert a == b


def test_with_no_japanese_font_two_pcs_stay_apart() -> None:
    """A screen without a CJK font draws the English names alone: PC 1 and PC 2, not PC
    twice, and the turn and prompt name who acts (they were ': what now?')."""
    from companion.app.modes.genso import english, named
    from companion.hw.display.fonts import without_cjk
    from companion.systems.genso.combat import Role

    fight = new_fight()
    pcs = [c for c in fight.state.combatants if c.role is Role.PC]
    assert [english(RULES, fight, c) for c in pcs] == ["PC 1", "PC 2"]
    orc = next(c for c in fight.state.combatants if c.name == "オーク1")
    assert [without_cjk(named(RULES, fight, c)) for c in (*pcs, orc)] == [
        "PC 1", "PC 2", "Orc 1"]


def test_a_combat_move_at_the_table_leaves_the_action() -> None:
    """GM-COMBAT-1, GM-MOVE-1: after a combat move (戦闘移動) the same PC is asked for its
    action, and Move is no longer offered; the mode plays under the fight's own settings."""
    mode = GensoFightMode(RULES, new_fight())
    for choice in ("move", "m:combat"):
        mode.restore(choice)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt.startswith(f"{PC1} PC 1: what now")
    assert "move" not in [o.choice for o in ask.options]
    assert "attack" in [o.choice for o in ask.options]
    house = RULES.with_overrides({"GM-CHECK-1": {"manual_modifier": True}})
    fight = Fight(house, entrants_for(house, [preset(house, "pc1")], [("orc", 1)]))
    assert GensoFightMode(RULES, fight).rules.default("GM-CHECK-1", "manual_modifier") is True


def test_a_normal_move_leaves_only_what_the_engine_allows() -> None:
    """GM-MOVE-1, GM-COMBAT-6: with the Default full_dodge_after_normal_move, a normal move
    (通常移動) leaves the turn to a full dodge, flight or waiting; the menu offers no Attack,
    Spell or Stone for the engine to refuse (移動後は攻撃不能かつ魔法は使用不能). By the Default
    off, a normal move is the turn."""
    on = RULES.with_overrides({"GM-MOVE-1": {"full_dodge_after_normal_move": True}})
    mode = GensoFightMode(on, Fight(on, entrants_for(on, [preset(on, "pc1"), preset(on, "pc2")],
                                                     [("orc", 1)])))
    for choice in ("wait", "move", "m:normal"):  # pc2 knows Healing
        mode.restore(choice)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt.startswith(f"{PC2} PC 2: what now")
    assert [o.choice for o in ask.options] == ["dodge", "wait", "flee?", "gm"]
    for refused in ("attack", "full", "cast", "stone", "move"):
        with pytest.raises(IllegalAction, match="not among the choices"):
            mode.restore(refused)
    mode.restore("dodge")
    assert mode.fight.journal[-1].action == Dodge(PC2)
    ask = mode.ask()  # the orc's turn: no move made, so every action again
    assert isinstance(ask, ChoiceAsk) and "attack" in [o.choice for o in ask.options]
    off = GensoFightMode(RULES, new_fight())
    for choice in ("move", "m:normal"):
        off.restore(choice)
    ask = off.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt.startswith(f"{PC2} PC 2: what now")
    assert {"attack", "cast", "move"} <= {o.choice for o in ask.options}


FAIRY, KNIGHT = "一般的な森妖精の冒険者", "騎士（男性）"


def exorcised_sword() -> GensoFightMode:
    """The forest fairy puts Exorcism on the knight's sword at the table (GM-MAGIC-3), and
    a round later Protection on him; the fairy's turn again."""
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "forest_fairy"),
                                              preset(RULES, "knight_m")], [("orc", 1)]))
    mode = GensoFightMode(RULES, fight)
    for choice in ("cast", "s:exorcism", f"w:{KNIGHT}:0", "wait", "wait",
                   "cast", "s:protection", f"t:{KNIGHT}", "wait", "wait", "cast", "s:dispel"):
        mode.restore(choice)
    return mode


def test_a_dispel_at_the_table_on_a_weapons_exorcism() -> None:
    """GM-MAGIC-4, GM-MAGIC-3: the Dispel's targets name each weapon that carries a spell
    with the spell on it; picked, the Dispel is the engine's Cast(weapon=N) and cancels the
    sword's Exorcism, leaving the Protection on the knight (it is older than that)."""
    mode = exorcised_sword()
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt.startswith("On whom")
    labels = {o.choice: o.label for o in ask.options}
    assert labels[f"w:{KNIGHT}:0"] == f"Knight (male) {KNIGHT}: 剣/Sword (退魔呪 Exorcism)"
    assert f"w:{KNIGHT}:1" not in labels and f"w:{FAIRY}:0" not in labels  # nothing on them
    mode.restore(f"w:{KNIGHT}:0")
    entry = mode.fight.journal[-1]
    assert entry.action == Cast(FAIRY, "dispel", (KNIGHT,), 0)
    assert f"退魔呪/Exorcism by {FAIRY} on {KNIGHT}'s 剣/Sword is cancelled" in entry.text
    knight = mode.fight.state.get(KNIGHT)
    assert not knight.enchanted(0) and knight.has("protection")


def test_a_dispel_at_the_table_on_the_being_leaves_its_weapons_exorcism() -> None:
    """GM-MAGIC-4: a Dispel on the knight himself cancels the Protection on him and leaves
    his sword's Exorcism, which the next Dispel's menu still offers on its own."""
    mode = exorcised_sword()
    mode.restore(f"t:{KNIGHT}")
    entry = mode.fight.journal[-1]
    assert entry.action == Cast(FAIRY, "dispel", (KNIGHT,))
    assert f"防護呪/Protection by {FAIRY} on {KNIGHT} is cancelled" in entry.text
    knight = mode.fight.state.get(KNIGHT)
    assert knight.enchanted(0) and not knight.has("protection")
    for choice in ("wait", "wait", "cast", "s:dispel"):
        mode.restore(choice)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert f"w:{KNIGHT}:0" in [o.choice for o in ask.options]


def throw_prompts(mode: GensoFightMode, picks: list[str],
                  throws: list[tuple[int, ...]]) -> list[str]:
    """The prompts of the throws of the action ``picks`` make, thrown ``throws``."""
    from companion.app.session.mode import RollAsk, Throw
    from companion.app.session.rolls import throw_prompt

    for key in picks:
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk), ask
        mode.answer([o.choice for o in ask.options].index(key))
    prompts = []
    for faces in throws:
        ask = mode.ask()
        assert isinstance(ask, RollAsk), ask
        prompts.append(throw_prompt(ask))
        mode.answer(Throw(faces))
    assert isinstance(mode.ask(), ChoiceAsk)
    return prompts


def test_every_throw_of_an_action_says_what_it_is_for() -> None:
    """docs/playing.md: the companion asks "2D6 to hit or defend, then the weapon's dice".
    The to-hit throw and the damage throw of one attack had the same prompt word for word
    ("…: 駆け出し冒険者１ → オーク1 攻撃 attack" twice): each names its roll now, the damage
    its weapon and dice; an Orc's attack asks for the defence 防御 (GM-COMBAT-3), an attack
    on a PC both sides' rolls (GM-COMBAT-4), an opposed check whose roll it is."""
    mode = GensoFightMode(RULES, new_fight())
    hit, damage = throw_prompts(mode, ["attack", "t:オーク1", "w:1"], [(6, 6), (3, 3)])
    action = f"{PC1} PC 1 → オーク1 Orc 1 攻撃 attack"
    assert hit == f"Throw 2D6 in the dice area 2D6を振って: to hit 命中 — {action}"
    assert damage == ("Throw 2D6 in the dice area 2D6を振って: damage ダメージ with "
                      f"小刀/Knife 2D6-4 — {action}")
    throw_prompts(mode, ["wait"], [])
    defence, orc_damage = throw_prompts(mode, ["attack", f"t:{PC1}"], [(1, 1), (3,)])
    assert defence.endswith(f": {PC1} PC 1's defence 防御 — オーク1 Orc 1 → {PC1} PC 1 攻撃 attack")
    assert "damage ダメージ with 棍棒/Club 1D6 — " in orc_damage

    from companion.systems.genso.combat import Entrant, Side
    duel = GensoFightMode(RULES, Fight(RULES, [
        Entrant.of_character(preset(RULES, "pc1")),
        Entrant.of_character(preset(RULES, "pc2"), Side.ENEMY)]))
    attack, parry = throw_prompts(duel, ["attack", f"t:{PC2}", "w:0"], [(1, 1), (6, 6)])
    assert f"{PC1} PC 1's attack roll 命中 — " in attack
    assert f"{PC2} PC 2's defence roll 防御 — " in parry

    first, second = throw_prompts(mode, ["gm", "check", "c:opposed", f"t:{PC1}", f"t:{PC2}",
                                         "a:body", "act:yes", "m:0", "m:0"], [(1, 1), (2, 2)])
    assert f": {PC1} PC 1's roll 出目 — " in first
    assert f": {PC2} PC 2's roll 出目 — " in second


def table_files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("resume", [False, True])
@pytest.mark.parametrize(("name", "text", "error"), [
    ("nonexist.json", None, "no fight at"),
    ("my.toml", 'party = ["pc1"]\n', "not JSON"),
    ("coc.json", '{"system": "coc", "entrants": []}', "not a saved genso fight"),
])
def test_a_fight_file_that_cannot_be_read_sets_no_table_aside(
        tmp_path: Path, resume: bool, name: str, text: str | None, error: str) -> None:
    """`play --mode genso --fight <misspelt>` (or --resume with it) while another fight's
    table stopped unfinished: that table's save was set aside (table.json.replaced-*) before
    the misspelt file failed, and a later --resume of the real fight had lost its journal."""
    first = two_actions_then_a_stop(tmp_path)
    wrong = tmp_path / "elsewhere" / name
    wrong.parent.mkdir()
    if text is not None:
        wrong.write_text(text, encoding="utf-8")
    before = table_files(tmp_path)
    told: list[str] = []
    with pytest.raises(DataError, match=error):
        table_session(RULES, wrong, tmp_path / "table.json", resume=resume, seed=SEED,
                      choices=Player([]), tell=told.append)
    assert table_files(tmp_path) == before
    assert not any("kept as" in t for t in told)
    resumed = table_session(RULES, tmp_path / "fight.json", tmp_path / "table.json",
                            resume=True, seed=SEED, choices=Player([]))
    assert isinstance(resumed.mode, GensoFightMode)
    assert resumed.mode.journal == first.journal
    assert resumed.mode.fight.to_json() == first.fight.to_json()


def test_an_unreadable_fight_file_its_own_table_cannot_mend_sets_nothing_aside(
        tmp_path: Path) -> None:
    """Without --resume, the stopped table of the same fight file writes an unreadable file
    again; when that table does not replay either, nothing is set aside before the error."""
    two_actions_then_a_stop(tmp_path)
    (tmp_path / "fight.json").write_text("{garbage", encoding="utf-8")
    state = tmp_path / "table.json"
    saved = json.loads(state.read_text(encoding="utf-8"))
    saved["inputs"][0] = "zz"
    state.write_text(json.dumps(saved), encoding="utf-8")
    before = table_files(tmp_path)
    with pytest.raises(DataError, match="not JSON"):
        table_session(RULES, tmp_path / "fight.json", state, resume=False, seed=SEED,
                      choices=Player([]))
    assert table_files(tmp_path) == before


def test_play_with_a_misspelt_fight_keeps_the_stopped_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The command as the player types it: the error, and no table.json.replaced-*."""
    data = tmp_path / "data"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    assert main(["genso", "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2"]) == 0
    folder = data / "genso"
    play(folder, ["attack", "t:オーク1", "w:0", "wait"])
    before = table_files(folder)
    capsys.readouterr()
    code = main(["play", "--mode", "genso", "--fight", str(tmp_path / "nonexist.json"),
                 "--dice", "sim", "--display", "screen", "--choices", "keyboard"])
    err = capsys.readouterr().err
    assert code != 0 and "no fight at" in err and "kept as" not in err
    assert table_files(folder) == before


def test_an_opposed_check_at_the_table_asks_each_sides_modifier() -> None:
    """GM-CHECK-5 (seed l.1138) 「Aの能力値＋２Ｄ＋修正値＞Ｂの能力値＋２Ｄ＋修正値」: the
    table asked one modifier, A's; B's is asked after it, by name, and both are rolled and
    shown with their terms."""
    mode = GensoFightMode(RULES, new_fight())
    for choice in ("gm", "check", "c:opposed", f"t:{PC1}", f"t:{PC2}", "a:body", "act:yes",
                   "m:2"):
        mode.restore(choice)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt == f"Modifier ({PC2})? {PC2}の修正値は？"
    assert [o.choice for o in ask.options][:4] == ["m:0", "m:1", "m:2", "m:3"]
    for choice in ("m:-3", "1,1", "2,2"):
        mode.restore(choice)
    checked = next(e for e in mode.history() if isinstance(e, Checked))
    assert checked.call.modifier == 2 and checked.call.vs_modifier == -3
    assert checked.to_json()["call"]["vs_modifier"] == -3
    lines = checked.check.text.splitlines()
    assert lines[1] == f"{PC1}: 2D + 体力/Body 6 + 修正/modifier 2: (2D6+8) ＞ 2[1,1]+8=10"
    assert lines[2] == f"{PC2}: 2D + 体力/Body 5 + 修正/modifier -3: (2D6+2) ＞ 4[2,2]+2=6"


@pytest.mark.parametrize("mode", ["genso", "coc"])
def test_a_table_with_no_fight_says_so_before_asking_about_the_dice(
        mode: str, tmp_path: Path) -> None:
    """modes74 NIT 6: `play --mode genso` with the dice camera and no fight file asked
    "Type the dice?" (no camera here), and its answer led to "no fight at … yet"."""
    from companion.app.cli import build_parser
    from companion.app.commands.play.table_modes import run_coc, run_genso
    from companion.app.config import load_config
    from companion.hw.buttons import Press
    from tests.app.table import PlayerAtTheScreen

    args = build_parser("play").parse_args(["play", "--mode", mode])
    config = load_config(env={"COMPANION_CONFIG_DIR": str(tmp_path)},
                         overrides={"dice.source": "camera", "input.poll_seconds": 0.005})
    class NoAnswer(PlayerAtTheScreen):
        def poll(self) -> list[Press]:
            raise AssertionError(f"asked first: {self.views[-1].prompt if self.views else ''}")

    screen = NoAnswer([])
    run = run_genso if mode == "genso" else run_coc
    with pytest.raises(DataError, match=f"no fight at .*{mode}.fight.json yet"):
        run(args, config, screen, Controls([screen]), None)  # type: ignore[arg-type]
    assert screen.views == []  # nothing asked first
