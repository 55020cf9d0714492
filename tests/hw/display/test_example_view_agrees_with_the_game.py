"""The display's example screen (screenshots, the benchmark, the display tests) is a screen
the game could show (a77data NIT 9): its armour was written リングメイル where the profile
writes リング・メイル, its HP 9/22 at level 3 where JR-LVL-1's profile gives 14, its last
check "rate 4 = 7 atk − 3 lvl − 0 str − 2 wpn" summed to 2, and it defeated 大蛇 snake
(attack 6) at the emu's rate."""

from __future__ import annotations

import re

from companion.hw.display.view import example_view
from companion.systems.jongrogue.checks import rate_terms
from companion.systems.jongrogue.profile import default_profile
from companion.systems.jongrogue.tables import TABLES

VIEW = example_view()
SHEET = VIEW.sheet
RATE = re.compile(r"rate (\d+) = (\d+) atk − (\d+) lvl − (\d+) str − (\d+) wpn")
DEFEATED = re.compile(r"hit: (\S+) (.+) defeated")


def test_the_sheet_is_the_profiles_pc_at_its_level() -> None:
    """JR-PC-1 gear and JR-LVL-1 max HP and next level, from the packaged profile."""
    profile = default_profile()
    assert SHEET is not None
    for shown, gear in ((SHEET.weapon, profile.weapon), (SHEET.ranged, profile.ranged),
                        (SHEET.armour, profile.armour)):
        assert (shown.ja, shown.en) == (gear.name_ja, gear.name_en)
    assert (SHEET.weapon_attack, SHEET.ranged_attack, SHEET.armour_defence) == (
        profile.weapon.value, profile.ranged.value, profile.armour.value)
    assert TABLES.level_for_xp(SHEET.xp) == SHEET.level
    assert SHEET.xp_next == TABLES.level_xp[SHEET.level]
    assert SHEET.hp_max == profile.max_hp(SHEET.level)
    assert SHEET.hp <= SHEET.hp_max


def test_the_last_check_is_jr_rate_1_against_the_monster_it_defeated() -> None:
    assert SHEET is not None
    rate, sums = VIEW.last_check[0], VIEW.last_check[1]
    found = RATE.search(rate)
    assert found, rate
    shown, attack, level, strength, weapon = (int(g) for g in found.groups())
    assert (level, strength, weapon) == (SHEET.level, SHEET.strength, SHEET.weapon_attack)
    assert rate_terms(attack, level, weapon, strength)[2] == shown
    hit = DEFEATED.search(sums)
    assert hit, sums
    monster = next(m for m in TABLES.monsters.values()
                   if (m.name_ja, m.name_en) == hit.groups())
    assert monster.attack == attack
    assert f"≥ {shown} → hit" in sums
    # JR-XP-1: a defeated monster's tile is discarded; the room still holds what it shows.
    assert all(tile.meaning.ja != monster.name_ja for tile in VIEW.room_tiles)
    assert f"XP +{monster.xp}" in VIEW.last_check[2]


def test_the_room_tiles_are_floor_3s_monsters() -> None:
    """JR-ENC-1: a monster tile of rank r on the view's floor gives that floor's monster."""
    assert VIEW.floor is not None
    for tile in VIEW.room_tiles:
        if tile.tile.endswith("m"):
            monster = TABLES.monster_for(VIEW.floor, int(tile.tile[0]))
            assert (tile.meaning.ja, tile.meaning.en) == (monster.name_ja, monster.name_en)
