"""Mutation round 6 on the coc table (companion/app/modes/coc): what the menus offer and what
the mode hands the engine, where the table's own tests left a change unnoticed.

Each test drives :class:`CocFightMode` by its option keys and throws, as the table's journal
does, and reads back what the engine then holds.
"""

from __future__ import annotations

from typing import Any

from companion.app.modes.coc import CocFightMode
from companion.dice import DiceSource, ScriptedDice, SimulatedDice
from companion.systems.coc.combat import Attack, Defence, Fight, PickUp, Reload, Side, Treat
from companion.systems.coc.rules import Profile, load_rules
from tests.app.table import asked, choices, played_keys
from tests.systems.coc.helpers import hurt
from tests.systems.coc.scripted_fight_helpers import Faces, entrant

INV, FOE = Side.INVESTIGATORS, Side.FOES


def table(profile: Profile, *rows: tuple[str, int, tuple[Any, ...], Side, dict[str, int]]
          ) -> CocFightMode:
    """A fight of ``rows`` (name, DEX, weapons, side, skills) at the table (DEXes apart, so
    no tie is rolled before the first turn)."""
    rules = load_rules(profile)
    return CocFightMode(Fight(rules, [entrant(rules, name, dex, weapons, side, **skills)
                                      for name, dex, weapons, side, skills in rows],
                              ScriptedDice([])))


def play(mode: CocFightMode, *keys: str, dice: DiceSource | None = None) -> None:
    """Pick ``keys`` in turn, every throw asked for thrown from ``dice``."""
    played_keys(mode, keys, dice or SimulatedDice.seeded(2))


def test_no_attack_is_offered_once_the_weapon_s_attacks_are_spent_003() -> None:
    """CO-TURN-3, seed 003 〇攻撃について (武器に設定された攻撃回数分のみ): a kick attacks once a
    round; with 2 AP left the menu offers no Attack the engine would refuse."""
    mode = table(Profile.P003, ("Ann", 14, ("kick",), INV, {"kick": 60}),
                 ("Deep", 8, ("japanese_sword",), FOE, {"japanese_sword": 60}))
    assert "attack" in choices(mode)
    play(mode, "attack", "t:Deep", "h:plain", "d:none")
    state = mode.fight.state
    assert state.current is not None and state.current.name == "Ann" and state.current.ap == 2
    assert not mode.legal(Attack("Ann", "Deep"))
    assert "attack" not in choices(mode)


def test_picking_up_the_one_weapon_on_the_ground_picks_up_that_one_004() -> None:
    """CO-DISARM-1: Cult's blackjack (its second weapon) is knocked away; Pick up, with one
    weapon on the ground, asks nothing and picks up that one, not the knife in hand."""
    mode = table(Profile.P004, ("Ann", 14, ("kick",), INV, {"kick": 60, "martial_arts": 50}),
                 ("Cult", 10, ("knife", "blackjack"), FOE, {"knife": 50, "club": 40}))
    mode.fight.push(Attack("Ann", "Cult", disarm=True, disarm_weapon=1), Faces([10]))
    assert [w.dropped for w in mode.fight.state.get("Cult").sheet.weapons] == [False, True]
    play(mode, "pickup")
    assert mode.fight.journal[-1].action == PickUp("Cult", 1)
    assert not mode.fight.state.get("Cult").sheet.weapons[1].dropped


def test_reloading_the_one_gun_that_fired_reloads_that_one_004() -> None:
    """CO-BASE-12, CO-FIRE-10: Ann fires her revolver (her second weapon) at Deep; next turn Reload,
    with one weapon to reload, asks nothing and reloads the revolver."""
    mode = table(Profile.P004, ("Ann", 14, ("kick", "revolver"), INV, {"kick": 60, "handgun": 70}),
                 ("Deep", 8, ("japanese_sword",), FOE, {"japanese_sword": 60}))
    play(mode, "attack", "t:Deep", "w:1", "h:plain", "d:none", "end?", "end")
    state = mode.fight.state
    assert state.current is not None and state.current.name == "Ann"
    fired = state.get("Ann").sheet.weapons[1]
    assert fired.loaded < fired.info.magazine
    assert "reload" in choices(mode)
    play(mode, "reload")
    assert mode.fight.journal[-1].action == Reload("Ann", 1)
    reloaded = mode.fight.state.get("Ann").sheet.weapons[1]
    assert reloaded.loaded > fired.loaded


