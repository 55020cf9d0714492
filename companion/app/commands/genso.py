"""``companion genso ...``: 幻想迷宮冒険譚 Ver2.5 (seed 002, spec §2) at the table.

Characters are TOML sheets in the data folder (``<data>/genso/characters/``) or a
preset key (``companion genso presets``); a fight lives in ``<data>/genso/fight.json``
and is written atomically after every action, so a power cut loses nothing and
``fight undo`` steps back. Once the fight is over, ``fight apply`` writes each PC's HP,
MP and stones back to the sheet file it came from (a separate step, not part of ``fight
end``: Healing and stones may still follow the end, and ``end`` can be undone).
Defaults come from the packaged rules, then ``genso.toml`` in the config folder
(``[defaults."RULE-ID"]``), then ``--set RULE.key=value``. A fight keeps the settings it
began with in its file and replays under them, whatever the settings are later; a
``--set`` given with a later action changes the fight's settings from that action on (the
journal entry records it, and undo takes it back), while ``show``, ``log``, ``undo`` and
``apply`` refuse a ``--set`` that differs, since they play no action it could apply to.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomlkit

from companion.app.commands.roll import add_dice_arguments, emit, run_with_source
from companion.app.overrides import add_set_argument, parse_set, read_text, user_rules
from companion.app.paths import data_dir
from companion.dice import DiceSource
from companion.errors import DataError, IllegalAction
from companion.files import atomic_write_text, one_line_each, write_toml
from companion.systems.genso import character as chars
from companion.systems.genso import checks
from companion.systems.genso.character import Character, Derived, Hand, derive
from companion.systems.genso.combat import (
    Action,
    Attack,
    Cast,
    Dodge,
    EndFight,
    Entrant,
    Entry,
    Fight,
    Flee,
    Move,
    Side,
    Sleep,
    Sunrise,
    Sunset,
    UseStone,
    Wait,
    action_text,
    entrants_for,
    setting_text,
    wants_to_flee,
)
from companion.systems.genso.lore import load_lore
from companion.systems.genso.money import Purse, coins_text
from companion.systems.genso.rules import GensoRules, load_rules
from companion.systems.genso.sheet import load_sheet, preset, sheet_mapping
from companion.systems.genso.travel import journey

SET_EXAMPLE = "GM-COMBAT-8.strict_4_6=true"
OVERRIDES_NAME = "genso.toml"
SHEET_COMMENT = "幻想迷宮冒険譚 Ver2.5 character sheet (companion genso)"


# --- files -------------------------------------------------------------------------------------


def sheet_document(character: Character) -> tomlkit.TOMLDocument:
    """A character sheet as TOML, one line per field; :func:`load_sheet` reads it back."""
    return one_line_each(sheet_mapping(character), SHEET_COMMENT)


def characters_dir() -> Path:
    return data_dir() / "genso" / "characters"


def fight_path(args: argparse.Namespace) -> Path:
    return Path(args.file) if getattr(args, "file", None) else data_dir() / "genso" / "fight.json"


def sheet_path(name: str) -> Path:
    safe = "".join("_" if c in '/\\:*?"<>|' else c for c in name.strip())
    return characters_dir() / f"{safe}.toml"


def resolve_sheet(rules: GensoRules, ref: str) -> tuple[Character, Path | None]:
    """A sheet by file path, by saved character name, or a preset key (not saved back)."""
    path = Path(ref)
    if path.suffix == ".toml" and path.exists():
        return load_sheet(rules, read_text(path, "sheet"), str(path)), path
    saved = sheet_path(ref)
    if saved.exists():
        return load_sheet(rules, read_text(saved, "sheet"), str(saved)), saved
    if ref in rules.presets:
        return preset(rules, ref), None
    raise DataError(f"no sheet {ref!r}: give a .toml file, a saved character "
                    f"({characters_dir()}) or a preset ({', '.join(rules.presets)})")


def digest(text: str) -> str:
    """SHA-256 of a sheet's text: how a fight tells whether the file changed under it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fight_entrant(rules: GensoRules, ref: str, side: Side = Side.PARTY,
                  as_monster: bool = False) -> Entrant:
    """A fight entrant from a sheet reference, remembering the file and its digest."""
    character, path = resolve_sheet(rules, ref)
    if path is None:
        return Entrant.of_character(character, side, as_monster)
    return Entrant.of_character(character, side, as_monster,
                                origin=str(path.resolve()),
                                digest=digest(read_text(path, "sheet")))


def load_user_rules(settings: list[str]) -> GensoRules:
    """Packaged rules with the user's file and ``--set`` overrides applied."""
    return user_rules(load_rules(), OVERRIDES_NAME, settings, SET_EXAMPLE)


# --- characters --------------------------------------------------------------------------------


