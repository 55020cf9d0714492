"""``companion genso calendar``: the campaign's game day and its Death Curses (GM-MAGIC-13).

The calendar lives in ``<data>/genso/calendar.toml``
(:func:`~companion.app.modes.genso_fight_files.calendar_path`, where the table reads it too),
one for the data folder as the fight file is. A command that changes it holds it from its
read to its write (:func:`~companion.file_locks.changing`), so two at once lose no day and
no curse; it is written atomically. With no file it is day 1 and no curse. ``calendar`` shows the
day and each curse with the days left; ``pass N`` moves the day on and tells each target
whose sunset comes; ``curse CASTER TARGET`` keeps a Death Curse cast today; ``lift
TARGET`` is its caster lifting it, ``dispel TARGET`` a Dispel (呪解呪, GM-MAGIC-4)
cancelling it. ``genso sheet`` shows a curse its character cast or carries
(:func:`sheet_curses`).

A death the calendar tells is kept in it (``died``), and every command then treats that
character as dead, as it treats one dead by HP (:func:`refuse_cursed`; genso70 DEFECT 1).
A name is kept as its sheet names it: ``pc1`` is the preset's 駆け出し冒険者１
(:func:`person`; genso70 DEFECT 4), in a file written before too. ``undo-death TARGET``
takes a recorded death back (:func:`undo_death`): a GM's correction, not a rule of the game
(fixg70d: a ``pass`` run by mistake was undone only by editing the file).
"""

from __future__ import annotations

import argparse
import re
from dataclasses import replace
from typing import Any

from companion.app.command_name import companion_command
from companion.app.commands.genso.files import AmbiguousSheet, resolve_sheet, saved_fight_rules
from companion.app.commands.roll import emit
from companion.app.modes.genso_fight_files import (
    calendar_path,
    default_fight_path,
    kept_name,
    load_calendar,
    sunset_curse_text,
)
from companion.app.notes import note
from companion.errors import DataError, IllegalAction, error_text
from companion.file_locks import changing
from companion.files import file_there, loads_json
from companion.systems.genso.calendar import (
    Calendar,
    DeathCurse,
    Ending,
    Passed,
    calendar_mapping,
    cast_death_curse,
    curse_length,
    dead_of,
    end_curse,
    ended_with,
    fresh_copy,
    involving,
    pass_days,
    refuse_cursed_dead,
    settle,
    undo_death,
)
from companion.systems.genso.character.core import Condition, Kind, condition, death_below
from companion.systems.genso.combat import Fight
from companion.systems.genso.names import fold_name
from companion.systems.genso.rules import Duration, GensoRules
from companion.toml_writing import one_line_each, write_toml

CALENDAR_COMMENT = "幻想迷宮冒険譚 Ver2.5 calendar (companion genso calendar)"
#: Who holds the calendar while changing it, as its lock file says.
CHANGER = "companion genso calendar, changing the calendar"
#: The verbs that change the calendar (``show``, or none, only reads it).
CHANGES = ("pass", "curse", "lift", "dispel", "undo-death")
#: What ``undo-death`` is, in its help and in what it says: no rule brings the dead back.
CORRECTION = "a GM's correction, not a rule of the game"


def person(rules: GensoRules, text: str) -> tuple[str, bool]:
    """The name a curse is kept under: that of the sheet ``text`` names (a preset's key, a
    saved character, a sheet file), as ``genso sheet`` and ``fight new`` take it, so that
    ``pc1`` and 駆け出し冒険者１ are one person (genso70 DEFECT 4: a curse kept as ``pc1``
    never reached the sheet or the fighter, and a second curse of one caster was taken);
    else ``text`` as typed (an NPC of the GM's, with no sheet). And whether it is a fresh
    copy of an NPC preset, named by the preset's key (:func:`fresh_copy`): a name typed is
    not, whatever it matches (reviewcg70b DEFECT 1)."""
    try:
        character, path = resolve_sheet(rules, text.strip())
    except AmbiguousSheet:
        raise  # Kit and kit saved, KIT typed: one of them, not a third person (fixg72b)
    except DataError:
        return text, False
    return character.name, fresh_copy(rules, character, path is None)


