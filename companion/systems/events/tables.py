"""System `events`: the 1D6 dungeon event tables of seed 001 and their follow-ups (spec §1).

:func:`run_event` rolls one table with an injected DiceSource and walks its
follow-ups, returning an :class:`EventReport` of structured :class:`Step` s (for a
screen) that also prints as text. In ``generic`` mode it rolls the tables and
states the target and countermeasure, leaving checks to the GM; in ``sw`` mode it
also rolls the Sword World checks for the party (EV-CORE-2).

The tables, checks and Defaults it walks are the rules data of
:mod:`companion.systems.events.rules`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.dice.notation import Comparison, Rounding
from companion.dice.result import Result
from companion.dice.roll import RollOptions, roll
from companion.dice.sources import DiceSource
from companion.dice.tables import TableRow
from companion.errors import DataError
from companion.systems.events.rules import (
    EVENT_TABLES,
    FULL_WIDTH_DIGITS,
    EventRules,
    Mode,
    NoParty,
    load_rules,
)
from companion.systems.events.sword_world import (
    ABILITY_NAMES,
    CheckRules,
    Member,
    RatingTable,
    check_bonus,
    sw_check,
)

# --- results ---------------------------------------------------------------------


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
    """Everything one ``run_event`` produced, in order."""

    system: str
    table: str
    mode: Mode
    dm_level: int
    steps: tuple[Step, ...]

    @property
    def text(self) -> str:
        return "\n".join(f"{'  ' * s.depth}{s.rule}  {s.text}" for s in self.steps)

    def rules(self) -> list[str]:
        """The rule IDs the walk went through, in order (each once)."""
        return list(dict.fromkeys(s.rule for s in self.steps))

    def find(self, rule: str) -> list[Step]:
        return [s for s in self.steps if s.rule == rule]

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "table": self.table,
            "mode": self.mode.value,
            "dm_level": self.dm_level,
            "text": self.text,
            "steps": [s.to_json() for s in self.steps],
        }


@dataclass(frozen=True)
class Poison:
    """A poison on one character (EV-POI-1..3, 8).

    ``hours_left`` is None when the poison lasts until cured (effects 4–5 end by
    damage instead; a permanent EV-POI-12 effect never ends).
    """

    face: int
    rule: str
    toxicity: int
    hours_left: int | None
    damage_max: int = 0
    damage_done: int = 0

    def tick(self, hours_per_tick: int = 1) -> tuple[Poison | None, int]:
        """EV-POI-2: one update; returns the poison after it (None once over) and HP lost.

        EV-POI-8: a vitality-damage poison deals 1 HP per tick until it has dealt
        its maximum, then ends.
        """
        if self.damage_max:
            done = self.damage_done + 1
            after = None if done >= self.damage_max else replace(self, damage_done=done)
            return after, 1
        if self.hours_left is None:
            return self, 0
        left = self.hours_left - hours_per_tick
        return (replace(self, hours_left=left) if left > 0 else None), 0


def afflict(current: Poison | None, new: Poison) -> Poison:
    """EV-POI-3: poisons do not stack; a new one replaces the old, duration and toxicity too."""
    return new


# --- the walk --------------------------------------------------------------------


class _Run:
    """One walk through a table and its follow-ups, collecting steps."""

    def __init__(
        self,
        rules: EventRules,
        source: DiceSource,
        mode: Mode,
        dm_level: int | None,
        party: Sequence[Member],
        rating_table: RatingTable | None,
    ) -> None:
        self.rules = rules
        self.s = rules.settings
        self.book = rules.source
        self.source = source
        self.mode = mode
        self.dm_tag = self.s.tag("EV-CORE-1", "dm_level") if dm_level is None else ""
        self.dm = self.s["EV-CORE-1", "dm_level"] if dm_level is None else dm_level
        self.party = tuple(party)
        self.rating_table = rating_table
        self.steps: list[Step] = []
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
        return step

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

    def table_roll(self, key: str) -> tuple[Result, TableRow]:
        table = self.rules.tables[key]
        return table.roll_on(self.source)

    def check(
        self, rule: str, key: str, member: Member, extra: int = 0, note: str = ""
    ) -> Result:
        """EV-CORE-2 for one member; a member without the class makes a flat roll."""
        spec = self.rules.checks[key]
        target, target_text = self.fixed(spec.fixed)
        bonus = check_bonus(member, spec, self.check_rules)
        how = ""
        if bonus is None:
            bonus = 0
            how = " 平目/flat roll"
        result = sw_check(self.source, bonus + extra, target, self.check_rules,
                          purpose=f"{member.name}: {spec.label()}{how}")
        self.add(
            rule,
            f"{member.name}: {spec.label()}{how}{note} vs {target_text} {result.text}",
            roll=result,
            member=member.name,
        )
        return result

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

    def check_prompt(self, rule: str, key: str, who: str, after: str) -> None:
        """Generic mode: name the check and target; the GM resolves it."""
        spec = self.rules.checks[key]
        _, target_text = self.fixed(spec.fixed)
        self.add(rule, f"{who}: {spec.label()} vs {target_text} — GM resolves; {after}")

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

    def base_power(self, rule: str, rating: int, who: str = "") -> int | None:
        """EV-CORE-3: roll 2D6 at a rating and read the user's table, else ask the GM."""
        owner = f"{who}: " if who else ""
        result = roll("2D6", self.source,
                      purpose=f"{owner}base power 基本威力 (rating 威力 {rating}, {rule})")
        total = result.total
        value = self.rating_table.lookup(rating, total) if self.rating_table else None
        found = "(look up) ＞ ?" if value is None else str(value)
        prefix = f"{who}: " if who else ""
        self.add(
            "EV-CORE-3",
            f"{prefix}基本威力/base power ({rule}) 威力/Rating {rating} ＞ 2D6={total}"
            f"[{','.join(map(str, result.values))}] ＞ {found}",
            roll=result,
            member=who or None,
            data={"rating": rating, "roll": total, "value": value},
        )
        return value

    def trap_damage(
        self, member: Member, value: int | None, fumbled: bool, armor: int = 0
    ) -> None:
        """EV-TRAP-2: base power as is, minus armor, minus adventurer level unless １ゾロ."""
        level = 0 if fumbled or not self.s["EV-TRAP-2", "level_reduction"] else member.adventurer
        why = " (１ゾロ: full damage)" if fumbled else self.s.tag("EV-TRAP-2", "level_reduction")
        if value is None:
            self.add(
                "EV-TRAP-2",
                f"{member.name}: damage ? − armor {armor} − Lv {level}{why} "
                "— GM looks up the rating",
                member=member.name,
            )
            return
        damage = max(0, value - armor - level)
        self.add(
            "EV-TRAP-2",
            f"{member.name}: {value} − armor {armor} − Lv {level}{why} ＞ {damage} damage",
            member=member.name,
            data={"hp": -damage},
        )

    def need_party(self) -> None:
        if self.sw and not self.party:
            raise NoParty("sw mode needs the party: give a party TOML file of [[member]] tables "
                          "(companion events --party FILE)")

    def individual_prompt(self) -> str:
        """EV-TRAP-2 in generic mode: who an individual trap hits, as the setting says."""
        how = self.s["EV-TRAP-2", "individual"]
        who = "the disarmer" if how == "disarmer" else "a random member"
        return f"one member ({who}{self.s.tag('EV-TRAP-2', 'individual')})"

    def individual(self, disarmer: Member | None) -> Member:
        """EV-TRAP-2: an individual trap hits the disarmer, or a random member (toggle)."""
        how = self.s["EV-TRAP-2", "individual"]
        tag = self.s.tag("EV-TRAP-2", "individual")
        if how == "random" or disarmer is None:
            if len(self.party) == 1:
                return self.party[0]
            result = roll(f"1D{len(self.party)}", self.source, purpose="who is hit 対象")
            member = self.party[result.total - 1]
            why = "random member" if how == "random" else "no disarmer: random member"
            self.add("EV-TRAP-2", f"対象/target ({why}{tag}): {result.text} ＞ {member.name}",
                     roll=result, member=member.name)
            return member
        self.add("EV-TRAP-2", f"対象/target: the disarmer {disarmer.name}{tag}",
                 member=disarmer.name)
        return disarmer

    # -- doors and chests --

    def door(self, chest: bool) -> None:
        """EV-DOOR-1 to EV-DOOR-5."""
        self.need_party()
        table = self.rules.tables["door"]
        result, row = self.table_roll("door")
        self.add("EV-DOOR-1", f"{table.title}: {result.text} ＞ {row['ja']}/{row['en']}",
                 roll=result, data={"trap": row["trap"], "lock": row["lock"]})
        ruined = False
        with self.deeper():
            pre_rolled = None
            if row["trap"] and self.s["EV-DOOR-3", "enabled"]:
                self.add("EV-DOOR-3", "Option on: roll the trap type before disarming")
                with self.deeper():
                    pre_rolled = self.trap_table()[1]
            order = ["trap", "lock"] if self.s["EV-DOOR-2", "trap_first"] else ["lock", "trap"]
            for what in order:
                if what == "trap" and row["trap"]:
                    ruined = self.disarm(pre_rolled, chest)
                elif what == "lock" and row["lock"]:
                    self.unlock()
            if chest:
                text = ("宝箱の中には？/Chest contents: the table is missing in the source; "
                        "the GM types them in")
                if ruined:
                    text += " — 中身は損傷/contents RUINED by the explosion (EV-TRAP-3)"
                elif row["trap"] and not self.sw:
                    # Generic mode leaves the disarm to the GM, so whether the contents
                    # survive is not known here: say when they would not.
                    if pre_rolled is None:
                        text += " — ruined if the trap that fires is an explosion (EV-TRAP-3)"
                    elif pre_rolled["kind"] == "explosion":
                        text += " — ruined if the disarm fails: the explosion fires (EV-TRAP-3)"
                self.add("EV-DOOR-5", text, data={"ruined": ruined})

    def disarm(self, pre_rolled: TableRow | None, chest: bool) -> bool:
        """EV-DOOR-2: disarm against the fixed roll; failure sets the trap off. True if ruined."""
        self.add("EV-DOOR-2", "罠あり/Trap present: anyone with Thief can see it "
                 "(trap finding is skipped in the simple rules)")
        if not self.sw:
            if pre_rolled is None:
                fires = "roll the trap table (companion events trap)"
            else:
                # EV-DOOR-3: the trap rolled above is the one that fires; a plain
                # `events trap` would roll a new type, so name the trap to resolve.
                fires = (f"the {pre_rolled['en']} rolled above fires, no second roll "
                         f"(EV-DOOR-3): companion events trap --trap {pre_rolled['kind']}")
            self.check_prompt("EV-DOOR-2", "disarm", "one character", f"on failure {fires}")
            return False
        thief_only = self.s["EV-DOOR-2", "thief_only"]
        candidates = [m for m in self.party if m.thief > 0] if thief_only else list(self.party)
        member = self.best("disarm", candidates) or (candidates[0] if candidates else None)
        if member is None:
            self.add("EV-DOOR-2", "No one with a Thief level may try"
                     f"{self.s.tag('EV-DOOR-2', 'thief_only')}: the trap stays armed")
            return False
        result = self.check("EV-DOOR-2", "disarm", member,
                            note=f" (best Thief + DEX{self.s.tag('EV-DOOR-2', 'thief_only')})")
        if result.success:
            self.add("EV-DOOR-2", "罠解除/Trap disarmed")
            return False
        self.add("EV-DOOR-2", "罠発動/TRAP TRIGGERED → trap table")
        with self.deeper():
            return self.trap(disarmer=member, chest=chest, pre_rolled=pre_rolled)

    def unlock(self) -> None:
        """EV-DOOR-2 lock opening; a failure goes to EV-DOOR-4."""
        retries = self.s["EV-DOOR-4", "retries"]
        go_home = ("鍵が開かない/Lock holds ＞ 帰れ！/Go home! — locked: cannot open "
                   f"({retries} retries{self.s.tag('EV-DOOR-4', 'retries')}; "
                   "the GM may override)")
        if not self.sw:
            tries = f"; {retries} retries{self.s.tag('EV-DOOR-4', 'retries')}" if retries else ""
            self.check_prompt("EV-DOOR-2", "unlock", "one character",
                              f"on failure → EV-DOOR-4 (帰れ！/Go home!{tries})")
            return
        thief_only = self.s["EV-DOOR-2", "thief_only"]
        candidates = [m for m in self.party if m.thief > 0] if thief_only else list(self.party)
        member = self.best("unlock", candidates) or (candidates[0] if candidates else None)
        if member is None:
            self.add("EV-DOOR-2", "No one with a Thief level may try to open the lock"
                     f"{self.s.tag('EV-DOOR-2', 'thief_only')}")
            self.add("EV-DOOR-4", go_home, data={"locked": True})
            return
        for attempt in range(1 + retries):
            rule = "EV-DOOR-2" if attempt == 0 else "EV-DOOR-4"
            if self.check(rule, "unlock", member, note=" (best Thief + DEX)").success:
                self.add(rule, "解錠/Unlocked", data={"locked": False})
                return
        self.add("EV-DOOR-4", go_home, data={"locked": True})

    # -- traps --

    def trap_table(self, named: str | None = None) -> tuple[Result | None, TableRow]:
        """EV-TRAP-1: roll the trap table, or take the row of a trap already named.

        A named trap (its kind, ``named``) is one rolled earlier, before a disarm
        (EV-DOOR-3), that now fires: it is shown with its row but not rolled again.
        """
        table = self.rules.tables["trap"]
        result: Result | None = None
        if named is None:
            result, row = self.table_roll("trap")
            how = result.text
        else:
            row = trap_row(self.rules, named)
            how = f"{named} (named, no roll: EV-DOOR-3)"
        counter = f"{row['target_ja']}／{row['counter_ja']}".rstrip("／")
        self.add(
            "EV-TRAP-1",
            f"{table.title}: {how} ＞ {row['ja']}/{row['en']} — "
            f"対象／対処法 {counter} (target {row['target']}, counter {row['counter']}); "
            f"失敗／成功 {row['outcome_ja']}/{row['outcome_en']}",
            roll=result,
            data={"kind": row["kind"], "target": row["target"], "counter": row["counter"]},
        )
        return result, row

    def trap(
        self,
        disarmer: Member | None = None,
        chest: bool = False,
        pre_rolled: TableRow | None = None,
        named: str | None = None,
    ) -> bool:
        """EV-TRAP-1 and its follow-ups; True when an explosion ruined a chest's contents.

        ``pre_rolled`` is the row EV-DOOR-3 rolled before this walk's disarm; ``named``
        is the kind of a trap rolled before in another run (``companion events trap --trap``).
        """
        self.need_party()
        if pre_rolled is None:
            _, row = self.trap_table(named)
        else:
            row = pre_rolled
            self.add("EV-TRAP-1", f"The trap rolled before fires: {row['ja']}/{row['en']}")
        with self.deeper():
            kind = row["kind"]
            if kind == "explosion":
                return self.explosion(chest)
            if kind in ("poison_gas", "poison_needle"):
                self.poison_trap(row, disarmer)
            elif kind == "arrow":
                self.arrow(disarmer)
            elif kind == "alarm":
                self.alarm()
            else:
                self.pit()
        return False

    def explosion(self, chest: bool) -> bool:
        """EV-TRAP-3: each member resists with vitality; success lowers the rating by 10."""
        rating, rating_text = self.rating()
        drop = self.book["EV-TRAP-3"]["rating_drop"]
        floor = self.s["EV-TRAP-3", "rating_floor"]
        low = max(floor, rating - drop)
        if not self.sw:
            self.check_prompt("EV-TRAP-3", "vitality", self.party_prompt(),
                              f"failure: base power at rating {rating} ({rating_text}); "
                              f"success: rating {low} (−{drop})")
        else:
            for member, result in self.party_checks("EV-TRAP-3", "vitality"):
                used = low if result.success else rating
                with self.deeper():
                    value = self.base_power("EV-TRAP-3", used, member.name)
                    self.trap_damage(member, value, result.fumble)
        if chest:
            self.add("EV-TRAP-3", "宝箱の中身は損傷/the chest's contents are ruined",
                     data={"ruined": True})
        return chest

    def poison_trap(self, row: TableRow, disarmer: Member | None) -> None:
        """EV-TRAP-4: gas hits the party, the needle one member; failing vitality → poison."""
        if not self.sw:
            who = self.party_prompt() if row["target"] == "party" else self.individual_prompt()
            self.check_prompt("EV-TRAP-4", "poison_resist", who,
                              "failure: poisoned → poison table (companion events poison)")
            return
        if row["target"] == "party":
            checks = self.party_checks("EV-TRAP-4", "poison_resist")
        else:
            member = self.individual(disarmer)
            checks = iter([(member, self.check("EV-TRAP-4", "poison_resist", member))])
        for member, result in checks:
            if result.success:
                self.add("EV-TRAP-4", f"{member.name}: 何もなし/nothing happens")
                continue
            self.add("EV-TRAP-4", f"{member.name}: 毒/POISONED → poison table")
            with self.deeper():
                self.poison(member)

    def arrow(self, disarmer: Member | None) -> None:
        """EV-TRAP-5 (and EV-TRAP-8 when on): evade or take base power; armor counts."""
        rating, rating_text = self.rating()
        if not self.sw:
            self.check_prompt("EV-TRAP-5", "evasion", self.individual_prompt(),
                              f"failure: base power at rating {rating} ({rating_text}), "
                              "armor counts; no evasion → flat roll")
            return
        if self.s["EV-TRAP-8", "enabled"]:
            self.add("EV-TRAP-8", "Option on: members dodge in marching order until one is hit")
            order: Sequence[Member] = self.party
        else:
            order = (self.individual(disarmer),)
        for member in order:
            shield = 0
            if member is not disarmer and self.s["EV-TRAP-5", "shield_for_non_disarmer"]:
                shield = member.shield
            note = f" + shield {shield}{self.s.tag('EV-TRAP-5', 'shield_for_non_disarmer')}" \
                if shield else ""
            result = self.check("EV-TRAP-5", "evasion", member, extra=shield, note=note)
            if result.success:
                self.add("EV-TRAP-5", f"{member.name}: ダメージ無し/no damage")
                continue
            with self.deeper():
                value = self.base_power("EV-TRAP-5", rating, member.name)
                self.trap_damage(member, value, result.fumble, armor=member.armor)
            return
        if self.s["EV-TRAP-8", "enabled"]:
            # EV-TRAP-8: the walk ends on a hit, so reaching here means the arrow missed all.
            self.add("EV-TRAP-8", "全員回避/Everyone dodged: no one is hit", data={"hit": None})

    def alarm(self) -> None:
        """EV-TRAP-6: roll the monster table; they arrive after one combat turn."""
        self.add("EV-TRAP-6", "警報/ALARM! Monsters arrive after 1 combat turn "
                 "(countdown: 1 turn to prepare)", data={"countdown": 1})
        with self.deeper():
            self.monster()

    def pit(self) -> None:
        """EV-TRAP-7: each member dodges (adventurer Lv + AGI); fallers drop 1/2D m."""
        per_metre = self.book["EV-TRAP-7"]["damage_per_metre"]
        if not self.sw:
            self.check_prompt("EV-TRAP-7", "pit", self.party_prompt(),
                              f"failure: falls 1/2D m; damage (m − Thief Lv) × {per_metre}, "
                              "minus armor and adventurer Lv")
            return
        fallers = []
        for member, result in self.party_checks("EV-TRAP-7", "pit"):
            if result.failure:
                fallers.append((member, result.fumble))
        own_thief = self.s["EV-TRAP-7", "own_thief_level"]
        depth: int | None = None
        for member, fumbled in fallers:
            if depth is None or not self.s["EV-TRAP-7", "one_depth_roll"]:
                depth_roll = roll("1/2D", self.source, self.options,
                                  purpose="fall depth 落下の深さ (m)")
                depth = depth_roll.total
                self.add("EV-CORE-4",
                         f"落下/fall depth (one roll per pit"
                         f"{self.s.tag('EV-TRAP-7', 'one_depth_roll')}): {depth_roll.text} m",
                         roll=depth_roll, data={"metres": depth})
            thief = member.thief if own_thief else max(m.thief for m in self.party)
            metres = max(0, depth - thief)
            raw = metres * per_metre
            level = 0 if fumbled else member.adventurer
            damage = max(0, raw - member.armor - level)
            self.add(
                "EV-TRAP-7",
                f"{member.name}: Fall {depth} m − Thief {thief} = {metres} m × {per_metre}"
                f" = {raw} − armor {member.armor} − Lv {level}"
                f"{' (１ゾロ)' if fumbled else ''} ＞ {damage} damage",
                member=member.name,
                data={"hp": -damage},
            )

    # -- monsters, exploration, recovery --

    def monster(self) -> None:
        """EV-MON-1: monster level relative to DM Lv, and how many."""
        table = self.rules.tables["monster"]
        result, row = self.table_roll("monster")
        offset = row["level"]
        if row["count"] == "1":
            count, count_roll = 1, None
        else:
            count_roll = roll(row["count"], self.source, self.options,
                              purpose=f"how many monsters 何体 ({row['count']})")
            count = count_roll.total
        shown = f" ＞ {row['count']}: {count_roll.text}" if count_roll else ""
        sign = f"+ {offset}" if offset else "± 0"
        self.add(
            "EV-MON-1",
            f"{table.title}: {result.text} ＞ {row['ja']}{shown} ＞ "
            f"{count} × level-{self.dm + offset} monster{'s' if count > 1 else ''} "
            f"(DM Lv {self.dm}{self.dm_tag} {sign}); the GM picks the species",
            roll=result,
            data={"level": self.dm + offset, "count": count,
                  "count_roll": count_roll.to_json() if count_roll else None},
        )

    def explore(self) -> None:
        """EV-EXP-1 and its follow-ups EV-EXP-2..4."""
        self.need_party()
        table = self.rules.tables["explore"]
        result, row = self.table_roll("explore")
        self.add("EV-EXP-1", f"{table.title}: {result.text} ＞ {row['ja']}/{row['en']}",
                 roll=result)
        with self.deeper():
            {"EV-EXP-2": self.hidden_exit, "EV-EXP-3": self.magic_exit,
             "EV-EXP-4": self.bonus_room}[row["follow"]]()

    def hidden_exit(self) -> None:
        """EV-EXP-2: Search (Thief + INT) against the fixed roll; each member once."""
        tag = self.s.tag("EV-EXP-2", "each_member_once")
        if not self.sw:
            if self.s["EV-EXP-2", "each_member_once"]:
                who, fail = f"each member once{tag}", "if all fail"
            else:
                who, fail = f"the best searcher (Thief + INT) only, once{tag}", "on failure"
            self.check_prompt("EV-EXP-2", "search", who,
                              f"{fail}: exit not found (the GM decides)")
            return
        best = self.best("search") or self.party[0]
        searchers = self.party if self.s["EV-EXP-2", "each_member_once"] else (best,)
        for member in searchers:
            result = self.check("EV-EXP-2", "search", member)
            if result.success:
                self.add("EV-EXP-2", f"出口発見/Exit found by {member.name}",
                         data={"exit_found": True})
                return
        self.add("EV-EXP-2", f"出口が見つからない/Exit not found (each tried once{tag}); "
                 "the GM decides", data={"exit_found": False})

    def magic_exit(self) -> None:
        """EV-EXP-3: the exit is under Lock; cast Unlock against the fixed roll (sw)."""
        if not self.sw:
            _, target_text = self.fixed("unlock_spell")
            self.add("EV-EXP-3", "出口が魔法で閉ざされている/The exit is hidden or sealed by "
                     f"magic: the GM sets a low-level magic puzzle (SW: Unlock vs {target_text})")
            return
        caster = self.best("unlock_spell", [m for m in self.party if m.sorcerer > 0])
        if caster is None:
            self.add("EV-EXP-3", "No Sorcerer in the party to cast Unlock: the GM decides")
            return
        result = self.check("EV-EXP-3", "unlock_spell", caster, note=" (ロック/Lock on the exit)")
        found = ("出口が開いた/Exit opened" if result.success
                 else "出口は閉ざされたまま/Exit stays sealed")
        self.add("EV-EXP-3", found, data={"exit_found": result.success})

    def bonus_room(self) -> None:
        """EV-EXP-4: the exit is open; one successful appraisal gives 1D6 items of one kind."""
        self.add("EV-EXP-4", "出口は隠されていない/The exit is open")
        if not self.sw:
            self.check_prompt("EV-EXP-4", "appraise", "anyone (one success is enough)",
                              "on success: one kind of small recovery item ×1D6")
            return
        for member in self.party:
            result = self.check("EV-EXP-4", "appraise", member)
            if result.success:
                count = roll("1D6", self.source, purpose="how many items 個数")
                self.add(
                    "EV-EXP-4",
                    f"報酬：小回復アイテム/small recovery items {count.text} ＞ ×{count.total} "
                    "(one kind; the list is missing in the source, the GM names it)",
                    roll=count, data={"items": count.total},
                )
                return
        self.add("EV-EXP-4", "Nothing useful found", data={"items": 0})

    def recovery(self) -> None:
        """EV-REC-1..3: poison cured, HP and MP recover base power, once per room."""
        if self.s["EV-REC-2", "enabled"]:
            rating = self.book["EV-REC-2"]["rating"]
            bonus = max(self.book["EV-REC-2"]["bonus_minimum"], self.dm - 1)
            rating_text = f"fixed rating {rating} + bonus {bonus} (EV-REC-2 option)"
        else:
            per = self.book["EV-REC-1"]["rating_per_dm_level"]
            rating, rating_text = self.dm * per, f"DM Lv {self.dm} × {per}"
            bonus = 0
        tag = self.s.tag("EV-REC-1", "all_members")
        everyone = self.s["EV-REC-1", "all_members"]
        if self.sw:
            self.need_party()
            who = self.party if everyone else self.party[:1]
        else:
            who = (Member("each member" if everyone else "one member"),)
        self.add("EV-REC-1", f"回復/Recovery spot: poison cured; HP and MP recover base power "
                 f"at rating {rating} ({rating_text}); "
                 f"{'every member present' if everyone else 'the first member only'}{tag}",
                 data={"cure_poison": True})
        with self.deeper():
            for member in who:
                gains = []
                for pool in ("hp", "mp"):
                    value = self.base_power("EV-REC-1", rating, f"{member.name} {pool.upper()}")
                    gains.append(None if value is None else value + bonus)
                hp, mp = gains
                capped = ""
                if self.sw and self.s["EV-REC-1", "cap_at_maximum"]:
                    hp, mp, capped = self.recovery_cap(member, hp, mp)
                shown = [("?" if g is None else f"+{g}") for g in (hp, mp)]
                self.add("EV-REC-1", f"{member.name}: HP {shown[0]}, MP {shown[1]}{capped}",
                         member=member.name if self.sw else None, data={"hp": hp, "mp": mp})
        self.add("EV-REC-1", "この部屋は使用済み/room now used: coming back gives nothing",
                 data={"room_used": True})
        self.add("EV-REC-3", "安全地帯/Safe zone: no random encounters here, even after use")

    def recovery_cap(
        self, member: Member, hp: int | None, mp: int | None
    ) -> tuple[int | None, int | None, str]:
        """EV-REC-1 Default: each pool stops at its own maximum, where one is given.

        A maximum of 0 is "not given" (the party file may leave it out), so that pool is
        uncapped. A gain is never negative: a pool already full gains nothing.
        """
        gains = {"hp": hp, "mp": mp}
        caps = []
        for pool, gain in gains.items():
            most = getattr(member, f"max_{pool}")
            if not most:
                continue
            caps.append(f"{pool.upper()} {most}")
            if gain is not None:
                gains[pool] = max(0, min(gain, most - getattr(member, pool)))
        tag = self.s.tag("EV-REC-1", "cap_at_maximum")
        text = f" (capped at maximum {', '.join(caps)}{tag})" if caps else ""
        return gains["hp"], gains["mp"], text

    # -- poison --

    def poison(self, victim: Member | None = None) -> None:
        """EV-POI-4 and the effect it names (EV-POI-5..9), with EV-POI-1..3."""
        table = self.rules.tables["poison"]
        result, row = self.table_roll("poison")
        face = result.total
        self.add("EV-POI-4", f"{table.title}: {result.text} ＞ {row['ja']}/{row['en']} — "
                 f"{row['name_ja']}/{row['name_en']}, {row['type_ja']}/{row['type_en']}",
                 roll=result, member=victim.name if victim else None)
        toxicity, tox_text = self.fixed("toxicity")
        with self.deeper():
            self.add("EV-POI-1", f"「魔法」の毒/magical poison; 毒性値/toxicity {tox_text}; "
                     f"resist with 生命力/vitality; cured by Cure Poison vs toxicity")
            self.identify()
            hours: int | None = None
            damage_max = 0
            permanent = (row["follow"] in ("EV-POI-6", "EV-POI-7")
                         and self.s["EV-POI-12", "enabled"])
            if row["follow"] == "EV-POI-8":
                damage_max = self.vitality_damage()
            elif permanent:
                self.add("EV-POI-12", "Option on: this effect is permanent")
            else:
                duration = roll(self.book["EV-POI-1"]["duration"], self.source,
                                purpose="duration 効果持続時間 (hours)")
                hours = duration.total
                self.add("EV-POI-1", f"効果持続時間/duration {duration.text} hours",
                         roll=duration, data={"hours": hours})
            effects = {"EV-POI-5": self.check_penalty, "EV-POI-6": self.gender_swap,
                       "EV-POI-7": self.love_potion, "EV-POI-9": self.ability_change}
            if row["follow"] in effects:
                effects[row["follow"]]()
            poison = Poison(face, row["follow"], toxicity, hours, damage_max)
            self.add("EV-POI-3", "Replaces any current poison (poisons do not stack)",
                     member=victim.name if victim else None,
                     data={"poison": {"face": poison.face, "rule": poison.rule,
                                      "toxicity": poison.toxicity, "hours": poison.hours_left,
                                      "damage_max": poison.damage_max}})
            self.add("EV-POI-2", "Ticks at the end of each block, or every hour of rest "
                     f"({self.s['EV-POI-2', 'hours_per_tick']} h per tick"
                     f"{self.s.tag('EV-POI-2', 'hours_per_tick')})")

    def identify(self) -> None:
        """EV-POI-1: 知名度/identify the poison with 薬品学 (pharmacology, Sage + 知識) vs the
        fixed roll: rolled for the best Sage in sw mode, put to the GM in generic mode."""
        if not self.sw:
            ability = self.s["EV-CORE-2", "knowledge_ability"]
            knowledge = (f"知識/knowledge = {'・'.join(ABILITY_NAMES[ability])}"
                         f"{self.s.tag('EV-CORE-2', 'knowledge_ability')}")
            self.check_prompt("EV-POI-1", "pharmacology", f"a Sage ({knowledge})",
                              "知名度/identify: success names the poison above")
            return
        sage = self.best("pharmacology", [m for m in self.party if m.sage > 0])
        if sage is None:
            self.add("EV-POI-1", "知名度/identify: no Sage in the party")
        else:
            self.check("EV-POI-1", "pharmacology", sage, note=" 知名度/identify")

    def check_penalty(self) -> None:
        """EV-POI-5: −1 to all checks; an active action needs a vitality check, and is at −1.

        Whether the action's −1 adds to the general −1 is a Default (no).
        """
        _, tox_text = self.fixed("toxicity")
        penalty = self.book["EV-POI-5"]["penalty"]
        stack = self.s["EV-POI-5", "stack"]
        action = 2 * penalty if stack else penalty
        how = "stacks" if stack else "does not stack"
        zenkaku = str(penalty).translate(FULL_WIDTH_DIGITS)
        self.add("EV-POI-5", f"判定－{zenkaku}/−{penalty} to all checks; an active action needs a "
                 f"vitality check vs toxicity {tox_text}, and is still at −{penalty} "
                 f"(−{action} in all: {how}{self.s.tag('EV-POI-5', 'stack')})",
                 data={"penalty": -penalty, "action_penalty": -action})

    def gender_swap(self) -> None:
        """EV-POI-6."""
        self.add("EV-POI-6", "異性化/Gender swap in body and mind: no penalty; "
                 "spirit-shaman magic is unaffected")

    def love_potion(self) -> None:
        """EV-POI-7."""
        self.add("EV-POI-7", "惚れ薬/Love potion: passionately loves the next being seen "
                 "(any race or sex); the GM is reminded")

    def vitality_damage(self) -> int:
        """EV-POI-8: the poison's maximum is 1D6 points, dealt 1 HP per tick."""
        maximum = roll(self.book["EV-POI-8"]["maximum"], self.source,
                       purpose="the poison's maximum damage 最大値")
        cure = ("HP lost to it heals only once the poison is cured (EV-POI-10 option)"
                if self.s["EV-POI-10", "enabled"] else "HP lost heals with Cure Wounds")
        curse = (f"; 呪い/curse: Remove Curse also removes it{self.s.tag('EV-POI-11', 'enabled')}"
                 if self.s["EV-POI-11", "enabled"] else "")
        self.add("EV-POI-8", f"最大値/maximum {maximum.text}: Poison: 0 HP lost "
                 f"(0/{maximum.total}); 1 HP per tick; {cure}{curse}",
                 roll=maximum, data={"damage_max": maximum.total})
        return maximum.total

    def ability_change(self) -> None:
        """EV-POI-9: one random ability ±6 (die, abilities and sign are Defaults)."""
        dice = self.s["EV-POI-9", "ability_die"]
        abilities = self.s["EV-POI-9", "abilities"]
        which = roll(dice, self.source, purpose="which ability 能力値")
        sign_roll = roll(self.s["EV-POI-9", "sign_die"], self.source,
                         purpose="plus or minus ± (odd −, even +)")
        change = self.book["EV-POI-9"]["change"]
        delta = -change if sign_roll.total % 2 else change
        ability = abilities[which.total - 1]
        ja, en = ABILITY_NAMES[ability]
        # The ability shown comes from the die and the order on it: it is the packaged
        # Default only while the user has changed neither.
        tag = self.s.tag("EV-POI-9", "ability_die") and self.s.tag("EV-POI-9", "abilities")
        sign_tag = self.s.tag("EV-POI-9", "sign_die")
        self.add("EV-POI-9", f"能力値±６/Ability ±{change}: {which.text} ＞ {ja}/{en}{tag}; "
                 f"{sign_roll.text} ＞ {delta:+d} (odd −, even +{sign_tag}); never below "
                 f"{self.book['EV-POI-9']['minimum']}; derived values: GM",
                 data={"ability": ability, "change": delta})


