"""A first strike 重火器先制 (CO-FIRE-7) bars a grapple, a tackle, a choke and a throw in its round
(grapple75 DEFECT 1, engine revision 23): 004 l.52 「攻撃回数が1回の武器ならそのラウンドは攻撃
できない」, l.53 gives a 3-attack gun's two left to that gun's own rolls, and a holder's l.164-165
is a one-handed weapon 「又は」 a choke or throw. Revision 22 refused a punch after it but took
the grapple family, so a holder shot and choked in one round; its fights replay as played.
Nor does another weapon attack that round (reviewcoc75 DEFECT 1, also revision 23): the
round's attacks left are the first-strike gun's own, its attacks less 1; revision 22 counted
the attacking weapon's, so a 1-attack SMG's first strike was followed by two revolver shots."""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    Choke,
    Delay,
    EndTurn,
    Fight,
    Grapple,
    Side,
    Tackle,
    Throw,
)
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import at, duel, pass_to, person, push, replays

RULES = load_rules(Profile.P004)
MISS = (100, 90)  # a d100 that fails every roll here
FIRST_STRIKE_SHOT = ((100, 10), (10, 5))  # the shot hits Dan for 1D10 (+2 with the SMG)


def fight(gun: str, engine: int = ENGINE, *others: str) -> Fight:
    """Ann (DEX 14, Grapple 80, Tackle 60) with ``gun``, ``others`` and a fist, against Cult
    and Dan."""
    return at(engine, Fight(RULES, [
        (person(RULES, "Ann", 14, weapons=(gun, *others, "fist"), grapple=80, smg=80,
                handgun=80, shotgun=80, tackle=60), Side.INVESTIGATORS),
        (person(RULES, "Cult", 10), Side.FOES), (person(RULES, "Dan", 8), Side.FOES)],
        ScriptedDice([])))


def first_strike_in_round_2(f: Fight) -> None:
    """Round 1 passes; round 2 opens with Ann's first strike at Dan, before the DEX order."""
    pass_to(f, "Dan")
    f.push(EndTurn("Dan"), ScriptedDice([]))
    assert f.state.round == 2
    push(f, Attack("Ann", "Dan", weapon=0, first_strike=True), *FIRST_STRIKE_SHOT)


def restrained_then_first_strike(gun: str, engine: int = ENGINE) -> Fight:
    """Ann restrains Cult in round 1 (CO-GRAP-6) and strikes first at Dan in round 2."""
    f = fight(gun, engine)
    push(f, Grapple("Ann", "Cult"), (100, 10))
    first_strike_in_round_2(f)
    return f


@pytest.mark.parametrize("action, what", [
    (Grapple("Ann", "Cult"), "grapple 組み付き"),
    (Tackle("Ann", "Cult"), "tackle タックル"),
    (Tackle("Ann", "Cult", option="knock_down"), "tackle タックル"),
    (Tackle("Ann", "Cult", option="blow_back"), "tackle タックル"),
])
def test_no_grapple_or_tackle_after_a_one_attack_guns_first_strike(
        action: Grapple | Tackle, what: str) -> None:
    f = fight("smg")
    first_strike_in_round_2(f)
    with pytest.raises(IllegalAction) as refused:
        f.push(action, ScriptedDice([]))
    assert str(refused.value) == (
        "Ann struck first 重火器先制 with サブマシンガン/Submachine Gun this round: the round's "
        f"attacks left, if any, are that gun's own shots (CO-FIRE-7), so no {what}")


@pytest.mark.parametrize("gun", ["smg", "revolver"])
@pytest.mark.parametrize("action, what", [(Choke("Ann"), "choke 締め付け"),
                                          (Throw("Ann"), "throw 投げ"),
                                          (Throw("Ann", at="Dan"), "throw 投げ")])
def test_a_holder_that_struck_first_neither_chokes_nor_throws(
        gun: str, action: Choke | Throw, what: str) -> None:
    """l.164-165: a one-handed weapon 又は a choke or throw; the revolver's two shots left
    are still taken (l.53)."""
    f = restrained_then_first_strike(gun)
    with pytest.raises(IllegalAction, match=f"CO-FIRE-7\\), so no {what}$"):
        f.push(action, ScriptedDice([]))
    if gun == "revolver":
        push(f, Attack("Ann", "Dan", weapon=0), (100, 10), (10, 5))
    assert f.state.get("Cult").held_by == "Ann"  # nothing was played: the hold stands
    replays(f)


def test_the_next_round_grapples_again_after_a_first_strike() -> None:
    """The bar is the first strike's round only: round 3 grapples Cult."""
    f = fight("smg")
    first_strike_in_round_2(f)
    pass_to(f, "Dan")
    f.push(EndTurn("Dan"), ScriptedDice([]))
    assert f.state.round == 3 and f.state.current.name == "Ann"
    assert "Ann restrains Cult" in push(f, Grapple("Ann", "Cult"), (100, 10))
    replays(f)


def test_revision_22_took_them_and_replays_as_played() -> None:
    f = fight("smg", 22)
    first_strike_in_round_2(f)
    assert "Ann restrains Cult" in push(f, Grapple("Ann", "Cult"), (100, 10))
    replays(f)
    g = restrained_then_first_strike("smg", 22)
    assert "choke: (1D6+1D4)" in push(g, Choke("Ann"), (100, 10), (6, 3), (4, 2))
    replays(g)
    h = fight("smg", 22)
    first_strike_in_round_2(h)
    assert "tackle: (1D6+1D4)" in push(h, Tackle("Ann", "Cult"), (100, 10), (6, 3), (4, 2))
    replays(h)


