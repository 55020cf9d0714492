"""The table offers a fighter with no hand left only what the engine's Default "CO-BODY-5
(hands)" (engine revision 20) takes: an MA counter (CO-MA-5) by a kick or head butt, never by
its fist (reviewcoc72 DEFECT 1), and none when it has no such technique; no MA parry, no
Treat, no reload, no clearing a jam and no picking a weapon up (reviewcoc72 NIT 5). A fight
begun under revision 19 is offered and plays what 19 took, so its table save replays."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.app.modes.coc import CocFightMode
from companion.app.session.mode import ChoiceAsk, RollAsk
from companion.systems.coc.combat import Fight, Grapple
from companion.systems.coc.combat.body_parts import HANDS_READ
from companion.systems.coc.combat.damage import HOLD_FROM_WITHIN
from companion.systems.coc.rules import Profile
from tests.systems.coc import no_hands_helpers
from tests.systems.coc.helpers import at, duel, pass_to, patch, push

#: Ann: a Japanese sword (0) to cut the arms off, and a fist (1) for an unarmed attack.
ANN: dict[str, Any] = {"weapons": ("japanese_sword", "fist"), "japanese_sword": 90,
                       "fist": 70}
#: Cult: a fist (0) and a kick (1), with Martial Arts.
CULT: dict[str, Any] = {"weapons": ("fist", "kick"), "fist": 60, "kick": 60,
                        "martial_arts": 50, "dodge": 40}


def armless(engine: int, cult: dict[str, Any] = CULT) -> Fight:
    """004: Ann's sword cuts off both of Cult's arms (no_hands_helpers.armless); Cult ends
    its turn and it is Ann's again."""
    f = no_hands_helpers.armless(engine, cult, ann=ANN)
    pass_to(f, "Ann")
    return f


def choices(fight: Fight, *keys: str) -> tuple[CocFightMode, list[str]]:
    """The table after picking ``keys``, and the choices it asks next."""
    mode = walk(fight, *keys)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk), ask
    return mode, [o.choice for o in ask.options]


def walk(fight: Fight, *keys: str) -> CocFightMode:
    """The table after picking ``keys`` one after the other."""
    mode = CocFightMode(fight)
    for key in keys:
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk), ask
        mode.answer([o.choice for o in ask.options].index(key))
    return mode


#: Ann punches the armless Cult, who counters (CO-MA-5).
PUNCH_COUNTERED = ("attack", "t:Cult", "w:1", "h:plain", "d:counter")


def test_an_armless_fighter_counters_by_a_kick_004() -> None:
    mode = walk(armless(HANDS_READ), *PUNCH_COUNTERED)
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and ask.prompt.endswith("(counter キック/Kick)")


def test_an_armless_fighter_with_no_kick_is_offered_no_counter_004() -> None:
    fist_only = {**CULT, "weapons": ("fist",)}
    mode = walk(armless(HANDS_READ, fist_only), *PUNCH_COUNTERED[:-1])
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    keys = [o.choice for o in ask.options]
    assert "d:dodge" in keys and "d:counter" not in keys


def test_revision_19_countered_by_the_fist_004() -> None:
    mode = walk(armless(HANDS_READ - 1), *PUNCH_COUNTERED)
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and ask.prompt.endswith("(counter こぶし(パンチ)/Fist/Punch)")


def test_an_armless_fighter_is_offered_no_ma_parry_004() -> None:
    _, offered = choices(armless(HANDS_READ), *PUNCH_COUNTERED[:-1])
    assert "d:dodge" in offered and "d:parry:ma" not in offered
    _, offered = choices(armless(HANDS_READ - 1), *PUNCH_COUNTERED[:-1])
    assert "d:parry:ma" in offered


def test_an_armless_fighter_is_offered_nothing_done_by_hand_004() -> None:
    """Cult's own turn: a kick still attacks; Treat (First Aid), Reload (its pistol empty),
    Clear jam (its other pistol jammed) and Pick up (its knife dropped) are not offered."""
    by_hand = {"treat", "reload", "jam", "pickup"}
    for engine, offered in ((HANDS_READ, set()), (HANDS_READ - 1, by_hand)):
        f = armless(engine, {**CULT, "weapons": ("fist", "kick", "automatic", "automatic",
                                                 "knife"), "handgun": 50, "first_aid": 50})
        pass_to(f, "Cult")
        fist, kick, empty, jammed, knife = f.state.get("Cult").sheet.weapons
        arms = (fist, kick, replace(empty, loaded=0), replace(jammed, jammed=True),
                replace(knife, dropped=True))
        patch(f, "Cult", sheet=replace(f.state.get("Cult").sheet, weapons=arms))
        _, keys = choices(f)
        assert "attack" in keys and by_hand & set(keys) == offered, keys


def test_a_holder_with_no_hand_left_is_offered_no_choke_or_throw_004() -> None:
    """grapple73 finding 7 (engine revision 21): Ann restrains Cult, then loses both arms
    (the Keeper's ruling, patched); Choke and Throw, made by hand, are no longer offered, and
    letting go is. A fight played on by revision 20 still offers them."""
    for engine, offered in ((HOLD_FROM_WITHIN, set()), (HOLD_FROM_WITHIN - 1, {"choke", "throw"})):
        f = at(engine, duel(Profile.P004, {"grapple": 80}, {"fist": 50}))
        push(f, Grapple("Ann", "Cult"), (100, 10))
        pass_to(f, "Ann")
        _, before = choices(f)
        assert {"choke", "throw"} <= set(before)
        patch(f, "Ann", lost=("arm", "arm"))
        _, keys = choices(f)
        assert {"choke", "throw"} & set(keys) == offered, keys
        assert ("let_go" in keys) is (engine == HOLD_FROM_WITHIN)
