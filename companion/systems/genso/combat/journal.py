"""The journal of a `genso` fight: each action's entry with the dice it used and the
report lines it gave, the engine revision that played it (:data:`ENGINE`), and the dice
source that records the dice.

Every report line names the rule it follows; this module applies none itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.dice import DiceSource, Result
from companion.dice.result import DieRoll
from companion.systems.genso.combat.actions import Action, action_to_json

#: The engine revision that plays new actions; entries of older ones replay as they were
#: played. Revision 1 ended the turn on a combat move, cast a spell named without a target
#: on its caster, let one target be named twice and used a Healing Stone up on the dead.
#: Revision 2's Dispel on a being could cancel the Exorcism on its weapon (the oldest of
#: the being's and its weapons' spells together) and took no weapon of its own.
#: Revision 3 checked a Ghost's foe with its Body (GM-MON-3 ``living_side_uses_magic``
#: off, whatever the setting), and its Fire and Lightning harmed the immune whatever
#: GM-MON-2 ``attack_spells_harm_immune``. Revision 4 ended the fight when the party was
#: down (全滅: none of it could act, none had fled) or some had fled and the rest were
#: down, whatever GM-COMBAT-1 ``party_down_ends_fight``, and tagged an attack that needed
#: no defence check GM-COMBAT-5 whatever the rule (GM-COMBAT-8's incapacitated,
#: GM-MOVE-1's full move). Revision 5 rolled the 2D of a check called at the table (GM →
#: Check, :mod:`companion.systems.genso.checks`) that could not succeed (P = 0/36), which
#: revision 6 does not roll (:data:`~companion.systems.genso.checks.NOT_ROLLED_SINCE`).
#: Revision 6 gave a sunset with nobody to rise no line, GM-COMBAT-4's rolls without their
#: terms and a drain's "HP −0" (genso67 NITs 2 to 4), which revision 7 says
#: (:data:`LINES_SAID_SINCE`): an older entry replays with the lines it was played with.
#: Revision 7 used an Enchant Stone up on a foe not immune to normal attacks ("no effect")
#: and rolled the to-hit dice of a normal weapon against the immune before saying it did
#: nothing (genso72 RISK 3, NIT 4), which revision 8 does not (:data:`NOTHING_SPENT_SINCE`);
#: nor did it say a heal on one at full HP healed nothing (genso72 NIT 8), as revision 8 does.
#: Nor did a Default changed mid-fight change what a sheet's gear gave its fighter, counted
#: as the fight began (:data:`RECOUNTED_SINCE`).
#: Revision 8 spent Exorcism's MP and the turn on a being not undead, or a corpse with no
#: rising to stop, for "no effect" (genso74 RISK 4), which revision 9 refuses before paying
#: (:data:`EXORCISM_AIMED_SINCE`); and said "MP −0" of a cast a ring or stone paid in full
#: (genso74 NIT 8), which revision 9 leaves out.
#: Revision 9 put Exorcism on a weapon by its kind, so of two clubs the one not enchanted
#: harmed a Wight too, and a Dispel on either cancelled it (a78gensofight item 2), which
#: revision 10 does not (:data:`WEAPON_NUMBERED_SINCE`); and its Wraith's foes rolled Body
#: though the Wraith checks with Magic (GM-MON-3), which revision 10 reads as the Ghost's
#: (:data:`BLANK_BODY_FOES_SINCE`).
ENGINE = 10
#: The revision from which a sunset always says what it did, GM-COMBAT-4's rolls show their
#: terms and a drain names only what the monster drains (genso67).
LINES_SAID_SINCE = 7
#: The revision from which an Enchant Stone (GM-ITEM-2) is refused on a target not immune to
#: normal attacks, as on the dead, a normal weapon against the immune (GM-MON-2) does
#: nothing without a roll to hit, and a heal on one at full HP says it healed nothing
#: (genso72).
NOTHING_SPENT_SINCE = 8
#: The revision from which a Default an action changes (``--set``) counts a sheet's gear
#: again from that action on: GM-ITEM-3 ``rings_of_a_kind_add`` (a second Ring of Striking
#: or Protection) and ``protection_ring_adds_to``, or GM-EQUIP-2's shield, gave its
#: fighter what they did as the fight began, whatever the action's line said (fixg72c).
RECOUNTED_SINCE = 8
#: The revision from which Exorcism (GM-MAGIC-3) on a being is refused, no MP paid, unless
#: it harms it (an undead) or stops its rising (a Wight's or Wraith's victim, GM-MON-5), as
#: the Enchant Stone is (genso74 RISK 4).
EXORCISM_AIMED_SINCE = 9
#: The revision from which Exorcism on a weapon (GM-MAGIC-3 「武器に付与」) is on that weapon,
#: its number, not on every weapon of its kind the being carries; GM-MON-2 and a Dispel on
#: weapon N (GM-MAGIC-4) ask by number (a78gensofight item 2).
WEAPON_NUMBERED_SINCE = 10
#: The revision from which GM-MON-3's ``living_side_uses_magic`` (the foe of a monster that
#: checks with Magic rolls its Magic too) covers every monster that checks with Magic,
#: the Wraith by ``blank_body_uses_magic`` as the Ghost by its block, not the Ghost alone
#: (a78gensofight item 3).
BLANK_BODY_FOES_SINCE = 10


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
