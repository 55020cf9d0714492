"""``companion genso`` on characters: make one (``new``), show a sheet (``sheet``), the
presets, travel time and lore, and the changes written back to a saved sheet (``buy``,
``sell``, ``gear``, ``grow``, ``rest``).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import shlex
import stat
from collections.abc import Callable, Collection, Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import ParseError

from companion.app.command_name import companion_command, companion_line
from companion.app.commands.genso.calendar import calendar_stays, refuse_cursed, sheet_curses
from companion.app.commands.genso.fights import DamagedFight, load_fight
from companion.app.commands.genso.files import (
    apart_by,
    monster_not_sheet,
    not_an_example,
    resolve_sheet,
    saved_fight_rules,
    saved_twins,
    sheet_changer,
    sheet_out,
    sheet_path,
)
from companion.app.commands.roll import emit, pad, run_with_source
from companion.app.modes.genso_fight_files import (
    default_fight_path,
    file_option,
    sheet_document,
    sheet_document_over,
)
from companion.app.notes import note
from companion.app.overrides import read_text
from companion.dice import DiceSource
from companion.dice.notation import display_width
from companion.errors import DataError, IllegalAction
from companion.file_locks import changing, real_path
from companion.systems.genso.calendar import DeathCurse, fresh_copy
from companion.systems.genso.character.core import (
    Character,
    Condition,
    Derived,
    Hand,
    Weapon,
    condition,
    derive,
    numbered_weapons,
    rates,
    rings_work,
)
from companion.systems.genso.character.creation import create_character, starting_money_tag
from companion.systems.genso.character.gear import (
    NoHandFree,
    equip,
    ring_hands,
    ring_put_on,
    storage_capacity,
    storage_lost,
    take_off_ring,
    unequip,
)
from companion.systems.genso.character.growth import award_experience, spend_experience
from companion.systems.genso.character.recovery import FeeNotPaid, rest, sleep
from companion.systems.genso.character.shop import (
    HeldNotInPack,
    buy,
    buy_mana_stone,
    is_mana_stone,
    listed_about,
    mana_stone_index,
    mana_stone_price,
    price_coins,
    sale,
)
from companion.systems.genso.lore import load_lore
from companion.systems.genso.money import Purse, coins_text
from companion.systems.genso.names import fold_name
from companion.systems.genso.rules import ABILITIES, GensoRules, Slot
from companion.systems.genso.sheet import character_from_mapping, sheet_mapping
from companion.systems.genso.travel import journey
from companion.toml_writing import (
    comment_aside_moved,
    comment_carried,
    comment_kept_aside,
    comment_of_field_carried,
    comment_taken_back,
    comments_kept_in_order,
    write_toml,
)


def describe(rules: GensoRules, character: Character, derived: Derived,
             cursed: DeathCurse | None = None) -> str:
    """The sheet on screen: every derived value with its terms (GM-CORE-3/4, GM-EQUIP), and
    a dead or incapacitated character's state first (GM-COMBAT-8), or the Death Curse
    ``cursed`` that killed it (GM-MAGIC-13, by the calendar: genso70 DEFECT 1)."""
    state = condition(rules, character)
    lines = [
        f"{character.name}  [{character.kind.value}] {rules.sheet_word(character.race)} "
        f"{rules.sheet_word(character.sex)} "
        f"年齢/age {character.age if character.age is not None else '不明/unknown'}",
        f"生まれ/birth {rules.sheet_word(character.birth, 'birth') or '-'}  "
        f"望むもの/wants {rules.sheet_word(character.want, 'want') or '-'}  "
        f"嫌うもの/dislikes {rules.sheet_word(character.dislike, 'dislike') or '-'}",
        # GM-CORE-3: each ability with the seed's guide to its value (能力値の目安).
        "  ".join(f"{rules.abilities[a]['ja']}/{rules.abilities[a]['en']} "
                  f"{character.ability(a)}"
                  + (f" ({word})" if (word := rules.ability_guide(character.ability(a)))
                     else "") for a in ABILITIES),
        f"ＨＰ/HP {character.hp}/{derived.max_hp.total}  max {derived.max_hp.text}",
        f"ＭＰ/MP {character.mp}/{derived.max_mp.total}  max {derived.max_mp.text}",
        *([f"状態/condition {Condition.DEAD.badge} (GM-MAGIC-13: died at sunset on day "
            f"{cursed.dies_on} of {cursed.caster}'s {rules.spell('death_curse').name})"]
          if cursed is not None else
          [f"状態/condition {state.badge} (GM-COMBAT-8)"] if state.badge else []),
        f"攻撃力/attack {derived.attack.text}   防御力/defence {derived.defence.text}",
        f"防護力/protection {derived.protection.text}",
        # Numbered as `fight attack --weapon N` takes them; the first is its default.
        "打撃力/striking power: " + ", ".join(
            f"{n} {w.name} {w.power}" + (f"+{derived.striking}" if derived.striking else "")
            for n, w in numbered_weapons(derived.weapons)),
        # GM-EQUIP-1/3: each weapon's 使用法 (片手/両手), by the same numbers.
        "使用法/grip: " + ", ".join(f"{n} {grip.text}"
                                  for n, w in numbered_weapons(derived.weapons)
                                  if (grip := rules.item(w.key).grip)),
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
    if character.mana_stones:  # GM-ITEM-1, each stone by its MP (genso67 NIT 5)
        lines.append("魔力石/mana stones: "
                     + ", ".join(f"{mp} MP" for mp in character.mana_stones))
    if character.rings_left or character.rings_right:
        # GM-ITEM-3: each hand's rings by name, as the pack's items are (genso67 NIT 5: a
        # Python list of keys).
        lines.append("指輪/rings " + "  ".join(
            f"{hand.text}: " + (", ".join(rules.item(k).name for k in keys) or "-")
            for hand, keys in ((Hand.LEFT, character.rings_left),
                               (Hand.RIGHT, character.rings_right)))
                     + ("" if derived.rings_work else "  (none work: GM-ITEM-3)"))
    holds = storage_capacity(rules, character)
    if holds:  # GM-ITEM-3: what `fight cast --ring` spends, only while the rings work
        lines.append(f"蓄積の指輪/Ring of Storage MP {character.storage_mp}/{holds}"
                     + ("" if derived.rings_work else
                        " (kept; not to be spent while no ring works)"))
    lines += [f"! {w}" for w in derived.warnings]
    return "\n".join(lines)


def sheet_json(rules: GensoRules, character: Character) -> dict[str, Any]:
    derived = derive(rules, character)

    def value(v: Any) -> dict[str, Any]:
        return {"total": v.total, "terms": [{"label": t.label, "value": t.value}
                                            for t in v.terms]}

    return {
        "sheet": sheet_mapping(character),
        "condition": condition(rules, character).value,
        "derived": {
            "max_hp": value(derived.max_hp), "max_mp": value(derived.max_mp),
            "attack": value(derived.attack), "defence": value(derived.defence),
            "protection": value(derived.protection), "trap_bonus": value(derived.trap_bonus),
            "enemy_bonus": value(derived.enemy_bonus), "striking": derived.striking,
            "weapons": [{"key": w.key, "name": w.name, "power": w.power, "magic": w.magic,
                         "grip": grip.value if (grip := rules.item(w.key).grip) else None}
                        for w in derived.weapons],
            "rings_work": derived.rings_work, "magic_level": derived.magic_level,
            "ability_guide": {a: rules.ability_guide(character.ability(a)) for a in ABILITIES},
            "storage_mp": {"mp": character.storage_mp,
                           "holds": storage_capacity(rules, character)},
            "warnings": list(derived.warnings),
        },
    }


def cmd_new(args: argparse.Namespace, rules: GensoRules) -> int:
    abilities = {"body": args.body, "perception": args.perception, "magic": args.magic}
    target = sheet_out("--out", args.out) if args.out is not None else sheet_path(args.name)
    if target.exists() and not args.force:
        raise DataError(f"{target} exists; pass --force to replace it")
    _refuse_case_twin(target, args.force)

    def body(source: DiceSource) -> int:
        made = create_character(rules, source, name=args.name, sex=args.sex, age=args.age,
                                abilities=abilities, skill=args.skill)
        _write_new(target, sheet_document(made.character), args.force, "new")
        rolls = [{"rule": rule, "result": result.to_json(), "row": row}
                 for rule, result, row in made.rolls]
        _note_shadowed(rules, target)
        text = "\n".join([*(f"{rule:<10} {result.text} ＞ {row}"
                            for rule, result, row in made.rolls),
                          f"GM-CHAR-7  所持金/starting money {made.character.purse.text()}"
                          f"{starting_money_tag(rules)}",
                          describe(rules, made.character, derive(rules, made.character)),
                          f"saved to {target}"])
        return emit(args, {**sheet_json(rules, made.character), "rolls": rolls,
                            "path": str(target)}, text, dice=True)

    return run_with_source(args, body)


def _write_new(target: Path, document: tomlkit.TOMLDocument, force: bool, verb: str) -> None:
    """A sheet made (``genso new``, ``sheet --save-as``) written to ``target``, held as a
    change of it is (:func:`_sheet_held`): one another command is changing is waited for,
    not written over halfway, and one made meanwhile (two ``genso new Aki`` at once, the
    dice rolled after the first look) is refused without ``--force``, as one there before."""
    with changing(target, sheet_changer(verb)):
        if target.exists() and not force:
            raise DataError(f"{target} exists; pass --force to replace it")
        write_toml(target, document)


def _note_shadowed(rules: GensoRules, target: Path) -> None:
    """A sheet saved in the characters folder under a preset's or a monster's key is found
    by that key before the preset or the monster (reviewz70: on purpose), by `genso sheet`,
    `fight new --party` and `check --vs`: said, as it was not (genso72 NIT 7: `genso new
    pc1` made pc1 a new PC everywhere without a word). A key in another case only (fixg72b)
    is said by what each command does with it (reviewa73 DEFECT 2: for a monster the note
    said all three refused it, but `genso sheet` and `--party` take the saved character)."""
    name = target.stem
    if target.resolve() != sheet_path(name).resolve():
        return
    shadowed: list[str] = []
    for key, raw in rules.presets.items():
        if key == name:
            shadowed.append(f"the preset {raw.get('name', key)}")
        elif fold_name(key).casefold() == fold_name(name).casefold():
            note(f"note: {name!r} names this saved character, and the preset "
                 f"{raw.get('name', key)} ({key}) keeps its own spelling; any other "
                 f"{apart_by(name, [key])} of it (`genso sheet`, `fight new --party`, "
                 "`check --vs`) is refused as either")
    with contextlib.suppress(DataError):
        monster = rules.monster(name)
        if name in (monster.key, monster.ja, monster.en):
            shadowed.append(f"the monster {monster.name}")
        else:
            how = apart_by(name, [monster.key])
            note(f"note: {name!r} names this saved character, and the monster "
                 f"{monster.name} ({monster.key}) keeps its own spelling; in any other {how} "
                 "`genso sheet` and `fight new --party` take this character, `fight new "
                 "--monsters` the monster, and `check --vs` refuses it as either")
    if shadowed:
        note(f"note: {name!r} now names this saved character everywhere, not "
             f"{' or '.join(shadowed)} (`genso sheet`, `fight new --party`, `check --vs`); "
             f"remove {target} to name {' or '.join(shadowed)} again")


def _refuse_case_twin(target: Path, force: bool) -> None:
    """A sheet about to be saved in the characters folder beside one whose name differs only
    in case or width (``genso new kit`` beside a saved ``Kit``): refused without ``--force``,
    and said with it (reviewa73 NIT 4). ``genso sheet kit`` finds Kit, so a player may take
    kit for the same character; a second file made it so that neither is found but by its
    own spelling, and any other is refused as either."""
    name = target.stem
    if target.resolve() != sheet_path(name).resolve() or not (twins := saved_twins(target)):
        return
    said = " and ".join(f"{p.stem!r} ({p})" for p in twins)
    how = apart_by(name, [p.stem for p in twins])
    if force:
        note(f"note: {name!r} is saved beside the character {said}, apart only by {how}: "
             "each is found by its own spelling only, any other is refused as either")
        return
    raise DataError(f"{name!r} would be a second character beside the saved {said}, apart "
                    f"only by {how}: `genso sheet {name}` finds {twins[0].stem!r} now, and "
                    f"with two, only each one's own spelling finds it. Give {twins[0].stem!r} "
                    "(with --force to replace it) or another name, or pass --force to save "
                    f"{target.name} beside it")


def cmd_sheet(args: argparse.Namespace, rules: GensoRules) -> int:
    character, path = _sheet_not_monster(rules, args.sheet)
    # Saved over its own file (`sheet Aki --save-as <Aki's file> --force`), it is a change
    # of that sheet: held from the read, the sheet read again once held, as `buy` is
    # (:func:`_sheet_held`). Read before the hold, another command's change written while
    # it waited was written over with the copy read first (r76genso2 RISK 1).
    own = bool(args.save_as and args.force and path is not None
               and real_path(Path(args.save_as)) == real_path(path))
    held = (_sheet_held(rules, args.sheet, sheet_changer("sheet --save-as"), "sheet") if own
            else contextlib.nullcontext((character, path)))
    with held as (character, path):
        return _sheet_shown(args, rules, character, path)


def _sheet_shown(args: argparse.Namespace, rules: GensoRules, character: Character,
                 path: Path | None) -> int:
    """:func:`cmd_sheet` of the sheet read, ``path`` its file (None for a preset)."""
    # GM-MAGIC-13: a Death Curse the character cast or carries, from the calendar, and the
    # one that killed it, as its condition.
    cursed, curses, killer = sheet_curses(rules, character.name,
                                          fresh_copy(rules, character, path is None))
    data = {**sheet_json(rules, character), "path": str(path) if path else None, **curses}
    if killer is not None:
        data["condition"] = Condition.DEAD.value
    text = "\n".join([describe(rules, character, derive(rules, character), killer), *cursed])
    if args.save_as:
        target = sheet_out("--save-as", args.save_as)
        if target.exists() and not args.force:
            raise DataError(f"{target} exists; pass --force to replace it")
        _refuse_case_twin(target, args.force)
        _write_new(target, sheet_document(character), args.force, "sheet --save-as")
        _note_shadowed(rules, target)
        # Said as `genso new` says it: the file was written without a word.
        data["saved_to"] = str(target)
        text += f"\nsaved to {target}"
    return emit(args, data, text)


def _sheet_not_monster(rules: GensoRules, ref: str) -> tuple[Character, Path | None]:
    """:func:`resolve_sheet` of ``ref``; a monster's key or name said to be one, with where
    its block is (a76gensofight NIT 4: ``genso sheet orc`` listed only the presets, while
    ``check --sheet orc`` and ``fight new --party orc`` say it is a monster)."""
    try:
        return resolve_sheet(rules, ref)
    except DataError as exc:
        monster = monster_not_sheet(rules, ref, exc)
        raise DataError(f"{exc}; {ref!r} is a monster ({monster.name}, GM-MON-7), which has a "
                        f"stat block, not a sheet: `{companion_command()} genso list monsters` "
                        "shows it") from None


def cmd_presets(args: argparse.Namespace, rules: GensoRules) -> int:
    """The presets by key, kind and name, the seed's Japanese and its English."""
    rows = [{"key": key, "name": raw["name"], "name_en": raw["name_en"], "kind": raw["kind"]}
            for key, raw in rules.presets.items()]
    width = max((display_width(r["name"]) for r in rows), default=0)
    text = "\n".join(f"{r['key']:<16} {r['kind']:<4} {pad(r['name'], width)}  {r['name_en']}"
                     for r in rows)
    return emit(args, {"presets": rows}, text)


