"""[DEFAULT]s the engine used to keep as constants, now in the profile: ``pc.xp`` (JR-PC-1),
``pc.wear_found_rings`` (JR-PC-4 / JR-ITEM-1), ``combat.ranged_rate_weapon`` (JR-RANGED-3)
and ``combat.steal_ammo`` (JR-AB-STEALITEM). Each is read from a profile file and changes
the game it plays; a wrong value is refused by name; and a copy made before the key was
added still loads and plays as before (a profile is read over the packaged one)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from companion.errors import DataError
from companion.systems.jongrogue.autoplay import play
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.profile import (
    DEFAULT_PROFILE,
    Profile,
    Ring,
    load_played_profile,
    load_profile,
)
from tests.systems.jongrogue.script import feed, of, options

NEW_KEYS = (("pc", "xp"), ("pc", "wear_found_rings"), ("combat", "ranged_rate_weapon"),
            ("combat", "steal_ammo"))
# Every key the profile gained after players began copying it, gold_needs_clear_room
# (JR-STATE-2, rules revision 5) last.
LATER_KEYS = (("dice", "critical_value"), ("dice", "fumble_value"),
              ("combat", "ranged_automatic"), ("combat", "confusion_ends_next_room"),
              ("combat", "steal_item"), *NEW_KEYS, ("combat", "armour_min"),
              ("map", "gold_needs_clear_room"))


def _packaged() -> str:
    from importlib.resources import files

    packaged = files("companion.systems.jongrogue") / "data" / "profile.toml"
    return packaged.read_text(encoding="utf-8")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _variant(tmp_path: Path, old: str, new: str) -> Profile:
    """The packaged profile with ``old`` (found once) written ``new``, loaded from a file."""
    text = _packaged()
    assert text.count(old) == 1, old
    return load(tmp_path, text.replace(old, new))


def load(tmp_path: Path, text: str) -> Profile:
    return load_profile(_write(tmp_path, text))


def _without(text: str, keys: tuple[tuple[str, str], ...]) -> str:
    """The profile text with each key's line taken out (a copy made before it existed)."""
    for _, key in keys:
        text, n = re.subn(rf"^{key} = .*\n", "", text, flags=re.MULTILINE)
        assert n == 1, key
    return text


def tough(game: Game, hp: int = 200) -> Game:
    game.pc.hp = game.pc.max_hp = hp
    return game


@pytest.mark.parametrize(("xp", "level", "hit"), [(0, 1, False), (20, 3, True)])
def test_jr_pc_1_the_starting_xp_is_the_profiles(
    tmp_path: Path, xp: int, level: int, hit: bool
) -> None:
    """JR-PC-1 [DEFAULT] pc.xp: the PC starts with the profile's XP, at the level the table
    gives it (JR-LVL-1) and with full HP; the level counts in every rate (JR-RATE-1)."""
    profile = _variant(tmp_path, "\nxp = 0 ", f"\nxp = {xp} ")
    game = Game("ez", profile)
    pc = game.pc
    assert (pc.level, pc.xp, pc.hp, pc.max_hp) == (
        level, xp, profile.max_hp(level), profile.max_hp(level))
    events = feed(game, "5m 1m 1z 2z 3z | fight:1 1m")  # a snake: 6 attack − level − 2 mace
    check = of(events, Kind.CHECK)[0]
    assert check["terms"][1] == ["level", -level] and check["target"] == 4 - level
    assert check["success"] is hit and bool(of(events, Kind.DEFEAT)) is hit


@pytest.mark.parametrize("wear", [True, False])
def test_jr_pc_4_rings_found_are_put_on_as_the_profile_says(tmp_path: Path, wear: bool) -> None:
    """JR-PC-4 / JR-ITEM-1 [DEFAULT] pc.wear_found_rings: on (the packaged profile), rings
    found go on while a hand is free; off, they wait in the pack for the player's equip."""
    profile = _variant(tmp_path, "wear_found_rings = true",
                       f"wear_found_rings = {str(wear).lower()}")
    game = Game("ez", profile)
    events = feed(game, "5m 6p 7p 1z 1z | take")
    put_on = [e["ring"] for e in of(events, Kind.ITEM) if e["action"] == "ring on"]
    if wear:
        assert put_on == ["stealth", "strength"] and game.pc.spare_rings == []
        assert game.pc.ring_kinds == [Ring.STEALTH, Ring.STRENGTH]
        return
    assert put_on == [] and game.pc.rings == []
    assert [str(t) for t in game.pc.spare_rings] == ["6p", "7p"]
    assert {"equip:6p", "equip:7p"} <= set(options(game))
    feed(game, "equip:7p")
    assert game.pc.ring_kinds == [Ring.STRENGTH] and game.pc.wears(Ring.STRENGTH) == 1


