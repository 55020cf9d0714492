"""events74 RISK 2: a value the player's events.toml sets wrong (``EV-DOOR-3.enabled =
"yes"``) stops only what reads that rule, with the file, key and value named; it stopped
every ``companion events`` action and the whole dice tray (a switch to it from a game
ended ``companion play``), and ``config --show`` with ``play.mode = "dice"`` said nothing."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.events import OVERRIDES_NAME, WALKED, load_user_rules
from companion.app.commands.play import table_modes
from companion.app.commands.play.table_modes import run_dice_tray
from companion.app.config import load_config
from companion.app.modes import dice_tray
from companion.app.modes.dice_tray import (
    NO_ROLL,
    RULES_REFUSED,
    DiceTrayMode,
    Stage,
    table_path,
)
from companion.app.paths import config_dir
from companion.app.poisons import PoisonList, poisons_path
from companion.app.session.controls import Controls
from companion.app.session.mode import ChoiceAsk, Throw
from companion.app.session.system_menu import SystemMenu
from companion.systems.defaults import RuleRefused
from companion.systems.events import rules as event_rules
from companion.systems.events import run as event_run
from tests.app.table import PlayerAtTheScreen
from tests.systems.events.helpers import PARTY_FILE, VITALITY_DAMAGE, _events

BAD = '[defaults."EV-DOOR-3"]\nenabled = "yes"\n'
TABLES, TICK, DOOR = 1, 2, 0  # the menu with one roll: Roll 1D6, Tables, Tick; door first


def _events_toml(text: str) -> Path:
    """The player's events.toml in the config folder, holding ``text``."""
    path = config_dir() / OVERRIDES_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _vitality_damage_tracked() -> None:
    """A vitality-damage poison on the poison list, as `events poison` leaves it."""
    poisons_path().parent.mkdir(parents=True)
    poisons_path().write_text(VITALITY_DAMAGE, encoding="utf-8")


@pytest.fixture
def bad_events_toml() -> str:
    """events.toml with EV-DOOR-3.enabled = "yes"; the error as it names file, key, value."""
    path = _events_toml(BAD + '[defaults."EV-POI-2"]\nhours_per_tick = 2\n')
    return f'{path}: EV-DOOR-3.enabled must be true or false, found "yes"'


@pytest.fixture(autouse=True)
def no_tray_held(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_modes, "_TRAY_LEFT", {})


def test_the_actions_that_read_no_door_rule_go_on_and_say_the_file_s_error(
        bad_events_toml: str, capsys: pytest.CaptureFixture[str]) -> None:
    """end-block (its other rules from the file kept: 2 h a tick), party, rooms, poisoned
    and a monster table: each exited 2 on the door's option."""
    _vitality_damage_tracked()
    for words in (["end-block"], ["party"], ["rooms"], ["poisoned"],
                  ["monster", "--seed", "1"]):
        code, _, err = _events(capsys, *words)
        assert code == 0, words
        assert err == (f"companion: {bad_events_toml}: what reads EV-DOOR-3 waits until it "
                       "is mended\n")
    assert main(["events", "end-block"]) == 0
    assert "poisons tick once (2 h)" in capsys.readouterr().out


