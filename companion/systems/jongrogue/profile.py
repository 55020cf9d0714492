"""The profile: every [DEFAULT] number and tile role, plus which Plus rules are on.

A profile is a TOML file; the packaged one is ``data/profile.toml``. A user's
own variant holds only the keys it changes: :func:`load_profile` reads it over the
packaged profile and checks it field by field, so a hand-edited mistake is reported
with its file, field and value.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from companion.errors import DataError
from companion.systems.jongrogue.datafiles import Fields, load_file, load_packaged
from companion.systems.jongrogue.tiles import ALL_KINDS, Suit, Tile


class Option(Enum):
    """The EZ Plus optional rules (雀ローグEZプラス), each switched on separately."""

    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    SLEEP_CHECK = "sleep_check"
    EXTENDED_STATES = "extended_states"
    STRENGTH = "strength"
    PC_STATES = "pc_states"
    DROPS = "drops"
    PINCER = "pincer"

    @property
    def rule_name(self) -> str:
        """The option's rule as the book names it (睡眠判定ルール …), shown beside its name."""
        return RULE_NAMES[self]


#: Each option's rule by the book's Japanese name (雀ローグEZプラス).
RULE_NAMES: dict[Option, str] = {
    Option.SLEEP_CHECK: "睡眠判定ルール",
    Option.EXTENDED_STATES: "拡張状態ルール",
    Option.STRENGTH: "強さルール",
    Option.PC_STATES: "PCの状態ルール",
    Option.DROPS: "アイテムのドロップ・ルール",
    Option.PINCER: "挟み撃ちルール",
}


PRESETS: dict[str, frozenset[Option]] = {
    "ez": frozenset(),
    "plus": frozenset(Option),
}


#: How a preset names EZ with some of the options on, each switched on separately (the
#: spec's intro; the seed's 段階的にルールを加えていく): ``ez+sleep_check+pincer``.
OPTION_JOIN = "+"


def preset_options(name: str) -> frozenset[Option]:
    """The options of a preset found by alias (``ez``, ``plus``), or of EZ with the options
    it names after it, each once (``ez+sleep_check+drops``; rules70 RISK 3).

    >>> sorted(o.value for o in preset_options("ez+pincer+sleep_check"))
    ['pincer', 'sleep_check']
    >>> sorted(o.value for o in preset_options("Drops+EZ"))
    ['drops']
    """
    key = name.lower().strip()
    if key in PRESETS:
        return PRESETS[key]
    # EZ may stand anywhere among its options (drops+ez), as the options' order does not
    # matter either (reviewz70 NIT: "Drops+EZ" was an unknown preset).
    parts = key.split(OPTION_JOIN)
    names = [part for part in parts if part != "ez"]
    known = ", ".join(o.value for o in Option)
    if len(parts) - len(names) != 1 or not names or "" in names:
        raise DataError(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}, or ez "
                        f"with options switched on, as ez+sleep_check+drops (options: {known})")
    options: set[Option] = set()
    for option in names:
        try:
            chosen = Option(option)
        except ValueError:
            raise DataError(f"preset {name!r}: {option!r} is not an EZ Plus option; the "
                            f"options are {known}") from None
        if chosen in options:
            raise DataError(f"preset {name!r}: {option} is named twice")
        options.add(chosen)
    return frozenset(options)


def preset_name(options: frozenset[Option]) -> str:
    """The one name of a set of options: ``ez``, ``plus``, or ``ez+`` the options on, in the
    order :class:`Option` lists them (what a save and a log keep, so that one set of
    options is one preset).

    >>> preset_name(preset_options("ez+pincer+sleep_check"))
    'ez+sleep_check+pincer'
    """
    for name, preset in PRESETS.items():
        if options == preset:
            return name
    return OPTION_JOIN.join(["ez", *(o.value for o in Option if o in options)])


class Role(Enum):
    """What a tile means on the encounter map (§2)."""

    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    MONSTER = "monster"
    ITEM = "item"
    GOLD = "gold"
    STAIRS = "stairs"
    EMPTY = "empty"


