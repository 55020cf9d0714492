"""No display at all: headless games, where the printed account is the output."""

from __future__ import annotations

from companion.hw.buttons import Press
from companion.hw.display.view import View


class NoDisplay:
    """Shows nothing and is never tapped."""

    def show(self, view: View) -> None:
        return None

    def poll(self) -> list[Press]:
        return []

    def close(self) -> None:
        return None
