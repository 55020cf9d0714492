"""Events in words (spec §9): the lines a player reads for turns and for the end of a run."""

from __future__ import annotations

import pytest

from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.narration import describe


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
        "  -- turn 3, floor 2 room 5 on the door: the PC will fight #4; "
        "may attack: #4 (at most 1)"
    )
