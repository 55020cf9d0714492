"""The dice tray's poison walk, tracked beside an earlier unnamed poison, reads whole
(reviewe68 DEFECT 1).

Tables → Poison typed 1, 3 (判定－１ for 3 hours), then Again 1, 3: the tray, which has no
names, tracks the second as ``victim 2``. fixe68's note saying how to end ``victim``'s
poison if it is the same character's (EV-POI-3), about 150 characters on the Table panel,
was cut there at 800x480 and 1024x600 ("If victim 2 is victim again, that one's earlier
poison ends…"), and pushed off the line naming ``victim 2`` ("Tracking victim 2's poison:
Tick 毒の経過 in the menu ticks it"). The hint is now the outcome's status line, short, and
drawn as guidance (not trouble); EV-POI-3's unnamed line is one row again.

Drawn through :class:`ScreenDisplay` on SDL's dummy driver, at each size and text scale,
and read back from the texts it fitted (``spy_text``). At text_scale 1.25 the Table panel
of a poison's walk was cut before (the screen's to fit), so there only the prompt and the
status are checked, with the Tracking line at 1.0.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.poisons import PoisonList
from companion.app.session.mode import ChoiceAsk, Throw
from companion.hw.display import screen as screen_module
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import View
from tests.hw.display.prompt_fit_helpers import SCALES, SIZES, drawn_in, status_unread, unread

#: Tables (the menu's item after its one plain roll), then Poison.
TABLES, POISON = 1, 6


@pytest.fixture(autouse=True)
def _portrait_panel(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The portrait panel's window (full screen takes the panel's own size)."""
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", SIZES["720x1280"])
    yield


def _tray(folder: Path, poisons: int) -> tuple[DiceTrayMode, View]:
    """The tray after ``poisons`` unnamed poisons (each typed 1, 3), at its outcome."""
    mode = DiceTrayMode(("1D6",), "typed 入力", poisons=PoisonList(folder / "poisoned.toml"))
    mode.answer(TABLES)
    mode.answer(POISON)
    for n in range(poisons):
        if n:
            mode.answer(0)  # Again
        for face in (1, 3):
            mode.answer(Throw((face,)))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    return mode, mode.view(ask.prompt, options=ask.options, highlight=0)


def test_the_hint_is_the_outcome_s_status_not_a_table_step(tmp_path: Path) -> None:
    mode, view = _tray(tmp_path, 2)
    assert view.status.startswith("victim 2 = victim? 同一人物なら前の毒を解除: ")
    assert view.status.endswith(" events cure --who victim")
    assert view.guidance  # the GM's next step, not trouble
    assert not any("victim 2 = " in s.text or s.text.startswith("If victim")
                   for s in mode.dice.steps)


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("poisons", [2, 3, 7])  # victim 2; victim 3; crowded (Tick offered)
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", list(SIZES))
def test_the_walk_and_its_hint_read_whole(tmp_path: Path, size: str, scale: float,
                                          poisons: int) -> None:
    """The prompt and the hint whole at every size and scale; at 1.0 the line naming the
    new poison's victim too, and (not crowded) the whole walk."""
    mode, view = _tray(tmp_path, poisons)
    assert view.status
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        assert unread(screen, view) == ""
        assert status_unread(screen, view) == ""
        panel = "".join(d.shown for d in drawn_in(screen, view, "_dice")).replace(" ", "")
    finally:
        screen.close()
    if scale != 1.0:
        return
    steps = [s.text for s in mode.dice.steps]
    tracking = f"Tracking victim {poisons}'s poison: Tick 毒の経過 in the menu ticks it"
    assert tracking in steps
    # a crowded list's own note (7 poisons tracked …, has time passed?) was cut before,
    # and its question is the prompt
    whole = [tracking] if poisons > 6 else steps
    assert [t for t in whole if t.replace(" ", "") not in panel] == []
