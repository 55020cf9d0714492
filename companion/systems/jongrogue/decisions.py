"""The engine's eighth layer, :class:`_Decisions`: the player's decisions. The options
offered (fight, shoot, potion, defend, flee, rings, readying, enter, take, stairs, the moves)
and their prompt, asking for a choice (or acting for a frozen or bound PC, after the gaze)
and acting on it. A bound PC no monster attacks is not asked: its break-free checks
run on their own until it is free (revision 11).

Rules: JR-MAP-1 (the moves), JR-MELEE-1, JR-STATE-1 and JR-STATE-2 (who may be fought and
taken from the door), JR-PC-3, JR-AB-FREEZE, JR-AB-GAZE (checked as a turn begins).
"""

from __future__ import annotations

from companion.systems.jongrogue.actions import Choice, ChoiceRequest, Verb
from companion.systems.jongrogue.core import _NO_MONSTERS
from companion.systems.jongrogue.drawing import Proc
from companion.systems.jongrogue.moving import _Moving
from companion.systems.jongrogue.rooms import _FIGHTS, _SHOTS
from companion.systems.jongrogue.state import MonsterOnMap, PCState, Position, Sleeping
from companion.systems.jongrogue.tiles import Tile


def _grid_neighbours(room: int) -> tuple[int, ...]:
    row, col = divmod(room - 1, 3)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        r, c = row + dr, col + dc
        if 0 <= r < 3 and 0 <= c < 3:
            out.append(r * 3 + c + 1)
    return tuple(out)


# Worked out once: every decision outside a fight offers the moves.
_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_grid_neighbours(r) for r in range(10))
_MOVES: tuple[tuple[Choice, ...], ...] = tuple(
    tuple(Choice.of(Verb.MOVE, str(n)) for n in rooms) for rooms in _NEIGHBOURS
)
_MOVES_TO: tuple[Choice, ...] = tuple(Choice.of(Verb.MOVE, str(n)) for n in range(10))
_DEFEND, _FLEE, _ENTER, _TAKE, _STAIRS = (
    Choice.of(v) for v in (Verb.DEFEND, Verb.FLEE, Verb.ENTER, Verb.TAKE, Verb.STAIRS)
)


