"""The book's tables, loaded from data files: monsters, encounters, sleep, levels.

>>> TABLES.monster_for(floor=1, rank=6).name_ja
'ホブゴブリン'
>>> TABLES.monster_for(floor=30, rank=9).id
'D'
>>> TABLES.level_for_xp(2599), TABLES.level_for_xp(2600)
(9, 10)
>>> TABLES.sleep_names["deeply_asleep"].text
'deeply asleep (熟睡)'
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise

from companion.errors import DataError
from companion.systems.jongrogue.datafiles import Fields, load_packaged


class Sleep(Enum):
    """A monster's sleep column (睡眠判定の種類, JR-SLEEP-1/2)."""

    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    AWAKE = "awake"  # 起
    ASLEEP = "asleep"  # 眠 / 睡眠
    DEEPLY_ASLEEP = "deeply_asleep"  # 熟睡
    ASLEEP_OR_AWAKE = "asleep_or_awake"  # 眠/起
    DEEPLY_ASLEEP_OR_AWAKE = "deeply_asleep_or_awake"  # 熟睡/起


class Ability(Enum):
    """Monster special abilities (特殊能力, JR-AB-*)."""

    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    NONE = ""
    HASTE = "haste"
    FREEZE = "freeze"
    POISON = "poison"
    GOLD_LOVER = "gold_lover"
    STEAL_GOLD = "steal_gold"
    RUST = "rust"
    STEAL_ITEM = "steal_item"
    HOLD = "hold"
    DRAIN_LEVEL = "drain_level"
    INVISIBLE = "invisible"
    MIMIC = "mimic"
    GAZE = "gaze"
    DRAIN_STRENGTH = "drain_strength"
    FIRE_BREATH = "fire_breath"


@dataclass(frozen=True, slots=True)
class Monster:
    """One row of the monster table (JR-MON-1). ``damage_d9`` is set for "2d9"."""

    id: str
    name_ja: str
    name_en: str
    attack: int
    damage: int
    damage_d9: int
    xp: int
    drops: int
    floors_from: int
    floors_to: int
    sleep_ez: Sleep
    sleep_plus: Sleep
    ability: Ability

    @property
    def name(self) -> str:
        return f"{self.name_ja} ({self.name_en})"


@dataclass(frozen=True, slots=True)
class SleepName:
    """A sleep column's or state's name (JR-SLEEP-1..3): ``short_ja`` is the room panel's
    Japanese, the shorter word where the book has one (眠 for 睡眠)."""

    ja: str
    en: str
    short_ja: str

    @property
    def text(self) -> str:
        """``asleep (睡眠)``: as the reference, the rules and the account write it."""
        return f"{self.en} ({self.ja})"


@dataclass(frozen=True, slots=True)
class Tables:
    monsters: dict[str, Monster]
    ability_names: dict[Ability, tuple[str, str]]
    sleep_names: dict[str, SleepName]  # by Sleep value; a monster's Sleeping state is one
    encounter: tuple[str, ...]  # index floor-1, each 9 monster ids by rank
    sleep_awake: tuple[tuple[tuple[bool, ...], ...], ...]  # [rings][row-1][col-1]
    level_xp: tuple[int, ...]  # index level-1

    def monster_for(self, floor: int, rank: int) -> Monster:
        """JR-ENC-1: the monster a monster tile of ``rank`` gives on ``floor``."""
        row = self.encounter[min(floor, len(self.encounter)) - 1]
        return self.monsters[row[rank - 1]]

    def awake_by_check(self, corner_rank: int, monster_rank: int, rings: int) -> bool:
        """JR-SLEEP-3: the sleep check's cell (True = awake, 起)."""
        table = self.sleep_awake[min(rings, len(self.sleep_awake) - 1)]
        return table[corner_rank - 1][monster_rank - 1]

    def level_for_xp(self, xp: int) -> int:
        """JR-LVL-1: the level a PC with ``xp`` experience has."""
        return max(1, bisect_right(self.level_xp, xp))  # the table rises (checked on load)

    @property
    def max_level(self) -> int:
        return len(self.level_xp)


