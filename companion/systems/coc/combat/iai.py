"""Iai: the draw-and-strike without AP, an ally's blade, sheathing, and keeping a 003 turn
open at 0 AP while an Iai is still possible (the Iai parry is with the defences, the
pommel strike with a hit's effects in :mod:`~companion.systems.coc.combat.strikes`).

Rules: CO-IAI-1 to CO-IAI-4, CO-STUN-1, CO-GRAP-3, CO-TURN-2.
"""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalAction
from companion.systems.coc import board
from companion.systems.coc.combat.actions import Attack
from companion.systems.coc.combat.fighters import Combatant
from companion.systems.coc.combat.skills import _Skills
from companion.systems.coc.sheet import Weapon

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) in which a
#: blade drawn from an ally (CO-IAI-1) stays in the ally's list of weapons, marked ``lent``, so
#: the ally's other weapons keep their numbers (``--with weapon=N``; docs/sheets.md "the first
#: is weapon 0"); revision 19 took it out, and the ally's weapon after it became its number
#: (coc72 DEFECT 2: a katana at 0 and a fist at 1, its later weapon=0 punched).
LENT_IN_PLACE = 20


def lent_out(owner: Combatant, w: Weapon) -> str:
    """CO-IAI-1: the refusal of a blade an ally drew (:data:`LENT_IN_PLACE`): in its hands."""
    return f"{owner.name}'s {w.info.name} is in {w.lent}'s hands (CO-IAI-1)"