def refuse_hp_dead(rules: GensoRules, text: str, doing: str) -> None:
    """Refuse ``doing`` for the sheet ``text`` names when its character is dead by HP
    (GM-COMBAT-8), as the calendar's dead are refused (:func:`cast_death_curse`,
    :func:`end_curse`) and as ``rest`` and ``grow`` refuse that sheet (a77gensotown
    DEFECT 1: a sheet at HP −6 cast, took and lifted a Death Curse). A name with no sheet
    (an NPC of the GM's) has no HP to look at."""
    try:
        character, _ = resolve_sheet(rules, text.strip())
    except AmbiguousSheet:
        raise
    except DataError:
        return
    if condition(rules, character) is Condition.DEAD:
        raise IllegalAction(
            f"GM-MAGIC-13: {character.name} is dead (死亡: HP {character.hp}, below "
            f"{death_below(rules, character.kind is Kind.PC)}, GM-COMBAT-8): {doing}")


def refuse_a_monster(rules: GensoRules, typed: str) -> None:
    """GM-MAGIC-13: no curse is kept on a monster, named by its key, its Japanese or its
    English, or numbered as a fight numbers them (``orc``, ``オーク``, ``オーク1``), unless a
    sheet goes by that name (a saved character, a preset: :func:`person` finds it). Each
    fight's オーク is a new one: a curse kept as the stranger ``orc`` reached no fighter, one
    kept as ``オーク`` marked every later fight's orc with its days, and its death reached
    none of them (calendar73 NIT 8; reviewg71 DEFECT 1 keeps the calendar's dead off every
    monster). The GM tells a curse on a monster, or gives the one cursed a name of its own
    (an NPC's: any other name is kept as typed)."""
    try:
        resolve_sheet(rules, typed.strip())
        return  # a sheet by that name is a person
    except AmbiguousSheet:
        raise
    except DataError:
        pass
    folded = fold_name(typed)
    for name in dict.fromkeys((folded, re.sub(r"\s*\d+$", "", folded))):
        try:
            monster = rules.monster(name)
        except DataError:
            continue
        raise IllegalAction(
            f"GM-MAGIC-13: {typed.strip()!r} is the monster {monster.ja}/{monster.en} "
            f"({monster.key}), and the calendar keeps a curse on a person only: each fight's "
            f"{monster.ja} is a new one, whom a curse kept under that name would mark in "
            f"every fight and its death reach in none. The GM tells a curse on a monster, or "
            "gives the one cursed a name of its own (an NPC's: `genso calendar curse "
            "CASTER Grok`)")


def load_named(rules: GensoRules) -> Calendar:
    """The calendar as saved, a preset's key in it read as its sheet's name (a file kept
    before :func:`person`), as :func:`load_calendar` reads it for the table; the next change
    saves it so. A curse or death kept twice under one name then is kept once, and said in
    a note until that change (reviewg70 RISK D: the later was dropped without a word)."""
    def name(text: str) -> str:
        return kept_name(rules, text)

    saved = load_calendar()
    calendar, dropped = saved.merged(name, rules)
    spell = _curse(rules)
    for gone, kept in dropped:
        if gone in saved.dead:
            what = (f"{gone.target}'s death at sunset on day {gone.dies_on} is {kept.target}'s "
                    f"at sunset on day {kept.dies_on}")
            which = "the first"
        else:
            what = (f"{gone.caster}'s {spell} on {gone.target} (cast on day {gone.cast_on}) "
                    f"is the one on {kept.target} (cast on day {kept.cast_on})")
            which = "the older, which kills first"
        note(f"note: {calendar_path()}: {what}, one person, {name(kept.target)}: kept once, "
             f"{which} (GM-MAGIC-13); the next change saves it so")
    return calendar


