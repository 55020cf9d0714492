"""A Call of Cthulhu fight (seeds 003/004) as a mode of the play session (``play --mode coc``).

The fight is the one `companion coc fight new` started (``--fight FILE``, by default
``coc/fight.json`` in the data folder): the sheets, the profile and its settings, and
whatever was already played on the command line. At the table the mode runs it turn by
turn from the engine (:class:`~companion.systems.coc.combat.Fight`): whose turn it is (DEX
order; profile 003's action points, CO-TURN-3), the actions the engine would take now as a
menu (each offered only if the engine, tried up to its first die, takes it), then a
target, a weapon, how (martial arts, a burst, a called shot, Iai, its pommel strike or an
ally's blade, a disarm, a body part, …) and the target's declared defence, whose menu also
opens the attack's circumstances (distance, point blank, from behind, dark, surprise, the
Keeper's picks); then the dice, each result shown with its terms and rule IDs, e.g.
``Ann キック/Kick (1D100<=60) ＞ 10 ＞ スペシャル/special``. Besides attacks and grapples:
the throw's options, tackle, a spell, Spot Hidden, sheathing, picking a weapon up, and on
003's board turning and jumping over. The Keeper's steps (undo, placing on 003's board,
SAN losses, dodge concentration or a first strike before the round's first action, fire, a
fall, closing the table) are under *Keeper*. Every action and option of the engine is
reachable (numbers from a list).

Dice (:class:`CocTableRolls`): simulated (``--dice sim``), or with ``--dice camera`` the
d6-based dice (damage: D6, and D3/D2 as a D6 halved, as ``companion coc`` reads them)
from the camera, and every other die (the d100 of every check, a burst's d20, a D4 or
D10 of damage) typed by the player on a keypad menu (``--d100 typed``, the default: the
player throws percentile dice and keys in what they show) or thrown by the companion
(``--d100 sim``); the screen says which. The camera never reads a d100.

Saving is the shared table's (:mod:`companion.app.modes.fight`): the journal of answers in
the table save, the fight file rewritten after every action.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from companion.app.modes.fight import (
    FightMode,
    Table,
    Undone,
    open_table,
    option_index,
    option_value,
)
from companion.app.session.controls import Controls, choose
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk, ChoiceFeed, RollAsk, RollFeed, Show, Throw
from companion.dice import DiceSource
from companion.errors import IllegalAction
from companion.hw.buttons import Button
from companion.hw.display import Display
from companion.hw.display.view import (
    BoardView,
    DiceStep,
    FighterView,
    FightView,
    Name,
    Option,
    PieceView,
)
from companion.systems.coc import board
from companion.systems.coc.combat import (
    Action,
    Attack,
    BreakFree,
    Burn,
    Cast,
    Choke,
    ClearJam,
    Combatant,
    Concentrate,
    Defence,
    Delay,
    EndTurn,
    Entry,
    Face,
    Fall,
    Fight,
    FightState,
    Grapple,
    Jump,
    Move,
    PickUp,
    Place,
    Reload,
    SanLoss,
    Sheathe,
    Side,
    Spot,
    Tackle,
    Treat,
    action_to_json,
)
from companion.systems.coc.combat import Throw as ThrowDown
from companion.systems.coc.rules import CocRules, Profile, WeaponInfo, WeaponKind, load_rules

TITLE = "クトゥルフ神話TRPG Fight 戦闘"
PRESET = "coc"  # what a table save says in SaveGame.preset
START_HINT = "companion coc fight new --investigators ann.toml --foes cultist.toml"
SIDES = {Side.INVESTIGATORS: Name("探索者", "investigators"), Side.FOES: Name("敵", "foes")}
#: A combatant of the side, in a name made for one whose sheet names it in Japanese only.
ONE_OF = {Side.INVESTIGATORS: "investigator", Side.FOES: "foe"}
OUTCOMES = {Side.INVESTIGATORS: "探索者の勝利 the investigators stand",
            Side.FOES: "敵の勝利 the foes stand"}
BACK = Option("back", "Back 戻る", Button.FLEE)
#: The d6-based dice the camera reads (a D3 or D2 is a D6 halved, rounded up).
CAMERA_SIDES = (6, 3, 2)
RULE_ID = re.compile(r"CO-[A-Z]+-\d+")
#: How an attack is made, when there is a choice: (key, label, the Attack's fields).
HOW: tuple[tuple[str, str, dict[str, object]], ...] = (
    ("plain", "Plain 通常", {}),
    ("ma", "Martial arts マーシャルアーツ", {"ma": True}),
    ("ma_forced", "MA forced hit MA 必中", {"ma": True, "ma_option": "forced"}),
    ("ma_follow", "MA follow-up MA 追撃", {"ma": True, "ma_option": "follow_up"}),
    ("burst", "Burst 連射", {"burst": True}),
    ("shots2", "2 shots 2回射撃", {"shots": 2}),
    ("shots3", "3 shots 3回射撃", {"shots": 3}),
    ("aim", "Careful aim 狙い撃ち", {"aim": True}),
    ("head", "Called: head 部位狙い 頭", {"called": "head"}),
    ("arm", "Called: arm 部位狙い 腕", {"called": "arm"}),
    ("leg", "Called: leg 部位狙い 脚", {"called": "leg"}),
    ("knockout", "Knock out 気絶狙い", {"knockout": True}),
    ("iai", "Iai 居合", {"iai": True}),
    ("pommel", "Iai pommel strike 居合 柄当て", {"iai": True, "pommel": True}),
    ("borrow", "Iai with an ally's blade 味方の刀で居合", {"iai": True}),
    ("disarm", "Disarm 武器落とし", {"disarm": True}),
    ("after_dodge", "After dodging, −50% (Keeper's OK) 回避後の攻撃", {"after_dodge": True}),
    ("body", "Body part 部位破壊", {}),
)
#: The ways of attacking that open the Attack menu: plain, or an Iai (CO-IAI-2: after three
#: squares of movement at 0 AP) or an attack after dodging (CO-DODGE-5) when only it is allowed.
ENTRY_WAYS: tuple[dict[str, object], ...] = ({}, {"iai": True}, {"after_dodge": True})
#: The ways of attacking that ask more of their own (whose blade, which weapon, which part).
SUB_MENU_HOWS = frozenset({"borrow", "disarm", "body"})
HOW_FIELDS = frozenset(key for _, _, how in HOW for key in how)
#: CO-BODY-2/3/4: how a body part is lost.
BODY = {"cut": "Cut off 切断", "gouge": "Gouge えぐる", "blow_off": "Blow off 吹き飛ばす"}
#: CO-BODY-5's parts.
PARTS = {"eye": "eye 目", "tongue": "tongue 舌", "arm": "arm 腕", "hand": "hand 手",
         "finger": "finger 指", "leg": "leg 脚", "torso": "torso 胴", "head": "head 頭"}
#: CO-TACKLE-1/2/3: what a tackle does: (key, label, Tackle's option, obstacle).
TACKLES: tuple[tuple[str, str, str, bool], ...] = (
    ("damage", "Damage 1D6+DB ダメージ", "", False),
    ("blow_back", "Blow back 吹き飛ばし", "blow_back", False),
    ("wall", "Blow back into a wall 壁へ吹き飛ばし", "blow_back", True),
    ("knock_down", "Knock down 押し倒し", "knock_down", False),
)
#: CO-SPELL-1: how a spell is cast: (key, label, verbal, automatic).
CASTS: tuple[tuple[str, str, bool, bool], ...] = (
    ("chant", "Chanted or gestured 詠唱", True, False),
    ("silent", "Silent 無詠唱", False, False),
    ("auto", "Goes on by itself 自動", True, True),
)
#: CO-SURP-1: the skill a surprise attack hides with.
SURPRISE = {"hide": "Hide 隠れる", "conceal": "Conceal 隠す", "sneak": "Sneak 忍び歩き"}
#: CO-PARRY-2 (and 003's MA parry, CO-DODGE-2): parrying without a weapon. Each label (as
#: every defence's) starts with what tells it from the others: a fight's menu cuts a label.
BARE_PARRY = {"hands": "Bare-handed parry 素手で受け流し",
              "ma": "MA parry マーシャルアーツで受け流し",
              "budo": "Budo parry 武道で受け流し"}
#: The same, in a line saying what was declared: ``parry bare-handed 素手``.
PARRY_WAYS = {"hands": "bare-handed 素手", "ma": "MA マーシャルアーツ", "budo": "Budo 武道"}
#: CO-DODGE-6: a dodge helped by a Navigate or Jump roll.
DODGE_ASSIST = {"navigate": "Navigate+dodge ナビゲート+回避", "jump": "Jump+dodge 跳躍+回避"}
#: CO-DODGE-7: cover from every bullet, by Hide or by Dodge at −50%.
COVER = {"hide": "Hide in cover 物陰に隠れる", "dodge": "Dodge −50% to cover 回避−50%で物陰へ"}
SPELL = "呪文 spell"
SPELL_MP = (0, 1, 2, 3, 4, 5, 6, 8, 10, 15, 20)
SAN_AMOUNTS = (1, 2, 3, 4, 5, 6, 8, 10)
BURN_DAMAGE = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15)
FALL_METRES = (1, 2, 3, 4, 6, 9, 12, 15)
HIDDEN_PENALTIES = (-10, -20, -30, -40, -50)   # CO-SURP-3: the Keeper's, by how well hidden
DISARM_PENALTIES = (-20, -30, -40, -50, -60)   # CO-DISARM-1: the Keeper's pick
GOUGE_PENALTIES = (-60, -70, -80)              # CO-BODY-3: the Keeper's pick


AFTER_DODGE = "after dodging 回避後 −50%"  # CO-DODGE-5


def describe(action: Action, state: FightState | None = None) -> str:
    """An action in a line, for the log and the result's title; with the fight's ``state``
    a parry names the weapon it parries with."""
    data = action_to_json(action)
    target = data.get("target") or data.get("at") or ""
    words = {"attack": "攻撃 attacks", "grapple": "組み付き grapples", "choke": "絞め chokes",
             "throw": "投げ throws", "break_free": "振りほどく breaks free",
             "reload": "装填 reloads", "clear_jam": "弾詰まり解除 clears a jam",
             "treat": "治療 treats", "move": "移動 moves", "end_turn": "手番終了 ends the turn",
             "delay": "DEX/2 へ delays", "concentrate": "回避専念 concentrates on dodging",
             "place": "配置 is placed", "san_loss": "正気度喪失 loses SAN",
             "sheathe": "納刀 sheathes", "pick_up": "拾う picks up", "cast": "呪文 casts",
             "tackle": "タックル tackles", "burn": "火傷 is burned", "fall": "落下 falls",
             "face": "向き turns", "jump": "跳び越え jumps over",
             "spot": "目星 spots"}
    text = f"{action.actor} {words.get(action.kind, action.kind)}"
    target = target or data.get("over") or ""
    if target:
        text += f" → {target}"
    if isinstance(action, Attack):
        tags = [tag for on, tag in (
            (action.first_strike, "first strike 先制"), (action.iai, "Iai 居合"),
            (action.pommel, "pommel 柄当て"), (action.borrow, f"{action.borrow}'s blade"),
            (action.ma and not action.ma_option, "MA"),
            (action.ma_option, f"MA {action.ma_option}"), (action.burst, "burst 連射"),
            (action.shots > 1, f"{action.shots} shots"), (action.aim, "aim 狙い撃ち"),
            (action.called, f"called: {action.called}"), (action.knockout, "knockout 気絶狙い"),
            (action.disarm, "disarm 武器落とし"), (action.after_dodge, AFTER_DODGE),
            (action.body, f"{action.body} {action.part}"),
            (action.surprise, f"surprise 奇襲 {action.surprise}"),
            (action.distance_m, f"{action.distance_m} m"),
            (action.hidden, f"hidden {action.hidden}%"),
            (action.adjacent, "point blank 至近"), (action.from_behind, "from behind 背後"),
            (action.dark, "dark 暗闇"), (action.penalty, f"penalty {action.penalty}%"),
            (action.staunched, "staunched 止血"), (action.fumble, f"fumble: {action.fumble}"),
            (action.behind, f"{action.behind} behind"),
            (action.stray, f"stray → {action.stray}")) if on]
        text += "".join(f" [{tag}]" for tag in tags)
    if isinstance(action, (Grapple, Tackle)) and action.after_dodge:
        text += f" [{AFTER_DODGE}]"
    if isinstance(action, (Attack, Grapple, Tackle)) and action.defence is not Defence.NONE:
        text += f" ({_defence_text(action, state)})"
    if isinstance(action, Tackle) and action.option:
        text += f" [{action.option}{' obstacle' if action.obstacle else ''}]"
    if isinstance(action, ThrowDown):
        text += "".join(f" [{tag}]" for on, tag in (
            (action.at, f"at {action.at}" + (" who dodges" if action.at_dodges else "")),
            (action.toward, f"toward {action.toward}"),
            (action.height_m, f"from {action.height_m} m")) if on)
    if isinstance(action, Cast):
        text += f" {action.spell} {action.mp} MP"
    if isinstance(action, Burn):
        text += f" {action.damage} ({action.lose or 'default'})"
    if isinstance(action, Fall):
        text += f" {action.metres} m"
    if isinstance(action, Face):
        text += f" {action.facing}"
    if isinstance(action, Place):
        text += f" {action.square} {action.facing}"
    if isinstance(action, SanLoss):
        text += f" {action.amount}"
    return text


def _defence_text(action: Attack | Grapple | Tackle, state: FightState | None) -> str:
    """The declared defence: ``dodge``, ``parry ナイフ/Knife``, ``parry bare-handed 素手``,
    ``counter 日本刀/Japanese Sword`` (the weapon named when the fight's ``state`` is known)."""
    word = action.defence.value
    if action.defence is Defence.DODGE:
        assist = getattr(action, "dodge_assist", "")
        return f"{word} + {assist}" if assist else word
    way = getattr(action, "parry_with", "")
    if way in BARE_PARRY:
        return f"{word} {PARRY_WAYS[way]}"
    index = getattr(action, "parry_weapon", 0)
    try:
        weapon = (state.get(action.target).sheet.weapons[index].info.name
                  if state is not None else "")
    except (IllegalAction, IndexError):
        weapon = ""
    iai = " 居合/Iai" if way == "iai" else ""
    return f"{word}{iai} {weapon or f'weapon {index + 1}'}"


def english(state: FightState, c: Combatant) -> str:
    """A combatant's name as a screen without a Japanese font draws it: the sheet's, when it
    has Latin letters (Ann, Cultist 2); else its side's and its number there (山田太郎左衛門,
    the fourth investigator: ``investigator 4``)."""
    if re.search(r"[A-Za-z]", c.name):
        return c.name
    side = [o.name for o in state.combatants if o.side is c.side]
    return f"{ONE_OF[c.side]} {side.index(c.name) + 1}"


def marks(state: FightState) -> dict[str, str]:
    """Each combatant's mark on 003's board, by name: the initial of its English name, unique
    (Ann A, Bob B); where initials clash, with the number its name ends in (Cultist 2 C2) or
    else the first number free (Cult C1, Cultist of the Yellow Sign C4 beside Cultist 2 and
    3): a disc holds a mark of two or three characters, never a whole name."""
    names = {c.name: english(state, c) for c in state.combatants}
    groups: dict[str, list[str]] = {}
    for name, en in names.items():
        first = re.search(r"[A-Za-z0-9]", en)
        groups.setdefault(first.group(0).upper() if first else "?", []).append(name)
    out: dict[str, str] = {}
    for initial, group in groups.items():
        if len(group) == 1:
            out[group[0]] = initial
            continue
        for name in group:
            number = re.search(r"(\d+)$", names[name])
            if number and f"{initial}{number.group(1)}" not in out.values():
                out[name] = f"{initial}{number.group(1)}"
        taken = set(out.values())
        free = (f"{initial}{k}" for k in itertools.count(1) if f"{initial}{k}" not in taken)
        for name in group:
            if name not in out:
                out[name] = next(free)
    return out


def steps(entry: Entry) -> tuple[DiceStep, ...]:
    """An entry's lines, each with its rule ID: the one it names, CO-CORE-1 for a d100 check
    (its criticals and fumbles are that rule's), else the line before's."""
    out, rule = [], ""
    for line in entry.lines:
        found = RULE_ID.search(line)
        if found:
            rule = found.group(0)
        elif "1D100<=" in line.upper():
            rule = "CO-CORE-1"
        out.append(DiceStep(rule, line))
    return tuple(out)


def summary(entry: Entry) -> str:
    """What an action came to, in a few words: its first check's verdict, or its last line."""
    for line in entry.lines:
        if "＞" in line and "1D100" in line.upper():
            return line.rpartition("＞")[2].strip()
    lines = [line for line in entry.lines if not line.startswith("round ")]
    return lines[-1] if lines else "–"


class CocFightMode(FightMode):
    """Turn by turn: an action, its target, weapon and options, the defence, then its dice;
    over when the Keeper closes the table."""

    TITLE = TITLE

    def __init__(self, fight: Fight, source_name: str = "") -> None:
        super().__init__(fight, source_name)
        self.fight: Fight = fight
        self.rules: CocRules = fight.rules

    def describe(self, action: Action) -> str:
        return self.with_english(describe(action, self.fight.state))

    def english_names(self) -> dict[str, str]:
        state = self.fight.state
        return {c.name: english(state, c) for c in state.combatants}

    # -- the Keeper's own steps -------------------------------------------------------------

    def _direct(self, choice: str) -> list[object] | None:
        if self.path not in ([], ["keeper"]) or choice not in ("close", "undo"):
            return None
        if choice == "close":
            self.done = True
            return []
        events: list[object] = [Undone(self.fight.pop())]
        self.path = []
        return events

    # -- the menus --------------------------------------------------------------------------

    def _step(self, path: Sequence[str]) -> ChoiceAsk | Action:
        state = self.fight.state
        actor = state.current
        if not path:
            if actor is None:
                return ChoiceAsk(f"The fight is over 戦闘終了: {self._outcome()}", (
                    Option("close", "Close 閉じる", Button.ATTACK),
                    Option("undo", "Undo 取り消し"), Option("keeper", "Keeper 進行")))
            return self._actions(actor)
        kind, rest = path[0], list(path[1:])
        if kind == "keeper":
            return self._keeper(rest)
        if actor is None:
            raise IllegalAction(f"there is no choice {'/'.join(path)!r} now")
        if kind == "attack":
            return self._attack(actor, rest)
        if kind == "grapple":
            return self._grapple(actor, rest)
        if kind == "treat":
            return self._treat(actor, rest)
        if kind == "move":
            return self._move(actor, rest)
        if kind == "tackle":
            return self._tackle(actor, rest)
        if kind == "cast":
            return self._cast(actor, rest)
        if kind == "throw":
            return self._throw(actor, rest)
        if kind == "spot":
            if not rest:
                return self._pick("Spot Hidden on whom? 目星の相手は？", [
                    t for t in self._others(actor) if self.legal(Spot(actor.name, t.name))])
            return Spot(actor.name, option_value(rest[0], "t"))
        if kind == "jump":
            if not rest:
                return self._pick("Jump over whom? 誰を跳び越える？", [
                    t for t in self._others(actor) if self.legal(Jump(actor.name, t.name))])
            return Jump(actor.name, option_value(rest[0], "t"))
        if kind == "face":
            if not rest:
                return ChoiceAsk("Face which way? 向きは？", (
                    *(Option(f"face:{f}", f) for f in board.FACINGS
                      if f != actor.facing and self.legal(Face(actor.name, f))), BACK))
            return Face(actor.name, option_value(rest[0], "face"))
        if kind == "pickup":
            dropped = [i for i in range(len(actor.sheet.weapons))
                       if self.legal(PickUp(actor.name, i))]
            if len(dropped) > 1 and not rest:
                return ChoiceAsk("Pick up which weapon? 拾う武器は？", (
                    *(Option(f"w:{i}", actor.sheet.weapons[i].info.name) for i in dropped),
                    BACK))
            return PickUp(actor.name, option_index(rest[0], "w") if rest else
                          (dropped[0] if dropped else 0))
        if kind in ("reload", "jam"):
            made = Reload if kind == "reload" else ClearJam
            weapons = [i for i in range(len(actor.sheet.weapons))
                       if self.legal(made(actor.name, i))]
            if len(weapons) > 1 and not rest:
                return ChoiceAsk("Which weapon? 武器は？", (
                    *(Option(f"w:{i}", actor.sheet.weapons[i].info.name) for i in weapons),
                    BACK))
            return made(actor.name, option_index(rest[0], "w") if rest else
                        (weapons[0] if weapons else 0))
        simple: dict[str, Callable[[str], Action]] = {
            "choke": Choke, "break": BreakFree, "delay": Delay,
            "sheathe": Sheathe, "end": EndTurn}
        if kind in simple and not rest:
            return simple[kind](actor.name)
        raise IllegalAction(f"there is no choice {'/'.join(path)!r} now")

    def _actions(self, actor: Combatant) -> ChoiceAsk:
        """What the engine would take from whoever's turn it is, tried up to the first die."""
        name = actor.name
        others = self._others(actor)
        options: list[Option] = []
        if any(self._may_attack(actor, t.name) for t in others):
            options.append(Option("attack", "Attack 攻撃", Button.ATTACK))
        dodged = self._dodged(actor)
        if any(self.legal(Grapple(name, t.name, after_dodge=dodged)) for t in others):
            options.append(Option("grapple", "Grapple 組み付き"))
        if any(self.legal(Tackle(name, t.name, option, after_dodge=dodged)) for t in others
               for _, _, option, _ in TACKLES):
            options.append(Option("tackle", "Tackle タックル"))
        if any(self.legal(Cast(name, SPELL, 0, verbal, auto)) for _, _, verbal, auto in CASTS):
            options.append(Option("cast", "Cast a spell 呪文"))
        for key, label, action in (("choke", "Choke 絞め", Choke(name)),
                                   ("throw", "Throw 投げ", ThrowDown(name)),
                                   ("break", "Break free 振りほどく", BreakFree(name))):
            if self.legal(action):
                options.append(Option(key, label))
        weapons = range(len(actor.sheet.weapons))
        if any(self.legal(Reload(name, i)) for i in weapons):
            options.append(Option("reload", "Reload 装填", Button.RANGED))
        if any(self.legal(ClearJam(name, i)) for i in weapons):
            options.append(Option("jam", "Clear jam 弾詰まり解除"))
        if any(self.legal(PickUp(name, i)) for i in weapons):
            options.append(Option("pickup", "Pick up 武器を拾う"))
        if self.legal(Sheathe(name)):
            options.append(Option("sheathe", "Sheathe 納刀"))
        if any(self.legal(Spot(name, t.name)) for t in others):
            options.append(Option("spot", "Spot Hidden 目星"))
        if any(self.legal(Treat(name, t.name, s)) for t in self.fight.state.combatants
               for s in ("first_aid", "medicine")):
            options.append(Option("treat", "Treat 治療"))  # ITEM moves the highlight
        if self._moves(actor):
            options.append(Option("move", "Move 移動"))
        if any(self.legal(Jump(name, t.name)) for t in others):
            options.append(Option("jump", "Jump over 跳び越え"))
        if any(self.legal(Face(name, f)) for f in board.FACINGS if f != actor.facing):
            options.append(Option("face", "Turn 向きを変える"))
        if self.legal(Delay(name)):
            options.append(Option("delay", "Delay DEX/2 遅延"))
        options += [Option("end", "End turn 手番終了", Button.FLEE),
                    Option("keeper", "Keeper 進行")]
        ap = f" ({actor.ap} AP)" if self.rules.profile is Profile.P003 else ""
        return ChoiceAsk(f"{name}{ap}: what does it do? 行動は？", tuple(options))

    def _may_attack(self, actor: Combatant, target: str, index: int | None = None,
                    first: bool = False) -> bool:
        """Would the engine take some attack by ``actor`` on ``target`` (with weapon ``index``,
        or any of its own or an ally's blade): a plain one, or one that only an Iai (after three
        squares of movement at 0 AP, CO-IAI-2) or an attack after dodging (CO-DODGE-5) allows."""
        base: dict[str, object] = {"first_strike": True} if first else {}
        weapons = range(len(actor.sheet.weapons)) if index is None else (index,)
        ways = ENTRY_WAYS if not first else ENTRY_WAYS[:1]
        if any(self.legal(Attack(actor.name, target, i, **base, **way))  # type: ignore[arg-type]
               for i in weapons for way in ways):
            return True
        return index is None and not first and bool(self._blades(actor, target))

    def _blades(self, actor: Combatant, target: str) -> list[tuple[str, int]]:
        """CO-IAI-1: the allies' blades ``actor`` may draw with Iai to strike ``target``."""
        return [(ally.name, j) for ally in self.fight.state.combatants
                if ally.side is actor.side and ally.name != actor.name and not ally.dead
                for j in range(len(ally.sheet.weapons))
                if self.legal(Attack(actor.name, target, j, iai=True, borrow=ally.name))]

    def _dodged(self, actor: Combatant) -> bool:
        """CO-DODGE-4: ``actor`` dodged this round, so a grapple or tackle is offered as the
        Keeper may allow it, at −50% (CO-DODGE-5; the engine says whether it may)."""
        return actor.dodges > 0 and self.rules.on("CO-DODGE-4")

    def _others(self, actor: Combatant) -> list[Combatant]:
        """Everyone else still alive, the other side first."""
        alive = [c for c in self.fight.state.combatants if c.name != actor.name and not c.dead]
        return sorted(alive, key=lambda c: c.side is actor.side)

    def _pick(self, prompt: str, people: Sequence[Combatant]) -> ChoiceAsk:
        """Whom: each button names the one picked English first (a button cut short, or a
        screen without a Japanese font, keeps it), then its Japanese name and side."""
        state = self.fight.state
        return ChoiceAsk(prompt, (*(Option(f"t:{c.name}", " ".join(dict.fromkeys(
            (english(state, c), c.name, SIDES[c.side].ja)))) for c in people), BACK))

    def _attack(self, actor: Combatant, rest: list[str],
                first: bool = False) -> ChoiceAsk | Action:
        """Whom; with which weapon; how (MA and 004's forced hit or follow-up, burst, shots,
        aim, a called shot, Iai, its pommel strike or an ally's blade, a disarm with the
        weapon it knocks away, a body part with how and which); then the target's declared
        defence (CO-DODGE, CO-PARRY, CO-MA-5), whose menu also opens *More 状況*: the
        circumstances (distance, point blank, from behind, dark, surprise, the Keeper's
        picks; :meth:`_circumstances`). ``first``: a first strike (CO-FIRE-7)."""
        name, weapons = actor.name, range(len(actor.sheet.weapons))
        base: dict[str, object] = {"first_strike": True} if first else {}

        def legal(target: str, index: int, **fields: object) -> bool:
            return self.legal(Attack(name, target, index, **base, **fields))  # type: ignore[arg-type]

        if not rest:
            return self._pick("Attack whom? 攻撃対象は？", [
                t for t in self._others(actor) if self._may_attack(actor, t.name, first=first)])
        target, rest = option_value(rest[0], "t"), rest[1:]
        usable = [i for i in weapons if self._may_attack(actor, target, i, first)]
        if len(usable) > 1:
            if not rest:
                return ChoiceAsk("With which weapon? 武器は？", (
                    *(Option(f"w:{i}", self._weapon_label(actor, i)) for i in usable), BACK))
            index, rest = option_index(rest[0], "w"), rest[1:]
        else:
            index = usable[0] if usable else 0
        firearm = actor.sheet.weapons[index].info.kind is WeaponKind.FIREARM if usable else False
        shots = firearm and self.rules.profile is Profile.P004  # 003 shoots once an AP
        held = range(len(self.fight.state.get(target).sheet.weapons))
        bodies = [(b, part) for b in BODY for part in PARTS
                  if legal(target, index, body=b, part=part)]
        blades = [] if first else self._blades(actor, target)
        hows = [(key, label, fields) for key, label, fields in HOW
                if (shots or "shots" not in fields) and not (first and "iai" in fields) and (
                    any(legal(target, index, disarm=True, disarm_weapon=j) for j in held)
                    if key == "disarm" else bool(bodies) if key == "body"
                    else bool(blades) if key == "borrow"
                    else legal(target, index, **fields))]
        fields: dict[str, object] = dict(base)
        how = "plain"
        if len(hows) > 1:
            if not rest:
                return ChoiceAsk("How? 攻撃方法は？", (
                    *(Option(f"h:{key}", label) for key, label, _ in hows), BACK))
            how, rest = option_value(rest[0], "h"), rest[1:]
            if how not in {key for key, _, _ in hows}:
                raise IllegalAction(f"there is no choice h:{how} now")
            fields.update(next(f for k, _, f in hows if k == how))
        elif hows and hows[0][0] != "plain":  # the one way the engine takes (an Iai, say)
            how = hows[0][0]
            fields.update(hows[0][2])
        info = actor.sheet.weapons[index].info if usable else None
        if how == "borrow":
            if len(blades) > 1:
                if not rest:
                    return ChoiceAsk("Whose blade? 誰の刀を抜く？", (
                        *(Option(f"a:{ally}:{j}", f"{ally}: "
                                 + self._weapon_label(self.fight.state.get(ally), j))
                          for ally, j in blades), BACK))
                ally, _, j = option_value(rest[0], "a").rpartition(":")
                if (ally, int(j) if j.isdigit() else -1) not in blades:
                    raise IllegalAction(f"there is no choice {rest[0]!r} now")
                rest = rest[1:]
            else:
                ally, j = blades[0][0], str(blades[0][1])
            index = int(j)
            fields["borrow"] = ally
            info = self.fight.state.get(ally).sheet.weapons[index].info
        if how == "disarm":
            aimed = [j for j in held if legal(target, index, disarm=True, disarm_weapon=j)]
            if len(aimed) > 1:
                if not rest:
                    return ChoiceAsk(f"Knock which weapon from {target}? 落とさせる武器は？", (
                        *(Option(f"x:{j}", self._weapon_label(self.fight.state.get(target), j))
                          for j in aimed), BACK))
                fields["disarm_weapon"], rest = option_index(rest[0], "x"), rest[1:]
            else:
                fields["disarm_weapon"] = aimed[0] if aimed else 0
        if how == "body":
            if not rest:
                return ChoiceAsk("Lose it how? 部位破壊の方法は？", (
                    *(Option(f"b:{b}", BODY[b]) for b in BODY if any(x == b for x, _ in bodies)),
                    BACK))
            body, rest = option_value(rest[0], "b"), rest[1:]
            if not rest:
                return ChoiceAsk(f"{BODY.get(body, body)}: which part? 部位は？", (
                    *(Option(f"p:{part}", PARTS[part]) for b, part in bodies if b == body),
                    BACK))
            fields.update(body=body, part=option_value(rest[0], "p"))
            rest = rest[1:]
        kind = info.kind if info is not None else WeaponKind.UNARMED
        picked: list[str] = []
        while rest and rest[0] == "m:more":
            more = self._circumstances(actor, target, index, info, fields)
            more = [m for m in more if m[0] not in picked]
            if len(rest) < 2:
                return ChoiceAsk("What else? 状況は？", (
                    *(Option(f"m:{key}", label) for key, label, _ in more), BACK))
            key = option_value(rest[1], "m")
            found = [values for k, _, values in more if k == key]
            if not found:
                raise IllegalAction(f"there is no choice {rest[1]!r} now")
            values, rest = found[0], rest[2:]
            if values[0][0] != "on":  # a pick, asked even when there is only one
                if not rest:
                    label = next(lb for k, lb, _ in more if k == key)
                    return ChoiceAsk(f"{label}: which? どれ？", (
                        *(Option(f"v:{v}", text) for v, text, _ in values), BACK))
                value = option_value(rest[0], "v")
                chosen = [f for v, _, f in values if v == value]
                if not chosen:
                    raise IllegalAction(f"there is no choice {rest[0]!r} now")
                fields.update(chosen[0])
                rest = rest[1:]
            else:
                fields.update(values[0][2])
            picked.append(key)
        if not rest:
            said = describe(Attack(name, target, index, **fields))  # type: ignore[arg-type]
            tags = said[said.find(" [") + 1:] if " [" in said else ""
            more_open = bool([m for m in self._circumstances(actor, target, index, info, fields)
                              if m[0] not in picked])
            return ChoiceAsk(f"How does {target} defend? {target}の防御は？"
                             + (f" {tags}" if tags else ""),
                             self._defences(target, kind, more_open, made=lambda picked:
                                            self._defended(name, target, index, fields, picked)))
        return self._defended(name, target, index, fields, rest[0])

    def _defended(self, name: str, target: str, index: int, fields: dict[str, object],
                  picked: str) -> Attack:
        """The attack with the defence ``picked`` from the defence menu (``d:parry:1``)."""
        defence, extra = self._defence(picked)
        if defence is Defence.COUNTER:  # CO-MA-5: with the target's first technique
            techniques = [i for i, w in enumerate(self.fight.state.get(target).sheet.weapons)
                          if w.info.technique]
            extra["parry_weapon"] = techniques[0] if techniques else 0
        return Attack(name, target, index, defence=defence,
                      **extra, **fields)  # type: ignore[arg-type]

    def _circumstances(self, actor: Combatant, target: str, index: int,
                       info: WeaponInfo | None, fields: dict[str, object]
                       ) -> list[tuple[str, str, list[tuple[str, str, dict[str, object]]]]]:
        """What else an attack may say, each offered only with the values the engine takes
        (tried up to its first die): (key, label, [(value, label, the Attack's fields)]).

        Once a way of attacking is chosen, another the engine takes with it (an MA roll
        with a called shot, CO-MA-1 and CO-CALL-1, say); the distance (CO-RANGE-2's bands,
        a shotgun's printed ones CO-FIRE-9); off 003's board point blank (CO-FIRE-5 /
        CO-RANGE-3), from behind (CO-DODGE-3) and who stands behind the target (CO-MELEE-2);
        the dark (CO-SURP-3); a surprise after Hide, Conceal or Sneak (CO-SURP-1/2) and how
        well hidden (CO-SURP-3); the Keeper's disarm or gouging penalty (CO-DISARM-1,
        CO-BODY-3); a wound staunched at once (CO-BODY-6); what a fumble does (CO-MELEE-4)
        and whom a fumbled throw flies at (CO-THROW-2)."""
        name = actor.name
        state = self.fight.state
        t = state.get(target)

        def ok(**more: object) -> bool:
            return self.legal(Attack(name, target, index, **{**fields, **more}))  # type: ignore[arg-type]

        def offer(key: str, label: str, values: list[tuple[str, str, dict[str, object]]]
                  ) -> None:
            values = [v for v in values if ok(**v[2])]
            if values:
                out.append((key, label, values))

        out: list[tuple[str, str, list[tuple[str, str, dict[str, object]]]]] = []
        kind = info.kind if info is not None else WeaponKind.UNARMED
        melee = kind in (WeaponKind.MELEE, WeaponKind.UNARMED)
        board_on = self.rules.on("CO-TURN-2") and bool(actor.square and t.square)
        others = [c.name for c in state.combatants
                  if c.name not in (name, target) and not c.dead]
        if fields.keys() & HOW_FIELDS:  # a second way of attacking, where the engine takes both
            for key, label, how in HOW:
                if how and key not in SUB_MENU_HOWS and not how.keys() & fields.keys():
                    offer(f"with_{key}", f"With 併用: {label}", [("on", label, how)])
        if info is not None and not melee:
            offer("dist", "Distance 距離", [(str(m), text, {"distance_m": m})
                                            for m, text in self._distances(info)])
        if not board_on:
            if kind is WeaponKind.FIREARM:
                touch = ("Touch タッチ ×3 (CO-RANGE-3)" if self.rules.on("CO-RANGE-3")
                         else "Point blank 至近距離 +15% (CO-FIRE-5)")
                offer("touch", touch, [("on", touch, {"adjacent": True})])
            offer("behind", "From behind 背後から", [("on", "From behind 背後から",
                                                      {"from_behind": True})])
        offer("dark", "In the dark 暗闇 (½)", [("on", "In the dark 暗闇", {"dark": True})])
        offer("surprise", "Surprise 奇襲", [(k, f"{label} then attack", {"surprise": k})
                                            for k, label in SURPRISE.items()])
        if fields.get("surprise") and self.rules.on("CO-SURP-3"):
            offer("hidden", "How well hidden 隠れ具合 (Keeper)",
                  [(str(-n), f"{n}%", {"hidden": n}) for n in HIDDEN_PENALTIES])
        trained = any(actor.sheet.skills.get(k, 0) for k in ("budo", "martial_arts", "grapple"))
        penalties = (DISARM_PENALTIES if fields.get("disarm") and not trained  # CO-DISARM-1
                     else GOUGE_PENALTIES if fields.get("body") == "gouge" else ())
        if penalties:
            offer("penalty", "Keeper's penalty 補正 (Keeper)",
                  [(str(-n), f"{n}%", {"penalty": n}) for n in penalties])
        if fields.get("body") and self.rules.on("CO-BODY-6"):
            offer("staunch", "Staunched at once 即止血",
                  [("on", "Staunched at once 即止血", {"staunched": True})])
        if melee and self.rules.on("CO-MELEE-4"):
            ways: list[tuple[str, str, dict[str, object]]] = [
                ("fall", "falls 転倒", {"fumble": "fall"})]
            if kind is WeaponKind.MELEE:
                ways.append(("break", "the weapon breaks 武器破損", {"fumble": "break"}))
            offer("fumble", "If it fumbles ファンブル時", ways)
        if kind is WeaponKind.THROWN and self.rules.on("CO-THROW-2") and others:
            offer("stray", "A fumble flies at 逸れた先",
                  [(o, o, {"stray": o}) for o in others])
        if melee and not board_on and self.rules.on("CO-MELEE-2") and others:
            offer("knock", "Behind the target 背後に立つ者",
                  [(o, o, {"behind": o}) for o in others])
        return out

    def _distances(self, info: WeaponInfo) -> list[tuple[int, str]]:
        """The distances that matter to a ranged weapon: the end of each printed band
        (CO-FIRE-9) or each multiple of its base range (CO-RANGE-2)."""
        bands, _ = self.rules.bands(info)
        if bands and self.rules.on("CO-FIRE-9"):
            return [(b.up_to_m, f"up to {b.up_to_m} m: {b.damage}") for b in bands]
        if info.range_m and self.rules.on("CO-RANGE-2"):
            last = int(self.rules.num("CO-RANGE-2", "last_band"))
            if self.rules.default("CO-RANGE-2", "beyond_last_band"):
                last += 2
            return [(k * info.range_m, f"{k * info.range_m} m" + (f" (×1/{k})" if k > 1 else ""))
                    for k in range(1, last + 1)]
        return []

    def _weapon_label(self, c: Combatant, index: int) -> str:
        w = c.sheet.weapons[index]
        extra = f" {w.loaded}/{w.info.magazine}" if w.info.kind is WeaponKind.FIREARM else ""
        return f"{w.info.name}{extra}"

    def _defences(self, target: str, kind: WeaponKind, more: bool = False,
                  attack: bool = True, made: Callable[[str], Action] | None = None
                  ) -> tuple[Option, ...]:
        """The defences a target may declare (none, dodge, parry with a weapon, an MA counter
        CO-MA-5); against an ``attack`` also a dodge with CO-DODGE-6's assist or 004's second
        dodge by Luck (CO-DODGE-4) and a parry bare-handed, with MA or Budo (CO-PARRY-2);
        ``more``: the attack's circumstances are open (*More 状況*). ``made``: the action with
        a defence picked; each defence is offered only if the engine takes that action (it
        checks the declared defence before any die: the round's parries and dodges used up,
        an attack from behind, CO-DODGE-2/3/4, CO-BASE-7), so the player is never offered a
        parry it then refuses."""
        t = self.fight.state.get(target)
        p003 = self.rules.profile is Profile.P003
        options = [Option("d:none", "None なし", Button.ATTACK), Option("d:dodge", "Dodge 回避")]
        if attack and self.rules.on("CO-DODGE-6"):
            options += [Option(f"d:dodge:{k}", label) for k, label in DODGE_ASSIST.items()]
        if attack and not p003 and self.rules.on("CO-DODGE-4") and t.dodges >= int(
                self.rules.default("CO-DODGE-4", "dodges_per_round")):
            options.append(Option("d:dodge:luck", "Luck: dodge again 幸運で再回避 (Keeper)"))
        if attack and kind is WeaponKind.FIREARM and self.rules.on("CO-DODGE-7"):
            options += [Option(f"d:cover:{k}", label) for k, label in COVER.items()]
        if kind is not WeaponKind.FIREARM or p003:
            options += [Option(f"d:parry:{i}", f"{w.info.en} {w.info.ja} parry 受け流し")
                         for i, w in enumerate(t.sheet.weapons)
                         if not (w.broken or w.dropped) and w.info.kind is WeaponKind.MELEE]
            if attack and p003 and self.rules.on("CO-IAI-2") and not (t.drawn or t.iai_used):
                options += [Option(f"d:parry:iai{i}",
                                   f"Iai {w.info.en} {w.info.ja} parry 居合で受け流し")
                            for i, w in enumerate(t.sheet.weapons)
                            if w.info.iai and not (w.broken or w.dropped)]
            if attack and kind is not WeaponKind.FIREARM:
                skills = {"hands": kind is WeaponKind.UNARMED,
                          "ma": "martial_arts" in t.sheet.skills,
                          "budo": "budo" in t.sheet.skills}
                options += [Option(f"d:parry:{way}", label) for way, label in BARE_PARRY.items()
                            if skills[way] and (self.rules.on("CO-PARRY-2") or
                                                (p003 and way == "ma"))]
            if "martial_arts" in t.sheet.skills:
                options.append(Option("d:counter", "MA counter カウンター"))
        if made is not None:
            options = [o for o in options if o.choice == "d:none" or self._takes(made, o.choice)]
        if more:
            options.append(Option("m:more", "More 状況… (distance, surprise, dark…)"))
        return (*options, BACK)

    def _takes(self, made: Callable[[str], Action], picked: str) -> bool:
        """Would the engine take the action ``made`` with the option ``picked`` now?"""
        try:
            action = made(picked)
        except IllegalAction:
            return False
        return self.legal(action)

    def _defence(self, picked: str) -> tuple[Defence, dict[str, object]]:
        """``d:dodge``, ``d:dodge:navigate`` (CO-DODGE-6), ``d:dodge:luck`` (CO-DODGE-4),
        ``d:parry:2`` (weapon 2), ``d:parry:hands`` (CO-PARRY-2), ``d:counter`` (CO-MA-5),
        ``d:parry:iai0`` (003's Iai parry with weapon 0, CO-DODGE-2), ``d:cover:hide``
        (CO-DODGE-7)."""
        value = option_value(picked, "d")
        kind, _, extra = value.partition(":")
        if kind == "cover" and extra in COVER:  # CO-DODGE-7, instead of a dodge
            return Defence.NONE, {"cover": extra}
        if kind == "parry" and extra.startswith("iai") and extra[3:].isdigit():
            return Defence.PARRY, {"parry_with": "iai", "parry_weapon": int(extra[3:])}
        try:
            defence = Defence(kind)
        except ValueError:
            raise IllegalAction(f"there is no choice {picked!r} now") from None
        if defence is Defence.DODGE and extra in DODGE_ASSIST:
            return defence, {"dodge_assist": extra}
        if defence is Defence.DODGE and extra == "luck":
            return defence, {"luck_dodge": True}
        if defence is Defence.PARRY and extra in BARE_PARRY:
            return defence, {"parry_with": extra}
        if extra and not extra.isdigit():
            raise IllegalAction(f"there is no choice {picked!r} now")
        return defence, {"parry_weapon": int(extra or 0)}

    def _grapple(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """CO-GRAP-1 / CO-GRAP-6: whom, with MA (CO-MA-2) if that is open, the defence."""
        name, dodged = actor.name, self._dodged(actor)
        if not rest:
            return self._pick("Grapple whom? 組み付く相手は？", [
                t for t in self._others(actor)
                if self.legal(Grapple(name, t.name, after_dodge=dodged))])
        target = option_value(rest[0], "t")
        ma = self.legal(Grapple(name, target, ma=True, after_dodge=dodged))
        if ma and len(rest) < 2:
            return ChoiceAsk("How? 方法は？", (Option("h:plain", "Plain 通常"),
                                               Option("h:ma", "Martial arts マーシャルアーツ"),
                                               BACK))
        with_ma = ma and option_value(rest[1], "h") == "ma"
        rest = rest[2:] if ma else rest[1:]

        def made(picked: str) -> Grapple:
            defence, extra = self._defence(picked)
            if set(extra) != {"parry_weapon"}:
                raise IllegalAction(f"there is no choice {picked!r} now")
            return Grapple(name, target, defence, int(str(extra["parry_weapon"])), with_ma,
                           after_dodge=dodged)

        if not rest:
            return ChoiceAsk(f"How does {target} defend? {target}の防御は？",
                             self._defences(target, WeaponKind.MELEE, attack=False,
                                            made=made))
        return made(rest[0])

    def _treat(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """First Aid or Medicine (CO-SKILL-2/3 in 003; CO-BASE-8 in 004): whom, which skill."""
        name = actor.name
        skills = ("first_aid", "medicine")
        if not rest:
            return self._pick("Treat whom? 治療する相手は？", [
                c for c in self.fight.state.combatants
                if any(self.legal(Treat(name, c.name, s)) for s in skills)])
        target = option_value(rest[0], "t")
        usable = [s for s in skills if self.legal(Treat(name, target, s))]
        if len(usable) > 1 and len(rest) < 2:
            return ChoiceAsk("Which skill? 技能は？", (
                *(Option(f"s:{s}", self.rules.skill(s).name) for s in usable), BACK))
        skill = option_value(rest[1], "s") if len(usable) > 1 else usable[0]
        return Treat(name, target, skill)

    def _moves(self, actor: Combatant) -> list[Option]:
        """Where ``actor`` may move: on 003's board the free squares next to each other
        combatant and the 8 around it (CO-TURN-5); off it a number of squares."""
        name = actor.name
        if actor.square:
            mark = marks(self.fight.state)
            here = board.parse(actor.square)
            taken = {c.square for c in self.fight.state.combatants if c.square and not c.dead}
            wanted: dict[str, str] = {}
            for c in self._others(actor):
                if not c.square:
                    continue
                there = board.parse(c.square)
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        sq = (there[0] + dx, there[1] + dy)
                        if board.on_board(sq) and board.name(sq) not in taken:
                            # By the mark on the board: a name would be cut on a button.
                            wanted.setdefault(board.name(sq), f"next to {mark[c.name]} の隣")
            for facing, (dx, dy) in board.FACINGS.items():
                sq = (here[0] + dx, here[1] + dy)
                if board.on_board(sq) and board.name(sq) not in taken:
                    wanted.setdefault(board.name(sq), f"{facing} 1 square")
            return [Option(f"to:{sq}", f"{sq} {why}") for sq, why in wanted.items()
                    if self.legal(Move(name, to=sq))]
        most = actor.ap if self.rules.profile is Profile.P003 else 1
        return [Option(f"n:{n}", f"{n} square(s) {n}マス") for n in range(1, most + 1)
                if self.legal(Move(name, n))]

    def _move(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        if not rest:
            return ChoiceAsk("Move where? 移動先は？", (*self._moves(actor), BACK))
        if rest[0].startswith("to:"):
            return Move(actor.name, to=option_value(rest[0], "to"))
        return Move(actor.name, option_index(rest[0], "n"))

    def _tackle(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """CO-TACKLE-1/2/3: whom; damage, blow back (into a wall) or knock down; a tackle
        can only be dodged."""
        name, dodged = actor.name, self._dodged(actor)
        if not rest:
            return self._pick("Tackle whom? タックルする相手は？", [
                t for t in self._others(actor)
                if any(self.legal(Tackle(name, t.name, o, after_dodge=dodged))
                       for _, _, o, _ in TACKLES)])
        target = option_value(rest[0], "t")
        if len(rest) < 2:
            return ChoiceAsk("Tackle to do what? タックルの効果は？", (
                *(Option(f"o:{key}", label) for key, label, option, obstacle in TACKLES
                  if self.legal(Tackle(name, target, option, obstacle, after_dodge=dodged))),
                BACK))
        picked = option_value(rest[1], "o")
        found = [(o, ob) for key, _, o, ob in TACKLES if key == picked]
        if not found:
            raise IllegalAction(f"there is no choice {rest[1]!r} now")
        option, obstacle = found[0]
        if len(rest) < 3:
            dodge = self.legal(Tackle(name, target, option, obstacle, Defence.DODGE,
                                      after_dodge=dodged))
            return ChoiceAsk(f"How does {target} defend? {target}の防御は？", (
                Option("d:none", "None なし", Button.ATTACK),
                *([Option("d:dodge", "Dodge 回避")] if dodge else []), BACK))
        defence, _ = self._defence(rest[2])
        return Tackle(name, target, option, obstacle, defence, after_dodge=dodged)

    def _throw(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """CO-MA-2 (003) / CO-GRAP-8 (004): throw the one held, plainly or, when the engine
        takes it: on 003's board toward a compass point (whoever stands where it lands is
        landed on); off it at somebody (in 003 that one may dodge); in 004 from a height
        (CO-BASE-11's fall replaces the damage). Asked only when there is a choice."""
        name = actor.name
        ways: list[tuple[str, str, dict[str, object]]] = [("plain", "Plain 通常", {})]
        held = actor.grappling
        others = [c.name for c in self._others(actor) if c.name != held]
        p003 = self.rules.profile is Profile.P003
        on_board = self.rules.on("CO-TURN-2") and bool(
            actor.square and held and self.fight.state.get(held).square)
        if on_board:
            ways += [(f"to:{f}", f"Toward {f} {f}へ", {"toward": f}) for f in board.FACINGS]
        for o in others:
            if on_board and p003:  # whoever stands where it lands is landed on
                ways += [(f"to:{f}:{o}", f"Toward {f} onto {o}, who dodges {o}は回避",
                          {"toward": f, "at": o, "at_dodges": True}) for f in board.FACINGS]
            elif not on_board:
                ways.append((f"at:{o}", f"At {o} {o}へ投げつける", {"at": o}))
                if p003:
                    ways.append((f"dodge:{o}", f"At {o}, who dodges {o}へ(回避あり)",
                                 {"at": o, "at_dodges": True}))
        if not p003:
            ways += [(f"m:{m}", f"From {m} m {m}mの高さから", {"height_m": m})
                     for m in FALL_METRES if m >= 3]  # CO-BASE-11: under 3 m is 1D6 too
        ways = [w for w in ways if self.legal(ThrowDown(name, **w[2]))]  # type: ignore[arg-type]
        if not rest:
            if len(ways) == 1:
                return ThrowDown(name, **ways[0][2])  # type: ignore[arg-type]
            return ChoiceAsk(f"Throw {held} how? 投げ方は？", (
                *(Option(f"how:{key}", label, Button.ATTACK if key == "plain" else None)
                  for key, label, _ in ways), BACK))
        found = [f for key, _, f in ways if key == option_value(rest[0], "how")]
        if not found:
            raise IllegalAction(f"there is no choice {rest[0]!r} now")
        return ThrowDown(name, **found[0])  # type: ignore[arg-type]

    def _cast(self, actor: Combatant, rest: list[str]) -> ChoiceAsk | Action:
        """CO-SPELL-1: the MP it costs, then chanted, silent or going on by itself (a hit may
        interrupt a chant, CO-SPELL-2)."""
        name = actor.name
        if not rest:
            return ChoiceAsk(f"{name} casts for how many MP? 消費MPは？ (MP {actor.mp})", (
                *(Option(f"n:{n}", f"{n} MP") for n in SPELL_MP
                  if any(self.legal(Cast(name, SPELL, n, v, a)) for _, _, v, a in CASTS)),
                BACK))
        mp = option_index(rest[0], "n")
        if len(rest) < 2:
            return ChoiceAsk("How is it cast? 詠唱は？", (
                *(Option(f"k:{key}", label) for key, label, v, a in CASTS
                  if self.legal(Cast(name, SPELL, mp, v, a))), BACK))
        kind = option_value(rest[1], "k")
        found = [(v, a) for key, _, v, a in CASTS if key == kind]
        if not found:
            raise IllegalAction(f"there is no choice {rest[1]!r} now")
        return Cast(name, SPELL, mp, *found[0])

    def _keeper(self, rest: list[str]) -> ChoiceAsk | Action:
        """The Keeper: undo, close the table, place on 003's board (CO-TURN-2), a SAN loss
        (CO-BASE-13), dodge concentration before the round's first action (CO-DODGE-1/8), a
        first strike before it (CO-FIRE-7), fire (CO-BURN-1) and a fall (CO-BASE-11)."""
        state = self.fight.state
        people = [c for c in state.combatants if not c.dead]
        if not rest:
            options = [Option("undo", "Undo 取り消し"), Option("close", "Close table 閉じる")]
            if state.current is not None:
                if self.rules.on("CO-TURN-2"):
                    options.append(Option("place", "Place on board 配置"))
                options.append(Option("san", "SAN loss 正気度喪失"))
                if any(self.legal(Concentrate(c.name)) for c in people):
                    options.append(Option("conc", "Dodge focus 回避専念"))
                if self._first_strikers(people):
                    options.append(Option("first", "First strike 先制射撃"))
                if any(self.legal(Burn(c.name, 0)) for c in people):
                    options.append(Option("burn", "Fire damage 火傷"))
                if any(self.legal(Fall(c.name, 3)) for c in people):
                    options.append(Option("fall", "Fall 落下"))
            return ChoiceAsk("Keeper: which step? 進行", (*options, BACK))
        step, rest = rest[0], rest[1:]
        if step in ("undo", "close"):
            raise IllegalAction(f"there is no choice {step!r} now")
        if step == "conc":
            if not rest:
                return self._pick("Who concentrates on dodging? 回避に専念するのは？",
                                  [c for c in people if self.legal(Concentrate(c.name))])
            return Concentrate(option_value(rest[0], "t"))
        if step == "first":
            if not rest:
                return self._pick("Who shoots first? 先制射撃するのは？",
                                  self._first_strikers(people))
            return self._attack(state.get(option_value(rest[0], "t")), rest[1:], first=True)
        if step in ("burn", "fall") and not rest:
            made: Callable[[str], Action] = ((lambda n: Burn(n, 0)) if step == "burn"
                                             else (lambda n: Fall(n, 3)))
            return self._pick("Who is burned? 火傷を負うのは？" if step == "burn"
                              else "Who falls? 落下するのは？",
                              [c for c in people if self.legal(made(c.name))])
        if step == "burn":
            who = option_value(rest[0], "t")
            if len(rest) < 2:
                return ChoiceAsk(f"{who}: how much fire damage? 火のダメージは？", (
                    *(Option(f"n:{n}", str(n)) for n in BURN_DAMAGE), BACK))
            incident = "fire"
            fires = [name for name, _ in state.get(who).burns]
            if fires:  # CO-BURN-1 totals the damage per incident: the same fire or a new one
                new = f"fire {len(fires) + 1}"
                if len(rest) < 3:
                    return ChoiceAsk(f"{who}: the same fire? 同じ火か？", (
                        *(Option(f"i:{f}", f"Same fire 同じ火: {f} ({total})")
                          for f, total in state.get(who).burns),
                        Option(f"i:{new}", f"A new fire 新しい火: {new}"), BACK))
                incident = option_value(rest[2], "i")
                if incident not in (*fires, new):
                    raise IllegalAction(f"there is no choice {rest[2]!r} now")
                rest = [*rest[:2], *rest[3:]]
            if len(rest) < 3:
                return ChoiceAsk(f"{who}: if it scars, lose APP or CON? 失うのは？", (
                    Option("l:APP", "APP 外見"), Option("l:CON", "CON 体力"), BACK))
            return Burn(who, option_index(rest[1], "n"), incident,
                        lose=option_value(rest[2], "l"))
        if step == "fall":
            who = option_value(rest[0], "t")
            if len(rest) < 2:
                return ChoiceAsk(f"{who} falls how far? 落下の高さは？", (
                    *(Option(f"m:{n}", f"{n} m") for n in FALL_METRES), BACK))
            return Fall(who, option_index(rest[1], "m"))
        if not rest:
            prompt = "Whom? 誰を？" if step == "place" else "Who loses SAN? 正気度を失うのは？"
            return self._pick(prompt, people)
        who = option_value(rest[0], "t")
        if step == "san":
            if len(rest) < 2:
                return ChoiceAsk(f"{who} loses how much SAN? 喪失量は？", (
                    *(Option(f"n:{n}", str(n)) for n in SAN_AMOUNTS), BACK))
            return SanLoss(who, option_index(rest[1], "n"))
        if step != "place":
            raise IllegalAction(f"there is no choice {step!r} now")
        if len(rest) < 2:
            return ChoiceAsk(f"{who}: which file? 列は？ (a–h)",
                             (*(Option(f"f:{f}", f) for f in "abcdefgh"), BACK))
        if len(rest) < 3:
            return ChoiceAsk(f"{who}: which rank? 行は？ (1–8)",
                             (*(Option(f"r:{r}", str(r)) for r in range(1, 9)), BACK))
        square = option_value(rest[1], "f") + option_value(rest[2], "r")
        if len(rest) < 4:
            return ChoiceAsk(f"{who} on {square}: facing? 向きは？",
                             (*(Option(f"face:{f}", f) for f in board.FACINGS), BACK))
        return Place(who, square, option_value(rest[3], "face"))

    def _first_strikers(self, people: Sequence[Combatant]) -> list[Combatant]:
        """Who may shoot before the round's first action (CO-FIRE-7)."""
        if not self.rules.on("CO-FIRE-7"):
            return []
        return [c for c in people if any(
            self.legal(Attack(c.name, t.name, i, first_strike=True))
            for t in self._others(c) for i in range(len(c.sheet.weapons)))]

    # -- the screen -------------------------------------------------------------------------

    def _outcome(self) -> str:
        side = self.fight.state.outcome()
        return OUTCOMES[side] if side is not None else ""

    def fight_view(self, faces: tuple[int, ...] = ()) -> FightView:
        state = self.fight.state
        current = state.current
        p003 = self.rules.profile is Profile.P003
        mark = marks(state)
        rows = []
        for c in state.combatants:
            acting = current is not None and c.name == current.name
            badges: list[str] = []
            if p003 and acting:
                badges.append(f"AP {c.ap}")
            if c.square:
                badges.append(f"{c.square} {c.facing}")
            if c.dead:
                badges.append("DEAD 死亡")
            badges += [t.condition.value for t in c.conditions
                       if not c.dead and (t.until == 0 or state.round <= t.until)]
            if c.dying_until and not c.dead:
                badges.append(f"dies end of R{c.dying_until}")
            if c.held_by:
                badges.append(f"held by {c.held_by} 組み付かれ")
            if c.grappling:
                badges.append(f"holds {c.grappling} 組み付き")
            if c.stun:
                badges.append(f"stun 朦朧 {c.stun}")
            badges += [f"bleeding 出血 {b}" for b in c.bleeding]
            badges += [f"lost 欠損 {part}" for part in c.lost]
            badges += [f"{w.info.name} " + ("broken 破損" if w.broken else "jammed 弾詰まり"
                                            if w.jammed else "dropped 落とした")
                       for w in c.sheet.weapons if w.broken or w.jammed or w.dropped]
            if c.chanting:
                badges.append(f"chanting 詠唱 {c.chanting}")
            # One on the board has its mark before its name, to find its disc by.
            shown = f"{mark[c.name]} {c.name}" if c.square else c.name
            en = english(state, c)
            rows.append(FighterView(
                Name(shown, shown if en == c.name else en), SIDES[c.side], c.hp,
                c.sheet.max_hp, c.mp,
                c.sheet.stat("POW"), tuple(badges), acting=acting,
                ally=c.side is Side.INVESTIGATORS, down=c.out, san=c.san))
        journal = self.fight.journal
        last = journal[-1] if journal else None
        log = tuple(self.with_english(f"{describe(e.action, state)} ＞ {summary(e)}")
                    for e in journal[-8:])
        result = tuple(DiceStep(step.rule, self.with_english(step.text))
                       for step in steps(last if last else self.fight.opening))
        return FightView(
            title=self._title(), round=state.round,
            turn=self.with_english(current.name) if current else "",
            fighters=tuple(rows), result=result,
            result_title=self.describe(last.action) if last else "", log=log, faces=faces,
            source=self.source_name, outcome=self._outcome(), board=self._board())

    def _board(self) -> BoardView | None:
        """Profile 003's 8×8 board (CO-TURN-2) once somebody stands on it: each combatant
        placed, with its mark (:func:`marks`, shown before its name in the list too), facing
        its compass point; one down is grey, one dead also without a facing."""
        if not self.rules.on("CO-TURN-2"):
            return None
        state = self.fight.state
        placed = [c for c in state.combatants if c.square]
        if not placed:
            return None
        mark = marks(state)
        current = state.current
        pieces = []
        for c in placed:
            col, row = board.parse(c.square)
            pieces.append(PieceView(col, row, mark[c.name],
                                    (0, 0) if c.dead else board.FACINGS[c.facing],
                                    ally=c.side is Side.INVESTIGATORS,
                                    acting=current is not None and c.name == current.name,
                                    down=c.out))
        return BoardView(board.SIZE, board.SIZE, tuple(pieces), "Board 盤面 · N↑ 北")

    def _title(self) -> str:
        foes = ", ".join(s.name for s, side in self.fight.entrants if side is Side.FOES)
        return self.with_english(f"vs {foes} · profile {self.rules.profile.value}")

    def closing(self) -> str:
        return f"The fight is closed 戦闘終了: {self._outcome() or 'saved'}"


# --- dice at the table -------------------------------------------------------------------------


class CocTableRolls:
    """``--dice camera`` at a coc table: the d6-based dice from the camera (a D3 or D2 is a D6
    halved, rounded up: 1-2 → 1, 3-4 → 2, 5-6 → 3 for a D3); every other die (a d100, a
    burst's d20, a D4 or D10 of damage) the camera cannot read: typed on a keypad menu by the
    player (``d100="typed"``), or thrown by the companion from ``sim``. The screen says which.
    """

    def __init__(self, camera: RollFeed, controls: Controls, poll_seconds: float,
                 sim: DiceSource | None = None, sleep: Callable[[float], None] = time.sleep
                 ) -> None:
        self.camera = camera
        self.controls = controls
        self.poll_seconds = poll_seconds
        self.sim = sim
        self.sleep = sleep

    def next_throw(self, ask: RollAsk, show: Show) -> Throw:
        if ask.sides in CAMERA_SIDES:
            note = "" if ask.sides == 6 else f" (1D{ask.sides} = 1D6 halved 1D6で代用)"
            throw = self.camera.next_throw(RollAsk(ask.prompt + note, ask.count, 6), show)
            if not throw.values:
                return throw
            return Throw(tuple(-(-face * ask.sides // 6) for face in throw.values))
        if self.sim is not None:
            show(f"{ask.count}D{ask.sides}: thrown by the companion 仮想ダイス", options=(),
                 status="the camera reads d6 only カメラはd6のみ: d100 simulated")
            return Throw(tuple(self.sim.roll(ask.count, ask.sides)))
        values = []
        for n in range(ask.count):
            value = self.typed(ask, n, show)
            if value is None:
                return Throw(back=True)
            values.append(value)
        return Throw(tuple(values))

    def typed(self, ask: RollAsk, n: int, show: Show) -> int | None:
        """One die keyed in: its face (up to 10 sides), or its tens then its units (a d100's
        00 is 100, a 0 on a d10 or d20 is 10 or 20); None: the player went back."""
        # What the die is for comes first after the digit asked for (the screen's prompt is
        # one line over the keypad; the status says why the die is typed).
        which = f" die {n + 1}/{ask.count}" if ask.count > 1 else ""
        head = f"Type the 1D{ask.sides}{which}"
        status = "the camera reads d6 only カメラはd6のみ: type the die"
        status_show = _with_status(show, status)
        if ask.sides <= 10:
            faces = [*range(1, ask.sides + 1)]
            options = (*(Option(f"{v}", str(v)) for v in faces), BACK)
            picked = choose(self.controls, status_show, f"{head} 出目を入力: {ask.prompt}",
                            options, 0, self.poll_seconds, self.sleep)
            return None if picked == len(faces) else faces[picked]
        while True:
            digits = [*range(1, 10), 0]
            tens = [d for d in digits if d * 10 <= ask.sides]
            options = (*(Option(f"{d}", f"{d}_ (×10)") for d in tens), BACK)
            picked = choose(self.controls, status_show, f"{head} tens 十の位: {ask.prompt}",
                            options, 0, self.poll_seconds, self.sleep)
            if picked == len(tens):
                return None
            ten = tens[picked]
            options = (*(Option(f"{d}", f"{ten}{d}") for d in digits), BACK)
            picked = choose(self.controls, status_show, f"{head} units 一の位: {ask.prompt}",
                            options, 0, self.poll_seconds, self.sleep)
            if picked == len(digits):
                continue
            value = ten * 10 + digits[picked]
            value = ask.sides if value == 0 else value
            if 1 <= value <= ask.sides:
                return value
            status_show = _with_status(show, f"{value} is not on a 1D{ask.sides}: type again")


def _with_status(show: Show, status: str) -> Show:
    def shown(prompt: str, **kwargs: object) -> None:
        show(prompt, **{**kwargs, "status": kwargs.get("status") or status})
    return shown


# --- the table -------------------------------------------------------------------------------


def coc_table(rules: CocRules | None = None) -> Table:
    """coc fights at the table: the fight file as `companion coc fight` writes it, replayed
    under the settings it keeps."""
    base = rules or load_rules()
    return Table(PRESET, "companion coc fight", START_HINT,
                 lambda data: Fight.from_json(base, data), CocFightMode)


def table_session(fight_path: Path, state_path: Path, *, resume: bool, seed: int | None,
                  choices: ChoiceFeed, rolls: RollFeed | None = None,
                  display: Display | None = None, source_name: str = "camera カメラ",
                  tell: Callable[[str], object] = lambda message: None,
                  camera: RollFeed | None = None, controls: Controls | None = None,
                  d100: str = "typed", poll_seconds: float = 0.05,
                  sleep: Callable[[float], None] = time.sleep) -> Session:
    """The play session of a coc fight at the table, ready to run (see
    :func:`~companion.app.modes.fight.open_table`).

    ``camera`` (with ``controls``): ``--dice camera``; the d6-based dice come from it and the
    others are typed (``d100="typed"``) or the companion's (``"sim"``, from the save's seed,
    resumed with the dice an uninterrupted fight would have had).
    """
    if camera is not None:
        assert controls is not None
        cam, keys = camera, controls

        def feed(source: DiceSource) -> RollFeed:
            return CocTableRolls(cam, keys, poll_seconds, source if d100 == "sim" else None,
                                 sleep)

        return open_table(coc_table(), fight_path, state_path, resume=resume, seed=seed,
                          choices=choices, display=display, source_name=source_name,
                          tell=tell, sim_rolls=feed,
                          simulated=lambda sides: d100 == "sim" and sides not in CAMERA_SIDES)
    return open_table(coc_table(), fight_path, state_path, resume=resume, seed=seed,
                      choices=choices, rolls=rolls, display=display, source_name=source_name,
                      tell=tell)
