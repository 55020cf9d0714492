"""Which rule chapters each events table can come to (``REACHES``, reviewe74 DEFECT 2): a
table whose reach holds a rule the player's events.toml set wrong is refused before its
first die. Walking every table through a recording Settings keeps the list honest: a new
follow-up that reads a rule of another chapter fails here, not at a player's table after
the throws were taken."""

from __future__ import annotations

import random

import pytest

from companion.dice.sources import SimulatedDice
from companion.systems.defaults import Settings
from companion.systems.events import rules as event_rules
from companion.systems.events.poisoned import Poison
from companion.systems.events.rules import EVENT_TABLES, load_rules
from companion.systems.events.run import run_active_action, run_event
from companion.systems.events.sword_world import load_party, load_rating_table
from tests.systems.events.helpers import PARTY, RATINGS

#: A party with a weak thief: it tries the disarms (with no thief the trap stays armed) and
#: fails its checks often, so the walks come to the traps, their poisons and damage.
WEAK = PARTY.replace("adventurer = 3\nvitality = 2", "thief = 1")


@pytest.fixture
def read_rules(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Every rule ID read through Settings, as the walks read them."""
    read: set[str] = set()
    original = Settings.__getitem__

    def recording(self: Settings, key: tuple[str, str]) -> object:
        read.add(key[0])
        return original(self, key)

    monkeypatch.setattr(Settings, "__getitem__", recording)
    return read


@pytest.mark.parametrize("table", EVENT_TABLES)
def test_a_table_reads_only_the_chapters_it_declares(table: str,
                                                     read_rules: set[str]) -> None:
    rules = load_rules()
    party = load_party(WEAK)
    ratings = load_rating_table(RATINGS)
    poisoned = {"Aki": Poison(face=5, rule="EV-POI-5", toxicity=9, hours_left=3)}
    for mode in (None, "generic", "sw"):  # None: the mode read from §1
        for seed in range(300):
            run_event(table, SimulatedDice(random.Random(seed)), rules=rules, mode=mode,
                      party=party, rating_table=ratings, poisoned=poisoned,
                      room="1" if table == "recovery" else None)
    chapter, reach = event_rules.chapter, event_rules.REACHES[table]
    outside = sorted(r for r in read_rules if chapter(r) not in reach)
    assert not outside, f"{table} reads {outside}, outside its REACHES"
    assert read_rules  # the recording saw the walks


def test_the_act_check_reads_only_its_chapters(read_rules: set[str]) -> None:
    poisoned = {"Aki": Poison(face=5, rule="EV-POI-5", toxicity=9, hours_left=3)}
    for seed in range(50):
        run_active_action("Aki", poisoned, SimulatedDice(random.Random(seed)),
                          mode="sw", party=load_party(WEAK))
    chapter = event_rules.chapter
    assert read_rules and all(chapter(r) in event_rules.REACHES["act"] for r in read_rules)


def test_every_rule_with_a_default_is_in_some_table_s_reach() -> None:
    """A rule of a chapter no table declares would never refuse one before its die."""
    reached = {c for chapters in event_rules.REACHES.values() for c in chapters}
    assert {event_rules.chapter(rule) for rule in load_rules().settings.values} <= reached