def describe(rules: GensoRules, character: Character, derived: Derived) -> str:
    """The sheet on screen: every derived value with its terms (GM-CORE-3/4, GM-EQUIP), and
    a dead or incapacitated character's state first (GM-COMBAT-8)."""
    state = chars.condition(rules, character)
    lines = [
        f"{character.name}  [{character.kind.value}] {character.race} {character.sex} "
        f"{character.age if character.age is not None else '不明'}",
        f"生まれ/birth {character.birth or '-'}  望むもの/wants {character.want or '-'}  "
        f"嫌うもの/dislikes {character.dislike or '-'}",
        f"体力/Body {character.body}  知覚力/Perception {character.perception}  "
        f"魔力/Magic {character.magic}",
        f"ＨＰ/HP {character.hp}/{derived.max_hp.total}  max {derived.max_hp.text}",
        f"ＭＰ/MP {character.mp}/{derived.max_mp.total}  max {derived.max_mp.text}",
        *([f"状態/condition {state.badge} (GM-COMBAT-8)"] if state.badge else []),
        f"攻撃力/attack {derived.attack.text}   防御力/defence {derived.defence.text}",
        f"防護力/protection {derived.protection.text}",
        "打撃力/striking power: " + ", ".join(
            f"{w.name} {w.power}" + (f"+{derived.striking}" if derived.striking else "")
            for w in derived.weapons),
        f"罠発見/trap detection +{derived.trap_bonus.total}   "
        f"敵発見/enemy detection +{derived.enemy_bonus.total}",
        f"技能/skills 戦闘/Combat {character.combat}  探索/Search {character.search}  "
        f"魔術/Magic {derived.magic_level}: "
        + (", ".join(rules.spell(s).name for s in character.spells) or "-"),
        f"所持金/money {character.purse.text()}   経験値/exp {character.exp}",
        "装備/equipment " + (", ".join(rules.item(k.removeprefix("used:")).name
                                     + (" (used)" if k.startswith("used:") else "")
                                     for k in character.equipment) or "-"),
    ]
    if character.rest_days:
        lines.append(f"休養/rest {character.rest_days} day(s) toward the next HP (GM-HEAL-1)")
    if character.mana_stones:
        lines.append(f"魔力石/mana stones MP {list(character.mana_stones)}")
    if character.rings_left or character.rings_right:
        lines.append(f"指輪/rings left {list(character.rings_left)} right "
                     f"{list(character.rings_right)}"
                     + ("" if derived.rings_work else "  (none work: GM-ITEM-3)"))
    lines += [f"! {w}" for w in derived.warnings]
    return "\n".join(lines)


def sheet_json(rules: GensoRules, character: Character) -> dict[str, Any]:
    derived = derive(rules, character)

    def value(v: Any) -> dict[str, Any]:
        return {"total": v.total, "terms": [{"label": t.label, "value": t.value}
                                            for t in v.terms]}

    return {
        "sheet": sheet_mapping(character),
        "condition": chars.condition(rules, character).value,
        "derived": {
            "max_hp": value(derived.max_hp), "max_mp": value(derived.max_mp),
            "attack": value(derived.attack), "defence": value(derived.defence),
            "protection": value(derived.protection), "trap_bonus": value(derived.trap_bonus),
            "enemy_bonus": value(derived.enemy_bonus), "striking": derived.striking,
            "weapons": [{"key": w.key, "name": w.name, "power": w.power, "magic": w.magic}
                        for w in derived.weapons],
            "rings_work": derived.rings_work, "magic_level": derived.magic_level,
            "warnings": list(derived.warnings),
        },
    }


def cmd_new(args: argparse.Namespace, rules: GensoRules) -> int:
    abilities = {"body": args.body, "perception": args.perception, "magic": args.magic}
    target = Path(args.out) if args.out else sheet_path(args.name)
    if target.exists() and not args.force:
        raise DataError(f"{target} exists; pass --force to replace it")

    def body(source: DiceSource) -> int:
        made = chars.create_character(rules, source, name=args.name, sex=args.sex, age=args.age,
                                      abilities=abilities, skill=args.skill)
        write_toml(target, sheet_document(made.character))
        rolls = [{"rule": rule, "result": result.to_json(), "row": row}
                 for rule, result, row in made.rolls]
        text = "\n".join([*(f"{rule:<10} {result.text} ＞ {row}"
                            for rule, result, row in made.rolls),
                          describe(rules, made.character, derive(rules, made.character)),
                          f"saved to {target}"])
        return emit(args, {**sheet_json(rules, made.character), "rolls": rolls,
                            "path": str(target)}, text, dice=True)

    return run_with_source(args, body)


def cmd_sheet(args: argparse.Namespace, rules: GensoRules) -> int:
    character, path = resolve_sheet(rules, args.sheet)
    if args.save_as:
        target = Path(args.save_as)
        if target.exists() and not args.force:
            raise DataError(f"{target} exists; pass --force to replace it")
        write_toml(target, sheet_document(character))
    data = {**sheet_json(rules, character), "path": str(path) if path else None}
    return emit(args, data, describe(rules, character, derive(rules, character)))


