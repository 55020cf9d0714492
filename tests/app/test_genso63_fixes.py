"""Audit genso63's findings, fixed: a weapon readied with `gear` is weapon 0, the one
`fight attack` strikes with, as `gear --help` says (DEFECT 1); the table pays a spell from
a Ring of Storage as `fight cast --ring` does (DEFECT 3)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode
from companion.dice import SimulatedDice
from companion.systems.genso.combat import Cast, Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.table import choices, played_keys
from tests.app.test_dicesys55 import genso

RULES = load_rules()
PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"


def test_a_weapon_readied_with_gear_is_the_one_fight_attack_strikes_with(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1: `gear --help` said a weapon equipped becomes weapon 0, but it was put after
    the club and knife, so `fight attack` without --weapon still struck with the club."""
    sheet = tmp_path / "aki.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    assert main(["genso", "buy", str(sheet), "staff"]) == 0
    assert main(["genso", "gear", str(sheet), "staff"]) == 0
    said = capsys.readouterr().out
    assert "equipped 棒/Staff: weapon 0, the one `fight attack` strikes with" in said
    weapons = genso(capsys, "sheet", str(sheet))["sheet"]["weapons"]
    assert weapons[:3] == ["staff", "club", "knife"]
    genso(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    current = genso(capsys, "fight", "show")["current"]
    if current != "駆け出し冒険者１":
        genso(capsys, "fight", "wait", current)
    hit = genso(capsys, "fight", "attack", str(sheet), "orc", "--seed", "1")
    assert hit["entry"]["action"]["weapon"] == 0
    assert any(line["text"].startswith("棒/Staff (1D6-2)") for line in hit["entry"]["lines"])


def ringed_table(**pc2: Any) -> GensoFightMode:
    """pc1 and pc2 (who knows Healing) against an Orc, pc2 with 3 MP of its own and a Ring
    of Storage holding 5 on the left hand (GM-ITEM-3), changed by ``pc2``."""
    mage = replace(preset(RULES, "pc2"), **{"mp": 3, "rings_left": ("ring_storage",),
                                            "storage_mp": 5, **pc2})
    return GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, "pc1"), mage], [("orc", 1)])))


def test_the_table_pays_a_spell_from_a_ring_of_storage_as_fight_cast_ring_does() -> None:
    """DEFECT 3 (GM-ITEM-3's Default: stored MP is spent like a mana stone's): the table
    asked no payment with no mana stone, so with 3 MP of its own and 5 in the ring Healing
    (4 MP) was refused ("has 3 MP, the spell needs 4 more"); `fight cast --ring` cast it."""
    mode = ringed_table()
    played_keys(mode, ("wait", "cast", "s:healing", f"t:{PC1}"), SimulatedDice.seeded(1))
    assert choices(mode) == ["pay:mp", "pay:ring", "back"]
    played_keys(mode, ("pay:ring",), SimulatedDice.seeded(1))
    assert mode.fight.journal[-1].action == Cast(PC2, "healing", (PC1,), None, None, True)
    caster = mode.fight.state.get(PC2)
    assert (caster.storage_mp, caster.mp) == (1, 3)


def test_the_ring_then_a_mana_stone_is_offered_beside_each_alone() -> None:
    """With a mana stone too, each pays alone, or the ring first and the stone after, as
    `fight cast --ring --stone N` pays (GM-ITEM-1, GM-ITEM-3)."""
    mode = ringed_table(mana_stones=(2,))
    played_keys(mode, ("wait", "cast", "s:healing", f"t:{PC1}"), SimulatedDice.seeded(1))
    assert choices(mode) == ["pay:mp", "pay:0", "pay:ring", "pay:ring:0", "back"]
    played_keys(mode, ("pay:ring:0",), SimulatedDice.seeded(1))
    caster = mode.fight.state.get(PC2)
    assert (caster.storage_mp, caster.mana_stones, caster.mp) == (1, (2,), 3)


def test_a_journal_from_before_the_ring_was_offered_replays_as_it_was_cast() -> None:
    """A table journal written before the payment question was asked for a ring cast on
    own MP straight after the target; it replays so, and goes on with its next choice."""
    mode = ringed_table(mp=8)
    for choice in ("wait", "cast", "s:healing", f"t:{PC1}", "wait"):
        mode.restore(choice)
    cast = mode.fight.journal[-2].action
    assert cast == Cast(PC2, "healing", (PC1,))
    assert mode.fight.state.get(PC2).storage_mp == 5
