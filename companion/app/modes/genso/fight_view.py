"""The bottom layer of the genso mode: the fight and its rules (the fight's own), an action and
a name as the screen shows them (English beside the Japanese), the last check rolled (shown
until the next action or undo), and the screen: the fighters with their statuses, stances
and spells, the last result, the log, the title, the outcome and the closing line.

The mode is a chain of layers, each a subclass of the one below that may call any method
beneath it: ``_FightView`` → ``_TargetMenus`` → ``_GmMenu`` → :class:`GensoFightMode`.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.app.command_name import companion_command
from companion.app.modes.fight import FightMode
from companion.app.modes.genso.checks import CheckCall, Checked, check_steps
from companion.app.modes.genso.words import (
    ACTS_NO_MORE,
    SIDES,
    describe,
    english,
    english_names,
    named,
    summary,
)
from companion.app.modes.genso_fight_files import (
    DamagedCalendar,
    apply_command,
    default_fight_path,
    load_calendar,
    sunset_curse_text,
    unwritten,
)
from companion.app.session.rolls import NeedDice
from companion.errors import DataError, error_text
from companion.hw.display.view import DiceStep, FighterView, FightView, Name, Option, View
from companion.systems.genso.calendar import (
    Calendar,
    DeathCurse,
    Passed,
    fresh_copy,
    settle,
)
from companion.systems.genso.combat import (
    Action,
    Cast,
    Combatant,
    Entry,
    Fight,
    Outcome,
    Side,
    Sleep,
    Status,
    Sunrise,
    Sunset,
    wants_to_flee,
)
from companion.systems.genso.names import fold_name
from companion.systems.genso.rules import GensoRules

#: A fighter's row condition while another's Barrier (結界呪, GM-MAGIC-5) holds it: short,
#: a row is one line at 80 columns and on the 800x480 screen, at text scale 1.25 too ("in
#: barrier" was cut there); the caster's row names the spell, `fight show --json` the caster.
IN_BARRIER = "結界内 barrier"

#: The journal's answer for *GM → Sunset* with the Death Curses due at it (GM-MAGIC-13):
#: ``sunset`` and, after a space, ``{"curses": [[target, caster, cast_on, dies_on], …]}``;
#: plain ``sunset`` when none were due (and in every save before the record was kept).
SUNSET = "sunset"


def sunset_record(curses: tuple[DeathCurse, ...]) -> str:
    """The journal's answer for a GM → Sunset with ``curses`` due at it (:data:`SUNSET`)."""
    if not curses:
        return SUNSET
    return f"{SUNSET} " + json.dumps(
        {"curses": [[c.target, c.caster, c.cast_on, c.dies_on] for c in curses]},
        ensure_ascii=False)


def sunset_curses(record: str) -> tuple[DeathCurse, ...]:
    """The Death Curses a GM → Sunset's journal answer after ``sunset `` recorded
    (:func:`sunset_record`); :class:`DataError` when it is not such a record."""
    try:
        listed = json.loads(record)["curses"]
        curses = tuple(DeathCurse(target, caster, cast_on, dies_on)
                       for target, caster, cast_on, dies_on in listed)
    except (ValueError, TypeError, KeyError) as exc:
        raise DataError(f"the sunset's Death Curses {record!r} cannot be read ({exc})") \
            from None
    if not all(isinstance(c.target, str) and isinstance(c.caster, str)
               and all(isinstance(d, int) and not isinstance(d, bool)
                       for d in (c.cast_on, c.dies_on)) for c in curses):
        raise DataError(f"the sunset's Death Curses {record!r} cannot be read")
    return curses


def _typed(name: str) -> str:
    """A name as typed in a command: quoted only where a shell needs it (not for
    駆け出し冒険者１)."""
    return name if re.fullmatch(r"[\w@%+=:,./-]+", name) else shlex.quote(name)