class _Decisions(_Moving):
    """Adds the decisions: the options offered and acting on a choice."""

    def _options(self) -> tuple[str, tuple[Choice, ...], list[MonsterOnMap]]:
        """The decision's prompt and options, and the attackers they were offered with."""
        pc, room = self.pc, self.room
        alive = room.monsters
        options: list[Choice] = []
        front = attackers = _NO_MONSTERS
        if alive or self.pursuers:
            front = self._front()
            attackers = self._attackers_of(front)
            targets = self._targets()
            if (self.position is Position.DOOR and PCState.BOUND in pc.states
                    and self.revision >= 5):
                # JR-PC-3: a blow at a sleeper is a step in (JR-STATE-1), which a bound PC
                # cannot take; a shot at one goes with it (the reading "JR-PC-3 (door)" that
                # `companion rules defaults` lists: the seed does not say what 拘束 stops)
                targets = [m for m in targets if m.sleep is Sleeping.AWAKE]
            options = [_FIGHTS[m.uid] for m in targets]
            if not self.melee_started and (pc.shuriken > 0 or pc.arrows > 0):
                options += [_SHOTS[m.uid] for m in self._ranged_targets(targets)]
        if pc.potions and pc.hp < pc.max_hp:
            options += self._potion_options()
        bound = PCState.BOUND in pc.states
        if attackers:
            options.append(_DEFEND)
            pincered = bool(front) and bool(self.pursuers)
            if not pincered and not bound and self._flight_target():
                options.append(_FLEE)
            if pc.rings or pc.spare_rings:
                options += self._ring_options()  # JR-MELEE-1: equip / unequip, then defend
            if not self.melee_started:
                options += self._ready_option()  # as a ring: readying, then defending
            if not self.record:
                return "", tuple(options), attackers
            names = ", ".join(f"{m.monster.name_ja} {m.monster.name_en}" for m in attackers)
            prompt = f"{names} attack! 攻撃！"  # (the screen's header says the floor and room)
            return prompt, tuple(options), attackers
        self.turn = 0  # no monster attacks: the fight, if there was one, is over
        # JR-PC-3: bound, the PC cannot step in from the door either (revision 3)
        held_at_door = bound and self.position is Position.DOOR and self.revision >= 3
        if self.position is Position.DOOR and alive and not held_at_door:
            options.append(_ENTER)
        held = False
        for m in alive:
            if self._holds_exits(m):
                held = True
                break
        if not held_at_door and (
            self._has_loot() if not alive else self._gold_apart() and bool(self._free_gold())
        ):
            options.append(_TAKE)  # JR-STATE-2: loot in a cleared room, or gold alone
        if not bound and not held:  # JR-PC-3: a bound PC cannot move
            if room.stairs:
                options.append(_STAIRS)
            options += _MOVES[room.number]
        elif not bound and self.revision >= 10:
            if self.came_by:  # JR-STATE-1: back out by the door it came in by (revision 10)
                options.append(_MOVES_TO[self.came_by])
        elif not bound and self.path:
            options.append(_MOVES_TO[self.path[-1]])
        if pc.rings or pc.spare_rings:
            options += self._ring_options()
        options += self._ready_option()
        if not self.record:
            return "", tuple(options), attackers
        return "What next? どうする？", tuple(options), attackers

    def _decide(self) -> Proc:
        """Ask the player what to do, or act for a PC that cannot (JR-AB-FREEZE)."""
        while True:
            gazers = self._gazers() if self._pc_states else _NO_MONSTERS
            if gazers:
                yield from self._gaze_checks(gazers)
            if PCState.FROZEN in self.pc.states:
                thawed, _ = yield from self._check("thaw (凍結)", self.profile.thaw)
                if thawed:
                    self._set_state(PCState.FROZEN, False)
                else:
                    attackers = self.attackers()
                    if attackers:
                        self._turn("frozen", attackers=attackers)
                        yield from self._monsters_attack(None)
                    continue
            if PCState.BOUND in self.pc.states:
                free, _ = yield from self._check("break free (拘束)", self.profile.bound_escape)
                if free:
                    self._set_state(PCState.BOUND, False)
            prompt, options, attackers = self._options()
            if PCState.BOUND in self.pc.states and (
                    not options or (not attackers and self.revision >= 11)):
                # Bound with no monster attacking (its binder dead, say): the turns pass,
                # each with its break-free check, as a frozen PC's thaw checks do, and the
                # PC is asked once it is free. JR-PC-3 stops only moving and fleeing; before
                # revision 11 the PC was asked while bound, and a potion or a ring held made
                # drinking it or taking the ring off the only way to a next check (rules70
                # DEFECT 1). Nothing happens in those turns, so every option offered while
                # bound is offered again once free, with the moves.
                continue
            request = ChoiceRequest(prompt, options)
            if self._answer_now is None:
                choice = yield request
            else:
                self._asked_attackers = attackers  # the player asks for them again
                try:
                    choice = self._answer_now(self, request)
                finally:
                    self._asked_attackers = None
                self.inputs.append(choice)
            assert isinstance(choice, Choice)
            return choice

    def _act(self, choice: Choice) -> Proc:
        verb = choice.verb  # the most frequent first
        if verb is Verb.SHOOT:
            yield from self._ranged_combat(self.monster(int(choice.arg)))
        elif verb is Verb.TAKE:
            yield from self._take()
        elif verb is Verb.MOVE:
            yield from self._move(int(choice.arg))
        elif verb is Verb.FIGHT:
            yield from self._melee_turn(self.monster(int(choice.arg)))
        elif verb is Verb.USE:
            self._drink(choice)
            yield from self._defend_turn(choice)
        elif verb is Verb.DEFEND:
            yield from self._defend_turn(choice)
        elif verb is Verb.FLEE:
            yield from self._flee()
        elif verb is Verb.ENTER:
            self._enter()
        elif verb is Verb.EQUIP:
            self._wear_ring(Tile.from_notation(choice.arg))
            yield from self._defend_turn(choice)  # JR-MELEE-1: in melee, equipping is defending
        elif verb is Verb.UNEQUIP:
            self._remove_ring(Tile.from_notation(choice.arg))
            yield from self._defend_turn(choice)
        elif verb is Verb.READY:
            self._ready(choice)
            yield from self._defend_turn(choice)
