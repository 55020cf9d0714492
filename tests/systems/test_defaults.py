"""The Defaults shared by the systems (companion/systems/defaults.py): labels, overrides
checked by rule, key and type, the seed's numbers refused, each system's own wording."""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.systems.coc.rules import load_rules as coc_rules
from companion.systems.defaults import DEFAULT_TAG, Settings, Wording, check_apart
from companion.systems.events.rules import load_rules as event_rules
from companion.systems.genso.rules import load_rules as genso_rules

SOURCE = {"X-1": {"seed": 3}}
PACKAGED = Settings({"X-1": {"n": 1, "on": False}, "X-2": {"mode": "a"}})


def test_labels_entries_and_what_the_user_set() -> None:
    changed = PACKAGED.with_overrides({"X-1": {"n": 2}}, "here", SOURCE)
    assert changed["X-1", "n"] == 2 and PACKAGED["X-1", "n"] == 1
    assert changed.tag("X-1", "n") == "" and changed.tag("X-1", "on") == DEFAULT_TAG
    assert changed.entries() == [("X-1", "n", 2, False), ("X-1", "on", False, True),
                                 ("X-2", "mode", "a", True)]
    assert changed.user_values() == {"X-1": {"n": 2}}
    assert changed.with_overrides({}) == changed


@pytest.mark.parametrize(("overrides", "message"), [
    ([1], "here: the Defaults must be tables keyed by rule ID"),
    ({"X-1": 5}, r"here: \[X-1\] must be a table of settings"),
    ({"X-1": {"seed": 4}}, r"here: X-1.seed is the seed's rule \(3\), not a Default"),
    ({"X-9": {"n": 1}}, "here: no Default is kept for rule 'X-9'"),
    ({"X-1": {"m": 1}}, r"here: X-1 has no setting 'm' \(has n, on\)"),
    ({"X-1": {"on": 1}}, "here: X-1.on must be true or false, found 1"),
    ({"X-1": {"n": "３"}}, "here: X-1.n must be a whole number, found '３'"),
    ({"X-2": {"mode": 3}}, "here: X-2.mode must be text, found 3"),
])
def test_each_bad_override_is_refused_by_name(overrides: object, message: str) -> None:
    with pytest.raises(DataError, match=message):
        PACKAGED.with_overrides(overrides, "here", SOURCE)  # type: ignore[arg-type]


def test_the_seed_s_numbers_are_refused_before_anything_else() -> None:
    """Whatever else is wrong (a wrong type, an unknown key), a seed's number is named."""
    with pytest.raises(DataError, match="seed's rule"):
        PACKAGED.with_overrides({"X-2": {"mode": 5}, "X-1": {"m": 1, "seed": 0}}, "here",
                                SOURCE)


def test_each_system_keeps_its_wording() -> None:
    worded = Settings(PACKAGED.values, wording=Wording(seed="{rule}.{name}: book ({value})",
                                                       no_name="{rule}: no {name} [{known}]"))
    with pytest.raises(DataError, match=r"X-1.seed: book \(3\)"):
        worded.with_overrides({"X-1": {"seed": 1}}, "here", SOURCE)
    with pytest.raises(DataError, match=r"X-1: no m \[n, on\]"):
        worded.with_overrides({"X-1": {"m": 1}}, "here", SOURCE)
    with pytest.raises(DataError, match=r"seed 001: 10\), not a Default"):
        event_rules().with_overrides({"EV-TRAP-3": {"rating_drop": 2}})
    with pytest.raises(DataError, match=r"seed 002: 4\), not a Default"):
        genso_rules().with_overrides({"GM-CHAR-7": {"gold": 9}})
    with pytest.raises(DataError, match=r"seed's rule \(3\), not a Default: it cannot"):
        coc_rules().with_overrides({"CO-TURN-3": {"action_points": 4}})
    with pytest.raises(DataError, match=r"CO-TURN-3 has no setting 'x' \(no Defaults\)"):
        coc_rules().with_overrides({"CO-TURN-3": {"x": 4}})


def test_a_key_kept_both_as_a_seed_number_and_a_default_is_refused() -> None:
    check_apart(SOURCE, PACKAGED.values, "data.toml")
    with pytest.raises(DataError, match=r"data.toml: X-1 keeps \['seed'\] both as a seed"):
        check_apart(SOURCE, {"X-1": {"seed": 1}}, "data.toml")
