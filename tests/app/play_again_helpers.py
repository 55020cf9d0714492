"""A JongRogue game begun headless under a given rules revision, and the seed it is begun
with, for the play-again-by-seed and history tests."""

from __future__ import annotations

from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.save import SaveGame
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.game import Game

SEED = 11


def begun(revision: int, inputs: int = 40) -> SaveGame:
    """A headless game's save after its first ``inputs`` inputs, played by ``revision``."""
    game = Game("plus", revision=revision)
    player = HeadlessPlayer(SEED, "reckless")
    mode = JongRogueMode(game, player)
    while len(mode.journal) < inputs:
        mode.push(player.answer(game))
    return SaveGame(seed=SEED, preset="plus", inputs=list(mode.journal),
                    events=len(game.events), strategy="reckless", input_kind="sim",
                    rules=revision)
