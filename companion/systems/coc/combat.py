"""The `coc` fight tracker (spec §3.1–§3.21): a pure state machine with push/pop.

A :class:`Fight` keeps one immutable :class:`FightState` per action and a journal of
every action with the dice it used, so it can be undone a step, saved as plain data and
replayed from its log with identical results. The running profile's table (§3.22,
CO-CORE-2) decides which rules fire: a rule that is off never runs.

Turn order: DEX order, highest first, ties by 1D100, lowest first (CO-TURN-1, CO-BASE-5).
Profile 003 spends 3 action points per turn (CO-TURN-3) and ends a turn with
:class:`EndTurn` or when its points run out; profile 004 takes one action per turn.
Defences (dodge, parry) are declared with the attack they answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields, replace
from enum import Enum
from typing import Any, ClassVar

from companion.dice import DiceSource, ScriptedDice, roll
from companion.errors import DataError, IllegalAction
from companion.systems.coc.checks import (
    Check,
    Grade,
    Ranges,
    Rank,
    check,
    combination,
    ranges,
    resist,
)
from companion.systems.coc.rules import CocRules, DamageBonus, Profile, WeaponKind
from companion.systems.coc.sheet import (
    Sheet,
    Weapon,
    double_dice,
    half_db,
    sheet_from_mapping,
    sheet_mapping,
    skill_value,
)


class Side(Enum):
    INVESTIGATORS = "investigators"
    FOES = "foes"


class Defence(Enum):
    """The defender's declared reaction (CO-DODGE, CO-PARRY)."""

    NONE = "none"
    DODGE = "dodge"
    PARRY = "parry"


class Condition(Enum):
    """Conditions with a duration; ``until`` is the last round they last (0: the fight)."""

    FALLEN = "転倒/fallen"            # CO-MELEE-4: no actions next round
    NO_ACTION = "行動不能/no action"   # CO-STUN-3 success: no action next round
    UNCONSCIOUS = "気絶/unconscious"
    DYING = "瀕死/dying"


@dataclass(frozen=True, slots=True)
class Timed:
    condition: Condition
    from_round: int
    until: int  # last round it lasts; 0 = until removed


@dataclass(frozen=True)
class Combatant:
    """One investigator or foe in the fight, with its per-round bookkeeping."""

    sheet: Sheet
    side: Side
    hp: int
    ap: int = 0
    dead: bool = False
    conditions: tuple[Timed, ...] = ()
    dodges: int = 0
    parries: int = 0
    attacks: int = 0          # attack AP spent / attack actions this round (CO-TURN-6)
    other_skill: bool = False  # CO-TURN-4
    acted: bool = False
    stun: int = 0             # CO-STUN-1 stacks
    grappling: str = ""       # whom it holds
    held_by: str = ""
    grapple_round: int = 0
    grapple_options: bool = False  # CO-MA-2: MA grapple success opens choke/throw
    dying_until: int = 0      # CO-BASE-8: dies at the end of this round
    treat_failed: bool = False

    @property
    def name(self) -> str:
        return self.sheet.name

    def has(self, condition: Condition, round_: int) -> bool:
        return any(t.condition is condition and t.from_round <= round_ and
                   (t.until == 0 or round_ <= t.until) for t in self.conditions)

    @property
    def unconscious(self) -> bool:
        return any(t.condition is Condition.UNCONSCIOUS for t in self.conditions)

    @property
    def out(self) -> bool:
        return self.dead or self.unconscious


# --- actions -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Attack:
    """Attack with a weapon (melee, firearm, thrown, unarmed); MA makes it a combination roll."""

    kind: ClassVar[str] = "attack"
    actor: str
    target: str
    weapon: int = 0
    defence: Defence = Defence.NONE
    parry_weapon: int = 0
    ma: bool = False
    ma_option: str = ""  # 004: "forced" (CO-MA-3) or "follow_up" (CO-MA-4)
    shots: int = 1
    burst: bool = False
    from_behind: bool = False
    fumble: str = ""  # CO-MELEE-4: "fall" or "break"; empty = automatic


@dataclass(frozen=True)
class Grapple:
    """CO-GRAP-1 (003) / CO-GRAP-6 (004); with ``ma`` a combination roll (CO-MA-2)."""

    kind: ClassVar[str] = "grapple"
    actor: str
    target: str
    defence: Defence = Defence.NONE
    parry_weapon: int = 0
    ma: bool = False


@dataclass(frozen=True)
class Choke:
    """CO-MA-2 choke (003) / CO-GRAP-7 (004)."""

    kind: ClassVar[str] = "choke"
    actor: str


@dataclass(frozen=True)
class Throw:
    """CO-MA-2 throw (003) / CO-GRAP-8 (004); ``at`` is whoever the thrown one lands on."""

    kind: ClassVar[str] = "throw"
    actor: str
    at: str = ""
    at_dodges: bool = False


@dataclass(frozen=True)
class BreakFree:
    """CO-GRAP-2 (003) / CO-GRAP-6 (004): opposed STR, the held side active (CO-CORE-3)."""

    kind: ClassVar[str] = "break_free"
    actor: str


@dataclass(frozen=True)
class Reload:
    """CO-FIRE-1 (003: 3 AP) / CO-BASE-12 (004: the whole action)."""

    kind: ClassVar[str] = "reload"
    actor: str
    weapon: int = 0


@dataclass(frozen=True)
class ClearJam:
    """CO-FIRE-4: a successful roll of the weapon's skill clears a jam (1 AP)."""

    kind: ClassVar[str] = "clear_jam"
    actor: str
    weapon: int = 0


@dataclass(frozen=True)
class Treat:
    """First Aid (CO-SKILL-2) or Medicine (CO-SKILL-3) in 003; CO-BASE-8 treatment in 004."""

    kind: ClassVar[str] = "treat"
    actor: str
    target: str
    skill: str = "first_aid"


@dataclass(frozen=True)
class Move:
    """CO-TURN-5 (003: 1 AP per square; positions are the Keeper's) / one action (004)."""

    kind: ClassVar[str] = "move"
    actor: str
    squares: int = 1


@dataclass(frozen=True)
class EndTurn:
    """End the current turn (003: unused AP are lost, CO-TURN-3 Default; 004: pass)."""

    kind: ClassVar[str] = "end_turn"
    actor: str


Action = Attack | Grapple | Choke | Throw | BreakFree | Reload | ClearJam | Treat | Move | EndTurn
ACTIONS: dict[str, type[Any]] = {a.kind: a for a in (Attack, Grapple, Choke, Throw, BreakFree,
                                                    Reload, ClearJam, Treat, Move, EndTurn)}


def action_to_json(action: Action) -> dict[str, Any]:
    data = {k: (v.value if isinstance(v, Enum) else v) for k, v in asdict(action).items()}
    return {"kind": action.kind, **data}