class ItemKind(Enum):
    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    POTION = "potion"
    SHURIKEN = "shuriken"
    ARROWS = "arrows"
    WEAPON = "weapon"
    ARMOUR = "armour"
    RING = "ring"


class Ring(Enum):
    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    STEALTH = "stealth"  # 隠密の指輪
    STRENGTH = "strength"  # 増強の指輪
    ARMOUR_PROTECTION = "armour_protection"  # 鎧保護の指輪
    ADORNMENT = "adornment"  # 飾りの指輪


class Loot(Enum):
    """What a thief may take (JR-AB-STEALITEM): the PC's counted holdings."""

    __hash__ = object.__hash__  # members are singletons; the C slot is faster

    ARROWS = "arrows"
    SHURIKEN = "shuriken"
    POTIONS = "potions"
    RINGS = "rings"  # counted by kind


class RateWeapon(Enum):
    """JR-RANGED-3 [DEFAULT]: whose attack a shot's rate takes."""

    RANGED = "ranged"  # the bow's or the shuriken's, whichever is shot
    MELEE = "melee"  # the melee weapon's


@dataclass(frozen=True, slots=True)
class ItemSpec:
    """One row of the item table (JR-ITEM-1)."""

    rank: int
    name_ja: str
    name_en: str
    kind: ItemKind
    amount: int = 0  # heal for a potion, count for ammunition
    attack: int = 0  # shuriken
    base: int = 0  # weapon attack / armour defence on floors 1..per_floors-1
    per_floors: int = 1
    ring: Ring | None = None

    @property
    def name(self) -> str:
        return f"{self.name_ja} ({self.name_en})"

    def power(self, floor: int) -> int:
        """Weapon attack or armour defence for an item found on ``floor``."""
        return self.base + floor // self.per_floors


@dataclass(frozen=True, slots=True)
class Gear:
    name_ja: str
    name_en: str
    value: int


@dataclass(frozen=True, slots=True)
class Profile:
    """Every [DEFAULT] of spec/jongrogue.md (see ``data/profile.toml`` for the rule of each)."""

    name: str
    source: str
    critical: Tile
    fumble: Tile
    critical_value: int
    fumble_value: int
    roles: tuple[Role, ...]  # by tile index
    last_floor: int
    regen_per_room: int
    gold_per_rank: int
    non_number_corner_sleeps: bool
    gold_needs_clear_room: bool  # JR-STATE-2 [DEFAULT]: gold waits for a cleared room too
    max_hp_base: int
    max_hp_per_level: int
    heal_on_level_up: bool
    strength: int
    strength_min: int
    gold: int
    gold_min: int  # [DEFAULT]: gold lost to an ability stops here (rules70 NIT 5)
    xp: int  # JR-PC-1: experience at the start; the level follows from it (JR-LVL-1)
    weapon: Gear
    ranged: Gear
    arrows: int
    armour: Gear
    ring_slots: int
    wear_found_rings: bool  # JR-PC-4 / JR-ITEM-1: a ring found is put on while a hand is free
    ranged_continue: int
    ranged_check_first_turn: bool
    ranged_automatic: bool
    ranged_rate_weapon: RateWeapon  # JR-RANGED-3
    confusion_ends_next_room: bool
    hasted_attacks: int
    bound_escape: int
    confused_act: int
    thaw: int
    attackers: dict[tuple[str, bool], int]  # (position, pincered) -> max attackers
    steal_item: tuple[Loot, ...]  # JR-AB-STEALITEM: what a thief may take, ties to the first
    steal_ammo: int  # JR-AB-STEALITEM: arrows or shuriken taken in one theft
    armour_min: int  # JR-AB-RUST [DEFAULT]: rust lowers the armour no further than this
    items: dict[int, ItemSpec]
    # What the profile sets otherwise than the book ([SEED], data/seed_values.toml): each
    # "house rule: combat.thaw = 1 (the book: 8, JR-AB-FREEZE)", for the caller to say.
    house_rules: tuple[str, ...] = ()
    # The book's values the companion never plays (a seed value with ``unplayed``) that the
    # profile sets otherwise: each "combat.attackers_corridor = 4 has no effect in the
    # companion: ...", for the caller to say. Not house rules: the game is the same.
    unplayed: tuple[str, ...] = ()

    def role(self, tile: Tile) -> Role:
        return self.roles[tile.index]

    def max_hp(self, level: int) -> int:
        """JR-LVL-1 [DEFAULT]: max HP at ``level``."""
        return self.max_hp_base + self.max_hp_per_level * (level - 1)


