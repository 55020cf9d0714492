"""Drive a game by hand in tests: tiles and choices written as notation."""

from __future__ import annotations

from typing import Any

from companion.systems.jongrogue.actions import ChoiceRequest, input_from_notation
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import Game


def feed(game: Game, script: str) -> list[Event]:
    """Push each whitespace-separated token (``5m``, ``fight:1``); ``|`` is only a separator."""
    events: list[Event] = []
    for token in script.split():
        if token != "|":
            events += game.push(input_from_notation(token))
    return events


def of(events: list[Event], kind: Kind) -> list[dict[str, Any]]:
    return [e.data for e in events if e.kind is kind]


def options(game: Game) -> list[str]:
    assert isinstance(game.pending, ChoiceRequest), game.pending
    return [str(c) for c in game.pending.options]
