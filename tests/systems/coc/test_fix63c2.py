"""review63a NIT 5 and RISK 2 (the coc63 N3 and N4 follow-ups): what a refusal for a weapon
not carried says, for each action; an attack at 0% whose fumble nothing reads asks no die."""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Attack, ClearJam, Defence, PickUp, Reload
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel

P004 = Profile.P004


@pytest.mark.parametrize(("action", "said"), [
    (Reload("Ann", 0), "Ann carries no weapons to reload"),
    (PickUp("Ann", 0), "Ann carries no weapons to pick up"),
    (ClearJam("Ann", 0), "Ann carries no weapons to clear of a jam"),
])
def test_a_weapon_action_without_weapons_says_what_it_wanted_one_for(action: object,
                                                                    said: str) -> None:
    """NIT 5: "to punch, list fist" is an attack's; a reload, pick-up or clear says its own."""
    f = duel(P004, {"weapons": ()})
    with pytest.raises(IllegalAction) as refused:
        f.push(action, ScriptedDice([]))
    assert str(refused.value) == said
    assert not f.journal


def test_an_attack_without_weapons_is_still_told_to_list_fist() -> None:
    f = duel(P004, {"weapons": ()})
    with pytest.raises(IllegalAction, match=r"^Ann carries no weapons: to punch, list fist "):
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))


def test_a_parry_with_a_weapon_not_carried_lists_what_is_carried() -> None:
    """NIT 5: the parry's refusal lists the weapons as the attack's does (one helper)."""
    f = duel(P004, {"weapons": ("fist",)}, {"weapons": ("knife", "fist")})
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Ann", "Cult", defence=Defence.PARRY, parry_weapon=3), ScriptedDice([]))
    said = "Cult has no weapon 3 (carried: 0 ナイフ/Knife, 1 こぶし(パンチ)/Fist/Punch)"
    assert str(refused.value).endswith(said), refused.value
    g = duel(P004, {"weapons": ("fist",)}, {"weapons": ()})
    with pytest.raises(IllegalAction) as none:
        g.push(Attack("Ann", "Cult", defence=Defence.PARRY, parry_weapon=0), ScriptedDice([]))
    assert str(none.value).endswith("Cult carries no weapons to parry with"), none.value


def test_a_disarm_of_a_weapon_not_carried_lists_what_is_carried() -> None:
    f = duel(P004, {"weapons": ("fist",)}, {"weapons": ("knife",)})
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Ann", "Cult", disarm=True, disarm_weapon=2), ScriptedDice([]))
    assert str(refused.value) == "Cult has no weapon 2 (carried: 0 ナイフ/Knife)"


def test_drawing_the_blade_of_an_ally_without_weapons_says_so() -> None:
    """NIT 5: an Iai draw (CO-IAI-1) from Bob, who carries nothing: Bob is not told to punch."""
    f = duel(Profile.P003, {"weapons": ("fist",)}, third={"weapons": ()})
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Ann", "Cult", iai=True, borrow="Bob"), ScriptedDice([]))
    assert str(refused.value) == "Bob carries no weapons to draw (CO-IAI-1)"
