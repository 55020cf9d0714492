"""``companion genso fight ...``: the fight file loaded and saved, its status on screen,
combatants found by the names typed, each verb played, and ``fight apply`` writing HP, MP
and stones back to the sheets.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import re
import shlex
import tempfile
import textwrap
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.app.combatants import names_apart
from companion.app.command_name import companion_command
from companion.app.commands.fight_not_saved import action_saved
from companion.app.commands.genso.calendar import calendar_stays, refuse_cursed, sunset_curses
from companion.app.commands.genso.files import (
    SET_EXAMPLE,
    fight_entrant,
    fight_path,
    load_user_rules,
    monster_not_sheet,
    resolve_sheet,
    saved_fight_rules,
    sheet_changer,
    sheet_path,
)
from companion.app.commands.roll import emit, pad, run_with_source
from companion.app.help_format import cell_wrap
from companion.app.modes.fight_replaced import (
    at_the_table,
    holding_fight,
    refuse_replacing,
    replace_fight,
)
from companion.app.modes.fight_unchanged import AsLoaded, loaded, saving_over
from companion.app.modes.genso import GensoFightMode
from companion.app.modes.genso.fight_view import IN_BARRIER
from companion.app.modes.genso.target_menus import AREA
from companion.app.modes.genso.words import (
    FOES_OUT,
    ONE_TARGET,
    PARTY_OUT,
    english,
    english_names,
    named,
)
from companion.app.modes.genso_fight_files import (
    APPLIED_BY_HAND,
    SheetWrite,
    Unwritten,
    applied_head,
    applied_record,
    applied_results,
    apply_command,
    calendar_path,
    default_fight_path,
    file_option,
    results,
    sheet_write,
    unwritten,
)
from companion.app.modes.names import add_english
from companion.app.notes import note
from companion.app.overrides import read_text, set_values
from companion.app.session.save import NewerFightFile, json_fault
from companion.dice import DiceSource, SimulatedDice
from companion.dice.notation import display_width
from companion.errors import DataError, IllegalAction, NewerFight
from companion.file_locks import FileInUse, changing, lock_path
from companion.files import NotDurable, atomic_write_text, file_there, loads_json
from companion.systems.genso.calendar import DeathCurse, fresh_copy
from companion.systems.genso.character.core import Character, derive, rings_work
from companion.systems.genso.combat import (
    STONES,
    Action,
    Attack,
    Cast,
    Combatant,
    Dodge,
    EndFight,
    Entrant,
    Entry,
    Fight,
    Flee,
    Move,
    Role,
    Side,
    Sleep,
    Stance,
    Status,
    Sunrise,
    Sunset,
    UseStone,
    Wait,
    entrants_for,
    setting_text,
    wants_to_flee,
)
from companion.systems.genso.combat.entrants import MOST_OF_ONE_KIND, too_many_why
from companion.systems.genso.combat.spells import MisaimedExorcism, own_mp_paid
from companion.systems.genso.names import fold_name
from companion.systems.genso.rules import (
    BUILT_ONLY,
    NOT_READ_BY_FIGHTS,
    Duration,
    GensoRules,
    Slot,
)
from companion.systems.genso.sheet import load_sheet, preset_names
from companion.toml_writing import write_toml


def _start_over(path: Path) -> str:
    """The `genso fight new` a hint names for the fight at ``path``: the table's
    (:func:`~companion.app.modes.genso.table.start_hint`), with --party and --monsters, and
    the file's --file; `genso fight new` bare was refused ("the following arguments are
    required: --party") and, typed with a party, started the default fight, not the one at
    ``path`` (r77carry, as f77carry item 4 for coc's)."""
    # Loaded only here, as coc's load_fight does: it brings the table modes.
    from companion.app.modes.genso.table import start_hint

    return f"{start_hint()}{file_option(path)}"


def load_fight(rules: GensoRules, path: Path) -> Fight:
    """The saved fight, replayed under the settings it keeps (``rules`` only for a file from
    before fights kept them); an error names the file and the journal entry, and the
    `fight new` to start over (:func:`_start_over`)."""
    if not file_there(path):
        raise DataError(f"no fight at {path}: start one with "
                        f"`{_start_over(path)}`")
    text = read_text(path, "fight")
    try:
        data = loads_json(text)
    except json.JSONDecodeError as exc:
        # empty, zero bytes, cut short: said as a save's are (hist68 NIT 3), with what to do
        # as coc's load_fight says it (reviewh70 NIT 5): no command plays it on, and `fight
        # new` refuses to start over it unless forced, which keeps it aside.
        # Loaded only here, as _start_over's: they bring the table modes.
        from companion.app.modes.fight_file import cannot_play_on
        from companion.app.modes.genso.table import new_fight_forced

        fault = f"{path}: not JSON ({json_fault(text, exc, 'fight file')})"
        raise DamagedFight(cannot_play_on(fault, new_fight_forced(), path,
                                          default_fight_path()), fault) from exc
    # A coc fight is said so, with the commands that play it, not as "not a saved genso
    # fight" (r78genso2, as coc's _fight_on_file since ecfe2f65). Loaded only here, as above.
    from companion.app.modes.fight_file import refuse_other_systems

    refuse_other_systems(data, "genso", path)
    try:
        return Fight.from_json(rules, data, str(path))
    except NewerFight as exc:
        # A newer companion's whole fight: updating plays it on (f78carry, as coc's r77coc).
        raise NewerFightFile(str(exc)) from exc


def _replaced_fight(rules: GensoRules, path: Path) -> Fight:
    """The fight ``fight new --force`` replaces at ``path``; one it cannot read is said by
    its fault alone, as its note keeps it as ``.corrupt-…`` (r78carry: a newer companion's
    read "it is kept as it is: update this companion" beside "it was kept as
    fight.json.corrupt-…", a damaged one's offered the --force just given)."""
    try:
        return load_fight(rules, path)
    except (DamagedFight, NewerFightFile) as exc:
        raise DataError(exc.fault) from None


class DamagedFight(DataError):
    """A fight file that is no JSON, said with what to do; :attr:`fault` is the file and its
    fault alone, for ``fight new``'s own refusal (:func:`refuse_replacing`)."""

    def __init__(self, message: str, fault: str) -> None:
        super().__init__(message)
        self.fault = fault


def save_fight(fight: Fight, path: Path) -> None:
    atomic_write_text(path, json.dumps(fight.to_json(), ensure_ascii=False, indent=1))


def with_english(fight: Fight, text: str) -> str:
    """``text`` (the engine's lines, an action in words) with each combatant's English
    beside its name, as the table gives it (:func:`~companion.app.modes.genso.words.
    english_names`): オーク1 Orc 1, 駆け出し冒険者１ PC 1. Every combatant's whole name is
    keyed, the longest first, so a name holding another's (オークスレイヤー, オーク) is
    never cut; the fight file and the JSON keep the names alone."""
    return add_english(text, english_names(fight.rules, fight))


def _no_action_yet(fight: Fight) -> str:
    """``fight log`` of a fight with no action in its journal (new, or every action undone):
    the round's start and its order (GM-COMBAT-1), and whose turn it is, as coc's log shows
    its round's start (a78journey NIT 5: one empty line, as if the command were broken)."""
    state, rules = fight.state, fight.rules
    start = (f"round {state.round} ({rules.num('GM-CORE-2', 'round_seconds')} s each, "
             "GM-CORE-2): " + ", ".join(named(rules, fight, c) for c in state.order))
    # wrapped under its text, as the action lines' column (80 columns: review64g N3)
    lines = "\n             ".join(cell_wrap(start, 80 - 13))
    turn = (f": {named(rules, fight, state.current)}'s turn" if state.current else "")
    return f"{'GM-COMBAT-1':<12} {lines}\nno actions yet 行動なし{turn}"


def goes_on_line(table: GensoFightMode) -> str:
    """GM-COMBAT-1 (Default ``party_down_ends_fight`` off): what ``fight show`` and an action
    say while the party is down (全滅), or some fled and the rest are down, and the fight
    goes on, as PG 4-1 has it: only the enemy's side ends a fight, and the GM declares its
    end. Empty otherwise. A line of its own under 80 columns (review64g N3: 82).

    The fighters the calendar records dead of a Death Curse (GM-MAGIC-13) count down, on
    either side, by the table's own :meth:`~GensoFightMode.party_out` and
    :meth:`~GensoFightMode.foes_out`, and in its words (the action menu's note): they act no
    more, so the party, or every foe, may be out with no one fallen to the engine
    (reviewg71c NIT 3, fixgenso71c's open RISK: only the row said died)."""
    out = table.party_out()
    if out is not None:
        return f"{PARTY_OUT[out]}: the fight goes on until the GM ends it"
    if table.foes_out():
        return f"{FOES_OUT}: the fight goes on until the GM ends it"
    return ""


#: The magic rings whose bonus GM-ITEM-3's Default ``rings_of_a_kind_add`` counts for each
#: one worn (:func:`rings_counted_once`).
RINGS_THAT_ADD = ("ring_striking", "ring_protection")


def rings_counted_once(fight: Fight) -> str:
    """What ``fight show`` and an action say when the fight counts a kind of ring once
    (GM-ITEM-3 ``rings_of_a_kind_add`` false: a fight saved before the Default, which plays
    on as it was played, or set so) and a fighter wears two of one kind: `genso sheet` and
    `gear` count each, so its "+1" alone was not explained (reviewg72 NIT 5). Empty
    otherwise. The setting as the next action plays it: an action's ``--set`` of it counts
    the rings again from that action on (fixg72c)."""
    rules = fight.rules
    if rules.default("GM-ITEM-3", "rings_of_a_kind_add"):
        return ""
    wearers = []
    for entrant in fight.entrants:
        if entrant.monster:
            continue
        character = entrant.character(rules)
        worn = character.rings_left + character.rings_right
        if rings_work(rules, character) and any(worn.count(k) > 1 for k in RINGS_THAT_ADD):
            wearers.append(entrant.name)
    if not wearers:
        return ""
    return (f"GM-ITEM-3: this fight counts a kind of ring once (rings_of_a_kind_add = "
            f"false): the second Ring of Striking or Protection of {', '.join(wearers)} adds "
            f"nothing in it (`genso sheet` and `gear` count each; an action's `--set "
            f"GM-ITEM-3.rings_of_a_kind_add=true` counts each from it on)")


def at_the_end(table: GensoFightMode) -> str:
    """GM-COMBAT-1: how the sides stood when the GM ended the fight (全滅 the party is down,
    review64g), as the table's outcome says it beside the GM's end
    (:meth:`~GensoFightMode.outcome_at_end`, the calendar's dead counted down: 勝利 the party
    won when every foe left was one of them); empty when the fight was not ended by the GM,
    or both sides could still act then."""
    at_end = table.outcome_at_end()
    return at_end.text if at_end is not None else ""


def calendar_view(fight: Fight, path: Path | None = None, say: bool = True) -> GensoFightMode:
    """The fight as the table sees it, for the fighters the calendar records dead of a Death
    Curse (GM-MAGIC-13): :meth:`~GensoFightMode.cursed_dead` and the row's ``呪殺呪 curse
    死亡 died`` are the table's own, so the command line finds the same dead (not a monster,
    nor a fresh copy of an NPC preset) and says them in the same words (fixgenso71c). A
    calendar that cannot be read finds none, and says so in a note, as the table's status
    line does (:attr:`~GensoFightMode.calendar_fault`), unless ``say`` is False (``fight
    sunset`` says it in its own words)."""
    table = GensoFightMode(fight.rules, fight, fight_path=path)
    table.curses()
    if say and table.calendar_fault:
        note(f"note: {table.calendar_fault}")
    return table


def refuse_the_dead(table: GensoFightMode, action: Action, path: Path) -> None:
    """GM-MAGIC-13: refuse, before any die, an action of a fighter the calendar records dead
    of a Death Curse, and one that takes such a fighter as the target of an attack, a stone,
    or a spell cast on a friend or a foe (Healing, Lightning, Fire's and a Barrier's area,
    Exorcism on a weapon), as the table neither lets the dead act nor offers them to those
    (fixgenso71c: `fight attack` and `fight cast … healing` still took them). The dead's
    turn is skipped with ``fight wait``, and the GM's ``end``, ``undo``, ``sunrise``,
    ``sunset`` and ``sleep`` go on, as the table's Skip turn and GM menu. Dispel, which takes
    anyone, still takes them. Only a new command is refused: a fight file holding such an
    action, played before, replays as it was played. ``fight wait`` is named only on the
    dead's own turn, the one turn it is taken (reviewg71c NIT 1)."""
    fight = table.fight
    if isinstance(action, Attack | Cast | UseStone | Move | Dodge | Flee) \
            and table.cursed_dead(action.actor):
        actor = fight.state.get(action.actor)
        # The words of the dead's turn at the table, not written twice.
        said = table.acts_no_more(actor)
        command = f"{companion_command()} genso fight"
        gm = "the GM's `fight end`, `undo`, `sunrise`, `sunset` and `sleep` go on"
        current = fight.state.current
        if current is None or current.name != actor.name:
            # Off its turn the engine refuses its Wait too (GM-COMBAT-1): the hint led to a
            # second refusal (reviewg71c NIT 1).
            raise IllegalAction(f"{said}: {gm}")
        raise IllegalAction(f"{said}: `{command} wait {_typed(actor.name)}"
                            f"{file_option(path)}` skips its turn 手番を飛ばす, and {gm}")
    taken: tuple[str, ...] = ()
    what = ""
    if isinstance(action, Attack):
        taken, what = (action.target,), "an attack"
    elif isinstance(action, UseStone):
        taken, what = (action.target,), "a stone"
    elif isinstance(action, Cast):
        spell = fight.rules.spell(action.spell)
        # Whom the table offers it: a friend or a foe the calendar's dead are left out of
        # (its menus of whom, its area's toggles, the weapons Exorcism goes on); Dispel's
        # anyone and Exorcism's undead are not.
        if ONE_TARGET.get(spell.effect) in ("friend", "foe") or spell.effect in AREA or (
                spell.effect == "exorcise" and action.weapon is not None):
            taken, what = action.targets, spell.name
    for name in taken:
        if table.cursed_dead(name):
            target = named(fight.rules, fight, fight.state.get(name))
            raise IllegalAction(f"{target}: {table.died_why()}, no target of {what}")


def fight_status(rules: GensoRules, fight: Fight,
                 table: GensoFightMode | None = None) -> tuple[str, dict[str, Any]]:
    """The round, whose turn it is and a row for each combatant (its name with the English
    beside a Japanese one), and the same as JSON (names as the fight file keeps them).

    A fighter who carries a Death Curse (GM-MAGIC-13, by ``table``, :func:`calendar_view`)
    is marked as the table's row marks it: the days to the sunset that kills it, ``呪殺呪
    curse 366d`` (``今日 today``), and one the calendar records dead of it ``呪殺呪 curse 死亡
    died`` (``"calendar_dead"`` in the JSON): it acts no more (fixgenso71c), and counts down
    as the table counts it (:func:`goes_on_line`, :func:`at_the_end`; the JSON's
    ``party_down`` and ``party_out``). A fight with no such death is said as the engine's
    state says it."""
    state = fight.state
    table = table or calendar_view(fight)
    shown = {c.name: named(rules, fight, c) for c in state.order}
    width = min(max((display_width(label) for label in shown.values()), default=0),
                NAME_COLUMN)
    rows = []
    # The party out as the engine says it (after the end too), else with the calendar's dead
    # counted down, going on (the table's), or when the GM ended it (the table's outcome then,
    # the party's side only: 勝利 the party won is no party out).
    at_end = table.outcome_at_end()
    out = state.party_out or table.party_out() or (at_end if at_end in PARTY_OUT else None)
    turn = shown[state.current.name] if state.current else ""
    lines = [f"round {state.round}" + (f"  turn: {turn}" if state.current
                                       else f"  over: {state.outcome.text}"
                                       if state.outcome else "")
             + (f" (moved: {state.moved}; its action is left, GM-COMBAT-1)"
                if state.moved and state.current else "")]
    going_on = goes_on_line(table)
    if going_on:  # a line of its own: the round's line fits 80 columns
        lines.append(going_on)
    # Lines of their own, as the round's: 80 columns, the --set it names whole.
    lines += textwrap.wrap(rings_counted_once(fight), 80, break_on_hyphens=False)
    ended = at_the_end(table)
    if ended:
        # The GM's end of a fight whose party was out (全滅), or whose foes were (the
        # calendar's dead): the sides' state beside it (review64g), a line of its own for
        # the 80 columns; the journal is as played.
        lines.append(f"at the end: {ended}")
    for c in state.order:
        pools = (f"HP {c.hp}/{c.max_hp} " if c.hp is not None else "") + f"MP {c.mp}/{c.max_mp}"
        if c.storage_mp:
            pools += f" ring {c.storage_mp}"
        flags = [c.status.badge] if c.status.badge else []
        # A stance lasts until the fighter's next action: one who fled or is down has none,
        # as the table's row says (a78screen DEFECT 1: "FLED 逃亡 全力攻撃 full attack").
        stance = c.stance if c.status is Status.ACTIVE else Stance.NONE
        if stance.text:
            flags.append(stance.text)
        flags += [rules.spell(e.spell).ja + (f"({c.weapon_label(e)})" if e.weapon else "")
                  for e in c.effects]
        barrier = table.barrier_holding(c)
        if barrier:  # GM-MAGIC-5: inside another's Barrier (calendar73 NIT 6), in the
            # Japanese the effects beside it are given in (結界呪): the row fits 80 columns
            flags.append(IN_BARRIER.split()[0])
        if wants_to_flee(rules, c):
            flags.append("wants to flee (GM-MON-1)")
        if c.rises_as:
            flags.append(f"rises at sunset as {c.rises_as}'s kind (GM-MON-5)")
        if c.risen_as:
            flags.append(f"risen 起き上がった as {c.risen_as}'s kind (GM-MON-5)")
        dead = table.cursed_dead(c.name)
        # The table row's Death Curse, in its words: the days to the sunset that kills it
        # (呪殺呪 curse 366d, 今日 today), or died (reviewg71 RISK 3: only the dead were shown).
        curse = table.curses().get(fold_name(c.name))
        if curse:
            flags.append(curse)
        mark = "▶" if state.current and c.name == state.current.name else " "
        lines += _row_lines(f"{mark} {c.side.value:<5} ",
                            _name_lines(c.name, english(rules, fight, c), width), width,
                            pools, flags)
        rows.append({"name": c.name, "side": c.side.value, "role": c.role.value, "hp": c.hp,
                     "max_hp": c.max_hp, "mp": c.mp, "max_mp": c.max_mp,
                     "storage_mp": c.storage_mp,
                     "status": c.status.value, "stance": stance.value,
                     "effects": [e.spell for e in c.effects],
                     "in_barrier_of": barrier or None,
                     "wants_to_flee": wants_to_flee(rules, c), "rises_as": c.rises_as,
                     "risen_as": c.risen_as, "calendar_dead": dead,
                     # The row's words for a script or a screen to show alike (reviewg72
                     # NIT 6: calendar_dead alone said nothing of the days left).
                     "curse": curse or None})
    data = {"round": state.round, "current": state.current.name if state.current else None,
            "moved": state.moved or None,
            "outcome": state.outcome.value if state.outcome else None,
            "party_down": table.party_out() is not None,
            "party_out": out.value if out else None,
            "combatants": rows,
            "actions": len(fight.journal)}
    return "\n".join(lines), data


#: The widest name column of `fight show`, and the row it is in: a name wider goes on in
#: lines below it, its English under its Japanese, and what is on a fighter past the row's
#: end on lines below, under HP: a77data NIT 5's 一般的な森妖精の冒険者 Typical forest fairy
#: (elf) adventurer ran its row to 89 columns.
NAME_COLUMN = 36
ROW_WIDTH = 80


def logged(said: str) -> str:
    """The engine's lines as an action prints them (``GM-MAGIC-5   text``) within
    :data:`ROW_WIDTH` columns, as the round's lines are: a line wider goes on in lines below
    under its text, past the rule column, broken between words (a run of Japanese between
    its characters, a command in backticks whole: :func:`cell_wrap`). A Barrier's line,
    naming its caster and all it holds with their English, ran to 216 columns (r77data
    RISK)."""
    lines: list[str] = []
    for line in said.split("\n"):
        text = re.sub(r"^\S*\s*", "", line)  # after the rule ID and its column's spaces
        lead = line[:len(line) - len(text)]
        rows = cell_wrap(text, ROW_WIDTH - len(lead)) or [""]
        lines += [lead + rows[0], *(" " * len(lead) + row for row in rows[1:])]
    return "\n".join(lines)


def _name_lines(name: str, english_name: str, width: int) -> list[str]:
    """A fighter's name and its English in ``width`` columns: on one line where it fits,
    else the Japanese on its own and the English broken between its words below it."""
    whole = f"{name} {english_name}"
    if display_width(whole) <= width:
        return [whole]
    lines = [name, ""]
    for word in english_name.split(" "):
        joined = f"{lines[-1]} {word}" if lines[-1] else word
        if lines[-1] and display_width(joined) > width:
            lines.append(word)
        else:
            lines[-1] = joined
    return lines


def _row_lines(lead: str, names: list[str], width: int, pools: str,
               flags: list[str]) -> list[str]:
    """A fighter's row of `fight show` within :data:`ROW_WIDTH` columns where its words
    allow: its name's lines in the name column, its HP and MP, then what is on it, broken
    between them onto lines under HP, one wider than a line between its words ("risen
    起き上がった as ワイト's kind (GM-MON-5)")."""
    room = ROW_WIDTH - display_width(lead) - width - 2
    tail = [f"{pools}  "]
    for flag in flags:
        gap = "" if tail[-1].endswith("  ") else " "
        if display_width(tail[-1] + gap + flag) <= room:
            tail[-1] += gap + flag
        elif display_width(flag) <= room:
            tail.append(flag)
        else:
            tail.append("")
            for word in flag.split(" "):
                gap = " " if tail[-1] else ""
                if display_width(tail[-1] + gap + word) <= room:
                    tail[-1] += gap + word
                else:
                    tail.append(word)
    lines = []
    for n in range(max(len(names), len(tail))):
        name = names[n] if n < len(names) else ""
        rest = tail[n] if n < len(tail) else ""
        line = f"{lead if n == 0 else ' ' * len(lead)}{pad(name, width)}  {rest}"
        lines.append(line if n == 0 else line.rstrip())
    return lines


def combatant_name(fight: Fight, typed: str) -> str:
    """The combatant a typed ACTOR or TARGET names, as the fight knows it.

    Its name, with full-width and half-width letters and digits folded alike (NFKC), so
    駆け出し冒険者1 is the preset's 駆け出し冒険者１ and オーク１ is the monster オーク1, in
    any case (a saved character ``orc`` is ``ORC`` too, as ``ORC1`` is ``orc1``); or the
    preset key (in any case: ``PC1`` is ``pc1``) or sheet file the PC was brought in with
    (``--party pc1`` → ``pc1``, ``--party ann.toml`` → ``ann.toml``, a saved character's
    ``--party Orc`` → ``orc`` too), or the monster key (``--monsters orc`` → ``orc``; of
    ``orc:2``, ``orc1`` and ``orc2``: ``orc`` alone matches both, and is refused naming
    them); or its English as `fight show` puts it beside the name, its spaces kept (``"Orc
    2"``, ``"orc warrior"``: the help sends the player there, genso72 NIT 6; ``pc1`` or
    ``PC1`` is never the "PC 1" of another PC, reviewg72 RISK 2). What names two combatants
    is refused, a name too: a saved character ``orc1`` beside ``--monsters orc:2``'s オーク1
    is named ``"PC 1"``, the monster ``"Orc 1"`` (finalb72 DEFECT 1: ``orc1`` picked the PC
    silently, and the refusal listed ``orc1`` as the monster's key). Two names apart only
    by case (Ben, ben) are each named by their own. The key alone names the monster of no
    number before the numbered ones of its key: a fight saved with ``--monsters orc:2 orc``
    holds オーク beside オーク1 and オーク2 (genso72 DEFECT 1); not before anyone else it
    names (a saved character ``orc`` brought in by ``--party orc``: refused as either,
    reviewg72 RISK 2). When no one else is named, a lone monster named with no number is
    ``orc1`` and ``オーク1`` too. Only the lookup folds: the journal keeps the fight's own
    names, so a file reads, and replays, as it always did. A name that matches no one (or
    several) is refused, naming everyone in the fight with a name to type that needs no
    Japanese input and names no one else.
    """
    english = english_names(fight.rules, fight)
    found = _named(fight, english, typed)
    if len(found) == 1:
        return found.pop()
    names = [c.name for c in fight.state.combatants]
    listed = ", ".join(_typeable(fight, english, n) for n in names)
    could = " or ".join(_typeable(fight, english, n) for n in sorted(found))
    raise IllegalAction(f"no combatant {typed!r} in this fight ({listed})"
                        + (f"; it could be {could}" if found else ""))


def _named(fight: Fight, english: dict[str, str], typed: str) -> set[str]:
    """Everyone ``typed`` names (:func:`combatant_name`): one, none or several."""
    names = [c.name for c in fight.state.combatants]
    folded = fold_name(typed).lower()
    by_name = {n for n in names if fold_name(n).lower() == folded}
    found = set(by_name)
    # The English beside the names, its spaces kept: "PC 1" of --party pc2 pc1 is pc2, and
    # pc1 or PC1 must not name it; a saved character named "PC 1" is named so too.
    found |= {n for n in names if _spaced(english[n]) == _spaced(typed)}
    lone: set[str] = set()  # a lone monster named with its number 1: if no one else is
    keyed: set[str] = set()  # a monster of no number named by its key alone
    monsters: dict[str, str] = {}  # each monster found by its key: that key
    preset = next((raw for key, raw in fight.rules.presets.items()
                   if fold_name(key).lower() == folded), None)
    for entrant in fight.entrants:
        if entrant.name not in names:
            continue
        if entrant.monster:
            # A player who typed --monsters orc names the orc orc, as pc1 names its PC.
            number = re.search(r"\d+$", entrant.name)
            keys = {entrant.monster} | ({f"{entrant.monster}{number.group(0)}"}
                                        if number else set())
            if folded in keys:
                found.add(entrant.name)
                monsters[entrant.name] = entrant.monster
                if number is None:
                    keyed.add(entrant.name)
            # A lone monster (オーク, no number) is orc1 and オーク1 too, as the help's
            # examples name it: refused, the player was not told orc works (tables65 NIT 3);
            # only when no one else is (review65t D2: beside --monsters orc:2's オーク1,
            # orc1 was refused as it could be either).
            elif number is None and folded in (
                    f"{entrant.monster}1", f"{fold_name(entrant.name).lower()}1"):
                lone.add(entrant.name)
            continue
        if entrant.origin:
            origin = Path(entrant.origin)
            refs = {Path(typed).expanduser().resolve(), sheet_path(typed).resolve()}
            # A saved character's file name in any case, as its name (finalb72 NIT 2).
            saved = sheet_path(origin.stem).resolve() == origin and \
                fold_name(origin.stem).lower() == folded
            if origin in refs or saved:
                found.add(entrant.name)
            continue
        # A preset's copies (--npc knight_m:2: 騎士（男性）1 and 2) are each named by the key
        # and its number (knight_m1), as monsters are, and all by the key (genso74 DEFECT 2).
        own = fold_name(str(entrant.sheet.get("name", "")))
        if preset is not None and own in map(fold_name, preset_names(preset)):
            found.add(entrant.name)
        copy = fold_name(entrant.name)[len(own):] if fold_name(entrant.name).startswith(
            own) else ""
        if copy.isdecimal() and any(
                own in map(fold_name, preset_names(raw))
                and f"{fold_name(key).lower()}{copy}" == folded
                for key, raw in fight.rules.presets.items()):
            found.add(entrant.name)
    if len(keyed) == 1 and len(found) > 1:
        (unnumbered,) = keyed
        if all(monsters.get(n) == monsters[unnumbered] for n in found):
            return {unnumbered}
    if found == by_name and typed in by_name:
        return {typed}  # Ben of Ben and ben: names alone, apart only by case
    return found or lone


def _spaced(text: str) -> str:
    """``text`` folded (NFKC), lower case, its spaces kept (a run of them one): "Orc 2" is
    typed "orc 2" or "ORC  2", but not "orc2", which is a key (reviewg72 RISK 2: "PC 1",
    pc2's English after ``--party pc2 pc1``, was found by ``PC1``)."""
    return " ".join(fold_name(text).lower().split())


def _typeable(fight: Fight, english: dict[str, str], name: str) -> str:
    """A combatant as a refusal lists it: its name, its English and what else names it (a
    monster's or preset's key, a saved character's name, a sheet file's path: ``オーク2 Orc
    2 = orc2``, ``駆け出し冒険者１ PC 1 = pc1``), so a player without Japanese input is
    told what to type (genso72 NIT 6). Only what names it alone: a key that names another
    too gives way to the English (``オーク1 Orc 1 = "Orc 1"`` beside a saved character
    ``orc1``, finalb72 DEFECT 1), or a lone monster's key numbered 1 (``オーク Orc = orc1``
    beside a saved character ``orc``), and to nothing if those do too."""
    entrant = next((e for e in fight.entrants if e.name == name), None)
    key = ""
    if entrant is not None and entrant.monster:
        number = re.search(r"\d+$", name)
        key = entrant.monster + (number.group(0) if number else "")
    elif entrant is not None and not entrant.origin:  # a preset's copy by its number too
        own = str(entrant.sheet.get("name", ""))
        copy = name[len(own):] if name.startswith(own) else ""
        key = next((k + copy for k, raw in fight.rules.presets.items()
                    if fold_name(own) in map(fold_name, preset_names(raw))), "")
    elif entrant is not None:  # a saved character by its name, another sheet by its path
        origin = Path(entrant.origin)
        key = origin.stem if sheet_path(origin.stem).resolve() == origin else str(origin)
    if key and _named(fight, english, key) != {name}:
        # Else its English, else (a lone monster) its key numbered 1, as they name it alone.
        lone = [f"{entrant.monster}1"] if entrant is not None and entrant.monster \
            and key == entrant.monster else []
        key = next((f'"{typed}"' if " " in typed else typed
                    for typed in (english[name], *lone)
                    if _named(fight, english, typed) == {name}), "")
    return f"{name} {english[name]}" + (f" = {key}" if key else "")


#: The spells cast on, or from, a weapon: Exorcism 「武器に付与」 (GM-MAGIC-3) and a Dispel of it
#: (GM-MAGIC-4); ``fight cast --weapon`` names that weapon.
WEAPON_SPELLS = ("exorcise", "dispel")


def _calendar_spell(fight: Fight, args: argparse.Namespace) -> None:
    """GM-MAGIC-13: ``fight cast … death_curse`` is refused, pointing to `genso calendar
    curse`, which keeps it: the engine's refusal said the spell was "told by the GM, not
    tracked", and the companion tracks it on the calendar (calendar73 NIT 5). On a monster
    of the fight the GM tells it (the calendar keeps curses on people, calendar73 NIT 8).
    The check is the command's, before the action is played: no fight replays otherwise."""
    try:
        spell = fight.rules.spell(args.spell)
    except DataError:
        return  # the engine refuses an unknown spell in its own words
    if spell.key != "death_curse":
        return
    told = (f"{spell.name} ({spell.rule}) is not played in a fight (no MP paid, no turn "
            "spent there): its target dies at sunset a year and a day on, which the companion "
            "keeps on the calendar")
    targets = [t for t in args.targets if t.strip()]
    monsters = {e.name for e in fight.entrants if e.monster}
    if len(targets) == 1 and combatant_name(fight, targets[0]) in monsters:
        raise IllegalAction(f"{told} for a person only: on a monster, each fight's a new one, "
                            "the GM tells it")
    target = _typed(targets[0]) if len(targets) == 1 else "TARGET"
    raise IllegalAction(f"{told}: `{companion_command()} genso calendar curse "
                        f"{_typed(args.actor)} {target}`")


def _weapon_spell(rules: GensoRules, spell: str, weapon: str | None) -> None:
    """Refuse ``--weapon`` for a spell that no weapon carries: it was dropped unsaid. The check
    is the command's, before the action is played, so no saved fight replays otherwise."""
    if weapon is None:
        return
    cast = rules.spell(spell)
    if cast.effect not in WEAPON_SPELLS:
        takes = " and ".join(s.name for s in rules.spells.values()
                             if s.effect in WEAPON_SPELLS)
        raise DataError(f"fight cast --weapon {weapon}: only {takes} are cast on a weapon "
                        f"(GM-MAGIC-3, GM-MAGIC-4); {cast.name} is not, so give no --weapon")


def weapon_number(fight: Fight, actor: str, typed: str) -> int:
    """The weapon ``fight attack --weapon`` (or ``fight cast --weapon``, of the target)
    names, as its number among ``actor``'s weapons (GM-EQUIP-1; the order ``genso sheet``
    numbers them in): a number (0: the first), or its key or name as ``buy`` and ``gear``
    take them (sword, 剣, Sword, 小刀/Knife). One ``actor`` does not carry is refused, naming
    what it carries, with the nearest of them."""
    fighter = fight.state.get(actor)
    weapons = fighter.weapons
    carried = ", ".join(f"{n} {w.name} ({w.key})" for n, w in enumerate(weapons))
    if typed.strip().isdecimal():
        if int(typed) < len(weapons):
            return int(typed)
        raise DataError(f"--weapon {typed}: {actor} has no weapon {int(typed)} (carried: "
                        f"{carried})")
    folded = fold_name(typed).lower()
    for number, weapon in enumerate(weapons):
        if folded in {weapon.key.lower(), weapon.name.lower(),
                      *(part.lower() for part in weapon.name.split("/"))}:
            return number
    try:
        item = fight.rules.item(folded)
    except DataError:
        item = None
    if item is not None and item.slot is Slot.WEAPON and fighter.role is not Role.MONSTER:
        # GM-EQUIP-1, GM-COMBAT-1: a weapon of the tables not among those the fight copied
        # from the sheet at `fight new`; the seed (PG 4) gives no step to ready one in a
        # fight (a78journey DEFECT 1: refused with no reason after `genso gear` readied it).
        # A monster fights with its table's weapons: no sheet, nothing bought (r78genso2).
        raise DataError(f"--weapon {typed}: {actor} did not carry {item.name} into this "
                        f"fight (carried: {carried}): a fight keeps its fighters' weapons as "
                        "`fight new` copied them from their sheets, so one bought or readied "
                        "since strikes from the next fight")
    close = difflib.get_close_matches(folded, [w.key for w in weapons], n=1)
    raise DataError(f"--weapon {typed}: {actor} carries no such weapon (carried: {carried})"
                    + (f"; did you mean {close[0]!r}?" if close else ""))


def stone_key(rules: GensoRules, typed: str) -> str:
    """GM-ITEM-2: the stone ``fight stone`` names, by its key or its Japanese or English
    name in any width and case (治癒石, Healing Stone, ｈｅａｌｉｎｇ＿ｓｔｏｎｅ), as ``cast``
    takes 治癒呪 (a76gensofight NIT 3: argparse took the two keys only). The key is what the
    fight file keeps, as before, so a saved fight replays the same."""
    folded = fold_name(typed).casefold()
    for key in STONES:
        item = rules.item(key)
        if folded in (key, fold_name(item.ja).casefold(), item.en.casefold()):
            return key
    said = " or ".join(f"{key} ({rules.item(key).name})" for key in STONES)
    raise DataError(f"fight stone {typed}: the stones used in a fight are {said} (GM-ITEM-2)")


def _fight_action(args: argparse.Namespace, fight: Fight, path: Path) -> Action:
    verb = args.verb

    def who(typed: str) -> str:
        return combatant_name(fight, typed)

    if verb == "attack":
        actor = who(args.actor)
        weapon = 0 if args.weapon is None else weapon_number(fight, actor, args.weapon)
        return Attack(actor, who(args.target), weapon, args.full)
    if verb == "cast":
        _calendar_spell(fight, args)
        _weapon_spell(fight.rules, args.spell, args.weapon)
        targets = tuple(who(t) for t in args.targets)
        actor = who(args.actor)
        # The weapon is the target's (the one spell of GM-MAGIC-3/4 goes on), else the caster's.
        on = weapon_number(fight, (targets or (actor,))[0], args.weapon) \
            if args.weapon is not None else None
        return Cast(actor, args.spell, targets, on, args.stone, args.ring)
    if verb == "stone":
        return UseStone(who(args.actor), stone_key(fight.rules, args.stone_key),
                        who(args.target))
    if verb == "move":
        return Move(who(args.actor), args.mode)
    if verb == "end" and fight.state.outcome is not None:
        # GM-COMBAT-1: the GM's end is for a fight still going; after a win it wrote
        # "終了 the GM ended the fight" over "勝利 the party won" (genso63 NIT 8). The apply
        # named as typed, with the fight's --file (r77carry NIT: "`fight apply`" alone applied
        # the default fight's results, not this one's).
        raise IllegalAction(f"the fight is already over: {fight.state.outcome_text}; "
                            "`fight end` is for a fight still going "
                            f"(`{apply_command(path)}` writes its results)")
    simple: dict[str, Callable[[], Action]] = {
        "dodge": lambda: Dodge(who(args.actor)), "flee": lambda: Flee(who(args.actor)),
        "wait": lambda: Wait(who(args.actor)), "end": EndFight, "sunrise": Sunrise,
        "sunset": Sunset, "sleep": Sleep,
    }
    return simple[verb]()


def monster_counts(specs: list[str], rules: GensoRules | None = None) -> list[tuple[str, int]]:
    """``orc:2 ghost`` → [("orc", 2), ("ghost", 1)]; a count that is not a whole number of
    1 or more (``orc:x``, ``orc:0``) is refused, not read as none, and one above
    :data:`MOST_OF_ONE_KIND` (``orc:1000000000`` ran on for minutes), naming the monster
    in both languages with ``rules`` (オーク/Orc), as the counts together are (reviewcarry75
    NIT 2)."""
    counts = []
    for spec in specs:
        # A full-width colon too (オーク：２), as an IME gives it: the key and the number are
        # taken in any width already (genso74 NIT 10).
        key, sep, count = spec.replace("：", ":").partition(":")
        if sep and not (count.strip().isdecimal() and int(count) >= 1):
            raise DataError(f"--monsters {spec}: write KEY or KEY:N, N a whole number of 1 or "
                            "more (e.g. orc:2)")
        if sep and int(count) > MOST_OF_ONE_KIND:
            named = ""
            if rules is not None:
                with contextlib.suppress(DataError):  # no such monster: said after this
                    named = f"{rules.monster(key).name}: "
            raise DataError(f"--monsters {spec}: {named}at most {MOST_OF_ONE_KIND} of one kind "
                            f"in a fight 戦闘 {too_many_why()}")
        counts.append((key, int(count) if sep else 1))
    return counts


def sheet_entrants(rules: GensoRules, refs: list[tuple[str, str, Side, bool]],
                   ) -> list[tuple[str, Entrant]]:
    """The entrants ``fight new`` brings from sheets and presets, each with the reference it
    was typed as, of ``(option, ref, side, as_monster)``: a preset typed ``KEY:N`` (a colon
    of any width) brings N copies, numbered as monsters are (``--npc knight_m:2`` →
    騎士（男性）1, 騎士（男性）2; Knight (male) 1 and 2 beside them), as two knights or two
    villagers are an ordinary encounter. One preset typed twice is refused, pointing there
    (genso74 DEFECT 2: the refusal said to give one "name = … in its sheet", and a preset
    has no sheet to edit); a sheet file is one character, so ``:N`` of one is refused."""
    typed: list[tuple[str, str, Side, bool, str, int]] = []
    for option, ref, side, as_monster in refs:
        base, count = _copies(option, ref)
        typed.append((option, ref, side, as_monster, base, count))
    presets: dict[str, list[tuple[str, str, int]]] = {}  # name → (option, typed, count)
    found: list[tuple[Character, Path | None]] = []
    for option, ref, _, _, base, count in typed:
        character, path = _sheet_or_preset(rules, option, ref, base, count)
        found.append((character, path))
        if path is not None and base != ref:
            raise DataError(f"{option} {ref}: KEY:N brings N copies of a preset; {base} is a "
                            f"sheet file ({path}), one character: bring each copy as a sheet "
                            "file of its own name")
        if path is None:
            presets.setdefault(character.name, []).append((option, ref, count))
    for name, uses in presets.items():
        if len(uses) > 1:
            raise DataError(_twice(rules, name, uses))
    out: list[tuple[str, Entrant]] = []
    for (_, ref, side, as_monster, base, count), (character, path) in zip(
            typed, found, strict=True):
        if path is not None:
            out.append((ref, fight_entrant(rules, base, side, as_monster)))
            continue
        out += [(ref, Entrant.of_character(character, side, as_monster,
                                           name=f"{character.name}{n}" if count > 1 else None))
                for n in range(1, count + 1)]
    return out


def _sheet_or_preset(rules: GensoRules, option: str, typed: str, ref: str,
                     count: int) -> tuple[Character, Path | None]:
    """:func:`resolve_sheet` of ``ref`` (``typed`` less its ``:N``); a monster's key or name
    where a sheet goes (``--party orc``) said to be one, with the ``--monsters`` that brings
    it (genso74 NIT 7: "no sheet 'orc'" alone)."""
    try:
        return resolve_sheet(rules, ref)
    except DataError as exc:
        monster = monster_not_sheet(rules, ref, exc)
        many = f":{count}" if count > 1 else ""
        raise DataError(f"{option} {typed}: {exc}; {ref!r} is a monster ({monster.name}, "
                        f"GM-MON-7): bring it with `--monsters {monster.key}{many}`") from None


def _a_monster(rules: GensoRules, spec: str, key: str, count: int) -> None:
    """``--monsters`` ``key`` refused when no monster has it; an NPC preset's key said to be
    one, with the ``--npc`` that brings it (reviewg74 NIT 7: ``--monsters knight_m:2`` was
    only "no monster 'knight_m'"; the reverse of ``--party orc``, genso74 NIT 7)."""
    try:
        rules.monster(key)
    except DataError as exc:
        folded = fold_name(key).casefold()
        found = next((k for k, raw in rules.presets.items()
                      if folded in (k.casefold(), fold_name(str(raw.get("name", ""))).casefold(),
                                    str(raw.get("name_en", "")).casefold())), None)
        if found is None:
            raise
        many = f":{count}" if count > 1 else ""
        raw = rules.presets[found]
        kind = "an NPC" if raw.get("kind") == "npc" else "a PC"
        raise DataError(f"--monsters {spec}: {exc}; {key!r} is {kind} preset "
                        f"({raw.get('name')}): bring it with `--npc {found}{many}`") from None


def _copies(option: str, ref: str) -> tuple[str, int]:
    """``knight_m:2`` → ("knight_m", 2); a ref with no ``:N`` (a colon and a number of any
    width: ``knight_m：２``, as an IME gives them) is itself, one. A count below 1 is
    refused, and one above :data:`MOST_OF_ONE_KIND`."""
    # A sign too, so ``knight_m:-1`` gets the KEY:N line that ``:0`` gets, not "no sheet
    # 'knight_m:-1'" (reviewg74 NIT 6): a hyphen, a minus sign or a full-width one.
    copies = re.fullmatch(r"(.*\S)\s*[:：]\s*([-−－+＋]?\d+)\s*", ref)
    if copies is None:
        return ref, 1
    count = int(unicodedata.normalize("NFKC", copies.group(2)).replace("−", "-"))
    if count < 1:
        raise DataError(f"{option} {ref}: write a sheet, or a preset's KEY:N, N a whole number "
                        "of 1 or more (e.g. knight_m:2)")
    if count > MOST_OF_ONE_KIND:  # knight_m:1000000000 ran on for minutes (fixcarry75 item 3)
        raise DataError(f"{option} {ref}: at most {MOST_OF_ONE_KIND} copies of a preset in a "
                        f"fight 戦闘 {too_many_why()}")
    return copies.group(1), count


def _twice(rules: GensoRules, name: str, uses: list[tuple[str, str, int]]) -> str:
    """The refusal of one preset brought twice (:func:`sheet_entrants`): on one side, the
    ``KEY:N`` that brings them numbered (the bound when they are more than
    :data:`MOST_OF_ONE_KIND`); on both, a copy saved under another name."""
    key = next((k for k, raw in rules.presets.items() if raw.get("name") == name), name)
    said = " and ".join(f"{option} {ref}" for option, ref, _ in uses)
    options = {option for option, _, _ in uses}
    save = (f"`{companion_command()} genso sheet {key} --save-as FILE`, give it another name "
            "(name = … in FILE) and bring FILE")
    if len(options) > 1:
        return (f"{said}: the preset {key} ({name}) on both sides would be two combatants of "
                f"one name: for one of them, {save}")
    total = sum(count for _, _, count in uses)
    if total > MOST_OF_ONE_KIND:  # `KEY:total` would be refused too (reviewcarry75 DEFECT 2)
        return (f"{said} bring {total} copies of the preset {key} ({name}): at most "
                f"{MOST_OF_ONE_KIND} copies of a preset in a fight 戦闘 {too_many_why()}")
    (option,) = options
    numbered = " and " if total == 2 else " to "
    # "bring N copies", not "…knight_m: 3 copies", which reads as a KEY:N (reviewg74 NIT 5).
    return (f"{said} bring {total} copies of the preset {key} ({name}), which would share its "
            f"name: bring them as `{option} {key}:{total}`, numbered {name}1{numbered}{name}"
            f"{total} (or {save})")


def apply_hint(path: Path) -> str:
    """What a fight with sheet files says when it ends, wherever it ends: the sheets keep
    their old HP and MP until ``fight apply`` of this fight file writes them."""
    return f"write HP, MP and stones back to the sheets with `{apply_command(path)}`"


def _not_written(path: Path, rules: GensoRules) -> tuple[Fight | None, list[Unwritten]]:
    """The fight saved at ``path`` (None when it does not load) and its PCs whose sheets do
    not hold what it left them (:func:`unwritten`), the fight over or still going."""
    try:
        old = load_fight(rules, path)
    except DataError:
        return None, []
    return old, unwritten(old)


def _how_to_write(old: Fight, pending: list[Unwritten], path: Path) -> str:
    """What ``fight new`` says of a saved fight whose results the sheets do not hold: the
    commands that write them, in the order that works (a fight still going is ended first),
    for the fight file at ``path``; a sheet gone, that nothing can write it."""
    gone = [p for p in pending if p.gone]
    left = [p for p in pending if not p.gone]
    parts = []
    if left:
        names = ", ".join(p.name for p in left)
        if old.state.outcome is None:
            parts.append(f"it is not over, and the HP and MP it left {names} are not on their "
                         f"sheets: to keep them, `{companion_command()} genso fight "
                         f"end{file_option(path)}` "
                         f"then `{apply_command(path)}`")
        else:
            parts.append(f"its results were never written to the sheets of {names}: write "
                         f"them first with `{apply_command(path)}`")
    parts += [f"the sheet of {p.name}, {p.sheet}, is gone since it began, so its results "
              "cannot be written to it" for p in gone]
    return "; ".join(parts)


def cmd_fight(args: argparse.Namespace, rules: GensoRules) -> int:
    path = fight_path(args)
    # A file where the fight's folder should be is named, not the fight ("cannot read
    # …/genso/fight.json: Not a directory", hist68 NIT 2): file_there raises so.
    file_there(path)
    if args.verb == "new":
        return _new_fight(args, rules, path)
    if args.verb in ("show", "log"):
        return _fight_verb(args, rules, path)  # reading: beside a table or another command too
    if args.verb in ("undo", "apply"):
        # No dice asked for: held from the load to the save, so nothing written meanwhile
        # (another command's, a table's started meanwhile) is written over.
        with _holding(path, args.verb):
            return _fight_verb(args, rules, path)
    # An action: held a moment for the load (a table playing the file refuses it before any
    # dice are asked for) and again for the save, refused if the file changed between; not
    # while the dice are asked for, which a GM gone from the prompt keeps open for ever.
    with _holding(path, args.verb):
        before = loaded(path)
        fight = _loaded_fight(args, rules, path)
    return _fight_verb(args, rules, path, (before, fight))


def _holding(path: Path, verb: str) -> contextlib.AbstractContextManager[None]:
    """:func:`holding_fight` for ``genso fight <verb>``. No table does an apply: its refusal
    is said as any holder's, with what to do after."""
    def refused(exc: FileInUse) -> FileInUse:
        if verb != "apply" or exc.holder is None:
            return exc
        return FileInUse(f"{path} is in use by another companion ({exc.holder}); "
                         f"{exc.holder.stop}, then apply again: nothing was written",
                         exc.holder)

    return holding_fight(path, "genso", verb, lambda: _over(path), refused)


def _over(path: Path) -> bool:
    """Whether the fight saved at ``path`` is over (False when it does not load)."""
    try:
        return load_fight(saved_fight_rules([]), path).state.outcome is not None
    except DataError:
        return False


def _not_applied(fight: Fight) -> list[SheetWrite]:
    """The sheets changed since ``fight`` began, or since its apply, that do not hold what
    it changed (:func:`_owed`): apply refuses them, so the fight file is the only record of
    the changes (review59c D1, review63e DEFECT 1). One the fight changed nothing on since
    has nothing to take; one that holds them all already is as good as applied."""
    left = []
    for entrant in fight.entrants:
        if entrant.monster or not entrant.origin:
            continue
        try:
            write = sheet_write(fight, entrant)
        except (DataError, OSError):
            continue  # a sheet gone or unreadable is :func:`unwritten`'s
        if write.changed and write.now != write.new and (owed := _owed(fight, write)) \
                and owed.to_make:
            left.append(write)
    return left


def _done_with(fight: Fight) -> bool:
    """A fight that is over with every sheet holding what it left (applied, or presets
    only): ``fight new`` writes over it with no --force and no copy, as coc's over a fight
    that is over (review59a D3). One whose results wait for ``fight apply`` is kept.

    A sheet counts as done only by a sure sign: it holds the fight's results, or the fight
    file records that ``fight apply`` wrote them (a sheet changed after that is the
    player's own doing: a rest, a purchase) and the fight changed nothing since. One changed
    since the fight began and never applied, or since an apply the fight outgrew (an undo, a
    spell after the end), is not done, though apply refuses it (:func:`_not_applied`)."""
    return fight.state.outcome is not None and not unwritten(fight) \
        and not _not_applied(fight)


@dataclass(frozen=True)
class _Change:
    """One field the fight changed on a sheet's character, ``was`` → ``now``: ``key`` the
    sheet's key (hp, mp, mana_stones, storage_mp, equipment), ``at`` the stone's or pack
    entry's number; ``held`` when the sheet as it is holds ``now`` already (review63e
    RISK 2: a record lost after the sheet was written). ``judge``: the sheet's number,
    when it is neither ``was`` nor ``now`` on a sheet never recorded applied (a record
    lost, then a rest): a change from it might be made twice, so the player sets it
    (review63f RISK 2). ``most``: the sheet's maximum, when the change would take its HP
    or MP past it (review63f NIT 3)."""

    key: str
    at: int | None
    was: Any
    now: Any
    held: bool
    judge: int | None = None
    most: int | None = None


@dataclass(frozen=True)
class _Owed:
    """What the fight changed on a sheet apply refuses, since ``since``: "start" (the
    fight began), "apply" (this fight's apply wrote it) or "by hand" (``--done``); ``base``
    and ``after`` the :func:`results` then and now."""

    since: str
    base: dict[str, Any]
    after: dict[str, Any]
    changes: list[_Change]

    @property
    def to_make(self) -> list[_Change]:
        """The changes the sheet does not hold yet: to make by hand."""
        return [c for c in self.changes if not c.held]


def _owed(fight: Fight, write: SheetWrite) -> _Owed | None:
    """What the fight changed on ``write``'s character since the fight began, or since the
    apply (or ``--done``) the fight file records (review63e DEFECT 1: an undo or a spell
    after the end changes the results after they were applied); each marked ``held`` when
    the sheet as it is holds it already. None for an apply recorded by an older companion,
    which kept no results: what it wrote is not known."""
    record = fight.applied.get(write.entrant.name)
    if record is None:
        since, base = "start", results(write.entrant.character(fight.rules))
    else:
        if (kept := applied_results(record)) is None:
            return None
        since, base = ("by hand" if applied_head(record) == APPLIED_BY_HAND else "apply"), kept
    tops: dict[str, int] = {}  # the sheet's maxima (GM-CORE-3)
    try:
        character = load_sheet(fight.rules, write.text, str(write.sheet))
        sheet: dict[str, Any] | None = results(character)
        derived = derive(fight.rules, character)
        tops = {"hp": derived.max_hp.total, "mp": derived.max_mp.total}
    except DataError:
        sheet = None
    after = results(write.after)

    def change(key: str, at: int | None, was: Any, now: Any) -> _Change:
        # Not by place: a sale shifts the pack and the stones (review63f DEFECT 1). A
        # purchase only appends, so the mana stones are held while the sheet's begin with
        # the fight's; a stone used while the sheet has as many used:KEY as the fight
        # leaves, one given back while it has no more, and as many KEY. Unsure: asked.
        if sheet is None:
            held = False
        elif key == "mana_stones":
            held = sheet[key][:len(after[key])] == after[key]
        elif key == "equipment":
            used = now if now.startswith("used:") else was
            have, leaves = sheet[key].count, after[key].count
            held = have(used) >= leaves(used) if now == used else \
                have(used) <= leaves(used) and have(now) >= leaves(now)
        else:
            held = sheet[key] == now
            if not held and since == "start" and sheet[key] != was:
                return _Change(key, at, was, now, False, sheet[key])
            if not held and key in tops and sheet[key] + now - was > tops[key]:
                return _Change(key, at, was, now, False, most=tops[key])
        return _Change(key, at, was, now, held)

    changes = [change(key, None, base[key], after[key]) for key in ("hp", "mp")
               if base[key] != after[key]]
    changes += [change("mana_stones", n, was, now)
                for n, (was, now) in enumerate(zip(base["mana_stones"], after["mana_stones"],
                                                   strict=False)) if was != now]
    if base["storage_mp"] != after["storage_mp"]:
        changes.append(change("storage_mp", None, base["storage_mp"], after["storage_mp"]))
    changes += [change("equipment", n, was, now)
                for n, (was, now) in enumerate(zip(base["equipment"], after["equipment"],
                                                   strict=False)) if was != now]
    return _Owed(since, base, after, changes)


def _written_besides(fight: Fight, write: SheetWrite) -> dict[str, Any]:
    """What ``fight apply`` writes to a sheet beside HP, MP and the mana stones: a Ring of
    Storage's stored MP (``storage_mp``: [before, after]) and the Healing and Enchant Stones
    the fight used (``used``: their keys), as the sheet holds them before (genso74 NIT 8:
    the line said "HP 8 MP 7 written", not the ring's 5 → 1 nor the stone marked used)."""
    try:
        before = load_sheet(fight.rules, write.text, str(write.sheet))
    except DataError:
        return {}
    out: dict[str, Any] = {}
    if before.storage_mp != write.after.storage_mp:
        out["storage_mp"] = [before.storage_mp, write.after.storage_mp]
    marked = [e for e in write.after.equipment if e.startswith("used:")]
    for e in before.equipment:
        if e in marked:
            marked.remove(e)
    if marked:
        out["used"] = [e.removeprefix("used:") for e in marked]
    return out


def _changes_json(owed: _Owed, held: bool | None = False) -> dict[str, Any]:
    """The changes of ``owed`` to make (``held``: those the sheet holds already; None: all
    of them, as ``--done`` records them made), each field
    as ``[before, after]`` (GM-COMBAT-8, GM-MAGIC-1, GM-ITEM-1, GM-ITEM-3): ``mana_stones``
    as the lists, ``used`` the keys of the stones used (GM-ITEM-2, ``used:KEY`` in
    ``equipment``), ``unused`` those an undo gave back."""
    fields: dict[str, Any] = {}
    stones = list(owed.base["mana_stones"])
    for c in owed.changes:
        if held is not None and c.held != held:
            continue
        if c.key == "mana_stones":
            stones[c.at or 0] = c.now
            fields["mana_stones"] = [list(owed.base["mana_stones"]), list(stones)]
        elif c.key == "equipment":
            used = c.now.startswith("used:")
            fields.setdefault("used" if used else "unused", []).append(
                c.was if used else c.now)
        else:
            fields[c.key] = [c.was, c.now]
    return fields


def _term(rules: GensoRules, key: str) -> str:
    """The Japanese name of item ``key`` (治癒石), "" for one the tables lack."""
    try:
        return rules.item(key).ja
    except DataError:
        return ""


def _change_text(rules: GensoRules, c: _Change) -> str:
    """A change as the sheet's key with its Japanese term beside it: "hp 10 → 3 (-7)",
    "mana_stones 魔力石 0: 4 → 0 MP", "storage_mp 蓄積の指輪 5 → 1 (-4)", "healing_stone 治癒石
    used (in equipment healing_stone → used:healing_stone)"; one the sheet holds already
    says so (review63e RISK 2)."""
    if c.key == "equipment":
        key = c.now.removeprefix("used:") if c.now.startswith("used:") else c.now
        item = " ".join(filter(None, (key, _term(rules, key))))
        how = "used" if c.now.startswith("used:") else "not used after all"
        text = f"{item} {how} (in equipment {c.was} → {c.now})"
    elif c.key == "mana_stones":
        text = f"mana_stones {rules.mana_stone.get('ja', '')} {c.at}: {c.was} → {c.now} MP"
    else:
        term = f" {_term(rules, 'ring_storage')}" if c.key == "storage_mp" else ""
        if c.judge is not None:
            return (f"{c.key}{term}: the fight took it {c.was} → {c.now}, the sheet holds "
                    f"{c.judge} (changed since): set what it should be")
        text = f"{c.key}{term} {c.was} → {c.now} ({c.now - c.was:+d})" + (
            f" (at most its maximum {c.most})" if c.most is not None else "")
    return text + (f" (the sheet holds {c.now} already)" if c.held else "")


def _leaves_text(fight: Fight, entrant: Entrant, write: SheetWrite) -> str:
    """What the fight leaves on ``write``'s character, for a sheet whose apply an older
    companion recorded (review63f NIT 6): HP and MP, and the mana stones, the ring's MP and
    the stones used where the fight changed them (GM-ITEM-1/2/3): "HP 10 MP 8, mana_stones
    魔力石 [0], healing_stone 治癒石 used"."""
    start, after = results(entrant.character(fight.rules)), results(write.after)
    parts = [f"HP {after['hp']} MP {after['mp']}"]
    if start["mana_stones"] != after["mana_stones"]:
        parts.append(f"mana_stones {fight.rules.mana_stone.get('ja', '')} "
                     f"{after['mana_stones']}")
    if start["storage_mp"] != after["storage_mp"]:
        parts.append(f"storage_mp {_term(fight.rules, 'ring_storage')} {after['storage_mp']}")
    for was, now in zip(start["equipment"], after["equipment"], strict=False):
        if was != now and now.startswith("used:"):
            key = now.removeprefix("used:")
            parts.append(" ".join(filter(None, (key, _term(fight.rules, key), "used"))))
    return ", ".join(parts)


def _done_command(path: Path, write: SheetWrite) -> str:
    """The ``fight apply --done NAME`` that records the fight's changes made by hand in the
    sheet ``write`` is of (review63c RISK 4)."""
    return f"`{apply_command(path)} --done {_typed(write.entrant.name)}`"


def _typed(name: str) -> str:
    """A combatant's name as typed in a command: quoted only where a shell needs it (not
    for 駆け出し冒険者２)."""
    return name if re.fullmatch(r"[\w@%+=:,./-]+", name) else shlex.quote(name)


#: Why ``fight apply`` does not write a sheet, by what :func:`_owed` counts from.
_WHY_REFUSED = {
    "start": "was changed since the fight began (a rest, a purchase, a hand), so apply does "
             "not write over it: the fight changed on {who}",
    "apply": "was changed since this fight's apply wrote it (a rest, a purchase, a hand), "
             "and the fight changed after that apply (an undo, a spell or a stone after the "
             "end), so apply does not write over it: since that apply, the fight changed on "
             "{who}",
    "by hand": "took the fight's changes by hand (`fight apply --done`), and the fight "
               "changed after that (an undo, a spell or a stone after the end), so apply "
               "does not write over it: since then, the fight changed on {who}",
}


def _refused_text(fight: Fight, write: SheetWrite, owed: _Owed, path: Path) -> str:
    """``fight apply``'s refusal of a sheet changed since the fight began, or since its
    apply (a rest, a purchase, a hand): not written over, so the fight's changes to make in
    it by hand, and the command that says they were made."""
    who, to_make = _to_make_by_hand(fight, write, owed, path)
    return f"{write.sheet} {_WHY_REFUSED[owed.since].format(who=who)}: {to_make}"


#: What ``fight new`` says of a sheet :func:`_not_applied`, by what :func:`_owed` counts from.
_WHY_NEW = {
    "start": "never took the fight's changes on {who}: it was changed since the fight "
             "began, so `fight apply` refuses it",
    "apply": "never took the fight's changes on {who} made after its apply (an undo, a "
             "spell or a stone after the end): it was changed since that apply, so `fight "
             "apply` refuses it",
    "by hand": "never took the fight's changes on {who} made after its `fight apply "
               "--done` (an undo, a spell or a stone after the end), so `fight apply` "
               "refuses it",
}


def _by_hand(fight: Fight, write: SheetWrite, path: Path) -> str:
    """What ``fight new`` says of a sheet :func:`_not_applied`: the fight's changes, as
    ``fight apply`` gives them (:func:`_refused_text`), to make by hand, as apply cannot."""
    owed = _owed(fight, write)
    assert owed is not None  # :func:`_not_applied` leaves out a record without results
    who, to_make = _to_make_by_hand(fight, write, owed, path)
    return f"{write.sheet} {_WHY_NEW[owed.since].format(who=who)}: {to_make}"


def _to_make_by_hand(fight: Fight, write: SheetWrite, owed: _Owed,
                     path: Path) -> tuple[str, str]:
    """Whose sheet ``write`` is, named, and the fight's changes on it to make by hand, with
    the command that says they were made; one the sheet holds already is named so, not
    asked (review63e RISK 2)."""
    changes = ", ".join(_change_text(fight.rules, c) for c in owed.changes)
    but = ", but for what it holds already" if len(owed.to_make) < len(owed.changes) else ""
    who = named(fight.rules, fight, fight.state.get(write.entrant.name))
    return who, (f"{changes}; make those changes to the sheet as it is now{but}, then "
                 f"{_done_command(path, write)} (`fight show` keeps them until this fight "
                 "is replaced)")


def _new_fight(args: argparse.Namespace, rules: GensoRules, path: Path) -> int:
    _refuse_unread_at_new(args, rules)
    old, pending = _not_written(path, rules) if file_there(path) else (None, [])
    if file_there(path) and not args.force and not (old is not None and _done_with(old)):
        if old is None:
            try:
                load_fight(rules, path)
            except (DamagedFight, NewerFightFile) as exc:
                raise refuse_replacing(path, fault=DataError(exc.fault)) from None
            except DataError as exc:
                raise refuse_replacing(path, fault=exc) from None
        refused = refuse_replacing(path)
        if old is not None and pending:
            raise DataError(f"{refused}\nof the fight saved there, "
                            f"{_how_to_write(old, pending, path)}")
        if old is not None and old.state.outcome is None:
            raise DataError(f"{refused}; or end it first with "
                            f"`{companion_command()} genso fight end{file_option(path)}`")
        if old is not None and (left := _not_applied(old)):
            raise DataError(f"{refused}\nof the fight saved there, "
                            + "; ".join(_by_hand(old, w, path) for w in left))
        raise refused
    counts = monster_counts(args.monsters or [], rules)
    for spec, (key, count) in zip(args.monsters or [], counts, strict=True):
        _a_monster(rules, spec, key, count)
    brought = sheet_entrants(rules, [("--party", ref, Side.PARTY, False) for ref in args.party]
                             + [("--npc", ref, Side.ENEMY, args.npc_as_monster)
                                for ref in args.npc or []])
    entrants = [entrant for _, entrant in brought]
    for entrant in entrants:  # GM-MAGIC-13: the dead of a Death Curse fight no more
        # A preset's entrant keeps no origin (no file): a fresh copy if an NPC preset's.
        refuse_cursed(rules, entrant.name, f"leave {entrant.name} out: no rest, sleep or "
                      "spell of the seed brings the dead back", fresh_copy(
                          rules, entrant.character(rules), not entrant.origin))
    # Of the sheets and presets, whose names the player chose; the monsters are
    # numbered apart by the rules (オーク1, オーク2).
    names_apart((ref, entrant.name) for ref, entrant in brought)
    monsters = entrants_for(rules, [], counts)
    _apart_from_monsters(rules, brought, monsters,
                         list(zip(args.monsters or [], counts, strict=True)),
                         {**{ref: "--party" for ref in args.party},
                          **{ref: "--npc" for ref in args.npc or []}})
    entrants += monsters
    fight = Fight(rules, entrants)  # the settings now are the fight's, kept in its file
    down = [c for c in fight.state.order if c.status.badge]
    if fight.state.outcome is not None:
        # GM-COMBAT-8: who is down on the sheet cannot act; a fight that is over before its
        # first action is a slip (a sheet left at HP −1), and saving it would replace the
        # fight file with one that takes no action.
        raise IllegalAction(f"the fight would be over before it began "
                            f"({fight.state.outcome.text}): "
                            f"{_down_text(fight, down)}; {_what_to_do(down)}; "
                            "nothing was written")
    # Only now, the new fight made: a sheet refused above leaves the old file there.
    try:
        kept = replace_fight(path, lambda old: _replaced_fight(rules, old),
                             lambda: save_fight(fight, path), "companion genso fight",
                             None if args.force else refuse_replacing(
                                 path, "saved there by another command while this one was "
                                 "made: nothing was written"), over=_done_with)
    except FileInUse as exc:
        raise at_the_table(exc, path, "genso",
                           lambda: old is not None and old.state.outcome is not None,
                           "start the new fight again") from None
    if old is not None and kept is not None and any(not p.gone for p in pending):
        # --force was given after the refusal said so: the new fight is made, and this
        # says how to play it with the results instead (it took the sheets without them).
        note(f"note: of the fight replaced, {_how_to_write(old, pending, kept)}; this new "
             "fight took those sheets as they were, without them: to play it with them, "
             "run those, then this `fight new` again with --force")
    if down:
        note(f"note: {_down_text(fight, down)}: they take no turn (GM-COMBAT-8)")
    # The calendar was read for each entrant above (refuse_cursed, its fault said there).
    text, data = fight_status(rules, fight, GensoFightMode(rules, fight, fight_path=path))
    return emit(args, {**data, "path": str(path)}, f"{text}\n\nsaved at {path}")


def _apart_from_monsters(rules: GensoRules, brought: list[tuple[str, Entrant]],
                         monsters: list[Entrant], specs: list[tuple[str, tuple[str, int]]],
                         options: Mapping[str, str]) -> None:
    """Refuse a sheet or preset whose name is a monster's in the new fight, the name the
    rules give it (オーク, or オーク1 of ``--monsters orc:2``), or one only a width apart from
    it (オーク１), naming both sides and the remedy (a76gensofight DEFECT 1: the engine's
    bare "every combatant needs its own name" named neither). A monster's name is the
    rules', so it is the sheet that takes another name; ``options`` are the ``--party``
    or ``--npc`` each sheet was typed after."""
    sheets = {unicodedata.normalize("NFKC", entrant.name): (ref, entrant)
              for ref, entrant in brought}
    for monster in monsters:
        found = sheets.get(unicodedata.normalize("NFKC", monster.name))
        if found is None:
            continue
        ref, entrant = found
        block = rules.monster(monster.monster)
        typed = " ".join(spec for spec, (key, _) in specs
                         if rules.monster(key).key == block.key)
        count = sum(1 for m in monsters if m.monster == block.key)
        what = (f"a monster `--monsters {typed}` brings ({block.name}, numbered {block.ja}1"
                f"{' and ' if count == 2 else ' to '}{block.ja}{count})" if count > 1
                else f"the monster `--monsters {typed}` brings ({block.name})")
        clash = (f"{entrant.name!r} is also the name of {what}"
                 if entrant.name == monster.name else
                 f"{entrant.name!r} and {monster.name!r}, the name of {what}, differ only in "
                 "full- and half-width letters, so a typed name cannot tell them apart")
        if entrant.origin:
            remedy = f"give the sheet another name (name = … in {entrant.origin})"
        else:  # a preset: no sheet of its own to edit (genso74 DEFECT 2)
            remedy = (f"save it with `{companion_command()} genso sheet {_copies('', ref)[0]} "
                      "--save-as FILE`, give it another name (name = … in FILE) and bring FILE")
        raise DataError(f"{options.get(ref, '')} {ref}: {clash}; a monster's name is the "
                        f"rules', so {remedy}".lstrip())


def _what_to_do(down: list[Combatant]) -> str:
    """What ``fight new`` tells of those down on their sheets (GM-COMBAT-8): the
    incapacitated to heal first, the dead to leave out (genso67 NIT 6: the dead were told
    to rest, which refuses them): no rule of the seed brings one back."""
    dead = [c.name for c in down if c.status is Status.DEAD]
    hurt = [c.name for c in down if c.status is not Status.DEAD and not _out_of_mp(c)]
    spent = [c.name for c in down if c.status is not Status.DEAD and _out_of_mp(c)]
    told = []
    if hurt:
        told.append(f"heal {', '.join(hurt)} first (`{companion_command()} genso rest SHEET`, "
                    "GM-HEAL-1; `--sleep` fills MP, GM-HEAL-2) or leave them out")
    if spent:  # out by MP alone: a night's sleep, not days of rest (genso74 NIT 5)
        told.append(f"let {', '.join(spent)} sleep first (`{companion_command()} genso rest "
                    "SHEET --sleep` fills MP, GM-HEAL-2) or leave them out")
    if dead:
        told.append(f"leave {', '.join(dead)} out: no rest, sleep or spell of the seed "
                    f"brings the dead (死亡) back (`{companion_command()} genso rest` refuses "
                    "them; if the GM rules otherwise, set hp in the sheet)")
    return "; ".join(told)


def _down_text(fight: Fight, down: list[Combatant]) -> str:
    """Who is out of the fight from the start, and why: "Dan PC is INCAPACITATED 行動不能 (HP
    -1)"."""
    return "; ".join(f"{named(fight.rules, fight, c)} is {c.status.badge}" + _why_down(c)
                     for c in down)


def _out_of_mp(c: Combatant) -> bool:
    """Down by MP below 1 alone (GM-COMBAT-8), its HP 1 or more."""
    return c.mp is not None and c.mp < 1 and (c.hp is None or c.hp >= 1)


def _why_down(c: Combatant) -> str:
    """The pool below 1 that puts ``c`` out (GM-COMBAT-8): "(HP -1)", or "(MP 0: below 1)"
    for one whose HP is whole (genso74 NIT 5: "(HP 8)" was said of one out by MP 0)."""
    if _out_of_mp(c):
        return f" (MP {c.mp}: below 1)"
    return f" (HP {c.hp})" if c.hp is not None else ""


def _loaded_fight(args: argparse.Namespace, rules: GensoRules, path: Path) -> Fight:
    """The fight saved at ``path``, replayed under the settings its file keeps. A file from
    before fights kept them takes the user's own; this call's --set holds from its action on,
    unless the file replays only with it (it was played with that --set given at every call,
    as then)."""
    try:
        return load_fight(saved_fight_rules([]), path)
    except (DamagedFight, NewerFightFile):
        raise
    except DataError as exc:
        if not args.set:
            hint = _played_with_a_set(rules, path, str(exc))
            if hint:
                raise DataError(f"{exc}; {hint}") from None
            raise
        return load_fight(rules, path)


def _played_with_a_set(rules: GensoRules, path: Path, fault: str) -> str:
    """What a fight file from before fights kept their settings (no ``settings``: version 1)
    that does not replay may want: the ``--set`` it was played with, given at every call
    then, which this call may give again; the settings of the rule its fault names listed
    (genso74 NIT 9: "is damaged and does not replay (GM-MAGIC-1: … does not know 雷撃呪)",
    and nothing of the --set that opens it). Empty for any other file."""
    try:
        data = json.loads(read_text(path, "fight"))
    except (DataError, ValueError):
        return ""
    if not isinstance(data, dict) or "settings" in data or "journal entry" not in fault:
        return ""
    rule = re.search(r"GM-[A-Z]+-\d+", fault.rpartition("does not replay")[2])
    keys = rules.settings.values.get(rule.group(0), {}) if rule else {}
    sets = " or ".join(f"`--set {rule.group(0)}.{key}=…`" for key in keys) if rule else ""
    return ("a fight saved before fights kept their settings replays with the --set it was "
            "played with, given at every call then: give it with this command again"
            + (f" ({sets})" if sets else ""))


def _refuse_built_only(fight: Fight, overrides: dict[str, dict[str, Any]]) -> None:
    """An action's ``--set`` of a setting read only as a fighter or a character is built
    (:data:`BUILT_ONLY`: GM-MON-7 ``orc_warrior``, GM-CHAR-7's starting money), or of one no
    fight reads (:data:`NOT_READ_BY_FIGHTS`: GM-MAGIC-13, GM-HEAL-1, GM-MOVE-2) is refused:
    it said "from this action on" and changed nothing, the Orc Warrior keeping its numbers
    (fixg72c RISK, finalb72 NIT 4) and no purse in a fight being counted (fixg72d). One the
    fight already has is no change, and goes on (a fight played with the same --set at
    every call)."""
    for rule, key, new, now in fight.changes(overrides):
        if (rule, key) in BUILT_ONLY or (rule, key) in NOT_READ_BY_FIGHTS:
            raise DataError(f"{_built_only(rule, key, new)}; this fight keeps {rule}.{key} = "
                            f"{setting_text(now)}")


def _built_only(rule: str, key: str, new: Any) -> str:
    """Why ``--set RULE.key=new`` of :data:`BUILT_ONLY` changes nothing here, and where it
    applies: a setting no fight reads (:data:`NOT_READ_BY_FIGHTS`) names the command that
    reads it."""
    if (rule, key) in NOT_READ_BY_FIGHTS:
        why, command = NOT_READ_BY_FIGHTS[rule, key]
        return (f"--set {rule}.{key}: {why}, and no fight reads it, so give it there (`genso "
                f"{command} --set {rule}.{key}={setting_text(new)}`)")
    why, command = BUILT_ONLY[rule, key]
    made = "fights" if command == "fight new" else "characters"
    return (f"--set {rule}.{key}: {why}, so {rule}.{key} applies to new {made} (`genso "
            f"{command} --set {rule}.{key}={setting_text(new)}`)")


def _refuse_unread_at_new(args: argparse.Namespace, rules: GensoRules) -> None:
    """``fight new``'s ``--set`` of a setting only a new character reads (GM-CHAR-7's
    starting money), or one no fight reads (:data:`NOT_READ_BY_FIGHTS`, calendar73 RISK 2),
    is refused as an action's is: the fight kept it, read it nowhere, and a
    later action's --set was told "this fight keeps GM-CHAR-7.gold = 9" (reviewa73 NIT
    10). The value the fight takes without it (genso.toml's, or the seed's) is no change,
    and goes on (a fight played with the same --set at every call)."""
    base: GensoRules | None = None
    for rule, keys in set_values(args.set or [], SET_EXAMPLE).items():
        for key in keys:
            if BUILT_ONLY.get((rule, key), ("", "fight new"))[1] == "fight new" \
                    and (rule, key) not in NOT_READ_BY_FIGHTS:
                continue
            base = base or load_user_rules([])
            new = rules.default(rule, key)
            if new != base.default(rule, key):
                raise DataError(f"{_built_only(rule, key, new)}; nothing was written")

def _fight_verb(args: argparse.Namespace, rules: GensoRules, path: Path,
                action_on: tuple[AsLoaded, Fight] | None = None) -> int:
    """Every verb but ``new``, on the fight saved at ``path``; an action's on the fight
    ``action_on`` loaded, saved only over the file as it was loaded (:func:`saving_over`)."""
    before, fight = action_on or (loaded(path), _loaded_fight(args, rules, path))
    rules = fight.rules
    overrides = set_values(args.set or [], SET_EXAMPLE)
    if args.verb in ("show", "log", "undo", "apply") and overrides:
        changed = fight.changes(overrides)
        if changed:
            rule, key, _, now = changed[0]
            raise DataError(f"--set {rule}.{key}: this fight is played with {rule}.{key} = "
                            f"{setting_text(now)}; `fight {args.verb}` plays "
                            "no action to change it for (give --set with an action, and it "
                            "holds from that action on)")
    if args.verb not in ("show", "log", "undo", "apply") and overrides:
        _refuse_built_only(fight, overrides)
    if args.verb in ("show", "log"):
        text, data = fight_status(rules, fight)
        if args.verb == "log":
            text = (with_english(fight, "\n".join(e.text for e in fight.journal))
                    if fight.journal else _no_action_yet(fight))
            data["journal"] = [e.to_json() for e in fight.journal]
        return emit(args, data, text)
    if args.verb == "apply":
        return apply_fight(args, rules, fight, path)
    if args.verb == "undo":
        entry = fight.pop()
        with action_saved(path, "genso fight undo", args):
            save_fight(fight, path)
        text, data = fight_status(fight.rules, fight)
        back = "".join(f"; {rule}.{key} is back to {setting_text(fight.rules.default(rule, key))}"
                       for rule, key, _ in entry.settings)
        return emit(args, {**data, "undone": entry.to_json()},
                     f"undone: {with_english(fight, fight.describe(entry.action))}{back}\n{text}")
    action = _fight_action(args, fight, path)
    table = calendar_view(fight, path, say=not isinstance(action, Sunset))
    refuse_the_dead(table, action, path)

    def body(source: DiceSource) -> int:
        if isinstance(action, Cast) and not args.force:
            _warned_first(fight, action, overrides or None, path)
        try:
            entry: Entry = fight.push(action, source, overrides or None)
        except MisaimedExorcism as exc:  # each undead as typed, the weapon's option named
            english = english_names(fight.rules, fight)
            raise IllegalAction(exc.said(lambda name: _typeable(fight, english, name),
                                         "a weapon (`--weapon N`)")) from None
        except IllegalAction as exc:
            if fight.state.outcome is None or isinstance(action, Cast | UseStone):
                raise
            raise IllegalAction(f"{exc}; {_after_the_end(fight, path)}") from None
        with saving_over(before, f"companion genso fight {args.verb}", args.verb), \
                action_saved(path, f"genso fight {args.verb}", args,
                             ((die.sides, die.value) for die in entry.dice)):
            save_fight(fight, path)  # refused by the disk: said so, with the dice (hist72 D2)
        text, data = fight_status(fight.rules, fight, table)
        if fight.state.outcome is not None and unwritten(fight):
            text += f"\n\n{apply_hint(path)}"
        if goes_on_line(table):  # the party out, or the foes (the calendar's dead)
            text += (f"\n\nto end it 戦闘終了: `{companion_command()} genso fight "
                     f"end{file_option(path)}`")
        said = with_english(fight, entry.text)
        dispelled = table.dispel_reaches_curse(entry)
        if dispelled:  # GM-MAGIC-4/13: the Dispel's target carries a calendar curse
            said += f"\n{'GM-MAGIC-4':<12} {dispelled}"
            data["death_curse_dispel"] = dispelled
        if isinstance(action, Sunset):  # GM-MAGIC-13: a Death Curse due at this sunset
            due, data["death_curses_due"] = sunset_curses(rules)
            said = "\n".join([said, *(_curse_due(fight, curse, line, path)
                                      for curse, line in due)])
        said = logged(said)
        # Two clocks (a77gensotown RISK 5), said only in a campaign that keeps a calendar:
        # without one there is no day to stay (r77genso NIT on 8590f3dd: "the calendar
        # stays on day 1" came after every sunrise).
        if isinstance(action, Sunrise) and calendar_path().exists() and (
                stays := calendar_stays(1, "when the day has passed")):
            note(stays)
        return emit(args, {**data, "entry": entry.to_json()}, f"{said}\n\n{text}",
                    dice=True)

    return run_with_source(args, body)


def _warned_first(fight: Fight, cast: Cast, settings: Mapping[str, Mapping[str, Any]] | None,
                  path: Path) -> None:
    """GM-MAGIC-1 Default, "a cast that leaves MP < 1 incapacitates the caster (GM-COMBAT-8);
    the program warns first": a cast the fight takes that leaves the caster below 1 MP of
    its own is refused without ``--force``, saying what it does, as the table asks before it
    (genso74 RISK 3); ``fight cast`` made it and warned after, the caster out of the fight
    (reviewg74, fixgenso74's RISK 3 left open). Tried first on simulated dice and taken
    back, so a cast the engine refuses anyway is refused for its own reason, and no die
    the player throws is asked for it."""
    try:
        fight.push(cast, SimulatedDice.seeded(0), settings)
    except IllegalAction:
        return  # the real push refuses it, for its own reason
    fight.pop()
    caster = fight.state.get(cast.actor)
    spell = fight.rules.spell(cast.spell)
    own = own_mp_paid(caster, spell.mp or 0, cast.stone, cast.ring)
    if own <= caster.mp and caster.mp - own < 1:
        raise IllegalAction(with_english(fight,
            f"GM-MAGIC-1: {caster.name} would fall below 1 MP and be incapacitated 行動不能 "
            f"(GM-COMBAT-8) by {spell.ja} {spell.en} (MP {caster.mp} → {caster.mp - own}), "
            f"out of the fight: nothing was cast; to cast it anyway, give --force "
            f"(`{companion_command()} genso fight cast … --force{file_option(path)}`)"))


def _curse_due(fight: Fight, curse: DeathCurse, line: str, path: Path) -> str:
    """GM-MAGIC-13: ``fight sunset``'s line of a Death Curse due at it, with the English
    beside the names (reviewg67 RISK 3: 駆け出し冒険者１ alone); of a target still in this
    fight, that the fight does not mark the death, and how the GM takes them out: it said
    they die at this sunset and played them on at full HP. An INCAPACITATED target takes no
    turn (GM-COMBAT-8), and ``fight flee`` is the actor's on their turn (GM-COMBAT-1): the
    GM ends the fight; it told them to flee the target on a turn that never comes
    (reviewgc67b RISK 1). The flee is before ``calendar pass 1`` records the death; after
    it the dead act no more and ``fight wait`` skips their turn (reviewg71c RISK 1)."""
    here = [c for c in fight.state.order if fold_name(c.name) == fold_name(curse.target)
            and c.status in (Status.ACTIVE, Status.INCAPACITATED)]
    if not here:
        return with_english(fight, line)
    name = here[0].name
    if fight.state.outcome is not None:
        return with_english(fight, f"{line}; {name} is in this fight, which is over and does "
                                   "not mark the death")
    command = f"{companion_command()} genso fight"
    end = f"the GM ends the fight (`{command} end{file_option(path)}`)"
    if here[0].status is Status.INCAPACITATED:
        return (with_english(fight, f"{line}; {name} is in this fight, down and taking no "
                                    "turn, which does not mark the death")
                + f": {end}")
    # Only until `calendar pass 1` records the death, which the line names first: from then
    # the fight marks it, and the dead act no more (fixgenso71c refuses their flee), so the
    # flee is the GM's before that pass, and a Wait skips the dead's turn after it
    # (reviewg71c RISK 1: it advised a flee that the pass it named first shut).
    typed = f"{shlex.quote(name)}{file_option(path)}"
    return (with_english(fight, f"{line}; {name} is in this fight, which plays them on until "
                                "the death is recorded")
            + f": {end} or, before `genso calendar pass 1` records the death, takes them "
            f"out on their turn with `{command} flee {typed}` (said as fled); once it is "
            f"recorded they act no more, and `{command} wait {typed}` skips their turn")


def _after_the_end(fight: Fight, path: Path) -> str:
    """What a fight that is over leaves the player to do from the command line: its apply
    while a sheet waits for it (not once done, review59a N5), and the next ``fight new``,
    with --force only where a sheet gone, or changed and never applied, keeps it from being
    done (:func:`_done_with`)."""
    left = unwritten(fight)
    writable = any(not p.gone for p in left)
    force = " --force" if any(p.gone for p in left) or _not_applied(fight) else ""
    return ((f"to keep its HP and MP on the sheets: `{apply_command(path)}`; then " if writable
             else "") + f"to fight again: `{companion_command()} genso fight new --party …{force}"
            f"{file_option(path)}`")


def _outlasting(fight: Fight, name: str) -> list[str]:
    """What the fight leaves on ``name`` that a sheet has no field for (GM-CORE-2: a 1-day
    spell lasts until the next sunrise; GM-MON-5: a victim rises at sunset), for the player
    to carry on by hand after ``fight apply``."""
    combatant = fight.state.get(name)
    lasting = []
    for e in combatant.effects:
        if e.duration in (Duration.DAY, Duration.PERMANENT):
            spell = fight.rules.spell(e.spell).name
            on = next((w.name for i, w in enumerate(combatant.weapons)
                       if e.on_weapon(i, w.key)), "")
            lasting.append(f"{spell}" + (f" on {on}" if on else "") + " by " + e.caster
                           + (" until the next sunrise" if e.duration is Duration.DAY else ""))
    if combatant.rises_as:
        lasting.append(f"rises at sunset as {combatant.rises_as}'s kind unless Exorcism is "
                       "cast on the corpse first")
    return lasting


def apply_fight(args: argparse.Namespace, rules: GensoRules, fight: Fight, path: Path) -> int:
    """Write each sheet file's HP, MP and stones back as the finished fight left them,
    each file's comments and order kept, and record each in the fight file (``applied``).

    The fight file is held for the apply (refused while a table runs it, which alone
    writes it then and would drop the record), and every sheet is checked before any is
    written. A sheet changed since the fight began (a rest, a purchase) is not written
    over: the error names it with the fight's changes to make in it by hand, before → after
    (genso63 RISK 4, review63c RISK 3), and the other sheets are written all the same, each
    on its own; one the fight changed nothing on is only named.
    A sheet gone or unreadable, or a folder where a sheet or the fight file cannot be
    written, refuses the whole apply. A file already holding what the fight left is not
    touched, so applying twice changes nothing (the record is made then if a cut kept it
    from the fight file); nor is one this fight's apply wrote and the player changed since,
    even back to its text at the start (review63c DEFECT 1: a night's sleep after the apply
    lost its MP to the fight's again). One still as the apply left it takes the fight's
    results again when they changed since (an undo, a spell after the end); one changed
    since is refused then, with the changes since that apply (review63e DEFECT 1). A
    refused sheet that holds a change already is not asked it (review63e RISK 2); one
    whose HP, MP or ring's MP is neither the fight's start nor its end is asked to set it
    (review63f RISK 2: a change from it might be made twice).
    """
    if fight.state.outcome is None:
        raise IllegalAction("the fight is not over: end it first with "
                            f"`{companion_command()} genso fight "
                            f"end{file_option(path)}` (spells and stones may still follow the "
                            "end)")
    with _sheets_held(fight):
        return _apply_held(args, fight, path)


@contextlib.contextmanager
def _sheets_held(fight: Fight) -> Iterator[None]:
    """Each sheet file ``fight`` took a PC from, held from apply's read of it to its write
    (:func:`~companion.file_locks.changing`), as ``genso buy``, ``rest`` … hold the one they
    change: a purchase written between the two was written over, both commands saying they
    were done (a76saves DEFECT 1). Taken in one order (by lock file), so two applies
    sharing sheets wait for each other, never each for the other; a sheet gone is left to
    apply's refusal (no lock file, nor its folder, made for it)."""
    sheets = {lock_path(Path(e.origin)): Path(e.origin) for e in fight.entrants
              if e.origin and not e.monster and Path(e.origin).is_file()}
    with contextlib.ExitStack() as held:
        for lock in sorted(sheets):
            held.enter_context(changing(sheets[lock], sheet_changer("fight apply")))
        yield


def _preset_key(rules: GensoRules, name: object) -> str | None:
    """The preset key (pc1) of a sheet a fight took up by the preset's name."""
    return next((key for key, p in rules.presets.items() if name in preset_names(p)), None)


def _writable(path: Path, what: str) -> None:
    """Refuse, naming the folder, when ``path`` cannot be written there: a file is written
    whole by making a new one beside it and renaming it over (:func:`atomic_write_text`), so
    the folder must let a file be made; one is made and removed to see."""
    target = path.resolve()
    try:
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise DataError(f"{target.parent}: no file can be made in this folder "
                        f"({exc.strerror}), so {what} {target.name} cannot be written there; "
                        "nothing was written") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(name)


def _apply_held(args: argparse.Namespace, fight: Fight, path: Path) -> int:
    plans: list[SheetWrite] = []
    refused: list[tuple[SheetWrite, _Owed]] = []  # changed since: written by hand
    rows: list[dict[str, Any]] = []
    record = False  # an apply a cut kept from the fight file is recorded now
    # --done NAME: the player made the fight's changes by hand (review63c RISK 4).
    done = {combatant_name(fight, typed): typed for typed in getattr(args, "done", None) or []}
    by_hand_now: list[str] = []
    leaves: dict[str, str] = {}  # what the fight leaves, where an older record kept it not
    for entrant in fight.entrants:
        if entrant.monster:
            continue
        if not entrant.origin:
            after = fight.state.get(entrant.name)
            rows.append({"name": entrant.name, "path": None, "result": "preset",
                         "hp": after.hp, "mp": after.mp,
                         "preset": _preset_key(fight.rules, entrant.sheet.get("name"))})
            continue
        try:
            write = sheet_write(fight, entrant)
        except DataError as exc:
            raise DataError(f"{exc}; nothing was written") from None
        lasting = _outlasting(fight, entrant.name)
        row: dict[str, Any] = {"name": entrant.name, "path": str(write.sheet),
                               "hp": write.after.hp, "mp": write.after.mp}
        if write.now == write.new:
            rows.append({**row, "result": "unchanged", "lasting": lasting})
            now = applied_record(write.new, write.after)
            if write.now != entrant.digest and fight.applied.get(entrant.name) not in (
                    write.new, now):
                fight.applied[entrant.name] = now  # an apply whose record a cut lost
                record = True
            continue
        if not write.changed:
            plans.append(write)
            rows.append({**row, "result": "written",
                         "mana_stones": list(write.after.mana_stones), "lasting": lasting,
                         **_written_besides(fight, write)})
            continue
        owed = _owed(fight, write)
        if owed is None or not owed.changes:
            # Changed by the player (a rest, a purchase), and the fight changed nothing on
            # it since it began, or since its apply or --done (review63c DEFECT 1); or an
            # apply an older companion recorded, which kept no results to tell by.
            done.pop(entrant.name, None)
            record_now = fight.applied.get(entrant.name)
            result = "untouched" if record_now is None else "done" \
                if applied_head(record_now) == APPLIED_BY_HAND else "kept"
            rows.append({**row, "result": result, "lasting": lasting,
                         **({"unknown": True} if owed is None else {})})
            if owed is None:
                leaves[entrant.name] = _leaves_text(fight, entrant, write)
            continue
        if not owed.to_make and entrant.name not in done:
            # The sheet holds all the fight changed (a record lost after apply wrote it, or
            # the changes made by hand, review63e RISK 2): recorded as applied, nothing to
            # ask.
            done.pop(entrant.name, None)
            head = APPLIED_BY_HAND if owed.since == "by hand" else write.new
            fight.applied[entrant.name] = applied_record(head, write.after)
            record = True
            rows.append({**row, "result": "holds", "held": _changes_json(owed, held=True),
                         "lasting": lasting})
            continue
        changes = _changes_json(owed)
        held = {"held": _changes_json(owed, held=True)} if len(owed.to_make) < len(
            owed.changes) else {}
        since = {} if owed.since == "start" else {"since": owed.since}
        if done.pop(entrant.name, None) is not None:
            by_hand_now.append(entrant.name)
            rows.append({**row, "result": "done", "by_hand": _changes_json(owed, None),
                         **since, "lasting": lasting})
            continue
        refused.append((write, owed))
        # The sheet's numbers that are neither the fight's start nor its end: to set.
        judge = {c.key: c.judge for c in owed.changes if c.judge is not None}
        rows.append({**row, "result": "refused", "by_hand": changes, **held, **since,
                     **({"judge": judge} if judge else {}), "lasting": lasting})
    for name, typed in done.items():
        if any(e.name == name and e.origin and not e.monster for e in fight.entrants):
            # A sheet apply writes itself; or one holding the results (left out above).
            if not any(w.entrant.name == name for w in plans):
                continue
            why = ("was not changed since the fight began, so apply writes the fight's "
                   "results into it itself: leave out --done")
        else:
            why = "is not a PC from a sheet file: apply writes nothing for it"
        raise DataError(f"--done {typed}: {named(fight.rules, fight, fight.state.get(name))} "
                        f"{why}; nothing was written")
    if plans or by_hand_now:
        _writable(path, "the fight file")
    for write in plans:
        _writable(write.sheet, "the sheet")
    written: list[str] = []
    for name in by_hand_now:
        # With the results it took, so a change after it is told (review63e DEFECT 1).
        fight.applied[name] = applied_record(APPLIED_BY_HAND, fight.character_after(
            next(e for e in fight.entrants if e.name == name)))
    try:
        for write in plans:
            write_toml(write.sheet, write.document, as_it_was=True)
            fight.applied[write.entrant.name] = applied_record(write.new, write.after)
            written.append(str(write.sheet))
    except OSError as exc:
        with contextlib.suppress(OSError):
            if written:
                save_fight(fight, path)  # the sheets written are recorded as applied
        where = exc.filename or "a sheet"
        raise DataError(f"{where}: cannot be written ({exc.strerror or exc}); "
                        + (f"written before it: {', '.join(written)} (apply again once it "
                           "can be written, and the rest follow)" if written
                           else "nothing was written")) from None
    if record and not plans and not by_hand_now:
        with contextlib.suppress(OSError):  # the sheets are right; recorded when it can be
            save_fight(fight, path)
    elif plans or by_hand_now:
        try:
            save_fight(fight, path)
        except NotDurable as exc:
            # The record is in the file (the rename went through), only perhaps not on the
            # disk yet: giving it again is harmless, but nothing is lost now (review63e N4).
            note(f"note: {path}: the record is made, but perhaps not on the disk yet "
                 f"({exc.strerror or exc}): if the machine stops before it is, "
                 f"`{apply_command(path)}` again records it")
        except OSError as exc:
            if not plans:  # only --done to record
                raise DataError(f"{path}: cannot record --done ({exc.strerror or exc}); "
                                "nothing was recorded: give it again once the fight file "
                                "can be written") from None
            raise DataError(f"{path}: cannot record the apply ({exc.strerror or exc}); the "
                            f"sheets were written: run `{apply_command(path)}` again once "
                            "the fight file can be written, to record it") from None
    lines = []
    for row in rows:
        # Named from the combatant, not by rewriting the lines: a sheet's path may hold a
        # combatant's name (…/オーク.toml) and stays as it is.
        who = named(fight.rules, fight, fight.state.get(row["name"]))
        unknown = (f"; made by an older companion, this fight file does not keep what that "
                   f"apply wrote: if the fight was undone or played on after it, the fight "
                   f"now leaves {leaves.get(row['name'])} (`fight show`), to make by "
                   "hand") if row.get("unknown") else ""
        if row["result"] == "preset":
            # Brought back by the option that brought it: an NPC by --npc, where --party
            # made it a PC (reviewg74 NIT 8); a numbered copy needs a name of its own.
            option = "--party" if fight.state.get(row["name"]).side is Side.PARTY else "--npc"
            came = next((e for e in fight.entrants if e.name == row["name"]), None)
            own = row["name"] if came is None else str(came.sheet.get("name", row["name"]))
            named_apart = (f" and give it a name of its own (name = … in FILE: a copy of "
                           f"{own} beside another in one fight)") if own != row["name"] else ""
            lines.append(f"{who}: a preset, not a sheet file, so its HP {row['hp']} "
                         f"MP {row['mp']} are written nowhere: to keep them, save it "
                         f"(`{companion_command()} genso sheet {row['preset'] or 'KEY'} "
                         "--save-as FILE`) "
                         f"and put them in FILE{named_apart}; bring FILE into the next fight "
                         f"(`fight new {option} FILE`) and `fight apply` writes them for you")
        elif row["result"] == "unchanged":
            lines.append(f"{who}: {row['path']} already holds HP {row['hp']} "
                         f"MP {row['mp']}; not written")
        elif row["result"] == "done":
            lines.append(f"{who}: {row['path']} not written: the fight's changes were made in "
                         f"it by hand (recorded by `fight apply --done`){unknown}")
        elif row["result"] == "kept":
            lines.append(f"{who}: {row['path']} not written: this fight's apply wrote it "
                         "before, and it was changed since (a rest, a purchase, a hand): "
                         f"left as it is{unknown}")
        elif row["result"] == "untouched":
            lines.append(f"{who}: {row['path']} not written: changed since the fight began, "
                         "and the fight changed nothing on it")
        elif row["result"] == "holds":
            lines.append(f"{who}: {row['path']} not written: it holds the fight's changes "
                         "already, beside others made since (a rest, a purchase, a hand): "
                         "recorded as applied")
        elif row["result"] == "refused":  # the error says what to write by hand
            # Since an apply or --done, it is the fight that changed (review63f NIT 4).
            lines.append(f"{who}: {row['path']} not written: "
                         + ("changed since the fight began" if "since" not in row
                            else "the fight changed since its apply, and so did the sheet"
                            if row["since"] == "apply"
                            else "the fight changed since its `--done`"))
        else:
            ring = row.get("storage_mp")
            used = ", ".join(fight.rules.item(key).name for key in row.get("used", []))
            lines.append(f"{who}: HP {row['hp']} MP {row['mp']}"
                         + (f" mana stones {row['mana_stones']}" if row["mana_stones"] else "")
                         + (f" storage_mp {ring[0]} → {ring[1]} (蓄積の指輪/Ring of Storage)"
                            if ring else "")
                         + (f" used: {used}" if used else "")
                         + f" written to {row['path']}")
        if row.get("lasting"):
            lines.append("  outlasting the fight, not on the sheet (note it): "
                         + with_english(fight, "; ".join(row["lasting"])))
    if not refused:
        return emit(args, {"sheets": rows},
                    "\n".join(lines) or "no character sheets in this fight")
    if lines or args.json:
        emit(args, {"sheets": rows}, "\n".join(lines))
    raise DataError("; ".join(_refused_text(fight, w, owed, path) for w, owed in refused)
                    + (f" (written: {', '.join(written)})" if written else ""))
