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
    BreakFree,
    Choke,
    EndTurn,
    Fall,
    Fight,
    Grapple,
    LetGo,
    Move,
    Place,
    Side,
    Tackle,
    Throw,
)
from companion.systems.coc.rules import CocRules, Profile, load_rules
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


def chain(profile: Profile, engine: int = ENGINE, dan: bool = False,
          squares: tuple[str, ...] = (), rules: CocRules | None = None,
          sword: bool = False) -> Fight:
    """Cult holds Bob, then Ann holds Cult (003 with MA, so she may choke and throw);
    it is Ann's turn in round 3. ``dan``: a fourth fighter, Cult's ally (a tackler), with
    ``sword`` a swordsman (日本刀 90%, 1D10+1D4: a knockback's 10+, CO-MELEE-2).
    ``squares``: on 003's board Ann, Cult, Bob (and Dan) stand there, Ann facing east, the
    rest west; all three end on Ann's square from revision 21 ("CO-GRAP-1 (chain)")."""
    rules = rules or load_rules(profile)
    entrants = [(person(rules, "Ann", 14, grapple=80, martial_arts=80), Side.INVESTIGATORS),
                (person(rules, "Bob", 12, fist=50), Side.INVESTIGATORS),
                (person(rules, "Cult", 10, grapple=80), Side.FOES)]
    if dan:
        kit = {"weapons": ("japanese_sword",), "japanese_sword": 90} if sword else {}
        entrants.append((person(rules, "Dan", 8, fist=50, tackle=90, **kit), Side.FOES))
    f = at(engine, Fight(rules, entrants, ScriptedDice([])))
    for name, square in zip(("Ann", "Cult", "Bob", "Dan"), squares, strict=False):
        push(f, Place(name, square, "E" if name in ("Ann", "Dan") else "W"))
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


def test_a_throw_of_a_holder_hurts_the_holder_which_lets_go_of_the_held_004() -> None:
    """A thrown holder lets go 手を放す before the damage ("CO-GRAP-1 (chain)", reviewcoc73
    DEFECT 1: it restrained Bob from about 2 m away), so its stun frees nobody more."""
    f = chain(P004, dan=True)
    text = push(f, Throw("Ann"), (100, 10), (6, 6), (4, 4), (100, 90))
    assert "human shield" not in text and "Cult takes 10: HP 3/13" in text
    assert "\nCult is thrown and lets go of Bob 手を放す (CO-GRAP-1 (chain))\nthrow: " in text
    assert text.endswith("Cult is knocked out for the rest of the fight (CO-STUN-3)")
    assert f.state.get("Bob").held_by == "" and f.state.get("Cult").grappling == ""
    assert f.state.get("Bob").hp == 13
    replays(f)


def test_a_thrown_holder_that_shakes_off_the_stun_holds_nobody_004() -> None:
    """reviewcoc73 throw_holder_004.py: Cult passes CON×4 (CO-STUN-3) and, revision 20,
    still restrains Bob from where it landed, about 2 m away (CO-GRAP-8 (throw))."""
    for engine, held in ((ENGINE, ""), (OLD, "Cult")):
        f = at(engine, chain(P004, dan=True))
        text = push(f, Throw("Ann"), (100, 10), (6, 3), (4, 2), (100, 10))
        assert "Cult cannot act next round (CO-STUN-3)" in text
        assert ("lets go of Bob" in text) is (engine == ENGINE)
        assert f.state.get("Bob").held_by == held
        assert f.state.get("Cult").grappling == ("Bob" if held else "")
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


def thrown_at_the_holder(engine: int) -> tuple[Fight, str]:
    """004, played by ``engine`` (grapple73 stunhold.py): Ann throws the Dan she holds at
    Cult, who holds Bob, and Cult fails CON×4 (CO-STUN-3); the fight and the throw's text."""
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
    return f, push(f, Throw("Ann", at="Cult"), (100, 10), (6, 3), (4, 2), (100, 10), (6, 2),
                   (100, 90))


