"""The bottom layer of the coc mode: the fight and its rules, an action and a name as the
screen shows them (English beside the Japanese), who has won, and what every menu uses:
everyone else still alive, a menu of whom, whether the actor dodged this round (CO-DODGE-4,
CO-DODGE-5) and a weapon's label with its rounds.

The mode is a chain of layers, each a subclass of the one below that may call any method
beneath it: ``_Core`` → ``_FightView`` → ``_Defences`` → ``_Circumstances`` → ``_Attacks`` →
``_Grapples`` → ``_Moves`` → ``_Treat`` → ``_Cast`` → ``_KeeperMenu`` →
:class:`CocFightMode`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.app.modes.coc.words import (
    ENDED,
    NOBODY_STANDS,
    OUTCOMES,
    SIDES,
    describe,
    english,
)
from companion.app.modes.fight import FightMode
from companion.app.session.controls import BACK
from companion.app.session.mode import Answer, ChoiceAsk
from companion.app.session.rolls import NeedDice
from companion.hw.display.view import Option
from companion.systems.coc.combat import BETWEEN_ACTIONS, Action, Combatant, Fight, FightState
from companion.systems.coc.rules import CocRules, WeaponKind


class _Core(FightMode):
    """The fight, its rules, names and outcome, and the helpers every menu uses."""

    def __init__(self, fight: Fight, source_name: str = "") -> None:
        super().__init__(fight, source_name)
        self.fight: Fight = fight
        self.rules: CocRules = fight.rules
        #: What a resumed table says of the engine revision it plays on by, in the status
        #: line until the next answer (:func:`~companion.app.modes.coc.table.older_engine`).
        self.resumed = ""

    def answer(self, value: Answer) -> list[Any]:
        self.resumed = ""
        return super().answer(value)

    def describe(self, action: Action) -> str:
        return self.with_english(describe(action, self.fight.state, self.played_from(action),
                                          self.rules.profile))

    def played_from(self, action: Action) -> FightState:
        """The state ``action`` is or was played from, for whom a choke or throw holds: the
        one before it when it is the last played (the Result's title, Undo's question), else
        the fight's own (one still being played or just undone)."""
        fight = self.fight
        if fight.journal and fight.journal[-1].action is action:
            return fight.states[-2]
        return fight.state

    def roll_prompt(self, action: Action, need: NeedDice) -> str:
        """As every fight's; but a roll the start of a round or turn makes (a dying
        investigator's CON×5, CO-DEATH-1; a stunned one's, CO-STUN-1; bleeding; a DEX tie)
        is no part of the action whose end brought it: its own reason first, that action
        after it only as when it comes (table audit gc #6)."""
        if need.purpose.startswith(BETWEEN_ACTIONS):
            return self.with_english(f"{need.purpose} (after 行動後: {self.describe(action)})")
        return super().roll_prompt(action, need)

    def english_names(self) -> dict[str, str]:
        state = self.fight.state
        return {c.name: english(state, c) for c in state.combatants}

    def _outcome(self) -> str:
        """How the fight ended ("" while it goes on): a side standing, nobody standing, or
        the Keeper's end (review59a R2: one ended by `coc fight end` said nothing)."""
        state = self.fight.state
        side = state.outcome()
        if side is not None:
            return OUTCOMES[side]
        if state.combatants and all(c.out for c in state.combatants):
            return NOBODY_STANDS
        return ENDED if state.over else ""

    def _others(self, actor: Combatant) -> list[Combatant]:
        """Everyone else still alive, the other side first."""
        alive = [c for c in self.fight.state.combatants if c.name != actor.name and not c.dead]
        return sorted(alive, key=lambda c: c.side is actor.side)

    def _pick(self, prompt: str, people: Sequence[Combatant]) -> ChoiceAsk:
        """Whom: each button names the one picked English first (a button cut short, or a
        screen without a Japanese font, keeps it), then its Japanese name and side."""
        state = self.fight.state
        return ChoiceAsk(prompt, (*(Option(f"t:{c.name}", " ".join(dict.fromkeys(
            (english(state, c), c.name, SIDES[c.side].ja)))) for c in people), BACK))

    def _dodged(self, actor: Combatant) -> bool:
        """CO-DODGE-4: ``actor`` dodged this round, so a grapple or tackle is offered as the
        Keeper may allow it, at −50% (CO-DODGE-5; the engine says whether it may)."""
        return actor.dodges > 0 and self.rules.on("CO-DODGE-4")

    def _weapon_label(self, c: Combatant, index: int) -> str:
        w = c.sheet.weapons[index]
        extra = f" {w.loaded}/{w.info.magazine}" if w.info.kind is WeaponKind.FIREARM else ""
        return f"{w.info.name}{extra}"
