"""Profile 003's 8×8 board in a fight: who stands where, the Keeper placing and facing,
moving and jumping, the line of fire, melee reach and "behind", and stepping free of a
grapple (the squares themselves are :mod:`companion.systems.coc.board`'s).

Rules: CO-TURN-2, CO-TURN-5, CO-TURN-7, CO-MELEE-1, CO-SKILL-6 (jump, once a round by
CO-SKILL-1, not with Iai by CO-IAI-2), CO-THROW-1,
CO-DODGE-3, CO-FIRE-5, CO-GRAP-1, CO-GRAP-2, CO-GRAP-6, CO-CALL-1 (a hit leg), CO-TURN-3 and
CO-BASE-5 (a move's cost).
"""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalAction
from companion.systems.coc import board
from companion.systems.coc.combat.actions import Attack, Face, Jump, Move, Place
from companion.systems.coc.combat.core import _Core
from companion.systems.coc.combat.fighters import Combatant
from companion.systems.coc.rules import WeaponKind

#: The first engine revision (:data:`~companion.systems.coc.combat.formats.ENGINE`) in which a
#: chain of holds moves as one unit whoever of it moves (the Default "CO-GRAP-1 (chain)",
#: reviewcoc73 DEFECT 1, :meth:`_Board.unit`): a move, a knockback or blow back, a freed one
#: stepping aside; and a thrown holder lets go. Revision 20 moved one link of it only, and
#: left the rest behind, held from squares away. The same revision as
#: :data:`~companion.systems.coc.combat.damage.HOLD_FROM_WITHIN` (21), which it was begun
#: with; kept apart here, as the board comes before the damage in the classes.
CHAIN_AS_ONE = 21
#: The first engine revision in which, on 003's board, a shot declared ``adjacent`` at a target
#: squares away, or an attack given a ``distance_m``, is refused before any die (CO-FIRE-5,
#: coc74 DEFECT 1, reviewcoc74 NIT 6): the board says where the target is. Within reach there
#: is the next square, a diagonal one too (CO-TURN-2's king moves; 003 l.26 and l.60 say
#: 「隣接」 of squares), not the metres of the Default ``CO-RANGE-3.reach_m``.
#: The same revision as :data:`~companion.systems.coc.combat.attacks.WITHIN_REACH` (22), kept
#: apart here, as the board comes before the attacks in the classes.
ADJACENT_FROM_THE_BOARD = 22