def trap_row(rules: EventRules, kind: str) -> TableRow:
    """The EV-TRAP-1 row of a trap kind (``explosion``, ``pit``…), or a DataError naming them."""
    rows = rules.tables["trap"].rows
    for row in rows:
        if row["kind"] == kind:
            return row
    raise DataError(f"no trap {kind!r}; choose from {', '.join(r['kind'] for r in rows)}")


class _Deeper:
    """``with run.deeper():`` indents the steps added inside."""

    def __init__(self, run: _Run) -> None:
        self.run = run

    def __enter__(self) -> None:
        self.run.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.run.depth -= 1


def run_event(
    table: str,
    source: DiceSource,
    *,
    rules: EventRules | None = None,
    mode: Mode | str | None = None,
    dm_level: int | None = None,
    party: Sequence[Member] = (),
    rating_table: RatingTable | None = None,
    trap: str | None = None,
) -> EventReport:
    """Roll one event table (a key of EVENT_TABLES) and walk its follow-ups.

    ``mode`` and ``dm_level`` default to the rules data's Defaults (§1, EV-CORE-1).
    ``trap`` names the trap kind for the ``trap`` table instead of rolling it: the trap a
    door or chest rolled before its disarm (EV-DOOR-3), which fires without a second roll.
    """
    if table not in EVENT_TABLES:
        raise DataError(f"no event table {table!r}; choose from {', '.join(EVENT_TABLES)}")
    rules = rules or load_rules()
    if trap is not None:
        if table != "trap":
            raise DataError(f"a trap kind ({trap!r}) goes with the trap table, not {table!r}")
        trap_row(rules, trap)
    chosen = Mode(mode or rules.settings["§1", "mode"])
    if dm_level is not None and dm_level < 1:
        raise DataError(f"DM level must be 1 or more, not {dm_level}")
    run = _Run(rules, source, chosen, dm_level, party, rating_table)
    victim = party[0] if party and chosen is Mode.SW else None
    match table:
        case "door" | "chest":
            run.door(chest=table == "chest")
        case "trap":
            run.trap(named=trap)
        case "monster":
            run.monster()
        case "explore":
            run.explore()
        case "recovery":
            run.recovery()
        case "poison":
            run.need_party()
            run.poison(victim)
    return EventReport(rules.title, table, chosen, run.dm, tuple(run.steps))
