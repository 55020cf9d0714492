"""The Treat menu: whom, and with First Aid or Medicine (CO-SKILL-2/3 in 003, CO-BASE-8 in
004).
"""

from __future__ import annotations

from companion.app.modes.coc.move_menu import _Moves
from companion.app.modes.fight import option_value
from companion.app.session.controls import BACK
from companion.app.session.mode import ChoiceAsk
from companion.hw.display.view import Option
from companion.systems.coc.combat import Action, Combatant, Treat


class _Treat(_Moves):
    """Adds the Treat menu."""

    def _treat(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """First Aid or Medicine (CO-SKILL-2/3 in 003; CO-BASE-8 in 004): whom, which skill."""
        name = actor.name
        skills = ("first_aid", "medicine")
        if not rest:
            return self._pick("Treat whom? 治療する相手は？", [
                c for c in self.fight.state.combatants
                if any(self.legal(Treat(name, c.name, s)) for s in skills)])
        target = option_value(rest[0], "t")
        usable = [s for s in skills if self.legal(Treat(name, target, s))]
        if len(usable) > 1 and len(rest) < 2:
            return ChoiceAsk("Which skill? 技能は？", (
                *(Option(f"s:{s}", self.rules.skill(s).name) for s in usable), BACK))
        skill = option_value(rest[1], "s") if len(usable) > 1 else usable[0]
        return Treat(name, target, skill)
