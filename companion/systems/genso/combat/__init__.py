"""The `genso` fight tracker (spec §2.5, §2.6, §2.9): a pure state machine with push/pop.

A :class:`Fight` holds immutable :class:`FightState` snapshots, one per action, and a
journal of every action with the dice it used, so a fight can be undone a step
(:meth:`Fight.pop`), saved as plain data and replayed from its inputs
(:meth:`Fight.from_json`) with identical results.

The PC party acts first, then the other side, each in entry order (GM-COMBAT-1
Default); each combatant's action is one of :data:`ACTIONS`, and a combat move (戦闘移動)
may come before it (GM-COMBAT-1 Default, GM-MOVE-1 「戦闘行為は全て可能」). The GM's own
steps (sunrise, sunset, the end of the fight, a night's sleep) need no turn.

A fight keeps the settings (Defaults) it began with and replays under them; a setting
changed for a later action is recorded in that action's journal entry and holds from
there on. Entries saved before a rule fix carry the engine revision that played them
(:data:`ENGINE`), so an old fight replays exactly as it was played.

The modules: ``combatants`` (sides, roles, states, stances, weapons, spells on them, the
combatant from a sheet or a monster), ``actions`` (the actions, their JSON and text),
``state`` (a snapshot, the outcome), ``journal`` (report lines, entries, the engine
revision), ``entrants`` (how combatants join), ``fight`` (the fight, its file and
replay), and the rules engine, each module on those before it: ``harm`` (HP and MP lost
and healed, states, rising victims, flight at half HP), ``attacks`` (to hit, dodging,
Barrier, damage), ``spells`` (paying, targets, casting), ``stones`` (Healing and Enchant
Stones) and ``turns`` (one action played, moves, rounds, the GM's steps). This package
re-exports the public names of them all.
"""

from __future__ import annotations

from companion.systems.genso.combat.actions import (
    ACTIONS,
    GM_ACTIONS,
    MOVE_LABELS,
    STONES,
    Action,
    Attack,
    Cast,
    Dodge,
    EndFight,
    Flee,
    Move,
    Sleep,
    Sunrise,
    Sunset,
    UseStone,
    Wait,
    action_from_json,
    action_text,
    action_to_json,
    move_label,
)
from companion.systems.genso.combat.combatants import (
    Combatant,
    Effect,
    Role,
    Side,
    Stance,
    Status,
    Weapon,
    from_character,
    from_monster,
    move_metres,
)
from companion.systems.genso.combat.entrants import Entrant, entrants_for
from companion.systems.genso.combat.fight import FILE_VERSION, Fight, setting_text
from companion.systems.genso.combat.harm import wants_to_flee
from companion.systems.genso.combat.journal import ENGINE, Entry, Line
from companion.systems.genso.combat.state import FightState, Outcome

__all__ = [
    "ACTIONS",
    "ENGINE",
    "FILE_VERSION",
    "GM_ACTIONS",
    "MOVE_LABELS",
    "STONES",
    "Action",
    "Attack",
    "Cast",
    "Combatant",
    "Dodge",
    "Effect",
    "EndFight",
    "Entrant",
    "Entry",
    "Fight",
    "FightState",
    "Flee",
    "Line",
    "Move",
    "Outcome",
    "Role",
    "Side",
    "Sleep",
    "Stance",
    "Status",
    "Sunrise",
    "Sunset",
    "UseStone",
    "Wait",
    "Weapon",
    "action_from_json",
    "action_text",
    "action_to_json",
    "entrants_for",
    "from_character",
    "from_monster",
    "move_label",
    "move_metres",
    "setting_text",
    "wants_to_flee",
]
