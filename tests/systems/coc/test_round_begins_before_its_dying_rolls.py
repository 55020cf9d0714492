"""a78cocfight NIT 5: from engine revision 26 what a round's start brings before its order (a
dying one's CON×5, CO-DEATH-1: the Default "at the start of each round") comes after a line
that says the round begins, ``round 2 begins 第2ラウンド開始``. Revision 25 said the CON×5
before the "round 2: …" order line, so the log read as if it were rolled, and a dying one
died, in round 1; its entries replay as they were played. A round whose start brings
nothing says no such line."""

from __future__ import annotations

from companion.systems.coc.combat import Attack, EndTurn
from companion.systems.coc.combat.turns import ROUND_BEGINS_SAID
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, kill_then_dying_roll_003, push, replays


def _lines_from(text: str, first: str) -> list[str]:
    lines = text.splitlines()
    return lines[next(n for n, line in enumerate(lines) if line.startswith(first)):][:3]


def test_the_round_begins_before_the_dying_roll_003() -> None:
    f = kill_then_dying_roll_003()
    assert _lines_from(f.journal[-1].text, "round 2 begins") == [
        "round 2 begins 第2ラウンド開始",
        "Bob CON×5 (1D100<=60) ＞ 20 ＞ 成功/success (CO-DEATH-1)",
        "round 2: Ann(DEX 14), Bob(DEX 12), Zed(DEX 11), Cult(DEX 10) (CO-TURN-1)"]
    replays(f)


def test_revision_25_rolled_it_before_the_round_line_003() -> None:
    f = kill_then_dying_roll_003()
    f.pop()  # Cult's DEX/2 shot that kills Ann, played again by revision 25
    at(ROUND_BEGINS_SAID - 1, f)
    text = push(f, Attack("Cult", "Ann"), (100, 31), (10, 10), (100, 20))
    assert "begins" not in text
    assert _lines_from(text, "Bob CON×5")[1].startswith("round 2: ")
    replays(f)


def test_a_round_with_nothing_at_its_start_says_no_begins_line_004() -> None:
    f = duel(Profile.P004, {})
    text = push(f, EndTurn("Ann"))
    text += push(f, EndTurn("Cult"))
    assert "round 2: " in text and "begins" not in text
