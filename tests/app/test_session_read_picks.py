"""A tile the reader cannot settle on offers picks named as the read offer names a tile: its
code, its Japanese and its English name (display audit 56 #9: "[1] 5z 白" said nothing to a
player who does not read Japanese)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.controls import Controls
from companion.app.session.mode import TileAsk
from companion.app.session.reads import TableTiles
from companion.hw.buttons import Pick
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Option
from companion.hw.ports import Slot
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import TileLedger
from tests.app.session_helpers import ScriptedPresses, ScriptedReader, StepClock, draw
from tests.hw.screen_layout_helpers import spy_text

ASK = TileAsk("Draw a tile and put it on the draw slot: 1d9", Slot.DRAW, TileLedger())


def picks_shown() -> tuple[Tile, tuple[Option, ...], str]:
    """The tile taken and the picks (with their status) shown for an unsure White."""
    clock = StepClock()
    shown: list[dict[str, object]] = []
    reader = ScriptedReader([[draw("empty")], [draw(None, "5z", "1s", "7p")]])
    tiles = TableTiles(reader, Controls([ScriptedPresses([[], [], [Pick(0)]])]),
                       accept_seconds=3.0, poll_seconds=0.1, sleep=clock.sleep, clock=clock)
    tile = tiles.next_tile(ASK, lambda prompt, **kwargs: shown.append(kwargs))
    offer = next(s for s in shown if s.get("options") and s.get("prompt_tile") == "back")
    options = offer["options"]
    assert isinstance(options, tuple)
    return tile, options, str(offer["status"])


def test_a_misread_tile_s_picks_say_the_english_name_as_the_read_offer_does() -> None:
    tile, options, _ = picks_shown()
    assert str(tile) == "5z"
    assert [(o.choice, o.label) for o in options] == [
        ("5z", "5z 白 (White dragon)"), ("1s", "1s 一索 (1 of bamboo)"),
        ("7p", "7p 七筒 (7 of dots)"), ("other", "Other tile… 他の牌")]  # reviewc71 DEFECT 2


@pytest.fixture(params=["800x480", "1024x600"])
def screen(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    display = ScreenDisplay(size=request.param)
    yield display
    display.close()


@pytest.mark.needs_japanese_font
def test_the_picks_read_whole_in_their_boxes(screen: ScreenDisplay) -> None:
    _, options, status = picks_shown()
    drawn = spy_text(screen)
    mode = JongRogueMode(Game("plus"))
    screen.render(mode.view(ASK.prompt, options=options, prompt_tile="back", status=status))
    labels = [d for d in drawn if d.label]
    assert labels and not any(d.cut for d in labels)
    assert " ".join(d.shown for d in labels).split() == " ".join(
        f"[{n}] {o.label}" for n, o in enumerate(options, 1)).split()
