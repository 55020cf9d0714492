"""``companion coc ...``: Call of Cthulhu 6th-edition combat with seeds 003/004's house rules.

``coc roll 'CCB<=70'`` rolls BCDice Cthulhu notation; ``coc fight new`` starts a fight from
TOML sheets (over one that is over with no ``--force``), ``coc fight act KIND ACTOR [TARGET]
--with key=value`` plays an action, ``end`` is the Keeper's end of it, ``show``/``log``/
``undo`` follow; ``coc defaults`` lists every Default and profile cell.
The fight is written atomically after every action and is replayed from its log on every
load, so a power cut loses nothing. Defaults come from the packaged rules, then
``coc.toml`` in the config folder (``[defaults."RULE-ID"]``), then ``--set RULE.key=value``;
a new fight keeps the settings it started with in its file.

Dice: ``--dice sim`` (default) or ``typed`` for everything. ``--dice camera`` reads only the
d6-based dice (D6, and D3/D2 as a D6 halved, rounded up): the damage. A d100 (and any other
die) is never read by the camera: it comes from ``--d100 typed`` or ``--d100 sim``, as in
``companion play --mode coc``; without ``--d100`` such a roll stops with an error saying
so, and nothing is saved. ``manual``, the old word, still means typed after either option.

The sheets ``fight new`` reads are described in docs/sheets.md.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import textwrap
import tomllib
import unicodedata
from pathlib import Path
from typing import Any

from companion.app.arg_types import file_name
from companion.app.coc_badges import applying
from companion.app.coc_badges import badges as coc_badges
from companion.app.combatants import names_apart
from companion.app.command_list import COMMANDS
from companion.app.command_name import companion_command, file_option
from companion.app.commands.fight_not_saved import action_saved
from companion.app.commands.roll import (
    NotForCamera,
    add_dice_arguments,
    ask_on_terminal,
    camera_refusal,
    emit,
    pad,
    run_with_source,
    shown,
    take_negative_expressions,
    typed_alias,
)
from companion.app.commands.roll import dice_source as plain_source
from companion.app.help_format import cell_len, cell_wrap
from companion.app.modes.fight_replaced import (
    at_the_table,
    holding_fight,
    refuse_replacing,
    replace_fight,
)
from companion.app.modes.fight_unchanged import AsLoaded, loaded, saving_over
from companion.app.overrides import (
    add_set_argument,
    how_to_set,
    read_text,
    set_values,
    user_defaults,
)
from companion.app.paths import config_dir, data_dir
from companion.app.session.save import NewerFightFile, json_fault
from companion.dice import DiceSource, ManualDice, ScriptedDice, SimulatedDice
from companion.dice.notation import LINE_WIDTH, DiceSyntaxError, parse
from companion.errors import DataError, IllegalAction, NewerFight, utf8_text
from companion.file_locks import FileInUse, holder_of
from companion.files import (
    atomic_write_text,
    file_there,
    loads_json,
    loads_toml,
)
from companion.systems.coc.checks import roll_command
from companion.systems.coc.combat import (
    ACTIONS,
    KEEPER_ACTIONS,
    Attack,
    EndFight,
    Fight,
    Side,
    action_from_json,
)
from companion.systems.coc.combat.fight import ruled_text
from companion.systems.coc.rounding import GLOBAL_RULE
from companion.systems.coc.rules import ROW_NOTES, CocRules, Profile, check_dying, load_rules
from companion.systems.coc.sheet import Sheet, old_budo_note, sheet_from_mapping
from companion.systems.defaults import (
    DEFAULT_TAG,
    fixed_readings,
    listing,
    notes_text,
    readings_text,
)

SET_EXAMPLE = "CO-BASE-7.parries_per_round=2"
OVERRIDES_NAME = "coc.toml"
CAMERA_SIDES = (6, 3, 2)  # d6-based: a D3 or D2 is a D6 halved, rounded up


class CameraNotForThisDie(DataError):
    """A die the camera cannot read (a d100, a d20, ...) was about to be asked of it."""


class CameraD6Dice:
    """``--dice camera``: d6-based dice from the camera, every other die from ``other``.

    A D3 or D2 is read as a D6 and halved or thirded (1-2 → 1, 3-4 → 2, 5-6 → 3 for a D3).
    With no ``other`` source a d100 stops with :class:`CameraNotForThisDie`.
    """

    def __init__(self, camera: DiceSource, other: DiceSource | None) -> None:
        self.camera = camera
        self.other = other

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        if sides in CAMERA_SIDES:
            return [-(-face * sides // 6)
                    for face in self.camera.roll(count, 6, purpose=purpose)]
        if self.other is None:
            raise CameraNotForThisDie(
                f"a {count}D{sides} cannot come from the camera: the camera reads only d6-based "
                f"dice (damage); d100 is typed or simulated, add --d100 typed or --d100 sim")
        return self.other.roll(count, sides, purpose=purpose)

    def types(self, sides: int) -> bool:
        """Whether a die of ``sides`` is typed on the terminal (``--d100 typed``), not read
        by the camera: said so at a Ctrl-C (:func:`~companion.app.commands.roll.say_stopped`)."""
        return sides not in CAMERA_SIDES and isinstance(self.other, ManualDice)


def camera_source(args: argparse.Namespace) -> DiceSource:
    """The camera dice reader (a seam the tests replace)."""
    return plain_source(args)


def dice_source(args: argparse.Namespace) -> DiceSource:
    if args.dice != "camera":
        return plain_source(args)
    other: DiceSource | None = None
    if args.d100 == "typed":
        other = ManualDice(ask_on_terminal)
    elif args.d100 == "sim":
        if args.seed is None:
            args.seed = secrets.randbits(32)
        other = SimulatedDice.seeded(args.seed)
    return CameraD6Dice(camera_source(args), other)


def _rules(args: argparse.Namespace) -> CocRules:
    try:
        origin, defaults = user_defaults(OVERRIDES_NAME)
        sources = ((origin, defaults), ("--set", set_values(args.set or [], SET_EXAMPLE)))
        rules = load_rules(Profile(args.profile or "003"))
        for where, overrides in sources:
            rules = rules.with_overrides(overrides, where)
        check_dying(rules, sources)
        return rules
    except DataError as exc:
        if "not TOML" in str(exc) and _bare_section_sign():
            raise DataError(f"{exc}: TOML takes no § in a bare key; quote it, "
                            f"[defaults.\"{GLOBAL_RULE}\"]") from None
        raise


def _bare_section_sign() -> bool:
    """Whether coc.toml names §0.3's table unquoted (``[defaults.§0.3]``), which tomllib
    refuses as "Invalid initial character for a key part" (review61a N8). Read as the file
    itself is (:func:`~companion.errors.utf8_text`): a byte-order mark before it hid the hint
    for a table on line 1 (reviewj68 NIT 2)."""
    path = config_dir() / OVERRIDES_NAME
    try:
        text = utf8_text(path.read_bytes(), OVERRIDES_NAME, path)
    except (OSError, DataError):
        return False
    return any("".join(line.split()).startswith("[defaults.§") for line in text.splitlines())


def _rules_of(args: argparse.Namespace) -> CocRules:
    """``coc roll``/``coc defaults``: with ``--file``, the saved fight's profile and settings
    (a 004 fight's 95 is 失敗, not 003's 致命的失敗); else the profile and Defaults asked for."""
    if not args.file:
        return _rules(args)
    rules = load_fight(Path(args.file)).rules
    if args.set:
        raise DataError("--file uses the fight's own settings, kept since it began; "
                        "leave out --set")
    if args.profile and args.profile != rules.profile.value:
        raise DataError(f"{args.file} is a profile {rules.profile.value} fight, not "
                        f"{args.profile}: leave out --profile")
    return rules


def _default_path() -> Path:
    """The fight file ``coc fight`` and ``play --mode coc`` take with no ``--file``."""
    return data_dir() / "coc" / "fight.json"


def _path(args: argparse.Namespace) -> Path:
    return Path(args.file) if args.file else _default_path()


def _on(path: Path) -> str:
    """`` --file PATH`` for a hint's command on the fight at ``path`` when it is not the
    default one (r76coc D1: the hint's `coc fight undo` undid the default fight's action)."""
    return file_option(path, _default_path())


#: The `fight new` a hint names, with the sheets it cannot start without: named bare, or
#: with `--file PATH` alone, it was refused as typed ("the following arguments are required:
#: --investigators, --foes", f77carry item 4). SHEET.toml, as the table's hint says them.
_NEW_FIGHT = "coc fight new --investigators SHEET.toml --foes SHEET.toml"


def new_fight_forced() -> str:
    """The ``fight new --force`` that starts over from a fight file no command plays on, on
    the command line and at the table (:attr:`~companion.app.modes.fight_file.Table.new_hint`)."""
    return f"{companion_command()} {_NEW_FIGHT} --force"


#: The actions of a holder on the one it holds, which name no TARGET, with their rules
#: (without CO-MA-2, with it: 004's, 003's).
_OF_THE_HELD = {"choke": ("CO-GRAP-7", "CO-MA-2"),
                "let_go": ("the reading CO-GRAP-1 (let go)",) * 2}
#: Each of those actions as a refusal names it.
_OF_WHOM = {"choke": "a choke", "let_go": "letting go"}


#: The furthest in a row's badges go on below it: a long name, AP and square leave them
#: at least this many cells.
_BADGES_FROM = 40


def _row(lead: str, badges: tuple[str, ...]) -> list[str]:
    """A fighter's row: ``lead`` (name, HP, AP, square), then its badges parted by " · ", in
    lines of at most :data:`LINE_WIDTH` cells (a Japanese character taking two), broken
    between badges, each line but the last ending " ·" and the lines after the first under
    the badge column. A 003 hold that may choke or throw, with a stun, ran to 101 columns
    and a pin with a stun to come to 95 (r77coc RISK on b6b3c9b2); a badge wider than a
    line alone is broken between its words."""
    indent = " " * min(cell_len(lead), _BADGES_FROM)
    lines: list[str] = []
    line = lead
    for at, badge in enumerate(badges):
        last = at == len(badges) - 1
        joined = line + (" · " if line != lead else "") + badge
        if cell_len(joined) + (0 if last else 2) <= LINE_WIDTH:
            line = joined
            continue
        lines.append(line + " ·" if line != lead else line.rstrip())
        *whole, line = cell_wrap(badge, LINE_WIDTH - len(indent) - 2) or [""]
        lines += [indent + part for part in whole]
        line = indent + line
    return [*lines, line.rstrip()]


def _status(fight: Fight) -> tuple[str, dict[str, Any]]:
    state = fight.state
    current = state.current.name if state.current else None
    outcome = state.outcome()
    over = (f"  over: the {outcome.value} stand" if outcome
            else "  over: nobody stands" if state.over and all(c.out for c in state.combatants)
            else "  over: ended by the Keeper" if state.over else "")
    lines = [f"profile {fight.rules.profile.value}  round {state.round}  turn: {current or '-'}"
             + over]
    rows = []
    # CO-TURN-3: action points are profile 003's alone, and spent in the acting one's turn
    # only: shown (text and JSON) for the one acting, as on the table's screen; another's
    # count is what a turn already ended left, or a turn not yet begun, and means nothing.
    p003 = fight.rules.profile is Profile.P003
    for c in state.combatants:
        # What is on it, as the table's screen says it (one list, coc70 finding 2); a timed
        # condition only in the rounds it applies (finding 3).
        badges = coc_badges(c, state.round, current or "")
        where = f"  {c.square} {c.facing}" if c.square else ""
        ap = f"  AP {c.ap}" if p003 and c.name == current else ""
        lines += _row(f"{'▶' if c.name == current else ' '} {pad(c.name, 12)} HP {c.hp}/"
                      f"{c.sheet.max_hp}{ap}{where}  ", badges)
        rows.append({"name": c.name, "side": c.side.value, "hp": c.hp, "max_hp": c.sheet.max_hp,
                     "ap": c.ap if p003 and c.name == current else None, "dead": c.dead,
                     "square": c.square,
                     "facing": c.facing,
                     "san": c.san, "mp": c.mp, "bleeding": list(c.bleeding),
                     "lost": list(c.lost),
                     "conditions": [cond.value for cond in applying(c, state.round)],
                     # As "square": "" (0) when there is none.
                     "dying_until": c.dying_until, "stun": c.stun, "held_by": c.held_by,
                     "grappling": c.grappling, "grapple_options": c.grapple_options,
                     "pinning": c.pinning, "drawn": c.drawn,
                     "concentrating": c.concentrating, "chanting": c.chanting,
                     "badges": list(badges),
                     "characteristics": dict(c.sheet.characteristics),
                     "weapons": [{"key": w.info.key, "loaded": w.loaded,
                                  "durability": w.durability, "broken": w.broken,
                                  "jammed": w.jammed, "dropped": w.dropped,
                                  "lent": w.lent, "lent_from": w.lent_from}
                                 for w in c.sheet.weapons]})
    return "\n".join(lines), {"profile": fight.rules.profile.value, "round": state.round,
                              "current": current, "combatants": rows,
                              "outcome": outcome.value if outcome else None,
                              "over": state.over,
                              "actions": len(fight.journal)}


def _named(fight: Fight, name: str) -> str:
    """A typed ACTOR or TARGET: "Ａｎｎ" from a Japanese keyboard is Ann, as --with values are
    folded (NFKC); a sheet really named in full width keeps its name."""
    names = {c.name for c in fight.state.combatants}
    folded = unicodedata.normalize("NFKC", name)
    return name if name in names or folded not in names else folded


def load_fight(path: Path) -> Fight:
    """The saved fight, replayed from its log under the settings it keeps."""
    if not file_there(path):
        raise DataError(f"no fight at {path}: start one with "
                        f"`{companion_command()} {_NEW_FIGHT}{_on(path)}`")
    try:
        fight = _fight_on_file(path)
    except NewerFight as exc:
        # r77coc: a newer companion's fight is whole; `fight new --force` would set it
        # aside as one that cannot be read, where updating plays it on
        raise NewerFightFile(str(exc)) from exc
    except (DamagedFight, UnplayableFight) as exc:
        # What to do with it (hist70 D1): no command plays it on, and `fight new` refuses
        # to start over it unless forced, which keeps it aside (kept_if_unreadable). JSON
        # that does not replay is as stuck (a77cocgrapple RISK 4: it named no way out).
        # Loaded only here: it brings the table modes, 0.1 s of every coc command's start.
        from companion.app.modes.fight_file import cannot_play_on

        raise DataError(cannot_play_on(exc, new_fight_forced(), path, _default_path())) from exc
    # A format-1 file is told on each load until it is saved again; a setting kept out of
    # today's range, on each load.
    for note in fight.notes:
        print(f"companion: note: {path}: {note}", file=sys.stderr)
    if fight.reworded:
        shown = ", ".join(map(str, fight.reworded))
        which = "entries" if len(fight.reworded) > 1 else "entry"
        print(f"companion: note: {path} was saved by an older version; journal {which} "
              f"{shown} now read{'' if len(fight.reworded) > 1 else 's'} differently "
              f"(`{companion_command()} coc fight log{_on(path)}` shows the replay)",
              file=sys.stderr)
    return fight


class DamagedFight(DataError):
    """A fight file that is no JSON (empty, zero bytes, cut short: a power cut as it was
    written), said as genso's and the tables' are (:func:`json_fault`, hist70 D1)."""


class UnplayableFight(DataError):
    """A fight file that is JSON but does not load: a shape, an entry or a replay that is
    wrong (a die fixed by hand, a damaged card)."""


def _fight_on_file(path: Path) -> Fight:
    """The fight saved at ``path``, replayed; a DataError naming the file when it cannot be."""
    text = read_text(path, "fight file")
    try:
        data = loads_json(text)
    except json.JSONDecodeError as exc:
        # json's "Expecting value: line 1 column 1 (char 0)" said nothing of a power cut
        raise DamagedFight(f"{path}: not JSON ({json_fault(text, exc, 'fight file')})") from exc
    # Loaded only here, as cannot_play_on: a genso fight is said so, with the commands that
    # play it, not the `fight new --force` that would set it aside (r78coc RISK 3).
    from companion.app.modes.fight_file import refuse_other_systems

    refuse_other_systems(data, "coc", path)
    try:
        return Fight.from_json(load_rules(), data)
    except NewerFight as exc:
        raise NewerFight(f"{path}: {exc}") from exc
    except DataError as exc:
        raise UnplayableFight(f"{path}: {exc}") from exc


def save_fight(fight: Fight, path: Path) -> None:
    atomic_write_text(path, json.dumps(fight.to_json(), ensure_ascii=False, indent=1))


#: Where the help's sheets are (setup69 NIT 4): its examples name them bare, which works from
#: that folder alone.
SHEETS_TO_COPY = ("ann.toml, bob.toml and cultist.toml are in the checkout's docs/examples/: "
                  "run the examples there, or give the sheets' paths (docs/sheets.md)")
#: The same for the help pages, laid out by hand under their description: below the
#: examples, argparse refilled it and it read as one more example line.
_SHEETS_NOTE = "\n\n" + textwrap.fill(f"The examples' sheets {SHEETS_TO_COPY}.", 76)


def _sheet(rules: CocRules, ref: str, notes: list[str]) -> Sheet:
    """The sheet at ``ref``; its old-Budo note (:func:`old_budo_note`) added to ``notes``,
    said only once the fight file is written (a refused ``fight new`` says none)."""
    try:
        text = read_text(ref, "sheet")
    except DataError as exc:
        if isinstance(exc.__cause__, FileNotFoundError):  # the help's ann.toml (setup69 NIT 4)
            raise DataError(f"{exc} ({SHEETS_TO_COPY})") from exc.__cause__
        raise
    try:
        data = loads_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{ref}: not TOML ({exc})") from exc
    sheet = sheet_from_mapping(rules, data, ref)
    if note := old_budo_note(data):  # once, where the fight's copy is made
        notes.append(f"companion: note: {ref}: {note}")
    return sheet


def _refuse_for_camera(args: argparse.Namespace) -> None:
    """``coc roll`` with camera dice and no ``--d100``: a roll of the shared notation with a
    die the camera cannot read (a D4, a D20) is refused before any throw, naming the part,
    as ``roll`` refuses it (dice62 D3): it threw the D6s, read them, then stopped at the
    D4 and the throw was lost. A Cthulhu command (CC, CBR, RES) rolls its d100 first, so
    it stops before any throw already."""
    if args.dice != "camera" or args.d100 is not None:
        return
    try:
        command = parse(" ".join(args.expression))
    except DiceSyntaxError:
        return  # a Cthulhu command, or one the roll itself refuses
    why = camera_refusal(command, CAMERA_SIDES,
                         "add --d100 typed or --d100 sim for it, or use --dice sim or typed")
    if why is not None:
        raise NotForCamera(why)


def cmd_roll(args: argparse.Namespace) -> int:
    rules = _rules_of(args)
    _refuse_for_camera(args)

    def body(source: DiceSource) -> int:
        result = roll_command(" ".join(args.expression), source, rules)
        return emit(args, result.to_json(), shown(result), dice=True)

    return run_with_source(args, body, dice_source)


def cmd_defaults(args: argparse.Namespace) -> int:
    """Every Default and every profile cell (CO-CORE-2), each "(default)" or "(set by you)",
    and the range of a Default that has one (``[limits]``: CO-CORE-1 "1 to 101 and above 5
    (CO-CORE-1.critical_max_004)", CO-DEATH-1, ...) or its choices (CO-MA-2 "one of: facing,
    N, ..."); "range" and "choices" are left out of a JSON row without them (a profile
    cell never has them), and "note" what :data:`ROW_NOTES` says of it (CO-GRAP-2's ap is
    read only when each_turn is false; §0.3's words in Japanese, down 切り捨て …). Then the
    fixed readings (``data/readings.toml``: the spec's Defaults no setting changes), and how
    to change a setting."""
    rules = _rules_of(args)
    rows = [{**r, "note": ROW_NOTES[r["rule"], r["key"]]}
            if (r["rule"], r["key"]) in ROW_NOTES else r
            for r in listing(rules.entries(), rules.defaults)]
    readings = fixed_readings("companion.systems.coc", rules.defaults)
    text = "\n".join(f"{r['rule']:<12} {r['key']:<28} "
                     f"{json.dumps(r['value'], ensure_ascii=False)}"
                     + (DEFAULT_TAG if r["default"] else "  (set by you)")
                     + notes_text(r) + (f"  ({r['note']})" if "note" in r else "")
                     for r in rows)
    return emit(args, {"profile": rules.profile.value, "defaults": rows,
                       "fixed_readings": readings},
                text + "\n" + readings_text(readings, 12) + "\n"
                + how_to_set(OVERRIDES_NAME, SET_EXAMPLE))


def cmd_fight(args: argparse.Namespace) -> int:
    path = _path(args)
    # A file where the fight's folder should be is named, not the fight ("cannot read
    # …/coc/fight.json: Not a directory"), as genso's cmd_fight names it (reviewh68):
    # file_there raises so.
    file_there(path)
    if args.verb == "new":
        # A fight that is over is written over (cli59 F2); one under way only with --force.
        if file_there(path) and not args.force:
            try:
                over = _fight_on_file(path).state.over
            except DataError as exc:
                raise refuse_replacing(path, fault=exc) from None
            if not over:
                raise DataError(f"{refuse_replacing(path)}; or end it first with "
                                f"`{companion_command()} coc fight end{_on(path)}`")
        # Asked before the opening's dice (typed, or the camera's): a table playing the file
        # refused the new fight only once they were thrown. Not held while they are asked
        # for, which a GM gone from the prompt keeps open for ever.
        holder = holder_of(path)
        if holder is not None:
            raise _at_the_table(FileInUse(
                f"{path} is in use by another companion ({holder}); {holder.stop}, then "
                f"{_NEW_AGAIN}: the fight saved there was left as it was", holder),
                path, _NEW_AGAIN)
        return _new_fight(args, path)
    if args.verb in ("show", "log"):
        return _fight_verb(args, path)  # reading: beside a table or another command too
    verb = f"act {args.kind}" if args.verb == "act" else args.verb
    if args.verb == "end" and _over(path):
        # Said before the hold: a table showing the fight over holds the file, and its
        # "press Close and run fight end again" could only lead to this (review59a N1).
        raise IllegalAction("the fight is over already: nothing to end "
                            f"(`{companion_command()} {_NEW_FIGHT}{_on(path)}` starts the next "
                            "one, with no --force)")
    if args.verb in ("undo", "end"):
        # No dice asked for: held from the load to the save, so nothing written meanwhile
        # (another command's, a table's started meanwhile) is written over.
        with holding_fight(path, "coc", verb, lambda: _over(path)):
            return _fight_verb(args, path)
    # An action: held a moment for the load (a table playing the file refuses it before any
    # dice are asked for) and again for the save, refused if the file changed between; not
    # while the dice are asked for, which a GM gone from the prompt keeps open for ever.
    with holding_fight(path, "coc", verb, lambda: _over(path)):
        before = loaded(path)
        fight = load_fight(path)
    return _fight_verb(args, path, (before, fight))


_NEW_AGAIN = "start the new fight again"


def _at_the_table(exc: FileInUse, path: Path, then: str) -> FileInUse:
    """``exc`` as said when the coc table holds ``path`` showing its fight over
    (:func:`at_the_table`)."""
    return at_the_table(exc, path, "coc", lambda: _over(path), then)


def _over(path: Path) -> bool:
    """Whether the fight saved at ``path`` is over: a side won, nobody stands or the Keeper
    ended it (False when it does not load)."""
    try:
        return _fight_on_file(path).state.over
    except DataError:
        return False


def _new_fight(args: argparse.Namespace, path: Path) -> int:
    rules = _rules(args)
    notes: list[str] = []
    entrants = [(_sheet(rules, r, notes), Side.INVESTIGATORS) for r in args.investigators]
    entrants += [(_sheet(rules, r, notes), Side.FOES) for r in args.foes]
    names_apart(zip([*args.investigators, *args.foes], [s.name for s, _ in entrants],
                    strict=True))

    def start(source: DiceSource) -> int:
        fight = Fight(rules, entrants, source)
        # Only now, the new fight made: a sheet refused above leaves the old file there.
        try:
            replace_fight(path, _fight_on_file, lambda: save_fight(fight, path),
                          "companion coc fight", None if args.force else refuse_replacing(
                              path, "saved there by another command while the opening "
                              "dice were asked for: they are dropped, and nothing was "
                              "written"), over=lambda old: old.state.over)
        except FileInUse as exc:  # taken up while the opening's dice were asked for
            raise _at_the_table(exc, path, _NEW_AGAIN) from None
        for note in notes:
            print(note, file=sys.stderr)
        text, data = _status(fight)
        return emit(args, {**data, "path": str(path), "opening": list(fight.opening.lines)},
                    f"{fight.opening.text}\n\n{text}", dice=True)

    return run_with_source(args, start, dice_source)


def _fight_verb(args: argparse.Namespace, path: Path,
                action_on: tuple[AsLoaded, Fight] | None = None) -> int:
    """Every verb but ``new``, on the fight saved at ``path``; an action's on the fight
    ``action_on`` loaded, saved only over the file as it was loaded (:func:`saving_over`)."""
    before, fight = action_on or (loaded(path), load_fight(path))
    if args.verb in ("show", "log"):
        text, data = _status(fight)
        if args.verb == "log":
            text = "\n".join([ruled_text(fight.opening.lines),
                              *(ruled_text(e.lines) for e in fight.journal)])
            data["opening"] = list(fight.opening.lines)
            data["journal"] = [e.to_json() for e in fight.journal]
        return emit(args, data, text)
    if args.verb == "undo":
        entry = fight.pop()
        with action_saved(path, "coc fight undo", args):
            save_fight(fight, path)
        text, data = _status(fight)
        return emit(args, {**data, "undone": entry.to_json()}, f"undone: {entry.text}\n{text}")
    if args.verb == "end":
        # The Keeper's end, as an action: saved, and taken back by `fight undo`; no dice.
        entry = fight.push(EndFight(), ScriptedDice([]))
        with action_saved(path, "coc fight end", args):
            save_fight(fight, path)
        text, data = _status(fight)
        return emit(args, {**data, "entry": entry.to_json()},
                    f"{ruled_text(entry.lines)}\n\n{text}")
    raw: dict[str, Any] = {"kind": args.kind, "actor": _named(fight, args.actor)}
    if args.target and args.kind in _OF_THE_HELD:
        # a77cocgrapple NIT 7: "the choke action has no 'target' (its fields: actor, skill)"
        # did not say whom a choke or letting go is of; an ACTOR not in the fight is said as
        # such first (r77coc: it was told to write `act choke Zed`, then refused)
        held = fight.state.get(raw["actor"]).grappling
        rule = _OF_THE_HELD[args.kind][fight.rules.on("CO-MA-2")]
        if not held:  # "the one Ann holds (nobody now)" read awkwardly (r77coc NIT)
            raise IllegalAction(f"{args.kind} takes no TARGET, and {raw['actor']} holds nobody "
                                f"now: {_OF_WHOM[args.kind]} is of the one held ({rule})")
        raise IllegalAction(f"{args.kind} takes no TARGET: it is of the one {raw['actor']} "
                            f"holds ({held}): `act {args.kind} {raw['actor']}` ({rule})")
    if args.target:
        raw["target" if args.kind != "throw" else "at"] = _named(fight, args.target)
    for item in args.with_ or []:
        # Full-width digits and letters (weapon=１, to=ａ４) are what a Japanese keyboard
        # types; `coc roll` takes them, so --with does too (NFKC folds them to ASCII).
        key, sep, value = unicodedata.normalize("NFKC", item).partition("=")
        if not sep:
            raise DataError(f"--with {item!r}: write key=value, e.g. weapon=1")
        try:
            raw[key] = loads_toml(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            raw[key] = value
    action = action_from_json(raw)
    if fight.state.over:
        # a76cocother NIT 5: the help says a Keeper's event comes at any moment while the
        # fight is on; after it, the bare "the fight is over" left the Keeper with no way on
        keeper = isinstance(action, KEEPER_ACTIONS)
        ended = bool(fight.journal) and isinstance(fight.journal[-1].action, EndFight)
        raise IllegalAction(
            "the fight is over: "
            + (f"a Keeper's event ({action.kind}) is played only while it is on"
               if keeper else "no action after it")
            + (f"; `{companion_command()} coc fight undo{_on(path)}` takes back the Keeper's end"
               if ended else ""))
    if (isinstance(action, Attack) and action.shots != 1
            and fight.rules.profile is Profile.P003):
        # The engine takes one shot an AP in 003; shots=2 there fired one without a word.
        raise DataError(f"--with shots={action.shots}: in 003 a shot is one attack for 1 AP "
                        "(CO-TURN-3, CO-FIRE-2); act attack again for the next shot")

    def body(source: DiceSource) -> int:
        entry = fight.push(action, source)
        verb = f"act {args.kind}"
        with saving_over(before, f"companion coc fight {verb}", verb), \
                action_saved(path, f"coc fight {verb}", args, entry.dice):
            save_fight(fight, path)  # refused by the disk: said so, with the dice (hist72 D2)
        text, data = _status(fight)
        return emit(args, {**data, "entry": entry.to_json()},
                     f"{ruled_text(entry.lines)}\n\n{text}", dice=True)

    return run_with_source(args, body, dice_source)


D100_CHOICES = ("typed", "sim")  # as `companion play --d100` and the setting dice.d100


def _dice_arguments(parser: argparse.ArgumentParser) -> None:
    add_dice_arguments(parser)
    parser.add_argument("--d100", type=typed_alias, choices=D100_CHOICES, default=None,
                        help="with --dice camera: where d100 and the other dice the camera "
                             "cannot read come from: typed on the terminal, or simulated "
                             "(the camera reads d6-based dice only)")


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "coc", help=COMMANDS["coc"].help,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="BCDice Cthulhu rolls (CCB<=70, CBR(x,y), RES(a-p)) and a fight tracker\n"
                    "for profiles 003 and 004 (spec §3), saved after every action. The\n"
                    "profile is chosen by `roll`, `defaults` and `fight new` (--profile\n"
                    "003|004); a fight keeps its own." + _SHEETS_NOTE,
        epilog="examples:\n"
               "  companion coc roll 'CCB<=70' --profile 004\n"
               "  companion coc fight new --investigators ann.toml --foes cultist.toml\n"
               "  companion coc fight act attack Ann Cultist --with defence=dodge\n"
               "  companion coc defaults --profile 004")
    sub = parser.add_subparsers(dest="sub", required=True, metavar="SUB")
    rolls = sub.add_parser(
        "roll", help="roll CC/CCB/CBR/CBRB/RES/RESB (x3 CC<=50 repeats one) or plain dice",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Roll one BCDice Cthulhu command: CC/CCB<=skill (1D100 with 003's or\n"
                    "004's criticals and fumbles, CO-CORE-1), CBR(x,y) (a combination\n"
                    "roll), RES(active-passive) (the resistance table, CO-CORE-3), their\n"
                    "B forms, xN to repeat one, or plain dice (2D6+1).",
        epilog="examples:\n"
               "  companion coc roll 'CCB<=70' Spot Hidden\n"
               "  companion coc roll 'CBR(60,50)' --profile 004\n"
               "  companion coc roll 'x3 CC<=50' --dice typed")
    rolls.add_argument("expression", metavar="EXPR", nargs="+",
                       help="one command, e.g. 'CCB<=70' or 'x3 CC<=50'; words after it are "
                            "the comment")
    take_negative_expressions(rolls)
    defaults = sub.add_parser(
        "defaults", help="every Default and profile cell, and whose it is",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Every Default and profile cell of the profile (or of the fight with\n"
                    "--file), each marked (default) or (set by you), with its range or\n"
                    "choices; then the fixed readings and how to change a setting\n"
                    "(coc.toml in the config folder, or --set). The first, §0.3.rounding,\n"
                    "is the spec's global rounding of a share whose rule names none: down\n"
                    "切り捨て (the Default), nearest 四捨五入 or up 切り上げ; in coc.toml its\n"
                    "table's key is quoted, [defaults.\"§0.3\"].",
        epilog="examples:\n"
               "  companion coc defaults --profile 004\n"
               f"  companion coc defaults --set {SET_EXAMPLE} --json\n"
               "  companion coc defaults --set §0.3.rounding=nearest")
    fight = sub.add_parser(
        "fight", help="new, act, show, log, undo, end",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="A fight from TOML sheets, saved after every action (in the data\n"
                    "folder, or --file) and replayed from its log on every load." + _SHEETS_NOTE,
        epilog="examples:\n"
               "  companion coc fight new --investigators ann.toml bob.toml --foes cultist.toml\n"
               "  companion coc fight act place Ann --with square=e2\n"
               "  companion coc fight show\n"
               "  companion coc fight end")
    verbs = fight.add_subparsers(dest="verb", required=True, metavar="VERB")
    new = verbs.add_parser(
        "new", help="start a fight from TOML sheets",
        description="Start a fight from TOML sheets, one per combatant (the format, with "
                    "examples: docs/sheets.md and docs/examples/ann.toml, bob.toml, "
                    "cultist.toml). The fight is saved in the data folder (or --file).")
    new.add_argument("--investigators", nargs="+", required=True, metavar="SHEET",
                     help="the investigators' sheet files (.toml), one per investigator")
    new.add_argument("--foes", nargs="+", required=True, metavar="SHEET",
                     help="the foes' sheet files (.toml), one per foe")
    new.add_argument("--force", action="store_true",
                     help="start over a fight still under way: it is kept beside the new one "
                          "as <its name>.replaced-… (one that cannot be read: .corrupt-…); a "
                          "fight that is over is written over, --force or not, and no copy is "
                          "kept")
    act = verbs.add_parser(
        "act", help="play an action, e.g. act attack Ann Cultist --with weapon=1 --with ma=true",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play one action of the one whose turn it is (or a Keeper's event:\n"
                    "place, burn, fall, san_loss, at any moment while the fight is on),\n"
                    "with its fields as --with KEY=VALUE; the dice come from --dice. A\n"
                    "refused action says why, with its rule ID, and nothing is saved.",
        epilog="examples:\n"
               "  companion coc fight act attack Ann Cultist --with weapon=1 --with ma=true\n"
               "  companion coc fight act attack Cultist Ann --with defence=dodge\n"
               "  companion coc fight act move Ann --with to=d4\n"
               "  companion coc fight act san_loss Bob --with amount=3\n"
               "  companion coc fight act end_turn Ann")
    act.add_argument("kind", choices=sorted(set(ACTIONS) - {EndFight.kind}), metavar="KIND",
                     help="the action, one of: " + ", ".join(
                         sorted(set(ACTIONS) - {EndFight.kind})))
    act.add_argument("actor", metavar="ACTOR",
                     help="who acts, by name (for the Keeper's events: who is placed, "
                          "burned, falls or loses SAN)")
    act.add_argument("target", nargs="?", metavar="TARGET",
                     help="whom the action is aimed at, by name (attack, grapple, tackle, "
                          "treat, spot; for throw, whom the held one is thrown at); none "
                          "for the rest")
    act.add_argument("--with", dest="with_", action="append", metavar="KEY=VALUE",
                     help="any field of the action, e.g. weapon=1, defence=dodge|parry|counter, "
                          "ma=true, ma_option=forced|follow_up (004, with ma=true), "
                          "fumble=fall|break (CO-MELEE-4; left out: automatic), "
                          "burst=true, shots=2, skill=medicine, called=head, "
                          "body=cut, part=arm, distance_m=40, surprise=hide, to=d4, damage=7, "
                          "parry_with=hands|ma|budo|grapple|iai, cover=hide|dodge, "
                          "after_dodge=true, fatal_blow=true (CO-DODGE-5), from_behind=true "
                          "(off 003's board), option=blow_back|knock_down (tackle, "
                          "CO-TACKLE-2/3), obstacle=true (with blow_back), height_m=6 (004's "
                          "throw from a height, CO-GRAP-8), toward=N (a throw on 003's board), "
                          "at_dodges=true (003's throw at TARGET, CO-MA-2), "
                          "skill=budo_grappling (004's choke or throw, CO-GRAP-6)")
    for name, text in (("show", "the round, whose turn it is (with its AP in 003), and "
                                "everyone's HP, square and what is on them, as the table "
                                "shows it: conditions, grapples, stun, bleeding, lost "
                                "parts, a drawn blade, weapons broken, jammed or dropped"),
                       ("log", "every action so far, line by line with its dice (and the "
                               "rule ID where a line names one)"),
                       ("undo", "take back the last action (the fight is saved again)"),
                       ("end", "the Keeper ends the fight where it stands (the foes flee, "
                               "the Keeper stops it); saved as an action, so `fight undo` "
                               "takes it back, and the next `fight new` needs no --force (the "
                               "table's Close closes the table and leaves the fight under "
                               "way)")):
        verbs.add_parser(name, help=text, description=text)
    for p in (rolls, defaults, *verbs.choices.values()):
        p.add_argument("--json", action="store_true", help="print JSON")
        p.add_argument("--file", type=file_name,
                       help="the fight file (default: the data folder)")
        if p in (rolls, defaults, new):
            p.add_argument("--profile", choices=("003", "004"), default=None,
                           help="which seed's rules: 003 (the default) or 004"
                                + ("" if p is new else "; with --file the fight's own "
                                   "profile is used, so leave --profile out"))
            add_set_argument(p, SET_EXAMPLE)
        if p in (rolls, new, act):
            _dice_arguments(p)
    rolls.set_defaults(func=cmd_roll)
    defaults.set_defaults(func=cmd_defaults)
    fight.set_defaults(func=cmd_fight)
