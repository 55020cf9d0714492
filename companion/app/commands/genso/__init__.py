"""``companion genso ...``: 幻想迷宮冒険譚 Ver2.5 (seed 002, spec §2) at the table.

Characters are TOML sheets in the data folder (``<data>/genso/characters/``) or a
preset key (``companion genso presets``); a fight lives in ``<data>/genso/fight.json``
and is written atomically after every action, so a power cut loses nothing and
``fight undo`` steps back. Once the fight is over, ``fight apply`` writes each PC's HP,
MP and stones back to the sheet file it came from (a separate step, not part of ``fight
end``: Healing and stones may still follow the end, and ``end`` can be undone).
Defaults come from the packaged rules, then ``genso.toml`` in the config folder
(``[defaults."RULE-ID"]``), then ``--set RULE.key=value``. A fight keeps the settings it
began with in its file and replays under them, whatever the settings are later; a
``--set`` given with a later action changes the fight's settings from that action on (the
journal entry records it, and undo takes it back), while ``show``, ``log``, ``undo`` and
``apply`` refuse a ``--set`` that differs, since they play no action it could apply to.

The modules: ``files`` (the rules with the user's overrides, where sheets and the fight
live, a sheet found by file, saved name or preset), ``characters`` (the sheet on screen,
``new``, ``sheet``, ``presets``, ``travel``, ``lore`` and the changes to a saved sheet:
``buy``, ``sell``, ``gear``, ``grow``, ``rest``), ``checks`` (``check``, ``defaults``,
``list``, laid out by ``layout`` in 100 columns), ``fights`` (the fight file, its status,
names typed, ``fight ...`` and ``fight apply``), ``calendar`` (the game day and its Death
Curses, GM-MAGIC-13) and ``parser`` (the command line, :func:`register` and :func:`run`):
the three between on ``files``, the parser on them all. This package re-exports their
public names.
"""

from __future__ import annotations

from companion.app.commands.genso.calendar import cmd_calendar
from companion.app.commands.genso.characters import (
    cmd_buy,
    cmd_gear,
    cmd_grow,
    cmd_lore,
    cmd_new,
    cmd_presets,
    cmd_rest,
    cmd_sell,
    cmd_sheet,
    cmd_travel,
    describe,
    sheet_json,
)
from companion.app.commands.genso.checks import cmd_check, cmd_defaults, cmd_lists
from companion.app.commands.genso.fights import (
    apply_fight,
    cmd_fight,
    combatant_name,
    fight_status,
    load_fight,
    monster_counts,
    save_fight,
)
from companion.app.commands.genso.files import (
    OVERRIDES_NAME,
    SET_EXAMPLE,
    characters_dir,
    fight_entrant,
    fight_path,
    load_user_rules,
    resolve_sheet,
    saved_fight_rules,
    sheet_path,
)
from companion.app.commands.genso.parser import COMMANDS, register, run
from companion.app.modes.genso_fight_files import SHEET_COMMENT, digest, sheet_document

__all__ = [
    "COMMANDS",
    "OVERRIDES_NAME",
    "SET_EXAMPLE",
    "SHEET_COMMENT",
    "apply_fight",
    "characters_dir",
    "cmd_buy",
    "cmd_calendar",
    "cmd_check",
    "cmd_defaults",
    "cmd_fight",
    "cmd_gear",
    "cmd_grow",
    "cmd_lists",
    "cmd_lore",
    "cmd_new",
    "cmd_presets",
    "cmd_rest",
    "cmd_sell",
    "cmd_sheet",
    "cmd_travel",
    "combatant_name",
    "describe",
    "digest",
    "fight_entrant",
    "fight_path",
    "fight_status",
    "load_fight",
    "load_user_rules",
    "monster_counts",
    "register",
    "resolve_sheet",
    "run",
    "save_fight",
    "saved_fight_rules",
    "sheet_document",
    "sheet_json",
    "sheet_path",
]
