"""An option label wrapped in its box breaks between words, after a "/" or where Japanese
and English meet, never inside an English word: the coc weapon menu's bare hands read "[2]"
over "こぶし(パンチ)/Fist/Pun" over "ch" at 800x480, text 1.0, and "…/Fist/Punc" over "h" at
1024x600 (a78screen item 2)."""

from __future__ import annotations

import re

import pytest

from companion.app.modes.coc import CocFightMode
from companion.app.session.mode import ChoiceAsk
from companion.dice import ScriptedDice
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import View
from companion.systems.coc.combat import Fight, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.app.coc_table_helpers import entrant
from tests.hw.screen_layout_helpers import spy_text


def weapon_menu() -> View:
    """Ann's "With which weapon? 武器は？" menu, attacking Cult with a knife or her fists."""
    rules = load_rules(Profile.P003)
    fight = Fight(rules, [
        entrant(rules, "Ann", 14, ("knife", "fist"), Side.INVESTIGATORS, knife=60, fist=50),
        entrant(rules, "Cult", 10, ("knife",), Side.FOES)], ScriptedDice([]))
    mode = CocFightMode(fight)
    for pick in ("attack", "t:Cult"):
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk)
        mode.answer([o.choice for o in ask.options].index(pick))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    return mode.view(ask.prompt, options=ask.options, highlight=0)


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize(("size", "scale"), [("800x480", 1.0), ("1024x600", 1.0),
                                             ("800x480", 1.25)])
def test_the_fist_label_keeps_each_english_word_whole(size: str, scale: float) -> None:
    view = weapon_menu()
    label = next(o.label for o in view.options if "Fist" in o.label)
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        drawn = spy_text(screen)
        screen.render(view)
    finally:
        screen.close()
    rows = [d.text for d in drawn if d.label and d.text in f"[2] {label}"]
    assert any("Fist" in row for row in rows)
    words = set(re.findall(r"[A-Za-z]+", label))
    for row in rows:
        assert set(re.findall(r"[A-Za-z]+", row)) <= words, row
