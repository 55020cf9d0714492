"""Fights with a fighter who has lost its arms, for the Default "CO-BODY-5 (hands)" (engine
revision 20) in the engine's and the table's tests."""

from __future__ import annotations

from typing import Any

from companion.dice import ScriptedDice
from companion.systems.coc.combat import Attack, EndTurn, Fight
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel

#: Ann's Japanese sword (weapon 0), to cut arms off.
ANN: dict[str, Any] = {"weapons": ("japanese_sword",), "japanese_sword": 90}


class Low:
    """Dice rolling 2 on a d100 (Ann's sword at its arm-cut penalty hits) and 1 on the rest."""

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        return [2 if sides == 100 else 1] * count


def armless(engine: int, cult: dict[str, Any], arms: int = 2,
            ann: dict[str, Any] = ANN) -> Fight:
    """004: Ann's sword (her weapon 0) cuts off ``arms`` of Cult's arms, staunched (CO-BODY-2,
    CO-BODY-5), one a round; then it is Cult's turn. Cult's SIZ 40 keeps it alive."""
    f = at(engine, duel(Profile.P004, ann, {**cult, "siz": 40}))
    for n in range(arms):
        if n:
            f.push(EndTurn("Cult"), ScriptedDice([]))
        f.push(Attack("Ann", "Cult", 0, body="cut", part="arm", staunched=True), Low())
    assert f.state.get("Cult").lost == ("arm",) * arms
    assert f.state.current is not None and f.state.current.name == "Cult"
    return f
