"""System `events`: what a room holds: monsters, exits, a recovery spot (spec §1).

:class:`_RoomWalk`, the layer of the walk over :class:`~companion.systems.events.walk._Walk`,
rolls the monster table (EV-MON-1) and the exploration table with its follow-ups: an exit
hidden from search, one sealed by magic, a bonus room (EV-EXP-1..4); and it walks a
recovery spot (EV-REC-1..3, with the EV-REC-2 option).
"""

from __future__ import annotations

from companion.dice.roll import roll
from companion.errors import DataError
from companion.systems.events.sword_world import RATINGS_FORM, Member
from companion.systems.events.walk import _Walk


class _RoomWalk(_Walk):
    """The walk's monsters, exploration and recovery (they call only the core)."""

    def monster(self) -> None:
        """EV-MON-1: monster level relative to DM Lv, and how many."""
        table = self.rules.tables["monster"]
        result, row = self.table_roll("monster")
        offset = row["level"]
        sign = f"+ {offset}" if offset else "± 0"
        which = f"level-{self.dm + offset} monsters (DM Lv {self.dm}{self.dm_tag} {sign})"
        if row["count"] == "1":
            count, count_roll = 1, None
        else:
            # Said before the count is rolled: a walk stopped short for its die (the dice
            # tray's) shows the row it awaits it for.
            self.begin("EV-MON-1", f"{table.title}: {result.text} ＞ {row['ja']} ＞ {which}, "
                       f"how many 何体: {row['count']}", roll=result)
            count_roll = roll(row["count"], self.source, self.options,
                              purpose=f"how many monsters 何体 ({row['count']})")
            count, raised = self.at_least_one(count_roll, row["count"])
        shown = (f" ＞ {row['count']}: {count_roll.text}{self.rounding_said(row['count'])}"
                 f"{raised}" if count_roll else "")
        level = self.dm + offset
        # From the list only when it has one of this level: "the species from your list"
        # above "Your list has no level-2 monster" contradicted it (events70 NIT 7).
        listed = self.lists.of_level(level)
        self.add(
            "EV-MON-1",
            f"{table.title}: {result.text} ＞ {row['ja']}{shown} ＞ "
            f"{count} × level-{self.dm + offset} monster{'s' if count > 1 else ''} "
            f"(DM Lv {self.dm}{self.dm_tag} {sign}); "
            + ("the species from your list" if listed else "the GM picks the species"),
            roll=result,
            data={"level": level, "count": count,
                  "count_roll": count_roll.to_json() if count_roll else None},
        )
        if self.lists.monsters:
            with self.deeper():
                self.pick("EV-MON-1", f"種類/species (level {level})", listed,
                          f"Your list has no level-{level} monster: the GM picks the species")

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
        """EV-EXP-4: the exit is open; one successful appraisal gives 1D6 items of one kind.
        In generic mode the GM resolves the appraisals, and the walk stops there: the count
        and the kind are rolled on a success only (seed 001 「探索に成功した場合」, the Default
        "roll the 1D6 count on success"), by :meth:`found` (``run_event(found=True)``: the
        tray's *Found 見つけた*, ``events explore --found``). The step's data
        ``items_on_success`` says so. The count was rolled with row 6, a die the seed does
        not roll when every appraisal fails (r76events NIT 3)."""
        self.add("EV-EXP-4", "出口は隠されていない/The exit is open")
        if not self.sw:
            self.check_prompt("EV-EXP-4", "appraise", "anyone (one success is enough)",
                              "on success 成功なら: roll one kind of small recovery item "
                              "×1D6 (found 見つけた)", data={"items_on_success": True})
            return
        for member in self.party:
            result = self.check("EV-EXP-4", "appraise", member)
            if result.success:
                self.items_found()
                return
        self.add("EV-EXP-4", "Nothing useful found", data={"items": 0})

    def found(self) -> None:
        """EV-EXP-4 in generic mode, after the GM's appraisal succeeded: the exploration's
        6 rolled before is not rolled again; the count (1D6) and the kind are."""
        self.add("EV-EXP-4", "探索 6 ＞ 鑑定成功/an appraisal succeeded (found 見つけた: the "
                 "exploration's 6, no new roll)")
        with self.deeper():
            self.items_found()

    def items_found(self) -> None:
        """EV-EXP-4 Default: the count (1D6) of the one kind found, and the kind from the
        player's list when there is one."""
        count = roll("1D6", self.source, purpose="how many items 個数")
        named = "" if self.lists.items else "; the list is missing in the source, the GM names it"
        self.add(
            "EV-EXP-4",
            f"報酬：小回復アイテム/small recovery items {count.text} ＞ ×{count.total} "
            f"(one kind{named})",
            roll=count, data={"items": count.total},
        )
        if self.lists.items:
            self.item_kind()

    def item_kind(self) -> None:
        """EV-EXP-4 Default: the one kind of small recovery item, from the player's list."""
        self.pick("EV-EXP-4", "種類/kind", self.lists.items, "")

    def recovery(self, room: str | None, used: bool) -> None:
        """EV-REC-1..3: poison cured, HP and MP recover base power, once per room.

        ``room`` names the room when the player does, so its use can be remembered;
        ``used``: its spot was used before, and coming back gives nothing (EV-REC-1).
        """
        if used:
            self.add("EV-REC-1", f"回復/Recovery spot in room {room}: already used, coming "
                     "back gives nothing",
                     data={"room": room, "room_used": True, "used_before": True})
        else:
            self.recover(room)
        self.add("EV-REC-3", "安全地帯/Safe zone: no random encounters here, even after use")

    def recover(self, room: str | None) -> None:
        """EV-REC-1 (and the EV-REC-2 option) at a spot not used before; the room is used
        after it."""
        if self.s["EV-REC-2", "enabled"]:
            rating = self.book["EV-REC-2"]["rating"]
            least = self.book["EV-REC-2"]["bonus_minimum"]
            bonus = max(least, self.dm - 1)
            # The bonus is added to each gain, not to the rating: "fixed rating 10 + bonus
            # 2" read as a rating of 12 (events74 NIT 6).
            rating_text = (f"fixed, EV-REC-2 option; plus {bonus} each: DM Lv − 1, at "
                           f"least {least}")
        else:
            per = self.book["EV-REC-1"]["rating_per_dm_level"]
            rating, rating_text = self.dm * per, f"DM Lv {self.dm} × {per}"
            bonus = 0
        if self.sw:
            self.need_party()  # the first thing sw mode lacks, before the table read off
            self.need_rating(rating, rating_text, room)
        tag = self.s.tag("EV-REC-1", "all_members")
        everyone = self.s["EV-REC-1", "all_members"]
        if self.sw:
            who = self.party if everyone else self.party[:1]
        else:
            who = (Member("each member" if everyone else "one member"),)
        # whose poison it cures: the members named, or in generic mode everyone's (None)
        # when every member present recovers, nobody the walk can name when one does
        cured = ([m.name for m in who] if self.sw else None if everyone else [])
        where = "" if room is None else f" in room {room}"
        self.add("EV-REC-1", f"回復/Recovery spot{where}: poison cured; HP and MP recover "
                 f"base power at rating {rating} ({rating_text}); "
                 f"{'every member present' if everyone else 'the first member only'}{tag}",
                 data={"cure_poison": True, "cured": cured})
        with self.deeper():
            for member in who:
                bases = [self.base_power("EV-REC-1", rating, f"{member.name} {pool.upper()}")
                         for pool in ("hp", "mp")]
                gains = [None if value is None else value + bonus for value in bases]
                hp, mp = gains
                capped = ""
                if self.sw and self.s["EV-REC-1", "cap_at_maximum"]:
                    hp, mp, capped = self.recovery_cap(member, hp, mp)
                # EV-REC-2's bonus shown added to the base power (events74 NIT 6: the line
                # said "HP +8" under a base power of 6, the sum nowhere)
                shown = [("?" if g is None else f"+{g}"
                          + (f" ({b} + {bonus}{'' if g == raw else f' = {raw}'})"
                             if bonus and b is not None and raw is not None else ""))
                         for g, b, raw in zip((hp, mp), bases, gains, strict=True)]
                now, after = self.change_pools(member, hp=hp, mp=mp) if self.sw else ("", {})
                self.add("EV-REC-1", f"{member.name}: HP {shown[0]}, MP {shown[1]}{capped}{now}",
                         member=member.name if self.sw else None,
                         data={"hp": hp, "mp": mp, **after})
        # A spot recovered at is used up either way (once per room); only a named room is
        # remembered. "Room now used" with no room named read as remembered, and "spent:
        # coming back gives nothing" as if this visit had given nothing.
        if room is None:
            self.add("EV-REC-1", "この部屋は使用済み/this room's spot is now used, once per "
                     "room (no room named, so not remembered)",
                     data={"room": None, "room_used": True})
        else:
            self.add("EV-REC-1", f"この部屋は使用済み/room {room} now used: coming back gives "
                     "nothing", data={"room": room, "room_used": True})

    def need_rating(self, rating: int, rating_text: str, room: str | None) -> None:
        """EV-REC-1 in sw mode: the base power at ``rating`` must be readable before a die is
        thrown, or the spot is refused, not spent.

        sw mode keeps the HP and MP the spot gives, and the spot gives them once. Known
        before a die: without the rating's row every gain stays "?", the HP and MP kept
        unchanged, yet the spot was spent (the room marked used), and once the row was
        there, coming back gave nothing (events70 DEFECT 2). With no table at all it was
        the same, and the commoner case (reviewe70 DEFECT 1): nothing in sw mode lets the
        GM apply the book's numbers after (``events party`` sets no HP, ``events rooms``
        forgets every room or none). In generic mode the GM applies the gains by hand, so
        the walk goes on there with "?" as before.
        """
        unused = "" if room is None else f"; room {room} is not used"
        if self.rating_table is None:
            raise DataError(
                f"the recovery spot's HP and MP are its base power read off your rating "
                f"table at rating {rating} ({rating_text}, EV-CORE-3), and none was given: "
                "sw mode keeps them and the spot gives them once (EV-REC-1), so they would "
                "stay '?' and the spot be spent for nothing. Give your rating table with "
                f"--ratings FILE, {RATINGS_FORM}; nothing was rolled{unused}")
        if rating not in self.rating_table.rows:
            raise DataError(
                f"{self.rating_table.origin} has no line for rating {rating} ({rating_text}), "
                "which the recovery spot's base power is read from (EV-REC-1): add it, the "
                "rating, then the values for 2D6 totals 2 to 12 (EV-CORE-3); nothing was "
                f"rolled{unused}")

    def recovery_cap(
        self, member: Member, hp: int | None, mp: int | None
    ) -> tuple[int | None, int | None, str]:
        """EV-REC-1 Default: each pool stops at its own maximum, where one is given, and
        the text names the pools it stopped (and any the GM looks up).

        A maximum of 0 is "not given" (the party file may leave it out), so that pool is
        uncapped. A gain is never negative: a pool already full gains nothing. The cap is
        from the pool as it stands now (:attr:`pools`: what the events kept of earlier
        damage, cli59 F4), 0 when the party file gives none.
        """
        gains = {"hp": hp, "mp": mp}
        caps = []
        for pool, gain in gains.items():
            most = getattr(member, f"max_{pool}")
            if not most:
                continue
            if gain is not None:
                now = self.pools.get(member.name, {}).get(pool, 0)
                gains[pool] = max(0, min(gain, most - now))
            # Said where it took some of the gain (or the GM looks the gain up): "capped"
            # under a gain of +0 from an automatic miss, or one the pool held whole, read
            # as a cut that never was (a76events NIT 4). The pools' lines show the maximum.
            if gain is None or gains[pool] != gain:
                caps.append(f"{pool.upper()} {most}")
        tag = self.s.tag("EV-REC-1", "cap_at_maximum")
        text = f" (capped at maximum {', '.join(caps)}{tag})" if caps else ""
        return gains["hp"], gains["mp"], text
