"""The `genso` :class:`Fight`: push and pop actions, settings changed mid-fight, the fight
file (:data:`FILE_VERSION`) and its replay, and a sheet as the fight leaves it.

Rules: GM-COMBAT-8 (who is down is judged again under a changed setting),
GM-ITEM-1/2/3 (mana stones, magic stones and stored MP written back to the sheet).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.dice import DiceSource, ScriptedDice
from companion.dice.sources import ScriptExhausted
from companion.errors import DataError, DeviceError, IllegalAction, NewerFight
from companion.systems.genso.character.core import Character
from companion.systems.genso.combat.actions import (
    Action,
    Cast,
    Move,
    action_from_json,
    action_text,
)
from companion.systems.genso.combat.combatants import Combatant, Side, Status, move_metres
from companion.systems.genso.combat.entrants import Entrant
from companion.systems.genso.combat.harm import _settle
from companion.systems.genso.combat.journal import (
    ENGINE,
    RECOUNTED_SINCE,
    Entry,
    Line,
    _Recorder,
)
from companion.systems.genso.combat.state import FightState, _swap
from companion.systems.genso.combat.turns import _advance, _apply
from companion.systems.genso.rules import GensoRules

#: The fight file's layout: 2 keeps the settings and each entry's engine revision; 3 to 10
#: are 2 with entries that name no revision played by revision 3 to 10 (:data:`ENGINE`).
FILE_VERSION = 10


def _pool_down(c: Combatant) -> str:
    """The pool below 1 that puts ``c`` out (GM-COMBAT-8): "HP 0", or "MP 0" for one whose
    HP is whole."""
    if c.mp < 1 and (c.hp is None or c.hp >= 1):
        return f"MP {c.mp}"
    return f"HP {c.hp}"


class DamagedDice(DataError):
    """An entry's recorded dice that are no list of ``[sides, value]`` pairs, or an entry
    without its action or dice."""


def _dice_record(dice: Any, where: str) -> list[tuple[int, int]]:
    """An entry's recorded dice, each a ``[sides, value]`` pair of whole numbers; else a
    DataError naming the record as coc's fight file names it ("its dice must be [sides,
    value] pairs"), not Python's "not enough values to unpack" (a78gensofight item 5)."""
    if not isinstance(dice, list):
        raise DamagedDice(f"{where} is damaged: its dice must be a list of [sides, value] "
                        f"pairs, found {json.dumps(dice, ensure_ascii=False)}")
    for die in dice:
        if not (isinstance(die, list) and len(die) == 2 and all(
                isinstance(n, int) and not isinstance(n, bool) for n in die)):
            raise DamagedDice(f"{where} is damaged: its dice must be [sides, value] pairs, "
                            f"found {json.dumps(die, ensure_ascii=False)}")
    return [(sides, value) for sides, value in dice]


def _entry_field(raw: Mapping[str, Any], key: str, where: str) -> Any:
    """An entry's ``action`` or ``dice``; one left out is said so ("its dice are
    missing"), not as Python's KeyError repr "does not replay ('dice')" (r78genso)."""
    if key not in raw:
        verb = "are" if key == "dice" else "is"
        raise DamagedDice(f"{where} is damaged: its {key} {verb} missing")
    return raw[key]


