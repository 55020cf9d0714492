"""System `events`: what a walk through an event table returns (spec §1).

An :class:`EventReport` holds the :class:`Step` s of one
:func:`~companion.systems.events.run.run_event`, in order: structured for a screen, and
printable as text. It implements no rule of its own: each step names the EV- rule it applies.

A walk stopped short (its dice source ran out: the dice tray awaiting a follow-up throw)
hands its caller a report ``finished=False`` of the steps walked so far, the first steps of
the whole walk, and the row it stopped in (EV-MON-1's, its count awaited), ``under_way``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.dice.result import Result
from companion.systems.events.rules import Mode


@dataclass(frozen=True)
class Step:
    """One line of an event: the rule it applies, its text, the roll, who it concerns.

    ``depth`` is 0 for the table rolled and grows along follow-ups, so a screen can
    indent. ``data`` carries the numbers a game state would apply (damage, poison).
    """

    rule: str
    text: str
    roll: Result | None = None
    member: str | None = None
    depth: int = 0
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "text": self.text,
            "roll": self.roll.to_json() if self.roll else None,
            "member": self.member,
            "depth": self.depth,
            "data": dict(self.data),
        }


@dataclass(frozen=True)
class EventReport:
    """Everything one ``run_event`` produced, in order; or, ``finished`` False, what it had
    walked when its dice ran out: ``steps`` so far, and the step ``under_way`` whose
    follow-up dice are awaited (None when it stopped between steps)."""

    system: str
    table: str
    mode: Mode
    dm_level: int
    steps: tuple[Step, ...]
    finished: bool = True
    under_way: Step | None = None

    @property
    def text(self) -> str:
        return "\n".join(f"{'  ' * s.depth}{s.rule}  {s.text}" for s in self.steps)

    def rules(self) -> list[str]:
        """The rule IDs the walk went through, in order (each once)."""
        return list(dict.fromkeys(s.rule for s in self.steps))

    def find(self, rule: str) -> list[Step]:
        return [s for s in self.steps if s.rule == rule]

    def pool_changes(self) -> dict[str, dict[str, int]]:
        """What the walk changed of each named member's HP and MP (EV-TRAP-2/7 damage,
        EV-REC-1 recovery: a member's step's ``hp``/``mp``), summed by member, for the
        caller to keep (cli59 F4); a change not known (base power "?") is left out."""
        changes: dict[str, dict[str, int]] = {}
        for step in self.steps:
            for pool in ("hp", "mp"):
                change = step.data.get(pool)
                if step.member is not None and isinstance(change, int) and change:
                    pools = changes.setdefault(step.member, {})
                    pools[pool] = pools.get(pool, 0) + change
        return changes

    def to_json(self) -> dict[str, Any]:
        """A whole walk's report (a walk under way is only shown, never written)."""
        return {
            "system": self.system,
            "table": self.table,
            "mode": self.mode.value,
            "dm_level": self.dm_level,
            "text": self.text,
            "steps": [s.to_json() for s in self.steps],
        }
