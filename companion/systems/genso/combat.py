"""The `genso` fight tracker (spec §2.5, §2.6, §2.9): a pure state machine with push/pop.

A :class:`Fight` holds immutable :class:`FightState` snapshots, one per action, and a
journal of every action with the dice it used, so a fight can be undone a step
(:meth:`Fight.pop`), saved as plain data and replayed from its inputs
(:meth:`Fight.from_json`) with identical results.

The PC party acts first, then the other side, each in entry order (GM-COMBAT-1
Default); each combatant's action is one of :data:`ACTIONS`, and a combat move (戦闘移動)
may come before it (GM-COMBAT-1 Default, GM-MOVE-1 「戦闘行為は全て可能」). The GM's own
steps (sunrise, sunset, the end of the fight, a night's sleep) need no turn.

A fight keeps the settings (Defaults) it began with and replays under them; a setting
changed for a later action is recorded in that action's journal entry and holds from
there on. Entries saved before a rule fix carry the engine revision that played them
(:data:`ENGINE`), so an old fight replays exactly as it was played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from enum import Enum
from typing import Any, ClassVar

from companion.dice import DiceSource, Result, ScriptedDice, roll
from companion.dice.result import DieRoll
from companion.dice.sources import ScriptExhausted
from companion.errors import DataError, DeviceError, IllegalAction
from companion.systems.genso.character import Character, Kind, death_below, derive
from companion.systems.genso.rules import CreatureKind, Duration, GensoRules, Monster, Spell
from companion.systems.genso.sheet import character_from_mapping, sheet_mapping

#: The engine revision that plays new actions. Revision 1 (fights saved before it) ended the
#: turn on a combat move, cast a spell named without a target on its caster, let one
#: target be named twice and used a Healing Stone up on the dead; its entries replay so.
ENGINE = 2
#: The fight file's layout: 2 keeps the settings and each entry's engine revision.
FILE_VERSION = 2


class Side(Enum):
    """PC party (acts first) or the other side (GM-COMBAT-1)."""

    PARTY = "party"
    ENEMY = "enemy"


class Role(Enum):
    """Who a combatant is, which picks the attack formula (GM-COMBAT-2/3/4) and GM-COMBAT-8."""

    PC = "pc"
    NPC = "npc"
    NPC_AS_MONSTER = "npc_as_monster"  # 魔物扱いのＮＰＣ
    MONSTER = "monster"

    @property
    def monster_like(self) -> bool:
        return self in (Role.MONSTER, Role.NPC_AS_MONSTER)


class Status(Enum):
    """GM-COMBAT-8 states, and fled (GM-COMBAT-1)."""

    ACTIVE = "active"
    INCAPACITATED = "incapacitated"  # 行動不能
    DEAD = "dead"  # 死亡 / 死亡扱い
    VANISHED = "vanished"  # 消滅
    FLED = "fled"  # 逃亡

    @property
    def badge(self) -> str:
        return {
            Status.ACTIVE: "", Status.INCAPACITATED: "INCAPACITATED 行動不能",
            Status.DEAD: "DEAD 死亡", Status.VANISHED: "VANISHED 消滅", Status.FLED: "FLED 逃亡",
        }[self]


class Stance(Enum):
    """What a combatant's last action left it doing until its next one."""

    NONE = "none"
    FULL_ATTACK = "full_attack"  # 全力攻撃: no dodging (GM-COMBAT-5)
    FULL_DODGE = "full_dodge"  # 全力回避: +6 to defence (GM-COMBAT-6)
    NORMAL_MOVE = "normal_move"  # 通常移動: can dodge, not attack (GM-MOVE-1)
    FULL_MOVE = "full_move"  # 全力移動: cannot dodge (GM-MOVE-1)


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon a combatant strikes with; ``enchanted`` is Exorcism until sunrise."""

    key: str
    name: str
    power: str
    magic: bool = False


@dataclass(frozen=True, slots=True)
class Effect:
    """A spell placed on a combatant (GM-MAGIC-4 cancels the oldest eligible first)."""

    spell: str
    caster: str
    caster_magic: int
    duration: Duration
    order: int
    weapon: str = ""
    members: tuple[str, ...] = ()


@dataclass(frozen=True)
class Combatant:
    """One PC, NPC or monster in a fight, with everything the rules read of it."""

    name: str
    side: Side
    role: Role
    body: int | None
    perception: int
    magic: int
    hp: int | None
    max_hp: int | None
    mp: int
    max_mp: int
    combat: int = 0
    defence_extra: int = 0
    protection: int = 0
    striking: int = 0
    weapons: tuple[Weapon, ...] = ()
    spells: tuple[str, ...] = ()
    mana_stones: tuple[int, ...] = ()
    storage_mp: int = 0
    stones: tuple[str, ...] = ()
    creature: CreatureKind = CreatureKind.LIVING
    checks_with_magic: bool = False
    immune_normal: bool = False
    magic_weapons_harm: bool = False
    raises_victims: bool = False
    drain_hp: int = 0
    drain_mp: int = 0
    attack_name: str = ""
    status: Status = Status.ACTIVE
    stance: Stance = Stance.NONE
    effects: tuple[Effect, ...] = ()
    rises_as: str = ""

    @property
    def incorporeal(self) -> bool:
        return self.max_hp is None

    def has(self, spell: str) -> bool:
        return any(e.spell == spell and not e.weapon for e in self.effects)

    def enchanted(self, weapon: str) -> bool:
        return any(e.spell == "exorcism" and e.weapon == weapon for e in self.effects)


def from_character(rules: GensoRules, character: Character, side: Side = Side.PARTY,
                   as_monster: bool = False, name: str | None = None) -> Combatant:
    """A PC or NPC entering a fight, with its derived values (GM-CORE-3/4, GM-EQUIP, GM-ITEM)."""
    derived = derive(rules, character)
    role = (Role.PC if character.kind is Kind.PC
            else Role.NPC_AS_MONSTER if as_monster else Role.NPC)
    stones = tuple(k for k in character.equipment if k in ("healing_stone", "enchant_stone"))
    # GM-ITEM-3: a Ring of Storage's MP is there to spend only while it is worn and working.
    worn = "ring_storage" in (*character.rings_left, *character.rings_right)
    storage = character.storage_mp if worn and derived.rings_work else 0
    return Combatant(
        name or character.name, side, role, character.body, character.perception,
        character.magic, character.hp, derived.max_hp.total, character.mp,
        derived.max_mp.total, combat=derived.attack.total - character.body,
        defence_extra=derived.defence.total - derived.attack.total,
        protection=derived.protection.total, striking=derived.striking,
        weapons=tuple(Weapon(w.key, w.name, w.power, w.magic) for w in derived.weapons),
        spells=character.spells, mana_stones=character.mana_stones, storage_mp=storage,
        stones=stones,
    )


def from_monster(rules: GensoRules, monster: Monster, name: str | None = None,
                 side: Side = Side.ENEMY) -> Combatant:
    """A monster of GM-MON-7 entering a fight."""
    weapon = (Weapon("attack", f"{monster.attack_ja}/{monster.attack_en}", monster.power),)
    return Combatant(
        name or monster.ja, side, Role.MONSTER, monster.body, monster.perception, monster.magic,
        monster.hp, monster.hp, monster.mp, monster.mp, protection=monster.protection,
        weapons=weapon if monster.power else (), creature=monster.kind,
        checks_with_magic=monster.checks_with_magic, immune_normal=monster.immune_normal,
        magic_weapons_harm=monster.magic_weapons_harm, raises_victims=monster.raises_victims,
        drain_hp=monster.drain_hp, drain_mp=monster.drain_mp,
        attack_name=f"{monster.attack_ja}/{monster.attack_en}",
    )


# --- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Attack:
    """An attack with a weapon (index into the attacker's weapons; monsters have one).

    ``full``: 全力攻撃 (GM-COMBAT-5), +4 to hit and no dodging until the next action.
    """

    kind: ClassVar[str] = "attack"
    actor: str
    target: str
    weapon: int = 0
    full: bool = False


@dataclass(frozen=True)
class Dodge:
    """全力回避 (GM-COMBAT-6): no attack, +6 to defence until the next action."""

    kind: ClassVar[str] = "dodge"
    actor: str


@dataclass(frozen=True)
class Move:
    """GM-MOVE-1: ``combat`` 3 m, ``normal`` 12 m (then only dodging), ``full`` 48 m."""

    kind: ClassVar[str] = "move"
    actor: str
    mode: str = "normal"


@dataclass(frozen=True)
class Cast:
    """GM-MAGIC-1: cast a known spell on targets; ``weapon`` enchants a target's weapon with
    Exorcism; ``stone`` pays from the mana stone of that index first (GM-ITEM-1); ``ring``
    pays from the MP stored in a worn Ring of Storage before that (GM-ITEM-3 Default)."""

    kind: ClassVar[str] = "cast"
    actor: str
    spell: str
    targets: tuple[str, ...] = ()
    weapon: int | None = None
    stone: int | None = None
    ring: bool = False


@dataclass(frozen=True)
class UseStone:
    """GM-ITEM-2: use a Healing Stone (2D HP) or an Enchant Stone (2D to an immune monster)."""

    kind: ClassVar[str] = "stone"
    actor: str
    stone: str
    target: str


@dataclass(frozen=True)
class Flee:
    """The combatant runs away (GM-COMBAT-1: the GM rules that the flight succeeds)."""

    kind: ClassVar[str] = "flee"
    actor: str


@dataclass(frozen=True)
class Wait:
    """The combatant does nothing this turn."""

    kind: ClassVar[str] = "wait"
    actor: str


@dataclass(frozen=True)
class EndFight:
    """GM-COMBAT-1: the GM declares the end of the fight."""

    kind: ClassVar[str] = "end"


@dataclass(frozen=True)
class Sunrise:
    """GM-CORE-2: the next sunrise ends every 1-day spell and Exorcism on weapons."""

    kind: ClassVar[str] = "sunrise"


@dataclass(frozen=True)
class Sunset:
    """GM-MON-5: at sunset those a Wight or Wraith killed rise as one, unless exorcised."""

    kind: ClassVar[str] = "sunset"


@dataclass(frozen=True)
class Sleep:
    """GM-HEAL-2: 8 hours' sleep restores the MP of every living combatant not dead."""

    kind: ClassVar[str] = "sleep"


Action = Attack | Dodge | Move | Cast | UseStone | Flee | Wait | EndFight | Sunrise | Sunset | Sleep
ACTIONS: dict[str, type[Action]] = {cls.kind: cls for cls in (
    Attack, Dodge, Move, Cast, UseStone, Flee, Wait, EndFight, Sunrise, Sunset, Sleep)}
GM_ACTIONS = (EndFight, Sunrise, Sunset, Sleep)


def action_to_json(action: Action) -> dict[str, Any]:
    data = asdict(action)
    if isinstance(action, Cast):
        data["targets"] = list(action.targets)
    return {"kind": action.kind, **data}


def action_from_json(data: Mapping[str, Any]) -> Action:
    """An action from its journal form; a bad one is a DataError naming it."""
    if not isinstance(data, Mapping) or data.get("kind") not in ACTIONS:
        raise DataError(f"not a fight action: {data!r} (kinds: {', '.join(ACTIONS)})")
    cls = ACTIONS[data["kind"]]
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"kind"}
    if extra:
        raise DataError(f"fight action {data['kind']}: unknown field {sorted(extra)[0]!r}")
    args = {k: v for k, v in data.items() if k != "kind"}
    if "targets" in args:
        args["targets"] = tuple(args["targets"])
    try:
        return cls(**args)
    except TypeError as exc:
        raise DataError(f"fight action {data['kind']}: {exc}") from exc


