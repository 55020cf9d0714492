"""The dice tray as a mode of the play session (``companion play --mode dice``).

The player picks an event table of seed 001 (door, chest, trap, monster,
explore, recovery, poison; spec §1) or a plain dice expression, throws real
dice in the dice area, and reads the roll BCDice style with the table's
outcome and follow-ups, on the screen or in the terminal.

A poison a table gives is tracked (:class:`~companion.app.poisons.PoisonList`, the list
``companion events`` keeps too), and the menu's *Tick 毒の経過* ticks the tracked poisons
at the end of a block or an hour of rest (EV-POI-2's Default), keeping the HP a tick takes
with the HP ``companion events`` keeps (:mod:`companion.app.party_hp`). Past
:data:`CROWDED` tracked, a poison's outcome asks whether time has passed, with *Tick*
beside Again and Menu.

The event tables pull their dice from a source as they walk; the session hands
a mode one answer at a time. So the tray walks the table again over the throws
it has so far (the walk is pure: the same dice give the same walk), and asks
for the next throw where the walk stops for want of dice; meanwhile the Table panel shows
the steps walked before it, marked *so far 途中* (``run_event``'s ``so_far``).

A table (or a plain roll) part-thrown is saved after every step in ``dice/tray.json`` in
the data folder (:data:`TABLE_FILE`, written whole: a power cut leaves the old file or the
new): its pick, the throws taken and whether its next die is awaited or held. The tray
takes it up at its next start, after a power cut, a Quit or a ``--resume``, awaiting the
same die: the walk is pure, so the same throws give the same walk, and the throws already
taken are never thrown again (only *Menu* gives the table up). A file that cannot be read
is kept aside, said with its path, and the tray starts at its menu, its poisons as kept.
The file keeps the poison list as the table began (parsed, hashed): a table taken up tracks
its poison only while the list is still so; its poison already in the list is said tracked,
and a list changed otherwise (or unreadable) tracks nothing and says to note it by hand,
so a poison is never tracked twice nor lost unsaid (reviewd67b DEFECT 3, RISK 4).
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

from companion.app.command_name import companion_line
from companion.app.commands.roll import shown

# (their home since reviewe68 RISK 2; imported from here before)
from companion.app.dice_expressions import parse_expressions as parse_expressions
from companion.app.dice_expressions import split_expressions as split_expressions
from companion.app.modes.questions import sure
from companion.app.notes import note
from companion.app.party_hp import (
    PARTY_NAME,
    PartyHP,
    party_hp_path,
    poison_hp_lost,
    say_unkept,
    user_party,
)
from companion.app.paths import data_dir
from companion.app.poisons import UNNAMED, PoisonList, beside_hint, tracking_notes
from companion.app.session.host import SHORT_REASONS
from companion.app.session.mode import Answer, ChoiceAsk, RollAsk, Throw
from companion.app.session.rolls import SO_FAR, NeedDice, Rolled, Thrown
from companion.app.session.save import BOM, NewerSave, json_kind
from companion.dice import DiceCommand, parse, roll
from companion.dice.notation import (
    D66_SIDES,
    D66Command,
    D66Order,
    Dice,
    DiceSyntaxError,
    RepeatCommand,
)
from companion.dice.result import Result, RollKind
from companion.dice.roll import RollOptions, reads_d66_as_thrown
from companion.errors import CompanionError, DataError, IllegalAction, error_text
from companion.file_locks import service_name
from companion.files import (
    TooLarge,
    atomic_write_text,
    keep_aside,
    loads_json,
    move_aside,
    read_regular,
)
from companion.hw.buttons import Button
from companion.hw.display.view import DiceStep, DiceView, Name, Option, View
from companion.systems.defaults import RuleRefused
from companion.systems.events.lists import LIST_TABLES, UserLists
from companion.systems.events.poisoned import Poison, afflict, describe, same_name
from companion.systems.events.report import EventReport, Step
from companion.systems.events.rules import (
    EVENT_TABLES,
    EventRules,
    Mode,
    load_rules,
    refused_reach,
)
from companion.systems.events.run import NO_DIE_THROWN, THROWS_KEPT, refuse_reach, run_event
from companion.systems.events.sword_world import folded_name

TITLE = "ダイストレイ Dice tray"

#: The event tables' names (the seed's table names, shortened for a button): the tray's
#: title says ``罠 Trap``, a button the English first (``Trap 罠``), as the companion's
#: buttons do, so one cut short keeps ``Monster`` rather than ``モンスタ…``.
TABLE_NAMES: dict[str, Name] = {
    "door": Name("扉", "Door"),
    "chest": Name("宝箱", "Chest"),
    "trap": Name("罠", "Trap"),
    "monster": Name("モンスター", "Monster"),
    "explore": Name("探索", "Explore"),
    "recovery": Name("回復", "Recovery"),
    "poison": Name("毒", "Poison"),
}
TRAY = "Dice tray ダイストレイ"
MENU_TITLE = "Roll or table? どちら？"
MENU_PROMPT = f"{TRAY}: roll dice, or an event table? ダイスかイベント表か"
#: The first menu's items: short, for five boxes share its one row, a label's row each
#: (the prompt takes two rows), and "Event table イベント表" was cut to "[3] Event table
#: イ…" at 800x480, "Poisons 毒の経過" to "[4] Poisons 毒…" at text_scale 1.25 (screen66
#: NIT 1). The tables' own menu says what they are: "Which table? どの表？". The tracked
#: poisons' item is no table: "Poisons 毒" read as the tables' "Poison 毒" but for an "s",
#: in Japanese the same (reviewscreen66 RISK 2); "Events 表" said two things (NIT 1).
#: Measured whole at 800x480, 1024x600 and 720x1280, text_scale 1.0 and 1.25.
EVENTS = "Tables 表"
POISONS = "Tick 毒の経過"
#: The outcome's choices beside *Tick* and *Undo*.
AGAIN = "Again もう一度"
MENU_LABEL = "Menu メニュー"
#: A door's or chest's outcome whose trap was rolled before the disarm (EV-DOOR-3): its
#: failed disarm sets off that trap, whose row *Fires* walks with its follow-ups (the
#: alarm's monsters, EV-TRAP-6; the pit's fall, EV-TRAP-7; the poison check's hint), the
#: trap table's row named, not rolled. The tray said "read its row, not a new Trap roll",
#: and Tables → Trap, its only way to a trap, rolled a new type: the second roll EV-DOOR-3
#: forbids (a76events RISK 2). The command line names ``events trap --trap KIND``.
FIRES = "Fires 発動"
#: An exploration's outcome at its 6 (EV-EXP-4), whose appraisal the GM resolves: on a
#: success *Found* walks the reward, the count (1D6) and the kind, the table's 6 not rolled
#: again. They were rolled with the 6, a die the seed does not roll when every appraisal
#: fails (seed 001: 「探索に成功した場合」; r76events NIT 3). The command line names
#: ``events explore --found``.
FOUND = "Found 見つけた"
#: Said once on the status line when a tray.json saved by a tray before *Found* (29b73ab7)
#: is taken up (r76events2 NIT 1): its count, thrown straight after the 6, is taken up as
#: *Found*'s, whose walk says the appraisal succeeded, which nobody said then ...
OLD_SAVE_FOUND = ("older save 旧セーブ: the reward counts only if an appraisal succeeded "
                  "鑑定成功時のみ")
#: ... or, saved at the 6 awaiting the count, the die it asked is not asked now.
OLD_SAVE_SIX = ("older save 旧セーブ: the reward is rolled on a successful appraisal "
                "鑑定成功なら: Found 見つけた")
POISONS_PROMPT = ("Poisons 毒の経過: the end of a block, or an hour of rest? "
                  "ブロック終了か休息か (EV-POI-2)")
NO_ROLL = "No roll 振れませんでした: throw again, or back to the menu?"
#: Back (B, flee, the keypad's *Back*) while a table's later die is awaited: the throws
#: already taken are kept, as after a failed throw; *Again* asks the die awaited, *Menu*
#: (a second press of back) gives the table up. One press dropped the walk, and the table
#: picked again threw its first die anew, a free reroll (review64e RISK 1).
HELD = "Back 戻る: go on with the table (Again), or give it up (Menu)? 続けるかやめるか"
HELD_NOTE = "the table's throws so far are kept 振った分は保持"
#: More poisons tracked than this are more than a party has members, and a character
#: carries one (EV-POI-3): the tray, which has no names and tracks each as another victim,
#: then asks the GM whether time has passed, with *Tick* beside the outcome's Again and
#: Menu (soak audit 57 #1: a tray never ticked tracked 838, each roll slower). The poisons
#: are kept all the same: which are over only the GM knows.
CROWDED = 6
#: Where a table another table sets off is, from the outcome's *Menu*: the main menu's own
#: poison item is the tracking list (*Tick 毒の経過*), not the table (table audit gc #7).
#: Each step as its button reads: *Tables 表*, then *Poison 毒* (*Trap 罠*).
POISON_TABLE_PATH = "Menu → Tables → Poison"
POISON_TABLE_PATH_JA = "メニュー→表→毒"
TRAP_TABLE_PATH = "Menu → Tables → Trap"
TRAP_TABLE_PATH_JA = "メニュー→表→罠"
#: The answers the tray's journal holds, the last ones: no save replays it (the table
#: part-thrown is saved as it stands, :data:`TABLE_FILE`), and a tray left on all evening
#: held every answer of the run (soak audit 57 #6).
JOURNAL_KEPT = 100
#: The table part-thrown, in the data folder: ``{"version": 1, "table": {...} or null}``.
TABLE_FILE = Path("dice") / "tray.json"
TABLE_FORMAT = 1
#: No tray.json comes near it (a table takes a few throws): a larger file is no table's.
TABLE_LIMIT = 64 * 1024
#: The tray's status line while the disk refuses :data:`TABLE_FILE` (stderr says why, with
#: its path), the older file removed: the table is then held in memory only, and the System
#: menu says unplugging loses it. Short: it shares the System menu's footer with its
#: options, and "…; a power cut loses it 電源断で消える" was cut at 800x480, text_scale 1.25
#: (reviewd67 DEFECT 5); the menu's heading says that.
TABLE_UNWRITTEN = "table not saved 表の途中は未保存: {why}"
#: The same when the older file could not be removed either (a read-only disk): a start
#: after a power cut takes up that older table, and asks again dice thrown since.
TABLE_STALE = "old table on disk 古い表が残る: {why}"
#: The tray's status line after a :data:`TABLE_FILE` that could not be read was kept aside
#: (stderr names it; short, for it shares the menu's row of options: reviewd67 DEFECT 5).
TABLE_UNREADABLE = "table file kept aside 表ファイルを退避"
#: The same when it could not be renamed (left as it was, and never written over).
TABLE_UNREADABLE_LEFT = "table file unreadable 表ファイル読めず"
#: Why a table part-thrown is held in memory only after that (TABLE_UNWRITTEN's ``why``).
UNREADABLE_LEFT_WHY = "file left as it was ファイル残置"
#: The status line when a table taken up after a stop gives a poison the list may hold
#: already (it changed since the table began, or cannot be read), and it is not in it: not
#: tracked, lest it be twice, and said as trouble (reviewd67b DEFECT 3). Stderr says why.
TRACK_REFUSED = "poison not tracked 毒は未記録: list changed; note it by hand 手で記録を"
#: The same for a recovery spot's cure (EV-REC-1).
CURE_REFUSED = "cure not kept 治療は未記録: list changed; note it by hand 手で記録を"
#: :meth:`DiceTrayMode._list_fingerprint` of a poison list the disk would not read.
UNREADABLE_LIST = "unreadable"
#: A list file (``events_lists.toml``) that cannot be read blocks only the tables that can
#: come to it (:data:`~companion.systems.events.lists.LIST_TABLES`): the tray starts, its
#: rolls, other tables and Tick go on, and the error is on its screen; it would not start,
#: and said why on stderr only (events72 DEFECT 2). The file is read again at each try.
LISTS_BLOCKED = "list file unreadable リスト読めず: mend it 修正を"
#: The status line at the start of a tray whose events.toml has a value refused: the
#: tables that read its rule stop at their outcome with the error, the rest go on, and the
#: menu's panel says which (:meth:`DiceTrayMode._rules_rows`; events74 RISK 2).
RULES_REFUSED = "events.toml refused 設定に誤り: tables reading it stop 読む表は停止"
#: The outcome's prompt at a table stopped on events.toml (its own, not :data:`NO_ROLL`:
#: no roll failed, and "throw again" asked a rethrow of dice already taken; reviewe74
#: DEFECT 1). A table is refused before its first die when it can come to the rule; a
#: table saved part-thrown before that (or a rule the walk read unforeseen) keeps its
#: throws, and a start after the file is mended finishes it.
#: Only *Menu* is offered there: the tray reads events.toml at its start, so an *Again*
#: walked the same throws to the same stop, the screen unchanged (reviewe74b RISK 3).
RULES_STOPPED = ("events.toml refused 設定に誤り: mend it, then start the tray again "
                 "修正して再起動; Menu goes back")
RULES_STOPPED_KEPT = ("events.toml refused 設定に誤り: mend it, then start the tray again: "
                      "your throws are kept 振った分は保持; Menu drops them 破棄")
#: Beside a table on the Tables panel that can come to a rule events.toml set wrong, and
#: beside *Tick* on the menu's panel when a tick reads one (reviewe74b DEFECT 1).
RULES_WAITING = "waits: events.toml 設定待ち"
#: The status line at a Tick refused on events.toml: nothing ticked, nothing written.
TICK_REFUSED = "events.toml refused 設定に誤り: no time passed 経過なし"
#: A table saved as ended, taken up at a start where the list file cannot be read: its
#: walk is walked again without the list, to show it and track its poisons, and what the
#: list picked (a monster's species, an item) is not in it: said, not shown silently as
#: another outcome, "the GM picks the species" for the "Ogre" the player saw (reviewe72
#: RISK 4).
LISTS_ENDED = "list file unreadable リスト読めず: shown without what it picked 選択は表示なし"
#: The steps the list file picks for, as the walk adds them without it too: the monster
#: table's species (EV-MON-1, the trap's alarm and a door's or chest's trap walk on to it)
#: and the bonus room's kind of items (EV-EXP-4). A walk of a list table that came to
#: neither picked nothing from the list.
LIST_STEPS = ("EV-MON-1", "EV-EXP-4")
LISTS_PROMPT = ("List file unreadable リスト読めず: mend it, then Again; or back to the menu? "
                "修正してもう一度")
#: *Undo* on a table's or a roll's outcome with typed dice (``--dice typed``): the last
#: throw is taken back, with the poison or the cure its walk tracked, and that die is
#: asked again. A die typed wrong could not be corrected: its poison stayed tracked, to
#: cure on the command line (events72 RISK 3). Typed dice only: a thrown die's undo would
#: be a free reroll.
UNDO = "Undo 取り消し"
#: *Undo* refused, the poison list changed since the table tracked its poison: the poison
#: stays, and the screen names the command that ends it, ``{cure}`` (the tray's Poisons view
#: has no cure; the hint was on stderr only, which the player at the Pi does not see, and
#: the screen said Tick, which removes no poison: reviewe72 NIT 5).
UNDO_REFUSED = "not undone 取り消せず: the list changed; cure it by hand 手で解除: {cure}"
#: *Undo* of a cure refused, the list changed since: the cure stands, the poison it ended
#: to be noted by hand (no command tracks a poison but a table).
UNDO_REFUSED_CURE = ("not undone 取り消せず: the list changed; the cure stands 治療はそのまま: "
                     "note the poison by hand 手で記録を")
#: *Undo* refused, the list changed since, and the poisons the table gave are no longer in
#: it (cured beside the tray, or another poison in their place): nothing is left to cure,
#: and a cure command would fail (finala72 NIT 1).
UNDO_REFUSED_GONE = ("not undone 取り消せず: the list changed; its poison is no longer "
                     "listed 毒は解除済み")


def _undo_refused(before: Mapping[str, Poison], after: Mapping[str, Poison],
                  now: Mapping[str, Poison]) -> str:
    """:data:`UNDO_REFUSED` for the poisons the table gave (in ``after`` and not so in
    ``before``) that the list holds ``now`` as the table gave them, each with its cure
    command; :data:`UNDO_REFUSED_GONE` when none is left; :data:`UNDO_REFUSED_CURE` for a
    cure."""
    given = [name for name, poison in after.items() if before.get(name) != poison]
    if not given:
        return UNDO_REFUSED_CURE
    left = [name for name in given if now.get(name) == after[name]]
    if not left:
        return UNDO_REFUSED_GONE
    return UNDO_REFUSED.format(cure="; ".join(
        companion_line("events", "cure", "--who", name) for name in left))


def table_path() -> Path:
    """Where the tray saves its table part-thrown (:data:`TABLE_FILE`)."""
    return data_dir() / TABLE_FILE


def newer_table_back(kept: Path, path: Path) -> str:
    """How a table part-thrown a newer companion wrote, kept aside as ``kept`` (the tray
    reads only ``path``, :data:`TABLE_FILE`), is carried on: the companion updated, the file
    put back while no tray runs (a tray running writes ``path`` over at its next table: the
    update restarts the boot service, so that one is stopped first, reviewh68b RISK), and
    ``mv -i`` asks before it replaces a table this companion left there meanwhile. Kept
    aside, not left in place unread: this tray's own tables are then saved as ever, and not
    lost to a power cut while it runs (reviewh68 RISK 3)."""
    update = NewerSave.UPDATE.removesuffix(" to carry it on")
    move = f"`mv -i {shlex.quote(str(kept))} {shlex.quote(str(path))}`"
    if service := service_name():
        return (f"{update}; then `sudo systemctl stop {service}`, {move} and "
                f"`sudo systemctl start {service}` carry it on")
    return f"{update}; then, while no dice tray runs, {move} carries it on"


def _value(result: Result) -> str:
    """What a roll gave, alone: a choice's item(s), else its number."""
    return result.steps[-1] if result.kind is RollKind.CHOICE else str(result.total)


