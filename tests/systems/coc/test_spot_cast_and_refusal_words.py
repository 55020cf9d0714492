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

from companion.systems.coc.combat.actions import Cast, Spot, Treat
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, hurt, push, refused, replays

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