#: Movement modes and magic stones as the player reads them (GM-MOVE-1, GM-ITEM-2).
MOVES = {"combat": "戦闘移動 combat 3 m", "normal": "通常移動 normal 12 m",
         "full": "全力移動 full 48 m"}
STONES = {"healing_stone": "治癒石 Healing Stone", "enchant_stone": "付与石 Enchant Stone"}


def action_text(action: Action) -> str:
    """An action in a line, for the log, an undo and an error: ``X → オーク 攻撃 attack``."""
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


# --- state and journal -------------------------------------------------------------------------


class Outcome(Enum):
    """How a fight ended (GM-COMBAT-1)."""

    PARTY_WON = "party_won"  # every enemy down, fled or vanished
    PARTY_DOWN = "party_down"  # no PC-side combatant can act
    DECLARED = "declared"  # the GM declared the end

    @property
    def text(self) -> str:
        """The outcome as the log and the screen say it."""
        return _OUTCOME_TEXT[self]


_OUTCOME_TEXT = {Outcome.PARTY_WON: "勝利 the party won",
                 Outcome.PARTY_DOWN: "全滅 the party is down",
                 Outcome.DECLARED: "終了 the GM ended the fight"}


@dataclass(frozen=True)
class FightState:
    """One snapshot: combatants, round, whose turn, and whether the GM ended the fight.

    ``moved`` is the move (``combat``) the combatant whose turn it is has made before its
    action (GM-COMBAT-1 Default: one movement mode and one action a round).
    """

    combatants: tuple[Combatant, ...]
    round: int = 1
    turn: int = 0
    spells_cast: int = 0
    ended: bool = False
    moved: str = ""

    def get(self, name: str) -> Combatant:
        for combatant in self.combatants:
            if combatant.name == name:
                return combatant
        raise IllegalAction(f"no combatant {name!r} in this fight "
                            f"({', '.join(c.name for c in self.combatants)})")

    @property
    def order(self) -> tuple[Combatant, ...]:
        """GM-COMBAT-1: the PC party first, then the other side, each in entry order."""
        return (tuple(c for c in self.combatants if c.side is Side.PARTY)
                + tuple(c for c in self.combatants if c.side is Side.ENEMY))

    @property
    def current(self) -> Combatant | None:
        """Whose turn it is, or None once the fight is over."""
        if self.outcome is not None:
            return None
        return self.order[self.turn]

    @property
    def outcome(self) -> Outcome | None:
        if self.ended:
            return Outcome.DECLARED
        if not any(c.status is Status.ACTIVE for c in self.combatants if c.side is Side.ENEMY):
            return Outcome.PARTY_WON
        if not any(c.status is Status.ACTIVE for c in self.combatants if c.side is Side.PARTY):
            return Outcome.PARTY_DOWN
        return None