def setting_text(value: Any) -> str:
    """A setting's value as it is typed after ``--set RULE.key=``: ``true``, ``gm``, ``5``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


#: Defaults added since fight files keep their settings whose packaged value plays
#: otherwise than the engine did before them, each with the value that did as it did: a
#: fight file lacking one was played so (genso72 RISK 2: two Rings of Striking counted once).
PLAYED_BEFORE: dict[str, dict[str, Any]] = {"GM-ITEM-3": {"rings_of_a_kind_add": False}}


def _as_played(rules: GensoRules, stored: Any) -> Any:
    """A fight file's settings with each key it lacks as packaged (:attr:`GensoRules.packaged`),
    or as :data:`PLAYED_BEFORE` has it: a setting added since it was written did not exist
    when it was played, and the user's configured value would change its history (review60a
    D2: Fire on a Ghost). Settings of the wrong shape are left for
    :meth:`GensoRules.with_overrides` to refuse."""
    if not isinstance(stored, Mapping):
        return stored
    merged: dict[str, Any] = {rule: dict(keys) for rule, keys in rules.packaged.items()}
    for rule, keys in PLAYED_BEFORE.items():
        merged[rule] = {**merged.get(rule, {}), **keys}
    for rule, keys in stored.items():
        merged[rule] = {**merged.get(rule, {}), **keys} if isinstance(keys, Mapping) else keys
    return merged


#: What a sheet's gear gives its fighter that a Default may change (GM-ITEM-3, GM-EQUIP-2),
#: as an action's line names it.
_GEAR_TERMS = (("striking", "打撃の指輪/Ring of Striking: weapon damage", "+"),
               ("protection", "防護力/protection", ""),
               ("defence_extra", "防護の指輪/Ring of Protection: defence", "+"),
               ("combat", "戦闘/Combat", "+"))


def _recounted(entrants: Sequence[Entrant], before: GensoRules, after: GensoRules,
               state: FightState, rule: str) -> tuple[FightState, list[Line]]:
    """``state`` with each sheet fighter's gear counted again under the settings ``after``
    an action changed from ``before`` (engine revision :data:`RECOUNTED_SINCE`): GM-ITEM-3
    ``rings_of_a_kind_add`` (a second Ring of Striking or Protection) or
    ``protection_ring_adds_to``, or GM-EQUIP-2's shield, were counted into the fighter as
    the fight began, so a ``--set`` of one said "from this action on" and changed nothing
    (fixg72c). Each value moves by what the sheet gives under ``after`` less what it gave
    under ``before``, and a line (of ``rule``, the setting's) says what it is now."""
    changed: list[Combatant] = []
    lines: list[Line] = []
    for entrant in entrants:
        if entrant.monster:
            continue
        was, now = entrant.build(before), entrant.build(after)
        moved = {field: getattr(now, field) - getattr(was, field) for field, *_ in _GEAR_TERMS}
        if not any(moved.values()):
            continue
        fighter = state.get(entrant.name)
        fighter = replace(fighter, **{field: getattr(fighter, field) + by
                                      for field, by in moved.items()})
        changed.append(fighter)
        said = ", ".join(f"{label} {sign}{getattr(fighter, field)} (was "
                         f"{sign}{getattr(fighter, field) - moved[field]})"
                         for field, label, sign in _GEAR_TERMS if moved[field])
        lines.append(Line(rule, f"{fighter.name}: {said} under the new setting"))
    return _swap(state, *changed), lines


class Fight:
    """A fight: push(action, dice) applies one action; pop() undoes the last one.

    ``rules`` are the rules (with the settings) the next action is played under: those
    the fight began with, changed only by an action pushed with ``settings``.
    """

    def __init__(self, rules: GensoRules, entrants: Sequence[Entrant]) -> None:
        names = [e.name for e in entrants]
        if len(set(names)) != len(names):
            raise IllegalAction("every combatant needs its own name")
        if not any(e.side is Side.PARTY for e in entrants) or not any(
                e.side is Side.ENEMY for e in entrants):
            raise IllegalAction("a fight needs a PC party and an opposing side")
        # The rules each state was reached under: the start's, then one per journal entry.
        self._rules = [rules]
        self.entrants = tuple(entrants)
        self._states = [FightState(tuple(e.build(rules) for e in entrants))]
        self.journal: list[Entry] = []
        first = _settle(rules, self._states[0])
        if first.current is not None and first.current.status is not Status.ACTIVE:
            # Whoever cannot act from the start (HP or MP below 1 on the sheet) is skipped.
            first = _advance(rules, replace(first, turn=-1), [])
        self._states[0] = first
        # Sheet files written back after the fight: entrant name → digest of the text written.
        self.applied: dict[str, str] = {}
        #: The engine revision new actions play by: today's, or a table save's own
        #: (:meth:`from_json` ``playing_on``).
        self.engine = ENGINE

    @property
    def state(self) -> FightState:
        return self._states[-1]

    @property
    def rules(self) -> GensoRules:
        """The rules the next action is played under."""
        return self._rules[-1]

    @property
    def settings(self) -> dict[str, dict[str, Any]]:
        """Every Default as the fight began with it, as the fight file keeps it."""
        return {rule: dict(keys) for rule, keys in self._rules[0].settings.values.items()}

    def changes(self, settings: Mapping[str, Mapping[str, Any]], origin: str = "--set",
                limits: bool = True) -> list[tuple[str, str, Any, Any]]:
        """The settings of ``settings`` that differ from the fight's now: (rule, key, new,
        old); a setting that is no Default, or of the wrong kind, or (``limits``) outside
        its range, is refused."""
        wanted = self.rules.with_overrides(settings, origin, limits)
        return [(rule, key, wanted.default(rule, key), self.rules.default(rule, key))
                for rule, keys in settings.items() for key in keys
                if wanted.default(rule, key) != self.rules.default(rule, key)]

    def push(self, action: Action, source: DiceSource,
             settings: Mapping[str, Mapping[str, Any]] | None = None, origin: str = "--set",
             engine: int | None = None, limits: bool = True) -> Entry:
        """Apply ``action`` with dice from ``source``; an illegal one changes nothing.

        ``settings`` (``{rule: {key: value}}``) changes Defaults from this action on; the
        entry records those that differ. ``engine`` is the revision to play it by (only a
        replay of an old entry asks for an older one), else :attr:`engine`.
        ``limits=False`` takes settings out of their ranges: a replayed entry set them
        before the ranges were checked.
        """
        engine = self.engine if engine is None else engine
        rules = self.rules
        changed = self.changes(settings, origin, limits) if settings else []
        lines: list[Line] = []
        if changed:
            rules = self.rules.with_overrides(settings or {}, origin, limits)
            lines = [Line(rule, f"設定/setting {rule}.{key} = {setting_text(new)} from this action "
                                f"on (was {setting_text(old)})") for rule, key, new, old in changed]
        start = self.state
        if changed and engine >= RECOUNTED_SINCE:
            gear = next((r for r, *_ in changed if r.startswith(("GM-ITEM", "GM-EQUIP"))),
                        changed[0][0])
            start, recounted = _recounted(self.entrants, self.rules, rules, start, gear)
            lines += recounted
        if changed:  # GM-COMBAT-8: who is down is judged again under the new setting
            start = _settle(rules, start)
            lines += [Line("GM-COMBAT-8", f"{c.name} is {c.status.value} under the new setting")
                      for c, was in zip(start.combatants, self.state.combatants, strict=True)
                      if c.status is not was.status]
        recorder = _Recorder(source)
        state, said = _apply(rules, start, action, recorder, engine)
        entry = Entry(action, tuple(recorder.dice), tuple(lines + said),
                      tuple((rule, key, new) for rule, key, new, _ in changed), engine)
        self._states.append(state)
        self._rules.append(rules)
        self.journal.append(entry)
        return entry

    def describe(self, action: Action) -> str:
        """``action`` in a line (:func:`.actions.action_text`), a move with the metres its
        mover goes (GM-MOVE-1: the Orc's normal move is 16 m, not a character's 12 m), a
        cast with its spell's name, ``治癒呪 Healing`` (GM-MAGIC-1; calendar75 NIT 4: it said
        the key, ``casts 呪文 healing``, in the table's Log, Result title and Undo's question,
        and in `genso fight undo`)."""
        mover = next((c for c in self.state.combatants
                      if isinstance(action, Move) and c.name == action.actor), None)
        spell = ""
        if isinstance(action, Cast):
            try:
                known = self.rules.spell(action.spell)
                spell = f"{known.ja} {known.en}"
            except DataError:  # a damaged file's unknown spell: its key, as it was
                spell = ""
        return action_text(action, move_metres(self.rules, mover) if mover else None, spell)

    def pop(self) -> Entry:
        """Undo the last action (python-chess style), and any setting it changed."""
        if not self.journal:
            raise IllegalAction("nothing to undo")
        self._states.pop()
        self._rules.pop()
        return self.journal.pop()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"system": "genso", "version": FILE_VERSION,
                                "settings": self.settings,
                                "entrants": [e.to_json() for e in self.entrants],
                                "journal": [e.to_json() for e in self.journal]}
        if self.applied:
            data["applied"] = dict(self.applied)
        return data

    @classmethod
    def from_json(cls, rules: GensoRules, data: Mapping[str, Any],
                  origin: str = "saved fight", playing_on: bool = False) -> Fight:
        """Replay a saved fight from its entrants and actions with the dice it recorded,
        under the settings it was played with (a fight file from before they were kept
        takes those of ``rules``); ``origin`` names the file in any error.

        Entries keep the revision that played them; new actions follow today's, or with
        ``playing_on`` the revision the saved fight was written by (its version): a table
        save's fight, whose answers the table played by that revision and a resume replays
        by it, as the fight file holds them (review60a D1, as coc's review59a R1)."""
        if not isinstance(data, Mapping) or data.get("system") != "genso":
            raise DataError(f"{origin}: not a saved genso fight")
        version = data.get("version", 1)
        if isinstance(version, bool) or not isinstance(version, int) \
                or not 1 <= version <= FILE_VERSION:
            # A later version is a newer companion's whole fight (f78carry: it was said as
            # one that cannot be read, with no word of updating, as coc's said it).
            fault = NewerFight if isinstance(version, int) and version > FILE_VERSION \
                else DataError
            raise fault(f"{origin}: fight file version {version!r} is not one this "
                        f"companion reads (1 to {FILE_VERSION})")
        stored = data.get("settings")
        if stored is not None:
            # As it was played, in or out of the ranges checked since (GM-COMBAT-8 …).
            rules = rules.with_overrides(_as_played(rules, stored), f"{origin}: settings",
                                         limits=False)
        else:  # a file from before fights kept them: the user's, but as the engine played
            rules = rules.with_overrides(PLAYED_BEFORE, f"{origin}: settings", limits=False)
        entrants, journal = data.get("entrants", []), data.get("journal", [])
        if not isinstance(entrants, list) or not all(isinstance(e, Mapping) for e in entrants):
            raise DataError(f"{origin}: entrants must be a list of tables")
        if not isinstance(journal, list) or not all(isinstance(e, Mapping) for e in journal):
            raise DataError(f"{origin}: journal must be a list of entries")
        built = [Entrant.from_json(e, f"{origin}: entrant {n}")
                 for n, e in enumerate(entrants, 1)]
        try:
            fight = cls(rules, built)
        except DataError as exc:
            # A sheet's field or a monster's key the fighter cannot be built from, named with
            # the file as the journal's faults are (genso74 NIT 6: "no monster 'dragon'", or
            # "fight entrant X: body must be a whole number", named no file).
            raise DataError(f"{origin}: {exc}") from None
        if journal and fight.state.outcome is not None:
            # GM-COMBAT-8: `fight new` refuses a fight over before it began, so one saved
            # with entries was edited by hand (hp = 0 on an entrant): said so, not blamed on
            # journal entry 1, which the fight over refused (a78gensofight item 4). Its
            # badge in both languages, as `fight new` says it ("INCAPACITATED 行動不能").
            raise DataError(f"{origin}: " + "; ".join(
                f"fight entrant {c.name} starts {c.status.badge} ({_pool_down(c)})"
                for c in fight.state.order if c.status.badge)
                + ": the fight was over before entry 1")
        # An entry names its revision only when it is not the one the file was written by:
        # engine revision N wrote version N files.
        engine = ENGINE if version == FILE_VERSION else version
        for number, raw in enumerate(journal, 1):
            where = f"{origin}: journal entry {number}"
            said = ""
            try:
                action = action_from_json(_entry_field(raw, "action", where))
                said = f" ({fight.describe(action)})"
                dice = ScriptedDice(_dice_record(_entry_field(raw, "dice", f"{where}{said}"),
                                                 f"{where}{said}"))
                fight.push(action, dice, raw.get("settings"), f"{where} settings",
                           int(raw.get("engine", engine)), limits=False)
            except DamagedDice:  # said whole, not as "does not replay (…)"
                raise
            except (ScriptExhausted, DeviceError) as exc:  # too few dice, or off their faces
                raise DataError(f"{where}{said} is damaged: its recorded dice do not match "
                                f"the roll ({exc})") from exc
            except (KeyError, TypeError, ValueError) as exc:
                raise DataError(f"{where}{said} is damaged and does not replay ({exc})") from exc
            if dice.remaining:
                raise DataError(f"{where}{said} left dice unused")
        if playing_on:
            fight.engine = engine
        applied = data.get("applied", {})
        if not isinstance(applied, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in applied.items()):
            raise DataError(f"{origin}: applied must map combatants to digests")
        fight.applied = dict(applied)
        return fight

    def character_after(self, entrant: Entrant) -> Character:
        """A sheet entrant's character as the fight leaves it: current HP and MP (never above
        the maximum; a PC below GM-COMBAT-8's threshold stays below it, so it loads dead),
        the MP left in its mana stones and Ring of Storage, and each Healing or Enchant Stone
        used marked ``used:`` in its pack (GM-ITEM-1/2/3)."""
        if entrant.monster:
            raise IllegalAction(f"{entrant.name} is a monster, not a character sheet")
        character = entrant.character(self.rules)
        now = self.state.get(entrant.name)
        start = self._states[0].get(entrant.name)
        assert now.hp is not None and now.max_hp is not None
        equipment = list(character.equipment)
        for key in dict.fromkeys(start.stones):
            for _ in range(start.stones.count(key) - now.stones.count(key)):
                equipment[equipment.index(key)] = f"used:{key}"
        storage = now.storage_mp if start.storage_mp else character.storage_mp
        return replace(character, hp=min(now.hp, now.max_hp), mp=min(now.mp, now.max_mp),
                       mana_stones=now.mana_stones, equipment=tuple(equipment),
                       storage_mp=storage)
