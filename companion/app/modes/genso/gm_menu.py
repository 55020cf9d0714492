"""The GM's layer of the genso mode, on :class:`_TargetMenus`: the GM's steps (undo, close a
finished fight, the end, sunrise, sunset, sleep) and *GM → Check 判定*: the check's menu
(which check, who rolls, against whom, the ability, the difficulty, active or not, a
modifier, and in an opposed check the other side's), the check rolled by the engine over
the throws so far and journalled by the mode only (and its ``--log`` line), not in the
fight.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from companion.app.modes.genso.checks import CheckCall, Checked, FightEvent, roll_check
from companion.app.modes.genso.target_menus import _TargetMenus, _value
from companion.app.modes.genso.words import CHECKS, DOWN, MODIFIERS, TRAP_NAMES, named
from companion.app.modes.questions import ASK_UNDO, sure, undo_question
from companion.app.session.controls import BACK
from companion.app.session.mode import ChoiceAsk
from companion.app.session.rolls import NeedDice, Thrown
from companion.errors import IllegalAction
from companion.hw.display.view import Option
from companion.systems.genso.combat import (
    Combatant,
    EndFight,
    Sleep,
    Status,
    Sunrise,
    Sunset,
)
from companion.systems.genso.rules import ABILITIES

#: The GM's End fight asks first, as Undo does (:mod:`..questions`): with it taken at once
#: a second A closed the fight on the fight-over menu that came next.
ASK_END_FIGHT = "end?"


class _GmMenu(_TargetMenus):
    """Adds the GM's steps and checks."""

    def restore(self, text: str) -> None:
        """As every fight's, with :attr:`_restoring` set while the answer is given."""
        restoring, self._restoring = self._restoring, True
        try:
            super().restore(text)
        finally:
            self._restoring = restoring

    # -- checks (spec §2.3): rolled by the engine, journalled by the mode only --------------

    def _push(self, action: Any) -> list[Any]:
        if not isinstance(action, CheckCall):
            return super()._push(action)
        try:
            check = roll_check(self.rules, self.fight, action, Thrown(self.throws))
        except NeedDice:
            return []
        event = Checked(action, check)
        self._events.append(event)
        return [event]

    def _walk(self, action: Any) -> NeedDice | None:
        if not isinstance(action, CheckCall):
            return super()._walk(action)
        try:
            roll_check(self.rules, self.fight, action, Thrown(self.throws))
        except NeedDice as need:
            return need
        return None

    def log_lines(self, events: Sequence[object]) -> list[str]:
        lines = []
        for event in events:
            if isinstance(event, Checked):
                lines.append(json.dumps({"check": event.to_json()}, ensure_ascii=False))
            else:
                lines += super().log_lines([event])
        return lines

    def _gm(self, choice: str) -> list[FightEvent]:
        """The GM's steps: undo, close a finished fight, the end, sunrise, sunset, sleep.
        Undo and the end are asked first (:meth:`_sure`)."""
        if choice in ("gm", "check"):
            self.path = [choice]
            return []
        if choice in (ASK_UNDO, ASK_END_FIGHT):
            # Asked before the path moves: nothing to undo is refused in the status line and
            # the table goes on (reviewg71b DEFECT 2: the question raised at the next ask,
            # outside the session's refusals, and stopped the table; the dead's only Undo).
            self._sure(choice)
            self.path = [*self.path, choice]
            return []
        if choice == "close":
            self.done = True
            return []
        self.path = []
        if choice == "undo":
            return self.undo()
        steps: dict[str, type[EndFight | Sunrise | Sunset | Sleep]] = {
            "end": EndFight, "sunrise": Sunrise, "sunset": Sunset, "sleep": Sleep}
        if choice not in steps:
            raise IllegalAction(f"there is no choice {choice!r} now")
        return self._push(steps[choice]())

    def _sure(self, asked: str) -> ChoiceAsk:
        """Undo or End fight, asked again."""
        if asked == ASK_UNDO:
            journal = self.fight.journal
            return undo_question(self.describe(journal[-1].action) if journal else None)
        return sure("End the fight? 戦闘を終える？", "end", "Yes, end it はい、終了")

    def _check(self, rest: list[str]) -> ChoiceAsk | CheckCall:
        """GM-CHECK-1..6, GM-MAGIC-6: which check, who rolls (whose turn it is, highlighted),
        against whom, the ability, the difficulty, active or not, a modifier (and the other
        side's in an opposed check, GM-CHECK-5); then its dice."""
        if not rest:
            return ChoiceAsk("Which check? 判定は？", (
                *(Option(f"c:{k}", label) for k, label in CHECKS.items()), BACK))
        kind, rest = _value(rest[0], "c"), rest[1:]
        if kind not in CHECKS:
            raise IllegalAction(f"there is no check {kind!r}")
        who = vs = ability = ""
        active = True
        if kind != "simple":
            # One who cannot act rolls no check (GM-COMBAT-8), as `genso check` refuses the
            # incapacitated (行動不能) and the dead (genso70 DEFECT 2); a save replayed still
            # finds them, as the table offered them before (:attr:`_restoring`: reviewg70
            # DEFECT A, a save in which one rolled did not resume).
            # Nor one the calendar records dead of a Death Curse (reviewg70 RISK E), the
            # prompt saying why, naming only the dead who could roll it otherwise (reviewg71
            # NIT 5: a Mark check named pc1, who knows no Mark) as the table names them.
            standing = [c for c in self.fight.state.order if c.status not in DOWN and (
                self._restoring or c.status is not Status.INCAPACITATED)]
            able = [c for c in standing if self._restoring or not self.cursed_dead(c.name)]

            def may_roll(c: Combatant) -> bool:
                return any(e.name == c.name and not e.monster for e in self.fight.entrants) \
                    and (kind != "mark" or "mark" in c.spells)

            rollers = [c for c in able if may_roll(c)]
            dead = [c for c in standing if c not in able and may_roll(c)]
            if not rest:
                current = self.fight.state.current
                names = [c.name for c in rollers]
                ask = self._pick(("Who rolls? 誰が判定する？" if rollers else
                                  "Nobody here can roll it 判定できる者がいない")
                                 + self._left_out(dead), rollers)
                at = names.index(current.name) if current and current.name in names else 0
                return ChoiceAsk(ask.prompt, ask.options, at)
            who, rest = _value(rest[0], "t"), rest[1:]
            if kind == "opposed":
                # The other side may be a monster, by its block, as `genso check --vs orc`
                # takes it (GM-CHECK-5 names no limit to PCs and NPCs): a lone PC had only
                # Back here (genso70 DEFECT 3).
                if not rest:
                    return self._pick(f"{who} against whom? 対抗相手は？" + self._left_out(
                                          [c for c in dead if c.name != who]),
                                      [c for c in able if c.name != who and (
                                          c in rollers or any(e.name == c.name and e.monster
                                                              for e in self.fight.entrants))])
                vs, rest = _value(rest[0], "t"), rest[1:]
        if kind in ("general", "opposed"):
            if not rest:
                return ChoiceAsk("Which ability? 能力値は？", (
                    *(Option(f"a:{a}", f"{self.rules.abilities[a]['ja']} "
                                       f"{self.rules.abilities[a]['en']}") for a in ABILITIES),
                    BACK))
            ability, rest = _value(rest[0], "a"), rest[1:]
        difficulty: int | str | None = None
        if kind in ("simple", "general", "trap", "enemy"):
            if not rest:
                return self._difficulties(kind)
            picked, rest = _value(rest[0], "d"), rest[1:]
            difficulty = None if picked == "default" else picked
        vs_active = False
        if kind == "opposed":
            # The other side may be the active one (a monster that grabs a PC: a tie fails
            # it, PG 2-3), as `genso check opposed --sheet orc --vs pc1` (reviewg70 RISK C).
            if not rest:
                return ChoiceAsk(f"Is {who} the active side? {who}が能動側？", (
                    Option("act:yes", "Active 能動 (a tie fails it)"),
                    Option("act:no", "Neither 双方受動 (a tie is a draw)"),
                    # The other side unnamed: a PC's long name cut the label on 800x480.
                    Option("act:vs", "Other 相手が能動 (a tie fails it)"), BACK))
            acts = _value(rest[0], "act")
            if acts not in ("yes", "no", "vs"):
                raise IllegalAction(f"there is no choice {rest[0]!r} now")
            active, vs_active, rest = acts != "no", acts == "vs", rest[1:]
        modifier = vs_modifier = 0
        if kind != "simple" or self.rules.default("GM-CHECK-1", "manual_modifier"):
            whose = f" ({who})" if kind == "opposed" else ""
            if not rest:
                return self._modifiers(f"Modifier{whose}? 修正値は？")
            modifier, rest = self._modifier(rest[0]), rest[1:]
        if kind == "opposed":
            # GM-CHECK-5 (l.1138): Ｂの能力値＋２Ｄ＋修正値, the other side's own modifier.
            if not rest:
                return self._modifiers(f"Modifier ({vs})? {vs}の修正値は？")
            vs_modifier, rest = self._modifier(rest[0]), rest[1:]
        if rest:
            raise IllegalAction(f"there is no choice {rest[0]!r} now")
        return CheckCall(kind, who, vs, ability, difficulty, modifier, active, vs_modifier,
                         vs_active)

    def _left_out(self, dead: Sequence[Combatant]) -> str:
        """Why a check's menu leaves out fighters the calendar records dead (GM-MAGIC-13),
        named as the table names them: ``(not 駆け出し冒険者１ PC 1: died 死亡 (Death Curse
        呪殺呪))``; empty when none is."""
        if not dead:
            return ""
        names = ", ".join(named(self.rules, self.fight, c) for c in dead)
        return f" (not {names}: {self.died_why()})"

    @staticmethod
    def _modifiers(prompt: str) -> ChoiceAsk:
        """A check's modifier (修正値) to pick: ±0 first, then +1..+3, −1..−3."""
        return ChoiceAsk(prompt, (
            *(Option(f"m:{m}", f"{m:+d}" if m else "±0 none なし") for m in MODIFIERS), BACK))

    @staticmethod
    def _modifier(choice: str) -> int:
        number = _value(choice, "m")
        if number.lstrip("-") not in {str(abs(m)) for m in MODIFIERS}:
            raise IllegalAction(f"there is no choice {choice!r} now")
        return int(number)

    def _difficulties(self, kind: str) -> ChoiceAsk:
        """The check's Default first, lit (GM-CHECK-1/2/3 and GM-CHECK-6 ``difficulty``, as
        `genso check` without --difficulty takes it: review59a R3), then the difficulties
        by name, or the trap's kinds."""
        rule = {"simple": "GM-CHECK-1", "general": "GM-CHECK-2", "trap": "GM-CHECK-3",
                "enemy": "GM-CHECK-6"}[kind]
        if kind == "trap":
            named = {f"d:{t}": f"{label} {self.rules.num('GM-CHECK-3', t)}"
                     for t, label in TRAP_NAMES.items()}
        else:
            table = self.rules.difficulties["simple" if kind == "simple" else "general"]
            named = {f"d:{key}": (f"{self.rules.difficulty_names[key]['ja']} "
                                  f"{self.rules.difficulty_names[key]['en']} {value}")
                     for key, value in table.items() if key != "rule"}
        default = self.rules.default(rule, "difficulty")
        options = [Option("d:default", f"標準 default {named.get(f'd:{default}', default)} "
                                       "(default)"),
                   *(Option(key, label) for key, label in named.items())]
        return ChoiceAsk("Which trap? 罠は？" if kind == "trap" else "Difficulty? 難易度は？",
                         (*options, BACK), 0)
