"""The coc engine's holds within a chain of grapples, and who lets go (engine revision 21).

grapple73 finding 1 (CO-GRAP-4/6, CO-MA-2, CO-GRAP-7/8): a choke or throw of a fighter who is
itself holding someone hurt that third fighter as a "human shield". Seed 003 l.43 「締め上げ
：＜組み付き＞続けている限り毎ラウンド1D6+DBのダメージを与える」, 004 l.167-168 「1d6+DBのダメージを
与える」「投げ飛ばした相手に1d6+db+スタンのダメージを与える」: the choke and the throw hurt the
one choked or thrown; the shield (003 l.36, 004 l.166) is for blows from outside the pair.

grapple73 finding 2 (CO-STUN-2, CO-STUN-3, the Default "CO-GRAP-1 (out)"): a holder a stun
leaves unconscious kept holding; whoever is out lets go, as after HP loss or shock.

Entries played by revision 20 replay as they were played.
"""

from __future__ import annotations

import json
import re

import pytest

from companion.app.cli import main
from companion.dice import ScriptedDice
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    Choke,
    Fight,
    Grapple,
    LetGo,
    Place,
    Side,
    Tackle,
    Throw,
)
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import (
    at,
    duel,
    held_roll,
    pass_to,
    patch,
    person,
    push,
    refused,
    replays,
)

P003, P004 = Profile.P003, Profile.P004
#: The revision before revision 21.
OLD = 20


def chain(profile: Profile, engine: int = ENGINE, dan: bool = False) -> Fight:
    """Cult holds Bob, then Ann holds Cult (003 with MA, so she may choke and throw);
    it is Ann's turn in round 3. ``dan``: a fourth fighter, Cult's ally."""
    rules = load_rules(profile)
    entrants = [(person(rules, "Ann", 14, grapple=80, martial_arts=80), Side.INVESTIGATORS),
                (person(rules, "Bob", 12, fist=50), Side.INVESTIGATORS),
                (person(rules, "Cult", 10, grapple=80), Side.FOES)]
    if dan:
        entrants.append((person(rules, "Dan", 8, fist=50), Side.FOES))
    f = at(engine, Fight(rules, entrants, ScriptedDice([])))
    pass_to(f, "Cult")
    push(f, Grapple("Cult", "Bob"), (100, 10))
    pass_to(f, "Ann")
    strain = held_roll(engine) if profile is P003 else ()  # 003: a held one's turn begins
    push(f, Grapple("Ann", "Cult", ma=profile is P003), (100, 10), *strain)  # Bob's
    pass_to(f, "Ann", *strain)  # Cult's
    assert f.state.get("Cult").held_by == "Ann" and f.state.get("Bob").held_by == "Cult"
    return f


def roll_004(profile: Profile) -> tuple[tuple[int, int], ...]:
    """004's choke or throw rolls Grapple first (CO-GRAP-6); 003's rolls nothing."""
    return ((100, 10),) if profile is P004 else ()


@pytest.mark.parametrize("profile", [P003, P004])
def test_a_choke_of_a_holder_hurts_the_holder_not_the_one_it_holds(profile: Profile) -> None:
    f = chain(profile)
    strain = held_roll(ENGINE) if profile is P003 else ()  # Ann's AP spent, Bob's turn
    text = push(f, Choke("Ann"), *roll_004(profile), (6, 6), (4, 4), *strain)
    assert "human shield" not in text and "Cult takes 10: HP 3/13" in text
    assert f.state.get("Bob").hp == 13 and f.state.get("Cult").hp == 3
    replays(f)


def test_a_throw_of_a_holder_hurts_the_holder_and_its_stun_frees_the_held_004() -> None:
    f = chain(P004, dan=True)
    text = push(f, Throw("Ann"), (100, 10), (6, 6), (4, 4), (100, 90))
    assert "human shield" not in text and "Cult takes 10: HP 3/13" in text
    assert "Cult is knocked out for the rest of the fight (CO-STUN-3)\nCult lets go of Bob" \
        in text
    assert f.state.get("Bob").held_by == "" and f.state.get("Cult").grappling == ""
    assert f.state.get("Bob").hp == 13
    replays(f)


def test_a_throw_from_a_height_hurts_the_holder_thrown_004() -> None:
    f = chain(P004, dan=True)
    text = push(f, Throw("Ann", height_m=3), (100, 10), (6, 4), (100, 10))
    assert "human shield" not in text and "Cult takes 4: HP 9/13" in text
    assert f.state.get("Bob").hp == 13


