"""The campaign calendar (GM-MAGIC-13 Default: "the program keeps a calendar reminder for a
Death Curse"): the game day it is, and each Death Curse (呪殺呪) with the day at whose
sunset its target dies.

「対象は１年と１日後の日没時に死亡する。術者は任意の時点で呪文を解除できる。」 (GM 2 禁呪). The
seed keeps no calendar, no months and no year's length, so the companion counts game days
from day 1, the campaign's first, and a year is ``year_days`` of them (a Default, 365).
The year and the day after it are the seed's (``[source."GM-MAGIC-13"]``): a curse cast
on day D kills at sunset on day D + 1 year + 1 day. Days pass only when the GM says so
(``genso calendar pass``): a rest is one character's (``genso rest``), and a party
resting together would count its days once each. A curse comes off before its sunset when
its caster lifts it, or when a Dispel (呪解呪, GM-MAGIC-4) cancels it: its duration is 特殊,
not permanent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from typing import Any

from companion.errors import DataError, IllegalAction, refuse_unknown
from companion.systems.defaults import refuse_control, toml_value
from companion.systems.genso.character.core import Character, Kind
from companion.systems.genso.names import fold_name
from companion.systems.genso.rules import GensoRules, load_rules

#: The first day of a campaign, and of a calendar file that names none.
FIRST_DAY = 1


@dataclass(frozen=True, slots=True)
class DeathCurse:
    """A Death Curse cast on ``target`` by ``caster`` on day ``cast_on``: the target dies at
    sunset on day ``dies_on`` unless it is lifted or dispelled first (GM-MAGIC-13)."""

    target: str
    caster: str
    cast_on: int
    dies_on: int


def involving(curses: tuple[DeathCurse, ...], name: str) -> tuple[DeathCurse, ...]:
    """The ``curses`` ``name`` cast or carries, the name folded as fights fold it
    (:func:`~companion.systems.genso.names.fold_name`)."""
    folded = fold_name(name)
    return tuple(c for c in curses if folded in (fold_name(c.target), fold_name(c.caster)))


@dataclass(frozen=True, slots=True)
class Calendar:
    """The game day it is, and the Death Curses kept: those whose sunset has not passed,
    and, in a file read as it was saved, any whose sunset a hand edit left behind
    (:func:`settle` tells their targets' deaths); and ``dead``, the curses that killed
    their targets, one a target, kept so that the dead stay dead (genso70 DEFECT 1: a
    death told by ``calendar pass`` was forgotten at once, and the dead went on cursing,
    lifting, growing and fighting)."""

    day: int = FIRST_DAY
    curses: tuple[DeathCurse, ...] = ()
    dead: tuple[DeathCurse, ...] = ()
    #: The other curses on a target that ended with its death (:func:`settle`), kept so
    #: that :func:`undo_death` can give them back (calendar75 NIT 3: they were lost).
    ended: tuple[DeathCurse, ...] = ()

    def days_left(self, curse: DeathCurse) -> int:
        """Days until the sunset that kills: 0 on the day itself."""
        return curse.dies_on - self.day

    def on(self, name: str) -> tuple[DeathCurse, ...]:
        """The curses ``name`` cast or carries (:func:`involving`)."""
        return involving(self.curses, name)

    def carried_by(self, target: str) -> tuple[DeathCurse, ...]:
        """The curses on ``target`` (folded), oldest first."""
        folded = fold_name(target)
        return tuple(sorted((c for c in self.curses if fold_name(c.target) == folded),
                            key=lambda c: c.cast_on))

    def renamed(self, rename: Callable[[str], str]) -> Calendar:
        """The calendar with each name given as ``rename`` gives it (:meth:`merged`)."""
        return self.merged(rename)[0]

    def merged(self, rename: Callable[[str], str], rules: GensoRules | None = None) -> tuple[
            Calendar, tuple[tuple[DeathCurse, DeathCurse], ...]]:
        """The calendar with each name given as ``rename`` gives it (a preset's key as its
        sheet's name: genso70 DEFECT 4, ``pc1`` and 駆け出し冒険者１ are one person), and
        each curse or death dropped as kept twice under one name then, paired with the one
        kept in its stead, both as saved (said in a note: reviewg70 RISK D). Two curses of
        one caster on one target keep the older, which kills first; two deaths of one
        target the first (:func:`_same_death`, by ``rules``' NPC presets: :func:`npc_names`)."""
        copies = npc_names(rules)

        def named(c: DeathCurse) -> DeathCurse:
            return replace(c, target=rename(c.target), caster=rename(c.caster))

        dropped: list[tuple[DeathCurse, DeathCurse]] = []
        curses: list[tuple[DeathCurse, DeathCurse]] = []  # (renamed, as saved)
        for saved in sorted(self.curses, key=lambda c: c.cast_on):
            curse = named(saved)
            twin = next((old for new, old in curses if fold_name(new.target) == fold_name(
                curse.target) and fold_name(new.caster) == fold_name(curse.caster)), None)
            if twin is None:
                curses.append((curse, saved))
            else:
                dropped.append((saved, twin))
        dead: list[tuple[DeathCurse, DeathCurse]] = []
        for saved in sorted(self.dead, key=lambda c: c.dies_on):
            curse = named(saved)
            twin = next((old for new, old in dead if _same_death(new, curse, copies)), None)
            if twin is None:
                dead.append((curse, saved))
            else:
                dropped.append((saved, twin))
        return (replace(self, curses=tuple(c for c, _ in curses),
                        dead=tuple(c for c, _ in dead)), tuple(dropped))


def _same_death(first: DeathCurse, then: DeathCurse, copies: frozenset[str]) -> bool:
    """``then`` (dying no sooner) is ``first``'s target dying again: one target, and, for a
    name of ``copies`` (an NPC preset's, :func:`npc_names`), a curse cast on or before the
    day ``first`` killed it: one cast after is on a fresh copy of the preset (the dead take
    no curse). Any other name is one person, whom a curse cast after its death (a hand
    edit) does not kill again (reviewcg70b RISK 1: a sample PC died twice)."""
    folded = fold_name(first.target)
    return folded == fold_name(then.target) and (
        then.cast_on <= first.dies_on or folded not in copies)


@dataclass(frozen=True, slots=True)
class Passed:
    """The calendar settled on its day (GM-MAGIC-13): the calendar after; the curses whose
    sunset came and went (their targets died: the first sunset of each); the others those
    dead targets carried, which leave the calendar with them; and the curses whose sunset
    is today."""

    calendar: Calendar
    died: tuple[DeathCurse, ...] = ()
    ended: tuple[DeathCurse, ...] = ()
    today: tuple[DeathCurse, ...] = ()


class Ending(Enum):
    """How a Death Curse comes off before its sunset: its caster lifts it (GM-MAGIC-13
    「術者は任意の時点で呪文を解除できる」), or a Dispel (呪解呪) cancels it (GM-MAGIC-4: the
    curse's duration is 特殊, not permanent; no roll, a dispeller whose Magic is not below
    the caster's)."""

    LIFTED = "lifted"
    DISPELLED = "dispelled"


#: The most game days one ``pass`` moves the calendar on: a time-skip of centuries, far
#: past any curse (a year of at most 1000 days); more is a slip of the keyboard.
MOST_DAYS_PASSED = 100_000


def curse_length(rules: GensoRules) -> int:
    """GM-MAGIC-13 「１年と１日後」 in days: the seed's year and day, a year of ``year_days``."""
    days: int = (rules.num("GM-MAGIC-13", "death_curse_years")
                 * rules.default("GM-MAGIC-13", "year_days")
                 + rules.num("GM-MAGIC-13", "death_curse_days"))
    return days


def _name(text: str, what: str) -> str:
    name = text.strip()
    if not name:
        raise IllegalAction(f"GM-MAGIC-13: name the {what}")
    refuse_control(name, what)
    return name


@cache
def _packaged_npc_names() -> frozenset[str]:
    return npc_names(load_rules())


def npc_names(rules: GensoRules | None) -> frozenset[str]:
    """The NPC presets' names (``kind = "npc"``: 普通の村人（男性）, …), folded: the names a
    calendar may keep for several people, one copy of the preset each (:func:`fresh_copy`);
    the packaged presets' for ``rules`` None (the presets are data, not Defaults: no
    user's file changes them)."""
    if rules is None:
        return _packaged_npc_names()
    return frozenset(fold_name(str(raw["name"])) for raw in rules.presets.values()
                     if raw.get("kind") == "npc" and "name" in raw)


def fresh_copy(rules: GensoRules, character: Character, from_preset: bool) -> bool:
    """``character`` is a fresh copy of an NPC preset: made from the preset itself
    (``from_preset``: loaded by its key, as ``villager_m``, not from a file), of kind NPC
    and by the preset's name. A preset is a template each use copies afresh, so a death
    kept under its name is one copy's, not this one's (reviewg70 DEFECT B: one villager
    dead of a Death Curse left every villager dead for good). By where it came from, not
    by its name alone (reviewcg70b DEFECT 1: a PC named 騎士(男性), knight_m's name folded,
    came back to life): a sample PC (``pc1``), a saved character and a sheet file, of any
    name, are one person each, and keep their deaths."""
    return (from_preset and character.kind is Kind.NPC
            and fold_name(character.name) in npc_names(rules))


def dead_of(calendar: Calendar, target: str) -> DeathCurse | None:
    """The curse that killed ``target`` before today, if one did: a death the calendar
    recorded (:attr:`Calendar.dead`), else a curse whose sunset is past (a hand edit,
    until the next change settles it)."""
    folded = fold_name(target)
    recorded = [c for c in calendar.dead if fold_name(c.target) == folded]
    past = [c for c in calendar.carried_by(target) if c.dies_on < calendar.day]
    return min([*recorded, *past], key=lambda c: c.dies_on, default=None)


def refuse_cursed_dead(rules: GensoRules, calendar: Calendar, name: str, what: str,
                       fresh: bool = False) -> None:
    """Refuse ``what`` for ``name`` dead of a Death Curse (GM-MAGIC-13), as
    :func:`~companion.systems.genso.character.core.refuse_dead` refuses the HP-dead
    (GM-COMBAT-8): the calendar's dead stay dead (genso70 DEFECT 1); not a ``fresh`` copy of
    an NPC preset (:func:`fresh_copy`). ``what`` ends the sentence: "growth (GM-GROW-2)
    does not bring the dead back"."""
    killer = None if fresh else dead_of(calendar, name)
    if killer is not None:
        raise IllegalAction(
            f"{killer.target} is dead (死亡: died at sunset on day {killer.dies_on} of "
            f"{killer.caster}'s {rules.spell('death_curse').name}, GM-MAGIC-13); {what}")


def _refuse_dead(rules: GensoRules, calendar: Calendar, name: str, doing: str,
                 fresh: bool = False) -> None:
    """Refuse ``doing`` for ``name`` (a target, or a caster) dead of a curse on the calendar
    (:func:`dead_of`); not a ``fresh`` copy of an NPC preset (:func:`fresh_copy`)."""
    killer = None if fresh else dead_of(calendar, name)
    if killer is not None:
        raise IllegalAction(f"GM-MAGIC-13: {killer.target} died at sunset on day "
                            f"{killer.dies_on} of {killer.caster}'s "
                            f"{rules.spell('death_curse').name}: {doing}")


def cast_death_curse(rules: GensoRules, calendar: Calendar, caster: str, target: str,
                     fresh: tuple[bool, bool] = (False, False)) -> tuple[Calendar, DeathCurse]:
    """GM-MAGIC-13: ``caster`` puts a Death Curse on ``target`` today; it is kept with the
    day the target dies at sunset. A target may carry several, of several casters (GM-MAGIC-4
    cancels a target's spells "oldest first"); the same caster's second on the same target
    is refused, being the one already kept. The dead neither cast nor take one; ``fresh``
    says whether the caster and the target are fresh copies of NPC presets
    (:func:`fresh_copy`), whom a death kept under their names does not reach."""
    caster, target = _name(caster, "caster"), _name(target, "target")
    _refuse_dead(rules, calendar, target, "no curse is cast on the dead", fresh[1])
    _refuse_dead(rules, calendar, caster, "the dead cast no curse", fresh[0])
    held = next((c for c in calendar.carried_by(target)
                 if fold_name(c.caster) == fold_name(caster)), None)
    if held is not None:
        raise IllegalAction(f"GM-MAGIC-13: {held.target} already carries {held.caster}'s "
                            f"{rules.spell('death_curse').name}, cast on day {held.cast_on}, "
                            f"to die at sunset on day {held.dies_on}")
    curse = DeathCurse(target, caster, calendar.day, calendar.day + curse_length(rules))
    return replace(calendar, curses=(*calendar.curses, curse)), curse


def end_curse(rules: GensoRules, calendar: Calendar, target: str, caster: str | None,
              ending: Ending, fresh: tuple[bool, bool] = (False, False)) -> tuple[
                  Calendar, DeathCurse]:
    """The Death Curse on ``target`` comes off before its sunset, lifted by its caster or
    dispelled (:class:`Ending`). A target carrying several needs ``caster`` to say which:
    the GM knows whose a Dispel reached (GM-MAGIC-4: the oldest whose caster's Magic is not
    above the dispeller's). A target already dead of one is refused, and so is the lift of
    a caster dead of one (a Dispel, another's, still reaches its curse); ``fresh`` as
    :func:`cast_death_curse` takes it, the caster's for ``caster`` named."""
    name, spell = _name(target, "target"), rules.spell("death_curse").name
    _refuse_dead(rules, calendar, name, f"a curse is {ending.value} only before its sunset",
                 fresh[1])
    carried = calendar.carried_by(name)
    if caster is not None:
        carried = tuple(c for c in carried if fold_name(c.caster) == fold_name(caster))
    if not carried:
        by = f" of {caster.strip()}'s" if caster is not None else ""
        cursed = ", ".join(f"{c.target} by {c.caster}" for c in calendar.curses) or "no one"
        raise IllegalAction(f"GM-MAGIC-13: {name} carries no {spell}{by} on the "
                            f"calendar (cursed: {cursed})")
    if len(carried) > 1:
        which = ("the caster whose curse the Dispel cancelled (GM-MAGIC-4: the oldest whose "
                 "caster's Magic is not above the dispeller's)" if ending is Ending.DISPELLED
                 else "the caster who lifts it")
        casters = ", ".join(f"{c.caster} (cast on day {c.cast_on})" for c in carried)
        raise IllegalAction(f"GM-MAGIC-13: {name} carries {spell} of {len(carried)} "
                            f"casters, oldest first: {casters}; name {which} with --caster")
    curse = carried[0]
    if ending is Ending.LIFTED:
        _refuse_dead(rules, calendar, curse.caster, "the dead lift no curse",
                     fresh[0] and caster is not None)
    return replace(calendar, curses=tuple(c for c in calendar.curses if c != curse)), curse


def undo_death(rules: GensoRules, calendar: Calendar, target: str,
               caster: str | None = None) -> tuple[Calendar, DeathCurse]:
    """A GM's correction, not a rule of the game: the calendar records no death for
    ``target`` (a ``calendar pass`` run by mistake left it dead for good, and only a hand
    edit took it back: fixg70d). Nothing in the seed brings back one dead of a Death Curse
    (GM-MAGIC-13), so this takes back a record, and no more: the curse that killed stays
    off the calendar (its sunset is past: kept, it would kill again). The others on the
    target that ended with the death come back if their sunset is not past
    (:func:`ended_with`, calendar75 NIT 3: they were lost unsaid). A target recorded dead
    more than once (copies of an NPC preset, :func:`npc_names`) needs ``caster`` to say
    whose curse; of one caster's, the latest goes. A target with no such death recorded is
    refused, naming who has one."""
    name, spell = _name(target, "target"), rules.spell("death_curse").name
    folded = fold_name(name)
    deaths = [c for c in calendar.dead if fold_name(c.target) == folded]
    if caster is not None:
        deaths = [c for c in deaths if fold_name(c.caster) == fold_name(caster)]
    if not deaths:
        by = f" of {caster.strip()}'s {spell}" if caster is not None else ""
        dead = "; ".join(f"{c.target}, at sunset on day {c.dies_on} of {c.caster}'s"
                         for c in calendar.dead) or "no one"
        raise IllegalAction(f"GM-MAGIC-13: the calendar records no death{by} for {name} "
                            f"(recorded dead: {dead})")
    if caster is None and len({fold_name(c.caster) for c in deaths}) > 1:
        casters = ", ".join(f"{c.caster} (died at sunset on day {c.dies_on})" for c in deaths)
        raise IllegalAction(f"GM-MAGIC-13: {name} is recorded dead {len(deaths)} times, of "
                            f"{spell} of several casters: {casters}; name whose with --caster")
    death = max(deaths, key=lambda c: c.dies_on)
    ended = ended_with(calendar, death)
    back = tuple(c for c in ended if c.dies_on >= calendar.day)
    return replace(calendar, dead=tuple(c for c in calendar.dead if c != death),
                   curses=(*calendar.curses, *back),
                   ended=tuple(c for c in calendar.ended if c not in ended)), death


def ended_with(calendar: Calendar, death: DeathCurse) -> tuple[DeathCurse, ...]:
    """The other curses on ``death``'s target that ended with that death (cast before its
    sunset, kept in :attr:`Calendar.ended`). :func:`undo_death` gives back those whose
    sunset is today or later: nothing in the seed ends a Death Curse but its sunset and its
    caster's lift (GM-MAGIC-13, 「術者は任意の時点で呪文を解除できる」), so with the death taken
    back they hold (calendar75 NIT 3); one whose sunset has passed stays off, as the
    curse that killed does (kept, it would kill at once)."""
    folded = fold_name(death.target)
    return tuple(c for c in calendar.ended
                 if fold_name(c.target) == folded and c.cast_on <= death.dies_on)


def settle(calendar: Calendar, rules: GensoRules | None = None) -> Passed:
    """The calendar on its day: a curse whose sunset is before it killed its target (the
    first such sunset of each target), recorded in :attr:`Calendar.dead`, and the target's
    curses leave the calendar with it (as do any a target already recorded dead still
    carries: a hand edit); those whose sunset is the day are told as today's. A curse cast
    after the recorded death of an NPC preset's name (``rules``' presets: :func:`npc_names`)
    is on a fresh copy of the preset, which it may kill in turn; on any other name it ends
    with the death (:func:`_same_death`)."""
    copies = npc_names(rules)
    died: dict[str, DeathCurse] = {}
    for curse in sorted(calendar.curses, key=lambda c: (c.dies_on, c.cast_on)):
        if curse.dies_on < calendar.day and not any(
                _same_death(d, curse, copies) for d in calendar.dead):
            died.setdefault(fold_name(curse.target), curse)
    deaths = (*calendar.dead, *died.values())
    gone = [c for c in calendar.curses if any(_same_death(d, c, copies) for d in deaths)]
    kept = tuple(c for c in calendar.curses if c not in gone)
    ended = (*calendar.ended, *(c for c in gone if c not in died.values()))
    return Passed(replace(calendar, curses=kept, dead=(*calendar.dead, *died.values()),
                          ended=ended),
                  tuple(died.values()), tuple(c for c in gone if c not in died.values()),
                  tuple(c for c in kept if c.dies_on == calendar.day))


def pass_days(calendar: Calendar, days: int, rules: GensoRules | None = None) -> Passed:
    """``days`` game days pass (1 to :data:`MOST_DAYS_PASSED`), and the calendar is
    then settled on the new day (:func:`settle`, by ``rules``' presets)."""
    if not 1 <= days <= MOST_DAYS_PASSED:
        raise IllegalAction(f"GM-MAGIC-13: from 1 to {MOST_DAYS_PASSED} days pass at once, "
                            f"found {days}")
    return settle(replace(calendar, day=calendar.day + days), rules)


_FIELDS = ("day", "death_curses", "died", "ended_with_death")
_CURSE_FIELDS = ("target", "caster", "cast_on", "dies_on")


def _day(raw: Any, where: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < FIRST_DAY:
        raise DataError(f"{where} must be a day, a whole number {FIRST_DAY} or more, "
                        f"found {toml_value(raw)}")
    return raw


def _curses_from(raw: Mapping[str, Any], field: str, origin: str) -> list[DeathCurse]:
    """The curses a calendar file lists under ``field``, each read field by field."""
    listed = raw.get(field, [])
    if not isinstance(listed, list):
        raise DataError(f"{origin}: {field} must be a list of tables")
    curses: list[DeathCurse] = []
    for number, entry in enumerate(listed, 1):
        where = f"{origin}: {field} {number}"
        if not isinstance(entry, Mapping):
            raise DataError(f"{where} must be a table of {', '.join(_CURSE_FIELDS)}")
        refuse_unknown(entry, set(_CURSE_FIELDS), where, "field")
        for name in ("target", "caster"):
            if not isinstance(entry.get(name), str) or not entry[name].strip():
                raise DataError(f"{where}: {name} must be a name, "
                                f"found {toml_value(entry.get(name))}")
            refuse_control(entry[name], f"{where}: {name}")
        cast_on, dies_on = (_day(entry.get(k), f"{where}: {k}") for k in ("cast_on", "dies_on"))
        if dies_on < cast_on:
            raise DataError(f"{where}: dies_on {dies_on} is before cast_on {cast_on}")
        curses.append(DeathCurse(entry["target"], entry["caster"], cast_on, dies_on))
    return curses


def calendar_from_mapping(raw: Mapping[str, Any], origin: str,
                          rules: GensoRules | None = None) -> Calendar:
    """A calendar file read field by field; ``death_curses`` may be missing (none kept),
    ``day`` too (the first), and ``died`` (no death recorded: every file before deaths
    were kept, genso70 DEFECT 1). One name dies twice only if an NPC preset's (``rules``'
    presets: :func:`npc_names`)."""
    refuse_unknown(raw, set(_FIELDS), origin, "field")
    day = _day(raw.get("day", FIRST_DAY), f"{origin}: day")
    curses: list[DeathCurse] = []
    for number, curse in enumerate(_curses_from(raw, "death_curses", origin), 1):
        if any(fold_name(c.target) == fold_name(curse.target)
               and fold_name(c.caster) == fold_name(curse.caster) for c in curses):
            raise DataError(f"{origin}: death_curses {number}: {curse.caster}'s Death Curse "
                            f"on {curse.target} is kept twice")
        curses.append(curse)
    dead: list[DeathCurse] = []
    copies = npc_names(rules)
    for number, curse in enumerate(_curses_from(raw, "died", origin), 1):
        # Twice only for a copy of an NPC preset cursed after the first died (_same_death).
        if any(_same_death(first, then, copies) for first, then in (
                sorted((c, curse), key=lambda d: d.dies_on) for c in dead)):
            raise DataError(f"{origin}: died {number}: {curse.target} died twice")
        if curse.dies_on >= day:
            raise DataError(f"{origin}: died {number}: {curse.target} died at sunset on day "
                            f"{curse.dies_on}, not before day {day}")
        dead.append(curse)
    ended = tuple(_curses_from(raw, "ended_with_death", origin))
    return Calendar(day, tuple(curses), tuple(dead), ended)


def calendar_mapping(calendar: Calendar) -> dict[str, Any]:
    """A calendar as its file holds it (:func:`calendar_from_mapping` reads it back)."""
    def rows(curses: tuple[DeathCurse, ...]) -> list[dict[str, Any]]:
        return [{"target": c.target, "caster": c.caster, "cast_on": c.cast_on,
                 "dies_on": c.dies_on} for c in curses]

    # ``died`` only once a death is recorded: a file without one reads as before.
    return {"day": calendar.day, "death_curses": rows(calendar.curses),
            **({"died": rows(calendar.dead)} if calendar.dead else {}),
            **({"ended_with_death": rows(calendar.ended)} if calendar.ended else {})}