def test_a_table_that_can_come_to_the_rule_is_refused_naming_file_key_and_value(
        bad_events_toml: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The door's trap (face 1 or 6) reads EV-DOOR-3: the door is refused before its
    first die, whatever it would roll (reviewe74 DEFECT 2); defaults lists every rule."""
    for seed in ("2", "3"):  # a trapped door, and one that reads no EV-DOOR-3
        code, _, err = _events(capsys, "door", "--seed", seed)
        assert code == 2
        assert err.splitlines()[-1] == (
            f"companion: error: {bad_events_toml}: the door table can come to EV-DOOR-3, so "
            "it is not rolled until that is mended (no die thrown)")
    code, _, err = _events(capsys, "defaults")
    assert code == 2 and err == f"companion: error: {bad_events_toml}\n"


def test_a_file_that_is_not_toml_keeps_out_every_rule_not_the_party_actions(
        capsys: pytest.CaptureFixture[str]) -> None:
    _events_toml("[defaults\n")
    rules = load_user_rules([])
    with pytest.raises(RuleRefused, match="not TOML"):
        rules.settings["EV-POI-2", "hours_per_tick"]
    code, _, err = _events(capsys, "party")
    assert code == 0 and "not TOML" in err


@pytest.mark.usefixtures("bad_events_toml")
def test_the_tray_starts_rolls_and_ticks_and_a_door_stops_with_its_throw_kept() -> None:
    _vitality_damage_tracked()
    mode = DiceTrayMode(("1D6",), "typed 入力", load_user_rules([]),
                        PoisonList(poisons_path()))
    assert mode.dice.steps[0].text.startswith("events.toml refused 設定に誤り: ")
    mode.answer(0)
    mode.answer(Throw((4,)))
    assert mode.reading.endswith("4")
    mode.answer(1)  # Menu
    mode.answer(TICK)
    mode.answer(0)  # End block
    assert any("1 HP lost (1/3)" in s.text for s in mode.dice.steps)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    mode.answer([o.label for o in ask.options].index("Back 戻る"))
    mode.answer(TABLES)
    # (the tray's words read from its module: the code before them fails each test, not
    # this module's collection)
    waiting = dice_tray.RULES_WAITING
    assert mode.dice.steps[0].text == f"1. 扉 Door — {waiting}"
    assert not mode.dice.steps[2].text.endswith(waiting)  # the monster table
    mode.answer(DOOR)  # refused before its first die (reviewe74 DEFECT 2)
    assert "EV-DOOR-3.enabled must be true or false" in mode.note
    assert mode.throws == [] and not mode.resume
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt == dice_tray.RULES_STOPPED  # not NO_ROLL


@pytest.mark.usefixtures("bad_events_toml")
def test_play_mode_dice_starts_and_says_it_on_its_status_line() -> None:
    """run_dice_tray exited 2 before its first screen (from a game's System menu it ended
    the run)."""
    screen = PlayerAtTheScreen([("Dice tray ダイストレイ: roll dice", "0"),
                                ("Type the D6", "3"), ("1D6: total", "1")])
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005,
                                    "dice.expressions": "1D6"})
    controls = Controls([screen])
    with pytest.raises(KeyboardInterrupt):
        run_dice_tray(config, screen, controls, None, SystemMenu(controls, "dice", 0.0, ""))
    assert screen.views[0].status == RULES_REFUSED
    assert "1D6: total 合計 3" in screen.prompts()


def test_config_show_with_the_tray_marks_the_file_s_error(
        bad_events_toml: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "--show", "--set", "play.mode=dice"]) == 1
    out, err = capsys.readouterr()
    assert (f"{bad_events_toml}: what reads EV-DOOR-3 waits until it is mended; the dice "
            "tray (play --mode dice) starts, and its tables that read it stop") in err
    assert "events.toml refused: tables reading it stop" in out
    assert main(["config", "--show"]) == 0  # the game reads no events.toml


def _trap_two_refused() -> str:
    path = _events_toml('[defaults."EV-TRAP-2"]\nlevel_reduction = "no"\n')
    return f'{path}: EV-TRAP-2.level_reduction must be true or false, found "no"'


def _party_file(tmp_path: Path) -> str:
    party = tmp_path / "party.toml"
    party.write_text(PARTY_FILE, encoding="utf-8")
    return str(party)


def test_a_typed_door_that_can_come_to_a_refused_trap_rule_takes_no_die(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewe74 DEFECT 2's repro: the door 6, the disarm 1ゾロ and the trap 3 were taken,
    then the run stopped "awaiting" the trap's die it had taken."""
    why = _trap_two_refused()
    stdin = io.StringIO("6\n1 1\n3\n4 4\n5 5\n")
    monkeypatch.setattr(sys, "stdin", stdin)
    code, out, err = _events(capsys, "door", "--mode", "sw", "--party",
                             _party_file(tmp_path), "--dice", "typed")
    assert code == 2 and out == "" and WALKED not in err
    assert err.splitlines()[-1] == (
        f"companion: error: {why}: the door table can come to EV-TRAP-2, so it is not "
        "rolled until that is mended (no die thrown)")
    assert stdin.read() == "6\n1 1\n3\n4 4\n5 5\n"  # no die was read
    code, _, _ = _events(capsys, "monster", "--seed", "1")  # it cannot come to EV-TRAP
    assert code == 0


def test_a_walk_stopped_late_on_a_refused_rule_lists_the_throws_taken(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The late stop, the backstop of a reach list that missed a rule: the last line lists
    the faces taken, the trap's 3 too, not "(awaiting …)" a die already taken; and the
    error that ends the run does not say "the rest goes on"."""
    why = _trap_two_refused()
    monkeypatch.setitem(event_rules.REACHES, "door", ("§1", "EV-CORE", "EV-DOOR"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("6\n1 1\n3\n4 4\n5 5\n"))
    code, _, err = _events(capsys, "door", "--mode", "sw", "--party", _party_file(tmp_path),
                           "--dice", "typed")
    lines = err.splitlines()
    assert code == 2
    at = next(i for i, line in enumerate(lines) if line.endswith(WALKED))  # after a prompt
    assert lines[at + 5].lstrip().startswith("EV-TRAP-1  罠/Trap: (1D6) ＞ 3 ＞")
    assert lines[-2] == ("(throws taken 振った目: 6; 1,1; 3; stopped on events.toml, not on "
                         "a die)")
    assert lines[-1] == (f"companion: error: {why}; what reads EV-TRAP-2 waits until it is "
                         "mended")


def _poison_ten_refused() -> Path:
    path = _events_toml('[defaults."EV-POI-10"]\nenabled = "no"\n')
    return path


def _tray() -> DiceTrayMode:
    return DiceTrayMode(("1D6",), "typed 入力", load_user_rules([]),
                        PoisonList(poisons_path()), table_file=table_path())


def test_a_tray_table_saved_stopped_on_events_toml_is_held_not_kept_aside_as_corrupt(
        ) -> None:
    """reviewe74 DEFECT 1: a poison table saved (by the tray before the check up front)
    with its 4 and 5 taken, stopped on EV-POI-10: the start set it aside as corrupt, its
    throws lost, and said "No roll … throw again" for a roll that was taken."""
    path = _poison_ten_refused()
    poisons_path().parent.mkdir(parents=True, exist_ok=True)
    table_path().parent.mkdir(parents=True, exist_ok=True)
    note = (f'{path}: EV-POI-10.enabled must be true or false, found "no"; what reads '
            "EV-POI-10 waits until it is mended, the rest goes on")
    table_path().write_text(json.dumps({"version": 1, "table": {
        "table": "poison", "expression": None, "throws": [[4], [5]], "stage": "outcome",
        "resume": True, "held": False, "note": note, "poisons": None}}), encoding="utf-8")
    mode = _tray()
    mode.take_up_saved()
    assert mode.throws == [(4,), (5,)] and mode.trouble == ""
    assert not list(table_path().parent.glob("tray.json.corrupt*"))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt == dice_tray.RULES_STOPPED_KEPT != NO_ROLL
    assert mode.dice.steps[0].text == "Throws kept 振った分は保持: 4; 5"
    # reviewe74b RISK 3: the throws were taken, so not "(no die thrown)"; Again walked the
    # same throws to the same stop: only Menu, which the prompt says drops them
    assert mode.dice.steps[1].text.endswith(event_run.THROWS_KEPT)
    assert "(no die thrown)" not in mode.dice.steps[1].text
    assert [o.label for o in ask.options] == [dice_tray.MENU_LABEL]
    assert "Menu drops them 破棄" in ask.prompt
    saved = json.loads(table_path().read_text(encoding="utf-8"))["table"]
    assert saved["refused"] is True and saved["throws"] == [[4], [5]]

    path.unlink()  # mended: the next start finishes the table, its poison tracked
    mended = _tray()
    mended.take_up_saved()
    ask = mended.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt == "毒 Poison: the table's outcome 結果"
    assert mended.report is not None and mended.report.finished
    assert len(PoisonList(poisons_path()).poisons) == 1
    assert json.loads(table_path().read_text(encoding="utf-8"))["table"] is None
    assert not list(table_path().parent.glob("tray.json.corrupt*"))
    again = _tray()  # taken up once: no table left to track its poison twice
    again.take_up_saved()
    assert again.stage is Stage.MENU and len(PoisonList(poisons_path()).poisons) == 1


def test_a_misspelt_rule_id_refuses_the_whole_file_saying_the_rule_meant(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewe74 RISK 3: EV-DOOR-9 (for EV-DOOR-4) was said to make what reads it "wait",
    which nothing reads, and the tables ran with EV-DOOR-4 at its Default. Refused whole,
    as coc.toml and genso.toml refuse a rule ID no Default has: the setting meant is not
    known. The party's own actions read no rule, and go on."""
    path = _events_toml('[defaults."EV-DOOR-9"]\nenabled = true\n')
    # said once, the refusal's error alone (reviewe74b NITs 1 and 2: the note said the same
    # before it, and "a rule no Default has" said again what "no Default" had)
    why = (f"{path}: no Default is kept for rule 'EV-DOOR-9' (did you mean 'EV-DOOR-4'?): "
           "the whole file is refused")
    code, out, err = _events(capsys, "monster", "--seed", "1")
    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"companion: error: {why}: the monster table is not rolled until that is mended "
        "(no die thrown)"]
    code, _, err = _events(capsys, "party")
    assert code == 0 and err.splitlines() == [
        f"companion: {why}: every table, and end-block, rest, cure and act, wait until it "
        "is mended"]


@pytest.mark.usefixtures("bad_events_toml")
def test_a_value_set_for_the_run_wins_over_the_file_s_refused_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewe74 NIT 1: --set EV-DOOR-3.enabled=true still ended with the file's error."""
    code, out, _ = _events(capsys, "door", "--seed", "2", "--set", "EV-DOOR-3.enabled=true")
    assert code == 0 and "EV-DOOR-1" in out


@pytest.mark.parametrize("text", [
    '[defaults."EV-DOOR-9"]\nenabled = true\n',  # misspelt: the whole file refused
    '[defaults."EV-POI-2"]\nhours_per_tick = "x"\n',  # the tick's own rule
])
def test_tick_on_a_refused_tick_rule_says_it_and_the_tray_stays_up(text: str) -> None:
    """reviewe74b DEFECT 1: Tick → End block ended the whole dice tray (exit 2) on a rule
    events.toml refused that a tick reads. Tick is marked on the menu as the tables are,
    and a tick refused says so on its screen, nothing ticked; the tray goes on."""
    path = _events_toml(text)
    _vitality_damage_tracked()
    screen = PlayerAtTheScreen([
        ("Dice tray ダイストレイ: roll dice", "2"),  # Tick
        ("Poisons 毒の経過", "0"),  # End block
        ("Poisons 毒の経過", "2"),  # Back
        ("Dice tray ダイストレイ: roll dice", "0"), ("Type the D6", "3"), ("1D6: total", "1")])
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005,
                                    "dice.expressions": "1D6"})
    controls = Controls([screen])
    with pytest.raises(KeyboardInterrupt):  # the script run out, not an exit on the error
        run_dice_tray(config, screen, controls, None, SystemMenu(controls, "dice", 0.0, ""))
    menu = screen.views[0].dice
    assert menu is not None
    assert f"{dice_tray.POISONS} — {dice_tray.RULES_WAITING}" in [s.text for s in menu.steps]
    ticked = next(v for v in screen.views if v.status == dice_tray.TICK_REFUSED)
    assert ticked.dice is not None
    assert ticked.dice.steps[0].text.startswith(f"events.toml refused 設定に誤り: {path}: ")
    assert ticked.dice.steps[0].text.endswith("(no time passed, nothing written)")
    assert "1D6: total 合計 3" in screen.prompts()
    assert PoisonList(poisons_path()).poisons["Ben"].damage_done == 0  # nothing ticked


