"""`genso list monsters` says what harms a monster immune to normal attacks, and whether it is
undead (a77data DEFECT 1): the Ghost read 通常攻撃無効 as the Wight and Wraith did, though the
seed's ghost is 「実体を持たないので非魔法攻撃は無効」 and a magic weapon harms it (GM-MON-2),
and no line said 不死族, which 退魔呪, 防護呪 and 火炎呪 ask."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main


def listed(capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    code = main(["genso", "list", "monsters", *extra])
    text, err = capsys.readouterr()
    assert code == 0, err
    return text


def block(text: str, key: str) -> str:
    """A monster's lines, joined: its key's line and the indented lines under it."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(f"{key} "))
    rest = [line for line in lines[start + 1:]]
    end = next((n for n, line in enumerate(rest) if not line.startswith(" ")), len(rest))
    return " ".join(line.strip() for line in [lines[start], *rest[:end]])


def test_the_ghost_and_the_wight_are_harmed_by_different_weapons(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = listed(capsys)
    ghost, wight, wraith = (block(text, key) for key in ("ghost", "wight", "wraith"))
    assert "非魔法攻撃は無効/only magic or Exorcism-enchanted weapons harm it" in ghost
    for only_exorcism in (wight, wraith):
        assert "通常攻撃無効/only Exorcism-enchanted weapons harm it" in only_exorcism
        assert "非魔法攻撃" not in only_exorcism
    assert "無効" not in block(text, "orc")


def test_each_monster_says_its_kind(user_dirs: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    text = listed(capsys)
    for key, kind in (("ghost", "不死族/undead"), ("undead_corpse", "不死族/undead"),
                      ("orc", "生物/living"), ("slime", "生物/living")):
        assert kind in block(text, key), key


def test_the_json_row_says_magic_weapons_harm(user_dirs: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    rows = {r["key"]: r for r in json.loads(listed(capsys, "--json"))["monsters"]}
    assert rows["ghost"]["magic_weapons_harm"] is True
    assert rows["wight"]["magic_weapons_harm"] is False
