"""The rules data files load, hold their shape, and a broken profile is named precisely."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest

from companion.errors import DataError
from companion.systems.jongrogue import tables as tables_module
from companion.systems.jongrogue.datafiles import load_packaged
from companion.systems.jongrogue.profile import DEFAULT_PROFILE, Role, load_profile
from companion.systems.jongrogue.tables import TABLES, Ability, Sleep, load_tables
from companion.systems.jongrogue.tiles import ALL_KINDS, Tile

PROFILE_TEXT = load_packaged("profile.toml")[0]


def test_every_packaged_table_loads_and_has_its_shape() -> None:
    """Walk every data file: 26 monsters, 26 encounter rows of 9, 3 sleep tables, 15 levels."""
    tables = load_tables()
    assert len(tables.monsters) == 26 and len(tables.encounter) == 26
    assert all(len(row) == 9 for row in tables.encounter)
    assert len(tables.sleep_awake) == 3 and tables.max_level == 15
    used = {m.ability for m in tables.monsters.values()}
    assert used - set(tables.ability_names) == {Ability.NONE}
    assert DEFAULT_PROFILE.role(Tile.from_notation("5z")) is Role.STAIRS
    assert [DEFAULT_PROFILE.role(t) for t in ALL_KINDS].count(Role.MONSTER) == 9
    assert sorted(DEFAULT_PROFILE.items) == list(range(1, 10))
    assert TABLES is not tables  # a fresh load, same content
    assert tables.monsters == TABLES.monsters


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _packaged() -> str:
    from importlib.resources import files

    packaged = files("companion.systems.jongrogue") / "data" / "profile.toml"
    return packaged.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("max_hp_base = 12", 'max_hp_base = "lots"',
         r"mine\.toml: field pc\.max_hp_base must be a whole number 1 or more, found 'lots'"),
        ("max_hp_base = 12", "max_hp_base = 0",
         r"field pc\.max_hp_base must be a whole number 1 or more, found 0"),
        ('critical = "7z"', 'critical = "8z"',
         r"field dice\.critical must be a tile such as '7z', found '8z'"),
        ('critical = "7z"', 'critical = "5z"',
         r"dice\.critical and dice\.fumble must be two different honour tiles"),
        ('m = "monster"', 'm = "dragon"',
         r"field roles\.m must be one of 'monster', 'item', 'gold', 'empty', found 'dragon'"),
        ("ranged_continue = 3", "ranged_continue = 12",
         r"combat\.ranged_continue must be a whole number from 1 to 9, found 12"),
        ('kind = "potion"', 'kind = "elixir"', r"field items\.1\.kind must be one of"),
        ('steal_item = ["arrows"', 'steal_item = ["gold"',
         r"field combat\.steal_item\[0\] must be one of arrows, shuriken, potions, rings, "
         r"each once, found 'gold'"),
        ('"potions", "rings"]', '"potions", "arrows"]',
         r"combat\.steal_item\[3\] .* found 'arrows'"),
        ("[map]", "[mapp]", r"mine\.toml: table mapp is unknown here \(did you mean map\?\)"),
        ("name = \"default\"", "name = ", r"mine\.toml: not valid TOML"),
    ],
)
def test_a_hand_edited_profile_names_file_field_and_value(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    """A broken profile: the error names the file, the field and the value."""
    text = _packaged()
    assert old in text
    with pytest.raises(DataError, match=message):
        load_profile(_write(tmp_path, text.replace(old, new, 1)))


def test_a_missing_or_binary_profile_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot read"):
        load_profile(tmp_path / "absent.toml")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(DataError, match="not UTF-8"):
        load_profile(bad)


def test_a_variant_profile_changes_the_game(tmp_path: Path) -> None:
    text = _packaged().replace("max_hp_base = 12", "max_hp_base = 30")
    profile = load_profile(_write(tmp_path, text))
    assert profile.max_hp(1) == 30 and PROFILE_TEXT.endswith("profile.toml")


def test_a_profile_copied_before_later_keys_plays_as_it_did(tmp_path: Path) -> None:
    """A copy without the keys added since takes the packaged values for them (a profile
    is read over the packaged one), so it loads, and a game saved with it resumes, as
    before."""
    text = _packaged()
    for key in ("critical_value", "fumble_value"):  # each line with its comment
        text, n = re.subn(rf"^{key} = .*\n", "", text, flags=re.MULTILINE)
        assert n == 1, key
    for key in ("ranged_automatic", "confusion_ends_next_room"):
        text = text.replace(f"{key} = true", f"# {key} = true")
    text = text.replace("steal_item = [", "# steal_item = [")
    profile = load_profile(_write(tmp_path, text))
    assert (profile.critical_value, profile.fumble_value, profile.ranged_automatic,
            profile.confusion_ends_next_room) == (9, 1, True, True)
    assert profile.steal_item == DEFAULT_PROFILE.steal_item
    assert profile == dataclasses.replace(DEFAULT_PROFILE, source=profile.source)


def test_the_sleep_names_are_data_in_japanese_and_english() -> None:
    """Every sleep column and state (JR-SLEEP-1..3) is named in monsters.toml's [sleep],
    the Japanese beside the English; the room panel's asleep is the shorter 眠."""
    names = TABLES.sleep_names
    assert sorted(names) == sorted(s.value for s in Sleep)
    assert [names[s.value].text for s in Sleep] == [
        "awake (起)", "asleep (睡眠)", "deeply asleep (熟睡)", "asleep or awake (眠/起)",
        "deeply asleep or awake (熟睡/起)"]
    assert names["asleep"].short_ja == "眠" and names["deeply_asleep"].short_ja == "熟睡"


