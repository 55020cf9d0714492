"""Investigator and foe sheets (CO-BASE-1): characteristics, skills, weapons, armour,
derived HP and damage bonus, and TOML sheets checked field by field."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.dice.notation import MAX_DICE
from companion.errors import DataError, ordinal, refuse_unknown
from companion.systems.coc.rules import (
    CHARACTERISTICS,
    WEAPON_FIELDS,
    WEAPON_FLAGS,
    CocRules,
    DbTable,
    WeaponInfo,
    WeaponKind,
    check_dice,
    weapon_from_mapping,
)
from companion.systems.defaults import refuse_control


@dataclass(frozen=True, slots=True)
class Armour:
    """Worn armour or a natural hide (CO-BASE-1): durability is profile 003's pool
    (CO-ARMOR-1), uses profile 004's count (CO-ARMOR-2, initially the armour value)."""

    name: str
    value: int
    durability: int | None = None
    uses: int | None = None
    natural: bool = False
    breaking: bool = False  # CO-ARMOR-2: over its uses, it breaks when the round ends


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon as carried: its data, durability left, rounds loaded, broken or jammed."""

    info: WeaponInfo
    durability: int | None
    loaded: int = 0
    broken: bool = False
    jammed: bool = False
    dropped: bool = False
    #: CO-IAI-1: the ally who drew this blade and holds it (engine revision 20 on: the
    #: lender's weapons keep their numbers, this one out of its hands); never read from a sheet
    lent: str = ""
    #: CO-IAI-1: on the drawer's copy of such a blade, the ally it was drawn from, its owner
    #: when drawn from its own list (engine revision 20 on: the owner drawing it back takes
    #: its own entry again, reviewcoc72 RISK 2); never read from a sheet
    lent_from: str = ""


@dataclass(frozen=True, slots=True)
class Sheet:
    """CO-BASE-1: the full sheet; HP and DB are derived unless a stat block prints them."""

    name: str
    characteristics: Mapping[str, int]
    skills: Mapping[str, int]
    weapons: tuple[Weapon, ...] = ()
    armour: tuple[Armour, ...] = ()
    foe: bool = False
    printed_hp: int | None = None
    printed_db: str | None = None
    san: int | None = None      # CO-BASE-1: current SAN (POW×5 when not given)
    humanoid: bool = True       # CO-PARRY-2: bare-hand and MA parries need a humanoid foe
    #: CO-BASE-1's DB table from the rules the sheet was read with (:func:`sheet_from_mapping`)
    db_table: DbTable | None = field(default=None, compare=False, repr=False)

    @property
    def sanity(self) -> int:
        """CO-BASE-1: SAN as written, else its starting value POW×5 [BASE 6e]."""
        return self.san if self.san is not None else self.stat("POW") * 5

    def stat(self, name: str) -> int:
        return self.characteristics[name]

    @property
    def max_hp(self) -> int:
        """CO-BASE-1: ceil((CON + SIZ) ÷ 2), rounding up, unless printed."""
        if self.printed_hp is not None:
            return self.printed_hp
        return -(-(self.stat("CON") + self.stat("SIZ")) // 2)

    @property
    def db(self) -> str:
        """CO-BASE-1: the damage bonus from STR + SIZ ("0", "+1D4", "-1D6", ...)."""
        if self.printed_db is not None:
            return self.printed_db
        if self.db_table is None:
            raise DataError(f"{self.name}: a derived DB needs the rules' CO-BASE-1 table")
        return damage_bonus(self.stat("STR") + self.stat("SIZ"), self.db_table)

    @property
    def derived(self) -> bool:
        return self.printed_hp is None


def damage_bonus(str_siz: int, table: DbTable) -> str:
    """CO-BASE-1: the DB table (rules data ``[source."CO-BASE-1"] db_table``); each
    ``db_step_above`` (16) above its last row (72) adds 1D6."""
    return table.bonus(str_siz)


_DB = re.compile(r"^([+-])(\d+)D(\d+)$")


def half_db(db: str) -> str:
    """CO-BASE-4: ½DB halves the dice and keeps the sign (+1D4→+1D2, +3D6→+1D6+1D3)."""
    if db == "0":
        return "0"
    m = _DB.match(db)
    if not m:
        raise DataError(f"{db!r} is not a damage bonus")
    sign, count, sides = m[1], int(m[2]), int(m[3])
    if count == 1:
        return f"{sign}1D{sides // 2}"
    whole = f"{sign}{count // 2}D{sides}"
    return whole + (f"{sign}1D{sides // 2}" if count % 2 else "")


def double_dice(damage: str, times: int = 2) -> str:
    """CO-MA-1, CO-BASE-6: the technique's dice double, any flat number does not."""
    return re.sub(r"(\d+)D(\d+)", lambda m: f"{int(m[1]) * times}D{m[2]}", damage)


