"""`genso list` gives the seed's Japanese beside the English for a spell's group and duration
and a monster's attack (a77data NIT 3): 'basic  permanent' and '特殊 1D6-5' had one language
each, though PG 1-2 heads its tables 基本魔法/魔法陣魔法/禁呪 with a 持続時間 column
(永久, １日, １Ｒ, 特殊) and monsters.toml has each attack's English."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main


def listed(capsys: pytest.CaptureFixture[str], what: str) -> dict[str, str]:
    """Each row's first line, by key."""
    code = main(["genso", "list", what])
    text, err = capsys.readouterr()
    assert code == 0, err
    return {line.split()[0]: line for line in text.splitlines() if not line.startswith(" ")}


@pytest.mark.parametrize("key, group, duration", [
    ("healing", "基本魔法/basic", "永久/permanent"),
    ("barrier", "基本魔法/basic", "１日/day"),
    ("fire", "基本魔法/basic", "１Ｒ/round"),
    ("teleport", "魔法陣魔法/circle", "１Ｒ/round"),
])
def test_a_spell_says_its_group_and_duration_in_both(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], key: str, group: str,
        duration: str) -> None:
    row = listed(capsys, "spells")[key]
    assert f" {group} " in row and f" {duration} " in row, row


def test_a_forbidden_spell_says_禁呪(user_dirs: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    rows = listed(capsys, "spells")
    assert sum("禁呪/forbidden" in row for row in rows.values()) == 4


def test_a_monster_attack_is_written_in_both(user_dirs: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["genso", "list", "monsters"])
    text, err = capsys.readouterr()
    assert code == 0, err
    for attack in ("特殊/Special 1D6-5", "噛む/Bite 1D6-4", "棍棒/Club 1D6",
                   "戦鎚/Warhammer 2D6-2"):
        assert attack in text, attack