def reading(result: Result) -> str:
    """A plain roll's result as the outcome prompt words it, by its kind: a choice's
    item (its total is the item's place), a pool's successes, a repeat's rolls one by
    one (BCDice keeps them apart), a calculation's result, a check's verdict, a D66's
    number, else the total (events68 NIT 1, events72 NIT 6).

    >>> from companion.dice.sources import ScriptedDice
    >>> reading(roll("choice[赤,青,緑]", ScriptedDice([(3, 2)])))
    'result 結果 青'
    >>> reading(roll("x2 1D6", ScriptedDice([(6, 4), (6, 3)])))
    '2 rolls 2回: 4, 3'
    >>> reading(roll("x2 choice2[a,b,c]", ScriptedDice([(3, 1), (2, 2), (3, 3), (2, 1)])))
    '2 rolls 2回: a, c / c, a'
    >>> reading(roll("2D6>=7 hit", ScriptedDice([(6, 3), (6, 4)])))
    'success 成功 (7)'

    A D66 reads as a number, no sum: its result, not a total (dicecam75 NIT 7: "D66: total
    合計 53").

    >>> reading(roll("D66S", ScriptedDice([(6, 5), (6, 3)])))
    'result 結果 35'
    """
    if result.kind in (RollKind.CHOICE, RollKind.D66):
        return f"result 結果 {_value(result)}"
    if result.kind is RollKind.POOL and result.target is not None:
        return f"successes 成功数 {result.total}"
    if result.kind is RollKind.REPEAT:
        n = len(result.rolls)
        values = [_value(r) for r in result.rolls]
        # a roll of several items (choice2's "a, b") kept apart from the next (reviewe68
        # NIT 5: "a, b, b, c" lost the pairs)
        joiner = " / " if any(", " in value for value in values) else ", "
        return f"{n} rolls {n}回: {joiner.join(values)}"
    if result.kind is RollKind.CALC:
        return f"result 計算結果 {result.total}"
    # A check's verdict, not its bare total: "total 7" for 2D6>=7 left the reading to the
    # player (events72 NIT 6)
    if result.success:
        return f"success 成功 ({result.total})"
    if result.failure:
        return f"failure 失敗 ({result.total})"
    return f"total 合計 {result.total}"


def _is_bare_roll(expression: str) -> bool:
    """Whether ``expression`` is dice and nothing more: one NdM (however written: ``d6``,
    ``2D``, ``D100``) with no keep, bonus, target, secret or comment, so the throw's
    prompt, which names the dice, says all of it."""
    command = parse(expression)
    return (isinstance(command, DiceCommand) and isinstance(command.expr, Dice)
            and command.expr.keep is None and command.comparison is None
            and not command.secret and not command.comment)


def _d66_dice(expression: str) -> bool:
    """Whether ``expression`` is NdM with M of 66 (``1D66``, ``2D66``): D66s, each read as a
    number, not dice summed."""
    command = parse(expression)
    return (isinstance(command, DiceCommand) and isinstance(command.expr, Dice)
            and command.expr.sides == D66_SIDES)


class Stage(Enum):
    """Where the tray is: its menus, a throw under way, an outcome shown, asked whether to
    quit, or quit."""

    MENU = "menu"
    TABLES = "tables"
    POISONS = "poisons"
    THROW = "throw"
    OUTCOME = "outcome"
    QUIT_ASK = "quit?"
    QUIT = "quit"


#: The menu's Quit asks first: its button (B, f, Esc) is Back or Menu on every other screen,
#: and one press too many after an outcome's Menu closed the tray (buttons-only audit F5).
#: Asked as a fight's Undo is, Back lit and guarded against a repeat of the press that opened
#: it: Quit was lit and keyed A, and A, A on a highlighted Quit closed the tray (keys75 D1).
QUIT_PROMPT = "Close the dice tray? ダイストレイを閉じる？"
QUIT_QUESTION = sure(QUIT_PROMPT, "quit", "Quit 終了")
QUIT_YES = [o.choice for o in QUIT_QUESTION.options].index("quit")


def _trap_hint(step: Step) -> tuple[DiceStep, ...]:
    """EV-DOOR-2/3, EV-TRAP-4: how the tray rolls what a failed disarm or resistance sets
    off, under the step that says it (the walk names no tool; the command line names its
    command)."""
    if step.data.get("poison_on_failure"):
        return (DiceStep(step.rule, f"On a failed check roll {POISON_TABLE_PATH} 失敗したら"
                         f"{POISON_TABLE_PATH_JA}", step.depth + 1),)
    if "trap_on_failure" not in step.data:
        return ()
    if step.data["trap_on_failure"]:
        # the disarm's own line says the trap rolled above fires: this says where, aside
        return (DiceStep(step.rule, f"On a failed disarm: {FIRES} walks that trap, no new "
                         "roll 罠は振り直さない", step.depth + 1, aside=True),)
    hint = f"On a failed disarm roll {TRAP_TABLE_PATH} 失敗したら{TRAP_TABLE_PATH_JA}"
    return (DiceStep(step.rule, hint, step.depth + 1),)


#: The walk's steps that say a rule again for reference, nothing to act on: EV-POI-3's
#: "poisons do not stack", EV-POI-2's when a poison ticks, the EV-DOOR-3 option's "roll the
#: trap type before disarming". A Table panel too short for the walk leaves them out first,
#: said with a count, rather than the lock check or the tracking line after them
#: (a76events DEFECT 1).
ASIDE_RULES = frozenset({"EV-POI-3", "EV-POI-2", "EV-DOOR-3"})


def _steps(steps: Sequence[Step]) -> tuple[DiceStep, ...]:
    """A walk's steps as the Table panel's rows, each with how the tray rolls what it sets
    off (EV-DOOR-2/3, EV-TRAP-4); :data:`ASIDE_RULES`' marked aside."""
    return tuple(row for s in steps for row in (
        DiceStep(s.rule, s.text, s.depth, aside=s.rule in ASIDE_RULES), *_trap_hint(s)))


