"""What Spot Hidden says of the round's attack, a cast with no spell or a wrong MP, and
refusals that say why (coc74 NITs 3-5).

- Spot Hidden (CO-SKILL-5, 003 「同R内で攻撃が可能」) bars no attack but lifts no other bar:
  from engine revision 22 its line says an attack is still allowed only when one is, else
  why not (after First Aid, CO-TURN-4); revision 21 said it in every 003 round.
- A cast with a blank spell name is refused before its MP are spent (CO-SPELL-1, revision 22
  on; revision 21 spent them and cast nothing); a negative cost says so, not "Ann has 10 MP".
- "attack someone else" names the attacker, "Bob cannot act" says why, and a setting of a
  rule that does not exist says there is no such rule.
Entries played by revision 21 replay as they were played.
"""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.systems.coc.combat import Attack, Concentrate, Condition, Timed
from companion.systems.coc.combat.actions import Cast, EndTurn, Move, Sheathe, Spot, Treat
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, hurt, patch, push, refused, replays

P003, P004 = Profile.P003, Profile.P004
#: The revision before revision 22.
OLD = 21
SPOTTER = {"weapons": ("fist",), "fist": 50, "spot_hidden": 60, "first_aid": 60}


def test_spot_hidden_says_an_attack_is_still_allowed_when_it_is_003() -> None:
    f = duel(P003, SPOTTER)
    text = push(f, Spot("Ann", "Cult"), (100, 10))
    assert text.endswith("no condition (an attack is still allowed this round, CO-SKILL-5)")
    replays(f)


def after_first_aid(engine: int) -> str:
    """003: Ann gives Bob First Aid, then Spots Cult; the Spot's text."""
    f = at(engine, duel(P003, SPOTTER, third={}))
    hurt(f, "Bob")
    push(f, Treat("Ann", "Bob"), (100, 10), (3, 2))
    text = push(f, Spot("Ann", "Cult"), (100, 10))
    replays(f)
    return text


def test_spot_hidden_after_first_aid_says_why_no_attack_003() -> None:
    assert after_first_aid(22).endswith(
        "no condition (Spot Hidden bars no attack, CO-SKILL-5, but no attack in a round with "
        "another skill (CO-TURN-4))")
    assert after_first_aid(OLD).endswith("(an attack is still allowed this round, CO-SKILL-5)")


@pytest.mark.parametrize("spell", ["", "   "])
def test_a_cast_of_no_spell_is_refused_004(spell: str) -> None:
    f = duel(P004, {})
    refused(f, Cast("Ann", spell, mp=3), r"Ann casts no spell: name it, spell=… \(CO-SPELL-1\)")
    old = at(OLD, duel(P004, {}))
    push(old, Cast("Ann", spell, mp=3))
    assert old.state.get("Ann").mp == 7
    replays(old)


def test_a_cast_s_mp_says_what_is_wrong_004() -> None:
    f = duel(P004, {})
    refused(f, Cast("Ann", "Shrivel", mp=-1),
            r"a spell costs 0 MP or more, found mp=-1 \(CO-SPELL-1\)")
    refused(f, Cast("Ann", "Shrivel", mp=11),
            r"Ann has 10 MP, not the 11 Shrivel costs \(CO-SPELL-1\)")


@pytest.mark.parametrize("profile", [P003, P004])
def test_an_attack_on_oneself_names_the_attacker_and_no_rule(profile: Profile) -> None:
    """No rule of the spec's forbids it: CO-TURN-6 (AP per weapon) and CO-BASE-5 (the turn
    order) were cited (reviewcoc74 NIT 4)."""
    refused(duel(profile, {}), Attack("Ann", "Ann"),
            r"^attack someone else: Ann cannot attack themself$")


@pytest.mark.parametrize(("condition", "why"), [
    (Condition.UNCONSCIOUS, r"unconscious 気絶$"),
    (Condition.FALLEN, r"fell 転倒, no action this round \(CO-MELEE-4\)$"),
    (Condition.NO_ACTION, r"no action this round 行動不能 \(CO-STUN-3\)$")])
def test_a_declaration_by_one_who_cannot_act_says_why_004(condition: Condition,
                                                          why: str) -> None:
    f = duel(P004, {})
    patch(f, "Ann", conditions=(Timed(condition, 1, 1),))
    refused(f, Concentrate("Ann"), f"^Ann cannot act: {why}")


def test_a_declaration_by_the_dead_says_dead_004() -> None:
    f = duel(P004, {})
    patch(f, "Ann", dead=True)
    refused(f, Concentrate("Ann"), "^Ann cannot act: dead$")  # the name once (NIT 9)


def test_a_setting_of_no_rule_says_there_is_no_such_rule(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coc", "defaults", "--set", "CO-NOPE-1.x=1"]) == 2
    err = capsys.readouterr().err
    assert "no rule 'CO-NOPE-1' in coc's rules, so no setting CO-NOPE-1.x" in err
    assert "(no Defaults)" not in err
    assert main(["coc", "defaults", "--set", "CO-SKILL-5.x=1"]) == 2
    assert "CO-SKILL-5 has no setting 'x' (no Defaults)" in capsys.readouterr().err


def test_spot_hidden_after_a_sheathe_says_no_attack_003() -> None:
    """reviewcoc74 NIT 7: the sheathe's bar (CO-IAI-3) in Spot Hidden's line, untested."""
    lines = []
    for engine in (22, OLD):
        f = at(engine, duel(P003, {"weapons": ("japanese_sword",), "japanese_sword": 60, "iai": 70,
                                   "spot_hidden": 60}))
        push(f, Attack("Ann", "Cult", iai=True), (100, 90))
        push(f, EndTurn("Ann"))
        push(f, EndTurn("Cult"))
        push(f, Sheathe("Ann"))
        lines.append(push(f, Spot("Ann", "Cult"), (100, 10)))
        replays(f)
    assert lines[0].endswith("(Spot Hidden bars no attack, CO-SKILL-5, but Ann sheathed this "
                             "round: no attack (CO-IAI-3))")
    assert lines[1].endswith("(an attack is still allowed this round, CO-SKILL-5)")


def test_spot_hidden_with_no_ap_left_says_no_attack_003() -> None:
    """reviewcoc74 NIT 7: the last AP spent on the Spot leaves none for an attack
    (CO-TURN-3)."""
    lines = []
    for engine in (22, OLD):
        f = at(engine, duel(P003, SPOTTER))
        push(f, Move("Ann", 2))
        text = push(f, Spot("Ann", "Cult"), (100, 10))
        lines.append(next(line for line in text.splitlines() if "sees Cult" in line))
        assert f.state.get("Ann").ap == 0
        replays(f)
    assert lines[0].endswith("(Spot Hidden bars no attack, CO-SKILL-5, but Ann has no AP left "
                             "this round, CO-TURN-3)")
    assert lines[1].endswith("(an attack is still allowed this round, CO-SKILL-5)")
