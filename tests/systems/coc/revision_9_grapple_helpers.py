"""Shared by the tests of a fight played by engine revision 9 (CO-GRAP-2's BreakFree): Ann
holding Cult, the fight, and its file as revision 9 wrote it."""

from __future__ import annotations

import json
from typing import Any

from companion.systems.coc.combat import Attack, BreakFree, EndTurn, Fight, Grapple
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push

ANN: dict[str, Any] = {"weapons": ("fist",), "fist": 60, "grapple": 70}


CULT: dict[str, Any] = {"fist": 60}


def revision_9_fight() -> Fight:
    """Played by revision 9: Ann holds Cult; Cult punches with its 1 AP (no STR roll), then
    round 2: Ann ends her turn and Cult spends its AP on BreakFree, which fails."""
    f = at(9, duel(Profile.P003, ANN, CULT))
    push(f, Grapple("Ann", "Cult"), (100, 10))
    push(f, Attack("Cult", "Ann"), (100, 90))
    push(f, EndTurn("Ann"))
    push(f, BreakFree("Cult"), (100, 80))
    return f


def as_saved_by_revision_9(f: Fight) -> dict[str, Any]:
    """``f``'s file as revision 9's code wrote it: ``engine`` 9 at its top, none on entries."""
    data: dict[str, Any] = json.loads(json.dumps(f.to_json()))
    data["engine"] = 9
    for entry in data["journal"]:
        assert entry.pop("engine") == 9
    return data