@dataclass(frozen=True)
class Line:
    """One line of an action's report, with the rule it follows."""

    rule: str
    text: str
    result: Result | None = None

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "text": self.text,
                "result": self.result.to_json() if self.result else None}


@dataclass(frozen=True)
class Entry:
    """A journal entry: the action, the dice it used and what it did.

    ``settings`` are the Defaults changed from this action on (rule, key, value), and
    ``engine`` the engine revision that played it (:data:`ENGINE`).
    """

    action: Action
    dice: tuple[DieRoll, ...]
    lines: tuple[Line, ...]
    settings: tuple[tuple[str, str, Any], ...] = ()
    engine: int = ENGINE

    @property
    def text(self) -> str:
        return "\n".join(f"{line.rule:<12} {line.text}" for line in self.lines)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": action_to_json(self.action),
                                "dice": [[d.sides, d.value] for d in self.dice],
                                "lines": [line.to_json() for line in self.lines]}
        if self.settings:
            changed: dict[str, dict[str, Any]] = {}
            for rule, key, value in self.settings:
                changed.setdefault(rule, {})[key] = value
            data["settings"] = changed
        if self.engine != ENGINE:
            data["engine"] = self.engine
        return data


class _Recorder:
    """A DiceSource that passes dice (and what each roll is for) through and keeps them for
    the journal."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.dice: list[DieRoll] = []

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        values = list(self.source.roll(count, sides, purpose=purpose))
        self.dice.extend(DieRoll(sides, v) for v in values)
        return values


@dataclass(frozen=True)
class Entrant:
    """How a combatant joined: a character sheet or a monster key, side and name.

    ``origin`` is the sheet file it was read from ("" for a preset) and ``digest`` the
    SHA-256 of that file's text then, so the sheet can be written back after the fight
    only if nobody changed it meanwhile.
    """

    name: str
    side: Side
    monster: str = ""
    sheet: Mapping[str, Any] = field(default_factory=dict)
    as_monster: bool = False
    origin: str = ""
    digest: str = ""

    def build(self, rules: GensoRules) -> Combatant:
        if self.monster:
            return from_monster(rules, rules.monster(self.monster), self.name, self.side)
        character = character_from_mapping(rules, self.sheet, f"fight entrant {self.name}")
        return from_character(rules, character, self.side, self.as_monster, self.name)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "side": self.side.value}
        if self.monster:
            data["monster"] = self.monster
        else:
            data["sheet"] = dict(self.sheet)
            data["as_monster"] = self.as_monster
            if self.origin:
                data["origin"] = self.origin
                data["digest"] = self.digest
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entrant:
        try:
            return cls(data["name"], Side(data["side"]), data.get("monster", ""),
                       data.get("sheet", {}), data.get("as_monster", False),
                       str(data.get("origin", "")), str(data.get("digest", "")))
        except (KeyError, ValueError, TypeError) as exc:
            raise DataError(f"fight entrant {data!r}: needs name, side and a monster or "
                            "sheet") from exc

    @classmethod
    def of_character(cls, character: Character, side: Side = Side.PARTY,
                     as_monster: bool = False, name: str | None = None, origin: str = "",
                     digest: str = "") -> Entrant:
        return cls(name or character.name, side, sheet=sheet_mapping(character),
                   as_monster=as_monster, origin=origin, digest=digest)


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

    def changes(self, settings: Mapping[str, Mapping[str, Any]],
                origin: str = "--set") -> list[tuple[str, str, Any, Any]]:
        """The settings of ``settings`` that differ from the fight's now: (rule, key, new,
        old); a setting that is no Default, or of the wrong kind, is refused."""
        wanted = self.rules.with_overrides(settings, origin)
        return [(rule, key, wanted.default(rule, key), self.rules.default(rule, key))
                for rule, keys in settings.items() for key in keys
                if wanted.default(rule, key) != self.rules.default(rule, key)]

    def push(self, action: Action, source: DiceSource,
             settings: Mapping[str, Mapping[str, Any]] | None = None, origin: str = "--set",
             engine: int = ENGINE) -> Entry:
        """Apply ``action`` with dice from ``source``; an illegal one changes nothing.

        ``settings`` (``{rule: {key: value}}``) changes Defaults from this action on; the
        entry records those that differ. ``engine`` is the revision to play it by (only a
        replay of an old entry asks for an older one).
        """
        rules = self.rules
        changed = self.changes(settings, origin) if settings else []
        lines: list[Line] = []
        if changed:
            rules = self.rules.with_overrides(settings or {}, origin)
            lines = [Line(rule, f"設定/setting {rule}.{key} = {setting_text(new)} from this action "
                                f"on (was {setting_text(old)})") for rule, key, new, old in changed]
        start = self.state
        if changed:  # GM-COMBAT-8: who is down is judged again under the new setting
            start = _settle(rules, start)
            lines += [Line("GM-COMBAT-8", f"{c.name} is {c.status.value} under the new setting")
                      for c, was in zip(start.combatants, self.state.combatants, strict=True)
                      if c.status is not was.status]
        recorder = _Recorder(source)
        state, said = _apply(rules, start, action, recorder, legacy=engine < ENGINE)
        entry = Entry(action, tuple(recorder.dice), tuple(lines + said),
                      tuple((rule, key, new) for rule, key, new, _ in changed), engine)
        self._states.append(state)
        self._rules.append(rules)
        self.journal.append(entry)
        return entry

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
                  origin: str = "saved fight") -> Fight:
        """Replay a saved fight from its entrants and actions with the dice it recorded,
        under the settings it was played with (a fight file from before they were kept
        takes those of ``rules``); ``origin`` names the file in any error."""
        if not isinstance(data, Mapping) or data.get("system") != "genso":
            raise DataError(f"{origin}: not a saved genso fight")
        version = data.get("version", 1)
        if isinstance(version, bool) or not isinstance(version, int) \
                or not 1 <= version <= FILE_VERSION:
            raise DataError(f"{origin}: fight file version {version!r} is not one this "
                            f"companion reads (1 to {FILE_VERSION})")
        stored = data.get("settings")
        if stored is not None:
            rules = rules.with_overrides(stored, f"{origin}: settings")
        entrants, journal = data.get("entrants", []), data.get("journal", [])
        if not isinstance(entrants, list) or not all(isinstance(e, Mapping) for e in entrants):
            raise DataError(f"{origin}: entrants must be a list of tables")
        if not isinstance(journal, list) or not all(isinstance(e, Mapping) for e in journal):
            raise DataError(f"{origin}: journal must be a list of entries")
        fight = cls(rules, [Entrant.from_json(e) for e in entrants])
        # Entries of a version 1 file were all played by engine revision 1.
        engine = ENGINE if version >= 2 else 1
        for number, raw in enumerate(journal, 1):
            where = f"{origin}: journal entry {number}"
            said = ""
            try:
                action = action_from_json(raw["action"])
                said = f" ({action_text(action)})"
                dice = ScriptedDice((int(s), int(v)) for s, v in raw["dice"])
                fight.push(action, dice, raw.get("settings"), f"{where} settings",
                           int(raw.get("engine", engine)))
            except (ScriptExhausted, DeviceError) as exc:  # too few dice, or off their faces
                raise DataError(f"{where}{said} is damaged: its recorded dice do not match "
                                f"the roll ({exc})") from exc
            except (KeyError, TypeError, ValueError) as exc:
                raise DataError(f"{where}{said} is damaged and does not replay ({exc})") from exc
            if dice.remaining:
                raise DataError(f"{where}{said} left dice unused")
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
        character = character_from_mapping(self.rules, entrant.sheet,
                                           f"fight entrant {entrant.name}")
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


# --- the rules ---------------------------------------------------------------------------------


def setting_text(value: Any) -> str:
    """A setting's value as it is typed after ``--set RULE.key=``: ``true``, ``gm``, ``5``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _swap(state: FightState, *changed: Combatant) -> FightState:
    by_name = {c.name: c for c in changed}
    return replace(state, combatants=tuple(by_name.get(c.name, c) for c in state.combatants))


