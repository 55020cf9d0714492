"""Travel at a normal pace (GM-MOVE-2): 720 m a turn, 3,600 m an hour, 18 km a day.

The seed's day of travel is 18 km, five hours on the road; a distance takes whole days,
then whole hours, then turns (12 minutes each, GM-CORE-2), the last one begun counting.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.systems.genso.rules import GensoRules


@dataclass(frozen=True, slots=True)
class Journey:
    """How long a distance takes on foot: days, hours and turns of travel (GM-MOVE-2)."""

    metres: int
    days: int
    hours: int
    turns: int

    def text(self) -> str:
        parts = [f"{n} {unit}" for n, unit in ((self.days, "日 days"), (self.hours, "時間 hours"),
                                               (self.turns, "ターン turns")) if n]
        return f"{self.metres} m: " + (", ".join(parts) or "no time at all")


def journey(rules: GensoRules, metres: int) -> Journey:
    """GM-MOVE-2: the days, hours and turns a party needs to travel ``metres``."""
    if metres < 0:
        raise ValueError("a distance is 0 m or more")
    day, hour, turn = (rules.num("GM-MOVE-2", key) for key in ("day_m", "hour_m", "turn_m"))
    days, rest = divmod(metres, day)
    hours, rest = divmod(rest, hour)
    return Journey(metres, days, hours, -(-rest // turn))
