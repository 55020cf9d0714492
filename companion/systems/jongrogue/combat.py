"""The engine's fifth layer, :class:`_Combat`: melee, and what a hit does. The attack rate,
a turn attacking and a turn defending, who may attack in a turn and each one's defend
check, a hasted monster's other attacks; the PC's hit and a monster's defeat (XP, levels,
its drop), a level drained; a monster's hit on the PC (damage, then its ability; a fire
breath unopposed) and the medusa's gaze.

Rules: JR-RATE-1, JR-MELEE-1, JR-MELEE-2, JR-MULTI-1, JR-DMG-1, JR-XP-1, JR-LVL-1,
JR-DROP-1, JR-PC-2 (strength), and the abilities: JR-AB-GOLDLOVER, JR-AB-MIMIC,
JR-AB-STEALGOLD, JR-AB-DRAIN, JR-AB-POISON, JR-AB-DRAINSTR, JR-AB-INVISIBLE, JR-AB-GAZE
and those a hit sets off (JR-AB-*).
"""

from __future__ import annotations

from companion.systems.jongrogue.actions import Choice, Purpose
from companion.systems.jongrogue.checks import damage, rate_terms
from companion.systems.jongrogue.core import _NO_MONSTERS, Outcome, Termination
from companion.systems.jongrogue.drawing import Proc
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.items import _Items
from companion.systems.jongrogue.profile import (
    NO_STRENGTH_LOSS_AT,
    Gear,
    Option,
    Ring,
    Role,
)
from companion.systems.jongrogue.state import MonsterOnMap, PCState, Position, Sleeping
from companion.systems.jongrogue.tables import TABLES, Ability
from companion.systems.jongrogue.wall import Place


