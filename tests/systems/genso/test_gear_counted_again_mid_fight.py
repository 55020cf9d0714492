"""A Default that a fight's action changes (``--set``) and that decides what a sheet's gear
gives its fighter (GM-ITEM-3 ``rings_of_a_kind_add`` and ``protection_ring_adds_to``,
GM-EQUIP-2 ``shield_protection``) counts the gear again from that action on, as its line
says (engine revision 8, fixg72c): the gear was counted as the fight began, so the setting
line said "from this action on" and the Ring of Striking still hit ``+1``. The fight file
replays it exactly; an older revision's entry replays as it was played."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from companion.dice import ScriptedDice
from companion.systems.genso.character.core import Character, Hand
from companion.systems.genso.character.gear import put_on_ring
from companion.systems.genso.combat import Attack, Fight, Wait, entrants_for
from companion.systems.genso.rules import BUILT_ONLY, CHOICES, NOT_READ_BY_FIGHTS, load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
ORC = "オーク"
ONCE = {"GM-ITEM-3": {"rings_of_a_kind_add": False}}
EACH = {"GM-ITEM-3": {"rings_of_a_kind_add": True}}


def ringed(ring: str) -> Character:
    """pc1 with ``ring`` on each hand (both work: one a hand, GM-ITEM-3)."""
    pc = preset(RULES, "pc1")
    pc = replace(pc, equipment=(*pc.equipment, ring, ring))
    return put_on_ring(RULES, put_on_ring(RULES, pc, ring, Hand.LEFT), ring, Hand.RIGHT)


def fight_of(pc: Character, settings: dict[str, Any]) -> Fight:
    """A fight of ``pc`` against an Orc under ``settings``, at ``pc``'s turn."""
    rules = RULES.with_overrides(settings)
    fight = Fight(rules, entrants_for(rules, [pc], [("orc", 1)]))
    if fight.state.current is not None and fight.state.current.name != pc.name:
        fight.push(Wait(fight.state.current.name), ScriptedDice([]))
    return fight


def texts(fight: Fight) -> list[str]:
    return [line.text for entry in fight.journal for line in entry.lines]


def replayed(fight: Fight) -> Fight:
    """``fight`` read back from its file, with the packaged rules."""
    return Fight.from_json(RULES, json.loads(json.dumps(fight.to_json(), ensure_ascii=False)))


def test_a_second_ring_of_striking_set_to_add_mid_fight_adds_from_that_action_on() -> None:
    """reviewg72 NIT 5's new finding: a fight begun with ``rings_of_a_kind_add`` false, and
    an attack given ``--set GM-ITEM-3.rings_of_a_kind_add=true``: the line said "from this
    action on" and the club still hit ``1 +1``. It hits ``+2`` now, a line says why, the file
    replays the same, and undo counts the kind once again."""
    pc = ringed("ring_striking")
    fight = fight_of(pc, ONCE)
    assert fight.state.get(pc.name).striking == 1
    entry = fight.push(Attack(pc.name, ORC), ScriptedDice([(6, 6), (6, 6), (6, 1)]), EACH)
    said = entry.text
    assert "設定/setting GM-ITEM-3.rings_of_a_kind_add = true from this action on" in said
    assert (f"{pc.name}: 打撃の指輪/Ring of Striking: weapon damage +2 (was +1) under the new "
            "setting") in said
    assert "棍棒/Club (1D6) ＞ 1 +2 − 防護力/protection 0 ＞ 3 damage" in said
    assert fight.state.get(ORC).hp == 9 and fight.state.get(pc.name).striking == 2
    again = replayed(fight)
    assert again.state == fight.state and texts(again) == texts(fight)
    assert again.to_json() == fight.to_json()
    fight.pop()
    assert fight.state.get(pc.name).striking == 1
    assert fight.rules.default("GM-ITEM-3", "rings_of_a_kind_add") is False


def test_a_ring_of_protection_counted_again_moves_protection_or_defence() -> None:
    """The same for two Rings of Protection, and for ``protection_ring_adds_to`` set to
    ``defence`` mid-fight: protection goes back to the armour's, defence up by the rings."""
    pc = ringed("ring_protection")
    fight = fight_of(pc, ONCE)
    start = fight.state.get(pc.name)
    entry = fight.push(Wait(pc.name), ScriptedDice([]), EACH)
    now = fight.state.get(pc.name)
    assert now.protection == start.protection + 1
    assert (f"防護力/protection {now.protection} (was {start.protection})") in entry.text
    orc = fight.state.current
    assert orc is not None and orc.name == ORC
    entry = fight.push(Wait(ORC), ScriptedDice([]),
                       {"GM-ITEM-3": {"protection_ring_adds_to": "defence"}})
    moved = fight.state.get(pc.name)
    assert (moved.protection, moved.defence_extra) == (start.protection - 1, 2)
    assert "防護の指輪/Ring of Protection: defence +2 (was +0)" in entry.text
    again = replayed(fight)
    assert again.state == fight.state and texts(again) == texts(fight)


