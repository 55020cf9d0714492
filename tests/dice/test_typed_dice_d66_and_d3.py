"""Typed dice as a new user has them: a D66 as two digits, a D3 or D2 from a D6.

cli59 F11: typed dice a new user throws as they have them: a D66 typed as its two digits,
and a D3 or D2 from a D6."""

from __future__ import annotations

import pytest

from companion.dice import roll
from tests.dice.typed_dice_helpers import typed


def test_a_d66_is_typed_as_its_two_digits() -> None:
    """`roll D66 --dice typed` refused 12 ("12 is not on a D6"), the way a D66 is read."""
    source, _ = typed("35")
    assert roll("D66", source).text == "(D66) ＞ 35"
    source, _ = typed("4 2")
    assert roll("D66", source).text == "(D66) ＞ 42"
    source, _ = typed("45", "4 5 6")  # 45 for three dice is refused (no D66): typed apart next
    assert roll("3D6", source).values == [4, 5, 6]


@pytest.mark.parametrize(("line", "why"), [("17", "17 is not on a D6 その目はありません"),
                                           ("12", "12 is not on a D6 その目はありません")])
def test_a_number_no_die_shows_is_still_refused(line: str, why: str) -> None:
    """17 on two D6 (7 is on none), and 12 for one D6, are asked again with the reason."""
    count = 2 if line == "17" else 1
    source, prompts = typed(line, " ".join(["3"] * count))
    roll(f"{count}D6", source)
    assert prompts[1].startswith(why)


def test_a_d3_says_a_d6_will_do_and_what_a_d6_face_reads_as() -> None:
    """`events explore --dice typed` asked for a 1D3 no player owns: the prompt says a D6
    will do and how it reads; a D6's 4, 5 or 6 typed for the D3 is told its D3 face."""
    source, prompts = typed("5", "3")
    assert roll("1D3", source, purpose="種類/kind from your list").total == 3
    assert prompts[0] == ("Roll 1D3 for 種類/kind from your list and type the value (no D3? "
                          "type a D6 as 1-2 → 1, 3-4 → 2, 5-6 → 3) 出目を入力: ")
    assert prompts[1].startswith("5 is not on a D3 その目はありません: a D6 is typed as what it "
                                 "reads as")
    source, prompts = typed("2")
    roll("1D2", source)
    assert "(no D2? type a D6 as 1-3 → 1, 4-6 → 2)" \
        in prompts[0]
    source, prompts = typed("4")
    roll("1D6", source)
    assert "will do" not in prompts[0]