class _Combat(_Items):
    """Adds melee: turns, defence, hits, defeat and levels."""

    def rate(self, m: MonsterOnMap, weapon: int) -> tuple[int, list[tuple[str, int]], int]:
        """JR-RATE-1 for this PC: (raw sum, terms, clamped rate) against ``m``."""
        strength = self.pc.strength if self._strength else None
        return rate_terms(m.monster.attack, self.pc.level, weapon, strength)

    def melee_rate(self, m: MonsterOnMap) -> int:
        """JR-RATE-1: the clamped melee rate against ``m`` alone (what a strategy weighs,
        many times a decision, so without the terms)."""
        pc = self.pc
        raw = m.monster.attack - pc.level - pc.weapon.value
        if self._strength:
            raw -= pc.strength
        return min(9, max(1, raw))

    def _melee_turn(self, target: MonsterOnMap) -> Proc:
        """JR-MELEE-1/2: attack one monster; every other attacker is defended against.

        JR-STATE-1: a monster not awake does not come to the door, and the seed's attack
        wakes only a 熟睡 one (「PCが攻撃すると その熟睡状態のモンスターが起きます」), a 睡眠
        one being awake once the PC 「ドアの上から部屋の中に入ると」. So from revision 5 a
        blow at a sleeper from the door is a step into the room first: every 睡眠 monster
        wakes, and a medusa now in the PC's room gazes (JR-AB-GAZE) before the blow
        (revision 4 and before: the PC struck from the door, waking the target alone)."""
        if (target.sleep is not Sleeping.AWAKE and self.position is Position.DOOR
                and self.revision >= 5 and target in self._here(self.room_no)):
            self._enter()
            gazers = self._gazers() if self._pc_states else _NO_MONSTERS
            if gazers:
                yield from self._gaze_checks(gazers)
        self.melee_started = True
        self._turn("fight", target, self._fight_attackers(target))
        if PCState.CONFUSED in self.pc.states:
            acts, _ = yield from self._check("act while confused (混乱)", self.profile.confused_act)
            if not acts:
                yield from self._monsters_attack(None)
                return
        self._wake(target, "attacked")
        raw, terms, rate = self.rate(target, self.pc.weapon.value)
        hit, d9 = yield from self._check(
            f"melee vs {target.monster.name_ja}" if self.record else "", rate,
            automatic=True, terms=terms, raw=raw, against=target,
        )
        if hit:
            yield from self._pc_hits(target)
        else:
            if d9.fumble and target.monster.ability is Ability.DRAIN_LEVEL:
                self._drain_level(target)
            if target.on_gold is None and target.alive:
                yield from self._hit(target)
                yield from self._hasted_extra(target)
        yield from self._monsters_attack(target)

    def _defend_turn(self, choice: Choice) -> Proc:
        """A turn in which the PC did something other than attack (JR-MELEE-1)."""
        attackers = self.attackers()
        if attackers:
            self.melee_started = True
            self._turn(choice.verb.value, attackers=attackers)
            yield from self._monsters_attack(None)

    def _fight_attackers(self, target: MonsterOnMap) -> list[MonsterOnMap]:
        """JR-MULTI-1: who may attack in a turn the PC attacks ``target``. The target
        answers a miss (JR-MELEE-2) unless it sits on gold, so it holds one of the places
        the position allows; if it does not fit among them, it takes the last one."""
        if target.on_gold is not None:
            return self.attackers()
        may = self.attackers(woken=target)
        if target not in may:
            may = [*may[:-1], target]
        return may

    def _turn(
        self,
        action: str,
        target: MonsterOnMap | None = None,
        attackers: list[MonsterOnMap] | None = None,
    ) -> None:
        """JR-MULTI-1: a melee turn begins, and who may attack in it is fixed now: the
        attacks are simultaneous (同時に), so a monster that steps into the place of one
        that falls attacks from the next turn. The event names them and how many may
        (``cap``), so a log shows each turn's attacks: the monsters of its defend checks
        and of its non-breath damage are among ``attackers``."""
        self.turn += 1
        self._attackers = self.attackers() if attackers is None else attackers
        if not self.record:
            return
        pincered = self.pincered()
        self._emit(
            Kind.TURN, floor=self.floor, room=self.room_no, position=self.position.value,
            turn=self.turn, action=action, target=target.uid if target else 0,
            attackers=[m.uid for m in self._attackers], pincer=pincered,
            cap=self.profile.attackers[(self.position.value, pincered)],
        )

    def _monsters_attack(self, attacked: MonsterOnMap | None) -> Proc:
        """JR-MULTI-1 [DEFAULT]: each of the turn's attackers other than the monster the
        PC attacked gets its own defend check; one that fell, vanished or still sleeps
        (the PC, confused, never reached it) leaves its place empty this turn."""
        for m in self._attackers:
            if m is attacked or m.sleep is not Sleeping.AWAKE:
                continue
            for _ in range(self.profile.hasted_attacks if m.hasted else 1):
                if not m.alive:
                    break
                yield from self._defend(m)

    def _hasted_extra(self, m: MonsterOnMap) -> Proc:
        """A hasted (倍速) monster that just answered an attack gets its other attacks."""
        if m.hasted:
            for _ in range(self.profile.hasted_attacks - 1):
                if m.alive:
                    yield from self._defend(m)

    def _defend(self, m: MonsterOnMap) -> Proc:
        m.has_attacked = True  # JR-AB-INVISIBLE: attacked, whether or not it hits
        raw, terms, rate = self.rate(m, self.pc.weapon.value)
        safe, d9 = yield from self._check(
            f"defend vs {m.monster.name_ja}" if self.record else "", rate,
            automatic=True, terms=terms, raw=raw, against=m,
        )
        if not safe:
            # JR-AB-DRAIN: 「近接攻撃でのファンブル」. The seed's 近接攻撃 is the monster's blow
            # too (「PCはモンスターの近接攻撃を受けません」, its breath's 「近接攻撃と同じ計算式」),
            # and one 1d9 decides attack and defence (「近接戦闘と防御は下記の手順で行います」),
            # so from revision 5 a fumbled defence drains as a fumbled blow does.
            if d9.fumble and m.monster.ability is Ability.DRAIN_LEVEL and self.revision >= 5:
                self._drain_level(m)
            yield from self._hit(m)

    def _pc_hits(self, m: MonsterOnMap) -> Proc:
        """A successful attack: usually the monster is defeated (JR-MELEE-2)."""
        ability = m.monster.ability
        if ability is Ability.GOLD_LOVER and m.on_gold is not None and not m.sealed:
            m.on_gold = None  # JR-AB-GOLDLOVER: off the gold, sealed
            m.sealed = True
            self._emit(Kind.ABILITY, ability="gold_lover", uid=m.uid, effect="off the gold, sealed")
            return
        if ability is Ability.MIMIC and not m.sealed:
            tile = yield from self._draw(
                Purpose.MIMIC, "The mimic (擬態): draw a tile", Place.TABLE
            )
            # JR-AB-MIMIC: the seed's range (「か〜だったら」) is lost from its text; the
            # profile's item tiles stand for it, as the spec reads it.
            if self.profile.role(tile) is Role.ITEM:
                # A pursuer's tile lies beside the PC (JR-FLEE-2), so the item takes its
                # place there, in the PC's room (revision 3; before, in the room it was met).
                beside = m in self.pursuers and self.revision >= 3
                self._remove_monster(m)
                if beside:
                    self.rooms[self.room_no].drops.append(tile)
                else:
                    room = self.rooms[m.room]
                    room.tiles[m.spot] = tile
                    room.roles[m.spot] = Role.ITEM
                self._emit(Kind.ABILITY, ability="mimic", uid=m.uid, tile=str(tile), effect="item")
                return
            self.ledger.move(tile, Place.TABLE, Place.DISCARDS)
            if self.on(Option.EXTENDED_STATES):  # Plus: sealed, and the fight goes on
                m.sealed = True
                self._emit(Kind.ABILITY, ability="mimic", uid=m.uid, tile=str(tile),
                           effect="sealed")
                return
            # EZ names no other outcome: the hit stands and defeats it.
            self._emit(Kind.ABILITY, ability="mimic", uid=m.uid, tile=str(tile), effect="no item")
        yield from self._defeat(m)

    def _defeat(self, m: MonsterOnMap) -> Proc:
        """JR-XP-1, JR-AB-STEALGOLD, JR-DROP-1.

        Drops follow the seed's procedure: draw until an item comes up or n tiles have
        been drawn; the item is placed where the monster was, and drawing stops (the spec
        reads "each item tile drawn"; the seed's step 5 does not return to step 1).
        """
        # A pursuer's tile lies beside the PC (PCに隣接する様に...動かします), so that is
        # where the monster was (モンスターのいた場所に置く); revision 1 used its first room.
        fell_in = self.room_no if m in self.pursuers and self.revision >= 2 else m.room
        self._remove_monster(m)
        self.pc.xp += m.monster.xp
        if self.record:
            self._emit(Kind.DEFEAT, uid=m.uid, monster=m.monster.id, xp=m.monster.xp,
                       total=self.pc.xp)
        if m.monster.ability is Ability.STEAL_GOLD:
            self._gold(self.floor * 20, "leprechaun's gold")
        self._level_up()
        if self.on(Option.DROPS) and m.monster.drops > 0:
            room = self.rooms[fell_in]
            for n in range(m.monster.drops):
                prompt = f"Drop check {n + 1}/{m.monster.drops} (ドロップ判定): draw a tile" \
                    if self.record else ""
                tile = yield from self._draw(Purpose.DROP, prompt, Place.TABLE)
                if self.profile.role(tile) is Role.ITEM:
                    room.drops.append(tile)
                    if self.record:
                        self._emit(Kind.ITEM, action="dropped", tile=str(tile), room=fell_in)
                    break
                else:
                    self.ledger.move(tile, Place.TABLE, Place.DISCARDS)
                    if self.record:
                        self._emit(Kind.ITEM, action="no drop", tile=str(tile))

    def _remove_monster(self, m: MonsterOnMap) -> None:
        m.alive = False
        if m in self.pursuers:
            self.pursuers.remove(m)
        room = self.rooms.get(m.room)
        if room is not None and m in room.monsters:
            room.monsters.remove(m)
        if room is not None and room.tiles[m.spot] is m.tile:
            self.ledger.move(m.tile, Place.TABLE, Place.DISCARDS)
            room.tiles[m.spot] = None
            room.roles[m.spot] = Role.EMPTY

    def _level_up(self) -> None:
        """JR-LVL-1: the level follows the XP table (a drained PC regains it by XP)."""
        level = TABLES.level_for_xp(self.pc.xp)
        if level > self.pc.level:
            old = self.pc.max_hp
            self.pc.level = level
            self.pc.max_hp = self.profile.max_hp(level)
            if self.profile.heal_on_level_up:
                self.pc.hp += self.pc.max_hp - old
            self.pc.drained = False
            self._emit(Kind.LEVEL, level=level, max_hp=self.pc.max_hp, hp=self.pc.hp)

    def _drain_level(self, m: MonsterOnMap) -> None:
        """JR-AB-DRAIN: a melee fumble against it, the PC's blow or (revision 5) its
        defence, costs a level (not at level 5 or below)."""
        pc = self.pc
        if pc.level <= 5:
            self._emit(Kind.ABILITY, ability="drain_level", uid=m.uid, effect="none (level ≤ 5)")
            return
        lost = pc.level
        pc.level -= 1
        pc.xp = TABLES.level_xp[lost - 1] - 1
        pc.max_hp = self.profile.max_hp(pc.level)
        pc.hp = min(pc.hp, pc.max_hp)
        pc.drained = True
        self._emit(Kind.ABILITY, ability="drain_level", uid=m.uid, effect="level down")
        self._emit(Kind.LEVEL, level=pc.level, xp=pc.xp, max_hp=pc.max_hp, hp=pc.hp, drained=True)

    def _hit(self, m: MonsterOnMap, breath: bool = False) -> Proc:
        """The monster's attack hits the PC: JR-DMG-1, then its ability (JR-AB-*)."""
        m.has_attacked = True
        table = m.monster.damage
        rolls: list[str] = []
        if m.monster.damage_d9:
            table = 0
            for _ in range(m.monster.damage_d9):
                d9 = yield from self._d9(
                    Purpose.NUMBER, f"Damage of {m.monster.name_ja} {m.monster.name_en} "
                    "(ダメージ): draw a tile"
                )
                table += d9.value
                rolls += [str(t) for t in d9.tiles]
        lost = damage(table, self.pc.armour.value)
        self.pc.hp -= lost
        if self.record:
            self._emit(
                Kind.DAMAGE, uid=m.uid, monster=m.monster.id, table=table, rolls=rolls,
                defence=self.pc.armour.value, amount=lost, hp=self.pc.hp, breath=breath,
            )
        if self.pc.hp <= 0:
            self._finish(Outcome(Termination.DEATH, self.floor, m.monster.id))
        if not breath:
            yield from self._on_hit(m)

    def _on_hit(self, m: MonsterOnMap) -> Proc:
        """What the monster's hit on the PC sets off: JR-AB-FREEZE, JR-AB-POISON, JR-AB-HOLD,
        JR-AB-STEALGOLD, JR-AB-RUST, JR-AB-STEALITEM, JR-AB-GAZE (EZ), JR-AB-DRAINSTR;
        nothing from a sealed monster."""
        ability, pc = m.monster.ability, self.pc
        if m.sealed:
            return
        if ability is Ability.FREEZE and PCState.FROZEN not in pc.states:
            target = 9 - pc.level
            ok, _ = yield from self._check("resist freezing (凍結判定)", target, against=m)
            if not ok:
                self._set_state(PCState.FROZEN, True)
                alive, _ = yield from self._check("survive the cold (凍死)", target, against=m)
                if not alive:
                    self._finish(Outcome(Termination.DEATH, self.floor, "frozen"))
        elif ability is Ability.POISON:
            if self.on(Option.STRENGTH):
                yield from self._lose_strength(m, "poison (毒判定)", 7 - pc.level)
            else:
                self._gold(-10, "poison")
        elif ability is Ability.HOLD:
            if not self.on(Option.PC_STATES):
                self._gold(-10, "held")
            elif PCState.FLOATING not in pc.states:
                self._set_state(PCState.BOUND, True)
        elif ability is Ability.STEAL_GOLD:
            self._gold(-self.floor * 10, "stolen")
            self._vanish(m)
        elif ability is Ability.RUST:
            # Seed 000 (l.260-261) spares armour in a 鎧保護状態 too, but nothing in the
            # seed puts armour in it: the ring (JR-ITEM-1's 8p) is the one guard.
            if not pc.wears(Ring.ARMOUR_PROTECTION):
                # the seed gives no floor; the profile's armour_min [DEFAULT] is one
                if pc.armour.value > self.profile.armour_min:
                    pc.armour = Gear(pc.armour.name_ja, pc.armour.name_en, pc.armour.value - 1)
                    self._emit(Kind.ABILITY, ability="rust", uid=m.uid, armour=pc.armour.value)
        elif ability is Ability.STEAL_ITEM:
            self._steal_item(m)
            self._vanish(m)
        elif ability is Ability.GAZE and not self.on(Option.PC_STATES):
            self._gold(-100, "gaze")
            m.sealed = True
        elif ability is Ability.DRAIN_STRENGTH:
            if self.on(Option.PC_STATES):
                yield from self._lose_strength(m, "strength drain (強さドレイン判定)", 4)
            elif not pc.wears(Ring.STRENGTH):
                self._gold(-100, "strength drain")
                m.sealed = True

    def _lose_strength(self, m: MonsterOnMap, what: str, target: int) -> Proc:
        """JR-AB-POISON / JR-AB-DRAINSTR (Plus): a resisted loss of 1 strength."""
        pc = self.pc
        floor = max(NO_STRENGTH_LOSS_AT, self.profile.strength_min)
        if pc.strength <= floor or pc.wears(Ring.STRENGTH):
            self._emit(Kind.ABILITY, ability=m.monster.ability.value, uid=m.uid, effect="none")
            return
        ok, _ = yield from self._check(what, target, against=m)
        if not ok:
            pc.strength -= 1
            self._emit(Kind.ABILITY, ability=m.monster.ability.value, uid=m.uid,
                       effect="strength -1", strength=pc.strength)

    def _vanish(self, m: MonsterOnMap) -> None:
        self._remove_monster(m)
        self._emit(Kind.ABILITY, ability=m.monster.ability.value, uid=m.uid, effect="vanished")

    def _gazers(self) -> list[MonsterOnMap]:
        """JR-AB-GAZE (Plus: pc_states): an awake medusa gazes once at a PC in its room
        (「PCがモンスターと同じ部屋にいる時」), checked at the start of every turn; not at a
        blind PC. On the door the PC is not in the room yet (the seed tells ドアの上 from
        部屋の中: JR-STATE-1, JR-MULTI-1), so from revision 4 it gazes only once the PC has
        stepped in (revision 3 and before: on the door too)."""
        here = self._here(self.room_no)
        if not here or PCState.BLIND in self.pc.states:
            return _NO_MONSTERS
        if self.position is not Position.ROOM and self.revision >= 4:
            return _NO_MONSTERS
        return [
            m for m in here
            if m.monster.ability is Ability.GAZE and not m.sealed and m.sleep is Sleeping.AWAKE
        ]

    def _gaze_checks(self, gazers: list[MonsterOnMap]) -> Proc:
        for m in gazers:
            ok, _ = yield from self._check("resist the gaze (睨み判定)", 4, against=m)
            if not ok:
                self._set_state(PCState.CONFUSED, True)
            m.sealed = True
