"""The campaign calendar (GM-MAGIC-13 Default: "the program keeps a calendar reminder for a
Death Curse"): the game day it is, and each Death Curse (呪殺呪) with the day at whose
sunset its target dies.

「対象は１年と１日後の日没時に死亡する。術者は任意の時点で呪文を解除できる。」 (GM 2 禁呪). The
seed keeps no calendar, no months and no year's length, so the companion counts game days
from day 1, the campaign's first, and a year is ``year_days`` of them (a Default, 365).
The year and the day after it are the seed's (``[source."GM-MAGIC-13"]``): a curse cast
on day D kills at sunset on day D + 1 year + 1 day. Days pass only when the GM says so
(``genso calendar pass``): a rest is one character's (``genso rest``), and a party
resting together would count its days once each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import DataError, IllegalAction, refuse_unknown
from companion.systems.defaults import refuse_control
from companion.systems.genso.rules import GensoRules

#: The first day of a campaign, and of a calendar file that names none.
FIRST_DAY = 1


@dataclass(frozen=True, slots=True)
class DeathCurse:
    """A Death Curse cast on ``target`` by ``caster`` on day ``cast_on``: the target dies at
    sunset on day ``dies_on`` unless the caster lifts it first (GM-MAGIC-13)."""

    target: str
    caster: str
    cast_on: int
    dies_on: int


@dataclass(frozen=True, slots=True)
class Calendar:
    """The game day it is, and the Death Curses whose sunset has not yet passed."""

    day: int = FIRST_DAY
    curses: tuple[DeathCurse, ...] = ()

    def days_left(self, curse: DeathCurse) -> int:
        """Days until the sunset that kills: 0 on the day itself."""
        return curse.dies_on - self.day

    def on(self, name: str) -> tuple[DeathCurse, ...]:
        """The curses ``name`` cast or carries."""
        return tuple(c for c in self.curses if name in (c.target, c.caster))


@dataclass(frozen=True, slots=True)
class Passed:
    """Days passed (GM-MAGIC-13): the calendar after, the curses whose sunset came and went
    (their targets died; they are off the calendar) and those whose sunset is today."""

    calendar: Calendar
    died: tuple[DeathCurse, ...]
    today: tuple[DeathCurse, ...]


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


def cast_death_curse(rules: GensoRules, calendar: Calendar, caster: str,
                     target: str) -> tuple[Calendar, DeathCurse]:
    """GM-MAGIC-13: ``caster`` puts a Death Curse on ``target`` today; it is kept with the
    day the target dies at sunset. A target already cursed is refused: the first curse
    kills first, and lifting one by its target's name must name one curse."""
    caster, target = _name(caster, "caster"), _name(target, "target")
    held = next((c for c in calendar.curses if c.target == target), None)
    if held is not None:
        raise IllegalAction(f"GM-MAGIC-13: {target} already carries {held.caster}'s Death Curse "
                            f"(呪殺呪), to die at sunset on day {held.dies_on}")
    curse = DeathCurse(target, caster, calendar.day, calendar.day + curse_length(rules))
    return replace(calendar, curses=(*calendar.curses, curse)), curse


def lift(calendar: Calendar, target: str) -> tuple[Calendar, DeathCurse]:
    """GM-MAGIC-13 「術者は任意の時点で呪文を解除できる」: the caster lifts the curse on
    ``target``, any day up to its sunset."""
    curse = next((c for c in calendar.curses if c.target == target.strip()), None)
    if curse is None:
        cursed = ", ".join(c.target for c in calendar.curses) or "no one"
        raise IllegalAction(f"GM-MAGIC-13: {target.strip()} carries no Death Curse (呪殺呪) "
                            f"on the calendar (cursed: {cursed})")
    return replace(calendar, curses=tuple(c for c in calendar.curses if c != curse)), curse


def pass_days(calendar: Calendar, days: int) -> Passed:
    """``days`` game days pass: a curse whose sunset falls before the new day killed its
    target and leaves the calendar; one whose sunset is the new day's is told as today's."""
    if days < 1:
        raise IllegalAction(f"GM-MAGIC-13: 1 day or more passes, found {days}")
    day = calendar.day + days
    died = tuple(c for c in calendar.curses if c.dies_on < day)
    kept = tuple(c for c in calendar.curses if c.dies_on >= day)
    return Passed(Calendar(day, kept), died, tuple(c for c in kept if c.dies_on == day))


_FIELDS = ("day", "death_curses")
_CURSE_FIELDS = ("target", "caster", "cast_on", "dies_on")


def _day(raw: Any, where: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < FIRST_DAY:
        raise DataError(f"{where} must be a day, a whole number {FIRST_DAY} or more, "
                        f"found {raw!r}")
    return raw


def calendar_from_mapping(raw: Mapping[str, Any], origin: str) -> Calendar:
    """A calendar file read field by field; ``death_curses`` may be missing (none kept),
    ``day`` too (the first)."""
    refuse_unknown(raw, set(_FIELDS), origin, "field")
    day = _day(raw.get("day", FIRST_DAY), f"{origin}: day")
    listed = raw.get("death_curses", [])
    if not isinstance(listed, list):
        raise DataError(f"{origin}: death_curses must be a list of tables")
    curses = []
    for number, entry in enumerate(listed, 1):
        where = f"{origin}: death_curses {number}"
        if not isinstance(entry, Mapping):
            raise DataError(f"{where} must be a table of {', '.join(_CURSE_FIELDS)}")
        refuse_unknown(entry, set(_CURSE_FIELDS), where, "field")
        for name in ("target", "caster"):
            if not isinstance(entry.get(name), str) or not entry[name].strip():
                raise DataError(f"{where}: {name} must be a name, found {entry.get(name)!r}")
            refuse_control(entry[name], f"{where}: {name}")
        cast_on, dies_on = (_day(entry.get(k), f"{where}: {k}") for k in ("cast_on", "dies_on"))
        if dies_on < cast_on:
            raise DataError(f"{where}: dies_on {dies_on} is before cast_on {cast_on}")
        curses.append(DeathCurse(entry["target"], entry["caster"], cast_on, dies_on))
    return Calendar(day, tuple(curses))


def calendar_mapping(calendar: Calendar) -> dict[str, Any]:
    """A calendar as its file holds it (:func:`calendar_from_mapping` reads it back)."""
    return {"day": calendar.day,
            "death_curses": [{"target": c.target, "caster": c.caster, "cast_on": c.cast_on,
                              "dies_on": c.dies_on} for c in calendar.curses]}