#: 004's two Budo skills (CO-DISARM-1, CO-GRAP-6) and the single one an older sheet has,
#: which counts as either (:func:`budo_skill`).
BUDO_STANDING, BUDO_GRAPPLING, OLD_BUDO = "budo_standing", "budo_grappling", "budo"


def budo_skill(sheet: Sheet, key: str) -> str:
    """The sheet's skill for ``key`` (:data:`BUDO_STANDING` or :data:`BUDO_GRAPPLING`): that
    one where the sheet has it, else an older sheet's :data:`OLD_BUDO`, else ""."""
    return next((k for k in (key, OLD_BUDO) if k in sheet.skills), "")


def parry_budo(sheet: Sheet) -> str:
    """CO-PARRY-2 「MAや武道」: either Budo parries; the sheet's best one, or ""."""
    held = [k for k in (BUDO_STANDING, BUDO_GRAPPLING, OLD_BUDO) if k in sheet.skills]
    return max(held, key=lambda k: sheet.skills[k], default="")


def old_budo_note(data: Mapping[str, Any]) -> str:
    """What a sheet that still writes the single Budo is told (its skill counts as both)."""
    skills = data.get("skills")
    if not isinstance(skills, Mapping):
        return ""
    old = next((k for k in skills if k in (OLD_BUDO, "武道", "Budo")), None)
    if old is None:
        return ""
    return (f"[skills] {old} = {skills[old]} is read as both Budo skills, standing "
            f"(CO-DISARM-1) and grappling (CO-GRAP-6); write the one the character has: "
            f"budo_standing (武道（立ち技）) or budo_grappling (武道（組技系）), or both")


def skill_value(rules: CocRules, sheet: Sheet, key: str) -> int:
    """A skill's percentage: the sheet's, else its base (CO-BASE-1; bases are Defaults)."""
    if key in sheet.skills:
        return sheet.skills[key]
    return skill_base(rules, sheet, key)


def skill_base(rules: CocRules, sheet: Sheet, key: str) -> int:
    """A skill's 6th-edition base for this character (CO-BASE-1, skills.toml: Grapple 25,
    Dodge DEX×2), whatever the sheet writes."""
    info = rules.skill(key)
    return info.base * sheet.stat(info.base_of) if info.base_of else info.base


def carried_hp(old_max: int, old_current: int, new_max: int) -> int:
    """CO-BASE-1 Default: current HP keeps the damage taken when the maximum changes."""
    return new_max - (old_max - old_current)


def with_characteristic(sheet: Sheet, name: str, delta: int, recompute: bool = True) -> Sheet:
    """CO-BASE-1: change a characteristic (never below 0); HP and DB follow via the sheet,
    or, ``recompute`` false (CO-BASE-1.recompute), stay as they were."""
    if name not in CHARACTERISTICS:
        raise DataError(f"no characteristic {name!r}")
    if not recompute:
        sheet = replace(sheet, printed_hp=sheet.max_hp, printed_db=sheet.db)
    chars = dict(sheet.characteristics)
    chars[name] = max(0, chars[name] + delta)
    return replace(sheet, characteristics=chars)


def _int(raw: Mapping[str, Any], name: str, where: str, low: int = 0) -> int:
    if name not in raw:  # TOML has no null: "found None" would name no value written
        raise DataError(f"{where}: missing {name} (a whole number {low} or more)")
    value = raw[name]
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise DataError(f"{where}: {name} must be a whole number {low} or more, found {value!r}")
    return value


def _flag(raw: Mapping[str, Any], name: str, where: str, default: bool = False) -> bool:
    value = raw.get(name, default)
    if not isinstance(value, bool):  # "false" in quotes would otherwise count as true
        raise DataError(f"{where}: {name} must be true or false, found {value!r}")
    return value