def _faces(rolled: Sequence[Rolled]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The faces of the rolls so far, each with its die's sides (a D4 is not drawn as a
    D6's pips); the sides empty when all are D6, as :class:`DiceView` takes them."""
    faces = tuple(v for r in rolled for v in r.values)
    sides = tuple(r.sides for r in rolled for _ in r.values)
    return faces, (sides if any(s != 6 for s in sides) else ())


def _so_far(report: EventReport, need: NeedDice, roll_n: int) -> tuple[DiceStep, ...]:
    """The Table panel while a follow-up die is awaited: the steps walked, the row the walk
    stopped in (EV-MON-1's, its count awaited), then a row marked so far 途中 naming the
    throw awaited, so the player sees why they throw again. Nothing before the first."""
    under = report.under_way
    rows = _steps(report.steps)
    if under is not None:
        rows += (DiceStep(under.rule, under.text, under.depth),)
    if not rows:
        return ()
    what = f": {need.purpose}" if need.purpose else f": {need.count}D{need.sides}"
    return (*rows, DiceStep(SO_FAR, f"awaiting roll {roll_n} {roll_n}投目待ち{what}"))


@dataclass(frozen=True, slots=True)
class TrayPick:
    """What the player chose from the menu: an event table or an expression (one is None)."""

    table: str | None
    expression: str | None
    # The trap kind a door or chest rolled before its disarm (EV-DOOR-3), which the trap
    # table walks named, not rolled (:data:`FIRES`); None: the table rolls its own.
    trap: str | None = None
    # The exploration's appraisal succeeded at its 6 (:data:`FOUND`): only its reward is
    # walked (EV-EXP-4), the table not rolled.
    found: bool = False

    @property
    def named(self) -> bool:
        """Whether the walk goes on from an outcome shown before (:data:`FIRES`,
        :data:`FOUND`), its table not rolled: nothing but this pick names it again."""
        return self.trap is not None or self.found


def _menu(labels: Sequence[str]) -> tuple[Option, ...]:
    """A menu whose last option (back, quit) is FLEE's."""
    last = len(labels) - 1
    return tuple(Option(str(i), label, Button.FLEE if i == last else None)
                 for i, label in enumerate(labels))


class DiceTrayMode:
    """Menu, throw, outcome, again; over when the player quits. What is saved: the tracked
    ``poisons`` and the HP their ticks take (without them the menu has no *Tick*), and the
    table part-thrown in ``table_file`` (:data:`TABLE_FILE`; None: held in memory only,
    :meth:`table_unsaved`), taken up by :meth:`take_up_saved`. The tables pick species
    and items from the player's ``lists`` (EV-MON-1, EV-EXP-4) when there are some.
    ``notice``: what the dice source said as it opened (the dice camera's enrolled dice not
    used, :attr:`CameraDiceSource.enrol_notice`), on the status line at start.
    ``lists_error``: why the list file could not be read (the tables that can come to a
    list wait, :data:`LISTS_BLOCKED`), ``reload_lists`` reading it again at each try.
    ``typed``: the dice are typed, and an outcome offers :data:`UNDO`; a throw typed on a
    keypad in another session (:attr:`Throw.typed`: a die the camera does not read, the
    rest of a session whose camera stopped) is offered it too (reviewe72 RISK 3)."""

    def __init__(self, expressions: Sequence[str], source_name: str,
                 rules: EventRules | None = None, poisons: PoisonList | None = None,
                 lists: UserLists | None = None, table_file: Path | None = None,
                 notice: str = "", *, lists_error: str = "",
                 reload_lists: Callable[[], UserLists | None] | None = None,
                 typed: bool = False) -> None:
        self.table_file = table_file
        self.lists_error = lists_error
        self.reload_lists = reload_lists
        self.typed = typed
        # Whether each throw taken was typed on a keypad (Throw.typed), by its index in
        # throws; shorter when not known (a table taken up from its file): not typed.
        self._typed_throws: list[bool] = []
        # A D6 was typed on a keypad in a session whose dice are not typed: the camera
        # gave no picture and the player types the rest of the session (CameraRolls).
        self._typing_now = False
        # The poison list before and after the last outcome's walk tracked what it gave,
        # for its Undo (events72 RISK 3); None: it tracked nothing.
        self._tracked_change: tuple[dict[str, Poison], dict[str, Poison]] | None = None
        # This tray tracked the last outcome's walk itself (_track), so knows what its Undo
        # takes back; not after a table taken up ended, tracked before the stop or not.
        self._track_known = False
        # Said on stderr only, the player at the screen never saw it (fixdice71b): shown
        # once, as trouble when nothing else is said, until the answer after it was shown.
        self.notice = notice
        self._notice_shown = False
        # The text table_file was last written with (or read back as); None: not yet.
        self._table_written: str | None = None
        # Why table_file could not be written, while the table part-thrown is held in
        # memory only (TABLE_UNWRITTEN's, or TABLE_STALE's); "" when it is saved.
        self.table_trouble = ""
        # The disk refused table_file's write and its removal: it holds an older table.
        self._table_stale = False
        # A walk just ended, saved as such while its poisons are tracked (reviewd67
        # DEFECT 1): {"poisons": the list's fingerprint as the table began, or None: none
        # to track}.
        self._ended: dict[str, Any] | None = None
        # The poison list's fingerprint (_list_fingerprint) as the table began, kept in its
        # file: a start that takes it up tracks its poisons only while the list is still
        # so, or says why not (reviewd67b DEFECT 3, RISK 4). None: no list, or a plain roll.
        self._poisons_then: str | None = None
        # The table under way was taken up from its file (a start after a stop): its end
        # checks the list against _poisons_then before it tracks (reviewd67b RISK 4).
        self._taken_up = False
        # An Undo between its two writes (_undo): the list it puts back (``before``, each
        # poison's to_json) and the fingerprint of the list it takes back (``after``), kept
        # in the table's file, so a start after a power cut between them finishes it
        # (finala72 RISK 2). None at every other time: the file then holds no such field.
        self._undoing: dict[str, Any] | None = None
        self.expressions = tuple(expressions)
        self.source_name = source_name
        self.rules = rules
        self.poisons = poisons
        self.lists = lists
        self.report: EventReport | None = None  # the last table's walk, once whole
        self.stage = Stage.MENU
        self.pick: TrayPick | None = None
        self.throws: list[tuple[int, ...]] = []
        self.dice = self._menu_view()
        self.note = ""  # why there was no roll, under the outcome's prompt
        # The throw that failed, or was backed out of, was a follow-up of a walk under way
        # (the throws before it accepted): the outcome's Again asks that die again, not the
        # table's first.
        self.resume = False
        self.held = False  # backed out of a follow-up: the outcome asks Again or Menu (HELD)
        # The table stopped on a rule events.toml set wrong (RULES_STOPPED): kept in its file
        # as "refused", so a start holds it there, or finishes it once the file is mended.
        self.rules_stop = False
        self.trouble = ""  # the poison list not saved, said until the menu
        self.reading = ""  # an expression's result as the prompt words it, once rolled
        self.crowded = 0  # the poisons tracked, when past CROWDED after this outcome's roll
        # An unnamed poison tracked beside others: how to end the earlier one, if it is the
        # same character's (EV-POI-3), on the outcome's status line (beside_hint)
        self.hint = ""
        self._journal: deque[str] = deque(maxlen=JOURNAL_KEPT)
        self._answers = 0
        # A table taken up whose file holds an older walk (_found_before): written again
        # as the tray holds it now.
        self._rewrite = False

    # -- what the tray asks -------------------------------------------------------------

    def ask(self) -> ChoiceAsk | RollAsk | None:
        if self.stage is Stage.MENU:
            labels = [*(f"Roll {e} 振る" for e in self.expressions), EVENTS]
            if self.poisons is not None:
                labels.append(POISONS)
            return ChoiceAsk(MENU_PROMPT, _menu((*labels, "Quit 終了")))
        if self.stage is Stage.TABLES:
            return ChoiceAsk("Which table? どの表？",
                             _menu((*(f"{n.en} {n.ja}" for n in TABLE_NAMES.values()),
                                    "Back 戻る")))
        if self.stage is Stage.THROW:
            need = self._walk()
            assert need is not None  # a finished walk moved the tray on to its outcome
            # A table's follow-up throw says what it decides first, when the walk says (how
            # many monsters, the trap table): a prompt cut short keeps it; then that it is
            # the table's next roll, not the first again.
            if not self.throws:
                # A walk named from an outcome (Fires, Found) rolls no table first: its
                # first die is a follow-up's, said as the walk says it. The alarm's
                # monster die was asked as "罠 Trap (EV-TRAP-1)", the very roll EV-DOOR-3
                # forbids (r76events RISK 2).
                what = (f"{need.purpose} — " if self.pick is not None and self.pick.named
                        and need.purpose else "")
                return RollAsk(f"{what}{self._first_roll_for()}{self._tens_first()}",
                               need.count, need.sides)
            n = len(self.throws) + 1
            what = f"{need.purpose} — " if need.purpose else ""
            return RollAsk(f"{what}{self._title()}, roll {n} {n}投目{self._tens_first()}",
                           need.count, need.sides, throw=n)
        if self.stage is Stage.POISONS:
            return ChoiceAsk(POISONS_PROMPT, _menu(("End block ブロック終了",
                                                    "Rest 1 hour 休息1時間", "Back 戻る")))
        if self.stage is Stage.OUTCOME:
            labels = self._outcome_labels()
            # Undo after Menu, which stays where it was and the back button's (FLEE)
            undo = labels[-1] == UNDO
            options = _menu(labels[:-1] if undo else labels)
            if undo:
                options += (Option(str(len(options)), UNDO),)
            return ChoiceAsk(self._outcome_prompt(), options)
        if self.stage is Stage.QUIT_ASK:
            return QUIT_QUESTION
        return None

    def answer(self, value: Answer) -> list[object]:
        if self._notice_shown:  # read: said once (a wait's own status may hide it before)
            self.notice = ""
        if isinstance(value, Throw):
            if self.stage is not Stage.THROW:
                raise IllegalAction("no dice are wanted now")
            self._journaled(throw_to_notation(value))
            if value.typed and value.values and not self.typed:
                ask = self.ask()
                if isinstance(ask, RollAsk) and ask.sides == 6:  # the camera's own die
                    self._typing_now = True
            self._thrown(value)
            self._keep_table()
            return []
        if not isinstance(value, int):
            raise IllegalAction("the dice tray reads no tiles")
        ask = self.ask()
        if not isinstance(ask, ChoiceAsk) or not 0 <= value < len(ask.options):
            raise IllegalAction(f"there is no choice {value} now")
        self._journaled(str(value))
        self._chosen(value)
        self._keep_table()
        return []

    def _journaled(self, text: str) -> None:
        self._journal.append(text)
        self._answers += 1

    def _chosen(self, index: int) -> None:
        if self.stage is Stage.MENU:
            if index < len(self.expressions):
                self._start(TrayPick(None, self.expressions[index]))
            elif index == len(self.expressions):
                self._lists_read_again()  # its error not shown once mended (reviewe72 NIT 7)
                self.stage = Stage.TABLES
                names = list(TABLE_NAMES)
                self.dice = DiceView(
                    title="Event tables イベント表",
                    steps=(*(DiceStep(EVENT_TABLES[t], f"{i}. {TABLE_NAMES[t]}"
                                      + self._waiting(t))
                             for i, t in enumerate(names, 1)), *self._rules_rows(),
                           *self._lists_rows()),
                    source=self.source_name)
            elif index == len(self.expressions) + 1 and self.poisons is not None:
                self._open_poisons()
            else:
                self.stage = Stage.QUIT_ASK
        elif self.stage is Stage.QUIT_ASK:
            self.stage = Stage.QUIT if index == QUIT_YES else Stage.MENU
        elif self.stage is Stage.POISONS:
            if index == 2:
                self._to_menu()
            else:
                self._pass_time(None if index == 0 else 1)
        elif self.stage is Stage.TABLES:
            names = list(TABLE_NAMES)
            if index < len(names):
                self._start(TrayPick(names[index], None))
            else:
                self._to_menu()
        elif (label := self._outcome_labels()[index]) == AGAIN:
            assert self.pick is not None
            if self.resume:
                self._resume()
            else:
                self._start(self.pick)
        elif label == FIRES:
            kind = self._fires()
            assert kind is not None
            self._start(TrayPick("trap", None, trap=kind))
        elif label == FOUND:
            self._start(TrayPick("explore", None, found=True))
        elif label == POISONS:
            self._open_poisons()
        elif label == UNDO:
            self._undo()
        else:
            self._to_menu()

    def _outcome_labels(self) -> list[str]:
        if self.rules_stop:  # Again would walk to the same stop (RULES_STOPPED)
            return [MENU_LABEL]
        return [*(() if self._once() else (AGAIN,)), *((FIRES,) if self._fires() else ()),
                *((FOUND,) if self._found() else ()),
                *((POISONS,) if self.crowded else ()), MENU_LABEL,
                *((UNDO,) if self._can_undo() else ())]

    def _once(self) -> bool:
        """Whether the outcome is a whole walk named from an earlier one (:data:`FIRES`,
        :data:`FOUND`): no *Again*. A trap fires once and a room's reward is found once;
        *Again* walked the same trap again, new monsters for the same alarm, where on a
        trap table rolled it rolls a new type (r76events NIT 7). A throw that failed, or
        was backed out of, keeps it: *Again* asks that die."""
        return (self.pick is not None and self.pick.named and self.report is not None
                and not self.note)

    def _found(self) -> bool:
        """Whether a whole exploration's walk stopped at its appraisal, for the GM
        (EV-EXP-4 in generic mode): :data:`FOUND` walks the reward on a success."""
        return self.report is not None and not self.note and any(
            s.data.get("items_on_success") for s in self.report.steps)

    def _fires(self) -> str | None:
        """The trap kind a whole door's or chest's walk rolled before its disarm
        (EV-DOOR-3), which :data:`FIRES` walks; None when it rolled none, or is not whole
        (a throw failed: its outcome asks that die again)."""
        if self.report is None or self.note:
            return None
        return next((s.data["trap_on_failure"] for s in self.report.steps
                     if s.data.get("trap_on_failure")), None)

    def _can_undo(self) -> bool:
        """Whether the outcome offers :data:`UNDO`: typed dice, a throw taken, and a walk
        or roll whole, or held by Back (:data:`HELD`): Undo there takes back the throw
        before the one backed out of, so a table is corrected die by die. Not after a throw
        that failed, nor at a table blocked for its list."""
        return (self._last_typed() and self.stage is Stage.OUTCOME and bool(self.throws)
                and (not self.note or self.held) and not self._tracked_unknown())

    def _last_typed(self) -> bool:
        """Whether the throw an Undo takes back (the last taken) was typed: the tray's
        dice are typed, or it was typed on a keypad (a D3 under the camera, the rest of a
        session whose camera stopped: reviewe72 RISK 3). Thrown dice's Undo would be a
        free reroll."""
        last = len(self.throws) - 1
        return self.typed or (0 <= last < len(self._typed_throws)
                              and self._typed_throws[last])

    def _tracked_unknown(self) -> bool:
        """Whether the walk gave a poison or a cure that this tray did not track itself (a
        table taken up ended after a stop, tracked before it or refused): an Undo could
        not take it back, and the die typed again would track it twice."""
        if self._track_known or self.report is None or self.poisons is None:
            return False
        poisons, cures = self._effects()
        return bool(poisons or cures)

    def _undo(self) -> None:
        """:data:`UNDO`: the last throw taken back, with what its walk tracked (the poison
        list put back as it was before, while no one changed it since), and that throw
        asked again: a die typed wrong is typed again (events72 RISK 3).

        The table part-thrown again is written first, then the list put back: a power cut
        between the two writes takes the table up at its die asked again, and its end finds
        the list unlike the one written with it, so the poison is said tracked already, or
        not tracked, to note by hand (:meth:`_track_checked`). The list put back first, a
        cut lost the table's earlier throws, and its poison's die was thrown again from the
        menu: a free reroll (reviewe72 RISK 1). The table's file holds the Undo under way
        (:attr:`_undoing`) until the list is put back: a start after a cut between the two
        writes, the list still as the table left it, puts it back then
        (:meth:`_finish_undo`); it kept the poison undone, said only "list changed; note it
        by hand" (finala72 RISK 2)."""
        if self._tracked_change is not None:
            assert self.poisons is not None
            before, after = self._tracked_change
            undone, stage, then = self.throws.pop(), self.stage, self._poisons_then
            self.stage, self._poisons_then = Stage.THROW, self._fingerprint(before)
            self._undoing = {"before": {name: poison.to_json()
                                        for name, poison in before.items()},
                             "after": self._fingerprint(after)}
            self._keep_table()
            refused: OSError | None = None
            try:
                put_back = self.poisons.put_back(before, after)
            except OSError as exc:
                put_back, refused = False, exc
            self._undoing = None  # done or refused: the next write holds no Undo
            if not put_back:  # the table as it was, written again
                self.throws.append(undone)
                self.stage, self._poisons_then = stage, then
                self._keep_table()
            if refused is not None:
                note(f"cannot save the poison list ({error_text(refused)}): the table is "
                     "not undone")
                self.trouble = f"not undone 取り消せず: {error_text(refused)}"
                return
            if not put_back:
                # as put_back read it under the hold: a cure beside is not named
                self.trouble = _undo_refused(before, after, self.poisons.poisons)
                note(f"{self.poisons.path}: the poison list changed since the "
                     f"{self._title()} tracked its poison or cure: not undone; "
                     f"{POISONS} shows the list, "
                     f"`{companion_line('events', 'cure', '--who', 'NAME')}` ends a poison")
                return
        else:
            self.throws.pop()
        del self._typed_throws[len(self.throws):]
        self._tracked_change, self._track_known = None, False
        self.report = None
        self.resume = self.held = False
        self.reading = self.note = self.trouble = self.hint = ""
        self.crowded = 0
        self.stage = Stage.THROW
        self._walk_on()

    def _pass_time(self, rest_hours: int | None) -> None:
        """EV-POI-2: the end of a block (None) or an hour of rest. The HP a poison takes
        (EV-POI-8) is kept as ``companion events`` keeps it (review59b F3), for the party
        it reads by default (``events_party.toml`` in the config folder, review59c D3): the
        tick is spent in the shared list, so the HP it took would otherwise be lost to the
        command. With no party file, only HP already kept changes, and a tick that takes HP
        kept for no one says so on its line and the status line (events74 DEFECT 1). A
        poison list refused, or a party file that cannot be read, keeps no HP either: the
        tick is not spent."""
        assert self.poisons is not None
        # A rule events.toml set wrong that a tick reads (EV-POI-2's hours, EV-POI-10): said
        # here before anything is written, the tray staying up; it ended the tray, a
        # misspelt door rule ID refusing the whole file (reviewe74b DEFECT 1)
        try:
            refuse_reach(self._rules(), "tick")
        except RuleRefused as exc:
            self._tick_refused(exc)
            return
        try:
            party = user_party(None)
        except DataError as exc:
            note(f"{error_text(exc)}: no time passed")
            self.trouble = "Party file unreadable パーティ読めず: no time passed 経過なし"
            return
        unsaved: list[str] = []
        pools = PartyHP(party_hp_path())
        for notice in pools.notices:
            note(notice)
        now, told = pools.current(party)
        for line in told:
            note(line)
        hp = pools.hp_now(now)
        try:
            ticked = self.poisons.pass_time(self._rules(), rest_hours, unsaved.append, hp=hp)
        except RuleRefused as exc:  # a rule read unforeseen: refused before the list's write
            self._tick_refused(exc)
            return
        passed = say_unkept(ticked, hp, party,
                            f"no party file: save {PARTY_NAME} in the config folder")
        self._poisons_view(tuple(DiceStep(s.rule, s.text, s.depth) for s in passed.steps))
        self._unsaved(unsaved, "the time passed is not kept in it", "経過は未記録")
        if unsaved:
            return
        unkept = [s.member for s in passed.steps if s.data.get("hp_kept") is False]
        if unkept:  # said on its line too (events74 DEFECT 1): never lost unsaid
            self.trouble = f"HP not kept HP未記録: {', '.join(map(str, unkept))}: by hand 手で"
        try:
            pools.keep(party, poison_hp_lost(passed))
        except OSError as exc:
            note(f"cannot save the party's HP and MP ({error_text(exc)}): the HP the "
                 "poisons took is not kept")
            self.trouble = "HP not saved HP保存不可: the HP the poisons took is not kept 未記録"

    def _tick_refused(self, exc: RuleRefused) -> None:
        """A tick refused on events.toml: its error on the Poisons view and stderr, no
        time passed; the tray goes on (its rolls, the tables that read no such rule)."""
        note(str(exc))
        self._poisons_view((DiceStep("EV-POI-2", f"events.toml refused 設定に誤り: {exc}"),))
        self.trouble = TICK_REFUSED

    def under_way(self) -> bool:
        """Whether a table (or a plain roll) is part-thrown: throws taken, its next die
        awaited or held after a Back or a failed throw (*Again* asks it). A walk named from
        an outcome (:attr:`TrayPick.named`: *Fires*, *Found*) is under way before its first
        die too: the outcome that offered it is not saved, and nothing else names it again
        (Tables → Trap rolls a new type); a stop there lost it (r76events RISK 1)."""
        if self.throws:
            return self.stage is Stage.THROW or self.resume
        return (self.pick is not None and self.pick.named
                and (self.stage is Stage.THROW
                     or (self.stage is Stage.OUTCOME and bool(self.note))))

    def carry_on(self, left: DiceTrayMode) -> None:
        """Take up the walk ``left`` had under way (:meth:`under_way`), the tray of this run
        left for another mode (the System menu) and come back to: its throws taken are kept,
        and the die it awaited is asked again, as a fight's half-thrown action is. A new tray
        each time threw the table's accepted roll again (dice66 D3)."""
        self.pick, self.throws = left.pick, list(left.throws)
        self._typed_throws = list(left._typed_throws)
        self.stage, self.resume, self.held = left.stage, left.resume, left.held
        self.rules_stop = left.rules_stop
        self.note, self.trouble, self.crowded = left.note, left.trouble, left.crowded
        self.hint = left.hint
        self.report, self.reading = left.report, left.reading
        self.dice = left.dice
        self._table_written, self.table_trouble = left._table_written, left.table_trouble
        self._table_stale = left._table_stale
        self._poisons_then, self._taken_up = left._poisons_then, left._taken_up
        self._tracked_change, self._track_known = left._tracked_change, left._track_known
        if self.stage is Stage.THROW:
            self._walk_on()  # walked again by this tray's rules and lists

    def table_unsaved(self) -> bool:
        """Whether the table part-thrown (:meth:`under_way`) is held in memory only: no
        ``table_file``, or the disk refused its last write (:attr:`table_trouble`), so a
        power cut, or the run's end, loses it; or whether ``table_file`` holds an older
        table than the tray's, the disk having refused both its write and its removal
        (:data:`TABLE_STALE`), table or none under way now, until a write succeeds
        (reviewd67 DEFECT 3). The System menu says so."""
        return self._table_stale or (
            self.under_way() and (self.table_file is None or bool(self.table_trouble)))

    def table_stale(self) -> bool:
        """Whether ``table_file`` holds an older table than the tray's, the disk having
        refused both its write and its removal (:data:`TABLE_STALE`), and no table is under
        way (held in memory only, which :meth:`table_unsaved` says a power cut loses): a
        start asks that older table's dice again. The System menu says so rather than that
        a power cut loses a table (reviewd67b RISK 5)."""
        return self._table_stale and not self.under_way()

    # -- the table part-thrown in its file ------------------------------------------------

    def _table_state(self) -> dict[str, Any] | None:
        """The table part-thrown as :data:`TABLE_FILE` holds it; None with none. A walk
        that just ended is saved as such (``ended``) while its poisons are tracked."""
        if self._ended is not None:
            assert self.pick is not None
            return {"table": self.pick.table, "expression": self.pick.expression,
                    "throws": [list(t) for t in self.throws], "stage": Stage.OUTCOME.value,
                    "resume": False, "held": False, "note": "", "ended": self._ended,
                    **self._trap_state()}
        if not self.under_way():
            return None
        assert self.pick is not None
        return {"table": self.pick.table, "expression": self.pick.expression,
                "throws": [list(t) for t in self.throws],
                "stage": self.stage.value, "resume": self.resume, "held": self.held,
                "note": self.note, "poisons": self._poisons_then, **self._trap_state(),
                **({"undo": self._undoing} if self._undoing is not None else {}),
                **({"refused": True} if self.rules_stop else {})}

    def _trap_state(self) -> dict[str, Any]:
        """The named trap kind (:data:`FIRES`), or the reward found (:data:`FOUND`), as the
        table's file holds it: none without."""
        assert self.pick is not None
        return {**({"trap": self.pick.trap} if self.pick.trap is not None else {}),
                **({"found": True} if self.pick.found else {})}

    def _table_text(self) -> str:
        return self._file_text(self._table_state())

    @staticmethod
    def _file_text(state: dict[str, Any] | None = None) -> str:
        """:data:`TABLE_FILE`'s text holding ``state`` (by default no table)."""
        return json.dumps({"version": TABLE_FORMAT, "table": state},
                          ensure_ascii=False, sort_keys=True) + "\n"

    def _keep_table(self) -> None:
        """Write :data:`TABLE_FILE` whole (atomically) when what it holds changed: the table
        part-thrown, or none. No file is made before a table was part-thrown.

        A write the disk refuses leaves the table in memory, said on stderr with the path and
        on the status line, and the next step writes it again. The older file is removed
        (a full disk lets a file be removed), so no start after a power cut takes up an older
        table and asks dice already thrown again (:data:`TABLE_UNWRITTEN`; with no table
        under way nothing is then lost). Where it cannot be removed either (a read-only
        disk), :data:`TABLE_STALE` says the older table is there, until a write succeeds
        (reviewd67 DEFECT 3)."""
        if self.table_file is None:
            return
        text = self._table_text()
        if text == self._table_written:
            return
        if self._table_written is None and self._table_state() is None \
                and not self.table_file.exists():
            self._table_written = text  # nothing to keep, and nothing kept
            self.table_trouble = ""
            return
        try:
            self.table_file.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.table_file, text)
        except OSError as exc:
            self._refused(exc)
            return
        self._table_written, self._table_stale = text, False
        if self.table_trouble:
            self.table_trouble = ""
            note(f"the dice tray's table is saved again in {self.table_file}")

    def _refused(self, exc: OSError) -> None:
        """:meth:`_keep_table`'s write refused (``exc``): the older file removed, or said to
        be there still (:data:`TABLE_STALE`)."""
        assert self.table_file is not None
        why = SHORT_REASONS.get(exc.errno or 0, exc.strerror or str(exc))
        try:
            self.table_file.unlink(missing_ok=True)
        except OSError as gone:
            trouble = TABLE_STALE.format(why=why)
            said = (f", and the older file could not be removed ({error_text(gone)}): a "
                    "start after a power cut takes up that older table and asks its dice again")
            self._table_stale = True
        else:
            self._table_written, self._table_stale = None, False
            if self._table_state() is None:  # no table, and no file: nothing lost
                self._table_written, self.table_trouble = self._table_text(), ""
                return
            trouble = TABLE_UNWRITTEN.format(why=why)
            said = (": the older file is removed; the table is held in memory only, and a "
                    "power cut loses it")
        if trouble != self.table_trouble:
            note(f"cannot save the dice tray's table part-thrown in {self.table_file} "
                 f"({error_text(exc)}){said}; it is written again at the next step")
        self.table_trouble = trouble

    def take_up_saved(self) -> None:
        """Take up the table part-thrown :data:`TABLE_FILE` holds, as the tray left it
        (after a power cut, a Quit or a stop): its throws kept, the die it awaited asked
        again, or held (*Again* or *Menu*) as it was. A file without a ``table`` (or with
        none) holds no table. One that cannot be read, or whose throws this tray walks to
        no die awaited, is kept aside (never deleted) and said on stderr with its path and
        on the status line; the tray starts at its menu, nothing else lost."""
        if self.table_file is None:
            return
        try:
            state = self._read_table()
            mended = state is not None and self._apply_table(state)
        except DataError as exc:
            self._to_menu()
            self.pick, self.throws = None, []
            path = self.table_file
            if isinstance(exc, NewerSave):
                # Whole, a newer companion's: kept for it as the game's save is, with how to
                # carry it on (hist68 NIT 1: it was kept as corrupt), which is to put it
                # back: the tray reads tray.json alone (reviewh68 RISK 3)
                try:
                    aside = move_aside(path, "newer")
                except OSError as err:
                    kept = f"it could not be kept aside ({err.strerror})"
                else:
                    kept = f"it was kept as {aside.name} ({newer_table_back(aside, path)})"
                note(f"{path}: the dice tray's table part-thrown was {exc}; {kept}, and the "
                     "tray starts at its menu")
            else:
                note(f"{path}: the dice tray's table part-thrown could not be taken up "
                     f"({exc}); {keep_aside(path)}, and the tray starts at its menu")
            self.trouble = TABLE_UNREADABLE
            if path.exists():  # not kept aside (a folder that lets nothing be renamed):
                self.table_file = None  # not written over; tables are held in memory only
                self.trouble = TABLE_UNREADABLE_LEFT
                self.table_trouble = TABLE_UNWRITTEN.format(why=UNREADABLE_LEFT_WHY)
            return
        if state is not None and state.get("ended") is not None and not self.rules_stop:
            self._take_up_ended(state["ended"])
            return
        if state is not None:  # its end checks the poison list (reviewd67b RISK 4)
            self._taken_up, self._poisons_then = True, state.get("poisons")
            if state.get("ended") is not None:  # held on events.toml: as the list was then
                self._poisons_then = state["ended"]["poisons"]
        if mended:
            assert state is not None
            self._finish_mended(state)
            return
        self._table_written = None if self._rewrite else self._table_text()
        if self._rewrite:
            self._rewrite = False
            self._keep_table()
        if self.rules_stop:  # saved as held on events.toml (a file before it said so too)
            self._table_written = None
            self._keep_table()
        if state is not None and state.get("undo") is not None:
            self._finish_undo(state["undo"])
            self._table_written = None  # its file holds the Undo: written again without
            self._keep_table()

    def _finish_mended(self, state: dict[str, Any]) -> None:
        """A table saved stopped on events.toml (:data:`RULES_STOPPED`) whose throws end
        its walk now the file is mended: its outcome shown, saved as ended and its poisons
        tracked as any walk's end (:meth:`_ended_walk`, the list checked against the one it
        began with), then no table written. It was kept aside as corrupt, "no die is
        awaited", its throws lost (reviewe74 DEFECT 1)."""
        assert self.table_file is not None
        self.resume = self.held = False
        self.note = ""
        self._table_written = self._file_text(state)  # what the file holds
        self._ended_walk()
        self._keep_table()
        note(f"{self.table_file}: the dice tray's {self._title()} stopped on events.toml; "
             "it is mended, and the throws kept end the table: its outcome is shown")

    def _finish_undo(self, undo: dict[str, Any]) -> None:
        """An Undo the power cut between its two writes (:meth:`_undo`): the list put back
        as the Undo left it (``undo["before"]``) while it is still the list the table left
        (``undo["after"]``), the poison undone no longer tracked; the die asked again then
        tracks its own (finala72 RISK 2). The list changed since (or unreadable): left as
        it is; the table's end says so (:meth:`_track_checked`)."""
        if self.poisons is None:
            return
        if self._list_fingerprint() != undo["after"]:
            return
        before = {name: Poison.from_json(data, f"{self.table_file}: table.undo.before")
                  for name, data in undo["before"].items()}
        try:
            put_back = self.poisons.put_back(before, dict(self.poisons.poisons))
        except OSError as exc:
            note(f"cannot save the poison list ({error_text(exc)}): the {self._title()}'s "
                 "Undo the power cut is not finished")
            return
        if put_back:
            note(f"{self.table_file}: the {self._title()}'s Undo, cut by a stop, finished: "
                 "the poison list put back as it was before the table's poison")

    def _take_up_ended(self, ended: dict[str, Any]) -> None:
        """A walk saved as ended (:meth:`_ended_walk`), the power gone before its file said
        no table: its outcome shown again, its poisons tracked only if the list is as it was
        before them (the cut came before they were written), said tracked already when they
        are in it, and else said not tracked, to note by hand (:meth:`_track_checked`;
        reviewd67 DEFECT 1, reviewd67b DEFECT 3); then no table written."""
        then = ended["poisons"]
        if then is not None and self.poisons is not None and self.report is not None:
            self._track_checked(then, "it had ended as it stopped")
        self._table_written = None
        self._keep_table()  # no table now: the ended one is written over

    def _read_table(self) -> dict[str, Any] | None:
        """:data:`TABLE_FILE`'s table, shape-checked; None with no file or no table.
        :class:`DataError` says what is wrong."""
        assert self.table_file is not None
        try:
            raw = read_regular(self.table_file, TABLE_LIMIT, "dice tray table")
        except FileNotFoundError:
            return None
        except TooLarge as exc:
            raise DataError(str(exc)) from None
        except OSError as exc:
            raise DataError(error_text(exc)) from None
        try:
            # Through a byte order mark an editor put first, as save.json and the fight
            # files are read (hist68 NIT 1: it was refused, the table kept aside)
            text = raw.decode("utf-8").removeprefix(BOM)
            data = loads_json(text)
        except UnicodeDecodeError:
            raise DataError("not readable text (not UTF-8)") from None
        except json.JSONDecodeError as exc:
            # Cut: nothing but blanks or NULs, the text ending where the error is, or a
            # string never closed (the error names where it began, not the end).
            cut = (not text.strip("\0 \t\r\n") or exc.pos >= len(text.rstrip("\0 \t\r\n"))
                   or exc.msg.startswith("Unterminated string"))
            raise DataError("cut short or empty (a power cut as it was written?)" if cut
                            else f"not valid JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise DataError("not a JSON object")
        version = data.get("version")
        if type(version) is int and version > TABLE_FORMAT:
            raise NewerSave(f"written by a newer companion (table version {version}; this "
                            f"one reads {TABLE_FORMAT})")
        if type(version) is not int or version != TABLE_FORMAT:
            raise DataError(f"version {version!r}, this companion reads {TABLE_FORMAT}")
        unknown = sorted(set(data) - {"version", "table"})
        if unknown:
            raise DataError(f"unknown field {unknown[0]!r}")
        table = data.get("table")  # none in a file without the field
        if table is None:
            return None
        return _checked_table(table)

    def _apply_table(self, state: dict[str, Any]) -> bool:
        """The tray as ``state`` (:meth:`_read_table`) left it, its walk walked again: a
        walk that awaits no die (the tables changed since) is no table to take up, but for
        one saved stopped on events.toml, mended since: True, the start finishes it."""
        pick = TrayPick(state["table"], state["expression"], state.get("trap"),
                        state.get("found", False))
        self.pick, self.throws = pick, [tuple(t) for t in state["throws"]]
        self._typed_throws = []  # not kept in the file: typed only with typed dice
        # Before the list file is checked: a walk held for it is walked again only by
        # Again once it is mended (_resume), through today's walk, which ends at the 6
        # and passed over the reward's throws after it (r76events2 DEFECT 1)
        self._found_after_six(state)
        without_list = state.get("ended") is not None and self._lists_unread()
        if state.get("ended") is None and self._lists_blocked():
            return False  # not walked without the list it walked with: held till mended
        self.stage = Stage.THROW
        try:
            need = self._walk()
        except RuleRefused as exc:
            # A rule events.toml sets wrong: held at the stop, its throws kept until the
            # file is mended; never kept aside as corrupt (reviewe74 DEFECT 1)
            self._rules_stopped(exc)
            return False
        except CompanionError as exc:
            raise DataError(f"its throws do not walk {self._title()} ({exc})") from None
        if need is None and self._found() and not state.get("refused"):
            need = self._found_before(state)
            if need is None and state.get("ended") is None:
                return False  # its outcome, Found offered; no table written
        if state.get("ended") is not None:  # a walk saved as ended: its outcome
            if need is not None:
                raise DataError(f"its throws, said ended, do not end {self._title()}")
            # Said only when the walk came to a step the list picks for (a door opened
            # without a trap picks nothing: it said "not shown" all the same, finala72
            # NIT 2); its poisons are tracked all the same: no list gives one
            if without_list and self._came_to_a_list():
                note(f"{self.table_file}: the dice tray's {self._title()} had ended as it "
                     f"stopped; the list file cannot be read ({self.lists_error}), so its "
                     "outcome is shown without what the list picked (a monster's species, "
                     "an item)")
                self.trouble = LISTS_ENDED
                self.dice = replace(self.dice, steps=(*self.dice.steps, DiceStep(
                    "EV-MON-1", "Taken up after a stop: the list file cannot be read, so "
                    f"what it picked is not shown 選択は表示なし ({self.lists_error})")))
            return False
        # Saved stopped on events.toml ("refused"; a file of the tray before it said so
        # holds the error in its note): mended now, its throws end the walk, and the
        # start finishes it (take_up_saved)
        if need is None and (state.get("refused")
                             or "waits until it is mended" in state["note"]):
            return True
        if need is None:
            raise DataError(f"its throws end {self._title()}: no die is awaited")
        self.stage = Stage(state["stage"])  # the walk drew the die awaited in self.dice
        self.resume, self.held, self.note = state["resume"], state["held"], state["note"]
        if self.note == LISTS_BLOCKED:  # held for the list file, read now: held as by Back
            self.held, self.note = True, HELD_NOTE
        if state.get("refused") or "waits until it is mended" in self.note:
            # held on events.toml, mended since, its die awaited now: asked as after Back
            self.held, self.note = True, HELD_NOTE
        return False

    def _found_before(self, state: dict[str, Any]) -> NeedDice | None:
        """An exploration saved at its 6 by a tray before *Found* (:data:`FOUND`), awaiting
        the reward's count (29b73ab7) or its kind (before it), no die thrown after the 6
        (with one, :meth:`_found_after_six`): the 6 now ends the walk at the appraisal, so
        its outcome is shown, *Found* offered, and the die the player was told to throw is
        not asked: said once on the screen (:data:`OLD_SAVE_SIX`, r76events2 NIT 1). No
        throw is lost (r76events NIT 3). None: an outcome shown."""
        if state.get("ended") is not None:
            return None
        self._rewrite = True  # the file holds the old walk: written again as it is now
        note(f"{self.table_file}: the dice tray's {self._title()} was saved at its 6 "
             "awaiting the reward's die; the reward is rolled on a successful appraisal "
             f"now: its outcome is shown, and {FOUND} rolls it (EV-EXP-4)")
        self._notice_too(OLD_SAVE_SIX)
        return None

    def _found_after_six(self, state: dict[str, Any]) -> None:
        """An exploration saved by a tray before *Found* (:data:`FOUND`) with throws after
        its 6 (29b73ab7 rolled the reward's count with the 6, the tray before it the kind):
        the 6 now ends the walk at the appraisal, so the throws after it are the reward's,
        taken up as *Found* (the count, then the kind awaited): no throw lost, none asked
        again (r76events NIT 3). Known by the pick and the row the first throw reads
        (EV-EXP-4's), with no walk: before the list file is checked, which holds a list
        table unwalked until it is mended (r76events2 DEFECT 1: its Again walked the old
        throws through the walk of today, which ended at the 6, the count thrown passed
        over and asked again). Found's walk says the appraisal succeeded, which nobody
        confirmed before the count was thrown: said once on the screen
        (:data:`OLD_SAVE_FOUND`, r76events2 NIT 1)."""
        pick = self.pick
        if (pick is None or pick.table != "explore" or pick.found or len(self.throws) < 2
                or not self._bonus_row(self.throws[0])):
            return
        self._rewrite = state.get("ended") is None  # the file holds the old walk
        self.pick = TrayPick("explore", None, found=True)
        self.throws = self.throws[1:]
        note(f"{self.table_file}: the dice tray's exploration was saved at its 6 with the "
             f"reward's throws; taken up as {FOUND}, its throws kept (EV-EXP-4)")
        self._notice_too(OLD_SAVE_FOUND)

    def _bonus_row(self, throw: tuple[int, ...]) -> bool:
        """Whether ``throw``, an exploration's first, reads the bonus room's row (EV-EXP-4:
        the 6 of seed 001)."""
        try:
            row = self._rules().tables["explore"].row_for(sum(throw))
        except (KeyError, DataError):
            return False
        return bool(row.fields.get("follow") == "EV-EXP-4")

    def _notice_too(self, text: str) -> None:
        """Said once on the status line (:attr:`notice`), after what the dice source said
        as it opened, if it said anything."""
        self.notice = f"{self.notice}; {text}" if self.notice else text

    def _came_to_a_list(self) -> bool:
        """Whether the walk came to a step the list file picks for (:data:`LIST_STEPS`: a
        monster's species, EV-MON-1; the bonus room's items, EV-EXP-4)."""
        return self.report is not None and any(self.report.find(rule)
                                               for rule in LIST_STEPS)

    def _open_poisons(self) -> None:
        self.stage = Stage.POISONS
        self.crowded = 0
        self.note = self.trouble = self.hint = ""
        assert self.poisons is not None
        self.poisons.reload()  # `companion events` may have changed it meanwhile
        self._poisons_view(())

    def _thrown(self, throw: Throw) -> None:
        """A throw taken, failed or backed out of. Back on a table's first throw goes back
        to the menu; on a later one it holds the walk as a failed throw does (HELD): the
        throws taken are never thrown again but by *Menu* (review64e RISK 1). A walk named
        from an outcome (*Fires*, *Found*) is held on its first die too: nothing else names
        it again (Tables → Trap rolls a new type, EV-DOOR-3's second roll), and one Back
        lost it, its file cleared (r76events2 RISK 1); *Again* asks that die."""
        named = self.pick is not None and self.pick.named
        if throw.back and not self.throws and not named:
            self._to_menu()
            return
        if throw.back or throw.failure:
            self.rules_stop = False
            self.note = throw.failure or HELD_NOTE
            self.held = throw.back
            self.stage = Stage.OUTCOME
            self.resume = bool(self.throws)
            return
        self._typed_throws[len(self.throws):] = [
            *([False] * (len(self.throws) - len(self._typed_throws))), throw.typed]
        self.throws.append(throw.values)
        self._walk_on()

    def _to_menu(self) -> None:
        self._tracked_change, self._track_known = None, False
        self.stage = Stage.MENU
        self.pick = None
        self.resume = self.held = self.rules_stop = False
        self.note = self.trouble = self.hint = ""
        self.crowded = 0
        # A list file mended meanwhile: its error leaves the Table panel (reviewe72 NIT 7)
        self._lists_read_again()
        self.dice = self._menu_view()

    def _start(self, pick: TrayPick) -> None:
        self._tracked_change, self._track_known = None, False
        self.pick = pick
        self.throws = []
        self._typed_throws = []
        self._taken_up = False
        self._poisons_then = (self._list_fingerprint() if pick.table is not None
                              and self.poisons is not None else None)
        self.resume = self.held = self.rules_stop = False
        self.note = self.trouble = self.hint = ""
        self.crowded = 0
        self.stage = Stage.THROW
        self.dice = DiceView(title=self._title(), source=self.source_name)
        self._walk_on()

    def _resume(self) -> None:
        """*Again* after a follow-up throw failed (the camera timed out, stopped, or was
        tried again) or was backed out of (HELD): the throws already accepted are kept and
        the die the walk awaits is asked again, as the fights ask theirs. Starting the table
        over threw its accepted roll again, a free reroll of its outcome (events64 D1,
        review64e RISK 1); only *Menu* drops the walk."""
        self.resume = self.held = self.rules_stop = False
        self.note = ""
        self.stage = Stage.THROW
        self._walk_on()

    def _walk_on(self) -> None:
        """Walk as far as the throws go; a table that cannot go on says why at its outcome.
        A whole table's poisons, or its cure, go to the tracked list."""
        if self._lists_blocked():
            return
        try:
            need = self._walk()
        except RuleRefused as exc:
            self._rules_stopped(exc)
            return
        except CompanionError as exc:
            self.note = str(exc)
            self.stage = Stage.OUTCOME
            return
        if need is None:
            self._ended_walk()

    def _rules_stopped(self, exc: RuleRefused) -> None:
        """The table stopped on a rule the player's events.toml set wrong: at its outcome
        with the error, its own prompt (:data:`RULES_STOPPED`), and the throws taken kept
        and listed, the last one too (reviewe74 DEFECT 1: it said "No roll", hid the last
        throw, and a start set the table aside as corrupt). A table is refused before its
        first die when it can come to the rule, so throws are kept only for a table saved
        before, or a rule the walk read unforeseen: Menu drops them."""
        self.stage = Stage.OUTCOME
        self.note, self.held, self.rules_stop = str(exc), False, True
        self.resume = bool(self.throws)
        taken = "; ".join(",".join(map(str, t)) for t in self.throws)
        assert self.pick is not None
        rule = EVENT_TABLES[self.pick.table] if self.pick.table is not None else "§1"
        kept = ((DiceStep(rule, f"Throws kept 振った分は保持: {taken}"),) if self.throws
                else ())
        why = str(exc)
        if self.throws and why.endswith(NO_DIE_THROWN):  # dice were thrown: they are kept
            why = why.removesuffix(NO_DIE_THROWN) + THROWS_KEPT
        self.note = why
        self.dice = DiceView(title=self._title(), source=self.source_name, steps=(
            *kept, DiceStep("§1", f"events.toml refused 設定に誤り: {why}")))

    def _waiting(self, table: str) -> str:
        """:data:`RULES_WAITING` after a table on the Tables panel (or ``tick``, *Tick* on
        the menu's) that can come to a rule events.toml set wrong (refused before its first
        die, or before a tick writes), else ""."""
        if self.rules is None or refused_reach(self.rules.settings, table) is None:
            return ""
        return f" — {RULES_WAITING}"

    def _lists_blocked(self) -> bool:
        """Whether the pick is a table that can come to a list while the list file cannot
        be read (:data:`LISTS_BLOCKED`; it is read again first): the tray is then at the
        outcome, the error on its screen, *Again* trying again, the throws taken kept."""
        if not self._lists_unread():
            return False
        self.stage = Stage.OUTCOME
        self.resume, self.held, self.note = bool(self.throws), False, LISTS_BLOCKED
        self.dice = DiceView(title=self._title(), source=self.source_name,
                             steps=self._lists_rows())
        return True

    def _lists_unread(self) -> bool:
        """Whether the pick is a table that can come to a list while the list file cannot
        be read (it is read again first)."""
        if self.pick is None or self.pick.table not in LIST_TABLES or not self.lists_error:
            return False
        return not self._lists_read_again()

    def _lists_read_again(self) -> bool:
        """Read the list file again (:attr:`reload_lists`) while it is said unreadable:
        whether it reads now (:attr:`lists_error` then cleared)."""
        if not self.lists_error or self.reload_lists is None:
            return not self.lists_error
        try:
            self.lists = self.reload_lists()
        except DataError as exc:
            self.lists_error = str(exc)
            return False
        self.lists_error = ""
        note("the list file is read again: the tables that use it go on")
        return True

    def _lists_rows(self) -> tuple[DiceStep, ...]:
        """The list file's error on the screen, and what waits for it."""
        if not self.lists_error:
            return ()
        waiting = ", ".join(str(TABLE_NAMES[t]) for t in TABLE_NAMES if t in LIST_TABLES)
        return (DiceStep("EV-MON-1", f"List file unreadable リスト読めず: {self.lists_error}"),
                DiceStep("EV-MON-1", f"{waiting} wait until it is mended 修正まで待機; the "
                         "other tables, the rolls and Tick go on"))

    def _ended_walk(self) -> None:
        """A walk just whole: saved first as ended (its throws, and the poison list's
        fingerprint before), then its poisons tracked; the answer's :meth:`_keep_table`
        then writes no table. A power cut between any two of these writes neither asks its
        last die again (a free reroll, review64e RISK 1) nor tracks its poison twice: a
        start takes an ended table up at its outcome, and tracks its poisons only when the
        list is as it was before (:meth:`_take_up_ended`; reviewd67 DEFECT 1). A walk whose
        file holds no table part-thrown (its first throw ended it) is not saved as ended: a
        cut then asks nothing again, and no file is made for a plain roll."""
        track = self.report is not None and self.poisons is not None
        if self._table_written in (None, self._file_text()):
            if track:
                self._track_taken_up()
            return
        # The list as the table began (its file holds it); a table taken up from a file
        # written before the list was kept in it, the list as it is now.
        then = (self._poisons_then if self._poisons_then is not None
                else self._list_fingerprint()) if track else None
        self._ended = {"poisons": then}
        try:
            self._keep_table()
            if track:
                self._track_taken_up()
        finally:
            self._ended = None

    def _track_taken_up(self) -> None:
        """:meth:`_track`, but a table taken up from its file (:attr:`_taken_up`) checks
        the list first (:meth:`_track_checked`): a file the disk would not update (only
        dice/ read-only) may hold a table that ended and tracked its poison before, asked
        again (reviewd67b RISK 4)."""
        if self._taken_up and self._poisons_then is not None:
            self._track_checked(self._poisons_then, "its file was taken up")
        else:
            self._track()

    def _track_checked(self, then: str, since: str) -> None:
        """Track the table's poisons (or its cure) only when the list is as it was before
        them (``then``, :meth:`_list_fingerprint`): never twice, never lost without a word
        (reviewd67b DEFECT 3). The list as it was: tracked now. Else the table's own poison
        in it (a victim's, the same poison; or the cured no longer listed): tracked before,
        said so. Else (the list changed meanwhile, or could not be read): not tracked, and
        said as trouble, to note by hand."""
        assert self.poisons is not None and self.report is not None
        poisons, cures = self._effects()
        if not poisons and not cures:
            self._track()  # nothing of the list's to track (its notes said all the same)
            return
        now = self._list_fingerprint()
        if now != UNREADABLE_LIST and now == then:
            self._track()
            return
        what = ("its poison is" if poisons else "its cure is")
        if now != UNREADABLE_LIST and self._effects_listed(poisons, cures):
            note(f"{self.table_file}: the dice tray's {self._title()} ({since}): {what} in "
                 "the poison list already: not tracked again")
            self.dice = replace(self.dice, steps=(*self.dice.steps, DiceStep(
                "EV-POI-2", f"Taken up after a stop: {what} tracked already 記録済み; "
                f"{POISONS} in the menu shows the list")))
            return
        why = ("the poison list cannot be read" if UNREADABLE_LIST in (now, then)
               else "the poison list changed meanwhile")
        note(f"{self.table_file}: the dice tray's {self._title()} ({since}): {why}, and "
             f"{what} not in it: it is not tracked, lest it be twice; check {POISONS} and "
             "note it by hand")
        self.trouble = (TRACK_REFUSED if poisons else CURE_REFUSED)
        self.dice = replace(self.dice, steps=(*self.dice.steps, DiceStep(
            "EV-POI-2", f"Taken up after a stop: {self.trouble}")))

    def _effects(self) -> tuple[list[tuple[str | None, Poison]], list[list[str] | None]]:
        """What the table's walk does to the poison list: the poisons it gives (whom, None
        for a victim unnamed; the poison), and the cures (the names, None for all)."""
        assert self.report is not None
        poisons = [(step.member, afflict(None, Poison.from_json(step.data["poison"],
                                                                "the poison table")))
                   for step in self.report.find("EV-POI-3")]
        cures = [step.data["cured"] for step in self.report.find("EV-REC-1")
                 if step.data.get("cure_poison")]
        return poisons, cures

    def _effects_listed(self, poisons: list[tuple[str | None, Poison]],
                        cures: list[list[str] | None]) -> bool:
        """Whether the list holds what the walk did to it: each poison given, to its
        character (or to a ``victim``, ``victim 2``, …), and none of the cured."""
        assert self.poisons is not None
        listed = self.poisons.reload()
        for who, poison in poisons:
            names = same_name(listed, who) if who is not None else [
                n for n in listed if _unnamed(n)]
            if not any(listed[n] == poison for n in names):
                return False
        return all(not listed if names is None else
                   not any(same_name(listed, name) for name in names) for names in cures)

    def _list_fingerprint(self) -> str:
        """The poison list as it is read (parsed, so a rewrite that changes no poison, as
        ``events end-block`` with none tracked, is no change; no file is an empty list),
        hashed; :data:`UNREADABLE_LIST` when the disk will not read it."""
        assert self.poisons is not None
        try:
            listed = self.poisons.reload()
        except OSError:
            return UNREADABLE_LIST
        return self._fingerprint(listed)

    @staticmethod
    def _fingerprint(listed: Mapping[str, Poison]) -> str:
        """:meth:`_list_fingerprint` of the list ``listed``."""
        dump = json.dumps({name: poison.to_json() for name, poison in listed.items()},
                          ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(dump.encode("utf-8")).hexdigest()

    def _track(self) -> None:
        """The whole table's poisons, or its cure, to the tracked list, said under its
        outcome."""
        if self.report is not None and self.poisons is not None:
            # A list that cannot be saved (a read-only data folder) ends no roll: its
            # outcome is shown, with why the list was not kept.
            unsaved: list[str] = []
            self._track_known = True
            tracked = self.poisons.track(self.report, unsaved.append)
            if not unsaved and (tracked.poisoned or tracked.cured):
                # as read under the list's hold: another program's change is in it
                self._tracked_change = (tracked.before, dict(self.poisons.poisons))
            notes = tracking_notes(tracked, self._rules())
            kept = ("this poison is not tracked" if tracked.poisoned
                    else "the cure is not kept in it")
            self._unsaved(unsaved, f"{kept}; note it by hand", "手で記録を")
            if not unsaved:
                notes += [f"Tracking {name}'s poison: {POISONS} in the menu ticks it"
                          for name in tracked.poisoned]
                # Short, on the status line: the Table panel, which the walk fills, cut
                # it and the Tracking line above at 800x480 (reviewe68 DEFECT 1).
                self.hint = beside_hint(tracked)
                if tracked.poisoned and len(self.poisons.poisons) > CROWDED:
                    self.crowded = len(self.poisons.poisons)
                    notes.append(f"{self.crowded} poisons tracked 毒{self.crowded}件, more "
                                 "than a party has (one each, EV-POI-3): has time passed? "
                                 f"{POISONS} → End block or Rest")
            self.dice = replace(self.dice, steps=(
                *self.dice.steps, *(DiceStep("EV-POI-2", text) for text in notes)))

    def _unsaved(self, unsaved: list[str], kept: str, kept_ja: str) -> None:
        """The poison list the disk refused (``unsaved``: why, naming the file), and what
        that leaves out: said on stderr with the path, and short in both languages as the
        screen's status, where it is not lost under a long walk (EV-POI-2)."""
        for why in unsaved:
            note(f"cannot save the poison list {why}: {kept}")
        self.trouble = (f"poison list not saved 毒リスト保存不可: {kept} {kept_ja}" if unsaved
                        else "")

    def _poisons_view(self, passed: tuple[DiceStep, ...]) -> None:
        """The tracked poisons (EV-POI-1's Show) under what the time that passed did."""
        assert self.poisons is not None
        listed = [DiceStep("EV-POI-1", f"{name}: {describe(poison, self._rules())}")
                  for name, poison in self.poisons.poisons.items()]
        notices = tuple(DiceStep("EV-POI-2", notice) for notice in self.poisons.notices)
        self.dice = DiceView(
            title="毒 Poisons (EV-POI-2)", source=self.source_name,
            steps=(*notices, *passed,
                   *(listed or [DiceStep("EV-POI-1", "No poison tracked 毒なし")])))

    def _rules(self) -> EventRules:
        return self.rules or load_rules()

    # -- the walk over the throws so far ------------------------------------------------

    def _walk(self) -> NeedDice | None:
        """Walk the pick over the throws so far: the throw it needs next, or None when the
        walk is whole (the outcome is then in ``dice``)."""
        assert self.pick is not None
        self.report = None
        source = Thrown(self.throws, self._d66_order(), self._d66_name())
        so_far: list[EventReport] = []  # the walk's steps before the die it awaits
        try:
            if self.pick.table is not None:
                # generic mode whatever events.toml says: the tray has no party file
                report = run_event(self.pick.table, source, rules=self.rules,
                                   mode=Mode.GENERIC, lists=self.lists, trap=self.pick.trap,
                                   found=self.pick.found, so_far=so_far.append)
                self.report = report
                # Every roll the walk took, as shown while the next was awaited: a step's
                # own roll leaves out a follow-up's (EV-POI-9's D4 and its ± die).
                rolls = tuple(r.line() for r in source.rolled)
                steps = _steps(report.steps)
                faces, sides = _faces(source.rolled)
            else:
                assert self.pick.expression is not None
                result = roll(self.pick.expression, source)
                # marked as `companion roll` marks it: the screen shows it all the same,
                # and bare it read as an open roll (events72 NIT 6)
                rolls, steps = (shown(result),), ()
                faces = tuple(d.value for d in result.dice)
                sides = tuple(d.sides for d in result.dice)
                sides = sides if any(s != 6 for s in sides) else ()
                self.reading = reading(result)
        except NeedDice as need:
            # The throws so far, and what each was for, shown while the next is awaited; and
            # the table's walk so far, which says what the throws gave and why another is
            # wanted (the Table panel was empty until the walk was whole).
            walked = _so_far(so_far[0], need, len(self.throws) + 1) if so_far else ()
            faces, sides = _faces(need.rolled)
            self.dice = DiceView(title=self._title(), faces=faces,
                                 rolls=tuple(r.line() for r in need.rolled), steps=walked,
                                 source=self.source_name, sides=sides)
            return need
        self.dice = DiceView(title=self._title(), faces=faces, rolls=rolls, steps=steps,
                             source=self.source_name, sides=sides)
        self.stage = Stage.OUTCOME
        return None

    def _d66_order(self) -> D66Order | None:
        """How the plain roll picked reads a D66's pair (``D66S``'s suffix, else the roll's
        Default order, as :func:`roll` reads it), so a pair under way shows its number;
        None for a table or a roll with no D66."""
        if self.pick is None or self.pick.expression is None:
            return None
        command = parse(self.pick.expression)
        single = command.command if isinstance(command, RepeatCommand) else command
        if isinstance(single, D66Command):
            return single.suffix.order or RollOptions().d66_order
        return RollOptions().d66_order

    def _d66_name(self) -> str:
        """How the plain roll picked writes its D66 (``D66S``), for the pair under way to
        say it as the outcome does (dicecam75 NIT 7); ``D66`` for a table or another roll."""
        if self.pick is None or self.pick.expression is None:
            return "D66"
        command = parse(self.pick.expression)
        single = command.command if isinstance(command, RepeatCommand) else command
        return single.formula if isinstance(single, D66Command) else "D66"

    def _title(self) -> str:
        assert self.pick is not None
        # A walk named from an outcome says the rule it goes on by, not its table's, whose
        # roll it is not: "罠 Trap (EV-TRAP-1)" asked the alarm's monster die as the roll
        # EV-DOOR-3 forbids (r76events RISK 2). The trap's or the reward's name, beside it,
        # cut the Dice panel's title at text_scale 1.25 (落とし穴, Found 見つけた); the
        # walk's first row says it.
        if self.pick.trap is not None:
            return f"{TABLE_NAMES['trap']} (EV-DOOR-3)"
        if self.pick.found:
            return f"{TABLE_NAMES['explore']} (EV-EXP-4)"
        if self.pick.table is not None:
            return f"{TABLE_NAMES[self.pick.table]} ({EVENT_TABLES[self.pick.table]})"
        assert self.pick.expression is not None
        return self.pick.expression

    def _first_roll_for(self) -> str:
        """What the first throw is for: the table, or the plain roll's expression when it
        says more than the dice thrown (``2D6>=9``'s target, ``1D6+1``'s bonus, ``D66``'s
        reading). A bare roll (``2D6``, ``d6``, ``D100``) names the tray instead: the throw's
        own words (*Throw 1D6…*, *Read 1D6…*) say the dice, and said twice they told the
        player nothing (display audit 56 #13, review 56 #7)."""
        if self.pick is not None and self.pick.expression is not None \
                and _is_bare_roll(self.pick.expression) \
                and not _d66_dice(self.pick.expression):
            return TRAY
        # A lone 1D66 named as D66 and 1D6+1D66 are (reviewe74 NIT 3): no sum, its reading
        return self._title()

    def _tens_first(self) -> str:
        """A D66 read as thrown (``D66``, ``D66N``, ``x3 D66``; ``1D66``, ``2D66``,
        ``1D6+1D66`` too, events74 NIT 5), typed: which die is the tens, as the command
        line says it; a player who typed the units first got 43 for 34, with no word
        (events72 NIT 4). The camera says its own (the left die). Typed:
        the tray's dice, or a D6 typed on a keypad since the camera stopped giving
        pictures, the rest of the session typed (reviewe72 RISK 3)."""
        if not (self.typed or self._typing_now) or self.pick is None \
                or self.pick.expression is None:
            return ""
        command = parse(self.pick.expression)
        single = command.command if isinstance(command, RepeatCommand) else command
        if not reads_d66_as_thrown(command):
            return ""
        if isinstance(single, D66Command):
            return ": the first die typed is the tens 1個目が十の位"
        # 1D66, 2D66, 1D6+1D66 (events74 NIT 5: no word, the command line says it): a D66
        # among other dice, so its pair is named
        return ": a D66's first die typed is the tens D66は1個目が十の位"

    def _outcome_prompt(self) -> str:
        if self.held:
            return HELD
        if self.rules_stop:
            return RULES_STOPPED_KEPT if self.throws else RULES_STOPPED
        if self.note == LISTS_BLOCKED:
            return LISTS_PROMPT
        if self.note:
            return NO_ROLL
        assert self.pick is not None
        if self.pick.table is not None and self.crowded:
            return (f"{TABLE_NAMES[self.pick.table]}: {self.crowded} poisons tracked "
                    f"毒{self.crowded}件 — has time passed? 時間経過は？")
        if self.pick.table is not None:
            return f"{TABLE_NAMES[self.pick.table]}: the table's outcome 結果"
        return f"{self.pick.expression}: {self.reading}"

    def _menu_view(self) -> DiceView:
        # Short: the Dice panel (about 264 px at 800x480) cut a longer title's Japanese.
        # (short: "Roll or table? 選んでください" was cut at text_scale 1.25, screen66 NIT 1)
        tick = (DiceStep("EV-POI-2", f"{POISONS}{self._waiting('tick')}"),)
        return DiceView(title=MENU_TITLE, source=self.source_name,
                        steps=(*self._rules_rows(), *(tick if self.poisons is not None
                                                     and self._waiting("tick") else ()),
                               *self._lists_rows()))

    def _rules_rows(self) -> tuple[DiceStep, ...]:
        """The player's events.toml values refused (:attr:`Settings.refused`), on the menu's
        and the tables' panels: the tray starts with them kept out, its rolls and Tick go
        on, and a table that reads one stops at its outcome with the error (events74 RISK
        2: the tray would not start, and a switch to it from a game ended the run)."""
        refused = self.rules.settings.refused if self.rules is not None else {}
        return tuple(DiceStep("§1", f"events.toml refused 設定に誤り: {why}; the tables "
                             "that read it stop 読む表は停止; mend it and start again")
                     for why in dict.fromkeys(refused.values()))

    # -- the screen, saving and the log -------------------------------------------------

    def view(self, prompt: str, *, options: tuple[Option, ...] = (),
             highlight: int | None = None, status: str = "", prompt_tile: str | None = None,
             prompt_faces: tuple[int, ...] = ()) -> View:
        dice = self.dice
        if prompt_faces:  # a throw read and awaiting the player's word
            dice = DiceView(title=dice.title, faces=prompt_faces, rolls=dice.rolls,
                            steps=dice.steps, source=dice.source)
        shown = self._status(status)
        return View(floor=None, room=None, room_tiles=(), sheet=None, prompt=prompt,
                    options=options, highlight=highlight, status=shown,
                    # the hint is the GM's next step, not trouble (no ⚠, not in red)
                    guidance=bool(shown) and shown == self.hint,
                    title=TITLE, dice=dice)

    def _status(self, status: str) -> str:
        """The status line: the table held in memory only (or an older one on the disk)
        first while a table is under way, the keypad's hint and a held note hid it while
        its dice were typed (reviewd67 DEFECT 4); else after the rest, so the poison list's
        "note it by hand" is never hidden by it (reviewd67b DEFECT 2). Last, an unnamed
        poison's hint (:attr:`hint`), when nothing is wrong. The dice source's
        :attr:`notice`, said once, comes before the two that may last all session (the
        table's file trouble, the hint), which would else hide it for good."""
        table = self.table_trouble if self.table_unsaved() else ""
        shown = ((table if self.under_way() else "") or status or self.note or self.trouble
                 or self.notice or table or self.hint)
        self._notice_shown |= bool(shown) and shown == self.notice
        return shown

    def closing(self) -> str:
        return "Dice tray closed ダイストレイを閉じました"

    @property
    def journal(self) -> list[str]:
        """The last :data:`JOURNAL_KEPT` answers (never replayed: the table part-thrown is
        saved as it stands, :data:`TABLE_FILE`)."""
        return list(self._journal)

    def restore(self, text: str) -> None:
        self.answer(throw_from_notation(text) if self.stage is Stage.THROW else int(text))

    def progress(self) -> int:
        return self._answers

    def history(self) -> Sequence[object]:
        return ()

    def log_lines(self, events: Sequence[object]) -> list[str]:
        return []


def _checked_table(table: object) -> dict[str, Any]:
    """A saved table part-thrown (:data:`TABLE_FILE`'s ``table``), its shape checked:
    :class:`DataError` names the field that is wrong."""
    if not isinstance(table, dict):
        raise DataError(f"table must be an object, found {json_kind(table)}")
    kinds: dict[str, tuple[type, ...]] = {
        "table": (str, type(None)), "expression": (str, type(None)), "throws": (list,),
        "stage": (str,), "resume": (bool,), "held": (bool,), "note": (str,)}
    for key, kind in kinds.items():
        if key not in table:
            raise DataError(f"table.{key} is missing")
        if not isinstance(table[key], kind):
            raise DataError(f"table.{key} has the wrong type ({table[key]!r})")
    unknown = sorted(set(table) - set(kinds)
                     - {"ended", "poisons", "undo", "refused", "trap", "found"})
    if unknown:
        raise DataError(f"unknown field table.{unknown[0]}")
    if (table["table"] is None) == (table["expression"] is None):
        raise DataError("table holds neither a table nor an expression, or both")
    if table["table"] is not None and table["table"] not in TABLE_NAMES:
        raise DataError(f"table.table {table['table']!r} is no event table")
    if "trap" in table and not (isinstance(table["trap"], str) and table["table"] == "trap"):
        raise DataError(f"table.trap {table['trap']!r} names no trap of the trap table")
    if "found" in table and not (table["found"] is True and table["table"] == "explore"):
        raise DataError(f"table.found {table['found']!r} goes with the explore table only, "
                        "as true")
    if table["expression"] is not None:
        try:
            parse(table["expression"])
        except DiceSyntaxError as exc:
            raise DataError(f"table.expression {table['expression']!r} is not a dice "
                            f"expression ({exc})") from None
    throws = table["throws"]
    # A walk named from an outcome (Fires, Found) is saved before its first die too
    # (r76events RISK 1): its name is what the file keeps
    named = "trap" in table or "found" in table
    if (not throws and not named) or not all(
            isinstance(t, list) and t and all(type(v) is int and 1 <= v <= 1000 for v in t)
            for t in throws):
        raise DataError("table.throws must be a list of throws, each a list of faces")
    if table["stage"] not in (Stage.THROW.value, Stage.OUTCOME.value):
        raise DataError(f"table.stage {table['stage']!r} is neither throw nor outcome")
    if not isinstance(table.get("refused", False), bool):
        raise DataError(f"table.refused has the wrong type ({table['refused']!r})")
    if not isinstance(table.get("poisons"), (str, type(None))):
        raise DataError(f"table.poisons has the wrong type ({table['poisons']!r})")
    undo = table.get("undo")
    if undo is not None:
        if not (isinstance(undo, dict) and set(undo) == {"before", "after"}
                and isinstance(undo["after"], str) and isinstance(undo["before"], dict)
                and table["stage"] == Stage.THROW.value):
            raise DataError(f"table.undo has the wrong shape ({undo!r})")
        for name, data in undo["before"].items():
            if not isinstance(data, dict):
                raise DataError(f"table.undo.before.{name} is no poison ({data!r})")
            Poison.from_json(data, f"table.undo.before.{name}")
    ended = table.get("ended")
    if ended is not None:
        if not (isinstance(ended, dict) and set(ended) == {"poisons"}
                and isinstance(ended["poisons"], (str, type(None)))):
            raise DataError(f"table.ended has the wrong shape ({ended!r})")
        if table["stage"] != Stage.OUTCOME.value or table["resume"] or table["held"]:
            raise DataError("table.ended with its stage not an outcome shown")
    elif table["stage"] == Stage.OUTCOME.value and not table["resume"] \
            and not (named and not throws and table["note"]):
        # (a named walk's first die failed is held at its outcome: Again asks it, no throw
        # to resume from)
        raise DataError("table.stage outcome without resume holds no table part-thrown")
    return table


def _unnamed(name: str) -> bool:
    """Whether ``name`` is one the list gives a poison to nobody named: ``victim``,
    ``victim 2``, … (:data:`~companion.app.poisons.UNNAMED`), but for case and width."""
    folded, base = folded_name(name), folded_name(UNNAMED)
    return folded == base or (folded.startswith(f"{base} ")
                              and folded[len(base) + 1:].isdigit())


def throw_to_notation(throw: Throw) -> str:
    """A throw in a journal: ``3,5``; ``back``; or ``failed: <why>``."""
    if throw.back:
        return "back"
    if throw.failure:
        return f"failed: {throw.failure}"
    return ",".join(map(str, throw.values))


def throw_from_notation(text: str) -> Throw:
    if text == "back":
        return Throw(back=True)
    if text.startswith("failed: "):
        return Throw(failure=text.removeprefix("failed: "))
    return Throw(tuple(int(v) for v in text.split(",")))