def _gear(f: Fields, key: str, value_key: str) -> Gear:
    g = f.sub(key)
    return Gear(g.name("name_ja"), g.name("name_en"), g.number(value_key, 0))


def _tile(f: Fields, key: str) -> Tile:
    try:
        return Tile.from_notation(f.text(key))
    except ValueError:
        raise f.error(key, f"must be a tile such as '7z', found {f.table[key]!r}") from None


def _roles(f: Fields) -> tuple[Role, ...]:
    names = tuple(r.value for r in Role if r is not Role.STAIRS)
    by_suit = {s: Role(f.text(s.value, names)) for s in Suit}
    stairs: set[Tile] = set()
    for i, text in enumerate(f.array("stairs")):
        try:
            stairs.add(Tile.from_notation(str(text)))
        except ValueError:
            raise f.error(f"stairs[{i}]", f"must be a tile, found {text!r}") from None
    return tuple(Role.STAIRS if t in stairs else by_suit[t.suit] for t in ALL_KINDS)


def _loot(f: Fields, key: str) -> tuple[Loot, ...]:
    names = tuple(loot.value for loot in Loot)
    out: list[Loot] = []
    for i, text in enumerate(f.array(key)):
        if text not in names or Loot(text) in out:
            raise f.error(
                f"{key}[{i}]", f"must be one of {', '.join(names)}, each once, found {text!r}"
            )
        out.append(Loot(text))
    return tuple(out)


def _items(f: Fields) -> dict[int, ItemSpec]:
    items: dict[int, ItemSpec] = {}
    kinds = tuple(k.value for k in ItemKind)
    for rank in range(1, 10):
        g = f.sub(str(rank))
        kind = ItemKind(g.text("kind", kinds))
        spec = ItemSpec(rank, g.name("name_ja"), g.name("name_en"), kind)
        if kind is ItemKind.POTION:
            spec = ItemSpec(rank, spec.name_ja, spec.name_en, kind, amount=g.number("heal", 1))
        elif kind in (ItemKind.SHURIKEN, ItemKind.ARROWS):
            attack = g.number("attack", 0) if kind is ItemKind.SHURIKEN else 0
            spec = ItemSpec(
                rank, spec.name_ja, spec.name_en, kind, amount=g.number("count", 1), attack=attack
            )
        elif kind in (ItemKind.WEAPON, ItemKind.ARMOUR):
            spec = ItemSpec(
                rank, spec.name_ja, spec.name_en, kind,
                base=g.number("base", 0), per_floors=g.number("per_floors", 1),
            )
        else:
            ring = Ring(g.text("ring", tuple(r.value for r in Ring)))
            spec = ItemSpec(rank, spec.name_ja, spec.name_en, kind, ring=ring)
        items[rank] = spec
    return items


# The most a profile may give as the PC's first gold or a pile's worth per rank. Not a rule
# choice but what the companion can keep: the history holds a game's gold as SQLite's 64-bit
# integer (to 9.2e18). A game's gold is its start plus piles of at most 9 ranks' worth each
# (§2 tile roles) and a leprechaun's floor × 20 (JR-AB-STEALGOLD), so at a billion each it
# would take a billion piles to pass that: no game finds so many. A larger number was
# played, then stopped the run as the game went in the history.
MOST_GOLD = 10**9


def parse_profile(
    source: str, raw: dict[str, object], given: dict[str, object] | None = None
) -> Profile:
    """The profile in ``raw``; any fault, a key nothing reads among them (of ``given``'s,
    when ``raw`` is the packaged profile with ``given`` written over it) or two keys at odds
    (:func:`_at_odds`), is a DataError."""
    profile, unread = _read_profile(source, raw, given)
    faults = _blank_names(profile) + unread + _at_odds(profile, given)
    if faults:
        raise DataError(faults[0])
    return profile