def test_a_good_file_leaves_tick_unmarked() -> None:
    poisons_path().parent.mkdir(parents=True)
    mode = DiceTrayMode(("1D6",), "typed 入力", load_user_rules([]), PoisonList(poisons_path()))
    assert not any(s.text.startswith(dice_tray.POISONS) for s in mode.dice.steps)


@pytest.mark.parametrize("action", [["cure", "--who", "Ben"], ["end-block"],
                                    ["rest", "--hours", "2"]])
def test_a_poison_action_on_a_refused_rule_writes_nothing_and_says_it_once(
        action: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """reviewe74b DEFECT 2: `cure` kept the cure, then exited 2 on EV-POI-10 ("waits until
    it is mended"): the poison gone from the list, its HP line never said. Each poison
    action that reads rules is refused before it writes, the poison list as it was."""
    path = _events_toml('[defaults."EV-POI-10"]\nenabled = "yes"\n')
    _vitality_damage_tracked()
    code, out, err = _events(capsys, *action)
    assert code == 2 and out == ""
    assert poisons_path().read_text(encoding="utf-8") == VITALITY_DAMAGE
    what = ("the cure (EV-POI-1) can come to EV-POI-10, so it is not kept until that is "
            "mended (the poison stays tracked)" if action[0] == "cure" else
            "the poisons' tick (EV-POI-2: end-block, rest, the dice tray's Tick) can come to "
            "EV-POI-10, so it does not run until that is mended (no time passed, nothing "
            "written)")
    assert err.splitlines() == [
        f'companion: error: {path}: EV-POI-10.enabled must be true or false, found "yes": '
        f"{what}"]
    path.unlink()  # mended: the cure is kept, and said
    code, out, _ = _events(capsys, "cure", "--who", "Ben")
    assert code == 0 and out.startswith("Ben's 生命力ダメージ/Vitality damage is cured")


def test_a_door_refused_is_said_once(bad_events_toml: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """reviewe74b NIT 1: the note said the fault, then the error said it again."""
    code, _, err = _events(capsys, "door", "--seed", "1")
    assert code == 2 and err.count("EV-DOOR-3.enabled must be true or false") == 1


def test_trap_with_a_disarmer_named_is_refused_up_front_on_ev_door_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewe74b RISK 1: `trap --who NAME` reads EV-DOOR-2 (thief_only): refused with the
    up-front words, no die read; the late backstop said "waits until it is mended"."""
    _events_toml('[defaults."EV-DOOR-2"]\nthief_only = "no"\n')
    stdin = io.StringIO("3\n4\n")
    monkeypatch.setattr(sys, "stdin", stdin)
    code, _, err = _events(capsys, "trap", "--mode", "sw", "--party", _party_file(tmp_path),
                           "--who", "Aki", "--dice", "typed")
    assert code == 2 and stdin.tell() == 0
    assert err.splitlines()[-1].endswith(
        "the trap table can come to EV-DOOR-2, so it is not rolled until that is mended "
        "(no die thrown)")


@pytest.mark.parametrize("action", [["cure", "--who", "Ben"], ["end-block"],
                                    ["rest", "--hours", "2"]])
def test_a_poison_rule_the_action_never_reads_does_not_stop_it(
        action: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """finala74 NIT 1: the tick and the cure reached the whole EV-POI chapter, so a slip in
    EV-POI-5 (the act check's penalty, which neither reads) refused them, saying they could
    come to it. They reach the rules they read: EV-POI-2 and 10, EV-POI-10 and 11."""
    _events_toml('[defaults."EV-POI-5"]\nstack = "zz"\n')
    _vitality_damage_tracked()
    code, _, err = _events(capsys, *action)
    assert code == 0
    assert "can come to EV-POI-5" not in err
    assert poisons_path().read_text(encoding="utf-8") != VITALITY_DAMAGE
