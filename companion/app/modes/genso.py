"""A 幻想迷宮冒険譚 (seed 002) fight as a mode of the play session (``play --mode genso``).

The fight is the one `companion genso fight new` started (``--fight FILE``, by
default ``fight.json`` in the data folder's ``genso`` folder): the party and the
monsters, and whatever was already played on the command line. At the table the
mode runs it turn by turn from the engine (:class:`~companion.systems.genso.combat.Fight`):
whose turn it is, the legal actions as a menu (ATTACK attacks, RANGED casts, ITEM
uses a stone, FLEE flees; the GM's steps and undo under *GM*), then a target, a
weapon, a spell; then the dice, thrown by the companion or by the players and read
by the camera, each result shown with its terms. *GM → Check 判定* rolls a check of
spec §2.3 (:mod:`companion.systems.genso.checks`: simple, general, trap, enemy, undead,
opposed, Mark) for a party member (whoever's turn it is, by default) with the same dice;
it changes nothing in the fight, so it lives in the mode's journal (replayed on a resume)
and the ``--log``, not in the fight file.

The engine pulls its dice from a source as it resolves an action, the session
hands the mode one answer at a time; so, like the dice tray, the mode resolves the
chosen action again over the throws so far (the engine is pure and an action that
cannot finish changes nothing) and asks for the next throw where it stops: the
machinery every fight at the table shares, in :mod:`companion.app.modes.fight`.

Saving: the journal holds every answer (the option picked, as its key such as
``t:オーク1``, and every throw, ``4,5``); the table's save (:class:`FightSave`)
holds the fight as the table took it up plus that journal, so ``--resume`` after a
power cut replays it exactly, a half-thrown action too (:func:`table_session`). After
every action the fight file is also rewritten, so `companion genso fight show|log|undo`
see the table's actions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.app.modes.fight import (
    FightMode,
    FightSave,
    NeedDice,
    Table,
    Thrown,
    Undone,
    load_fight_save,
    open_table,
    option_index,
    option_value,
    read_fight_data,
    same_fight,
    write_fight_file,
)
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk, ChoiceFeed, RollFeed
from companion.dice import DiceSource
from companion.errors import IllegalAction
from companion.hw.buttons import Button
from companion.hw.display import Display
from companion.hw.display.view import DiceStep, FighterView, FightView, Name, Option
from companion.systems.genso import checks
from companion.systems.genso.combat import (
    MOVES,
    STONES,
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
    Side,
    Sleep,
    Stance,
    Status,
    Sunrise,
    Sunset,
    UseStone,
    Wait,
    action_text,
    wants_to_flee,
)
from companion.systems.genso.rules import ABILITIES, CreatureKind, GensoRules
from companion.systems.genso.sheet import character_from_mapping

TITLE = "幻想迷宮冒険譚 Fight 戦闘"
PRESET = "genso"  # what a table save says in SaveGame.preset
START_HINT = "companion genso fight new --party pc1 pc2 --monsters orc:2"

SIDES = {Side.PARTY: Name("味方", "party"), Side.ENEMY: Name("敵", "enemy")}
STANCES = {
    Stance.FULL_ATTACK: "全力攻撃 full attack", Stance.FULL_DODGE: "全力回避 full dodge",
    Stance.NORMAL_MOVE: "通常移動 moved", Stance.FULL_MOVE: "全力移動 full move",
}
#: Spells whose effect takes one target (GM-MAGIC-2..11), and whom they go on.
ONE_TARGET = {"heal": "friend", "ward": "friend", "conceal": "friend", "dispel": "anyone",
              "lightning": "foe", "exorcise": "undead"}
BACK = Option("back", "Back 戻る", Button.FLEE)
DOWN = (Status.DEAD, Status.VANISHED, Status.FLED)
#: The checks of spec §2.3 the engine rolls (companion/systems/genso/checks.py).
CHECKS = {"simple": "簡易判定 simple check", "general": "一般判定 general check",
          "trap": "罠発見 trap detection", "enemy": "敵発見 enemy detection",
          "undead": "不死族感知 undead sensing", "opposed": "対抗判定 opposed check",
          "mark": "呪印呪の方向 Mark direction"}
TRAP_NAMES = {"cleverly_set": "巧妙な罠 cleverly set", "normally_set": "普通の罠 normally set",
              "hastily_set": "急ごしらえの罠 hastily set"}
MODIFIERS = (0, 1, 2, 3, -1, -2, -3)


@dataclass(frozen=True)
class CheckCall:
    """A check the GM called for at the table (spec §2.3): its kind, who rolls (and against
    whom), and the options its engine function takes. It changes nothing in the fight."""

    kind: str
    who: str = ""
    vs: str = ""
    ability: str = ""
    difficulty: int | str | None = None
    modifier: int = 0
    active: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "who": self.who, "vs": self.vs, "ability": self.ability,
                "difficulty": self.difficulty, "modifier": self.modifier,
                "active": self.active}


@dataclass(frozen=True)
class Checked:
    """An event: a check rolled at the table, with the engine's result (terms, rule ID)."""

    call: CheckCall
    check: checks.Check | checks.Opposed

    def to_json(self) -> dict[str, Any]:
        return {"call": self.call.to_json(), "result": self.check.to_json()}


