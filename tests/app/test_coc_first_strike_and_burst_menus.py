"""The table's first strike (CO-FIRE-7) and burst (CO-FIRE-6/8) menus offer only what the
engine takes (coc72 DEFECT 1, engine revision 20): no MA, MA options or shots with a
pistol's first strike, and no MA, shots or Iai among a burst's circumstances. A fight begun
under revision 19 is offered what 19 took, so its table save replays."""

from __future__ import annotations

from typing import Any

from companion.dice import ScriptedDice
from companion.systems.coc.combat import Attack, Fight
from companion.systems.coc.rules import Profile
from tests.app.coc_table_helpers import menu_after
from tests.systems.coc.helpers import at, duel

ANN: dict[str, Any] = {"weapons": ("automatic", "smg", "fist"), "handgun": 60, "smg": 60,
                       "fist": 60, "martial_arts": 60}
CULT: dict[str, Any] = {"weapons": ("fist",), "fist": 50}


def choices(fight: Fight, *keys: str) -> tuple[str, list[str]]:
    """The prompt and choices the table asks after picking ``keys`` one after the other."""
    last = menu_after(fight, *keys)
    return last.prompt, [o.choice for o in last.options]


def test_a_pistols_first_strike_is_offered_plain_004() -> None:
    """The Keeper's First strike 先制射撃 with the pistol goes straight to the target's
    defence: no How? menu of MA, MA forced hit, MA follow-up, 2 or 3 shots."""
    first = ("keeper", "first", "t:Ann", "t:Cult", "w:0")
    prompt, keys = choices(duel(Profile.P004, ANN, CULT), *first)
    assert prompt.startswith("How does Cult defend?") and "d:none" in keys
    prompt, keys = choices(at(19, duel(Profile.P004, ANN, CULT)), *first)
    assert prompt.startswith("How?") and keys == [
        "h:plain", "h:ma", "h:ma_forced", "h:ma_follow", "h:shots2", "h:shots3", "back"]


def test_a_bursts_circumstances_offer_no_ma_shots_or_iai_003() -> None:
    """003's submachine gun burst, More 状況: the board's touch and from behind only."""
    burst = ("attack", "t:Cult", "w:1", "h:burst", "m:more")
    prompt, keys = choices(duel(Profile.P003, ANN, CULT), *burst)
    assert prompt.startswith("What else?") and keys == ["m:touch", "m:behind", "back"]
    _, keys = choices(at(19, duel(Profile.P003, ANN, CULT)), *burst)
    assert {"m:with_ma", "m:with_shots2", "m:with_iai", "m:with_pommel"} <= set(keys)


def test_an_iai_offers_a_surprise_where_surprise_is_played_003() -> None:
    """reviewcoc72 NIT 6: an Iai from hiding rolls its Hide first, then strikes (004
    「それらが成功した場合、戦闘技能を使用できる」), where 003 plays the optional CO-SURP-1;
    revision 20 had refused it, so its More 状況 offered no surprise."""
    sword = {"weapons": ("japanese_sword",), "japanese_sword": 60, "iai": 70, "hide": 60}
    iai = ("attack", "t:Cult", "h:iai", "m:more")
    surprise_on = {"CO-SURP-1": {"p003": "optional_on"}}
    _, keys = choices(duel(Profile.P003, sword, CULT, settings=surprise_on), *iai)
    assert "m:surprise" in keys
    _, keys = choices(duel(Profile.P003, sword, CULT), *iai)
    assert "m:surprise" not in keys


def test_no_grapple_or_tackle_offered_after_a_first_strike_004() -> None:
    """grapple75 DEFECT 1 (engine revision 23): after the SMG's first strike 重火器先制 (its one
    attack, CO-FIRE-7) Ann's menu offers neither Attack nor Grapple nor Tackle; revision 22's
    offered Grapple and Tackle, and still does for its fights."""
    smg = {"weapons": ("smg", "fist"), "smg": 60, "fist": 60, "grapple": 60, "tackle": 50}

    def menu(fight: Fight) -> list[str]:
        prompt, keys = choices(fight)
        assert prompt.startswith("Ann: what now?") and "grapple" in keys, prompt
        fight.push(Attack("Ann", "Cult", first_strike=True), ScriptedDice([(100, 90)]))
        prompt, keys = choices(fight)
        assert prompt.startswith("Ann: what now?"), prompt
        return keys

    keys = menu(duel(Profile.P004, smg, CULT))
    assert not {"attack", "grapple", "tackle"} & set(keys) and "end?" in keys
    assert {"grapple", "tackle"} <= set(menu(at(22, duel(Profile.P004, smg, CULT))))


def test_only_the_first_strike_gun_is_offered_after_it_004() -> None:
    """reviewcoc75 DEFECT 1 (engine revision 23): after a first strike 重火器先制 the round's
    attacks left are that gun's own (004 l.52-53). The SMG's one attack went first, so with a
    revolver carried too no Attack is offered; after the revolver's, Attack goes straight to
    its shots, the automatic not offered. Revision 22's fights are offered what it took."""
    def after_first_strike(weapons: tuple[str, ...], engine: int = 23) -> Fight:
        ann = {"weapons": (*weapons, "fist"), "smg": 60, "handgun": 60, "fist": 60}
        fight = at(engine, duel(Profile.P004, ann, CULT))
        fight.push(Attack("Ann", "Cult", first_strike=True), ScriptedDice([(100, 90)]))
        return fight

    assert "attack" not in choices(after_first_strike(("smg", "revolver")))[1]
    assert "attack" in choices(after_first_strike(("smg", "revolver"), 22))[1]
    prompt, keys = choices(after_first_strike(("revolver", "automatic")), "attack", "t:Cult")
    assert prompt.startswith("How?") and "h:shots2" in keys, prompt
    prompt, keys = choices(after_first_strike(("revolver", "automatic"), 22), "attack", "t:Cult")
    assert prompt.startswith("With which weapon?") and {"w:0", "w:1"} <= set(keys), prompt
