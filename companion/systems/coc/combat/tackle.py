"""Tackles: the damage, the blow back, the knock down, and the pin that turns it into a
grapple at the next round.

Rules: CO-TACKLE-1, CO-TACKLE-2, CO-TACKLE-3, CO-GRAP-1, CO-GRAP-6, CO-TURN-2, CO-BASE-5.
"""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.systems.coc import board
from companion.systems.coc.combat.actions import TACKLE_OPTIONS, Attack, Defence, Tackle
from companion.systems.coc.combat.fighters import Combatant, Condition
from companion.systems.coc.combat.grapples import FIELDS_THAT_APPLY, ONE_HOLDER, _Grapples
from companion.systems.coc.rules import WeaponKind
from companion.systems.coc.sheet import skill_value

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) in which
#: CO-TACKLE-2's blow back moves a grappled pair together (CO-GRAP-1, 003 l.33
#: 「対象は探索者のマスに引き寄せられひと固まりとして考える」), as CO-MELEE-2's knockback does;
#: revision 18 slid the target alone, and the grapple held across the board.
PAIR_BLOWN_TOGETHER = 19
#: The first engine revision in which CO-TACKLE-3's pin on 003's board is CO-GRAP-1's
#: grapple there: the pinned one pulled into the tackler's square, from next to it only
#: (:meth:`_Tackle.pins`); revision 18 pinned at any distance and moved nobody.
PIN_ON_THE_BOARD = 19


