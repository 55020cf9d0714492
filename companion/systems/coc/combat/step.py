"""The rules engine's top layer, :class:`_Step`: one action's worth of rules on a working
copy of the state. It checks the action is legal (whose turn, out of turn, restrained,
concentrating) and plays it with the layer that holds its rule.

Rules: CO-TURN-1, CO-BASE-5, CO-DODGE-1, CO-DODGE-8, CO-FIRE-7, CO-GRAP-6, CO-GRAP-1 (out).
"""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.systems.coc.combat.actions import (
    KEEPER_ACTIONS,
    Action,
    Attack,
    BreakFree,
    Cast,
    Choke,
    ClearJam,
    Concentrate,
    Delay,
    EndFight,
    EndTurn,
    Face,
    Grapple,
    Jump,
    LetGo,
    Move,
    PickUp,
    Reload,
    Sheathe,
    Spot,
    Tackle,
    Throw,
    Treat,
)
from companion.systems.coc.combat.damage import HOLD_FROM_WITHIN
from companion.systems.coc.combat.fighters import Combatant
from companion.systems.coc.combat.turns import _Turns


class _Step(_Turns):
    """One action's worth of rules, on a working copy of the state."""

    def legal(self, action: Action) -> Combatant:
        """Who may take ``action`` now: the one whose turn it is (CO-TURN-1 / CO-BASE-5), a Keeper's
        event, a first strike (CO-FIRE-7) or a declaration (CO-DODGE-1/8); else IllegalAction."""
        if not self.order:
            raise IllegalAction("the fight is over")
        actor = self.get(action.actor)
        if isinstance(action, KEEPER_ACTIONS):
            return actor
        if isinstance(action, Concentrate) or (isinstance(action, Attack) and
                                               action.first_strike):
            if self.opened:
                raise IllegalAction("declared before the round's first action "
                                    "(CO-DODGE-1, CO-DODGE-8, CO-FIRE-7)")
            if not self.can_act(actor):
                raise IllegalAction(f"{actor.name} cannot act: {self.why_not_acting(actor)}")
            actor = self.freed_of_out_holder(actor)
            # CO-GRAP-6 (004 「組み付いた相手を行動不能にする」): the restrained one cannot
            # strike first either (from revision 4; before, it did)
            if self.engine >= 4 and isinstance(action, Attack) and self.on("CO-GRAP-6") \
                    and actor.held_by:
                raise IllegalAction(f"{actor.name} is restrained: no first strike, only "
                                    "breaking free on its turn (CO-GRAP-6)")
            return actor
        current = self.order[self.turn]
        if actor.name != current:
            raise IllegalAction(f"it is {current}'s turn, not {actor.name}'s "
                                f"({'CO-TURN-1' if self.p003 else 'CO-BASE-5'})")
        actor = self.freed_of_out_holder(actor)
        if self.on("CO-GRAP-6") and actor.held_by and not isinstance(
                action, (BreakFree, EndTurn)):
            raise IllegalAction(f"{actor.name} is restrained: only breaking free (CO-GRAP-6)")
        # CO-DODGE-1 (003 「行動選択は移動しか選択できない」); turning is free and no action
        # (003 l.16 「向きの変更は行動ポイントを消費しない」, under 移動): from revision 4 it
        # is allowed while concentrating (revision 3 refused it)
        free = (Move, EndTurn, Face) if self.engine >= 4 else (Move, EndTurn)
        if self.p003 and actor.concentrating and not isinstance(action, free):
            raise IllegalAction(f"{actor.name} concentrates on dodging: only moving (CO-DODGE-1)")
        return actor

    def freed_of_out_holder(self, actor: Combatant) -> Combatant:
        """From revision :data:`~companion.systems.coc.combat.damage.HOLD_FROM_WITHIN`, an
        actor whose holder is out is let go of before it acts ("CO-GRAP-1 (out)",
        reviewcoc73b RISK 1); the lines go into this action's entry. A fight begun by
        revision 20 and saved on the held one's own turn, its holder left unconscious still
        holding by a stun, would else keep it restrained until its next turn came round
        (:meth:`~companion.systems.coc.combat.turns._Turns.next_turn` frees it only as a
        turn comes). Revision 20 left it to break free by STR."""
        if self.engine < HOLD_FROM_WITHIN or not actor.held_by \
                or not self.cs[actor.held_by].out:
            return actor
        self.release_if_out(self.cs[actor.held_by])
        return self.cs[actor.name]

    def play(self, action: Action) -> None:
        """Play one action by the rule of its kind (:meth:`legal` first), then pass the turn as
        CO-TURN-3 (003) or CO-BASE-5 (004) says. The Keeper's end of the fight is no
        combatant's and ends it where it stands."""
        if isinstance(action, EndFight):
            if not self.order:
                raise IllegalAction("the fight is over already")
            self.say("the Keeper ends the fight 戦闘終了: nobody acts after this")
            self.order, self.turn = (), 0
            return
        # who holds one breaking free, before legal() may have an out holder let go of it
        held_by = self.get(action.actor).held_by \
            if isinstance(action, BreakFree) and self.order else ""
        actor = self.legal(action)
        if isinstance(action, KEEPER_ACTIONS):
            self.keeper(actor, action)
            self.hand_over()
            self.settle()
            return
        if isinstance(action, Concentrate):
            self.concentrate(actor)
            return
        if isinstance(action, Attack) and action.first_strike:
            self.attack(actor, action)
            self.hand_over()
            self.settle()
            return
        self.opened = True
        if isinstance(action, LetGo):  # a free action: the turn goes on (CO-GRAP-1 (let go))
            self.let_go(actor, action)
            self.hand_over()
            return
        if held_by and not actor.held_by:
            # finalb73 NIT 4: shown "held by Cult", Bob breaking free was refused "Bob is not
            # held", the out holder's letting go (freed_of_out_holder) undone with the
            # refusal; now the entry holds the letting go, said, and the turn goes on, as a
            # try not made costs nothing (revision 20 never lets go here: Bob rolls STR)
            self.say(f"{actor.name} needs no breaking free: {held_by} is out; "
                     f"{actor.name}'s turn goes on")
            self.hand_over()
            return
        if isinstance(action, EndTurn):
            self.say(f"{actor.name} ends the turn")
            self.hand_over()
            self.next_turn()
            return
        if isinstance(action, Attack):
            self.attack(actor, action)
        elif isinstance(action, Grapple):
            self.grapple(actor, action)
        elif isinstance(action, Choke):
            self.choke(actor, action)
        elif isinstance(action, Throw):
            self.throw(actor, action)
        elif isinstance(action, BreakFree):
            self.break_free(actor, action)
        elif isinstance(action, Reload):
            self.reload(actor, action)
        elif isinstance(action, ClearJam):
            self.clear_jam(actor, action)
        elif isinstance(action, Treat):
            self.treat(actor, action)
        elif isinstance(action, Delay):
            self.delay(actor)
        elif isinstance(action, Sheathe):
            self.sheathe(actor)
        elif isinstance(action, PickUp):
            self.pick_up(actor, action)
        elif isinstance(action, Spot):
            self.spot(actor, action)
        elif isinstance(action, Cast):
            self.cast(actor, action)
        elif isinstance(action, Tackle):
            self.tackle(actor, action)
        elif isinstance(action, Face):
            self.face(actor, action)
        elif isinstance(action, Jump):
            self.jump(actor, action)
        else:
            self.move(actor, action)
        self.hand_over()
        self.finish(actor)

    def hand_over(self) -> None:
        """Mark where the action's own lines end (:attr:`own`): what follows passes the turn
        (CO-TURN-3 / CO-BASE-5), ends the round (CO-ARMOR-2, CO-BASE-8) and starts the next
        (CO-DEATH-1's CON×5, CO-BODY-6, CO-TURN-1), or says the fight is over; the table's
        Result keeps the action's own outcome before them (reviewcoc67 RISK 1). Said lines
        are unchanged: no revision."""
        self.own = len(self.lines)