def cmd_travel(args: argparse.Namespace, rules: GensoRules) -> int:
    """How long a journey takes at a normal pace (GM-MOVE-2)."""
    if args.metres < 0:
        raise DataError(f"travel {args.metres}: a distance is 0 m or more")
    trip = journey(rules, args.metres)
    data = {"rule": "GM-MOVE-2", "metres": trip.metres, "days": trip.days,
            "hours": trip.hours, "turns": trip.turns}
    counts = rules.default("GM-MOVE-2", "begun_turn_counts")
    code = emit(args, data, f"{trip.text()} (GM-MOVE-2; "
                            + ("端数切り上げ a turn begun counts whole" if counts
                               else "端数切り捨て rounded down")
                            + f"{rules.settings.tag('GM-MOVE-2', 'begun_turn_counts')})")
    # A journey's days are the party's, which only the GM passes on the calendar
    # (a77gensotown RISK 6).
    if trip.days and (stays := calendar_stays(trip.days, "when the party has made the "
                                               "journey", cursed_only=True)):
        note(stays)
    return code


def cmd_lore(args: argparse.Namespace, rules: GensoRules) -> int:
    """The world guide, the glossary or the scenario structure (GM-LORE-1 to 3)."""
    pages = load_lore()
    chosen = [pages[args.page]] if args.page else list(pages.values())
    text = "\n\n".join("\n".join([f"{p.title} ({p.rule})", *(f"- {line}" for line in p.lines)])
                       for p in chosen)
    data = {"lore": [{"key": p.key, "rule": p.rule, "title": p.title, "lines": list(p.lines)}
                     for p in chosen]}
    return emit(args, data, text)


