"""System `events`: rules a mutation spot check (round 2) found untested.

Each test names its rule ID and asserts the outcome the spec (§1) and seed 001 give.
"""

from __future__ import annotations

from companion.systems.events.sword_world import Member
from tests.systems.events.walk_helpers import RATINGS, d6, walk


def test_ev_trap_3_the_lowered_rating_never_goes_below_0_at_dm_level_1() -> None:
    """EV-TRAP-3 Default 「The rating never goes below 0」: at DM Lv 1 the explosion's rating
    is 5, and a member who resists takes base power at rating 0, not at −5."""
    cara = Member("Cara", adventurer=2, thief=1)
    # trap table 1 = explosion; Cara's vitality 6,6 succeeds; base power 2D6 = 12
    report = walk("trap", d6(1, 6, 6, 6, 6), mode="sw", party=(cara,), dm_level=1,
                  rating_table=RATINGS)
    (power,) = report.find("EV-CORE-3")
    assert power.data["rating"] == 0
    assert power.data["value"] == 4          # rating 0, 2D6 = 12 on the table above
    (damage,) = report.find("EV-TRAP-2")
    assert damage.data == {"hp": -2}         # 4 − armour 0 − Lv 2


def test_ev_door_3_an_untrapped_door_rolls_no_trap_type() -> None:
    """EV-DOOR-3 「if a trap is present, roll EV-TRAP-1 before the disarm attempt」: with the
    option on, a door that is only locked (EV-DOOR-1 face 2, 鍵) rolls no trap table."""
    aki = Member("Aki", adventurer=3, thief=3, dexterity=3)
    report = walk("door", d6(2, 4, 4), mode="sw", party=(aki,),
                  overrides={"EV-DOOR-3": {"enabled": True}})
    assert "EV-DOOR-3" not in report.rules()
    assert "EV-TRAP-1" not in report.rules()
    assert report.find("EV-DOOR-2")[-1].text == "解錠/Unlocked"
