"""GM-MON-3's Default "any monster with a blank Body uses Magic (this covers the Wraith)" and
the setting ``living_side_uses_magic`` (the seed's reading: the checks against a monster that
checks with Magic are its foe's rolls, with the foe's Magic) together: from engine revision
10 the Wraith's foe rolls Magic as the Ghost's does (a78gensofight item 3). Revision 9 applied
the setting to the Ghost alone, so the same priest defended with Magic 6 against the Ghost
and with Body 4 against the Wraith; its entries replay as played."""

from __future__ import annotations

import json

from companion.dice import ScriptedDice
from companion.systems.genso.combat import Attack, Fight, Wait, entrants_for
from companion.systems.genso.combat.journal import ENGINE
from companion.systems.genso.rules import GensoRules, load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
PRIEST, WRAITH = "一般的な神官（女性）", "レイス"


def _wraith_attacks(engine: int, rules: GensoRules = RULES) -> Fight:
    """The priest waits; the Wraith attacks her, her defence roll [3, 3]."""
    fight = Fight(rules, entrants_for(rules, [preset(rules, "priest_f")], [("wraith", 1)]))
    fight.push(Wait(PRIEST), ScriptedDice([]), engine=engine)
    fight.push(Attack(WRAITH, PRIEST), ScriptedDice([(6, 3), (6, 3)]), engine=engine)
    return fight


def test_the_wraiths_foe_defends_with_magic_as_the_ghosts_does() -> None:
    """The priest (Body 4, Magic 6) defends against the Wraith with Magic 6, as against the
    Ghost; with ``living_side_uses_magic`` off, with Body, against both alike."""
    line = _wraith_attacks(ENGINE).journal[-1].lines[0].text
    assert line.startswith(f"{PRIEST} defends: 魔力/Magic 6 vs レイス 魔力/Magic 6"), line
    assert "(2D6+6>=13)" in line
    off = RULES.with_overrides({"GM-MON-3": {"living_side_uses_magic": False}})
    line = _wraith_attacks(ENGINE, off).journal[-1].lines[0].text
    assert line.startswith(f"{PRIEST} defends: 体力/Body 4 vs レイス 魔力/Magic 6"), line


def test_a_revision_9_wraith_fight_replays_with_body() -> None:
    """A fight file of version 9 (its entries naming no revision) replays its defence with
    Body 4, as it was played, and keeps it when saved again."""
    fight = _wraith_attacks(9)
    played = fight.journal[-1].lines
    assert played[0].text.startswith(f"{PRIEST} defends: 体力/Body 4 vs レイス"), played[0].text
    data = json.loads(json.dumps(fight.to_json()))
    for entry in data["journal"]:
        assert entry.pop("engine") == 9
    data["version"] = 9
    resumed = Fight.from_json(RULES, data)
    assert resumed.journal[-1].lines == played and resumed.state == fight.state
    assert {e.get("engine") for e in resumed.to_json()["journal"]} == {9}
