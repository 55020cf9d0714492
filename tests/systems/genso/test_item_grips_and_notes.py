"""GM-EQUIP-1/2/3, GM-ITEM-1/2/3, GM-ECON-2 (rules60g #7): each weapon's 使用法 (片手/両手)
and the seed's note on an item (弓 射程約５０ｍ, 松明 持続時間は１時間) are in items.toml, checked
against seed 002's own rows, and shown where items are listed (`genso list items`, the
sheet's weapons), Japanese beside English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.errors import DataError
from companion.systems.genso import rules as genso_rules
from companion.systems.genso.rules import Grip, Slot, load_rules

RULES = load_rules()
#: Seed 002 lies in shared/ beside the checkout (CI's clone has a copy there too).
SEED = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "002_a749c61dc9cb2de7.txt"
GRIPS = {"片手": Grip.ONE_HAND, "両手": Grip.TWO_HANDS}


def seed_lines() -> list[str]:
    return SEED.read_text(encoding="utf-8").splitlines()


def test_every_weapon_has_the_grip_the_seed_prints() -> None:
    """PG 6-2 「拳 片手 １Ｄ－４ … 棒 両手 … 槍 両手 … 弓 両手」 and GM 3 「槍＋１ 片手」: each
    weapon row of the seed is ``名 使用法 打撃力``; the data holds the same 使用法."""
    printed: dict[str, Grip] = {}
    for line in seed_lines():
        words = line.split()
        if len(words) >= 3 and words[1] in GRIPS and re.match(r"[１２]Ｄ", words[2]):
            printed.setdefault(words[0], GRIPS[words[1]])
    weapons = {i.ja: i.grip for i in RULES.items.values() if i.slot is Slot.WEAPON}
    assert weapons == printed
    assert weapons["槍"] is Grip.TWO_HANDS and weapons["槍＋１"] is Grip.ONE_HAND


def test_notes_are_the_seeds_words() -> None:
    """PG 6-2..6-5, GM 3: each note is the seed's own text (a two-line note joined), and the
    bow's range, the torch's hour and the mana stone's charm advice are among them."""
    text = "".join(seed_lines()).replace(" ", "")
    noted = [i for i in RULES.items.values() if i.note_ja]
    assert len(noted) >= 40
    for item in noted:
        first = item.note_ja.split("。")[0].replace(" ", "")  # a line break kept as a space
        assert first in text, item.key
        assert item.note_en, item.key
    assert RULES.item("bow").note_ja == "射程約５０ｍ"
    assert "持続時間は１時間" in RULES.item("torch").note_ja
    assert "お守り" in RULES.mana_stone["note_ja"]


def test_a_weapon_without_a_grip_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """items.toml: a [[weapon]] needs its 使用法, one of one_hand and two_hands."""
    row = {"key": "x", "ja": "ｘ", "en": "X", "power": "1D6"}
    with pytest.raises(DataError, match="lacks 'grip'"):
        genso_rules._load_items({"weapon": [row]}, "items.toml", (20, 4))
    with pytest.raises(DataError, match="grip must be one of one_hand, two_hands"):
        genso_rules._load_items({"weapon": [{**row, "grip": "both"}]}, "items.toml", (20, 4))


def test_the_item_list_and_the_sheet_show_grip_and_note(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`genso list items` gives 両手/two hands on the bow's row and 「射程約５０ｍ」 (range about
    50 m) under it, indented, each on a line of its own (review60a N2: beside the row, every
    row ran far past 80 columns); the torch's hour under its own; the JSON keeps them; the
    sheet names each weapon's grip."""
    assert main(["genso", "list", "items"]) == 0
    lines = capsys.readouterr().out.splitlines()
    bow = next(n for n, line in enumerate(lines) if line.startswith("bow "))
    assert "両手/two hands" in lines[bow] and "射程" not in lines[bow]
    # The row goes on under its price (genso61: 100 columns), then the note.
    assert lines[bow + 1].strip() == "打撃力/striking power 2D6-2"
    assert lines[bow + 2:bow + 4] == ["    「射程約５０ｍ」", "    (range about 50 m)"]
    torch = next(n for n, line in enumerate(lines) if line.startswith("torch "))
    assert lines[torch + 1].endswith("持続時間は１時間。」")
    assert lines[torch + 2] == "    (lights a circle 3 m across; burns for 1 hour)"
    assert main(["genso", "list", "items", "--json"]) == 0
    rows = {r["key"]: r for r in json.loads(capsys.readouterr().out)["items"]}
    assert rows["spear"]["grip"] == "two_hands" and rows["club"]["grip"] == "one_hand"
    assert rows["torch"]["grip"] is None and rows["mana_stone"]["note_ja"].endswith("べき。")
    assert main(["genso", "sheet", "pc1"]) == 0
    assert "使用法/grip: 0 片手/one hand, 1 片手/one hand, 2 片手/one hand" in \
        capsys.readouterr().out
