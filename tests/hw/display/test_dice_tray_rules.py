"""The dice tray's Table panel: each step's rule ID in a column of its own, the step's text
beside it. The column was m(74) wide at every text scale, and at text_scale 1.25 the IDs,
drawn larger, ran into the text ("EV-DOOR-1扉、宝箱/Door…", their last character overdrawn;
screen66 DEFECT 1). A chest's walk (EV-DOOR-1, -2, -5, as the app makes it) is drawn
through :class:`ScreenDisplay` on SDL's dummy driver, every blit recorded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.poisons import PoisonList
from companion.app.session.mode import ChoiceAsk, Throw
from companion.hw.display import screen as screen_module
from companion.hw.display.screen import ScreenDisplay
from tests.hw.screen_layout_helpers import drawn_on, spy_text


def _chest_walk() -> tuple[DiceTrayMode, str]:
    """Event table → Chest, the D6 typed 4 (locked): EV-DOOR-1, then -2 and -5 under it."""
    mode = DiceTrayMode(("1D6", "2D6"), "typed 入力")
    mode.answer(2)  # Event table
    mode.answer(1)  # Chest
    mode.answer(Throw((4,)))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert [s.rule for s in mode.dice.steps] == ["EV-DOOR-1", "EV-DOOR-2", "EV-DOOR-5"]
    return mode, ask.prompt


class _Blits(pygame.Surface):
    """The layout's surface, keeping where each surface was blitted."""

    placed: list[tuple[int, int, int]]  # id of what was blitted, x, its width

    def blit(self, source: pygame.Surface, dest: Any, *args: Any, **kwargs: Any) -> Any:
        x = dest[0] if isinstance(dest, tuple) else pygame.Rect(dest).x
        self.placed.append((id(source), x, source.get_width()))
        return super().blit(source, dest, *args, **kwargs)


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("size", ["800x480", "1024x600"])
@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_each_rule_id_ends_before_its_step_s_text(size: str, scale: float) -> None:
    """Every rule ID is drawn whole, and its right edge is left of its step's text."""
    mode, prompt = _chest_walk()
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        recorder = _Blits(screen.surface.get_size())
        recorder.placed = []
        screen.surface = recorder
        drawn = spy_text(screen)
        texts: dict[int, str] = {}  # each text rendered, as drawn
        text = screen._text

        def keep(value: str, *args: Any) -> pygame.Surface:
            surface = text(value, *args)
            texts[id(surface)] = value
            return surface

        screen.__dict__["_text"] = keep
        screen.render(mode.view(prompt))
        placed = [(texts.get(i), x, w) for i, x, w in recorder.placed]
        rules = [n for n, (shown, _, _) in enumerate(placed)
                 if shown and shown.startswith("EV-DOOR")]
        assert len(rules) == 3, placed
        for n in rules:
            rule, x, width = placed[n]
            beside, text_x, _ = placed[n + 1]  # the step's first row, drawn after its ID
            assert beside and x + width <= text_x, (rule, x + width, text_x, beside)
        assert not [d for d in drawn if d.text.startswith("EV-DOOR") and d.cut]
    finally:
        screen.close()



@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("size", ["800x480", "1024x600", "720x1280"])
@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_the_first_menu_s_labels_and_title_read_whole(size: str, scale: float, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Five boxes in one row (two rolls, the tables, the tracked poisons, Quit), a label's
    row each under the two-row prompt: "[3] Event table イ…" at 800x480, "[4] Poisons 毒…"
    and the Dice panel's "Roll or table? 選んで…" at text_scale 1.25 (screen66 NIT 1)."""
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", (720, 1280))
    mode = DiceTrayMode(("1D6", "2D6"), "simulated 仮想",
                        poisons=PoisonList(tmp_path / "poisons.toml"))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and len(ask.options) == 5
    drawn = drawn_on(mode.view(ask.prompt, options=ask.options, highlight=0), size, scale)
    labels = [d for d in drawn if d.label]
    assert not [d.shown for d in labels if d.cut]
    assert all(any(o.label.split()[0] in d.shown for d in labels) for o in ask.options)
    (title,) = [d for d in drawn if d.text == mode.dice.title]
    assert not title.cut, title.shown
