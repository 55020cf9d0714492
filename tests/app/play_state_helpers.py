"""What the tests of `companion play`'s saves share: the seed of their headless games and an
unfinished game saved (tidy74: no test module imports another)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from companion.app.cli import main
from companion.systems.jongrogue.actions import input_from_notation
from companion.systems.jongrogue.game import Game

SEED = 2


def unfinished_game(path: Path) -> bytes:
    """An unfinished headless game of 20 moves saved at ``path``: its bytes. Its game_id is
    another than the whole game's, which the history took (review65h RISK 1: an unfinished
    save of a game in the history is over, its last writes refused)."""
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(path)]) == 0
    whole = json.loads(path.read_text())
    inputs = whole["inputs"][:20]
    played = Game.replay([input_from_notation(i) for i in inputs], whole["preset"], None,
                         revision=whole["rules"])
    whole.update(inputs=inputs, finished=False, events=len(played.events),
                 game_id=uuid.uuid4().hex)
    path.write_text(json.dumps(whole))
    return path.read_bytes()
