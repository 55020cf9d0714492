"""Spells in a fight: casting, chanting until it takes effect, and a hit interrupting the
chant.

Rules: CO-SPELL-1, CO-SPELL-2.
"""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.systems.coc.checks import check
from companion.systems.coc.combat.actions import Cast
from companion.systems.coc.combat.board_moves import _Board
from companion.systems.coc.combat.fighters import Combatant


class _Spells(_Board):
    """Adds spells and their chants."""

    def cast(self, c: Combatant, a: Cast) -> None:
        """CO-SPELL-1: a chanted or gestured spell needs a free body; it takes effect at the
        caster's next turn (Default), unless a hit interrupts it first (CO-SPELL-2)."""
        if not self.on("CO-SPELL-1"):
            raise IllegalAction("spellcasting in a fight is CO-SPELL-1, off in this profile")
        if a.verbal and not a.automatic and c.held_by:
            raise IllegalAction(f"{c.name} is held and cannot chant or gesture (CO-SPELL-1)")
        if c.chanting:
            raise IllegalAction(f"{c.name} is already chanting {c.chanting}")
        if not 0 <= a.mp <= c.mp:
            raise IllegalAction(f"{c.name} has {c.mp} MP")
        c = self.one_action(c, "CO-SPELL-1", self.other_skill_ap())
        self.set(c, mp=c.mp - a.mp, chanting=a.spell, chant_automatic=a.automatic,
                 chant_turns=max(1, int(self.rules.default("CO-SPELL-2", "chant_turns"))))
        self.say(f"{c.name} begins {a.spell} (MP −{a.mp} = {c.mp - a.mp}): it takes effect at "
                 f"the start of {c.name}'s turn (CO-SPELL-1)")

    def chant_hit(self, t: Combatant) -> None:
        """CO-SPELL-2: damage stops the chant unless POW×1 succeeds; automatic spells go on."""
        if not t.chanting or not self.on("CO-SPELL-2"):
            return
        if t.out:
            self.set(t, chanting="", chant_automatic=False)
            self.say(f"{t.name}'s {t.chanting} stops: the caster is out (CO-SPELL-2)")
            return
        if t.chant_automatic:
            self.say(f"{t.name}'s {t.chanting} goes on by itself (CO-SPELL-2)")
            return
        made = check(self.source, t.sheet.stat("POW") * self.rules.num(
            "CO-SPELL-2", "pow_multiplier"), self.r5, f"{t.name} POW×1")
        self.say(f"{made.text} (CO-SPELL-2)")
        if made.success:
            self.say(f"{t.name} chants on through the pain (CO-SPELL-2)")
        else:
            self.set(t, chanting="", chant_automatic=False)
            self.say(f"{t.name}'s {t.chanting} is interrupted (CO-SPELL-2)")