def test_attack_is_offered_while_only_an_ally_s_blade_can_strike_003() -> None:
    """CO-IAI-1/2 (003): Ann's kick has had its one attack this round, but Iai, which costs
    no AP, may draw Bob's Japanese sword: Attack is still offered and leads to that Iai."""
    mode = table(Profile.P003, ("Ann", 14, ("kick",), INV, {"kick": 60, "iai": 70}),
                 ("Bob", 12, ("japanese_sword",), INV, {"japanese_sword": 60}),
                 ("Deep", 8, ("knife",), FOE, {"knife": 50}))
    play(mode, "attack", "t:Deep", "h:plain", "d:none")
    assert not mode.legal(Attack("Ann", "Deep"))
    assert "attack" in choices(mode)
    play(mode, "attack", "t:Deep", "d:none")
    assert mode.fight.journal[-1].action == Attack("Ann", "Deep", 0, iai=True, borrow="Bob")


def test_the_one_weapon_left_to_attack_with_is_the_one_used_003() -> None:
    """Seed 003 〇攻撃について (a weapon's own number of attacks): Ann's kick has had its attack
    this round, her revolver has not; Attack asks no weapon and fires the revolver."""
    mode = table(Profile.P003, ("Ann", 14, ("kick", "revolver"), INV, {"kick": 60, "handgun": 70}),
                 ("Deep", 8, ("knife",), FOE, {"knife": 50}))
    play(mode, "attack", "t:Deep", "w:0", "h:plain", "d:none")
    play(mode, "attack", "t:Deep")
    assert asked(mode).prompt.startswith("How?")
    play(mode, "h:plain", "d:none")
    assert mode.fight.journal[-1].action == Attack("Ann", "Deep", 1)


def test_a_counter_is_made_with_the_target_s_technique_004() -> None:
    """CO-MA-5: an MA counter strikes back with the defender's technique: Deep carries a
    knife first and kicks second; the counter is the kick (its line says Kick+MA)."""
    mode = table(Profile.P004, ("Ann", 14, ("kick",), INV, {"kick": 60}),
                 ("Deep", 8, ("knife", "kick"), FOE,
                  {"knife": 50, "kick": 50, "martial_arts": 60}))
    play(mode, "attack", "t:Deep", "h:plain")
    assert "d:counter" in choices(mode)
    play(mode, "d:counter")
    entry = mode.fight.journal[-1]
    assert entry.action == Attack("Ann", "Deep", 0, defence=Defence.COUNTER, parry_weapon=1)
    assert any(line.startswith("Deep counter キック/Kick+MA") for line in entry.lines)


def test_003_offers_no_multi_shot_attack_it_shoots_once_an_ap() -> None:
    """CO-TURN-3, CO-FIRE-2 (003): a handgun's three shots are three attacks of 1 AP each (the
    third at DEX/2; the engine fires one shot per 003 attack whatever it is told), so 003's
    How? offers no two or three shots; 004's does."""
    mode = table(Profile.P003, ("Ann", 14, ("revolver",), INV, {"handgun": 70}),
                 ("Deep", 8, ("knife",), FOE, {"knife": 50}))
    play(mode, "attack", "t:Deep")
    hows = choices(mode)
    assert "h:plain" in hows and not {"h:shots2", "h:shots3"} & set(hows)
    p004 = table(Profile.P004, ("Ann", 14, ("revolver",), INV, {"handgun": 70}),
                 ("Deep", 8, ("knife",), FOE, {"knife": 50}))
    play(p004, "attack", "t:Deep")
    assert {"h:shots2", "h:shots3"} <= set(choices(p004))


def test_a_point_blank_shot_may_be_parried_003() -> None:
    """CO-FIRE-5 (003): shot at point blank (adjacent, not from behind), the target may parry
    with a weapon: the defence menu offers Deep's knife, and the parry is the one played."""
    mode = table(Profile.P003, ("Ann", 14, ("revolver",), INV, {"handgun": 70}),
                 ("Deep", 8, ("knife",), FOE, {"knife": 50}))
    play(mode, "attack", "t:Deep", "h:plain")
    assert "d:parry:0" not in choices(mode)  # not adjacent: no parry against a gun
    play(mode, "m:more", "m:touch")
    assert "d:parry:0" in choices(mode)
    play(mode, "d:parry:0")
    action = mode.fight.journal[-1].action
    assert isinstance(action, Attack)
    assert (action.defence, action.parry_weapon, action.adjacent) == (Defence.PARRY, 0, True)


