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

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) in which a
#: chanted or gestured spell is checked again when it comes due (:meth:`_Spells.held_at_the_end`):
#: a caster held since it began (a grapple, a 004 restraint) has no free body, and the spell
#: stops. Revision 19 checked only at the start, so a caster restrained mid-chant (no damage,
#: so no CO-SPELL-2 roll) still cast it (coc72 DEFECT 3).
HELD_AT_THE_END = 20
#: The first engine revision in which a cast with a blank spell name is refused before its
#: MP and action are spent (coc74 NIT 4); revision 21 took it, spent both and cast nothing.
SPELL_NAMED = 22


class _Spells(_Board):
    """Adds spells and their chants."""

    def cast(self, c: Combatant, a: Cast) -> None:
        """CO-SPELL-1: a chanted or gestured spell needs a free body; it takes effect at the
        caster's next turn (Default), unless a hit interrupts it first (CO-SPELL-2)."""
        if not self.on("CO-SPELL-1"):
            raise IllegalAction("spellcasting in a fight is CO-SPELL-1, off in this profile")
        if a.verbal and not a.automatic and c.held_by:
            raise IllegalAction(f"{c.name} is held and cannot chant or gesture (CO-SPELL-1)")
        if not a.spell.strip() and self.engine >= SPELL_NAMED:
            raise IllegalAction(f"{c.name} casts no spell: name it, spell=… (CO-SPELL-1)")
        if c.chanting:
            raise IllegalAction(f"{c.name} is already chanting {c.chanting}")
        if a.mp < 0:  # coc74 NIT 4: refused before too, as "Ann has 10 MP"
            raise IllegalAction(f"a spell costs 0 MP or more, found mp={a.mp} (CO-SPELL-1)")
        if a.mp > c.mp:
            raise IllegalAction(f"{c.name} has {c.mp} MP, not the {a.mp} {a.spell} costs "
                                "(CO-SPELL-1)")
        c = self.one_action(c, "CO-SPELL-1", self.other_skill_ap())
        self.set(c, mp=c.mp - a.mp, chanting=a.spell, chant_automatic=a.automatic,
                 chant_verbal=a.verbal,
                 chant_turns=max(1, int(self.rules.default("CO-SPELL-2", "chant_turns"))))
        self.say(f"{c.name} begins {a.spell} (MP −{a.mp} = {c.mp - a.mp}): it takes effect at "
                 f"the start of {c.name}'s turn (CO-SPELL-1)")

    def held_at_the_end(self, c: Combatant) -> bool:
        """CO-SPELL-1 (004 l.152-153 「"詠唱/祝詞"や"身振り/舞"が必要な場合の呪文は往々にして
        「体が自由かつ、活動的な状態にある」場合でないと使用できない。よって、組み付き等の技能に
        よる攻撃で自由を奪われた場合は呪文を使用することはできない」): from revision
        :data:`HELD_AT_THE_END`, a chanted or gestured spell (not ``automatic``, CO-SPELL-2's
        semi-automatic ones) whose caster is held when it comes due does not take effect: the
        chant is the casting, and a grapple took the free body it needs. Said, and the chant
        ends (its MP stay spent, as an interrupted chant's do). Whether it was stopped."""
        if (self.engine < HELD_AT_THE_END or not self.on("CO-SPELL-1") or not c.held_by
                or not c.chant_verbal or c.chant_automatic):
            return False
        self.set(c, chanting="", chant_automatic=False, chant_verbal=False, chant_turns=0)
        self.say(f"{c.name}'s {c.chanting} stops: {c.name} is held by {c.held_by} and cannot "
                 "chant or gesture (CO-SPELL-1)")
        return True

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
