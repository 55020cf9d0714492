"""GM-MAGIC-5 and GM-MAGIC-7: where the GM guide prints a spell otherwise than the PG, the
spell list and the tracker show the version the Defaults choose (rules audit: dice F3)."""

from __future__ import annotations

from importlib.resources import files

import pytest

from companion.errors import DataError
from companion.systems.genso.rules import load_rules


def test_the_barrier_is_shown_at_the_diameter_the_default_sets() -> None:
    pg = load_rules()
    assert pg.spell("barrier").target == "直径３ｍ/diameter 3 m"
    assert "直径３ｍの結界" in pg.spell("barrier").text_ja
    gm = pg.with_overrides({"GM-MAGIC-5": {"diameter_m": 5}})
    assert gm.spell("barrier").target == "直径５ｍ/diameter 5 m"
    assert "直径５ｍの結界" in gm.spell("barrier").text_ja
    assert "5 m across" in gm.spell("barrier").text_en
    # Set back, from rules that show 5 m: the PG's 3 m again, not what was shown last.
    again = gm.with_overrides({"GM-MAGIC-5": {"diameter_m": 3}})
    assert again.spell("barrier") == pg.spell("barrier")


def test_protection_reads_as_the_version_chosen() -> None:
    pg = load_rules()
    assert pg.spell("protection").text_ja.startswith("不死族からの攻撃のダメージをー２")
    gm = pg.with_overrides({"GM-MAGIC-7": {"version": "gm"}})
    assert gm.spell("protection").text_ja == "不死族からの攻撃に防護点を＋２する。"
    assert gm.spell("protection").target == pg.spell("protection").target


def test_a_gm_text_chosen_by_no_default_is_refused_by_name() -> None:
    spells = files("companion.systems.genso").joinpath("data/spells.toml").read_text("utf-8")
    bad = spells.replace('chosen_by = "GM-MAGIC-5.diameter_m"', 'chosen_by = "GM-MAGIC-5.radius"')
    with pytest.raises(DataError, match=r"spells\.toml.*radius.*not a Default"):
        load_rules(texts={"spells.toml": bad})


def test_not_forbidden_but_shunned_heads_fire_and_lightning() -> None:
    """GM-MAGIC-9/10/11 (PG 1-2 l.1047–1053, GM 2 l.1628–1634, rules60g risk 4): the line
    「禁呪ではないが忌避されている呪文」 has no 「。」, stands alone before 火炎呪 and 雷撃呪 as
    「魔法陣魔法」 heads the next group: a heading of the two attack spells, not the end of
    Seal Lock's text, which it was appended to."""
    rules = load_rules()
    assert "忌避" not in rules.spell("seal_lock").text_ja
    assert rules.spell("seal_lock").text_ja.endswith("発音する必要がある。")
    assert [k for k, s in rules.spells.items() if s.shunned] == ["fire", "lightning"]
