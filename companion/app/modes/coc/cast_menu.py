"""The Cast menu: the MP a spell costs (a common amount, or any other typed on a keypad,
:mod:`.amounts`), then chanted, silent or going on by itself (CO-SPELL-1; a hit may
interrupt a chant, CO-SPELL-2).
"""

from __future__ import annotations

from companion.app.modes.coc.amounts import Amount, amount
from companion.app.modes.coc.treat_menu import _Treat
from companion.app.modes.coc.words import CASTS, SPELL, SPELL_MP
from companion.app.modes.fight import option_value
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
        common = tuple(n for n in SPELL_MP
                       if any(self.legal(Cast(name, SPELL, n, v, a)) for _, _, v, a in CASTS))
        picked = amount(Amount(f"{name} casts for how many MP? 消費MPは？ (MP {actor.mp})",
                               common, 0, actor.mp, f"{name} has {actor.mp} MP (CO-SPELL-1)",
                               " MP"), rest)
        if isinstance(picked, ChoiceAsk):
            return picked
        mp, rest = picked
        if not rest:
            return ChoiceAsk("How is it cast? 詠唱は？", (
                *(Option(f"k:{key}", label) for key, label, v, a in CASTS
                  if self.legal(Cast(name, SPELL, mp, v, a))), BACK))
        kind = option_value(rest[0], "k")
        found = [(v, a) for key, _, v, a in CASTS if key == kind]
        if not found:
            raise IllegalAction(f"there is no choice {rest[0]!r} now")
        return Cast(name, SPELL, mp, *found[0])
