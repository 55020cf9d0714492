"""review59b F10: the tray's keypad for a D3 (events explore 1D3) says a D6 will do, keyed
as what it reads as, as typed dice on the command line say it."""

from __future__ import annotations

from companion.app.session.keypad import typed_prompt
from companion.app.session.mode import RollAsk


def test_a_d3_keypad_says_a_d6_is_keyed_as_what_it_reads_as() -> None:
    assert typed_prompt(RollAsk("種類/kind", 1, 3)) == (
        "Type the D3 you threw 1D3の出目を入力: 種類/kind (no D3? type a D6 as 1-2 → 1, "
        "3-4 → 2, 5-6 → 3)")
    assert typed_prompt(RollAsk("", 1, 2)).endswith(
        "(no D2? type a D6 as 1-3 → 1, 4-6 → 2)")
    assert typed_prompt(RollAsk("damage", 1, 4)) == "Type the D4 you threw 1D4の出目を入力: damage"
