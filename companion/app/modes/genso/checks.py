"""The GM's checks at the table (spec §2.3): :class:`CheckCall` (a check the GM called for),
:class:`Checked` (the event of one rolled), :func:`roll_check` (rolled by the engine's own
check) and :func:`check_steps` (its result lines); and ``FightEvent``, what an answer to the
mode makes (an action's journal entry, an undo, or a check).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.app.modes.fight import Undone
from companion.dice import DiceSource
from companion.errors import IllegalAction
from companion.hw.display.view import DiceStep
from companion.systems.genso import checks
from companion.systems.genso.combat import Entry, Fight
from companion.systems.genso.rules import GensoRules


@dataclass(frozen=True)
class CheckCall:
    """A check the GM called for at the table (spec §2.3): its kind, who rolls (and against
    whom), and the options its engine function takes. It changes nothing in the fight."""

    kind: str
    who: str = ""
    vs: str = ""
    ability: str = ""
    difficulty: int | str | None = None
    modifier: int = 0
    active: bool = True
    #: GM-CHECK-5: the other side's (``vs``) own modifier, Ｂの能力値＋２Ｄ＋修正値.
    vs_modifier: int = 0
    #: GM-CHECK-5: the other side (``vs``) is the active one, side A, whom a tie fails (an
    #: orc that grabs a PC, PG 2-3), as `genso check opposed --sheet orc --vs pc1` rolls it
    #: (reviewg70 RISK C: at the table side A was always ``who``, a sheet).
    vs_active: bool = False

    def to_json(self) -> dict[str, Any]:
        # ``vs_active`` only when set: a check's --log line reads as it did before.
        return {"kind": self.kind, "who": self.who, "vs": self.vs, "ability": self.ability,
                "difficulty": self.difficulty, "modifier": self.modifier,
                "active": self.active, "vs_modifier": self.vs_modifier,
                **({"vs_active": True} if self.vs_active else {})}


@dataclass(frozen=True)
class Checked:
    """An event: a check rolled at the table, with the engine's result (terms, rule ID)."""

    call: CheckCall
    check: checks.Check | checks.Opposed

    def to_json(self) -> dict[str, Any]:
        return {"call": self.call.to_json(), "result": self.check.to_json()}


def roll_check(rules: GensoRules, fight: Fight, call: CheckCall,
               source: DiceSource) -> checks.Check | checks.Opposed:
    """``call`` rolled by the engine's own check, the characters read from the fight's
    entrants' sheets (as the fight took them up), by the fight's engine revision (a table
    resumed from an older save rolls a check that cannot succeed as it did: fixt65b)."""
    def sheet(name: str) -> Any:
        entrant = next((e for e in fight.entrants if e.name == name and not e.monster), None)
        if entrant is None:
            raise IllegalAction(f"{name!r} has no character sheet in this fight")
        return entrant.character(rules)

    # None is the check's Default (GM-CHECK-1/2/3, GM-CHECK-6 ``difficulty``), labelled so on
    # its line, as `genso check` without --difficulty (review59a R3).
    if call.kind == "simple":
        return checks.simple_check(rules, source, call.difficulty, call.modifier,
                                   engine=fight.engine)
    who = sheet(call.who)
    if call.kind == "general":
        return checks.general_check(rules, source, who, call.ability, call.difficulty,
                                    call.modifier, engine=fight.engine)
    if call.kind == "trap":
        return checks.trap_check(rules, source, who, call.difficulty, call.modifier,
                                 engine=fight.engine)
    if call.kind == "enemy":
        return checks.enemy_check(rules, source, who, call.difficulty, call.modifier,
                                  engine=fight.engine)
    if call.kind == "undead":
        return checks.undead_check(rules, source, who, call.modifier, engine=fight.engine)
    if call.kind == "mark":
        return checks.mark_check(rules, source, who, call.modifier, engine=fight.engine)
    if call.kind == "opposed":
        # The other side a monster of the fight by its block (GM-CHECK-5, genso70 DEFECT 3),
        # named as the fighter it is (オーク1, not the block's オーク/Orc: reviewg70 NIT H).
        beast = next((e.monster for e in fight.entrants if e.name == call.vs and e.monster), "")
        other = replace(rules.monster(beast), fighter=call.vs) if beast else sheet(call.vs)
        if call.vs_active:  # the other side is A, with its own modifier (reviewg70 RISK C)
            return checks.opposed_check(rules, source, other, who, call.ability, active=True,
                                        a_modifier=call.vs_modifier, b_modifier=call.modifier)
        return checks.opposed_check(rules, source, who, other, call.ability,
                                    active=call.active, a_modifier=call.modifier,
                                    b_modifier=call.vs_modifier)
    raise IllegalAction(f"no check {call.kind!r}")


def check_steps(check: checks.Check | checks.Opposed) -> tuple[DiceStep, ...]:
    """A check's result lines for the fight view: its terms, its BCDice line(s), notes. The
    view shows each line's rule beside it, so a line that opens with it drops it."""
    rule = check.rule if isinstance(check, checks.Check) else "GM-CHECK-5"
    return tuple(DiceStep(rule, line.removeprefix(f"{rule} "))
                 for line in check.text.splitlines())


FightEvent = Entry | Undone | Checked