@pytest.mark.parametrize("first, other, shots", [
    ("smg", "revolver", 2), ("revolver", "automatic", 2), ("smg", "shotgun", 1),
    ("revolver", "fist", 1)])
def test_no_other_weapon_attacks_after_a_first_strike(first: str, other: str,
                                                       shots: int) -> None:
    """004 l.52: a 1-attack gun's first strike leaves no attack that round; l.53: a 3-attack
    gun's two left are that gun's own 「技能ロールを2回」, not another weapon's."""
    f = fight(first, ENGINE, other) if other != "fist" else fight(first)
    first_strike_in_round_2(f)
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Ann", "Cult", weapon=1, shots=shots), ScriptedDice([]))
    gun, weapon = (w.info.name for w in f.state.get("Ann").sheet.weapons[:2])
    assert str(refused.value) == (
        f"Ann struck first 重火器先制 with {gun} this round: the round's attacks left, if any, "
        f"are that gun's own shots (CO-FIRE-7), so no attack with {weapon}")
    assert f.state.current.name == "Ann" and len(f.journal) == 4  # nothing was played
    replays(f)


def test_the_first_strike_guns_own_shots_left_are_taken() -> None:
    """l.53: the revolver (3 attacks) fires its two left after its first strike, with the
    automatic carried too; then Ann's turn is over."""
    f = fight("revolver", ENGINE, "automatic")
    first_strike_in_round_2(f)
    text = push(f, Attack("Ann", "Cult", weapon=0, shots=2), (100, 10), (10, 5), (100, 10),
                (10, 5))
    assert text.count("Ann 拳銃(リボルバー)/Revolver (1D100<=80)") == 2
    replays(f)


def test_revision_22_took_another_weapon_after_a_first_strike_and_replays() -> None:
    """Revision 22's fights keep what it played: the SMG's first strike, then two revolver
    shots, and the revolver's first strike, then a shotgun."""
    f = fight("smg", 22, "revolver")
    first_strike_in_round_2(f)
    text = push(f, Attack("Ann", "Cult", weapon=1, shots=2), (100, 10), (10, 5), (100, 10),
                (10, 5))
    assert text.count("Ann 拳銃(リボルバー)/Revolver (1D100<=80)") == 2
    replays(f)
    g = fight("revolver", 22, "shotgun")
    first_strike_in_round_2(g)
    assert "Ann ショットガン/Shotgun (1D100<=80)" in push(
        g, Attack("Ann", "Cult", weapon=1), (100, 10), (6, 2), (6, 2), (6, 2), (6, 2))
    replays(g)


def test_two_guns_of_one_name_are_told_apart_by_their_numbers() -> None:
    """reviewcoc75b NIT 2: Ann's first strike with revolver 0 refuses revolver 1 (l.53 gives
    the shots left to the gun that struck first), and the refusal numbers the two as the
    weapon list does; before, it read "with Revolver … so no attack with Revolver"."""
    f = fight("revolver", ENGINE, "revolver")
    first_strike_in_round_2(f)
    with pytest.raises(IllegalAction) as refused:
        f.push(Attack("Ann", "Cult", weapon=1, shots=2), ScriptedDice([]))
    name = f.state.get("Ann").sheet.weapons[0].info.name
    assert str(refused.value) == (
        f"Ann struck first 重火器先制 with 0 {name} this round: the round's attacks left, if "
        f"any, are that gun's own shots (CO-FIRE-7), so no attack with 1 {name}")
    assert len(f.journal) == 4  # nothing was played


def test_a_revision_19_lend_renumbers_the_gun_that_struck_first() -> None:
    """reviewcoc75b NIT 1: revision 19's Iai draw takes the blade out of its owner's list and
    renumbers the rest (drop_weapon); the number of the gun that struck first moves with them,
    so revision 23, playing on in that round, takes that gun and refuses the other. Before,
    Ann's revolver (1, then 0) was refused and the automatic (2, then 1) taken."""
    f = at(19, duel(Profile.P003, {"weapons": ("japanese_sword", "revolver", "automatic"),
                                   "handgun": 80, "japanese_sword": 60},
                    {"weapons": ("fist",)}, settings={"CO-FIRE-7": {"p003": "on"}},
                    third={"weapons": ("fist",), "japanese_sword": 80, "iai": 80}))
    pass_to(f, "Cult")
    f.push(EndTurn("Cult"), ScriptedDice([]))
    push(f, Attack("Ann", "Cult", weapon=1, first_strike=True), (100, 90))
    push(f, Delay("Ann"))
    push(f, Attack("Bob", "Cult", weapon=0, iai=True, borrow="Ann"), (100, 90))
    ann = f.state.get("Ann")
    assert [w.info.key for w in ann.sheet.weapons] == ["revolver", "automatic"]
    assert ann.first_strike_weapon == 0
    pass_to(f, "Ann")
    at(ENGINE, f)
    with pytest.raises(IllegalAction, match=r"with 拳銃\(リボルバー\)/Revolver this round.*"
                       r"so no attack with 拳銃\(オートマチック\)"):
        f.push(Attack("Ann", "Cult", weapon=1), ScriptedDice([]))
    assert "Ann 拳銃(リボルバー)/Revolver (1D100<=80)" in push(
        f, Attack("Ann", "Cult", weapon=0), (100, 90))
    replays(f)
