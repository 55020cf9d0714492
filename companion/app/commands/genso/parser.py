"""The ``companion genso`` command line: every sub-command and its options, and the run
that loads the rules and hands the parsed arguments to the sub-command.
"""

from __future__ import annotations

import argparse
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from companion.app import command_list
from companion.app.arg_types import file_name
from companion.app.commands.genso.calendar import CORRECTION, cmd_calendar
from companion.app.commands.genso.characters import (
    SECOND_HAND_FAR,
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
    day_count,
    whole_number,
)
from companion.app.commands.genso.fights import cmd_fight
from companion.app.commands.genso.files import SET_EXAMPLE, load_user_rules, saved_fight_rules
from companion.app.commands.roll import add_dice_arguments
from companion.app.help_format import cell_wrap
from companion.app.overrides import add_set_argument
from companion.systems.genso.calendar import MOST_DAYS_PASSED
from companion.systems.genso.character.growth import GROWTH_CHOICES
from companion.systems.genso.rules import TRAPS, GensoRules, load_rules

COMMANDS: dict[str, Callable[[argparse.Namespace, GensoRules], int]] = {
    "new": cmd_new, "sheet": cmd_sheet, "presets": cmd_presets, "lore": cmd_lore,
    "travel": cmd_travel, "buy": cmd_buy,
    "sell": cmd_sell, "gear": cmd_gear, "grow": cmd_grow, "rest": cmd_rest, "check": cmd_check,
    "defaults": cmd_defaults, "list": cmd_lists, "fight": cmd_fight, "calendar": cmd_calendar,
}


#: What an ACTOR or TARGET of ``genso fight`` takes (:func:`~.fights.combatant_name`).
WHO_HELP = ("a combatant: its name or its English as `fight show` lists it (オーク2, "
            "\"Orc 2\"), the key or sheet it was brought in with (pc1, aki.toml, a saved "
            "name) or a monster's key (orc, orc1)")


def run(args: argparse.Namespace) -> int:
    # A --set given after a verb (`calendar curse --set …`) is kept beside one before it.
    args.set = [*(args.set or []), *(getattr(args, "verb_set", None) or [])]
    if args.sub == "fight" and args.verb != "new":  # a fight in progress keeps its settings
        rules = saved_fight_rules(args.set)
    else:
        rules = load_user_rules(args.set)
    return COMMANDS[args.sub](args, rules)


#: What --dice says on a fight verb that rolls nothing (GM-MAGIC-1: a spell has no roll; a
#: move, a dodge, flight, a wait and the GM's steps none either): only attack and stone
#: roll, and `flee --help` ("no roll") beside "where the dice come from" left it unsaid
#: (a78gensofight item 7). Kept, so one script line serves every verb.
ROLLS_NONE = "; this verb rolls no dice, so --dice, --seed and --source change nothing"


def _common(parser: argparse.ArgumentParser, dice: bool = False, rolls: bool = True) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_set_argument(parser, SET_EXAMPLE)
    if dice:
        add_dice_arguments(parser, "" if rolls else ROLLS_NONE)


def _verb_common(parser: argparse.ArgumentParser) -> None:
    """--json and --set of a verb whose command takes them before it too (``genso calendar
    --json show``): argparse writes a verb's defaults over what its command parsed (review61a
    D2: the --json and --set before the verb were dropped without a word), so a verb's
    --json has none and its --set is kept apart (:func:`run` joins the two)."""
    parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="print JSON")
    parser.add_argument("--set", action="append", dest="verb_set", metavar="RULE.key=value",
                        help=f"override a Default for this run, e.g. {SET_EXAMPLE}")


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


