"""Using an item at a JongRogue table asks first (buttons-only audit F5): item (I) moves the
highlight on in every menu without a *Use* of its own, so a player pressing it "to move on"
drank a healing potion at once. The question is the table's, not the game's: the save's
journal holds the choice alone, as before, and the auto-player still plays its game."""

from __future__ import annotations

from companion.app.commands.play.sim_sources import AutoChoices, SimTiles
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk, Show
from companion.systems.jongrogue.actions import input_to_notation
from companion.systems.jongrogue.autoplay import HeadlessPlayer, find_strategy, play
from companion.systems.jongrogue.game import Game
from tests.app.potion_question_helpers import MENU, SEED, TO_THE_POTION, at_the_potion
from tests.app.session_helpers import RecordingDisplay


def screens(display: RecordingDisplay) -> list[tuple[str, int | None]]:
    """Each screen shown, as its prompt and highlight, once however often it was drawn."""
    shown = [(v.prompt, v.highlight) for v in display.views]
    return [s for i, s in enumerate(shown) if i == 0 or s != shown[i - 1]]


def test_item_asks_before_the_potion_is_drunk_and_back_keeps_it() -> None:
    """I (Use) asks "Use healing potion now?": I again only moves the highlight (onto Back),
    A there goes back; I then B goes back too. Nothing was drunk, nothing journaled."""
    mode, display = at_the_potion(["item", "item", "attack", "item", "flee"])
    assert mode.game.pc.potions and mode.game.pc.hp == 14
    assert mode.journal == TO_THE_POTION
    attack = "オーク orc attack! 攻撃！"
    assert screens(display) == [(attack, 0), (MENU, 0), (MENU, 1), (attack, 0), (MENU, 0),
                                (attack, 0)]
    asked = next(v for v in display.views if v.prompt == MENU)
    assert [(o.choice, o.label, o.button.name if o.button else None) for o in asked.options] \
        == [("use:1p", "Use healing potion 回復薬を使う", "ATTACK"), ("back", "Back 戻る", "FLEE")]


def test_item_then_attack_drinks_it_and_the_journal_holds_the_choice_alone() -> None:
    potions = len(at_the_potion([])[0].game.pc.potions)
    mode, _ = at_the_potion(["item", "attack"])
    assert len(mode.game.pc.potions) == potions - 1 and mode.game.pc.hp == 15
    assert mode.journal[:len(TO_THE_POTION) + 1] == [*TO_THE_POTION, "use:1p"]
    # The save replays as it did: the choice pushed at once, no question in between.
    replayed = JongRogueMode(Game("plus"), HeadlessPlayer(SEED))
    for text in mode.journal:
        replayed.restore(text)
    assert [e.to_json() for e in replayed.game.events] == [e.to_json() for e in mode.game.events]


class Watched(AutoChoices):
    """The auto-player, with every prompt it answered kept."""

    def __init__(self, game: Game) -> None:
        super().__init__(game, find_strategy("cautious"))
        self.asked: list[str] = []

    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        self.asked.append(ask.prompt)
        return super().next_choice(ask, show)


def test_the_auto_player_answers_the_question_and_plays_its_game() -> None:
    """Seed 1's cautious player drinks potions: at the table it answers the question with
    the same choice, and its game is the headless one."""
    game, player = Game("plus"), HeadlessPlayer(SEED)
    mode, auto = JongRogueMode(game, player), Watched(game)
    Session(mode, tiles=SimTiles(game, player), choices=auto).run()
    reference = play(SEED)
    assert MENU in auto.asked
    assert mode.journal == [input_to_notation(i) for i in reference.inputs]
    assert [e.to_json() for e in game.events] == [e.to_json() for e in reference.events]