def cmd_presets(args: argparse.Namespace, rules: GensoRules) -> int:
    rows = [{"key": key, "name": raw["name"], "kind": raw["kind"]}
            for key, raw in rules.presets.items()]
    text = "\n".join(f"{r['key']:<16} {r['kind']:<4} {r['name']}" for r in rows)
    return emit(args, {"presets": rows}, text)


def cmd_travel(args: argparse.Namespace, rules: GensoRules) -> int:
    """How long a journey takes at a normal pace (GM-MOVE-2)."""
    if args.metres < 0:
        raise DataError(f"travel {args.metres}: a distance is 0 m or more")
    trip = journey(rules, args.metres)
    data = {"rule": "GM-MOVE-2", "metres": trip.metres, "days": trip.days,
            "hours": trip.hours, "turns": trip.turns}
    return emit(args, data, f"{trip.text()} (GM-MOVE-2)")


def cmd_lore(args: argparse.Namespace, rules: GensoRules) -> int:
    """The world guide, the glossary or the scenario structure (GM-LORE-1 to 3)."""
    pages = load_lore()
    chosen = [pages[args.page]] if args.page else list(pages.values())
    text = "\n\n".join("\n".join([f"{p.title} ({p.rule})", *(f"- {line}" for line in p.lines)])
                       for p in chosen)
    data = {"lore": [{"key": p.key, "rule": p.rule, "title": p.title, "lines": list(p.lines)}
                     for p in chosen]}
    return emit(args, data, text)


def _change(args: argparse.Namespace, rules: GensoRules,
            change: Callable[[Character], tuple[Character, str]]) -> int:
    """Apply a change to a saved sheet and write it back atomically."""
    character, path = resolve_sheet(rules, args.sheet)
    if path is None:
        raise DataError(f"{args.sheet!r} is a preset; save it first with "
                        f"`companion genso sheet {args.sheet} --save-as FILE`")
    changed, said = change(character)
    write_toml(path, sheet_document(changed))
    text = "\n".join([said, describe(rules, changed, derive(rules, changed))])
    return emit(args, {**sheet_json(rules, changed), "said": said, "path": str(path)}, text)


def cmd_buy(args: argparse.Namespace, rules: GensoRules) -> int:
    def change(c: Character) -> tuple[Character, str]:
        if chars.is_mana_stone(rules, args.item):
            after = chars.buy_mana_stone(rules, c, args.mp)
            return after, "GM-ITEM-1 bought a mana stone (魔力石)"
        item = rules.item(args.item)
        cost = chars.price_coins(rules, item, args.price)
        return (chars.buy(rules, c, item.key, args.price),
                f"GM-ECON-1 bought {item.name} for {coins_text(cost)}")
    return _change(args, rules, change)


def cmd_sell(args: argparse.Namespace, rules: GensoRules) -> int:
    def change(c: Character) -> tuple[Character, str]:
        after, _, coins = chars.sale(rules, c, args.item)
        name, _, _ = args.item.partition(":")
        sold = (f"{rules.mana_stone['ja']}/{rules.mana_stone['en']}"
                if chars.is_mana_stone(rules, name) else
                ("used " if args.item.startswith("used:") else "")
                + rules.item(args.item.removeprefix("used:")).name)
        return after, f"GM-ECON-1 sold {sold} for {coins_text(coins)}"
    return _change(args, rules, change)


def cmd_gear(args: argparse.Namespace, rules: GensoRules) -> int:
    def change(c: Character) -> tuple[Character, str]:
        item = rules.item(args.item)
        if args.off:
            after = (chars.take_off_ring(rules, c, item.key) if item.key.startswith("ring_")
                     else chars.unequip(rules, c, item.key))
            return after, f"took off {item.name}"
        if item.key.startswith("ring_"):
            return (chars.put_on_ring(rules, c, item.key, Hand(args.hand)),
                    f"GM-ITEM-3 put on {item.name} ({args.hand} hand)")
        return chars.equip(rules, c, item.key), f"equipped {item.name}"
    return _change(args, rules, change)


def cmd_grow(args: argparse.Namespace, rules: GensoRules) -> int:
    def change(c: Character) -> tuple[Character, str]:
        if args.choice == "award":
            return (chars.award_experience(rules, c, args.scenarios),
                    f"GM-GROW-1 +{args.scenarios} experience")
        return (chars.spend_experience(rules, c, args.choice, args.spell),
                f"GM-GROW-2 bought {args.choice}" + (f" ({args.spell})" if args.spell else ""))
    return _change(args, rules, change)