MONSTERS = "companion/systems/jongrogue/data/monsters.toml"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # Without its header, the sleep names fall under [abilities], refused there.
        ("\n[sleep]\n", "\n", rf"{MONSTERS}: table abilities\.awake is unknown here"),
        ('deeply_asleep = { ja = "熟睡", en = "deeply asleep" }', "",
         rf"{MONSTERS}: missing table sleep\.deeply_asleep$"),
        ('awake = { ja = "起", en = "awake" }', 'awake = { ja = "起" }',
         rf"{MONSTERS}: missing field sleep\.awake\.en \(text\)"),
        ('awake = { ja = "起", en = "awake" }', 'awake = ["起", "awake"]',
         rf"{MONSTERS}: sleep\.awake must be a table, found \['起', 'awake'\]"),
        ('short_ja = "眠"', "short_ja = 1",
         rf"{MONSTERS}: field sleep\.asleep\.short_ja must be text, found 1"),
        ('short_ja = "眠"', 'shortja = "眠"',
         rf"{MONSTERS}: field sleep\.asleep\.shortja is unknown here"),
        ('[sleep]', '[sleep]\nsleepy = { ja = "眠", en = "sleepy" }',
         rf"{MONSTERS}: table sleep\.sleepy is unknown here"),
        ('haste = ["倍速", "haste"]', 'haste = ["倍速"]',
         rf"{MONSTERS}: field abilities\.haste must be \[Japanese, English\], found \['倍速'\]"),
        ('haste = ["倍速", "haste"]', 'haste = ["倍速", 2]',
         rf"{MONSTERS}: field abilities\.haste must be \[Japanese, English\]"),
        ('haste = ["倍速", "haste"]', 'haste = ["倍速", "haste"]\nhasted = ["倍速", "haste"]',
         rf"{MONSTERS}: field abilities\.hasted is unknown here"),
    ],
)
def test_broken_sleep_names_name_the_file_and_key(
    monkeypatch: pytest.MonkeyPatch, old: str, new: str, message: str
) -> None:
    """A sleep name missing or of the wrong shape is a DataError naming monsters.toml and
    the key, as for the other tables."""
    source, _ = load_packaged("monsters.toml")
    text = (files("companion.systems.jongrogue") / "data" / "monsters.toml").read_text(
        encoding="utf-8")
    assert old in text
    broken = (source, tomllib.loads(text.replace(old, new, 1)))
    real = tables_module.load_packaged
    monkeypatch.setattr(tables_module, "load_packaged",
                        lambda name: broken if name == "monsters.toml" else real(name))
    with pytest.raises(DataError, match=message):
        load_tables()
