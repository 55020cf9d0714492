"""A table's walk longer than the dice tray's Table panel keeps what the player acts on
(a76events DEFECT 1).

At ``display.text_scale`` 1.25 (docs/playing.md's example) the Table panel cut a walk at its
end with an ellipsis, and nothing scrolls: a trapped and locked door with EV-DOOR-3 on lost
its lock check (``鍵開け/Open lock vs 8``) under the disarm's reminders, a poison's walk its
own rule (EV-POI-5 cut mid-way) and its tracking line, a tick of four poisoned members the
fourth's HP lost. Now a walk the panel cannot hold takes the Dice panel's room too (each
step says its own roll), leaves out the rules said again for reference first (EV-POI-3,
EV-POI-2, the EV-DOOR-3 option's line: :attr:`DiceStep.aside`), then steps at its end,
each whole, and its last row says how many are not shown, in English and Japanese.

Drawn through :class:`ScreenDisplay` on SDL's dummy driver and read back from the texts it
fitted (``spy_text``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.poisons import PoisonList
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.hw.display import screen as screen_module
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import DiceStep, DiceView, View
from companion.systems.events.rules import load_rules
from tests.hw.display.prompt_fit_helpers import SIZES, drawn_in

#: The menu's Tables (after its one plain roll); Door and Poison on the tables' list.
TABLES, DOOR, POISON = 1, 0, 6
#: The cut's last row: ``+3 more not shown 他3件は表示しきれず`` or, only reminders left
#: out, ``+2 reminders not shown 注意書き2件は省略``.
MARKER = re.compile(r"\+(\d+) (?:more not shown 他(\d+)件は表示しきれず"
                    r"|reminders? not shown 注意書き(\d+)件は省略)")


@pytest.fixture(autouse=True)
def _portrait_panel(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The portrait panel's window (full screen takes the panel's own size)."""
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", SIZES["720x1280"])
    yield


def _outcome(mode: DiceTrayMode, picks: list[int], faces: list[int]) -> View:
    for pick in picks:
        mode.answer(pick)
    for face in faces:
        assert isinstance(mode.ask(), RollAsk)
        mode.answer(Throw((face,)))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    return mode.view(ask.prompt, options=ask.options, highlight=0)


def _panel(view: View, size: str, scale: float) -> list[str]:
    """The Table panel's rows as drawn."""
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        return [d.shown for d in drawn_in(screen, view, "_dice")]
    finally:
        screen.close()


