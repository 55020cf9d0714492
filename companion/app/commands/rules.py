"""``companion rules …``: the book's tables as a quick reference for play on paper.

``encounter``, ``sleep``, ``monsters`` and ``level`` with nothing to look up print their
whole table, as the player at the table with paper and tiles wants it beside them; given
a floor, a tile, a monster or an XP total, they look up that cell. ``rate`` and
``damage`` are sums, worked out for one monster."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.app.arg_types import existing_file, non_negative_int, positive_int
from companion.app.command_list import COMMANDS
from companion.app.config import Config, Source, checked_preset, load_config
from companion.app.notes import note
from companion.errors import DataError, InvalidNotation
from companion.systems.jongrogue.checks import damage, rate_terms
from companion.systems.jongrogue.encounter import sleep_on_encounter
from companion.systems.jongrogue.narration import format_terms
from companion.systems.jongrogue.profile import (
    PRESETS,
    Option,
    Profile,
    Role,
    load_profile,
    preset_options,
)
from companion.systems.jongrogue.reference import (
    HONOUR_CORNER_DEFAULT,
    Reference,
    defaults_table,
    encounter_table,
    find_monster,
    level_table,
    monster_data,
    monster_list,
    monster_table,
    sleep_table,
)
from companion.systems.jongrogue.tables import TABLES, Ability, Monster
from companion.systems.jongrogue.tiles import Tile


def told_profile(profile: Profile) -> Profile:
    """``profile``, its house rules said on stderr: each value the book fixes ([SEED]) that
    it sets otherwise. They are played, not refused (play, simulate and rules say them).
    A value the companion never plays that it sets otherwise (JR-MULTI-1's corridor caps:
    the PC never stands in a corridor) is said to have no effect, not to be a house rule."""
    for rule in (*profile.house_rules, *profile.unplayed):
        note(f"{profile.source}: {rule}")
    return profile


#: What to do when config.toml's game.profile names no file.
PROFILE_REMEDY = ("give --profile FILE, or make game.profile in config.toml name a profile "
                  "file (empty: the packaged profile)")
#: The --preset default of rules and simulate, for their help.
PRESET_DEFAULT = "default: the config's game.preset, else plus"
#: The --profile help of rules and simulate.
PROFILE_HELP = ("a profile TOML of your own (default: config.toml's game.profile, else the "
                "packaged one)")


def profile_file(given: Path | None, config: Config) -> Path | None:
    """The profile file a new game, a simulation and the rules tables read (None: the
    packaged profile): ``--profile`` when given, else config.toml's ``game.profile``, so
    that the tables a player looks up are the rules they play. A ``game.profile`` that
    names no file is refused with what to do, whichever command read it."""
    if given:
        return given
    try:
        return config.existing_file("game.profile")
    except DataError as exc:
        raise DataError(f"{exc}; {PROFILE_REMEDY}") from None


def chosen_profile(given: Path | None) -> tuple[Path | None, Profile]:
    """For ``rules`` and ``simulate``: :func:`profile_file` in the user's settings and its
    profile, its house rules said (:func:`told_profile`). One config.toml chose is named on
    stderr: nothing on the command line said it."""
    config = load_config()
    config.tell_notices()
    path = profile_file(given, config)
    if given is None and path is not None:
        note(f"profile {path}, from {config.where('game.profile')}")
    return path, told_profile(load_profile(path))


def chosen_preset(given: str | None) -> str:
    """For ``rules`` and ``simulate``: ``--preset`` when given, else config.toml's (or the
    environment's) ``game.preset``, as ``play`` takes it, so that a player whose config
    plays EZ is not answered by Plus (setup73 DEFECT 2). One the settings chose is named on
    stderr, as the profile is: nothing on the command line said it. (The settings' own
    notices are said by :func:`chosen_profile`.)"""
    if given is not None:
        return given
    config = load_config()
    preset = config.text("game.preset")
    if config.settings["game.preset"].source is not Source.DEFAULT:
        note(f"preset {preset}, from {config.where('game.preset')}")
    return preset


def tile_arg(text: str) -> Tile:
    try:
        return Tile.from_notation(text)
    except InvalidNotation as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def monster_arg(text: str) -> Monster:
    """A ``--monster``: its letter, English or Japanese name (JR-MON-1), or a refusal that
    lists every monster so."""
    monster = find_monster(text)
    if monster is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a monster: give its letter, English or Japanese name, one of\n"
            f"{monster_list()}")
    return monster


def preset_arg(text: str) -> str:
    """A ``--preset``: ez, plus, or ez with some EZ Plus options on (``ez+sleep_check``),
    said by its one name (:func:`preset_name`); anything else refused, naming the options
    and a near miss of the word misspelt (:func:`checked_preset`, config's own check)."""
    try:
        return checked_preset(text)
    except DataError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


MONSTER_HELP = "the monster: its letter, English or Japanese name (S, snake, 大蛇)"


def preset_help(tail: str) -> str:
    """--preset's help, one for play, simulate and rules sleep: the presets, how options are
    switched on, and the six options with their rules' Japanese names; then ``tail`` (its
    default, or the setting it overrides)."""
    options = ", ".join(f"{option.value} {option.rule_name}" for option in Option)
    return (f"rules preset: {', '.join(PRESETS)}, or ez with some EZ Plus options switched "
            f"on, joined by +, as ez+sleep_check+drops (options: {options}); {tail}")


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "rules", help=COMMANDS["rules"].help,
        description="Look up 雀ローグEZプラス's rules tables, for a game on paper or to check "
                    "the companion: encounters (JR-ENC-1), sleep (JR-SLEEP-1..3), monsters "
                    "(JR-MON-1), the monster rate (JR-RATE-1), damage (JR-DMG-1), levels "
                    "(JR-LVL-1) and the companion's own Defaults. --profile reads them from "
                    "a rules profile. Example: companion rules encounter --floor 3 --tile 6m")
    _profile_option(parser, None)
    kinds = parser.add_subparsers(dest="table", required=True, metavar="TABLE")

    p = kinds.add_parser("encounter", help="which monster a monster tile gives (JR-ENC-1); "
                         "alone, the whole table")
    p.add_argument("--floor", type=positive_int,
                   help="the floor (階層), from 1; alone, that floor's row")
    p.add_argument("--tile", type=tile_arg,
                   help="the monster tile, e.g. 6m; alone, its column")
    p.set_defaults(func=run_encounter)

    p = kinds.add_parser("sleep", help="awake or asleep on encounter (JR-SLEEP-1..3); "
                         "alone, the sleep check's tables")
    p.add_argument("--floor", type=positive_int, help="the floor (階層), from 1")
    p.add_argument("--monster-tile", type=tile_arg, help="the monster tile, e.g. 6m")
    p.add_argument("--corner-tile", type=tile_arg, help="the room's top-left tile")
    p.add_argument("--rings", type=non_negative_int,
                   help="rings of stealth worn (隠密の指輪), 0 unless given; alone, that "
                   "table")
    p.add_argument("--preset", type=preset_arg, metavar="PRESET",
                   help=preset_help(PRESET_DEFAULT))
    p.set_defaults(func=run_sleep)

    p = kinds.add_parser("monsters", help="the monster table (JR-MON-1), or one monster's row")
    p.add_argument("--monster", type=monster_arg, help=MONSTER_HELP)
    p.set_defaults(func=run_monsters)

    p = kinds.add_parser("rate", help="the monster rate and its terms (JR-RATE-1)")
    p.add_argument("--monster", type=monster_arg, required=True, help=MONSTER_HELP)
    # Each term in the Japanese its output says it by (level レベル, weapon 武器).
    p.add_argument("--level", type=positive_int, required=True,
                   help="the PC's level (レベル)")
    p.add_argument("--weapon", type=non_negative_int, required=True,
                   help="the weapon's attack (武器)")
    p.add_argument("--strength", type=int, help="PC strength (the strength rule, "
                   f"{Option.STRENGTH.rule_name})")
    p.set_defaults(func=run_rate)

    p = kinds.add_parser("damage", help="damage a monster's hit deals (JR-DMG-1)")
    p.add_argument("--monster", type=monster_arg, required=True, help=MONSTER_HELP)
    p.add_argument("--armour", type=non_negative_int, required=True,
                   help="the armour's defence (鎧)")
    p.set_defaults(func=run_damage)

    p = kinds.add_parser("level", help="level and max HP for an XP total (JR-LVL-1); "
                         "alone, the whole table")
    p.add_argument("--xp", type=non_negative_int, help="experience points (経験値) in all")
    p.set_defaults(func=run_level)

    p = kinds.add_parser("defaults", help="where the companion's own choices ([DEFAULT]) "
                         "live: the profile, and those fixed in the companion, with "
                         "its readings of the book")
    p.set_defaults(func=run_defaults)

    # No table's option taken by a prefix of its name: `rules sleep --monster S`, typed as
    # rate, damage and monsters take --monster, was read as --monster-tile and refused
    # naming a flag not typed (a77jrrules NIT 2); unknown, it is told with the option meant.
    for name, sub in kinds.choices.items():
        sub.allow_abbrev = False
        sub.description = f"{_help_of(kinds, name)[:1].upper()}{_help_of(kinds, name)[1:]}. " \
                          f"Example: companion rules {name} {EXAMPLES[name]}".rstrip()
        sub.add_argument("--json", action="store_true", help="print one JSON object")
        # After the table name too, as play and simulate take it after theirs. No default
        # there: a sub-parser's would overwrite a --profile given before the table name.
        _profile_option(sub, argparse.SUPPRESS)