def _status(rules: GensoRules, c: Combatant) -> Status:
    """GM-COMBAT-8 (PG 4-6 and the glossary, Default for PCs)."""
    if c.status in (Status.DEAD, Status.VANISHED, Status.FLED):
        return c.status
    hp = c.hp if c.hp is not None else 1
    if c.role is Role.MONSTER and c.incorporeal:
        return Status.VANISHED if c.mp < 1 else Status.ACTIVE
    if hp < death_below(rules, c.role is Role.PC):
        return Status.DEAD
    if hp < 1 or c.mp < 1:
        return Status.INCAPACITATED
    return Status.ACTIVE


def _settle(rules: GensoRules, state: FightState) -> FightState:
    return replace(state, combatants=tuple(replace(c, status=_status(rules, c))
                                           for c in state.combatants))


def _death_word(c: Combatant) -> str:
    if c.status is Status.DEAD and c.creature is not CreatureKind.LIVING:
        return "DEAD 死亡扱い (treated as dead)"
    return c.status.badge


def _harm(rules: GensoRules, target: Combatant, hp: int, mp: int = 0) -> Combatant:
    """Take HP and MP; damage to an incorporeal monster comes off its MP (GM-MON-4)."""
    if target.incorporeal:
        return replace(target, mp=target.mp - hp - mp)
    assert target.hp is not None
    return replace(target, hp=target.hp - hp, mp=target.mp - mp)


def _heal(target: Combatant, amount: int, cap: bool) -> Combatant:
    if target.hp is None or target.max_hp is None:
        raise IllegalAction(f"{target.name} has no HP to heal")
    hp = target.hp + amount
    return replace(target, hp=min(hp, target.max_hp) if cap else hp)


def _check_ability(rules: GensoRules, c: Combatant) -> tuple[str, int]:
    """GM-MON-3: the Ghost (and by Default any blank-Body monster) checks with Magic."""
    if c.checks_with_magic or (c.body is None
                               and rules.default("GM-MON-3", "blank_body_uses_magic")):
        return "魔力/Magic", c.magic
    if c.body is None:
        raise IllegalAction(f"{c.name} has no Body (GM-MON-3 Default is off)")
    return "体力/Body", c.body


def _cannot_dodge(rules: GensoRules, c: Combatant) -> str:
    if c.status is Status.INCAPACITATED:
        return "行動不能/incapacitated"
    if c.stance is Stance.FULL_ATTACK and rules.default("GM-COMBAT-5",
                                                         "full_attack_hits_automatically"):
        return "全力攻撃中/full attack"
    if c.stance is Stance.FULL_MOVE and rules.default("GM-MOVE-1",
                                                       "full_move_hits_automatically"):
        return "全力移動後/after a full move"
    return ""


def _in_barrier(state: FightState, attacker: Combatant, target: Combatant) -> Combatant | None:
    """GM-MAGIC-5: undead with lower Magic than the caster cannot enter the barrier."""
    if attacker.creature is not CreatureKind.UNDEAD:
        return None
    for caster in state.combatants:
        for effect in caster.effects:
            if (effect.spell == "barrier" and target.name in effect.members
                    and attacker.magic < effect.caster_magic):
                return caster
    return None