def _left_out(view: View, rows: list[str]) -> list[DiceStep]:
    """The walk's steps not drawn whole in ``rows``; a cut not said with its count fails."""
    assert view.dice is not None
    text = "".join(rows).replace(" ", "")
    missing = [s for s in view.dice.steps if s.text.replace(" ", "") not in text]
    said = [m for row in rows if (m := MARKER.fullmatch(row))]
    assert not any(row.endswith("…") for row in rows), rows
    if missing:
        assert len(said) == 1, rows
        numbers = {int(n) for n in said[0].groups() if n}
        assert numbers == {len(missing)}, (rows, missing)
        if all(s.aside for s in missing):
            assert "reminder" in said[0].group(0)
    else:
        assert not said, rows
    return missing


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", [1.0, 1.1, 1.25])
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("trap", [1, 2, 5, 6])  # explosion, gas, alarm, pit
def test_a_trapped_locked_door_keeps_its_lock_check(size: str, scale: float,
                                                    trap: int) -> None:
    """Door face 1 (罠＋鍵), the trap rolled first (EV-DOOR-3 on): the disarm and the lock
    check whole; only reminders may be left out, said with their count."""
    rules = load_rules().with_overrides({"EV-DOOR-3": {"enabled": True}})
    mode = DiceTrayMode(("1D6",), "typed 入力", rules, typed=True)
    view = _outcome(mode, [TABLES, DOOR], [1, trap])
    missing = _left_out(view, _panel(view, size, scale))
    assert all(s.aside for s in missing), [s.text for s in missing]


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", [1.0, 1.1, 1.25])
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("face", [1, 4, 6])
def test_a_poison_keeps_its_rule_and_its_tracking_line(tmp_path: Path, size: str,
                                                       scale: float, face: int) -> None:
    """The poison table's walk (判定－１; 生命力ダメージ; 能力値減少 with its D4 and ±
    die): its own rule and the line saying it is tracked whole, only reminders left out."""
    mode = DiceTrayMode(("1D6",), "typed 入力", poisons=PoisonList(tmp_path / "p.toml"),
                        typed=True)
    view = _outcome(mode, [TABLES, POISON], [face, 3, 2, 4][:4 if face == 6 else 2])
    assert view.dice is not None
    assert any(s.text.startswith("Tracking victim") for s in view.dice.steps)
    missing = _left_out(view, _panel(view, size, scale))
    assert all(s.aside for s in missing), [s.text for s in missing]


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("size", list(SIZES))
def test_a_tick_of_four_poisons_shows_every_member_s_tick(tmp_path: Path, size: str) -> None:
    """Four poisoned by gas, then Tick → End block at text_scale 1.25: each one's HP lost
    (EV-POI-8) whole; the list under it may be cut, said with its count."""
    mode = DiceTrayMode(("1D6",), "typed 入力", poisons=PoisonList(tmp_path / "p.toml"),
                        typed=True)
    for n in range(4):
        _outcome(mode, [*([] if n else [TABLES, POISON]), *([0] if n else [])], [4, 3])
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    mode.answer([o.label for o in ask.options].index("Menu メニュー"))
    mode.answer(2)  # Tick
    view = _outcome(mode, [0], [])  # End block
    assert view.dice is not None
    ticks = [s for s in view.dice.steps if s.rule == "EV-POI-8"]
    assert len(ticks) == 4
    missing = _left_out(view, _panel(view, size, 1.25))
    assert not set(map(id, ticks)) & set(map(id, missing))


@pytest.mark.needs_japanese_font
def test_reminders_go_first_then_the_end_whole_and_counted() -> None:
    """A walk of 30 steps, every third an aside: all asides are left out before any other
    step, the steps kept are the first ones (whole, in order), and the count is theirs."""
    steps = tuple(DiceStep("EV-TEST-1", f"step {n}: " + "words " * 12, aside=n % 3 == 2)
                  for n in range(30))
    mode = DiceTrayMode(("1D6",), "typed 入力")
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    view = replace(mode.view(ask.prompt, options=ask.options, highlight=0),
                   dice=DiceView(title="test", steps=steps))
    rows = _panel(view, "800x480", 1.0)
    missing = _left_out(view, rows)
    assert all(s in missing for s in steps if s.aside)
    kept = [s for s in steps if s not in missing]
    assert not any(s.aside for s in kept)
    plain = [s for s in steps if not s.aside]
    assert kept == plain[:len(kept)]
    assert MARKER.fullmatch(rows[-1]) and "more not shown" in rows[-1]


@pytest.mark.needs_japanese_font
def test_a_walk_that_fits_is_drawn_beside_the_dice() -> None:
    """A walk the Table panel holds leaves the Dice panel as it was (its faces, its Roll
    lines): only a walk too long takes its room."""
    rules = load_rules().with_overrides({"EV-DOOR-3": {"enabled": True}})
    mode = DiceTrayMode(("1D6",), "typed 入力", rules, typed=True)
    view = _outcome(mode, [TABLES, DOOR], [1, 1])
    at_1 = _panel(view, "1024x600", 1.0)
    assert not any(MARKER.fullmatch(row) for row in at_1)
    screen = ScreenDisplay("1024x600", text_scale=1.0)
    try:
        drawn = [d.shown for d in drawn_in(screen, view, "_dice")]
    finally:
        screen.close()
    assert any(row.startswith("Dice ダイス") for row in drawn)
    screen = ScreenDisplay("800x480", text_scale=1.25)
    try:
        drawn = [d.shown for d in drawn_in(screen, view, "_dice")]
    finally:
        screen.close()
    assert not any(row.startswith("Dice ダイス") for row in drawn)
    assert any(row.startswith("Table 表 · 扉 Door") for row in drawn)
