"""A 幻想迷宮冒険譚 (seed 002) fight as a mode of the play session (``play --mode genso``).

The fight is the one `companion genso fight new` started (``--fight FILE``, by
default ``fight.json`` in the data folder's ``genso`` folder): the party and the
monsters, and whatever was already played on the command line. At the table the
mode runs it turn by turn from the engine (:class:`~companion.systems.genso.combat.Fight`):
whose turn it is, the legal actions as a menu (ATTACK attacks, RANGED casts, ITEM
uses a stone, FLEE flees; the GM's steps and undo under *GM*), then a target, a
weapon, a spell; then the dice, thrown by the companion or by the players and read
by the camera, each result shown with its terms.

The engine pulls its dice from a source as it resolves an action, the session
hands the mode one answer at a time; so, like the dice tray, the mode resolves the
chosen action again over the throws so far (the engine is pure and an action that
cannot finish changes nothing) and asks for the next throw where it stops.

Saving: the journal holds every answer (the option picked, as its key such as
``t:オーク1``, and every throw, ``4,5``); the table's save (:class:`FightSave`)
holds the fight as the table took it up plus that journal, so ``--resume`` after a
power cut replays it exactly, a half-thrown action too. After every action the fight
file is also rewritten, so `companion genso fight show|log|undo` see the table's
actions.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.app.modes.dice_tray import throw_from_notation, throw_to_notation
from companion.app.session.host import Session
from companion.app.session.mode import Answer, ChoiceAsk, ChoiceFeed, RollAsk, RollFeed, Throw
from companion.app.session.rolls import SimRolls
from companion.app.session.save import CorruptSave, SaveGame, write_save
from companion.dice import DiceSource, SimulatedDice
from companion.errors import DataError, IllegalAction
from companion.files import atomic_write_text, move_aside
from companion.hw.buttons import Button
from companion.hw.display import Display
from companion.hw.display.view import DiceStep, FighterView, FightView, Name, Option, View
from companion.systems.genso.combat import (
    Action,
    Attack,
    Cast,
    Combatant,
    Dodge,
    EndFight,
    Entry,
    Fight,
    Flee,
    Move,
    Outcome,
    Side,
    Sleep,
    Stance,
    Status,
    Sunrise,
    Sunset,
    UseStone,
    Wait,
    wants_to_flee,
)
from companion.systems.genso.rules import CreatureKind, GensoRules

TITLE = "幻想迷宮冒険譚 Fight 戦闘"
PRESET = "genso"  # what a table save says in SaveGame.preset

SIDES = {Side.PARTY: Name("味方", "party"), Side.ENEMY: Name("敵", "enemy")}
STANCES = {
    Stance.FULL_ATTACK: "全力攻撃 full attack", Stance.FULL_DODGE: "全力回避 full dodge",
    Stance.NORMAL_MOVE: "通常移動 moved", Stance.FULL_MOVE: "全力移動 full move",
}
OUTCOMES = {
    Outcome.PARTY_WON: "勝利 the party won", Outcome.PARTY_DOWN: "全滅 the party is down",
    Outcome.DECLARED: "終了 the GM ended the fight",
}
MOVES = {"combat": "戦闘移動 combat 3 m", "normal": "通常移動 normal 12 m",
         "full": "全力移動 full 48 m"}
STONES = {"healing_stone": "治癒石 Healing Stone", "enchant_stone": "付与石 Enchant Stone"}
#: Spells whose effect takes one target (GM-MAGIC-2..11), and whom they go on.
ONE_TARGET = {"heal": "friend", "ward": "friend", "conceal": "friend", "dispel": "anyone",
              "lightning": "foe", "exorcise": "undead"}
BACK = Option("back", "Back 戻る", Button.FLEE)
DOWN = (Status.DEAD, Status.VANISHED, Status.FLED)


class _NeedDice(Exception):
    """The action reached a throw beyond those made so far."""

    def __init__(self, count: int, sides: int) -> None:
        super().__init__(f"{count}D{sides}")
        self.count = count
        self.sides = sides


class _Thrown:
    """The throws made so far for one action, as its DiceSource; past them, it asks for more.

    A throw is used whole for one roll of the engine, which asks for each roll's dice at
    once (2D6, then 1D6 for the weapon), as the RollAsk asked for them.
    """

    def __init__(self, throws: Sequence[tuple[int, ...]]) -> None:
        self.throws = list(throws)

    def roll(self, count: int, sides: int) -> list[int]:
        if not self.throws:
            raise _NeedDice(count, sides)
        values = list(self.throws.pop(0))
        if len(values) != count or any(not 1 <= v <= sides for v in values):
            raise IllegalAction(f"{count}D{sides} was wanted, the throw was {values}")
        return values


@dataclass(frozen=True)
class Undone:
    """An event: the GM took back the last action."""

    entry: Entry


FightEvent = Entry | Undone


def english(rules: GensoRules, fight: Fight, c: Combatant) -> str:
    """A combatant's English name: the monster's with its number, or PC / NPC."""
    entrant = next((e for e in fight.entrants if e.name == c.name), None)
    if entrant is not None and entrant.monster:
        monster = rules.monster(entrant.monster)
        number = re.search(r"(\d+)$", c.name)
        return monster.en + (f" {number.group(1)}" if number else "")
    return c.role.value.upper().replace("_AS_MONSTER", " (as monster)")


def describe(action: Action) -> str:
    """An action in a line, for the log and the result's title."""
    if isinstance(action, Attack):
        return (f"{action.actor} → {action.target}"
                + (" 全力攻撃 full attack" if action.full else " 攻撃 attack"))
    if isinstance(action, Cast):
        return f"{action.actor} casts 呪文 {action.spell}" + (
            f" → {', '.join(action.targets)}" if action.targets else "")
    if isinstance(action, UseStone):
        return f"{action.actor}: {STONES.get(action.stone, action.stone)} → {action.target}"
    if isinstance(action, Dodge):
        return f"{action.actor} 全力回避 dodges"
    if isinstance(action, Move):
        return f"{action.actor} {MOVES.get(action.mode, action.mode)}"
    if isinstance(action, Flee):
        return f"{action.actor} 逃亡 flees"
    if isinstance(action, Wait):
        return f"{action.actor} 待機 waits"
    return {EndFight: "GM: 戦闘終了 end of the fight", Sunrise: "GM: 日の出 sunrise",
            Sunset: "GM: 日没 sunset", Sleep: "GM: 睡眠 8 hours' sleep"}[type(action)]