def _settled(rules: GensoRules) -> Calendar | None:
    """The calendar settled on its day, for a death by a Death Curse; None, said in a note
    naming it, when it cannot be read (it is no part of a sheet)."""
    try:
        return settle(load_named(rules), rules).calendar
    except DataError as exc:
        note(f"note: {error_text(exc)} (a death by a Death Curse not checked)")
        return None


def refuse_cursed(rules: GensoRules, name: str, what: str, fresh: bool = False) -> None:
    """Refuse ``what`` for ``name`` dead of a Death Curse by the calendar (GM-MAGIC-13), as
    the HP-dead are refused (GM-COMBAT-8); ``what`` ends the sentence. A ``fresh`` copy of
    an NPC preset (:func:`fresh_copy`) is not refused: a note says whose death it was."""
    calendar = _settled(rules)
    if calendar is not None:
        refuse_cursed_dead(rules, calendar, name, what, fresh)
        copy_note(rules, calendar, name, fresh)


def copy_note(rules: GensoRules, calendar: Calendar, name: str, fresh: bool) -> str:
    """For ``name`` a ``fresh`` copy of an NPC preset (:func:`fresh_copy`) whose name a
    death by a Death Curse is kept under, a note that says so and that this one is a fresh
    copy, which the death does not reach (reviewg70 DEFECT B: every later copy was dead);
    said, and given back ("" for none). Only a copy made from the preset itself: a sheet
    file or saved character by that name is the one who died (reviewcg70b NIT 2)."""
    killer = dead_of(calendar, name) if fresh else None
    if killer is None:
        return ""
    said = (f"note: a {killer.target} died at sunset on day {killer.dies_on} of "
            f"{killer.caster}'s {_curse(rules)} (GM-MAGIC-13); this {name} is a fresh copy "
            "of the preset, whom that death does not reach")
    note(said)
    return said


def _save(calendar: Calendar) -> None:
    write_toml(calendar_path(), one_line_each(calendar_mapping(calendar), CALENDAR_COMMENT))


def _curse(rules: GensoRules) -> str:
    return rules.spell("death_curse").name


def when(calendar: Calendar, curse: DeathCurse) -> str:
    """When a curse kills, as from today: ``at sunset on day 369 (366 days left)``."""
    left = calendar.days_left(curse)
    if left == 0:
        return f"at sunset today, day {curse.dies_on} (今日の日没)"
    return f"at sunset on day {curse.dies_on} ({left} day{'s' if left != 1 else ''} left)"


def curse_line(rules: GensoRules, calendar: Calendar, curse: DeathCurse) -> str:
    return (f"{_curse(rules)} on {curse.target} by {curse.caster} (cast on day "
            f"{curse.cast_on}): {curse.target} dies {when(calendar, curse)} unless "
            f"{curse.caster} lifts it (GM-MAGIC-13)")


def died_line(rules: GensoRules, curse: DeathCurse) -> str:
    return (f"GM-MAGIC-13 {curse.target} died at sunset on day {curse.dies_on} of "
            f"{curse.caster}'s {_curse(rules)} (cast on day {curse.cast_on})")


def _deaths(rules: GensoRules, passed: Passed) -> list[str]:
    """The targets dead by the calendar's day, and the other curses that leave with them."""
    return [*(died_line(rules, c) for c in passed.died),
            *(f"GM-MAGIC-13 {c.caster}'s {_curse(rules)} on {c.target} (cast on day "
              f"{c.cast_on}) ends with {c.target}'s death" for c in passed.ended)]


def curse_json(calendar: Calendar, curse: DeathCurse,
               died_on: int | None = None) -> dict[str, Any]:
    """A curse as ``--json`` gives it, in ``genso calendar`` and ``genso sheet`` alike; one
    whose target died (on ``died_on``, of it or of another) has no days left, null, where
    it had a negative count (review61e N4)."""
    return {"target": curse.target, "caster": curse.caster, "cast_on": curse.cast_on,
            "dies_on": curse.dies_on,
            "days_left": calendar.days_left(curse) if died_on is None else None,
            **({"died_on": died_on} if died_on is not None else {})}


