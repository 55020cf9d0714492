"""Which rule chapters each events table can come to (``REACHES``, reviewe74 DEFECT 2): a
table whose reach holds a rule the player's events.toml set wrong is refused before its
first die. Walking every table through a recording Settings keeps the list honest: a new
follow-up that reads a rule of another chapter fails here, not at a player's table after
the throws were taken."""

from __future__ import annotations

import random

import pytest

from companion.app.commands.events import _to_keep, cured
from companion.dice.sources import SimulatedDice
from companion.systems.defaults import Settings
from companion.systems.events import rules as event_rules
from companion.systems.events.lists import LIST_TABLES, load_lists
from companion.systems.events.poisoned import Poison, describe, pass_time
from companion.systems.events.rules import EVENT_TABLES, EventRules, load_rules
from companion.systems.events.run import run_active_action, run_event
from companion.systems.events.sword_world import load_party, load_rating_table
from tests.systems.events.helpers import PARTY, RATINGS

#: A party with a weak thief: it tries the disarms (with no thief the trap stays armed) and
#: fails its checks often, so the walks come to the traps, their poisons and damage.
WEAK = PARTY.replace("adventurer = 3\nvitality = 2", "thief = 1")
LISTS = load_lists('[[monster]]\nname = "G"\nlevel = 7\n', "l.toml")


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


def _outside(read: set[str], reach: tuple[str, ...]) -> list[str]:
    """The rules read that ``reach`` holds neither by chapter nor by rule ID."""
    return sorted(r for r in read if event_rules.chapter(r) not in reach and r not in reach)


def _options(table: str, rules: EventRules) -> list[dict[str, object]]:
    """Each option the table takes (reviewe74b RISK 1: the walks were tried without any,
    so `trap --who NAME`'s EV-DOOR-2 went unseen): the DM levels, the disarmer and each
    trap kind, the victim, the used rooms, the player's lists."""
    # (the rating table here has rating 5 only, DM Lv 1's recovery: the others' a refusal)
    options: list[dict[str, object]] = [{}, {"dm_level": 1}, *(
        ({"dm_level": 50}, {"dm_level": 100}) if table != "recovery" else ())]
    if table == "trap":
        options += [{"disarmer": "Ben"}, *({"trap": row["kind"]}
                                           for row in rules.tables["trap"].rows),
                    {"trap": "pit", "disarmer": "Aki"}]
    if table == "poison":
        options += [{"victim": "Ben"}]
    if table == "recovery":
        options += [{"used_rooms": ("1",)}, {"used_rooms": ("2",)}]
    if table in LIST_TABLES:
        options += [{"lists": LISTS}]
    return options


@pytest.mark.parametrize("table", EVENT_TABLES)
def test_a_table_reads_only_the_chapters_it_declares(table: str,
                                                     read_rules: set[str]) -> None:
    rules = load_rules()
    party = load_party(WEAK)
    ratings = load_rating_table(RATINGS)
    poisoned = {"Aki": Poison(face=5, rule="EV-POI-5", toxicity=9, hours_left=3)}
    for options in _options(table, rules):
        for mode in (None, "generic", "sw"):  # None: the mode read from §1
            if "disarmer" in options and mode != "sw":
                continue  # a disarmer goes with sw mode only
            for seed in range(60 if options else 300):
                run_event(table, SimulatedDice(random.Random(seed)), rules=rules, mode=mode,
                          party=party, rating_table=ratings, poisoned=poisoned,
                          room="1" if table == "recovery" else None,
                          **options)  # type: ignore[arg-type]
    outside = _outside(read_rules, event_rules.REACHES[table])
    assert not outside, f"{table} reads {outside}, outside its REACHES"
    assert read_rules  # the recording saw the walks


def test_trap_with_a_disarmer_named_reads_ev_door_2_and_its_reach_holds_it(
        read_rules: set[str]) -> None:
    """`trap --who NAME` checks the disarmer against EV-DOOR-2's thief_only (reviewe74b
    RISK 1): refused before the trap's die, with the other door rules left out."""
    run_event("trap", SimulatedDice(random.Random(1)), rules=load_rules(), mode="sw",
              party=load_party(WEAK), disarmer="Ben")
    assert "EV-DOOR-2" in read_rules
    refused = load_rules().with_refused({"EV-DOOR-2": "x"})
    assert event_rules.refused_reach(refused.settings, "trap") == ("EV-DOOR-2", "x")
    other = load_rules().with_refused({"EV-DOOR-3": "x"})
    assert event_rules.refused_reach(other.settings, "trap") is None


def test_the_act_check_reads_only_its_chapters(read_rules: set[str]) -> None:
    poisoned = {"Aki": Poison(face=5, rule="EV-POI-5", toxicity=9, hours_left=3)}
    for seed in range(50):
        run_active_action("Aki", poisoned, SimulatedDice(random.Random(seed)),
                          mode="sw", party=load_party(WEAK))
    assert read_rules and not _outside(read_rules, event_rules.REACHES["act"])


#: One poison of each kind the list keeps: vitality damage, hours left, permanent, an
#: ability changed.
TRACKED = {
    "Aki": Poison(face=1, rule="EV-POI-8", toxicity=9, damage_max=3),
    "Ben": Poison(face=5, rule="EV-POI-5", toxicity=9, hours_left=3),
}


@pytest.mark.parametrize("rest_hours", [None, 1, 5])
def test_a_tick_reads_only_its_reach(rest_hours: int | None, read_rules: set[str]) -> None:
    """end-block, rest and the tray's Tick (EV-POI-2; reviewe74b DEFECT 1): refused
    before anything is written when a rule they read is."""
    pass_time(TRACKED, load_rules(), rest_hours, hp={"Aki": 10})
    assert read_rules and not _outside(read_rules, event_rules.REACHES["tick"])


def test_a_cure_reads_only_its_reach(read_rules: set[str]) -> None:
    """`events cure` (EV-POI-10, 11; reviewe74b DEFECT 2) and `poisoned`, which reads none."""
    rules = load_rules()
    for name, poison in TRACKED.items():
        cured(name, poison, rules)
    assert read_rules and not _outside(read_rules, event_rules.REACHES["cure"])
    read_rules.clear()
    for poison in TRACKED.values():
        describe(poison, rules)
    assert not read_rules


def test_the_recovery_with_rooms_used_and_a_pending_cure_reads_only_its_reach(
        read_rules: set[str]) -> None:
    """A recovery in a room used before gives nothing (EV-REC-1), and one that cures is
    described for its pending mark (:func:`_to_keep`) from its report alone."""
    rules = load_rules()
    for used in ((), ("1",)):
        report = run_event("recovery", SimulatedDice(random.Random(3)), rules=rules,
                           mode="sw", party=load_party(WEAK), room="1", used_rooms=used,
                           poisoned=TRACKED, rating_table=load_rating_table(RATINGS))
        _to_keep(TRACKED, report, load_party(WEAK))
    assert read_rules and not _outside(read_rules, event_rules.REACHES["recovery"])


def test_every_rule_with_a_default_is_in_some_table_s_reach() -> None:
    """A rule of a chapter no table declares would never refuse one before its die."""
    reached = {c for chapters in event_rules.REACHES.values() for c in chapters}
    assert all(event_rules.chapter(rule) in reached or rule in reached
               for rule in load_rules().settings.values)