def summary(entry: Entry) -> str:
    """What an action came to, in a few words: the pools it left, or the roll's verdict."""
    lines = [line for line in entry.lines if not line.text.startswith("round ")]
    if not lines:
        return "–"
    last = lines[-1]
    if last.rule == "GM-COMBAT-8" or last.result is None:
        return last.text
    return last.result.text.rpartition("＞")[2].strip()


class GensoFightMode:
    """Turn by turn: an action, its target, weapon or spell, then its dice; over when the
    fight is and the GM closes it."""

    def __init__(self, rules: GensoRules, fight: Fight, source_name: str = "") -> None:
        self.rules = rules
        self.fight = fight
        self.source_name = source_name
        self.path: list[str] = []  # the options picked so far for the action under way
        self.throws: list[tuple[int, ...]] = []  # its dice thrown so far
        self.note = ""  # why a throw brought no dice
        self.done = False
        self.thrown: list[tuple[int, int]] = []  # (count, sides) of every throw answered
        self._journal: list[str] = []
        self._events: list[FightEvent] = []

    # -- what the fight asks --------------------------------------------------------------

    def ask(self) -> ChoiceAsk | RollAsk | None:
        if self.done:
            return None
        step = self._step(self.path)
        if isinstance(step, ChoiceAsk):
            return step
        need = self._walk(step)
        assert need is not None  # a whole action was pushed when its last answer came
        return RollAsk(f"Throw {need.count}D{need.sides} {need.count}D{need.sides}を振って: "
                       f"{describe(step)}", need.count, need.sides)

    def answer(self, value: Answer) -> list[FightEvent]:
        ask = self.ask()
        if isinstance(value, Throw):
            if not isinstance(ask, RollAsk):
                raise IllegalAction("no dice are wanted now")
            events = self._thrown_answer(value, ask)
            self._journal.append(throw_to_notation(value))
            return events
        if not isinstance(value, int):
            raise IllegalAction("a fight reads no tiles")
        if not isinstance(ask, ChoiceAsk) or not 0 <= value < len(ask.options):
            raise IllegalAction(f"there is no choice {value} now")
        choice = ask.options[value].choice
        events = self._chosen(choice)
        self._journal.append(choice)
        return events

    def _chosen(self, choice: str) -> list[FightEvent]:
        """Take a picked option; a whole action is resolved as far as the dice go."""
        if choice == "back":
            self.path = self.path[:-1]
            return []
        if self.fight.state.current is None or self.path == ["gm"]:
            return self._gm(choice)
        path = [*self.path, choice]
        step = self._step(path)
        if isinstance(step, ChoiceAsk):
            self.path = path
            return []
        self.throws = []
        done = self._push(step)  # IllegalAction (no MP, say) leaves the menu as it was
        self.path = [] if done else path
        return done

    def _gm(self, choice: str) -> list[FightEvent]:
        """The GM's steps: undo, close a finished fight, the end, sunrise, sunset, sleep."""
        if choice == "gm":
            self.path = ["gm"]
            return []
        if choice == "close":
            self.done = True
            return []
        self.path = []
        if choice == "undo":
            return [Undone(self.fight.pop())]
        steps: dict[str, type[EndFight | Sunrise | Sunset | Sleep]] = {
            "end": EndFight, "sunrise": Sunrise, "sunset": Sunset, "sleep": Sleep}
        if choice not in steps:
            raise IllegalAction(f"there is no choice {choice!r} now")
        return self._push(steps[choice]())

    def _thrown_answer(self, throw: Throw, ask: RollAsk) -> list[FightEvent]:
        if throw.back:
            self.path, self.throws, self.note = [], [], ""
            return []
        if throw.failure:
            self.note = throw.failure
            return []
        if len(throw.values) != ask.count:
            raise IllegalAction(f"{ask.count}D{ask.sides} was wanted, the throw was "
                                f"{list(throw.values)}")
        self.note = ""
        step = self._step(self.path)
        assert not isinstance(step, ChoiceAsk)
        self.throws.append(throw.values)
        try:
            done = self._push(step)
        except IllegalAction:
            self.throws.pop()
            raise
        self.thrown.append((ask.count, ask.sides))
        if done:
            self.path, self.throws = [], []
        return done

    def _push(self, action: Action) -> list[FightEvent]:
        """Resolve ``action`` over the throws so far: its entry, or [] while dice are wanted."""
        try:
            entry = self.fight.push(action, _Thrown(self.throws))
        except _NeedDice:
            return []
        self._events.append(entry)
        return [entry]

    def _walk(self, action: Action) -> _NeedDice | None:
        """The throw ``action`` needs next (the fight is left as it was)."""
        try:
            self.fight.push(action, _Thrown(self.throws))
        except _NeedDice as need:
            return need
        self.fight.pop()  # cannot happen: a whole action was pushed when its last answer came
        return None

    # -- the menus ------------------------------------------------------------------------

    def _step(self, path: Sequence[str]) -> ChoiceAsk | Action:
        """The next menu for the options picked so far, or the action they make."""
        state = self.fight.state
        actor = state.current
        if actor is None:
            return ChoiceAsk(f"The fight is over 戦闘終了: {self._outcome()}", (
                Option("close", "Close 閉じる", Button.ATTACK), Option("undo", "Undo 取り消し"),
                Option("sleep", "Sleep 睡眠 (MP)"), Option("sunrise", "Sunrise 日の出")))
        if not path:
            return self._actions(actor)
        kind, rest = path[0], list(path[1:])
        if kind == "gm":
            return ChoiceAsk("GM: which step? 進行", (
                Option("undo", "Undo 取り消し"), Option("end", "End fight 戦闘終了"),
                Option("sunrise", "Sunrise 日の出"), Option("sunset", "Sunset 日没"),
                Option("sleep", "Sleep 睡眠"), BACK))
        if kind in ("attack", "full"):
            return self._attack(actor, rest, full=kind == "full")
        if kind == "cast":
            return self._cast(actor, rest)
        if kind == "stone":
            return self._stone(actor, rest)
        if kind == "move":
            if not rest:
                return ChoiceAsk("Move how far? 移動は？", (
                    *(Option(f"m:{mode}", label) for mode, label in MOVES.items()), BACK))
            return Move(actor.name, _value(rest[0], "m"))
        simple: dict[str, type[Dodge | Wait | Flee]] = {"dodge": Dodge, "wait": Wait,
                                                        "flee": Flee}
        if kind in simple and not rest:
            return simple[kind](actor.name)
        raise IllegalAction(f"there is no choice {'/'.join(path)!r} now")

    def _actions(self, actor: Combatant) -> ChoiceAsk:
        """The actions open to whoever's turn it is (GM-COMBAT-1, -5, -6, GM-MOVE-1, …)."""
        options = []
        if actor.weapons or actor.drain_hp or actor.drain_mp:
            options += [Option("attack", "Attack 攻撃", Button.ATTACK),
                        Option("full", "Full attack 全力攻撃")]
        if self._spells(actor):
            options.append(Option("cast", "Spell 呪文", Button.RANGED))
        if actor.stones:
            options.append(Option("stone", "Stone 魔法石", Button.ITEM))
        options += [Option("dodge", "Dodge 全力回避"), Option("move", "Move 移動"),
                    Option("wait", "Wait 待機"), Option("flee", "Flee 逃亡", Button.FLEE),
                    Option("gm", "GM 進行")]
        flee = " GM-MON-1: it wants to flee 逃走したい" if wants_to_flee(self.rules, actor) else ""
        return ChoiceAsk(f"{actor.name}: what does it do? 行動は？{flee}", tuple(options))

    def _targets(self, actor: Combatant, who: str) -> list[Combatant]:
        state = self.fight.state
        if who == "friend":
            return [c for c in state.order if c.side is actor.side and c.status not in DOWN]
        if who == "foe":
            return [c for c in state.order if c.side is not actor.side and c.status not in DOWN]
        if who == "undead":
            return [c for c in state.order if (c.creature is CreatureKind.UNDEAD
                                               and c.status not in DOWN)
                    or (c.status is Status.DEAD and c.rises_as)]
        return [c for c in state.order if c.status not in (Status.VANISHED, Status.FLED)]

    def _pick(self, prompt: str, targets: Sequence[Combatant], *extra: Option) -> ChoiceAsk:
        options = [Option(f"t:{c.name}", f"{c.name} {english(self.rules, self.fight, c)}")
                   for c in targets]
        return ChoiceAsk(prompt, (*options, *extra, BACK))

    def _attack(self, actor: Combatant, rest: list[str], full: bool) -> ChoiceAsk | Action:
        """GM-COMBAT-2/3/4/5: whom, then with which weapon (when there is a choice)."""
        if not rest:
            return self._pick("Attack whom? 攻撃対象は？", self._targets(actor, "foe"))
        target = _value(rest[0], "t")
        drains = actor.drain_hp or actor.drain_mp
        if len(actor.weapons) > 1 and not drains:
            if len(rest) < 2:
                return ChoiceAsk("With which weapon? 武器は？", (
                    *(Option(f"w:{i}", f"{w.name} {w.power}")
                      for i, w in enumerate(actor.weapons)), BACK))
            return Attack(actor.name, target, _index(rest[1], "w"), full)
        return Attack(actor.name, target, 0, full)

    def _spells(self, actor: Combatant) -> list[str]:
        """The spells the tracker resolves that ``actor`` knows (GM-MAGIC-1)."""
        return [k for k in actor.spells if k in self.rules.spells
                and self.rules.spells[k].group == "basic" and self.rules.spells[k].mp is not None]

    def _cast(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """GM-MAGIC-1..11: which spell, on whom (or which weapon), paid from a mana stone?"""
        if not rest:
            return ChoiceAsk(f"Which spell? 呪文は？ (MP {actor.mp})", (
                *(Option(f"s:{k}", f"{self.rules.spell(k).ja} {self.rules.spell(k).en} "
                                   f"MP{self.rules.spell(k).mp}") for k in self._spells(actor)),
                BACK))
        spell = self.rules.spell(_value(rest[0], "s"))
        targets: tuple[str, ...] = ()
        weapon: int | None = None
        used = 1
        if spell.effect in ONE_TARGET or spell.effect in ("fire", "barrier"):
            if len(rest) < 2:
                return self._spell_targets(actor, spell.effect)
            used = 2
            picked = rest[1]
            if picked == "all":
                who = "friend" if spell.effect == "barrier" else "foe"
                targets = tuple(c.name for c in self._targets(actor, who))
            elif picked.startswith("w:"):
                owner, _, number = picked[2:].rpartition(":")
                targets, weapon = (owner,), int(number)
            elif picked != "self":
                targets = (_value(picked, "t"),)
        stones = [i for i, mp in enumerate(actor.mana_stones) if mp > 0]
        if stones and self.rules.default("GM-ITEM-1", "stones_pay_for_spells"):
            if len(rest) <= used:
                return ChoiceAsk("Pay from a mana stone? 魔力石で払う？", (
                    Option("pay:mp", f"MP only MPのみ ({actor.mp})"),
                    *(Option(f"pay:{i}", f"魔力石 mana stone {i + 1} ({actor.mana_stones[i]})")
                      for i in stones), BACK))
            paid = _value(rest[used], "pay")
            return Cast(actor.name, spell.key, targets, weapon,
                        None if paid == "mp" else int(paid))
        return Cast(actor.name, spell.key, targets, weapon)

    def _spell_targets(self, actor: Combatant, effect: str) -> ChoiceAsk:
        if effect == "barrier":
            return ChoiceAsk("Who is inside the barrier? 結界の中は？", (
                Option("all", "The party 味方全員"), Option("self", "Only the caster 術者のみ"),
                BACK))
        if effect == "fire":
            return self._pick("On whom? 対象は？", self._targets(actor, "foe"),
                              Option("all", "Every foe 敵全員"))
        extra: list[Option] = []
        if effect == "exorcise":  # GM-MAGIC-3: on an undead, a corpse, or a weapon till sunrise
            extra = [Option(f"w:{c.name}:{i}", f"{c.name}: {w.name}")
                     for c in self._targets(actor, "friend") for i, w in enumerate(c.weapons)
                     if w.key != "fist"]
        return self._pick("On whom? 対象は？", self._targets(actor, ONE_TARGET[effect]), *extra)

    def _stone(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """GM-ITEM-2: which stone, on whom."""
        kinds = list(dict.fromkeys(actor.stones))
        if len(kinds) > 1 and not rest:
            return ChoiceAsk("Which stone? 石は？", (
                *(Option(f"k:{k}", STONES.get(k, k)) for k in kinds), BACK))
        if len(kinds) > 1:
            kind, rest = _value(rest[0], "k"), rest[1:]
        else:
            kind = kinds[0]
        if not rest:
            who = "friend" if kind == "healing_stone" else "foe"
            return self._pick(f"{STONES.get(kind, kind)} on whom? 対象は？",
                              self._targets(actor, who))
        return UseStone(actor.name, kind, _value(rest[0], "t"))

    # -- the screen -----------------------------------------------------------------------

    def _outcome(self) -> str:
        outcome = self.fight.state.outcome
        return OUTCOMES[outcome] if outcome is not None else ""

    def fight_view(self, faces: tuple[int, ...] = ()) -> FightView:
        state = self.fight.state
        current = state.current
        rows = []
        for c in state.order:
            conditions = [c.status.badge] if c.status.badge else []
            if c.stance in STANCES:
                conditions.append(STANCES[c.stance])
            for effect in c.effects:
                spell = self.rules.spell(effect.spell)
                conditions.append(f"{spell.ja} {spell.en}" + (f" ({effect.weapon})"
                                                               if effect.weapon else ""))
            if wants_to_flee(self.rules, c):
                conditions.append("逃走 wants to flee")
            if c.rises_as:
                conditions.append(f"蘇る rises at sunset ({c.rises_as})")
            rows.append(FighterView(
                Name(c.name, english(self.rules, self.fight, c)), SIDES[c.side], c.hp, c.max_hp,
                c.mp, c.max_mp, tuple(conditions),
                acting=current is not None and c.name == current.name,
                ally=c.side is Side.PARTY, down=c.status is not Status.ACTIVE))
        journal = self.fight.journal
        last = journal[-1] if journal else None
        log = tuple(f"{describe(e.action)} ＞ {summary(e)}" for e in journal[-8:])
        return FightView(
            title=self._title(), round=state.round, turn=current.name if current else "",
            fighters=tuple(rows),
            result=tuple(DiceStep(line.rule, line.text) for line in last.lines) if last else (),
            result_title=describe(last.action) if last else "", log=log, faces=faces,
            source=self.source_name, outcome=self._outcome())

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

    def view(self, prompt: str, *, options: tuple[Option, ...] = (),
             highlight: int | None = None, status: str = "", prompt_tile: str | None = None,
             prompt_faces: tuple[int, ...] = ()) -> View:
        return View(floor=None, room=None, room_tiles=(), sheet=None, prompt=prompt,
                    options=options, highlight=highlight, status=status or self.note,
                    title=TITLE, fight=self.fight_view(prompt_faces))

    def closing(self) -> str:
        return f"The fight is closed 戦闘終了: {self._outcome() or 'saved'}"

    # -- the journal ----------------------------------------------------------------------

    @property
    def journal(self) -> list[str]:
        return self._journal

    def restore(self, text: str) -> None:
        ask = self.ask()
        if isinstance(ask, RollAsk):
            self.answer(throw_from_notation(text))
            return
        if ask is None:
            raise IllegalAction("the fight was closed")
        keys = [o.choice for o in ask.options]
        if text not in keys:
            raise IllegalAction(f"{text!r} is not among the choices ({', '.join(keys)})")
        self.answer(keys.index(text))

    def progress(self) -> int:
        return len(self._events)

    def history(self) -> Sequence[FightEvent]:
        return tuple(self._events)

    def log_lines(self, events: Sequence[object]) -> list[str]:
        lines = []
        for event in events:
            if isinstance(event, Entry):
                lines.append(json.dumps({"fight": event.to_json()}, ensure_ascii=False))
            elif isinstance(event, Undone):
                lines.append(json.dumps({"undone": event.entry.to_json()}, ensure_ascii=False))
        return lines

    def advance(self, source: DiceSource) -> None:
        """Move a seeded source past the throws the journal made (a resumed sim fight goes on
        with the dice an uninterrupted one would have had)."""
        for count, sides in self.thrown:
            source.roll(count, sides)


def _value(picked: str, prefix: str) -> str:
    head, sep, value = picked.partition(":")
    if head != prefix or not sep:
        raise IllegalAction(f"there is no choice {picked!r} now")
    return value


def _index(picked: str, prefix: str) -> int:
    value = _value(picked, prefix)
    if not value.isdigit():
        raise IllegalAction(f"there is no choice {picked!r} now")
    return int(value)


# --- the table's save ------------------------------------------------------------------------


@dataclass(slots=True)
class FightSave(SaveGame):
    """A table save: the fight as the table took it up (``Fight.to_json``), its file, and the
    session's journal of answers; ``seed`` is the simulated dice's."""

    fight: dict[str, Any] = field(default_factory=dict)
    fight_path: str = ""

    @classmethod
    def from_json(cls, text: str, source: str = "save") -> FightSave:
        save = super(FightSave, cls).from_json(text, source)
        assert isinstance(save, FightSave)
        if save.preset != PRESET or not isinstance(save.fight, dict) or not save.fight:
            raise DataError(f"{source}: not a genso fight save")
        if not isinstance(save.fight_path, str):
            raise DataError(f"{source}: fight_path must be str")
        return save


def load_fight_save(path: Path) -> FightSave | None:
    """The table save at ``path``, or None; one that cannot be read is moved aside."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        return FightSave.from_json(raw.decode("utf-8"), source=str(path))
    except (DataError, UnicodeDecodeError) as exc:
        reason = str(exc) if isinstance(exc, DataError) else f"{path}: not readable text"
    kept = move_aside(path)
    raise CorruptSave(f"the fight save could not be read ({reason}); it was kept as {kept}",
                      kept)


def same_fight(file_data: Any, fight: Fight) -> bool:
    """Does the fight file agree with the replayed fight, but for the one action a power cut
    may have come between (the table saves first, then writes the fight file)?"""
    ours = fight.to_json()
    if not isinstance(file_data, dict) or file_data.get("entrants") != ours["entrants"]:
        return False
    theirs, mine = file_data.get("journal", []), ours["journal"]
    shorter, longer = sorted((theirs, mine), key=len)
    return len(longer) - len(shorter) <= 1 and longer[:len(shorter)] == shorter


def write_fight_file(path: Path, fight: Fight) -> None:
    """The fight file as `companion genso fight` writes it, atomically."""
    atomic_write_text(path, json.dumps(fight.to_json(), ensure_ascii=False, indent=1))


def read_fight_file(rules: GensoRules, path: Path) -> Fight:
    """The fight `companion genso fight new` wrote (and the table keeps writing)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"no fight at {path}: start one with `companion genso fight new "
                        "--party pc1 pc2 --monsters orc:2`") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot read the fight {path}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not JSON ({exc})") from None
    return Fight.from_json(rules, data)


def table_session(rules: GensoRules, fight_path: Path, state_path: Path, *, resume: bool,
                  seed: int | None, choices: ChoiceFeed, rolls: RollFeed | None = None,
                  display: Display | None = None, source_name: str = "camera カメラ",
                  tell: Callable[[str], object] = lambda message: None) -> Session:
    """The play session of a fight at the table, ready to run.

    ``resume``: the table save at ``state_path`` is replayed, a half-thrown action too;
    otherwise (or with no usable save) the fight file is taken up as it is, which holds
    every action finished at the table. ``rolls`` None: the companion throws, from the
    save's seed, going on after a resume with the dice an uninterrupted fight would have
    had. The fight file is rewritten after every action (the save first).
    """
    fight_path = fight_path.resolve()
    saved: FightSave | None = None
    if resume:
        try:
            saved = load_fight_save(state_path)
        except CorruptSave as exc:
            tell(f"{exc}; taking up the fight file")
        if saved is None:
            tell(f"no unfinished fight saved in {state_path}: taking up {fight_path}")
        elif saved.finished or saved.fight_path != str(fight_path):
            tell(f"the fight saved in {state_path} is "
                 + ("over" if saved.finished else f"of {saved.fight_path}")
                 + f": taking up {fight_path}")
            saved = None
    elif state_path.exists():
        old = None
        try:
            old = load_fight_save(state_path)
        except CorruptSave:
            pass
        if old is not None and not old.finished:
            kept = move_aside(state_path, "replaced")
            tell(f"the unfinished table in {state_path} is kept as {kept.name}; every action "
                 "it finished is in the fight file")
    resuming = saved is not None
    if saved is None:
        fight = read_fight_file(rules, fight_path)
        saved = FightSave(seed=seed if seed is not None else secrets.randbelow(2**31),
                          preset=PRESET, input_kind="sim" if rolls is None else "camera",
                          fight=fight.to_json(), fight_path=str(fight_path))
    else:
        fight = Fight.from_json(rules, saved.fight)
    source = SimulatedDice.seeded(saved.seed) if rolls is None else None
    feed: RollFeed = rolls if rolls is not None else SimRolls(source or SimulatedDice.seeded(0))
    mode = GensoFightMode(rules, fight, "simulated 仮想" if rolls is None else source_name)

    def mirror(events: Sequence[object]) -> None:
        if events:
            write_fight_file(fight_path, mode.fight)

    session = Session(mode, choices=choices, rolls=feed, display=display, save=saved,
                      save_path=state_path, on_events=mirror)
    if resuming:
        session.replay(saved.inputs)
        if source is not None:
            mode.advance(source)
        try:
            on_file: Any = json.loads(fight_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            on_file = None
        if not same_fight(on_file, mode.fight):
            raise DataError(f"the fight file {fight_path} changed since the table saved it "
                            "(`companion genso fight …`?): play it without --resume")
    write_fight_file(fight_path, mode.fight)
    saved.events = mode.progress()
    write_save(state_path, saved)
    return session
