"""The Attack menu's Disarm (CO-DISARM-1) aims only at a real weapon, never at bare hands.

coc70 finding 1 at the table (fixcoc70): the Attack menu's Disarm (CO-DISARM-1) never
aims at bare hands: against a foe with a fist and a blackjack it goes straight for the
blackjack, and against one with bare hands only, or whose weapon is already on the ground,
it is not offered."""

from __future__ import annotations

from pathlib import Path

from companion.systems.coc.combat import Attack, EndTurn
from companion.systems.coc.rules import Profile
from tests.app.coc_table_helpers import FOE, INV, at_the_table, offered, people


def test_the_disarm_aims_only_at_a_real_weapon(tmp_path: Path) -> None:
    """Cult holds its fist (0) and a blackjack (1): Disarm asks no "Knock which weapon?"
    (the fist is none to lose) and knocks the blackjack away."""
    make = people(Profile.P004, ("Ann", 14, ("knife",), INV, {"knife": 90}),
                  ("Cult", 10, ("fist", "blackjack"), FOE, {"club": 50}))
    mode, player = at_the_table(tmp_path, make, [], [
        "attack", "t:Cult", "h:disarm", "d:none"], [
        Attack("Ann", "Cult", disarm=True, disarm_weapon=1)])
    assert not offered(player, "Knock which weapon")
    assert mode.fight.state.get("Cult").sheet.weapons[1].dropped


def test_no_disarm_against_bare_hands(tmp_path: Path) -> None:
    """Cult holds only its fist: the How? menu has no Disarm."""
    make = people(Profile.P004, ("Ann", 14, ("knife",), INV, {"knife": 90}),
                  ("Cult", 10, ("fist",), FOE, {"fist": 50}))
    _, player = at_the_table(tmp_path, make, [], [
        "attack", "t:Cult", "h:plain", "d:none"], [Attack("Ann", "Cult")])
    hows = offered(player, "How?")
    assert hows and all("h:disarm" not in keys for keys in hows)


def test_no_disarm_once_the_weapon_is_on_the_ground(tmp_path: Path) -> None:
    """Cult's blackjack was knocked away: it holds only its fist, so Disarm is gone."""
    make = people(Profile.P004, ("Ann", 14, ("knife",), INV, {"knife": 90}),
                  ("Cult", 10, ("fist", "blackjack"), FOE, {"club": 50}))
    disarm = Attack("Ann", "Cult", disarm=True, disarm_weapon=1)
    _, player = at_the_table(tmp_path, make, [(disarm, [10]), (EndTurn("Cult"), [])], [
        "attack", "t:Cult", "h:plain", "d:none"], [Attack("Ann", "Cult")])
    hows = offered(player, "How?")
    assert hows and all("h:disarm" not in keys for keys in hows)
