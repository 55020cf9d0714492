"""The table's Treat (CO-SKILL-2/3 in 003, CO-BASE-8 in 004) offers only whom First Aid or
Medicine has something to treat: from engine revision 21 the engine refuses one unhurt,
conscious, not dying and not bleeding (grapple73's known item: 004's First Aid on Sue at
12/12 was taken and rolled), so the table, which offers what the engine takes, no longer
offers it; a fight played on by revision 20 is offered what 20 took."""

from __future__ import annotations

import pytest

from companion.app.modes.coc import CocFightMode
from companion.app.session.mode import ChoiceAsk
from companion.systems.coc.combat.skills import NOTHING_TO_TREAT
from companion.systems.coc.rules import Profile
from tests.app.coc_table_helpers import pick
from tests.systems.coc.helpers import at, duel, hurt

SKILLS = {"first_aid": 60, "medicine": 60}


def keys(mode: CocFightMode, *picks: str) -> list[str]:
    """The keys offered after ``picks`` (:func:`~tests.app.coc_table_helpers.pick`)."""
    ask = pick(mode, *picks)
    assert isinstance(ask, ChoiceAsk), ask
    return [o.choice for o in ask.options]


@pytest.mark.parametrize("profile", [Profile.P003, Profile.P004])
def test_treat_is_offered_only_for_one_with_something_to_treat(profile: Profile) -> None:
    f = duel(profile, SKILLS, third={})
    assert "treat" not in keys(CocFightMode(f))
    hurt(f, "Bob")
    assert "treat" in keys(CocFightMode(f))
    assert keys(CocFightMode(f), "treat") == ["t:Bob", "back"]


def test_revision_20_offered_treat_to_the_unhurt() -> None:
    f = at(NOTHING_TO_TREAT - 1, duel(Profile.P004, SKILLS, third={}))
    assert "treat" in keys(CocFightMode(f))
