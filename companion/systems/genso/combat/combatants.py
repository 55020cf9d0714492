"""Who fights in a `genso` fight: sides, roles, states, stances, weapons, spells on them, and
the :class:`Combatant` built from a character sheet or a monster block.

Rules: GM-COMBAT-1 (sides, fled), GM-COMBAT-2/3/4 (the role picks the attack formula),
GM-COMBAT-5/6 and GM-MOVE-1 (stances), GM-COMBAT-8 (states), GM-MAGIC-4 (spells kept in
casting order), GM-CORE-3/4, GM-EQUIP, GM-ITEM and GM-ITEM-3 (:func:`from_character`),
GM-MON-7 (:func:`from_monster`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from companion.systems.genso.character.core import Character, Kind, derive
from companion.systems.genso.rules import CreatureKind, Duration, GensoRules, Monster


class Side(Enum):
    """PC party (acts first) or the other side (GM-COMBAT-1)."""

    PARTY = "party"
    ENEMY = "enemy"


class Role(Enum):
    """Who a combatant is, which picks the attack formula (GM-COMBAT-2/3/4) and GM-COMBAT-8."""

    PC = "pc"
    NPC = "npc"
    NPC_AS_MONSTER = "npc_as_monster"  # 魔物扱いのＮＰＣ
    MONSTER = "monster"

    @property
    def monster_like(self) -> bool:
        return self in (Role.MONSTER, Role.NPC_AS_MONSTER)


class Status(Enum):
    """GM-COMBAT-8 states, and fled (GM-COMBAT-1)."""

    ACTIVE = "active"
    INCAPACITATED = "incapacitated"  # 行動不能
    DEAD = "dead"  # 死亡 / 死亡扱い
    VANISHED = "vanished"  # 消滅
    FLED = "fled"  # 逃亡

    @property
    def said(self) -> str:
        """The state in a sentence after a name: "has fled", "has vanished", "is dead"."""
        return f"has {self.value}" if self in (Status.FLED, Status.VANISHED) else \
            f"is {self.value}"

    @property
    def badge(self) -> str:
        return {
            Status.ACTIVE: "", Status.INCAPACITATED: "INCAPACITATED 行動不能",
            Status.DEAD: "DEAD 死亡", Status.VANISHED: "VANISHED 消滅", Status.FLED: "FLED 逃亡",
        }[self]


class Stance(Enum):
    """What a combatant's last action left it doing until its next one."""

    NONE = "none"
    FULL_ATTACK = "full_attack"  # 全力攻撃: no dodging (GM-COMBAT-5)
    FULL_DODGE = "full_dodge"  # 全力回避: +6 to defence (GM-COMBAT-6)
    NORMAL_MOVE = "normal_move"  # 通常移動: can dodge, not attack (GM-MOVE-1)
    FULL_MOVE = "full_move"  # 全力移動: cannot dodge (GM-MOVE-1)

    @property
    def text(self) -> str:
        """The stance as the screen and `fight show` say it (the value is the file's)."""
        return _STANCE_TEXT[self]