@pytest.mark.parametrize(("weapon", "attack", "hit"), [("ranged", 1, False), ("melee", 2, True)])
def test_jr_ranged_3_a_shots_rate_takes_the_attack_the_profile_names(
    tmp_path: Path, weapon: str, attack: int, hit: bool
) -> None:
    """JR-RANGED-3 [DEFAULT] combat.ranged_rate_weapon: "ranged" (the packaged profile) takes
    the short bow's attack 1 into an arrow's rate, "melee" the mace's 2: a snake's rate is 4
    or 3, so a drawn 3m misses or hits."""
    profile = _variant(tmp_path, 'ranged_rate_weapon = "ranged"',
                       f'ranged_rate_weapon = "{weapon}"')
    game = tough(Game("plus", profile))
    feed(game, "5m 1m 6z 6z 6z")  # an awake snake (sleep check)
    events = feed(game, "shoot:1 3m 3m")  # the ranged turn goes on; the shot draws 3m
    shot = of(events, Kind.CHECK)[1]
    assert shot["what"] == "ranged (arrows) vs 大蛇" and game.pc.arrows == 19
    assert shot["terms"][-1] == ["weapon", -attack] and shot["target"] == 5 - attack
    assert shot["success"] is hit and bool(of(events, Kind.DEFEAT)) is hit


