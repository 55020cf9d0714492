"""`genso list items` prints the buy-back (買取) the seed gives an item, which `genso sell`
pays (a77data NIT 7): it was in the --json rows only, so a player on paper could not see
which items sell, nor for what. The seed: rings 「買取は金貨２５枚」, magic arms
「買取はおおよそ金貨５０枚」, magic stones 「買取は大銀貨２枚」 and 「使用済み魔法石の買い取り価格は
大銀貨１枚」 (GM-ECON-2, GM-ITEM-1/2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main


def item_rows(capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """Each item's lines, joined, by key."""
    code = main(["genso", "list", "items"])
    text, err = capsys.readouterr()
    assert code == 0, err
    rows: dict[str, str] = {}
    key = ""
    for line in text.splitlines():
        if not line.startswith(" "):
            key = line.split()[0]
        rows[key] = " ".join((rows.get(key, "") + " " + line).split())
    return rows


@pytest.mark.parametrize("key, shown", [
    ("ring_striking", "買取/buy-back 金貨25枚 (25 gold)"),
    ("sword_plus1", "買取/buy-back おおよそ/about 金貨50枚 (50 gold)"),
    ("healing_stone", "買取/buy-back 大銀貨2枚 (2 large silver) 使用済み/used 大銀貨1枚 "
                      "(1 large silver)"),
])
def test_an_item_bought_back_says_for_what(user_dirs: Path, capsys: pytest.CaptureFixture[str],
                                           key: str, shown: str) -> None:
    assert shown in item_rows(capsys)[key]


def test_an_item_no_one_buys_says_no_buy_back(user_dirs: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    rows = item_rows(capsys)
    for key in ("sword", "ordinary_inn"):
        assert "買取" not in rows[key], rows[key]
