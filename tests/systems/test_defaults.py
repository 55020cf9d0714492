"""The Defaults shared by the systems (companion/systems/defaults.py): labels, overrides
checked by rule, key and type, the seed's numbers refused, each system's own wording."""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.systems.coc.rules import load_rules as coc_rules
from companion.systems.defaults import (
    DEFAULT_TAG,
    Settings,
    Wording,
    check_apart,
    read_limits,
)
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
    ({"X-1": {"n": "３"}}, 'here: X-1.n must be a whole number, found "３"'),
    ({"X-2": {"mode": 3}}, "here: X-2.mode must be text, found 3"),
])
def test_each_bad_override_is_refused_by_name(overrides: object, message: str) -> None:
    with pytest.raises(DataError, match=message):
        PACKAGED.with_overrides(overrides, "here", SOURCE)  # type: ignore[arg-type]


def test_an_unknown_rule_is_refused_even_with_an_empty_table() -> None:
    """Review 54: a rule ID was checked only through its keys, so ``[defaults."NOPE"]`` with
    none yet (a misspelt ID whose keys were to follow) passed unnamed; it is refused with
    the near rule offered, as one with keys now is. A kept rule's empty table holds no
    value: it is taken and changes nothing."""
    with pytest.raises(DataError, match=r"^here: no Default is kept for rule 'NOPE'$"):
        PACKAGED.with_overrides({"NOPE": {}}, "here", SOURCE)
    with pytest.raises(DataError, match=r"^here: no Default is kept for rule 'x-1' "
                                        r"\(did you mean 'X-1'\?\)$"):
        PACKAGED.with_overrides({"x-1": {}}, "here", SOURCE)
    with pytest.raises(DataError, match=r"^here: x-1 has no setting 'n' \(nope\) "
                                        r"\(did you mean 'X-1'\?\)$"):
        Settings(PACKAGED.values, wording=Wording(no_rule="{rule} has no setting {name!r} "
                                                          "(nope)")).with_overrides(
            {"x-1": {"n": 2}}, "here", SOURCE)
    assert PACKAGED.with_overrides({"X-1": {}}, "here", SOURCE) == PACKAGED
    with pytest.raises(DataError, match=r"^here: no Default is kept for rule 'GM-CHEK-6' "
                                        r"\(did you mean 'GM-CHECK-6'\?\)$"):
        genso_rules().with_overrides({"GM-CHEK-6": {}}, "here")
    with pytest.raises(DataError, match=r"^here: no Default is kept for rule 'EV-DOR-3' "
                                        r"\(did you mean 'EV-DOOR-3'\?\)$"):
        event_rules().with_overrides({"EV-DOR-3": {}}, "here")


def test_coc_refuses_an_unknown_rule_s_empty_table_and_takes_a_known_one_s() -> None:
    """coc passes on only a table's keys that are no profile cell, so an empty one never
    reached the Defaults' check: CO-DEATH-1's (a Default) and CO-CORE-2's (a profile-table
    rule, no Default) hold nothing and change nothing; a misspelt one is named."""
    with pytest.raises(DataError, match=r"^coc\.toml: no Default is kept for rule 'CO-DETH-1' "
                                        r"\(did you mean 'CO-DEATH-1'\?\)$"):
        coc_rules().with_overrides({"CO-DETH-1": {}}, "coc.toml")
    rules = coc_rules()
    for rule in ("CO-DEATH-1", "CO-CORE-2"):
        assert rules.with_overrides({rule: {}}, "coc.toml") == rules


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
    with pytest.raises(DataError, match=r"seed 002: 6\), not a Default"):
        genso_rules().with_overrides({"GM-COMBAT-6": {"full_dodge": 9}})
    with pytest.raises(DataError, match=r"seed's rule \(3\), not a Default: it cannot"):
        coc_rules().with_overrides({"CO-TURN-3": {"action_points": 4}})
    with pytest.raises(DataError, match=r"CO-TURN-3 has no setting 'x' \(no Defaults\)"):
        coc_rules().with_overrides({"CO-TURN-3": {"x": 4}})


def test_a_key_kept_both_as_a_seed_number_and_a_default_is_refused() -> None:
    check_apart(SOURCE, PACKAGED.values, "data.toml")
    with pytest.raises(DataError, match=r"data.toml: X-1 keeps \['seed'\] both as a seed"):
        check_apart(SOURCE, {"X-1": {"seed": 1}}, "data.toml")


# --- ranges: [limits."RULE-ID"] beside the Defaults, one mechanism for every system --------

RANGED = {"X-1": {"low": 1, "high": 5, "cap": 3}, "X-2": {"on": True}}
LIMITS = read_limits({"X-1": {"low": {"min": 0, "max": 10}, "high": {"above": "low"},
                              "cap": {"max": "X-3.seed"}}}, RANGED, {"X-3": {"seed": 4}},
                     "data.toml")