def test_a_holder_knocked_out_by_a_body_thrown_at_it_lets_go_004() -> None:
    """grapple73 stunhold.py (:func:`thrown_at_the_holder`): Cult lets go, so Bob acts freely
    (revision 20: held by an unconscious foe, refused all but breaking free at full STR)."""
    for engine, held in ((ENGINE, ""), (OLD, "Cult")):
        f, text = thrown_at_the_holder(engine)
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
    assert ("Cult lets go of Bob 手を放す (CO-GRAP-1 (out))" in text) is (engine == ENGINE)
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
    refused(duel(P004, {}), LetGo("Ann"), r"^Ann holds nobody to let go of \(CO-GRAP-6\)$")
    refused(duel(P003, {}), LetGo("Ann"), r"^Ann holds nobody to let go of \(CO-GRAP-1\)$")
    f = chain(P004)
    pass_to(f, "Cult")
    refused(f, LetGo("Cult"), r"^Cult is restrained: only breaking free \(CO-GRAP-6\)$")
    for profile, rule in ((P004, "CO-GRAP-6"), (P003, "CO-GRAP-1")):  # reviewcoc73 NIT 3
        refused(chain(profile, OLD), LetGo("Ann"),
                r"^no letting go by engine revision 20: the hold ends by the held one's STR, "
                rf"a throw or death \({rule}\)$")


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
    ("Cult", "Dan", "Ann already holds Dan: one hold at a time (the reading CO-GRAP-1 (one "
     "holder), coc defaults)"),
    ("Bob", "", "Bob is already held by Cult: one holder at a time (the reading CO-GRAP-1 (one "
     "holder), coc defaults)")])
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


RULES = "(CO-TACKLE-1, CO-GRAP-6)"
HOLDERS_TACKLE = ("Ann restrains Dan, a hand on the hold: a tackle タックル is a whole-body "
                  "charge (the reading CO-GRAP-6 (holder's strikes), coc defaults); let go "
                  "手を放す first")


@pytest.mark.parametrize(("target", "holding", "option", "why"), [
    ("Ann", "", "", f"Ann cannot tackle themself {RULES}"),
    ("Dan", "", "", f"Dan is dead {RULES}"),
    # grapple75 AMBIGUOUS 2: a plain tackle or blow back holds nobody, so "one hold at a
    # time" was not why; 004 l.164-165 is (CO-GRAP-6)
    ("Cult", "Dan", "", f"{HOLDERS_TACKLE} {RULES}"),
    ("Cult", "Dan", "blow_back", f"{HOLDERS_TACKLE} {RULES}"),
    # a77cocgrapple RISK 5: no rule says one hold at a time; the reading does
    ("Cult", "Dan", "knock_down", "Ann already holds Dan: one hold at a time (the reading "
     "CO-GRAP-1 (one holder), coc defaults)")])
def test_a_tackle_not_possible_says_why(target: str, holding: str, option: str,
                                        why: str) -> None:
    f = not_possible_fight()
    if holding:
        patch(f, "Ann", grappling=holding)
    refused(f, Tackle("Ann", target, option=option), "^" + re.escape(
        f"that tackle is not possible: {why}") + "$")


def test_a_holder_lets_go_and_then_tackles_004() -> None:
    """The way out the refusal names: let go 手を放す, free (the Default "CO-GRAP-1 (let go)"),
    and the tackle is taken in the same turn."""
    rules = load_rules(P004)
    f = Fight(rules, [(person(rules, "Ann", 14, grapple=80, tackle=50), Side.INVESTIGATORS),
                      (person(rules, "Cult", 10), Side.FOES),
                      (person(rules, "Dan", 8), Side.FOES)], ScriptedDice([]))
    push(f, Grapple("Ann", "Dan"), (100, 10))
    pass_to(f, "Ann")
    refused(f, Tackle("Ann", "Cult"), re.escape(HOLDERS_TACKLE))
    push(f, LetGo("Ann"))
    assert "tackle: (1D6+1D4)" in push(f, Tackle("Ann", "Cult"), (100, 10), (6, 3), (4, 2))