def cmd_rest(args: argparse.Namespace, rules: GensoRules) -> int:
    def change(c: Character) -> tuple[Character, str]:
        if args.sleep:
            return chars.sleep(rules, c), "GM-HEAL-2 8 hours' sleep: MP full"
        after, fee = chars.rest(rules, c, args.days, args.healer)
        days = f"{args.days} day's" if args.days == 1 else f"{args.days} days'"
        # The fee is 銀貨１枚 per HP (GM-HEAL-1), so it is shown in silver as the seed says it.
        return after, (f"GM-HEAL-1 {days} rest: HP {c.hp} → {after.hp}"
                       + (f", healer's fee {coins_text(Purse(silver=fee))}"
                          if args.healer else "")
                       + (f" ({after.rest_days} of "
                          f"{rules.num('GM-HEAL-1', 'alone_days_per_hp')} days toward the "
                          "next HP, kept on the sheet)" if after.rest_days else ""))
    return _change(args, rules, change)


# --- checks ------------------------------------------------------------------------------------


def cmd_check(args: argparse.Namespace, rules: GensoRules) -> int:
    difficulty: int | str | None = args.difficulty
    if isinstance(difficulty, str) and difficulty.lstrip("-").isdecimal():
        difficulty = int(difficulty)

    def body(source: DiceSource) -> int:
        # An explicit None test: difficulty 0 is a difficulty, not "none given".
        if args.kind == "simple":
            check = checks.simple_check(rules, source,
                                        "hard" if difficulty is None else difficulty,
                                        args.modifier)
            return emit(args, check.to_json(), check.text, dice=True)
        if not args.sheet:
            raise IllegalAction(f"a {args.kind} check needs --sheet")
        who, _ = resolve_sheet(rules, args.sheet)
        if args.kind == "opposed":
            if not args.vs:
                raise IllegalAction("an opposed check needs --vs SHEET")
            other, _ = resolve_sheet(rules, args.vs)
            opposed = checks.opposed_check(rules, source, who, other, args.ability,
                                           active=not args.no_active, a_modifier=args.modifier)
            return emit(args, opposed.to_json(), opposed.text, dice=True)
        if args.kind == "general":
            check = checks.general_check(rules, source, who, args.ability,
                                         "hard" if difficulty is None else difficulty,
                                         args.modifier)
        elif args.kind == "trap":
            check = checks.trap_check(rules, source, who,
                                      "normally_set" if difficulty is None else difficulty,
                                      args.modifier)
        elif args.kind == "undead":
            check = checks.undead_check(rules, source, who, args.modifier)
        elif args.kind == "enemy":
            check = checks.enemy_check(rules, source, who, difficulty, args.modifier)
        else:
            check = checks.mark_check(rules, source, who, args.modifier)
        return emit(args, check.to_json(), check.text, dice=True)

    return run_with_source(args, body)


def cmd_defaults(args: argparse.Namespace, rules: GensoRules) -> int:
    rows = [{"rule": rule, "key": key, "value": value, "default": default}
            for rule, key, value, default in rules.settings.entries()]
    text = "\n".join(f"{r['rule']:<12} {r['key']:<32} "
                     f"{json.dumps(r['value'], ensure_ascii=False)}  "
                     + ("(default)" if r["default"] else "(set by you)") for r in rows)
    return emit(args, {"defaults": rows}, text)


def cmd_lists(args: argparse.Namespace, rules: GensoRules) -> int:
    """Items with prices, spells, or monster blocks (GM-EQUIP, GM-ECON-2, GM-MAGIC, GM-MON-7)."""
    rows: list[dict[str, Any]]
    if args.what == "items":
        # Prices are shown in the coins the seed writes them in (普通の宿 銀貨４枚); the
        # JSON keeps their value in silver.
        rows = [{"key": i.key, "name": i.name, "slot": i.slot.value, "price": i.price,
                 "price_text": (coins_text(i.price_coins) + ("～" if i.price_from else "")
                                if i.price_coins is not None else None),
                 "from": i.price_from, "buyback": i.buyback, "power": i.power,
                 "protection": i.protection, "rule": i.rule} for i in rules.items.values()]
        text = "\n".join(
            f"{r['key']:<20} {r['name']:<28} " + (r["price_text"] or "-")
            + (f"  打撃力 {r['power']}" if r["power"] else "")
            + (f"  防御点 {r['protection']}" if r["protection"] else "") for r in rows)
    elif args.what == "spells":
        rows = [{"key": s.key, "name": s.name, "group": s.group, "mp": s.mp,
                 "duration": s.duration.value, "target": s.target, "range": s.range,
                 "text": s.text_ja, "rule": s.rule} for s in rules.spells.values()]
        text = "\n".join(f"{r['key']:<14} {r['name']:<22} {r['group']:<9} MP {r['mp'] or '特殊'}"
                         f"  {r['duration']:<9} {r['target']}  {r['range']}  ({r['rule']})"
                         for r in rows)
    else:
        rows = [{"key": m.key, "name": m.name, "body": m.body, "perception": m.perception,
                 "magic": m.magic, "hp": m.hp, "mp": m.mp, "move": list(m.move),
                 "attack": m.attack_ja, "power": m.power, "drain_hp": m.drain_hp,
                 "drain_mp": m.drain_mp, "protection": m.protection, "kind": m.kind.value,
                 "immune_normal": m.immune_normal, "senses": m.senses}
                for m in rules.monsters.values()]
        text = "\n".join(
            f"{r['key']:<14} {r['name']:<28} 体力 {r['body'] or '-'} 知覚 {r['perception']} "
            f"魔力 {r['magic']} HP {r['hp'] or '-'} MP {r['mp']} {r['attack']} "
            + (r["power"] or f"HP吸収 {r['drain_hp']} MP吸収 {r['drain_mp']}")
            + ("  通常攻撃無効" if r["immune_normal"] else "")
            + (f"  {r['senses']}" if r["senses"] else "") for r in rows)
    return emit(args, {args.what: rows}, text)


