"""The ranges of coc's numeric Defaults (``[limits]`` in data/rules.toml): an override
outside one, or one that breaks its pair (CO-CORE-1's fumble range above its critical range,
CO-DEATH-1's death below the seed's unconscious HP, CO-FIRE-4 within the round's AP), is
refused where it is set, naming the setting, the value and the range; a fight begun before
the check replays with what it had."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.errors import DataError
from companion.systems.coc.combat import Attack, Fight
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import duel, push

P003 = Profile.P003


CRITICAL = r"\(CO-CORE-1.critical_max_004\)"


@pytest.mark.parametrize(("rule", "key", "value", "span"), [
    # CO-DEATH-1 (003「耐久力が-2～0の値になった場合意識不明」): death at once below −2 at most
    ("CO-DEATH-1", "dead_below", 5, r"-2 \(CO-DEATH-1.unconscious_from\) or less"),
    ("CO-DEATH-1", "dead_below", -1, r"-2 \(CO-DEATH-1.unconscious_from\) or less"),
    # CO-CORE-1: a roll of 3–5 was both in the critical and the fumble range
    ("CO-CORE-1", "fumble_from_004", 3, f"from 1 to 101 and above 5 {CRITICAL}"),
    ("CO-CORE-1", "fumble_from_004", 5, f"from 1 to 101 and above 5 {CRITICAL}"),
    # CO-FIRE-4: more AP than a round has (CO-TURN-3) and a jam is never cleared
    ("CO-FIRE-4", "clear_ap", 4, r"from 0 to 3 \(CO-TURN-3.action_points\)"),
    # the Keeper's picks within the seed's ranges (004 lines 44, 46, 91)
    ("CO-SURP-3", "hidden_penalty", 0, "from -50 to -10"),
    ("CO-SURP-3", "hidden_penalty", -60, "from -50 to -10"),
    ("CO-DISARM-1", "penalty", -70,
     r"from -60 \(CO-DISARM-1.most_penalty\) to -20 \(CO-DISARM-1.least_penalty\)"),
    ("CO-DISARM-1", "penalty", 20,
     r"from -60 \(CO-DISARM-1.most_penalty\) to -20 \(CO-DISARM-1.least_penalty\)"),
    ("CO-BODY-3", "penalty", -40, "from -80 to -60"),
    # counts and sizes
    ("CO-BASE-7", "parries_per_round", -1, "0 or more"),
    ("CO-DODGE-2", "other_defences_per_round", -1, "0 or more"),
    ("CO-DODGE-4", "dodges_per_round", -1, "0 or more"),
    ("CO-SPELL-2", "chant_turns", -2, "0 or more"),
    ("CO-BASE-12", "cartridges_per_action", 0, "1 or more"),
])
def test_a_default_out_of_its_range_is_refused_naming_it(rule: str, key: str, value: int,
                                                         span: str) -> None:
    with pytest.raises(DataError, match=f"^--set: {rule}.{key} must be {span}, found {value}$"):
        load_rules().with_overrides({rule: {key: value}}, "--set")


def test_a_critical_range_over_the_fumble_range_is_refused_naming_both() -> None:
    """CO-CORE-1: the pair is checked whichever of the two is set, and the refusal starts
    from the key the user set (it named fumble_from_004 alone as wrong, which they never
    touched: defaults57 F10); with both set, from the one outside its range."""
    with pytest.raises(DataError, match=r"^--set: CO-CORE-1.critical_max_004 = 97 leaves "
                                        r"CO-CORE-1.fumble_from_004 \(96\) outside its range: "
                                        r"it must be from 1 to 101 and above 97 "
                                        r"\(CO-CORE-1.critical_max_004\)$"):
        load_rules().with_overrides({"CO-CORE-1": {"critical_max_004": 97}}, "--set")
    with pytest.raises(DataError, match=r"^--set: CO-CORE-1.fumble_from_004 must be from 1 to "
                                        r"101 and above 97 \(CO-CORE-1.critical_max_004\), "
                                        r"found 90$"):
        load_rules().with_overrides(
            {"CO-CORE-1": {"critical_max_004": 97, "fumble_from_004": 90}}, "--set")


def test_the_refusal_names_the_key_set_in_the_users_file(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (user_dirs / "config").mkdir()
    (user_dirs / "config" / "coc.toml").write_text(
        '[defaults."CO-CORE-1"]\ncritical_max_004 = 99\n', encoding="utf-8")
    assert main(["coc", "defaults"]) == 2
    err = capsys.readouterr().err
    assert "coc.toml: CO-CORE-1.critical_max_004 = 99 leaves CO-CORE-1.fumble_from_004 (96)" \
        in err


@pytest.mark.parametrize("overrides", [
    {"CO-DEATH-1": {"dead_below": -2}}, {"CO-DEATH-1": {"dead_below": -12}},
    {"CO-CORE-1": {"fumble_from_004": 6}}, {"CO-CORE-1": {"fumble_from_004": 101}},
    {"CO-CORE-1": {"critical_max_004": 10, "fumble_from_004": 90}},
    {"CO-FIRE-4": {"clear_ap": 3}}, {"CO-DISARM-1": {"penalty": -20}},
    {"CO-DISARM-1": {"penalty": -60}}, {"CO-SURP-3": {"hidden_penalty": -10}},
    {"CO-BODY-3": {"penalty": -80}},
])
def test_a_default_inside_its_range_is_taken(overrides: dict[str, Any]) -> None:
    rules = load_rules().with_overrides(overrides)
    assert rules.settings() == overrides and rules.defaults.out_of_range() == []


def test_the_packaged_defaults_are_all_in_range() -> None:
    for profile in Profile:
        assert load_rules(profile).defaults.out_of_range() == []


def test_the_command_refuses_the_override_where_it_is_set(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["coc", "defaults", "--set", "CO-DEATH-1.dead_below=5"]) == 2
    assert "--set: CO-DEATH-1.dead_below must be -2" in capsys.readouterr().err
    (user_dirs / "config").mkdir()
    config = user_dirs / "config" / "coc.toml"
    config.write_text('[defaults."CO-CORE-1"]\nfumble_from_004 = 3\n', encoding="utf-8")
    assert main(["coc", "defaults"]) == 2
    assert f"{config}: CO-CORE-1.fumble_from_004 must be from 1 to 101 and above 5" in \
        capsys.readouterr().err


def _format1(f: Fight, settings: dict[str, Any]) -> dict[str, Any]:
    """``f`` saved as the code before the format number (and the range check) saved it."""
    data: dict[str, Any] = json.loads(json.dumps(f.to_json()))
    del data["format"]
    data.pop("opening_engine", None)
    for entry in data["journal"]:
        entry.pop("engine", None)
    data["settings"] = settings
    return data


def test_a_fight_begun_before_the_check_keeps_its_setting_a_new_one_is_refused() -> None:
    """CO-DEATH-1: a fight begun with ``dead_below`` above -2 (taken until the range moved
    into the data, where seed 003's 「耐久力が-2～0の値になった場合意識不明」 bounds it)
    opens, noted, and replays with it, whatever the file's format: a fight of today's format
    begun before the upgrade used to be an error, and the player's fight could not go on. A
    new ``--set`` is refused it."""
    settings = {"CO-DEATH-1": {"dead_below": 5}}
    note = ("CO-DEATH-1.dead_below must be -2 (CO-DEATH-1.unconscious_from) or less, found 5; "
            "kept, as the fight was begun with it (a new --set is checked)")
    f = duel(P003, {"fist": 60}, legacy=True)
    push(f, Attack("Ann", "Cult"), (100, 90))
    old = Fight.from_json(load_rules(), _format1(f, settings))
    assert old.rules.default("CO-DEATH-1", "dead_below") == 5
    assert note in old.notes, old.notes
    f = duel(P003, {"fist": 60})
    push(f, Attack("Ann", "Cult"), (100, 90))
    today = f.to_json()
    today["settings"] = settings
    opened = Fight.from_json(load_rules(), json.loads(json.dumps(today)))
    assert opened.rules.default("CO-DEATH-1", "dead_below") == 5
    assert opened.notes == [note]
    assert opened.to_json()["settings"] == settings
    assert len(opened.journal) == len(f.journal) == 1
    with pytest.raises(DataError, match="dead_below must be -2"):
        load_rules().with_overrides(settings, "--set")


def test_a_fight_kept_with_a_word_none_of_its_choices_says_so() -> None:
    """coc took any word for CO-MA-2.throw_toward until its choices were listed; a fight
    begun with one opens and notes it beside the kept ranges (it fails only at a throw)."""
    f = duel(P003, {"fist": 60})
    saved = f.to_json()
    saved["settings"] = {"CO-MA-2": {"throw_toward": "xx"}, "CO-DEATH-1": {"dead_below": 5}}
    opened = Fight.from_json(load_rules(), json.loads(json.dumps(saved)))
    assert [n.split(";")[0] for n in opened.notes] == [
        "CO-MA-2.throw_toward must be one of facing, N, NE, E, SE, S, SW, W, NW",
        "CO-DEATH-1.dead_below must be -2 (CO-DEATH-1.unconscious_from) or less, found 5"]
