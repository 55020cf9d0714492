"""`coc defaults` lists coc62's settings (CO-BASE-1, CO-BASE-2, CO-MA-3, CO-MA-4, CO-DODGE-5)
as Defaults with their Japanese, refuses a bad value, and no longer lists them whole as fixed
readings; the table offers the dodge of a blow the Keeper rules certainly fatal when
CO-DODGE-5.dodge_needs_fatal_blow asks for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.dice import ScriptedDice
from companion.systems.coc.combat import Attack, Defence, Fight, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.app.coc_table_helpers import at_the_table, offered
from tests.systems.coc.scripted_fight_helpers import entrant

ROWS = {("CO-BASE-1", "recompute"): True, ("CO-BASE-2", "db_twice"): False,
        ("CO-MA-3", "doubled"): False, ("CO-MA-4", "damage"): "doubled",
        ("CO-MA-4", "own_roll"): False, ("CO-DODGE-5", "dodge_needs_fatal_blow"): False,
        ("CO-DODGE-5", "attack_needs_keeper"): True}


def test_each_is_listed_as_a_default_with_its_japanese(
        user_dirs: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coc", "defaults", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = {(r["rule"], r["key"]): r for r in data["defaults"]}
    for key, value in ROWS.items():
        assert rows[key]["value"] == value and rows[key]["default"] is True, key
    assert rows["CO-MA-4", "damage"]["choices"] == ["doubled", "normal"]
    assert "等倍" in rows["CO-MA-4", "damage"]["note"]
    assert "命を確実に刈り取る一撃" in rows["CO-DODGE-5", "dodge_needs_fatal_blow"]["note"]
    readings = data["fixed_readings"]
    assert "CO-DODGE-5" not in readings and not {"CO-BASE-1", "CO-BASE-2", "CO-MA-3",
                                                 "CO-MA-4"} & set(readings)
    assert {"CO-BASE-1 (current HP)", "CO-BASE-2 (critical)", "CO-MA-3 (partial)",
            "CO-MA-4 (armour)"} <= set(readings)
    assert main(["coc", "defaults"]) == 0
    settings = capsys.readouterr().out.split("Fixed readings")[0].splitlines()
    assert any(x.split()[:4] == ["CO-MA-4", "damage", '"doubled"', "(default)"]
               for x in settings)


def test_set_by_the_user_and_a_bad_value_refused(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (user_dirs / "config").mkdir(exist_ok=True)
    (user_dirs / "config" / "coc.toml").write_text(
        '[defaults."CO-MA-4"]\ndamage = "normal"\n', encoding="utf-8")
    assert main(["coc", "defaults", "--set", "CO-BASE-2.db_twice=true", "--json"]) == 0
    rows = {(r["rule"], r["key"]): r for r in json.loads(capsys.readouterr().out)["defaults"]}
    assert rows["CO-MA-4", "damage"]["value"] == "normal"
    assert rows["CO-MA-4", "damage"]["default"] is False
    assert rows["CO-BASE-2", "db_twice"]["value"] is True
    assert main(["coc", "defaults", "--set", "CO-MA-4.damage=half"]) == 2
    assert 'CO-MA-4.damage must be one of doubled, normal; found "half"' in \
        capsys.readouterr().err
    assert main(["coc", "defaults", "--set", "CO-DODGE-5.attack_needs_keeper=2"]) == 2
    assert "CO-DODGE-5.attack_needs_keeper must be true or false" in capsys.readouterr().err


def test_the_table_offers_the_dodge_of_a_blow_ruled_fatal_004(tmp_path: Path) -> None:
    """Ann punched; with dodge_needs_fatal_blow her plain dodge of Cult's punch is not offered,
    the dodge of a blow the Keeper rules certainly fatal is, and plays fatal_blow=true."""
    def make() -> Fight:
        rules = load_rules(Profile.P004).with_overrides(
            {"CO-DODGE-5": {"dodge_needs_fatal_blow": True}})
        return Fight(rules, [
            entrant(rules, "Ann", 14, ("fist",), Side.INVESTIGATORS, fist=60, dodge=80),
            entrant(rules, "Cult", 10, ("fist",), Side.FOES, fist=60)], ScriptedDice([]))

    _, player = at_the_table(tmp_path, make, [(Attack("Ann", "Cult"), [90])],
                             ["attack", "t:Ann", "h:plain", "d:dodge:fatal"],
                             [Attack("Cult", "Ann", defence=Defence.DODGE, fatal_blow=True)])
    defences = offered(player, "How does Ann defend?")
    assert "d:dodge:fatal" in defences[0] and "d:dodge" not in defences[0]