# --- fights ------------------------------------------------------------------------------------


def load_fight(rules: GensoRules, path: Path) -> Fight:
    """The saved fight, replayed under the settings it keeps (``rules`` only for a file from
    before fights kept them); an error names the file and the journal entry."""
    if not path.exists():
        raise DataError(f"no fight at {path}: start one with `companion genso fight new`")
    try:
        data = json.loads(read_text(path, "fight"))
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not JSON ({exc})") from exc
    return Fight.from_json(rules, data, str(path))


def save_fight(fight: Fight, path: Path) -> None:
    atomic_write_text(path, json.dumps(fight.to_json(), ensure_ascii=False, indent=1))


def fight_status(rules: GensoRules, fight: Fight) -> tuple[str, dict[str, Any]]:
    state = fight.state
    rows = []
    lines = [f"round {state.round}" + (f"  turn: {state.current.name}" if state.current
                                       else f"  over: {state.outcome.value}"
                                       if state.outcome else "")
             + (f" (moved: {state.moved}; its action is left, GM-COMBAT-1)"
                if state.moved and state.current else "")]
    for c in state.order:
        pools = (f"HP {c.hp}/{c.max_hp} " if c.hp is not None else "") + f"MP {c.mp}/{c.max_mp}"
        if c.storage_mp:
            pools += f" ring {c.storage_mp}"
        flags = [c.status.badge] if c.status.badge else []
        if c.stance.value != "none":
            flags.append(c.stance.value)
        flags += [rules.spell(e.spell).ja + (f"({e.weapon})" if e.weapon else "")
                  for e in c.effects]
        if wants_to_flee(rules, c):
            flags.append("wants to flee (GM-MON-1)")
        if c.rises_as:
            flags.append(f"rises at sunset as {c.rises_as}'s kind (GM-MON-5)")
        mark = "▶" if state.current and c.name == state.current.name else " "
        lines.append(f"{mark} {c.side.value:<5} {c.name:<20} {pools}  {' '.join(flags)}")
        rows.append({"name": c.name, "side": c.side.value, "role": c.role.value, "hp": c.hp,
                     "max_hp": c.max_hp, "mp": c.mp, "max_mp": c.max_mp,
                     "storage_mp": c.storage_mp,
                     "status": c.status.value, "stance": c.stance.value,
                     "effects": [e.spell for e in c.effects],
                     "wants_to_flee": wants_to_flee(rules, c), "rises_as": c.rises_as})
    data = {"round": state.round, "current": state.current.name if state.current else None,
            "moved": state.moved or None,
            "outcome": state.outcome.value if state.outcome else None, "combatants": rows,
            "actions": len(fight.journal)}
    return "\n".join(lines), data


def _fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip()


def combatant_name(fight: Fight, typed: str) -> str:
    """The combatant a typed ACTOR or TARGET names, as the fight knows it.

    Its exact name first; else the name with full-width and half-width letters and digits
    folded alike (NFKC), so 駆け出し冒険者1 is the preset's 駆け出し冒険者１ and オーク１ is
    the monster オーク1; else the preset key or sheet file the PC was brought in with
    (``--party pc1`` → ``pc1``, ``--party ann.toml`` → ``ann.toml``). Only the lookup
    folds: the journal keeps the fight's own names, so a file reads as it always did. A
    name that matches no one (or several) is refused, naming everyone in the fight.
    """
    names = [c.name for c in fight.state.combatants]
    if typed in names:
        return typed
    found = {n for n in names if _fold(n) == _fold(typed)}
    for entrant in fight.entrants:
        if entrant.monster or entrant.name not in names:
            continue
        if entrant.origin:
            refs = {Path(typed).expanduser().resolve(), sheet_path(typed).resolve()}
            if Path(entrant.origin) in refs:
                found.add(entrant.name)
            continue
        raw = fight.rules.presets.get(typed) or fight.rules.presets.get(_fold(typed))
        if raw is not None and _fold(str(raw.get("name", ""))) == _fold(entrant.name):
            found.add(entrant.name)
    if len(found) == 1:
        return found.pop()
    raise IllegalAction(f"no combatant {typed!r} in this fight ({', '.join(names)})"
                        + (f"; it could be {' or '.join(sorted(found))}" if found else ""))


