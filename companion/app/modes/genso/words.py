"""What a genso fight's screen says: the tables and words of its menus (the sides, stances,
the spells of one target, the statuses out of the fight, the checks, traps and modifiers)
and how names and actions are worded: :func:`english` (a name a screen without a Japanese
font can draw), :func:`named` and :func:`target_label` (a name with its English after or
before it), :func:`describe` (an action or a check in a line) and :func:`summary` (what an
action came to).
"""

from __future__ import annotations

import re

from companion.app.modes.genso.checks import CheckCall
from companion.hw.display.view import Name
from companion.systems.genso.combat import (
    Action,
    Combatant,
    Entry,
    Fight,
    Outcome,
    Role,
    Side,
    Status,
)
from companion.systems.genso.rules import GensoRules
from companion.systems.genso.sheet import preset_names

TITLE = "幻想迷宮冒険譚 Fight 戦闘"

SIDES = {Side.PARTY: Name("味方", "party"), Side.ENEMY: Name("敵", "enemy")}
#: Spells whose effect takes one target (GM-MAGIC-2..11), and whom they go on.
ONE_TARGET = {"heal": "friend", "ward": "friend", "conceal": "friend", "dispel": "anyone",
              "lightning": "foe", "exorcise": "undead"}
DOWN = (Status.DEAD, Status.VANISHED, Status.FLED)
#: The checks of spec §2.3 the engine rolls (companion/systems/genso/checks.py).
CHECKS = {"simple": "簡易判定 simple check", "general": "一般判定 general check",
          "trap": "罠発見 trap detection", "enemy": "敵発見 enemy detection",
          "undead": "不死族感知 undead sensing", "opposed": "対抗判定 opposed check",
          "mark": "呪印呪の方向 Mark direction"}
TRAP_NAMES = {"cleverly_set": "巧妙な罠 cleverly set", "normally_set": "普通の罠 normally set",
              "hastily_set": "急ごしらえの罠 hastily set"}
MODIFIERS = (0, 1, 2, 3, -1, -2, -3)
#: GM-COMBAT-1 (Default ``party_down_ends_fight`` off): the party out with its fallen on the
#: field, as the table and `companion genso fight` say it while the fight goes on until the
#: GM ends it (:attr:`~companion.systems.genso.combat.FightState.party_down_going_on`).
PARTY_OUT = {Outcome.PARTY_DOWN: "全滅 party down",
             Outcome.PARTY_FLED_SOME_DOWN: "一部逃走 some fled, the rest down"}
#: Every foe left in the fight one the calendar records dead of a Death Curse (GM-MAGIC-13),
#: the fight going on until the GM ends it (GM-COMBAT-1,
#: :meth:`~companion.app.modes.genso.fight_view._FightView.foes_out`), as the table's action
#: menu and `companion genso fight` say it: one wording for both (fixgenso71f).
FOES_OUT = "敵全滅 foes down"
#: What a fighter the calendar records dead of a Death Curse (GM-MAGIC-13) is said to do, after
#: why (:meth:`~companion.app.modes.genso.fight_view._FightView.acts_no_more`).
ACTS_NO_MORE = "acts no more 死者は行動しない"


def english(rules: GensoRules, fight: Fight, c: Combatant) -> str:
    """A combatant's English name: the monster's with its number; a preset NPC's own
    (GM-DATA-1: Typical mage (male)); else PC or NPC. One shared by several has their
    number among them, so that a screen with no Japanese font still tells them apart."""
    entrant = next((e for e in fight.entrants if e.name == c.name), None)
    if entrant is not None and entrant.monster:
        monster = rules.monster(entrant.monster)
        number = re.search(r"(\d+)$", c.name)
        return monster.en + (f" {number.group(1)}" if number else "")
    own = _unnumbered(rules, fight, c)
    same = [o.name for o in fight.state.combatants if _unnumbered(rules, fight, o) == own]
    return f"{own} {same.index(c.name) + 1}" if len(same) > 1 else own


def english_names(rules: GensoRules, fight: Fight) -> dict[str, str]:
    """Each combatant's name → its English (:func:`english`): what the table's screen and
    the command line (`companion genso fight …`) put beside it, one for both."""
    return {c.name: english(rules, fight, c) for c in fight.state.combatants}


def _unnumbered(rules: GensoRules, fight: Fight, c: Combatant) -> str:
    """A character's English before any number: a preset NPC's name (its sheet keeps the
    preset's Japanese name); else its role. An NPC is told apart by what it is ("NPC 2" left
    the mage and the priest alike in English); a PC is a player's own, known by number."""
    role = c.role.value.upper().replace("_AS_MONSTER", " (as monster)")
    if c.role is Role.PC:
        return role
    entrant = next((e for e in fight.entrants if e.name == c.name), None)
    name = entrant.sheet.get("name") if entrant is not None else None
    own = next((p.get("name_en") for p in rules.presets.values()
                if p.get("kind") == "npc" and name in preset_names(p)), None)
    return own if isinstance(own, str) and own else role


def named(rules: GensoRules, fight: Fight, c: Combatant) -> str:
    """A combatant's name and, after it, its English one (オーク1 Orc 1, 駆け出し冒険者１ PC 1,
    騎士（男性） Knight (male))."""
    return f"{c.name} {english(rules, fight, c)}"


def target_label(rules: GensoRules, fight: Fight, c: Combatant) -> str:
    """A target's button: its English first (Giant Ant 2 ジャイアント・アント2), as a button
    cut short keeps what tells the targets apart: Japanese names of one kind of monster
    differ only at their ends."""
    return f"{english(rules, fight, c)} {c.name}"


def describe(fight: Fight, action: Action | CheckCall) -> str:
    """An action in a line, for the log and the result's title (a move with its mover's
    metres, :meth:`Fight.describe`)."""
    if isinstance(action, CheckCall):
        who = f"{action.who} " if action.who else ""
        vs = f" vs {action.vs}" if action.vs else ""
        return f"{who}判定 check: {CHECKS.get(action.kind, action.kind)}{vs}"
    return fight.describe(action)


def summary(entry: Entry) -> str:
    """What an action came to, in a few words: the pools it left, or the last line's own
    verdict. That verdict is the line's, not its roll's: a monster's attack the PC defended
    (GM-COMBAT-3) ends ``＞ 成功/success ＞ 防御成功/defended``, and the roll's "success" is
    the defence's, which after "オーク → 駆け出し冒険者１ attack" read as a hit."""
    lines = [line for line in entry.lines if not line.text.startswith("round ")]
    if not lines:
        return "–"
    last = lines[-1]
    if last.rule == "GM-COMBAT-8" or last.result is None:
        return last.text
    return last.text.rpartition("＞")[2].strip()