class _FightView(FightMode):
    """The fight, its rules and names, the last check, and the screen."""

    def __init__(self, rules: GensoRules, fight: Fight, source_name: str = "",
                 fight_path: Path | None = None) -> None:
        # ``rules`` is what the session was started with; the mode reads the fight's own
        # (:attr:`rules`), the settings the fight is played with.
        super().__init__(fight, source_name)
        self.fight: Fight = fight
        self.last_check: Checked | None = None  # shown until the next action or undo
        #: The fight file (the default one when None), named in the ``fight apply`` hint.
        self.fight_path = fight_path or default_fight_path()
        # The apply hint as of the journal's length: the sheets are read once the fight is
        # over, not at every frame.
        self._hint: tuple[int, str] | None = None
        # The Death Curses on the calendar as of the journal's length, by folded name, and
        # those due at today's sunset: the calendar file is read once per action, not at
        # every frame.
        # And the fighters the calendar records dead of one, by folded name (RISK E), and
        # the curses each fighter carries, oldest first (a Dispel's note, calendar73 D1).
        self._curses: tuple[int, dict[str, str], tuple[DeathCurse, ...], frozenset[str],
                            dict[str, tuple[DeathCurse, ...]]] | None = None
        #: Why the calendar could not be read, in the status line until the next answer;
        #: said once for each fault (:meth:`curses`), the fight playing on without it.
        self.calendar_fault = ""
        self._fault_said = ""
        self._today = 0  # the calendar's day as :meth:`curses` last read it
        #: GM-MAGIC-13: the Death Curses due at each GM → Sunset, by the fight's journal
        #: length with it, as the calendar had them when it was pushed, kept in the journal's
        #: answer (:func:`sunset_record`) and so replayed as they were: worked out again on a
        #: resume, from the calendar of that day, a table taken up after `genso calendar pass
        #: 1` named the next day's curse at that sunset and not the one it killed (reviews68
        #: RISK 2).
        self._sunsets: dict[int, tuple[DeathCurse, ...]] = {}
        # While a journal's answer is replayed, the curses it recorded (none for a plain
        # ``sunset``): the calendar is not read then.
        self._replaying: tuple[DeathCurse, ...] | None = None
        #: What a resumed table says of the engine revision it plays on by, in the status
        #: line until the next answer (:func:`~companion.app.modes.genso.table.older_engine`).
        self.resumed = ""

    @property
    def rules(self) -> GensoRules:
        """The fight's own rules: the settings it was played with, not the session's."""
        return self.fight.rules

    def describe(self, action: Action | CheckCall) -> str:
        return self.with_english(describe(self.fight, action))

    def roll_prompt(self, action: Any, need: NeedDice) -> str:
        """What a throw is for: a check's roll alone (GM-CHECK-1..4), as the engine asks
        for it ("駆け出し冒険者２ PC 2's undead sensing 不死族感知 (2D6+8>12)"): the action
        beside it ("— 駆け出し冒険者２ PC 2 判定 check: 不死族感知 undead sensing") said
        the same again, and over the keypad of a fight of six it took the prompt a third
        row the combatants' rows could not give (reviews66 DEFECT 1). An opposed check's
        roll (GM-CHECK-5) says whose it is, its action whom against: the action is kept,
        less its caller where the roll is the caller's ("PC 2's roll 出目 — 判定 check:
        対抗判定 opposed check vs PC 1")."""
        if isinstance(action, CheckCall) and need.purpose:
            if not action.vs:
                return self.with_english(need.purpose)
            if action.who and need.purpose.startswith(f"{action.who}'s "):
                return self.with_english(
                    f"{need.purpose} — {describe(self.fight, replace(action, who=''))}")
            # The other side's roll (a monster's by its fighter's name, オーク1): against
            # the caller, as the caller's is against it; it read "オーク Orc/Orc's roll 出目
            # — 駆け出し冒険者２ PC 2 判定 check: … vs オーク1 Orc 1" (reviewg70 NIT H).
            if need.purpose.startswith(f"{action.vs}'s "):
                return self.with_english(
                    f"{need.purpose} — "
                    f"{describe(self.fight, replace(action, who='', vs=action.who))}")
        return super().roll_prompt(action, need)

    def english_names(self) -> dict[str, str]:
        return english_names(self.rules, self.fight)

    def answer(self, value: Any) -> list[Any]:
        self.resumed = self.calendar_fault = ""
        events = super().answer(value)
        if events:
            last = events[-1]
            self.last_check = last if isinstance(last, Checked) else None
            journal = self.fight.journal
            if journal and any(event is journal[-1] for event in events):
                self._pushed()
        return events

    def _pushed(self) -> None:
        """After an action pushed: a GM → Sunset's curses due recorded (:attr:`_sunsets`),
        as its journal answer replayed says them, else as the calendar has them now."""
        length = len(self.fight.journal)
        self._sunsets.pop(length, None)
        # The calendar read again: an action undone and another pushed has the length the
        # cache was kept by.
        self._curses = None
        if not isinstance(self.fight.journal[-1].action, Sunset):
            return
        due = self._replaying if self._replaying is not None else self.curses_due()
        self._sunsets[length] = due
        if self.journal and self.journal[-1] == SUNSET:
            self.journal[-1] = sunset_record(due)

    def restore(self, text: str) -> None:
        """As every fight's; a GM → Sunset's answer gives the curses it recorded
        (:func:`sunset_record`), a plain ``sunset`` none: a save from before they were
        recorded does not say the day of its sunset, and the calendar read now (after `genso
        calendar pass`) would name another day's curse (reviews68 RISK 2)."""
        head, sep, record = text.partition(" ")
        recorded = sunset_curses(record) if head == SUNSET and sep else ()
        self._replaying = recorded
        try:
            super().restore(head if head == SUNSET and sep else text)
        finally:
            self._replaying = None

    # -- the screen -----------------------------------------------------------------------

    def view(self, prompt: str, *, options: tuple[Option, ...] = (),
             highlight: int | None = None, status: str = "", prompt_tile: str | None = None,
             prompt_faces: tuple[int, ...] = ()) -> View:
        self.curses()  # (read before the status: a calendar that cannot be read says so)
        return super().view(prompt, options=options, highlight=highlight,
                            status=status or self.resumed or self.calendar_fault,
                            prompt_tile=prompt_tile,
                            prompt_faces=prompt_faces)

    def _outcome(self) -> str:
        """How the fight ended, the party's state beside the GM's end (全滅, review64g), the
        calendar's dead counted down (:meth:`party_out`): :meth:`outcome_at_end` in words."""
        state = self.fight.state
        at_end = self.outcome_at_end()
        if state.outcome is not None and at_end is not None:
            return f"{state.outcome.text} — {at_end.text}"
        return state.outcome_text

    def outcome_at_end(self) -> Outcome | None:
        """GM-COMBAT-1: how the sides stood when the GM ended the fight (終了), the state
        :meth:`_outcome` says beside the GM's end: the engine's party out (全滅 the party is
        down, or some fled and the rest down, review64g), else with the fighters the
        calendar records dead of a Death Curse (GM-MAGIC-13) counted down, the party out
        (:meth:`party_out`) or 勝利 the party won when every foe left was one of them
        (:meth:`foes_out`). None when the GM did not end the fight, or both sides could
        still act then. Public so that `companion genso fight` says it as the table does,
        its words not taken apart (fixgenso71f)."""
        state = self.fight.state
        if state.outcome is not Outcome.DECLARED:
            return None
        return (state.party_out or self._party_gone()
                or (Outcome.PARTY_WON if self._foes_gone() else None))

    def party_out(self) -> Outcome | None:
        """GM-COMBAT-1: how the party is out of the fight while it goes on (down 全滅, or some
        fled and the rest down), as the engine's :attr:`~companion.systems.genso.combat.
        FightState.party_down_going_on` says it, or with the fighters the calendar records
        dead of a Death Curse (GM-MAGIC-13, :meth:`cursed_dead`) counted down as the fallen
        are: they act no more (reviewg71 RISK 3: with pc1 dead by the calendar and pc2
        felled, the party was never down, and the fight looped through the dead's Skip turn
        until the GM ended it). None while one of the party can act."""
        state = self.fight.state
        if state.party_down_going_on:
            return state.party_out
        return self._party_gone() if state.outcome is None else None

    def _party_gone(self) -> Outcome | None:
        """The party out with the calendar's dead counted down, and at least one of them
        among it (the engine's own party out is :attr:`FightState.party_out`)."""
        party = [c for c in self.fight.state.combatants if c.side is Side.PARTY]
        dead = [c for c in party if c.status is Status.ACTIVE and self.cursed_dead(c.name)]
        if not dead or any(c.status is Status.ACTIVE and c not in dead for c in party):
            return None
        fled = any(c.status is Status.FLED for c in party)
        return Outcome.PARTY_FLED_SOME_DOWN if fled else Outcome.PARTY_DOWN

    def foes_out(self) -> bool:
        """GM-COMBAT-1: is every foe still in the fight one the calendar records dead of a
        Death Curse (GM-MAGIC-13: an enemy NPC from a sheet file, its death recorded since
        the fight began), the fight going on? The engine, which knows no calendar, would
        have ended it 勝利 the party won had they fallen (reviewg71b RISK 3: the party's
        menus lost Attack and the fight went round until the GM thought of ending it)."""
        state = self.fight.state
        return state.outcome is None and not state.party_down_going_on and self._foes_gone()

    def _foes_gone(self) -> bool:
        """Every foe down, fled or vanished with the calendar's dead counted down, and at
        least one of them among it (the engine's own is :attr:`Outcome.PARTY_WON`)."""
        foes = [c for c in self.fight.state.combatants if c.side is Side.ENEMY]
        dead = [c for c in foes if c.status is Status.ACTIVE and self.cursed_dead(c.name)]
        return bool(dead) and not any(c.status is Status.ACTIVE and c not in dead
                                      for c in foes)

    def fight_view(self, faces: tuple[int, ...] = ()) -> FightView:
        state = self.fight.state
        current = state.current
        rows = []
        for c in state.order:
            conditions = [c.status.badge] if c.status.badge else []
            # A stance lasts until the fighter's next action: one who fled or is down takes
            # none, and its badge must not share the row with a stale 全力攻撃 (a78screen 1).
            if c.status is Status.ACTIVE and c.stance.text:
                conditions.append(c.stance.text)
            for effect in c.effects:
                spell = self.rules.spell(effect.spell)
                conditions.append(f"{spell.ja} {spell.en}" + (f" ({c.weapon_label(effect)})"
                                                               if effect.weapon else ""))
            if self.barrier_holding(c):  # GM-MAGIC-5: one its caster's Barrier holds
                conditions.append(IN_BARRIER)
            if wants_to_flee(self.rules, c):
                conditions.append("逃走 wants to flee")
            if c.rises_as:
                conditions.append(f"蘇る rises at sunset ({c.rises_as})")
            if c.risen_as:  # kept for the GM to bring in (genso72 NIT 8)
                conditions.append(f"起き上がった risen ({c.risen_as})")
            if fold_name(c.name) in self.curses():
                conditions.append(self.curses()[fold_name(c.name)])
            rows.append(FighterView(
                Name(c.name, english(self.rules, self.fight, c)), SIDES[c.side], c.hp, c.max_hp,
                c.mp, c.max_mp, tuple(conditions),
                acting=current is not None and c.name == current.name,
                # Greyed as the fallen are, once the calendar records the death: the fighter
                # no longer acts at the table (reviewg70 RISK E).
                ally=c.side is Side.PARTY,
                down=c.status is not Status.ACTIVE or self.cursed_dead(c.name)))
        journal = self.fight.journal
        last = journal[-1] if journal else None
        log = tuple(self.with_english(f"{describe(self.fight, e.action)} ＞ {summary(e)}")
                    for e in journal[-8:])
        # The new round the action's end began (GM-CORE-2, the engine's last line when the
        # round turned over: "round 3 (10 s each, GM-CORE-2)") hands over, as coc's marked
        # steps do: the Result cut short keeps the action's own outcome (reviewcoc67 RISK 1).
        result = tuple(DiceStep(line.rule, self.with_english(line.text),
                                hand_over=n == len(last.lines) - 1 and line.rule == "GM-COMBAT-1"
                                and line.text.startswith(f"round {state.round} ("))
                       for n, line in enumerate(last.lines)) if last else ()
        if last is not None and isinstance(last.action, Sunset):
            # GM-MAGIC-13: a Death Curse due at this sunset, as `genso fight sunset` says it,
            # its target first (the table's GM → Sunset said none: fixg67b); as recorded
            # when it was pushed (reviews68 RISK 2); the death is the calendar's.
            result += tuple(DiceStep("GM-MAGIC-13", self.with_english(
                sunset_curse_text(self.rules, curse, table=True)))
                for curse in self._sunsets.get(len(journal), ()))
        dispelled = self.dispel_reaches_curse(last, table=True) if last is not None else ""
        if dispelled:  # GM-MAGIC-4/13: a Dispel's target carries a calendar curse
            result += (DiceStep("GM-MAGIC-4", dispelled),)
        result_title = self.describe(last.action) if last else ""
        if self.last_check is not None:  # a check rolled since the last action
            result = tuple(DiceStep(step.rule, self.with_english(step.text))
                           for step in check_steps(self.last_check.check))
            result_title = self.describe(self.last_check.call)
        return FightView(
            title=self._title(), round=state.round,
            turn=named(self.rules, self.fight, current) if current else "",
            fighters=tuple(rows), result=result, result_title=result_title, log=log,
            faces=faces, source=self.source_name, outcome=self._outcome(),
            result_is_newest=last is not None and self.last_check is None)

    def barrier_holding(self, c: Combatant) -> str:
        """GM-MAGIC-5: the caster whose Barrier (結界呪) holds ``c``, another than ``c`` (the
        caster's own row shows the spell), as the engine counts it: until sunrise or Dispel,
        its caster fallen or not, a fled caster's gone only under ``leaves_with_caster``;
        "" when none. Only the caster's row was marked, and with the party split the GM
        could not see who was inside (calendar73 NIT 6)."""
        gone = bool(self.rules.default("GM-MAGIC-5", "leaves_with_caster"))
        for caster in self.fight.state.combatants:
            if caster.name == c.name or (gone and caster.status is Status.FLED):
                continue
            if any(e.spell == "barrier" and c.name in e.members for e in caster.effects):
                return caster.name
        return ""

    def curses(self) -> dict[str, str]:
        """GM-MAGIC-13: the Death Curse (呪殺呪) each fighter carries by `genso calendar`, as
        its row's condition, by its folded name (as the calendar finds names): the days to
        the sunset that kills it (its soonest, ``呪殺呪 curse 366d``), today's, or 死亡 died of
        one (a death the calendar keeps, or a past sunset it lists). Short: a fighter's row
        is a line at 80 columns and on the 800x480 screen (review61e D1, R1: the sentence
        took three lines a fighter and was cut before its number; review61h N2: "curse",
        the spell's English); `genso sheet` and `genso calendar` say it whole. A calendar
        that cannot be read shows none, and says why once (:attr:`calendar_fault`): the
        fight goes on."""
        length = len(self.fight.journal)
        if self._curses is None or self._curses[0] != length:
            try:
                passed = settle(load_calendar(self.rules), self.rules)
                self._fault_said = ""
            except DataError as exc:
                passed = Passed(Calendar())
                # The bilingual words first: the screen's one-line status cuts the end.
                # A damaged calendar's file and fault alone: what to do fills no status line.
                why = exc.fault if isinstance(exc, DamagedCalendar) else error_text(exc)
                fault = f"呪殺呪の表示なし Death Curses not shown: {why}"
                if fault != self._fault_said:
                    self.calendar_fault = self._fault_said = fault
            tag = f"{self.rules.spell('death_curse').ja} curse"
            # The dead the calendar keeps, and those this read found (genso70 DEFECT 1: a
            # death told by `calendar pass` was forgotten, and the row showed no curse).
            # Not a fighter that joined as a fresh copy of an NPC preset, by where it came
            # from (a preset's entrant keeps no file): it is not the copy that died
            # (reviewg70 DEFECT B); one from a sheet file by that name is (reviewcg70b
            # DEFECT 1). Nor a monster: each fight's is a new individual, whatever the name
            # of one that died (reviewg71 DEFECT 1: a Death Curse recorded on `オーク` left
            # every later fight's orc skipping its turns; `fight new` checks no monster).
            fresh = {fold_name(e.name) for e in self.fight.entrants if e.monster
                     or fresh_copy(self.rules, e.character(self.rules), not e.origin)}
            dead = frozenset(fold_name(c.target) for c in passed.calendar.dead
                             if fold_name(c.target) not in fresh)
            shown = {target: f"{tag} 死亡 died" for target in dead}
            calendar = passed.calendar
            carried: dict[str, tuple[DeathCurse, ...]] = {}
            for curse in sorted(calendar.curses, key=lambda c: c.dies_on):
                target = fold_name(curse.target)
                left = calendar.days_left(curse)
                shown.setdefault(target, f"{tag} " + (
                    "今日 today" if left == 0 else f"{left}d"))
                carried[target] = tuple(sorted((*carried.get(target, ()), curse),
                                               key=lambda c: c.cast_on))
            self._curses = (length, shown, passed.today, dead, carried)
            self._today = calendar.day  # the calendar's day, to date a curse against
        return self._curses[1]

    def cursed_dead(self, name: str) -> bool:
        """GM-MAGIC-13: does the calendar record ``name`` dead of a Death Curse (its row
        ``呪殺呪 curse 死亡 died``, :meth:`curses`)? The dead do not act nor roll a check at
        the table, as `genso check` refuses them (reviewg70 RISK E: the row said died and the
        menus still offered the fighter). Not a fresh copy of an NPC preset (reviewg70
        DEFECT B) nor a monster (reviewg71 DEFECT 1), and none when the calendar cannot be
        read."""
        self.curses()
        assert self._curses is not None
        return fold_name(name) in self._curses[3]

    def died_why(self) -> str:
        """Why a fighter the calendar records dead is left out: ``died 死亡 (Death Curse
        呪殺呪)``, the spell as the rules name it (GM-MAGIC-13)."""
        spell = self.rules.spell("death_curse")
        return f"died 死亡 ({spell.en} {spell.ja})"

    def acts_no_more(self, c: Combatant) -> str:
        """GM-MAGIC-13: what the turn of ``c``, a fighter the calendar records dead of a Death
        Curse (:meth:`cursed_dead`), says, at the table and on the command line alike:
        ``駆け出し冒険者１ PC 1: died 死亡 (Death Curse 呪殺呪), acts no more 死者は行動しない``
        (:meth:`died_why`, :data:`~.words.ACTS_NO_MORE`)."""
        return f"{named(self.rules, self.fight, c)}: {self.died_why()}, {ACTS_NO_MORE}"

    def dispel_reaches_curse(self, entry: Entry, *, table: bool = False) -> str:
        """GM-MAGIC-4/13: after a Dispel (呪解呪) cast on a being that carries a Death Curse
        (呪殺呪) by `genso calendar`, the line that names it: 「対象に付与された呪文を一つ無効
        化する。…古い順に無効化される」. The engine, knowing no calendar, weighs only the
        fight's spells (calendar73 DEFECT 1). When it cancelled none ("no spell … can be
        cancelled", or cancel_none's), the line offers the curse's `genso calendar dispel`;
        when it cancelled one, the line says that one Dispel cancels one spell, and, if the
        GM rules the curse was reached instead, to `fight undo` the cancellation first
        (reviewg73 RISK 1: recording the curse as well had one Dispel cancel two spells).
        "older" only when the data shows it (:meth:`_curse_older`). The curse's caster may
        have no sheet, so whether the Dispel reached it (its caster's Magic not above the
        dispeller's) is the GM's. Empty for any other action, a Dispel on a weapon, or a
        target carrying none; the English beside the names (:meth:`with_english`) but in
        the command. ``table``: shorter, for the Result, whose rows at text scale 1.25 cut
        the whole sentence before its command. Not in the journal: the engine's lines, and
        so every replay, are as they were."""
        action = entry.action
        if not isinstance(action, Cast) or action.weapon is not None or not action.targets \
                or self.rules.spell(action.spell).effect != "dispel":
            return ""
        self.curses()
        assert self._curses is not None
        carried = self._curses[4].get(fold_name(action.targets[0]), ())
        if not carried:
            return ""
        curse, spell, dispel = carried[0], self.rules.spell("death_curse"), \
            self.rules.spell("dispel")
        # The engine's own word: it cancelled one of the fight's spells, or none (nothing
        # could be, or, by the cancel_none reading, the oldest could not), so the curse
        # may be the one spell this Dispel cancels.
        none_left = not any(line.rule == "GM-MAGIC-4" and line.text.endswith(" is cancelled")
                            for line in entry.lines)
        older = self._curse_older(curse, entry)
        dispeller = self.fight.state.get(action.actor)
        more = len(carried) - 1
        others = (f" (and {more} more: `genso calendar` lists them)" if more else "")
        command = (f"genso calendar dispel {_typed(curse.target)} --caster "
                   f"{_typed(curse.caster)}")
        undo = "genso fight undo"
        if table:  # short, for the Result beside the engine's lines, at text scale 1.25 too
            head = (f"{curse.target} also carries {curse.caster}'s {spell.ja}/{spell.en} (day "
                    f"{curse.cast_on}){' +' + str(more) if more else ''}"
                    f"{', older' if older else ''}")
            if none_left:
                return self.with_english(
                    f"{head}: if this {dispel.ja}/{dispel.en} reached it, ") + f"`{command}`"
            return self.with_english(
                f"{head}: one {dispel.ja}/{dispel.en} cancels one spell; if it reached the "
                "curse instead, ") + f"`{undo}`, then `{command}`"
        command = f"{companion_command()} {command}"
        undo = f"{companion_command()} {undo}"
        # The English beside the names in the words, not in the command (it would name
        # no one the calendar keeps).
        head = (f"{curse.target} carries {curse.caster}'s {spell.ja}/{spell.en} on the "
                f"calendar (cast on day {curse.cast_on}){others}"
                f"{', older than any spell of this fight' if older else ''}")
        magic = (f"({dispeller.name}'s Magic {dispeller.magic} not below {curse.caster}'s)")
        if none_left:
            return self.with_english(
                f"{head} (古い順に無効化される): if the GM rules this {dispel.ja}/{dispel.en} "
                f"reached it {magic}, record it: ") + f"`{command}`"
        return self.with_english(
            f"{head}: one {dispel.ja}/{dispel.en} cancels one spell (古い順に無効化される); if "
            f"the GM rules this one reached the curse instead {magic}, undo the "
            "cancellation first: ") + f"`{undo}`, then record it: `{command}`"

    def _curse_older(self, curse: DeathCurse, entry: Entry) -> bool:
        """GM-MAGIC-4: is ``curse`` surely older than every spell of the fight up to
        ``entry``? A fight keeps no day nor time, and a curse none but its day: so only a
        curse cast before today, in a fight whose journal crosses no night (no sunrise,
        sunset nor sleep before ``entry``), is. A curse of today may have been cast
        mid-fight, after the fight's spells (reviewg73 RISK 1, repro 2)."""
        assert self._curses is not None
        if curse.cast_on >= self._today:
            return False
        for earlier in self.fight.journal:
            if earlier is entry:
                break
            if isinstance(earlier.action, Sunrise | Sunset | Sleep):
                return False
        return True

    def curses_due(self) -> tuple[DeathCurse, ...]:
        """GM-MAGIC-13: the Death Curses whose target dies at today's sunset (none when the
        calendar cannot be read: :meth:`curses` says why)."""
        self.curses()
        assert self._curses is not None
        return self._curses[2]

    def _title(self) -> str:
        """The other side in a few words: オーク×2 Orc ×2."""
        counts: dict[str, int] = {}
        names: list[str] = []
        for e in self.fight.entrants:
            if e.side is not Side.ENEMY:
                continue
            if e.monster:
                counts[e.monster] = counts.get(e.monster, 0) + 1
            else:
                names.append(e.name)
        for key, n in counts.items():
            m = self.rules.monster(key)
            names.append(f"{m.ja} {m.en}" + (f" ×{n}" if n > 1 else ""))
        return "vs " + ", ".join(names)

    def apply_hint(self) -> str:
        """The line a finished fight ends its screens with when ``fight apply`` would write
        to a sheet file (:func:`unwritten`, as the command finds it): the sheets keep their
        old HP and MP until it does. Worked out once per journal length."""
        if self.fight.state.outcome is None:
            return ""
        length = len(self.fight.journal)
        if self._hint is None or self._hint[0] != length:
            hint = (f" — シートに記録 write HP and MP to the sheets: "
                    f"{apply_command(self.fight_path)}" if unwritten(self.fight) else "")
            self._hint = (length, hint)
        return self._hint[1]

    def closing(self) -> str:
        return f"The fight is closed 戦闘終了: {self._outcome() or 'saved'}{self.apply_hint()}"
