"""The fight: :class:`Fight` plays an action with push, takes it back with pop, and saves and
replays itself; :class:`Entry` is one journal line with the dice it used.

Each push runs the rules engine (:class:`~companion.systems.coc.combat.step._Step`) on a
working copy of the last :class:`~companion.systems.coc.combat.fighters.FightState`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.dice import DiceSource, ScriptedDice
from companion.errors import (
    CompanionError,
    DataError,
    IllegalAction,
    NewerFight,
    refuse_unknown,
)
from companion.systems.coc.combat.actions import Action, EndTurn, action_from_json, action_to_json
from companion.systems.coc.combat.fighters import Combatant, FightState, Side
from companion.systems.coc.combat.formats import (
    ENGINE,
    ENTRY_KEYS,
    FORMAT,
    _check_shape,
    _engine,
    _format1_notes,
    file_format,
    format1_rules,
    kept_as_begun,
)
from companion.systems.coc.combat.step import _Step
from companion.systems.coc.rules import CocRules, Profile
from companion.systems.coc.sheet import Sheet, sheet_from_mapping, sheet_mapping

#: A rule ID as an action's lines name it (CO-BASE-8, CO-DODGE-2).
RULE_ID = re.compile(r"CO-[A-Z]+-\d+")


#: A line that begins a blow's damage (``damage (1D3+1D4) ＞ …``, ``bullet 2: damage …``,
#: ``follow-up: …``): BASE 6e's damage roll, which no rule ID names.
BLOW = re.compile(r"^(?:bullet \d+: )?damage\b|^follow-up: ")
#: The line that says the HP a blow took (``Cult takes 4: HP 9/13``, ``takes no damage``):
#: the blow's last, whose rule goes no further (not onto ``the fight is over``).
HP_LOST = re.compile(r" takes (?:\d+: HP|no damage)")


def line_rules(lines: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """An action's lines, each with its rule ID: the one it names, CO-CORE-1 for a d100
    check (its criticals and fumbles are that rule's), else the line before's unless that
    line was a check or began a blow's damage (:data:`BLOW`): a check's rule is its roll's
    alone, and the damage and HP lines after a failed dodge showed CO-DODGE-2 (none of the
    damage rolls of BASE 6e has an ID); a damage line's own rule (an impale's CO-BASE-2, a
    special's CO-CORE-4) is that roll's, not the HP it takes, and a bullet's damage is not
    the armour rule of the bullet before (coc63 N2). An armour line's rule stays on the HP
    line after it (:data:`HP_LOST`), a fire's or a fall's on theirs, and goes no further."""
    out, carried = [], ""
    for line in lines:
        found = RULE_ID.search(line)
        check = "1D100<=" in line.upper()
        blow = bool(BLOW.match(line))
        rule = (found.group(0) if found else "CO-CORE-1" if check else "" if blow
                else carried)
        carried = "" if check or blow or HP_LOST.search(line) else rule
        out.append((rule, line))
    return tuple(out)


#: The rule column's width on the command line: the longest rule ID (CO-TACKLE-1), so
#: ``fight log``'s entries line up whatever IDs each names (cli59 F11).
RULE_WIDTH = len("CO-TACKLE-1")


def ruled_text(lines: Sequence[str]) -> str:
    """The lines as the command line prints them, each after its rule ID (:func:`line_rules`)
    as the table's Result panel shows it, in a column of one width; a line that names its
    own, or has none, with the column blank."""
    ruled = line_rules(lines)
    width = max([RULE_WIDTH, *(len(rule) for rule, _ in ruled)])
    return "\n".join(f"{rule if rule and rule not in line else '':<{width}}  {line}"
                      for rule, line in ruled)


@dataclass(frozen=True)
class Entry:
    """One journal line: the action, what happened (each line with its rule ID), the dice."""

    action: Action
    lines: tuple[str, ...]
    dice: tuple[tuple[int, int], ...]
    engine: int = ENGINE  # the rules revision that played it (1: format 1's, see FORMAT)
    # How many of ``lines`` are the action's own, the rest handing the turn over (passing
    # it, the round's end, the next round's start); None: all its own (the opening, a
    # declaration). Worked out again on replay, never saved (reviewcoc67 RISK 1).
    own: int | None = field(default=None, compare=False)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": action_to_json(self.action), "lines": list(self.lines),
                                "dice": [list(d) for d in self.dice]}
        if self.engine != ENGINE:
            data["engine"] = self.engine
        return data


class _Recorder:
    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.dice: list[tuple[int, int]] = []

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        values = list(self.source.roll(count, sides, purpose=purpose))
        self.dice += [(sides, v) for v in values]
        return values


class Fight:
    """A fight: push an action to play it, pop to take it back (the python-chess pattern)."""

    def __init__(self, rules: CocRules, entrants: Sequence[tuple[Sheet, Side]],
                 source: DiceSource, legacy: bool = False,
                 played: CocRules | None = None) -> None:
        """``legacy`` opens the fight, and plays what is pushed, as format 1 did (see
        :data:`FORMAT`); ``played`` is the rules format 1 read (:func:`format1_rules`)."""
        if len({s.name for s, _ in entrants}) != len(entrants):
            raise DataError("every combatant needs a name of its own")
        if not entrants:
            raise DataError("a fight needs combatants")
        self.rules = rules
        self.format1 = played or rules  # the rules an entry played by format 1 reads
        self.entrants = tuple(entrants)
        self.engine = 1 if legacy else ENGINE  # the revision new actions are played by
        self.reworded: list[int] = []  # old-format journal entries that now read differently
        self.notes: list[str] = []  # what loading an old file should tell the player
        recorder = _Recorder(source)
        step = _Step(self.format1 if legacy else rules, FightState(0, (), 0, tuple(
            Combatant(s, side, s.max_hp, mp=s.stat("POW"), san=s.sanity)
            for s, side in entrants)), recorder)
        step.new_round()
        self.opening = Entry(EndTurn(""), tuple(step.lines), tuple(recorder.dice), self.engine)
        self.states: list[FightState] = [step.freeze()]
        self.journal: list[Entry] = []
        # The lines the last push said, whole or up to where its source stopped it: a table
        # awaiting the next throw shows what the action's earlier ones came to (成功/失敗).
        self.said: tuple[str, ...] = ()
        self.said_own: int | None = None  # how many of them are the action's own (Entry.own)

    @property
    def legacy(self) -> bool:
        """New actions are played as format 1 played them (a test's old fight)."""
        return self.engine < FORMAT

    @property
    def state(self) -> FightState:
        return self.states[-1]

    def push(self, action: Action, source: DiceSource, engine: int | None = None) -> Entry:
        """Play ``action``; an illegal one raises IllegalAction and changes nothing.
        ``engine`` is the revision to play it by (only a replay asks for an older one)."""
        engine = self.engine if engine is None else engine
        recorder = _Recorder(source)
        old = engine < FORMAT
        step = _Step(self.format1 if old else self.rules, self.state, recorder, old, engine)
        try:
            step.play(action)
        finally:
            self.said = tuple(step.lines)
            self.said_own = step.own
        entry = Entry(action, tuple(step.lines), tuple(recorder.dice), engine, step.own)
        self.states.append(step.freeze())
        self.journal.append(entry)
        return entry

    def pop(self) -> Entry:
        if not self.journal:
            raise IllegalAction("nothing to undo")
        self.states.pop()
        return self.journal.pop()

    def to_json(self) -> dict[str, Any]:
        data = {"format": FORMAT, "engine": ENGINE, "profile": self.rules.profile.value,
                "settings": self.rules.settings(),
                "entrants": [{"side": side.value, "sheet": sheet_mapping(s)}
                             for s, side in self.entrants],
                "opening": [list(d) for d in self.opening.dice],
                "journal": [e.to_json() for e in self.journal]}
        if self.opening.engine < FORMAT:  # begun under format 1: its settings as they were
            data["opening_engine"] = self.opening.engine
        return data

    @classmethod
    def from_json(cls, rules: CocRules, data: Mapping[str, Any],
                  playing_on: bool = False) -> Fight:
        """Replay a saved fight from its log; the recorded dice must give the same lines.

        Entries keep the revision that played them; new actions follow today's rules, or
        with ``playing_on`` the revision the saved fight was played by (its ``engine``): a
        table save's fight, whose answers the table played by that revision and a resume
        replays by it, as the fight file holds them (review59a R1). A fight keeps every
        setting it was begun with, even one outside the range checked since (it was played
        so); :attr:`notes` say what differs."""
        if not isinstance(data, Mapping):
            raise DataError("not a saved coc fight (its top level must be a table)")
        fmt = file_format(data)
        _check_shape(data, rules)
        profile = Profile(data["profile"])
        settings = data.get("settings", {})
        entrants = [(sheet_from_mapping(rules, e["sheet"], f"entrant {n}", kept=True),
                     Side(e["side"])) for n, e in enumerate(data["entrants"], 1)]
        opening = [(int(s), int(v)) for s, v in data["opening"]]
        journal = list(data["journal"])
        first = 1 if fmt == 1 else _engine(data.get("opening_engine", FORMAT), "opening_engine")
        played = 1 if fmt == 1 else _engine(data.get("engine", FORMAT), "engine")
        rules = rules.with_profile(profile)
        # Kept as it was begun, in or out of the ranges checked since: a range may narrow in
        # a later version (CO-DEATH-1's did) and the fight must still open; a new --set is
        # checked.
        mine = rules.with_overrides(settings, "the fight's settings", limits=False)
        fight = cls(mine, entrants, ScriptedDice(opening), legacy=first < FORMAT,
                    played=format1_rules(rules, settings) if first < FORMAT else None)
        fight.engine = played if playing_on and played >= FORMAT else ENGINE
        for n, raw in enumerate(journal, 1):
            fight.replay(n, raw, strict=fmt >= FORMAT, engine=played)
        fight.notes = (_format1_notes(mine, len(journal)) if fmt == 1
                       else kept_as_begun(mine))
        return fight

    def replay(self, n: int, raw: object, strict: bool = True, engine: int = ENGINE) -> None:
        """Replay journal entry ``n``; anything wrong with it is a DataError naming it.

        A file of this format must read as it was written. One of an older format was
        written before some rule or wording was fixed: its dice replay under the rules that
        played them (``engine``, or the entry's own) and the entries that now read
        differently are listed in :attr:`reworded`."""
        where = f"journal entry {n}"
        if not isinstance(raw, Mapping):
            raise DataError(f"{where}: not an action with its dice, found {raw!r}")
        refuse_unknown(raw, ENTRY_KEYS, where)  # a slip ("dices") was dropped unsaid
        try:
            action = action_from_json(raw["action"])
            dice = [(int(s), int(v)) for s, v in raw["dice"]]
            lines = raw.get("lines")
            engine = _engine(raw.get("engine", engine), "engine")
        except NewerFight as exc:
            raise NewerFight(f"{where}: {exc}") from exc
        except DataError as exc:
            raise DataError(f"{where}: {exc}") from exc
        except KeyError as exc:
            raise DataError(f"{where}: {exc} is missing") from exc
        except (TypeError, ValueError) as exc:
            raise DataError(f"{where}: its dice must be [sides, value] pairs ({exc})") from exc
        try:
            entry = self.push(action, ScriptedDice(dice), engine)
        except CompanionError as exc:
            raise DataError(f"{where} ({action.kind} by {action.actor!r}) does not replay: "
                            f"{exc}") from exc
        if lines is not None and list(entry.lines) != list(lines):
            if strict:
                # a77cocgrapple RISK 4: the first line that differs, so a die mistyped by
                # hand (or a damaged card) is found; it said only "replays differently"
                raise DataError(f"{where} ({action.kind}) replays differently: "
                                + first_difference([str(x) for x in lines], list(entry.lines)))
            self.reworded.append(n)


def first_difference(saved: list[str], now: list[str]) -> str:
    """The first of an entry's lines that its replay reads differently, as saved and as now
    (a line missing on one side is "nothing")."""
    n = next((i for i, (a, b) in enumerate(zip(saved, now, strict=False)) if a != b),
             min(len(saved), len(now)))

    def said(lines: list[str]) -> str:
        return f'"{lines[n]}"' if n < len(lines) else "nothing"

    return f"line {n + 1} saved {said(saved)}, now {said(now)}"
