"""The coc engine: the disarm penalty by skill above base (CO-DISARM-1), negative ranges.

coc63's findings, fixed (fix63c): a disarm's penalty is waived for one who *has* Budo
(standing), MA or Grapple, a skill above its CoC6 base (CO-DISARM-1, 004 l.47), so a sheet
writing a skill at its base is one leaving it out; a negative distance is refused
(CO-RANGE-2)."""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.errors import DataError, IllegalAction
from companion.systems.coc.combat import ENGINE, Attack, Defence
from companion.systems.coc.combat.disarm import disarm_skill
from companion.systems.coc.combat.fight import line_rules
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.coc.sheet import skill_base
from tests.systems.coc.helpers import at, duel, person, push, replays

P004 = Profile.P004
KNIFE = {"weapons": ("knife",), "knife": 60}
PENALISED = "-40 (disarm, CO-DISARM-1) = 20"


def disarm_line(ann: dict[str, int], settings: dict[str, object] | None = None,
                engine: int | None = None) -> str:
    """Ann's disarm of Cult's knife, missed (99): the line that says her skill."""
    f = duel(P004, {**KNIFE, **ann}, {"weapons": ("knife",)}, settings)
    if engine is not None:
        at(engine, f)
    text = push(f, Attack("Ann", "Cult", disarm=True), (100, 99))
    replays(f)
    return text.replace("−", "-")


@pytest.mark.parametrize("written", [{}, {"grapple": 25}, {"martial_arts": 1},
                                     {"budo_standing": 1}, {"budo": 1}])
def test_co_disarm_1_a_skill_written_at_its_base_is_not_had(written: dict[str, int]) -> None:
    """Grapple 25 (everyone's base) written or left out: the same −40."""
    assert PENALISED in disarm_line(written)


@pytest.mark.parametrize(("written", "name"), [
    ({"grapple": 26}, "Grapple"), ({"martial_arts": 2}, "Martial Arts"),
    ({"budo_standing": 30}, "Budo (standing)")])
def test_co_disarm_1_a_skill_above_its_base_waives_the_penalty(written: dict[str, int],
                                                               name: str) -> None:
    assert f"disarm with {name}: no penalty, CO-DISARM-1) = 60" in disarm_line(written)


def test_co_disarm_1_how_far_above_the_base_is_a_default() -> None:
    rules = load_rules(P004)
    assert rules.default("CO-DISARM-1", "above_base") == 0
    ten = {"CO-DISARM-1": {"above_base": 10}}
    assert PENALISED in disarm_line({"grapple": 35}, ten)
    assert "no penalty" in disarm_line({"grapple": 36}, ten)
    with pytest.raises(DataError, match="above_base"):
        rules.with_overrides({"CO-DISARM-1": {"above_base": -1}}, "--set")


def test_co_disarm_1_engine_and_table_ask_one_function() -> None:
    """What the engine waives is what :func:`disarm_skill` says (the table's menu asks it)."""
    rules = load_rules(P004)
    for skills in ({"grapple": 25}, {"grapple": 26}, {"martial_arts": 1}, {"dodge": 80}):
        sheet = person(rules, "Ann", 14, ("knife",), **skills)
        had = disarm_skill(rules, sheet, 14)
        assert bool(had) == any(sheet.skills[k] > skill_base(rules, sheet, k) for k in skills
                                if k != "dodge")
        assert ("no penalty" in disarm_line(skills)) == bool(had)


def test_co_disarm_1_revision_13_entries_replay_as_they_were_played() -> None:
    """A fight file's disarm played by revision 13 (Grapple 25 written waived the penalty)
    replays so; new actions follow revision 14."""
    assert "no penalty" in disarm_line({"grapple": 25}, engine=13)



@pytest.mark.parametrize("profile", [Profile.P003, P004])
def test_co_range_2_a_negative_distance_is_refused(profile: Profile) -> None:
    """Refused before any die, as the other Keeper numbers are (a fall's metres, a burn's
    damage); 0 is within the base range."""
    f = duel(profile, {"weapons": ("revolver",), "handgun": 60})
    with pytest.raises(IllegalAction,
                       match=r"^a distance of 0 m or more \(CO-RANGE-2\), found -5$"):
        f.push(Attack("Ann", "Cult", distance_m=-5), ScriptedDice([]))
    assert not f.journal
    assert "(1D100<=60)" in push(f, Attack("Ann", "Cult", distance_m=0), (100, 99))


def test_co_range_2_a_negative_distance_played_by_revision_13_replays() -> None:
    f = at(13, duel(P004, {"weapons": ("revolver",), "handgun": 60}))
    assert "(1D100<=60)" in push(f, Attack("Ann", "Cult", distance_m=-5), (100, 99))
    replays(f)