def _died_json(passed: Passed) -> dict[str, list[dict[str, Any]]]:
    """The curses that killed (``died``) and those that ended with their targets' deaths
    (``ended``), each with the day its target died."""
    death = {fold_name(c.target): c.dies_on for c in passed.died}
    return {"died": [curse_json(passed.calendar, c, c.dies_on) for c in passed.died],
            "ended": [curse_json(passed.calendar, c, death.get(fold_name(c.target)))
                      for c in passed.ended]}


def sheet_curses(rules: GensoRules, name: str, fresh: bool = False) -> tuple[
        list[str], dict[str, Any], DeathCurse | None]:
    """The Death Curses ``name`` cast or carries, for its sheet: its lines and its JSON
    (``death_curses``, ``dead``: the deaths the calendar keeps, as ``genso calendar --json``
    names them; reviewg70 NIT H: the sheet said ``died``, which is the calendar's key for
    the deaths that very command told), and the curse that killed
    ``name``, if one did (GM-MAGIC-13), none for a ``fresh`` copy of an NPC preset
    (:func:`fresh_copy`); none without a calendar. A calendar that cannot be read is said
    in a note naming it, and the sheet shown without: it is no part of the sheet."""
    try:
        passed = settle(load_named(rules), rules)
    except DataError as exc:
        note(f"note: {error_text(exc)} (Death Curses not shown)")
        return [], {"death_curses": [], "dead": []}, None
    calendar = passed.calendar
    # The deaths kept, told and recorded (genso70 DEFECT 1: only a death told by this very
    # read was shown, and `calendar pass` had told it and forgotten it).
    live, died = calendar.on(name), involving(calendar.dead, name)
    # An NPC preset's copy is not the copy that died (reviewg70 DEFECT B): the sheet says
    # so in a note, and neither its lines nor its condition take that death.
    if copy_note(rules, calendar, name, fresh):
        died = tuple(c for c in died if fold_name(c.target) != fold_name(name))
    return ([*(curse_line(rules, calendar, c) for c in live),
             *(died_line(rules, c) for c in died)],
            {"death_curses": [curse_json(calendar, c) for c in live],
             "dead": [curse_json(calendar, c, c.dies_on) for c in died]},
            None if fresh else dead_of(calendar, name))


def sunset_curses(rules: GensoRules) -> tuple[list[tuple[DeathCurse, str]], list[dict[str, Any]]]:
    """GM-MAGIC-13: the Death Curses whose target dies at today's sunset, for ``fight
    sunset`` to name (genso67 NIT 2: the calendar told them only at ``calendar pass``), each
    with its line, and their JSON; none without a calendar. One that cannot be read is said
    in a note naming it, as :func:`sheet_curses` says it: the fight's sunset does not need
    it."""
    try:
        passed = settle(load_named(rules), rules)
    except DataError as exc:
        note(f"note: {error_text(exc)} (Death Curses not shown)")
        return [], []
    return ([(c, f"GM-MAGIC-13  {sunset_curse_text(rules, c)}") for c in passed.today],
            [curse_json(passed.calendar, c) for c in passed.today])


