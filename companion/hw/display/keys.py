"""Which key or button a display names beside each option."""

from __future__ import annotations

from companion.hw.buttons import NUMBER_KEYS, Button
from companion.hw.display.view import Option


def option_key(option: Option, index: int, highlight: int | None,
               names: dict[Button, str]) -> str:
    """The option's own button; else attack/confirm on the highlighted one; else its number
    key; past the tenth, the menu button that moves the highlight onto it."""
    if option.button is not None:
        return names[option.button]
    if highlight == index:
        return names[Button.ATTACK]
    return NUMBER_KEYS[index] if index < len(NUMBER_KEYS) else names[Button.MENU]