def test_revision_20_put_the_choke_into_the_one_held_by_the_choked() -> None:
    f = chain(P004, OLD)
    text = push(f, Choke("Ann"), (100, 10), (6, 6), (4, 4))
    assert "Bob is a human shield and takes 10 (CO-GRAP-6)" in text
    assert f.state.get("Bob").hp == 3 and f.state.get("Cult").hp == 13
    replays(f)


def test_a_holder_knocked_out_by_a_body_thrown_at_it_lets_go_004() -> None:
    """grapple73 stunhold.py: Ann throws the Dan she holds at Cult, who holds Bob; Cult fails
    CON×4 (CO-STUN-3) and lets go, so Bob acts freely (revision 20: held by an unconscious
    foe, refused all but breaking free at full STR)."""
    for engine, held in ((ENGINE, ""), (OLD, "Cult")):
        rules = load_rules(P004)
        f = at(engine, Fight(rules, [
            (person(rules, "Ann", 14, grapple=80), Side.INVESTIGATORS),
            (person(rules, "Bob", 12, fist=50), Side.INVESTIGATORS),
            (person(rules, "Cult", 10, grapple=80), Side.FOES),
            (person(rules, "Dan", 8, fist=50), Side.FOES)], ScriptedDice([])))
        push(f, Grapple("Ann", "Dan"), (100, 10))
        pass_to(f, "Cult")
        push(f, Grapple("Cult", "Bob"), (100, 10))
        pass_to(f, "Ann")
        text = push(f, Throw("Ann", at="Cult"), (100, 10), (6, 3), (4, 2), (100, 10), (6, 2),
                    (100, 90))
        assert "Cult is knocked out for the rest of the fight (CO-STUN-3)" in text
        assert ("Cult lets go of Bob" in text) is (engine == ENGINE)
        assert f.state.get("Bob").held_by == held
        replays(f)


@pytest.mark.parametrize("engine", [ENGINE, OLD])
def test_a_holder_stunned_to_no_ap_lets_go_003(engine: int) -> None:
    """CO-STUN-2 (003): a third stun stack leaves the holder no AP and it falls unconscious;
    from revision 21 it lets go of the one it holds (revision 20 kept holding)."""
    rules = load_rules(P003)
    f = at(engine, Fight(rules, [
        (person(rules, "Ann", 14, ("stun_gun",), fist=90), Side.INVESTIGATORS),
        (person(rules, "Bob", 12, fist=50), Side.INVESTIGATORS),
        (person(rules, "Cult", 10, grapple=80), Side.FOES)], ScriptedDice([])))
    pass_to(f, "Cult")
    push(f, Grapple("Cult", "Bob"), (100, 10))
    pass_to(f, "Ann")
    patch(f, "Cult", stun=int(rules.num("CO-TURN-3", "action_points")) - 1)
    text = f.push(Attack("Ann", "Cult"), ScriptedDice([(100, 30)] + [(6, 1)] * 4)).text
    assert "falls unconscious (CO-STUN-2)" in text
    assert ("Cult lets go of Bob" in text) is (engine == ENGINE)
    assert f.state.get("Bob").held_by == ("" if engine == ENGINE else "Cult")


# --- grappling a holder on 003's board: the hold moves with it (the Default "CO-GRAP-1 (chain)")

@pytest.mark.parametrize(("engine", "bob"), [(ENGINE, "d2"), (OLD, "d3")])
def test_a_grapple_of_a_holder_pulls_the_one_it_holds_along_003(engine: int, bob: str) -> None:
    """003 l.33 「＜組みつき＞対象は探索者のマスに引き寄せられひと固まりとして考える」: Cult (d3)
    holds Bob; Ann (d2) grapples Cult, who is pulled into d2 with Bob, one unit, as a pin
    does from revision 19. Revision 20 left Bob on d3, held from a square away."""
    rules = load_rules(P003)
    f = at(engine, Fight(rules, [
        (person(rules, "Ann", 14, grapple=60), Side.INVESTIGATORS),
        (person(rules, "Bob", 12, fist=50), Side.INVESTIGATORS),
        (person(rules, "Cult", 10, grapple=60), Side.FOES)], ScriptedDice([])))
    for name, square in (("Ann", "d2"), ("Cult", "d3"), ("Bob", "d4")):
        push(f, Place(name, square, "S" if name == "Ann" else "N"))
    pass_to(f, "Cult")
    push(f, Grapple("Cult", "Bob"), (100, 20))
    pass_to(f, "Ann")
    text = push(f, Grapple("Ann", "Cult"), (100, 20), (100, 90))
    assert ("Bob goes with Cult to d2: one unit (CO-GRAP-1)" in text) is (engine == ENGINE)
    state = f.state
    assert (state.get("Cult").square, state.get("Bob").square) == ("d2", bob)
    assert state.get("Bob").held_by == "Cult" and state.get("Cult").held_by == "Ann"
    replays(f)


