"""Whether a status is drawn whole on the JongRogue screen beside a tile on offer or the picks,
for the tests of the camera's bilingual statuses."""

from __future__ import annotations

from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.controls import READ_OPTIONS
from companion.app.session.reads import pick_option
from companion.hw.display.screen import ScreenDisplay
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import Tile
from tests.hw.screen_layout_helpers import spy_text


def fits(screen: ScreenDisplay, status: str, tile: Tile | None = None,
         picks: tuple[Tile | str, ...] = ()) -> bool:
    """Whether ``status`` is drawn whole on the JongRogue screen at 800x480, beside the
    buttons of a tile on offer or the picks, as :class:`TableTiles` shows them."""
    mode = JongRogueMode(Game("plus"))
    ask = mode.ask()
    assert ask is not None
    if tile is not None:
        view = mode.view(ask.prompt, status=status, options=READ_OPTIONS, highlight=0,
                         prompt_tile=str(tile))
    else:
        view = mode.view(ask.prompt, status=status, prompt_tile="back",
                         options=tuple(map(pick_option, picks)))
    drawn = spy_text(screen)
    screen.render(view)
    rows = [d for d in drawn if not d.label and d.text and d.text in status]
    return bool(rows) and not any(d.cut for d in rows)
