"""``companion events TABLE``: roll a seed-001 event table and walk its follow-ups (spec §1).

Defaults come from the packaged rules data, then ``events.toml`` in the config
folder (same ``[defaults."RULE-ID"]`` shape), then ``--set RULE.key=value``.
``companion events defaults`` lists them all with where each value came from.

A poison a table gives is tracked (:mod:`companion.app.poisons`) for the actions of
EV-POI-2's Default: ``end-block`` and ``rest`` tick it, ``poisoned`` lists what is tracked
and ``cure`` removes one; a recovery spot (EV-REC-1) cures them all; ``act`` rolls the
check a 判定－１ poison asks before an active action (EV-POI-5). In sw mode the HP and MP
the tables change (trap damage, a pit, a poison's ticks, a recovery) are kept between
commands (:mod:`companion.app.party_hp`, cli59 F4; ``party`` lists them): the party file
is never written, and a value the GM edits in it wins. A recovery spot
in a room named with ``--room`` works once (:mod:`companion.app.recovery_rooms`):
``rooms`` lists the used rooms and ``new-dungeon`` forgets them.

A table's roll that the data folder refuses to record (full, read-only) is still shown,
and one line on stderr says what was not recorded and what to do; the command exits 1.
A recovery spot's room is marked first, as pending with what it is to keep, then its cure
(the poison list) and its HP are kept, then the mark is settled: a cut between the writes
leaves the spot spent, the same command run again is refused it, never given a second
recovery (events74 RISK 3), and the next run says what may not have been kept (reviewe74
RISK 5). A room another run marked meanwhile is refused, not recovered twice. A write the
disk refuses after the room takes its mark back: a spot whose cure or HP was not kept is
not spent.

A walk with thrown or typed dice stopped part-way (the input ended, Ctrl-C, the camera
gave up) says on stderr the steps the dice already taken walked, before the error
(:func:`say_walked`): a camera's throws cannot be read again.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.app.command_list import COMMANDS
from companion.app.command_name import companion_command
from companion.app.commands.roll import (
    add_dice_arguments,
    print_json,
    refuse_idle_seed,
    refuse_idle_source,
    run_with_source,
)
from companion.app.notes import note
from companion.app.options import OnlyWith, refuse_stray_options
from companion.app.overrides import (
    add_set_argument,
    how_to_set,
    parse_set,
    read_text,
    set_values,
    user_defaults,
)
from companion.app.party_hp import (
    PARTY_NAME,
    PartyHP,
    given_or_saved,
    party_hp_path,
    poison_hp_lost,
    pools_text,
    say_unkept,
    user_party,
)
from companion.app.paths import config_dir
from companion.app.poisons import (
    UNNAMED,
    PoisonList,
    Tracked,
    beside_notes,
    poisons_path,
    tracking_notes,
)
from companion.app.recovery_rooms import RecoveryRooms, room_name, rooms_path
from companion.dice import DiceSource
from companion.errors import CompanionError, DataError, error_text
from companion.systems.defaults import (
    RuleRefused,
    fixed_readings,
    listing,
    notes_text,
    readings_text,
    refuse_control,
)
from companion.systems.events.lists import LIST_TABLES, UserLists, load_lists
from companion.systems.events.poisoned import Poison, describe, ended, same_name, tracked_name
from companion.systems.events.report import EventReport, Step
from companion.systems.events.rules import (
    EVENT_TABLES,
    REACHES,
    TABLE_NAMES_JA,
    EventRules,
    Mode,
    NoParty,
    load_rules,
    refused_reach,
)
from companion.systems.events.run import refuse_reach, run_active_action, run_event
from companion.systems.events.sword_world import (
    RATINGS_FORM,
    Member,
    folded_name,
    load_rating_table,
)

SET_EXAMPLE = "EV-DOOR-3.enabled=true"
OVERRIDES_NAME = "events.toml"
#: The player's lists for every run and the dice tray, in the config folder; --lists wins.
LISTS_NAME = "events_lists.toml"
#: The actions on the tracked poisons (EV-POI-2's Default), beside the tables.
POISON_ACTIONS = {
    "end-block": "tick every tracked poison once: the party's actions in a block are over",
    "rest": "rest in a room for --hours (default 1): poisons tick every hour",
    "poisoned": "list the tracked poisons",
    "cure": "cure --who NAME's poison: Cure Poison (or Remove Curse) beat its toxicity",
}
#: The reach (:data:`~companion.systems.events.rules.REACHES`) each action that reads
#: rules is refused on up front, before it writes the poison list or the HP; ``poisoned``
#: only lists, and reads no setting.
ACTION_REACHES = {"end-block": "tick", "rest": "tick", "cure": "cure", "act": "act"}
#: The check a tracked 判定－１ poison asks before an active action (EV-POI-5).
ACT = {"act": "--who NAME tries an active action: vitality vs their 判定－１ poison's toxicity"}
#: The party's HP and MP as the tables left them (cli59 F4: the party file is never written).
PARTY_ACTIONS = {
    "party": "list each member's HP and MP now: the party file's, less the damage and plus "
             "the recovery the tables gave since; --reset [NAME] goes back to the party "
             "file's values (everyone's, or NAME's)",
}
#: The actions on the rooms whose recovery spot was used (EV-REC-1).
ROOM_ACTIONS = {
    "rooms": "list the rooms whose recovery spot was used",
    "new-dungeon": "forget the used recovery rooms: the next dungeon's are fresh",
}
#: The options that go with some TABLEs only: those TABLEs, and how an error names them.
ONLY_WITH: OnlyWith = {
    "who": (("poison", "trap", "cure", "act"), "the poison and trap tables, cure and act"),
    "hours": (("rest",), "rest"),
    "room": (("recovery",), "recovery"),
    "reset": (("party",), "party"),
    "found": (("explore",), "the explore table"),
    "trap": (("trap",), "the trap table"),  # not passed over: rest --trap pit ticked (a77events)
}


#: The example party, packaged beside the rules data, to copy as one's own.
EXAMPLE_PARTY = Path(__file__).parents[2] / "systems" / "events" / "data" / "example_party.toml"


@contextlib.contextmanager
def party_needed() -> Iterator[None]:
    """sw mode with no party (:class:`NoParty`) said with where a party goes: the full
    path of the config folder's, the example to copy, and the option (cli59 F11)."""
    try:
        yield
    except NoParty as exc:
        raise NoParty(
            f"sw mode needs the party: give a party TOML file of [[member]] tables with "
            f"`{companion_command()} events TABLE --party FILE`, or save one as "
            f"{config_dir() / PARTY_NAME} "
            f"to serve every run; copy the example {EXAMPLE_PARTY}") from exc


