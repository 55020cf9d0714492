"""Which key or button a display names beside each option."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.hw.buttons import Button

if TYPE_CHECKING:
    from companion.app.view import Option


def option_key(option: Option, index: int, highlight: int | None,
               names: dict[Button, str], number: str) -> str:
    """The option's own button; else attack/confirm on the highlighted one; else its number."""
    if option.button is not None:
        return names[option.button]
    if highlight == index:
        return names[Button.ATTACK]
    return number