def in_the_fight(character: Character, path: Path,
                 named: Path | None = None) -> tuple[Path, str] | None:
    """The fight file that holds the character of the sheet at ``path`` at other HP or MP
    than the sheet's, not applied to it (the fight going on, or over and not applied:
    `fight apply` writes them, or refuses once the sheet changed), and its HP and MP there;
    None when none does. The file ``named`` (``--fight FILE``) is looked at first, then the
    default one (fixcarry75 item 5: only the default was, and a fight played in a file of
    its own went unseen). The default one that cannot be read is passed over (`fight` says
    why); one named that is not there or cannot be read is refused, saying why."""
    for fight_path in (*([named] if named is not None else []), default_fight_path()):
        if fight_path == named:
            _a_fight_file(fight_path)
        held = _held_in(character, path, fight_path)
        if held is not None:
            return held
    return None


def _a_fight_file(named: Path) -> None:
    """``--fight FILE`` refused unless FILE is a genso fight that loads: something there that
    is not a file named for what it is (reviewcarry75 NIT 1: a pipe, a folder or /dev/null
    was "no fight file there"), and a file that is not JSON said to be no fight, without
    `fight`'s advice to start a new one over it with --force, which would keep the file
    named aside (reviewcarry75 RISK 1: `rest aki.toml --fight aki.toml` passed that on, and
    following it moved the sheet itself aside as aki.toml.corrupt-…)."""
    if not named.exists():
        try:
            named.stat()
        except OSError as exc:
            # A link to itself, or round to it, is there, not "no fight file there"
            # (reviewb75 NIT B5).
            if exc.errno == errno.ELOOP:
                raise DataError(f"--fight {named}: a symbolic link that loops, not a fight "
                                "file") from None
        raise DataError(f"--fight {named}: no fight file there")
    if not named.is_file():
        mode = named.stat().st_mode
        # A socket was "not a regular file, not a fight file" (reviewb75 NIT B5).
        kind = ("a folder" if stat.S_ISDIR(mode) else "a named pipe" if stat.S_ISFIFO(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "a special file")
        raise DataError(f"--fight {named}: {kind}, not a fight file")
    try:
        load_fight(saved_fight_rules([]), named)
    except DamagedFight as exc:
        raise DataError(f"--fight {named}: not a saved genso fight "
                        f"({exc.fault.removeprefix(f'{named}: ')}): name the file a fight "
                        "was played in (`fight … --file FILE`)") from None
    except (DataError, OSError) as exc:
        # JSON of something else names the file itself ("e.json: not a saved genso
        # fight"): said once (reviewb75 NIT B5).
        raise DataError(f"--fight {named}: {str(exc).removeprefix(f'{named}: ')}") from None


def _held_in(character: Character, path: Path, fight_path: Path) -> tuple[Path, str] | None:
    """:func:`in_the_fight` of one fight file."""
    if not fight_path.exists():
        return None
    try:
        fight = load_fight(saved_fight_rules([]), fight_path)
        for entrant in fight.entrants:
            if not entrant.origin or entrant.name in fight.applied \
                    or Path(entrant.origin).resolve() != path.resolve():
                continue
            after = fight.character_after(entrant)
            if (after.hp, after.mp) != (character.hp, character.mp):
                c = fight.state.get(entrant.name)
                pools = (f"HP {c.hp}/{c.max_hp} " if c.hp is not None else "") \
                    + f"MP {c.mp}/{c.max_mp}"
                return fight_path, pools
    except (DataError, OSError):
        return None
    return None


def _mid_fight(args: argparse.Namespace, rules: GensoRules, character: Character,
               path: Path, rest: bool) -> str:
    """GM-HEAL-1/2, GM-ECON: a change to a sheet whose character the fight file holds, not
    yet applied (:func:`in_the_fight`). A ``rest`` is refused without --force: it healed
    the sheet's HP 12/12 while the fight had 2/12, and `fight apply` then wrote HP 2 over
    it, the days of rest lost without a word (calendar73 RISK 4). A purchase, a sale, gear
    or growth does not read HP, and goes on: the note returned, said once the sheet is
    written, tells that `fight apply` then refuses to write over the changed sheet (it said
    so only at the apply); a forced rest's too, which, as the refusal, starts with its rule
    (GM-HEAL-1 休養/rest). :func:`_change` says it only when the sheet's text changed."""
    held = in_the_fight(character, path, getattr(args, "fight", None))
    if held is None:
        return ""
    fight_path, pools = held
    where = f"{character.name} is in the fight at {fight_path} ({pools} there, not yet applied)"
    if rest:  # the rule first, its Japanese beside it (reviewg73 NIT 3)
        where = f"GM-HEAL-1 休養/rest: {where}"
    fight = f"{companion_command()} genso fight"
    # The commands for that fight's file: its --file when it is not the default one.
    end, apply = (f"{fight} {verb}{file_option(fight_path)}" for verb in ("end", "apply"))
    if rest and not args.force:
        sheet = derive(rules, character)
        raise IllegalAction(
            f"{where}: this rest would work on the sheet's HP {character.hp}/"
            f"{sheet.max_hp.total} MP {character.mp}/{sheet.max_mp.total}, and `fight apply` "
            f"then write the fight's over it, or refuse; apply the fight first (`{end}` "
            f"if it goes on, then `{apply}`, which says what to copy by hand if the "
            "sheet changed since it began), or give --force to rest the sheet as it is")
    # A rest's note starts with its rule, as its refusal does; the others' with "note".
    return (f"{'' if rest else 'note: '}{where}: the sheet changed, so `{apply}` does "
            "not write over it, and the fight's HP and MP are the GM's to copy (apply or end "
            "the fight first to have them written)")


@contextlib.contextmanager
def _sheet_held(rules: GensoRules, ref: str, holder: str,
                verb: str) -> Iterator[tuple[Character, Path]]:
    """The saved sheet ``ref`` (:func:`resolve_sheet`) and its file, held from this read to
    the block's write (:func:`~companion.file_locks.changing`, as the calendar, the party's
    HP and the poisons are): another command's change of it waits for this one, or is
    refused naming it, and none is written over (a76saves DEFECT 1: `genso buy` and `genso grow` at
    once both said they were done and the sheet kept one; 8 buys at once kept 5). It is
    read again once held, as another change may have been written meanwhile; a name that
    finds another file by then (one made in another case) is looked up again. A preset,
    which has no file, is refused, with the commands that save it and give it to ``verb``
    (a77gensotown NIT 8: the hint's `--save-as FILE` was refused, and the preset's name
    given again named the preset still)."""
    for _ in range(3):
        preset, path = resolve_sheet(rules, ref)
        if path is None:
            key = next((k for k, raw in rules.presets.items()
                        if k == ref.strip() or raw.get("name") == preset.name), ref.strip())
            copy = f"{key}.toml"
            raise DataError(f"{ref!r} is a preset; save it first with "
                            f"`{companion_line('genso', 'sheet', key, '--save-as', copy)}`, "
                            f"then give {copy} in its place "
                            f"(`{companion_line('genso', verb, copy)} …`)")
        not_an_example(path, preset.name)
        with changing(path, holder):
            character, now = resolve_sheet(rules, ref)
            if now is not None and real_path(now) == real_path(path):
                yield character, path
                return
    raise DataError(f"{ref!r} names another sheet file each time it is looked up (sheets "
                    "being made or removed meanwhile): nothing was changed; try again")


def _change(args: argparse.Namespace, rules: GensoRules,
            change: Callable[[Character], tuple[Character, str]], rest: bool = False,
            taken: Mapping[str, int] | None = None, dropped: Collection[str] = (),
            mend: list[Callable[[tomlkit.TOMLDocument, tomlkit.TOMLDocument], None]]
            | None = None) -> int:
    """Apply a change to a saved sheet and write it back atomically, its comments kept; a
    character the fight file holds said so, and a ``rest`` refused (:func:`_mid_fight`).
    ``taken`` and ``dropped``, filled in by ``change``: which copy left a list, and the
    fields that go as they were added (:func:`sheet_document_over`); ``mend``, each given
    the document read and the one to write, the comments of an item that moved."""
    with _sheet_held(rules, args.sheet, sheet_changer(args.sub), args.sub) as (character,
                                                                              path):
        in_fight = _mid_fight(args, rules, character, path, rest)
        changed, said = change(character)
        try:  # never write a sheet that would not load back (award --scenarios 10**30)
            character_from_mapping(rules, sheet_mapping(changed), str(path))
        except DataError as exc:
            raise DataError(f"{exc}; the sheet is left as it was") from None
        before = read_text(path, "sheet")
        after = sheet_document_over(rules, before, changed, str(path), taken, dropped)
        with contextlib.suppress(ParseError):  # not TOML: written afresh, nothing to carry
            for carry in mend or ():
                carry(tomlkit.parse(before), after)
        write_toml(path, after, as_it_was=True)
    # Only a sheet whose text changed makes `fight apply` refuse; one left as it was (a
    # rest at full HP and MP) is written over as usual, so the note would be untrue
    # (reviewg73 NIT 1).
    if in_fight and tomlkit.dumps(after) != before:
        note(in_fight)
    # GM-MAGIC-13: one the calendar keeps dead of a Death Curse is shown so, as `genso
    # sheet` shows it (a77gensotown NIT 9: after buy, sell or gear it was "active"). A saved
    # sheet is never a fresh copy of a preset (:func:`fresh_copy`).
    # Its live curses too, in the lines and the JSON `genso sheet` gives (r77genso NIT on
    # 51ca0009: `death_curses` and the curse lines were left out).
    cursed, curses, killer = sheet_curses(rules, changed.name)
    data = {**sheet_json(rules, changed), **curses, "said": said, "path": str(path)}
    if killer is not None:
        data["condition"] = Condition.DEAD.value
    text = "\n".join([said, describe(rules, changed, derive(rules, changed), killer),
                      *cursed])
    return emit(args, data, text)


def cmd_buy(args: argparse.Namespace, rules: GensoRules) -> int:
    """GM-EQUIP, GM-ECON-1/2: buy an item, or a mana stone (GM-ITEM-1) of ``--mp`` MP.

    ``--mp`` belongs to a mana stone only and ``--price`` to every other item: given to the
    other, each is refused by name (both were dropped unsaid). A mana stone's price is the
    seed's own (items.toml ``[mana_stone]``: 2 silver per MP, 大銀貨２枚 the shop's 4 MP
    stone), as its buy-back is."""
    _take_back_priced(args, "buy")
    stone = rules.mana_stone
    name = f"{stone['ja']}/{stone['en']}"
    if is_mana_stone(rules, args.item) and args.price is not None:
        raise DataError(f"buy {args.item} --price {args.price}: the price of a mana stone "
                        f"({name}) is the seed's own, {stone['sale_per_mp']} silver per MP (the "
                        f"shop's {stone['shop_mp']} MP stone "
                        f"{coins_text(stone['coins']['shop_price'])}), not one the GM sets "
                        "(GM-ITEM-1): buy it without --price, and --mp for its MP")
    if not is_mana_stone(rules, args.item) and args.mp is not None:
        raise DataError(f"buy {args.item} --mp {args.mp}: --mp is the MP of a mana stone "
                        f"({name}, `buy SHEET mana_stone --mp N`); "
                        f"{rules.item(args.item).name} has none")

    def change(c: Character) -> tuple[Character, str]:
        if is_mana_stone(rules, args.item):
            after = buy_mana_stone(rules, c, args.mp)
            mp = after.mana_stones[-1]
            return after, (f"GM-ITEM-1 bought a mana stone ({name}, {mp} MP) for "
                           f"{coins_text(mana_stone_price(rules, mp)[1])}")
        item = rules.item(args.item)
        cost = price_coins(rules, item, args.price, args.take_back)
        said = f"GM-ECON-1 bought {item.name} for {coins_text(cost)}"
        if item.slot is Slot.WEAPON:
            said += (f" (in the pack: `{companion_command()} genso gear {shlex.quote(args.sheet)} "
                     f"{item.key}` equips it)")
        after = buy(rules, c, item.key, args.price, args.take_back)
        warned.append(_far_from_list(args, rules, item.key, args.price)
                      or _taken_back_far(args, rules, item.key))
        return after, said
    warned: list[str | None] = []
    return _warned(_change(args, rules, change), warned)


#: A price the GM sets (``--price``, silver) more than this many times the おおよそ (about)
#: one the seed lists, or less than its share, is told beside the list's: the program's
#: line, not a rule (GM-EQUIP-3 bounds no haggling), for the slip of a gold count typed as
#: silver (a76gensofight RISK 2: `--price 100` bought 金貨100枚's Sword+1 for 100 silver).
FAR_FROM_LIST = 2
#: The same for a sale of goods the seed gives no buy-back price (iron armour), told beside
#: the list's sale price: a second-hand sale fetches less than a new one costs, so only one
#: more than this many times off is told (a77gensotown DEFECT 2: iron armour listed at 48
#: gold sold at `--price 24`, 24 silver, without a word), as the help says (r77genso NIT:
#: it said "10 times off", and 384 silver for 3840, exactly 10 times, is not warned).
SECOND_HAND_FAR = 10


def _far_from_list(args: argparse.Namespace, rules: GensoRules, key: str,
                   paid: int | None, sold: bool = False) -> str | None:
    """The warning of a GM's price far from the おおよそ one listed (:data:`FAR_FROM_LIST`),
    both in silver, with the command that undoes it; None when near, or not such a price,
    or when this buy or sale is that command (``--take-back``): the take-back of a buy at
    100 silver, a sale at 100, was warned of as far below the buy-back list, with a buy to
    take *it* back (r76coc N4)."""
    item = rules.item(key)
    listed, far = listed_about(item, sold), FAR_FROM_LIST
    listing = f"{'the buy-back of ' if sold else ''}{item.name} is listed at おおよそ/about"
    if sold and item.buyback is None and item.price is not None and item.price_coins is not None:
        listed, far = (item.price, item.price_coins), SECOND_HAND_FAR
        listing = (f"{item.name}, which the seed gives no buy-back price, is listed for sale "
                   "at")
    if paid is None or listed is None or args.take_back:
        return None
    silver, coins = listed
    if silver <= paid * far and paid <= silver * far:
        return None
    money = rates(rules)
    gold = money.large_per_gold * money.silver_per_large
    # The gold reading is told only when it is near the list: a second-hand sale fetches
    # less than the list, never more, so above it the bound is FAR_FROM_LIST's (r77genso
    # NIT: `sell Aki iron_armor --price 383` said "if 383 gold was meant, that is --price
    # 30640", 8 times the armour's list).
    meant = (f"; if {paid} gold was meant, that is --price {paid * gold}"
             if silver <= paid * gold * far and paid * gold <= silver * FAR_FROM_LIST
             else "")
    undo = companion_line("genso", "buy" if sold else "sell", args.sheet, item.key, "--price",
                          str(paid), "--take-back")
    return (f"warning: {listing} {coins_text(coins)} = {silver} silver 銀貨; "
            f"{'received' if sold else 'paid'} {paid} silver 銀貨: --price is in silver "
            f"(GM-ECON-1: 1 gold = {gold} silver){meant}; to take it back: `{undo}`")


def _taken_back_far(args: argparse.Namespace, rules: GensoRules, key: str) -> str | None:
    """The note of a ``--take-back`` buy of goods the seed gives no buy-back price at a
    price more than :data:`SECOND_HAND_FAR` times off the list, as the sale it takes back was
    warned of, with the sale that undoes it; None for any other buy.

    Said, not refused (r77genso RISK on 7b6feb2d: `buy Aki iron_armor --price 1
    --take-back` bought 48-gold armour for 1 silver without a word, around GM-EQUIP-2's list
    price): nothing records the sale a take-back undoes, so one at that price may well have
    been made, and refusing would leave it to a hand edit again (a77gensotown DEFECT 2). A
    note, not a warning: it is also what the take-back a sale's warning gives says, and that
    is no slip (r76coc N4). The undo is a ``sell --take-back``, which says nothing more."""
    item = rules.item(key)
    paid, listed, coins = args.price, item.price, item.price_coins
    if (not args.take_back or item.price_about or item.buyback is not None or paid is None
            or listed is None or coins is None
            or (listed <= paid * SECOND_HAND_FAR and paid <= listed * SECOND_HAND_FAR)):
        return None
    undo = companion_line("genso", "sell", args.sheet, item.key, "--price", str(paid),
                          "--take-back")
    return (f"note: {item.name} is listed for sale at {coins_text(coins)} = {listed} silver "
            f"銀貨; bought back at {paid} silver 銀貨 (--take-back): right only if it takes "
            "back a sale at that price, which is not checked (GM-EQUIP-2: a buy pays the "
            f"list price); to undo it: `{undo}`")


def _warned(code: int, warned: list[str | None]) -> int:
    """``code``, the warnings of a sheet changed and written said after it."""
    for warning in warned:
        if warning is not None:
            note(warning)
    return code


def _take_back_priced(args: argparse.Namespace, verb: str) -> None:
    """``--take-back`` is the price warning's own command, a buy or sale at a --price: with
    none it checks nothing and is refused (r76fb NIT 1: it was taken, silently)."""
    if args.take_back and args.price is None:
        raise DataError(f"{verb} --take-back takes back a sale or buy at its --price: give the "
                        "--price the warning's command gives, or leave --take-back out")


def cmd_sell(args: argparse.Namespace, rules: GensoRules) -> int:
    _take_back_priced(args, "sell")
    # Which mana stone was sold, by its number: of two equal stones side by side the sheet
    # writer cannot tell, and took the first's line and comment for `mana_stone:1`
    # (fixcarry75 item 1).
    taken: dict[str, int] = {}

    def change(c: Character) -> tuple[Character, str]:
        try:
            after, _, coins = sale(rules, c, args.item, args.price)
        except HeldNotInPack as exc:  # the system says it in game words
            # A ring worn on both hands comes off one named (genso72 NIT 5: the hint's
            # `gear --off` was then refused, asking for --hand).
            hands = ring_hands(c, exc.item) if exc.item.startswith("ring_") else []
            hand = f" --hand {hands[0].value}" if len(hands) > 1 else ""
            raise IllegalAction(f"{exc} (`{companion_command()} genso gear "
                                f"{shlex.quote(args.sheet)} "
                                f"{exc.item} --off{hand}` takes it off)") from None
        name, _, _ = args.item.partition(":")
        stone = mana_stone_index(rules, c, args.item)
        if stone is not None:
            taken["mana_stones"] = stone
        sold = (f"{rules.mana_stone['ja']}/{rules.mana_stone['en']}"
                if is_mana_stone(rules, name) else
                ("used " if args.item.startswith("used:") else "")
                + rules.item(args.item.removeprefix("used:")).name)
        if stone is None and not args.item.startswith("used:"):
            warned.append(_far_from_list(args, rules, args.item, args.price, sold=True))
        return after, f"GM-ECON-1 sold {sold} for {coins_text(coins)}"
    warned: list[str | None] = []
    return _warned(_change(args, rules, change, taken=taken), warned)


def cmd_gear(args: argparse.Namespace, rules: GensoRules) -> int:
    # A ring taken off takes with it the lines its putting on added, `storage_mp = 5` and
    # `rings = {…}`, when nothing is left in them: they stayed as `storage_mp = 0` and
    # `rings = {left = [], right = []}` (fixcarry75 item 4). Lines the player commented stay.
    # `storage_mp` only for a Ring of Storage, the ring that adds it: a player's own
    # `storage_mp = 0` went when a Ring of Protection came off (reviewcarry75 NIT 4);
    # `rings` goes only when no ring is left in it, whichever ring was the last.
    dropped: list[str] = []
    # A ring's comment in `equipment` ("ring_storage",  # from grandma) went when it was put
    # on: `rings` is an inline table, with no room for it. It is kept in `equipment` on a
    # line of its own, and the ring taken off takes it again (reviewcarry75 RISK 2).
    mend: list[Callable[[tomlkit.TOMLDocument, tomlkit.TOMLDocument], None]] = []

    def change(c: Character) -> tuple[Character, str]:
        item = rules.item(args.item)
        if args.off and item.key.startswith("ring_"):
            dropped.extend(("storage_mp", "rings") if item.key == "ring_storage"
                           else ("rings",))
            hand = _off_hand(args, rules, c, item.key)
            after = take_off_ring(rules, c, item.key, hand)
            # The hand it came off, as the put-on says it (reviewgc67b NIT 4): the one named,
            # else the one hand that wore it (take_off_ring's first).
            off = hand or ring_hands(c, item.key)[0]
            # That hand's line first; a line kept before the hand was named, else.
            mend.append(lambda was, now: comment_taken_back(
                was, now, "equipment", item.key, ring_worn(off), RING_WORN))
            return after, (f"took off {item.name} ({off.text} hand)"
                           + _storage_lost(rules, item.key, c, after))
        if args.off:
            # A weapon, armour or shield back in the pack takes the comment it left there.
            mend.append(lambda was, now: comment_taken_back(
                was, now, "equipment", item.key, gear_worn(rules, item.key)))
            # A weapon's comment in a `weapons` list one item a line comes with it.
            mend.append(lambda was, now: comment_carried(
                was, now, "weapons", "equipment", item.key))
            # Armour's or a shield's, on its own line (`armor = "…"  # mum sewed it`), too.
            for field in ("armor", "shield"):
                mend.append(partial(comment_of_field_carried, field=field, key="equipment",
                                    item=item.key))
            return unequip(rules, c, item.key), f"took off {item.name}"
        if item.key.startswith("ring_"):
            on = Hand(args.hand or Hand.LEFT.value)
            mend.append(lambda was, now: comment_kept_aside(
                was, now, "equipment", item.key, ring_worn(on)))
            moved = ring_hands(c, item.key) if item.key not in c.equipment else ()
            if moved and on not in moved:  # the line kept names the hand it is on now
                mend.append(lambda was, now: comment_aside_moved(
                    now, "equipment", item.key, ring_worn(moved[0]), ring_worn(on)))
            return _ring_on(rules, c, item.key, on)
        worn_now = {Slot.ARMOR: c.armor, Slot.SHIELD: c.shield}.get(item.slot)
        if worn_now == item.key:
            # GM-EQUIP-2: one armour and one shield are worn; the same again from the pack
            # changes nothing but which copy's line is where, and the file then took an
            # unrelated item's comment for it (r76genso RISK 3).
            raise IllegalAction(f"{c.name} already wears {item.name}: nothing to change "
                                "(the sheet is left as it was)")
        if item.key not in c.equipment and item.key in c.weapons:
            # Readied already: moved to the front, nothing in or out of the pack (equip);
            # each comment in a `weapons` list one item a line stays on its weapon (r77genso:
            # the list was written over as the weapon taken out and a bare one put in).
            mend.append(lambda was, now: comments_kept_in_order(was, now, "weapons"))
            held = c.weapons.index(item.key)
            after = equip(rules, c, item.key)
            return after, (f"{c.name} already has {item.name} readied (weapon {held}); now "
                           "weapon 0, the one `fight attack` strikes with"
                           + _weapons_kept(args, rules, c, item.key)
                           + _weapon_before(derive(rules, after).weapons, item.key))
        # Its comment in the pack kept there (finalb74/fixcarry75b: `"staff",  # from
        # grandpa` went at `gear staff`, `weapons = ["staff"]` one line with no room for
        # it); armour or a shield it takes the place of takes back its own.
        mend.append(lambda was, now: comment_kept_aside(
            was, now, "equipment", item.key, gear_worn(rules, item.key)))
        for field, worn in (("armor", c.armor), ("shield", c.shield)):
            if worn is not None:
                mend.append(partial(_taken_back_worn, key=worn, why=gear_worn(rules, worn)))
                # The comment on its own line goes with it into the pack (r76genso RISK 2).
                mend.append(partial(comment_of_field_carried, field=field, key="equipment",
                                    item=worn))
        try:
            after = equip(rules, c, item.key)
        except NoHandFree as exc:  # the system says it in game words; the command, how
            offs = ", then ".join(f"`{companion_line('genso', 'gear', args.sheet, key, '--off')}`"
                                  for key in exc.items)
            raise IllegalAction(f"{exc.first} ({offs}); {exc.why}") from None
        if item.slot is not Slot.WEAPON:
            return after, f"equipped {item.name}"
        # The weapon readied becomes weapon 0 (:func:`equip`), the fight's default; the one
        # held first before is weapon 1.
        return after, (f"equipped {item.name}: weapon 0, the one `fight attack` strikes "
                       f"with{_weapons_kept(args, rules, c, item.key)}"
                       + _weapon_before(derive(rules, after).weapons, item.key))
    return _change(args, rules, change, dropped=dropped, mend=mend)


def _weapons_kept(args: argparse.Namespace, rules: GensoRules, character: Character,
                  key: str) -> str:
    """GM-EQUIP-1, GM-COMBAT-1: a fight holds its fighters' weapons as `fight new` copied
    them from their sheets, and the seed (PG 4) gives no step to ready another during one,
    so a weapon readied while a fight that holds this character goes on (``--fight FILE``
    first, then the default one) strikes from the next fight: said, naming that fight
    (a78journey DEFECT 1: gear said the sword was `fight attack`'s, and the fight struck
    with the club). Said next to "the one `fight attack` strikes with", which it makes of
    the next fight (r78genso2 NIT 2); "" when no such fight goes on, or where ``key`` is the
    fight's weapon 0 of this fighter already, striking now too."""
    _, path = resolve_sheet(rules, args.sheet)
    named = getattr(args, "fight", None)
    for fight_path in (*([named] if named is not None else []), default_fight_path()):
        if path is None or not fight_path.exists():
            continue
        try:
            fight = load_fight(saved_fight_rules([]), fight_path)
        except (DataError, OSError):
            continue  # a fight that cannot be read is said by `fight` and `gear --fight`
        if fight.state.outcome is not None:
            continue
        for entrant in fight.entrants:
            if entrant.origin and entrant.name not in fight.applied \
                    and Path(entrant.origin).resolve() == path.resolve():
                if list(entrant.sheet.get("weapons") or [])[:1] == [key]:
                    return ""
                return (f" from the next fight (the fight under way at {fight_path} keeps "
                        f"{character.name}'s weapons as they were at its start)")
    return ""


def _weapon_before(weapons: tuple[Weapon, ...], key: str) -> str:
    """How `fight attack` strikes with weapon 1, the one held first before ``key`` was
    readied as weapon 0: by its number beside a second of the same kind (a club readied
    beside a club: `--weapon club` picks the first, the new one; review63c NIT 5), else
    by its key; "" with none but fists."""
    before = weapons[1] if len(weapons) > 1 and weapons[1].key != "fist" else None
    if before is None:
        return ""
    if before.key == key:
        return f"; `--weapon 1` strikes with the {before.name} held before"
    return f"; `--weapon {before.key}` strikes with {before.name}"


#: What the line a worn ring's comment is kept on in `equipment` said after the ring's key
#: before it named the hand (:func:`ring_worn`); such a line is still taken back.
RING_WORN = "worn 装備中, its comment kept here for `gear --off`"


def _taken_back_worn(was: tomlkit.TOMLDocument, now: tomlkit.TOMLDocument, key: str,
                     why: str) -> None:
    """:func:`comment_taken_back` in `equipment`, for armour or a shield come off."""
    comment_taken_back(was, now, "equipment", key, why)


def ring_worn(hand: Hand) -> str:
    """What the line a ring's comment is kept on in `equipment` says after its key: the hand
    it is worn on, so of two rings of a kind the one taken off takes back its own comment
    (reviewb75 NIT B3: they came back in put-on order, the left ring's to the right)."""
    return f"worn 装備中 on the {hand.text} hand, its comment kept here for `gear --off`"


def gear_worn(rules: GensoRules, key: str) -> str:
    """What the line a readied weapon's, or worn armour's or shield's, comment is kept on in
    `equipment` says after its key (GM-EQUIP-1/2/3)."""
    done = "readied" if rules.item(key).slot is Slot.WEAPON else "worn"
    return f"{done} 装備中, its comment kept here for `gear --off`"


def _off_hand(args: argparse.Namespace, rules: GensoRules, c: Character,
              key: str) -> Hand | None:
    """The hand ``gear --off`` takes a ring from: the one ``--hand`` names (reviewg67 RISK 2:
    it was ignored, and the left hand's ring came off), else the one hand wearing it. A ring
    of the kind on each hand and no ``--hand`` is refused, naming both: which comes off
    matters (a Ring of Storage left on a hand with another ring stops every ring)."""
    if args.hand is not None:
        return Hand(args.hand)
    hands = ring_hands(c, key)
    if len(hands) > 1:
        raise IllegalAction(
            f"{c.name} wears {rules.item(key).name} on both hands, the {hands[0].text} and the "
            f"{hands[1].text}: name the one to take off with --hand "
            f"{' or --hand '.join(h.value for h in hands)}")
    return None


def _storage_lost(rules: GensoRules, key: str, before: Character, after: Character) -> str:
    """GM-ITEM-3 (genso67 RISK 1): what a Ring of Storage taken off loses, said; it was lost
    without a word. The reading "GM-ITEM-3 (storage)" (``genso defaults``): off the hand, a
    Ring of Storage keeps no MP; it absorbs its ``storage`` MP again when put on."""
    if key != "ring_storage":
        return ""
    lost = storage_lost(before, after)
    if lost:
        return (f": its {lost} stored MP are lost (GM-ITEM-3 reading: a Ring of Storage keeps "
                f"no MP off the hand, and absorbs up to {rules.num('GM-ITEM-3', 'storage')} "
                "MP again when put on)")
    if after.storage_mp:
        return (f": nothing lost, the Ring of Storage still worn holds its "
                f"{after.storage_mp} MP")
    return ": it held no MP, so nothing is lost"


def _ring_on(rules: GensoRules, c: Character, key: str, hand: Hand) -> tuple[Character, str]:
    """GM-ITEM-3: a ring put on ``hand``, from the pack or moved from the other hand (a
    take-off and a put-on, genso67 RISK 1, made by :func:`ring_put_on` alone), said with
    the MP a Ring of Storage lost coming off and absorbed going on."""
    item = rules.item(key)
    steps = ring_put_on(rules, c, item.key, hand)
    moved, off, after = steps.moved_from, steps.off, steps.on
    said = (f"GM-ITEM-3 put on {item.name} ({hand.text} hand)" if moved is None else
            f"GM-ITEM-3 moved {item.name} from the {moved.text} hand to the {hand.text} hand, "
            "taken off and put on again")
    if moved is not None:
        said += _storage_lost(rules, item.key, c, off)
    if item.key == "ring_storage":
        taken = off.mp - after.mp
        most = rules.num("GM-ITEM-3", "rings_per_hand")
        said += (f"; put on, it absorbed {taken} MP (ＭＰ/MP {off.mp} → {after.mp})"
                 if rings_work(rules, after) else
                 f"; put on, it absorbed nothing: no magic ring works with {most + 1} or more "
                 "on one hand")
        if taken > 0 and after.mp < 1:
            # GM-COMBAT-8: below 1 MP is 行動不能, as a cast's warning says first (GM-MAGIC-1);
            # the sheet's condition showed it, the line did not (calendar75 NIT 5).
            said += (f"\nGM-COMBAT-8 {after.name} is left at ＭＰ/MP {after.mp}: 行動不能 "
                     "incapacitated until a night's sleep fills MP (GM-HEAL-2)")
    return after, said + _of_a_kind(rules, item.key, after)


def _of_a_kind(rules: GensoRules, key: str, after: Character) -> str:
    """GM-ITEM-3 Default ``rings_of_a_kind_add`` (genso72 RISK 2): what a second Ring of
    Striking or Protection worn adds, said; off, the second added nothing without a word,
    for its 50 gold."""
    bonus = {"ring_striking": "striking", "ring_protection": "protection"}.get(key)
    worn = (after.rings_left + after.rings_right).count(key)
    if bonus is None or worn < 2 or not rings_work(rules, after):
        return ""
    if rules.default("GM-ITEM-3", "rings_of_a_kind_add"):
        return (f"; with the {worn} worn, each adds its +{rules.num('GM-ITEM-3', bonus)} "
                "(GM-ITEM-3 rings_of_a_kind_add)")
    return (f"; it adds nothing beside the one already worn: under GM-ITEM-3 "
            f"rings_of_a_kind_add = false a kind counts once (`{companion_command()} genso "
            "defaults` shows it)")


def cmd_grow(args: argparse.Namespace, rules: GensoRules) -> int:
    """GM-GROW-1 ``award`` and GM-GROW-2's buys. ``--spell`` belongs to ``spell`` and
    ``--scenarios`` to ``award``, and each given to another choice is refused by name, as
    ``buy`` refuses ``--mp`` and ``--price`` (a77gensotown DEFECT 3: `grow Aki hp --spell
    fire` said "bought hp (火炎呪/Fire)", spent the experience on HP and learned nothing)."""
    if args.choice == "spell" and args.spell is None:
        raise IllegalAction("GM-GROW-2: name the basic spell (基本呪文) to learn with --spell "
                            f"NAME (see `{companion_command()} genso list spells`)")
    # Each choice and flag by its rule (r77genso NIT on 22421c85: the refusal named none).
    def rule(choice: str) -> str:
        return "GM-GROW-1" if choice == "award" else "GM-GROW-2"
    for flag, value, owner in (("--spell", args.spell, "spell"),
                               ("--scenarios", args.scenarios, "award")):
        if value is not None and args.choice != owner:
            raise DataError(f"grow {args.choice} {flag} {value}: {flag} belongs to `grow "
                            f"SHEET {owner}` only ({rule(owner)}); {args.choice} "
                            f"({rule(args.choice)}) takes none (nothing was changed)")
    scenarios = 1 if args.scenarios is None else args.scenarios

    def change(c: Character) -> tuple[Character, str]:
        # GM-MAGIC-13: one dead of a Death Curse grows no more, as the HP-dead (GM-GROW-2).
        refuse_cursed(rules, c.name, "growth (GM-GROW-1/2) does not bring the dead back")
        if args.choice == "award":
            return (award_experience(rules, c, scenarios),
                    f"GM-GROW-1 +{scenarios} experience")
        after = spend_experience(rules, c, args.choice, args.spell)
        spell = f" ({rules.spell(args.spell).name})" if args.choice == "spell" else ""
        return after, f"GM-GROW-2 bought {args.choice}{spell}"
    return _change(args, rules, change)


def cmd_rest(args: argparse.Namespace, rules: GensoRules) -> int:
    """GM-HEAL-1 days of rest (``N``, ``--healer``) and GM-HEAL-2 a night's sleep (``--sleep``).

    Given together, both are done, the days first: days of rest are nights of sleep too,
    so ``rest SHEET 4 --healer --sleep`` heals the HP of 4 days in a healer's care and
    fills MP. ``--sleep`` alone is the night's sleep only; ``--healer`` without a number of
    days is 1 day's rest.
    """
    # The days of rest: those given, else 1 (a healer's care, or a rest with no --sleep),
    # else None for a night's sleep alone.
    days = args.days if args.days is not None else (
        1 if args.healer or not args.sleep else None)

    def change(c: Character) -> tuple[Character, str]:
        # GM-MAGIC-13: one dead of a Death Curse rests no more, as the HP-dead (GM-HEAL-1/2).
        refuse_cursed(rules, c.name, "rest and sleep (GM-HEAL-1/2) do not bring the dead back")
        said: list[str] = []
        after = c
        if days is not None:
            try:
                after, fee = rest(rules, c, days, args.healer)
            except FeeNotPaid as exc:
                # --sleep and the --set given are kept: run as printed without them, a fee
                # changed by --set was charged at the Default (r77genso NIT on e5b06290).
                again = ["genso", "rest", args.sheet, str(exc.days), "--healer",
                         *(["--sleep"] if args.sleep else []),
                         *(word for given in args.set for word in ("--set", given))]
                pays = (f"`{companion_line(*again)}` is what it pays for, or " if exc.days else
                        "it pays for no day in a healer's care; ")
                raise IllegalAction(f"{exc}; {pays}rest without --healer (1 HP per "
                                    f"{exc.alone_days} days)") from None
            told = f"{days} day's" if days == 1 else f"{days} days'"
            # The fee is 銀貨１枚 per HP (GM-HEAL-1), so it is shown in silver as the seed
            # says it.
            said.append(f"GM-HEAL-1 {told} rest: HP {c.hp} → {after.hp}"
                        + (f", healer's fee {coins_text(Purse(silver=fee))}"
                           if args.healer else "")
                        + (f" ({after.rest_days} of "
                           f"{rules.num('GM-HEAL-1', 'alone_days_per_hp')} days toward the "
                           "next HP, kept on the sheet)" if after.rest_days else ""))
        if args.sleep:
            slept = sleep(rules, after)
            said.append(f"GM-HEAL-2 {rules.num('GM-HEAL-2', 'sleep_hours')} hours' sleep: MP full"
                        + (f" ({after.mp} → {slept.mp})" if said else ""))
            after = slept
        return after, "\n".join(said)
    code = _change(args, rules, change, rest=True)
    # One character's rest is not the party's days, which only the GM passes on the
    # calendar; said while a curse counts from it (a77gensotown RISK 6: 100 days' rest left
    # a curse's countdown standing without a word).
    if days and (stays := calendar_stays(days, "when these days pass for the party",
                                         cursed_only=True)):
        note(stays)
    return code