def action_from_json(data: Mapping[str, Any]) -> Action:
    cls = ACTIONS.get(str(data.get("kind")))
    if cls is None:
        raise DataError(f"unknown action {data.get('kind')!r}")
    values = {}
    for f in fields(cls):
        if f.name in data:
            values[f.name] = Defence(data[f.name]) if f.name == "defence" else data[f.name]
    try:
        made: Action = cls(**values)
    except TypeError as exc:
        raise DataError(f"action {data!r}: {exc}") from exc
    return made


# --- state -------------------------------------------------------------------------------

@dataclass(frozen=True)
class FightState:
    round: int
    order: tuple[str, ...]
    turn: int
    combatants: tuple[Combatant, ...]

    def get(self, name: str) -> Combatant:
        for c in self.combatants:
            if c.name == name:
                return c
        raise IllegalAction(f"nobody called {name!r} is in the fight")

    @property
    def current(self) -> Combatant | None:
        return self.get(self.order[self.turn]) if self.turn < len(self.order) else None

    def outcome(self) -> Side | None:
        """The side still standing once every member of the other is dead or unconscious."""
        for side in Side:
            others = [c for c in self.combatants if c.side is not side]
            if others and all(c.out for c in others) and any(
                    not c.out for c in self.combatants if c.side is side):
                return side
        return None


@dataclass(frozen=True)
class Entry:
    """One journal line: the action, what happened (each line with its rule ID), the dice."""

    action: Action
    lines: tuple[str, ...]
    dice: tuple[tuple[int, int], ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def to_json(self) -> dict[str, Any]:
        return {"action": action_to_json(self.action), "lines": list(self.lines),
                "dice": [list(d) for d in self.dice]}


class _Recorder:
    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.dice: list[tuple[int, int]] = []

    def roll(self, count: int, sides: int) -> list[int]:
        values = list(self.source.roll(count, sides))
        self.dice += [(sides, v) for v in values]
        return values


class Fight:
    """A fight: push an action to play it, pop to take it back (the python-chess pattern)."""

    def __init__(self, rules: CocRules, entrants: Sequence[tuple[Sheet, Side]],
                 source: DiceSource) -> None:
        if len({s.name for s, _ in entrants}) != len(entrants):
            raise DataError("every combatant needs a name of its own")
        if not entrants:
            raise DataError("a fight needs combatants")
        self.rules = rules
        self.entrants = tuple(entrants)
        recorder = _Recorder(source)
        step = _Step(rules, FightState(0, (), 0, tuple(
            Combatant(s, side, s.max_hp) for s, side in entrants)), recorder)
        step.new_round()
        self.opening = Entry(EndTurn(""), tuple(step.lines), tuple(recorder.dice))
        self.states: list[FightState] = [step.freeze()]
        self.journal: list[Entry] = []

    @property
    def state(self) -> FightState:
        return self.states[-1]

    def push(self, action: Action, source: DiceSource) -> Entry:
        """Play ``action``; an illegal one raises IllegalAction and changes nothing."""
        recorder = _Recorder(source)
        step = _Step(self.rules, self.state, recorder)
        step.play(action)
        entry = Entry(action, tuple(step.lines), tuple(recorder.dice))
        self.states.append(step.freeze())
        self.journal.append(entry)
        return entry

    def pop(self) -> Entry:
        if not self.journal:
            raise IllegalAction("nothing to undo")
        self.states.pop()
        return self.journal.pop()

    def to_json(self) -> dict[str, Any]:
        return {"profile": self.rules.profile.value, "settings": self.rules.settings(),
                "entrants": [{"side": side.value, "sheet": sheet_mapping(s)}
                             for s, side in self.entrants],
                "opening": [list(d) for d in self.opening.dice],
                "journal": [e.to_json() for e in self.journal]}

    @classmethod
    def from_json(cls, rules: CocRules, data: Mapping[str, Any]) -> Fight:
        """Replay a saved fight from its log; the recorded dice must give the same lines."""
        try:
            profile = Profile(data["profile"])
            settings = dict(data.get("settings", {}))
            entrants = [(sheet_from_mapping(rules, e["sheet"], f"entrant {n}"), Side(e["side"]))
                        for n, e in enumerate(data["entrants"], 1)]
            opening = [(int(s), int(v)) for s, v in data["opening"]]
            journal = list(data["journal"])
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"not a saved coc fight ({exc})") from exc
        rules = rules.with_profile(profile).with_overrides(settings, "the fight's settings")
        fight = cls(rules, entrants, ScriptedDice(opening))
        for n, raw in enumerate(journal, 1):
            action = action_from_json(raw["action"])
            entry = fight.push(action, ScriptedDice((int(s), int(v)) for s, v in raw["dice"]))
            if list(entry.lines) != list(raw.get("lines", entry.lines)):
                raise DataError(f"action {n} of the log replays differently")
        return fight


# --- the rules engine ---------------------------------------------------------------------