def _blank_names(profile: Profile) -> list[str]:
    """What is wrong with each item's and gear's name (JR-ITEM-1, JR-PC-1) that is empty or
    all space: it was played, the log then saying "Found  () [1p]" and the sheet and the
    buttons naming nothing (rules74 NIT 3). A new game is refused it, as a key at odds is
    (:func:`parse_profile`); a game saved or logged with such a profile before it was
    refused plays on and replays so (:func:`load_played_profile`): its save keeps only the
    profile's hash, so the name mended there refuses it as a changed profile, and refused
    here it could never be played on (reviewb74 D4)."""
    named = [(f"items.{rank}", spec.name_ja, spec.name_en)
             for rank, spec in sorted(profile.items.items())]
    named += [(f"pc.{key}", gear.name_ja, gear.name_en) for key, gear in
              (("weapon", profile.weapon), ("ranged", profile.ranged),
               ("armour", profile.armour))]
    return [f"{profile.source}: field {where}.{key} must be a name (text), found {value!r}"
            for where, name_ja, name_en in named
            for key, value in (("name_ja", name_ja), ("name_en", name_en))
            if not value.strip()]


def _at_odds(profile: Profile, given: dict[str, object] | None) -> list[str]:
    """What is wrong with keys each in its own range but not together or not under the
    rules, worded as a field's range is. A new game is refused them; a game saved or logged
    with such a profile was played so and replays so (:func:`load_played_profile`)."""
    found: list[str] = []
    if profile.strength < profile.strength_min:
        # JR-PC-2: strength never drops below the floor, so it cannot start below it either
        # (nor the floor above the start). The key the user's file set is the one named.
        pc = given.get("pc") if given else None
        if isinstance(pc, dict) and "strength_min" in pc and "strength" not in pc:
            found.append(f"{profile.source}: field pc.strength_min must be pc.strength "
                         f"({profile.strength}) or less, found {profile.strength_min} "
                         "(JR-PC-2: the floor strength never drops below)")
        else:
            found.append(f"{profile.source}: field pc.strength must be pc.strength_min "
                         f"({profile.strength_min}) or more, found {profile.strength} "
                         "(JR-PC-2: strength never drops below it)")
    poison_floor = next(v.book for v in SEED_VALUES if (v.table, v.key) == ("pc", "strength_min"))
    if profile.strength_min < poison_floor:
        # A house rule that would not play: the poison and the drain stop at the book's floor
        # whatever the profile says (JR-AB-POISON, JR-AB-DRAINSTR).
        found.append(f"{profile.source}: field pc.strength_min must be {poison_floor} or more, "
                     f"found {profile.strength_min} (JR-AB-POISON, JR-AB-DRAINSTR: the book's "
                     f"poison and drain stop at {poison_floor} whatever the profile says)")
    if profile.gold_min > profile.gold:
        # Gold never drops below the floor, so it cannot start below it either; the key the
        # user's file set is the one named, as for strength.
        pc = given.get("pc") if given else None
        if isinstance(pc, dict) and "gold" in pc and "gold_min" not in pc:
            found.append(f"{profile.source}: field pc.gold must be pc.gold_min "
                         f"({profile.gold_min}) or more, found {profile.gold} "
                         "(gold never drops below it)")
        else:
            found.append(f"{profile.source}: field pc.gold_min must be pc.gold "
                         f"({profile.gold}) or less, found {profile.gold_min} "
                         "(the floor gold lost to an ability stops at)")
    if profile.armour_min < 0:
        found.append(f"{profile.source}: field combat.armour_min must be a whole number 0 or "
                     f"more, found {profile.armour_min} (JR-AB-RUST: below 0, rusted armour "
                     "would add to a monster's damage, JR-DMG-1)")
    return found


