"""JR-ITEM-1: items are told apart by kind, the profile's item of a tile's rank (revision
12, rules72 DEFECT 1). A profile may make any rank a potion or shuriken, so a PC may hold
two kinds of either: each potion kind is offered to drink (``use:<tile>``) and the one
chosen is drunk; each shuriken kind keeps its own count and attack, the first found is
thrown, another is readied by ``ready:<tile>``. Revision 11 and before offered the first
potion and drank the last one held, and threw every shuriken at the last kind's attack: a
game of theirs replays so. From revision 12 a thief's theft names the kind it took
(reviewr72 DEFECT 2, JR-AB-STEALITEM (kinds))."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion.systems.jongrogue.actions import Choice
from companion.systems.jongrogue.autoplay import play
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import Game, plays_its_seed_again
from companion.systems.jongrogue.narration import describe
from companion.systems.jongrogue.profile import Loot, Profile, load_profile
from companion.systems.jongrogue.reference import FIXED_READINGS
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place
from tests.systems.jongrogue.script import feed, of, options

# Start room 5: a snake (1m) and two items; five blows (the snake falls to the fifth, the
# PC at 8 HP of 12), then both items are taken.
_CLEARED = "5m | 1m {a} {b} 1z | fight:1 2s fight:1 2s fight:1 2s fight:1 2s fight:1 9s take"


def _profile(tmp_path: Path, text: str) -> Profile:
    path = tmp_path / "kinds.toml"
    path.write_text(text, encoding="utf-8")
    return load_profile(path)


@pytest.fixture
def two_potions(tmp_path: Path) -> Profile:
    """Rank 2 a weak potion (heal 3) beside the packaged healing potion (1p, heal 10)."""
    return _profile(tmp_path, '[items.2]\nname_ja = "弱い回復薬"\nname_en = "weak potion"\n'
                              'kind = "potion"\nheal = 3\n')


@pytest.fixture
def two_shuriken(tmp_path: Path) -> Profile:
    """Rank 4 heavy shuriken (3, attack 5) beside the packaged shuriken (2p: 5, attack 2)."""
    return _profile(tmp_path, '[items.4]\nname_ja = "重い手裏剣"\nname_en = "heavy shuriken"\n'
                              'kind = "shuriken"\ncount = 3\nattack = 5\n')


def _holding_potions(profile: Profile, revision: int = 12) -> Game:
    game = Game("ez", profile, revision=revision)
    feed(game, _CLEARED.format(a="1p", b="2p"))
    assert [str(t) for t in game.pc.potions] == ["1p", "2p"]
    assert (game.pc.hp, game.pc.max_hp) == (8, 12)
    return game


@pytest.mark.parametrize(("choice", "healed", "left"), [("use:1p", 4, ["2p"]),
                                                         ("use:2p", 3, ["1p"])])
def test_jr_item_1_each_potion_kind_is_offered_and_the_chosen_one_is_drunk(
        two_potions: Profile, choice: str, healed: int, left: list[str]) -> None:
    """The healing potion chosen heals 10 up to max HP (+4) and leaves the weak one; the
    weak one chosen heals its 3 and leaves the healing one."""
    game = _holding_potions(two_potions)
    assert [o for o in options(game) if o.startswith("use:")] == ["use:1p", "use:2p"]
    heals = of(feed(game, choice), Kind.HEAL)
    assert [h["amount"] for h in heals] == [healed]
    assert [str(t) for t in game.pc.potions] == left
    # the potion drunk is discarded, the other still the PC's (the tile ledger, JR-WALL-1)
    drunk = Tile.from_notation(choice.removeprefix("use:"))
    assert game.ledger.count(drunk, Place.DISCARDS) == 1
    assert [str(t) for t in game.ledger.tiles(Place.PC)] == left


def test_jr_item_1_two_potions_of_one_kind_are_offered_once(tmp_path: Path) -> None:
    """Items go by rank: a 1m made an item beside the 1p is the same healing potion,
    offered once (the first held)."""
    profile = _profile(tmp_path, '[roles]\nm = "item"\ns = "monster"\n')
    game = Game("ez", profile)
    feed(game, "5m | 1s 1p 1m 1z | fight:1 2m fight:1 2m fight:1 2m fight:1 2m fight:1 9m take")
    assert [str(t) for t in game.pc.potions] == ["1p", "1m"]
    assert [o for o in options(game) if o.startswith("use:")] == ["use:1p"]


def test_jr_item_1_revision_11_offers_the_first_potion_and_drinks_the_last(
        two_potions: Profile) -> None:
    """A game of revision 11 replays as it was played: one potion offered, the last one
    held drunk whatever was chosen."""
    game = _holding_potions(two_potions, revision=11)
    assert [o for o in options(game) if o.startswith("use:")] == ["use:1p"]
    assert [h["amount"] for h in of(feed(game, "use:1p"), Kind.HEAL)] == [3]
    assert [str(t) for t in game.pc.potions] == ["1p"]


def _holding_shuriken(profile: Profile, revision: int = 12) -> Game:
    game = Game("ez", profile, revision=revision)
    feed(game, _CLEARED.format(a="2p", b="4p"))
    # room 2: a sleeping snake to shoot at
    feed(game, "move:2 | 1m 1z 1z 1z")
    assert game.pc.shuriken == 8
    return game


def _shot_weapon(game: Game, script: str) -> int:
    """The weapon term of the shot ``script`` makes (its check's draw a 5s)."""
    checks = of(feed(game, script + " 5s 5s"), Kind.CHECK)
    shot = [c for c in checks if c["what"].startswith("ranged (shuriken)")]
    assert len(shot) == 1, checks
    weapon = {name: value for name, value in shot[0]["terms"]}["weapon"]
    assert isinstance(weapon, int)
    return -weapon


def test_jr_item_1_shuriken_are_kept_by_kind_and_the_first_found_is_thrown(
        two_shuriken: Profile) -> None:
    """The shuriken found first (2p, attack 2) are thrown; the heavy ones wait, readied by
    ``ready:4p`` (offered beside ``ready:bow``)."""
    game = _holding_shuriken(two_shuriken)
    assert [o for o in options(game) if o.startswith("ready:")] == ["ready:bow", "ready:4p"]
    assert _shot_weapon(game, "shoot:2") == 2
    assert game.pc.shuriken_counts == [4, 3]


def test_jr_item_1_a_kind_of_shuriken_readied_is_thrown_at_its_own_attack(
        two_shuriken: Profile) -> None:
    game = _holding_shuriken(two_shuriken)
    assert _shot_weapon(game, "ready:4p shoot:2") == 5
    assert (game.pc.shuriken, game.pc.shuriken_counts) == (7, [5, 2])


def test_jr_item_1_revision_11_throws_every_shuriken_at_the_last_kinds_attack(
        two_shuriken: Profile) -> None:
    game = _holding_shuriken(two_shuriken, revision=11)
    assert [o for o in options(game) if o.startswith("ready:")] == ["ready:bow"]
    assert _shot_weapon(game, "shoot:2") == 5


def test_a_revision_11_game_with_a_profile_is_not_offered_again_by_its_seed(
        two_potions: Profile) -> None:
    """Its seed plays another game by revision 12 when the profile has two potion kinds (the
    auto-player drinks the first kind offered, where revision 11 drank the last one held),
    so ``plays_its_seed_again`` says no for any revision-11 game with a profile of the
    user's; with the packaged profile revision 11's games are revision 12's."""
    games = [play(seed, "plus", "cautious", profile=two_potions, revision=revision)
             for revision in (11, 12) for seed in range(8)]
    assert [g.inputs for g in games[:8]] != [g.inputs for g in games[8:]]
    assert not plays_its_seed_again(11, profile=True)
    assert plays_its_seed_again(11, profile=False) and plays_its_seed_again(12, profile=True)


# reviewr72 DEFECT 2: a thief names the kind it took (JR-AB-STEALITEM (kinds))


def _nymph(profile: Profile, *loot: Loot, steal_ammo: int = 1) -> Game:
    """Floor 10, the start room's nymph (6m, アイテム盗み) awake; a PC it cannot kill."""
    game = Game("ez", dataclasses.replace(profile, steal_item=loot, steal_ammo=steal_ammo))
    game.floor = 10
    game.pc.hp = game.pc.max_hp = 200
    feed(game, "5m 6m 1z 1z 1z")
    return game


def _given(game: Game, notation: str) -> Tile:
    tile = Tile.from_notation(notation)
    game.ledger.move(tile, Place.WALL, Place.PC)
    return tile


def test_jr_ab_stealitem_a_potion_stolen_is_named_by_its_kind(two_potions: Profile) -> None:
    """A healing potion and a weak one held: the thief takes the last held, the weak one,
    and the line said "healing potion" (the packaged profile's), while the sheet still
    listed the healing potion."""
    game = _nymph(two_potions, Loot.POTIONS)
    game.pc.potions += [_given(game, "1p"), _given(game, "2p")]
    stolen = of(feed(game, "fight:1 1m"), Kind.ITEM)
    assert stolen == [{"action": "stolen", "what": "2p"}]
    assert [str(t) for t in game.pc.potions] == ["1p"]
    assert describe(Event(Kind.ITEM, stolen[0]), game.profile) == \
        "  Stolen 盗まれた: weak potion (弱い回復薬) [2p]"


def test_jr_ab_stealitem_the_readied_shuriken_go_first_each_kind_named(
        two_shuriken: Profile) -> None:
    """Heavy shuriken readied: a theft of two takes the readied kind's last one, then one of
    the other kind, each said by its kind and count."""
    game = _nymph(two_shuriken, Loot.SHURIKEN, steal_ammo=2)
    for notation, count in (("2p", 5), ("4p", 1)):
        game.pc.shuriken += count
        game._add_shuriken(Tile.from_notation(notation), count)
    game._ready(Choice.from_notation("ready:4p"))  # (held since the menu was offered)
    assert game.pc.shuriken_attack == 5
    stolen = of(feed(game, "fight:1 1m"), Kind.ITEM)
    assert stolen == [{"action": "stolen", "what": "4p", "count": 1},
                      {"action": "stolen", "what": "2p", "count": 1}]
    assert (game.pc.shuriken, game.pc.shuriken_counts, game.pc.shuriken_attack) == (4, [4], 2)
    assert [describe(Event(Kind.ITEM, s), game.profile) for s in stolen] == [
        "  Stolen 盗まれた: heavy shuriken (重い手裏剣) [4p]",
        "  Stolen 盗まれた: shuriken (手裏剣) [2p]"]


def test_jr_ab_stealitem_kinds_the_counting_reading_is_listed() -> None:
    """5 shuriken and 3 heavy ones are 8 shuriken against 7 arrows: what the PC holds most
    of (一番個数の多い物) counts each item across its kinds, a reading ``rules defaults``
    lists."""
    readings = {d.rule: d.text for d in FIXED_READINGS}
    text = readings["JR-AB-STEALITEM (kinds)"]
    assert "一番個数の多い物" in text and "across their kinds" in text
    assert "the readied kind of shuriken first and the potion held last" in text


def test_jr_ab_stealitem_kinds_shuriken_of_two_kinds_count_together(
        two_shuriken: Profile) -> None:
    game = _nymph(two_shuriken, Loot.ARROWS, Loot.SHURIKEN)
    game.pc.arrows = 7
    for notation, count in (("2p", 5), ("4p", 3)):
        game.pc.shuriken += count
        game._add_shuriken(Tile.from_notation(notation), count)
    stolen = of(feed(game, "fight:1 1m"), Kind.ITEM)
    assert stolen == [{"action": "stolen", "what": "2p", "count": 1}]
    assert (game.pc.arrows, game.pc.shuriken) == (7, 7)


def test_jr_ab_stealitem_revision_11_names_potions_as_it_did(two_potions: Profile) -> None:
    """A revision-11 game's events are as they were: its log replays."""
    game = Game("ez", dataclasses.replace(two_potions, steal_item=(Loot.POTIONS,)),
                revision=11)
    game.floor = 10
    game.pc.hp = game.pc.max_hp = 200
    feed(game, "5m 6m 1z 1z 1z")
    game.pc.potions += [_given(game, "1p"), _given(game, "2p")]
    assert of(feed(game, "fight:1 1m"), Kind.ITEM) == [{"action": "stolen", "what": "potions"}]
