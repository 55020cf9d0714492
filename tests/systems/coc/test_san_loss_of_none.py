"""rules69 NIT 3 (CO-BASE-13): a SAN loss that loses none marked an investigator at SAN 0
indefinitely insane ("0 of 0 SAN within the hour"), since 0 is a fifth of 0. From engine
revision 17 nothing lost is no insanity; a revision-16 entry replays as it was played."""

from __future__ import annotations

import json
from dataclasses import replace

from companion.dice import ScriptedDice
from companion.systems.coc.combat import ENGINE, Condition, Fight, SanLoss, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import at, duel, person, push


def at_san_0(engine: int = ENGINE) -> Fight:
    """Ann, whose sheet says SAN 0 (docs/examples' ann.toml with ``san = 0``), against Cult."""
    rules = load_rules(Profile.P004)
    ann = replace(person(rules, "Ann", 14), san=0)
    return at(engine, Fight(rules, [(ann, Side.INVESTIGATORS),
                                    (person(rules, "Cult", 10), Side.FOES)], ScriptedDice([])))


def test_losing_no_san_at_san_0_is_no_indefinite_insanity() -> None:
    f = at_san_0()
    text = push(f, SanLoss("Ann", 0))
    assert "Ann loses 0 SAN: SAN 0 → 0 (CO-BASE-13)" in text
    assert "indefinite insanity" not in text
    assert not f.state.get("Ann").has(Condition.INDEFINITE_INSANITY, 1)


def test_a_real_loss_of_a_fifth_is_still_indefinite_insanity() -> None:
    f = duel(Profile.P004, {})
    text = push(f, SanLoss("Ann", 10), (100, 90))  # 10 of 50 within the hour: 1/5
    assert "10 of 50 SAN within the hour: indefinite insanity (CO-BASE-13)" in text


def test_revision_16_replays_its_0_of_0_as_played() -> None:
    f = at_san_0(16)
    text = push(f, SanLoss("Ann", 0))
    assert "0 of 0 SAN within the hour: indefinite insanity (CO-BASE-13)" in text
    again = Fight.from_json(load_rules(), json.loads(json.dumps(f.to_json())))
    assert again.journal[-1].engine == 16 < ENGINE and again.state == f.state