def _state_fits(w: Weapon, at: str) -> None:
    """coc72 NIT 7: a sheet's weapon state is one the weapon can be in. A jam is a firearm's
    that jams (CO-FIRE-4, 003 l.59: a revolver 「弾詰まりの起きない武器」 is dropped instead),
    and bare hands are neither dropped nor broken (CO-DISARM-1: a fist is no weapon to lose,
    engine revision 18). Only a sheet read anew: a saved fight's entrants load as written."""
    name = w.info.name
    if w.jammed and not (w.info.kind is WeaponKind.FIREARM and w.info.jams):
        why = ("a firearm's that jams" if w.info.kind is WeaponKind.FIREARM
               else "a firearm's")
        raise DataError(f"{at}: jammed = true: a jam is {why} (CO-FIRE-4), not {name}'s; "
                        "leave it out")
    if w.info.kind is WeaponKind.UNARMED and (w.dropped or w.broken):
        flag = "dropped" if w.dropped else "broken"
        raise DataError(f"{at}: {flag} = true: {name} is bare hands, neither dropped nor "
                        "broken (CO-DISARM-1); leave it out")


def _rows(data: Mapping[str, Any], name: str, where: str) -> list[Any]:
    """An array of tables (``[[weapons]]``); a single ``[weapons]`` table or a number is
    refused saying so, before any row is read."""
    rows = data.get(name, [])
    if isinstance(rows, Mapping):
        raise DataError(f"{where}: [{name}] is one table; write each entry as [[{name}]] "
                        "(double brackets), one per item")
    if not isinstance(rows, list):
        raise DataError(f"{where}: {name} must be a list of [[{name}]] tables, found {rows!r}")
    return rows


#: The fields of a sheet's top level (docs/sheets.md), of an ``[[armour]]`` row, and the
#: state of a carried weapon: all a packaged weapon's row (one without ``damage``) may hold
#: beside its key. On a packaged row ``durability`` is read as what is left.
SHEET_FIELDS = ("name", "san", "max_hp", "db", "humanoid", "foe", "characteristics", "skills",
                "weapons", "armour")
ARMOUR_FIELDS = ("name", "value", "durability", "uses", "natural")
WEAPON_STATE = ("durability_left", "durability", "loaded", "broken", "jammed", "dropped")
# The three abilities every 幻想迷宮冒険譚 sheet holds (GM-CHAR-5), which no CoC sheet does:
# the telling fields of a sheet given to the wrong system.
GENSO_ABILITIES = ("body", "perception", "magic")


def _durability(raw: Mapping[str, Any], info: WeaponInfo, own: bool, at: str,
                kept: bool) -> int | None:
    """A carried weapon's durability left: ``durability_left`` (on a packaged row also
    ``durability``), a whole number up to the weapon's full durability (unless ``kept``);
    else that."""
    full = left = info.durability
    for name in ("durability_left",) if own else ("durability", "durability_left"):
        if name not in raw:
            continue
        left = value = _int(raw, name, at)  # durability_left, read last, wins
        if kept:
            continue
        if full is None and value > 0:  # 0: worn out by use (CO-WEAP-1), as a fight saves it
            raise DataError(f"{at}: {info.name} has no durability (it cannot parry): leave "
                            f"{name} out, found {value!r}")
        if full is not None and value > full:
            raise DataError(f"{at}: {name} must be from 0 to the full durability {full} of "
                            f"{info.name}, found {value!r}")
    return left