def test_a_holder_kicks_and_head_butts_but_does_not_tackle_004() -> None:
    """reviewcoc75 RISK 2: the refusal claims no rule the engine does not keep. 004 l.164
    「拘束したまま片手で扱える武器が使用可能(拳銃など)」 names what the free hand wields; a
    kick or a head butt needs no hand and is taken (the reading "CO-GRAP-6 (holder's
    strikes)"), a tackle, a whole-body charge, is refused in words that say only that."""
    rules = load_rules(P004)

    def holding() -> Fight:
        f = Fight(rules, [(person(rules, "Ann", 14, weapons=("kick", "head_butt"), grapple=80,
                                  tackle=50, kick=60, head_butt=60), Side.INVESTIGATORS),
                          (person(rules, "Cult", 10), Side.FOES),
                          (person(rules, "Dan", 8), Side.FOES)], ScriptedDice([]))
        push(f, Grapple("Ann", "Dan"), (100, 10))
        pass_to(f, "Ann")
        return f

    f = holding()
    refused(f, Tackle("Ann", "Cult"), "^" + re.escape(
        f"that tackle is not possible: {HOLDERS_TACKLE} (CO-TACKLE-1, CO-GRAP-6)") + "$")
    assert "Cult takes 5" in push(f, Attack("Ann", "Cult", weapon=0), (100, 10), (6, 3), (4, 2))
    assert "Cult takes" in push(holding(), Attack("Ann", "Cult", weapon=1), (100, 10), (4, 3),
                                (4, 2))


def test_a_holders_tackle_says_the_pair_is_one_unit_003() -> None:
    rules = load_rules(P003).with_overrides(
        {f"CO-TACKLE-{n}": {"p003": "optional_on"} for n in (1, 2, 3)})
    f = Fight(rules, [(person(rules, "Ann", 14, grapple=80, tackle=50), Side.INVESTIGATORS),
                      (person(rules, "Cult", 10), Side.FOES),
                      (person(rules, "Dan", 8, fist=50), Side.FOES)], ScriptedDice([]))
    patch(f, "Ann", grappling="Cult")
    patch(f, "Cult", held_by="Ann")
    refused(f, Tackle("Ann", "Dan"), "^" + re.escape(
        "that tackle is not possible: Ann holds Cult, one unit with it: let go 手を放す first "
        "(CO-TACKLE-1, CO-GRAP-1)") + "$")


# --- a grappler with no hand left neither chokes nor throws (grapple73 finding 7) -------------

@pytest.mark.parametrize(("profile", "action"), [
    (P004, Choke("Ann")), (P004, Throw("Ann")), (P003, Choke("Ann")), (P003, Throw("Ann"))])
def test_a_holder_whose_arms_are_lost_neither_chokes_nor_throws(profile: Profile,
                                                                action: object) -> None:
    """The Default "CO-BODY-5 (hands)": Ann holds Cult; another foe's blade takes both her
    arms (patched: the Keeper's ruling stands for it). The choke or throw, made by hand as
    the grapple was, is refused before any die from revision 21; revision 20 choked."""
    choke = "choke 締め上げ" if profile is P003 else "choke 締め付け"  # 003 l.43, 004 l.165
    what = choke if isinstance(action, Choke) else "throw 投げ"
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
    assert "stun スタン (CO-STUN-3) still follows" in readings["CO-GRAP-8 (height)"]
    assert "chokes or throws" in readings["CO-BODY-5 (hands)"]
    assert "a fist, kick or head butt" in readings["CO-GRAP-6 (holder's strikes)"]  # RISK 2
    # reviewcoc73 NIT 5: the game terms keep their Japanese beside the English
    for key, terms in (("CO-TACKLE-1 (defence)", ("tackle タックル", "dodged 回避",
                                                   "parried 受け流し")),
                       ("CO-GRAP-1 (out)", ("shock ショック", "unconscious 気絶", "stun スタン")),
                       ("CO-GRAP-1 (chain)", ("choke 締め付け", "throw 投げ", "lets go 手を放す")),
                       ("CO-GRAP-8 (thrown at)", ("stun スタン",)),
                       ("CO-GRAP-8 (height)", ("throw 投げ", "stun スタン")),
                       ("CO-GRAP-6 (holder's strikes)", ("chokes 締め付け", "throws 投げ",
                                                         "tackle タックル", "lets go 手を放す"))):
        assert all(term in readings[key] for term in terms), key
    assert "whoever of it moves" in readings["CO-GRAP-1 (chain)"]


