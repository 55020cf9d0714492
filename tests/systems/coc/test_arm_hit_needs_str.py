"""CO-CALL-1 (003 l.75 「腕部：相手がSTR×5に失敗した場合、持っている武器を落とす。複数回攻撃の敵は
攻撃回数-1」): a multi-attacker's lost attack comes with any arm hit (the Default
``attack_loss_needs_str`` false, as played so far) or only with the failed STR×5 (true); how
long the effects last stays a fixed reading, keyed "CO-CALL-1 (duration)" (audit rules60c
F3)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.app.cli import main
from companion.systems.coc.combat import Attack
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel, push, replays

GUN: dict[str, Any] = {"weapons": ("revolver",), "handgun": 50}
ARMED: dict[str, Any] = {"weapons": ("revolver", "automatic"), "handgun": 50}
ON = {"CO-CALL-1": {"attack_loss_needs_str": True}}
ARM_HIT = ((100, 20), (10, 1))  # 50 − 30 hits at 20; 1D10 1 damage


def test_by_default_any_arm_hit_costs_an_attack_003() -> None:
    f = duel(Profile.P003, GUN, ARMED)
    text = push(f, Attack("Ann", "Cult", called="arm"), *ARM_HIT, (100, 30))  # STR×5 made
    assert "Cult's arm is hit: a weapon of several attacks makes one fewer" in text
    assert f.state.get("Cult").arm_hits == 1
    assert not f.state.get("Cult").sheet.weapons[0].dropped


def test_needing_the_str_roll_a_made_roll_keeps_the_attack_003() -> None:
    f = duel(Profile.P003, GUN, ARMED, settings=ON)
    text = push(f, Attack("Ann", "Cult", called="arm"), *ARM_HIT, (100, 30))
    assert "Cult STR×5" in text and "arm is hit" not in text
    assert f.state.get("Cult").arm_hits == 0
    g = duel(Profile.P003, GUN, ARMED, settings=ON)
    text = push(g, Attack("Ann", "Cult", called="arm"), *ARM_HIT, (100, 80))  # failed
    assert text.index("Cult STR×5") < text.index("Cult's arm is hit") \
        < text.index("Cult drops")
    assert g.state.get("Cult").arm_hits == 1 and g.state.get("Cult").sheet.weapons[0].dropped
    replays(g)


def test_needing_the_str_roll_it_is_rolled_with_no_weapon_held_003() -> None:
    """A clawing monster holds nothing to drop, yet its lost attack waits on the roll."""
    f = duel(Profile.P003, GUN, settings=ON)
    text = push(f, Attack("Ann", "Cult", called="arm"), *ARM_HIT, (100, 80))
    assert "Cult STR×5" in text and "drops" not in text
    assert f.state.get("Cult").arm_hits == 1
    g = duel(Profile.P003, GUN)  # the Default rolls nothing then
    assert "STR" not in push(g, Attack("Ann", "Cult", called="arm"), *ARM_HIT)


def test_the_setting_is_listed_and_the_duration_a_fixed_reading(
    user_dirs: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["coc", "defaults", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = {(r["rule"], r["key"]): r for r in data["defaults"]}
    assert rows["CO-CALL-1", "attack_loss_needs_str"]["value"] is False
    assert "CO-CALL-1 (duration)" in data["fixed_readings"]
    assert "CO-CALL-1" not in data["fixed_readings"]