# --- letting go 手を放す (grapple73 finding 3, the Default "CO-GRAP-1 (let go)") ----------------

def test_a_holder_lets_go_and_fires_its_rifle_in_the_same_turn_004() -> None:
    """grapple73 ko4.py: Ann restrains Cult; once it fell unconscious she could neither let go
    nor use her rifle (CO-GRAP-6: one-handed weapons only) for the rest of the fight. Letting
    go is free: her turn's action is still hers, and the rifle fires."""
    rules = load_rules(P004)
    f = Fight(rules, [
        (person(rules, "Ann", 14, ("fist", "rifle"), grapple=80, rifle=60), Side.INVESTIGATORS),
        (person(rules, "Cult", 10, fist=50), Side.FOES),
        (person(rules, "Dan", 8, fist=50), Side.FOES)], ScriptedDice([]))
    push(f, Grapple("Ann", "Cult"), (100, 10))
    pass_to(f, "Ann")
    refused(f, Attack("Ann", "Dan", weapon=1), r"only a one-handed weapon")
    text = push(f, LetGo("Ann"))
    assert text == ("Ann lets go of Cult 手を放す: a free action, its turn's action still to "
                    "take (CO-GRAP-6, the Default 'let go')")
    assert f.state.current.name == "Ann" and f.state.get("Cult").held_by == ""
    assert f.state.get("Ann").grappling == ""
    assert "Dan takes 6: HP 7/13" in push(f, Attack("Ann", "Dan", weapon=1), (100, 90), (6, 1),
                                          (6, 1))
    replays(f)


def test_letting_go_costs_no_ap_and_steps_the_freed_one_aside_003() -> None:
    rules = load_rules(P003)
    f = Fight(rules, [(person(rules, "Ann", 14, grapple=80), Side.INVESTIGATORS),
                      (person(rules, "Cult", 10, fist=50), Side.FOES)], ScriptedDice([]))
    push(f, Place("Ann", "d2", "S"))
    push(f, Place("Cult", "d3", "N"))
    push(f, Grapple("Ann", "Cult"), (100, 10), (100, 90))  # Cult's STR at its turn's start
    pass_to(f, "Ann")
    ap = f.state.get("Ann").ap
    text = push(f, LetGo("Ann"))
    assert text.startswith("Ann lets go of Cult 手を放す: a free action, no AP (CO-GRAP-1, "
                           "the Default 'let go')\nCult steps free to ")
    assert f.state.get("Ann").ap == ap and f.state.current.name == "Ann"
    assert f.state.get("Cult").square != "d2"
    replays(f)


def test_who_may_not_let_go() -> None:
    """Nobody held, a 004 restrained one (it acts only to break free, CO-GRAP-6), and a
    fight played on by revision 20, which knew no letting go."""
    refused(duel(P004, {}), LetGo("Ann"), r"^Ann holds nobody to let go of \(CO-GRAP-1\)$")
    f = chain(P004)
    pass_to(f, "Cult")
    refused(f, LetGo("Cult"), r"^Cult is restrained: only breaking free \(CO-GRAP-6\)$")
    refused(chain(P004, OLD), LetGo("Ann"),
            r"^no letting go by engine revision 20: the hold ends by the held one's STR, a "
            r"throw or death \(CO-GRAP-1\)$")


# --- "that grapple / tackle is not possible" says why (grapple73 finding 6) ------------------

def not_possible_fight() -> Fight:
    """004: Cult restrains Bob, and Dan is dead; Ann's turn in round 2 (Ann, Bob, Cult, Dan)."""
    rules = load_rules(P004)
    f = Fight(rules, [(person(rules, "Ann", 14, grapple=80, tackle=50), Side.INVESTIGATORS),
                      (person(rules, "Bob", 12, fist=50), Side.INVESTIGATORS),
                      (person(rules, "Cult", 10, grapple=80), Side.FOES),
                      (person(rules, "Dan", 8, fist=50), Side.FOES)], ScriptedDice([]))
    pass_to(f, "Cult")
    push(f, Grapple("Cult", "Bob"), (100, 10))
    pass_to(f, "Ann")
    patch(f, "Dan", dead=True)
    return f