def _damage(fields: Fields) -> tuple[int, int]:
    value = fields.table.get("damage")
    if isinstance(value, str):
        if not (value.endswith("d9") and value[:-2].isdigit()):
            raise fields.error("damage", f"must be a number or 'Nd9', found {value!r}")
        return 0, int(value[:-2])
    return fields.number("damage", 0), 0


def _sleep_names(source: str, table: object) -> dict[str, SleepName]:
    """monsters.toml's ``[sleep]``: each Sleep value's Japanese and English, and none else."""
    names = Fields(source, table, "sleep")
    found: dict[str, SleepName] = {}
    for sleep in Sleep:
        name = names.sub(sleep.value)
        ja = name.text("ja")
        short_ja = name.text("short_ja") if "short_ja" in name.table else ja
        found[sleep.value] = SleepName(ja, name.text("en"), short_ja)
    unknown = names.unread()
    if unknown:
        raise DataError("; ".join(unknown))
    return found


def load_tables() -> Tables:
    source, raw = load_packaged("monsters.toml")
    monsters: dict[str, Monster] = {}
    sleeps = tuple(s.value for s in Sleep)
    for mid, table in raw.items():
        if mid in ("abilities", "sleep"):
            continue
        f = Fields(source, table, mid)
        damage, damage_d9 = _damage(f)
        monsters[mid] = Monster(
            id=mid,
            name_ja=f.text("name_ja"),
            name_en=f.text("name_en"),
            attack=f.number("attack", 0),
            damage=damage,
            damage_d9=damage_d9,
            xp=f.number("xp", 0),
            drops=f.number("drops", 0),
            floors_from=f.number("floors_from", 1),
            floors_to=f.number("floors_to", 0),
            sleep_ez=Sleep(f.text("sleep_ez", sleeps)),
            sleep_plus=Sleep(f.text("sleep_plus", sleeps)),
            ability=Ability(f.text("ability", tuple(a.value for a in Ability))),
        )
    names = Fields(source, raw.get("abilities"), "abilities")
    ability_names: dict[Ability, tuple[str, str]] = {}
    for ability in Ability:
        if ability is not Ability.NONE:
            pair = names.array(ability.value)
            if len(pair) != 2 or not all(isinstance(name, str) for name in pair):
                raise names.error(ability.value, f"must be [Japanese, English], found {pair!r}")
            ability_names[ability] = (pair[0], pair[1])
    if unknown := names.unread():
        raise DataError("; ".join(unknown))
    sleep_names = _sleep_names(source, raw.get("sleep"))

    source, raw = load_packaged("encounter.toml")
    floors = Fields(source, raw.get("floors"), "floors")
    rows = []
    for i in range(1, len(floors.table) + 1):
        row = floors.text(str(i))
        if len(row) != 9 or any(m not in monsters for m in row):
            raise floors.error(str(i), f"must be 9 monster ids, found {row!r}")
        rows.append(row)

    source, raw = load_packaged("sleep.toml")
    rings = Fields(source, raw.get("rings"), "rings")
    sleep_awake = []
    for n in range(len(rings.table)):
        cells = rings.sub(str(n)).array("rows")
        if len(cells) != 9 or any(len(r) != 9 or set(r) - {"A", "."} for r in cells):
            raise DataError(f"{source}: rings.{n}.rows must be 9 rows of 9 'A' or '.', "
                            f"found {cells!r}")
        sleep_awake.append(tuple(tuple(c == "A" for c in r) for r in cells))

    source, raw = load_packaged("levels.toml")
    xp = Fields(source, raw).array("xp")
    if not xp or xp[0] != 0 or any(b <= a for a, b in pairwise(xp)):
        raise DataError(f"{source}: xp must rise from 0, found {xp!r}")
    return Tables(monsters, ability_names, sleep_names, tuple(rows), tuple(sleep_awake),
                  tuple(xp))


TABLES = load_tables()