def load_user_rules(settings: list[str]) -> EventRules:
    """Packaged rules with the user's file and ``--set`` overrides applied. A rule whose
    value in the file is refused (``EV-DOOR-3.enabled = "yes"``) is kept out, not the
    whole file: reading it is a :class:`RuleRefused` naming the file, key and value, so it
    stops only the tables and actions that read that rule; the dice tray still starts, its
    rolls and Tick go on, and `end-block` ticks (events74 RISK 2; as events72 DEFECT 2 for
    the list file). A file that cannot be read as a whole (not TOML, a table beside
    ``[defaults]``) keeps out every rule, with its error; so does one naming a rule ID no
    Default has (``EV-DOOR-9``, said with the rule meant, "did you mean 'EV-DOOR-4'?"), as
    coc.toml and genso.toml refuse it: which setting the player meant is not known, and the
    tables went on with that one at its Default, said only as something that "waits"
    which nothing reads (reviewe74 RISK 3). ``--set`` is refused at once: typed for this
    run, and a rule it sets is no longer kept out by the file's value (reviewe74 NIT 1)."""
    rules = load_rules()
    try:
        origin, defaults = user_defaults(OVERRIDES_NAME)
    except DataError as exc:
        defaults, whole = {}, str(exc)
    else:
        whole = ("" if isinstance(defaults, Mapping)
                 else f"{origin}: the Defaults must be tables keyed by rule ID")
    refused: dict[str, str] = {}
    for rule in defaults if not whole else ():
        if rule not in rules.settings.values:  # a misspelt rule ID
            try:
                rules.with_overrides({rule: defaults[rule]}, origin)
            except DataError as exc:
                whole = f"{exc}: the whole file is refused"
            break
    if whole:
        defaults = {}
    for rule, keys in defaults.items():
        try:
            rules = rules.with_overrides({rule: keys}, origin)
        except DataError as exc:
            refused[rule] = str(exc)
    typed = set_values(settings, SET_EXAMPLE)
    rules = rules.with_overrides(typed, "--set")
    if whole:
        refused = dict.fromkeys(rules.settings.values, whole)
    # A value typed for this run wins over the file's refused one: the rule's file values
    # with the typed ones over them, kept when they are all good now (reviewe74 NIT 1)
    for rule, keys in typed.items() if not whole else ():
        if rule in refused and isinstance(defaults[rule], Mapping):
            try:
                rules = rules.with_overrides({rule: {**defaults[rule], **keys}}, origin)
            except DataError:
                continue  # another of its values in the file is wrong: still kept out
            del refused[rule]
    return rules.with_refused(refused) if refused else rules


def refused_rules(rules: EventRules, but: str | None = None) -> list[str]:
    """What is wrong with the player's events.toml (:func:`load_user_rules`), once each,
    with what it stops: said on stderr by a run it does not stop, so it is not unseen.
    ``but``: the fault the run is about to be refused on, said by that error alone, not
    twice (reviewe74b NIT 1)."""
    refused = rules.settings.refused
    faults = [why for why in dict.fromkeys(refused.values()) if why != but]
    if refused and set(refused) >= set(rules.settings.values):  # the file refused whole
        return [f"{why}: every table, and end-block, rest, cure and act, wait until it is "
                "mended" for why in faults]
    return [f"{why}: what reads {', '.join(r for r in refused if refused[r] == why)} waits "
            "until it is mended" for why in faults]


def user_lists(given: str | None) -> UserLists | None:
    """The player's monster and item lists (EV-MON-1, EV-EXP-4): the file ``--lists`` gives,
    else ``events_lists.toml`` in the config folder when there is one; a DataError names
    the file and what is wrong in it."""
    path = given_or_saved(given, LISTS_NAME)
    return None if path is None else load_lists(read_text(path, "list file"), str(path))


def tray_lists() -> tuple[UserLists | None, str]:
    """The dice tray's lists (:func:`user_lists`, the config folder's) and, when the file
    cannot be read, why: said on stderr here, and by the tray on its screen, which starts
    all the same; only the tables that can come to a list wait for it (events72 DEFECT 2:
    the tray would not start)."""
    try:
        return user_lists(None), ""
    except DataError as exc:
        note(f"{exc}: the dice tray's {', '.join(sorted(LIST_TABLES))} tables wait until "
             "it is mended; its rolls, other tables and Tick go on")
        return None, str(exc)


def show_defaults(rules: EventRules, as_json: bool) -> int:
    """Every Default, "(default)" or "(set by you)", and the range of one that has one
    (``[limits]``: EV-CORE-1 dm_level "from 1 to 100", EV-POI-2, ...) or its choices (EV-CORE-4
    rounding "one of: down, up, nearest"); "range" and "choices" are left out of a JSON row
    without them. Then the fixed readings (``data/readings.toml``: the spec's Defaults no
    setting changes), and the text ends with how to change a setting. ``--json`` is
    ``{"defaults": rows, "fixed_readings": {rule: reading}}``, as genso's and coc's are, so
    one reader reads every system's, and the readings are in it as in the text."""
    if rules.settings.refused:  # it lists every rule: each refused one is read
        raise DataError("; ".join(dict.fromkeys(rules.settings.refused.values())))
    rows = listing(rules.settings.entries(), rules.settings)
    readings = fixed_readings("companion.systems.events", rules.settings)
    if as_json:  # the shape of `genso defaults --json` and `coc defaults --json`
        print(json.dumps({"defaults": rows, "fixed_readings": readings}, ensure_ascii=False))
        return 0
    # A check's fixed roll of 0 is DM Lv + fixed_roll_bonus (EV-CORE-1), which only the
    # packaged data's comment said: a GM could read "disarm 0" as a target of 0 (events70
    # NIT 8).
    fixed_rolls = {spec.fixed for spec in rules.checks.values()}
    dm = rules.settings["EV-CORE-1", "dm_level"]
    fixed = dm + rules.settings["EV-CORE-1", "fixed_roll_bonus"]
    for row in rows:
        origin = "(default)" if row["default"] else "(set by you)"
        zero = (f"  0: DM Lv + fixed_roll_bonus ({fixed} at DM Lv {dm})"
                if row["rule"] == "EV-CORE-1" and row["key"] in fixed_rolls else "")
        print(f"{row['rule']:<10} {row['key']:<24} {json.dumps(row['value'], ensure_ascii=False)}"
              f"  {origin}{notes_text(row)}{zero}")
    # A reading of one part of a rule that keeps settings is keyed "RULE (part)"
    # (EV-TRAP-2 (double 1)): the column is as wide as the widest, as genso's is.
    print(readings_text(readings, max([10, *map(len, readings)])))
    print(how_to_set(OVERRIDES_NAME, SET_EXAMPLE))
    return 0