# --- a chain of holds is one unit whoever of it moves (reviewcoc73 DEFECT 1, "CO-GRAP-1 (chain)")

def squares(f: Fight) -> dict[str, str]:
    return {c.name: c.square for c in f.state.combatants}


def holds(f: Fight) -> dict[str, str]:
    return {c.name: c.held_by for c in f.state.combatants}


@pytest.mark.parametrize(("where", "aside"), [(("d4", "e4", "f4"), "e4"),
                                              (("a1", "b1", "c1"), "b1")])
def test_the_middle_let_go_of_steps_aside_with_the_one_it_holds_003(
        where: tuple[str, ...], aside: str) -> None:
    """reviewcoc73 board_chain.py letgo: Ann lets go of Cult, who holds Bob; Cult steps free
    and Bob, held by it, goes with it, at a corner too (revision 21 only: revision 20 knew no
    letting go, and the reviewer saw Bob left on Ann's square, held from a square away)."""
    f = chain(P003, squares=where)
    assert set(squares(f).values()) == {where[0]}
    text = push(f, LetGo("Ann"))
    assert text.endswith(f"Cult steps free to {aside} (CO-GRAP-1, CO-TURN-2)\n"
                         f"Bob goes with Cult to {aside}: one unit (CO-GRAP-1)")
    assert squares(f) == {"Ann": where[0], "Cult": aside, "Bob": aside}
    assert holds(f) == {"Ann": "", "Cult": "", "Bob": "Cult"}
    replays(f)


@pytest.mark.parametrize("engine", [ENGINE, OLD])
def test_the_outer_holder_moves_with_the_whole_chain_003(engine: int) -> None:
    """board_chain.py move: Ann moves to c4; Bob, held by the Cult she holds, comes too
    (revision 20 left him on d4, held from a square away)."""
    f = at(engine, chain(P003, squares=("d4", "e4", "f4")))
    text = push(f, Move("Ann", 1, to="c4"), *held_roll(engine))  # Bob's turn begins, held
    assert ("Bob goes with Ann to c4: one unit (CO-GRAP-1)" in text) is (engine == ENGINE)
    assert squares(f) == {"Ann": "c4", "Cult": "c4", "Bob": "c4" if engine == ENGINE else "d4"}
    replays(f)


@pytest.mark.parametrize("engine", [ENGINE, OLD])
def test_the_middle_breaking_free_takes_the_one_it_holds_003(engine: int) -> None:
    """board_chain.py cultbreaks: Cult wins its STR roll at its turn's start (CO-GRAP-2) and
    steps free with Bob, whom it still holds."""
    f = at(engine, chain(P003, squares=("d4", "e4", "f4")))
    push(f, EndTurn("Ann"), (100, 90))  # Bob's STR fails
    text = push(f, EndTurn("Bob"), (100, 10))  # Cult's wins
    assert "Cult breaks free (CO-GRAP-2)\nCult steps free to e4 (CO-GRAP-1, CO-TURN-2)" in text
    assert ("Bob goes with Cult to e4" in text) is (engine == ENGINE)
    assert squares(f) == {"Ann": "d4", "Cult": "e4", "Bob": "e4" if engine == ENGINE else "d4"}
    assert holds(f)["Bob"] == "Cult"
    replays(f)


