"""The ranges of the events system's whole-number Defaults (``[limits]`` in data/events.toml,
checked by the systems' shared :mod:`companion.systems.defaults`): EV-CORE-1's DM level and
fixed rolls, EV-CORE-3, EV-DOOR-4, EV-TRAP-3, EV-POI-2. An override outside one, or true or
false for one, is refused where it is set (the config-folder file or ``--set``)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.errors import DataError
from companion.systems.events.rules import load_rules

#: The range of each whole-number Default, as the data keeps it (the table the code kept).
RANGES = {
    **{("EV-CORE-1", key): "from 0 to 200" for key in (
        "disarm", "unlock", "search", "unlock_spell", "appraisal", "pharmacology", "toxicity",
        "trap")},
    ("EV-CORE-1", "fixed_roll_bonus"): "from 0 to 100",
    ("EV-CORE-1", "dm_level"): "from 1 to 100",
    ("EV-CORE-3", "rating_per_dm_level"): "0 or more",
    ("EV-DOOR-4", "retries"): "from 0 to 100",
    ("EV-TRAP-3", "rating_floor"): "0 or more",
    ("EV-POI-2", "hours_per_tick"): "1 or more",
}


def _packaged() -> str:
    return files("companion.systems.events").joinpath("data", "events.toml").read_text("utf-8")


def test_every_whole_number_default_has_its_range_and_the_packaged_ones_hold() -> None:
    settings = load_rules().settings
    ranged = {(rule, key): settings.range_of(rule, key)
              for rule, key, _, _ in settings.entries() if settings.range_of(rule, key)}
    assert ranged == RANGES
    assert settings.out_of_range() == []


@pytest.mark.parametrize(("rule", "key"), list(RANGES))
def test_a_default_below_its_range_is_refused_in_the_shared_wording(rule: str, key: str) -> None:
    span = RANGES[rule, key]
    bounds = [int(word) for word in span.split() if word.isdigit()]
    least, most = bounds[0], (bounds[1:] or [None])[0]
    for wrong in (least - 1, *(() if most is None else (most + 1,))):
        with pytest.raises(DataError, match=rf"^--set: {rule}\.{key} must be {span}, "
                                            rf"found {wrong}$"):
            load_rules().with_overrides({rule: {key: wrong}}, "--set")
    for kept in (least, *(() if most is None else (most,))):
        assert load_rules().with_overrides({rule: {key: kept}}).settings[rule, key] == kept


@pytest.mark.parametrize(("rule", "key"), list(RANGES))
@pytest.mark.parametrize("flag", [True, False])
def test_true_or_false_is_no_whole_number_for_a_ranged_default(
    rule: str, key: str, flag: bool
) -> None:
    """Python counts True as 1 and False as 0, which a range would take: the type refuses."""
    with pytest.raises(DataError, match=rf"^--set: {rule}\.{key} must be a whole number, "
                                        rf"found {str(flag).lower()}$"):
        load_rules().with_overrides({rule: {key: flag}}, "--set")


@pytest.mark.parametrize(("packaged", "broken", "message"), [
    ("dm_level = 1\n", "dm_level = 0\n",
     "events.toml: EV-CORE-1.dm_level must be from 1 to 100, found 0"),
    # True is 1 to Python: the code table let it through the packaged data
    ("dm_level = 1\n", "dm_level = true\n",
     "events.toml: limits EV-CORE-1.dm_level: no whole-number Default EV-CORE-1.dm_level"),
    ('[limits."EV-POI-2"]', '[limits."EV-POI-3"]',
     "events.toml: limits EV-POI-3.hours_per_tick: no whole-number Default"),
])
def test_the_packaged_data_is_checked_against_its_ranges(
    packaged: str, broken: str, message: str
) -> None:
    text = _packaged()
    assert text.count(packaged) == 1
    with pytest.raises(DataError, match=f"^{message}"):
        load_rules(text.replace(packaged, broken), "events.toml")


def test_the_packaged_data_keeps_its_ranges() -> None:
    without = _packaged().replace('[limits."', '[kept_aside."')
    with pytest.raises(DataError, match=r"^events\.toml: missing \[limits\]$"):
        load_rules(without, "events.toml")


def test_the_command_refuses_an_override_out_of_range_where_it_is_set(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """EV-CORE-1 via --set, EV-POI-2 in the config-folder file: each named with its origin."""
    assert main(["events", "monster", "--set", "EV-CORE-1.dm_level=0"]) == 2
    assert "--set: EV-CORE-1.dm_level must be from 1 to 100, found 0" in capsys.readouterr().err
    assert main(["events", "monster", "--set", "EV-CORE-1.dm_level=true"]) == 2
    assert "--set: EV-CORE-1.dm_level must be a whole number, found true" in \
        capsys.readouterr().err
    config = user_dirs / "config"
    config.mkdir()
    (config / "events.toml").write_text('[defaults."EV-POI-2"]\nhours_per_tick = 0\n', "utf-8")
    assert main(["events", "defaults"]) == 2
    err = capsys.readouterr().err
    assert f"{config / 'events.toml'}: EV-POI-2.hours_per_tick must be 1 or more, found 0" in err
    assert "Traceback" not in err


def test_lock_retries_past_100_are_refused_naming_the_key_and_range(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """events74 RISK 4: EV-DOOR-4.retries had no top; 100000000 at a lock no roll opens ran
    on past 30 s, printing nothing and eating memory. 100 is taken, 101 refused."""
    assert main(["events", "door", "--set", "EV-DOOR-4.retries=100000000", "--seed", "1"]) == 2
    assert capsys.readouterr().err == ("companion: error: --set: EV-DOOR-4.retries must be from "
                                       "0 to 100, found 100000000\n")
    assert main(["events", "door", "--set", "EV-DOOR-4.retries=101", "--seed", "1"]) == 2
    assert main(["events", "door", "--set", "EV-DOOR-4.retries=100", "--seed", "1"]) == 0
