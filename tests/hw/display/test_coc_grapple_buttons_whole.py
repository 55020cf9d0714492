"""The coc Act menu of one who holds another keeps its choke and throw labels whole (r77data
NIT on 1e5124b4): at 800x480 and at the least window, 640x384, at text sizes 1.0 and 1.25,
in a menu of eight (four a row) and in 004's whole menu of eleven (six a row) at 1.0. "Choke
by Budo 武道で締め付け" read "[4] Choke by B…" in the row of six, at either size."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.app.modes.coc import CocFightMode
from companion.app.session.mode import ChoiceAsk
from companion.hw.display import screen as screen_module
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import View
from companion.systems.coc.rules import Profile
from tests.app.coc_table_helpers import holding
from tests.hw.screen_layout_helpers import spy_text

SIZES = {"800x480": (800, 480), "640x384": (640, 384)}


@pytest.fixture(autouse=True)
def _least_window(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(screen_module.LAYOUTS, "640x384", SIZES["640x384"])
    yield


def act_menu(profile: Profile, count: int | None = None) -> View:
    """Ann's Act menu, holding Cult: the whole of it, or its first ``count`` options."""
    mode = CocFightMode(holding(profile))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    return mode.view(ask.prompt, options=ask.options[:count], highlight=0)


def cut_labels(size: str, scale: float, view: View, per_row: int) -> list[str]:
    """The option labels a screen of ``size`` draws of ``view`` cut, its grid ``per_row``
    options a row."""
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        assert screen._grid(view) and screen._grid_page(view)[0] == per_row
        drawn = spy_text(screen)
        screen.render(view)
        return [d.text for d in drawn if d.label and d.cut]
    finally:
        screen.close()


def grapple_keys(view: View) -> set[str]:
    return {o.choice for o in view.options} & {"choke", "choke_budo", "throw", "throw_budo"}


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_menu_of_eight_four_a_row_keeps_every_label_whole(size: str, scale: float) -> None:
    view = act_menu(Profile.P004, 8)
    assert grapple_keys(view) == {"choke", "choke_budo", "throw", "throw_budo"}
    assert cut_labels(size, scale, view, 4) == []


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("size", list(SIZES))
def test_004_s_menu_of_eleven_six_a_row_keeps_every_label_whole(size: str) -> None:
    view = act_menu(Profile.P004)
    assert len(view.options) == 11 and "choke_budo" in grapple_keys(view)
    assert cut_labels(size, 1.0, view, 6) == []


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("size", list(SIZES))
def test_003_s_choke_締め上げ_reads_whole(size: str, scale: float) -> None:
    view = act_menu(Profile.P003)
    assert [o.label for o in view.options if o.choice == "choke"] == ["Choke 締め上げ"]
    assert cut_labels(size, scale, view, 5) == []


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("size", list(SIZES))
def test_004_s_menu_of_eleven_at_text_1_25_takes_three_rows_and_keeps_every_label_whole(
        size: str) -> None:
    """At text size 1.25 the row of six read "[4] Budo ch…" over "武道…め付け" and "[6] Budo
    th…" (f78panels item 1): three rows of four, the fight's two combatants still in view
    with their two lines, have room for them whole."""
    view = act_menu(Profile.P004)
    assert len(view.options) == 11
    assert cut_labels(size, 1.25, view, 4) == []
    screen = ScreenDisplay(size, text_scale=1.25)
    try:
        assert screen._grid_page(view)[1] == 3
    finally:
        screen.close()