def _fight_action(args: argparse.Namespace, fight: Fight) -> Action:
    verb = args.verb

    def who(typed: str) -> str:
        return combatant_name(fight, typed)

    if verb == "attack":
        return Attack(who(args.actor), who(args.target), args.weapon, args.full)
    if verb == "cast":
        return Cast(who(args.actor), args.spell, tuple(who(t) for t in args.targets),
                    args.weapon, args.stone, args.ring)
    if verb == "stone":
        return UseStone(who(args.actor), args.stone_key, who(args.target))
    if verb == "move":
        return Move(who(args.actor), args.mode)
    simple: dict[str, Callable[[], Action]] = {
        "dodge": lambda: Dodge(who(args.actor)), "flee": lambda: Flee(who(args.actor)),
        "wait": lambda: Wait(who(args.actor)), "end": EndFight, "sunrise": Sunrise,
        "sunset": Sunset, "sleep": Sleep,
    }
    return simple[verb]()


def monster_counts(specs: list[str]) -> list[tuple[str, int]]:
    """``orc:2 ghost`` → [("orc", 2), ("ghost", 1)]; a count that is not a whole number of
    1 or more (``orc:x``, ``orc:0``) is refused, not read as none."""
    counts = []
    for spec in specs:
        key, sep, count = spec.partition(":")
        if sep and not (count.strip().isdecimal() and int(count) >= 1):
            raise DataError(f"--monsters {spec}: write KEY or KEY:N, N a whole number of 1 or "
                            "more (e.g. orc:2)")
        counts.append((key, int(count) if sep else 1))
    return counts


def set_overrides(settings: list[str]) -> dict[str, dict[str, Any]]:
    """``--set RULE.key=value`` flags as ``{rule: {key: value}}``."""
    overrides: dict[str, dict[str, Any]] = {}
    for text in settings:
        rule, key, value = parse_set(text, SET_EXAMPLE)
        overrides.setdefault(rule, {})[key] = value
    return overrides


def cmd_fight(args: argparse.Namespace, rules: GensoRules) -> int:
    path = fight_path(args)
    if args.verb == "new":
        if path.exists() and not args.force:
            raise DataError(f"a fight is saved at {path}; pass --force to start over")
        counts = monster_counts(args.monsters or [])
        entrants = [fight_entrant(rules, ref) for ref in args.party]
        entrants += [fight_entrant(rules, ref, Side.ENEMY, args.npc_as_monster)
                     for ref in args.npc or []]
        entrants += entrants_for(rules, [], counts)
        fight = Fight(rules, entrants)  # the settings now are the fight's, kept in its file
        save_fight(fight, path)
        text, data = fight_status(rules, fight)
        return emit(args, {**data, "path": str(path)}, text)
    # The fight replays under the settings its file keeps. A file from before fights kept
    # them takes the user's own; this call's --set holds from its action on, unless the file
    # replays only with it (it was played with that --set given at every call, as then).
    try:
        fight = load_fight(load_user_rules([]), path)
    except DataError:
        if not args.set:
            raise
        fight = load_fight(rules, path)
    rules = fight.rules
    overrides = set_overrides(args.set or [])
    if args.verb in ("show", "log", "undo", "apply") and overrides:
        changed = fight.changes(overrides)
        if changed:
            rule, key, _, now = changed[0]
            raise DataError(f"--set {rule}.{key}: this fight is played with {rule}.{key} = "
                            f"{setting_text(now)}; `fight {args.verb}` plays "
                            "no action to change it for (give --set with an action, and it "
                            "holds from that action on)")
    if args.verb in ("show", "log"):
        text, data = fight_status(rules, fight)
        if args.verb == "log":
            text = "\n".join(e.text for e in fight.journal)
            data["journal"] = [e.to_json() for e in fight.journal]
        return emit(args, data, text)
    if args.verb == "apply":
        return apply_fight(args, rules, fight, path)
    if args.verb == "undo":
        entry = fight.pop()
        save_fight(fight, path)
        text, data = fight_status(fight.rules, fight)
        back = "".join(f"; {rule}.{key} is back to {setting_text(fight.rules.default(rule, key))}"
                       for rule, key, _ in entry.settings)
        return emit(args, {**data, "undone": entry.to_json()},
                     f"undone: {action_text(entry.action)}{back}\n{text}")
    action = _fight_action(args, fight)

    def body(source: DiceSource) -> int:
        entry: Entry = fight.push(action, source, overrides or None)
        save_fight(fight, path)
        text, data = fight_status(fight.rules, fight)
        if isinstance(action, EndFight) and any(e.origin for e in fight.entrants):
            text += ("\n\nwrite HP, MP and stones back to the sheets with "
                     "`companion genso fight apply`")
        return emit(args, {**data, "entry": entry.to_json()}, f"{entry.text}\n\n{text}",
                     dice=True)

    return run_with_source(args, body)


