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
from tests.app.session_helpers import RecordingDisplay
from tests.app.table import Buttons

# Seed 1 (cautious), the auditor's wall: after these inputs a monster attacks in room 2 of
# floor 3, with HP 14/15 and a healing potion held, so the menu offers *Use* on item.
SEED = 1
TO_THE_POTION = (
    "9m 5m 8p 8m 5z shoot:1 2z 4z 7s 5p 4m shoot:2 7p take stairs 1m 2z 9s 4p 5p take keep "
    "keep move:2 2s 6z 7s 1m shoot:3 5s 6p take move:3 7z 6s 8s 8m shoot:4 1s fight:4 4m "
    "take move:6 2p 5z 1m 4z shoot:5 3s 9p take stairs 1m 4p 4s 7m 5p shoot:6 2z 9s 8p take "
    "keep keep move:2 8m 6p 7p 9p shoot:7 1z 3p 6z 4s 6s shoot:7 6p take move:3 1p 9s 5z 9p "
    "take stairs 6z 6m 8s 4m 2p 8p shoot:8 3z 1s fight:8 7m take move:3 1p 1p 5s 1s take "
    "move:2 4p 2m 7p 8m shoot:9 3p 4p 7m shoot:10 7m take keep move:1 1z 3m 2s 9m shoot:11 "
    "5s 4z 2p 5z fight:12 7s fight:12 2m").split()
MENU = "Use healing potion now? 本当に回復薬を使う？"


class Stop(Exception):
    """The player stops (a power cut) once the script has run out."""


def at_the_potion(presses: list[str]) -> tuple[JongRogueMode, RecordingDisplay]:
    """The seed-1 game at the potion, played on the buttons from ``presses``, one a menu."""
    game, player = Game("plus"), HeadlessPlayer(SEED)
    mode = JongRogueMode(game, player)
    display, buttons = RecordingDisplay(), Buttons()
    script = list(presses)
    shown = [0]

    def sleep(_: float) -> None:
        if len(display.views) == shown[0]:
            return  # one press a screen: the next waits for the screen it changed
        shown[0] = len(display.views)
        if not script:
            raise Stop
        buttons.press(script.pop(0))

    session = Session(mode, tiles=SimTiles(game, player),
                      choices=buttons.choices(display, sleep), display=display)
    session.replay(TO_THE_POTION)
    try:
        buttons.run(session)
    except Stop:
        pass
    assert not script
    return mode, display


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