@pytest.mark.parametrize(
    ("steal_ammo", "arrows", "shuriken", "what", "left"),
    [(1, 20, 0, "arrows", 19), (10, 20, 0, "arrows", 10), (10, 4, 0, "arrows", 0),
     (5, 0, 7, "shuriken", 2)],
)
def test_jr_ab_stealitem_a_theft_takes_the_profiles_ammo(
    tmp_path: Path, steal_ammo: int, arrows: int, shuriken: int, what: str, left: int
) -> None:
    """JR-AB-STEALITEM [DEFAULT] combat.steal_ammo: a nymph's theft of arrows or shuriken
    takes that many (1 in the packaged profile), all the PC has if it has fewer."""
    profile = _variant(tmp_path, "steal_ammo = 1", f"steal_ammo = {steal_ammo}")
    game = tough(Game("ez", profile))
    game.floor = 10
    game.pc.arrows, game.pc.shuriken = arrows, shuriken
    events = feed(game, "5m 6m 1z 1z 1z | fight:1 1m")  # a nymph: rate 7, 1m misses
    assert of(events, Kind.ITEM)[-1] == {"action": "stolen", "what": what}
    assert (game.pc.arrows if what == "arrows" else game.pc.shuriken) == left
    assert not game.monster(1).alive


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("\nxp = 0 ", "\nxp = -5 ",
         r"mine\.toml: field pc\.xp must be a whole number 0 or more, found -5"),
        ("\nxp = 0 ", '\nxp = "none" ', r"field pc\.xp must be a whole number 0 or more"),
        ("wear_found_rings = true", 'wear_found_rings = "yes"',
         r"mine\.toml: field pc\.wear_found_rings must be true or false, found 'yes'"),
        ('ranged_rate_weapon = "ranged"', 'ranged_rate_weapon = "bow"',
         r"mine\.toml: field combat\.ranged_rate_weapon must be one of 'ranged', 'melee', "
         r"found 'bow'"),
        ("steal_ammo = 1", "steal_ammo = 0",
         r"mine\.toml: field combat\.steal_ammo must be a whole number 1 or more, found 0"),
        ("steal_ammo = 1", "steal_ammo = 1.5",
         r"field combat\.steal_ammo must be a whole number 1 or more, found 1\.5"),
    ],
)
def test_a_bad_value_of_a_new_key_is_refused_by_name(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    """JR-PC-1, JR-PC-4, JR-RANGED-3, JR-AB-STEALITEM: a wrong value names file, key, value."""
    with pytest.raises(DataError, match=message):
        _variant(tmp_path, old, new)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("wear_found_rings = true", "wear_found_ring = false",
         r"mine\.toml: field pc\.wear_found_ring is unknown here "
         r"\(did you mean pc\.wear_found_rings\?\)"),
        ("steal_ammo = 1", "steal_amo = 5", r"field combat\.steal_amo is unknown here"),
        ('kind = "arrows"\n', 'kind = "arrows"\nattack = 5\n',
         r"field items\.3\.attack is unknown here"),
        ("[items.8]", "[items.10]\nname_ja = \"x\"\n\n[items.8]", r"table items\.10 is unknown"),
    ],
)
def test_a_misspelt_or_stray_key_is_refused_not_replaced(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    """A misspelt later key used to be filled in with the packaged value, so
    the copy played with a value the player had not chosen; any key nothing reads is
    refused, naming it and the key it is close to."""
    with pytest.raises(DataError, match=message):
        _variant(tmp_path, old, new)


def test_a_copy_made_before_these_keys_loads_and_plays_as_before(tmp_path: Path) -> None:
    """JR-PC-1, JR-PC-4, JR-RANGED-3, JR-AB-STEALITEM: a copy without the new keys takes
    the packaged values, so it is the default profile and its games are the default's,
    input for input (a game saved with it resumes)."""
    profile = load(tmp_path, _without(_packaged(), NEW_KEYS))
    assert profile == dataclasses.replace(DEFAULT_PROFILE, source=profile.source)
    for seed, preset in ((1, "plus"), (7, "ez"), (193, "plus")):
        old, new = play(seed, preset, profile=profile), play(seed, preset)
        assert old.inputs == new.inputs and old.outcome() == new.outcome()


def test_a_copy_made_before_every_later_key_loads_as_the_default(tmp_path: Path) -> None:
    """Every key of LATER_KEYS left out at once: the copy is still the default profile; a
    later key the copy does set keeps its own value."""
    bare = _without(_packaged(), LATER_KEYS)
    profile = load(tmp_path, bare)
    assert profile == dataclasses.replace(DEFAULT_PROFILE, source=profile.source)
    mine = load(tmp_path, bare.replace("[combat]\n", "[combat]\nsteal_ammo = 3\n", 1))
    assert mine.steal_ammo == 3 and mine.wear_found_rings is True


@pytest.mark.parametrize(("armour_min", "rusted"), [(0, None), (-2, -1)])
def test_jr_ab_rust_the_armours_floor_is_the_profiles(
    tmp_path: Path, armour_min: int, rusted: int | None
) -> None:
    """JR-AB-RUST [DEFAULT] combat.armour_min: the seed gives rust no floor
    (「鎧のランクが1つ下がります」), yet combat.py stopped it at 0 with no word in the
    profile. The packaged 0 keeps armour of defence 0 at 0 (no rust event). A floor below
    0 is refused a new game now (test_profile_at_odds.py), but a game saved or logged with
    one replays as it was played: the aquator's hit takes the armour below 0."""
    text = _packaged()
    assert text.count("armour_min = 0") == 1
    path = _write(tmp_path, text.replace("armour_min = 0", f"armour_min = {armour_min}"))
    profile = load_played_profile(path)[0]
    assert profile.armour_min == armour_min
    game = tough(Game("ez", profile))
    game.floor = 9
    game.pc.armour = dataclasses.replace(game.pc.armour, value=0)
    events = feed(game, "5m 5m 1z 1z 1z | fight:1 1m")  # an aquator: 1m misses, it hits
    rust = [e for e in of(events, Kind.ABILITY) if e["ability"] == "rust"]
    assert [e["armour"] for e in rust] == ([] if rusted is None else [rusted])
    assert game.pc.armour.value == (0 if rusted is None else rusted)


def test_jr_ab_rust_armour_min_is_a_later_key(tmp_path: Path) -> None:
    """JR-AB-RUST: a copy of the profile made before combat.armour_min still loads, at 0."""
    assert load(tmp_path, _without(_packaged(), (("combat", "armour_min"),))).armour_min == 0
