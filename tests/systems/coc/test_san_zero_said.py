"""Engine revision 20 (coc72 NIT 9, CO-BASE-13 [BASE 6e]): a SAN loss reaching 0 says that in
CoC 6e, which CO-BASE-13 follows, SAN 0 is permanent insanity, for the Keeper to rule (the
seeds are silent and the spec flags only temporary and indefinite insanity, so no flag).
Revision 19 said only 'temporary insanity · indefinite insanity'; its entries replay as they
were played."""

from __future__ import annotations

from companion.systems.coc.combat import SanLoss
from companion.systems.coc.combat.keeper import SAN_ZERO_SAID
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push, replays

#: The revision before the fix.
OLD = 19
SAID = "Ann's SAN is 0: permanent insanity in CoC 6e [BASE 6e], the Keeper's to rule (CO-BASE-13)"


def test_a_loss_to_san_0_says_permanent_insanity_004() -> None:
    assert SAN_ZERO_SAID == OLD + 1
    f = duel(Profile.P004, {}, {})
    text = push(f, SanLoss("Ann", 99), (100, 90))  # Ann's POW 10: SAN 50 → 0
    assert "SAN 50 → 0" in text and text.endswith(SAID)
    assert SAID not in push(f, SanLoss("Ann", 3))  # already 0: said once, when it is reached
    replays(f)


def test_a_loss_short_of_0_says_nothing_of_it_004() -> None:
    f = duel(Profile.P004, {}, {})
    assert "permanent" not in push(f, SanLoss("Ann", 49), (100, 90))


def test_revision_19_did_not_say_it_004() -> None:
    f = at(OLD, duel(Profile.P004, {}, {}))
    assert "permanent" not in push(f, SanLoss("Ann", 99), (100, 90))
    replays(f)
