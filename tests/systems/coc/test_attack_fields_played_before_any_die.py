"""Engine revision 26 (a78cocfight DEFECT 1): an attack's ``behind`` (CO-MELEE-2) and
``stray`` (CO-THROW-2) name someone in the fight, looked up before any die. Revision 25 looked
them up only when the knockback or the fumble came, after every die was thrown: a typo threw
away a critical or a fumble the player had rolled, and a re-throw gave fresh dice. A
``behind`` where no knockback can come (CO-MELEE-2 off, a shot) was kept as typed. Entries
revision 25 played replay as they were played, and its fight file goes on under 26.
"""

from __future__ import annotations

import json

from companion.systems.coc.combat import ENGINE, Attack, Fight
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
