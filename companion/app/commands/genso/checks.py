"""``companion genso check``, ``defaults`` and ``list``: a check of §2.3 rolled with its
terms, every Default and where its value came from, and the item, spell and monster
tables.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import unicodedata
from pathlib import Path
from typing import Any

from companion.app.command_name import companion_command
from companion.app.commands.genso.calendar import refuse_cursed
from companion.app.commands.genso.files import (
    OVERRIDES_NAME,
    SET_EXAMPLE,
    apart_by,
    as_typed,
    resolve_sheet,
)
from companion.app.commands.genso.layout import fit
from companion.app.commands.roll import emit, pad, run_with_source
from companion.app.options import OnlyWith, refuse_stray_options
from companion.app.overrides import how_to_set
from companion.dice import DiceSource
from companion.errors import DataError, IllegalAction
from companion.systems.defaults import fixed_readings, listing, notes_text, readings_text
from companion.systems.genso import checks
from companion.systems.genso.calendar import fresh_copy
from companion.systems.genso.character.core import (
    Character,
    Condition,
    Kind,
    condition,
    death_below,
)
from companion.systems.genso.money import coins_text
from companion.systems.genso.names import fold_name
from companion.systems.genso.rules import TRAPS, GensoRules, Grip, Item, Monster

#: PG 2-2-2-2: the difficulty word the seed gives each trap (GM-CHECK-3), by its key.
TRAP_WORDS = {"very_hard": "cleverly_set", "hard": "normally_set", "easy": "hastily_set"}


def difficulty_option(rules: GensoRules, kind: str, given: object) -> int | str | None:
    """``--difficulty`` as typed: None when not given, a whole number (one sign at most:
    ``-3``, ``+3``, full-width ``１２``), or a difficulty's name for the kind of check
    (GM-CHECK-1/2/6 「難易度」 extremely_hard … easy; GM-CHECK-3 cleverly_set,
    normally_set, hastily_set). Anything else is refused naming the option and what it
    takes: ``--3`` or ``--difficulty=--`` (which argparse hands back as ``[]``) reached the
    engine and ended in a traceback."""
    if given is None:
        return None
    japanese: dict[str, str] = {}  # the seed's own words for a difficulty: 難しい → hard
    aliases: dict[str, str] = {}
    if kind == "trap":
        names: list[str] = list(TRAPS)
        # PG 2-2-2-2 gives each trap its difficulty's word: 「巧妙に仕掛けられた罠…非常に難しい
        # １６」, 普通に… 難しい １２, 急ごしらえ… 易しい ８; those words name the trap too
        # (genso70 NIT 7: `--difficulty 難しい` was refused).
        aliases = dict(TRAP_WORDS)
        japanese = {rules.difficulty_names[k]["ja"]: trap for k, trap in TRAP_WORDS.items()}
    else:
        table = rules.difficulties["simple" if kind == "simple" else "general"]
        names = [k for k in table if k != "rule"]
        japanese = {rules.difficulty_names[k]["ja"]: k for k in names}
    takes = (f"a {kind} check takes a whole number or one of {', '.join([*names, *aliases])}"
             + (f" ({', '.join(japanese)})" if japanese else ""))
    if not isinstance(given, str):
        raise IllegalAction(f"--difficulty '--' is no value: {takes}")
    folded = fold_number(given)
    digits = folded[1:] if folded[:1] in ("-", "+") else folded
    if digits.isdecimal():
        try:
            return int(folded)
        except ValueError:  # beyond int()'s 4300 digits
            pass
    elif given in names:
        return given
    elif given in aliases:
        return aliases[given]
    elif given.strip() in japanese:
        return japanese[given.strip()]
    shown = repr(given) if len(given) <= 24 else repr(given[:24]) + "…"
    raise IllegalAction(f"--difficulty {shown}: {takes}")


def fold_number(text: str) -> str:
    """A number as typed on a Japanese keyboard, in ASCII: full-width digits and signs
    (＋２, －３) folded by NFKC, and the minus sign − (U+2212) read as -."""
    return unicodedata.normalize("NFKC", text).replace("−", "-")


def whole_number(text: str) -> int:
    """``--modifier`` and the like: a whole number, full width too (``＋２``, ``－１``), which
    argparse's int refused ("invalid int value: '＋２'")."""
    try:
        return int(fold_number(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is no whole number (e.g. 2 or -1)") from None


def day_count(text: str) -> int:
    """``calendar pass DAYS``: a whole number as :func:`whole_number` reads it, its example a
    count of days (genso70 NIT 8: "e.g. 2 or -1" for a count that takes no -1); the range is
    the engine's (GM-MAGIC-13, 1 to ``MOST_DAYS_PASSED``)."""
    try:
        return int(fold_number(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is no whole number of days (e.g. 7)") \
            from None


def only_with(rules: GensoRules) -> OnlyWith:
    """The options of ``check`` that go with some kinds of check only: those kinds, how an
    error names them, and why the others take none. They were dropped without a word: undead
    sensing and Mark have their own difficulty (GM-CHECK-4 「難しい」 and GM-MAGIC-6, read
    from rules data), trap and enemy detection roll Perception, undead sensing and Mark Magic,
    and only an opposed check (GM-CHECK-5) has another side."""
    undead, mark = (rules.num(rule, "difficulty") for rule in ("GM-CHECK-4", "GM-MAGIC-6"))
    fixed = (f"undead sensing and Mark are both {undead}" if undead == mark
             else f"undead sensing is {undead} and Mark {mark}")
    return {
        "sheet": (("general", "trap", "undead", "enemy", "mark", "opposed"),
                  "every check but simple (2D alone, GM-CHECK-1)"),
        "difficulty": (("simple", "general", "trap", "enemy"),
                       f"simple, general, trap and enemy checks ({fixed} by the seed; an "
                       "opposed check is against the other side's roll)"),
        "ability": (("general", "opposed"),
                    "general and opposed checks (trap and enemy detection roll Perception, "
                    "undead sensing and Mark Magic, a simple check 2D alone)"),
        "vs": (("opposed",), "opposed checks"),
        "no_active": (("opposed",), "opposed checks"),
        "vs_modifier": (("opposed",), "opposed checks"),
    }


def cmd_check(args: argparse.Namespace, rules: GensoRules) -> int:
    for option in ("sheet", "vs", "ability", "modifier", "vs_modifier"):
        # `--sheet=--` and the like: argparse hands back [] for the value "--".
        if isinstance(getattr(args, option), list):
            raise IllegalAction(f"--{option.replace('_', '-')} '--' is no value: give "
                                + ("a whole number" if option.endswith("modifier") else
                                   "one of body, perception, magic, strength"
                                   if option == "ability" else "a sheet, saved name or preset"))
    refuse_stray_options(args, args.kind, only_with(rules))
    difficulty = difficulty_option(rules, args.kind, args.difficulty)
    ability = args.ability or "body"

    def body(source: DiceSource) -> int:
        # No --difficulty (None) is the rule's Default, labelled as one (spec §0.1).
        if args.kind == "simple":
            check = checks.simple_check(rules, source, difficulty, args.modifier)
            return emit(args, check.to_json(), check.text, dice=True)
        if not args.sheet:
            raise IllegalAction(f"the {args.kind} check needs --sheet SHEET (whose check it is)")
        if args.kind == "opposed":
            if not args.vs:
                raise IllegalAction("an opposed check needs --vs SHEET")
            # Either side may be a monster (GM-CHECK-5): the one acting too, whom a tie
            # fails (genso70 RISK 5: an orc that grabs a PC could only be side B).
            one: Character | Monster = _other_side(rules, args.sheet)
            other: Character | Monster = _other_side(rules, args.vs)
            for ref, side in ((args.sheet, one), (args.vs, other)):
                if isinstance(side, Character):
                    refuse_down(rules, side, resolve_sheet(rules, ref)[1] is None)
            if isinstance(one, Character) and isinstance(other, Character) and _one_sheet(
                    args.sheet, resolve_sheet(rules, args.sheet)[1], args.vs,
                    resolve_sheet(rules, args.vs)[1]):
                raise IllegalAction(f"--sheet {args.sheet} and --vs {args.vs} are one sheet: "
                                    "an opposed check (GM-CHECK-5) is between two sides, so "
                                    "give the other side's sheet with --vs")
            opposed = checks.opposed_check(rules, source, one, other, ability,
                                           active=not args.no_active, a_modifier=args.modifier,
                                           b_modifier=args.vs_modifier or 0)
            return emit(args, opposed.to_json(), opposed.text, dice=True)
        who, where = _own_sheet(rules, args.kind, args.sheet)
        refuse_down(rules, who, where is None)
        if args.kind == "general":
            check = checks.general_check(rules, source, who, args.ability, difficulty,
                                         args.modifier)
        elif args.kind == "trap":
            check = checks.trap_check(rules, source, who, difficulty, args.modifier)
        elif args.kind == "undead":
            check = checks.undead_check(rules, source, who, args.modifier)
        elif args.kind == "enemy":
            check = checks.enemy_check(rules, source, who, difficulty, args.modifier)
        else:
            check = checks.mark_check(rules, source, who, args.modifier)
        return emit(args, check.to_json(), check.text, dice=True)

    return run_with_source(args, body)


def refuse_down(rules: GensoRules, character: Character, from_preset: bool = False) -> None:
    """A check refused for one who cannot act, named with the state and its rule, as
    ``fight new`` names them (genso70 DEFECT 2: the dead rolled, and won opposed checks):
    the dead (死亡, GM-COMBAT-8 by HP, or GM-MAGIC-13 of a Death Curse by the calendar, not
    a fresh copy of an NPC preset, made ``from_preset``: :func:`fresh_copy`) and the
    incapacitated (行動不能, GM-COMBAT-8: HP or MP below 1)."""
    state = condition(rules, character)
    # One shape for both deaths, the calendar's (refuse_cursed_dead) and HP's (refuse_dead's
    # words); of the incapacitated, only the values below 1 (reviewg70 NIT F: "HP 0, MP 3:
    # below 1" read as MP 3 below 1).
    if state is Condition.DEAD:
        raise IllegalAction(
            f"{character.name} is dead (死亡: HP {character.hp}, below "
            f"{death_below(rules, character.kind is Kind.PC)}, GM-COMBAT-8); the dead roll no "
            "check")
    refuse_cursed(rules, character.name, "the dead roll no check",
                  fresh_copy(rules, character, from_preset))
    if state is Condition.INCAPACITATED:
        low = ", ".join(f"{name} {value}" for name, value in (
            ("HP", character.hp), ("MP", character.mp)) if value < 1)
        raise IllegalAction(
            f"{character.name} is {state.badge} ({low}: below 1, GM-COMBAT-8): one who cannot "
            f"act rolls no check; heal them first (`{companion_command()} genso rest SHEET`, "
            "GM-HEAL-1; `--sleep` fills MP, GM-HEAL-2)")


def _own_sheet(rules: GensoRules, kind: str, ref: str) -> tuple[Character, Path | None]:
    """The sheet whose ``kind`` of check it is (:func:`resolve_sheet`); a monster named
    there is refused saying where one rolls: only in an opposed check (GM-CHECK-5), where
    ``--sheet orc --vs SHEET`` takes its block (reviewg70 NIT H: the refusal listed only
    sheets, saved characters and presets)."""
    try:
        return resolve_sheet(rules, ref)
    except DataError as exc:
        try:
            rules.monster(ref)
        except DataError:
            raise exc from None
        raise DataError(f"{exc}; {ref!r} is a monster, and a monster rolls only in an opposed "
                        f"check (`check opposed --sheet {ref} --vs SHEET`, GM-CHECK-5), not in "
                        f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind} check") from None


def _other_side(rules: GensoRules, ref: str) -> Character | Monster:
    """A side of an opposed check (``--sheet`` or ``--vs``): a sheet, saved character or
    preset, else a monster by key or name, as ``fight new --monsters`` takes it (GM-CHECK-5
    names no limit to PCs and NPCs, so a monster's block is a side too)."""
    if not as_typed(rules, ref) and any(ref in (m.key, m.ja, m.en)
                                        for m in rules.monsters.values()):
        return rules.monster(ref)  # a monster's key as written, before a sheet in any case
    try:
        found = resolve_sheet(rules, ref)[0]
    except DataError as exc:
        try:
            return rules.monster(ref)
        except DataError:
            raise DataError(f"{exc}, or a monster ({', '.join(rules.monsters)})") from None
    if not as_typed(rules, ref):
        with contextlib.suppress(DataError):  # a saved Orc and the monster orc, as ORC
            monster = rules.monster(ref)
            raise IllegalAction(f"{ref!r} could be the sheet of {found.name} or the monster "
                                f"{monster.name} ({monster.key}), apart only by "
                                f"{apart_by(ref, [found.name, monster.key])}: "
                                "give the name as it is written")
    return found


def _one_sheet(a_ref: str, a_where: Path | None, b_ref: str, b_where: Path | None) -> bool:
    """Whether two sheet references are one sheet: one file (by any path to it), or one
    preset (a preset has no file; its key in any case, as :func:`resolve_sheet` takes it:
    ``pc1`` and ``PC1``)."""
    if a_where is None or b_where is None:
        return a_where is b_where and fold_name(a_ref).casefold() == fold_name(b_ref).casefold()
    return a_where.resolve() == b_where.resolve()


def cmd_defaults(args: argparse.Namespace, rules: GensoRules) -> int:
    """Every Default, "(default)" or "(set by you)", and the range of one that has one
    (``[limits]``: GM-CHECK-6 "8 to 20", GM-COMBAT-8, GM-MAGIC-3) or its choices (GM-MON-7
    orc_warrior "one of: gm, wg"); "range" and "choices" are left out of a JSON row without
    them. Then the fixed readings (``data/readings.toml``: the spec's Defaults no setting
    changes), and how to change a setting."""
    rows = listing(rules.settings.entries(), rules.settings)
    readings = fixed_readings("companion.systems.genso", rules.settings)
    text = "\n".join(f"{r['rule']:<12} {r['key']:<32} "
                     f"{json.dumps(r['value'], ensure_ascii=False)}  "
                     + ("(default)" if r["default"] else "(set by you)")
                     + notes_text(r) for r in rows)
    return emit(args, {"defaults": rows, "fixed_readings": readings},
                text + "\n" + readings_text(readings, max([12, *map(len, readings)])) + "\n"
                + how_to_set(OVERRIDES_NAME, SET_EXAMPLE))


def mana_stone_row(rules: GensoRules) -> dict[str, Any]:
    """GM-ITEM-1, GM-ECON-2: the row of the mana stone (魔力石) in the item list, as the seed
    writes it (PG 6-4 「魔力石 大銀貨２枚 ４ＭＰ分の魔力を持つ魔力石。」), with its MP and
    its price and buy-back per MP (`buy SHEET mana_stone --mp N`)."""
    stone = rules.mana_stone
    shop = stone["shop_mp"]
    per_mp, back = stone["coins"]["sale_per_mp"], stone["coins"]["buyback_per_mp"]
    return {"key": "mana_stone", "name": f"{stone['ja']}/{stone['en']}", "slot": "goods",
            "price": stone["shop_price"], "price_text": coins_text(stone["coins"]["shop_price"]),
            "from": False, "about": False, "buyback": shop * stone["buyback_per_mp"],
            "power": "", "protection": 0, "rule": stone["rule"], "mp": shop,
            "price_per_mp": stone["sale_per_mp"], "buyback_per_mp": stone["buyback_per_mp"],
            "grip": None, "note_ja": stone["note_ja"], "note_en": stone["note_en"],
            "mp_text": f"{shop} MP (４ＭＰ分); {stone['min_mp']}–{stone['max_mp']} MP at "
                       f"{coins_text(per_mp)} per MP with --mp N, bought back at "
                       f"{coins_text(back)} per MP left"}


def cmd_lists(args: argparse.Namespace, rules: GensoRules) -> int:
    """Items with prices, spells, or monster blocks (GM-EQUIP, GM-ECON-2, GM-MAGIC, GM-MON-7)."""
    rows: list[dict[str, Any]]
    if args.what == "items":
        # Prices are shown in the coins the seed writes them in (普通の宿 銀貨４枚), with its
        # "～" (from) or おおよそ (about); the JSON keeps their value in silver.
        rows = [{"key": i.key, "name": i.name, "slot": i.slot.value, "price": i.price,
                 "price_text": (("おおよそ/about " if i.price_about else "")
                                + coins_text(i.price_coins) + ("～" if i.price_from else "")
                                if i.price_coins is not None else None),
                 "from": i.price_from, "about": i.price_about, "buyback": i.buyback,
                 "power": i.power,
                 "protection": i.protection, "rule": i.rule,
                 # GM-EQUIP-1/3 使用法 and the seed's note on the item (弓 射程約５０ｍ)
                 "grip": i.grip.value if i.grip else None,
                 "note_ja": i.note_ja, "note_en": i.note_en} for i in rules.items.values()]
        # PG 6-4 lists 魔力石 大銀貨２枚 ４ＭＰ分 last of the goods for sale; it lives in
        # [mana_stone] as it is priced by the MP in it, so its row is made here, put there.
        last_good = max((n for n, r in enumerate(rows)
                         if r["slot"] == "goods" and r["price"] is not None), default=-1)
        rows.insert(last_good + 1, mana_stone_row(rules))
        text = "\n".join(_item_lines(rules, r) for r in rows)
    elif args.what == "spells":
        rows = [{"key": s.key, "name": s.name, "group": s.group, "mp": s.mp,
                 "duration": s.duration.value, "target": s.target, "range": s.range,
                 "text": s.text_ja, "rule": s.rule, "shunned": s.shunned}
                for s in rules.spells.values()]
        # Two lines a spell: its name, group, MP, duration and rule, then whom it goes on
        # and how far (a line of both ran to 160 columns with Fire's heading).
        text = "\n".join(
            f"{r['key']:<14} {pad(r['name'], 22)} {pad(GROUP_TEXT[r['group']], 17)} "
            f"{pad('MP ' + str(r['mp'] or '特殊'), 7)}  {pad(DURATION_TEXT[r['duration']], 15)}"
            f"  ({r['rule']})\n"
            + "\n".join(fit((f"対象/target {r['target']}", f"射程/range {r['range']}",
                             "禁呪ではないが忌避/not forbidden, but shunned" if r["shunned"]
                             else "", _chosen_text(rules, r["key"])),
                            LIST_INDENT, " " * LIST_INDENT)) for r in rows)
    else:
        rows = [{"key": m.key, "name": m.name, "body": m.body, "perception": m.perception,
                 "magic": m.magic, "hp": m.hp, "mp": m.mp, "move": list(m.move),
                 "attack": m.attack_ja, "attack_en": m.attack_en, "power": m.power,
                 "drain_hp": m.drain_hp,
                 "drain_mp": m.drain_mp, "protection": m.protection, "kind": m.kind.value,
                 "immune_normal": m.immune_normal, "magic_weapons_harm": m.magic_weapons_harm,
                 "senses": m.senses}
                for m in rules.monsters.values()]
        text = "\n".join("\n".join(fit((
            f"{r['key']:<14} {pad(r['name'], 34)}",
            f"体力 {r['body'] or '-'} 知覚 {r['perception']} 魔力 {r['magic']} "
            f"HP {r['hp'] or '-'} MP {r['mp']}",
            # 退魔呪, 防護呪 and 火炎呪 ask whether it is undead (GM-MON-2, GM-MAGIC); after
            # the numbers, which stand one under another
            KIND_TEXT[r["kind"]],
            # GM-MON-7's 移動力 (combat / normal / full move, m) and 防御力 (protection)
            "移動/move {}/{}/{} m".format(*r["move"]), f"防護/protection {r['protection']}",
            f"{r['attack']}/{r['attack_en']} {r['power'] or _drain_text(r)}",
            _immunity_text(r), r["senses"],
            # GM-MON-7: whose numbers the Orc Warrior's are, a Default
            f"GM-MON-7 orc_warrior = {rules.default('GM-MON-7', 'orc_warrior')}"
            f"{rules.settings.tag('GM-MON-7', 'orc_warrior')}"
            if r["key"] == "orc_warrior" else ""), LIST_INDENT)) for r in rows)
    return emit(args, {args.what: rows}, text)


def _chosen_text(rules: GensoRules, key: str) -> str:
    """The Default that chose a spell's target and text where the PG and the GM guide print
    them otherwise (GM-MAGIC-5's Barrier diameter, GM-MAGIC-7's Protection version), as
    `list monsters` says the Orc Warrior's: the list showed the chosen 直径３ｍ as if it were
    the only book's."""
    variant = rules.spell_variants.get(key)
    if variant is None:
        return ""
    rule, name = variant.chosen_by
    return f"{rule} {name} = {rules.default(rule, name)}{rules.settings.tag(rule, name)}"


#: A spell's group and duration as `list spells` says them, the seed's word first (PG 1-2's
#: headings 基本魔法, 魔法陣魔法, 禁呪 and its 持続時間 column).
GROUP_TEXT = {"basic": "基本魔法/basic", "circle": "魔法陣魔法/circle",
              "forbidden": "禁呪/forbidden"}
DURATION_TEXT = {"permanent": "永久/permanent", "day": "１日/day", "round": "１Ｒ/round",
                 "special": "特殊/special"}
#: GM-MON-2's kinds as `list monsters` says them, the seed's word first.
KIND_TEXT = {"living": "生物/living", "undead": "不死族/undead", "pseudo": "擬似生物/pseudo-living"}


def _immunity_text(row: dict[str, Any]) -> str:
    """GM-MON-2: what harms a monster immune to normal attacks. The ghost's 「実体を持たないので
    非魔法攻撃は無効」 (seed 002) lets a magic weapon harm it; the wight's and wraith's
    「通常攻撃は無効」 only a weapon with 退魔呪 cast on it. Both read 通常攻撃無効 alike."""
    if not row["immune_normal"]:
        return ""
    if row["magic_weapons_harm"]:
        return "非魔法攻撃は無効/only magic or Exorcism-enchanted weapons harm it"
    return "通常攻撃無効/only Exorcism-enchanted weapons harm it"


def _drain_text(row: dict[str, Any]) -> str:
    """GM-MON-4: a drain's parts that take something (a Ghost's "4", not "HP吸収 0 MP吸収 4"),
    and that it ignores protection (防御点無効, monsters.toml)."""
    parts = [f"{what} {row[key]}" for what, key in (("HP", "drain_hp"), ("MP", "drain_mp"))
             if row[key]]
    return f"{' '.join(parts)} (防御点無効/ignores protection)"


#: Where a `genso list` row goes on when it is wider than :data:`.layout.WIDTH`: under the
#: name, past the key's column (spells, monsters), or under the price (items).
LIST_INDENT = 15
ITEM_INDENT = 50
#: An item's note, each line of it (its first and any it wraps to) this far in: a wrapped
#: note went on at 5 after a first line at 4 (review61a N14).
NOTE_INDENT = 4


def _buyback_texts(item: Item | None) -> tuple[str, ...]:
    """GM-ECON-2, GM-ITEM-1/2: what a shop or the guild pays for the item (`genso sell`), in
    the seed's coins: 「買取は金貨２５枚」 (rings), 「買取はおおよそ金貨５０枚」 (magic arms),
    「買取は大銀貨２枚」 and 「使用済み魔法石の買い取り価格は大銀貨１枚」 (magic stones);
    none for an item no one buys back (the mana stone's, by the MP, is in its MP text)."""
    if item is None or item.buyback_coins is None:
        return ()
    bought = ("買取/buy-back " + ("おおよそ/about " if item.price_about else "")
              + coins_text(item.buyback_coins))
    if item.used_buyback_coins is None:
        return (bought,)
    return bought, f"使用済み/used {coins_text(item.used_buyback_coins)}"


def _item_lines(rules: GensoRules, r: dict[str, Any]) -> str:
    """An item's row of `genso list items` (GM-EQUIP, GM-ECON-2), then the seed's note on
    lines of its own, each line :data:`NOTE_INDENT` in, Japanese then English."""
    lines = fit((
        f"{r['key']:<20} {pad(r['name'], 28)} " + (r["price_text"] or "-"),
        Grip(r["grip"]).text if r["grip"] else "",
        f"打撃力/striking power {r['power']}" if r["power"] else "",
        (f"防御点/protection {r['protection']}"
         + (rules.settings.tag("GM-EQUIP-2", "shield_protection")
            if r["slot"] == "shield" and r["rule"] == "GM-EQUIP-2" else ""))
        if r["protection"] else "",
        *_buyback_texts(rules.items.get(r["key"])), r.get("mp_text", "")), ITEM_INDENT)
    if r["note_ja"]:
        for note in (f"「{r['note_ja']}」", f"({r['note_en']})"):
            lines += fit((note,), NOTE_INDENT, " " * NOTE_INDENT)
    return "\n".join(lines)