def roll_check(rules: GensoRules, fight: Fight, call: CheckCall,
               source: DiceSource) -> checks.Check | checks.Opposed:
    """``call`` rolled by the engine's own check, the characters read from the fight's
    entrants' sheets (as the fight took them up)."""
    def sheet(name: str) -> Any:
        entrant = next((e for e in fight.entrants if e.name == name and not e.monster), None)
        if entrant is None:
            raise IllegalAction(f"{name!r} has no character sheet in this fight")
        return character_from_mapping(rules, entrant.sheet, f"fight entrant {name}")

    # An explicit None test: a difficulty of 0 is a difficulty, not "none given".
    hard = "hard" if call.difficulty is None else call.difficulty
    if call.kind == "simple":
        return checks.simple_check(rules, source, hard, call.modifier)
    who = sheet(call.who)
    if call.kind == "general":
        return checks.general_check(rules, source, who, call.ability, hard, call.modifier)
    if call.kind == "trap":
        return checks.trap_check(rules, source, who,
                                 "normally_set" if call.difficulty is None else call.difficulty,
                                 call.modifier)
    if call.kind == "enemy":
        return checks.enemy_check(rules, source, who, call.difficulty, call.modifier)
    if call.kind == "undead":
        return checks.undead_check(rules, source, who, call.modifier)
    if call.kind == "mark":
        return checks.mark_check(rules, source, who, call.modifier)
    if call.kind == "opposed":
        return checks.opposed_check(rules, source, who, sheet(call.vs), call.ability,
                                    active=call.active, a_modifier=call.modifier)
    raise IllegalAction(f"no check {call.kind!r}")


def check_steps(check: checks.Check | checks.Opposed) -> tuple[DiceStep, ...]:
    """A check's result lines for the fight view: its terms, its BCDice line(s), notes."""
    rule = check.rule if isinstance(check, checks.Check) else "GM-CHECK-5"
    return tuple(DiceStep(rule, line) for line in check.text.splitlines())


FightEvent = Entry | Undone | Checked
#: Shared with every fight at the table (kept importable from here).
__all__ = ["FightSave", "GensoFightMode", "Undone", "load_fight_save", "same_fight",
           "table_session", "write_fight_file"]


def english(rules: GensoRules, fight: Fight, c: Combatant) -> str:
    """A combatant's English name: the monster's with its number, or PC / NPC with theirs
    among their role's (so a screen with no Japanese font still tells two PCs apart)."""
    entrant = next((e for e in fight.entrants if e.name == c.name), None)
    if entrant is not None and entrant.monster:
        monster = rules.monster(entrant.monster)
        number = re.search(r"(\d+)$", c.name)
        return monster.en + (f" {number.group(1)}" if number else "")
    same = [o.name for o in fight.state.combatants if o.role is c.role]
    role = c.role.value.upper().replace("_AS_MONSTER", " (as monster)")
    return f"{role} {same.index(c.name) + 1}" if len(same) > 1 else role


