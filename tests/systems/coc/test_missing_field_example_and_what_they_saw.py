"""a78cocfight NIT 7: an action missing a field gives an example that names it
(`act san_loss ACTOR --with amount=…`), not --with KEY=VALUE; and from engine revision 26
a temporary insanity says the investigator "understands what they saw" (revision 25: "what
it saw", which its entries still say on replay)."""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.systems.coc.combat import SanLoss
from companion.systems.coc.combat.actions import action_from_json
from companion.systems.coc.combat.keeper import THEY_SAW
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push, replays


@pytest.mark.parametrize(("kind", "said"), [
    ("san_loss", "the san_loss action needs its amount (e.g. `act san_loss ACTOR --with "
                 "amount=…`)"),
    ("fall", "the fall action needs its metres (e.g. `act fall ACTOR --with metres=…`)"),
    ("burn", "the burn action needs its damage (e.g. `act burn ACTOR --with damage=…`)"),
    ("attack", "the attack action needs its target (e.g. `act attack ACTOR TARGET`)"),
])
def test_the_example_names_the_missing_field(kind: str, said: str) -> None:
    with pytest.raises(DataError) as refused:
        action_from_json({"kind": kind, "actor": "Ann"})
    assert str(refused.value) == said


def test_temporary_insanity_says_what_they_saw() -> None:
    f = duel(Profile.P004, {})
    assert "Ann understands what they saw: temporary insanity (CO-BASE-13)" in push(
        f, SanLoss("Ann", 6), (100, 40))
    old = at(THEY_SAW - 1, duel(Profile.P004, {}))
    assert "Ann understands what it saw: temporary insanity (CO-BASE-13)" in push(
        old, SanLoss("Ann", 6), (100, 40))
    replays(old)
    replays(f)
