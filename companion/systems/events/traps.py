"""System `events`: the trap table and what each trap does (spec §1).

:func:`trap_row` finds a trap's row by its kind. :class:`_TrapWalk`, the layer of the walk
over :class:`~companion.systems.events.poison._PoisonWalk`, rolls the trap table or takes
a trap named before its disarm (EV-TRAP-1, EV-DOOR-3), says whom an individual trap hits
and the damage a trap does (EV-TRAP-2), and springs it: an explosion (EV-TRAP-3), poison
gas or a poison needle (EV-TRAP-4, on to the poison table), an arrow (EV-TRAP-5, with the
EV-TRAP-8 option), an alarm (EV-TRAP-6, on to the monster table) or a pit (EV-TRAP-7,
its 1/2D depth rounded as EV-CORE-4 says).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.dice.result import Result
from companion.dice.roll import roll
from companion.dice.tables import TableRow
from companion.errors import DataError
from companion.systems.events.poison import _PoisonWalk
from companion.systems.events.rules import EventRules
from companion.systems.events.sword_world import Member, folded_name


def trap_row(rules: EventRules, kind: str) -> TableRow:
    """The EV-TRAP-1 row of a trap named by its kind (``explosion``, ``pit``…) or by its
    Japanese name, with or without the table's bracket (``落とし穴``, ``爆発``,
    ``爆発（エネルギー系）``), or a DataError naming them both (cli59 F10)."""
    rows = rules.tables["trap"].rows
    wanted = folded_name(kind)
    for row in rows:
        if wanted in (folded_name(row["kind"]), folded_name(row["ja"]), folded_name(short_ja(row))):
            return row
    names = ", ".join(f"{r['kind']} {short_ja(r)}" for r in rows)
    raise DataError(f"no trap {kind!r}; choose from {names}")


def short_ja(row: TableRow) -> str:
    """A trap's Japanese name without the table's bracket: 爆発 of 爆発（エネルギー系）."""
    return str(row["ja"]).split("（")[0]


class _TrapWalk(_PoisonWalk):
    """The walk's traps (they call the core, the poison table and the monster table)."""

    def trap_damage(
        self, member: Member, value: int | None, fumbled: bool, armor: int | None = None
    ) -> None:
        """EV-TRAP-2: base power as is, minus armour, minus adventurer level unless １ゾロ.
        ``armor`` None: none counts (the explosion's energy, for which the seed gives none),
        said "armour n/a (energy)", not "armour 0" beside an armoured member (events62 N8)."""
        level, why = self.level_reduction(member, fumbled)
        armour = "n/a (energy)" if armor is None else str(armor)
        if value is None:
            self.add(
                "EV-TRAP-2",
                f"{member.name}: damage ? − armour {armour} − Lv {level}{why} "
                "— GM looks up the rating",
                member=member.name,
            )
            return
        damage = max(0, value - (armor or 0) - level)
        now, after = self.change_pools(member, hp=-damage)
        self.add(
            "EV-TRAP-2",
            f"{member.name}: {value} − armour {armour} − Lv {level}{why} ＞ {damage} damage{now}",
            member=member.name,
            data={"hp": -damage, **after},
        )

    def level_reduction(self, member: Member, fumbled: bool) -> tuple[int, str]:
        """EV-TRAP-2: the adventurer level a trap's damage is reduced by, and why, put
        after "Lv N" alike on an arrow's or explosion's line and a pit's fall (EV-TRAP-7's
        冒険者Ｌｖ減点 is this one): none after a １ゾロ or with the setting off, and on, the
        reduction marked "(default)" where the user has not set it, as §0.1 asks of every
        Default's outcome; the pit's fall said nothing there (r77events NIT C)."""
        reduce = self.s["EV-TRAP-2", "level_reduction"]
        tag = self.s.tag("EV-TRAP-2", "level_reduction")
        # off, "Lv 0" is said why (r77events on 531da260)
        why = (" (１ゾロ: no level reduction)" if fumbled
               else " (no level reduction, EV-TRAP-2)" if not reduce
               else f" (level reduction{tag})" if tag else "")
        return (0 if fumbled or not reduce else member.adventurer), why

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
            if len(self.party) == 1:  # no die to roll, but whom it hits is said (N7)
                only = self.party[0]
                self.add("EV-TRAP-2", f"対象/target: {only.name} (the only member)",
                         member=only.name)
                return only
            result = roll(f"1D{len(self.party)}", self.source, purpose="who is hit 対象")
            member = self.party[result.total - 1]
            why = "random member" if how == "random" else "no disarmer: random member"
            self.add("EV-TRAP-2", f"対象/target ({why}{tag}): {result.text} ＞ {member.name}",
                     roll=result, member=member.name)
            return member
        self.add("EV-TRAP-2", f"対象/target: the disarmer {disarmer.name}{tag}",
                 member=disarmer.name)
        return disarmer

    def named_disarmer(self, member: Member) -> None:
        """EV-DOOR-2's Default lets only a thief try a disarm: a disarmer named (``--who``)
        without a Thief level is taken, the GM may have let them try, with a word that the
        Default says otherwise (events62 N5)."""
        if self.s["EV-DOOR-2", "thief_only"] and member.thief == 0:
            self.add("EV-DOOR-2", f"Note: {member.name} has no Thief level, and only a thief "
                     f"may try to disarm{self.s.tag('EV-DOOR-2', 'thief_only')}: taken as the "
                     "GM's call", member=member.name)

    def trap_table(self, named: str | None = None) -> tuple[Result | None, TableRow]:
        """EV-TRAP-1: roll the trap table, or take the row of a trap already named.

        A named trap (its kind, ``named``) is one rolled earlier, before a disarm
        (EV-DOOR-3), that now fires: it is shown with its row but not rolled again.
        """
        table = self.rules.tables["trap"]
        result: Result | None = None
        if named is None:
            result, row = self.table_roll("trap")
            how = f"{result.text} ＞ {row['ja']}/{row['en']}"
        else:
            row = trap_row(self.rules, named)
            # The row's names, not its key: "poison_gas (named…)" read as code on the tray,
            # whose player never types --trap (r76events NIT 6)
            how = f"{row['ja']}/{row['en']} (named, no roll: EV-DOOR-3)"
        counter = f"{row['target_ja']}／{row['counter_ja']}".rstrip("／")
        self.add(
            "EV-TRAP-1",
            f"{table.title}: {how} — "
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
        # The Show's "R or R−10": a pass's rating says the −10 and the floor that clipped
        # it, which the GM checking two different ratings had to work out (a78eventstray 2;
        # generic mode's "rating 0 (−10)" at DM Lv 1 left it out, r78events).
        floored = f", not below {floor}" if low > rating - drop else ""
        if not self.sw:
            self.check_prompt("EV-TRAP-3", "vitality", self.party_prompt(),
                              f"failure: base power at rating {rating} ({rating_text}); "
                              f"success: rating {low} (−{drop}{floored})")
        else:
            passed = f" ({rating} − {drop} on a success{floored}, EV-TRAP-3)"
            for member, result in self.party_checks("EV-TRAP-3", "vitality"):
                used = low if result.success else rating
                with self.deeper():
                    value = self.base_power("EV-TRAP-3", used, member.name,
                                            how=passed if result.success else "")
                    self.trap_damage(member, value, result.fumble)
        if chest:
            self.add("EV-TRAP-3", "宝箱の中身は損傷/the chest's contents are ruined",
                     data={"ruined": True})
        return chest

    def poison_trap(self, row: TableRow, disarmer: Member | None) -> None:
        """EV-TRAP-4: gas hits the party, the needle one member; failing vitality → poison."""
        if not self.sw:
            who = self.party_prompt() if row["target"] == "party" else self.individual_prompt()
            # Each table that walks this (the command line, the dice tray) adds how it rolls
            # the poison table: the tray cannot run the command the walk once named.
            self.check_prompt("EV-TRAP-4", "poison_resist", who,
                              "failure: poisoned → poison table (毒/Poison, EV-POI-1)",
                              data={"poison_on_failure": True})
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
        """EV-TRAP-5 (and EV-TRAP-8 when on): evade or take base power; armour counts."""
        rating, rating_text = self.rating()
        if not self.sw:
            marching = self.s["EV-TRAP-8", "enabled"]
            who = ("each member in marching order until one fails (EV-TRAP-8)" if marching
                   else self.individual_prompt())
            self.check_prompt("EV-TRAP-5", "evasion", who,
                              f"failure: base power at rating {rating} ({rating_text}), "
                              "armour counts; no evasion → flat roll"
                              + ("; the first to fail is hit, the rest are safe" if marching
                                 else ""))
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
        """EV-TRAP-7: each member dodges (adventurer Lv + AGI); fallers drop 1/2D m. Its
        冒険者Ｌｖ減点 is EV-TRAP-2's reduction (seed 001 says it of every trap's damage): skipped
        after a １ゾロ, and where EV-TRAP-2.level_reduction is off (a77events NIT 5), said
        as an arrow's line says it (:meth:`level_reduction`)."""
        per_metre = self.book["EV-TRAP-7"]["damage_per_metre"]
        reduce = self.s["EV-TRAP-2", "level_reduction"]
        if not self.sw:
            # the GM's prompt says the reduction off too: it told them to subtract the
            # level the sw walk no longer does (r77events on 531da260)
            minus = ("minus armour and adventurer Lv" if reduce
                     else "minus armour (no level reduction, EV-TRAP-2)")
            self.check_prompt("EV-TRAP-7", "pit", self.party_prompt(),
                              f"failure: falls 1/2D m; damage (m − Thief Lv) × {per_metre}, "
                              f"{minus}")
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
                depth, raised = self.at_least_one(depth_roll, "1/2D")
                per = ("one roll per pit" if self.s["EV-TRAP-7", "one_depth_roll"]
                       else f"{member.name}'s own roll")
                self.add("EV-CORE-4",
                         f"落下/fall depth ({per}"
                         f"{self.s.tag('EV-TRAP-7', 'one_depth_roll')}): {depth_roll.text} m"
                         f"{self.rounding_said('1/2D')}{raised}",
                         roll=depth_roll, data={"metres": depth})
            # The party's best when set (first of the highest): said whose, when not the
            # faller's own, so a faller with no Thief level is not read as having one
            # (a76events NIT 3: "Ben: … − Thief 3" for Aki's 3).
            best = max(self.party, key=lambda m: m.thief)
            thief = member.thief if own_thief else best.thief
            whose = ("" if thief == member.thief
                     else f" (party's best パーティ最高, {best.name})")
            metres = max(0, depth - thief)
            raw = metres * per_metre
            level, why = self.level_reduction(member, fumbled)
            damage = max(0, raw - member.armor - level)
            now, after = self.change_pools(member, hp=-damage)
            self.add(
                "EV-TRAP-7",
                f"{member.name}: Fall {depth} m − Thief {thief}{whose} = {metres} m × {per_metre}"
                f" = {raw} − armour {member.armor} − Lv {level}{why} ＞ {damage} damage{now}",
                member=member.name,
                data={"hp": -damage, **after},
            )