def test_a_sheet_without_weapons_is_told_to_list_fist() -> None:
    """coc63 N4: bare hands are the weapon ``fist``, listed on the sheet (docs/sheets.md)."""
    f = duel(P004, {"weapons": ()})
    with pytest.raises(IllegalAction, match=r"^Ann carries no weapons: to punch, list fist "
                                            r"under \[\[weapons\]\] in its sheet"):
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))
    g = duel(P004, {"weapons": ("knife", "fist")})
    with pytest.raises(IllegalAction, match=r"^Ann has no weapon 2 \(carried: 0 .*Knife, "
                                            r"1 .*Fist"):
        g.push(Attack("Ann", "Cult", 2), ScriptedDice([]))


def dodge_after_attacking(engine: int, *dice: tuple[int, int]) -> str:
    """004: Ann attacks (and misses), so her Dodge 28 is at −60 against Cult's fist: 0."""
    f = at(engine, duel(P004, {"weapons": ("fist",)}, {"weapons": ("fist",)}))
    push(f, Attack("Ann", "Cult"), (100, 99))
    text = push(f, Attack("Cult", "Ann", defence=Defence.DODGE), *dice)
    replays(f)
    return text


def test_co_core_1_a_check_that_cannot_succeed_asks_no_die() -> None:
    """coc63 N3: a dodge at 0% (CO-CORE-1 Default 「Effective skill ≤ 0 means "cannot
    succeed"」) is a failure without a d100: no rule gives a dodge's fumble an effect."""
    text = dodge_after_attacking(ENGINE, (100, 10), (3, 2), (4, 1))
    assert ("Ann 回避/Dodge (1D100<=0) ＞ cannot succeed, not rolled ＞ 失敗/failure "
            "(CO-DODGE-4") in text
    assert "HP 10/13" in text


def test_co_core_1_revision_13_rolled_the_check_at_0() -> None:
    text = dodge_after_attacking(13, (100, 10), (100, 50), (3, 2), (4, 1))
    assert "Ann 回避/Dodge (1D100<=0) ＞ 50 ＞ 失敗/failure" in text


def test_co_core_1_an_attack_at_0_is_rolled_for_its_fumble_and_says_so() -> None:
    """An attack that cannot succeed is still rolled where its fumble rule is played (003's
    CO-MELEE-4): a fumble is a failure in the range whatever the skill."""
    f = duel(Profile.P003, {"weapons": ("knife",), "knife": 25})
    text = push(f, Attack("Ann", "Cult", called="leg"), (100, 97), (2, 1))
    assert ("= 0 ＞ cannot succeed; rolled only for a fumble (CO-MELEE-4)\n"
            "Ann ナイフ/Knife (1D100<=0) ＞ 97 ＞ 致命的失敗/fumble") in text
    assert "falls and loses next round's actions (CO-MELEE-4)" in text
    g = at(13, duel(Profile.P003, {"weapons": ("knife",), "knife": 25}))
    old = push(g, Attack("Ann", "Cult", called="leg"), (100, 50))
    assert "= 0 ＞ cannot succeed\n" in old and "fumble" not in old


def test_a_rule_id_is_not_carried_onto_a_later_blow_or_past_the_hp_it_took() -> None:
    """coc63 N2: the rule column showed the armour rule on the next bullet's damage roll, an
    impale's CO-BASE-2 on the HP it took, and armour's on "the fight is over"; an armour
    line's rule still stands beside the HP line it made (as a fire's, a fall's)."""
    vest = [{"name": "vest", "value": 2, "uses": 2}]
    f = duel(P004, {"weapons": ("smg",), "smg": 80}, {"armour": vest})
    f.push(Attack("Ann", "Cult", burst=True),
           ScriptedDice([(100, 31), (20, 2), (10, 9), (10, 3)]))
    ruled = dict((line, rule) for rule, line in line_rules(f.journal[-1].lines))
    assert ruled["bullet 2: damage (1D10+2) ＞ 3[3]+2=5 = 5"] == ""
    assert ruled["Cult takes 3: HP 1/13"] == "CO-ARMOR-2"
    g = duel(Profile.P003, {"weapons": ("knife",), "knife": 60}, {"dodge": 1})
    g.push(Attack("Ann", "Cult"), ScriptedDice([(100, 5), (4, 2), (4, 3), (4, 1)]))
    ruled = dict((line, rule) for rule, line in line_rules(g.journal[-1].lines))
    assert ruled["damage (1D4+2+1D4+2+1D4) ＞ 2[2]+2+3[3]+2+1[1]=10 (impale, CO-BASE-2) = 10"] \
        == "CO-BASE-2"
    assert ruled["Cult takes 10: HP 3/13"] == ""
    end = line_rules(["vest stops 2: uses 1/2 left (CO-ARMOR-2)", "Cult takes 7: HP -1/13",
                      "the fight is over: the investigators stand"])
    assert [rule for rule, _ in end] == ["CO-ARMOR-2", "CO-ARMOR-2", ""]
