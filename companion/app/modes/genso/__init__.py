"""A 幻想迷宮冒険譚 (seed 002) fight as a mode of the play session (``play --mode genso``).

The fight is the one `companion genso fight new` started (``--fight FILE``, by
default ``fight.json`` in the data folder's ``genso`` folder): the party and the
monsters, and whatever was already played on the command line. At the table the
mode runs it turn by turn from the engine (:class:`~companion.systems.genso.combat.Fight`):
whose turn it is, the legal actions as a menu (ATTACK attacks, RANGED casts, ITEM
uses a stone, FLEE asks whether to flee: ATTACK flees, FLEE goes back; the GM's steps
and undo under *GM*), then a target, a weapon, a spell; then the dice, thrown by the
companion or by the players and read by the camera, each result shown with its terms.
*GM → Check 判定* rolls a check of spec §2.3 (:mod:`companion.systems.genso.checks`:
simple, general, trap, enemy, undead, opposed, Mark) for a party member (whoever's turn it
is, by default) with the same dice; it changes nothing in the fight, so it lives in the
mode's journal (replayed on a resume) and the ``--log``, not in the fight file.

The engine pulls its dice from a source as it resolves an action, the session
hands the mode one answer at a time; so, like the dice tray, the mode resolves the
chosen action again over the throws so far (the engine is pure and an action that
cannot finish changes nothing) and asks for the next throw where it stops: the
machinery every fight at the table shares, in :mod:`companion.app.modes.fight`.

Saving: the journal holds every answer (the option picked, as its key such as
``t:オーク1``, and every throw, ``4,5``); the table's save (:class:`FightSave`)
holds the fight as the table took it up plus that journal, so ``--resume`` after a
power cut replays it exactly, a half-thrown action too (:func:`table_session`). After
every action the fight file is also rewritten, so `companion genso fight show|log|undo`
see the table's actions.

The modules: ``checks`` (the GM's checks: :class:`CheckCall`, :class:`Checked`,
:func:`roll_check`, :func:`check_steps`), ``words`` (the menus' tables and words; how names
and actions are said: :func:`english`, :func:`named`, :func:`target_label`,
:func:`describe`, :func:`summary`), the mode, one layer per module, each on the one below:
``fight_view`` (the fight, its rules and names, the screen), ``target_menus`` (whom, with
which weapon, spell or stone), ``gm_menu`` (the GM's steps and checks) and ``action_menu``
(:class:`GensoFightMode`: the action menu and the path into every menu); and ``table``
(the table's save: :func:`read_fight_file`, :func:`table_session`).
"""

from __future__ import annotations

#: Shared with every fight at the table (kept importable from here).
from companion.app.modes.fight import Undone
from companion.app.modes.fight_file import same_fight, write_fight_file
from companion.app.modes.fight_save import FightSave, load_fight_save
from companion.app.modes.genso.action_menu import GensoFightMode
from companion.app.modes.genso.checks import CheckCall, Checked, check_steps, roll_check
from companion.app.modes.genso.table import read_fight_file, table_session
from companion.app.modes.genso.words import describe, english, named, summary, target_label

__all__ = [
    "CheckCall", "Checked", "FightSave", "GensoFightMode", "Undone", "check_steps", "describe",
    "english", "load_fight_save", "named", "read_fight_file", "roll_check", "same_fight",
    "summary", "table_session", "target_label", "write_fight_file",
]
