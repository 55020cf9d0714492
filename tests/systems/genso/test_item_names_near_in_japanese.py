"""An unknown item typed in Japanese is told the item it is nearest to (a77data NIT 6):
`genso buy Aki 盾` and `genso buy Aki 矢` were refused with no suggestion, though the seed
writes the shield 盾 too (盾＋１, 「魔法の武器、鎧、盾」, l.1661) and the arrows are 矢ｘ１２."""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.systems.genso.rules import load_rules

RULES = load_rules()


@pytest.mark.parametrize("typed, said", [
    ("盾", "did you mean '楯' (shield)?"),
    ("矢", "did you mean '矢ｘ１２' (arrows)?"),
    ("剣+1", "did you mean '剣＋１' (sword_plus1)?"),
    ("盾+1", "did you mean '盾＋１' (shield_plus1)?"),
    ("治癒", "did you mean '治癒石' (healing_stone)?"),
])
def test_a_japanese_name_near_an_items_is_told_it(typed: str, said: str) -> None:
    with pytest.raises(DataError, match="no item") as refused:
        RULES.item(typed)
    assert said in str(refused.value)


def test_an_english_key_is_still_told_the_key() -> None:
    with pytest.raises(DataError, match=r"did you mean 'chain_armor'\?"):
        RULES.item("chain_mail")


def test_a_name_near_nothing_says_where_the_items_are_listed() -> None:
    with pytest.raises(DataError) as refused:
        RULES.item("竜の鱗")
    assert "did you mean" not in str(refused.value)
    assert "genso list items` lists them" in str(refused.value)
