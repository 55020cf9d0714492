"""A killing blow's HP: the damage line, the Last check 判定 panel and the sheet say the same
0 (display audit 56 #11: the header said HP 0/17, the log "= 6 → HP -1"); the event keeps
the engine's own number, which the log file and replay compare."""

from __future__ import annotations

from companion.app.modes.jongrogue import JongRogueMode
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.narration import describe


def test_a_blow_below_0_hp_is_told_and_shown_as_hp_0() -> None:
    game = Game("plus")
    player = HeadlessPlayer(6, "reckless")  # killed by a blow that takes it to HP -2
    mode = JongRogueMode(game, player)
    while game.outcome() is None:
        mode.push(player.answer(game))
    blow = [e for e in game.events if e.kind is Kind.DAMAGE][-1]
    assert game.pc.hp == blow.data["hp"] < 0  # the engine's number, kept in the event
    view = mode.view("")
    line = describe(blow)
    assert line.endswith(f"= {blow.data['amount']} → HP 0")
    assert view.sheet is not None and view.sheet.hp == 0
    assert line in view.last_check and line in view.log