def run(args: argparse.Namespace) -> int:
    refuse_stray_options(args, args.table, ONLY_WITH)
    refuse_idle_seed(args)  # here too: a table that rolls nothing is refused it alike
    refuse_idle_source(args)
    for option, name in (("--who", args.who), ("--room", args.room), ("--reset", args.reset)):
        if isinstance(name, str):
            refuse_control(name, option)
    rules = load_user_rules(args.set or [])
    if args.table == "defaults":
        return show_defaults(rules, args.json)
    # A bad events.toml value stops only what reads it, before its mode and party, and
    # before any write: a cure was kept, then refused on EV-POI-10 (reviewe74b DEFECT 2)
    reach = ACTION_REACHES.get(args.table, args.table if args.table in EVENT_TABLES else None)
    stop = None if reach is None else refused_reach(rules.settings, reach)
    for line in refused_rules(rules, but=None if stop is None else stop[1]):
        note(line)
    if reach is not None:
        refuse_reach(rules, reach)
    _say_stopped_recoveries()
    # A generic-mode table never reads the party (the GM makes the checks): the saved
    # party file written wrong stopped `events monster` all the same (events72 DEFECT 2).
    # The poison and party actions keep its HP, and --party given is read as ever. The
    # mode is read for a table only: `party` and `rooms` read no rule (events74 RISK 2).
    reads_party = not (args.table in EVENT_TABLES and args.party is None
                       and Mode(args.mode or rules.settings["§1", "mode"]) is Mode.GENERIC)
    party = user_party(args.party) if reads_party else ()
    ratings = (
        load_rating_table(read_text(args.ratings, "rating table"), args.ratings)
        if args.ratings else None
    )
    # The saved list file is read by the tables that can come to a list only: one written
    # wrong blocks those, not the poison and party actions nor the other tables (events72
    # DEFECT 2). A file --lists names is read whatever the table, as --party's is: a path
    # typed wrong (no such file) is said, not passed over (reviewe72 NIT 6).
    lists = (user_lists(args.lists) if args.table in LIST_TABLES or args.lists is not None
             else None)

    if args.table in POISON_ACTIONS:
        return poison_action(args, rules, party)
    if args.table in PARTY_ACTIONS:
        return party_action(args, party)
    if args.table in ROOM_ACTIONS:
        return room_action(args)
    if args.table in ACT:
        return active_action(args, rules, party)
    if args.who is not None and not args.who.strip():
        raise DataError("--who needs a name")

    named = None if args.room is None else room_name(args.room)

    def body(source: DiceSource) -> int:
        poisons = _poison_list()
        rooms = _recovery_rooms() if named is not None else None
        # as first spelt: Hall and hall are one room, its spot used once (a77events RISK 3)
        room = None if rooms is None or named is None else rooms.spelt(named)
        used_then = list(rooms.used) if rooms is not None else []
        pools = _party_hp()
        now = _current(pools, party)
        throws = TakenThrows(source)
        walked: list[EventReport] = []
        try:
            with party_needed():
                report = run_event(
                    args.table, throws, rules=rules, mode=args.mode, dm_level=args.level,
                    party=now, rating_table=ratings, trap=args.trap, found=args.found,
                    victim=args.who if args.table == "poison" else None,
                    disarmer=args.who if args.table == "trap" else None, lists=lists,
                    poisoned=poisons.poisons, room=room,
                    used_rooms=rooms.used if rooms else (), so_far=walked.append,
                )
        except ThrowStopped:
            say_walked(args.dice, walked, throws, after_ctrl_c=True)
            raise KeyboardInterrupt from None
        except CompanionError as exc:
            say_walked(args.dice, walked, throws, refused=isinstance(exc, RuleRefused))
            raise
        report = _act_carried(report, args)
        cap = rules.settings["EV-REC-1", "cap_at_maximum"]  # read before any write
        # The room is marked first (events74 RISK 3): a cut after it, before the cure or
        # the HP were kept, leaves the spot spent, and the same command run again (the
        # player saw nothing printed) is refused, not given a second recovery. A write the
        # disk refuses after it takes the mark back: a spot whose cure or HP was not kept
        # is not spent. The mark is pending, with what it is yet to keep, and settled once
        # kept: a cut between is said by the next run, not lost unsaid (reviewe74 RISK 5).
        marked, room_error = False, None
        if rooms is not None and room is not None:
            try:
                marked = rooms.mark(room, _to_keep(poisons.poisons, report, now),
                                    at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))
            except OSError as exc:
                room_error = exc
            if not marked and room_error is None and room not in used_then:
                # free as the walk began, marked since: another run at once recovered
                raise DataError(f"room {room} was marked used meanwhile, by another run at "
                                "once: this recovery is not kept (EV-REC-1: a spot works "
                                "once)")
        unsaved: list[str] = []
        tracked = poisons.track(report, unsaved.append)
        notes = [*_trap_commands(report, args, _hint_members(args, party)),
                 *_found_commands(report, args),
                 *_unrated(report, args.ratings),
                 *_notes(tracked, report.mode, rules, poisons.poisons, kept=not unsaved,
                         party_file=args.party, act_given=_given(report, args),
                         settings=args.set or ())]
        refused = None
        changes = report.pool_changes()
        hp_refused = None if unsaved else _keep_hp(pools, party, changes, now, room, cap=cap,
                                                   cured=bool(tracked.cured))
        still_marked = ""
        if (unsaved or hp_refused is not None) and marked:
            assert rooms is not None and room is not None
            still_marked = _unmark(rooms, room)
        if unsaved:
            poisons.reload()  # what the file still holds, for --json
            refused = _not_recorded(unsaved[0], tracked, None if still_marked else room,
                                    _changed(changes, now)) + still_marked
        elif hp_refused is not None:
            refused = (hp_refused.replace(f"; room {room} not marked used", "") + still_marked
                       if still_marked else hp_refused)
        elif room_error is not None:
            cure = "; the cure is recorded" if tracked.cured else ""
            refused = (f"cannot save the used rooms ({error_text(room_error)}): room {room} "
                       f"is not marked used{cure}")
        elif marked:
            assert rooms is not None and room is not None
            _settle(rooms, room)
        elif args.table == "recovery" and room is None:
            notes.append("To have the room remembered, name it with --room NAME: coming back "
                         "to it then gives nothing (EV-REC-1)")
        if refused is not None and room is not None and not still_marked:
            report = _room_not_recorded(report, room)
        if args.json:
            used = {"used_rooms": rooms.used} if rooms is not None else {}
            print_json(args, {**report.to_json(), "poisoned": poisons.to_json(), **used})
        else:
            print("\n".join([report.text, *notes]))
        if refused is not None:
            # Shown above all the same: the dice were thrown (a camera's throw cannot be
            # read again), and the table can go on from it.
            print(f"companion: {refused}; free space or fix the folder, and note it by hand",
                  file=sys.stderr)
            return 1
        return 0

    return run_with_source(args, body, lists_taken=False)  # say_walked says them


