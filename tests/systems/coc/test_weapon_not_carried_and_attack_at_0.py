"""The coc engine's refusals for a weapon not carried; an attack at 0% asks no die.

review63a NIT 5 and RISK 2 (the coc63 N3 and N4 follow-ups): what a refusal for a weapon
not carried says, for each action; an attack at 0% whose fumble nothing reads asks no die."""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    Attack,
    ClearJam,
    Defence,
    Grapple,
    PickUp,
    Reload,
    Tackle,
)
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push, replays

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


# review63a RISK 2 (coc63 N3 in 004): an attack roll at 0% whose kind's fumble rule is off
# (004: CO-MELEE-4 and CO-FIRE-4 optional, off by default) can come to nothing: no die.
NOT_ROLLED = "(1D100<=0) ＞ cannot succeed, not rolled ＞ 失敗/failure"


@pytest.mark.parametrize(("ann", "action"), [
    ({"weapons": ("knife",), "knife": 0}, Attack("Ann", "Cult")),
    ({"weapons": ("revolver",), "handgun": 0}, Attack("Ann", "Cult")),
    ({"weapons": ("smg",), "smg": 0}, Attack("Ann", "Cult", burst=True)),
    ({"grapple": 0}, Grapple("Ann", "Cult")),
    ({"tackle": 0}, Tackle("Ann", "Cult")),
])
def test_an_attack_at_0_whose_fumble_does_nothing_asks_no_die_004(
        ann: dict[str, object], action: object) -> None:
    f = duel(P004, ann)
    text = push(f, action)  # no dice scripted: one asked for fails the push
    assert NOT_ROLLED in text, text
    replays(f)


@pytest.mark.parametrize(("ann", "action", "rule"), [
    ({"weapons": ("knife",), "knife": 0}, Attack("Ann", "Cult", fumble="fall"), "CO-MELEE-4"),
    ({"weapons": ("smg",), "smg": 0}, Attack("Ann", "Cult", burst=True), "CO-FIRE-4"),
    ({"grapple": 0}, Grapple("Ann", "Cult"), "CO-MELEE-4"),
])
def test_an_attack_at_0_is_rolled_where_its_fumble_rule_is_played_004(
        ann: dict[str, object], action: object, rule: str) -> None:
    """The optional fumble rule turned on: the d100 may fumble, so it is thrown."""
    f = duel(P004, ann, settings={rule: {"p004": "optional_on"}})
    text = push(f, action, (100, 97))
    assert "(1D100<=0) ＞ 97 ＞ 致命的失敗/fumble" in text and f"({rule})" in text, text


def test_an_attack_at_0_played_by_revision_13_rolls_and_replays_004() -> None:
    f = at(13, duel(P004, {"weapons": ("knife",), "knife": 0}))
    assert "(1D100<=0) ＞ 97 ＞ 致命的失敗/fumble" in push(f, Attack("Ann", "Cult"), (100, 97))
    g = at(13, duel(P004, {"tackle": 0}))
    assert "(1D100<=0) ＞ 50 ＞ 失敗/failure" in push(g, Tackle("Ann", "Cult"), (100, 50))
    replays(f)
    replays(g)


def test_an_ma_combination_at_0_is_still_rolled_its_ma_half_may_succeed_004() -> None:
    """CO-BASE-3: Fist 0 with MA 30 is one d100 against both; 20 succeeds for MA (partial)."""
    f = duel(P004, {"weapons": ("fist",), "fist": 0, "martial_arts": 30})
    text = push(f, Attack("Ann", "Cult", ma=True), (100, 20), (3, 2), (4, 2))
    assert "(1d100<=0,30) ＞ 20[失敗,成功] ＞ 部分的成功/partial success" in text
    assert "Cult takes 4" in text


def test_a_stray_throw_at_0_asks_no_die_for_its_own_roll_003() -> None:
    """CO-THROW-2 (003, on): Throw 0 is thrown for its fumble, which strays towards Bob; the
    stray's own roll can neither hit nor fumble to any effect, so it asks no die."""
    f = duel(Profile.P003, {"weapons": ("rock",), "throw": 0}, third={})
    text = push(f, Attack("Ann", "Cult", stray="Bob"), (100, 97))
    assert "flies off towards Bob (CO-THROW-2)" in text and f"→ Bob {NOT_ROLLED}" in text
    replays(f)
    old = at(13, duel(Profile.P003, {"weapons": ("rock",), "throw": 0}, third={}))
    assert "→ Bob (1D100<=0) ＞ 50" in push(old, Attack("Ann", "Cult", stray="Bob"),
                                          (100, 97), (100, 50))
    replays(old)
