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

        From revision 10 a walk back is a walk to the room behind the door the PC came in by
        (``came_by``, JR-STATE-1 l.126-127: 「ドアの上から通路に引き返せば」), not to the route's
        last room: after a flight the PC stands on the door to the room it fled from, and a
        walk there goes back out through it, while a walk on to the route's older room
        crosses the room (JR-STATE-2); revision 9 took them the other way round (review64j
        RISK 1).
        """
        if self.revision >= 10:
            back = number == self.came_by
        else:
            back = bool(self.path) and number == self.path[-1]
        if not back and self.position is Position.DOOR and self._here(self.room_no):
            self._enter()
            if any(self._holds_exits(m) for m in self._here(self.room_no)):
                return  # woken monsters block the far doors
        if back and self.revision < 9:
            self.path.pop()
            self.room_no = 0
        yield from self._arrive(number)

    def _flight_target(self) -> int:
        """The room a flight goes back to, or 0 when there is none (JR-FLEE-1, JR-FLEE-2).

        Revision 9 and before: the route's last room (``path``), none while it is empty
        (a floor's start room, JR-FLEE-1's reading in ``rules defaults``).

        From revision 10 (review64j DEFECTs 2 and 3):

        - Not followed: out through the door the PC came in by, to ``came_by``
          (JR-FLEE-1 l.429, l.437: 「ドアから通路に出て、来た道を引き返します」). Monsters
          attacking from the room are awake and hold its other doors (JR-STATE-2 l.130-131:
          「別のドアから通路に出るには…起きているモンスターを、全て倒す必要」), so after a
          flight into a room, a second flight does not leave by the far door past a monster
          woken there; it goes back out by the door it stands on. After a walk the room
          came by is the route's last room, as before.
        - Followed (JR-FLEE-2, 挟み撃ちルール: monsters following, l.438): on back along the
          route the PC really walked (``path``, walks back included, never cut), across a
          room the PC crossed on its way here, whose 睡眠 monsters woke then (JR-STATE-1
          l.128-129); but never back to the room just fled from: the pursuers came after
          the PC from there and stand between it and that door (l.439-440: 「PCが移動する
          度に…隣接する様に、その方向へ動かします」), so with no other way back the PC is
          cornered and fights (review65j DEFECT 1 and RISK 1: revision 10 no longer cuts
          the route's loop where a flight ends).
        """
        path = self.path
        if self.revision < 10:
            return path[-1] if path else 0
        if not self.pursuers:
            return self.came_by
        target = path[-1] if path else 0
        return 0 if target == self.came_by else target

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
        # Each breathes once: a flight round a loop of rooms can end on another door of the
        # room a pursuer came from, where it is the room's and a pursuer both (a76jrcore
        # RISK 3), as :meth:`_targets` counts it once. From revision 13: revision 12 and
        # before breathed once for each list, and their logs replay so (r76jr RISK 3).
        breathers = [*self.room_monsters(), *self.pursuers]
        for m in list(dict.fromkeys(breathers)) if self.revision >= 13 else breathers:
            if m.monster.ability is Ability.FIRE_BREATH and m.sleep is Sleeping.AWAKE:
                self._emit(Kind.ABILITY, ability="fire_breath", uid=m.uid, why="flee")
                yield from self._hit(m, breath=True)  # JR-AB-BREATH: unopposed
        self.flees[self.room_no] = self.flees.get(self.room_no, 0) + 1
        if self.record:
            self._emit(Kind.MOVE, room=self.room_no, position=Position.CORRIDOR.value, flee=True)
        fled_from = self.room_no
        target = self._flight_target()
        if self.path and self.path[-1] == target:
            self.path.pop()  # back along the route
            self.room_no = 0
        # else (revision 10) out by the door the PC came in by, which is not the route's
        # last room after a flight: the room left is added to the route, as on a walk
        self.came_by = fled_from
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
