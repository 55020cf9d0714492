"""No display at all: headless games, where the printed account is the output."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.hw.buttons import Press

if TYPE_CHECKING:
    from companion.app.view import View


class NoDisplay:
    """Shows nothing and is never tapped."""

    def show(self, view: View) -> None:
        return None

    def poll(self) -> list[Press]:
        return []

    def close(self) -> None:
        return None