def apply_fight(args: argparse.Namespace, rules: GensoRules, fight: Fight, path: Path) -> int:
    """Write each sheet file's HP, MP and stones back as the finished fight left them.

    Every file is checked before any is written: one changed since the fight began (or
    since the last apply) refuses the whole apply, naming it. A file already holding
    what the fight left is not touched, so applying twice changes nothing.
    """
    if fight.state.outcome is None:
        raise IllegalAction("the fight is not over: end it first with `companion genso fight "
                            "end` (spells and stones may still follow the end)")
    plans: list[tuple[Entrant, Path, tomlkit.TOMLDocument, str]] = []
    rows: list[dict[str, Any]] = []
    for entrant in fight.entrants:
        if entrant.monster:
            continue
        if not entrant.origin:
            rows.append({"name": entrant.name, "path": None, "result": "preset"})
            continue
        sheet = Path(entrant.origin)
        if not sheet.exists():
            raise DataError(f"{sheet} is gone since the fight began; nothing was written")
        now = digest(read_text(sheet, "sheet"))
        after = fight.character_after(entrant)
        document = sheet_document(after)
        new = digest(tomlkit.dumps(document))
        if now == new:
            rows.append({"name": entrant.name, "path": str(sheet), "result": "unchanged",
                         "hp": after.hp, "mp": after.mp})
            continue
        if now not in (entrant.digest, fight.applied.get(entrant.name)):
            raise DataError(f"{sheet} was changed since the fight began; its HP and MP were "
                            "not written back (nothing was): put the changes in after "
                            "applying, or set its HP/MP by hand")
        plans.append((entrant, sheet, document, new))
        rows.append({"name": entrant.name, "path": str(sheet), "result": "written",
                     "hp": after.hp, "mp": after.mp, "mana_stones": list(after.mana_stones)})
    for entrant, sheet, document, new in plans:
        write_toml(sheet, document)
        fight.applied[entrant.name] = new
    if plans:
        save_fight(fight, path)
    lines = []
    for row in rows:
        if row["result"] == "preset":
            lines.append(f"{row['name']}: a preset, not a sheet file; left alone")
        elif row["result"] == "unchanged":
            lines.append(f"{row['name']}: {row['path']} already holds HP {row['hp']} "
                         f"MP {row['mp']}; not written")
        else:
            lines.append(f"{row['name']}: HP {row['hp']} MP {row['mp']}"
                         + (f" mana stones {row['mana_stones']}" if row["mana_stones"] else "")
                         + f" written to {row['path']}")
    return emit(args, {"sheets": rows}, "\n".join(lines) or "no character sheets in this fight")


# --- parser ------------------------------------------------------------------------------------


COMMANDS: dict[str, Callable[[argparse.Namespace, GensoRules], int]] = {
    "new": cmd_new, "sheet": cmd_sheet, "presets": cmd_presets, "lore": cmd_lore,
    "travel": cmd_travel, "buy": cmd_buy,
    "sell": cmd_sell, "gear": cmd_gear, "grow": cmd_grow, "rest": cmd_rest, "check": cmd_check,
    "defaults": cmd_defaults, "list": cmd_lists, "fight": cmd_fight,
}


def run(args: argparse.Namespace) -> int:
    rules = load_user_rules(args.set or [])
    return COMMANDS[args.sub](args, rules)


