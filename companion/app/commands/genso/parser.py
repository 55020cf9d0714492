"""The ``companion genso`` command line: every sub-command and its options, and the run
that loads the rules and hands the parsed arguments to the sub-command.
"""

from __future__ import annotations

import argparse
import unicodedata
from collections.abc import Callable
from typing import Any

from companion.app.commands.genso.characters import (
    cmd_buy,
    cmd_gear,
    cmd_grow,
    cmd_lore,
    cmd_new,
    cmd_presets,
    cmd_rest,
    cmd_sell,
    cmd_sheet,
    cmd_travel,
)
from companion.app.commands.genso.checks import (
    cmd_check,
    cmd_defaults,
    cmd_lists,
    whole_number,
)
from companion.app.commands.genso.fights import cmd_fight
from companion.app.commands.genso.files import SET_EXAMPLE, load_user_rules, saved_fight_rules
from companion.app.commands.roll import add_dice_arguments
from companion.app.overrides import add_set_argument
from companion.systems.genso.character.growth import GROWTH_CHOICES
from companion.systems.genso.rules import GensoRules, load_rules

COMMANDS: dict[str, Callable[[argparse.Namespace, GensoRules], int]] = {
    "new": cmd_new, "sheet": cmd_sheet, "presets": cmd_presets, "lore": cmd_lore,
    "travel": cmd_travel, "buy": cmd_buy,
    "sell": cmd_sell, "gear": cmd_gear, "grow": cmd_grow, "rest": cmd_rest, "check": cmd_check,
    "defaults": cmd_defaults, "list": cmd_lists, "fight": cmd_fight,
}


#: What an ACTOR or TARGET of ``genso fight`` takes (:func:`~.fights.combatant_name`).
WHO_HELP = ("a combatant: its name as `fight show` lists it, the key or sheet it was brought "
            "in with (pc1, aki.toml, a saved name) or a monster's key (orc, orc1)")


def run(args: argparse.Namespace) -> int:
    if args.sub == "fight" and args.verb != "new":  # a fight in progress keeps its settings
        rules = saved_fight_rules(args.set or [])
    else:
        rules = load_user_rules(args.set or [])
    return COMMANDS[args.sub](args, rules)


def _common(parser: argparse.ArgumentParser, dice: bool = False) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_set_argument(parser, SET_EXAMPLE)
    if dice:
        add_dice_arguments(parser)


#: The starting skills of GM-CHAR-6 by their Japanese names (PG 1-3-6 「魔術ー１」…).
SKILLS = {"魔術": "magic", "戦闘": "combat", "探索": "search"}


def skill_key(text: str) -> str:
    """``new --skill``: a skill's key, or its Japanese name as the help and the seed write it
    (戦闘, 戦闘ー１, 戦闘-1), which was refused as an invalid choice. Anything else is left
    for argparse to refuse with the choices."""
    folded = unicodedata.normalize("NFKC", text).strip()
    for dash in ("ー1", "-1", "−1", "ｰ1"):
        folded = folded.removesuffix(dash)
    return SKILLS.get(folded, text)


