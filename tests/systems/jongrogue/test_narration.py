"""Events in words (spec §9): the lines a player reads for turns and for the end of a run."""

from __future__ import annotations

import dataclasses

import pytest

from companion.hw.display.fonts import without_cjk
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.narration import describe
from companion.systems.jongrogue.profile import DEFAULT_PROFILE
from companion.systems.jongrogue.tiles import Tile
from tests.systems.jongrogue.script import feed


@pytest.mark.parametrize(
    ("result", "cause", "line"),
    [
        ("death", "frozen", "*** Game over on floor 3: frozen to death (凍死) ***"),
        ("death", "J", "*** Game over on floor 3: killed by ジャバウォック (jabberwock) ***"),
        ("wall_exhausted", "",
         "*** Game over on floor 3: the wall ran out of tiles (山牌切れ) ***"),
    ],
)
def test_the_game_over_line_reads_right_for_every_cause(result: str, cause: str, line: str) -> None:
    event = Event(Kind.GAME_OVER, {"result": result, "floor": 3, "cause": cause, "level": 4,
                                   "xp": 50, "gold": 0})
    assert describe(event) == line


def test_a_turn_in_words() -> None:
    event = Event(Kind.TURN, {"floor": 2, "room": 5, "position": "door", "turn": 3,
                              "action": "fight", "target": 4, "attackers": [4],
                              "pincer": False, "cap": 1})
    assert describe(event) == (
        "  -- turn 3 ターン3: the PC will fight #4 (floor 2 room 5, on the door); "
        "may attack: #4 (at most 1)"
    )


def test_a_fumble_at_rate_1_reads_as_the_automatic_failure_it_is() -> None:
    """JR-DICE-2: a fumble counts 1, which meets a rate of 1, yet a melee fumble fails
    regardless: the line says why rather than "1 ≥ 1 → failure"."""
    event = Event(Kind.CHECK, {
        "what": "melee vs レイス", "target": 1, "raw": -5,
        "terms": [["attack", 12], ["level", -11], ["strength", 0], ["weapon", -6]],
        "tiles": ["5z"], "value": 1, "critical": False, "fumble": True, "success": False,
        "monster": "W", "uid": 7})
    assert describe(event).endswith("drew 5z → fumble (白) → 1 ≥ 1 → a fumble always fails "
                                    "→ failure 失敗")
    plain = Event(Kind.CHECK, {**event.data, "target": 3})
    assert describe(plain).endswith("drew 5z → fumble (白) → 1 < 3 → failure 失敗")


def test_a_check_names_its_monster_in_english_too() -> None:
    """The logged ``what`` holds the Japanese name only; the line the player reads has both,
    so a screen without a Japanese font still says whom the check was against."""
    event = Event(Kind.CHECK, {
        "what": "melee vs 大うずら", "target": 4, "raw": 4,
        "terms": [["attack", 7], ["level", -1], ["strength", 0], ["weapon", -2]],
        "tiles": ["7s"], "value": 7, "critical": False, "fumble": False, "success": True,
        "monster": "E", "uid": 2})
    line = describe(event)
    assert line.startswith("  melee 近接攻撃 vs 大うずら (emu): rate 4 = 7 attack 攻撃力")
    assert without_cjk(line).startswith("melee vs emu: rate 4 = 7 attack")
    no_monster = Event(Kind.CHECK, {**event.data, "what": "thaw (凍結)", "monster": "",
                                    "uid": 0})
    assert describe(no_monster).startswith("  thaw (凍結): rate 4")


@pytest.mark.parametrize(("event", "english"), [
    (Event(Kind.ITEM, {"action": "found", "tile": "8p", "name_ja": "鎧保護の指輪",
                       "name_en": "ring of armour protection"}),
     "Found ring of armour protection [8p]"),
    (Event(Kind.DEFEAT, {"uid": 2, "monster": "E", "xp": 2, "total": 4}),
     "emu #2 defeated: +2 XP -> 4"),
    (Event(Kind.ENCOUNTER, {"uid": 1, "name_ja": "大蛇", "name_en": "snake", "sleep": "awake",
                            "sleep_check": None, "on_gold": False}),
     "Monster #1: snake, awake"),
    (Event(Kind.ITEM, {"action": "ring on", "tile": "8p", "ring": "armour_protection"}),
     "Put on ring of armour protection [8p]"),
])
def test_names_read_in_english_without_a_japanese_font(event: Event, english: str) -> None:
    assert without_cjk(describe(event)) == english


