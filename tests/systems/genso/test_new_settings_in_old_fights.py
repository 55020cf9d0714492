"""review60a D2: a fight file keeps the settings it was played with, but one written before
a setting existed lacks its key. That key took the user's configured value, so a
`genso.toml` holding ``GM-MON-2.attack_spells_harm_immune = false`` rewrote a revision-3
Fire on the Ghost (it vanished) as "no damage". A key the file lacks comes from the
packaged Defaults (how the fight was played), and revision-3 entries harm the immune with
Fire and Lightning whatever the setting (a file that stores no settings at all)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.dice import ScriptedDice
from companion.systems.genso.character.core import Hand
from companion.systems.genso.character.gear import put_on_ring
from companion.systems.genso.combat import Attack, Fight, Wait, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

DATA = Path(__file__).parent / "data"
PACKAGED = load_rules()
#: The settings of this stop (genso60), each set by the user otherwise than packaged.
NEW = {"GM-MON-2": {"attack_spells_harm_immune": False},
       "GM-MON-3": {"living_side_uses_magic": False},
       "GM-MOVE-2": {"begun_turn_counts": False},
       "GM-CHECK-2": {"ability": "magic"}}
USERS = PACKAGED.with_overrides(NEW, "genso.toml")


def fire_r3() -> dict[str, Any]:
    """The Forest fairy's Fire on the Ghost under revision 3 (review60a's file): 12 damage,
    the Ghost ends at MP -8/4, vanished."""
    data: dict[str, Any] = json.loads((DATA / "fight_fire_r3.json").read_text("utf-8"))
    return data


def lines(fight: Fight) -> list[str]:
    return [line.text for entry in fight.journal for line in entry.lines]


def test_an_old_fire_on_the_ghost_replays_as_played_under_a_users_setting() -> None:
    data = fire_r3()
    fight = Fight.from_json(USERS, data)
    assert lines(fight) == [line["text"] for entry in data["journal"]
                            for line in entry["lines"]]
    assert "ゴースト: MP -8/4 VANISHED 消滅" in lines(fight)
    saved = fight.to_json()
    assert saved["settings"]["GM-MON-2"]["attack_spells_harm_immune"] is True


def test_the_keys_an_old_fight_lacks_are_the_packaged_defaults() -> None:
    """Each new key the file lacks plays on as packaged, not as the user's config; one the
    file holds is kept, and a file of today keeps the user's setting it was begun with."""
    fight = Fight.from_json(USERS, fire_r3())
    for rule, keys in NEW.items():
        for key in keys:
            assert fight.rules.default(rule, key) == PACKAGED.default(rule, key), (rule, key)
    today = Fight.from_json(PACKAGED, Fight.from_json(USERS, fire_r3()).to_json()
                            | {"settings": {r: dict(k) for r, k in USERS.settings.values.items()}})
    assert today.rules.default("GM-MON-2", "attack_spells_harm_immune") is False


def test_a_revision_3_fire_harms_the_immune_in_a_file_without_settings() -> None:
    """A file from before the settings were kept takes the user's; its revision-3 Fire
    still harmed the Ghost then, and replays so."""
    data = fire_r3()
    del data["settings"]
    fight = Fight.from_json(USERS, data)
    assert "ゴースト: MP -8/4 VANISHED 消滅" in lines(fight)
    assert fight.rules.default("GM-MON-2", "attack_spells_harm_immune") is False



def test_two_rings_of_a_kind_in_a_fight_saved_before_the_default_count_once() -> None:
    """genso72 RISK 2: GM-ITEM-3 ``rings_of_a_kind_add`` (packaged on) counts each Ring of
    Striking worn; a fight saved before it played two as one, and replays so (the packaged
    value would change the damage its journal holds), whether the file keeps its settings
    or not. A fight begun today keeps the Default it was begun with."""
    pc = replace(preset(PACKAGED, "pc1"), equipment=(
        *preset(PACKAGED, "pc1").equipment, "ring_striking", "ring_striking"))
    pc = put_on_ring(PACKAGED, put_on_ring(PACKAGED, pc, "ring_striking", Hand.LEFT),
                     "ring_striking", Hand.RIGHT)
    today = Fight(PACKAGED, entrants_for(PACKAGED, [pc], [("orc", 1)]))
    assert today.state.get(pc.name).striking == 2
    assert Fight.from_json(USERS, today.to_json()).state.get(pc.name).striking == 2
    # As the engine played it before the Default: a kind counted once.
    before = PACKAGED.with_overrides({"GM-ITEM-3": {"rings_of_a_kind_add": False}})
    played = Fight(before, entrants_for(before, [pc], [("orc", 1)]))
    if played.state.current is not None and played.state.current.name != pc.name:
        played.push(Wait(played.state.current.name), ScriptedDice([]))
    played.push(Attack(pc.name, "オーク"), ScriptedDice([(6, 6), (6, 6), (6, 3)]))
    data = played.to_json()
    del data["settings"]["GM-ITEM-3"]["rings_of_a_kind_add"]
    for old in (data, {k: v for k, v in data.items() if k != "settings"}):
        replayed = Fight.from_json(PACKAGED, old)
        assert replayed.state.get(pc.name).striking == 1
        assert lines(replayed) == [line["text"] for entry in data["journal"]
                                   for line in entry["lines"]]