#: Each table's example, after ``companion rules TABLE``, for its --help.
EXAMPLES = {
    "encounter": "--floor 3 --tile 6m",
    "sleep": "--floor 2 --monster-tile 6m --corner-tile 3p",
    "monsters": "--monster 大蛇",
    "rate": "--monster S --level 3 --weapon 2",
    "damage": "--monster snake --armour 1",
    "level": "--xp 120",
    "defaults": "--json",
}


def _help_of(kinds: argparse._SubParsersAction[Any], name: str) -> str:
    """The one-line help ``companion rules --help`` lists ``name`` with."""
    return next(str(action.help) for action in kinds._choices_actions if action.dest == name)


def _profile_option(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument("--profile", type=existing_file, default=default, help=PROFILE_HELP)


def _emit(args: argparse.Namespace, data: dict[str, Any], text: str) -> int:
    print(json.dumps(data, ensure_ascii=False) if args.json else text)
    return 0


def _table(args: argparse.Namespace, table: Reference) -> int:
    return _emit(args, table.data, table.text)


def _named(m: Monster) -> dict[str, str]:
    """The monster as every lookup's JSON names it: letter, Japanese and English."""
    return {"monster": m.id, "name_ja": m.name_ja, "name_en": m.name_en}


def _monster_rank(tile: Tile, profile: Profile) -> int:
    """The rank of ``tile``, the encounter table's column, where it is a monster tile."""
    role = profile.role(tile)
    if role is not Role.MONSTER:
        raise InvalidNotation(f"{tile} is not a monster tile in this profile (it is {role.value})")
    return tile.rank


def run_encounter(args: argparse.Namespace) -> int:
    """JR-ENC-1: one cell, or the rows and columns asked for (all of them by default)."""
    profile = chosen_profile(args.profile)[1]
    if args.floor is None or args.tile is None:
        floors = [args.floor] if args.floor else list(range(1, len(TABLES.encounter) + 1))
        ranks = [_monster_rank(args.tile, profile)] if args.tile else list(range(1, 10))
        return _table(args, encounter_table(floors, ranks))
    m = TABLES.monster_for(args.floor, _monster_rank(args.tile, profile))
    data = {"floor": args.floor, "tile": str(args.tile), **monster_data(m)}
    dmg = data["damage"]
    ability = ""
    if m.ability is not Ability.NONE:
        ability = f", {data['ability_ja']} ({data['ability_en']})"
    text = (
        f"Floor {args.floor}, {args.tile}: [{m.id}] {m.name_ja} ({m.name_en}) — attack {m.attack}, "
        f"damage {dmg}, XP {m.xp}, drops {m.drops}{ability}"
    )
    return _emit(args, data, text)


SLEEP_LOOKUP = ("--floor", "--monster-tile", "--corner-tile")


def run_sleep(args: argparse.Namespace) -> int:
    """JR-SLEEP-1..3: one monster met, or the sleep check's tables."""
    profile = chosen_profile(args.profile)[1]
    rings = 0 if args.rings is None else args.rings
    if rings > profile.ring_slots:
        raise DataError(f"--rings {rings}: a PC wears at most {profile.ring_slots} "
                        "rings at once (JR-PC-4, the profile's pc.ring_slots)")
    given = [args.floor, args.monster_tile, args.corner_tile]
    if all(value is None for value in given):
        worn = list(range(profile.ring_slots + 1)) if args.rings is None else [rings]
        return _table(args, sleep_table(worn, profile.non_number_corner_sleeps))
    missing = [flag for flag, value in zip(SLEEP_LOOKUP, given, strict=True) if value is None]
    if missing:
        raise DataError(f"rules sleep: give {' and '.join(missing)} too to look up a monster "
                        f"met, or none of {', '.join(SLEEP_LOOKUP)} for the sleep check's "
                        "tables")
    m = TABLES.monster_for(args.floor, _monster_rank(args.monster_tile, profile))
    preset = chosen_preset(args.preset)
    sleep_check = Option.SLEEP_CHECK in preset_options(preset)
    state, check = sleep_on_encounter(
        m, args.monster_tile, args.corner_tile, rings, sleep_check,
        profile.non_number_corner_sleeps,
    )
    data = {**_named(m), "state": state.value, "sleep_check": bool(check),
            "preset": preset}
    how = "by the sleep check" if check else ("EZ column" if not sleep_check else "fixed column")
    if check and not args.corner_tile.is_number:
        how = f"by the top-left honour tile: {HONOUR_CORNER_DEFAULT}"
    return _emit(args, data, f"{m.name}: {TABLES.sleep_names[state.value].text} ({how})")


def run_monsters(args: argparse.Namespace) -> int:
    """JR-MON-1: the monster table, in the book's order, or the one monster asked for."""
    monsters = [args.monster] if args.monster else list(TABLES.monsters.values())
    return _table(args, monster_table(monsters))


def run_rate(args: argparse.Namespace) -> int:
    """JR-RATE-1: the monster rate of a melee check (JR-MELEE-2), and JR-DICE-2's tiles that
    decide the check whatever it is."""
    m: Monster = args.monster
    profile = chosen_profile(args.profile)[1]
    # A check for a PC that cannot be is refused, as `rules sleep --rings` past the hands is
    # (rules70 NIT 6): the limits are the level table's and the profile's.
    if args.level > TABLES.max_level:
        raise DataError(f"--level {args.level}: the highest level is {TABLES.max_level} "
                        "(JR-LVL-1, the level table data/levels.toml)")
    if args.strength is not None and args.strength < profile.strength_min:
        raise DataError(f"--strength {args.strength}: strength never drops below "
                        f"{profile.strength_min} (JR-PC-2, the profile's pc.strength_min)")
    # Nor above where it starts: poison and strength drain only lower it, and the ring of
    # strength (増強の指輪) only guards it (JR-AB-POISON, JR-AB-DRAINSTR; reviewr70 NIT 4).
    if args.strength is not None and args.strength > profile.strength:
        raise DataError(f"--strength {args.strength}: strength never rises above "
                        f"{profile.strength}, where it starts (JR-PC-1, the profile's "
                        "pc.strength)")
    raw, terms, rate = rate_terms(m.attack, args.level, args.weapon, args.strength)
    data = {**_named(m), "rate": rate, "raw": raw, "terms": terms,
            "clamped": raw != rate, "always_succeeds": str(profile.critical),
            "always_fails": str(profile.fumble)}
    shown = format_terms([[n, v] for n, v in terms])
    clamp = f" = {raw}, clamped to 1..9" if raw != rate else ""
    return _emit(args, data, f"{m.name}: rate {rate} = {shown}{clamp} (success on 1d9 >= {rate}; "
                 f"{profile.critical.name_ja} {profile.critical} always succeeds, "
                 f"{profile.fumble.name_ja} {profile.fumble} always fails)")


def run_damage(args: argparse.Namespace) -> int:
    """JR-DMG-1: a monster's damage less the PC's armour, at least 1 (0 stays 0)."""
    m: Monster = args.monster
    if m.damage_d9:
        data = {**_named(m), "damage": f"{m.damage_d9}d9 - {args.armour}", "minimum": 1,
                "armour": args.armour}
        text = f"{m.name}: {m.damage_d9}d9 − {args.armour} armour, at least 1"
    else:
        amount = damage(m.damage, args.armour)
        data = {**_named(m), "damage": amount, "table": m.damage, "armour": args.armour}
        raw = m.damage - args.armour
        if m.damage == 0:
            result = f"{amount} (table damage 0: no damage)"
        elif raw < 1:  # the sum as it is, then JR-DMG-1's floor: not "4 − 10 = 1"
            result = f"{raw}, at least 1 → {amount}"
        else:
            result = f"{amount} (at least 1)"
        text = f"{m.name}: {m.damage} − {args.armour} armour = {result}"
    return _emit(args, data, text)


def run_level(args: argparse.Namespace) -> int:
    """JR-LVL-1: the level and max HP of an XP total, or the whole table."""
    profile = chosen_profile(args.profile)[1]
    if args.xp is None:
        return _table(args, level_table(profile))
    level = TABLES.level_for_xp(args.xp)
    nxt = TABLES.level_xp[level] if level < TABLES.max_level else None
    data = {"xp": args.xp, "level": level, "next_level_xp": nxt,
            "max_hp": profile.max_hp(level)}
    more = f", next level at {nxt} XP" if nxt else " (the highest level)"
    return _emit(args, data, f"{args.xp} XP: level {level}, max HP {profile.max_hp(level)}{more}")


def run_defaults(args: argparse.Namespace) -> int:
    """The [DEFAULT]s: the profile read now, and those fixed in the companion (JR-TILE-1,
    JR-WALL-1, JR-DICE-1, JR-MAP-1..3, JR-MULTI-1, JR-PC-1, JR-ITEM-1)."""
    path, profile = chosen_profile(args.profile)
    return _table(args, defaults_table(profile, str(path) if path else None))
