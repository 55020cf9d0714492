"""A crowded fight's one-line rows keep the end of a fighter's conditions, where they differ.

With eight fighters each row is one line, its conditions beside the name, and they were
cut at their end: the Death Curse's badge read "呪殺呪 curse 死…" or "呪殺呪 curs…" for the
dead and for the cursed alike, and on the dead's own turn (its row lit, its HP full)
nothing in the list said it had died (screen72 NIT 3). They are cut in their middle."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import FighterView, Name, example_fight_view
from tests.hw.screen_layout_helpers import spy_text

DIED, CURSED = "呪殺呪 curse 死亡 died", "呪殺呪 curse 366d"


@pytest.fixture(params=[(size, scale) for size in ("800x480", "1024x600")
                        for scale in (1.0, 1.25)], ids=lambda p: f"{p[0]}-{p[1]}")
def screen(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    size, scale = request.param
    display = ScreenDisplay(size, text_scale=scale)
    yield display
    display.close()


@pytest.mark.parametrize("acting", [0, 2])  # the dead's own turn, and another's
def test_a_crowded_rows_conditions_keep_their_end(screen: ScreenDisplay, acting: int) -> None:
    party, enemy = Name("味方", "party"), Name("敵", "enemy")
    fighters = [FighterView(Name("駆け出し冒険者１", "PC 1"), party, 12, 12, 8, 8, (DIED,)),
                FighterView(Name("駆け出し冒険者２", "PC 2"), party, 10, 10, 12, 12, (CURSED,))]
    fighters += [FighterView(Name(f"オーク{n}", f"Orc {n}"), enemy, 12, 12, 8, 8, (),
                             ally=False) for n in range(1, 5)]
    fighters += [FighterView(Name(f"ジャイアント・アント{n}", f"Giant Ant {n}"), enemy, 4, 4,
                             4, 4, (), ally=False) for n in range(1, 3)]
    fighters[acting] = replace(fighters[acting], acting=True)
    view = example_fight_view()
    assert view.fight is not None
    drawn = spy_text(screen)
    screen.render(replace(view, fight=replace(view.fight, fighters=tuple(fighters), board=None)))
    shown = {d.text: d.shown for d in drawn if d.text in (DIED, CURSED)}
    assert set(shown) == {DIED, CURSED}, "each badge beside its name (one-line rows)"
    assert shown[DIED].endswith("died") and shown[CURSED].endswith("366d"), shown
    assert shown[DIED].startswith("呪") and shown[CURSED].startswith("呪"), shown
