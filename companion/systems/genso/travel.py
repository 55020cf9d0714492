"""Travel at a normal pace (GM-MOVE-2): 720 m a turn, 3,600 m an hour, 18 km a day.

The seed's units nest: an hour is 3600 / 720 = 5 turns (12 minutes each, GM-CORE-2) and
a day of travel is 18000 / 3600 = 5 hours on the road. A distance takes whole turns, the
last one begun counting (the Default ``begun_turn_counts``; off, §0.3's round down); then
five turns carry into an hour and five hours into a day, so 17,999 m is one day, never
"4 hours, 5 turns".
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import DataError
from companion.systems.genso.rules import GensoRules


@dataclass(frozen=True, slots=True)
class Journey:
    """How long a distance takes on foot: days, hours and turns of travel (GM-MOVE-2)."""

    metres: int
    days: int
    hours: int
    turns: int

    def text(self) -> str:
        """``4000 m: 1 時間 hour, 2 ターン turns``: one of a unit is said in the singular
        (genso70 NIT 8: ``1 ターン turns``)."""
        parts = [f"{n} {ja} {en}{'s' if n != 1 else ''}"
                 for n, ja, en in ((self.days, "日", "day"), (self.hours, "時間", "hour"),
                                   (self.turns, "ターン", "turn")) if n]
        return f"{self.metres} m: " + (", ".join(parts) or "no time at all")


def journey(rules: GensoRules, metres: int) -> Journey:
    """GM-MOVE-2: the days, hours and turns a party needs to travel ``metres``."""
    if metres < 0:
        raise ValueError("a distance is 0 m or more")
    day, hour, turn = (rules.num("GM-MOVE-2", key) for key in ("day_m", "hour_m", "turn_m"))
    if hour % turn or day % hour:
        raise DataError(f"GM-MOVE-2: an hour ({hour} m) must be whole turns ({turn} m) and a "
                        f"day ({day} m) whole hours")
    turns_per_hour, hours_per_day = hour // turn, day // hour
    turns = (-(-metres // turn) if rules.default("GM-MOVE-2", "begun_turn_counts")
             else metres // turn)
    days, turns = divmod(turns, turns_per_hour * hours_per_day)
    hours, turns = divmod(turns, turns_per_hour)
    return Journey(metres, days, hours, turns)