@pytest.mark.parametrize("engine", [ENGINE, OLD])
def test_a_thrown_holder_lets_go_and_the_one_it_held_steps_aside_003(engine: int) -> None:
    """board_chain.py throw: Ann (c1) throws Cult east 2 squares (CO-MA-2) to e1; from
    revision 21 Cult lets go of Bob as it is thrown, and Bob steps off Ann's square once
    Cult has landed; revision 20 left Bob on c1, held by Cult from 2 squares away."""
    f = at(engine, chain(P003, squares=("c1", "b1", "a1")))
    text = push(f, Throw("Ann", toward="E"), (6, 3), (2, 1),
                *() if engine == ENGINE else held_roll(engine))  # Bob's turn begins
    thrown = "Cult is thrown and lets go of Bob 手を放す (CO-GRAP-1 (chain))\nthrow: "
    assert (thrown in text) is (engine == ENGINE)
    where = squares(f)
    assert (where["Ann"], where["Cult"]) == ("c1", "e1")
    if engine == ENGINE:
        assert "Cult lands on e1 (CO-MA-2, CO-TURN-2)\nBob steps free to d1 " in text
        assert where["Bob"] == "d1" and holds(f) == {"Ann": "", "Cult": "", "Bob": ""}
    else:
        assert where["Bob"] == "c1" and holds(f)["Bob"] == "Cult"
    replays(f)


@pytest.mark.parametrize("engine", [ENGINE, OLD])
def test_a_knockback_of_the_innermost_held_one_takes_the_whole_chain_003(engine: int) -> None:
    """reviewcoc73b NIT 2 (chain4.py knock): Dan (d5) strikes Bob, held by Cult, whom Ann
    holds, all three on d4, for 14 (CO-MELEE-2's knockback, not a tackle's blow back):
    from revision 21 Cult and Ann go with Bob to d3, one unit ("CO-GRAP-1 (chain)");
    revision 20 moved Cult, Bob's holder, alone and left Ann holding Cult from d4."""
    f = at(engine, chain(P003, dan=True, squares=("d4", "e4", "f4", "d5"), sword=True))
    pass_to(f, "Dan", (100, 90), (100, 90))  # Bob's and Cult's STR at their turns' start
    text = push(f, Attack("Dan", "Bob"), (100, 10), (10, 10), (4, 4))
    assert "knockback! Bob is pushed to d3 (14 damage, CO-MELEE-2)" in text
    assert "Cult goes with Bob to d3: one unit (CO-GRAP-1)" in text
    assert ("Ann goes with Bob to d3: one unit (CO-GRAP-1)" in text) is (engine == ENGINE)
    assert squares(f) == {"Ann": "d3" if engine == ENGINE else "d4", "Cult": "d3", "Bob": "d3",
                          "Dan": "d5"}
    assert holds(f) == {"Ann": "", "Cult": "Ann", "Bob": "Cult", "Dan": ""}
    replays(f)


@pytest.mark.parametrize("engine", [ENGINE, OLD])
def test_a_blow_back_of_the_outer_holder_takes_the_whole_chain_003(engine: int) -> None:
    """blowback.py (003 with the tackle rules): Dan (c4) blows Ann back 3 squares to g4
    (CO-TACKLE-2); Cult, whom she holds, and Bob, whom Cult holds, go with her; Ann, in
    shock, lets go, and Cult steps free with Bob. Revision 20 left Bob on d4."""
    rules = load_rules(P003).with_overrides(
        {f"CO-TACKLE-{n}": {"p003": "optional_on"} for n in (1, 2, 3)})
    f = at(engine, chain(P003, dan=True, squares=("d4", "e4", "f4", "c4"), rules=rules))
    pass_to(f, "Dan", (100, 90), (100, 90))  # Bob's and Cult's STR at their turns' start
    text = push(f, Tackle("Dan", "Ann", option="blow_back"), (100, 10), (4, 2), (4, 1),
                (100, 90))
    assert "Cult goes with Ann to g4: one unit (CO-GRAP-1)" in text
    assert ("Bob goes with Ann to g4: one unit (CO-GRAP-1)" in text) is (engine == ENGINE)
    assert "Ann goes into shock" in text
    where = squares(f)
    assert where["Ann"] == "g4" and where["Cult"] == "h4"
    assert where["Bob"] == ("h4" if engine == ENGINE else "d4")
    assert holds(f)["Bob"] == "Cult"
    replays(f)


