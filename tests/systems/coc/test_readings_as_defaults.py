"""`coc` readings of seeds 003/004 the spec makes Defaults, each settable with ``--set`` and
in the user's ``coc.toml`` and labelled "(default)" while packaged (spec §0.1; audit
defaults57 F3, F5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.overrides import user_rules
from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Attack, Fight, Side, Throw
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import duel, person, push

GUN = {"weapons": ("revolver",), "handgun": 50}


def defaults(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, Any]]:
    assert main(["coc", "defaults", "--profile", "004", *argv, "--json"]) == 0
    rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["defaults"]
    return rows


@pytest.mark.parametrize(("siz", "down", "up"), [
    (39, 0, 5), (40, 5, 5), (41, 5, 10), (50, 10, 10), (52, 10, 15)])
def test_co_range_1_a_part_of_a_siz_step_counts_as_the_default_says(
        siz: int, down: int, up: int) -> None:
    """CO-RANGE-1 (004 l.67 「SIZ30を超える相手の場合、そこから10大きいごとに[+5％]」): SIZ 31–39
    gives +0 by the spec's Default (whole steps), +5 with steps_round = "up", which counts a
    part of a step as a whole one (31–40 +5, 41–50 +10: rules.toml's comment says so); it
    was the seed's number, refused as "the seed's rule"."""
    for steps_round, bonus in (("down", down), ("up", up)):
        settings = {} if steps_round == "down" else {"CO-RANGE-1": {"steps_round": "up"}}
        text = push(duel(Profile.P004, GUN, {"siz": siz}, settings), Attack("Ann", "Cult"),
                    (100, 99))
        tag = " (default)" if steps_round == "down" else ""
        assert (f"+{bonus} (SIZ {siz}, CO-RANGE-1{tag}) = {50 + bonus}" in text) == bool(bonus)
        assert f"(1D100<={50 + bonus})" in text


def test_co_range_1_is_set_by_set_and_by_the_users_file(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    row = {"rule": "CO-RANGE-1", "key": "steps_round", "value": "down", "default": True,
           "choices": ["down", "up"]}
    assert row in defaults(capsys)
    assert {**row, "value": "up", "default": False} in defaults(
        capsys, "--set", "CO-RANGE-1.steps_round=up")
    (user_dirs / "config").mkdir()
    (user_dirs / "config" / "coc.toml").write_text(
        '[defaults."CO-RANGE-1"]\nsteps_round = "up"\n', encoding="utf-8")
    assert {**row, "value": "up", "default": False} in defaults(capsys)
    assert main(["coc", "defaults", "--set", "CO-RANGE-1.steps_round=half"]) == 2
    assert 'CO-RANGE-1.steps_round must be one of down, up; found "half"' in \
        capsys.readouterr().err
    assert main(["coc", "defaults", "--set", "CO-RANGE-1.above_siz=20"]) == 2
    assert "CO-RANGE-1.above_siz is the seed's rule (30)" in capsys.readouterr().err


def test_co_grap_8_reading_b_throws_an_enemy_nobody_holds(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CO-GRAP-8 (004 l.169): by the spec's Default (reading a) only the held one is thrown;
    with its option "reading b" Ann, holding nobody, throws Cult after a successful Grapple
    roll: 1d6 (no db) and the stun of CO-STUN-3, no restraint first."""
    with pytest.raises(IllegalAction, match="Ann holds nobody"):
        duel(Profile.P004, {"grapple": 60}).push(Throw("Ann", at="Cult"), ScriptedDice([]))
    (user_dirs / "config").mkdir()
    (user_dirs / "config" / "coc.toml").write_text(
        '[defaults."CO-GRAP-8"]\nreading = "b"\n', encoding="utf-8")
    rules = user_rules(load_rules(Profile.P004), "coc.toml", [], "")
    f = Fight(rules, [(person(rules, "Ann", 14, grapple=60), Side.INVESTIGATORS),
                      (person(rules, "Cult", 10), Side.FOES)], ScriptedDice([]))
    text = push(f, Throw("Ann", at="Cult"), (100, 30), (6, 2), (100, 90))
    assert "Cult is thrown: (1D6) ＞ 2 (CO-GRAP-8 reading b)" in text and "CON×4" in text
    cult = f.state.get("Cult")
    assert cult.hp == 11 and cult.unconscious and cult.held_by == ""
    missed = duel(Profile.P004, {"grapple": 60}, settings={"CO-GRAP-8": {"reading": "b"}},
                  third={"fist": 50})
    with pytest.raises(IllegalAction, match="Bob is Ann's ally: throw an enemy"):
        missed.push(Throw("Ann", at="Bob"), ScriptedDice([]))
    push(missed, Throw("Ann", at="Cult"), (100, 70))  # the Grapple roll fails: no throw
    assert missed.state.get("Cult").hp == 13
    assert main(["coc", "defaults", "--set", "CO-GRAP-8.reading=c"]) == 2
    assert 'CO-GRAP-8.reading must be one of a, b; found "c"' in capsys.readouterr().err


def test_the_fixed_readings_are_listed_after_the_settings(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Spec §0.1: the 57 coc Defaults the companion plays as fixed readings (Chebyshev
    distance, diagonal moves at 1 AP, a pommel strike's stun without damage, ...) were
    listed nowhere; `coc defaults` lists them, from data/readings.toml, in the text and as
    "fixed_readings" in JSON; CO-RANGE-1, CO-GRAP-8, CO-DODGE-8 and CO-SURP-1 (coc60 F2, F3),
    settings now, are not among them, nor CO-GRAP-3 (coc61) or CO-DODGE-5 (coc62); CO-BODY-5's
    methods stay, as do the parts of CO-BASE-1, CO-BASE-2, CO-MA-3 and CO-MA-4 no setting
    changes (coc62: 43 left); coc71 adds the parts of CO-TACKLE-1, CO-GRAP-5, CO-GRAP-8 and
    CO-MA-2 no setting changes (47); coc72 adds CO-BODY-5's hands (48); grapple73 adds
    CO-GRAP-1's "whoever is out lets go", its chain of holds and letting go, CO-TACKLE-1's
    defence and CO-GRAP-8's body thrown at an enemy and throw from a height (54); coc74 adds
    CO-RANGE-2's burst rounded once on its total (55); grapple75 NIT 6 adds CO-DODGE-5's
    choke and throw, refused after a dodge with no −50% (56); reviewcoc75 RISK 2 adds
    CO-GRAP-6's holder's strikes: a kick or head butt taken, a tackle refused (57);
    a77cocgrapple RISK 5 adds CO-GRAP-1's one holder and one hold at a time (58)."""
    assert main(["coc", "defaults", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    readings = data["fixed_readings"]
    assert len(readings) == 58 and {"CO-TURN-5", "CO-IAI-4", "CO-TURN-2"} <= set(readings)
    assert {"CO-GRAP-1 (out)", "CO-GRAP-1 (chain)", "CO-GRAP-1 (let go)"} <= set(readings)
    assert "rounds it once" in readings["CO-RANGE-2 (burst)"]
    assert "no −50% offered" in readings["CO-DODGE-5 (choke and throw)"]
    assert "in 003 only where the Keeper switches it on" in readings[  # reviewcoc75 NIT 4
        "CO-DODGE-5 (choke and throw)"]
    assert "not as barring a blow that needs no hand" in readings["CO-GRAP-6 (holder's strikes)"]
    settings = {r["rule"] for r in data["defaults"] if r["key"] not in ("p003", "p004")}
    assert {"CO-RANGE-1", "CO-DODGE-8", "CO-SURP-1"} <= settings and not settings & set(readings)
    assert main(["coc", "defaults"]) == 0
    shown = capsys.readouterr().out.split("Fixed readings")[1]
    assert "\nCO-TURN-5    movement in all 8 directions, diagonals at 1 AP too" in shown


def test_the_holders_strikes_reading_says_it_is_004s(capsys: pytest.CaptureFixture[str]) -> None:
    """reviewcoc75b NIT 3: CO-GRAP-6 is off in 003 (a holder there is one unit, CO-GRAP-1/3),
    so 003's listing says the holder's strikes are 004's, as "CO-MA-2 (choke and throw)" says
    it is 003's; before, 003's list read as if its holder struck with any one-handed weapon."""
    assert main(["coc", "defaults", "--profile", "003"]) == 0
    shown = capsys.readouterr().out.split("Fixed readings")[1]
    assert ("\nCO-GRAP-6 (holder's strikes) 004 (where CO-GRAP-6 is on): a restrainer keeps "
            "a hand on the hold") in shown
    assert "\nCO-MA-2 (choke and throw) 003: " in shown


@pytest.mark.parametrize("profile", ["003", "004"])
def test_one_holder_at_a_time_is_a_listed_reading(capsys: pytest.CaptureFixture[str],
                                                  profile: str) -> None:
    """a77cocgrapple RISK 5: a grapple of one already held was refused "one holder at a time
    (CO-GRAP-6)", a limit no seed line or rule states, and `coc defaults` listed it nowhere;
    the refusal now names the reading, which both profiles list."""
    assert main(["coc", "defaults", "--profile", profile]) == 0
    shown = capsys.readouterr().out.split("Fixed readings")[1]
    assert "\nCO-GRAP-1 (one holder) one holder and one hold at a time" in shown
