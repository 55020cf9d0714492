"""A genso fight file edited by hand is refused naming what was edited, not a journal entry
that is whole (a78gensofight items 4 and 5)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.systems.genso.combat import Attack, Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
PC1, ORC = "駆け出し冒険者１", "オーク"


def _saved() -> dict[str, Any]:
    """pc1 (a sheet entrant) has attacked the orc: one entry, two dice."""
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1")], [("orc", 1)]))
    fight.push(Attack(PC1, ORC), ScriptedDice([(6, 1), (6, 1)]))
    data: dict[str, Any] = json.loads(json.dumps(fight.to_json()))
    return data


@pytest.mark.parametrize(("pool", "value", "said"), [
    ("hp", 0, "INCAPACITATED 行動不能 (HP 0)"), ("mp", 0, "INCAPACITATED 行動不能 (MP 0)"),
    ("hp", -6, "DEAD 死亡 (HP -6)")])
def test_an_entrant_edited_down_is_named_not_entry_1(pool: str, value: int,
                                                     said: str) -> None:
    """GM-COMBAT-8: ``hp = 0`` (or ``mp = 0``, or ``hp = -6``) on the entrant made the fight
    over before it began, which ``fight new`` refuses; the file was blamed on journal entry 1
    "(the fight is over: …)". Its state is said in both languages, as ``fight new`` says it
    (r78genso)."""
    data = _saved()
    sheet = data["entrants"][0]["sheet"]
    assert sheet["name"] == PC1
    sheet[pool] = value
    with pytest.raises(DataError) as err:
        Fight.from_json(RULES, data, "f.json")
    assert str(err.value) == (f"f.json: fight entrant {PC1} starts {said}: "
                              "the fight was over before entry 1")


@pytest.mark.parametrize(("record", "found"), [([6], "[6]"), ([6, "1"], '[6, "1"]'),
                                               (6, "6"), ([6, 1.5], "[6, 1.5]")])
def test_a_damaged_dice_record_is_named(record: Any, found: str) -> None:
    """A die recorded as ``[6]`` was "does not replay (not enough values to unpack (expected
    2, got 1))"; each record must be a [sides, value] pair of whole numbers."""
    data = _saved()
    if isinstance(record, list):
        data["journal"][0]["dice"][0] = record
        said = f"its dice must be [sides, value] pairs, found {found}"
    else:
        data["journal"][0]["dice"] = record
        said = f"its dice must be a list of [sides, value] pairs, found {found}"
    with pytest.raises(DataError) as err:
        Fight.from_json(RULES, data, "f.json")
    assert str(err.value) == (f"f.json: journal entry 1 ({PC1} → {ORC} 攻撃 attack) is "
                              f"damaged: {said}")


@pytest.mark.parametrize(("key", "said"), [
    ("dice", f" ({PC1} → {ORC} 攻撃 attack) is damaged: its dice are missing"),
    ("action", " is damaged: its action is missing")])
def test_an_entry_without_its_action_or_dice_is_named(key: str, said: str) -> None:
    """An entry with its ``dice`` (or ``action``) left out was "is damaged and does not
    replay ('dice')", Python's KeyError repr (r78genso)."""
    data = _saved()
    del data["journal"][0][key]
    with pytest.raises(DataError) as err:
        Fight.from_json(RULES, data, "f.json")
    assert str(err.value) == f"f.json: journal entry 1{said}"