class _Iai(_Skills):
    """Adds Iai, drawing an ally's blade and sheathing."""

    def iai_pending(self, c: Combatant) -> bool:
        """CO-IAI-2: 「三回移動後に攻撃を行ってもよい」: at 0 AP the turn stays open while an
        Iai (no AP) is still possible: not yet used, the blade sheathed, no other skill (from
        revision 4 Spot Hidden and Jump too, CO-IAI-2), not stunned, an Iai weapon in hand
        (not a two-handed one while grappling, CO-GRAP-3) and, on the board, a foe next to
        it. Only for a sheet that lists Iai (Default): one at the 1% base would wait every
        turn for nothing."""
        if self.legacy or not self.on("CO-IAI-2") or "iai" not in c.sheet.skills \
                or c.iai_used or c.drawn \
                or c.sheathed or self.other_skill_chosen(c) or c.concentrating or c.held_by:
            return False
        if self.stunned(c):
            return False
        # CO-GRAP-3; revision 2 held the turn for a two-handed blade it then refused
        two_handed_barred = self.engine >= 3 and self.on("CO-GRAP-3") and bool(c.grappling)
        if not any(w.info.iai and not (w.broken or w.dropped or w.lent)
                   and not (two_handed_barred and w.info.two_handed) for w in c.sheet.weapons):
            return False
        if not c.square or not self.on("CO-TURN-2"):
            return True
        here = board.parse(c.square)
        return any(o.side is not c.side and not o.out and o.square
                   and board.distance(here, board.parse(o.square)) <= 1
                   for o in self.cs.values())

    def borrow(self, c: Combatant, a: Attack) -> tuple[Combatant, Attack]:
        """CO-IAI-1: draw an adjacent ally's Iai weapon and attack with it at once."""
        ally = self.get(a.borrow)
        if not a.iai or not self.on("CO-IAI-1"):
            raise IllegalAction("drawing an ally's blade is for Iai (CO-IAI-1)")
        if ally.side is not c.side or ally.name == c.name:
            raise IllegalAction("draw the blade of an ally next to you (CO-IAI-1)")
        if self.engine >= 4:
            self.ally_in_reach(c, ally)
        w = self.weapon(ally, a.weapon, " to draw (CO-IAI-1)")
        if w.lent:
            raise IllegalAction(lent_out(ally, w))
        if not w.info.iai or w.broken or w.dropped:
            raise IllegalAction(f"{ally.name}'s {w.info.name} is no Iai weapon (CO-IAI-1)")
        if self.engine >= LENT_IN_PLACE:  # the ally's weapons keep their numbers
            own = self.own_blade(c, ally, w)
            if own is not None:
                return self.draw_back(c, ally, a, own)
            self.put_weapon(ally, a.weapon, replace(w, lent=c.name))
            w = replace(w, lent_from=ally.name)
        else:  # revision 19: out of the list, the later ones renumbered
            self.drop_weapon(ally, a.weapon)
        c = self.set(c, sheet=replace(c.sheet, weapons=(*c.sheet.weapons, w)))
        self.say(f"{c.name} draws {ally.name}'s {w.info.name} (CO-IAI-1)")
        return c, replace(a, weapon=len(c.sheet.weapons) - 1, borrow="")

    def drop_weapon(self, c: Combatant, index: int) -> Combatant:
        """Take ``c``'s weapon ``index`` out of its list, the later ones renumbered with their
        attacks this round (CO-TURN-6) and the gun that struck first 重火器先制 (CO-FIRE-7),
        which is none when it is the one taken out (reviewcoc75b NIT 1: a revision-19 lend
        mid-round, continued at revision 23, else pointed the first strike at another gun).
        Replay keeps: ``first_strike_weapon`` is read only from revision 23."""
        kept = tuple(x for i, x in enumerate(c.sheet.weapons) if i != index)
        tally = tuple((i - (i > index), n) for i, n in c.weapon_attacks if i != index)
        gun = c.first_strike_weapon
        gun = -1 if gun == index else gun - (gun > index)
        return self.set(c, sheet=replace(c.sheet, weapons=kept), weapon_attacks=tally,
                        first_strike_weapon=gun)

    @staticmethod
    def own_blade(c: Combatant, ally: Combatant, w: Weapon) -> int | None:
        """The number of ``c``'s own entry for the blade ``w`` that ``ally`` drew from it
        (lent to ``ally``, ``w`` drawn from ``c``), or None when ``w`` is not ``c``'s."""
        if w.lent_from != c.name:
            return None
        return next((i for i, x in enumerate(c.sheet.weapons)
                     if x.lent == ally.name and x.info.key == w.info.key), None)

    def draw_back(self, c: Combatant, ally: Combatant, a: Attack,
                  own: int) -> tuple[Combatant, Attack]:
        """CO-IAI-1, reviewcoc72 RISK 2: ``c`` draws back its own blade, which ``ally`` drew
        from it: its own entry ``own`` is in its hands again, as the ally left it (its
        durability), so its weapon numbers stay; the ally's copy goes, taken out of its list
        when it is the last (no number moves), else left marked in ``c``'s hands. Before, the
        owner got a second copy and its own number stayed "in the ally's hands"."""
        held = ally.sheet.weapons[a.weapon]
        if a.weapon == len(ally.sheet.weapons) - 1:
            self.drop_weapon(ally, a.weapon)
        else:
            self.put_weapon(ally, a.weapon, replace(held, lent=c.name))
        c = self.put_weapon(c, own, replace(held, lent="", lent_from=""))
        self.say(f"{c.name} draws back the {held.info.name} lent to {ally.name} (CO-IAI-1)")
        return c, replace(a, weapon=own, borrow="")

    def ally_in_reach(self, c: Combatant, ally: Combatant) -> None:
        """CO-IAI-1 (003 l.50 「移動中、または移動先に隣接していた他の探索者から」), from revision
        4 (before, an ally anywhere): on the board the ally stands next to ``c`` (or in its
        square), or, if ``c`` moved this round, near enough that the move could have passed
        next to it: within ``moved`` + 1 squares (a move records its length, not its route).
        Off the board the Keeper judges it, as :meth:`within_reach` leaves it."""
        if not self.board(c, ally):
            return
        apart = board.distance(board.parse(c.square), board.parse(ally.square))
        if apart > 1 + c.moved:
            raise IllegalAction(f"{ally.name} is {apart} squares away: draw the blade of an ally "
                                "next to you while moving or where you stop (CO-IAI-1)")

    def iai(self, c: Combatant, t: Combatant, a: Attack, w: Weapon) -> None:
        """CO-IAI-2: once a round, no AP, a normal attack may follow; 「＜居合＞使用ラウンドは
        その他技能は選択できない」: not in a round with an other skill, Spot Hidden and Jump
        among them from revision 4 (:meth:`other_skill_chosen`); CO-IAI-3: drawn after."""
        self.iai_allowed(c, a, w)
        c = self.set(c, iai_used=True, drawn=True)
        self.say(f"{c.name} draws and strikes: Iai, no AP (CO-IAI-2); the blade is out "
                 "(CO-IAI-3)")
        self.one_attack(c, t, a, w, first=True, skill_key="iai")

    def iai_allowed(self, c: Combatant, a: Attack, w: Weapon) -> None:
        """CO-IAI-2's checks of :meth:`iai`, before any die (a surprise's Hide roll comes after
        them, CO-SURP-1)."""
        if not self.on("CO-IAI-2"):
            raise IllegalAction("Iai is CO-IAI-2, off in this profile")
        if not w.info.iai:
            raise IllegalAction(f"Iai needs a Japanese sword or a bokuto, not {w.info.name} "
                                "(CO-IAI-1)")
        if c.iai_used:
            raise IllegalAction("Iai once a round (CO-IAI-2)")
        if c.drawn:
            raise IllegalAction("the blade is drawn: sheathe it first (CO-IAI-3)")
        if c.other_skill:
            raise IllegalAction("no Iai in a round with another skill (CO-IAI-2)")
        if self.other_skill_chosen(c):
            chosen = " and ".join(self.rules.skill(k).name for k in c.skills_used)
            raise IllegalAction(f"no Iai in a round with {chosen}, an other skill (CO-IAI-2)")
        if a.pommel and not self.on("CO-IAI-4"):
            raise IllegalAction("the pommel strike is CO-IAI-4, off in this profile")
        self.may_attack(c, w, 0, a.after_dodge, index=a.weapon)

    def sheathe(self, c: Combatant) -> None:
        """CO-IAI-3: sheathe the drawn blade (sheathe_ap); no attacks that round."""
        if not self.on("CO-IAI-3"):
            raise IllegalAction("sheathing is CO-IAI-3, off in this profile")
        if not c.drawn:
            raise IllegalAction(f"{c.name}'s blade is not drawn")
        if c.attacks or c.iai_used:
            raise IllegalAction("a round of sheathing has no attacks: sheathe before attacking "
                                "(CO-IAI-3)")
        c = self.spend(c, self.rules.num("CO-IAI-3", "sheathe_ap"), "CO-IAI-3")
        self.set(c, drawn=False, sheathed=True, spent_other=True)
        self.say(f"{c.name} sheathes the blade: no attack this round (CO-IAI-3)")