_STANCE_TEXT = {
    Stance.NONE: "", Stance.FULL_ATTACK: "全力攻撃 full attack",
    Stance.FULL_DODGE: "全力回避 full dodge", Stance.NORMAL_MOVE: "通常移動 moved",
    Stance.FULL_MOVE: "全力移動 full move",
}


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon a combatant strikes with; ``enchanted`` is Exorcism until sunrise."""

    key: str
    name: str
    power: str
    magic: bool = False


@dataclass(frozen=True, slots=True)
class Effect:
    """A spell placed on a combatant (GM-MAGIC-4 cancels the oldest eligible first)."""

    spell: str
    caster: str
    caster_magic: int
    duration: Duration
    order: int
    weapon: str = ""
    members: tuple[str, ...] = ()
    #: The number of the weapon it is on (``--weapon N``): of two clubs, the one it was cast
    #: on (a78gensofight item 2). None on an Exorcism engine revision 9 and before placed,
    #: which went by ``weapon``, the key, on every weapon of that kind, as it was played.
    weapon_index: int | None = None

    def on_weapon(self, index: int, key: str) -> bool:
        """Is this on the weapon numbered ``index`` (of kind ``key``)?"""
        if not self.weapon:
            return False
        return self.weapon == key if self.weapon_index is None else self.weapon_index == index


@dataclass(frozen=True)
class Combatant:
    """One PC, NPC or monster in a fight, with everything the rules read of it."""

    name: str
    side: Side
    role: Role
    body: int | None
    perception: int
    magic: int
    hp: int | None
    max_hp: int | None
    mp: int
    max_mp: int
    combat: int = 0
    defence_extra: int = 0
    protection: int = 0
    striking: int = 0
    weapons: tuple[Weapon, ...] = ()
    spells: tuple[str, ...] = ()
    mana_stones: tuple[int, ...] = ()
    storage_mp: int = 0
    stones: tuple[str, ...] = ()
    creature: CreatureKind = CreatureKind.LIVING
    checks_with_magic: bool = False
    immune_normal: bool = False
    magic_weapons_harm: bool = False
    raises_victims: bool = False
    drain_hp: int = 0
    drain_mp: int = 0
    attack_name: str = ""
    #: A monster's own movement line (combat, normal, full metres; GM-MOVE-1); None moves
    #: a character's 3/12/48 m from the rules.
    move: tuple[int, int, int] | None = None
    status: Status = Status.ACTIVE
    stance: Stance = Stance.NONE
    effects: tuple[Effect, ...] = ()
    rises_as: str = ""
    #: The killer whose kind it rose as at a sunset (GM-MON-5): kept for the GM, who brings
    #: the risen in as a foe (genso72 NIT 8: the row went back to a plain DEAD).
    risen_as: str = ""

    @property
    def incorporeal(self) -> bool:
        return self.max_hp is None

    def has(self, spell: str) -> bool:
        return any(e.spell == spell and not e.weapon for e in self.effects)

    def weapon_effects(self, index: int) -> list[Effect]:
        """The spells on weapon ``index`` (GM-MAGIC-3's Exorcism 「武器に付与」), that one only."""
        key = self.weapons[index].key
        return [e for e in self.effects if e.on_weapon(index, key)]

    def enchanted(self, index: int) -> bool:
        """GM-MON-2: does weapon ``index`` carry Exorcism (and so harm the immune)?"""
        return any(e.spell == "exorcism" for e in self.weapon_effects(index))

    def weapon_label(self, effect: Effect) -> str:
        """The weapon ``effect`` is on as a row shows it: its key (``club``), with its number
        when another weapon is of its kind (``club 1``), so the table tells which."""
        if effect.weapon_index is None or sum(w.key == effect.weapon
                                              for w in self.weapons) < 2:
            return effect.weapon
        return f"{effect.weapon} {effect.weapon_index}"


def move_metres(rules: GensoRules, c: Combatant) -> dict[str, int]:
    """GM-MOVE-1, GM-MON-7: how far ``c`` goes by each movement mode (combat, normal, full): a
    monster by its own movement line (the Orc's 4/16/64 m), a character by the rules'
    3/12/48 m."""
    modes = ("combat", "normal", "full")
    if c.move:
        return dict(zip(modes, c.move, strict=True))
    return {m: rules.num("GM-MOVE-1", f"{m}_m") for m in modes}


def from_character(rules: GensoRules, character: Character, side: Side = Side.PARTY,
                   as_monster: bool = False, name: str | None = None) -> Combatant:
    """A PC or NPC entering a fight, with its derived values (GM-CORE-3/4, GM-EQUIP, GM-ITEM)."""
    derived = derive(rules, character)
    role = (Role.PC if character.kind is Kind.PC
            else Role.NPC_AS_MONSTER if as_monster else Role.NPC)
    stones = tuple(k for k in character.equipment if k in ("healing_stone", "enchant_stone"))
    # GM-ITEM-3: a Ring of Storage's MP is there to spend only while it is worn and working.
    worn = "ring_storage" in (*character.rings_left, *character.rings_right)
    storage = character.storage_mp if worn and derived.rings_work else 0
    return Combatant(
        name or character.name, side, role, character.body, character.perception,
        character.magic, character.hp, derived.max_hp.total, character.mp,
        derived.max_mp.total, combat=derived.attack.total - character.body,
        defence_extra=derived.defence.total - derived.attack.total,
        protection=derived.protection.total, striking=derived.striking,
        weapons=tuple(Weapon(w.key, w.name, w.power, w.magic) for w in derived.weapons),
        spells=character.spells, mana_stones=character.mana_stones, storage_mp=storage,
        stones=stones,
    )


def from_monster(rules: GensoRules, monster: Monster, name: str | None = None,
                 side: Side = Side.ENEMY) -> Combatant:
    """A monster of GM-MON-7 entering a fight."""
    weapon = (Weapon("attack", f"{monster.attack_ja}/{monster.attack_en}", monster.power),)
    return Combatant(
        name or monster.ja, side, Role.MONSTER, monster.body, monster.perception, monster.magic,
        monster.hp, monster.hp, monster.mp, monster.mp, protection=monster.protection,
        weapons=weapon if monster.power else (), creature=monster.kind,
        checks_with_magic=monster.checks_with_magic, immune_normal=monster.immune_normal,
        magic_weapons_harm=monster.magic_weapons_harm, raises_victims=monster.raises_victims,
        drain_hp=monster.drain_hp, drain_mp=monster.drain_mp,
        attack_name=f"{monster.attack_ja}/{monster.attack_en}", move=monster.move,
    )