def _common(parser: argparse.ArgumentParser, dice: bool = False) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_set_argument(parser, SET_EXAMPLE)
    if dice:
        add_dice_arguments(parser)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
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
    new.add_argument("--skill", choices=("magic", "combat", "search"), required=True,
                     help="魔術ー１ (Healing), 戦闘ー１ or 探索ー１")
    new.add_argument("--age", type=int, default=15, help="15-17 (default 15)")
    new.add_argument("--sex", default="", help="性別 (free)")
    new.add_argument("--out", help="sheet file (default: the data folder)")
    new.add_argument("--force", action="store_true", help="replace an existing sheet")
    _common(new, dice=True)

    sheet = sub.add_parser("sheet", help="show a sheet with its derived values")
    sheet.add_argument("sheet", help="a .toml sheet, a saved character's name or a preset")
    sheet.add_argument("--save-as", metavar="FILE", help="also write the sheet to FILE")
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
    buy.add_argument("--price", type=int, help="silver paid for a price marked ～ (from)")
    buy.add_argument("--mp", type=int, help="a mana stone's MP (1-5; default the shop's 4)")
    _common(buy)
    sell = sub.add_parser("sell", help="sell an item that has a buy-back price")
    sell.add_argument("sheet")
    sell.add_argument("item", help="item key, used:KEY for a used stone, mana_stone (or "
                                   "mana_stone:N, N from 0, when several)")
    _common(sell)
    gear = sub.add_parser("gear", help="equip a weapon, armour, shield or ring (or --off)")
    gear.add_argument("sheet")
    gear.add_argument("item")
    gear.add_argument("--hand", choices=("left", "right"), default="left")
    gear.add_argument("--off", action="store_true", help="take it off instead")
    _common(gear)
    grow = sub.add_parser("grow", help="award experience or spend it (GM-GROW-1/2)")
    grow.add_argument("sheet")
    grow.add_argument("choice", choices=("award", *chars.GROWTH_CHOICES))
    grow.add_argument("--spell", help="the basic spell to learn")
    grow.add_argument("--scenarios", type=int, default=1, help="scenarios finished (award)")
    _common(grow)
    rest = sub.add_parser("rest", help="days of rest (GM-HEAL-1) or a night's sleep")
    rest.add_argument("sheet")
    rest.add_argument("days", type=int, nargs="?", default=1)
    rest.add_argument("--healer", action="store_true", help="in a healer's care (1 silver/HP)")
    rest.add_argument("--sleep", action="store_true", help="8 hours' sleep: MP full")
    _common(rest)

    check = sub.add_parser("check", help="roll a check of §2.3 with its terms")
    check.add_argument("kind", choices=("simple", "general", "trap", "undead", "enemy", "mark",
                                        "opposed"))
    check.add_argument("--sheet", help="who rolls (sheet, saved name or preset)")
    check.add_argument("--vs", help="the other side of an opposed check")
    check.add_argument("--ability", default="body", choices=("body", "perception", "magic",
                                                             "strength"),
                       help="the ability rolled; strength (筋力) only in an opposed check, "
                            "where it reads as body (GM-CHECK-5)")
    check.add_argument("--difficulty", help="a number or extremely_hard, very_hard, hard, "
                                            "easy (traps: cleverly_set, normally_set, "
                                            "hastily_set)")
    check.add_argument("--modifier", type=int, default=0)
    check.add_argument("--no-active", action="store_true",
                       help="opposed: neither side is active (a tie is a draw)")
    _common(check, dice=True)

    fight = sub.add_parser("fight", help="track a fight: new, show, log, undo, actions")
    verbs = fight.add_subparsers(dest="verb", required=True, metavar="VERB")
    start = verbs.add_parser("new", help="start a fight")
    start.add_argument("--party", nargs="+", required=True, help="PC-side sheets or presets")
    start.add_argument("--monsters", nargs="*", metavar="KEY[:N]", help="e.g. orc:2 ghost")
    start.add_argument("--npc", nargs="*", help="NPC sheets on the other side")
    start.add_argument("--npc-as-monster", action="store_true",
                       help="treat those NPCs as monsters (魔物扱い)")
    start.add_argument("--force", action="store_true", help="replace a saved fight")
    for name, helptext in (("show", "the combatants"), ("log", "every action so far"),
                           ("undo", "take back the last action"),
                           ("apply", "write HP, MP and stones back to the sheet files"),
                           ("end", "the GM ends the fight"), ("sunrise", "1-day spells end"),
                           ("sunset", "Wight/Wraith victims rise"),
                           ("sleep", "8 hours' sleep: MP full")):
        _common(verbs.add_parser(name, help=helptext), dice=name in ("end", "sunrise",
                                                                     "sunset", "sleep"))
    attack = verbs.add_parser("attack", help="attack (GM-COMBAT-2/3/4)")
    attack.add_argument("actor")
    attack.add_argument("target")
    attack.add_argument("--weapon", type=int, default=0, help="weapon number (0: first)")
    attack.add_argument("--full", action="store_true", help="全力攻撃: +4, no dodging")
    cast = verbs.add_parser("cast", help="cast a spell (GM-MAGIC)")
    cast.add_argument("actor")
    cast.add_argument("spell")
    cast.add_argument("targets", nargs="*")
    cast.add_argument("--weapon", type=int, help="Exorcism on this weapon of the target")
    cast.add_argument("--stone", type=int, help="pay from this mana stone first")
    cast.add_argument("--ring", action="store_true",
                      help="pay from the Ring of Storage's stored MP first (GM-ITEM-3)")
    stone = verbs.add_parser("stone", help="use a Healing or Enchant Stone (GM-ITEM-2)")
    stone.add_argument("actor")
    stone.add_argument("stone_key", choices=("healing_stone", "enchant_stone"))
    stone.add_argument("target")
    move = verbs.add_parser("move", help="move (GM-MOVE-1)")
    move.add_argument("actor")
    move.add_argument("mode", choices=("combat", "normal", "full"))
    for name, helptext in (("dodge", "全力回避: +6 to defence"), ("flee", "run away"),
                           ("wait", "do nothing")):
        verbs.add_parser(name, help=helptext).add_argument("actor")
    for name in ("new", "attack", "cast", "stone", "move", "dodge", "flee", "wait"):
        _common(verbs.choices[name], dice=name != "new")
    for verb in verbs.choices.values():
        verb.add_argument("--file", help="the fight file (default: the data folder)")
    parser.set_defaults(func=run)
