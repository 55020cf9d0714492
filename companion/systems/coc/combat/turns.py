"""Rounds and turns: a new round in DEX order (ties by 1D100), the dying's rolls, each turn's
AP, the end of a round, passing the turn after an action, and the declarations: delaying to
DEX/2 and dodge concentration.

Rules: CO-TURN-1, CO-TURN-3, CO-BASE-5, CO-DEATH-1, CO-BASE-8, CO-ARMOR-2 (armour breaks at
the round's end), CO-STUN-1, CO-GRAP-3, CO-SPELL-2, CO-IAI-2, CO-DODGE-1, CO-DODGE-3,
CO-DODGE-8, CO-DODGE-4 with CO-FIRE-7 (no concentration after a first strike).
"""

from __future__ import annotations

from dataclasses import replace

from companion.dice import roll
from companion.errors import DataError, IllegalAction
from companion.systems.coc.checks import check
from companion.systems.coc.combat.attacks import _Attacks
from companion.systems.coc.combat.damage import HOLD_FROM_WITHIN, STUN_TURN
from companion.systems.coc.combat.fighters import Combatant, Condition

#: The first engine revision in which what a round's start brings before its order (a dying
#: one's CON×5, CO-DEATH-1, 003 l.114 「毎ラウンドCON×5でロールし」, the Default "at the start
#: of each round"; bleeding, CO-BODY-6; a tackle's pin, CO-TACKLE-3) comes after a line
#: that says the round begins, ``round 2 begins 第2ラウンド開始``: revision
#: 25 said them before the "round 2: …" order line, so the log read as if a dying one died
#: in round 1 (a78cocfight NIT 5).
ROUND_BEGINS_SAID = 26