def held_by_one_left_out_by_revision_20() -> Fight:
    """004, played by revision 20: a body thrown at Cult knocked it out (CO-STUN-3) while it
    restrained Bob, and Cult kept holding (:func:`thrown_at_the_holder`); it is Bob's turn,
    begun by revision 20."""
    f, _ = thrown_at_the_holder(OLD)
    assert f.state.get("Cult").out and f.state.get("Bob").held_by == "Cult"
    assert f.state.current.name == "Bob"  # its turn begun by revision 20
    return f


@pytest.mark.parametrize("engine", [ENGINE, OLD])
def test_a_holder_left_out_by_revision_20_lets_go_as_the_held_ones_turn_comes_004(
        engine: int) -> None:
    """reviewcoc73 RISK 2 (carry.py): the fight of :func:`held_by_one_left_out_by_revision_20`,
    Bob's turn ended by revision 20 too, played on: from revision 21 Cult lets go as Bob's
    next turn comes ("CO-GRAP-1 (out)"), so Bob acts freely; played on by 20, Bob is still
    restrained by an unconscious foe. (Saved on Bob's own turn, his first action frees him:
    reviewcoc73b RISK 1's test below.)"""
    f = held_by_one_left_out_by_revision_20()
    pass_to(f, "Dan")  # Bob's turn ends by revision 20, still held
    at(engine, f)
    pass_to(f, "Bob")  # the next round's
    said = "Cult lets go of Bob 手を放す (CO-GRAP-1 (out))"
    assert (said in f.journal[-1].text) is (engine == ENGINE)
    assert f.state.get("Bob").held_by == ("" if engine == ENGINE else "Cult")
    replays(f)


def test_a_holder_left_out_by_revision_20_lets_go_as_the_held_one_acts_on_its_turn_004(
        ) -> None:
    """reviewcoc73b RISK 1 (bobturn.json): the fight of
    :func:`held_by_one_left_out_by_revision_20` saved on Bob's own turn and loaded by
    revision 21 (not played on): Bob's action first has Cult let go ("CO-GRAP-1 (out)"),
    in that action's entry, and then plays; it was refused as restrained (CO-GRAP-6) until
    Bob's next turn came round."""
    old = held_by_one_left_out_by_revision_20()
    f = Fight.from_json(old.rules, json.loads(json.dumps(old.to_json())))
    assert f.engine == ENGINE and f.state.get("Bob").held_by == "Cult"
    text = push(f, Attack("Bob", "Dan"), (100, 10), (3, 1), (4, 1))
    assert text.startswith("Cult lets go of Bob 手を放す (CO-GRAP-1 (out))\nBob ")
    assert "Dan takes 2: HP 6/13" in text
    assert f.state.get("Bob").held_by == "" and f.state.get("Cult").grappling == ""
    replays(f)


def test_breaking_free_of_a_holder_left_out_by_revision_20_is_its_letting_go_004() -> None:
    """finalb73 NIT 4: the fight of :func:`held_by_one_left_out_by_revision_20`, loaded by
    revision 21, shows Bob "held by Cult", yet ``break_free Bob`` was refused "Bob is not
    held" (Cult's letting go, made as Bob acted, undone with the refusal). Now Cult lets go
    in that entry, it says Bob needs no breaking free, and Bob's turn goes on."""
    old = held_by_one_left_out_by_revision_20()
    f = Fight.from_json(old.rules, json.loads(json.dumps(old.to_json())))
    assert f.state.get("Bob").held_by == "Cult"
    assert push(f, BreakFree("Bob")) == (
        "Cult lets go of Bob 手を放す (CO-GRAP-1 (out))\nBob needs no breaking free: Cult is "
        "out; Bob's turn goes on")
    assert f.state.get("Bob").held_by == "" and f.state.current.name == "Bob"
    assert "Dan takes 2: HP 6/13" in push(f, Attack("Bob", "Dan"), (100, 10), (3, 1), (4, 1))
    replays(f)


