"""The Last check 判定 panel: the last check and what it set off, nothing that came after
(spec §9; display audit 56 #5: a move into room 2 showed under a check made in room 3)."""

from __future__ import annotations

from companion.app.modes.jongrogue import JongRogueMode, last_check
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import Game

#: Events that are the game going on after a check, never its outcome.
LATER = {Kind.MOVE, Kind.TURN, Kind.RANGED, Kind.ROOM, Kind.ENCOUNTER, Kind.WAKE, Kind.STAIRS,
         Kind.FLOOR, Kind.CHECK}
#: Events a check sets off; the panel must not leave one out.
OUTCOMES = {Kind.DAMAGE, Kind.DEFEAT, Kind.LEVEL}


def check(what: str) -> Event:
    return Event(Kind.CHECK, {
        "what": what, "target": 3, "raw": 3, "terms": [["attack", 3]], "tiles": ["6m"],
        "value": 6, "critical": False, "fumble": False, "success": True, "monster": "L",
        "uid": 4})


def test_a_defeat_s_gold_shows_but_a_gold_pile_taken_and_a_move_after_it_do_not() -> None:
    events = [
        check("melee vs レプラコーン"),
        Event(Kind.DEFEAT, {"uid": 4, "monster": "L", "xp": 5, "total": 30}),
        Event(Kind.ITEM, {"action": "gold", "amount": 20, "gold": 60,
                          "why": "leprechaun's gold"}),
        Event(Kind.ITEM, {"action": "gold", "amount": 30, "gold": 90, "why": "gold pile 3p"}),
        Event(Kind.MOVE, {"room": 2, "position": "room"}),
    ]
    shown = last_check(events, Event.describe)
    assert shown == tuple(e.describe() for e in events[:3])


def test_a_played_game_s_last_check_never_shows_what_came_after_it() -> None:
    game = Game("plus")
    player = HeadlessPlayer(7, "cautious")
    mode = JongRogueMode(game, player)
    left_out = 0  # states where the check was followed by a later event within 4
    while game.outcome() is None:
        mode.push(player.answer(game))
        events = game.events
        checks = [i for i, e in enumerate(events) if e.kind is Kind.CHECK]
        if not checks:
            continue
        first = checks[-1]
        shown = mode.view("").last_check
        end = first + len(shown)
        assert shown == tuple(e.describe() for e in events[first:end])
        assert not any(e.kind in LATER for e in events[first + 1:end])
        if end < len(events):
            assert events[end].kind not in OUTCOMES, shown
            left_out += len(shown) < 4 and len(events) - first >= 4
    assert left_out