class _Turns(_Attacks):
    """Adds rounds and turns, and the declarations of delay and concentration."""

    def new_round(self) -> None:
        """CO-TURN-1 / CO-BASE-5: a new round in DEX order; ties by 1D100, lowest first."""
        self.round += 1
        for name in self.names:
            c = self.cs[name]
            self.set(c, dodges=0, parries=0, attacks=0, other_skill=False, ap=0,
                     treat_failed=False, first_aid_tries=0, concentrating=False, first_strike=0,
                     first_strike_weapon=-1, slot_pending=False, half_dex=False, delayed_ap=0,
                     spent_other=False, iai_used=False, sheathed=False, no_more_shots=False,
                     moved=0, shots=0, jammed_now=(), skills_used=(), weapon_attacks=())
        self.opened = False
        said = len(self.lines)
        self.dying_rolls()
        self.bleed()
        self.pins()
        if len(self.lines) > said and self.engine >= ROUND_BEGINS_SAID:
            self.lines.insert(said, f"round {self.round} begins 第{self.round}ラウンド開始")
        rule = "CO-TURN-1" if self.on("CO-TURN-1") else "CO-BASE-5"
        ties: dict[str, int] = {}
        die = self.rules.default("CO-TURN-1", "tie_break_die")  # the tie's die (1D100)
        dexes = [self.cs[n].sheet.stat("DEX") for n in self.names]
        for name, dex in zip(self.names, dexes, strict=True):
            if dexes.count(dex) > die:
                raise DataError(f"CO-TURN-1.tie_break_die: a 1D{die} cannot order the "
                                f"{dexes.count(dex)} characters with DEX {dex}")
            if dexes.count(dex) > 1:
                while True:
                    tie = f"{name}'s DEX tie 同DEXの順番 1D{die} (lowest first)"
                    value = roll(f"1D{die}", self.source,
                                 purpose=self.round_start(tie)).total
                    same = [n for n in ties if ties[n] == value and
                            self.cs[n].sheet.stat("DEX") == dex]
                    if not same:
                        ties[name] = value
                        break
        self.order = tuple(sorted(self.names, key=lambda n: (-self.cs[n].sheet.stat("DEX"),
                                                             ties.get(n, 0))))
        self.turn = -1
        shown = ", ".join(f"{n}(DEX {self.cs[n].sheet.stat('DEX')}"
                          + (f", 1D{die}={ties[n]}" if n in ties else "") + ")" for n in self.order)
        self.say(f"round {self.round}: {shown} ({rule})")
        self.next_turn()

    def dying_rolls(self) -> None:
        """CO-DEATH-1 (003): each dying investigator rolls CON×5 at the round's start."""
        if not self.on("CO-DEATH-1"):
            return
        for name in self.names:
            c = self.cs[name]
            if c.dead or not c.has(Condition.DYING, self.round):
                continue
            why = self.round_start(f"{name} is dying 瀕死 (CO-DEATH-1)")
            times = self.rules.num("CO-DEATH-1", "con_multiplier")
            made = check(self.source, c.sheet.stat("CON") * times, self.r5, f"{name} CON×{times}",
                         why=why)
            self.say(f"{made.text} (CO-DEATH-1)")
            if not made.success:
                self.die(c, f"failed CON×{times} while dying (CO-DEATH-1)")

    def next_turn(self) -> None:
        """CO-TURN-1 / CO-BASE-5: the next one in the order who can act; after the last,
        :meth:`end_round`. A 003 held one whose turn is skipped but who is not out (fallen,
        CO-MELEE-4; no action, CO-STUN-3) still makes CO-GRAP-2's STR roll (from revision 12):
        it loses the choice of actions, and the seed's roll is no action but happens by itself
        (003 l.34 「敵のラウンド時にSTRにて対抗ロールが発生し」).

        From revision :data:`~companion.systems.coc.combat.damage.HOLD_FROM_WITHIN`, as a
        held one's turn comes, a holder that is out lets go of it first ("CO-GRAP-1 (out)",
        reviewcoc73 RISK 2): a fight begun by revision 20, where a stun left a holder
        unconscious still holding, and played on by 21 frees the held one then; revision 20
        left it to break free by STR."""
        while True:
            self.turn += 1
            if self.turn >= len(self.order):
                self.end_round()
                return
            c = self.cs[self.order[self.turn]]
            if self.engine >= HOLD_FROM_WITHIN and c.held_by and self.cs[c.held_by].out:
                self.release_if_out(self.cs[c.held_by])  # reviewcoc73 RISK 2: one carried on
                c = self.cs[c.name]
            if self.can_act(c):
                self.begin_turn(c)
                return
            if self.engine >= 12 and not c.out:
                c = self.strain(c)
            why = "dead" if c.dead else "cannot act"
            self.say(f"{c.name} is skipped ({why})")

    def begin_turn(self, c: Combatant) -> None:
        """CO-TURN-3: a turn's AP in 003, less CO-STUN-1 stun and CO-GRAP-3 holds, after the held
        one's CO-GRAP-2 STR roll; a DEX/2 turn (CO-TURN-1 / CO-BASE-5); a chant comes due
        (CO-SPELL-2). CO-STUN-1 (003 〇スタンについて 「相手は次回攻撃が選択できず行動ポイント
        を-1ポイントする。この状態は敵のラウンド時CON×5に成功するまで持続する。成功した場合行動
        ポイントは1回復する」): a turn that begins stunned rolls CON×5; a success removes one
        stack, its AP back in this turn, a failure keeps it for the next turn's roll. From
        revision :data:`STUN_TURN` that turn has no attack whatever the roll (``stun_round``,
        :meth:`stunned`); revision 17 let a success attack in it, so a stun could do nothing."""
        c = self.set(c, spent_other=False)
        c = self.strain(c)  # CO-GRAP-2 (003): before the AP, which the grapple's end frees
        if c.slot_pending:
            ap = c.delayed_ap
            held = self.grapple_ap(c, ap) if self.engine >= 4 else ap  # 3: kept, held or not
            c = self.set(c, slot_pending=False, half_dex=True, ap=held, delayed_ap=0)
            rule = "CO-TURN-1" if self.p003 else "CO-BASE-5"
            rule += ", CO-GRAP-3" if held < ap else ""
            self.say(f"{c.name} acts at DEX/2 ({self.half_dex(c)})"
                     + (f": {c.ap} AP" if self.p003 else "") + f" ({rule})")
            return
        if c.chanting and c.chant_turns <= 1 and self.held_at_the_end(c):
            c = self.cs[c.name]
        elif c.chanting and c.chant_turns <= 1:
            self.say(f"{c.name}'s {c.chanting} takes effect (CO-SPELL-2)")
            c = self.set(c, chanting="", chant_automatic=False, chant_turns=0)
        elif c.chanting:
            c = self.set(c, chant_turns=c.chant_turns - 1)
            self.say(f"{c.name} chants on: {c.chanting} in {c.chant_turns} turn(s) (CO-SPELL-2)")
        if not self.p003:
            return
        ap = self.rules.num("CO-TURN-3", "action_points")
        if self.on("CO-STUN-1") and c.stun:
            why = self.turn_start(c, f"{c.name} is stunned 朦朧 (CO-STUN-1)")
            times = self.rules.num("CO-STUN-1", "con_multiplier")
            made = check(self.source, c.sheet.stat("CON") * times, self.r5,
                         f"{c.name} CON×{times}", why=why)
            stun = c.stun - 1 if made.success else c.stun
            # 003 「相手は次回攻撃が選択できず」: from revision 18 this turn has no attack
            # whatever the roll, which decides only whether the stack and its AP come back now
            barred = self.engine >= STUN_TURN
            self.say(f"{made.text} (CO-STUN-1: stun {c.stun} → {stun}"
                     + ("; no attack this turn" if barred else "") + ")")
            c = self.set(c, stun=stun, stun_round=self.round if barred else c.stun_round)
            ap -= c.stun
        ap = self.grapple_ap(c, ap)
        self.set(c, ap=max(0, ap))
        self.say(f"{c.name}'s turn: {max(0, ap)} AP (CO-TURN-3)")

    def end_round(self) -> None:
        """The round's end: CO-ARMOR-2 armour breaks, CO-BASE-8's untreated dying die; then a new
        round unless the fight is over."""
        for name in self.names:
            c = self.cs[name]
            if self.on("CO-ARMOR-2") and any(a.breaking for a in c.sheet.armour):
                kept = tuple(a for a in c.sheet.armour if not a.breaking)
                self.say(f"{name}'s armour breaks at the end of the round (CO-ARMOR-2)")
                c = self.set(c, sheet=replace(c.sheet, armour=kept))
            if self.on("CO-BASE-8") and not c.dead and c.dying_until == self.round:
                self.die(c, "not treated by the end of the next round (CO-BASE-8)")
        if self.over():
            self.order, self.turn = (), 0
            return
        if all(self.cs[n].out for n in self.names):
            # Both sides down at once (a blow and its MA counter): no side stands and nobody
            # can act, so no round follows (new rounds with no turn in them looped for ever).
            self.say("nobody is left standing on either side: the fight stops "
                     "(the Keeper tells what follows)")
            self.order, self.turn = (), 0
            return
        self.new_round()

    def over(self) -> bool:
        return self.freeze().outcome() is not None

    def finish(self, actor: Combatant) -> None:
        """After an action: 004 passes the turn (CO-BASE-5); 003 when the AP are spent."""
        if self.over():
            self.say(f"the fight is over: the {self.freeze().outcome().value} stand")  # type: ignore[union-attr]
            self.order, self.turn = (), 0
            return
        c = self.cs[actor.name]
        if self.p003 and c.ap <= 0 and self.can_act(c) and self.iai_pending(c):
            self.say(f"{c.name} may still strike with Iai, which costs no AP, or end the turn "
                     "(CO-IAI-2)")
            return
        if not self.p003 or c.ap <= 0 or not self.can_act(c):
            self.next_turn()

    def settle(self) -> None:
        """After an out-of-turn action: the fight may be over; from revision 4 the one whose
        turn it is, if it put that one down, loses the rest of its turn (:meth:`end_if_down`).
        """
        if self.over():
            self.say(f"the fight is over: the {self.freeze().outcome().value} stand")  # type: ignore[union-attr]
            self.order, self.turn = (), 0
        elif self.engine >= 4:
            self.end_if_down()

    def end_if_down(self) -> None:
        """CO-DEATH-1 (003) / CO-BASE-8 (004): unconscious, dying or dead, a character has no
        actions: when a Keeper's event (a burn, a fall) or a first strike puts the one whose
        turn it is down, its turn ends there, as :meth:`finish` ends the turn of an actor an
        attack put down (revision 3 and before let it act on)."""
        if not 0 <= self.turn < len(self.order):
            return
        c = self.cs[self.order[self.turn]]
        if self.can_act(c):
            return
        rule = "CO-DEATH-1" if self.on("CO-DEATH-1") else "CO-BASE-8"
        state = "dead" if c.dead else "unconscious" if c.out else "unable to act"
        self.say(f"{c.name} is {state}: its turn ends ({rule})")
        self.next_turn()

    def delay(self, c: Combatant) -> None:
        """Take the turn at DEX/2 (CO-TURN-1 in 003, keeping the AP; CO-BASE-5 in 004)."""
        if c.half_dex or c.slot_pending:
            raise IllegalAction(f"{c.name} already acts at DEX/2")
        if self.p003:
            if c.ap < self.rules.num("CO-TURN-3", "action_points") - c.stun or c.attacks:
                raise IllegalAction("delay before spending any AP (CO-TURN-1)")
            c = self.set(c, delayed_ap=c.ap, ap=0)
        elif c.attacks:
            raise IllegalAction("delay instead of acting (CO-BASE-5)")
        c = self.set(c, slot_pending=True)
        self.slot(c)
        rule = "CO-TURN-1" if self.p003 else "CO-BASE-5"
        self.say(f"{c.name} will act at DEX/2 ({self.half_dex(c)}) ({rule})")

    def concentrate(self, c: Combatant) -> None:
        """CO-DODGE-1 (003) / CO-DODGE-8 (004): declared before the round's first action, and
        from revision 4 not after a first strike (CO-FIRE-7): 004 「回避をした者(回避する者)は
        攻撃をすることはできない」 (CO-DODGE-4), and the strike came first."""
        rule = "CO-DODGE-1" if self.p003 else "CO-DODGE-8"
        if not self.on(rule):
            raise IllegalAction(f"dodge concentration ({rule}) is off in this profile")
        if c.concentrating:
            raise IllegalAction(f"{c.name} already concentrates on dodging")
        if self.has_attacked(c):  # a first strike (revision 4; before, taken)
            rule += "" if self.p003 else ", CO-DODGE-4"
            raise IllegalAction(f"{c.name} has attacked this round: no dodge concentration "
                                f"({rule})")
        self.set(c, concentrating=True)
        bonus = self.rules.num(rule.split(",")[0], "bonus")  # the seed's, from the data
        if self.p003:
            self.say(f"{c.name} concentrates on dodging: +{bonus}% to Dodge, MA, Iai and weapon "
                     "parries, may only move, may dodge from behind (CO-DODGE-1, CO-DODGE-3)")
        else:
            self.say(f"{c.name} concentrates on dodging: +{bonus}% and any number of dodges, "
                     "no attack this round (CO-DODGE-8)")
