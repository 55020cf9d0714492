"""A killing blow's HP: the damage line, the Last check 判定 panel and the sheet say the same
0 (display audit 56 #11: the header said HP 0/17, the log "= 6 → HP -1"); the event keeps
the engine's own number, which the log file and replay compare."""

from __future__ import annotations

from companion.app.modes.jongrogue import JongRogueMode
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.narration import describe


def killed_below_0() -> JongRogueMode:
    """The first reckless game of seeds 6 to 19 ended by a blow that took the PC below 0
    HP: searched, not one seed fixed, as which seed does so changes with the rules."""
    for seed in range(6, 20):
        game = Game("plus")
        player = HeadlessPlayer(seed, "reckless")
        mode = JongRogueMode(game, player)
        while game.outcome() is None:
            mode.push(player.answer(game))
        if game.pc.hp < 0:
            return mode
    raise AssertionError("no reckless game of seeds 6-19 ended below 0 HP")


def test_a_blow_below_0_hp_is_told_and_shown_as_hp_0() -> None:
    mode = killed_below_0()
    game = mode.game
    blow = [e for e in game.events if e.kind is Kind.DAMAGE][-1]
    assert game.pc.hp == blow.data["hp"] < 0  # the engine's number, kept in the event
    view = mode.view("")
    line = describe(blow)
    assert line.endswith(f"= {blow.data['amount']} → HP 0")
    assert view.sheet is not None and view.sheet.hp == 0
    assert line in view.last_check and line in view.log