def _read_profile(
    source: str, raw: dict[str, object], given: dict[str, object] | None = None
) -> tuple[Profile, list[str]]:
    """The profile in ``raw``, and what is wrong with each key nothing reads (of ``given``'s
    alone when ``raw`` is the packaged profile with ``given`` written over it)."""
    root = Fields(source, raw)
    dice, roles, map_, pc, combat = (
        root.sub("dice"), root.sub("roles"), root.sub("map"), root.sub("pc"), root.sub("combat")
    )
    critical, fumble = _tile(dice, "critical"), _tile(dice, "fumble")
    if critical.is_number or fumble.is_number or critical is fumble:
        raise DataError(
            f"{source}: dice.critical and dice.fumble must be two different honour tiles, "
            f"found {critical} and {fumble}"
        )
    attackers = {
        (where, pincer): combat.number(f"{'pincer_' if pincer else ''}attackers_{where}", 1)
        for where in ("room", "door", "corridor")
        for pincer in (False, True)
    }
    profile = Profile(
        name=root.text("name"),
        source=source,
        critical=critical,
        fumble=fumble,
        critical_value=dice.number("critical_value", 1, 9),
        fumble_value=dice.number("fumble_value", 1, 9),
        roles=_roles(roles),
        last_floor=map_.number("last_floor", 1),
        regen_per_room=map_.number("regen_per_room", 0),
        gold_per_rank=map_.number("gold_per_rank", 0, MOST_GOLD),
        non_number_corner_sleeps=map_.flag("non_number_corner_sleeps"),
        gold_needs_clear_room=map_.flag("gold_needs_clear_room"),
        max_hp_base=pc.number("max_hp_base", 1),
        max_hp_per_level=pc.number("max_hp_per_level", 0),
        heal_on_level_up=pc.flag("heal_on_level_up"),
        strength=pc.number("strength"),
        strength_min=pc.number("strength_min"),
        gold=pc.number("gold", 0, MOST_GOLD),
        gold_min=pc.number("gold_min", 0, MOST_GOLD),
        xp=pc.number("xp", 0),
        weapon=_gear(pc, "weapon", "attack"),
        ranged=_gear(pc, "ranged", "attack"),
        arrows=pc.number("arrows", 0),
        armour=_gear(pc, "armour", "defence"),
        ring_slots=pc.number("ring_slots", 0),
        wear_found_rings=pc.flag("wear_found_rings"),
        ranged_continue=combat.number("ranged_continue", 1, 9),
        ranged_check_first_turn=combat.flag("ranged_check_first_turn"),
        ranged_automatic=combat.flag("ranged_automatic"),
        ranged_rate_weapon=RateWeapon(combat.text("ranged_rate_weapon",
                                                  tuple(w.value for w in RateWeapon))),
        confusion_ends_next_room=combat.flag("confusion_ends_next_room"),
        hasted_attacks=combat.number("hasted_attacks", 1),
        bound_escape=combat.number("bound_escape", 1, 9),
        confused_act=combat.number("confused_act", 1, 9),
        thaw=combat.number("thaw", 1, 9),
        attackers=attackers,
        steal_item=_loot(combat, "steal_item"),
        steal_ammo=combat.number("steal_ammo", 1),
        armour_min=combat.number("armour_min"),
        items=_items(root.sub("items")),
        house_rules=_house_rules(raw),
        unplayed=_house_rules(raw, unplayed=True),
    )
    return profile, root.unread(given)


@dataclass(frozen=True, slots=True)
class SeedValue:
    """A profile key whose value the book fixes ([SEED]): one table of
    ``data/seed_values.toml``."""

    table: str
    key: str
    book: int
    rule: str  # the spec's rule
    words: str  # the book's words
    # Why the companion never plays the value ("" when it does): JR-MULTI-1's corridor caps,
    # the PC never standing in a corridor (a flight ends at the previous room's door).
    unplayed: str = ""


def _seed_values() -> tuple[SeedValue, ...]:
    source, raw = load_packaged("seed_values.toml")
    root = Fields(source, raw)
    found: list[SeedValue] = []
    for table in raw:
        section = root.sub(table)
        for key in section.table:
            f = section.sub(key)
            unplayed = f.text("unplayed") if "unplayed" in f.table else ""
            found.append(SeedValue(table, key, f.number("book"), f.text("rule"), f.text("words"),
                                   unplayed))
    unread = root.unread()
    if unread:
        raise DataError(unread[0])
    return tuple(found)


