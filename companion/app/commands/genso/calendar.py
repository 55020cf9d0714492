"""``companion genso calendar``: the campaign's game day and its Death Curses (GM-MAGIC-13).

The calendar lives in ``<data>/genso/calendar.toml`` (:func:`calendar_path`), one for the
data folder as the fight file is, written atomically after each change; with no file it is
day 1 and no curse. ``calendar`` shows the day and each curse with the days left; ``pass N``
moves the day on and tells each target whose sunset comes; ``curse CASTER TARGET`` keeps a
Death Curse cast today; ``lift TARGET`` takes it off. ``genso sheet`` shows a curse its
character cast or carries (:func:`curse_lines`).
"""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path
from typing import Any

from companion.app.commands.roll import emit
from companion.app.overrides import read_text
from companion.app.paths import data_dir
from companion.errors import DataError
from companion.files import file_there
from companion.systems.genso.calendar import (
    Calendar,
    DeathCurse,
    calendar_from_mapping,
    calendar_mapping,
    cast_death_curse,
    curse_length,
    lift,
    pass_days,
)
from companion.systems.genso.rules import GensoRules
from companion.toml_writing import one_line_each, write_toml

CALENDAR_COMMENT = "幻想迷宮冒険譚 Ver2.5 calendar (companion genso calendar)"
CURSE = "呪殺呪/Death Curse"


def calendar_path() -> Path:
    return data_dir() / "genso" / "calendar.toml"


def load_calendar() -> Calendar:
    """The calendar as saved; day 1 and no curse before any is saved."""
    path = calendar_path()
    if not file_there(path):
        return Calendar()
    try:
        raw = tomllib.loads(read_text(path, "calendar"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: not TOML ({exc})") from None
    return calendar_from_mapping(raw, str(path))


def _save(calendar: Calendar) -> None:
    write_toml(calendar_path(), one_line_each(calendar_mapping(calendar), CALENDAR_COMMENT))


def when(calendar: Calendar, curse: DeathCurse) -> str:
    """When a curse kills, as from today: ``at sunset on day 369 (366 days left)``."""
    left = calendar.days_left(curse)
    if left == 0:
        return f"at sunset today, day {curse.dies_on} (今日の日没)"
    return f"at sunset on day {curse.dies_on} ({left} day{'s' if left != 1 else ''} left)"


def curse_line(calendar: Calendar, curse: DeathCurse) -> str:
    return (f"{CURSE} on {curse.target} by {curse.caster} (cast on day {curse.cast_on}): "
            f"{curse.target} dies {when(calendar, curse)} unless {curse.caster} lifts it "
            "(GM-MAGIC-13)")


def curse_lines(name: str) -> list[str]:
    """The Death Curses ``name`` cast or carries, for its sheet; none without a calendar."""
    calendar = load_calendar()
    return [curse_line(calendar, c) for c in calendar.on(name)]


def _curse_json(calendar: Calendar, curse: DeathCurse) -> dict[str, Any]:
    return {"target": curse.target, "caster": curse.caster, "cast_on": curse.cast_on,
            "dies_on": curse.dies_on, "days_left": calendar.days_left(curse)}


def _shown(calendar: Calendar) -> tuple[dict[str, Any], list[str]]:
    data = {"rule": "GM-MAGIC-13", "day": calendar.day,
            "death_curses": [_curse_json(calendar, c) for c in calendar.curses]}
    lines = [f"日/day {calendar.day} (day 1 is the campaign's first; `genso calendar pass N` "
             "moves it on)"]
    lines += [curse_line(calendar, c) for c in calendar.curses] or [
        f"no {CURSE} on the calendar"]
    return data, lines


def cmd_calendar(args: argparse.Namespace, rules: GensoRules) -> int:
    """The day and the Death Curses; ``pass``, ``curse`` and ``lift`` change and save them."""
    calendar = load_calendar()
    said: list[str] = []
    extra: dict[str, Any] = {}
    if args.verb == "pass":
        passed = pass_days(calendar, args.days)
        calendar = passed.calendar
        said.append(f"{args.days} day{'s pass' if args.days != 1 else ' passes'}: day "
                    f"{calendar.day - args.days} → {calendar.day}")
        said += [f"GM-MAGIC-13 {c.target} died at sunset on day {c.dies_on} of "
                 f"{c.caster}'s {CURSE} (cast on day {c.cast_on})" for c in passed.died]
        said += [f"GM-MAGIC-13 {c.target} dies at sunset today of {c.caster}'s {CURSE}, "
                 f"unless {c.caster} lifts it first" for c in passed.today]
        extra = {"died": [_curse_json(calendar, c) for c in passed.died]}
    elif args.verb == "curse":
        calendar, curse = cast_death_curse(rules, calendar, args.caster, args.target)
        year = rules.default("GM-MAGIC-13", "year_days")
        said.append(f"GM-MAGIC-13 {curse.caster} casts {CURSE} on {curse.target} on day "
                    f"{curse.cast_on}: 「対象は１年と１日後の日没時に死亡する。」 "
                    f"{curse.target} dies at sunset on day {curse.dies_on}, "
                    f"{curse_length(rules)} days on (a year of {year} days"
                    f"{rules.settings.tag('GM-MAGIC-13', 'year_days')}, and a day)")
    elif args.verb == "lift":
        calendar, curse = lift(calendar, args.target)
        said.append(f"GM-MAGIC-13 {curse.caster} lifts the {CURSE} on {curse.target} "
                    "(術者は任意の時点で呪文を解除できる)")
    if args.verb in ("pass", "curse", "lift"):
        _save(calendar)
    data, lines = _shown(calendar)
    return emit(args, {**data, **extra, "said": said}, "\n".join([*said, *lines]))
