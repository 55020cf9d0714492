"""``companion coc ...``: Call of Cthulhu 6th-edition combat with seeds 003/004's house rules.

``coc roll 'CCB<=70'`` rolls BCDice Cthulhu notation; ``coc fight new`` starts a fight from
TOML sheets, ``coc fight act KIND ACTOR [TARGET] --with key=value`` plays an action,
``show``/``log``/``undo`` follow. The fight is written atomically after every action and
is replayed from its log on every load, so a power cut loses nothing.
"""

from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path
from typing import Any

from companion.app.commands.roll import add_dice_arguments, print_json, run_with_source
from companion.app.paths import data_dir
from companion.dice import DiceSource
from companion.errors import DataError
from companion.files import atomic_write_text
from companion.systems.coc.checks import roll_command
from companion.systems.coc.combat import Fight, Side, action_from_json
from companion.systems.coc.rules import CocRules, Profile, load_rules
from companion.systems.coc.sheet import sheet_from_mapping


def _rules(args: argparse.Namespace) -> CocRules:
    return load_rules(Profile(args.profile))


def _path(args: argparse.Namespace) -> Path:
    return Path(args.file) if args.file else data_dir() / "coc" / "fight.json"


def _emit(args: argparse.Namespace, data: dict[str, Any], text: str) -> int:
    if args.json:
        print_json(args, data) if hasattr(args, "dice") else print(
            json.dumps(data, ensure_ascii=False))
    else:
        print(text)
    return 0


def _status(fight: Fight) -> tuple[str, dict[str, Any]]:
    state = fight.state
    current = state.current.name if state.current else None
    lines = [f"profile {fight.rules.profile.value}  round {state.round}  turn: {current or '-'}"]
    rows = []
    for c in state.combatants:
        badges = [t.condition.value for t in c.conditions] + (["DEAD 死亡"] if c.dead else [])
        lines.append(f"{'▶' if c.name == current else ' '} {c.name:<12} HP {c.hp}/"
                     f"{c.sheet.max_hp}  AP {c.ap}  {' '.join(badges)}")
        rows.append({"name": c.name, "side": c.side.value, "hp": c.hp, "max_hp": c.sheet.max_hp,
                     "ap": c.ap, "dead": c.dead, "conditions": [t.condition.value
                                                               for t in c.conditions]})
    return "\n".join(lines), {"round": state.round, "current": current, "combatants": rows,
                              "actions": len(fight.journal)}


def _load(args: argparse.Namespace) -> Fight:
    path = _path(args)
    if not path.exists():
        raise DataError(f"no fight at {path}: start one with `companion coc fight new`")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: cannot read the fight ({exc})") from exc
    return Fight.from_json(load_rules(), data)


def _save(fight: Fight, path: Path) -> None:
    atomic_write_text(path, json.dumps(fight.to_json(), ensure_ascii=False, indent=1))


def _sheet(rules: CocRules, ref: str) -> Any:
    try:
        return sheet_from_mapping(rules, tomllib.loads(Path(ref).read_text(encoding="utf-8")),
                                  ref)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataError(f"{ref}: cannot read the sheet ({exc})") from exc


def cmd_roll(args: argparse.Namespace) -> int:
    rules = _rules(args)

    def body(source: DiceSource) -> int:
        result = roll_command(" ".join(args.expression), source, rules)
        return _emit(args, result.to_json(), result.text)

    return run_with_source(args, body)


def cmd_fight(args: argparse.Namespace) -> int:
    path = _path(args)
    if args.verb == "new":
        if path.exists() and not args.force:
            raise DataError(f"a fight is saved at {path}; pass --force to start over")
        rules = _rules(args)
        entrants = [(_sheet(rules, r), Side.INVESTIGATORS) for r in args.investigators]
        entrants += [(_sheet(rules, r), Side.FOES) for r in args.foes]

        def start(source: DiceSource) -> int:
            fight = Fight(rules, entrants, source)
            _save(fight, path)
            text, data = _status(fight)
            return _emit(args, data, f"{fight.opening.text}\n\n{text}")

        return run_with_source(args, start)
    fight = _load(args)
    if args.verb in ("show", "log"):
        text, data = _status(fight)
        if args.verb == "log":
            text = "\n".join([fight.opening.text, *(e.text for e in fight.journal)])
            data["journal"] = [e.to_json() for e in fight.journal]
        return _emit(args, data, text)
    if args.verb == "undo":
        entry = fight.pop()
        _save(fight, path)
        text, data = _status(fight)
        return _emit(args, {**data, "undone": entry.to_json()}, f"undone: {entry.text}\n{text}")
    raw: dict[str, Any] = {"kind": args.kind, "actor": args.actor}
    if args.target:
        raw["target" if args.kind != "throw" else "at"] = args.target
    for item in args.with_ or []:
        key, _, value = item.partition("=")
        try:
            raw[key] = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            raw[key] = value
    action = action_from_json(raw)

    def body(source: DiceSource) -> int:
        entry = fight.push(action, source)
        _save(fight, path)
        text, data = _status(fight)
        return _emit(args, {**data, "entry": entry.to_json()}, f"{entry.text}\n\n{text}")

    return run_with_source(args, body)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "coc", help="Call of Cthulhu 6e combat, house rules of seeds 003/004",
        description="BCDice Cthulhu rolls (CCB<=70, CBR(x,y), RES(a-p)) and a fight tracker "
                    "for profiles 003 and 004 (spec §3), saved after every action.")
    sub = parser.add_subparsers(dest="sub", required=True, metavar="SUB")
    rolls = sub.add_parser("roll", help="roll CC/CCB/CBR/CBRB/RES/RESB or plain dice")
    rolls.add_argument("expression", nargs="+")
    fight = sub.add_parser("fight", help="new, show, log, undo, act")
    verbs = fight.add_subparsers(dest="verb", required=True, metavar="VERB")
    new = verbs.add_parser("new", help="start a fight from TOML sheets")
    new.add_argument("--investigators", nargs="+", required=True)
    new.add_argument("--foes", nargs="+", required=True)
    new.add_argument("--force", action="store_true")
    act = verbs.add_parser("act", help="play an action, e.g. act attack Ann Cult --with ma=true")
    act.add_argument("kind", choices=("attack", "grapple", "choke", "throw", "break_free",
                                      "reload", "clear_jam", "treat", "move", "end_turn"))
    act.add_argument("actor")
    act.add_argument("target", nargs="?")
    act.add_argument("--with", dest="with_", action="append", metavar="KEY=VALUE",
                     help="weapon=1, defence=dodge, ma=true, burst=true, shots=2, skill=medicine")
    for name in ("show", "log", "undo"):
        verbs.add_parser(name)
    for p in (rolls, *verbs.choices.values()):
        p.add_argument("--json", action="store_true", help="print JSON")
        p.add_argument("--profile", choices=("003", "004"), default="003")
        p.add_argument("--file", help="the fight file (default: the data folder)")
        if p in (rolls, new, act):
            add_dice_arguments(p)
    rolls.set_defaults(func=cmd_roll)
    fight.set_defaults(func=cmd_fight)
