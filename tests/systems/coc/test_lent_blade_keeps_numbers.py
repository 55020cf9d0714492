"""Engine revision 20 (coc72 DEFECT 2, CO-IAI-1): a blade an ally draws with Iai (003 l.50
「移動中、または移動先に隣接していた他の探索者から」) stays in the lender's list of weapons,
marked in the drawer's hands, so the lender's other weapons keep their numbers (docs/sheets.md:
"the first is weapon 0"). Revision 19 took it out of the list: Bob's knife, weapon 1, became
weapon 0, and Bob's ``weapon=0`` meant for his sword stabbed with the knife unsaid. Entries
played by revision 19 replay as they were played."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.systems.coc.combat import Attack, Defence
from companion.systems.coc.combat.iai import LENT_IN_PLACE
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, pass_to, patch, push, refused, replays

#: The revision before the fix.
OLD = 19
#: Ann has Iai and no sword; Bob, her ally, a Japanese sword (weapon 0) and a knife (1).
ANN: dict[str, Any] = {"weapons": ("fist",), "fist": 50, "iai": 80}
BOB: dict[str, Any] = {"weapons": ("japanese_sword", "knife"), "japanese_sword": 60,
                       "knife": 55}
CULT: dict[str, Any] = {"weapons": ("japanese_sword", "fist"), "japanese_sword": 50,
                        "fist": 50}


def drawn(engine: int, bob: dict[str, Any] = BOB) -> Any:
    """003: Ann draws Bob's sword with Iai and misses Cult; then it is Bob's turn."""
    f = at(engine, duel(Profile.P003, ANN, CULT, third=bob))
    text = push(f, Attack("Ann", "Cult", 0, iai=True, borrow="Bob"), (100, 90))
    assert "Ann draws Bob's 日本刀/Japanese Sword (CO-IAI-1)" in text
    pass_to(f, "Bob")
    return f


def test_the_lenders_weapons_keep_their_numbers_003() -> None:
    """Bob's weapon=0 is his sword, in Ann's hands: refused by name, before any die; his
    knife is still weapon 1. Ann holds the sword as her last weapon."""
    assert LENT_IN_PLACE == OLD + 1
    f = drawn(LENT_IN_PLACE)
    bob = f.state.get("Bob")
    assert [(w.info.key, w.lent) for w in bob.sheet.weapons] == [
        ("japanese_sword", "Ann"), ("knife", "")]
    assert [w.info.key for w in f.state.get("Ann").sheet.weapons] == ["fist", "japanese_sword"]
    refused(f, Attack("Bob", "Cult", 0),
            r"Bob's 日本刀/Japanese Sword is in Ann's hands \(CO-IAI-1\)")
    text = push(f, Attack("Bob", "Cult", 1), (100, 90))
    assert "Bob ナイフ/Knife" in text
    replays(f)


def test_a_lent_blade_neither_parries_nor_is_drawn_again_003() -> None:
    """Cult's blow at Bob: no parry with the sword Ann holds; Ann cannot draw it from Bob
    twice."""
    f = drawn(LENT_IN_PLACE)
    pass_to(f, "Cult")
    refused(f, Attack("Cult", "Bob", 0, defence=Defence.PARRY, parry_weapon=0),
            r"its 日本刀/Japanese Sword is in Ann's hands \(CO-IAI-1\)")
    pass_to(f, "Ann")
    refused(f, Attack("Ann", "Cult", 0, iai=True, borrow="Bob"),
            r"Bob's 日本刀/Japanese Sword is in Ann's hands \(CO-IAI-1\)")


def test_revision_19_renumbered_the_lenders_weapons_003() -> None:
    """As revision 19 played it: the sword gone from Bob's list, his weapon=0 the knife."""
    f = drawn(OLD)
    assert [w.info.key for w in f.state.get("Bob").sheet.weapons] == ["knife"]
    text = push(f, Attack("Bob", "Cult", 0), (100, 90))
    assert "Bob ナイフ/Knife" in text
    replays(f)


def test_the_owner_draws_its_blade_back_003() -> None:
    """reviewcoc72 RISK 2: Bob draws back with Iai the sword Ann drew from him: it is his
    weapon 0 again and leaves Ann's list, the last in it; his weapon=0 then strikes with it.
    Before, Bob got a second copy (weapon 2) while his weapon 0 stayed in Ann's hands."""
    f = drawn(LENT_IN_PLACE, {**BOB, "iai": 70})
    text = push(f, Attack("Bob", "Cult", 1, iai=True, borrow="Ann"), (100, 90))
    assert "Bob draws back the 日本刀/Japanese Sword lent to Ann (CO-IAI-1)" in text
    assert [(w.info.key, w.lent) for w in f.state.get("Bob").sheet.weapons] == [
        ("japanese_sword", ""), ("knife", "")]
    assert [w.info.key for w in f.state.get("Ann").sheet.weapons] == ["fist"]
    text = push(f, Attack("Bob", "Cult", 0), (100, 90))
    assert "Bob 日本刀/Japanese Sword" in text
    replays(f)


def test_a_blade_drawn_back_from_the_middle_keeps_the_holders_numbers_003() -> None:
    """Where the sword is not the last of Ann's weapons (a knife after it, as the Keeper
    ruled), it stays in her list, in Bob's hands, so her knife is still her weapon 2."""
    f = drawn(LENT_IN_PLACE, {**BOB, "iai": 70})
    ann = f.state.get("Ann")
    knife = f.state.get("Bob").sheet.weapons[1]
    patch(f, "Ann", sheet=replace(ann.sheet, weapons=(*ann.sheet.weapons, knife)))
    push(f, Attack("Bob", "Cult", 1, iai=True, borrow="Ann"), (100, 90))
    assert [(w.info.key, w.lent) for w in f.state.get("Ann").sheet.weapons] == [
        ("fist", ""), ("japanese_sword", "Bob"), ("knife", "")]
    assert [(w.info.key, w.lent) for w in f.state.get("Bob").sheet.weapons] == [
        ("japanese_sword", ""), ("knife", "")]