def _page(group: argparse._SubParsersAction[Any], name: str, helptext: str,
          more: str = "", examples: tuple[str, ...] = ()) -> argparse.ArgumentParser:
    """A sub-command whose ``--help`` says what it does (its one-line help, then ``more``)
    and gives ``examples``, each a command line as typed (cli59 F5: most had neither)."""
    words = f"{helptext[0].upper()}{helptext[1:]}." + (f" {more}" if more else "")
    page: argparse.ArgumentParser = group.add_parser(
        name, help=helptext, description="\n".join(cell_wrap(words, HELP_WIDTH)),
        epilog="\n".join(("example:" if len(examples) == 1 else "examples:",
                          *(f"  {e}" for e in examples))) if examples else None,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return page


#: How wide a sub-command's description is filled, in cells (argparse's own text takes the
#: terminal's).
HELP_WIDTH = 78
#: What a SHEET of a sub-command that changes one takes.
SHEET_HELP = "a saved character's name (as `genso new` made it) or a .toml sheet file"


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    # The packaged rules, for the numbers the help gives (a user's --set is not read yet).
    rules = load_rules()
    parser = subparsers.add_parser(
        "genso", help=command_list.COMMANDS["genso"].help,
        # Filled here: the raw formatter the epilog's examples need printed it as one line
        # of 195 cells (newuser61 N4).
        description="\n".join(cell_wrap(
            "幻想迷宮冒険譚, seed 002's 2D6 fantasy RPG: make and "
            "keep character sheets, roll checks with their terms, track fights (saved "
            "after every action), buy and sell in gold (金貨), large silver (大銀貨) and "
            "silver (銀貨), spend experience.", HELP_WIDTH)),
        epilog="examples:\n"
               "  companion genso new Aki --body 6 --perception 5 --magic 4 --skill magic\n"
               "  companion genso check trap --sheet Aki --difficulty cleverly_set\n"
               "  companion genso fight new --party Aki pc2 --monsters orc:2\n"
               "  companion genso fight attack Aki orc1\n"
               "`companion genso SUB --help` tells more of each.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="sub", required=True, metavar="SUB")

    # The seed's numbers the help gives, from rules.toml (GM-CHAR-1 to 5).
    values = [str(v) for v in rules.num("GM-CHAR-5", "ability_values")]
    either = f"{', '.join(values[:-1])} or {values[-1]}"
    youngest, oldest = rules.num("GM-CHAR-4", "age_min"), rules.num("GM-CHAR-4", "age_max")
    new = _page(sub, "new", "make a PC by the seed's tables (GM-CHAR-1 to 7)",
                f"Birth, wants and dislikes are rolled on {rules.tables['birth'].roll} (the "
                f"dice as --dice says); the abilities take {', '.join(values[:-1])} and "
                f"{values[-1]} one each; the basic kit is free. The sheet is saved in the data "
                "folder under its name (or --out).",
                ("companion genso new Aki --body 6 --perception 5 --magic 4 --skill magic",))
    new.add_argument("name", help="the PC's name, which also names its sheet file")
    new.add_argument("--body", type=int, required=True, help=f"体力: {either}")
    new.add_argument("--perception", type=int, required=True, help=f"知覚力: {either}")
    new.add_argument("--magic", type=int, required=True, help=f"魔力: {either}")
    new.add_argument("--skill", type=skill_key, choices=tuple(SKILLS.values()), required=True,
                     help="magic 魔術ー１ (Healing), combat 戦闘ー１ or search 探索ー１ "
                          "(GM-CHAR-6; the Japanese is taken too)")
    new.add_argument("--age", type=int, default=youngest,
                     help=f"{youngest}-{oldest} (default {youngest})")
    new.add_argument("--sex", default="", help="性別 (free)")
    new.add_argument("--out", help="sheet file, ending .toml (default: the data folder)")
    new.add_argument("--force", action="store_true", help="replace an existing sheet")
    _common(new, dice=True)

    sheet = _page(sub, "sheet", "show a sheet with its derived values",
                  "HP, MP, attack, defence, protection and striking power, each with the "
                  "terms it is made of (GM-CORE-3/4, GM-EQUIP). --save-as copies it to a "
                  "file, the way to keep a preset's HP after a fight.",
                  ("companion genso sheet Aki", "companion genso sheet pc1 --save-as ken.toml"))
    sheet.add_argument("sheet", help="a .toml sheet, a saved character's name or a preset")
    sheet.add_argument("--save-as", metavar="FILE",
                       help="also write the sheet to FILE (ending .toml)")
    sheet.add_argument("--force", action="store_true", help="replace FILE if it exists")
    _common(sheet)

    _common(_page(sub, "presets", "the seed's sample characters (GM-DATA-1)",
                  "Each preset's key (pc1, knight_m …) is taken wherever a sheet is, as it "
                  "stands in the book: a fight does not write its HP back.",
                  ("companion genso presets",)))
    _common(_page(sub, "defaults", "every Default and where its value came from",
                  "The settings the seed leaves to the GM, each marked (default) or (set by "
                  "you), with its range or choices, then the readings the companion fixes.",
                  ("companion genso defaults", "companion genso check simple --set "
                                               "GM-CHECK-1.difficulty=easy")))
    travel = _page(sub, "travel", "how long a journey takes on foot (GM-MOVE-2)",
                   examples=("companion genso travel 9000",))
    travel.add_argument("metres", type=int, help="the distance in metres")
    _common(travel)
    calendar = _page(sub, "calendar", "the game day and its Death Curses (呪殺呪, GM-MAGIC-13)",
                     "The campaign's days, counted from day 1, and each Death Curse (呪殺呪) "
                     "with the day its target dies at sunset: 「対象は１年と１日後の日没時に死亡"
                     "する。」, a year of GM-MAGIC-13.year_days days "
                     f"({rules.default('GM-MAGIC-13', 'year_days')}). A target may carry "
                     "several, of several casters. Without a verb it shows them; days pass "
                     "only by `pass`.",
                     ("companion genso calendar", "companion genso calendar curse Mio Ben",
                      "companion genso calendar pass 30", "companion genso calendar lift Ben",
                      "companion genso calendar dispel Ben --caster Mio"))
    days = calendar.add_subparsers(dest="verb", metavar="VERB")
    _verb_common(_page(days, "show", "the day and each Death Curse with the days left",
                       examples=("companion genso calendar show",)))
    passing = _page(days, "pass", "game days pass; a curse whose sunset comes is told",
                    examples=("companion genso calendar pass 30",))
    passing.add_argument("days", type=day_count,
                         help=f"how many days pass, 1 to {MOST_DAYS_PASSED}")
    _verb_common(passing)
    curse = _page(days, "curse", "keep a Death Curse (呪殺呪) cast today",
                  examples=("companion genso calendar curse Mio Ben",))
    curse.add_argument("caster", help="who casts it (any name: an NPC needs no sheet)")
    curse.add_argument("target", help="whom it is cast on")
    _verb_common(curse)
    for taking_off, helptext, example in (
            ("lift", "its caster lifts a Death Curse (術者は任意の時点で解除できる)",
             "companion genso calendar lift Ben"),
            ("dispel", "a Dispel (呪解呪) cancelled a Death Curse (GM-MAGIC-4)",
             "companion genso calendar dispel Ben --caster Mio")):
        ending = _page(days, taking_off, helptext, examples=(example,))
        ending.add_argument("target", help="the cursed one's name, as `calendar` lists it")
        ending.add_argument("--caster", help="whose curse, when the target carries several")
        _verb_common(ending)
    undo = _page(days, "undo-death", f"take back a recorded death: {CORRECTION}",
                 "The calendar records no death for TARGET, as after a `pass` run by "
                 "mistake; no rule brings the dead back (GM-MAGIC-13). The curse that "
                 "killed stays off the calendar, and the day stays as it is.",
                 examples=("companion genso calendar undo-death Ben",))
    undo.add_argument("target", help="the dead one's name, as `calendar` lists it")
    undo.add_argument("--caster", help="whose curse killed, when several deaths are recorded")
    _verb_common(undo)
    _common(calendar)
    lore = _page(sub, "lore", "the world, the glossary, the scenario (GM-LORE-1 to 3)",
                 examples=("companion genso lore glossary",))
    lore.add_argument("page", nargs="?", choices=("world", "glossary", "scenario"),
                      help="world 世界 (GM-LORE-1), glossary 用語 (GM-LORE-2) or scenario "
                           "シナリオ (GM-LORE-3); every page without it")
    _common(lore)
    lists = _page(sub, "list", "item and price tables, spells, monster blocks",
                  examples=("companion genso list items",))
    lists.add_argument("what", choices=("items", "spells", "monsters"),
                       help="items (prices, 打撃力, 防御点; GM-EQUIP, GM-ECON-2), spells "
                            "(MP, duration, target; GM-MAGIC) or monsters (stat blocks, "
                            "GM-MON-7)")
    _common(lists)

    buy = _page(sub, "buy", "buy an item or a mana stone for a saved sheet",
                "Paid from the sheet's purse in gold, large silver and silver (GM-ECON-1), "
                "change given; the item goes into its pack (`genso gear` equips it).",
                ("companion genso buy Aki sword", "companion genso buy Aki mana_stone --mp 3"))
    buy.add_argument("sheet", help=SHEET_HELP)
    buy.add_argument("item", help="item key or name, or mana_stone")
    gold = rules.source["GM-ECON-1"]
    in_silver = (f"in silver 銀貨, 1 or more (1 gold = "
                 f"{gold['large_silver_per_gold'] * gold['silver_per_large_silver']} silver, "
                 "GM-ECON-1); one far from an おおよそ list price is warned of")
    buy.add_argument("--price", type=int, help="the price paid for one marked ～ (from) "
                                               f"or おおよそ (about): {in_silver}")
    buy.add_argument("--take-back", action="store_true",
                     help="this buy takes back a sale at its --price (as a price warning's "
                          "command does), the GM's price too for goods with no buy-back: "
                          "the price is not warned of, but for such goods one more than "
                          f"{SECOND_HAND_FAR} times off the list is noted, as nothing "
                          "checks that the sale was made")
    mana = rules.mana_stone
    buy.add_argument("--mp", type=int, help=f"a mana stone's MP ({mana['min_mp']}-"
                                            f"{mana['max_mp']}; default the shop's "
                                            f"{mana['shop_mp']})")
    _common(buy)
    sell = _page(sub, "sell", "sell an item that has a buy-back price",
                 examples=("companion genso sell Aki club",))
    sell.add_argument("sheet", help=SHEET_HELP)
    sell.add_argument("item", help="item key, used:KEY for a used stone, mana_stone (or "
                                   "mana_stone:N, N from 0, when several)")
    sell.add_argument("--price", type=int, help="the price received for a buy-back marked "
                                                "おおよそ (about), or the GM's price for an "
                                                f"item the seed gives none: {in_silver}, "
                                                "and one more than "
                                                f"{SECOND_HAND_FAR} times off the list price "
                                                "of goods with no buy-back")
    sell.add_argument("--take-back", action="store_true",
                      help="this sale takes back a buy at its --price (as a price warning's "
                           "command does): the price is not warned of")
    _common(sell)
    gear = _page(sub, "gear", "equip a weapon, armour, shield or ring (or --off)",
                 "The item must be in the sheet's pack (`genso buy`); a weapon equipped, "
                 "or one readied already, becomes weapon 0, the one `fight attack` strikes "
                 "with (those held before follow it: `fight attack --weapon KEY` takes "
                 "another).",
                 ("companion genso gear Aki sword", "companion genso gear Aki ring_storage "
                                                    "--hand right"))
    gear.add_argument("sheet", help=SHEET_HELP)
    gear.add_argument("item", help="the item's key or name as `genso list items` gives it "
                                   "(sword, 剣)")
    gear.add_argument("--hand", choices=("left", "right"),
                      help="a ring's hand (default left); two rings on one hand stop every "
                           "ring working (GM-ITEM-3); with --off, the hand to take it from "
                           "(needed when one is worn on each hand)")
    gear.add_argument("--off", action="store_true", help="take it off instead")
    _common(gear)
    costs = ", ".join(f"{key} {rules.num('GM-GROW-2', key)}" for key in GROWTH_CHOICES)
    grow = _page(sub, "grow", "award experience or spend it (GM-GROW-1/2)",
                 f"award gives {rules.num('GM-GROW-1', 'per_scenario')} experience per "
                 f"scenario finished (GM-GROW-1). Each of the others buys one step for its "
                 f"cost in experience (GM-GROW-2: {costs}): hp and mp raise the maximum by 1, "
                 "spell learns a basic spell (--spell), combat and search raise the skill "
                 "by 1.",
                 ("companion genso grow Aki award", "companion genso grow Aki spell --spell "
                                                    "fire"))
    grow.add_argument("sheet", help=SHEET_HELP)
    grow.add_argument("choice", choices=("award", *GROWTH_CHOICES),
                      help=f"award, or what to buy ({costs} experience)")
    grow.add_argument("--spell", help="the basic spell to learn (spell only; `genso list "
                                      "spells`)")
    grow.add_argument("--scenarios", type=int,
                      help="scenarios finished (award only; default 1)")
    _common(grow)
    rest = _page(sub, "rest", "days of rest (GM-HEAL-1), a night's sleep, or both",
                 f"Alone, {rules.num('GM-HEAL-1', 'alone_days_per_hp')} days of rest heal 1 "
                 "HP (days short of it are kept on the sheet); in a healer's care, "
                 f"{rules.num('GM-HEAL-1', 'healer_days_per_hp')} day heals 1 HP for a fee. "
                 f"{rules.num('GM-HEAL-2', 'sleep_hours')} hours' sleep fills MP (GM-HEAL-2). "
                 "A rest is this character's own: the calendar's day (`genso calendar pass "
                 "N`) moves only when the GM passes days.",
                 ("companion genso rest Aki 4 --healer", "companion genso rest Aki --sleep"))
    rest.add_argument("sheet", help=SHEET_HELP)
    rest.add_argument("days", type=int, nargs="?",
                      help="days of rest, 1 or more (default 1; none with --sleep alone)")
    rest.add_argument("--healer", action="store_true",
                      help="in a healer's care, for the GM-HEAL-1 fee per HP "
                           "(GM-HEAL-1.fee_silver; `genso defaults` shows it)")
    rest.add_argument("--sleep", action="store_true",
                      help="a night's sleep (GM-HEAL-2): MP full (after the days of rest, if "
                           "given)")
    rest.add_argument("--force", action="store_true",
                      help="rest the sheet as it is though the fight file holds this "
                           "character's HP and MP not yet applied (`fight apply` then does not "
                           "write them over the rest)")
    _common(rest)
    for command in (buy, sell, gear, grow, rest):
        # A fight played in a file of its own was not looked at: a rest healed the sheet
        # while that fight held its HP 2/12 (fixcarry75 item 5).
        command.add_argument("--fight", type=file_name, metavar="FILE",
                             help="a fight file to check too, beside the default one (one "
                                  "played with `fight … --file FILE` or `play --fight FILE`): "
                                  "a change to a character it holds, not yet applied, is "
                                  "said so, and a rest refused without --force")

    simple, general = (rules.difficulties[k] for k in ("simple", "general"))
    traps = "/".join(str(rules.num("GM-CHECK-3", t)) for t in TRAPS)
    kinds = (f"simple: 2D > difficulty (GM-CHECK-1: {_table(simple)}); "
             f"general: ability + 2D + modifier > difficulty (GM-CHECK-2: {_table(general)}); "
             f"trap: Perception + 2D + 罠発見/trap detection bonus > {traps} (GM-CHECK-3); "
             f"undead: Magic + 2D > {rules.num('GM-CHECK-4', 'difficulty')} (GM-CHECK-4); "
             "enemy: Perception + 2D + 敵発見/enemy detection bonus > difficulty (GM-CHECK-6); "
             f"mark: Magic + 2D > {rules.num('GM-MAGIC-6', 'difficulty')}, the direction of "
             "a Mark (GM-MAGIC-6); opposed: each side's ability + 2D + modifier, the higher "
             "wins (GM-CHECK-5)")
    check = _page(sub, "check", "roll a check of §2.3 with its terms",
                  "A check succeeds when its total is greater than the difficulty; the line "
                  "gives each term and the chance (P = n/36).",
                  ("companion genso check general --sheet Aki --ability body --difficulty "
                   "easy", "companion genso check opposed --sheet Aki --vs orc"))
    check.add_argument("kind", choices=("simple", "general", "trap", "undead", "enemy", "mark",
                                        "opposed"), help=kinds)
    check.add_argument("--sheet", help="who rolls (sheet, saved name or preset; an opposed "
                       "check's acting side A may be a monster, as --vs may)")
    check.add_argument("--vs", help="the other side of an opposed check: a sheet, saved "
                       "character or preset, or a monster (orc, オーク)")
    check.add_argument("--ability", choices=("body", "perception", "magic", "strength"),
                       help="general and opposed: the ability rolled (general: GM-CHECK-2's "
                            f"Default, {rules.default('GM-CHECK-2', 'ability')}; opposed: "
                            "body); "
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
                                            "defaults` lists them, --set changes them: for "
                                            "simple, general and trap to a name, a level of "
                                            "the seed's table, as a number is one check's "
                                            "own call given here; for enemy to a number, "
                                            "GM-CHECK-6's Default)")
    check.add_argument("--modifier", type=whole_number, default=0,
                       help="the modifier (修正値) of who rolls (--sheet)")
    check.add_argument("--vs-modifier", type=whole_number, metavar="N",
                       help="opposed: the other side's (--vs) modifier, Ｂの…＋修正値 "
                            "(GM-CHECK-5)")
    check.add_argument("--no-active", action="store_true",
                       help="opposed: neither side is active (a tie is a draw)")
    _common(check, dice=True)

    fight = _page(sub, "fight", "track a fight: new, attack, cast …, show, log, undo, apply",
                  "The fight is saved after every action; the party acts first, then the "
                  "other side, each in turn (GM-COMBAT-1). Once it is over, `fight apply` "
                  "writes HP, MP and stones back to the sheet files.",
                  ("companion genso fight new --party Aki pc2 --monsters orc:2",
                   "companion genso fight attack Aki orc1", "companion genso fight show"))
    verbs = fight.add_subparsers(dest="verb", required=True, metavar="VERB")
    start = _page(verbs, "new", "start a fight",
                  "A fight saved there that is over, its results on the sheets (`fight "
                  "apply`, or presets only), is written over with no copy kept. One still "
                  "under way, or over with results not yet applied, is refused: end it "
                  "(`fight end`) and apply it first, or give --force. Refused too when the "
                  "party is down before it begins.",
                  ("companion genso fight new --party Aki pc2 --monsters orc:2 ghost",))
    # "extend": a repeated option adds to the earlier ones; stored, `--npc knight_m:60
    # --npc knight_m:40` kept only the 40, without a word (reviewb75 NIT B4).
    start.add_argument("--party", nargs="+", action="extend", required=True,
                       help="PC-side sheets or presets")
    start.add_argument("--monsters", nargs="*", action="extend", metavar="KEY[:N]",
                       help="e.g. orc:2 ghost")
    start.add_argument("--npc", nargs="*", action="extend", metavar="SHEET|PRESET[:N]",
                       help="NPC sheets or presets on the other side; a preset's KEY:N brings "
                            "N copies, numbered (knight_m:2)")
    start.add_argument("--npc-as-monster", action="store_true",
                       help="treat those NPCs as monsters (魔物扱い)")
    start.add_argument("--force", action="store_true",
                       help="start over a fight still under way or not yet applied: it is "
                            "kept beside the new one as <its name>.replaced-… (one that "
                            "cannot be read: .corrupt-…; one over and applied is written over, "
                            "--force or not)")
    for name, helptext, more in (
            ("show", "the combatants", "Round, whose turn it is, and each combatant's HP, MP, "
                                       "state and the spells on it."),
            ("log", "every action so far", "Each action's lines, with their rule IDs."),
            ("undo", "take back the last action", "The dice it used are dropped too."),
            ("apply", "write HP, MP and stones back to the sheet files",
             "Only once the fight is over; a sheet changed since the fight began is refused, "
             "with the fight's changes to make in it by hand (then --done NAME records them "
             "made), and a preset has no file to write to."),
            ("end", "the GM ends the fight",
             "GM-COMBAT-1: spells and stones may follow. A party down (全滅), or some "
             "fled and the rest down, does not end the fight by itself (PG 4-1: the enemy's "
             "side and the GM's word end it; GM-COMBAT-1.party_down_ends_fight): the GM "
             "ends it with this."),
            ("sunrise", "1-day spells end", "GM-CORE-2: a spell of 1日 lasts to the next "
                                            "sunrise."),
            ("sunset", "Wight/Wraith victims rise",
             "GM-MON-5: one killed by a Wight or Wraith rises, unless Exorcism was cast on "
             "the corpse."),
            ("sleep", "a night's sleep (GM-HEAL-2): MP full", "")):
        page = _page(verbs, name, helptext, more, (f"companion genso fight {name}",))
        _common(page, dice=name in ("end", "sunrise", "sunset", "sleep"), rolls=False)
        if name == "apply":
            page.add_argument("--done", action="append", metavar="NAME",
                              help="a PC whose sheet apply refuses (changed since the fight "
                                   "began, or since its apply) and into which you made the "
                                   "fight's changes by hand: recorded as applied, so neither "
                                   "apply nor `fight new` refuses it again, unless the fight "
                                   "changes after (an undo, a spell after the end) (repeat "
                                   "for more)")
    full_attack = rules.num("GM-COMBAT-5", "full_attack")
    fixed = rules.num("GM-COMBAT-2", "fixed")
    attack = _page(verbs, "attack", "attack (GM-COMBAT-2/3/4)",
                   "On a monster: the attacker's Body + Combat + 2D > the monster's Body + "
                   f"{fixed}, which does not roll (GM-COMBAT-2). A monster's blow: the PC "
                   f"defends with Body + Combat + 2D ≥ the monster's Body + Combat + {fixed} "
                   "(GM-COMBAT-3). PC against PC: both roll Body + Combat + 2D, and the "
                   "attacker hits only if higher (GM-COMBAT-4). A hit rolls the weapon's "
                   "打撃力, less the target's protection (GM-COMBAT-7).",
                   ("companion genso fight attack Aki orc1 --weapon sword",))
    attack.add_argument("actor", help=WHO_HELP)
    attack.add_argument("target", help=WHO_HELP)
    attack.add_argument("--weapon", help="the weapon: its key or name (sword, 剣) or its "
                        "number on the sheet (0: the first, the default)")
    attack.add_argument("--full", action="store_true",
                        help=f"全力攻撃: +{full_attack}, no dodging (GM-COMBAT-5)")
    cast = _page(verbs, "cast", "cast a spell (GM-MAGIC)",
                 "The caster pays its MP (from a mana stone or the Ring of Storage first, if "
                 "told); `genso list spells` gives each spell's MP and target.",
                 ("companion genso fight cast Aki healing Ben",
                  "companion genso fight cast Aki fire orc1 orc2"))
    cast.add_argument("actor", help=WHO_HELP)
    cast.add_argument("spell", help="the spell's key or name (healing, 治癒呪)")
    cast.add_argument("targets", nargs="*",
                      help="whom it goes on, each as ACTOR is named: one for a one-target "
                           "spell, every one in the area for an area spell, none for a spell "
                           "on the caster or an object")
    cast.add_argument("--weapon", help="Exorcism on, or Dispel from, this weapon of the "
                      "target: its key or name (sword, 剣) or its number on the sheet")
    cast.add_argument("--stone", type=int, help="pay from this mana stone first")
    cast.add_argument("--ring", action="store_true",
                      help="pay from the Ring of Storage's stored MP first (GM-ITEM-3)")
    cast.add_argument("--force", action="store_true",
                      help="cast even though it leaves the caster below 1 MP, incapacitated "
                           "行動不能 (GM-MAGIC-1, GM-COMBAT-8); refused without it")
    stone = _page(verbs, "stone", "use a Healing or Enchant Stone (GM-ITEM-2)",
                  f"A Healing Stone heals {rules.num('GM-ITEM-2', 'healing')}; an Enchant "
                  f"Stone does {rules.num('GM-ITEM-2', 'enchant')} to a monster immune to "
                  "normal attacks. Either is used up.",
                  ("companion genso fight stone Aki healing_stone Ben",))
    stone.add_argument("actor", help=WHO_HELP)
    stone.add_argument("stone_key", metavar="stone",
                       help="healing_stone 治癒石 or enchant_stone 付与石 (its key or name, "
                            "as a spell's for cast), from the user's pack")
    stone.add_argument("target", help=WHO_HELP)
    metres = {m: rules.num("GM-MOVE-1", f"{m}_m") for m in ("combat", "normal", "full")}
    move = _page(verbs, "move", "move (GM-MOVE-1)",
                 "A monster moves by its own movement line.",
                 ("companion genso fight move Aki combat",))
    move.add_argument("actor", help=WHO_HELP)
    move.add_argument("mode", choices=tuple(metres),
                      help=f"combat 戦闘移動 {metres['combat']} m (may still attack or cast), "
                           f"normal 通常移動 {metres['normal']} m (may dodge, not attack or "
                           f"cast), full 全力移動 {metres['full']} m (cannot dodge)")
    full_dodge = rules.num("GM-COMBAT-6", "full_dodge")
    for name, helptext, more in (
            ("dodge", f"全力回避: +{full_dodge} to defence",
             "GM-COMBAT-6: the turn is given up to dodge, until the combatant's next action."),
            ("flee", "run away (逃亡)",
             "GM-COMBAT-1: the combatant leaves the fight at once, no roll (the GM rules the "
             "flight succeeds); it takes no more turns. When all of one side is down or fled, "
             "the fight is over."),
            ("wait", "do nothing", "The turn passes to the next combatant.")):
        _page(verbs, name, helptext, more,
              (f"companion genso fight {name} Aki",)).add_argument("actor", help=WHO_HELP)
    for name in ("new", "attack", "cast", "stone", "move", "dodge", "flee", "wait"):
        _common(verbs.choices[name], dice=name != "new", rolls=name in ("attack", "stone"))
    for verb in verbs.choices.values():
        verb.add_argument("--file", type=file_name,
                          help="the fight file (default: the data folder)")
    parser.set_defaults(func=run)


def _table(table: Mapping[str, int]) -> str:
    """A difficulty table as the help gives it: "15/11/7/3"."""
    return "/".join(str(value) for key, value in table.items() if key != "rule")