class _Board(_Core):
    """Adds the board: squares, moves, reach and the line of fire."""

    def move(self, c: Combatant, a: Move) -> None:
        """CO-TURN-5 (003 「行動ポイントを1消費して1マス移動することができる」): ``to`` a square
        on the board, or off it a number of squares.

        From revision 5 a move without ``to`` is refused where ``to`` would be (revision 4
        and before spent the AP and moved nothing): for one placed on the board (CO-TURN-2,
        「チェス盤…を用いて位置情報を再現する」: its square would go stale, and reach, range and
        "behind" are read from it) and for one held in a 003 grapple (CO-GRAP-1, 「相手を拘束
        することができる…ひと固まりとして考える」: it moves only with its grappler, as
        :meth:`walk` says)."""
        if a.to:
            a = replace(a, squares=self.walk(c, a.to))
        elif self.engine >= 5 and c.held_by:
            raise IllegalAction(f"{c.name} is held and moves with its grappler (CO-GRAP-1)")
        elif self.engine >= 5 and self.board(c):
            raise IllegalAction(f"{c.name} stands on {c.square}: name the square it moves to "
                                "(CO-TURN-2, CO-TURN-5)")
        if a.squares < 1:
            raise IllegalAction("move at least one square")
        if self.on("CO-GRAP-6") and c.grappling:
            raise IllegalAction("a restraining grappler holds its place (CO-GRAP-6)")
        if self.on("CO-CALL-1") and c.leg_hits:
            most = self.rules.num("CO-TURN-3", "action_points") - c.leg_hits * self.rules.num(
                "CO-CALL-1", "leg")["moves_lost"]
            if c.moved + a.squares > most:
                raise IllegalAction(f"{c.name}'s leg allows {max(0, most)} square(s) a round "
                                    "(CO-CALL-1)")
        c = self.spend(c, a.squares, "CO-TURN-5")
        self.set(c, spent_other=True, moved=c.moved + a.squares)
        rule = "CO-TURN-5" if self.p003 else "CO-BASE-5"
        if a.to:  # said first: the unit that goes with it is said after (revision 21 on)
            self.say(f"{c.name} moves {a.squares} square(s) to {a.to} ({rule}, CO-TURN-2)")
            self.relocate(c, a.to)
        else:
            self.say(f"{c.name} moves {a.squares} square(s) ({rule})")

    def occupied(self, *but: str) -> list[board.Square]:
        """The squares of the living on the board, but these combatants'."""
        return [board.parse(o.square) for o in self.cs.values()
                if o.square and not o.dead and o.name not in but]

    def unit(self, c: Combatant, but: tuple[str, ...] = ()) -> list[Combatant]:
        """The Default "CO-GRAP-1 (chain)" (003 l.33 「＜組みつき＞対象は探索者のマスに引き寄せ
        られひと固まりとして考える」): everyone linked to ``c`` by holds, held or holding,
        through any number of links, who stands on ``c``'s square (``c`` as given: its square
        before a move), living, ``c`` itself and ``but`` left out (nor followed through): the
        one unit that moves with it (reviewcoc73 DEFECT 1)."""
        seen, found = {c.name, *but}, []
        todo = [c.grappling, c.held_by]
        while todo:
            name = todo.pop(0)
            if not name or name in seen:
                continue
            seen.add(name)
            mate = self.cs.get(name)
            if mate is None or mate.dead or not c.square or mate.square != c.square:
                continue
            found.append(mate)
            todo += [mate.grappling, mate.held_by]
        return found

    def step_aside(self, freed: Combatant, holder: Combatant) -> None:
        """CO-GRAP-1/2 Default: on 003's board a freed character does not share the
        grappler's square; it takes the free adjacent square nearest the grappler's front
        (clockwise from its facing), or stays if none is free. From revision
        :data:`CHAIN_AS_ONE` the one it holds there, and so on down the chain, steps with it
        (its :meth:`unit`, the hold to ``holder`` already undone; "CO-GRAP-1 (chain)");
        revision 20 left it behind on ``holder``'s square."""
        if freed.dead or not self.board(freed, holder) or freed.square != holder.square:
            return
        here = board.parse(holder.square)
        square = board.nearest_free(here, self.occupied(freed.name), holder.facing)
        if square is None or board.distance(here, square) > 1:
            self.say(f"no free square next to {holder.name}: {freed.name} stays (CO-GRAP-1)")
            return
        mates = self.unit(freed, (holder.name,)) if self.engine >= CHAIN_AS_ONE else []
        self.set(freed, square=board.name(square))
        self.say(f"{freed.name} steps free to {board.name(square)} (CO-GRAP-1, CO-TURN-2)")
        self.along(mates, freed, board.name(square))

    def along(self, mates: list[Combatant], leader: Combatant, square: str) -> None:
        """``mates`` (a :meth:`unit`) go with ``leader`` to ``square``, said."""
        for mate in mates:
            self.set(self.cs[mate.name], square=square)
            self.say(f"{mate.name} goes with {leader.name} to {square}: one unit (CO-GRAP-1)")

    def board(self, *who: Combatant) -> bool:
        """The board is in play for these combatants: CO-TURN-2 is on and all are placed."""
        return self.on("CO-TURN-2") and all(c.square for c in who)

    def standing_at(self, square: str, but: str = "") -> Combatant | None:
        for name in self.names:
            c = self.cs[name]
            if c.square == square and not c.dead and name != but:
                return c
        return None

    def clear(self, c: Combatant, t: Combatant) -> bool:
        """CO-TURN-7: nobody stands on the line between the two squares."""
        return not self.in_the_way(c, t)

    def in_the_way(self, c: Combatant, t: Combatant) -> list[Combatant]:
        """CO-TURN-7: who stands on the line between the two squares (the living on a square
        :func:`~companion.systems.coc.board.line` passes through), nearest ``c`` first."""
        line = board.line(board.parse(c.square), board.parse(t.square))
        here = board.parse(c.square)
        return sorted((o for o in self.cs.values()
                       if o.square and not o.dead and o.name not in (c.name, t.name)
                       and board.parse(o.square) in line),
                      key=lambda o: (board.distance(here, board.parse(o.square)), o.square))

    def place(self, t: Combatant, a: Place) -> None:
        """CO-TURN-2: the Keeper sets a square and a facing."""
        if not self.on("CO-TURN-2"):
            raise IllegalAction("the board is CO-TURN-2, off in this profile")
        square = board.name(board.parse(a.square))
        other = self.standing_at(square, t.name)
        if other is not None and other.name not in (t.grappling, t.held_by):
            raise IllegalAction(f"{other.name} stands on {square} (CO-TURN-2)")
        self.set(t, square=square, facing=board.facing(a.facing))
        self.say(f"{t.name} stands on {square} facing {board.facing(a.facing)} (CO-TURN-2)")

    def face(self, c: Combatant, a: Face) -> None:
        if not self.on("CO-TURN-5"):
            raise IllegalAction("facing is the board's (CO-TURN-5)")
        self.set(c, facing=board.facing(a.facing))
        self.say(f"{c.name} turns to face {board.facing(a.facing)}: no AP (CO-TURN-5)")

    def walk(self, c: Combatant, to: str) -> int:
        """CO-TURN-5 Default: the fewest king moves to ``to`` around occupied squares."""
        if not self.board(c):
            raise IllegalAction(f"{c.name} is not on the board (CO-TURN-2)")
        if c.held_by:
            raise IllegalAction(f"{c.name} is held and moves with its grappler (CO-GRAP-1)")
        goal = board.parse(to)
        blocked = [board.parse(o.square) for o in self.cs.values() if o.square and not o.dead
                   and o.name not in (c.name, c.grappling)]
        steps = board.path_length(board.parse(c.square), goal, blocked)
        if steps is None or steps == 0:
            raise IllegalAction(f"{c.name} cannot move to {to} (CO-TURN-5)")
        return steps

    def relocate(self, c: Combatant, to: str) -> None:
        """``c`` moves to ``to`` with the one it holds (CO-GRAP-1); from revision
        :data:`CHAIN_AS_ONE` with its whole :meth:`unit`, the one that one holds too, said
        ("CO-GRAP-1 (chain)"); revision 20 left it behind."""
        square = board.name(board.parse(to))
        mates = [m for m in self.unit(c) if m.name != c.grappling] \
            if self.engine >= CHAIN_AS_ONE else []
        self.set(self.cs[c.name], square=square)
        if c.grappling:
            self.set(self.cs[c.grappling], square=square)
        self.along(mates, c, square)

    def on_the_board(self, c: Combatant, t: Combatant, a: Attack, kind: WeaponKind) -> Attack:
        """CO-MELEE-1: melee only when adjacent; CO-TURN-7: a throw reaches 3 squares, a
        firearm the whole board, and nobody may stand in between; "behind" and "adjacent"
        come from the board (CO-TURN-2, CO-DODGE-3, CO-FIRE-5); from revision 9 an attack from
        behind says so."""
        if not self.board(c, t):
            return a
        here, there = board.parse(c.square), board.parse(t.square)
        apart = board.distance(here, there)
        melee = kind in (WeaponKind.MELEE, WeaponKind.UNARMED)
        if melee and apart > 1:
            raise IllegalAction(f"{t.name} is {apart} squares away: melee needs an adjacent "
                                "target (CO-MELEE-1)")
        if kind is WeaponKind.THROWN and apart > self.rules.num("CO-THROW-1", "range_squares"):
            raise IllegalAction(f"{t.name} is {apart} squares away: a throw reaches 3 "
                                "(CO-TURN-7)")
        blocking = [] if melee else self.in_the_way(c, t)
        if blocking:
            # a76cocother NIT 3: a diagonal line's corners block too, so say whom to move;
            # "is", not "stands": one unconscious or dying blocks too (r76coc N2)
            who = [f"{o.name} on {o.square}" for o in blocking]
            names = who[0] if len(who) == 1 else f"{', '.join(who[:-1])} and {who[-1]}"
            raise IllegalAction(f"{names} {'is' if len(who) == 1 else 'are'} between "
                                f"{c.name} and {t.name} (CO-TURN-7)")
        if self.engine >= ADJACENT_FROM_THE_BOARD:
            if kind is WeaponKind.FIREARM and a.adjacent and apart > 1:
                raise IllegalAction(f"{t.name} is {apart} squares away: adjacent=true (point "
                                    "blank 隣接, CO-FIRE-5) is a shot at the next square")
            if a.distance_m:
                # reviewcoc74 NIT 6: a metres check on squares refused a diagonal neighbour
                # (about 1.4 m) at distance_m=2 and took one two squares away at 2
                where = (f"on {c.name}'s square" if apart == 0
                         else f"on the next square to {c.name}" if apart == 1
                         else f"{apart} squares from {c.name}")
                raise IllegalAction(f"{t.name} stands {where}: the board gives the distance "
                                    f"(CO-TURN-2); leave out distance_m={a.distance_m}")
        from_behind = apart > 0 and board.behind(there, t.facing, here, melee)
        if from_behind and self.engine >= 9:  # said, as it takes the defence away (cli59 F1)
            rule = "CO-DODGE-3" if self.on("CO-DODGE-3") else "CO-TURN-2"
            self.say(f"{c.name} on {c.square} is behind {t.name} on {t.square} facing "
                     f"{t.facing}: from behind ({rule})")
        return replace(a, from_behind=from_behind,
                       adjacent=a.adjacent or (kind is WeaponKind.FIREARM and apart == 1),
                       distance_m=apart if kind is WeaponKind.THROWN else a.distance_m)

    def jump(self, c: Combatant, a: Jump) -> None:
        """CO-SKILL-6: 2 AP; over the adjacent combatant to the square beyond; a failure stays
        put with the AP spent (Default); an attack stays allowed this round. Once a round, as
        any other skill (CO-SKILL-1), and not in a round with Iai (CO-IAI-2), both from
        revision 4."""
        if not self.on("CO-SKILL-6"):
            raise IllegalAction("jumping over is CO-SKILL-6, off in this profile")
        over = self.get(a.over)
        if over.name == c.name:  # grapple73 known item: it said "Kat must stand next to Kat"
            raise IllegalAction(f"{c.name} cannot jump over themself: name the one to leap "
                                "(CO-SKILL-6)")
        if not self.board(c, over) or not board.adjacent(board.parse(c.square),
                                                         board.parse(over.square)):
            raise IllegalAction(f"{c.name} must stand next to {over.name} (CO-SKILL-6)")
        if c.held_by or c.grappling:
            raise IllegalAction("no jumping while grappling (CO-GRAP-1)")
        # CO-CALL-1 (003 「三回当てればその場から動けなくなる」): from revision 4 the legs that
        # hold it to the spot refuse a jump too (before, only a Move)
        still = self.rules.num("CO-CALL-1", "leg")["still_after"]
        if self.engine >= 4 and self.on("CO-CALL-1") and c.leg_hits >= still:
            raise IllegalAction(f"{c.name}'s legs were hit {c.leg_hits} times: it cannot move "
                                "from the spot, no jump (CO-CALL-1, CO-SKILL-6)")
        self.once_a_round(c, "jump", "CO-SKILL-6")
        self.no_skill_after_iai(c, "jump", "CO-SKILL-6")
        land = board.away(board.parse(c.square), board.parse(over.square))
        if not board.on_board(land) or self.standing_at(board.name(land)) is not None:
            raise IllegalAction(f"no free square beyond {over.name} (CO-SKILL-6)")
        c = self.spend(c, self.rules.num("CO-SKILL-6", "ap"), "CO-SKILL-6")
        c = self.set(c, spent_other=True, skills_used=(*c.skills_used, "jump"))
        made = self.check(c, "jump")
        self.lines[-1] += " (CO-SKILL-6)"
        if made.success:
            self.set(c, square=board.name(land))
            self.say(f"{c.name} leaps over {over.name} to {board.name(land)} (CO-SKILL-6)")
        else:
            self.say(f"{c.name} stays on {c.square}; the AP are spent (CO-SKILL-6)")
