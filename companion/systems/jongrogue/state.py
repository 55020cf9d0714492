"""The game's state: the PC sheet, the rooms of the floor and the monsters on the map."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from companion.systems.jongrogue.profile import Gear, Profile, Ring, Role
from companion.systems.jongrogue.tables import TABLES, Monster
from companion.systems.jongrogue.tiles import Tile


class Sleeping(Enum):
    """A monster's sleep state on the map (JR-SLEEP-*, JR-STATE-3)."""

    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    AWAKE = "awake"  # 通常 (起)
    ASLEEP = "asleep"  # 睡眠
    DEEPLY_ASLEEP = "deeply_asleep"  # 熟睡


class PCState(Enum):
    """PC states (JR-AB-FREEZE, JR-PC-3)."""

    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    FROZEN = "frozen"  # 凍結
    BOUND = "bound"  # 拘束
    CONFUSED = "confused"  # 混乱
    BLIND = "blind"  # 盲目
    FLOATING = "floating"  # 浮遊


class Position(Enum):
    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    DOOR = "door"  # ドアの上
    ROOM = "room"  # 部屋の中
    CORRIDOR = "corridor"  # 通路


@dataclass(slots=True, eq=False)
class MonsterOnMap:
    """One monster tile on the encounter map and its own states (JR-STATE-3). Each is
    itself (compared by identity): two snakes alike in every state are still two."""

    uid: int
    monster: Monster
    tile: Tile
    room: int
    spot: int  # 0..3: top-left, top-right, bottom-left, bottom-right
    sleep: Sleeping
    hasted: bool = False  # 倍速
    invisible: bool = False  # 透明
    sealed: bool = False  # 封魔: its ability never triggers again
    on_gold: int | None = None  # spot of the gold tile it sits on (JR-AB-GOLDLOVER)
    has_attacked: bool = False  # it has attacked the PC, hit or not (JR-AB-INVISIBLE)
    alive: bool = True


@dataclass(slots=True)
class Room:
    """A revealed room: its 4 tiles and what is left of them (JR-MAP-2)."""

    number: int
    tiles: list[Tile | None]  # by spot; None once the tile left the table
    roles: list[Role]
    stairs: bool = False
    drops: list[Tile] = field(default_factory=list)  # items dropped here (JR-DROP-1)
    monsters: list[MonsterOnMap] = field(default_factory=list)  # alive here, as met


@dataclass(slots=True)
class PC:
    """The player character's sheet (JR-PC-1)."""

    level: int
    xp: int
    hp: int
    max_hp: int
    strength: int
    gold: int
    weapon: Gear
    ranged: Gear
    arrows: int
    armour: Gear
    shuriken: int = 0  # every shuriken held
    shuriken_attack: int = 0  # of the kind thrown next
    # revision 12 (JR-ITEM-1): the shuriken by kind, one tile of each kind's rank and its
    # count, in the order first found, and the rank of the kind readied (0: none yet)
    shuriken_tiles: list[Tile] = field(default_factory=list)
    shuriken_counts: list[int] = field(default_factory=list)
    shuriken_rank: int = 0
    potions: list[Tile] = field(default_factory=list)  # the potion tiles held
    weapon_tile: Tile | None = None  # the found item tiles behind the gear, if any
    armour_tile: Tile | None = None
    rings: list[Tile] = field(default_factory=list)  # worn
    ring_kinds: list[Ring] = field(default_factory=list)
    spare_rings: list[Tile] = field(default_factory=list)
    states: set[PCState] = field(default_factory=set)
    drained: bool = False  # level came from a drain, not the XP table (JR-AB-DRAIN)
    bow_ready: bool = False  # the bow is shot though shuriken are held (ready:bow)

    @staticmethod
    def new(profile: Profile) -> PC:
        """JR-PC-1: the PC at the start of a run, at the level its starting XP gives
        (JR-LVL-1; the profile's ``xp`` [DEFAULT], 0: level 1) and with full HP."""
        level = TABLES.level_for_xp(profile.xp)
        return PC(
            level=level,
            xp=profile.xp,
            hp=profile.max_hp(level),
            max_hp=profile.max_hp(level),
            strength=profile.strength,
            gold=profile.gold,
            weapon=profile.weapon,
            ranged=profile.ranged,
            arrows=profile.arrows,
            armour=profile.armour,
        )

    def wears(self, ring: Ring) -> int:
        """How many rings of this kind the PC wears (all found rings are uncursed)."""
        return self.ring_kinds.count(ring)

    def sheet(self) -> dict[str, object]:
        return {
            "level": self.level,
            "xp": self.xp,
            "hp": self.hp,
            "max_hp": self.max_hp,
            "strength": self.strength,
            "gold": self.gold,
            "weapon": [self.weapon.name_ja, self.weapon.name_en, self.weapon.value],
            "ranged": [self.ranged.name_ja, self.ranged.name_en, self.ranged.value],
            "arrows": self.arrows,
            "shuriken": self.shuriken,
            "armour": [self.armour.name_ja, self.armour.name_en, self.armour.value],
            "potions": len(self.potions),
            "rings": [r.value for r in self.ring_kinds],
            "states": sorted(s.value for s in self.states),
        }
