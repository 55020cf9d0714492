"""The dice tray's exploration at its 6 (EV-EXP-4): the reward, ×1D6 of one kind, is
rolled on a successful appraisal only, as seed 001 gives it (「探索に成功した場合…獲得」)
and the spec's Default says ("roll the 1D6 count on success"). The GM resolves the
appraisal in generic mode; *Found 見つけた* on the outcome then walks the count and the
kind, the table's 6 not rolled again. 29b73ab7 asked the count's die straight after the 6,
before any appraisal was known (r76events NIT 3). A tray.json saved at the 6 by that
tray (or the one before it, which asked the kind) is taken up with no throw lost.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.modes.dice_tray import (
    AGAIN,
    FOUND,
    HELD,
    LISTS_BLOCKED,
    MENU_LABEL,
    OLD_SAVE_FOUND,
    OLD_SAVE_SIX,
    DiceTrayMode,
)
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.errors import DataError
from companion.systems.events.lists import UserLists

#: The menu's Tables (after the one plain roll), then Explore on its list.
TABLES, EXPLORE = 1, 4
LISTS = UserLists(items=("ヒーリングポーション/Healing potion", "保存食/Rations"))


def _tray(table_file: Path | None = None, lists: UserLists | None = LISTS) -> DiceTrayMode:
    return DiceTrayMode(("1D6",), "typed 入力", lists=lists, table_file=table_file,
                        typed=True)


def _labels(mode: DiceTrayMode) -> list[str]:
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk), ask
    return [o.label for o in ask.options]


def _at_six(table_file: Path | None = None) -> DiceTrayMode:
    mode = _tray(table_file)
    mode.answer(TABLES)
    mode.answer(EXPLORE)
    mode.answer(Throw((6,)))
    return mode


def _save(table_file: Path, throws: list[list[int]]) -> None:
    """tray.json as the tray before Found wrote it at the 6, its next die awaited."""
    table_file.write_text(json.dumps({"version": 1, "table": {
        "table": "explore", "expression": None, "throws": throws, "stage": "throw",
        "resume": False, "held": False, "note": "", "poisons": None}}), "utf-8")


def test_the_six_asks_no_die_and_found_walks_the_reward() -> None:
    mode = _at_six()
    # no die after the 6: the walk stops at the appraisal, for the GM
    assert mode.report is not None and mode.report.finished and mode.throws == [(6,)]
    assert "on success 成功なら" in mode.dice.steps[-1].text
    assert FOUND in _labels(mode)
    mode.answer(_labels(mode).index(FOUND))
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and (ask.count, ask.sides) == (1, 6)
    assert ask.prompt == "how many items 個数 — 探索 Explore (EV-EXP-4)"
    mode.answer(Throw((4,)))
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and ask.sides == 2  # the kind, from the two listed
    mode.answer(Throw((2,)))
    assert mode.report is not None and mode.report.finished
    texts = [s.text for s in mode.report.steps]
    assert "EV-EXP-1" not in [s.rule for s in mode.report.steps]  # the 6 not rolled again
    assert any("×4 (one kind)" in t for t in texts) and "保存食/Rations" in texts[-1]
    # found once: neither Again (a second reward) nor Found again
    assert AGAIN not in _labels(mode) and FOUND not in _labels(mode)


def test_found_is_saved_before_its_first_die(tmp_path: Path) -> None:
    """As a trap fired is (r76events RISK 1): the outcome that offered Found is not
    saved, so the walk found is, before its first die, and a start asks that die."""
    table_file = tmp_path / "tray.json"
    mode = _at_six(table_file)
    mode.answer(_labels(mode).index(FOUND))
    saved = json.loads(table_file.read_text("utf-8"))["table"]
    assert saved["table"] == "explore" and saved["found"] is True and saved["throws"] == []
    again = _tray(table_file)
    again.take_up_saved()
    ask = again.ask()
    assert isinstance(ask, RollAsk) and ask.prompt.startswith("how many items 個数")
    assert again.pick is not None and again.pick.found


def test_a_save_at_the_six_awaiting_the_count_shows_the_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Saved by 29b73ab7 awaiting the count (or by the tray before it awaiting the kind):
    the 6 now ends the walk at the appraisal; its outcome is shown, Found offered, the
    file no longer holding a die awaited. It was set aside as corrupt ("no die is
    awaited")."""
    table_file = tmp_path / "tray.json"
    _save(table_file, [[6]])
    mode = _tray(table_file)
    mode.take_up_saved()
    assert mode.throws == [(6,)] and FOUND in _labels(mode)
    assert json.loads(table_file.read_text("utf-8"))["table"] is None
    assert not list(tmp_path.glob("*.corrupt-*"))
    assert f"{FOUND} rolls it" in capsys.readouterr().err


def test_a_save_at_the_six_with_the_count_thrown_is_taken_up_as_found(
    tmp_path: Path,
) -> None:
    """Saved by 29b73ab7 with the count thrown, the kind awaited: the count is kept as the
    reward's, and the kind asked; no throw lost, none asked again."""
    table_file = tmp_path / "tray.json"
    _save(table_file, [[6], [3]])
    mode = _tray(table_file)
    mode.take_up_saved()
    assert mode.pick is not None and mode.pick.found and mode.throws == [(3,)]
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and ask.sides == 2
    saved = json.loads(table_file.read_text("utf-8"))["table"]
    assert saved["found"] is True and saved["throws"] == [[3]]
    mode.answer(Throw((1,)))
    assert mode.report is not None and mode.report.finished
    assert any("×3 (one kind)" in s.text for s in mode.report.steps)


