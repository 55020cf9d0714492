"""The Move menu: on 003's board the free squares next to each other combatant and around
the mover (CO-TURN-5); off it a number of squares.
"""

from __future__ import annotations

from companion.app.modes.coc.grapple_menus import _Grapples
from companion.app.modes.coc.words import marks
from companion.app.modes.fight import option_index, option_value
from companion.app.session.controls import BACK
from companion.app.session.mode import ChoiceAsk
from companion.hw.display.view import Option
from companion.systems.coc import board
from companion.systems.coc.combat import Action, Combatant, Move
from companion.systems.coc.rules import Profile


class _Moves(_Grapples):
    """Adds the Move menu."""

    def _moves(self, actor: Combatant) -> list[Option]:
        """Where ``actor`` may move: on 003's board the free squares next to each other
        combatant and the 8 around it (CO-TURN-5); off it a number of squares."""
        name = actor.name
        if actor.square:
            mark = marks(self.fight.state)
            here = board.parse(actor.square)
            taken = {c.square for c in self.fight.state.combatants if c.square and not c.dead}
            wanted: dict[str, str] = {}
            for c in self._others(actor):
                if not c.square:
                    continue
                there = board.parse(c.square)
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        sq = (there[0] + dx, there[1] + dy)
                        if board.on_board(sq) and board.name(sq) not in taken:
                            # By the mark on the board: a name would be cut on a button.
                            wanted.setdefault(board.name(sq), f"next to {mark[c.name]} の隣")
            for facing, (dx, dy) in board.FACINGS.items():
                sq = (here[0] + dx, here[1] + dy)
                if board.on_board(sq) and board.name(sq) not in taken:
                    wanted.setdefault(board.name(sq), f"{facing} 1 square")
            return [Option(f"to:{sq}", f"{sq} {why}") for sq, why in wanted.items()
                    if self.legal(Move(name, to=sq))]
        most = actor.ap if self.rules.profile is Profile.P003 else 1
        return [Option(f"n:{n}", f"{n} square(s) {n}マス") for n in range(1, most + 1)
                if self.legal(Move(name, n))]

    def _move(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        if not rest:
            return ChoiceAsk("Move where? 移動先は？", (*self._moves(actor), BACK))
        if rest[0].startswith("to:"):
            return Move(actor.name, to=option_value(rest[0], "to"))
        return Move(actor.name, option_index(rest[0], "n"))
