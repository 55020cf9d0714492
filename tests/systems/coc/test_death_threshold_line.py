"""Engine revision 8: CO-DEATH-1's death at once names the threshold it crossed, the Default
``dead_below``, where revision 7 said "HP below −2" whatever it was. Saved fights compare
each entry's lines on replay, so entries played by revision 7 keep their words."""

from __future__ import annotations

from typing import Any

from companion.systems.coc.combat import ENGINE, Attack, Fight
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, push, replays

ANN: dict[str, Any] = {"weapons": ("japanese_sword",), "japanese_sword": 50}
#: Ann's 14 with the sword takes Cult (SIZ 1: HP 7) to −7.
BLOW = ((100, 20), (10, 10), (4, 4))


def cut_down(engine: int, dead_below: int | None) -> tuple[Fight, str]:
    settings = {} if dead_below is None else {"CO-DEATH-1": {"dead_below": dead_below}}
    f = at(engine, duel(Profile.P003, ANN, {"siz": 1}, settings=settings))
    return f, push(f, Attack("Ann", "Cult"), *BLOW)


def test_death_names_the_threshold_set() -> None:
    f, text = cut_down(ENGINE, -5)
    assert "Cult takes 14: HP -7/7" in text
    assert "Cult dies: HP below −5 (CO-DEATH-1)" in text and "below −2" not in text
    replays(f)


def test_the_packaged_threshold_reads_as_before() -> None:
    f, text = cut_down(ENGINE, None)
    assert "Cult dies: HP below −2 (CO-DEATH-1)" in text
    replays(f)


def test_revision_7_entries_replay_with_their_words() -> None:
    f, text = cut_down(7, -5)
    assert "Cult dies: HP below −2 (CO-DEATH-1)" in text
    assert f.journal[-1].engine == 7
    replays(f)
