"""The Cast menu: the MP a spell costs, then chanted, silent or going on by itself
(CO-SPELL-1; a hit may interrupt a chant, CO-SPELL-2).
"""

from __future__ import annotations

from companion.app.modes.coc.treat_menu import _Treat
from companion.app.modes.coc.words import CASTS, SPELL, SPELL_MP
from companion.app.modes.fight import option_index, option_value
from companion.app.session.controls import BACK
from companion.app.session.mode import ChoiceAsk
from companion.errors import IllegalAction
from companion.hw.display.view import Option
from companion.systems.coc.combat import Action, Cast, Combatant


class _Cast(_Treat):
    """Adds the Cast menu."""

    def _cast(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """CO-SPELL-1: the MP it costs, then chanted, silent or going on by itself (a hit may
        interrupt a chant, CO-SPELL-2)."""
        name = actor.name
        if not rest:
            return ChoiceAsk(f"{name} casts for how many MP? 消費MPは？ (MP {actor.mp})", (
                *(Option(f"n:{n}", f"{n} MP") for n in SPELL_MP
                  if any(self.legal(Cast(name, SPELL, n, v, a)) for _, _, v, a in CASTS)),
                BACK))
        mp = option_index(rest[0], "n")
        if len(rest) < 2:
            return ChoiceAsk("How is it cast? 詠唱は？", (
                *(Option(f"k:{key}", label) for key, label, v, a in CASTS
                  if self.legal(Cast(name, SPELL, mp, v, a))), BACK))
        kind = option_value(rest[1], "k")
        found = [(v, a) for key, _, v, a in CASTS if key == kind]
        if not found:
            raise IllegalAction(f"there is no choice {rest[1]!r} now")
        return Cast(name, SPELL, mp, *found[0])