class _Tackle(_Grapples):
    """Adds tackles and their pins."""

    def tackle(self, c: Combatant, a: Tackle) -> None:
        """CO-TACKLE-1: a Tackle success deals 1d6+db, or instead blows the target back
        (CO-TACKLE-2) or knocks it down (CO-TACKLE-3); it may be dodged, never parried, and
        a critical or fumble of it is not a melee attack's (CO-MELEE-3/4): the listed Default
        "CO-TACKLE-1 (defence)" (grapple73 finding 4).

        From revision 7 not from behind without dodge concentration (CO-DODGE-3, 003 l.99
        「回避集中を宣言していない場合、後ろからの攻撃は回避行動を行う事が出来ない。」): a tackle
        from behind is an attack from behind, as a punch from there, and a grappler it hits
        there has no human shield (CO-GRAP-4 「但し後ろからの攻撃の場合はその限りではない」);
        revision 6 and before let it be dodged, and shielded. On 003's board the board says
        whether it comes from behind (as for an attack, CO-TURN-2); off it the Keeper's
        ``from_behind`` does.

        From revision :data:`PAIR_BLOWN_TOGETHER` a target blown back on 003's board takes
        the one it holds and the one it is held by along, each that shares its square
        (CO-GRAP-1, 003 l.33 「＜組みつき＞対象は探索者のマスに引き寄せられひと固まりとして考え
        る」: one unit, one square; a chain of grapples is one unit too), as CO-MELEE-2's
        knockback does (:meth:`pushed_together`); revision 18 left the partner behind, held
        from 3 squares away."""
        if not self.on("CO-TACKLE-1"):
            raise IllegalAction("tackling is CO-TACKLE-1, off in this profile")
        t = self.get(a.target)
        # coc67 N7; one table of the options (reviewcoc67 NIT 3: :data:`TACKLE_OPTIONS`)
        option_rule = ("CO-TACKLE-1" if not a.option else TACKLE_OPTIONS[a.option][1]
                       if a.option in TACKLE_OPTIONS else None)
        if option_rule is not None and not self.on(option_rule):
            raise IllegalAction(f"the tackle option {a.option} is {option_rule}, off in this "
                                "profile")
        if option_rule is None:
            shown = [f"{word} ({ja}, {rule})" for word, (ja, rule) in TACKLE_OPTIONS.items()
                     if self.on(rule)]
            raise IllegalAction(f"no tackle option {a.option!r}: write "
                                + " or ".join(shown) + (", or " if shown else "")
                                + "leave it out for 1d6+db (CO-TACKLE-1)")
        if a.obstacle and a.option != "blow_back" and self.engine >= FIELDS_THAT_APPLY:
            # a77cocgrapple NIT 6: the obstacle's +1D6 is blow back's alone; it went unsaid
            raise IllegalAction("obstacle goes with option=blow_back (CO-TACKLE-2)")
        grapple_rule = "CO-GRAP-1" if self.on("CO-GRAP-1") else "CO-GRAP-6"
        why = self.not_possible(c, t, f"CO-TACKLE-1, {grapple_rule}",
                                holds=a.option == "knock_down")
        if why:  # grapple73 finding 6: the reason said
            raise IllegalAction(f"that tackle is not possible: {why}")
        # One pin at a time, as one grapple (CO-TACKLE-3: a pin becomes a grapple, and
        # CO-GRAP-1/6 hold one): revision 18 took a second knock-down and forgot the first.
        if a.option == "knock_down" and c.pinning and self.engine >= PIN_ON_THE_BOARD:
            # The reading holds one to one hold; CO-TACKLE-3 alone does not (r77coc NIT)
            raise IllegalAction(f"{c.name} already pins {c.pinning} from the next round: one "
                                f"knock-down at a time, as one hold (CO-TACKLE-3; the reading "
                                f"{ONE_HOLDER}, coc defaults)")
        if a.defence not in (Defence.NONE, Defence.DODGE):
            raise IllegalAction("a tackle can only be dodged (CO-TACKLE-1, the Default "
                                "'defence')")
        placed = self.on_the_board(c, t, Attack(c.name, t.name, from_behind=a.from_behind),
                                   WeaponKind.UNARMED)
        self.may_strike(c, a.after_dodge, weapon=False, what="tackle タックル")
        after = self.attacks_after_dodging(c, a.after_dodge)
        if self.p003:
            c = self.spend(c, self.rules.default("CO-TACKLE-1", "ap"), "CO-TACKLE-1")
        elif c.attacks:
            raise IllegalAction("one action a turn (CO-BASE-5)")
        fake = Attack(c.name, t.name, defence=a.defence,
                      from_behind=self.engine >= 7 and placed.from_behind)
        dodge_ok = a.defence is not Defence.DODGE or self.defence_allowed(
            t, Defence.DODGE, WeaponKind.UNARMED, fake, True)
        if not dodge_ok and not self.legacy:  # before any die (format 1: after the roll)
            raise self.cannot_defend(t, Defence.DODGE, WeaponKind.UNARMED, fake)
        c = self.set(c, attacks=c.attacks + 1)
        if after:
            value, why = self.after_dodge(skill_value(self.rules, c.sheet, "tackle"))
            made = self.to_hit(value, f"{c.name} {self.rules.skill('tackle').name}", "",
                               hit=False)  # a tackle's fumble does nothing (CO-TACKLE-1)
            self.say(made.text + why)
        else:
            made = self.check(c, "tackle", attack=True)
        self.lines[-1] += " (CO-TACKLE-1)"
        if not made.success:
            return
        if a.defence is Defence.DODGE:
            if not dodge_ok:
                raise self.cannot_defend(t, Defence.DODGE, WeaponKind.UNARMED, fake)
            if self.dodge(t, WeaponKind.UNARMED, fake, True):
                return
        db = c.sheet.db
        if not a.option:
            dice = self.rules.num("CO-TACKLE-1", "damage")
            total, text = self.roll_total(dice if db == "0" else f"{dice}{db}",
                                          f"{c.name} tackle damage タックルダメージ")
            self.hit(t, max(0, total), f"tackle: {text} (CO-TACKLE-1)", by=c.name,
                     from_behind=fake.from_behind)
        elif a.option == "blow_back":
            dice = self.rules.num("CO-TACKLE-2", "damage")
            total, text = self.roll_total(dice if db == "0" else f"{dice}{db}",
                                          f"{c.name} tackle damage タックルダメージ")
            total = max(0, total)
            metres = self.rules.num("CO-TACKLE-2", "knockback_m")
            obstacle = a.obstacle
            if self.board(c, t):
                here, there = board.parse(c.square), board.parse(t.square)
                way = (board.away(here, there)[0] - there[0], board.away(here, there)[1]
                       - there[1])
                end, stopped = board.slide(there, way, metres, self.occupied(t.name))
                obstacle = obstacle or stopped
                before = t
                self.set(t, square=board.name(end))
                t = self.cs[t.name]
                self.say(f"{t.name} is blown back to {board.name(end)}"
                         + (", into an obstacle" if stopped else "")
                         + " (CO-TACKLE-2, 1 m = 1 square, CO-TURN-2)")
                if self.engine >= PAIR_BLOWN_TOGETHER:
                    # before: its square; every partner there, held or holder (the chain)
                    self.pushed_together(before, c, board.name(end), every=True)
            if obstacle:
                more, more_text = self.roll_total(self.rules.num("CO-TACKLE-2", "obstacle"),
                                                  f"{t.name}'s damage from the obstacle "
                                                  "障害物ダメージ")
                total += more
                text += f" + obstacle {more_text}"
            self.hit(t, total, f"blown back {metres} m: {text} = {total} (CO-TACKLE-2)",
                     by=c.name, from_behind=fake.from_behind)
            self.shock(self.cs[t.name], "CO-TACKLE-2", rule="CO-TACKLE-2")
        else:
            self.add(t, Condition.PRONE)
            self.set(self.cs[c.name], pinning=t.name)
            self.say(f"{t.name} is knocked down, no damage; {c.name} pins it from the next round "
                     "(CO-TACKLE-3)")

    def pins(self) -> None:
        """CO-TACKLE-3: at the next round the knock-down becomes a grapple (CO-GRAP-1/6;
        004 l.177 「次のラウンドに押さえ込み処理が発生しその時《組み付き》のルールに派生する」).

        From revision :data:`PIN_ON_THE_BOARD`, on 003's board the grapple it becomes is
        003's (l.33 「＜組みつき＞対象は探索者のマスに引き寄せられひと固まりとして考える」), as
        :meth:`grapple` plays it: the pinned one is pulled into the tackler's square, from
        that square or one next to it; farther apart (one of them moved meanwhile) the pin
        lapses, said. Revision 18 pinned across the board and left the pair on two squares.

        A pinned one that holds someone on its square brings it along (:meth:`pushed_together`):
        l.33's 「ひと固まり」 makes the pair one unit, so the pull moves the unit, as the blow
        back does; a pin that lapsed instead would bar what :meth:`grapple` allows (a grapple
        of a holder), a rule the seed does not have (reviewcoc71 RISK 1: the pin split
        them)."""
        for name in self.names:
            c = self.cs[name]
            if not c.pinning:
                continue
            t = self.cs[c.pinning]
            self.set(c, pinning="")
            if c.out or t.dead or t.held_by or c.grappling or c.held_by:
                if self.engine >= PIN_ON_THE_BOARD:
                    self.pin_lapses(c, t, self.pin_barred(c, t))
                continue
            rule = "CO-GRAP-1" if self.on("CO-GRAP-1") else "CO-GRAP-6"
            pulled = (self.engine >= PIN_ON_THE_BOARD and rule == "CO-GRAP-1"
                      and self.board(c, t))
            if pulled and t.square != c.square and not board.adjacent(
                    board.parse(c.square), board.parse(t.square)):
                self.pin_lapses(c, t, f"{t.name} is on {t.square}, not next to {name} on "
                                      f"{c.square} (CO-TACKLE-3, CO-GRAP-1)")
                continue
            self.set(self.cs[name], grappling=t.name, grapple_round=self.round)
            self.set(t, held_by=name)
            self.drop(self.cs[t.name], Condition.PRONE)
            self.say(f"{name} pins {t.name}: the grapple rules take over (CO-TACKLE-3, {rule})")
            if pulled and t.square != c.square:
                self.set(self.cs[t.name], square=c.square)
                self.say(f"{t.name} is pulled into {c.square} (CO-GRAP-1)")
                # t: before the pull; the one it holds there comes too (reviewcoc71 RISK 1)
                self.pushed_together(t, c, c.square, every=True)

    def pin_barred(self, c: Combatant, t: Combatant) -> str:
        """Why ``c``'s pin of ``t`` cannot become a grapple at the round's start: the grapple
        it becomes (CO-TACKLE-3) is barred as :meth:`grapple` bars one."""
        why = (f"{c.name} is out of the fight" if c.out else f"{t.name} is dead" if t.dead
               else f"{t.name} is already held by {t.held_by}" if t.held_by
               else f"{c.name} already holds {c.grappling}" if c.grappling
               else f"{c.name} is held by {c.held_by}")
        rule = "CO-GRAP-1" if self.on("CO-GRAP-1") else "CO-GRAP-6"
        return f"{why} (CO-TACKLE-3, {rule})"

    def pin_lapses(self, c: Combatant, t: Combatant, why: str) -> None:
        """From revision :data:`PIN_ON_THE_BOARD`: a pin that cannot be made is said, not
        dropped silently after "pins it from the next round" (coc71 DEFECT 4), and the one
        knocked down (転倒/prone, CO-TACKLE-3) is no longer marked so: the knock-down lasts
        until the pin resolves (004 l.177 「押し倒しは組み付き後に強制的に対象を転倒させられる…
        次のラウンドに押さえ込み処理が発生」), either way. Revision 18 left it prone to the end."""
        self.say(f"{c.name}'s pin of {t.name} lapses: {why}")
        if not t.dead:
            self.drop(self.cs[t.name], Condition.PRONE)
