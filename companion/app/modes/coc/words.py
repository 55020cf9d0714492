"""What a coc fight's screen says: the tables and words of its menus (the sides, the ways of
attacking, body parts, tackles, casts, surprise, bare-handed and Grapple parries, dodge
assists, cover, the Keeper's amounts and penalties) and how actions and journal entries are
worded: :func:`describe` (an action in a line, with its declared defence), :func:`english`
(a name a screen without a Japanese font can draw), :func:`marks` (the marks on 003's
board), :func:`steps` (an entry's lines, each with its rule ID) and :func:`summary`.

Rules: CO-BODY-2/3/4/5, CO-TACKLE-1/2/3, CO-SPELL-1, CO-SURP-1/3, CO-PARRY-2, CO-GRAP-5,
CO-DODGE-2/3/5, CO-DODGE-6/7, CO-IAI-2, CO-DISARM-1, CO-CORE-1 (a d100 check's line).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from companion.errors import IllegalAction
from companion.hw.display.view import DiceStep, Name
from companion.systems.coc.combat import (
    Action,
    Attack,
    Burn,
    Cast,
    Choke,
    Combatant,
    Defence,
    Entry,
    Face,
    Fall,
    FightState,
    Grapple,
    Place,
    SanLoss,
    Side,
    Tackle,
    action_to_json,
)
from companion.systems.coc.combat import Throw as ThrowDown
from companion.systems.coc.combat.fight import line_rules
from companion.systems.coc.combat.grapples import option_ja
from companion.systems.coc.rules import Profile

TITLE = "クトゥルフ神話TRPG Fight 戦闘"
SIDES = {Side.INVESTIGATORS: Name("探索者", "investigators"), Side.FOES: Name("敵", "foes")}
#: A combatant of the side, in a name made for one whose sheet names it in Japanese only.
ONE_OF = {Side.INVESTIGATORS: "investigator", Side.FOES: "foe"}
OUTCOMES = {Side.INVESTIGATORS: "探索者の勝利 the investigators stand",
            Side.FOES: "敵の勝利 the foes stand"}
#: Both sides down at once: no side stands.
NOBODY_STANDS = "全員が倒れた nobody stands"
#: Ended by the Keeper (`companion coc fight end`, EndFight), no side standing alone.
ENDED = "終了 the Keeper ended the fight"
#: The How? menu's labels of ``h:borrow`` (CO-IAI-1): an ally's blade, one's own blade an ally
#: drew (its ``lent_from``, engine revision 20), or both among those offered.
BORROW = "Iai with an ally's blade 味方の刀で居合"
BORROW_OWN = "Draw back your blade 自分の刀を取り戻す"
BORROW_EITHER = "Iai with an ally's blade or draw back your own 味方の刀で居合・自分の刀を取り戻す"
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
    ("knockout", "Knock out ノックアウト", {"knockout": True}),  # CO-BASE-10, 004 l.26
    ("iai", "Iai 居合", {"iai": True}),
    ("pommel", "Iai pommel strike 居合 柄打ち", {"iai": True, "pommel": True}),
    ("borrow", BORROW, {"iai": True}),  # BORROW_OWN for one's own (the Attack menu)
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
#: CO-BODY-2/3/4: how a body part is lost, in 004's words (切断、抉り取り、吹き飛び, l.79).
BODY = {"cut": "Cut off 切断", "gouge": "Gouge 抉り取り", "blow_off": "Blow off 吹き飛ばす"}
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
#: CO-PARRY-2 (and 003's MA parry, CO-DODGE-2): parrying without a weapon; CO-GRAP-5: with
#: Grapple, two successes against a melee blow. Each label (as every defence's) starts with
#: what tells it from the others: a fight's menu cuts a label.
BARE_PARRY = {"hands": "Bare-handed parry 素手で受け流し",
              "ma": "MA parry マーシャルアーツで受け流し",
              "budo": "Budo parry 武道で受け流し",
              "grapple": "Grapple parry ×2 組み付きで受け流し(2回成功)"}
#: The same, in a line saying what was declared: ``parry bare-handed 素手``.
PARRY_WAYS = {"hands": "bare-handed 素手", "ma": "MA マーシャルアーツ", "budo": "Budo 武道",
              "grapple": "Grapple 組み付き ×2"}
#: CO-DODGE-6: a dodge helped by a Navigate or Jump roll.
DODGE_ASSIST = {"navigate": "Navigate+dodge ナビゲート+回避", "jump": "Jump+dodge 跳躍+回避"}
#: CO-DODGE-7: cover from every bullet, by Hide or by Dodge at −50%.
COVER = {"hide": "Hide in cover 物陰に隠れる", "dodge": "Dodge −50% to cover 回避−50%で物陰へ"}
SPELL = "呪文 spell"
SPELL_MP = (0, 1, 2, 3, 4, 5, 6, 8, 10, 15, 20)
#: The Keeper's amounts offered one press each; any other is typed (:mod:`.amounts`). A SAN
#: loss of 1D10, the commonest die of one, is each of its faces.
SAN_AMOUNTS = tuple(range(1, 11))
BURN_DAMAGE = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15)
FALL_METRES = (1, 2, 3, 4, 6, 9, 12, 15)  # CO-BASE-11's 1D6 to 5D6
#: The most the Keeper types for a SAN loss, fire damage or a fall: a keypad of tens and
#: units. No rule bounds them; a fall of 99 m is 33D6, a loss of 99 SAN all of anyone's.
MOST_TYPED = 99
HIDDEN_PENALTIES = (-10, -20, -30, -40, -50)   # CO-SURP-3: the Keeper's, by how well hidden
DISARM_PENALTIES = (-20, -30, -40, -50, -60)   # CO-DISARM-1: the Keeper's pick
GOUGE_PENALTIES = (-60, -70, -80)              # CO-BODY-3: the Keeper's pick


AFTER_DODGE = "after dodging 回避後 −50%"  # CO-DODGE-5
FROM_BEHIND = "from behind 背後"  # CO-DODGE-3


def choke_ja(profile: Profile) -> str:
    """The choke's Japanese in ``profile``'s seed, from the engine's table as its refusals
    and rolls say it (``option_ja``): 003's 締め上げ (l.43, CO-MA-2), 004's 締め付け (l.165,
    CO-GRAP-7). A 003 table's button read 004's word (r77data NIT on 1e5124b4)."""
    return option_ja("choke", profile is Profile.P003)


def describe(action: Action, state: FightState | None = None,
             before: FightState | None = None, profile: Profile = Profile.P004) -> str:
    """An action in a line, for the log and the result's title; with the fight's ``state``
    a parry names the weapon it parries with; with ``before``, the state the action was
    played from, a choke or throw names the one held (:func:`_held`); a choke is named in
    the fight's ``profile``'s word (:func:`choke_ja`)."""
    data = action_to_json(action)
    target = data.get("target") or data.get("at") or ""
    held = _held(action, before)
    at = data.get("at") or ""
    if held is not None:  # the one held (a throw's, at someone or not), or CO-GRAP-8 reading b's
        target = held or at  # holding nobody, the one thrown is the one ``at``
    elif isinstance(action, ThrowDown):
        target = ""  # not known: the one ``at`` is said in its tag, not as the one thrown
    words = {"attack": "攻撃 attacks", "grapple": "組み付き grapples",
             "choke": f"{choke_ja(profile)} chokes", "throw": "投げ throws",
             "break_free": "振りほどく breaks free", "let_go": "手を放す lets go",
             "reload": "装填 reloads", "clear_jam": "弾詰まり解除 clears a jam",
             "treat": "治療 treats", "move": "移動 moves", "end_turn": "手番終了 ends the turn",
             "delay": "DEX/2 へ delays", "concentrate": "回避専念 concentrates on dodging",
             "place": "配置 is placed on", "san_loss": "正気度喪失 loses SAN",
             "sheathe": "納刀 sheathes", "pick_up": "拾う picks up", "cast": "呪文 casts",
             "tackle": "タックル tackles", "burn": "火傷 is burned", "fall": "落下 falls",
             "face": "向き turns", "jump": "跳び越え jumps over",
             "spot": "目星 spots", "end": "the Keeper ends the fight 戦闘終了"}
    # The Keeper's end is no combatant's: its actor is "".
    text = f"{action.actor} {words.get(action.kind, action.kind)}".lstrip()
    target = target or data.get("over") or ""
    if target:
        text += f" → {target}"
    if isinstance(action, Attack):
        tags = [tag for on, tag in (
            (action.first_strike, "first strike 先制"), (action.iai, "Iai 居合"),
            (action.pommel, "pommel 柄打ち"), (action.borrow, _borrowed(action, state)),
            (action.ma and not action.ma_option, "MA"),
            (action.ma_option, f"MA {action.ma_option}"), (action.burst, "burst 連射"),
            (action.shots > 1, f"{action.shots} shots"), (action.aim, "aim 狙い撃ち"),
            (action.called, f"called: {action.called}"), (action.knockout, "knockout ノックアウト"),
            (action.disarm, "disarm 武器落とし"), (action.after_dodge, AFTER_DODGE),
            (action.body, f"{action.body} {action.part}"),
            (action.surprise, f"surprise 奇襲 {action.surprise}"),
            (action.distance_m, f"{action.distance_m} m"),
            (action.hidden, f"hidden {action.hidden}%"),
            (action.adjacent, "point blank 至近"), (action.from_behind, FROM_BEHIND),
            (action.dark, "dark 暗闇"), (action.penalty, f"penalty {action.penalty}%"),
            (action.staunched, "staunched 止血"), (action.fumble, f"fumble: {action.fumble}"),
            (action.behind, f"{action.behind} behind"),
            (action.stray, f"stray → {action.stray}")) if on]
        text += "".join(f" [{tag}]" for tag in tags)
    if isinstance(action, (Grapple, Tackle)):
        text += "".join(f" [{tag}]" for on, tag in (
            (action.after_dodge, AFTER_DODGE), (action.from_behind, FROM_BEHIND)) if on)
    if isinstance(action, (Attack, Grapple, Tackle)) and action.defence is not Defence.NONE:
        text += f" ({_defence_text(action, state)})"
    if isinstance(action, Tackle) and action.option:
        # Named as the menu offered it (CO-TACKLE-2/3): the raw key read "[knock_down]" on
        # the Result title and in the log (screen72 NIT 4).
        text += " [" + next((label for _, label, option, obstacle in TACKLES
                             if (option, obstacle) == (action.option, action.obstacle)),
                            f"{action.option}{' obstacle' if action.obstacle else ''}") + "]"
    if isinstance(action, ThrowDown):
        text += "".join(f" [{tag}]" for on, tag in (
            (action.at and held != "",
             f"at {action.at}" + (" who dodges" if action.at_dodges else "")),
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
        # "Ann 配置 is placed on e2, facing N 向き": it read "Ann 配置 is placed e2 N"
        # (newuser61 N9).
        text += f" {action.square}, facing {action.facing} 向き"
    if isinstance(action, SanLoss):
        text += f" {action.amount}"
    return text


def _held(action: Action, before: FightState | None) -> str | None:
    """Whom a choke 締め付け or throw 投げ is of (grapple75 NIT 5: "Ann 投げ throws → Dan [at Dan]"
    named the one thrown at twice and never the one thrown): the one its actor held in
    ``before``, the state it was played from; "" holding nobody (CO-GRAP-8 reading b throws
    the one ``at``); None for another action or with no such state."""
    if before is None or not isinstance(action, (Choke, ThrowDown)):
        return None
    try:
        return before.get(action.actor).grappling
    except IllegalAction:
        return None


def _borrowed(action: Attack, state: FightState | None) -> str:
    """CO-IAI-1: the tag of an Iai with a blade drawn from an ally: ``Nok's blade``, or, when
    the fight's ``state`` shows the blade is the drawer's own that the ally drew from it
    (engine revision 20), ``own blade back from Nok`` (reviewcoc72 RISK 2: it read "Nok's
    blade" of Kat's own sword)."""
    try:
        w = (state.get(action.borrow).sheet.weapons[action.weapon]
             if state is not None else None)
    except (IllegalAction, IndexError):
        w = None
    if w is not None and w.lent_from == action.actor and not w.lent:
        return f"own blade back from {action.borrow} 自分の刀を取り戻す"
    return f"{action.borrow}'s blade"


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


def steps(lines: Sequence[str]) -> tuple[DiceStep, ...]:
    """An action's lines (an entry's, or those said before a throw awaited), each with its
    rule ID (:func:`~companion.systems.coc.combat.fight.line_rules`)."""
    return tuple(DiceStep(rule, line) for rule, line in line_rules(lines))


def summary(entry: Entry) -> str:
    """What an action came to, in a few words: its first check's verdict and, when its
    target rolled the defence declared against it (a dodge, a parry, a counter: CO-DODGE-2/4,
    CO-PARRY-1/4, CO-GRAP-5, CO-MA-5), that defence and its verdict after it; else its last
    line. The attack's "成功/success" alone read as a hit on a blow that was dodged."""
    checks = [line for line in entry.lines if "＞" in line and "1D100" in line.upper()]
    if not checks:
        lines = [line for line in entry.lines if not line.startswith("round ")]
        return lines[-1] if lines else "–"
    said = _verdict(checks[0])
    action = entry.action
    if not isinstance(action, (Attack, Grapple, Tackle)) or action.defence is Defence.NONE:
        return said
    # The target's checks right after the action's own: a Grapple parry rolls twice
    # (CO-GRAP-5), and its last roll decides; a second shot's check ends the run.
    run = list(itertools.takewhile(lambda line: line.startswith(f"{action.target} "),
                                   checks[1:]))
    if not run:
        return said
    defence = run[-1]
    how = defence[len(action.target) + 1:defence.upper().index("(1D100")].strip()
    return f"{said} · {how} {_verdict(defence)}"


def _verdict(line: str) -> str:
    """A check line's verdict, without the rule IDs and notes in brackets after it (the
    Result panel shows the rule beside the line)."""
    verdict = line.rpartition("＞")[2]
    return re.sub(r"\s*\([^()]*CO-[A-Z]+-\d+[^()]*\)", "", verdict).strip()