def sheet_from_mapping(rules: CocRules, data: Mapping[str, Any], where: str = "sheet",
                       kept: bool = False) -> Sheet:
    """Build a sheet from TOML data, refusing each bad field with its name (CO-BASE-1).

    ``kept``: the copy a saved fight keeps of a sheet it began with. It is read as the
    version that began the fight read it, without the checks made since of what the player
    wrote: a ``durability_left`` above the weapon's full durability (or on one with none),
    ``loaded = true`` (one round), a control character in a name (the sheet's, an armour's,
    a weapon of its own's key, ja or en). The player could mend the sheet, never the fight's copy,
    and the fight would not open."""
    if not isinstance(data, Mapping):
        raise DataError(f"{where}: a sheet must be a table of fields, found {data!r}")
    genso = [name for name in GENSO_ABILITIES if name in data]
    if genso and "characteristics" not in data:
        # Said before its unknown keys, whose did-you-means (spells → skills) would have the
        # player "fix" a sheet that is right for the other system.
        raise DataError(f"{where} looks like a 幻想迷宮冒険譚 sheet ({', '.join(genso)}); "
                        "coc takes Call of Cthulhu sheets (docs/sheets.md)")
    refuse_unknown(data, SHEET_FIELDS, where)
    if "name" not in data:  # "name must be text" for a sheet with none sent one looking
        raise DataError(f"{where}: missing field 'name' (the combatant's name, e.g. "
                        'name = "Ann")')
    if not isinstance(data["name"], str) or not data["name"].strip():
        raise DataError(f"{where}: name must be text, not empty, found {data['name']!r}")
    if not kept:  # a fight's copy opens as it began
        refuse_control(data["name"], f"{where}: name")
    chars_raw = data.get("characteristics")
    if not isinstance(chars_raw, Mapping):
        raise DataError(f"{where}: [characteristics] is missing")
    refuse_unknown(chars_raw, CHARACTERISTICS, f"{where} [characteristics]")
    missing = [c for c in CHARACTERISTICS if c not in chars_raw]
    if missing:  # all of them at once: a sheet begun with STR alone lacks seven
        raise DataError(f"{where} [characteristics]: missing {', '.join(missing)} (each a "
                        "whole number 0 or more)")
    chars = {c: _int(chars_raw, c, f"{where} [characteristics]") for c in CHARACTERISTICS}
    skills_raw = data.get("skills", {})
    if not isinstance(skills_raw, Mapping):
        raise DataError(f"{where}: [skills] must be a table of skill = percentage, "
                        f"found {skills_raw!r}")
    skills: dict[str, int] = {}
    written: dict[str, str] = {}  # each skill's key → the name the sheet gave it under
    for name in skills_raw:
        try:
            skill = rules.skill(name)
        except DataError as exc:
            raise DataError(f"{where} [skills]: {exc}") from exc
        if skill.key in written:  # dodge = 45 and "回避" = 80: one would silently win
            raise DataError(f"{where} [skills]: {written[skill.key]!r} and {name!r} are the "
                            f"same skill ({skill.name}); give it once")
        written[skill.key] = name
        skills[skill.key] = _int(skills_raw, name, f"{where} [skills]")
    weapons = []
    for number, raw in enumerate(_rows(data, "weapons", where)):
        # Numbered as the fight numbers them (--with weapon=0 is the first), and by table.
        at = f"{where} weapon {number} (the {ordinal(number + 1)} [[weapons]])"
        if not isinstance(raw, Mapping):
            raise DataError(f"{at}: needs a key")
        refuse_unknown(raw, (*WEAPON_FIELDS, *WEAPON_STATE), at)
        if "key" not in raw:
            raise DataError(f"{at}: needs a key")
        if not isinstance(raw["key"], str):  # a list would crash the look-up
            raise DataError(f"{at}: key must be text (a weapon's key or name), "
                            f"found {raw['key']!r}")
        own = "damage" in raw  # a weapon of one's own, written out in full
        extra = [name for name in raw if name not in ("key", *WEAPON_STATE)]
        if not own and extra:  # laser = true on a packaged revolver would be thrown away
            raise DataError(
                f"{at}: a packaged weapon takes only its key and its state "
                f"({', '.join(WEAPON_STATE)}), not {', '.join(extra)}; a row with damage "
                "defines a weapon of your own, every field written out (docs/sheets.md)")
        info: WeaponInfo
        if own:
            for name in ("key", "ja", "en"):  # a weapon of one's own is printed by these
                if isinstance(raw.get(name), str) and not kept:
                    refuse_control(raw[name], f"{at}: {name}")
            info = weapon_from_mapping(raw, at, rules.skills,
                                       rules.defaults.values.get("CO-FIRE-9", {}))
        else:
            try:
                info = rules.weapon(raw["key"])
            except DataError as exc:  # no weapon 'revolvr': say which sheet and row
                raise DataError(f"{at}: {exc}") from exc
        durability = _durability(raw, info, own, at, kept)
        loaded = raw.get("loaded", info.magazine)
        if kept and isinstance(loaded, bool):
            loaded = int(loaded)
        if not isinstance(loaded, int) or isinstance(loaded, bool) \
                or not 0 <= loaded <= info.magazine:
            raise DataError(f"{at}: loaded must be from 0 to the magazine {info.magazine}, "
                            f"found {loaded!r}")
        weapon = Weapon(info, durability, loaded, _flag(raw, "broken", at),
                        _flag(raw, "jammed", at), _flag(raw, "dropped", at))
        if not kept:  # a saved fight's entrant replays as it was written (coc72 NIT 7)
            _state_fits(weapon, at)
        weapons.append(weapon)
    armour = []
    for number, raw in enumerate(_rows(data, "armour", where), 1):
        at = f"{where} the {ordinal(number)} [[armour]]"
        if not isinstance(raw, Mapping):
            raise DataError(f"{at}: needs a name")
        refuse_unknown(raw, ARMOUR_FIELDS, at)
        if not isinstance(raw.get("name"), str):
            raise DataError(f"{at}: needs a name")
        if not kept:
            refuse_control(raw["name"], f"{at}: name")
        value = _int(raw, "value", at)
        durability = _int(raw, "durability", at) if "durability" in raw else None
        uses = _int(raw, "uses", at) if "uses" in raw else value
        armour.append(Armour(raw["name"], value, durability, uses, _flag(raw, "natural", at)))
    printed_hp = _int(data, "max_hp", where, 1) if "max_hp" in data else None
    printed_db = data.get("db")
    if printed_db is not None and (not isinstance(printed_db, str) or
                                   (printed_db != "0" and not _DB.match(printed_db))):
        raise DataError(f"{where}: db must be like \"+1D4\", \"-1D6\" or \"0\"")
    if printed_db:
        check_dice(printed_db.lstrip("+"), f"{where} db")
    san = _int(data, "san", where) if "san" in data else None
    sheet = Sheet(data["name"].strip(), chars, skills, tuple(weapons), tuple(armour),
                  _flag(data, "foe", where), printed_hp, printed_db, san,
                  _flag(data, "humanoid", where, default=True), rules.db_table)
    # coc67 N8: a derived maximum HP below 1 is refused as a printed one is (a fight would
    # open with "HP 0/0" and call the first hit dying); a fight's copy opens as it began.
    if printed_hp is None and sheet.max_hp < 1 and not kept:
        raise DataError(f"{where}: CON {chars['CON']} + SIZ {chars['SIZ']} gives "
                        f"{sheet.max_hp} HP (CO-BASE-1): a sheet needs 1 or more; raise CON "
                        "or SIZ, or write max_hp")
    # coc72 NIT 8: a derived DB takes the dice a printed one may (check_dice above): STR 3400
    # gave +212D6, and every blow then failed in the dice parser's words
    if printed_db is None and rules.db_table is not None and not kept:
        db = sheet.db
        match = _DB.match(db)
        if match and int(match[2]) > MAX_DICE:
            raise DataError(f"{where}: STR {chars['STR']} + SIZ {chars['SIZ']} gives a damage "
                            f"bonus of {db} (CO-BASE-1), more than the {MAX_DICE} dice a roll "
                            "takes; lower STR or SIZ, or write db")
    return sheet


