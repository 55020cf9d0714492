"""Events in words (spec §9): the lines a player reads for turns and for the end of a run."""

from __future__ import annotations

import pytest

from companion.hw.display.fonts import without_cjk
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.narration import describe
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