@pytest.mark.parametrize(("overrides", "message"), [
    ({"X-1": {"low": -1}}, r"here: X-1.low must be from 0 to 10, found -1"),
    ({"X-1": {"high": 1}}, r"here: X-1.high must be above 1 \(X-1.low\), found 1"),
    ({"X-1": {"low": 6}}, r"here: X-1.high must be above 6 \(X-1.low\), found 5"),
    ({"X-1": {"cap": 5}}, r"here: X-1.cap must be 4 \(X-3.seed\) or less, found 5"),
])
def test_an_override_out_of_its_range_is_refused_unless_a_fight_kept_it(
        overrides: dict[str, dict[str, int]], message: str) -> None:
    settings = Settings(RANGED, limits=LIMITS)
    with pytest.raises(DataError):
        settings.with_overrides(overrides, "here")
    kept = settings.with_overrides(overrides, "here", limits=False)  # a fight begun before
    assert [f"here: {p}" for p in kept.out_of_range()] == [message.replace("\\", "")]
    assert kept.with_overrides({}, limits=False) == kept


@pytest.mark.parametrize(("overrides", "message"), [
    ({"X-1": {"low": -1}}, r"here: X-1.low must be from 0 to 10, found -1"),
    ({"X-1": {"high": 1}}, r"here: X-1.high must be above 1 \(X-1.low\), found 1"),
    ({"X-1": {"low": 6}}, r"here: X-1.low = 6 leaves X-1.high \(5\) outside its range: it "
                          r"must be above 6 \(X-1.low\)"),
    ({"X-1": {"low": 6, "high": 5}}, r"here: X-1.high must be above 6 \(X-1.low\), found 5"),
    ({"X-1": {"cap": 5}}, r"here: X-1.cap must be 4 \(X-3.seed\) or less, found 5"),
])
def test_a_refusal_is_worded_from_the_key_the_user_set(
        overrides: dict[str, dict[str, int]], message: str) -> None:
    """A bound broken by another setting's new value is said from that setting (defaults57
    F10: ``critical_max_004=99`` was refused as "fumble_from_004 must be …", a key the user
    never set); a key the user set that is out of range is named itself."""
    with pytest.raises(DataError, match=f"^{message}$"):
        Settings(RANGED, limits=LIMITS).with_overrides(overrides, "here")


def test_a_kept_problem_is_not_refused_again_however_it_is_worded() -> None:
    """A fight kept X-1.high below X-1.low (it began before ranges were checked); a later
    override of another setting is not refused for it, though the kept problem names low."""
    kept = Settings(RANGED, limits=LIMITS).with_overrides({"X-1": {"low": 6}}, limits=False)
    assert kept.with_overrides({"X-1": {"cap": 2}}, "here")["X-1", "cap"] == 2
    with pytest.raises(DataError, match=r"^here: X-1.low = 7 leaves X-1.high \(5\)"):
        kept.with_overrides({"X-1": {"low": 7}}, "here")


def test_a_range_is_shown_and_held_by_each_setting() -> None:
    settings = Settings(RANGED, limits=LIMITS).with_overrides({"X-1": {"low": 2, "high": 9}})
    assert settings.range_of("X-1", "high") == "above 2 (X-1.low)"
    assert settings.range_of("X-2", "on") == "" and settings.in_range("X-2", "on")
    assert settings.in_range("X-1", "high") and settings.out_of_range() == []


@pytest.mark.parametrize(("raw", "message"), [
    ([1], r"data.toml: \[limits\] must be tables keyed by rule ID"),
    ({"X-1": 5}, r"data.toml: \[limits.\"X-1\"\] must be a table of ranges"),
    ({"X-1": {"n": {"min": 0}}}, "limits X-1.n: no whole-number Default X-1.n to bound"),
    ({"X-2": {"on": {"min": 0}}}, "limits X-2.on: no whole-number Default X-2.on to bound"),
    ({"X-1": {"low": 0}}, "limits X-1.low: a range is a table of min, max, above, found 0"),
    ({"X-1": {"low": {}}}, "a range is a table of min, max, above"),
    ({"X-1": {"low": {"least": 0}}}, "a range is a table of min, max, above"),
    ({"X-1": {"low": {"min": True}}}, "True is neither a whole number nor the name of one"),
    ({"X-1": {"low": {"min": "X-2.on"}}}, "'X-2.on' is neither a whole number nor the name"),
    ({"X-1": {"low": {"min": "nothing"}}}, "'nothing' is neither a whole number nor the name"),
])
def test_a_range_of_the_wrong_shape_is_refused_at_load(raw: object, message: str) -> None:
    with pytest.raises(DataError, match=message):
        read_limits(raw, RANGED, {}, "data.toml")
