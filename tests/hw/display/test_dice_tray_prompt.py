"""A long prompt on the dice tray reads whole, or is cut at its end: the dice camera's
"pictures ran out" and its advice took three rows and were cut in the middle of the last,
"give one picture o…ng between them", losing what to give instead (maker73 NIT 4). The
tray's body is mostly empty then, and gives the prompt the rows it needs; a prompt longer
than the body can spare loses its end after a whole word, never its middle. The message is
the dice source's own (a folder that ran out) and the prompt the tray's; drawn through
:class:`ScreenDisplay` on SDL's dummy driver, what was drawn is read back from the texts it
fitted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.session.rolls import RAN_OUT, RAN_OUT_OPTIONS
from companion.hw.dice.source import CameraDiceSource
from companion.hw.display import screen as screen_module
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import View
from tests.hw.display.prompt_fit_helpers import SCALES, SIZES, drawn_in, unread

#: The sizes drawn: the windows, the portrait panel and SDL's dummy display (full screen
#: there, where the cut was seen).
TRAY_SIZES = {**SIZES, "1024x768": (1024, 768)}


@pytest.fixture(autouse=True)
def _more_layouts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The portrait panel's and the dummy display's windows."""
    for name in ("720x1280", "1024x768"):
        monkeypatch.setitem(screen_module.LAYOUTS, name, TRAY_SIZES[name])
    yield


def ran_out_view(where: Path, times: int = 1) -> View:
    """The tray asking what to do when the folder ``m73frames/dthrows`` in ``where``, given
    as the dice camera, ran out before the first throw lay still (its message ``times``
    over, for a prompt past any room). The folder is named as given, relative: a test's own
    folder's long path, one word wider than a row, would be broken in its middle by any
    wrap."""
    folder = where / "m73frames" / "dthrows"
    folder.mkdir(parents=True, exist_ok=True)
    source = CameraDiceSource(str(folder.relative_to(where)), frames=[])
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(where)
        why = str(source._ran_out(1, 6, 1))
    said = RAN_OUT[0].upper() + RAN_OUT[1:]
    prompt = f"{said}: {'; '.join([why] * times)}. Type the dice you throw for this session?"
    return DiceTrayMode(("1D6", "2D6"), "camera カメラ").view(prompt, options=RAN_OUT_OPTIONS,
                                                              highlight=0)


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", list(TRAY_SIZES))
def test_the_pictures_ran_out_prompt_reads_whole_on_the_tray(size: str, scale: float,
                                                              tmp_path: Path) -> None:
    """Every row of the prompt is drawn uncut, together the whole of it, its options under
    its last row a fingertip tall."""
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        wrong = unread(screen, ran_out_view(tmp_path))
    finally:
        screen.close()
    assert not wrong


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", list(TRAY_SIZES))
def test_a_tray_prompt_past_the_room_is_cut_at_its_end_after_a_word(size: str, scale: float,
                                                                     tmp_path: Path) -> None:
    """A prompt longer than the rows the body spares reads from its start up to a whole
    word, then "…": no row is cut in its middle, and none is wider than the footer."""
    view = ran_out_view(tmp_path, times=4)
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        drawn = drawn_in(screen, view, "_footer")
        size_px = screen._prompt_size(view)
        rows = [d for d in drawn if d.size == size_px and d.text.rstrip("…") in view.prompt]
        widths = [(d.shown, screen._text_width(d.shown, d.size), d.width) for d in rows]
    finally:
        screen.close()
    assert rows and rows[-1].shown.endswith("…"), [d.shown for d in rows]
    assert all("…" not in d.shown for d in rows[:-1])
    # (a row may end inside a word too long for one, a folder's path: spaces aside)
    read = "".join(d.shown for d in rows)[:-1].replace(" ", "")
    whole = view.prompt.replace(" ", "")
    assert whole.startswith(read), read
    at = [i for i, c in enumerate(view.prompt) if c != " "][len(read) - 1] + 1
    # it ends at a word's end: a space (or the comma, colon dropped before "…") follows
    assert view.prompt[at] in " ,;:", view.prompt[at - 20:at + 20]
    assert all(width <= room for _, width, room in widths), widths
