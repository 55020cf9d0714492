"""System `events`: doors and chests, their locks and their traps (spec §1).

:class:`_Run` is the top layer of the walk, over
:class:`~companion.systems.events.traps._TrapWalk`: it rolls the door and chest table
(EV-DOOR-1), disarms a trap and opens a lock (EV-DOOR-2), a failed disarm setting the trap
off and a lock that holds sending the party home (EV-DOOR-4), rolls the trap type before
the disarm when the EV-DOOR-3 option is on, and says what is left of a chest's contents
(EV-DOOR-5; an explosion ruins them, EV-TRAP-3).
"""

from __future__ import annotations

from companion.dice.tables import TableRow
from companion.systems.events.sword_world import Member
from companion.systems.events.traps import _TrapWalk


class _Run(_TrapWalk):
    """One walk through a table and its follow-ups, collecting steps.

    The top layer: doors and chests, which lead to the traps below.
    """

    def door(self, chest: bool) -> None:
        """EV-DOOR-1 to EV-DOOR-5."""
        self.need_party()
        table = self.rules.tables["door"]
        result, row = self.table_roll("door")
        self.add("EV-DOOR-1", f"{table.title}: {result.text} ＞ {row['ja']}/{row['en']}",
                 roll=result, data={"trap": row["trap"], "lock": row["lock"]})
        ruined = False
        shut = False
        with self.deeper():
            pre_rolled = None
            if row["trap"] and self.s["EV-DOOR-3", "enabled"]:
                self.add("EV-DOOR-3", "Option on: roll the trap type before disarming")
                with self.deeper():
                    pre_rolled = self.trap_table()[1]
            order = ["trap", "lock"] if self.s["EV-DOOR-2", "trap_first"] else ["lock", "trap"]
            for what in order:
                if shut:
                    # 「帰れ！」: a party sent home leaves the trap behind the lock alone; a
                    # row with no trap (2–5, 鍵 only) has none to leave (events70 DEFECT 1).
                    if what == "trap" and row["trap"]:
                        self.add("EV-DOOR-4", "罠はそのまま/The trap is left armed: "
                                 "the party goes home")
                elif what == "trap" and row["trap"]:
                    ruined = self.disarm(pre_rolled, chest)
                elif what == "lock" and row["lock"]:
                    shut = not self.unlock()
            if chest and shut:
                self.add("EV-DOOR-5", "宝箱の中には？/Chest contents: none to take, the chest "
                         "stays shut (EV-DOOR-4) unless the GM lets the party force it",
                         data={"ruined": ruined, "shut": True})
            elif chest:
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
                self.add("EV-DOOR-5", text, data={"ruined": ruined, "shut": False})

    def disarm(self, pre_rolled: TableRow | None, chest: bool) -> bool:
        """EV-DOOR-2: disarm against the fixed roll; failure sets the trap off. True if ruined."""
        self.add("EV-DOOR-2", "罠あり/Trap present: anyone with Thief can see it "
                 "(trap finding is skipped in the simple rules)")
        if not self.sw:
            # Said for any table that walks this (the command line, the dice tray): each adds
            # how it rolls the trap, from the data ("trap_on_failure": the kind rolled
            # above, or "" for a roll of the trap table). The tray said "companion events
            # trap", a command it has no way to run.
            if pre_rolled is None:
                fires, kind = "roll the trap table (罠/Trap, EV-TRAP-1)", ""
            else:
                # EV-DOOR-3: the trap rolled above is the one that fires, not a new type.
                fires = (f"the {pre_rolled['en']} rolled above fires, no second roll "
                         "(EV-DOOR-3)")
                kind = pre_rolled["kind"]
            self.check_prompt("EV-DOOR-2", "disarm", "one character", f"on failure {fires}",
                              data={"trap_on_failure": kind})
            return False
        thief_only = self.s["EV-DOOR-2", "thief_only"]
        candidates = [m for m in self.party if m.thief > 0] if thief_only else list(self.party)
        member = self.best("disarm", candidates) or (candidates[0] if candidates else None)
        if member is None:
            self.add("EV-DOOR-2", "No one with a Thief level may try"
                     f"{self.s.tag('EV-DOOR-2', 'thief_only')}: the trap stays armed")
            return False
        result = self.check("EV-DOOR-2", "disarm", member, note=self._who(member))
        if result.success:
            self.add("EV-DOOR-2", "罠解除/Trap disarmed")
            return False
        self.add("EV-DOOR-2", "罠発動/TRAP TRIGGERED → trap table")
        with self.deeper():
            return self.trap(disarmer=member, chest=chest, pre_rolled=pre_rolled)

    def _who(self, member: Member) -> str:
        """Why ``member`` makes a disarm or lock check (EV-DOOR-2), alike for both: the best
        Thief + DEX, with the thief_only Default's mark; a flat roll (thief_only off, no
        Thief in the party) names no Thief + DEX it does not add (events74 NIT 6: the
        disarm said "(best Thief + DEX (default))" and the lock beside it no mark, and a
        flat roll "(best Thief + DEX)")."""
        thief_only = self.s["EV-DOOR-2", "thief_only"]
        tag = self.s.tag("EV-DOOR-2", "thief_only")
        if member.thief <= 0:
            return f" (no Thief: anyone may try{tag})"
        return f" (best Thief + DEX{'; Thief only' + tag if thief_only else ''})"

    def unlock(self) -> bool:
        """EV-DOOR-2 lock opening; a failure goes to EV-DOOR-4. False when the lock held;
        in generic mode the GM rolls, so it is not known here and counts as opened."""
        retries = self.s["EV-DOOR-4", "retries"]
        go_home = ("鍵が開かない/Lock holds ＞ 帰れ！/Go home! — locked: cannot open "
                   f"({retries} retries{self.s.tag('EV-DOOR-4', 'retries')}; "
                   "the GM may override)")
        if not self.sw:
            tries = f"; {retries} retries{self.s.tag('EV-DOOR-4', 'retries')}" if retries else ""
            self.check_prompt("EV-DOOR-2", "unlock", "one character",
                              f"on failure → EV-DOOR-4 (帰れ！/Go home!{tries})")
            return True
        thief_only = self.s["EV-DOOR-2", "thief_only"]
        candidates = [m for m in self.party if m.thief > 0] if thief_only else list(self.party)
        member = self.best("unlock", candidates) or (candidates[0] if candidates else None)
        if member is None:
            self.add("EV-DOOR-2", "No one with a Thief level may try to open the lock"
                     f"{self.s.tag('EV-DOOR-2', 'thief_only')}")
            self.add("EV-DOOR-4", go_home, data={"locked": True})
            return False
        for attempt in range(1 + retries):
            rule = "EV-DOOR-2" if attempt == 0 else "EV-DOOR-4"
            if self.check(rule, "unlock", member, note=self._who(member)).success:
                self.add(rule, "解錠/Unlocked", data={"locked": False})
                return True
        self.add("EV-DOOR-4", go_home, data={"locked": True})
        return False
