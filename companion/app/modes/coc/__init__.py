"""A Call of Cthulhu fight (seeds 003/004) as a mode of the play session (``play --mode coc``).

The fight is the one `companion coc fight new` started (``--fight FILE``, by default
``coc/fight.json`` in the data folder): the sheets, the profile and its settings, and
whatever was already played on the command line. At the table the mode runs it turn by
turn from the engine (:class:`~companion.systems.coc.combat.Fight`): whose turn it is (DEX
order; profile 003's action points, CO-TURN-3), the actions the engine would take now as a
menu (each offered only if the engine, tried up to its first die, takes it), then a
target, a weapon, how (martial arts, a burst, a called shot, Iai, its pommel strike or an
ally's blade, a disarm, a body part, …) and the target's declared defence, whose menu also
opens the attack's circumstances (distance, point blank, from behind, dark, surprise, the
Keeper's picks); then the dice, each result shown with its terms and rule IDs, e.g.
``Ann キック/Kick (1D100<=60) ＞ 10 ＞ スペシャル/special``. Besides attacks and grapples:
the throw's options, tackle, a spell, Spot Hidden, sheathing, picking a weapon up, and on
003's board turning and jumping over. The Keeper's steps (undo, placing on 003's board,
SAN losses, dodge concentration or a first strike before the round's first action, fire, a
fall, closing the table) are under *Keeper*. Every action and option of the engine is
reachable (numbers from a list).

Dice (:class:`CocTableRolls`): simulated (``--dice sim``), or with ``--dice camera`` the
d6-based dice (damage: D6, and D3/D2 as a D6 halved, as ``companion coc`` reads them)
from the camera, and every other die (the d100 of every check, a burst's d20, a D4 or
D10 of damage) typed by the player on a keypad menu (``--d100 typed``, the default: the
player throws percentile dice and keys in what they show) or thrown by the companion
(``--d100 sim``); the screen says which. The camera never reads a d100.

Saving is the shared table's (:mod:`companion.app.modes.fight`): the journal of answers in
the table save, the fight file rewritten after every action.

The modules: ``words`` (the menus' tables and words; how an action, a name, a board mark
and an entry's lines are worded), the mode, one layer per module, each on the one below:
``core`` (the fight, names, the outcome, whom), ``fight_view`` (the screen and 003's board),
``defence_menus``, ``circumstances`` (an attack's *More 状況*), ``attack_menus``,
``grapple_menus`` (grapple, tackle, throw), ``move_menu``, ``treat_menu``, ``cast_menu``,
``keeper_menu`` and ``action_menu`` (:class:`CocFightMode`: the action menu and the path
into every menu); ``table_rolls`` (:class:`CocTableRolls`) and ``table`` (the table and its
play session).
"""

from __future__ import annotations

from companion.app.modes.coc.action_menu import CocFightMode
from companion.app.modes.coc.table import coc_table, table_session
from companion.app.modes.coc.table_rolls import CocTableRolls
from companion.app.modes.coc.words import describe, english, marks, steps, summary

__all__ = [
    "CocFightMode", "CocTableRolls", "coc_table", "describe", "english", "marks", "steps",
    "summary", "table_session",
]
