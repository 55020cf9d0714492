"""The engine's seventh layer, :class:`_Moving`: walking to a neighbouring room, and fleeing
back the way the PC came (the room's attackers defended against, the fire breath, the
monsters that follow). Arriving at a door and stepping into the room are the rooms layer's.

Rules: JR-STATE-2, JR-FLEE-1, JR-FLEE-2, JR-MELEE-1 (fleeing is defending), JR-AB-BREATH.
"""

from __future__ import annotations

from companion.systems.jongrogue.actions import Choice, Verb
from companion.systems.jongrogue.drawing import Proc
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.profile import Option
from companion.systems.jongrogue.ranged import _Ranged
from companion.systems.jongrogue.state import Position, Sleeping
from companion.systems.jongrogue.tables import Ability


class _Moving(_Ranged):
    """Adds walking to a room and fleeing."""

    def _move(self, number: int) -> Proc:
        """Walk to a neighbouring room (JR-STATE-2: through another door only with no
        monster left that holds it, :meth:`_holds_exits`; back through the door the PC came
        in by at any time).

        The route walked is kept whole (revision 9): a walk back to the room the PC came
        from adds the room it leaves, as any walk does, so a flight from there retraces the
        way the PC really came (JR-FLEE-1: 「来た道を引き返します」), through the door it
        stands on. Revision 8 and before took a walk back as undoing the last step and
        dropped it from the route: a flight after it left by the room's far door, or, in a
        start room walked back into, was not offered at all.
        """
        back = bool(self.path) and number == self.path[-1]
        if not back and self.position is Position.DOOR and self._here(self.room_no):
            self._enter()
            if any(self._holds_exits(m) for m in self._here(self.room_no)):
                return  # woken monsters block the far doors
        if back and self.revision < 9:
            self.path.pop()
            self.room_no = 0
        yield from self._arrive(number)

    def _flee(self) -> Proc:
        """JR-FLEE-1/2: out through the door, back the way the PC came.

        Fleeing is not an attack, so that turn the PC defends against the room's attackers
        (JR-MELEE-1: 攻撃以外を実行したら...防御); monsters already following a fleeing PC
        do not melee it (JR-FLEE-2: 逃げている間...近接攻撃を受けません). Where the flight
        ends, the pursuers' melee goes on (revision 7: no ranged combat while they follow,
        nor readying the bow or shuriken, offered only outside melee).
        """
        followers = []
        if self.on(Option.PINCER):
            # モンスターはPCの後を追いかけて来ます: every monster fighting the PC, not only
            # those whose places let them strike this turn (revision 1 took only those).
            chasers = self._front() if self.revision >= 2 else self.attackers()
            followers = [m for m in chasers if m.sleep is Sleeping.AWAKE]
        if not self.pursuers:
            yield from self._defend_turn(Choice.of(Verb.FLEE))
        elif self.attackers():
            self._turn("flee", attackers=[])  # JR-FLEE-2: the pursuers hold their blows
        for m in [*self.room_monsters(), *self.pursuers]:
            if m.monster.ability is Ability.FIRE_BREATH and m.sleep is Sleeping.AWAKE:
                self._emit(Kind.ABILITY, ability="fire_breath", uid=m.uid, why="flee")
                yield from self._hit(m, breath=True)  # JR-AB-BREATH: unopposed
        self.flees[self.room_no] = self.flees.get(self.room_no, 0) + 1
        if self.record:
            self._emit(Kind.MOVE, room=self.room_no, position=Position.CORRIDOR.value, flee=True)
        target = self.path.pop()
        self.room_no = 0
        yield from self._arrive(target)
        # A thief that struck during the flight has vanished (JR-AB-STEALGOLD/STEALITEM):
        # it follows no one.
        followers = [m for m in followers if m.alive]
        for m in followers:
            if m not in self.pursuers:
                self.pursuers.append(m)
        if followers:
            self._emit(Kind.STATE, who="monsters", state="pursuing",
                       uids=[m.uid for m in self.pursuers], pincer=self.pincered())
        if self.pursuers and self.revision >= 7:
            # JR-RANGED-1: with its pursuers on it the PC's melee has begun, so no ranged
            # combat opens at this door (「近接戦闘を始める前に」); revision 6 and before
            # let it, and the pursuers held their blows through the shots; readying, offered
            # only outside melee (JR-RANGED-2), goes from this decision too.
            self.melee_started = True
