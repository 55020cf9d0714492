"""Rules revision 6 (audit rules56, finding 3): each gold-lover sits on a gold pile of its
own while there is one (JR-AB-GOLDLOVER). Revision 5, which a game saved or logged before
it still replays by, is checked beside: a scripted game's events and a ``play --log`` log
that revision wrote (``data/goldlover_rev5.jsonl``, ``data/log_rev5_two_orcs.jsonl``)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import RULES_REVISION, Game
from companion.systems.jongrogue.state import Position
from tests.systems.jongrogue.revision_helpers import difference_by_the_newest
from tests.systems.jongrogue.script import feed, of, options

DATA = Path(__file__).parent / "data"


def room(tiles: str, revision: int = RULES_REVISION) -> Game:
    """EZ floor 4 (9m: an orc, オーク, the one 金塊好き); start room 5 holds ``tiles``."""
    game = Game("ez", revision=revision)
    game.floor = 4
    game.pc.hp = game.pc.max_hp = 200
    feed(game, f"5m {tiles}")
    assert game.position is Position.DOOR
    return game


def piles(game: Game) -> list[int | None]:
    return [m.on_gold for m in game.room_monsters()]


def test_jr_ab_goldlover_two_orcs_guard_two_piles() -> None:
    """JR-AB-GOLDLOVER, seed l.243-248: 「遭遇マップの何れかの金塊の牌の上にモンスターの牌を
    乗せます」 and 「金塊に乗っている間は…PCが金塊を拾う事も出来ません」. One monster tile goes
    on one gold tile, so the second orc takes the pile the first left free, in spot order,
    and neither pile can be taken. Revision 5 sat both on the 1s and let the PC take the 2s."""
    game = room("9m 9m 1s 2s")  # orcs at spots 0 and 1; gold 10 (1s) and 20 (2s)
    assert piles(game) == [2, 3]
    assert "take" not in options(game)
    feed(game, "enter")  # awake on their gold, they attack no one (l.247)
    assert game.attackers() == [] and "take" not in options(game)
    old = room("9m 9m 1s 2s", revision=5)
    assert piles(old) == [2, 2]
    feed(old, "take")
    assert old.pc.gold == 20


def test_jr_ab_goldlover_a_hit_frees_its_own_pile_only() -> None:
    """JR-AB-GOLDLOVER l.249-250: a hit unseats the orc (封魔) and frees the pile it sat on;
    the other orc's pile stays out of reach."""
    game = room("9m 9m 1s 2s")
    events = feed(game, "fight:1 8m")
    assert [a["ability"] for a in of(events, Kind.ABILITY)] == ["gold_lover"]
    assert piles(game) == [None, 3]
    assert game.room.tiles[2] is not None and game.room.tiles[3] is not None


def test_jr_ab_goldlover_more_orcs_than_piles_share_the_one() -> None:
    """The seed's condition is the room's gold, 「モンスターのいる部屋に金塊が有ったら」, not a
    free pile: with two orcs and one pile (a room of four tiles has one pile whenever its
    gold-lovers outnumber its piles) both sit on it and neither attacks, as in revision 5."""
    for revision in (RULES_REVISION, 5):
        game = room("9m 9m 1s 1z", revision=revision)
        assert piles(game) == [2, 2]
        feed(game, "enter")
        assert game.attackers() == [] and "take" not in options(game)


def test_a_scripted_revision_5_game_gives_the_events_it_gave() -> None:
    """The two-orc room played by revision 5 (``data/goldlover_rev5.jsonl``, its events as
    recorded then) gives the same events, event for event, as a saved game replays."""
    header, *recorded = (json.loads(line) for line in
                         (DATA / "goldlover_rev5.jsonl").read_text("utf-8").splitlines())
    assert header["rules"] == 5
    game = Game(header["preset"], revision=header["rules"])
    game.floor = header["floor"]
    game.pc.hp = game.pc.max_hp = header["hp"]
    got = [json.loads(json.dumps(e.to_json(), ensure_ascii=False))
           for e in feed(game, header["inputs"])]
    assert got == recorded


def test_a_revision_5_log_with_two_orcs_on_one_pile_still_replays() -> None:
    """``companion play --headless --seed 723 --preset plus --log`` written by revision 5:
    two orcs met on a room's two piles both sat on one. The log replays by its revision
    (every event matches, to the end); the same game read as revision 6 differs there."""
    path = DATA / "log_rev5_two_orcs.jsonl"
    assert f"{path}:495:" in difference_by_the_newest(path, 5)
