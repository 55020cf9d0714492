"""`events` Defaults shown where the user meets them, and the readings the companion fixed
(spec §0.1; audit defaults57 F1, F6)."""

from __future__ import annotations

import json

import pytest

from companion.app.cli import main


def text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["events", *argv]) == 0
    return capsys.readouterr().out


def test_the_half_die_rounding_is_labelled_where_it_is_rolled(
        capsys: pytest.CaptureFixture[str]) -> None:
    """EV-CORE-4: `events monster` rolled its 1/2D count rounded up with no word that the
    rounding is a Default; the pit's fall depth (EV-TRAP-7) likewise."""
    shown = text(capsys, "monster", "--seed", "1")
    assert "(1/2D) ＞ 5 ＞ 3 (1/2D rounded up, EV-CORE-4 (default)) ＞ 3 × level-2" in shown
    shown = text(capsys, "monster", "--seed", "1", "--set", "EV-CORE-4.rounding=down")
    assert "(1/2D) ＞ 5 ＞ 2 (1/2D rounded down, EV-CORE-4) ＞ 2 × level-2" in shown


def test_the_fixed_readings_are_listed_after_the_settings(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Spec §0.1: every Default is labelled as one. The six events Defaults the companion
    plays as fixed readings (no key: the GM types a chest's contents in, EV-DOOR-5; ...)
    were listed nowhere; `events defaults` now lists them, from data, after the settings."""
    shown = text(capsys, "defaults")
    settings, _, rest = shown.partition("Fixed readings")
    readings = rest.split("\nChange one")[0]
    assert "EV-DOOR-3  enabled" in settings and "EV-DOOR-3" not in readings
    rules = ("EV-DOOR-5", "EV-EXP-3", "EV-EXP-4", "EV-MON-1", "EV-POI-1", "EV-REC-3",
             "EV-TRAP-2 (double 1)")
    for rule in rules:  # in a column as wide as the widest (events64 N10)
        assert f"\n{rule:<{max(map(len, rules))}} " in readings
    assert "no setting changes them" in shown


def test_the_json_has_the_shape_of_genso_and_coc(capsys: pytest.CaptureFixture[str]) -> None:
    """`events defaults --json` printed a bare list of the settings, where `genso defaults
    --json` and `coc defaults --json` print {"defaults": [...], "fixed_readings": {...}}:
    one reader could not take all three, and the events readings were in the text only
    (carried61). The same rows and readings as the text, in their shape."""
    assert main(["events", "defaults", "--json", "--set", "EV-DOOR-3.enabled=true"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"defaults", "fixed_readings"}
    assert {"rule": "EV-DOOR-3", "key": "enabled", "value": True, "default": False} \
        in data["defaults"]
    readings = text(capsys, "defaults").partition("Fixed readings")[2]
    assert list(data["fixed_readings"]) == ["EV-DOOR-5", "EV-EXP-3", "EV-EXP-4", "EV-MON-1",
                                            "EV-POI-1", "EV-REC-3", "EV-TRAP-2 (double 1)"]
    width = max(map(len, data["fixed_readings"]))
    for rule, reading in data["fixed_readings"].items():
        assert f"\n{rule:<{width}} {reading}" in readings