class _Step:
    """One action's worth of rules, on a working copy of the state."""

    def __init__(self, rules: CocRules, state: FightState, source: DiceSource) -> None:
        self.rules = rules
        self.round = state.round
        self.order = state.order
        self.turn = state.turn
        self.cs = {c.name: c for c in state.combatants}
        self.names = [c.name for c in state.combatants]
        self.source = source
        self.lines: list[str] = []
        self.r5: Ranges = ranges(rules)
        self.p003 = rules.profile is Profile.P003

    def freeze(self) -> FightState:
        return FightState(self.round, self.order, self.turn,
                          tuple(self.cs[n] for n in self.names))

    def on(self, rule: str) -> bool:
        return self.rules.on(rule)

    def say(self, text: str) -> None:
        self.lines.append(text)

    def set(self, c: Combatant, **changes: Any) -> Combatant:
        new = replace(c, **changes)
        self.cs[c.name] = new
        return new

    def get(self, name: str) -> Combatant:
        if name not in self.cs:
            raise IllegalAction(f"nobody called {name!r} is in the fight")
        return self.cs[name]

    def roll_total(self, formula: str) -> tuple[int, str]:
        if formula in ("", "0"):
            return 0, "0"
        result = roll(formula, self.source)
        return result.total, result.text

    def check(self, c: Combatant, skill: str, modifier: int = 0, label: str = "") -> Check:
        value = max(0, skill_value(self.rules, c.sheet, skill) + modifier)
        label = label or f"{c.name} {self.rules.skill(skill).name}"
        made = check(self.source, value, self.r5, label)
        self.say(made.text)
        return made

    # -- turns (CO-TURN-1, CO-TURN-3, CO-BASE-5) --

    def can_act(self, c: Combatant) -> bool:
        return not (c.out or c.has(Condition.FALLEN, self.round)
                    or c.has(Condition.NO_ACTION, self.round))

    def new_round(self) -> None:
        """CO-TURN-1 / CO-BASE-5: a new round in DEX order; ties by 1D100, lowest first."""
        self.round += 1
        for name in self.names:
            c = self.cs[name]
            self.set(c, dodges=0, parries=0, attacks=0, other_skill=False, acted=False, ap=0,
                     treat_failed=False)
        self.dying_rolls()
        rule = "CO-TURN-1" if self.on("CO-TURN-1") else "CO-BASE-5"
        ties: dict[str, int] = {}
        dexes = [self.cs[n].sheet.stat("DEX") for n in self.names]
        for name, dex in zip(self.names, dexes, strict=True):
            if dexes.count(dex) > 1:
                while True:
                    value = roll("1D100", self.source).total
                    same = [n for n in ties if ties[n] == value and
                            self.cs[n].sheet.stat("DEX") == dex]
                    if not same:
                        ties[name] = value
                        break
        self.order = tuple(sorted(self.names, key=lambda n: (-self.cs[n].sheet.stat("DEX"),
                                                             ties.get(n, 0))))
        self.turn = -1
        shown = ", ".join(f"{n}(DEX {self.cs[n].sheet.stat('DEX')}"
                          + (f", 1D100={ties[n]}" if n in ties else "") + ")" for n in self.order)
        self.say(f"round {self.round}: {shown} ({rule})")
        self.next_turn()

    def dying_rolls(self) -> None:
        """CO-DEATH-1 (003): each dying investigator rolls CON×5 at the round's start."""
        if not self.on("CO-DEATH-1"):
            return
        for name in self.names:
            c = self.cs[name]
            if c.dead or not c.has(Condition.DYING, self.round):
                continue
            made = check(self.source, c.sheet.stat("CON") * 5, self.r5, f"{name} CON×5")
            self.say(f"{made.text} (CO-DEATH-1)")
            if not made.success:
                self.die(c, "failed CON×5 while dying (CO-DEATH-1)")

    def next_turn(self) -> None:
        while True:
            self.turn += 1
            if self.turn >= len(self.order):
                self.end_round()
                return
            c = self.cs[self.order[self.turn]]
            if self.can_act(c):
                self.begin_turn(c)
                return
            why = "dead" if c.dead else "cannot act"
            self.say(f"{c.name} is skipped ({why})")

    def begin_turn(self, c: Combatant) -> None:
        if not self.p003:
            return
        ap = self.rules.num("CO-TURN-3", "action_points")
        if self.on("CO-STUN-1") and c.stun:
            made = check(self.source, c.sheet.stat("CON") * 5, self.r5, f"{c.name} CON×5")
            stun = c.stun - 1 if made.success else c.stun
            self.say(f"{made.text} (CO-STUN-1: stun {c.stun} → {stun})")
            c = self.set(c, stun=stun)
            ap -= c.stun
        if self.on("CO-GRAP-3") and (c.grappling or c.held_by):
            ap = min(ap, self.rules.num("CO-GRAP-3", "action_points"))
        self.set(c, ap=max(0, ap))
        self.say(f"{c.name}'s turn: {max(0, ap)} AP (CO-TURN-3)")

    def end_round(self) -> None:
        for name in self.names:
            c = self.cs[name]
            if self.on("CO-ARMOR-2") and any(a.breaking for a in c.sheet.armour):
                kept = tuple(a for a in c.sheet.armour if not a.breaking)
                self.say(f"{name}'s armour breaks at the end of the round (CO-ARMOR-2)")
                c = self.set(c, sheet=replace(c.sheet, armour=kept))
            if self.on("CO-BASE-8") and not c.dead and c.dying_until == self.round:
                self.die(c, "not treated by the end of the next round (CO-BASE-8)")
        if self.over():
            self.order, self.turn = (), 0
            return
        self.new_round()

    def over(self) -> bool:
        return self.freeze().outcome() is not None

    def finish(self, actor: Combatant) -> None:
        """After an action: 004 passes the turn (CO-BASE-5); 003 when the AP are spent."""
        if self.over():
            self.say(f"the fight is over: the {self.freeze().outcome().value} stand")  # type: ignore[union-attr]
            self.order, self.turn = (), 0
            return
        c = self.cs[actor.name]
        if not self.p003 or c.ap <= 0 or not self.can_act(c):
            self.next_turn()

    # -- legality --

    def legal(self, action: Action) -> Combatant:
        if not self.order:
            raise IllegalAction("the fight is over")
        actor = self.get(action.actor)
        current = self.order[self.turn]
        if actor.name != current:
            raise IllegalAction(f"it is {current}'s turn, not {actor.name}'s "
                                f"({'CO-TURN-1' if self.p003 else 'CO-BASE-5'})")
        if self.on("CO-GRAP-6") and actor.held_by and not isinstance(
                action, (BreakFree, EndTurn)):
            raise IllegalAction(f"{actor.name} is restrained: only breaking free (CO-GRAP-6)")
        return actor

    def spend(self, c: Combatant, ap: int, rule: str) -> Combatant:
        """CO-TURN-3: pay action points (003 only)."""
        if not self.p003:
            return c
        if c.ap < ap:
            raise IllegalAction(f"{c.name} has {c.ap} AP, needs {ap} ({rule})")
        return self.set(c, ap=c.ap - ap)

    # -- play --

    def play(self, action: Action) -> None:
        actor = self.legal(action)
        if isinstance(action, EndTurn):
            self.say(f"{actor.name} ends the turn")
            self.next_turn()
            return
        if isinstance(action, Attack):
            self.attack(actor, action)
        elif isinstance(action, Grapple):
            self.grapple(actor, action)
        elif isinstance(action, Choke):
            self.choke(actor, action)
        elif isinstance(action, Throw):
            self.throw(actor, action)
        elif isinstance(action, BreakFree):
            self.break_free(actor, action)
        elif isinstance(action, Reload):
            self.reload(actor, action)
        elif isinstance(action, ClearJam):
            self.clear_jam(actor, action)
        elif isinstance(action, Treat):
            self.treat(actor, action)
        else:
            self.move(actor, action)
        self.finish(actor)

    def move(self, c: Combatant, a: Move) -> None:
        if a.squares < 1:
            raise IllegalAction("move at least one square")
        if self.on("CO-GRAP-6") and c.grappling:
            raise IllegalAction("a restraining grappler holds its place (CO-GRAP-6)")
        self.spend(c, a.squares, "CO-TURN-5")
        rule = "CO-TURN-5" if self.p003 else "CO-BASE-5"
        self.say(f"{c.name} moves {a.squares} square(s) ({rule})")

    def weapon(self, c: Combatant, index: int) -> Weapon:
        if not 0 <= index < len(c.sheet.weapons):
            raise IllegalAction(f"{c.name} has no weapon {index}")
        return c.sheet.weapons[index]

    def put_weapon(self, c: Combatant, index: int, w: Weapon) -> Combatant:
        weapons = list(c.sheet.weapons)
        weapons[index] = w
        return self.set(c, sheet=replace(c.sheet, weapons=tuple(weapons)))

    def may_attack(self, c: Combatant, w: Weapon, ap: int) -> None:
        if w.broken or w.dropped:
            raise IllegalAction(f"{w.info.name} is {'broken' if w.broken else 'dropped'}")
        if w.jammed:
            raise IllegalAction(f"{w.info.name} is jammed until cleared (CO-FIRE-4)")
        if self.on("CO-STUN-1") and c.stun:
            raise IllegalAction(f"{c.name} is stunned and cannot attack (CO-STUN-1)")
        if self.on("CO-TURN-4") and c.other_skill:
            raise IllegalAction("no attack in a round with another skill (CO-TURN-4)")
        if self.on("CO-GRAP-3") and (c.grappling or c.held_by) and w.info.two_handed:
            raise IllegalAction("no two-handed weapon while grappling (CO-GRAP-3)")
        if self.on("CO-DODGE-4") and c.dodges:
            raise IllegalAction(f"{c.name} dodged this round and cannot attack (CO-DODGE-4)")
        if self.p003 and self.on("CO-TURN-6") and c.attacks + ap > w.info.attacks:
            raise IllegalAction(f"{w.info.name} allows {w.info.attacks} attack AP a round "
                                "(CO-TURN-6)")
        if not self.p003 and c.attacks:
            raise IllegalAction("one attack action a turn (CO-BASE-5)")

    def attack(self, c: Combatant, a: Attack) -> None:
        target = self.get(a.target)
        if target.name == c.name:
            raise IllegalAction("attack someone else")
        if target.dead:
            raise IllegalAction(f"{target.name} is dead")
        w = self.weapon(c, a.weapon)
        firearm = w.info.kind is WeaponKind.FIREARM
        if a.burst:
            self.burst(c, target, a, w)
            return
        shots = a.shots if not self.p003 else 1
        if not 1 <= shots <= w.info.attacks:
            raise IllegalAction(f"{w.info.name} makes 1 to {w.info.attacks} attacks a round")
        if a.ma and not (w.info.technique and (self.on("CO-MA-1") or self.on("CO-BASE-6"))):
            raise IllegalAction("MA goes with Fist, Kick or Head Butt (CO-MA-1, CO-BASE-6)")
        if a.ma_option and not self.on({"forced": "CO-MA-3", "follow_up": "CO-MA-4"}.get(
                a.ma_option, "CO-MA-3")):
            raise IllegalAction(f"the MA option {a.ma_option!r} is off in this profile")
        if firearm and w.loaded < shots:
            raise IllegalAction(f"{w.info.name} has {w.loaded} round(s) loaded")
        self.may_attack(c, w, 1)
        c = self.spend(c, 1, "CO-TURN-6")
        c = self.set(c, attacks=c.attacks + 1)
        for shot in range(shots):
            c = self.cs[c.name]
            target = self.cs[target.name]
            w = c.sheet.weapons[a.weapon]
            if firearm:
                c = self.put_weapon(c, a.weapon, replace(w, loaded=w.loaded - 1))
            if w.info.improvised and self.on("CO-WEAP-1"):
                self.wear(c, a.weapon, "an attack")
            self.one_attack(self.cs[c.name], target, a, w, first=shot == 0)
            if self.cs[target.name].dead:
                break

    def wear(self, c: Combatant, index: int, why: str) -> None:
        """CO-WEAP-1: an improvised weapon loses 1 durability a use; at 0 it breaks."""
        w = self.cs[c.name].sheet.weapons[index]
        left = max(0, (w.durability or 0) - self.rules.num("CO-WEAP-1", "wear"))
        self.say(f"{w.info.name} durability {w.durability} → {left} ({why}, CO-WEAP-1)"
                 + (": broken" if left == 0 else ""))
        self.put_weapon(self.cs[c.name], index, replace(w, durability=left, broken=left == 0))

    def one_attack(self, c: Combatant, target: Combatant, a: Attack, w: Weapon, first: bool
                   ) -> None:
        info = w.info
        skill = skill_value(self.rules, c.sheet, info.skill)
        modifier = 0
        if not self.p003 and self.on("CO-DODGE-5") and c.dodges:
            modifier += self.rules.num("CO-DODGE-5", "attack_after_dodge")
        doubled = False
        grade: Grade
        if a.ma:
            ma = skill_value(self.rules, c.sheet, "martial_arts")
            combo = combination(self.source, skill + modifier, ma, self.r5,
                                f"{c.name} {info.name}+MA")
            rule = "CO-MA-1" if self.on("CO-MA-1") else "CO-BASE-6"
            self.say(f"{combo.text} ({rule}, CO-BASE-3)")
            grade = combo.grades[0]
            must = self.rules.default("CO-MA-1" if self.p003 else "CO-BASE-6",
                                      "technique_must_succeed")
            hit = combo.rank is Rank.SUCCESS or (combo.rank is Rank.PARTIAL and (
                grade.success or not must))
            doubled = combo.rank is Rank.SUCCESS and a.ma_option != "forced"
            if combo.rank is Rank.SUCCESS and a.ma_option == "forced":
                self.say("forced hit: the dodge is used up, normal damage (CO-MA-3)")
                self.set(target, dodges=target.dodges + 1)
                a = replace(a, defence=Defence.NONE)
        else:
            made = check(self.source, max(0, skill + modifier), self.r5,
                         f"{c.name} {info.name}")
            self.say(made.text)
            grade, hit = made.grade, made.success
        if not hit:
            if grade is Grade.FUMBLE:
                self.fumble(c, a, w)
            return
        melee = info.kind in (WeaponKind.MELEE, WeaponKind.UNARMED)
        defence = a.defence
        could_defend = self.defence_allowed(target, defence, info.kind, a, first) if \
            defence is not Defence.NONE else False
        if grade.critical and melee and self.on("CO-MELEE-3"):
            any_defence = self.defence_possible(target, info.kind, a)
            self.say("critical: no dodge or parry (CO-MELEE-3)")
            if not any_defence or self.rules.default("CO-MELEE-3", "double_every_critical"):
                doubled = "x2"  # type: ignore[assignment]
            defence, could_defend = Defence.NONE, False
        if defence is not Defence.NONE and not could_defend:
            raise IllegalAction(f"{target.name} cannot {defence.value} now")
        if defence is Defence.DODGE:
            if self.dodge(target, info.kind, a, first):
                return
        damage, text = self.damage(c, w, doubled, grade, melee)
        if a.ma and a.ma_option == "follow_up" and doubled is True:
            more, more_text = self.damage(c, w, True, Grade.SUCCESS, melee)
            self.say(f"follow-up: {more_text} (CO-MA-4)")
            damage += more
        if defence is Defence.PARRY:
            damage = self.parry(target, a.parry_weapon, damage, text)
            if damage <= 0:
                return
        ignore = grade.critical and info.kind is WeaponKind.FIREARM and self.on("CO-FIRE-3")
        if ignore:
            self.say("critical: the armour is ignored (CO-FIRE-3)")
        self.hit(target, damage, text, ignore_armour=ignore, from_behind=a.from_behind)
        if info.stun and self.on("CO-STUN-1"):
            self.stun(self.cs[target.name])

    def damage(self, c: Combatant, w: Weapon, doubled: object, grade: Grade, melee: bool
               ) -> tuple[int, str]:
        info = w.info
        dice = info.damage
        rule = ""
        if doubled is True:
            dice = double_dice(dice, self.rules.num("CO-MA-1", "dice_multiplier"))
            rule = " (doubled, " + ("CO-MA-1)" if self.p003 else "CO-BASE-6)")
        if grade.special and info.impaling and self.on("CO-BASE-2"):
            dice = f"{dice}+{dice}"
            rule += " (impale, CO-BASE-2)"
        db = {DamageBonus.FULL: c.sheet.db, DamageBonus.HALF: half_db(c.sheet.db),
              DamageBonus.NONE: "0"}[info.db]
        formula = dice if db == "0" else f"{dice}{db}" if dice != "0" else db
        total, text = self.roll_total(formula)
        total = max(0, total)
        if doubled == "x2":
            total *= 2
            rule += " ×2 (CO-MELEE-3)"
        return total, f"damage {text}{rule} = {total}"

    def defence_possible(self, target: Combatant, kind: WeaponKind, a: Attack) -> bool:
        return any(self.defence_allowed(target, d, kind, a, True)
                   for d in (Defence.DODGE, Defence.PARRY))

    def defence_allowed(self, t: Combatant, d: Defence, kind: WeaponKind, a: Attack,
                        first: bool) -> bool:
        """CO-DODGE-2 (003) / CO-DODGE-4, CO-DODGE-7, CO-BASE-7 (004): reaction limits."""
        if t.out:
            return False
        if self.on("CO-DODGE-3") and a.from_behind:
            return False
        if d is Defence.DODGE:
            if not first and self.on("CO-DODGE-7") and kind is WeaponKind.FIREARM:
                return False
            limit = self.rules.default("CO-DODGE-2" if self.p003 else "CO-DODGE-4",
                                       "dodges_per_round")
            return t.dodges < int(limit)
        if kind is WeaponKind.FIREARM or kind is WeaponKind.THROWN:
            return False
        if not 0 <= a.parry_weapon < len(t.sheet.weapons):
            return False
        pw = t.sheet.weapons[a.parry_weapon]
        if pw.broken or pw.dropped or pw.durability is None:
            return False
        if self.on("CO-PARRY-2") and not (pw.info.kind is WeaponKind.MELEE or pw.info.long_gun):
            return False
        limit = self.rules.default("CO-DODGE-2", "other_defences_per_round") if self.p003 \
            else self.rules.default("CO-BASE-7", "parries_per_round")
        return t.parries < int(limit)

    def dodge(self, t: Combatant, kind: WeaponKind, a: Attack, first: bool) -> bool:
        modifier = 0
        if not self.p003 and self.on("CO-DODGE-5") and t.attacks:
            modifier = self.rules.num("CO-DODGE-5", "dodge_after_attack")
        self.set(t, dodges=t.dodges + 1)
        rule = "CO-DODGE-2" if self.p003 else "CO-DODGE-4"
        made = self.check(t, "dodge", modifier)
        self.lines[-1] += f" ({rule}" + (", −60 after attacking, CO-DODGE-5)" if modifier
                                        else ")")
        return made.success

    def parry(self, t: Combatant, index: int, damage: int, text: str) -> int:
        """CO-PARRY-1 (003) / CO-PARRY-4 (004): the weapon takes the damage."""
        pw = t.sheet.weapons[index]
        t = self.set(t, parries=t.parries + 1)
        made = self.check(t, pw.info.skill, label=f"{t.name} parry {pw.info.name}")
        if not made.success:
            return damage
        left = pw.durability or 0
        self.say(text)
        if self.on("CO-PARRY-1"):
            if damage < left:
                self.put_weapon(t, index, replace(pw, durability=left - damage))
                self.say(f"parried: {damage} damage vs durability {left} ＞ weapon "
                         f"{left - damage} left, 0 damage (CO-PARRY-1)")
                return 0
            self.put_weapon(t, index, replace(pw, durability=0, broken=True))
            self.say(f"parried: {damage} damage vs durability {left} ＞ the weapon breaks, "
                     f"{damage - left} damage to {t.name} (CO-PARRY-1)")
            return damage - left
        through = max(0, damage - left)
        self.say(f"parried: {damage} damage vs durability {left} ＞ {through} damage to "
                 f"{t.name}; weapon unchanged (CO-PARRY-4)")
        if pw.info.improvised and self.on("CO-WEAP-1"):
            self.wear(t, index, "a parry")
        return through

    def fumble(self, c: Combatant, a: Attack, w: Weapon) -> None:
        info = w.info
        if info.kind is WeaponKind.FIREARM and self.on("CO-FIRE-4"):
            if info.jams:
                self.put_weapon(c, a.weapon, replace(w, jammed=True))
                self.say(f"fumble: {info.name} jams (CO-FIRE-4)")
            else:
                self.put_weapon(c, a.weapon, replace(w, dropped=True))
                self.say(f"fumble: {info.name} is dropped (CO-FIRE-4)")
        elif info.kind in (WeaponKind.MELEE, WeaponKind.UNARMED) and self.on("CO-MELEE-4"):
            choice = a.fumble
            if not choice:
                if info.kind is WeaponKind.UNARMED:
                    choice = "fall"
                else:
                    face = roll("1D2", self.source).total
                    choice = "break" if face == self.rules.default(
                        "CO-MELEE-4", "weapon_break_face") else "fall"
            if choice == "break" and info.kind is not WeaponKind.UNARMED:
                self.put_weapon(c, a.weapon, replace(w, broken=True))
                self.say(f"fumble: {info.name} breaks (CO-MELEE-4)")
            else:
                cond = Timed(Condition.FALLEN, self.round + 1, self.round + 1)
                self.set(self.cs[c.name], conditions=(*self.cs[c.name].conditions, cond))
                self.say(f"fumble: {c.name} falls and loses next round's actions (CO-MELEE-4)")

    def armour(self, t: Combatant, damage: int) -> int:
        """CO-ARMOR-1 (003: durability pool) / CO-ARMOR-2 (004: uses, per hit)."""
        kept = []
        for arm in t.sheet.armour:
            if damage <= 0:
                kept.append(arm)
                continue
            if self.on("CO-ARMOR-1"):
                pool = arm.durability if arm.durability is not None else damage
                absorbed = min(arm.value, damage, pool)
                damage -= absorbed
                if arm.durability is not None:
                    left = arm.durability - absorbed
                    arm = replace(arm, durability=left)
                    self.say(f"{arm.name} stops {absorbed}, durability {left} left (CO-ARMOR-1)")
                    if left <= 0:
                        self.say(f"{arm.name} is destroyed (CO-ARMOR-1)")
                        continue
                else:
                    self.say(f"{arm.name} stops {absorbed} (CO-ARMOR-1)")
            elif self.on("CO-ARMOR-2"):
                absorbed = min(arm.value, damage)
                damage -= absorbed
                wears = not arm.natural or self.rules.default("CO-ARMOR-2", "natural_has_uses")
                if wears:
                    uses = max(0, (arm.uses or 0) - 1)
                    arm = replace(arm, uses=uses, breaking=arm.breaking or uses == 0)
                    self.say(f"{arm.name} stops {absorbed}: uses {uses}/{arm.value} left"
                             + (", breaks at end of round" if arm.breaking else "")
                             + " (CO-ARMOR-2)")
                else:
                    self.say(f"{arm.name} stops {absorbed} (natural, CO-ARMOR-2)")
            kept.append(arm)
        self.set(t, sheet=replace(t.sheet, armour=tuple(kept)))
        return damage

    def hit(self, t: Combatant, damage: int, text: str, ignore_armour: bool = False,
            from_behind: bool = False, armour: bool = True) -> None:
        self.say(text)
        if armour and not ignore_armour:
            damage = self.armour(self.cs[t.name], damage)
        t = self.cs[t.name]
        shield_rule = "CO-GRAP-4" if self.on("CO-GRAP-4") else "CO-GRAP-6"
        if t.grappling and self.on(shield_rule) and damage > 0 and not (
                from_behind and shield_rule == "CO-GRAP-4"):
            held = self.cs[t.grappling]
            taken = min(damage, max(0, held.hp))
            if self.rules.default("CO-GRAP-4", "shield_as_armour"):
                self.say(f"{held.name}'s HP {held.hp} shields {t.name} ({shield_rule})")
                damage -= taken
            elif taken:
                self.say(f"{held.name} is a human shield and takes {taken} ({shield_rule})")
                self.harm(held, taken)
                damage -= taken
        self.harm(self.cs[t.name], damage)

    def harm(self, t: Combatant, damage: int) -> None:
        """HP loss, then the profile's dying rule: CO-DEATH-1 (003) or CO-BASE-8 (004)."""
        if damage <= 0 or t.dead:
            if not t.dead:
                self.say(f"{t.name} takes no damage (HP {t.hp})")
            return
        hp = t.hp - damage
        t = self.set(t, hp=hp)
        self.say(f"{t.name} takes {damage}: HP {hp}/{t.sheet.max_hp}")
        if self.on("CO-DEATH-1"):
            if hp < self.rules.default("CO-DEATH-1", "dead_below"):
                self.die(t, "HP below −2 (CO-DEATH-1)")
            elif hp <= 0 and not t.has(Condition.DYING, self.round):
                self.add(t, Condition.UNCONSCIOUS, Condition.DYING)
                self.say(f"{t.name} is unconscious and dying: CON×5 each round (CO-DEATH-1)")
        elif self.on("CO-BASE-8"):
            if hp <= 0 and not t.dying_until:
                self.add(t, Condition.UNCONSCIOUS, Condition.DYING)
                self.set(self.cs[t.name], dying_until=self.round + 1)
                self.say(f"{t.name} is dying: dies at end of round {self.round + 1} (CO-BASE-8)")
            elif 0 < hp <= self.rules.num("CO-BASE-8", "unconscious_max") and not t.unconscious:
                self.add(t, Condition.UNCONSCIOUS)
                self.say(f"{t.name} falls unconscious (CO-BASE-8)")
        self.release_if_out(self.cs[t.name])

    def add(self, t: Combatant, *conditions: Condition) -> None:
        t = self.cs[t.name]
        have = {c.condition for c in t.conditions}
        new = tuple(Timed(c, self.round, 0) for c in conditions if c not in have)
        self.set(t, conditions=(*t.conditions, *new))

    def drop(self, t: Combatant, *conditions: Condition) -> None:
        t = self.cs[t.name]
        self.set(t, conditions=tuple(c for c in t.conditions if c.condition not in conditions))

    def die(self, t: Combatant, why: str) -> None:
        t = self.set(self.cs[t.name], dead=True, dying_until=0)
        self.drop(t, Condition.DYING)
        self.say(f"{t.name} dies: {why}")
        self.release_if_out(self.cs[t.name])

    def release_if_out(self, t: Combatant) -> None:
        if t.out and t.grappling:
            self.set(self.cs[t.grappling], held_by="")
            self.set(self.cs[t.name], grappling="", grapple_options=False)
            self.say(f"{t.name} lets go of {t.grappling}")

    def stun(self, t: Combatant) -> None:
        """CO-STUN-1/2: one more stack, one AP less; at 0 AP unconscious."""
        full = self.rules.num("CO-TURN-3", "action_points")
        t = self.set(t, stun=t.stun + 1, ap=max(0, t.ap - 1))
        self.say(f"{t.name} is stunned ({t.stun}): no attacks, −1 AP (CO-STUN-1)")
        if t.stun >= full and self.on("CO-STUN-2"):
            self.add(t, Condition.UNCONSCIOUS)
            self.say(f"{t.name} has no AP left and falls unconscious (CO-STUN-2)")

    def burst(self, c: Combatant, t: Combatant, a: Attack, w: Weapon) -> None:
        """CO-FIRE-6 (003) / CO-FIRE-8 (004): one roll, then the number of hits."""
        info = w.info
        rule = "CO-FIRE-6" if self.on("CO-FIRE-6") else "CO-FIRE-8"
        if not self.on(rule) or info.kind is not WeaponKind.FIREARM or info.burst < 1:
            raise IllegalAction(f"{info.name} cannot fire a burst here")
        if w.loaded < 1:
            raise IllegalAction(f"{info.name} is empty")
        self.may_attack(c, w, 0 if not self.p003 else min(info.attacks, 1))
        if self.p003:
            need = self.rules.num("CO-FIRE-6", "burst_ap")
            c = self.spend(c, need, "CO-FIRE-6")
            fired = w.loaded
        else:
            fired = min(info.burst, w.loaded, self.rules.num("CO-FIRE-8", "max_rounds"))
        c = self.set(c, attacks=c.attacks + 1)
        c = self.put_weapon(c, a.weapon, replace(w, loaded=w.loaded - fired))
        self.say(f"{c.name} fires a burst of {fired} ({rule})")
        made = check(self.source, skill_value(self.rules, c.sheet, info.skill), self.r5,
                     f"{c.name} {info.name}")
        self.say(made.text)
        if not made.success:
            if made.grade is Grade.FUMBLE:
                self.fumble(c, a, w)
            return
        d20 = rule == "CO-FIRE-8" or self.rules.default("CO-FIRE-6", "hits_d20")
        sides = self.rules.num("CO-FIRE-8", "hits_die") if d20 else fired
        face = roll(f"1D{sides}", self.source).total
        hits = min(face, fired)
        self.say(f"1D{sides}={face} ＞ {hits} hit(s) ({rule})")
        if a.defence is Defence.DODGE:
            if not self.defence_allowed(t, Defence.DODGE, info.kind, a, True):
                raise IllegalAction(f"{t.name} cannot dodge now")
            modifier = -hits if rule == "CO-FIRE-6" else 0
            self.set(t, dodges=t.dodges + 1)
            dodged = self.check(t, "dodge", modifier)
            if rule == "CO-FIRE-6":
                self.lines[-1] += f" (Dodge − {hits} hits, CO-FIRE-6)"
                if dodged.success:
                    return
            elif dodged.success:
                hits -= 1
                self.lines[-1] += " (the first bullet only, CO-DODGE-7)"
        for n in range(hits):
            if self.cs[t.name].dead:
                break
            damage, text = self.damage(c, w, False, Grade.SUCCESS, False)
            self.hit(self.cs[t.name], damage, f"bullet {n + 1}: {text}",
                     from_behind=a.from_behind)

    def reload(self, c: Combatant, a: Reload) -> None:
        w = self.weapon(c, a.weapon)
        if w.info.kind is not WeaponKind.FIREARM:
            raise IllegalAction(f"{w.info.name} is not a firearm")
        if w.loaded == w.info.magazine:
            raise IllegalAction(f"{w.info.name} is full")
        if self.p003:
            c = self.spend(c, self.rules.num("CO-FIRE-1", "reload_ap"), "CO-FIRE-1")
            rule = "CO-FIRE-1"
        else:
            if c.attacks:
                raise IllegalAction("a reload takes the whole turn (CO-BASE-12)")
            c = self.set(c, attacks=1)
            rule = "CO-BASE-12"
        self.put_weapon(c, a.weapon, replace(w, loaded=w.info.magazine))
        self.say(f"{c.name} reloads {w.info.name}: {w.info.magazine} rounds ({rule})")

    def clear_jam(self, c: Combatant, a: ClearJam) -> None:
        w = self.weapon(c, a.weapon)
        if not w.jammed:
            raise IllegalAction(f"{w.info.name} is not jammed")
        c = self.spend(c, self.rules.default("CO-FIRE-4", "clear_ap"), "CO-FIRE-4")
        made = self.check(c, w.info.skill, label=f"{c.name} clear {w.info.name}")
        if made.success:
            self.put_weapon(c, a.weapon, replace(w, jammed=False))
            self.say(f"{w.info.name} is cleared (CO-FIRE-4)")

    def grapple(self, c: Combatant, a: Grapple) -> None:
        t = self.get(a.target)
        rule = "CO-GRAP-1" if self.on("CO-GRAP-1") else "CO-GRAP-6"
        if c.grappling or c.held_by or t.held_by or t.name == c.name or t.dead:
            raise IllegalAction("that grapple is not possible")
        if a.ma and not self.on("CO-MA-2"):
            raise IllegalAction("MA with Grapple is CO-MA-2, off in this profile")
        if self.on("CO-TURN-4") and c.other_skill:
            raise IllegalAction("no attack in a round with another skill (CO-TURN-4)")
        if self.on("CO-DODGE-4") and c.dodges:
            raise IllegalAction(f"{c.name} dodged this round and cannot attack (CO-DODGE-4)")
        if not self.p003 and c.attacks:
            raise IllegalAction("one attack action a turn (CO-BASE-5)")
        c = self.spend(c, 1, rule)
        c = self.set(c, attacks=c.attacks + 1)
        grapple = skill_value(self.rules, c.sheet, "grapple")
        options = False
        if a.ma:
            combo = combination(self.source, grapple, skill_value(self.rules, c.sheet,
                                                                  "martial_arts"),
                                self.r5, f"{c.name} 組み付き/Grapple+MA")
            self.say(f"{combo.text} (CO-MA-2, CO-BASE-3)")
            held, options = combo.rank is not Rank.FAILURE, combo.rank is Rank.SUCCESS
        else:
            held = self.check(c, "grapple").success
        if not held:
            return
        fake = Attack(c.name, t.name, defence=a.defence, parry_weapon=a.parry_weapon)
        if a.defence is not Defence.NONE:
            if not self.defence_allowed(t, a.defence, WeaponKind.UNARMED, fake, True):
                raise IllegalAction(f"{t.name} cannot {a.defence.value} now")
            if a.defence is Defence.DODGE:
                if self.dodge(t, WeaponKind.UNARMED, fake, True):
                    return
            else:
                pw = t.sheet.weapons[a.parry_weapon]
                self.set(t, parries=t.parries + 1)
                if self.check(t, pw.info.skill, label=f"{t.name} parry {pw.info.name}").success:
                    rule5 = "CO-GRAP-5" if self.on("CO-GRAP-5") else "CO-PARRY-1"
                    self.say(f"the grapple is parried ({rule5})")
                    return
        self.set(self.cs[c.name], grappling=t.name, grapple_round=self.round,
                 grapple_options=options)
        self.set(self.cs[t.name], held_by=c.name)
        if rule == "CO-GRAP-1":
            self.say(f"{c.name} holds {t.name}; they are one unit (CO-GRAP-1)"
                     + ("; choke or throw each round (CO-MA-2)" if options else ""))
        else:
            self.say(f"{c.name} restrains {t.name}: it cannot act, no damage (CO-GRAP-6)")

    def holding(self, c: Combatant) -> Combatant:
        if not c.grappling:
            raise IllegalAction(f"{c.name} holds nobody")
        if self.on("CO-MA-2"):
            if not c.grapple_options:
                raise IllegalAction("choke and throw need a successful MA grapple (CO-MA-2)")
        elif self.on("CO-GRAP-6"):
            if c.grapple_round >= self.round:
                raise IllegalAction("choke or throw from the next round (CO-GRAP-6)")
        else:
            raise IllegalAction("no choke or throw in this profile")
        return self.cs[c.grappling]

    def choke(self, c: Combatant, a: Choke) -> None:
        held = self.holding(c)
        if self.p003:
            self.spend(c, 1, "CO-MA-2")
            dice, rule = self.rules.num("CO-MA-2", "choke"), "CO-MA-2"
        else:
            if c.attacks:
                raise IllegalAction("one choke a round (CO-GRAP-7)")
            self.set(c, attacks=1)
            if not self.check(c, "grapple").success:
                return
            dice, rule = self.rules.num("CO-GRAP-7", "choke"), "CO-GRAP-7"
        db = c.sheet.db
        total, text = self.roll_total(dice if db == "0" else f"{dice}{db}")
        self.hit(held, max(0, total), f"choke: {text} ({rule})")

    def throw(self, c: Combatant, a: Throw) -> None:
        held = self.holding(c)
        other = self.get(a.at) if a.at else None
        if other is not None and other.name in (c.name, held.name):
            raise IllegalAction("throw the held one at somebody else")
        if self.p003:
            self.spend(c, 1, "CO-MA-2")
            dice = self.rules.num("CO-MA-2", "throw")
            db = half_db(c.sheet.db)
            rule = "CO-MA-2"
        else:
            if c.attacks:
                raise IllegalAction("one throw a round (CO-GRAP-8)")
            self.set(c, attacks=1)
            if not self.check(c, "grapple").success:
                return
            dice, db, rule = self.rules.num("CO-GRAP-8", "throw"), c.sheet.db, "CO-GRAP-8"
        self.set(self.cs[c.name], grappling="", grapple_options=False)
        self.set(self.cs[held.name], held_by="")
        total, text = self.roll_total(dice if db == "0" else f"{dice}{db}")
        self.hit(held, max(0, total), f"throw: {text} ({rule}); the grapple ends")
        if rule == "CO-GRAP-8":
            self.stun_throw(self.cs[held.name])
        if other is None:
            return
        if rule == "CO-MA-2":
            if a.at_dodges and self.check(other, "dodge").success:
                return
            hurt, text = self.roll_total(self.rules.num("CO-MA-2", "landing"))
            self.hit(other, hurt, f"{other.name} is landed on: {text} (CO-MA-2)")
        else:
            hurt, text = self.roll_total(self.rules.num("CO-GRAP-8", "thrown_into"))
            self.hit(other, hurt, f"{other.name} is hit by the thrown body: {text} (CO-GRAP-8)")
            self.stun_throw(self.cs[other.name])

    def stun_throw(self, t: Combatant) -> None:
        """CO-STUN-3: CON×4; failure unconscious for the fight, success no action next round."""
        if t.out or not self.on("CO-STUN-3"):
            return
        made = check(self.source, t.sheet.stat("CON") * self.rules.num("CO-STUN-3",
                                                                        "con_multiplier"),
                     self.r5, f"{t.name} CON×4")
        self.say(f"{made.text} (CO-STUN-3)")
        if made.success:
            cond = Timed(Condition.NO_ACTION, self.round + 1, self.round + 1)
            self.set(t, conditions=(*t.conditions, cond))
            self.say(f"{t.name} cannot act next round (CO-STUN-3)")
        else:
            self.add(t, Condition.UNCONSCIOUS)
            self.say(f"{t.name} is knocked out for the rest of the fight (CO-STUN-3)")

    def break_free(self, c: Combatant, a: BreakFree) -> None:
        if not c.held_by:
            raise IllegalAction(f"{c.name} is not held")
        holder = self.cs[c.held_by]
        rule = "CO-GRAP-2" if self.on("CO-GRAP-2") else "CO-GRAP-6"
        if self.p003:
            self.spend(c, 1, rule)
        elif c.attacks:
            raise IllegalAction("one try a round (CO-GRAP-6)")
        self.set(self.cs[c.name], attacks=1 if not self.p003 else c.attacks)
        made = resist(self.source, c.sheet.stat("STR"), holder.sheet.stat("STR"), self.r5,
                      f"{c.name} STR {c.sheet.stat('STR')} vs {holder.sheet.stat('STR')}",
                      self.rules)
        self.say(f"{made.text} (CO-CORE-3, {rule})")
        if made.success:
            self.set(self.cs[c.name], held_by="")
            self.set(holder, grappling="", grapple_options=False)
            self.say(f"{c.name} breaks free ({rule})")

    def treat(self, c: Combatant, a: Treat) -> None:
        t = self.get(a.target)
        if a.skill not in ("first_aid", "medicine"):
            raise IllegalAction("treat with first_aid or medicine")
        if t.dead:
            raise IllegalAction(f"{t.name} is dead")
        if self.p003:
            rule = "CO-SKILL-2" if a.skill == "first_aid" else "CO-SKILL-3"
            if not self.on(rule):
                raise IllegalAction(f"{rule} is off")
            if self.on("CO-TURN-4") and c.attacks:
                raise IllegalAction("no other skill in a round with an attack (CO-TURN-4)")
            if a.skill == "medicine" and t.name == c.name:
                raise IllegalAction("Medicine cannot treat oneself (CO-SKILL-3)")
            if c.other_skill and not c.treat_failed:
                raise IllegalAction("First Aid again only after a failure (CO-SKILL-1/2)")
            ap = 1 if a.skill == "first_aid" else self.rules.num("CO-SKILL-3", "ap")
            c = self.spend(c, ap, rule)
            heal = self.rules.num(rule, "heal")
        else:
            rule = "CO-BASE-8"
            if c.attacks:
                raise IllegalAction("one action a turn (CO-BASE-5)")
            heal = self.rules.num("CO-BASE-8", "heal")
        c = self.set(c, other_skill=True, attacks=c.attacks if self.p003 else 1)
        made = self.check(c, a.skill)
        self.set(self.cs[c.name], treat_failed=not made.success)
        if not made.success:
            return
        t = self.cs[t.name]
        amount, text = self.roll_total(heal)
        hp = min(t.sheet.max_hp, t.hp + amount)
        t = self.set(t, hp=hp)
        self.say(f"{t.name} heals {text}: HP {hp}/{t.sheet.max_hp} ({rule})")
        dying = t.has(Condition.DYING, self.round) or t.dying_until
        if self.on("CO-DEATH-2") and dying:
            if hp >= 1:
                self.drop(t, Condition.DYING, Condition.UNCONSCIOUS)
                self.say(f"{t.name} is saved (CO-DEATH-2)")
            elif not self.rules.default("CO-DEATH-2", "lenient"):
                self.die(t, "the treatment left HP below 1 (CO-DEATH-2)")
            return
        if self.p003:
            if t.unconscious:
                self.drop(t, Condition.UNCONSCIOUS)
                self.say(f"{t.name} wakes up ({rule})")
            return
        if hp >= 1 and t.dying_until:
            self.set(t, dying_until=0)
            self.drop(t, Condition.DYING)
            self.say(f"{t.name} is no longer dying (CO-BASE-8)")
        if self.cs[t.name].unconscious and hp >= self.rules.default("CO-BASE-8", "wake_hp"):
            self.drop(t, Condition.UNCONSCIOUS)
            self.say(f"{t.name} wakes up (CO-BASE-8)")
