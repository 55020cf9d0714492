"""The engine's sixth layer, :class:`_Ranged`: ranged combat. Who the PC may shoot and
with what, the one-sided shots while the check to go on succeeds (the potion, the rings and
readying offered between them) and one shot (a fire-breather missed breathes back).

Rules: JR-RANGED-1, JR-RANGED-2, JR-RANGED-3, JR-AB-HASTE (EZ: no shot at a hasted monster),
JR-AB-BREATH.
"""

from __future__ import annotations

from companion.systems.jongrogue.actions import Choice, ChoiceRequest, Verb
from companion.systems.jongrogue.combat import _Combat
from companion.systems.jongrogue.core import _NO_MONSTERS
from companion.systems.jongrogue.drawing import Proc
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.profile import RateWeapon
from companion.systems.jongrogue.rooms import _SHOTS
from companion.systems.jongrogue.state import MonsterOnMap, PCState, Position
from companion.systems.jongrogue.tables import Ability
from companion.systems.jongrogue.tiles import Tile

_CLOSE_OR_DOOR = (Choice.of(Verb.CLOSE), Choice.of(Verb.DOOR))
_CLOSE_ONLY = _CLOSE_OR_DOOR[:1]


class _Ranged(_Combat):
    """Adds ranged combat."""

    def _ranged_targets(self, targets: list[MonsterOnMap] | None = None) -> list[MonsterOnMap]:
        """Who the PC may shoot (JR-RANGED-1: before melee only); ``targets`` if known.

        A pursuer's melee began in the room the PC fled (JR-FLEE-2), so from revision 3 it
        is no target (「近接戦闘を始める前に」); revision 2 and before shot it."""
        if self.melee_started or not self._has_ammo():
            return []
        shootable = self._targets() if targets is None else targets
        if self.pursuers and self.revision >= 3:
            shootable = [m for m in shootable if m not in self.pursuers]
        if self._extended:
            return shootable
        return [
            m for m in shootable
            if m.monster.ability is not Ability.HASTE  # JR-AB-HASTE (EZ)
        ]

    def _has_ammo(self) -> bool:
        return self.pc.shuriken > 0 or self.pc.arrows > 0

    def _ranged_combat(self, first: MonsterOnMap) -> Proc:
        """JR-RANGED-1..3: one-sided shots while ``1d9 >= ranged_continue`` (the profile's;
        the seed's 3) keeps succeeding, checked on the first turn too as the profile's
        ``ranged_check_first_turn`` [DEFAULT] says. Closing in, or moving onto the door from
        the room (not offered on it, from revision 8), ends it."""
        if self.record:
            self._emit(Kind.RANGED, action="begin", uid=first.uid)
        target: MonsterOnMap | None = first
        opening = True
        while True:
            if not opening and self.revision >= 3:
                # JR-AB-GAZE: checked at the start of every turn, a ranged one too
                # (revision 2 and before: only when the PC chose what to do next)
                gazers = self._gazers() if self._pc_states else _NO_MONSTERS
                if gazers:
                    yield from self._gaze_checks(gazers)
            if not opening or self.profile.ranged_check_first_turn:
                keep, _ = yield from self._check(
                    "ranged combat goes on", self.profile.ranged_continue
                )
                if not keep:
                    break
            if target is None:
                targets = self._ranged_targets()
                if not targets:
                    break
                options = [_SHOTS[m.uid] for m in targets]
                if self.pc.potions and self.pc.hp < self.pc.max_hp:
                    options += self._potion_options()
                options += self._ring_options()  # JR-RANGED-2: equip / unequip
                options += self._ready_option()
                # JR-RANGED-2: 「ドアの上に移動する」 is a move; on the door (revision 8) there
                # is none to make (revision 7 and before offered it there as a second
                # "close": it ended ranged combat and left the PC where it stood)
                on_door = self.position is Position.DOOR and self.revision >= 8
                options += _CLOSE_ONLY if on_door else _CLOSE_OR_DOOR
                request = ChoiceRequest("Ranged combat 遠隔戦闘: act どうする？", tuple(options))
                choice = (yield request) if self._answer_now is None else self._ask(request)
                assert isinstance(choice, Choice)
                if choice.verb in (Verb.CLOSE, Verb.DOOR):
                    if choice.verb is Verb.DOOR:
                        self.position = Position.DOOR
                        if self.record and self.revision >= 8:
                            # the log says the PC stepped back onto the door, as on arriving
                            # (revision 7 moved it unsaid, and offered it on the door too)
                            self._emit(Kind.MOVE, room=self.room_no,
                                       position=Position.DOOR.value)
                    break
                if choice.verb is Verb.USE:
                    self._drink(choice)
                    opening = False
                    continue
                if choice.verb is Verb.READY:
                    self._ready(choice)
                    opening = False
                    continue
                if choice.verb in (Verb.EQUIP, Verb.UNEQUIP):
                    ring = Tile.from_notation(choice.arg)
                    if choice.verb is Verb.EQUIP:
                        self._wear_ring(ring)
                    else:
                        self._remove_ring(ring)
                    opening = False
                    continue
                target = self.monster(int(choice.arg))
            yield from self._shoot(target)
            target = None
            opening = False
            if not self._ranged_targets():
                break
        self.melee_started = True
        if self.record:
            self._emit(Kind.RANGED, action="end")

    def _shoot(self, m: MonsterOnMap) -> Proc:
        """JR-RANGED-3 [DEFAULT]: a one-sided shot, ``1d9 >= rate`` with the attack the
        profile's ``ranged_rate_weapon`` names (that of what is shot, or the melee weapon's),
        decided by a critical or fumble as the profile's ``ranged_automatic`` says. JR-PC-3:
        confused (混乱), the PC first makes the attack turn's ``confused_act`` check, as in
        melee, and on a failure the shot is lost (revision 3; before, confusion let it be).

        A shot from the door wakes only the monster shot at: unlike a blow (revision 5), it
        is no step into the room (JR-STATE-1), for the seed fights ranged combat from where
        the PC stands and lists 「ドアの上に移動する」 among its options (l.411)."""
        pc = self.pc
        if PCState.CONFUSED in pc.states and self.revision >= 3:
            acts, _ = yield from self._check("act while confused (混乱)", self.profile.confused_act)
            if not acts:
                return
        if pc.shuriken > 0 and not (pc.bow_ready and pc.arrows > 0):
            weapon, attack = "shuriken", self._throw_shuriken()
        else:
            pc.arrows -= 1
            weapon, attack = "arrows", pc.ranged.value
        if self.profile.ranged_rate_weapon is RateWeapon.MELEE:
            attack = pc.weapon.value
        self._wake(m, "shot at")
        raw, terms, rate = self.rate(m, attack)
        hit, _ = yield from self._check(
            f"ranged ({weapon}) vs {m.monster.name_ja}" if self.record else "", rate,
            automatic=self.profile.ranged_automatic, terms=terms, raw=raw, against=m,
        )
        if hit:
            yield from self._pc_hits(m)
        elif m.monster.ability is Ability.FIRE_BREATH:
            self._emit(Kind.ABILITY, ability="fire_breath", uid=m.uid, why="ranged")
            yield from self._hit(m, breath=True)
