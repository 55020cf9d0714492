"""genso61: every line of `companion genso list items`, `spells` and `monsters` fits 100
columns (weapon rows ran to 129, the mana stone's to 189, the monsters' to 237), and nothing
is dropped: each field the JSON gives stands in the text, a row going on in lines indented
under it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.genso.layout import WIDTH, fit
from companion.dice.notation import display_width


def listed(capsys: pytest.CaptureFixture[str], what: str) \
        -> tuple[str, list[dict[str, object]]]:
    assert main(["genso", "list", what]) == 0
    text = capsys.readouterr().out
    assert main(["genso", "list", what, "--json"]) == 0
    return text, json.loads(capsys.readouterr().out)[what]


def blocks(text: str) -> dict[str, str]:
    """Each row by its key, with the lines it goes on in, their breaks and indents read as
    one space."""
    return {block.split()[0]: " ".join(block.split())
            for block in re.split(r"\n(?! )", text.rstrip())}


@pytest.mark.parametrize("what", ["items", "spells", "monsters"])
def test_every_line_fits_100_columns(user_dirs: Path, capsys: pytest.CaptureFixture[str],
                                     what: str) -> None:
    text, rows = listed(capsys, what)
    wide = [line for line in text.splitlines() if display_width(line) > WIDTH]
    assert wide == []
    assert WIDTH == 100
    assert list(blocks(text)) == [r["key"] for r in rows]


def test_no_item_field_is_dropped(user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, rows = listed(capsys, "items")
    shown = blocks(text)
    for r in rows:
        row = shown[str(r["key"])]
        for field in (r["name"], r["price_text"], r.get("mp_text"), r["note_ja"], r["note_en"]):
            assert " ".join(str(field or "").split()) in row, (r["key"], field)
        assert (f"打撃力/striking power {r['power']}" in row) == bool(r["power"])
        assert (f"防御点/protection {r['protection']}" in row) == bool(r["protection"])
    assert shown["spear_plus1"].startswith(
        "spear_plus1 槍＋１/Spear+1 おおよそ/about 金貨100枚 (100 gold) 片手/one hand "
        "打撃力/striking power 2D6+3")
    assert "(a rectangular shield 60 cm wide and 90 cm long, of wood, its top and left edge " \
           "strengthened with iron)" in shown["shield"]


def test_no_spell_or_monster_field_is_dropped(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, spells = listed(capsys, "spells")
    shown = blocks(text)
    for s in spells:
        row = shown[str(s["key"])]
        for field in (s["name"], s["group"], s["duration"], f"({s['rule']})",
                      f"対象/target {s['target']}", f"射程/range {s['range']}"):
            assert str(field) in row, (s["key"], field)
        assert ("禁呪ではないが忌避/not forbidden, but shunned" in row) == s["shunned"]
    text, monsters = listed(capsys, "monsters")
    shown = blocks(text)
    for m in monsters:
        row = shown[str(m["key"])]
        assert f"HP {m['hp'] or '-'} MP {m['mp']}" in row and str(m["attack"]) in row
        assert " ".join(str(m["senses"]).split()) in row
        assert ("攻撃は無効/only" in row or "攻撃無効/only" in row) == m["immune_normal"]


def test_a_long_part_breaks_between_words_and_a_long_word_between_letters() -> None:
    lines = fit(("head", "word " * 40, "x" * 130), 4)
    assert all(display_width(line) <= WIDTH for line in lines)
    assert " ".join(" ".join(lines).split()).replace("x ", "x") == \
        "head " + " ".join(["word"] * 40) + " " + "x" * 130
    assert lines[0].startswith("head  word word") and lines[1].startswith("    word")
