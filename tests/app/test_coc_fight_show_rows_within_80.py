"""`coc fight show` keeps each fighter's row within the command line's width (78 cells, a
Japanese character taking two, as the error lines and help pages): the badges a77cocgrapple
added (a 003 hold that may choke or throw, a pin to come, a stun next round) made rows of 95
to 101 columns (r77coc RISK on b6b3c9b2). A row too long goes on below, under its badges,
broken between two badges, the line broken ending " ·"."""

from __future__ import annotations

from companion.app.commands import coc as coc_command
from companion.app.help_format import cell_len
from companion.systems.coc.combat import Condition, Grapple, Tackle, Timed
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import duel, patch, push


def rows(text: str) -> list[str]:
    """The fighters' lines of a `fight show`, the heading left out, each within 78 cells."""
    lines = text.splitlines()[1:]
    assert all(cell_len(line) <= 78 for line in lines), lines
    return lines


def test_a_003_hold_on_the_board_with_a_stun_goes_on_below() -> None:
    """r77coc's first example: Ann on the board in 003 holds Cult by a full MA success (may
    choke or throw, CO-MA-2) and is stunned (CO-STUN-1)."""
    f = duel(Profile.P003, {"grapple": 60, "martial_arts": 60})
    push(f, Grapple("Ann", "Cult", ma=True), (100, 40), (100, 80))
    patch(f, "Ann", square="d4", facing="N", stun=1)
    text, data = coc_command._status(f)
    assert rows(text)[:2] == [
        "  Ann          HP 13/13  d4 N  holds Cult 組み付き ·",
        "                               may choke/throw 締め上げ/投げ · stun 朦朧 1"]
    assert data["combatants"][0]["badges"] == [
        "holds Cult 組み付き", "may choke/throw 締め上げ/投げ", "stun 朦朧 1"]


def test_a_pin_to_come_with_a_stun_next_round_goes_on_below() -> None:
    """r77coc's second example: a tackler's pin to come (CO-TACKLE-3) beside a stun next
    round (CO-STUN-3's 行動不能/no action) and a stun stack: what comes next round after
    what is on Ann now (f78panels item 2)."""
    f = duel(Profile.P004, {"tackle": 60})
    push(f, Tackle("Ann", "Cult", "knock_down"), (100, 30))
    patch(f, "Ann", stun=2, square="e5", conditions=(Timed(Condition.NO_ACTION, 2, 2),))
    assert rows(coc_command._status(f)[0]) == [
        "  Ann          HP 13/13  e5 N  pins Cult next round 押さえ込み · stun 朦朧 2 ·",
        "                               行動不能/no action next round 次R",
        "▶ Cult         HP 13/13  転倒/prone"]


def test_a_badge_wider_than_its_room_is_broken_between_words() -> None:
    """A chant of a long spell (CO-SPELL-2), wider than a line alone, is broken between its
    words, each line under the badge column."""
    f = duel(Profile.P004, {"fist": 50})
    spell = "Summon and Bind Byakhee of the Far Places Beyond the Stars and Aldebaran"
    patch(f, "Ann", chanting=spell, bleeding=("1D4",))
    lines = rows(coc_command._status(f)[0])
    ann = lines[:lines.index(next(line for line in lines if "Cult" in line))]
    assert ann[0] == "▶ Ann          HP 13/13  bleeding 出血 1D4 ·"
    assert " ".join(line.strip() for line in ann[1:]) == f"chanting 詠唱 {spell}"
    assert all(line.startswith(" " * 25) for line in ann[1:])


def test_a_short_row_stays_one_line() -> None:
    """A row that fits is the one line it was."""
    f = duel(Profile.P004, {"grapple": 60})
    push(f, Grapple("Ann", "Cult"), (100, 40))
    assert rows(coc_command._status(f)[0]) == [
        "  Ann          HP 13/13  holds Cult 組み付き",
        "▶ Cult         HP 13/13  held by Ann 組み付かれ"]
