"""review60a D2: a fight file keeps the settings it was played with, but one written before
a setting existed lacks its key. That key took the user's configured value, so a
`genso.toml` holding ``GM-MON-2.attack_spells_harm_immune = false`` rewrote a revision-3
Fire on the Ghost (it vanished) as "no damage". A key the file lacks comes from the
packaged Defaults (how the fight was played), and revision-3 entries harm the immune with
Fire and Lightning whatever the setting (a file that stores no settings at all)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.systems.genso.combat import Fight
from companion.systems.genso.rules import load_rules

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
