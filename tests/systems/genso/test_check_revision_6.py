"""Fight engine revision 6 (fixt65b): a check that cannot succeed (P = 0/36) is not rolled
from revision 6 on (tables65 NIT 4), and by revision 5 it rolls its 2D, as it was played,
so the throw a revision-5 table save recorded for it replays into it and not into the next
question."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.dice import ScriptedDice
from companion.systems.genso.checks import (
    NOT_ROLLED,
    Check,
    chance,
    enemy_check,
    general_check,
    mark_check,
    simple_check,
    trap_check,
    undead_check,
)
from companion.systems.genso.combat import ENGINE, FILE_VERSION, Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
SETTLER = preset(RULES, "settler_m")
MAGE = preset(RULES, "mage_f")  # knows 呪印呪/Mark
DATA = Path(__file__).parent / "data"

#: Each check of §2.3 (and GM-MAGIC-6) at a difficulty (or modifier) no 2D can beat.
IMPOSSIBLE: dict[str, Callable[..., Check]] = {
    "simple": lambda dice, **kw: simple_check(RULES, dice, "extremely_hard", **kw),
    "general": lambda dice, **kw: general_check(RULES, dice, SETTLER, "body", 30, **kw),
    "trap": lambda dice, **kw: trap_check(RULES, dice, SETTLER, 30, **kw),
    "enemy": lambda dice, **kw: enemy_check(RULES, dice, SETTLER, 30, **kw),
    "undead": lambda dice, **kw: undead_check(RULES, dice, MAGE, -20, **kw),
    "mark": lambda dice, **kw: mark_check(RULES, dice, MAGE, -20, **kw),
}


def thrown(*values: int) -> ScriptedDice:
    return ScriptedDice((6, v) for v in values)


@pytest.mark.parametrize("kind", IMPOSSIBLE)
def test_an_impossible_check_rolls_by_revision_5_and_not_from_revision_6(kind: str) -> None:
    dice = thrown(5, 3)
    old = IMPOSSIBLE[kind](dice, engine=5)
    assert old.chance == 0 and not old.success and not dice.remaining
    assert [d.value for d in old.result.dice] == [5, 3] and NOT_ROLLED not in old.result.text
    new = IMPOSSIBLE[kind](thrown(), engine=6)
    assert not new.success and new.result.dice == () and NOT_ROLLED in new.result.text
    # Today's revision is the one that does not roll it.
    assert IMPOSSIBLE[kind](thrown()).result == new.result


def test_a_check_that_can_succeed_rolls_by_every_revision() -> None:
    """P = 1/36 (a simple check at 11) is rolled by revision 5 and 6 alike."""
    assert chance(0, 11) > 0
    by5 = simple_check(RULES, thrown(6, 6), 11, engine=5)
    by6 = simple_check(RULES, thrown(6, 6), 11)
    assert by5 == by6 and by6.success and [d.value for d in by6.result.dice] == [6, 6]


def test_the_engine_and_fight_file_are_revision_6() -> None:
    """ENGINE and FILE_VERSION move together: a version-N file's entries that name no
    revision were played by revision N (7 since genso67's lines)."""
    assert ENGINE == FILE_VERSION >= 6
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1")], [("orc", 1)]))
    assert fight.to_json()["version"] == ENGINE and fight.engine == ENGINE


def test_a_revision_5_fight_file_played_on_is_revision_5() -> None:
    """table_impossible_check_r5_fight.json, written by revision 5 (file version 5): its
    entries replay by revision 5 and, played on (a table's save), so do the checks after."""
    data = json.loads((DATA / "table_impossible_check_r5_fight.json").read_text(
        encoding="utf-8"))
    assert data["version"] == 5 and all("engine" not in e for e in data["journal"])
    played_on = Fight.from_json(RULES, data, playing_on=True)
    assert played_on.engine == 5 and {e.engine for e in played_on.journal} == {5}
    assert [e.to_json()["lines"] for e in played_on.journal] == \
        [e["lines"] for e in data["journal"]]
    assert Fight.from_json(RULES, data).engine == ENGINE
    saved = played_on.to_json()
    assert saved["version"] == FILE_VERSION and [e.get("engine") for e in saved["journal"]] \
        == [5] * len(data["journal"])
