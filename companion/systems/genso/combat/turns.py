"""Turns in a `genso` fight: one action played by the rules (dispatch to attacks, spells
and stones; dodge, flight and waiting here), moves, the next turn and round, and the GM's
steps (end of the fight, sunrise, sunset, sleep).

Rules: GM-COMBAT-1 (turn order, one move and one action, flight, the end, a party down
(全滅) that leaves the fight going), GM-COMBAT-6
(full dodge), GM-MOVE-1 (moves), GM-CORE-2 (rounds, sunrise), GM-MON-5 (sunset),
GM-HEAL-2 (sleep).
"""

from __future__ import annotations

from dataclasses import replace

from companion.dice import DiceSource
from companion.errors import IllegalAction
from companion.systems.genso.combat.actions import (
    GM_ACTIONS,
    MOVE_NAMES,
    Action,
    Attack,
    Cast,
    Dodge,
    EndFight,
    Flee,
    Move,
    Sunrise,
    Sunset,
    UseStone,
)
from companion.systems.genso.combat.attacks import _attack
from companion.systems.genso.combat.combatants import Stance, Status, move_metres
from companion.systems.genso.combat.harm import _status
from companion.systems.genso.combat.journal import ENGINE, LINES_SAID_SINCE, Line
from companion.systems.genso.combat.spells import _cast
from companion.systems.genso.combat.state import FightState, Outcome, _swap
from companion.systems.genso.combat.stones import _use_stone
from companion.systems.genso.rules import CreatureKind, Duration, GensoRules


def _advance(rules: GensoRules, state: FightState, lines: list[Line]) -> FightState:
    """Move the turn to the next combatant able to act; a new round starts after the last."""
    order = state.order
    turn, rnd = state.turn, state.round
    for _ in range(len(order)):
        turn += 1
        if turn == len(order):
            turn, rnd = 0, rnd + 1
            lines.append(Line("GM-COMBAT-1", f"round {rnd} "
                              f"({rules.num('GM-CORE-2', 'round_seconds')} s each, GM-CORE-2)"))
        if order[turn].status is Status.ACTIVE:
            break
    return replace(state, turn=turn, round=rnd, moved="")


def _down_goes_on(rules: GensoRules, before: FightState, engine: int) -> bool:
    """GM-COMBAT-1 (PG 4-1): 「敵が全て戦闘不能、逃亡、降伏した時に戦闘は終了する。ＧＭは戦闘終了を
    宣言する。」 Only the enemy's side ends a fight, and the GM's word: with the Default
    ``party_down_ends_fight`` off, a party down (全滅), or some of it fled and the rest down
    (the fallen still on the field), leaves it going, its turns passed over, for the
    monsters' blows on the fallen (GM-COMBAT-8) and a Wight's or Wraith's kill (GM-MON-5)
    to be played, until the GM declares the end; a party all fled ends it. Engine
    revisions before 5 ended it at once (the Default on). A fight over before the action
    stays as it ended: a spell or a stone after the end does not open again one that ended
    with the party down."""
    if before.outcome is not None:
        return before.down_goes_on
    return engine >= 5 and not rules.default("GM-COMBAT-1", "party_down_ends_fight")


def _left_fallen(before: FightState, after: FightState) -> Outcome | None:
    """GM-COMBAT-1 (fixg64b): the enemy's side out of the fight (fled or fallen) while the
    party was out and the fight went on (:attr:`FightState.party_down_going_on`) ends it
    (PG 4-1 「敵が全て戦闘不能、逃亡…」) with the party's state, the fallen left: an Orc
    fleeing from a party down said "勝利 the party won". The state it ended with is kept
    until an enemy stands again; the party's own action that fells the last foe and itself
    (the last of its MP spent) is a win, as before."""
    if after.enemy_stands:
        return None
    if not before.enemy_stands:
        return before.left_fallen
    return before.party_out if before.party_down_going_on else None


def _gm_step(rules: GensoRules, state: FightState, action: Action,
             lines: list[Line], engine: int = ENGINE) -> FightState:
    if isinstance(action, EndFight):
        lines.append(Line("GM-COMBAT-1", "the GM declares the end of the fight"))
        return replace(state, ended=True)
    if isinstance(action, Sunrise):
        cleared = []
        for c in state.combatants:
            kept = tuple(e for e in c.effects if e.duration is not Duration.DAY)
            cleared.append(replace(c, effects=kept))
        lines.append(Line("GM-CORE-2", "sunrise: every 1-day spell and Exorcism on weapons "
                                       "ends"))
        return replace(state, combatants=tuple(cleared))
    if isinstance(action, Sunset):
        risen = [c for c in state.combatants if c.rises_as]
        lines += [Line("GM-MON-5", f"{c.name} rises as {c.rises_as}'s kind") for c in risen]
        if not risen and engine >= LINES_SAID_SINCE:
            # Always a line (genso67 NIT 2): a sunset with nobody to rise was an empty step,
            # a blank line in the report and in `fight log`, that a GM pressed again.
            lines.append(Line("GM-MON-5", "sunset 日没: nobody killed by a Wight or Wraith "
                                          "rises"))
        return _swap(state, *(replace(c, rises_as="", risen_as=c.rises_as) for c in risen))
    slept = [replace(c, mp=c.max_mp) for c in state.combatants
             if c.status is not Status.DEAD and c.creature is CreatureKind.LIVING
             and c.status is not Status.FLED]
    slept = [replace(c, status=_status(rules, replace(c, status=Status.ACTIVE)))
             for c in slept]
    lines.append(Line("GM-HEAL-2", f"{rules.num('GM-HEAL-2', 'sleep_hours')} hours' sleep: MP "
                                   "restored in full for "
                                   + (", ".join(c.name for c in slept) or "nobody")))
    return _swap(state, *slept)


