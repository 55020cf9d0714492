"""Engine revision 20 (coc72 NIT 6, CO-DODGE-4): ``luck_dodge`` is the Keeper's second dodge
by Luck (004 「"1回"回避したモノは2回目の回避をすることはできない」), so where no second dodge
would use it (the round's dodge not yet used, no dodge declared) it is refused before any die,
as a misplaced ``after_dodge`` is. Revision 19 rolled the round's own Dodge and said nothing;
its entries replay as they were played."""

from __future__ import annotations

from typing import Any

from companion.systems.coc.combat import Attack, Defence
from companion.systems.coc.combat.defences import LUCK_DODGE_READ
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push, refused, replays

#: The revision before the fix.
OLD = 19
KNIFE: dict[str, Any] = {"weapons": ("knife",), "knife": 60}
CULT: dict[str, Any] = {"dodge": 30}


def test_luck_dodge_on_the_rounds_first_dodge_is_refused_004() -> None:
    assert LUCK_DODGE_READ == OLD + 1
    f = duel(Profile.P004, KNIFE, CULT)
    refused(f, Attack("Ann", "Cult", defence=Defence.DODGE, luck_dodge=True),
            r"luck_dodge=true changes nothing here: Cult has not dodged this round, so this is "
            r"its round's own dodge \(CO-DODGE-4\); leave out luck_dodge")
    refused(f, Attack("Ann", "Cult", luck_dodge=True),
            r"a second dodge by Luck is a dodge: declare defence=dodge \(CO-DODGE-4\)")
    text = push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 30), (100, 20))
    assert "Cult 回避/Dodge" in text


def test_revision_19_rolled_the_rounds_own_dodge_004() -> None:
    f = at(OLD, duel(Profile.P004, KNIFE, CULT))
    text = push(f, Attack("Ann", "Cult", defence=Defence.DODGE, luck_dodge=True), (100, 30),
                (100, 20))
    assert "Cult 回避/Dodge" in text and "Luck" not in text
    replays(f)
