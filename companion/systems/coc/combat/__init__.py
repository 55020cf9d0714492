"""The `coc` fight tracker (spec §3.1–§3.21): a pure state machine with push/pop.

A :class:`Fight` keeps one immutable :class:`FightState` per action and a journal of
every action with the dice it used, so it can be undone a step, saved as plain data and
replayed from its log with identical results. The running profile's table (§3.22,
CO-CORE-2) decides which rules fire: a rule that is off never runs.

Turn order: DEX order, highest first, ties by 1D100, lowest first (CO-TURN-1, CO-BASE-5).
Profile 003 spends 3 action points per turn (CO-TURN-3) and ends a turn with
:class:`EndTurn` or when its points run out; profile 004 takes one action per turn.
A turn may be put off to DEX/2 (:class:`Delay`, careful aim CO-AIM-1; the third shot of
CO-FIRE-2 goes there by itself). Defences (dodge, parry, counter) are declared with the
attack they answer. Out of turn: dodge concentration and first strikes before the round's
first action (CO-DODGE-1/8, CO-FIRE-7), and the Keeper's events at any time (placing on the
board CO-TURN-2, fire CO-BURN-1, falls CO-BASE-11, SAN losses CO-BASE-13). Where profile 003's
board is in play (everyone concerned placed), adjacency, range, the line of fire and
"behind" come from it; otherwise the Keeper's flags on the action say them. A saved fight
carries a format number (:data:`FORMAT`); a file without one replays as it was played,
and each entry the rules revision that played it (:data:`ENGINE`), so a fix changes only
what is played after it.

The modules: ``fighters`` (sides, conditions, combatants, the state), ``actions`` (the
actions and their JSON), ``formats`` (a saved file's format and revision), ``fight`` (the
fight and its journal), and the rules engine, one layer per module, each on the one below:
``core`` (the working copy, rolls, checks, AP), ``board_moves`` (003's board), ``spells``,
``damage`` (armour, HP, dying, stun, knockout, shock), ``body_parts`` (and bleeding),
``keeper`` (fire, falls, SAN), ``disarm``, ``defences`` (dodge, parry, counter, cover),
``to_hit`` (may it strike, at what skill), ``strikes`` (one attack roll and its effects,
fumbles), ``firearms`` (burst, first strike, reload, jams), ``grapples`` (choke, throw,
break free), ``tackle``, ``skills`` (First Aid, Medicine, Psychoanalysis, Spot Hidden),
``iai``, ``attacks`` (the Attack action, surprise), ``turns`` (rounds, turns, delay,
concentration) and ``step`` (legality and play).
"""

from __future__ import annotations

from companion.systems.coc.combat.actions import (
    ACTIONS,
    KEEPER_ACTIONS,
    Action,
    Attack,
    BreakFree,
    Burn,
    Cast,
    Choke,
    ClearJam,
    Concentrate,
    Defence,
    Delay,
    EndFight,
    EndTurn,
    Face,
    Fall,
    Grapple,
    Jump,
    LetGo,
    Move,
    PickUp,
    Place,
    Reload,
    SanLoss,
    Sheathe,
    Spot,
    Tackle,
    Throw,
    Treat,
    action_from_json,
    action_to_json,
)
from companion.systems.coc.combat.core import BETWEEN_ACTIONS
from companion.systems.coc.combat.fight import Entry, Fight
from companion.systems.coc.combat.fighters import Combatant, Condition, FightState, Side, Timed
from companion.systems.coc.combat.formats import (
    ENGINE,
    FORMAT,
    UNREAD_BEFORE,
    file_format,
    format1_rules,
)

__all__ = [
    "ACTIONS", "BETWEEN_ACTIONS", "ENGINE", "FORMAT", "KEEPER_ACTIONS", "UNREAD_BEFORE",
    "Action", "Attack",
    "BreakFree", "Burn", "Cast", "Choke", "ClearJam", "Combatant", "Concentrate", "Condition",
    "Defence", "Delay", "EndFight", "EndTurn", "Entry", "Face", "Fall", "Fight", "FightState",
    "Grapple", "Jump", "LetGo", "Move", "PickUp", "Place", "Reload", "SanLoss",
    "Sheathe",
    "Side", "Spot", "Tackle", "Throw", "Timed", "Treat", "action_from_json", "action_to_json",
    "file_format", "format1_rules",
]
