"""reviewcoc71 (the review of engine revision 19), fixed within revision 19, which was never
released; entries played by revision 18 replay as they were played.

DEFECT 1 (CO-GRAP-6, CO-DODGE-7): a 004 restrained one takes no cover either, Hide as Dodge:
cover is a reaction, as the dodge and parry revision 19 already refused it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.systems.coc.combat import ENGINE, Attack, Fight, Grapple
from companion.systems.coc.rules import Profile
from tests.app.test_coc_mode import FOE, INV, at_the_table, offered, people
from tests.systems.coc.helpers import at, duel, push, refused, replays

P003, P004 = Profile.P003, Profile.P004
#: The revision before revision 19.
OLD = 18


# --- DEFECT 1: the restrained (004) take no cover, Hide or Dodge -----------------------------

def shot_at_the_restrained(engine: int = ENGINE) -> Fight:
    """004: Ann restrains Cult (CO-GRAP-6); Bob, with a revolver, to shoot it."""
    f = at(engine, duel(P004, {"grapple": 90},
                        {"dodge": 50, "hide": 50, "weapons": ("knife",)},
                        third={"weapons": ("revolver",), "handgun": 80}))
    push(f, Grapple("Ann", "Cult"), (100, 10))
    assert f.state.get("Cult").held_by == "Ann"
    return f


@pytest.mark.parametrize("cover", ["hide", "dodge"])
def test_the_restrained_take_no_cover_004(cover: str) -> None:
    """004 l.163 「組み付いた相手を行動不能にする」, as readings.toml's CO-GRAP-6 says: "a
    restrained target acts only to break free": Cult takes cover from Bob's shot neither by
    Hide nor by Dodge (CO-DODGE-7), refused before any die and said why."""
    f = shot_at_the_restrained()
    refused(f, Attack("Bob", "Cult", cover=cover),
            r"^Cult cannot take cover now: Cult is restrained by Ann: it acts only to break "
            r"free, no dodge, cover, parry or counter \(CO-GRAP-6\)$")
    text = push(f, Attack("Bob", "Cult"), (100, 30), (10, 2))
    assert "takes cover" not in text and "Cult takes 2" in text
    replays(f)


def test_revision_18_let_the_restrained_hide_004() -> None:
    f = shot_at_the_restrained(OLD)
    text = push(f, Attack("Bob", "Cult", cover="hide"), (100, 30), (100, 10))
    assert "Cult takes cover: 隠れる/Hide" in text
    replays(f)


def test_the_table_offers_the_restrained_no_cover(tmp_path: Path) -> None:
    make = people(P004, ("Ann", 14, ("fist",), INV, {"grapple": 90}),
                  ("Bob", 12, ("revolver",), INV, {"handgun": 80}),
                  ("Cult", 10, ("knife",), FOE, {"knife": 50, "dodge": 50, "hide": 50}))
    _, player = at_the_table(tmp_path, make, [(Grapple("Ann", "Cult"), [10])],
                             ["attack", "t:Cult", "h:plain", "d:none"],
                             [Attack("Bob", "Cult")])
    assert offered(player, "How does Cult defend?") == [["d:none", "m:more", "back"]]
