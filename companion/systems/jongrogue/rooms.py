"""The engine's third layer, :class:`_Rooms`: the rooms and who is in them. The PC arriving
at a room's door, a room revealed (its four tiles, the stairs, the HP regained), the
encounter with each of its monsters (which one, asleep or not, hasted, invisible, on the
gold), a monster woken, and the PC stepping from the door into the room.

Rules: JR-MAP-2, JR-MAP-3, JR-ENC-1, JR-SLEEP-1..3, JR-STATE-1, and as a monster is met
JR-AB-HASTE, JR-AB-INVISIBLE and JR-AB-GOLDLOVER.
"""

from __future__ import annotations

from companion.systems.jongrogue.actions import Choice, Purpose, Verb
from companion.systems.jongrogue.drawing import Proc, _Drawing
from companion.systems.jongrogue.encounter import sleep_on_encounter
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.profile import Ring, Role
from companion.systems.jongrogue.state import MonsterOnMap, PCState, Position, Room, Sleeping
from companion.systems.jongrogue.tables import TABLES, Ability
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place

SPOT_NAMES = ("top-left", "top-right", "bottom-left", "bottom-right")
SPOT_NAMES_JA = ("左上", "右上", "左下", "右下")

_FIGHTS: list[Choice] = []  # fight:<uid> and shoot:<uid> by uid, grown as monsters are met
_SHOTS: list[Choice] = []


def _choices_up_to(uid: int) -> None:
    """Make the fight and shoot choices of every uid up to ``uid``."""
    while len(_FIGHTS) <= uid:
        _FIGHTS.append(Choice.of(Verb.FIGHT, str(len(_FIGHTS))))
        _SHOTS.append(Choice.of(Verb.SHOOT, str(len(_SHOTS))))


class _Rooms(_Drawing):
    """Adds the rooms: arriving, revealing, the encounters, waking and entering."""

    def _arrive(self, number: int) -> Proc:
        """The PC reaches a room's door; a room entered for the first time is revealed.
        The room left is added to the route (JR-FLEE-1) and is the one the PC came by, behind
        the door it stands on (a flight back along the route sets ``came_by`` itself)."""
        if self.room_no and self.room_no != number:
            self.path.append(self.room_no)
            self.came_by = self.room_no
        self.room_no = number
        self.position = Position.DOOR
        self.melee_started = False
        if PCState.CONFUSED in self.pc.states and self.profile.confusion_ends_next_room:
            self._set_state(PCState.CONFUSED, False)
        if self.record:
            self._emit(Kind.MOVE, room=number, position=Position.DOOR.value)
        if number not in self.rooms:
            yield from self._reveal(number)

    def _reveal(self, number: int) -> Proc:
        """JR-MAP-2: 4 tiles from the wall, laid 2x2; then each monster is encountered."""
        tiles: list[Tile | None] = []
        for spot in range(4):
            if self._draw_now is not None:
                tiles.append(self._drawn(Place.TABLE))
                continue
            prompt = (f"Lay the {SPOT_NAMES[spot]} tile of room {number} "
                      f"(部屋{number}の{SPOT_NAMES_JA[spot]})") if self.record else ""
            tile = yield from self._draw(Purpose.ROOM, prompt, Place.TABLE)
            tiles.append(tile)
        role_of = self.profile.roles
        roles = [role_of[t.index] for t in tiles if t is not None]
        room = Room(number, tiles, roles)
        room.stairs = Role.STAIRS in roles
        self.rooms[number] = room
        if len(self.rooms) == 9 and not any(r.stairs for r in self.rooms.values()):
            room.stairs = True  # JR-MAP-3
        if self.record:
            self._emit(
                Kind.ROOM,
                room=number,
                tiles=[str(t) for t in tiles],
                roles=[r.value for r in roles],
                stairs=room.stairs,
            )
        regen = min(self.profile.regen_per_room, self.pc.max_hp - self.pc.hp)
        if regen > 0:
            self.pc.hp += regen
            if self.record:
                self._emit(Kind.HEAL, amount=regen, hp=self.pc.hp, why="room")
        for spot, role in enumerate(roles):
            if role is Role.MONSTER:
                self._encounter(room, spot)

    def _encounter(self, room: Room, spot: int) -> None:
        """JR-ENC-1 and JR-SLEEP-1..3: which monster, and is it asleep."""
        tile = room.tiles[spot]
        assert tile is not None
        monster = TABLES.monster_for(self.floor, tile.rank)
        sleep, check = sleep_on_encounter(
            monster, tile, room.tiles[0], self.pc.wears(Ring.STEALTH),
            self._sleep_check, self.profile.non_number_corner_sleeps,
        )
        m = MonsterOnMap(self._next_uid, monster, tile, room.number, spot, sleep)
        self._next_uid += 1
        if m.uid >= len(_FIGHTS):
            _choices_up_to(m.uid)
        if self._extended:
            m.hasted = monster.ability is Ability.HASTE  # JR-AB-HASTE (Plus)
            m.invisible = monster.ability is Ability.INVISIBLE  # JR-AB-INVISIBLE (Plus)
        if monster.ability is Ability.GOLD_LOVER:
            m.on_gold = self._gold_pile_for(room)
        self.monsters.append(m)
        self._by_uid[m.uid] = m
        room.monsters.append(m)
        if self.record:
            self._emit(
                Kind.ENCOUNTER,
                uid=m.uid,
                monster=monster.id,
                name_ja=monster.name_ja,
                name_en=monster.name_en,
                spot=spot,
                sleep=sleep.value,
                sleep_check=check,
                on_gold=m.on_gold is not None,
                hasted=m.hasted,
                invisible=m.invisible,
            )

    def _gold_pile_for(self, room: Room) -> int | None:
        """JR-AB-GOLDLOVER, seed l.243-244 「モンスターのいる部屋に金塊が有ったら
        遭遇マップの何れかの金塊の牌の上にモンスターの牌を乗せます」: the spot of the gold pile
        a gold-lover met in ``room`` sits on, or None when the room holds no gold.

        One monster tile goes on one gold tile, so from revision 6 each gold-lover takes the
        first pile, in the room's spot order, that no monster sits on yet: two orcs and two
        piles guard both (revision 5 and before put every one on the first pile, leaving the
        other free to take). With more gold-lovers than piles (four tiles: then the room has
        one pile) the seed's condition still holds for each, 「金塊が有ったら」, so the extra
        ones share that pile and, on gold, do not attack (l.247)."""
        gold = [s for s, r in enumerate(room.roles) if r is Role.GOLD and room.tiles[s]]
        if not gold:
            return None
        if self.revision >= 6:
            sat = {m.on_gold for m in room.monsters}
            free = [s for s in gold if s not in sat]
            if free:
                return free[0]
        return gold[0]

    def _wake(self, m: MonsterOnMap, why: str) -> None:
        if m.sleep is not Sleeping.AWAKE:
            m.sleep = Sleeping.AWAKE
            if self.record:
                self._emit(Kind.WAKE, uid=m.uid, monster=m.monster.id, why=why)

    def _enter(self) -> None:
        """JR-STATE-1: stepping from the door into the room wakes every 睡眠 monster."""
        self.position = Position.ROOM
        if self.record:
            self._emit(Kind.MOVE, room=self.room_no, position=Position.ROOM.value)
        for m in self.room_monsters():
            if m.sleep is Sleeping.ASLEEP:
                self._wake(m, "the PC stepped into the room")
