"""CO-MELEE-2 (003 「一回で10以上のダメージ」): whether the knockback's damage is counted after
armour (the Default ``after_armour``, what the target takes, played so far) or before it (the
spec's other reading: the blow's damage that reaches the target); the rest of the rule stays
a fixed reading, keyed "CO-MELEE-2 (push)" (audit rules60c F3)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.app.cli import main
from companion.systems.coc.combat import Attack
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel, push, replays

SWORD: dict[str, Any] = {"weapons": ("japanese_sword",), "japanese_sword": 90}
HIDE: dict[str, Any] = {"armour": [{"name": "hide", "value": 2, "durability": 10}]}
BLOW = ((100, 30), (10, 9), (4, 2))  # 90% hits at 30; 1D10 9 + db 1D4 2 = 11, 9 after armour


def test_knockback_counts_damage_after_armour_by_default_003() -> None:
    f = duel(Profile.P003, SWORD, HIDE)
    text = push(f, Attack("Ann", "Cult"), *BLOW)
    assert "knockback" not in text and f.state.get("Cult").hp == 13 - 9


def test_before_armour_the_blows_damage_pushes_003() -> None:
    f = duel(Profile.P003, SWORD, HIDE, settings={"CO-MELEE-2": {"after_armour": False}})
    text = push(f, Attack("Ann", "Cult"), *BLOW)
    assert "knockback! Cult is pushed back a square (11 damage, CO-MELEE-2)" in text
    assert f.state.get("Cult").hp == 13 - 9
    replays(f)


def test_the_setting_is_listed_and_the_rest_of_the_rule_a_fixed_reading(
    user_dirs: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["coc", "defaults"]) == 0
    out = capsys.readouterr().out
    assert any(x.split()[:3] == ["CO-MELEE-2", "after_armour", "true"] for x in out.splitlines())
    assert "CO-MELEE-2 (push)" in out.split("Fixed readings")[1]
