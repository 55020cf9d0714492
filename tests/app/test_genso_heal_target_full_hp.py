"""The genso table's heal target menus (Healing, GM-MAGIC-2; a Healing Stone, GM-ITEM-2): a
target at full HP is marked ``HP 12/12 満タン full`` before the MP or the stone is spent, and
the mark reads whole at the screen sizes the screen tests use (fixg72b NIT 3: the player
learnt it only from the result's "HP full already: nothing healed")."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.app.modes.genso import GensoFightMode
from companion.dice import SimulatedDice
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.rules import GensoRules, load_rules
from companion.systems.genso.sheet import preset
from tests.app.table import asked, played_keys
from tests.hw.screen_layout_helpers import drawn_on

RULES = load_rules()
PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"
SIZES = [("800x480", 1.0), ("1024x600", 1.0), ("800x480", 1.25), ("1024x600", 1.25)]


def table(rules: GensoRules = RULES, pc1: dict[str, Any] | None = None) -> GensoFightMode:
    """pc1 (a Healing Stone, the Healing spell; full HP) and pc2 hurt (HP 5/10) against an
    orc, at pc1's turn."""
    party = [replace(preset(rules, "pc1"), equipment=("healing_stone",), spells=("healing",),
                     **(pc1 or {})),
             replace(preset(rules, "pc2"), hp=5)]
    return GensoFightMode(rules, Fight(rules, entrants_for(rules, party, [("orc", 1)])))


def labels(mode: GensoFightMode, *keys: str) -> dict[str, str]:
    played_keys(mode, keys, SimulatedDice.seeded(1))
    return {o.choice: o.label for o in asked(mode).options}


@pytest.mark.parametrize("keys", [("stone",), ("cast", "s:healing")], ids=["stone", "spell"])
def test_a_heal_target_at_full_hp_is_marked(keys: tuple[str, ...]) -> None:
    """pc1 at 12/12 is marked, pc2 at 5/10 is not; the keys (the save's answers) are the
    same, and the full one is still offered and taken, as the engine takes it."""
    mode = table()
    assert labels(mode, *keys) == {f"t:{PC1}": f"PC 1 {PC1} HP 12/12 満タン full",
                                   f"t:{PC2}": f"PC 2 {PC2}", "back": "Back 戻る"}
    played_keys(mode, (f"t:{PC1}",), SimulatedDice.seeded(1))
    assert "HP full already: nothing healed" in mode.fight.journal[-1].text


def test_no_mark_where_a_heal_goes_past_the_maximum_or_on_other_menus() -> None:
    """GM-MAGIC-2 cap_at_max_hp off: a heal at full HP heals (HP 16/12), so nothing is
    marked; nor is a foe at full HP on the attack's menu."""
    off = RULES.with_overrides({"GM-MAGIC-2": {"cap_at_max_hp": False}})
    assert labels(table(off), "stone")[f"t:{PC1}"] == f"PC 1 {PC1}"
    assert labels(table(), "attack") == {"t:オーク": "Orc オーク", "back": "Back 戻る"}


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize(("size", "scale"), SIZES,
                         ids=["800x480", "1024x600", "800x480-text1.25", "1024x600-text1.25"])
@pytest.mark.parametrize("name", [PC1, "Di"], ids=["preset", "short-name"])
def test_the_mark_reads_whole_on_the_screen(size: str, scale: float, name: str) -> None:
    """The label, wrapped over the button's rows, is drawn with none of it cut (…), the mark
    too, beside three giant ants' long names in the fight's rows."""
    party = [replace(preset(RULES, "pc1"), name=name, equipment=("healing_stone",)),
             replace(preset(RULES, "pc2"), hp=5)]
    mode = GensoFightMode(RULES, Fight(RULES, entrants_for(RULES, party, [("giant_ant", 3)])))
    played_keys(mode, ("stone",), SimulatedDice.seeded(1))
    ask = asked(mode)
    drawn = drawn_on(mode.view(ask.prompt, options=ask.options, highlight=0), size, scale)
    rows = [d for d in drawn if d.label]
    assert not any(d.cut for d in rows)
    words = " ".join(d.shown for d in rows).split()
    assert ["HP", "12/12", "満タン", "full"] == words[words.index("HP"):words.index("full") + 1]
    assert name in words