def _change(args: argparse.Namespace, rules: GensoRules,
            calendar: Calendar) -> tuple[Passed, list[str]]:
    """The change a verb makes, and what it says of it; the calendar settled on its day."""
    if args.verb == "pass":
        passed = pass_days(calendar, args.days, rules)
        said = [f"{args.days} day{'s pass' if args.days != 1 else ' passes'}: day "
                f"{calendar.day} → {passed.calendar.day}"]
        return passed, [*said, *_deaths(rules, passed), *(
            f"GM-MAGIC-13 {c.target} dies at sunset today of {c.caster}'s {_curse(rules)}, "
            f"unless {c.caster} lifts it first" for c in passed.today)]
    if args.verb == "curse":
        refuse_a_monster(rules, args.target)
        refuse_hp_dead(rules, args.target, "no curse is cast on the dead")
        refuse_hp_dead(rules, args.caster, "the dead cast no curse")
        (caster, fresh_caster), (target, fresh_target) = (
            person(rules, args.caster), person(rules, args.target))
        cursed, curse = cast_death_curse(rules, calendar, caster, target,
                                         (fresh_caster, fresh_target))
        passed = settle(cursed, rules)
        year = rules.default("GM-MAGIC-13", "year_days")
        return passed, [
            f"GM-MAGIC-13 {curse.caster} casts {_curse(rules)} on {curse.target} on day "
            f"{curse.cast_on}: 「対象は１年と１日後の日没時に死亡する。」 {curse.target} dies at "
            f"sunset on day {curse.dies_on}, {curse_length(rules)} days on (a year of {year} "
            f"day{'s' if year != 1 else ''}{rules.settings.tag('GM-MAGIC-13', 'year_days')}, "
            "and a day)",
            *_deaths(rules, passed)]
    if args.verb == "undo-death":
        return _undo(args, rules, calendar)
    ending = Ending.LIFTED if args.verb == "lift" else Ending.DISPELLED
    target, fresh_target = person(rules, args.target)
    lifter: str | None = None  # the caster the GM names, if any
    fresh_caster = False
    if args.caster is not None:
        lifter, fresh_caster = person(rules, args.caster)
    freed, curse = end_curse(rules, calendar, target, lifter, ending,
                             (fresh_caster, fresh_target))
    if ending is Ending.LIFTED:  # the caster lifts it; another's Dispel reaches it still
        refuse_hp_dead(rules, args.caster if args.caster is not None else curse.caster,
                       "the dead lift no curse")
    passed = settle(freed, rules)
    if ending is Ending.LIFTED:
        told = (f"GM-MAGIC-13 {curse.caster} lifts the {_curse(rules)} on {curse.target} "
                "(術者は任意の時点で呪文を解除できる)")
    else:
        told = (f"GM-MAGIC-4 {curse.caster}'s {_curse(rules)} on {curse.target} (cast on day "
                f"{curse.cast_on}) is dispelled by {rules.spell('dispel').name} "
                "(対象に付与された呪文を一つ無効化する): its duration is 特殊, not permanent")
    return passed, [told, *_deaths(rules, passed)]


def _undo(args: argparse.Namespace, rules: GensoRules,
          calendar: Calendar) -> tuple[Passed, list[str]]:
    """``undo-death``: the calendar, settled on its day (a death a hand edit left behind is
    recorded first, and told), records no death for the target (:func:`undo_death`); the
    day and the curses stay as they are (fixg70d: a ``pass`` run by mistake was taken back
    only by editing calendar.toml)."""
    settled = settle(calendar, rules)
    caster = None if args.caster is None else person(rules, args.caster)[0]
    kept, death = undo_death(rules, settled.calendar, person(rules, args.target)[0], caster)
    told = (f"the calendar records no death for {death.target}: {CORRECTION} (GM-MAGIC-13 "
            f"brings no one back). Taken back: {death.target} died at sunset on day "
            f"{death.dies_on} of {death.caster}'s {_curse(rules)} (cast on day "
            f"{death.cast_on}); that curse stays off the calendar (`calendar curse` keeps a "
            f"new one if the GM rules it still holds), and the day stays {kept.day}")
    lines = [*_deaths(rules, settled), told]
    # The other curses that ended with the death (calendar75 NIT 3: lost unsaid): each
    # named, back on the calendar if its sunset is not past, else off as the killer is.
    for curse in ended_with(settled.calendar, death):
        what = (f"{curse.caster}'s {_curse(rules)} on {curse.target} (cast on day "
                f"{curse.cast_on}, due at sunset on day {curse.dies_on}), which ended with "
                "the death")
        lines.append(f"GM-MAGIC-13 {what}, is back on the calendar: only its sunset or its "
                     "caster's lift ends it" if curse in kept.curses else
                     f"GM-MAGIC-13 {what}, stays off: its sunset is past (`calendar curse` "
                     "keeps a new one if the GM rules it still holds)")
    return replace(settled, calendar=kept), lines


