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


CONDITIONS = ("転倒 prone", "毒 poisoned", "盲目 blinded", "呪殺呪 curse 12d")


def test_conditions_left_out_are_counted_never_two_joined(screen: ScreenDisplay) -> None:
    """Cut in its middle, a row of several conditions joined two halves (``転倒 pr…urse
    12d``), and those between vanished with no sign (reviews72 NIT 4): whole conditions
    from the start and the last, the ones left out between them counted (``+2``)."""
    party, enemy = Name("味方", "party"), Name("敵", "enemy")
    fighters = [FighterView(Name("駆け出し冒険者１", "PC 1"), party, 12, 12, 8, 8, CONDITIONS)]
    fighters += [FighterView(Name(f"オーク{n}", f"Orc {n}"), enemy, 12, 12, 8, 8, (),
                             ally=False) for n in range(1, 8)]
    view = example_fight_view()
    assert view.fight is not None
    drawn = spy_text(screen)
    screen.render(replace(view, fight=replace(view.fight, fighters=tuple(fighters), board=None)))
    last = [d.shown for d in drawn if d.text == CONDITIONS[-1]]
    together = [d.shown for d in drawn if d.text.endswith(" · ") or (
        d.text.endswith(CONDITIONS[-1]) and d.text != CONDITIONS[-1])]
    assert last or together, "the conditions beside the name (a one-line row)"
    # Whole, or the count and the last drawn apart, the last cut in its middle alone.
    shown = together[-1] + (last[-1] if last and together[-1].endswith(" · ") else "")
    parts = shown.split(" · ")
    end = parts[-1]
    assert end == CONDITIONS[-1] or (end.startswith("呪") and end.endswith("12d")), shown
    said = [part for piece in parts[:-1] for part in piece.split(" +")]
    count = [part for part in said if part.lstrip("+").isdigit()]
    named = [part for part in said if part not in count]
    assert all(part in CONDITIONS for part in named), shown
    left_out = int(count[0].lstrip("+")) if count else 0
    assert len(named) + left_out + 1 == len(CONDITIONS), shown
    assert "…" not in " · ".join(parts[:-1]), shown