def test_the_shield_set_mid_fight_protects_as_set() -> None:
    """GM-EQUIP-2 ``shield_protection``, set mid-fight, protects the shield's bearer as set."""
    pc = preset(RULES, "pc1")
    pc = replace(pc, shield="shield", equipment=(*pc.equipment, "shield"))
    fight = fight_of(pc, {})
    start = fight.state.get(pc.name).protection
    was = RULES.default("GM-EQUIP-2", "shield_protection")
    other = 4 if was != 4 else 2
    fight.push(Wait(pc.name), ScriptedDice([]), {"GM-EQUIP-2": {"shield_protection": other}})
    assert fight.state.get(pc.name).protection == start + other - was


def test_an_older_revisions_entry_replays_as_it_was_played() -> None:
    """Revision 7 counted the gear as the fight began whatever a later setting: an entry
    it played (a table save played on by it) still does, and replays so."""
    pc = ringed("ring_protection")
    fight = fight_of(pc, {})
    start = fight.state.get(pc.name)
    entry = fight.push(Wait(pc.name), ScriptedDice([]),
                       {"GM-ITEM-3": {"protection_ring_adds_to": "defence"}}, engine=7)
    assert fight.state.get(pc.name).protection == start.protection
    assert "under the new setting" not in entry.text
    again = replayed(fight)
    assert again.state == fight.state and texts(again) == texts(fight)


def _other(rule: str, key: str, value: Any) -> Any:
    """A value of the Default ``rule.key`` other than ``value`` that its range takes."""
    if (rule, key) in CHOICES:
        return next(v for v in CHOICES[rule, key] if v != value)
    if isinstance(value, bool):
        return not value
    for other in (value + 1, value - 1):
        try:
            RULES.with_overrides({rule: {key: other}})
        except Exception:  # outside its [limits]
            continue
        return other
    raise AssertionError(f"no other value for {rule}.{key}")


def test_every_default_a_fighter_is_built_by_is_counted_again_or_built_only() -> None:
    """fixg72d's open item: a Default read as a fighter is built, set by an action, must
    change that fighter from the action on as a fight begun with it would have it, or be
    :data:`BUILT_ONLY` (refused mid-fight). Every Default is tried on every preset, one PC
    wearing a Ring of Striking and of Protection, and every monster."""
    pcs = [preset(RULES, key) for key in RULES.presets]
    pcs.append(replace(ringed("ring_protection"), name="Ringed", rings_right=("ring_striking",),
                       equipment=(*pcs[0].equipment, "ring_protection", "ring_striking")))
    entrants = entrants_for(RULES, pcs, [(key, 1) for key in RULES.monsters])

    def fighters(fight: Fight) -> dict[str, dict[str, Any]]:
        return {c.name: {k: v for k, v in asdict(c).items() if k not in ("stance", "status")}
                for c in fight.state.combatants}

    unchanged = []
    for rule, keys in RULES.settings.values.items():
        for key, value in keys.items():
            setting = {rule: {key: _other(rule, key, value)}}
            built = Fight(RULES.with_overrides(setting), entrants)
            fight = Fight(RULES, entrants)
            if fighters(fight) == fighters(built) or (rule, key) in BUILT_ONLY:
                continue
            assert fight.state.current is not None
            fight.push(Wait(fight.state.current.name), ScriptedDice([]), setting)
            if fighters(fight) != fighters(built):
                unchanged.append(f"{rule}.{key}")
    assert unchanged == []


#: How the companion reads a Default by name: ``rules.default("GM-X-1", "key")`` (or
#: ``num``, ``tag``), or ``values["GM-X-1"]["key"]``.
READS = re.compile(r'(?:default|num|tag)\(\s*"(GM-[A-Z]+-\d+)",\s*"(\w+)"'
                   r'|\["(GM-[A-Z]+-\d+)"\]\["(\w+)"\]')
#: The modules a fight (or the table playing one, its GM → Check too) reads Defaults in.
FIGHT_SIDE = ("systems/genso/combat/", "systems/genso/rules.py", "systems/genso/sheet.py",
              "systems/genso/checks.py", "systems/genso/character/core.py",
              "app/commands/genso/fights.py", "app/modes/genso/")


def test_every_default_read_only_outside_fights_is_refused_on_a_fight() -> None:
    """calendar73 RISK 2: GM-MAGIC-13 ``year_days``, GM-HEAL-1 ``fee_silver`` and GM-MOVE-2
    ``begun_turn_counts`` are read only by `calendar curse`, `rest` and `travel`, yet a
    fight's ``--set`` of them said "from this action on". Every Default the source reads by
    name only outside a fight must be :data:`NOT_READ_BY_FIGHTS` (or :data:`BUILT_ONLY`), and
    none of those may be read by a fight."""
    root = Path(__import__("companion").__file__).parent
    readers: dict[tuple[str, str], set[str]] = {}
    for source in root.rglob("*.py"):
        for found in READS.finditer(source.read_text(encoding="utf-8")):
            rule, key = found.group(1) or found.group(3), found.group(2) or found.group(4)
            readers.setdefault((rule, key), set()).add(source.relative_to(root).as_posix())
    outside = {(rule, key) for rule, keys in RULES.settings.values.items() for key in keys
               if readers.get((rule, key))
               and not any(f.startswith(FIGHT_SIDE) for f in readers[rule, key])}
    assert outside - set(BUILT_ONLY) == set(NOT_READ_BY_FIGHTS)