class ThrowStopped(Exception):
    """Ctrl-C while a die of the walk was awaited, carried through the walk as an Exception:
    ``run_event`` hands ``so_far`` the steps walked on an Exception only, and the command
    says them before it stops (:func:`say_walked`), then stops as Ctrl-C does."""


class TakenThrows:
    """The command's dice source, counting the rolls it gave the walk and keeping the one
    asked last (what was awaited when the walk stopped); Ctrl-C during a roll is
    :class:`ThrowStopped`."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.taken = 0
        self.asked = ""
        self.values: list[list[int]] = []  # each roll's faces, as taken

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        dice = f"{count}D{sides}"
        # a purpose may name its dice (EV-MON-1's "how many monsters 何体 (1D6)")
        self.asked = purpose if dice in purpose else f"{purpose} ({dice})" if purpose else dice
        try:
            values = self.source.roll(count, sides, purpose=purpose)
        except KeyboardInterrupt as exc:
            raise ThrowStopped from exc
        self.taken += 1
        self.values.append(list(values))
        return values


#: Said above the steps of a walk stopped part-way with real dice (review64e RISK 2).
WALKED = "the walk so far 途中まで, from the dice taken (not saved: go on from it by hand):"


def say_walked(dice: str, walked: list[EventReport], throws: TakenThrows,
               after_ctrl_c: bool = False, refused: bool = False) -> None:
    """A walk with thrown or typed dice (``--dice camera|typed``) stopped part-way (the
    input ended, Ctrl-C, the camera gave up): the steps the dice already taken walked, and
    the die awaited, said on stderr before the error, so the table can go on from them by
    hand; running the command again throws the table anew. They were lost, a camera's
    throws with them (review64e RISK 2). Nothing when no die was taken, or with simulated
    dice (``--seed`` repeats them). ``after_ctrl_c``: on a line of its own, after the ^C the
    terminal echoed after a prompt. ``refused``: the walk stopped on a rule the player's
    events.toml set wrong, no die awaited: the faces taken are listed instead, the last one
    too, which no step showed (reviewe74 DEFECT 2: it said "awaiting" a die it had taken)."""
    if dice == "sim" or not throws.taken:
        return
    lines = ["", WALKED] if after_ctrl_c else [WALKED]
    if walked:
        steps = walked[0].steps
        under = walked[0].under_way
        lines += [f"{'  ' * s.depth}{s.rule}  {s.text}"
                  for s in (*steps, *((under,) if under is not None else ()))]
    if refused:
        taken = "; ".join(",".join(map(str, faces)) for faces in throws.values)
        lines.append(f"(throws taken 振った目: {taken}; stopped on events.toml, not on a die)")
    else:
        lines.append(f"(awaiting {throws.asked} 待ち)")
    print("\n".join(lines), file=sys.stderr)


def _unrated(report: EventReport, ratings: str | None) -> list[str]:
    """EV-CORE-3: how to turn the walk's base power "?" into numbers: give a rating table
    with --ratings, or add to the one given the ratings it lacks."""
    missing = sorted({s.data["rating"] for s in report.find("EV-CORE-3")
                      if s.data["value"] is None})
    if not missing:
        return []
    if ratings is None:
        return [f"基本威力/base power ?: give your rating table with --ratings FILE, "
                f"{RATINGS_FORM} (EV-CORE-3)"]
    which = ", ".join(map(str, missing))
    return [f"基本威力/base power ?: {ratings} has no line for rating {which}: add it, the "
            f"rating, then the values for 2D6 totals 2 to 12 (EV-CORE-3)"]


def _not_recorded(why: str, tracked: Tracked, room: str | None,
                  hp: list[str] | None = None) -> str:
    """What a roll whose poison list was refused (``why``) did not record: its poisons,
    its cure, the HP and MP it changed (``hp``), and the room it did not mark either."""
    lost = [f"{name} not tracked as poisoned" for name in tracked.poisoned]
    lost += [f"{name} still listed as poisoned" for name in tracked.cured]
    lost += [f"{change} not kept" for change in hp or ()]
    if room is not None:
        lost.append(f"room {room} not marked used")
    return (f"cannot save the poison list {why}: nothing of this roll is recorded "
            f"({'; '.join(lost)})")


def _room_not_recorded(report: EventReport, room: str) -> EventReport:
    """``report`` with its "room ROOM now used" said not recorded: the disk refused the
    room (or the poison list before it, when the room is not marked either)."""
    steps = tuple(replace(step, text=f"{step.text} (not recorded)")
                  if step.data.get("room_used") and step.data.get("room") == room else step
                  for step in report.steps)
    return replace(report, steps=steps)


def _poison_list() -> PoisonList:
    """The tracked poisons; a notice on stderr when their file had to be kept aside."""
    poisons = PoisonList(poisons_path())
    for notice in poisons.notices:
        print(notice, file=sys.stderr)
    return poisons


def _party_hp() -> PartyHP:
    """The party's kept HP and MP; a notice on stderr when their file had to be kept
    aside."""
    pools = PartyHP(party_hp_path())
    for notice in pools.notices:
        print(notice, file=sys.stderr)
    return pools


def _current(pools: PartyHP, party: tuple[Member, ...]) -> tuple[Member, ...]:
    """``party`` with the HP and MP the tables left them (cli59 F4); a party file value
    the GM changed since is taken, and said on stderr."""
    now, told = pools.current(party)
    for line in told:
        print(f"companion: note: {line}", file=sys.stderr)
    return now


def _changed(changes: Mapping[str, Mapping[str, int]], now: tuple[Member, ...]) -> list[str]:
    """The HP and MP changes kept, as a player reads them: "Aki HP 20 → 17"."""
    before = {m.name: m for m in now}
    said = []
    for name, pools in changes.items():
        for pool, change in pools.items():
            value = getattr(before[name], pool) if name in before else None
            if value is not None:
                said.append(f"{name} {pool.upper()} {value} → {value + change}")
    return said


def _keep_hp(pools: PartyHP, party: tuple[Member, ...],
             changes: Mapping[str, Mapping[str, int]], now: tuple[Member, ...],
             room: str | None, cap: bool = False, cured: bool = False) -> str | None:
    """Keep what the walk did to the party's HP and MP (``cap``: a recovery's gain capped
    again as the pools are now, :meth:`PartyHP.keep`); why not, when the disk refused (the
    room is then not marked either: a recovery whose HP was not kept is not spent; a cure
    the walk made, ``cured``, is recorded all the same, the poison list written first)."""
    try:
        pools.keep(party, changes, cap)
    except OSError as exc:
        lost = [f"{change} not kept" for change in _changed(changes, now)]
        if room is not None:
            lost.append(f"room {room} not marked used")
        if cured:
            lost.append("the cure is recorded")
        return (f"cannot save the party's HP and MP ({error_text(exc)})"
                + (f": {'; '.join(lost)}" if lost else ""))
    return None


def _unmark(rooms: RecoveryRooms, room: str) -> str:
    """Take back the mark on ``room`` made before a write the disk then refused (a spot
    whose cure or HP was not kept is not spent); "" when done, else what to say: the room
    stays marked used, and the roll is to be noted by hand."""
    try:
        rooms.unmark(room)
    except OSError as exc:
        return (f"; room {room} stays marked used, its mark could not be taken back "
                f"({error_text(exc)}): `{companion_command()} events new-dungeon` forgets "
                "every used room")
    return ""


def _to_keep(poisoned: Mapping[str, Poison], report: EventReport,
             now: tuple[Member, ...]) -> str:
    """What a recovery is yet to keep once its room is marked, as a later run says it if
    a cut stops it: "the cure of the poisons tracked (Aki); Aki HP 1 → 13". The cure only
    of the tracked poisons the spot cures (EV-REC-1's ``cured``: those named, everyone's
    for None), as :meth:`PoisonList.track` cures them: one tracked was said to be due a
    cure by a recovery that cured none (reviewe74b NIT 3)."""
    cures = [step.data["cured"] for step in report.find("EV-REC-1")
             if step.data.get("cure_poison")]
    names = sorted({same for cured in cures for name in (poisoned if cured is None else cured)
                    for same in same_name(poisoned, name)})
    parts = [f"the cure of the poisons tracked ({', '.join(names)})"] if names else []
    return "; ".join([*parts, *_changed(report.pool_changes(), now)]) or "nothing"


def _settle(rooms: RecoveryRooms, room: str) -> None:
    """The recovery in ``room`` kept all: its mark no longer pending."""
    try:
        rooms.settle(room)
    except OSError as exc:
        note(f"the recovery is kept, but {rooms.path} could not say so ({error_text(exc)}): "
             f"a later run may say room {room}'s recovery stopped part-way; it did not")


def _say_stopped_recoveries() -> None:
    """Each recovery a cut stopped between its room's mark and its cure and HP (its
    process gone), said once with what it was to keep: the room stays used (never a
    second recovery), and the player checks and sets by hand what is missing. The next
    run said only "already used" (reviewe74 RISK 5)."""
    if not rooms_path().exists():
        return
    rooms = _recovery_rooms()
    try:
        stopped = rooms.stopped()
    except OSError as exc:
        note(f"cannot read or update {rooms.path} ({error_text(exc)})")
        return
    for room, pending in stopped.items():
        note(f"room {room}'s recovery stopped part-way ({pending.at}, the run cut before it "
             f"was kept): it was to keep {pending.what}, which may not be kept; check "
             f"`{companion_command()} events poisoned` and `{companion_command()} events "
             "party` and set by hand what is missing (the room stays used, EV-REC-1)")


def _recovery_rooms() -> RecoveryRooms:
    """The used recovery rooms; a notice on stderr when their file had to be kept aside."""
    rooms = RecoveryRooms(rooms_path())
    for notice in rooms.notices:
        print(notice, file=sys.stderr)
    return rooms


def active_action(args: argparse.Namespace, rules: EventRules,
                  party: tuple[Member, ...]) -> int:
    """``act --who NAME``: the vitality check NAME's tracked 判定－１ poison asks before an
    active action (EV-POI-5), rolled in sw mode for the member of --party."""
    if args.who is None or not args.who.strip():
        raise DataError("act needs --who NAME: who tries an active action")

    def body(source: DiceSource) -> int:
        poisons = _poison_list()
        with party_needed():
            report = run_active_action(args.who, poisons.poisons, source, rules=rules,
                                       mode=args.mode, party=party)
        if args.json:
            print_json(args, report.to_json())
        else:
            print(report.text)
        return 0

    return run_with_source(args, body)


def room_action(args: argparse.Namespace) -> int:
    """``rooms`` lists the rooms whose recovery spot was used, ``new-dungeon`` forgets
    them (EV-REC-1)."""
    rooms = _recovery_rooms()
    if args.table == "rooms":
        text = ("Recovery spots used in rooms: " + ", ".join(rooms.used) if rooms.used
                else "No recovery spot used yet")
    else:
        forgotten = rooms.forget()
        text = ("A new dungeon: forgot the recovery spots used in rooms "
                + ", ".join(forgotten) if forgotten else "A new dungeon: no room was used")
    if args.json:
        print(json.dumps({"action": args.table, "text": text, "used_rooms": rooms.used},
                         ensure_ascii=False))
    else:
        print(text)
    return 0


def _given(report: EventReport, args: argparse.Namespace) -> str:
    """The options of this run that the table a hint names reads again: its mode (as
    --mode whatever gave it, events.toml's sw would refuse a generic walk's hint), the DM
    level, each --set, the rating table and the list file, so the command printed rolls
    the targets, ratings and toxicity this walk said (a77events DEFECT 1); and --party,
    which the poison's own `end-block` and `rest` are then named with, so its ticks keep
    the HP of the party this walk was given (r77events on 226740e9). And the dice, typed or
    the camera's, with its --source when that is a live camera (camera:N, /dev/videoN,
    picamera): left out, the printed command rolled simulated dice unasked and unsaid
    (a78eventstray DEFECT 1). A picture, a folder or a video is read again from its first
    frame, which gave the walk's throw again as the next table's (r78events): its --source
    is left out and the command reads dice.camera_source."""
    from companion.hw.camera.capture import camera_named  # the camera backends, for a name

    source = (args.source if args.dice == "camera" and args.source is not None
              and camera_named(args.source) is not None else None)
    given = [("mode", args.mode or report.mode.value),
             ("level", None if args.level is None else str(args.level)),
             *(("set", setting) for setting in args.set or ()),
             ("ratings", args.ratings), ("lists", args.lists), ("party", args.party),
             ("dice", None if args.dice == "sim" else args.dice), ("source", source)]
    return "".join(f" --{key} {shlex.quote(value)}" for key, value in given if value)


def _act_carried(report: EventReport, args: argparse.Namespace) -> EventReport:
    """``report`` with the `act` a 判定－１ poison's check names (EV-POI-5, the step's
    ``act``) given this run's options (:func:`_given`): named bare, it ran in events.toml's
    mode, generic by default, where the GM resolves it and nothing is rolled, and with no
    --party a sw walk was given (r77events NIT A)."""
    given = _given(report, args)

    def carried(step: Step) -> Step:
        who = shlex.quote(step.data["act"])
        return replace(step, text=step.text.replace(
            f"`companion events act --who {who}`",
            f"`{companion_command()} events act --who {who}{given}`"))

    return replace(report, steps=tuple(carried(step) if "act" in step.data else step
                                       for step in report.steps))


def _trap_commands(report: EventReport, args: argparse.Namespace,
                   members: Sequence[str] = ()) -> list[str]:
    """EV-DOOR-2/3, EV-TRAP-4 in generic mode: the command that rolls what a failed disarm
    or resistance sets off, the trap table or (EV-DOOR-3) the trap rolled above by name,
    which a plain `events trap` would roll again, or the poison table; with this run's
    options (:func:`_given`). The poison table's is given one line per member of the
    party (``members``: a needle poisons the one it hit, a gas each who failed); with no
    party, no --who, the poison tracked as the victim: a placeholder `--who NAME` run as
    printed tracked a poison on "NAME" (a78eventstray NIT 3)."""
    kinds = [s.data["trap_on_failure"] for s in report.steps if "trap_on_failure" in s.data]
    poisons = [s for s in report.steps if s.data.get("poison_on_failure")]
    command, given = companion_command(), _given(report, args)
    poison = f"{command} events poison"
    each = [f"  {poison} --who {shlex.quote(name)}{given}" for name in members]
    return [*(f"On a failed disarm: {command} events trap"
              + (f" --trap {kind}" if kind else "") + given for kind in kinds),
            *(line for _ in poisons for line in (
                ["On a failed resistance, the line of each member poisoned:", *each]
                if each else [f"On a failed resistance: {poison}{given}"]))]


def _hint_members(args: argparse.Namespace, party: tuple[Member, ...]) -> tuple[str, ...]:
    """The names a poison table's command is given (:func:`_trap_commands`): the party's,
    read for a generic walk too where it was not (the saved events_party.toml), and then
    none if it cannot be read, which a generic walk does not stop for (events72 DEFECT 2)."""
    if not party:
        with contextlib.suppress(CompanionError):
            party = user_party(args.party)
    return tuple(member.name for member in party)


def _found_commands(report: EventReport, args: argparse.Namespace) -> list[str]:
    """EV-EXP-4 in generic mode: the command that rolls the bonus room's reward (the count
    and the kind) once the GM's appraisal succeeded; the walk rolls none before (seed 001:
    on a success only, r76events NIT 3). With this run's options (:func:`_given`): --found
    is refused in sw mode, and a generic mode --set gave (or events.toml) was left out, the
    command printed refused where events.toml says sw (r76events2 NIT 2)."""
    if not any(s.data.get("items_on_success") for s in report.steps):
        return []
    return [f"On a successful appraisal: {companion_command()} events explore --found"
            f"{_given(report, args)}"]


def _notes(tracked: Tracked, mode: Mode, rules: EventRules,
           poisons: Mapping[str, Poison], kept: bool = True,
           party_file: str | None = None, act_given: str = "",
           settings: Sequence[str] = ()) -> list[str]:
    """What tracking did, for the lines under the table's walk; a 判定－１ poison also names
    ``act`` (EV-POI-5). Not ``kept`` (the list was refused), no poison is said to be
    tracked, cured or replaced: the list still holds what it held. ``party_file``: the
    ``--party`` the table was given, which the commands that tick the poison are named
    with: without it they read no party (or the saved one), and the HP the tick took was
    not kept (events74 DEFECT 1). ``act_given``: the run's options (:func:`_given`) the
    ``act`` a 判定－１ poison names is given, so it rolls in this walk's mode for its party
    (r77events NIT A). ``settings``: the run's --set; one the ticks read (EV-POI-2's hours,
    EV-POI-10) is said not kept for them, not carried into `end-block` and `rest`: the
    poison ticks at many later commands and at the dice tray's Tick, which take no --set,
    so carried into one printed command it would tick at one rate there and at events.toml's
    everywhere else (r77events NIT B)."""
    party = "" if party_file is None else f" --party {shlex.quote(party_file)}"
    notes = tracking_notes(tracked, rules) if kept else []
    if tracked.cured_unnamed:
        notes.append("The first member's poison is cured: "
                     f"`{companion_command()} events cure --who NAME` ends it in the list")
    for name in tracked.poisoned if kept else ():
        unnamed = mode is Mode.GENERIC and name.split(" ")[0] == UNNAMED
        named = " (--who NAME names who)" if unnamed else ""
        who = shlex.quote(name)
        act = (f"; `act --who {who}{act_given}` rolls the check before an active action"
               if poisons[name].rule == "EV-POI-5" else "")
        notes.append(f"Tracking {name}'s poison{named}: `{companion_command()} events "
                     f"end-block{party}` or `rest{party}` "
                     f"ticks it, `poisoned` lists it, `cure --who {who}` ends it{act}")
    ticks = [setting for setting in settings
             if parse_set(setting, SET_EXAMPLE)[0] in REACHES["tick"]]
    if ticks and kept and tracked.poisoned:
        notes.append(f"This run's --set {', '.join(ticks)} is not kept for the ticks: "
                     "`end-block`, `rest` and the dice tray's Tick read "
                     f"{config_dir() / OVERRIDES_NAME}; set it there to have them use it")
    # after the line that names victim 2 (reviewe68 NIT 2)
    return notes + (beside_notes(tracked) if kept else [])


def poison_action(args: argparse.Namespace, rules: EventRules,
                  party: tuple[Member, ...]) -> int:
    """``end-block``, ``rest``, ``poisoned`` or ``cure`` on the tracked poisons (EV-POI-2);
    the HP a poison takes as time passes (EV-POI-8) is kept for the party (cli59 F4)."""
    poisons = _poison_list()
    steps: list[dict[str, Any]] = []
    refused = None
    match args.table:
        case "poisoned":
            lines = [f"{name}: {describe(poison, rules)}"
                     for name, poison in poisons.poisons.items()] or ["No poison tracked"]
        case "cure":
            if args.who is None or not args.who.strip():  # as act's (events62 N3)
                raise DataError("cure needs --who NAME: whose poison was cured")
            who = tracked_name(poisons.poisons, args.who)  # aki for Aki
            lines = [cured(who, poisons.cure(who), rules)]
        case _:
            rest = (1 if args.hours is None else args.hours) if args.table == "rest" else None
            pools = _party_hp()
            now = _current(pools, party)
            hp = pools.hp_now(now)
            passed = say_unkept(poisons.pass_time(rules, rest, hp=hp), hp, party,
                                f"no party file: give --party FILE, or save {PARTY_NAME} "
                                "in the config folder")
            lines = [passed.text]
            steps = [step.to_json() for step in passed.steps]
            refused = _keep_hp(pools, party, poison_hp_lost(passed), now, None)
    if args.json:
        print(json.dumps({"action": args.table, "text": "\n".join(lines), "steps": steps,
                          "poisoned": poisons.to_json()}, ensure_ascii=False))
    else:
        print("\n".join(lines))
    if refused is not None:
        print(f"companion: {refused}; free space or fix the folder, and note it by hand",
              file=sys.stderr)
        return 1
    return 0


def party_action(args: argparse.Namespace, party: tuple[Member, ...]) -> int:
    """``party``: each member's HP and MP now, as the tables left them (cli59 F4); with
    no party, the HP and MP kept by name."""
    pools = _party_hp()
    reset = [] if args.reset is None else [_reset(pools, args.reset)]
    now = _current(pools, party)
    try:
        pools.keep(party)  # a party file value the GM changed is said once: kept from now on
    except OSError as exc:
        # A listing still lists (review59b F7): the value is shown from the party file all
        # the same, and the note comes again next time.
        print(f"companion: warning: cannot save the party's HP and MP ({error_text(exc)}): "
              "the party file's new values are taken but not kept", file=sys.stderr)
    if party:
        lines = [*reset, *pools_text(now)]
        shown = {m.name: {"hp": m.hp, "mp": m.mp} for m in now}
    else:
        shown = {name: {pool: kept.now for pool, kept in kept_pools.items()}
                 for name, kept_pools in pools.kept.items()}
        lines = [*reset, *(f"{name}: " + ", ".join(f"{pool.upper()} {value}"
                                                    for pool, value in values.items())
                           for name, values in shown.items())] or [
            "No party given (--party FILE, or events_party.toml in the config folder) and "
            "no HP kept"]
    if args.json:
        print(json.dumps({"action": args.table, "text": "\n".join(lines), "party": shown},
                         ensure_ascii=False))
    else:
        print("\n".join(lines))
    return 0


def _reset(pools: PartyHP, who: str | bool) -> str:
    """``party --reset [NAME]``: forget the HP and MP kept for everyone, or NAME, so the
    party file's values are taken again (review59b F2: a heal to the value the file already
    says); what was forgotten."""
    kept = list(pools.kept)
    forgotten = pools.forget(None if who is True else [str(who)])
    if forgotten:
        return (f"Forgot the HP and MP kept for {', '.join(forgotten)}: the party file's "
                "values are taken")
    if who is True or not kept:
        return "No HP or MP kept: the party file's values are taken already"
    return f"No HP or MP kept for {who} (kept for {', '.join(kept)})"


def cured(who: str, poison: Poison, rules: EventRules) -> str:
    """What curing ``who``'s poison took: the GM's Cure Poison against its toxicity
    (EV-POI-1), or Remove Curse on a curse-type one when EV-POI-11 is on; and whether
    EV-POI-10's HP may heal now."""
    how = f"Cure Poison vs 毒性値/toxicity {poison.toxicity}"
    if poison.damage_max and rules.settings["EV-POI-11", "enabled"]:
        how += " (or Remove Curse: a curse-type poison, EV-POI-11)"
    healing = ("; HP lost to it can heal now (EV-POI-10)"
               if poison.damage_max and rules.settings["EV-POI-10", "enabled"] else "")
    return f"{ended(who, poison, rules)} is cured ({how}){healing}"


