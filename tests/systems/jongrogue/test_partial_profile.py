"""A profile of the user's holds only what it changes: it is read over the packaged
profile (data/profile.toml), each key it gives replacing the packaged one. A file of one
key (``[combat]`` ``thaw = 1``) was refused with "missing table dice" (first-run audit,
finding 4): only a whole copy played."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion.errors import DataError
from companion.systems.jongrogue.profile import (
    DEFAULT_PROFILE,
    ItemKind,
    Ring,
    load_played_profile,
    load_profile,
)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_jr_ab_freeze_a_profile_of_one_key_plays_it_and_the_packaged_rest(
    tmp_path: Path,
) -> None:
    """JR-AB-FREEZE [SEED] 1d9>=8: a file holding only ``thaw = 1`` plays the packaged
    profile with that one value, and names it a house rule as a whole copy does."""
    profile = load_profile(_write(tmp_path, "[combat]\nthaw = 1\n"))
    assert profile == dataclasses.replace(
        DEFAULT_PROFILE, source=profile.source, thaw=1,
        house_rules=("house rule: combat.thaw = 1 (the book: 8, JR-AB-FREEZE)",))
    assert profile.source == str(tmp_path / "mine.toml")


def test_jr_pc_1_a_table_given_in_part_keeps_the_packaged_keys_beside(tmp_path: Path) -> None:
    """JR-PC-1 [DEFAULT]: ``[pc.weapon]`` with ``attack = 4`` keeps the mace's names; a
    list (``steal_item``) is replaced whole, not merged."""
    profile = load_profile(_write(tmp_path, (
        '[pc.weapon]\nattack = 4\n[combat]\nsteal_item = ["rings"]\n')))
    assert (profile.weapon.name_en, profile.weapon.value) == ("mace", 4)
    assert [loot.value for loot in profile.steal_item] == ["rings"]
    assert profile.armour == DEFAULT_PROFILE.armour


def test_jr_item_1_an_item_given_another_kind_needs_only_that_kinds_keys(
    tmp_path: Path,
) -> None:
    """JR-ITEM-1 [DEFAULT]: rank 4 made a ring. The packaged weapon's base and per_floors
    are not the user's keys, so they are not refused as unknown; a key the new kind needs
    and the packaged item lacks is named."""
    profile = load_profile(_write(tmp_path, (
        '[items.4]\nname_ja = "隠密の指輪"\nname_en = "ring of stealth"\nkind = "ring"\n'
        'ring = "stealth"\n')))
    assert profile.items[4].kind is ItemKind.RING and profile.items[4].ring is Ring.STEALTH
    with pytest.raises(DataError, match=r"mine\.toml: missing field items\.4\.heal"):
        load_profile(_write(tmp_path, '[items.4]\nkind = "potion"\n'))


@pytest.mark.parametrize(("text", "message"), [
    ("[combat]\nthw = 1\n",
     r"^.*mine\.toml: field combat\.thw is unknown here \(did you mean combat\.thaw\?\)$"),
    ("[combt]\nthaw = 1\n",
     r"^.*mine\.toml: table combt is unknown here \(did you mean combat\?\)$"),
    ("[combat]\nthaw = \"one\"\n",
     r"^.*mine\.toml: field combat\.thaw must be a whole number from 1 to 9, found 'one'$"),
    ("combat = 1\n", r"^.*mine\.toml: combat must be a table, found 1$"),
    ("[pc]\nweapon = \"sword\"\n", r"^.*mine\.toml: pc\.weapon must be a table, found 'sword'$"),
])
def test_a_partial_profiles_slip_is_named(tmp_path: Path, text: str, message: str) -> None:
    """An unknown key or table is still refused, by its name and the one it is near; a
    value of the wrong type names the key and the value."""
    with pytest.raises(DataError, match=message):
        load_profile(_write(tmp_path, text))


def test_a_played_partial_profile_tells_only_the_users_unknown_keys(tmp_path: Path) -> None:
    """A saved game's profile is read over the packaged one too; what it notes are the
    file's own keys that nothing reads, never a packaged one."""
    profile, unread = load_played_profile(_write(tmp_path, (
        '[combat]\nthaw = 1\nthw = 2\n[items.4]\nkind = "ring"\nring = "stealth"\n')))
    assert profile.thaw == 1
    assert unread == [f"{tmp_path / 'mine.toml'}: field combat.thw is unknown here "
                      "(did you mean combat.thaw?)"]


@pytest.mark.parametrize(("table", "key"), [("pc", "gold"), ("map", "gold_per_rank")])
def test_jr_pc_1_a_gold_number_past_what_the_history_holds_is_refused_by_name(
    tmp_path: Path, table: str, key: str
) -> None:
    """JR-PC-1 / §2 tile roles [DEFAULT]: a start gold or a pile's worth of 2**63 was
    played, then stopped every run as its game went in the history (fuzz audit 2). It is
    refused, naming the key and the range; a billion, the most, still plays."""
    with pytest.raises(DataError) as refused:
        load_profile(_write(tmp_path, f"[{table}]\n{key} = {2**63}\n"))
    assert str(refused.value) == (f"{tmp_path / 'mine.toml'}: field {table}.{key} must be "
                                  f"a whole number from 0 to 1,000,000,000, found {2**63}")
    profile = load_profile(_write(tmp_path, f"[{table}]\n{key} = 1000000000\n"))
    assert getattr(profile, key) == 10**9


@pytest.mark.parametrize(("text", "field", "found"), [
    ('[items.1]\nname_ja = ""\n', "items.1.name_ja", "''"),
    ('[items.1]\nname_en = "   "\n', "items.1.name_en", "'   '"),
    ('[items.4]\nkind = "ring"\nring = "stealth"\nname_en = ""\n', "items.4.name_en", "''"),
    ('[pc]\nweapon = { name_ja = "", name_en = "mace", attack = 2 }\n', "pc.weapon.name_ja",
     "''"),
    ('[pc]\nranged = { name_ja = "短弓", name_en = "\\t", attack = 1 }\n', "pc.ranged.name_en",
     "'\\t'"),
    ('[pc]\narmour = { name_ja = "　", name_en = "mail", defence = 3 }\n', "pc.armour.name_ja",
     "'\\u3000'"),
    ('[items.1]\nname_en = 5\n', "items.1.name_en", "5"),
])
def test_jr_item_1_a_blank_item_or_gear_name_is_refused_by_name(
    tmp_path: Path, text: str, field: str, found: str
) -> None:
    """JR-ITEM-1 / JR-PC-1: an item's or the PC's weapon, bow or armour's name_ja and
    name_en name it in the log, the sheet and the buttons; an empty or all-space one was
    played, the log saying "Found  () [1p]" (rules74 NIT 3). It is refused as every other
    slip in a profile is, naming the field."""
    with pytest.raises(DataError) as refused:
        load_profile(_write(tmp_path, text))
    assert str(refused.value) == (f"{tmp_path / 'mine.toml'}: field {field} must be a name "
                                  f"(text), found {found}")
