"""The genso spells' names, targets, ranges, texts, MP and durations are seed 002's words.

genso61: every spell's Japanese name, target, range and text (and, genso62, its MP
and duration) are seed 002's own words (PG 1-2 基本魔術; GM 2 基本魔法, 魔法陣魔法, 禁呪),
a text over several lines joined; Summon and Banish (召喚呪, 送還呪) had their second
sentence cut to 「国家を上げての祭典で最高位神官が行う。」, the seed's 「この魔法は国家を
上げての祭典で神々の注意を引いて、最高位神官が神に泣きついて召喚を行う。」
(GM l.1642–1649) lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.systems.genso.rules import Duration, load_rules

RULES = load_rules()
#: Seed 002 lies in shared/ beside the checkout (CI's clone has a copy there too).
SEED = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "002_a749c61dc9cb2de7.txt"
#: The seed's 持続時間 column (GM-CORE-2, GM-MAGIC-1) as spells.toml's ``duration``.
DURATIONS = {"永久": Duration.PERMANENT, "１日": Duration.DAY, "１Ｒ": Duration.ROUND,
             "特殊": Duration.SPECIAL}


def seed_rows() -> dict[str, str]:
    """Each spell row of the seed, by its name: the columns and the effect, its lines
    joined, the first copy of each (the PG's, where the GM guide repeats it)."""
    rows: dict[str, str] = {}
    name = ""
    for line in SEED.read_text(encoding="utf-8").splitlines():
        words = line.split(" ")
        if words[0].endswith("呪") and len(words) >= 6 and len(words[0]) == 3:
            name = words[0] if words[0] not in rows else ""
            if name:
                rows[name] = line
        elif name and line and not line.startswith(("禁呪", "魔法陣", "名称", "３ ", "１－３")):
            rows[name] += line
        else:
            name = ""
    return rows


@pytest.mark.parametrize("key", list(RULES.spells))
def test_each_spell_is_the_seeds_words(key: str) -> None:
    spell = RULES.spells[key]
    row = seed_rows()[spell.ja]
    columns = row.split(" ", 5)
    target_ja, range_ja = spell.target.split("/")[0], spell.range.split("/")[0]
    assert (columns[2], columns[4]) == (target_ja, range_ja)
    assert columns[5] == spell.text_ja


@pytest.mark.parametrize("key", list(RULES.spells))
def test_each_spells_mp_and_duration_are_the_seeds(key: str) -> None:
    """review61a N13: the row's 消費ＭＰ (a full-width number, or 特殊 for a cost the GM
    tells: mp None) and 持続時間 columns, which the test above left unchecked."""
    spell = RULES.spells[key]
    columns = seed_rows()[spell.ja].split(" ", 5)
    mp = None if columns[1] == "特殊" else int(columns[1])  # int() reads ４ as 4
    assert (mp, DURATIONS[columns[3]]) == (spell.mp, spell.duration)


def test_summon_and_banish_keep_the_rite() -> None:
    summon, banish = RULES.spell("summon"), RULES.spell("banish")
    assert summon.text_ja == ("召喚陣内部に異世界から生物を召喚する。この魔法は国家を上げての祭典で"
                              "神々の注意を引いて、最高位神官が神に泣きついて召喚を行う。")
    assert banish.text_ja == ("送還陣内部の生物を異世界に送還する。この魔法は国家を上げての祭典で"
                              "神々の注意を引いて、最高位神官が神に泣きついて送還を行う。")
    assert "begs the gods" in summon.text_en and "begs the gods" in banish.text_en