@pytest.mark.parametrize(("target", "holding", "why"), [
    ("Ann", "", "Ann cannot grapple themself (CO-GRAP-6)"),
    ("Dan", "", "Dan is dead (CO-GRAP-6)"),
    ("Cult", "Dan", "Ann already holds Dan: one hold at a time (CO-GRAP-6)"),
    ("Bob", "", "Bob is already held by Cult: one holder at a time (CO-GRAP-6)")])
def test_a_grapple_not_possible_says_why(target: str, holding: str, why: str) -> None:
    f = not_possible_fight()
    if holding:
        patch(f, "Ann", grappling=holding)
    refused(f, Grapple("Ann", target), "^" + re.escape(f"that grapple is not possible: {why}")
            + "$")


def test_a_held_one_neither_grapples_nor_tackles_and_says_why_003() -> None:
    rules = load_rules(P003).with_overrides(
        {f"CO-TACKLE-{n}": {"p003": "optional_on"} for n in (1, 2, 3)})
    f = Fight(rules, [(person(rules, "Ann", 14, grapple=80, tackle=50), Side.INVESTIGATORS),
                      (person(rules, "Cult", 10, grapple=80), Side.FOES),
                      (person(rules, "Dan", 8, fist=50), Side.FOES)], ScriptedDice([]))
    patch(f, "Ann", held_by="Cult")
    patch(f, "Cult", grappling="Ann")
    refused(f, Grapple("Ann", "Dan"), "^" + re.escape(
        "that grapple is not possible: Ann is held by Cult: break free first (CO-GRAP-1)") + "$")
    refused(f, Tackle("Ann", "Dan"), "^" + re.escape(
        "that tackle is not possible: Ann is held by Cult: break free first (CO-TACKLE-1, "
        "CO-GRAP-1)") + "$")


@pytest.mark.parametrize(("target", "holding", "why"), [
    ("Ann", "", "Ann cannot tackle themself"),
    ("Dan", "", "Dan is dead"),
    ("Cult", "Dan", "Ann already holds Dan: one hold at a time")])
def test_a_tackle_not_possible_says_why(target: str, holding: str, why: str) -> None:
    f = not_possible_fight()
    if holding:
        patch(f, "Ann", grappling=holding)
    refused(f, Tackle("Ann", target), "^" + re.escape(
        f"that tackle is not possible: {why} (CO-TACKLE-1, CO-GRAP-6)") + "$")


# --- a grappler with no hand left neither chokes nor throws (grapple73 finding 7) -------------

@pytest.mark.parametrize(("profile", "action"), [
    (P004, Choke("Ann")), (P004, Throw("Ann")), (P003, Choke("Ann")), (P003, Throw("Ann"))])
def test_a_holder_whose_arms_are_lost_neither_chokes_nor_throws(profile: Profile,
                                                                action: object) -> None:
    """The Default "CO-BODY-5 (hands)": Ann holds Cult; another foe's blade takes both her
    arms (patched: the Keeper's ruling stands for it). The choke or throw, made by hand as
    the grapple was, is refused before any die from revision 21; revision 20 choked."""
    what = "choke 絞め" if isinstance(action, Choke) else "throw 投げ"
    f = duel(profile, {"grapple": 80, "martial_arts": 80})
    push(f, Grapple("Ann", "Cult", ma=profile is P003), (100, 10),
         *held_roll(ENGINE) * (profile is P003))
    pass_to(f, "Ann")
    patch(f, "Ann", lost=("arm", "arm"))
    refused(f, action, "^" + re.escape(
        f"Ann has no hand left (both arms or hands lost): no {what} (CO-BODY-5, the Default "
        "'hands')") + "$")
    old = at(OLD, f)
    assert "Cult takes" in push(old, Choke("Ann"), *roll_004(profile), (6, 3), (4, 2),
                                *held_roll(OLD) * (profile is P003))


def test_the_engines_grapple_choices_are_listed_defaults(
        capsys: pytest.CaptureFixture[str]) -> None:
    """grapple73 findings 4 and 5: what the engine plays of a tackle's defence, a body thrown
    at an enemy and a throw from a height is listed by `coc defaults` as the Default it is."""
    assert main(["coc", "defaults", "--json"]) == 0
    readings = json.loads(capsys.readouterr().out)["fixed_readings"]
    assert "never parried" in readings["CO-TACKLE-1 (defence)"]
    assert "no dodge" in readings["CO-GRAP-8 (thrown at)"]
    assert "stun (CO-STUN-3) still follows" in readings["CO-GRAP-8 (height)"]
    assert "chokes or throws" in readings["CO-BODY-5 (hands)"]
