"""The table's Iai with an ally's blade (CO-IAI-1) names whose blade it draws: an ally's, or
the drawer's own drawn back from the ally who drew it (engine revision 20, reviewcoc72 RISK
2: Bob's own sword was tagged "Ann's blade")."""

from __future__ import annotations

from typing import Any

from companion.app.modes.coc import CocFightMode
from companion.app.session.mode import ChoiceAsk
from companion.systems.coc.combat import Attack, Fight
from companion.systems.coc.combat.iai import LENT_IN_PLACE
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, pass_to, push

#: Ann has Iai and no sword; Bob, her ally, Iai, a Japanese sword (weapon 0) and a knife (1).
ANN: dict[str, Any] = {"weapons": ("fist",), "fist": 50, "iai": 80}
BOB: dict[str, Any] = {"weapons": ("japanese_sword", "knife"), "japanese_sword": 60,
                       "knife": 55, "iai": 70}
CULT: dict[str, Any] = {"weapons": ("fist",), "fist": 50}


def prompt(fight: Fight, *keys: str) -> str:
    """The table's question after picking ``keys`` one after the other."""
    mode = CocFightMode(fight)
    for key in keys:
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk), ask
        mode.answer([o.choice for o in ask.options].index(key))
    return mode.ask().prompt


def test_the_owner_is_offered_its_own_blade_back_003() -> None:
    f = at(LENT_IN_PLACE, duel(Profile.P003, ANN, CULT, third=BOB))
    assert prompt(f, "attack", "t:Cult", "h:borrow").endswith(
        "[Iai 居合] [Bob's blade]")
    push(f, Attack("Ann", "Cult", 0, iai=True, borrow="Bob"), (100, 90))
    pass_to(f, "Bob")
    assert prompt(f, "attack", "t:Cult", "h:borrow").endswith(
        "[Iai 居合] [own blade back from Ann 自分の刀を取り戻す]")


def how_labels(fight: Fight) -> dict[str, str]:
    """The How? menu's labels by key, the actor attacking Cult."""
    mode = CocFightMode(fight)
    for key in ("attack", "t:Cult"):
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk), ask
        mode.answer([o.choice for o in ask.options].index(key))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and ask.prompt.startswith("How?"), ask
    return {o.choice: o.label for o in ask.options}


def test_the_how_menu_calls_the_owners_blade_its_own_003() -> None:
    """grapple73's known item: the How? menu's h:borrow read "Iai with an ally's blade" to
    Bob, whose own sword Ann had drawn; only the tag after it said "own blade back"."""
    f = duel(Profile.P003, ANN, CULT, third=BOB)
    assert how_labels(f)["h:borrow"] == "Iai with an ally's blade 味方の刀で居合"
    push(f, Attack("Ann", "Cult", 0, iai=True, borrow="Bob"), (100, 90))
    pass_to(f, "Bob")
    assert how_labels(f)["h:borrow"] == "Draw back your blade 自分の刀を取り戻す"
