"""Engine revision 26 (a78cocfight DEFECT 1): an attack's ``behind`` (CO-MELEE-2) and
``stray`` (CO-THROW-2) name someone in the fight, looked up before any die. Revision 25 looked
them up only when the knockback or the fumble came, after every die was thrown: a typo threw
away a critical or a fumble the player had rolled, and a re-throw gave fresh dice. A
``behind`` where no knockback can come (CO-MELEE-2 off, a shot) was kept as typed. Entries
revision 25 played replay as they were played, and its fight file goes on under 26.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.systems.coc.combat import ENGINE, Attack, Defence, Fight, Grapple
from companion.systems.coc.combat.attacks import FIELDS_PLAYED
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import at, duel, push, refused, replays

#: The revision before these fixes.
OLD = 25
FIST_AND_ROCK = {"weapons": ("fist", "rock", "revolver", "kick"), "fist": 60, "throw": 60,
                 "handgun": 60, "kick": 60}
NOBODY = r"^nobody called 'Bobb' is in the fight \(did you mean 'Bob'\?\); in it: "


def test_the_revision_is_new() -> None:
    assert ENGINE >= FIELDS_PLAYED == OLD + 1


def test_a_misspelt_behind_or_stray_is_refused_before_any_die_003() -> None:
    f = duel(Profile.P003, FIST_AND_ROCK, third={})
    refused(f, Attack("Ann", "Cult", 0, behind="Bobb"), NOBODY)
    refused(f, Attack("Ann", "Cult", 1, stray="Bobb"), NOBODY)
    text = push(f, Attack("Ann", "Cult", 0, behind="Bob"), (100, 30), (3, 2), (4, 1))
    assert "Ann" in text
    replays(f)


def test_behind_where_no_knockback_comes_is_refused() -> None:
    refused(duel(Profile.P003, FIST_AND_ROCK, third={}), Attack("Ann", "Cult", 2, behind="Bob"),
            r"^behind=Bob is who stands behind a knocked-back target \(CO-MELEE-2\): "
            r"拳銃\(リボルバー\)/Revolver is not a melee or bare-hand weapon: leave it out$")
    refused(duel(Profile.P004, FIST_AND_ROCK, third={}), Attack("Ann", "Cult", 0, behind="Bob"),
            r"^behind=Bob is who stands behind a knocked-back target \(CO-MELEE-2\): "
            r"CO-MELEE-2 is not played in profile 004 \(.*\): leave it out$")


def test_revision_25s_file_replays_and_goes_on_under_26() -> None:
    """Revision 25 kept a misspelt ``behind`` on a blow with no knockback; its file loads
    with that entry as played, and the next attack is checked by revision 26."""
    old = at(OLD, duel(Profile.P003, FIST_AND_ROCK, third={}))
    text = push(old, Attack("Ann", "Cult", 0, behind="Bobb"), (100, 30), (3, 2), (4, 1))
    data = json.loads(json.dumps(old.to_json()))
    again = Fight.from_json(load_rules(), data)
    assert again.journal[0].engine == OLD and again.journal[0].text == text
    assert again.engine == ENGINE
    refused(again, Attack("Ann", "Cult", 3, behind="Bobb"), NOBODY)
    push(again, Attack("Ann", "Cult", 3, behind="Bob"), (100, 30), (6, 2), (4, 1))
    assert [e.engine for e in again.journal] == [OLD, ENGINE]
    replays(again)


@pytest.mark.parametrize(("fields", "said"), [
    ({"penalty": -40}, r"^penalty=-40 is the Keeper's pick for a disarm \(CO-DISARM-1\) or a "
                       r"gouge \(CO-BODY-3\): leave it out$"),
    ({"penalty": -40, "body": "cut", "part": "arm"}, r"^penalty=-40 is the Keeper's pick"),
    ({"hidden": -40}, r"^hidden=-40 is how well a surprise attacker is hidden \(CO-SURP-3\): "
                      r"it goes with surprise=hide, conceal or sneak \(CO-SURP-1\): leave it "
                      r"out$"),
    ({"hidden": -40, "dark": True}, r"^hidden=-40 is how well a surprise attacker is hidden"),
    ({"part": "eye"}, r"^part goes with body=cut, gouge or blow_off \(CO-BODY-2 to "
                      r"CO-BODY-6\): leave it out$"),
    ({"staunched": True}, r"^staunched goes with body=cut, gouge or blow_off"),
    ({"disarm_weapon": 1}, r"^disarm_weapon=1 is the weapon a disarm aims at \(CO-DISARM-1\): "
                           r"it goes with disarm: leave it out$"),
    ({"parry_with": "hands"}, r"^parry_with=hands is how Cult parries \(CO-PARRY-2\): it goes "
                              r"with defence=parry or counter: leave it out$"),
    ({"parry_with": "hands", "defence": Defence.DODGE}, r"^parry_with=hands is how Cult"),
    # r78coc: the weapon to parry with, as parry_with, was taken and dropped unsaid
    ({"parry_weapon": 1}, r"^parry_weapon=1 is the weapon Cult parries with: it goes with "
                          r"defence=parry or counter: leave it out$"),
    ({"parry_weapon": 1, "defence": Defence.DODGE}, r"^parry_weapon=1 is the weapon Cult"),
])
def test_a_field_without_the_one_it_goes_with_is_refused_004(fields: dict[str, Any],
                                                               said: str) -> None:
    """a78cocfight DEFECT 2: revision 25 rolled ``penalty=-40`` on a plain shot at full
    skill, and dropped the rest as unsaid."""
    refused(duel(Profile.P004, FIST_AND_ROCK, {"weapons": ("fist", "knife")}),
            Attack("Ann", "Cult", 2, **fields), said)


def test_hidden_where_the_dark_and_surprise_rule_is_not_played_003() -> None:
    f = duel(Profile.P003, {**FIST_AND_ROCK, "hide": 60},
             settings={"CO-SURP-1": {"p003": "optional_on"}})
    refused(f, Attack("Ann", "Cult", 0, surprise="hide", hidden=-40),
            r"^hidden=-40 is how well a surprise attacker is hidden \(CO-SURP-3\): CO-SURP-3 "
            r"is not played in profile 003 \(optional, not switched on\): leave it out$")


def test_revision_25_rolled_a_penalty_it_did_not_play_and_replays_it() -> None:
    old = at(OLD, duel(Profile.P004, FIST_AND_ROCK))
    text = push(old, Attack("Ann", "Cult", 2, penalty=-40), (100, 90))
    assert "Revolver (1D100<=60) ＞ 90" in text  # at full skill: the −40 was dropped
    replays(old)


def test_a_grapples_parry_weapon_without_a_parry_is_refused() -> None:
    """r78coc: a grapple's ``parry_weapon`` without defence=parry was taken and dropped
    unsaid, though its ``parry_with`` was refused; revision 25 still takes it."""
    said = (r"^parry_weapon=1 is the weapon Cult parries with: it goes with defence=parry "
            r"\(CO-GRAP-5\): leave it out$")
    knife = {"weapons": ("fist", "knife"), "knife": 50}
    for defence in (Defence.NONE, Defence.DODGE):
        refused(duel(Profile.P004, {"grapple": 60}, knife),
                Grapple("Ann", "Cult", defence, parry_weapon=1), said)
    old = at(OLD, duel(Profile.P004, {"grapple": 60}, knife))
    push(old, Grapple("Ann", "Cult", parry_weapon=1), (100, 90))
    replays(old)


def test_a_penalty_the_disarm_or_gouge_would_not_read_is_refused_004() -> None:
    """r78coc: ``penalty`` with a disarm by one who has Grapple (none to waive, CO-DISARM-1)
    or a gouge of the eye (its own −80, CO-BODY-5) was taken and rolled without it; revision
    25 still takes it, and an untrained disarmer's or the arm's penalty is played."""
    knife = {"weapons": ("fist", "knife"), "knife": 50}
    trained = {**FIST_AND_ROCK, "grapple": 60}
    refused(duel(Profile.P004, trained, knife),
            Attack("Ann", "Cult", 0, disarm=True, disarm_weapon=1, penalty=-40),
            r"^penalty=-40 is not read: Ann disarms with 組み付き/Grapple, with no penalty "
            r"\(CO-DISARM-1\): leave it out$")
    refused(duel(Profile.P004, FIST_AND_ROCK, knife),
            Attack("Ann", "Cult", 0, body="gouge", part="eye", penalty=-70),
            r"^penalty=-70 is not read: gouging the eye is at its own -80 \(CO-BODY-3, "
            r"CO-BODY-5\): leave it out$")
    text = push(duel(Profile.P004, FIST_AND_ROCK, knife),
                Attack("Ann", "Cult", 0, disarm=True, disarm_weapon=1, penalty=-40), (100, 90))
    assert "-40 (disarm, CO-DISARM-1)" in text, text
    old = at(OLD, duel(Profile.P004, trained, knife))
    text = push(old, Attack("Ann", "Cult", 0, disarm=True, disarm_weapon=1, penalty=-40),
                (100, 90))
    assert "no penalty, CO-DISARM-1" in text
    replays(old)