#: The check kinds that take --difficulty, and the rule whose Default stands in for none.
DIFFICULTY_DEFAULTS = {"simple": "GM-CHECK-1", "general": "GM-CHECK-2", "trap": "GM-CHECK-3",
                       "enemy": "GM-CHECK-6"}


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    # The packaged rules, for the numbers the help gives (a user's --set is not read yet).
    rules = load_rules()
    parser = subparsers.add_parser(
        "genso", help="幻想迷宮冒険譚 Ver2.5 (seed 002): characters, checks, fights, shop",
        description="Seed 002's 2D6 fantasy RPG: make and keep character sheets, roll checks "
                    "with their terms, track fights (saved after every action), buy and sell "
                    "in gold, large silver and silver, spend experience.",
    )
    sub = parser.add_subparsers(dest="sub", required=True, metavar="SUB")

    new = sub.add_parser("new", help="make a PC by the seed's tables (GM-CHAR-1 to 7)")
    new.add_argument("name")
    new.add_argument("--body", type=int, required=True, help="体力: 6, 5 or 4")
    new.add_argument("--perception", type=int, required=True, help="知覚力: 6, 5 or 4")
    new.add_argument("--magic", type=int, required=True, help="魔力: 6, 5 or 4")
    new.add_argument("--skill", type=skill_key, choices=tuple(SKILLS.values()), required=True,
                     help="magic 魔術ー１ (Healing), combat 戦闘ー１ or search 探索ー１ "
                          "(GM-CHAR-6; the Japanese is taken too)")
    new.add_argument("--age", type=int, default=15, help="15-17 (default 15)")
    new.add_argument("--sex", default="", help="性別 (free)")
    new.add_argument("--out", help="sheet file, ending .toml (default: the data folder)")
    new.add_argument("--force", action="store_true", help="replace an existing sheet")
    _common(new, dice=True)

    sheet = sub.add_parser("sheet", help="show a sheet with its derived values")
    sheet.add_argument("sheet", help="a .toml sheet, a saved character's name or a preset")
    sheet.add_argument("--save-as", metavar="FILE",
                       help="also write the sheet to FILE (ending .toml)")
    sheet.add_argument("--force", action="store_true", help="replace FILE if it exists")
    _common(sheet)

    _common(sub.add_parser("presets", help="the seed's sample characters (GM-DATA-1)"))
    _common(sub.add_parser("defaults", help="every Default and where its value came from"))
    travel = sub.add_parser("travel", help="how long a journey takes on foot (GM-MOVE-2)")
    travel.add_argument("metres", type=int, help="the distance in metres")
    _common(travel)
    lore = sub.add_parser("lore", help="the world, the glossary, the scenario (GM-LORE-1 to 3)")
    lore.add_argument("page", nargs="?", choices=("world", "glossary", "scenario"))
    _common(lore)
    lists = sub.add_parser("list", help="item and price tables, spells, monster blocks")
    lists.add_argument("what", choices=("items", "spells", "monsters"))
    _common(lists)

    buy = sub.add_parser("buy", help="buy an item or a mana stone for a saved sheet")
    buy.add_argument("sheet")
    buy.add_argument("item", help="item key or name, or mana_stone")
    buy.add_argument("--price", type=int, help="silver paid for a price marked ～ (from) or "
                                               "おおよそ (about)")
    buy.add_argument("--mp", type=int, help="a mana stone's MP (1-5; default the shop's 4)")
    _common(buy)
    sell = sub.add_parser("sell", help="sell an item that has a buy-back price")
    sell.add_argument("sheet")
    sell.add_argument("item", help="item key, used:KEY for a used stone, mana_stone (or "
                                   "mana_stone:N, N from 0, when several)")
    sell.add_argument("--price", type=int, help="silver received for a buy-back marked "
                                                "おおよそ (about), or the GM's price for an "
                                                "item the seed gives none")
    _common(sell)
    gear = sub.add_parser("gear", help="equip a weapon, armour, shield or ring (or --off)")
    gear.add_argument("sheet")
    gear.add_argument("item")
    gear.add_argument("--hand", choices=("left", "right"), default="left")
    gear.add_argument("--off", action="store_true", help="take it off instead")
    _common(gear)
    grow = sub.add_parser("grow", help="award experience or spend it (GM-GROW-1/2)")
    grow.add_argument("sheet")
    grow.add_argument("choice", choices=("award", *GROWTH_CHOICES))
    grow.add_argument("--spell", help="the basic spell to learn")
    grow.add_argument("--scenarios", type=int, default=1, help="scenarios finished (award)")
    _common(grow)
    rest = sub.add_parser("rest", help="days of rest (GM-HEAL-1), a night's sleep, or both")
    rest.add_argument("sheet")
    rest.add_argument("days", type=int, nargs="?",
                      help="days of rest (default 1; none with --sleep alone)")
    rest.add_argument("--healer", action="store_true",
                      help="in a healer's care, for the GM-HEAL-1 fee per HP "
                           "(GM-HEAL-1.fee_silver; `genso defaults` shows it)")
    rest.add_argument("--sleep", action="store_true",
                      help="a night's sleep (GM-HEAL-2): MP full (after the days of rest, if "
                           "given)")
    _common(rest)

    check = sub.add_parser("check", help="roll a check of §2.3 with its terms")
    check.add_argument("kind", choices=("simple", "general", "trap", "undead", "enemy", "mark",
                                        "opposed"))
    check.add_argument("--sheet", help="who rolls (sheet, saved name or preset)")
    check.add_argument("--vs", help="the other side of an opposed check: a sheet, saved "
                       "character or preset, or a monster (orc, オーク)")
    check.add_argument("--ability", choices=("body", "perception", "magic", "strength"),
                       help="general and opposed: the ability rolled (default body); "
                            "strength (筋力) only in an opposed check, where it reads as "
                            "body (GM-CHECK-5)")
    without = ", ".join(f"{kind} {rules.default(rule, 'difficulty')}"
                        for kind, rule in DIFFICULTY_DEFAULTS.items())
    check.add_argument("--difficulty", help="simple, general, trap, enemy: a number or "
                                            "extremely_hard, very_hard, hard, easy (極めて難しい, "
                                            "非常に難しい, 難しい, 易しい; traps: "
                                            "cleverly_set, normally_set, hastily_set); "
                                            "without it, the check's Default, marked "
                                            f"(default) on its line ({without}: "
                                            "GM-CHECK-1.difficulty and the like; `genso "
                                            "defaults` lists them, --set changes them)")
    check.add_argument("--modifier", type=whole_number, default=0,
                       help="the modifier (修正値) of who rolls (--sheet)")
    check.add_argument("--vs-modifier", type=whole_number, metavar="N",
                       help="opposed: the other side's (--vs) modifier, Ｂの…＋修正値 "
                            "(GM-CHECK-5)")
    check.add_argument("--no-active", action="store_true",
                       help="opposed: neither side is active (a tie is a draw)")
    _common(check, dice=True)

    fight = sub.add_parser("fight", help="track a fight: new, attack, cast …, show, log, undo, "
                                         "apply")
    verbs = fight.add_subparsers(dest="verb", required=True, metavar="VERB")
    start = verbs.add_parser("new", help="start a fight")
    start.add_argument("--party", nargs="+", required=True, help="PC-side sheets or presets")
    start.add_argument("--monsters", nargs="*", metavar="KEY[:N]", help="e.g. orc:2 ghost")
    start.add_argument("--npc", nargs="*", help="NPC sheets on the other side")
    start.add_argument("--npc-as-monster", action="store_true",
                       help="treat those NPCs as monsters (魔物扱い)")
    start.add_argument("--force", action="store_true",
                       help="start over: the fight already saved is kept beside the new one "
                            "as <its name>.replaced-…")
    for name, helptext in (("show", "the combatants"), ("log", "every action so far"),
                           ("undo", "take back the last action"),
                           ("apply", "write HP, MP and stones back to the sheet files"),
                           ("end", "the GM ends the fight"), ("sunrise", "1-day spells end"),
                           ("sunset", "Wight/Wraith victims rise"),
                           ("sleep", "a night's sleep (GM-HEAL-2): MP full")):
        _common(verbs.add_parser(name, help=helptext), dice=name in ("end", "sunrise",
                                                                     "sunset", "sleep"))
    attack = verbs.add_parser("attack", help="attack (GM-COMBAT-2/3/4)")
    attack.add_argument("actor", help=WHO_HELP)
    attack.add_argument("target", help=WHO_HELP)
    attack.add_argument("--weapon", help="the weapon: its key or name (sword, 剣) or its "
                        "number on the sheet (0: the first, the default)")
    attack.add_argument("--full", action="store_true", help="全力攻撃: +4, no dodging")
    cast = verbs.add_parser("cast", help="cast a spell (GM-MAGIC)")
    cast.add_argument("actor", help=WHO_HELP)
    cast.add_argument("spell")
    cast.add_argument("targets", nargs="*")
    cast.add_argument("--weapon", help="Exorcism on, or Dispel from, this weapon of the "
                      "target: its key or name (sword, 剣) or its number on the sheet")
    cast.add_argument("--stone", type=int, help="pay from this mana stone first")
    cast.add_argument("--ring", action="store_true",
                      help="pay from the Ring of Storage's stored MP first (GM-ITEM-3)")
    stone = verbs.add_parser("stone", help="use a Healing or Enchant Stone (GM-ITEM-2)")
    stone.add_argument("actor", help=WHO_HELP)
    stone.add_argument("stone_key", choices=("healing_stone", "enchant_stone"))
    stone.add_argument("target", help=WHO_HELP)
    move = verbs.add_parser("move", help="move (GM-MOVE-1)")
    move.add_argument("actor", help=WHO_HELP)
    move.add_argument("mode", choices=("combat", "normal", "full"))
    for name, helptext in (("dodge", "全力回避: +6 to defence"), ("flee", "run away"),
                           ("wait", "do nothing")):
        verbs.add_parser(name, help=helptext).add_argument("actor", help=WHO_HELP)
    for name in ("new", "attack", "cast", "stone", "move", "dodge", "flee", "wait"):
        _common(verbs.choices[name], dice=name != "new")
    for verb in verbs.choices.values():
        verb.add_argument("--file", help="the fight file (default: the data folder)")
    parser.set_defaults(func=run)
