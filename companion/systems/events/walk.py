"""System `events`: the core of a walk through an event table (spec §1).

:class:`_Walk` is the bottom layer of the walk that
:func:`~companion.systems.events.run.run_event` makes: it holds the rules, the mode,
the party and the dice, adds :class:`~companion.systems.events.report.Step` s (indented
inside ``with walk.deeper():``, :class:`_Deeper`) and has the pieces every table uses:
the fixed roll (EV-CORE-1), a member's Sword World check, the party's (ＰＴ) checks and
their prompts in generic mode (EV-CORE-2), a rating and its base power (EV-CORE-3), and
the 1/2D rounding (EV-CORE-4). The layers above each subclass the one below:
:mod:`~companion.systems.events.rooms`, :mod:`~companion.systems.events.poison`,
:mod:`~companion.systems.events.traps`, :mod:`~companion.systems.events.doors`.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from companion.dice.notation import Comparison, Rounding
from companion.dice.result import Result
from companion.dice.roll import RollOptions, roll
from companion.dice.sources import DiceSource
from companion.dice.tables import TableRow
from companion.systems.events.lists import UserLists
from companion.systems.events.poisoned import Poison, same_name
from companion.systems.events.report import Step
from companion.systems.events.rules import FULL_WIDTH_DIGITS, EventRules, Mode, NoParty
from companion.systems.events.sword_world import (
    AUTOMATIC_MISS,
    CheckRules,
    Member,
    RatingTable,
    check_bonus,
    sw_check,
)


class _Walk:
    """The core of one walk through a table and its follow-ups: steps, checks, base power."""

    def __init__(
        self,
        rules: EventRules,
        source: DiceSource,
        mode: Mode,
        dm_level: int | None,
        party: Sequence[Member],
        rating_table: RatingTable | None,
        lists: UserLists | None = None,
        poisoned: Mapping[str, Poison] | None = None,
    ) -> None:
        self.rules = rules
        self.s = rules.settings
        self.book = rules.source
        self.source = source
        self.mode = mode
        self.dm_tag = self.s.tag("EV-CORE-1", "dm_level") if dm_level is None else ""
        self.dm = self.s["EV-CORE-1", "dm_level"] if dm_level is None else dm_level
        self.party = tuple(party)
        #: each member's HP and MP as they stand: the party's as given (the values the
        #: events keep, cli59 F4), then as this walk changes them; a pool the party file
        #: leaves out is not there
        self.pools: dict[str, dict[str, int]] = {
            m.name: {pool: value for pool in ("hp", "mp")
                     if (value := getattr(m, pool)) is not None}
            for m in self.party}
        self.rating_table = rating_table
        self.lists = lists or UserLists()
        #: each member's poison, the tracked ones and those this walk gives (EV-POI-3)
        self.poisoned: dict[str, Poison] = dict(poisoned or {})
        self.steps: list[Step] = []
        #: the step a table's row begins while its follow-up dice are rolled, before it is
        #: written whole (EV-MON-1's row, awaiting how many): what a walk stopped short
        #: there has of it; the next step written ends it
        self.under_way: Step | None = None
        self.depth = 0
        self.options = RollOptions(half_die=Rounding[self.s["EV-CORE-4", "rounding"].upper()])
        self.check_rules = CheckRules(
            Comparison(self.s["EV-CORE-2", "comparison"]),
            self.s["EV-CORE-2", "double_six_success"],
            self.s["EV-CORE-2", "knowledge_ability"],
        )

    @property
    def sw(self) -> bool:
        return self.mode is Mode.SW

    def add(self, rule: str, text: str, **kw: Any) -> Step:
        step = Step(rule, text, depth=self.depth, **kw)
        self.steps.append(step)
        self.under_way = None
        return step

    def begin(self, rule: str, text: str, **kw: Any) -> None:
        """The step a row begins, said before its follow-up dice are rolled; the step
        written after them replaces it (:attr:`under_way`). It changes no step written."""
        self.under_way = Step(rule, text, depth=self.depth, **kw)

    def deeper(self) -> _Deeper:
        return _Deeper(self)

    # -- shared pieces --

    def fixed(self, kind: str) -> tuple[int, str]:
        """EV-CORE-1: the fixed-roll target for a check type, and how to show it."""
        override = self.s["EV-CORE-1", kind]
        if override:
            return override, f"{override}"
        bonus = self.s["EV-CORE-1", "fixed_roll_bonus"]
        default = "default: " if self.s.tag("EV-CORE-1", "fixed_roll_bonus") else ""
        return self.dm + bonus, f"{self.dm + bonus} ({default}DM Lv {self.dm} + {bonus})"

    def rounding_said(self, notation: str) -> str:
        """EV-CORE-4: how a 1/2D was rounded, said beside its roll as the Default it is;
        "" for dice without one."""
        if "1/2D" not in notation.upper():
            return ""
        return (f" (1/2D rounded {self.s['EV-CORE-4', 'rounding']}, "
                f"EV-CORE-4{self.s.tag('EV-CORE-4', 'rounding')})")

    def at_least_one(self, result: Result, notation: str) -> tuple[int, str]:
        """EV-CORE-4: a 1/2D count of monsters or metres fallen is at least 1, whatever the
        rounding: down (or toward zero) makes 0 of a 1, which the spec's reason for rounding
        up calls meaningless (「Rounding down would make 0 possible, which is meaningless for
        "number of monsters"」), and the table says monsters come or the party falls. The
        value to use and what to say after the roll when it was raised (events62 R3)."""
        if "1/2D" not in notation.upper() or result.total >= 1:
            return result.total, ""
        return 1, " ＞ 1 (at least 1: 0 means nothing here, EV-CORE-4)"

    def table_roll(self, key: str) -> tuple[Result, TableRow]:
        table = self.rules.tables[key]
        return table.roll_on(self.source)

    def check(
        self, rule: str, key: str, member: Member, extra: int = 0, note: str = "",
        toxicity: int | None = None,
    ) -> Result:
        """EV-CORE-2 for one member; a member without the class makes a flat roll.
        ``toxicity``: against a poison's own 毒性値 rather than today's fixed roll."""
        spec = self.rules.checks[key]
        if toxicity is None:
            target, target_text = self.fixed(spec.fixed)
        else:
            target, target_text = toxicity, f"毒性値/toxicity {toxicity}"
        bonus = check_bonus(member, spec, self.check_rules)
        how = ""
        if bonus is None:
            bonus = 0
            how = " 平目/flat roll"
        penalty, poisoned = self.poison_penalty(member, acting=key == "active_action")
        result = sw_check(self.source, bonus + extra - penalty, target, self.check_rules,
                          purpose=f"{member.name}: {spec.label()}{how}")
        # ``act``: the member whose line names `act`, which the app names with the run's
        # options (r77events NIT A)
        self.add(
            rule,
            f"{member.name}: {spec.label()}{how}{note}{poisoned} vs {target_text} {result.text}",
            roll=result,
            member=member.name,
            data={"act": member.name} if penalty and key != "active_action" else {},
        )
        return result

    def poison_penalty(self, member: Member, acting: bool = False) -> tuple[int, str]:
        """EV-POI-5: 「すべての判定に－１」 for a member whose poison is effect 1, and what
        to say: that an active action first needs a vitality check against its toxicity
        (「能動的な行動をとろうとする場合、生命力を基準に毒性値…を目標に判定」), which
        ``companion events act --who NAME`` rolls, named with the member (a bare ``act`` is
        refused, a77events NIT 4); ``acting``: this is that check (it is at −1 too)."""
        # tracked as aki for Aki: the same character (events62 D1)
        alike = same_name(self.poisoned, member.name)
        poison = self.poisoned.get(member.name) or (self.poisoned[alike[0]] if alike else None)
        if poison is None or poison.rule != "EV-POI-5":
            return 0, ""
        penalty = self.book["EV-POI-5"]["penalty"]
        zenkaku = str(penalty).translate(FULL_WIDTH_DIGITS)
        why = f" −{penalty} (毒/poison 判定－{zenkaku}, EV-POI-5"
        if acting:
            return penalty, why + ")"
        return penalty, (f"{why}; an active action first needs vitality vs toxicity "
                         f"{poison.toxicity}: `companion events act --who "
                         f"{shlex.quote(member.name)}`)")

    def party_checks(self, rule: str, key: str) -> Iterator[tuple[Member, Result]]:
        """A ＰＴ check: every member rolls (EV-CORE-2 Default), or the best rolls for all."""
        if self.s["EV-CORE-2", "party_checks_each"]:
            for member in self.party:
                yield member, self.check(rule, key, member)
            return
        best = self.best(key) or self.party[0]
        shared = self.check(rule, key, best, note=" for the whole party")
        for member in self.party:
            yield member, shared

    def party_prompt(self) -> str:
        """Generic mode: who rolls a ＰＴ check, as EV-CORE-2's party_checks_each says."""
        tag = self.s.tag("EV-CORE-2", "party_checks_each")
        if self.s["EV-CORE-2", "party_checks_each"]:
            return f"each member{tag}"
        return f"the best member, once for the whole party{tag}"

    def check_prompt(self, rule: str, key: str, who: str, after: str,
                     data: Mapping[str, Any] | None = None) -> None:
        """Generic mode: name the check and target; the GM resolves it. ``data``: the
        step's (what a table applies, e.g. the trap a failed disarm sets off)."""
        spec = self.rules.checks[key]
        _, target_text = self.fixed(spec.fixed)
        self.add(rule, f"{who}: {spec.label()} vs {target_text} — GM resolves; {after}",
                 data=data or {})

    def best(self, key: str, members: Sequence[Member] | None = None) -> Member | None:
        """The member with the highest bonus for a check (first in marching order on ties)."""
        spec = self.rules.checks[key]
        able = [
            (check_bonus(m, spec, self.check_rules), m)
            for m in (self.party if members is None else members)
        ]
        ranked = [(b, m) for b, m in able if b is not None]
        if not ranked:
            return None
        top = max(b for b, _ in ranked)
        return next(m for b, m in ranked if b == top)

    def rating(self) -> tuple[int, str]:
        """EV-CORE-3: a trap's rating = DM Lv × 5 (Default: recovery's seed formula)."""
        per = self.s["EV-CORE-3", "rating_per_dm_level"]
        tag = self.s.tag("EV-CORE-3", "rating_per_dm_level")
        return self.dm * per, f"DM Lv {self.dm} × {per}{tag}"

    def base_power(self, rule: str, rating: int, who: str = "", how: str = "") -> int | None:
        """EV-CORE-3: roll 2D6 at a rating and read the user's table, else ask the GM;
        ``how``: said after the rating, how it came (EV-TRAP-3's −10 on a success)."""
        owner = f"{who}: " if who else ""
        result = roll("2D6", self.source,
                      purpose=f"{owner}base power 基本威力 (rating 威力 {rating}, {rule})")
        total = result.total
        value = self.rating_table.lookup(rating, total) if self.rating_table else None
        found = "(look up) ＞ ?" if value is None else str(value)
        if self.rating_table is not None and self.rating_table.missed(rating, total):
            # the table's * cell: said, not a bare 0 read as a low roll (a76events NIT 4)
            found = f"* {AUTOMATIC_MISS} ＞ {value}"
        prefix = f"{who}: " if who else ""
        self.add(
            "EV-CORE-3",
            f"{prefix}基本威力/base power ({rule}) 威力/Rating {rating}{how} ＞ 2D6={total}"
            f"[{','.join(map(str, result.values))}] ＞ {found}",
            roll=result,
            member=who or None,
            data={"rating": rating, "roll": total, "value": value},
        )
        return value

    def pick(self, rule: str, what: str, names: Sequence[str], none: str) -> None:
        """One of the player's ``names`` (EV-MON-1, EV-EXP-4 Defaults), by a 1Dn when
        there are n of them; ``none`` says what happens when the list has none."""
        if not names:
            self.add(rule, none)
            return
        if len(names) == 1:
            self.add(rule, f"{what}: {names[0]} (the only one in your list)",
                     data={"picked": names[0]})
            return
        result = roll(f"1D{len(names)}", self.source, purpose=f"{what} from your list")
        picked = names[result.total - 1]
        self.add(rule, f"{what} from your list: {result.text} ＞ {picked}", roll=result,
                 data={"picked": picked})

    def change_pools(self, member: Member, **changes: int | None) -> tuple[str, dict[str, int]]:
        """``member``'s pools after ``changes`` (``hp=-4``, ``mp=2``), kept for the rest of
        the walk (EV-TRAP-2/7 damage, EV-REC-1 recovery): what to say after the change
        ("; HP 20 → 16/25") and the values after it for the step's data (``hp_after``). A
        pool the party file does not give, or a change not known (base power "?"), is left
        out: the walk takes the current values and returns the changes, which the caller
        keeps."""
        pools = self.pools.get(member.name, {})
        said, after = [], {}
        for pool, change in changes.items():
            if change is None or pool not in pools:
                continue
            before = pools[pool]
            pools[pool] = before + change
            most = getattr(member, f"max_{pool}")
            moved = f"{before} → " if change else ""
            said.append(f"{pool.upper()} {moved}{pools[pool]}{f'/{most}' if most else ''}")
            after[f"{pool}_after"] = pools[pool]
        return (f"; {', '.join(said)}" if said else ""), after

    def need_party(self) -> None:
        if self.sw and not self.party:
            raise NoParty("sw mode needs the party: give a party TOML file of [[member]] tables "
                          "(companion events TABLE --party FILE, or saved as events_party.toml "
                          "in the config folder)")


class _Deeper:
    """``with run.deeper():`` indents the steps added inside."""

    def __init__(self, run: _Walk) -> None:
        self.run = run

    def __enter__(self) -> None:
        self.run.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.run.depth -= 1