def table_key(name: str) -> str:
    """TABLE as typed: a table's key or the Japanese name the help prints beside it (扉,
    宝箱, 罠…), or an action, whatever its width and case (Door, ＤＯＯＲ), as ``--trap``
    takes a trap (events62 N4); anything else as typed, for argparse to refuse."""
    folded = folded_name(name)
    for key in (*EVENT_TABLES, "defaults", *POISON_ACTIONS, *ACT, *PARTY_ACTIONS,
                *ROOM_ACTIONS):
        if folded in (key, folded_name(TABLE_NAMES_JA.get(key, key))):
            return key
    return name


class _ResetAction(argparse.Action):
    """``--reset [NAME]``, refusing ``events --reset party``: the optional NAME took the
    TABLE, which argparse then said was missing with no word of why (review59c)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if values == "party" and getattr(namespace, "table", None) is None:
            parser.error("--reset took 'party' as the NAME to forget, leaving no TABLE: "
                         f"write `{companion_command()} events party --reset [NAME]`")
        setattr(namespace, self.dest, values)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "events",
        help=COMMANDS["events"].help,
        description=(
            "Roll one of the 1D6 event tables and walk where it leads. generic mode reports "
            "the result, target and countermeasure; sw mode also rolls the Sword World checks "
            "for the party in --party. 'defaults' lists every Default and where it came from. "
            "A poison a table gives is tracked: end-block and rest tick it, poisoned lists it "
            "and cure ends it (EV-POI-2); act rolls the check a 判定－１ poison asks before an "
            "active action (EV-POI-5). In sw mode the HP and MP the tables change are kept "
            "between commands: party lists them. A recovery spot in a room named with --room "
            "works once: rooms lists the used rooms, new-dungeon forgets them (EV-REC-1)."
        ),
    )
    parser.add_argument("table", metavar="TABLE", type=table_key,
                        choices=[*EVENT_TABLES, "defaults", *POISON_ACTIONS, *ACT,
                                 *PARTY_ACTIONS, *ROOM_ACTIONS],
                        help="; ".join(f"{name} {TABLE_NAMES_JA[name]} ({rule})"
                                       for name, rule in EVENT_TABLES.items())
                        + "; defaults (list every Default); "
                        + "; ".join(f"{name} ({what})"
                                    for name, what in {**POISON_ACTIONS, **ACT, **PARTY_ACTIONS,
                                                       **ROOM_ACTIONS}.items()))
    parser.add_argument("--who", metavar="NAME", default=None,
                        help="with the poison table: who is poisoned (in sw mode a member of "
                             f"--party; default the first; in generic mode tracked as "
                             f"{UNNAMED!r}); with the trap table in sw mode: whose disarm set it "
                             "off (an individual trap hits them); with cure: whose poison was "
                             "cured; with act: who tries an active action")
    parser.add_argument("--room", metavar="NAME", default=None,
                        help="with recovery: the room's name or number, so its spot works "
                             "once (EV-REC-1): coming back gives nothing until new-dungeon")
    parser.add_argument("--reset", metavar="NAME", nargs="?", const=True, default=None,
                        action=_ResetAction,
                        help="with party, after it (events party --reset [NAME]): forget the "
                             "HP and MP the tables kept for everyone (or NAME), so the party "
                             "file's values are taken again: a heal to the value the file "
                             "already says")
    parser.add_argument("--hours", type=int, default=None,
                        help="with rest: how many hours the party rests (default 1)")
    parser.add_argument("--trap", metavar="KIND", default=None,
                        help="with the trap table: resolve this trap (explosion 爆発, "
                             "poison_gas 毒ガス, arrow 矢, poison_needle 毒針, alarm 警報, "
                             "pit 落とし穴: the key or the Japanese) "
                             "without rolling its type, e.g. the one a door rolled before its "
                             "disarm (EV-DOOR-3: no second roll)")
    parser.add_argument("--found", action="store_true",
                        help="with the explore table in generic mode: the bonus room's "
                             "appraisal succeeded (its 6 rolled before): roll only the "
                             "reward, how many items and their kind (EV-EXP-4: on success)")
    parser.add_argument("--level", type=int, default=None,
                        help="dungeon level, ＤＭレベル (default: EV-CORE-1 Default, 1)")
    parser.add_argument("--mode", choices=[m.value for m in Mode], default=None,
                        help="generic (default) or sw (Sword World checks)")
    parser.add_argument("--party", metavar="FILE",
                        help="party TOML for sw mode: [[member]] tables with name, adventurer, "
                             "thief, sage, sorcerer, evasion, shield, armor, dexterity, "
                             "agility, intelligence, strength, vitality, hp, mp, max_hp, "
                             "max_mp (example: companion/systems/events/data/example_party.toml); "
                             f"default: {PARTY_NAME} in the config folder. hp and mp are where "
                             "the tables start: what they change is kept in the data folder "
                             "(the party TABLE lists it), and the file is never written; a "
                             "value you edit in it wins")
    parser.add_argument("--lists", metavar="FILE",
                        help="your own lists (TOML): [[monster]] tables with name and level, "
                             "from which the monster table picks the species (EV-MON-1), and "
                             "[[item]] tables with a name, from which exploration's bonus "
                             "picks the kind (EV-EXP-4) (example: "
                             "companion/systems/events/data/example_lists.toml); default: "
                             f"{LISTS_NAME} in the config folder, which the dice tray reads too")
    parser.add_argument("--ratings", metavar="CSV",
                        help="Sword World rating table (威力表) for base power, which is "
                             "otherwise '?'; a sw recovery spot, whose HP and MP are kept, "
                             f"is refused without it, not spent (EV-CORE-3): {RATINGS_FORM}")
    add_set_argument(parser, SET_EXAMPLE)
    add_dice_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the steps as JSON")
    parser.set_defaults(func=run)