def fight_day_spells() -> str:
    """GM-CORE-2: the 1-day spells (「次の日の出まで」) the fight in the default fight file,
    going on, still holds, as a note for ``calendar pass``: the calendar's day and the
    fight's sunrise (``fight sunrise``) are two clocks, and a day passed on one left the
    other's spells on without a word (a77gensotown RISK 5). "" when there are none, or
    when the file cannot be read (``fight`` says why)."""
    path = default_fight_path()
    try:
        if not file_there(path):
            return ""
        fight = Fight.from_json(saved_fight_rules([]), loads_json(path.read_text("utf-8")),
                                str(path))
    except (DataError, OSError, ValueError):
        return ""
    if fight.state.outcome is not None:
        return ""
    held = [f"{fight.rules.spell(e.spell).name} on {c.name}"
            for c in fight.state.combatants for e in c.effects if e.duration is Duration.DAY]
    if not held:
        return ""
    return (f"note: the fight at {path} still holds {', '.join(held)}: the calendar and the "
            f"fight keep their own days, and `{companion_command()} genso fight sunrise` "
            "ends them (GM-CORE-2)")


def calendar_stays(days: int, when: str, cursed_only: bool = False) -> str:
    """A note that the calendar's day, which GM-MAGIC-13's curses count from, did not move
    with the days a command took (a fight's sunrise, a rest, a journey), with the ``calendar
    pass`` that moves it ``when``; with ``cursed_only``, only while a curse is on it
    (a77gensotown RISK 5/6: neither said the calendar stayed, and a curse's countdown
    stood through 100 days' rest). "" when none is due, or when the calendar cannot be
    read (``genso calendar`` says why)."""
    try:
        calendar = load_calendar()
    except DataError:
        return ""
    if cursed_only and not calendar.curses:
        return ""
    return (f"note: the calendar stays on day {calendar.day} (GM-MAGIC-13 curses count from "
            f"it): `{companion_command()} genso calendar pass {days}` {when}")


def cmd_calendar(args: argparse.Namespace, rules: GensoRules) -> int:
    """The day and the Death Curses; ``pass``, ``curse``, ``lift`` and ``dispel`` change
    them and save them, holding the file from the read to the write."""
    if args.verb in CHANGES:
        path = calendar_path()
        path.parent.mkdir(parents=True, exist_ok=True)  # a lock file needs its folder
        with changing(path, CHANGER):
            passed, said = _change(args, rules, load_named(rules))
            _save(passed.calendar)
        if args.verb == "pass" and (held := fight_day_spells()):
            note(held)
    else:
        passed = settle(load_named(rules), rules)
        said = _deaths(rules, passed)
    calendar = passed.calendar
    # ``dead``: every death the calendar keeps (``died`` in calendar.toml), the key `genso
    # sheet --json` gives them by too; ``died``: those this command told (_died_json).
    data = {"rule": "GM-MAGIC-13", "day": calendar.day,
            "death_curses": [curse_json(calendar, c) for c in calendar.curses],
            **_died_json(passed),
            "dead": [curse_json(calendar, c, c.dies_on) for c in calendar.dead], "said": said}
    lines = [f"日/day {calendar.day} (day 1 is the campaign's first; `genso calendar pass N` "
             "moves it on)"]
    lines += [curse_line(rules, calendar, c) for c in calendar.curses] or [
        f"no {_curse(rules)} on the calendar"]
    # The deaths recorded before this command (one it told is in ``said`` already).
    lines += [died_line(rules, c) for c in calendar.dead if c not in passed.died]
    return emit(args, data, "\n".join([*said, *lines]))