def test_prompts_name_monsters_and_gear_in_english_too() -> None:
    """Prompts are not logged (only events are): they carry the English beside the Japanese."""
    game = Game("plus")
    feed(game, "9m 5m 8p 8m 5z")  # a snake (awake) and an emu in room 9
    assert game.pending is not None
    assert game.pending.prompt == "大蛇 snake attack! 攻撃！"
    feed(game, "fight:1")
    assert game.pending is not None
    assert game.pending.prompt == \
        "Draw a tile for the check: melee 近接攻撃 vs 大蛇 snake (判定 1d9 >= 3)"
    assert without_cjk(game.pending.prompt).endswith("melee vs snake (1d9 >= 3)")


def _flytrap_hits(gold: int, wall: str) -> list[Event]:
    """EZ, floor 12: a venus flytrap (虫取り草, 2d9 damage, holds: −10 gold) in start room 5,
    fought and missed, so it hits the PC holding ``gold`` with the 2d9 drawn from ``wall``."""
    game = Game("ez")
    game.floor = 12
    game.pc.gold = gold
    return feed(game, f"5p 8m 3s 1z 2z fight:1 1m {wall}")


def test_a_2d9_marks_each_tile_and_brackets_each_1d9() -> None:
    """JR-MON-1 2d9 damage (a76jrcore NIT 1): each 1d9 in its brackets, its honours set
    aside and its critical or fumble with what it counts, the two summed; the line said
    ``2d9: 6z, 7z, 5z`` and left the player to find how they made 10. Shorter than a
    check's marking, which took the damage out of the Last check panel at 800x480 (r76jr
    DEFECT 2), and bracketed so the ``+`` is between the 1d9s, not after a tile (NIT 4)."""
    events = _flytrap_hits(0, "6z 7z 5z")
    damage = next(e for e in events if e.kind is Kind.DAMAGE)
    assert (damage.data["table"], damage.data["rolls"]) == (10, ["6z", "7z", "5z"])
    assert describe(damage) == (
        "  虫取り草 (venus flytrap) hits the PC: 10 (2d9: [6z set aside, 7z 中 9] + "
        "[5z 白 1]) − 3 armour = 7 → HP 5")
    plain = next(e for e in _flytrap_hits(0, "2z 4s 8m") if e.kind is Kind.DAMAGE)
    assert "12 (2d9: [2z set aside, 4s] + [8m]) − 3 armour = 9" in describe(plain)


def test_a_2d9_is_read_by_the_games_own_critical_and_fumble() -> None:
    """A profile of other critical and fumble tiles (1z counting 8, 2z counting 2) splits
    the tiles where its game did; told with the packaged profile, where they make no 2d9
    of that sum, they are listed as logged rather than marked wrongly."""
    profile = dataclasses.replace(DEFAULT_PROFILE, critical=Tile.from_notation("1z"),
                                  fumble=Tile.from_notation("2z"), critical_value=8,
                                  fumble_value=2)
    event = Event(Kind.DAMAGE, {"uid": 1, "monster": "F", "table": 10,
                                "rolls": ["7z", "1z", "2z"], "defence": 3, "amount": 7,
                                "hp": 5, "breath": False})
    assert "10 (2d9: [7z set aside, 1z 東 8] + [2z 南 2]) " in describe(event, profile)
    assert "10 (2d9: 7z, 1z, 2z) − 3 armour" in describe(event)


@pytest.mark.parametrize(("gold", "line"), [
    (0, "  Gold 金塊 -10 (held 拘束): the PC had none 所持金なし, 0 lost → 0"),
    (4, "  Gold 金塊 -10 (held 拘束): the PC had only 4 所持金4のみ, 4 lost → 0"),
    (25, "  Gold 金塊 -10 (held 拘束) → 15"),
])
def test_gold_the_pc_cannot_pay_says_the_loss_asked_and_the_loss(gold: int, line: str) -> None:
    """JR-AB-HOLD (EZ −10 gold), and poison, gold theft, gaze and strength drain alike
    (a76jrcore NIT 2): a PC with less gold than the rule takes loses what it has, and the
    line said "+0", a gain, for a PC with none. The gold kept is as before."""
    events = _flytrap_hits(gold, "2z 4s 8m")
    [change] = [e for e in events if e.kind is Kind.ITEM and e.data["action"] == "gold"]
    assert (change.data["amount"], change.data["gold"]) == (-min(gold, 10), max(0, gold - 10))
    assert describe(change) == line