def test_a_save_with_the_count_thrown_held_for_the_list_file_keeps_the_count(
    tmp_path: Path,
) -> None:
    """The same save taken up while the list file cannot be read: held for it, then the
    file mended and *Again* pressed. The throws were walked through today's walk, which
    ends at the 6: the 3 thrown was passed over, Found asked the count again (r76events2
    DEFECT 1). The count is kept as Found's, held for the list, kept so in the file."""
    table_file = tmp_path / "tray.json"
    _save(table_file, [[6], [3]])
    broken = "events_lists.toml: line 1: broken"
    mended = False

    def reload() -> UserLists:
        if not mended:
            raise DataError(broken)
        return LISTS

    def tray() -> DiceTrayMode:
        return DiceTrayMode(("1D6",), "typed 入力", lists=None, table_file=table_file,
                            typed=True, lists_error=broken, reload_lists=reload)

    mode = tray()
    mode.take_up_saved()
    assert mode.note == LISTS_BLOCKED and _labels(mode) == [AGAIN, MENU_LABEL]
    assert mode.pick is not None and mode.pick.found and mode.throws == [(3,)]
    saved = json.loads(table_file.read_text("utf-8"))["table"]
    assert saved["found"] is True and saved["throws"] == [[3]]
    later = tray()  # a start while it is still unreadable: the same, from the file
    later.take_up_saved()
    assert later.pick == mode.pick and later.throws == [(3,)]
    mended = True
    mode.answer(_labels(mode).index(AGAIN))
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and ask.sides == 2 and mode.throws == [(3,)]
    mode.answer(Throw((1,)))
    assert mode.report is not None and mode.report.finished
    assert any("×3 (one kind)" in s.text for s in mode.report.steps)


def test_an_older_save_taken_up_says_so_once_on_the_screen(tmp_path: Path) -> None:
    """Found's walk says an appraisal succeeded, which nobody said when 29b73ab7 took the
    count straight after the 6; and a save awaiting that count shows the outcome, the die
    asked before the stop not asked. Said on stderr only (r76events2 NIT 1): the status
    line says it once, in English and Japanese."""
    table_file = tmp_path / "tray.json"
    _save(table_file, [[6], [3]])
    mode = _tray(table_file)
    mode.take_up_saved()
    ask = mode.ask()
    assert isinstance(ask, RollAsk)
    assert mode.view(ask.prompt).status == OLD_SAVE_FOUND
    assert "older save 旧セーブ" in OLD_SAVE_FOUND and "鑑定成功時のみ" in OLD_SAVE_FOUND
    mode.answer(Throw((1,)))
    ask = mode.ask()
    assert mode.view(ask.prompt).status == ""  # once
    _save(table_file, [[6]])
    six = _tray(table_file)
    six.take_up_saved()
    ask = six.ask()
    assert six.view(ask.prompt).status == OLD_SAVE_SIX and FOUND in OLD_SAVE_SIX
    six.answer(_labels(six).index(FOUND))
    assert six.view(six.ask().prompt).status == ""
    # today's saves say nothing of it
    fresh = _at_six(table_file)
    fresh.answer(_labels(fresh).index(FOUND))
    today = _tray(table_file)
    today.take_up_saved()
    assert today.view(today.ask().prompt).status == ""


def test_back_on_found_s_first_die_holds_it(tmp_path: Path) -> None:
    """One Back on the count's die went to the menu and cleared the file, the reward lost:
    Tables → Explore rolls the 6 again (r76events2 RISK 1). It is held: *Again* asks the
    count, a start takes it up held, and *Menu* alone gives it up."""
    table_file = tmp_path / "tray.json"
    mode = _at_six(table_file)
    mode.answer(_labels(mode).index(FOUND))
    first = mode.ask()
    mode.answer(Throw(back=True))
    held = mode.ask()
    assert isinstance(held, ChoiceAsk) and held.prompt == HELD
    assert _labels(mode) == [AGAIN, MENU_LABEL]
    saved = json.loads(table_file.read_text("utf-8"))["table"]
    assert saved["found"] is True and saved["throws"] == [] and saved["held"] is True
    again = _tray(table_file)
    again.take_up_saved()
    assert again.ask() == held
    again.answer(_labels(again).index(AGAIN))
    assert again.ask() == first and again.pick is not None and again.pick.found
    mode.answer(_labels(mode).index(AGAIN))
    assert mode.ask() == first
    mode.answer(Throw((5,)))
    mode.answer(Throw((1,)))
    assert mode.report is not None and any("×5 (one kind)" in s.text
                                           for s in mode.report.steps)


def test_found_beside_another_table_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table_file = tmp_path / "tray.json"
    table_file.write_text(json.dumps({"version": 1, "table": {
        "table": "monster", "expression": None, "throws": [], "stage": "throw",
        "resume": False, "held": False, "note": "", "found": True}}), "utf-8")
    mode = _tray(table_file)
    mode.take_up_saved()
    assert mode.pick is None and not table_file.exists()
    assert "table.found True goes with the explore table only" in capsys.readouterr().err
