"""``companion events TABLE``: roll a seed-001 event table and walk its follow-ups (spec §1).

Defaults come from the packaged rules data, then ``events.toml`` in the config
folder (same ``[defaults."RULE-ID"]`` shape), then ``--set RULE.key=value``.
``companion events defaults`` lists them all with where each value came from.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.app.commands.roll import add_dice_arguments, print_json, run_with_source
from companion.app.overrides import add_set_argument, how_to_set, read_text, user_rules
from companion.dice import DiceSource
from companion.systems.defaults import listing, notes_text
from companion.systems.events.rules import EVENT_TABLES, EventRules, Mode, load_rules
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import load_party, load_rating_table

SET_EXAMPLE = "EV-DOOR-3.enabled=true"
OVERRIDES_NAME = "events.toml"


def load_user_rules(settings: list[str]) -> EventRules:
    """Packaged rules with the user's file and ``--set`` overrides applied."""
    return user_rules(load_rules(), OVERRIDES_NAME, settings, SET_EXAMPLE)


def show_defaults(rules: EventRules, as_json: bool) -> int:
    """Every Default, "(default)" or "(set by you)", and the range of one that has one
    (``[limits]``: EV-CORE-1 dm_level "1 or more", EV-POI-2, ...) or its choices (EV-CORE-4
    rounding "one of: down, up, nearest"); "range" and "choices" are left out of a JSON row
    without them. The text ends with how to change one."""
    rows = listing(rules.settings.entries(), rules.settings)
    if as_json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    for row in rows:
        origin = "(default)" if row["default"] else "(set by you)"
        print(f"{row['rule']:<10} {row['key']:<24} {json.dumps(row['value'], ensure_ascii=False)}"
              f"  {origin}{notes_text(row)}")
    print(how_to_set(OVERRIDES_NAME, SET_EXAMPLE))
    return 0


def run(args: argparse.Namespace) -> int:
    rules = load_user_rules(args.set or [])
    if args.table == "defaults":
        return show_defaults(rules, args.json)
    party = load_party(read_text(args.party, "party file"), args.party) if args.party else ()
    ratings = (
        load_rating_table(read_text(args.ratings, "rating table"), args.ratings)
        if args.ratings else None
    )

    def body(source: DiceSource) -> int:
        report = run_event(
            args.table, source, rules=rules, mode=args.mode, dm_level=args.level,
            party=party, rating_table=ratings, trap=args.trap,
        )
        if args.json:
            print_json(args, report.to_json())
        else:
            print(report.text)
        return 0

    return run_with_source(args, body)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "events",
        help="roll a dungeon event table (seed 001 イベント（簡易版）) and its follow-ups",
        description=(
            "Roll one of the 1D6 event tables and walk where it leads. generic mode reports "
            "the result, target and countermeasure; sw mode also rolls the Sword World checks "
            "for the party in --party. 'defaults' lists every Default and where it came from."
        ),
    )
    parser.add_argument("table", metavar="TABLE", choices=[*EVENT_TABLES, "defaults"],
                        help="; ".join(f"{name} ({rule})" for name, rule in EVENT_TABLES.items())
                        + "; defaults (list every Default)")
    parser.add_argument("--trap", metavar="KIND", default=None,
                        help="with the trap table: resolve this trap (explosion, pit, ...) "
                             "without rolling its type, e.g. the one a door rolled before its "
                             "disarm (EV-DOOR-3: no second roll)")
    parser.add_argument("--level", type=int, default=None,
                        help="dungeon level, ＤＭレベル (default: EV-CORE-1 Default, 1)")
    parser.add_argument("--mode", choices=[m.value for m in Mode], default=None,
                        help="generic (default) or sw (Sword World checks)")
    parser.add_argument("--party", metavar="FILE",
                        help="party TOML for sw mode: [[member]] tables with name, adventurer, "
                             "thief, sage, sorcerer, evasion, shield, armor, dexterity, "
                             "agility, intelligence, strength, vitality, hp, mp, max_hp, "
                             "max_mp (example: companion/systems/events/data/example_party.toml)")
    parser.add_argument("--ratings", metavar="CSV",
                        help="Sword World rating table: header rating,2,...,12 (EV-CORE-3)")
    add_set_argument(parser, SET_EXAMPLE)
    add_dice_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the steps as JSON")
    parser.set_defaults(func=run)