def _hit(rules: GensoRules, attacker: Combatant, target: Combatant, full: bool,
         source: DiceSource, lines: list[Line]) -> bool:
    """GM-COMBAT-2/3/4/5/6: does the attack hit?"""
    full_bonus = rules.num("GM-COMBAT-5", "full_attack") if full else 0
    dodge = (rules.num("GM-COMBAT-6", "full_dodge")
             if target.stance is Stance.FULL_DODGE else 0)
    a_label, a_value = _check_ability(rules, attacker)
    d_label, d_value = _check_ability(rules, target)
    attack_mod = a_value + attacker.combat + full_bonus
    defence_mod = d_value + target.combat + target.defence_extra + dodge
    why = _cannot_dodge(rules, target)
    if why:
        lines.append(Line("GM-COMBAT-5", f"{target.name} cannot dodge ({why}): "
                                         "the attack hits / 自動命中"))
        return True
    terms = (f"{a_label} {a_value} + 戦闘/Combat {attacker.combat}"
             + (f" + 全力攻撃/full attack {full_bonus}" if full_bonus else ""))
    fixed = rules.num("GM-COMBAT-2", "fixed")
    if target.role.monster_like:
        target_text = f"{defence_mod - dodge}+{fixed}" + (f"+{dodge}" if dodge else "")
        result = roll(f"2D6+{attack_mod}>{target_text}", source, purpose="to hit 命中")
        lines.append(Line("GM-COMBAT-2", f"{attacker.name} → {target.name}: {terms} vs "
                                         f"{d_label} {d_value} + 7"
                          + (f" + 全力回避/full dodge {dodge}" if dodge else "")
                          + f": {result.text}", result))
        return result.success
    if attacker.role.monster_like and not rules.default("GM-COMBAT-3", "literal_4_2"):
        fixed_side = f"{attack_mod}+{fixed}"
        result = roll(f"2D6+{defence_mod}>={fixed_side}", source,
                      purpose=f"{target.name}'s defence 防御")
        verdict = "防御成功/defended" if result.success else "防御失敗/hit"
        lines.append(Line("GM-COMBAT-3", f"{target.name} defends against {attacker.name} "
                                         f"({terms} + 7): {result.text} ＞ {verdict}", result))
        return not result.success
    rule = "GM-COMBAT-4" if not attacker.role.monster_like else "GM-COMBAT-3"
    attack = roll(f"2D6+{attack_mod}", source, purpose=f"{attacker.name}'s attack roll 命中")
    defence = roll(f"2D6+{defence_mod}", source, purpose=f"{target.name}'s defence roll 防御")
    hit = attack.total > defence.total
    lines.append(Line(rule, f"{attacker.name} attacks: {attack.text}", attack))
    lines.append(Line(rule, f"{target.name} defends: {defence.text} ＞ "
                            + ("命中/hit" if hit else "防御成功/defended"), defence))
    return hit


def _undead_ward(rules: GensoRules, attacker: Combatant, target: Combatant) -> str:
    """GM-MAGIC-7 on the target against an undead attacker: "pg" (−2) or "gm" (+2 armour)."""
    if attacker.creature is CreatureKind.UNDEAD and target.has("protection"):
        return str(rules.default("GM-MAGIC-7", "version"))
    return ""


def _attack(rules: GensoRules, state: FightState, action: Attack, source: DiceSource,
            lines: list[Line]) -> FightState:
    attacker, target = state.get(action.actor), state.get(action.target)
    if target.status in (Status.DEAD, Status.VANISHED, Status.FLED):
        raise IllegalAction(f"{target.name} is {target.status.value} and cannot be attacked")
    if attacker.name == target.name:
        raise IllegalAction("a combatant cannot attack itself")
    caster = _in_barrier(state, attacker, target)
    if caster is not None:
        raise IllegalAction(f"GM-MAGIC-5: {attacker.name} (Magic {attacker.magic}) cannot "
                            f"enter {caster.name}'s barrier (Magic {caster.magic})")
    drains = attacker.drain_hp or attacker.drain_mp
    if not drains and not 0 <= action.weapon < len(attacker.weapons):
        raise IllegalAction(f"{attacker.name} has no weapon {action.weapon}")
    stance = Stance.FULL_ATTACK if action.full else Stance.NONE
    state = _swap(state, replace(attacker, stance=stance))
    attacker = state.get(attacker.name)
    if not _hit(rules, attacker, target, action.full, source, lines):
        return state
    ward = _undead_ward(rules, attacker, target)
    reduce = rules.num("GM-MAGIC-7", "undead_damage_reduction")
    if drains:
        hp_loss, mp_loss = attacker.drain_hp, attacker.drain_mp
        if ward == "pg":
            hp_loss, mp_loss = max(0, hp_loss - reduce), max(0, mp_loss - reduce)
        lines.append(Line("GM-MON-4", f"{attacker.attack_name}: HP −{hp_loss}, MP −{mp_loss} "
                                      "(防御点無効/ignores protection"
                                      + (", 防護呪/Protection −2 each" if ward == "pg" else "")
                                      + ")"))
        hurt = _harm(rules, target, hp_loss, mp_loss)
    else:
        weapon = attacker.weapons[action.weapon]
        enchanted = attacker.enchanted(weapon.key)
        if target.immune_normal and not enchanted and not (
                target.magic_weapons_harm and weapon.magic
                and not rules.default("GM-MON-2", "strict_ghost")):
            lines.append(Line("GM-MON-2", f"{target.name} is immune to normal attacks "
                                          f"(通常攻撃無効): {weapon.name} does nothing"))
            return state
        power = roll(weapon.power, source,
                     purpose=f"damage ダメージ with {weapon.name} {weapon.power}")
        floor = rules.num("GM-CORE-1", "weapon_minimum")
        base = (max(floor, power.total) if rules.default("GM-COMBAT-7", "floor_weapon_roll")
                else power.total)
        extra = attacker.striking + (rules.default("GM-MAGIC-3", "enchanted_extra_damage")
                                     if enchanted else 0)
        armour = target.protection + (reduce if ward == "gm" else 0)
        damage = max(floor, base + extra - armour)
        parts = [f"{weapon.name} {power.text}"]
        if extra:
            parts.append(f"+{extra}")
        parts.append(f"− 防護力/protection {armour}")
        if ward == "pg":
            damage = max(floor, damage - reduce)
            parts.append(f"− 防護呪/Protection {reduce}")
        lines.append(Line("GM-COMBAT-7", " ".join(parts) + f" ＞ {damage} damage", power))
        hurt = _harm(rules, target, damage)
    return _after_harm(rules, state, attacker, hurt, lines)