def named(rules: GensoRules, fight: Fight, c: Combatant) -> str:
    """A combatant's name and, after it, its English one (オーク1 Orc 1, 駆け出し冒険者１ PC 1)."""
    return f"{c.name} {english(rules, fight, c)}"


def target_label(rules: GensoRules, fight: Fight, c: Combatant) -> str:
    """A target's button: its English first (Giant Ant 2 ジャイアント・アント2), as a button
    cut short keeps what tells the targets apart: Japanese names of one kind of monster
    differ only at their ends."""
    return f"{english(rules, fight, c)} {c.name}"


def describe(action: Action | CheckCall) -> str:
    """An action in a line, for the log and the result's title."""
    if isinstance(action, CheckCall):
        who = f"{action.who} " if action.who else ""
        vs = f" vs {action.vs}" if action.vs else ""
        return f"{who}判定 check: {CHECKS.get(action.kind, action.kind)}{vs}"
    return action_text(action)


def summary(entry: Entry) -> str:
    """What an action came to, in a few words: the pools it left, or the roll's verdict."""
    lines = [line for line in entry.lines if not line.text.startswith("round ")]
    if not lines:
        return "–"
    last = lines[-1]
    if last.rule == "GM-COMBAT-8" or last.result is None:
        return last.text
    return last.result.text.rpartition("＞")[2].strip()


