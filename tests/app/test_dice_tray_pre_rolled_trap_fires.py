"""The dice tray plays out the trap a door or chest rolled before its disarm (EV-DOOR-3):
*Fires 発動* on the outcome walks that trap's row, named, with its follow-ups, and no
second roll of the trap table (a76events RISK 2).

The tray said "On a failed disarm the trap rolled above fires (EV-DOOR-3): read its row,
not a new Trap 罠 roll", and the row read alone lacked its follow-ups: the alarm's monsters
(EV-TRAP-6 → EV-MON-1), the pit's fall (EV-TRAP-7), the poison check's hint. Tables → Trap,
its only way to a trap, rolled a new type: the second roll EV-DOOR-3 forbids. The command
line names ``companion events trap --trap alarm``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.modes.dice_tray import AGAIN, FIRES, HELD, MENU_LABEL, DiceTrayMode
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.systems.events.rules import EventRules, load_rules

#: The menu's Tables (after the one plain roll), then Chest and Door on its list.
TABLES, DOOR, CHEST = 1, 0, 1


def _rules(pre_roll: bool = True) -> EventRules:
    return load_rules().with_overrides({"EV-DOOR-3": {"enabled": pre_roll}})


def _labels(mode: DiceTrayMode) -> list[str]:
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk), ask
    return [o.label for o in ask.options]


def _pick(mode: DiceTrayMode, label: str) -> None:
    mode.answer(_labels(mode).index(label))


def _trapped(table: int, trap_face: int, rules: EventRules | None = None,
             table_file: Path | None = None) -> DiceTrayMode:
    """Tables → ``table``, typed 1 (罠＋鍵/TRAPPED + LOCKED), then the trap's face."""
    mode = DiceTrayMode(("1D6",), "typed 入力", rules or _rules(), table_file=table_file,
                        typed=True)
    mode.answer(TABLES)
    mode.answer(table)
    mode.answer(Throw((1,)))
    if mode.throws and isinstance(mode.ask(), RollAsk):
        mode.answer(Throw((trap_face,)))
    return mode


def test_the_alarm_rolled_first_fires_with_its_monsters_and_no_second_trap_roll() -> None:
    mode = _trapped(CHEST, 5)
    assert FIRES in _labels(mode)
    hint = [s for s in mode.dice.steps if FIRES in s.text]
    assert len(hint) == 1 and hint[0].aside  # the disarm's line says the trap fires
    _pick(mode, FIRES)
    ask = mode.ask()
    # the first die is the monsters' (EV-TRAP-6 → EV-MON-1), not the trap table's, and
    # said so: it was asked as "罠 Trap (EV-TRAP-1)", the roll EV-DOOR-3 forbids (r76events
    # RISK 2), on the prompt line and the Dice panel's title
    assert isinstance(ask, RollAsk) and mode.throws == []
    assert ask.prompt == "the Monsters モンスター table (EV-MON-1) — 罠 Trap (EV-DOOR-3)"
    assert "EV-TRAP-1" not in mode.dice.title
    assert mode.dice.steps[0].rule == "EV-TRAP-1"
    assert "警報/Alarm" in mode.dice.steps[0].text
    assert "named, no roll: EV-DOOR-3" in mode.dice.steps[0].text
    assert "EV-MON-1" in mode.dice.steps[-1].text
    mode.answer(Throw((3,)))  # ＤＭレベル＋１レベルモンスター　1/2Ｄ体
    mode.answer(Throw((4,)))  # how many: 1/2D
    assert mode.report is not None and mode.report.finished
    rules = [s.rule for s in mode.report.steps]
    assert rules[:3] == ["EV-TRAP-1", "EV-TRAP-6", "EV-MON-1"]
    assert mode.dice.rolls[0].startswith("(1D6) ＞ 3")  # the monsters', first
    assert FIRES not in _labels(mode)  # a trap fired is no door: nothing more fires
    # A trap fires once: Again walked the same alarm again, new monsters for it (r76events
    # NIT 7)
    assert AGAIN not in _labels(mode) and MENU_LABEL in _labels(mode)


@pytest.mark.parametrize(("face", "kind", "follow"), [
    (6, "落とし穴/Pit", "EV-TRAP-7"), (2, "毒ガス（毒）/Poison gas", "EV-TRAP-4"),
    (1, "爆発（エネルギー系）/Explosion", "EV-TRAP-3")])
def test_each_trap_rolled_first_walks_its_own_row(face: int, kind: str, follow: str) -> None:
    """The pit's dodge and fall, the gas's check and the poison table's path, the
    explosion's resistance: each the trap rolled on the door, none rolled again."""
    mode = _trapped(DOOR, face)
    _pick(mode, FIRES)
    assert mode.report is not None and mode.report.finished  # generic: the GM's checks
    assert kind in mode.report.steps[0].text and "named, no roll" in mode.report.steps[0].text
    # its names, not its key (poison_gas read as code, r76events NIT 6)
    assert mode.report.steps[0].text.startswith(f"罠/Trap: {kind}")
    assert "_" not in mode.report.steps[0].text
    assert _labels(mode) == [MENU_LABEL]  # no Again: the trap fired, no die to take back
    assert follow in [s.rule for s in mode.report.steps]
    assert mode.dice.rolls == () and mode.throws == []
    if follow == "EV-TRAP-4":
        assert any("Menu → Tables → Poison" in s.text for s in mode.dice.steps)