SEED_VALUES = _seed_values()
#: JR-AB-POISON, JR-AB-DRAINSTR [SEED]: 「PCの強さが-3以下だったら、無効果」, the book's
#: strength_min (data/seed_values.toml); a profile's strength_min (JR-PC-2) may stop the loss
#: sooner, never later.
NO_STRENGTH_LOSS_AT = next(v.book for v in SEED_VALUES
                           if (v.table, v.key) == ("pc", "strength_min"))


def _house_rules(raw: dict[str, object], unplayed: bool = False) -> tuple[str, ...]:
    """The seed values (SEED_VALUES) a profile sets otherwise: house rules, played as the
    player chose, but said (each key was read, so it is there and of its type). With
    ``unplayed``, those of the values the companion never plays instead (JR-MULTI-1's
    corridor caps): setting them changes nothing, and that is what is said of them."""
    rules: list[str] = []
    for seed in SEED_VALUES:
        if bool(seed.unplayed) is not unplayed:
            continue
        section = raw.get(seed.table)
        value = section.get(seed.key) if isinstance(section, dict) else None
        if value == seed.book:
            continue
        if unplayed:
            rules.append(f"{seed.table}.{seed.key} = {value} has no effect in the companion: "
                         f"{seed.unplayed} (the book: {seed.book}, {seed.rule})")
        else:
            rules.append(f"house rule: {seed.table}.{seed.key} = {value} "
                         f"(the book: {seed.book}, {seed.rule})")
    return tuple(rules)


def default_profile() -> Profile:
    return parse_profile(*load_packaged("profile.toml"))


@dataclass(frozen=True, slots=True)
class ProfileFile:
    """A profile file of the user's, read over the packaged profile: the [DEFAULT]s are
    the user's to edit (spec, provenance tags), and a file holds only those it changes.
    A key it gives replaces the packaged one; every other is the packaged profile's. A
    copy of the whole profile made before a key was added so takes that key's packaged
    value, and plays as it did."""

    source: str  # the file, as errors name it
    given: dict[str, object]  # the file's own keys
    played: dict[str, object]  # the packaged profile with ``given`` written over it


def read_profile_file(path: Path) -> ProfileFile:
    """The profile file at ``path`` and the profile it plays (:class:`ProfileFile`)."""
    source, given = load_file(path)
    return ProfileFile(source, given, _over(load_packaged("profile.toml")[1], given))


def _over(packaged: dict[str, object], given: dict[str, object]) -> dict[str, object]:
    """``packaged`` with each key of ``given`` written over it. A table over a table is
    written key by key (``[pc.weapon]`` with ``attack = 4`` keeps the weapon's names);
    anything else, a list too (``steal_item``), replaces what it lands on."""
    merged = dict(packaged)
    for key, value in given.items():
        below = merged.get(key)
        if isinstance(below, dict) and isinstance(value, dict):
            merged[key] = _over(below, value)
        else:
            merged[key] = value
    return merged


def load_profile(path: Path | None) -> Profile:
    """The profile at ``path`` read over the packaged one (:class:`ProfileFile`), or the
    packaged default when ``path`` is None. A key of the file's that nothing reads (a
    misspelt one, an unknown table) is refused, naming it and the key it is near."""
    if path is None:
        return DEFAULT_PROFILE
    read = read_profile_file(path)
    return parse_profile(read.source, read.played, read.given)


def load_played_profile(path: Path) -> tuple[Profile, list[str]]:
    """The profile a saved or logged game was played with, and what is wrong with each key
    in it that nothing reads. Such a key is not refused here: versions before they were
    refused dropped them, so the game was played without them and replays so; a new game
    with the profile is refused them (:func:`load_profile`)."""
    read = read_profile_file(path)
    return _read_profile(read.source, read.played, read.given)


DEFAULT_PROFILE = default_profile()