def sheet_mapping(sheet: Sheet) -> dict[str, Any]:
    """The sheet as plain data that :func:`sheet_from_mapping` reads back."""
    out: dict[str, Any] = {"name": sheet.name, "foe": sheet.foe,
                           "characteristics": dict(sheet.characteristics),
                           "skills": dict(sheet.skills), "humanoid": sheet.humanoid}
    if sheet.san is not None:
        out["san"] = sheet.san
    if sheet.printed_hp is not None:
        out["max_hp"] = sheet.printed_hp
    if sheet.printed_db is not None:
        out["db"] = sheet.printed_db
    weapons = []
    for w in sheet.weapons:
        i = w.info
        raw: dict[str, Any] = {"key": i.key, "ja": i.ja, "en": i.en, "kind": i.kind.value,
                               "skill": i.skill, "damage": i.damage, "db": i.db.value,
                               "attacks": i.attacks, "magazine": i.magazine, "burst": i.burst,
                               "range_m": i.range_m, "scope": i.scope, "loaded": w.loaded,
                               "broken": w.broken, "jammed": w.jammed, "dropped": w.dropped}
        raw.update({f: getattr(i, f) for f in WEAPON_FLAGS})
        if i.bands:
            raw["bands"] = i.bands
        if i.durability is not None:
            raw["durability"] = i.durability
        if w.durability != i.durability:
            raw["durability_left"] = w.durability
        weapons.append(raw)
    out["weapons"] = weapons
    armour = []
    for a in sheet.armour:
        row: dict[str, Any] = {"name": a.name, "value": a.value, "natural": a.natural}
        if a.durability is not None:
            row["durability"] = a.durability
        if a.uses is not None:
            row["uses"] = a.uses
        armour.append(row)
    out["armour"] = armour
    return out