def _after_harm(rules: GensoRules, state: FightState, by: Combatant | None, hurt: Combatant,
                lines: list[Line]) -> FightState:
    before = state.get(hurt.name)
    hurt = replace(hurt, status=_status(rules, hurt))
    if (by is not None and by.raises_victims and hurt.status is Status.DEAD
            and before.status is not Status.DEAD):
        hurt = replace(hurt, rises_as=by.name)
        lines.append(Line("GM-MON-5", f"{hurt.name} will rise as {by.name}'s kind after the "
                                      "next sunset unless Exorcism is cast on the corpse"))
    pools = (f"HP {hurt.hp}/{hurt.max_hp}, " if hurt.hp is not None else "") + \
        f"MP {hurt.mp}/{hurt.max_mp}"
    badge = _death_word(hurt)
    lines.append(Line("GM-COMBAT-8", f"{hurt.name}: {pools}" + (f" {badge}" if badge else "")))
    if wants_to_flee(rules, hurt) and not wants_to_flee(rules, before):
        lines.append(Line("GM-MON-1", f"{hurt.name} is at half HP or less and tries to flee"))
    return _swap(state, hurt)


def wants_to_flee(rules: GensoRules, c: Combatant) -> bool:
    """GM-MON-1: a monster that is not undead tries to flee at half its HP or less."""
    return (rules.default("GM-MON-1", "flee_flag") and c.role is Role.MONSTER
            and c.creature is not CreatureKind.UNDEAD and c.status is Status.ACTIVE
            and c.hp is not None and c.max_hp is not None and 2 * c.hp <= c.max_hp)


def _pay(rules: GensoRules, caster: Combatant, cost: int, stone: int | None,
         lines: list[Line], ring: bool = False) -> Combatant:
    """GM-MAGIC-1, GM-ITEM-1, GM-ITEM-3: pay MP, from a Ring of Storage's stored MP first
    when asked, then a mana stone when one is named, then the caster's own."""
    from_ring = from_stone = 0
    if ring:
        if not rules.default("GM-ITEM-1", "stones_pay_for_spells"):
            raise IllegalAction("GM-ITEM-1 Default: stored MP does not pay for spells")
        if caster.storage_mp < 1:
            raise IllegalAction(f"GM-ITEM-3: {caster.name} wears no working Ring of Storage "
                                "with MP stored")
        from_ring = min(caster.storage_mp, cost)
    stones = list(caster.mana_stones)
    if stone is not None and cost > from_ring:
        if not rules.default("GM-ITEM-1", "stones_pay_for_spells"):
            raise IllegalAction("GM-ITEM-1 Default: mana stones do not pay for spells")
        if not 0 <= stone < len(stones) or stones[stone] == 0:
            raise IllegalAction(f"{caster.name} has no charged mana stone {stone}")
        from_stone = min(stones[stone], cost - from_ring)
        stones[stone] -= from_stone
    own = cost - from_ring - from_stone
    if caster.mp < own:
        raise IllegalAction(f"GM-MAGIC-1: {caster.name} has {caster.mp} MP, the spell needs "
                            f"{own} more")
    if caster.mp - own < 1:
        lines.append(Line("GM-MAGIC-1", f"warning: {caster.name} falls below 1 MP and is "
                                        "incapacitated (GM-COMBAT-8)"))
    paid = (f"MP −{own}" + (f", 蓄積の指輪/Ring of Storage −{from_ring}" if from_ring else "")
            + (f", 魔力石/mana stone −{from_stone}" if from_stone else ""))
    lines.append(Line("GM-ITEM-3" if from_ring else "GM-MAGIC-1", f"{caster.name} pays {paid}"))
    return replace(caster, mp=caster.mp - own, mana_stones=tuple(stones),
                   storage_mp=caster.storage_mp - from_ring)


def _spell_damage(rules: GensoRules, state: FightState, caster: Combatant, target: Combatant,
                  amount: int, rule: str, lines: list[Line]) -> FightState:
    if rules.default("GM-MAGIC-1", "armor_reduces_spells"):
        amount = max(0, amount - target.protection)
    lines.append(Line(rule, f"{target.name} takes {amount} damage"))
    return _after_harm(rules, state, caster, _harm(rules, state.get(target.name), amount),
                       lines)


def _spell_targets(state: FightState, caster: Combatant, spell: Spell, named: tuple[str, ...],
                   legacy: bool) -> list[Combatant]:
    """GM-MAGIC-1: whom a spell lands on, by its ``aim`` (spells.toml, the seed's 対象).

    Only a spell aimed at the caster (a Barrier around it) falls on the caster when no
    target is named; any other needs its target named (a Lightning cast at nobody is
    refused, not loosed on its caster), and no target may be named twice: a second name
    is far likelier a slip for another target than a wish to hit one twice, so it is
    refused rather than quietly dropped.
    """
    if legacy:  # engine revision 1, for fights saved before the fix
        targets = [state.get(t) for t in named] or [caster]
        single = ("heal", "exorcise", "dispel", "ward", "conceal", "lightning")
        if spell.effect in single and len(targets) != 1:
            raise IllegalAction(f"{spell.name} takes one target")
        return targets
    twice = [name for name, count in Counter(named).items() if count > 1]
    if twice:
        raise IllegalAction(f"{spell.name}: {twice[0]} is named twice; name each target once "
                            "(a spell strikes each being once)")
    if spell.aim == "object" or (spell.aim == "one_or_object" and not named):
        if named:
            raise IllegalAction(f"{spell.name} goes on an object ({spell.target}), not on a "
                                "combatant: name no target")
        return []
    if spell.aim == "caster":
        return [state.get(t) for t in named] or [caster]
    if not named:
        need = "the one being it is cast on" if spell.aim == "one" else (
            "everyone the GM puts in its area")
        raise IllegalAction(f"{spell.name} needs a target ({spell.target}): name {need}")
    if spell.aim in ("one", "one_or_object") and len(named) != 1:
        raise IllegalAction(f"{spell.name} takes one target ({spell.target})")
    return [state.get(t) for t in named]