def test_no_fires_without_the_trap_rolled_first() -> None:
    """EV-DOOR-3 off: the disarm's failure rolls the trap table, as the hint says."""
    mode = _trapped(DOOR, 5, _rules(pre_roll=False))
    assert mode.throws == [(1,)]
    assert FIRES not in _labels(mode)
    assert any("Menu → Tables → Trap" in s.text for s in mode.dice.steps)


def test_the_trap_fired_is_saved_part_thrown_and_taken_up_named(tmp_path: Path) -> None:
    """A power cut between the alarm's two dice: the tray's file names the trap, and a start
    takes it up awaiting the count's die, the same alarm."""
    table_file = tmp_path / "tray.json"
    mode = _trapped(CHEST, 5, table_file=table_file)
    _pick(mode, FIRES)
    mode.answer(Throw((3,)))
    saved = json.loads(table_file.read_text("utf-8"))["table"]
    assert saved["table"] == "trap" and saved["trap"] == "alarm"
    again = DiceTrayMode(("1D6",), "typed 入力", _rules(), table_file=table_file, typed=True)
    again.take_up_saved()
    ask = again.ask()
    assert isinstance(ask, RollAsk) and again.throws == [(3,)]
    assert "named, no roll: EV-DOOR-3" in again.dice.steps[0].text
    again.answer(Throw((4,)))
    assert again.report is not None and again.report.finished


def test_a_trap_fired_is_saved_before_its_first_die(tmp_path: Path) -> None:
    """Fires on the alarm, and a stop before the monsters' die: the file names the trap with
    no throws, and a start takes it up awaiting that die, the same alarm. It held no table
    (the door's outcome is not saved either): the trap was lost, and Tables → Trap rolls a
    new type (r76events RISK 1). A first die that failed is held so too."""
    table_file = tmp_path / "tray.json"
    mode = _trapped(CHEST, 5, table_file=table_file)
    _pick(mode, FIRES)
    saved = json.loads(table_file.read_text("utf-8"))["table"]
    assert saved is not None and saved["trap"] == "alarm" and saved["throws"] == []
    again = DiceTrayMode(("1D6",), "typed 入力", _rules(), table_file=table_file, typed=True)
    again.take_up_saved()
    ask = again.ask()
    assert isinstance(ask, RollAsk) and again.throws == [] and again.pick is not None
    assert again.pick.trap == "alarm"
    assert ask.prompt.startswith("the Monsters モンスター table (EV-MON-1)")
    again.answer(Throw((), failure="the camera saw no dice"))
    assert json.loads(table_file.read_text("utf-8"))["table"]["note"]  # held, kept
    third = DiceTrayMode(("1D6",), "typed 入力", _rules(), table_file=table_file, typed=True)
    third.take_up_saved()
    _pick(third, AGAIN)  # the die asked again: the same alarm, named
    assert isinstance(third.ask(), RollAsk) and third.pick == again.pick
    third.answer(Throw((3,)))
    third.answer(Throw((4,)))
    assert third.report is not None and third.report.finished
    assert third.report.steps[0].data["kind"] == "alarm"


def test_back_on_the_first_die_of_a_trap_fired_holds_it(tmp_path: Path) -> None:
    """One Back on the alarm's first die went to the menu and cleared the file: the alarm
    was lost for good, and Tables → Trap rolls a new type, the second roll EV-DOOR-3
    forbids (r76events2 RISK 1). It is held as a later die is: *Again* asks that die, the
    same alarm, a start takes it up held, and *Menu* alone gives it up."""
    table_file = tmp_path / "tray.json"
    mode = _trapped(CHEST, 5, table_file=table_file)
    _pick(mode, FIRES)
    first = mode.ask()
    mode.answer(Throw(back=True))
    held = mode.ask()
    assert isinstance(held, ChoiceAsk) and held.prompt == HELD
    assert _labels(mode) == [AGAIN, MENU_LABEL]
    saved = json.loads(table_file.read_text("utf-8"))["table"]
    assert saved["trap"] == "alarm" and saved["throws"] == [] and saved["held"] is True
    again = DiceTrayMode(("1D6",), "typed 入力", _rules(), table_file=table_file, typed=True)
    again.take_up_saved()
    held_again = again.ask()
    assert isinstance(held_again, ChoiceAsk) and held_again.prompt == HELD
    _pick(again, AGAIN)
    assert again.ask() == first and again.pick is not None and again.pick.trap == "alarm"
    _pick(mode, AGAIN)
    assert mode.ask() == first
    mode.answer(Throw(back=True))
    _pick(mode, MENU_LABEL)  # given up on purpose
    assert mode.pick is None
    assert json.loads(table_file.read_text("utf-8"))["table"] is None


def test_a_trap_named_beside_another_table_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file's ``trap`` goes with the trap table only: a door's is set aside, for that
    reason (the tray before it refused any ``trap`` as an unknown field: r76events NIT 5)."""
    table_file = tmp_path / "tray.json"
    table_file.write_text(json.dumps({"version": 1, "table": {
        "table": "door", "expression": None, "throws": [[1]], "stage": "throw",
        "resume": False, "held": False, "note": "", "trap": "alarm"}}), "utf-8")
    mode = DiceTrayMode(("1D6",), "typed 入力", _rules(), table_file=table_file, typed=True)
    mode.take_up_saved()
    assert mode.throws == [] and not table_file.exists()
    err = capsys.readouterr().err
    assert "table.trap 'alarm' names no trap of the trap table" in err
    assert "unknown field" not in err