def test_revision_20_has_the_one_held_by_one_left_out_break_free_by_str_004() -> None:
    """Played on by revision 20, Bob breaking free rolls STR against the unconscious Cult's
    (CO-GRAP-6), as it did."""
    f = held_by_one_left_out_by_revision_20()
    text = push(f, BreakFree("Bob"), (100, 10))
    assert text.startswith("Bob STR 13 vs 13 (1d100<=50) ＞ 10 ＞ スペシャル/special (CO-CORE-3, "
                           "CO-GRAP-6)\nBob breaks free (CO-GRAP-6)\n")
    assert "lets go" not in text
    replays(f)


def test_revision_20_keeps_the_one_held_by_one_left_out_restrained_on_its_turn_004() -> None:
    """Played on by revision 20 (a table's resume), Bob stays restrained (CO-GRAP-6)."""
    f = held_by_one_left_out_by_revision_20()
    refused(f, Attack("Bob", "Dan"), "^" + re.escape(
        "Bob is restrained: only breaking free (CO-GRAP-6)") + "$")


@pytest.mark.parametrize(("target", "why"), [
    ("Bob", "Bob is held by Cult: only its holder throws it"),
    ("Ann", "Ann cannot throw themself")])
def test_a_reading_b_throw_not_possible_says_why_004(target: str, why: str) -> None:
    """reviewcoc73 NIT 6 (readingb.py): CO-GRAP-8 reading b's refusal named no reason."""
    rules = load_rules(P004).with_overrides({"CO-GRAP-8": {"reading": "b"}})
    f = chain(P004, rules=rules)
    patch(f, "Ann", grappling="")
    patch(f, "Cult", held_by="")
    refused(f, Throw("Ann", at=target), "^" + re.escape(
        f"that throw is not possible: {why} (CO-GRAP-8 reading b)") + "$")


@pytest.mark.parametrize(("engine", "line"), [
    (ENGINE, "Cult lets go of Bob 手を放す (CO-GRAP-1 (out))"), (OLD, "Cult lets go of Bob")])
def test_the_line_of_one_out_letting_go_names_its_default_from_revision_21_004(
        engine: int, line: str) -> None:
    """reviewcoc73 NIT 4: a holder out of the fight (here dying from a Keeper's fall,
    CO-BASE-8) lets go with a line that says 手を放す and the Default "CO-GRAP-1 (out)";
    an entry played by revision 20 replays its own bare line."""
    f = at(engine, chain(P004))
    f.push(Fall("Cult", 9), ScriptedDice([(6, 6)] * 3))  # 18 of its 13 HP
    assert line in f.journal[-1].lines and f.state.get("Bob").held_by == ""
    replays(f)


@pytest.mark.parametrize(("engine", "line"), [
    (ENGINE, "Ann lets go of the dead Cult 手を放す (CO-GRAP-1 (out))"),
    (OLD, "Ann lets go of the dead Cult")])
def test_the_line_of_letting_go_of_a_dead_body_names_its_default_from_revision_21_003(
        engine: int, line: str) -> None:
    """reviewcoc73b NIT 3 (middle_dies.py): Cult, held by Ann and holding Bob, dies from a
    Keeper's 30 m fall (CO-BASE-11, CO-DEATH-1); it lets go of Bob, and Ann lets go of its
    body with a line that says 手を放す and the Default "CO-GRAP-1 (out)" as NIT 4's does;
    an entry played by revision 20 replays its own bare line."""
    f = at(engine, chain(P003))
    f.push(Fall("Cult", 30), ScriptedDice([(6, 6)] * 10))
    lines = f.journal[-1].lines
    assert line in lines and "Cult dies" in f.journal[-1].text
    assert holds(f) == {"Ann": "", "Bob": "", "Cult": ""}
    assert f.state.get("Ann").grappling == ""
    replays(f)
