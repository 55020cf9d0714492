"""Floors, rooms, the 1d9 draw and checks: JR-DICE-*, JR-MAP-*, JR-ENC-1, JR-MON-1, JR-SLEEP-*."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion.systems.jongrogue.actions import Purpose, TileRequest
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import Game, neighbours
from companion.systems.jongrogue.profile import DEFAULT_PROFILE
from companion.systems.jongrogue.tables import TABLES
from companion.systems.jongrogue.wall import Place
from tests.systems.jongrogue.script import feed, of, options

#: The spec lies in shared/ beside the checkout, for a developer and in CI alike, so the
#: tables are always checked: a missing spec fails them (FileNotFoundError names it).
SPEC = Path(__file__).resolve().parents[4] / "shared" / "spec" / "jongrogue.md"


def test_jr_map_1_start_room_is_a_1d9_draw() -> None:
    """JR-MAP-1: the start room is a 1d9 draw; rooms join their orthogonal neighbours."""
    game = Game("ez")
    events = feed(game, "4m")
    assert of(events, Kind.START_ROOM)[0]["room"] == 4
    assert isinstance(game.pending, TileRequest) and game.pending.purpose is Purpose.ROOM
    assert neighbours(5) == (2, 4, 6, 8)
    assert neighbours(1) == (2, 4)
    assert neighbours(9) == (6, 8)


def test_jr_dice_1_honours_set_aside_and_critical_counts_nine() -> None:
    """JR-DICE-1: other honours are set aside; a critical (7z) counts 9 outside checks."""
    game = Game("ez")
    events = feed(game, "1z 6z 7z")
    start = of(events, Kind.START_ROOM)[0]
    assert start == {"room": 9, "tiles": ["1z", "6z", "7z"]}
    assert game.ledger.total(Place.DISCARDS) == 3  # read and discarded


def test_jr_dice_1_fumble_counts_one_outside_checks() -> None:
    """JR-DICE-1: a fumble (5z) counts 1 where a number is wanted."""
    game = Game("ez")
    assert of(feed(game, "5z"), Kind.START_ROOM)[0]["room"] == 1


def test_jr_dice_2_critical_and_fumble_decide_melee_regardless_of_target() -> None:
    """JR-DICE-2: in melee a critical always succeeds and a fumble always fails."""
    game = Game("ez")
    game.pc.level = 1
    feed(game, "5m 9m 1z 2z 3z")  # room 5: a bat (B) on floor 1 at top-left
    game.pc.weapon = dataclasses.replace(game.pc.weapon, value=-10)  # rate clamps to 9
    check = of(feed(game, "fight:1 7z"), Kind.CHECK)[0]
    assert check["target"] == 9 and check["critical"] and check["success"]
    game = Game("ez")
    feed(game, "5m 9m 1z 2z 3z")
    game.pc.weapon = dataclasses.replace(game.pc.weapon, value=20)  # rate clamps to 1
    check = of(feed(game, "fight:1 5z"), Kind.CHECK)[0]
    assert check["target"] == 1 and check["fumble"] and not check["success"]


def test_jr_dice_2_other_checks_use_the_value() -> None:
    """JR-DICE-2: where the seed does not say so, a fumble is just a 1 (1 >= 1 succeeds)."""
    profile = dataclasses.replace(DEFAULT_PROFILE, ranged_continue=1)
    game = Game("plus", profile)
    feed(game, "5m 2z 1m 3z 4z")
    check = of(feed(game, "shoot:1 5z"), Kind.CHECK)[0]
    assert check["what"] == "ranged combat goes on"
    assert check["fumble"] and check["value"] == 1 and check["success"]


def test_jr_map_2_reveal_lays_four_tiles_and_pc_stands_on_the_door() -> None:
    """JR-MAP-2: entering a room for the first time lays 4 tiles 2x2; the PC is on the door."""
    game = Game("ez")
    events = feed(game, "5m 1m 2p 3s 5z")
    room = of(events, Kind.ROOM)[0]
    assert room["tiles"] == ["1m", "2p", "3s", "5z"]
    assert room["roles"] == ["monster", "item", "gold", "stairs"] and room["stairs"]
    assert of(events, Kind.MOVE)[0] == {"room": 5, "position": "door"}
    assert game.ledger.total(Place.TABLE) == 4


def test_jr_map_3_last_of_nine_rooms_holds_the_stairs() -> None:
    """JR-MAP-3: with 9 rooms revealed and no stairs, the last one revealed has them."""
    game = Game("ez")
    feed(game, "1m 1s 1s 1s 1s")
    fillers = iter(["2s"] * 4 + ["3s"] * 4 + ["4s"] * 4 + ["6s"] * 4 + ["7s"] * 4 + ["8s"] * 4
                   + ["9s"] * 4 + ["1z"] * 4)
    for room in (2, 3, 6, 5, 4, 7, 8, 9):
        assert "stairs" not in options(game)
        tiles = " ".join(next(fillers) for _ in range(4))
        revealed = of(feed(game, f"move:{room} {tiles}"), Kind.ROOM)[0]
    assert revealed["room"] == 9 and revealed["stairs"]
    assert "stairs" in options(game)


def test_jr_map_4_regeneration_and_victory_on_the_last_floor() -> None:
    """JR-MAP-4: HP +1 per room revealed (up to max); leaving the last floor wins."""
    profile = dataclasses.replace(DEFAULT_PROFILE, last_floor=2)
    game = Game("ez", profile)
    game.pc.hp = 10
    events = feed(game, "5m 1z 2z 3z 5z")
    assert of(events, Kind.HEAL)[0] == {"amount": 1, "hp": 11, "why": "room"}
    events = feed(game, "stairs")
    assert of(events, Kind.FLOOR)[0]["floor"] == 2
    assert game.ledger.total(Place.TABLE) == 0  # the floor's tiles went to the discards
    events = feed(game, "9m 1z 2z 3z 5z stairs")
    over = of(events, Kind.GAME_OVER)[0]
    assert over["result"] == "victory" and game.outcome() is not None and game.outcome().won
    assert game.pending is None


def _spec_rows(header: str) -> list[list[str]]:
    text = SPEC.read_text(encoding="utf-8")
    block = text[text.index(header):]
    rows = []
    for line in block.splitlines()[1:]:
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip() for c in line.strip("|").split("|")])
        elif rows and not line.startswith("|"):
            break
    return rows


def test_jr_enc_1_encounter_table_matches_the_spec() -> None:
    """JR-ENC-1: every cell of the encounter table, floors 1-26 and deeper."""
    rows = _spec_rows("| floor | 1 |")
    assert len(rows) == 26
    for row in rows:
        floor = int(row[0].rstrip("+"))
        for rank, monster in enumerate(row[1:], start=1):
            assert TABLES.monster_for(floor, rank).id == monster, (floor, rank)
    assert TABLES.monster_for(40, 9).id == "D"


def test_jr_mon_1_monster_table_matches_the_spec() -> None:
    """JR-MON-1: names, attack, damage, XP, drops, floors and both sleep columns."""
    sleep = {"睡眠": "asleep", "熟睡": "deeply_asleep", "眠": "asleep",
             "眠/起": "asleep_or_awake", "熟睡/起": "deeply_asleep_or_awake"}
    rows = _spec_rows("| id | name |")
    assert len(rows) == len(TABLES.monsters) == 26
    for mid, ja, en, attack, dmg, xp, drops, floors, ez, plus, _ability in rows:
        m = TABLES.monsters[mid]
        assert (m.name_ja, m.name_en, m.attack, m.xp, m.drops) == (
            ja, en, int(attack), int(xp.replace(",", "")), int(drops))
        assert (f"{m.damage_d9}d9" if m.damage_d9 else str(m.damage)) == dmg
        low, _, high = floors.partition("–")
        assert (m.floors_from, m.floors_to) == (int(low), int(high) if high else 0)
        assert (m.sleep_ez.value, m.sleep_plus.value) == (sleep[ez], sleep[plus])


def test_jr_sleep_1_ez_monsters_always_sleep() -> None:
    """JR-SLEEP-1: in EZ every monster is asleep or deeply asleep, per the EZ column."""
    game = Game("ez")
    events = feed(game, "5m 1m 3m 1z 1z")  # snake (睡眠) and emu (睡眠)
    assert [e["sleep"] for e in of(events, Kind.ENCOUNTER)] == ["asleep", "asleep"]
    game = Game("ez")
    events = feed(game, "5m 4m 1z 1z 1z")  # bat: 熟睡
    assert of(events, Kind.ENCOUNTER)[0]["sleep"] == "deeply_asleep"


def test_jr_sleep_2_plus_fixed_columns() -> None:
    """JR-SLEEP-2: 眠 and 熟睡 in the Plus column are fixed; no check is made."""
    game = Game("plus")
    events = feed(game, "5m 3m 1z 1z 1z")  # emu: 眠
    enc = of(events, Kind.ENCOUNTER)[0]
    assert enc["sleep"] == "asleep" and enc["sleep_check"] == {}
    game = Game("plus")
    game.floor = 2
    events = feed(game, "5m 7m 1z 1z 1z")  # floor 2, rank 7: ice monster, 熟睡
    assert of(events, Kind.ENCOUNTER)[0]["sleep"] == "deeply_asleep"


@pytest.mark.parametrize(
    ("corner", "monster", "rings", "awake"),
    [
        ("1p", "1m", 0, True), ("2p", "1m", 0, False), ("3s", "5m", 0, True),
        ("4p", "4m", 1, True), ("4p", "6m", 1, False),
        ("2p", "2m", 2, False), ("3p", "3m", 2, True), ("3p", "5m", 2, False),
    ],
)
def test_jr_sleep_3_sleep_check_table(corner: str, monster: str, rings: int, awake: bool) -> None:
    """JR-SLEEP-3: row = top-left rank, column = monster rank; parity, equality, ≥3 with rings."""
    assert TABLES.awake_by_check(int(corner[0]), int(monster[0]), rings) is awake


def test_jr_sleep_3_in_a_game_with_an_honour_corner() -> None:
    """JR-SLEEP-3: the check in play; a top-left honour tile means asleep [DEFAULT]."""
    game = Game("plus")
    enc = of(feed(game, "5m 1m 1z 1z 1z"), Kind.ENCOUNTER)[0]  # snake at the corner itself
    assert enc["sleep"] == "awake" and enc["sleep_check"]["row"] == "1m"
    game = Game("plus")
    enc = of(feed(game, "5m 1z 1m 1z 1z"), Kind.ENCOUNTER)[0]
    assert enc["sleep"] == "asleep" and enc["sleep_check"]["row"] == "1z"


def test_jr_dice_1_the_profile_names_the_critical_tile_and_its_value() -> None:
    """JR-DICE-1 [DEFAULT] in the profile: 6z (發) as the critical, counting 7; the game and
    its narration follow it."""
    from companion.systems.jongrogue.narration import describe
    from companion.systems.jongrogue.tiles import Tile

    profile = dataclasses.replace(DEFAULT_PROFILE, critical=Tile.from_notation("6z"),
                                  critical_value=7)
    game = Game("ez", profile)
    assert of(feed(game, "7z 6z"), Kind.START_ROOM)[0] == {"room": 7, "tiles": ["7z", "6z"]}
    feed(game, "9m 1z 2z 3z")  # room 7: a bat (B) at top-left
    game.pc.weapon = dataclasses.replace(game.pc.weapon, value=-10)  # rate clamps to 9
    check = next(e for e in feed(game, "fight:1 6z") if e.kind is Kind.CHECK)
    assert check.data["critical"] and check.data["success"] and check.data["value"] == 7
    assert ("drew 6z → critical (發) → 7 < 9 → a critical always succeeds → success"
            in describe(check))
