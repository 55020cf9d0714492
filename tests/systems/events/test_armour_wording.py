"""The events' words spell armour as every other screen does ("Armour 鎧"): the trap table
said "armor counts" (display audit 56 #14). The party file's key stays ``armor``: it is
what the players' own party files hold (example_party.toml), not words on a screen."""

from __future__ import annotations

from companion.dice import SimulatedDice
from companion.systems.events.run import run_event
from tests.systems.events.walk_helpers import AKI, RATINGS, d6, sw, texts


def test_every_trap_of_the_generic_table_spells_armour_the_british_way() -> None:
    said = set()
    for seed in range(60):
        report = run_event("trap", SimulatedDice.seeded(seed))
        said |= {step.text for step in report.steps}
    about_armour = [text for text in said if "armo" in text]
    assert any("armour counts" in text for text in about_armour)  # the arrow (EV-TRAP-5)
    assert any("minus armour" in text for text in about_armour)  # the pit (EV-TRAP-7)
    assert not any("armor" in text for text in said)


def test_a_sword_world_hit_subtracts_armour() -> None:
    hit = sw("trap", d6(3, 1, 2, 6, 6), party=(AKI,), dm_level=2, rating_table=RATINGS)
    assert texts(hit, "EV-TRAP-2")[-1] == ("Aki: 8 − armour 2 − Lv 3 (level reduction "
                                            "(default)) ＞ 3 damage; HP 20 → 17/25")