def test_the_keeper_places_on_every_rank_of_the_8x8_board_003() -> None:
    """CO-TURN-2 (003): the board is 8×8, so the Keeper's Place offers ranks 1–8 and a piece
    goes on h8 as picked."""
    mode = table(Profile.P003, ("Ann", 14, ("kick",), INV, {"kick": 60}),
                 ("Deep", 8, ("knife",), FOE, {"knife": 50}))
    play(mode, "keeper", "place", "t:Ann", "f:h")
    assert choices(mode) == [*(f"r:{r}" for r in range(1, 9)), "back"]
    play(mode, "r:8")
    facing = choices(mode)[0]
    play(mode, facing)
    assert mode.fight.state.get("Ann").square == "h8"


def test_dodge_concentration_is_offered_to_those_not_yet_concentrating_004() -> None:
    """CO-DODGE-8 (004): one already concentrating on dodging is not offered it again: after
    Ann's, the Keeper's list offers Deep and Bob only."""
    mode = table(Profile.P004, ("Ann", 14, ("kick",), INV, {"kick": 60, "dodge": 40}),
                 ("Deep", 8, ("knife",), FOE, {"knife": 50}),
                 ("Bob", 9, ("kick",), INV, {"kick": 50}))
    play(mode, "keeper", "conc")
    assert choices(mode) == ["t:Ann", "t:Deep", "t:Bob", "back"]
    play(mode, "t:Ann", "keeper", "conc")
    assert choices(mode) == ["t:Deep", "t:Bob", "back"]


def test_treating_with_medicine_rolls_medicine_004() -> None:
    """CO-BASE-8 (004): First Aid or Medicine; picked, Medicine is the skill the engine rolls
    (Bob hurt first: from engine revision 21 nobody unhurt is offered to treat)."""
    mode = table(Profile.P004, ("Ann", 14, ("kick",), INV,
                                {"kick": 60, "first_aid": 60, "medicine": 50}),
                 ("Bob", 12, ("kick",), INV, {"kick": 60}),
                 ("Deep", 8, ("knife",), FOE, {"knife": 50}))
    hurt(mode.fight, "Bob")
    play(mode, "treat", "t:Bob")
    assert choices(mode) == ["s:first_aid", "s:medicine", "back"]
    play(mode, "s:medicine")
    assert mode.fight.journal[-1].action == Treat("Ann", "Bob", "medicine")


def test_closing_the_table_warns_only_while_the_fight_runs_004() -> None:
    """The Keeper's Close table asks first, and while the fight runs says the table cannot
    carry it on after; once the fight is over it says nothing of the kind."""
    mode = table(Profile.P004, ("Ann", 14, ("kick",), INV, {"kick": 60}),
                 ("Deep", 8, ("knife",), FOE, {"knife": 50}))
    play(mode, "keeper", "close?")
    assert "The fight is not over" in asked(mode).prompt
    play(mode, "back", "back")
    for _ in range(60):  # Ann kicks Deep till it is down
        if mode.fight.state.current is None:
            break
        play(mode, *(("attack", "t:Deep", "h:plain", "d:none")
                     if mode.fight.state.current.name == "Ann" else ("end?", "end")))
    assert mode.fight.state.current is None
    play(mode, "keeper", "close?")
    assert "not over" not in asked(mode).prompt


def test_the_keeper_s_steps_pass_over_the_dead_004() -> None:
    """The dead are out of the fight: once Ann has killed Deep, the Keeper's SAN loss and
    Place lists leave it out."""
    mode = table(Profile.P004, ("Ann", 14, ("kick",), INV, {"kick": 90}),
                 ("Cult", 12, ("knife",), FOE, {"knife": 50}),
                 ("Deep", 8, ("knife",), FOE, {"knife": 50}))
    dice = SimulatedDice.seeded(5)
    for _ in range(90):
        if mode.fight.state.get("Deep").dead:
            break
        current = mode.fight.state.current
        assert current is not None
        play(mode, *(("attack", "t:Deep", "h:plain", "d:none") if current.name == "Ann"
                     else ("end?", "end")), dice=dice)
    assert mode.fight.state.get("Deep").dead and mode.fight.state.current is not None
    play(mode, "keeper", "san")
    assert "t:Deep" not in choices(mode)