#: What a combatant that has moved may still do this turn (GM-COMBAT-1, GM-MOVE-1).
_AFTER = {"combat": "an attack, a spell, a stone, a dodge, flight or wait",
          "normal": "a full dodge, flight or wait"}


def _move(rules: GensoRules, state: FightState, action: Move, legacy: bool,
          lines: list[Line]) -> tuple[FightState, bool]:
    """GM-MOVE-1, GM-COMBAT-1: the move and whether the turn goes on to an action.

    A combat move (3 m, 「戦闘行為は全て可能」) leaves the action (GM-COMBAT-1 Default, one
    movement mode a round); a normal move leaves no attack or spell, a full move no
    fighting at all, so either is the turn, unless the GM-MOVE-1 Default
    ``full_dodge_after_normal_move`` leaves a normal mover its full dodge (回避は可能). A
    monster moves by its own movement line (the Orc's 4/16/64 m), a character by the
    rules' 3/12/48 m.
    """
    actor = state.get(action.actor)
    metres = move_metres(rules, actor)
    if action.mode not in metres:
        raise IllegalAction(f"GM-MOVE-1: a move is {', '.join(metres)}")
    if state.moved:
        raise IllegalAction(f"GM-COMBAT-1: {actor.name} has moved this round ({state.moved}); "
                            f"now {_AFTER[state.moved]}")
    stance = {"combat": Stance.NONE, "normal": Stance.NORMAL_MOVE,
              "full": Stance.FULL_MOVE}[action.mode]
    state = _swap(state, replace(actor, stance=stance))
    acts_after = {"combat": True, "normal": bool(rules.default(
        "GM-MOVE-1", "full_dodge_after_normal_move"))}.get(action.mode, False)
    goes_on = (acts_after and not legacy
               and bool(rules.default("GM-COMBAT-1", "move_and_act")))
    said = {"combat": "may still attack, cast or use a stone (戦闘行為は全て可能)",
            "normal": "may still dodge all out (回避は可能), flee or wait"}
    lines.append(Line("GM-MOVE-1", f"{actor.name} moves {MOVE_NAMES[action.mode]} "
                                   f"({metres[action.mode]} m)"
                      + (f" and {said[action.mode]}" if goes_on else "")))
    return (replace(state, moved=action.mode) if goes_on else state), goes_on


def _apply(rules: GensoRules, state: FightState, action: Action,
           source: DiceSource, engine: int = ENGINE) -> tuple[FightState, list[Line]]:
    """One action by the rules, played by engine revision ``engine`` (:data:`ENGINE`)."""
    legacy = engine < 2
    lines: list[Line] = []
    goes_on_down = _down_goes_on(rules, state, engine)
    if isinstance(action, GM_ACTIONS):
        stepped = replace(_gm_step(rules, state, action, lines, engine),
                          down_goes_on=goes_on_down)
        return replace(stepped, left_fallen=_left_fallen(state, stepped)), lines
    was = state
    current = state.current
    if current is None:
        if not isinstance(action, Cast | UseStone):
            raise IllegalAction("the fight is over: only spells, stones and the GM's steps "
                                "(sunrise, sunset, sleep) remain")
        actor = state.get(action.actor)
        if actor.status is not Status.ACTIVE:
            raise IllegalAction(f"{actor.name} {actor.status.said}")
    elif action.actor != current.name:
        raise IllegalAction(f"it is {current.name}'s turn, not {action.actor}'s (GM-COMBAT-1)")
    actor = state.get(action.actor)
    if state.moved == "normal" and isinstance(action, Attack | Cast | UseStone):
        raise IllegalAction(f"GM-MOVE-1: after a normal move (通常移動) {actor.name} cannot "
                            "attack, cast or use a magic stone "
                            f"(移動後は攻撃不能かつ魔法は使用不能); now {_AFTER['normal']}")
    if current is not None and state.moved != "normal":  # a normal mover stays one
        state = _swap(state, replace(actor, stance=Stance.NONE))
    goes_on = False
    if isinstance(action, Attack):
        state = _attack(rules, state, action, source, lines, engine)
    elif isinstance(action, Cast):
        state = _cast(rules, state, action, lines, engine)
    elif isinstance(action, UseStone):
        state = _use_stone(rules, state, action, source, lines, legacy, engine)
    elif isinstance(action, Dodge):
        state = _swap(state, replace(actor, stance=Stance.FULL_DODGE))
        lines.append(Line("GM-COMBAT-6", f"{actor.name} dodges all out (全力回避): +"
                                         f"{rules.num('GM-COMBAT-6', 'full_dodge')} to defence"))
    elif isinstance(action, Move):
        state, goes_on = _move(rules, state, action, legacy, lines)
    elif isinstance(action, Flee):
        state = _swap(state, replace(actor, status=Status.FLED))
        lines.append(Line("GM-COMBAT-1", f"{actor.name} flees"))
    else:
        lines.append(Line("GM-COMBAT-1", f"{actor.name} waits"))
    state = replace(state, down_goes_on=goes_on_down)
    state = replace(state, left_fallen=_left_fallen(was, state))
    if state.party_down_going_on and not was.party_down_going_on and state.party_out:
        lines.append(Line("GM-COMBAT-1", f"{state.party_out.text}: the fight goes on until "
                                         "the GM declares its end (ＧＭは戦闘終了を宣言する; "
                                         "party_down_ends_fight off)"))
    if current is not None and state.outcome is None and not goes_on:
        state = _advance(rules, state, lines)
    if state.outcome is not None and current is not None:
        lines.append(Line("GM-COMBAT-1", f"the fight is over: {state.outcome.text}"))
    return state, lines
