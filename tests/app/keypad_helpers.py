"""Shared by the keypad tests: a keyboard that presses the next key at each menu shown (Keys),
and a Keypad reading it (keypad)."""

from __future__ import annotations

from typing import Any

from companion.app.session.controls import Controls
from companion.app.session.keypad import Keypad
from companion.hw.display.view import Option
from companion.hw.keyboard import press_for_key


class Keys:
    """A keyboard whose next key is pressed each time a menu is shown (``show``)."""

    def __init__(self, keys: str) -> None:
        self.typed = iter(keys)
        self.pending: list[Any] = []
        self.menus: list[tuple[str, tuple[Option, ...], str]] = []
        self.highlights: list[int] = []  # where each menu opened
        self.idle = 0  # polls in a row with no key

    def poll(self) -> list[Any]:
        out, self.pending[:] = list(self.pending), []
        self.idle = 0 if out else self.idle + 1
        assert self.idle < 100, "the key pressed picked nothing on the menu shown"
        return out

    def show(self, prompt: str, **kwargs: Any) -> None:
        if kwargs.get("options"):  # a menu is up: the player presses the next key
            self.menus.append((prompt, kwargs["options"], kwargs.get("status", "")))
            self.highlights.append(kwargs.get("highlight", 0))
            self.pending.append(press_for_key(next(self.typed)))


def keypad(keys: Keys, why: str = "typed 手入力") -> Keypad:
    return Keypad(Controls([keys]), 0.0, why, sleep=lambda s: None)