class GensoFightMode(FightMode):
    """Turn by turn: an action, its target, weapon or spell, then its dice; over when the
    fight is and the GM closes it."""

    TITLE = TITLE

    def __init__(self, rules: GensoRules, fight: Fight, source_name: str = "") -> None:
        # ``rules`` is what the session was started with; the mode reads the fight's own
        # (:attr:`rules`), the settings the fight is played with.
        super().__init__(fight, source_name)
        self.fight: Fight = fight
        self.last_check: Checked | None = None  # shown until the next action or undo

    @property
    def rules(self) -> GensoRules:
        """The fight's own rules: the settings it was played with, not the session's."""
        return self.fight.rules

    def describe(self, action: Action | CheckCall) -> str:
        return self.with_english(describe(action))

    def english_names(self) -> dict[str, str]:
        return {c.name: english(self.rules, self.fight, c) for c in self.fight.state.combatants}

    def answer(self, value: Any) -> list[Any]:
        events = super().answer(value)
        if events:
            last = events[-1]
            self.last_check = last if isinstance(last, Checked) else None
        return events

    def _direct(self, choice: str) -> list[FightEvent] | None:
        if self.path[:1] == ["check"]:
            return None
        if self.fight.state.current is None or self.path == ["gm"]:
            return self._gm(choice)
        return None

    # -- checks (spec §2.3): rolled by the engine, journalled by the mode only --------------

    def _push(self, action: Any) -> list[Any]:
        if not isinstance(action, CheckCall):
            return super()._push(action)
        try:
            check = roll_check(self.rules, self.fight, action, Thrown(self.throws))
        except NeedDice:
            return []
        event = Checked(action, check)
        self._events.append(event)
        return [event]

    def _walk(self, action: Any) -> NeedDice | None:
        if not isinstance(action, CheckCall):
            return super()._walk(action)
        try:
            roll_check(self.rules, self.fight, action, Thrown(self.throws))
        except NeedDice as need:
            return need
        return None

    def log_lines(self, events: Sequence[object]) -> list[str]:
        lines = []
        for event in events:
            if isinstance(event, Checked):
                lines.append(json.dumps({"check": event.to_json()}, ensure_ascii=False))
            else:
                lines += super().log_lines([event])
        return lines

    def _gm(self, choice: str) -> list[FightEvent]:
        """The GM's steps: undo, close a finished fight, the end, sunrise, sunset, sleep."""
        if choice in ("gm", "check"):
            self.path = [choice]
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

    # -- the menus ------------------------------------------------------------------------

    def _step(self, path: Sequence[str]) -> ChoiceAsk | Action | CheckCall:
        """The next menu for the options picked so far, or the action they make."""
        state = self.fight.state
        actor = state.current
        if path[:1] == ["check"]:
            return self._check(list(path[1:]))
        if actor is None:
            return ChoiceAsk(f"The fight is over 戦闘終了: {self._outcome()}", (
                Option("close", "Close 閉じる", Button.ATTACK), Option("undo", "Undo 取り消し"),
                Option("sleep", "Sleep 睡眠 (MP)"), Option("sunrise", "Sunrise 日の出"),
                Option("check", "Check 判定")))
        if not path:
            return self._actions(actor)
        kind, rest = path[0], list(path[1:])
        if kind == "gm":
            return ChoiceAsk("GM: which step? 進行", (
                Option("undo", "Undo 取り消し"), Option("end", "End fight 戦闘終了"),
                Option("sunrise", "Sunrise 日の出"), Option("sunset", "Sunset 日没"),
                Option("sleep", "Sleep 睡眠"), Option("check", "Check 判定"), BACK))
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
        options.append(Option("dodge", "Dodge 全力回避"))
        if not self.fight.state.moved:  # GM-COMBAT-1: one movement mode a round
            options.append(Option("move", "Move 移動"))
        options += [Option("wait", "Wait 待機"), Option("flee", "Flee 逃亡", Button.FLEE),
                    Option("gm", "GM 進行")]
        flee = " GM-MON-1: it wants to flee 逃走したい" if wants_to_flee(self.rules, actor) else ""
        return ChoiceAsk(f"{named(self.rules, self.fight, actor)}: what does it do? 行動は？"
                         f"{flee}", tuple(options))

    def _check(self, rest: list[str]) -> ChoiceAsk | CheckCall:
        """GM-CHECK-1..6, GM-MAGIC-6: which check, who rolls (whose turn it is, highlighted),
        against whom, the ability, the difficulty, active or not, a modifier; then its dice."""
        if not rest:
            return ChoiceAsk("Which check? 判定は？", (
                *(Option(f"c:{k}", label) for k, label in CHECKS.items()), BACK))
        kind, rest = _value(rest[0], "c"), rest[1:]
        if kind not in CHECKS:
            raise IllegalAction(f"there is no check {kind!r}")
        who = vs = ability = ""
        active = True
        if kind != "simple":
            rollers = [c for c in self.fight.state.order if c.status not in DOWN and any(
                e.name == c.name and not e.monster for e in self.fight.entrants)
                and (kind != "mark" or "mark" in c.spells)]
            if not rest:
                current = self.fight.state.current
                names = [c.name for c in rollers]
                ask = self._pick("Who rolls? 誰が判定する？" if rollers else
                                 "Nobody here can roll it 判定できる者がいない", rollers)
                at = names.index(current.name) if current and current.name in names else 0
                return ChoiceAsk(ask.prompt, ask.options, at)
            who, rest = _value(rest[0], "t"), rest[1:]
            if kind == "opposed":
                if not rest:
                    return self._pick(f"{who} against whom? 対抗相手は？",
                                      [c for c in rollers if c.name != who])
                vs, rest = _value(rest[0], "t"), rest[1:]
        if kind in ("general", "opposed"):
            if not rest:
                return ChoiceAsk("Which ability? 能力値は？", (
                    *(Option(f"a:{a}", f"{self.rules.abilities[a]['ja']} "
                                       f"{self.rules.abilities[a]['en']}") for a in ABILITIES),
                    BACK))
            ability, rest = _value(rest[0], "a"), rest[1:]
        difficulty: int | str | None = None
        if kind in ("simple", "general", "trap", "enemy"):
            if not rest:
                return self._difficulties(kind)
            picked, rest = _value(rest[0], "d"), rest[1:]
            difficulty = None if picked == "default" else picked
        if kind == "opposed":
            if not rest:
                return ChoiceAsk(f"Is {who} the active side? {who}が能動側？", (
                    Option("act:yes", "Active 能動 (a tie fails it)"),
                    Option("act:no", "Neither 双方受動 (a tie is a draw)"), BACK))
            active, rest = _value(rest[0], "act") == "yes", rest[1:]
        modifier = 0
        if kind != "simple" or self.rules.default("GM-CHECK-1", "manual_modifier"):
            if not rest:
                return ChoiceAsk("Modifier? 修正値は？", (
                    *(Option(f"m:{m}", f"{m:+d}" if m else "±0 none なし") for m in MODIFIERS),
                    BACK))
            number = _value(rest[0], "m")
            if number.lstrip("-") not in {str(abs(m)) for m in MODIFIERS}:
                raise IllegalAction(f"there is no choice {rest[0]!r} now")
            modifier, rest = int(number), rest[1:]
        if rest:
            raise IllegalAction(f"there is no choice {rest[0]!r} now")
        return CheckCall(kind, who, vs, ability, difficulty, modifier, active)

    def _difficulties(self, kind: str) -> ChoiceAsk:
        """The difficulties of a check by name, the trap's kinds, or enemy detection's Default."""
        if kind == "trap":
            return ChoiceAsk("Which trap? 罠は？", (
                *(Option(f"d:{t}", f"{label} {self.rules.num('GM-CHECK-3', t)}")
                  for t, label in TRAP_NAMES.items()), BACK))
        options = []
        if kind == "enemy":
            options.append(Option("d:default", "標準 default "
                                  f"{self.rules.default('GM-CHECK-6', 'difficulty')} (default)"))
        table = self.rules.difficulties["simple" if kind == "simple" else "general"]
        for key, value in table.items():
            if key != "rule":
                name = self.rules.difficulty_names[key]
                options.append(Option(f"d:{key}", f"{name['ja']} {name['en']} {value}"))
        highlight = next((i for i, o in enumerate(options) if o.choice == "d:hard"), 0)
        return ChoiceAsk("Difficulty? 難易度は？", (*options, BACK),
                         0 if kind == "enemy" else highlight)

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
        options = [Option(f"t:{c.name}", target_label(self.rules, self.fight, c))
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
            extra = [Option(f"w:{c.name}:{i}",
                            f"{target_label(self.rules, self.fight, c)}: {w.name}")
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
        return outcome.text if outcome is not None else ""

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
        log = tuple(self.with_english(f"{describe(e.action)} ＞ {summary(e)}")
                    for e in journal[-8:])
        result = tuple(DiceStep(line.rule, self.with_english(line.text))
                       for line in last.lines) if last else ()
        result_title = self.describe(last.action) if last else ""
        if self.last_check is not None:  # a check rolled since the last action
            result = tuple(DiceStep(step.rule, self.with_english(step.text))
                           for step in check_steps(self.last_check.check))
            result_title = self.describe(self.last_check.call)
        return FightView(
            title=self._title(), round=state.round,
            turn=named(self.rules, self.fight, current) if current else "",
            fighters=tuple(rows), result=result, result_title=result_title, log=log,
            faces=faces,
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

    def closing(self) -> str:
        return f"The fight is closed 戦闘終了: {self._outcome() or 'saved'}"


_value = option_value
_index = option_index


# --- the table's save ------------------------------------------------------------------------


def read_fight_file(rules: GensoRules, path: Path) -> Fight:
    """The fight `companion genso fight new` wrote (and the table keeps writing)."""
    return Fight.from_json(rules, read_fight_data(path, START_HINT), str(path))


def table_session(rules: GensoRules, fight_path: Path, state_path: Path, *, resume: bool,
                  seed: int | None, choices: ChoiceFeed, rolls: RollFeed | None = None,
                  display: Display | None = None, source_name: str = "camera カメラ",
                  tell: Callable[[str], object] = lambda message: None) -> Session:
    """The play session of a genso fight at the table, ready to run (see
    :func:`~companion.app.modes.fight.open_table`)."""
    table = Table(PRESET, "companion genso fight", START_HINT,
                  lambda data: Fight.from_json(rules, data, str(fight_path)),
                  lambda fight, name: GensoFightMode(rules, fight, name))
    return open_table(table, fight_path, state_path, resume=resume, seed=seed,
                      choices=choices, rolls=rolls, display=display, source_name=source_name,
                      tell=tell)
