"""Displays: ``screen`` (pygame), ``terminal`` (rich), ``none``. Each backend is imported lazily.

Every display implements :class:`Display`. They render a
:class:`companion.hw.display.view.View`, and report keys and taps as presses.
"""

from __future__ import annotations

from typing import Protocol

from companion.hw.buttons import Press
from companion.hw.display.view import View

DISPLAY_KINDS = ("screen", "terminal", "none")


class Display(Protocol):
    """What the session needs from a display.

    Must implement: ``show`` (draw a whole view), ``poll`` (keys and taps
    since the last call, as presses; never blocks), ``close``.
    """

    def show(self, view: View) -> None: ...

    def poll(self) -> list[Press]: ...

    def close(self) -> None: ...


def open_display(kind: str, size: str = "auto", fullscreen: bool = False,
                 font_file: str = "", system_seconds: float | None = None,
                 text_scale: float = 1.0, rotate: str = "auto") -> Display:
    """Build a display by name; pygame is only imported for ``screen``. ``system_seconds``:
    how long the item button is held for the System menu, which the header's hint says
    (None where no buttons are wired). ``text_scale``: the screen's fonts that much larger
    (``display.text_scale``). ``rotate``: the degrees the screen's picture is turned
    clockwise, ``auto`` a quarter on a portrait panel (``display.rotate``)."""
    if kind == "screen":
        from companion.hw.display.fonts import FontFile, find_cjk_font
        from companion.hw.display.screen import ScreenDisplay

        font: FontFile | None = find_cjk_font(font_file)
        return ScreenDisplay(size, fullscreen, font=font, find_font=False,
                             system_seconds=system_seconds, text_scale=text_scale,
                             rotate=rotate)
    if kind == "terminal":
        from companion.hw.display.terminal import TerminalDisplay

        return TerminalDisplay(system_seconds=system_seconds)
    if kind == "none":
        from companion.hw.display.none import NoDisplay

        return NoDisplay()
    raise ValueError(f"display {kind!r}: choose one of {', '.join(DISPLAY_KINDS)}")