def _cast(rules: GensoRules, state: FightState, action: Cast, lines: list[Line],
          legacy: bool = False) -> FightState:
    caster = state.get(action.actor)
    spell = rules.spell(action.spell)
    if spell.group != "basic" or spell.mp is None:
        raise IllegalAction(f"{spell.name} ({spell.rule}) is told by the GM, not tracked")
    if rules.default("GM-MAGIC-1", "known_spells_only") and spell.key not in caster.spells:
        raise IllegalAction(f"GM-MAGIC-1: {caster.name} does not know {spell.name}")
    targets = _spell_targets(state, caster, spell, action.targets, legacy)
    for target in targets:
        if target.status in (Status.VANISHED, Status.FLED) or (
                target.status is Status.DEAD and spell.effect != "exorcise"):
            raise IllegalAction(f"{target.name} is {target.status.value}")
    caster = _pay(rules, caster, spell.mp, action.stone, lines, action.ring)
    caster = replace(caster, stance=Stance.NONE, status=_status(rules, caster))
    order = state.spells_cast + 1
    state = replace(_swap(state, caster), spells_cast=order)
    caster = state.get(caster.name)
    if not targets:  # Mark and Seal Lock act on objects outside the tracker
        lines.append(Line(spell.rule, f"{caster.name} casts {spell.name} on an object "
                                      f"({spell.target})"))
        return state
    lines.append(Line(spell.rule, f"{caster.name} casts {spell.name} on "
                                  f"{', '.join(t.name for t in targets)}"))

    def effect(weapon: str = "", members: tuple[str, ...] = ()) -> Effect:
        # GM-MAGIC-3: Exorcism is permanent on a being but lasts until sunrise on a weapon.
        duration = Duration.DAY if weapon else spell.duration
        return Effect(spell.key, caster.name, caster.magic, duration, order, weapon, members)

    target = state.get(targets[0].name)
    if spell.effect == "heal":
        healed = _heal(target, caster.magic, rules.default("GM-MAGIC-2", "cap_at_max_hp"))
        lines.append(Line("GM-MAGIC-2", f"{target.name} regains up to {caster.magic} HP: "
                                        f"HP {healed.hp}/{healed.max_hp}"))
        return _swap(state, replace(healed, status=_status(rules, healed)))
    if spell.effect == "exorcise":
        if action.weapon is not None:
            if not 0 <= action.weapon < len(target.weapons):
                raise IllegalAction(f"{target.name} has no weapon {action.weapon}")
            weapon = target.weapons[action.weapon]
            lines.append(Line("GM-MAGIC-3", f"{target.name}'s {weapon.name} carries Exorcism "
                                            "until the next sunrise"))
            return _swap(state, replace(target, effects=(*target.effects,
                                                         effect(weapon=weapon.key))))
        if target.status is Status.DEAD:
            lines.append(Line("GM-MON-5", f"{target.name}'s corpse is exorcised and will not "
                                          "rise"))
            return _swap(state, replace(target, rises_as=""))
        if target.creature is not CreatureKind.UNDEAD:
            lines.append(Line("GM-MAGIC-3", f"{target.name} is not undead: no effect"))
            return state
        return _spell_damage(rules, state, caster, target, caster.magic, "GM-MAGIC-3", lines)
    if spell.effect == "dispel":
        eligible = [e for e in target.effects if e.duration is not Duration.PERMANENT
                    and e.caster_magic <= caster.magic]
        if not eligible:
            lines.append(Line("GM-MAGIC-4", f"no spell on {target.name} can be cancelled"))
            return state
        oldest = min(eligible, key=lambda e: e.order)
        lines.append(Line("GM-MAGIC-4", f"{rules.spell(oldest.spell).name} by {oldest.caster} "
                                        f"on {target.name} is cancelled"))
        return _swap(state, replace(target, effects=tuple(e for e in target.effects
                                                          if e != oldest)))
    if spell.effect == "barrier":
        members = tuple(dict.fromkeys((caster.name, *action.targets)))
        lines.append(Line("GM-MAGIC-5", f"barrier {rules.default('GM-MAGIC-5', 'diameter_m')} m "
                                        f"across around {caster.name} holding "
                                        f"{', '.join(members)}: undead with Magic below "
                                        f"{caster.magic} cannot enter"))
        return _swap(state, replace(caster, effects=(*caster.effects, effect(members=members))))
    if spell.effect in ("ward", "conceal"):
        return _swap(state, replace(target, effects=(*target.effects, effect())))
    if spell.effect == "fire":
        for each in targets:
            state = _spell_damage(rules, state, caster, each, caster.magic, "GM-MAGIC-10",
                                  lines)
        return state
    if spell.effect == "lightning":
        return _spell_damage(rules, state, caster, target, caster.magic * 2, "GM-MAGIC-11",
                             lines)
    return state  # Mark and Seal Lock act on objects outside the tracker


def _use_stone(rules: GensoRules, state: FightState, action: UseStone, source: DiceSource,
               lines: list[Line], legacy: bool = False) -> FightState:
    """GM-ITEM-2: a magic stone is used up; Healing heals 2D, Enchant does 2D to the immune.

    A stone is not wasted on one dead, vanished or fled: it is refused, as the Healing
    spell is (GM-COMBAT-8: nothing brings the dead back).
    """
    user = state.get(action.actor)
    if action.stone not in user.stones:
        raise IllegalAction(f"{user.name} carries no {action.stone}")
    aimed = state.get(action.target)
    if not legacy and aimed.status in (Status.DEAD, Status.VANISHED, Status.FLED):
        raise IllegalAction(f"{aimed.name} is {aimed.status.value}: the stone would be used "
                            "up for nothing")
    left = list(user.stones)
    left.remove(action.stone)
    state = _swap(state, replace(user, stones=tuple(left), stance=Stance.NONE))
    target = state.get(action.target)
    if action.stone == "healing_stone":
        dice = rules.num("GM-ITEM-2", "healing")
        result = roll(dice, source, purpose=f"healing 回復 of the Healing Stone 治癒石 {dice}")
        healed = _heal(target, result.total, rules.default("GM-MAGIC-2", "cap_at_max_hp"))
        lines.append(Line("GM-ITEM-2", f"治癒石/Healing Stone on {target.name}: {result.text} ＞ "
                                       f"HP {healed.hp}/{healed.max_hp}", result))
        return _swap(state, replace(healed, status=_status(rules, healed)))
    if not target.immune_normal:
        lines.append(Line("GM-ITEM-2", f"付与石/Enchant Stone: {target.name} is not immune to "
                                       "normal attacks; no effect"))
        return state
    dice = rules.num("GM-ITEM-2", "enchant")
    result = roll(dice, source, purpose=f"damage ダメージ of the Enchant Stone 付与石 {dice}")
    lines.append(Line("GM-ITEM-2", f"付与石/Enchant Stone on {target.name}: {result.text}",
                      result))
    return _after_harm(rules, state, user, _harm(rules, target, result.total), lines)


