"""`genso list spells` says which Default chose the Barrier's diameter and the Protection's
version, as `list monsters` says the Orc Warrior's (a77data RISK 2): the PG's 直径３ｍ
(l.1036) and the GM guide's 直径５ｍ (l.1618) were each shown as if the book had one."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main


def spell_block(capsys: pytest.CaptureFixture[str], key: str, *extra: str) -> str:
    code = main(["genso", "list", "spells", *extra])
    text, err = capsys.readouterr()
    assert code == 0, err
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(f"{key} "))
    end = next(n for n in range(start + 1, len(lines) + 1)
               if n == len(lines) or not lines[n].startswith(" "))
    return " ".join(" ".join(lines[start:end]).split())


def test_the_packaged_choice_is_marked_default(user_dirs: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    barrier = spell_block(capsys, "barrier")
    assert "直径３ｍ/diameter 3 m" in barrier
    assert "GM-MAGIC-5 diameter_m = 3 (default)" in barrier
    assert "GM-MAGIC-7 version = pg (default)" in spell_block(capsys, "protection")
    assert "GM-MAGIC" not in spell_block(capsys, "healing").replace("(GM-MAGIC-2)", "")


def test_a_set_choice_is_shown_without_the_mark(user_dirs: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    sets = ("--set", "GM-MAGIC-5.diameter_m=5", "--set", "GM-MAGIC-7.version=gm")
    barrier = spell_block(capsys, "barrier", *sets)
    assert "直径５ｍ/diameter 5 m" in barrier and "GM-MAGIC-5 diameter_m = 5" in barrier
    assert "(default)" not in barrier
    protection = spell_block(capsys, "protection", *sets)
    assert "GM-MAGIC-7 version = gm" in protection and "(default)" not in protection
