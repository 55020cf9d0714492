"""Engine revision 7: the human shield stops other attackers only. 003 l.36 「＜組みつき＞中は
相手のHPをそのまま装甲として使用できる。」 (CO-GRAP-4) and 004 l.166 「拘束している相手はそのまま
肉盾として使用できる。」 (CO-GRAP-6): the held one shields its grappler, so its own blow at the
grappler (003's punch, 004's MA counter, CO-MA-5) lands on the grappler, not on itself.
Entries played by revision 6 replay as they were played."""

from __future__ import annotations

from typing import Any

from companion.systems.coc.combat import ENGINE, Attack, Defence, Fight, Grapple
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, pass_to, push, replays

ANN: dict[str, Any] = {"weapons": ("fist",), "grapple": 60, "fist": 60}
#: Cult punches in 003 and counters with an MA kick in 004.
CULT: dict[str, Any] = {"weapons": ("fist", "kick"), "fist": 50, "kick": 60,
                        "martial_arts": 60}


def held_003(engine: int, third: dict[str, Any] | None = None) -> Fight:
    """003: Ann holds Cult in round 1; Cult's turn."""
    f = at(engine, duel(Profile.P003, ANN, CULT, third=third))
    # Cult's STR roll at the start of its turn fails (CO-GRAP-2, from revision 10): in the
    # grapple's action, or after Bob's turn
    strain = ((100, 90),) if engine >= 10 else ()
    push(f, Grapple("Ann", "Cult"), (100, 30), *(() if third else strain))
    assert f.state.get("Ann").grappling == "Cult"
    pass_to(f, "Cult", *(strain if third else ()))
    return f


def restrained_004(engine: int) -> Fight:
    """004: Ann restrains Cult in round 1; Ann's turn in round 2."""
    f = at(engine, duel(Profile.P004, ANN, CULT))
    push(f, Grapple("Ann", "Cult"), (100, 30))
    assert f.state.get("Cult").held_by == "Ann"
    pass_to(f, "Cult")
    pass_to(f, "Ann")
    return f


def test_the_held_ones_punch_hurts_its_grappler_003() -> None:
    """Cult, held by Ann, punches her for 4: Ann takes it (HP 9), Cult is no shield against
    itself. Revision 6 put the 4 into Cult's own HP."""
    f = held_003(ENGINE)
    text = push(f, Attack("Cult", "Ann"), (100, 20), (3, 3), (4, 1))
    assert "human shield" not in text and "Ann takes 4: HP 9/13" in text
    assert (f.state.get("Ann").hp, f.state.get("Cult").hp) == (9, 13)
    replays(f)
    old = held_003(6)
    text = push(old, Attack("Cult", "Ann"), (100, 20), (3, 3), (4, 1))
    assert "Cult is a human shield and takes 4 (CO-GRAP-4)" in text
    assert (old.state.get("Ann").hp, old.state.get("Cult").hp) == (13, 9)
    replays(old)


def test_the_held_one_still_shields_its_grappler_from_others_003() -> None:
    """Bob's punch at Ann, who holds Cult, goes into Cult's HP as before (CO-GRAP-4)."""
    f = held_003(ENGINE, third={"fist": 60})
    pass_to(f, "Bob")
    text = push(f, Attack("Bob", "Ann"), (100, 20), (3, 3), (4, 1))
    assert "Cult is a human shield and takes 4 (CO-GRAP-4)" in text
    assert (f.state.get("Ann").hp, f.state.get("Cult").hp) == (13, 9)


def test_the_restrained_ones_counter_hurts_its_grappler_004() -> None:
    """Ann punches the Cult she restrains, who counters with an MA kick for 9 (CO-MA-5):
    Ann takes the 9. Revision 6 put them into Cult's own HP (CO-GRAP-6). From revision 19
    the restrained one does not counter at all (coc71 item 6,
    tests/systems/coc/test_grapple_tackle_pin.py): the last revision that took the counter,
    18, shows it."""
    dice = ((100, 30), (3, 2), (4, 4), (100, 20), (6, 5), (4, 4))
    f = restrained_004(18)
    text = push(f, Attack("Ann", "Cult", defence=Defence.COUNTER, parry_weapon=1), *dice)
    assert "human shield" not in text and "Ann takes 9: HP 4/13" in text
    assert (f.state.get("Ann").hp, f.state.get("Cult").hp) == (4, 13)
    replays(f)
    old = restrained_004(6)
    text = push(old, Attack("Ann", "Cult", defence=Defence.COUNTER, parry_weapon=1), *dice)
    assert "Cult is a human shield and takes 9 (CO-GRAP-6)" in text
    assert (old.state.get("Ann").hp, old.state.get("Cult").hp) == (13, 4)
    replays(old)