def _advance(rules: GensoRules, state: FightState, lines: list[Line]) -> FightState:
    """Move the turn to the next combatant able to act; a new round starts after the last."""
    order = state.order
    turn, rnd = state.turn, state.round
    for _ in range(len(order)):
        turn += 1
        if turn == len(order):
            turn, rnd = 0, rnd + 1
            lines.append(Line("GM-COMBAT-1", f"round {rnd} (12 s each, GM-CORE-2)"))
        if order[turn].status is Status.ACTIVE:
            break
    return replace(state, turn=turn, round=rnd, moved="")


def _gm_step(rules: GensoRules, state: FightState, action: Action,
             lines: list[Line]) -> FightState:
    if isinstance(action, EndFight):
        lines.append(Line("GM-COMBAT-1", "the GM declares the end of the fight"))
        return replace(state, ended=True)
    if isinstance(action, Sunrise):
        cleared = []
        for c in state.combatants:
            kept = tuple(e for e in c.effects if e.duration is not Duration.DAY)
            cleared.append(replace(c, effects=kept))
        lines.append(Line("GM-CORE-2", "sunrise: every 1-day spell and Exorcism on weapons "
                                       "ends"))
        return replace(state, combatants=tuple(cleared))
    if isinstance(action, Sunset):
        for c in state.combatants:
            if c.rises_as:
                lines.append(Line("GM-MON-5", f"{c.name} rises as {c.rises_as}'s kind"))
        return _swap(state, *(replace(c, rises_as="") for c in state.combatants if c.rises_as))
    slept = [replace(c, mp=c.max_mp) for c in state.combatants
             if c.status is not Status.DEAD and c.creature is CreatureKind.LIVING
             and c.status is not Status.FLED]
    slept = [replace(c, status=_status(rules, replace(c, status=Status.ACTIVE)))
             for c in slept]
    lines.append(Line("GM-HEAL-2", "8 hours' sleep: MP restored in full for "
                                   + (", ".join(c.name for c in slept) or "nobody")))
    return _swap(state, *slept)


def _move(rules: GensoRules, state: FightState, action: Move, legacy: bool,
          lines: list[Line]) -> tuple[FightState, bool]:
    """GM-MOVE-1, GM-COMBAT-1: the move and whether the turn goes on to an action.

    A combat move (3 m, 「戦闘行為は全て可能」) leaves the action (GM-COMBAT-1 Default, one
    movement mode a round); a normal move leaves no attack or spell, a full move no
    fighting at all, so either is the turn.
    """
    actor = state.get(action.actor)
    metres = {m: rules.num("GM-MOVE-1", f"{m}_m") for m in ("combat", "normal", "full")}
    if action.mode not in metres:
        raise IllegalAction(f"GM-MOVE-1: a move is {', '.join(metres)}")
    if state.moved:
        raise IllegalAction(f"GM-COMBAT-1: {actor.name} has moved this round ({state.moved}); "
                            "now an attack, a spell, a stone, a dodge, flight or wait")
    stance = {"combat": Stance.NONE, "normal": Stance.NORMAL_MOVE,
              "full": Stance.FULL_MOVE}[action.mode]
    state = _swap(state, replace(actor, stance=stance))
    goes_on = (action.mode == "combat" and not legacy
               and bool(rules.default("GM-COMBAT-1", "move_and_act")))
    lines.append(Line("GM-MOVE-1", f"{actor.name} moves {action.mode} "
                                   f"({metres[action.mode]} m)"
                      + (": it may still attack, cast or use a stone (戦闘行為は全て可能)"
                         if goes_on else "")))
    return (replace(state, moved=action.mode) if goes_on else state), goes_on


def _apply(rules: GensoRules, state: FightState, action: Action,
           source: DiceSource, legacy: bool = False) -> tuple[FightState, list[Line]]:
    """One action by the rules; ``legacy`` plays it by engine revision 1 (:data:`ENGINE`)."""
    lines: list[Line] = []
    if isinstance(action, GM_ACTIONS):
        return _gm_step(rules, state, action, lines), lines
    current = state.current
    if current is None:
        if not isinstance(action, Cast | UseStone):
            raise IllegalAction("the fight is over: only spells, stones and the GM's steps "
                                "(sunrise, sunset, sleep) remain")
        actor = state.get(action.actor)
        if actor.status is not Status.ACTIVE:
            raise IllegalAction(f"{actor.name} is {actor.status.value}")
    elif action.actor != current.name:
        raise IllegalAction(f"it is {current.name}'s turn, not {action.actor}'s (GM-COMBAT-1)")
    actor = state.get(action.actor)
    if current is not None:
        state = _swap(state, replace(actor, stance=Stance.NONE))
    goes_on = False
    if isinstance(action, Attack):
        state = _attack(rules, state, action, source, lines)
    elif isinstance(action, Cast):
        state = _cast(rules, state, action, lines, legacy)
    elif isinstance(action, UseStone):
        state = _use_stone(rules, state, action, source, lines, legacy)
    elif isinstance(action, Dodge):
        state = _swap(state, replace(actor, stance=Stance.FULL_DODGE))
        lines.append(Line("GM-COMBAT-6", f"{actor.name} dodges with all it has: +"
                                         f"{rules.num('GM-COMBAT-6', 'full_dodge')} to defence"))
    elif isinstance(action, Move):
        state, goes_on = _move(rules, state, action, legacy, lines)
    elif isinstance(action, Flee):
        state = _swap(state, replace(actor, status=Status.FLED))
        lines.append(Line("GM-COMBAT-1", f"{actor.name} flees"))
    else:
        lines.append(Line("GM-COMBAT-1", f"{actor.name} waits"))
    if current is not None and state.outcome is None and not goes_on:
        state = _advance(rules, state, lines)
    if state.outcome is not None and current is not None:
        lines.append(Line("GM-COMBAT-1", f"the fight is over: {state.outcome.text}"))
    return state, lines


def entrants_for(rules: GensoRules, party: Iterable[Character],
                 monsters: Iterable[tuple[str, int]]) -> list[Entrant]:
    """The party's characters and ``count`` monsters of each key, numbered when several; a
    count below 1 is refused rather than adding none."""
    entrants = [Entrant.of_character(c) for c in party]
    for key, count in monsters:
        monster = rules.monster(key)
        if count < 1:
            raise IllegalAction(f"{monster.name}: a number of monsters is 1 or more, not {count}")
        for n in range(1, count + 1):
            name = monster.ja if count == 1 else f"{monster.ja}{n}"
            entrants.append(Entrant(name, Side.ENEMY, monster=monster.key))
    return entrants
