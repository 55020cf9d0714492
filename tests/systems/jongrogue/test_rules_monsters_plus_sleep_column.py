"""mutation13: a gap in the tests of `companion rules monsters` (reference.py) that a
hand-made mutant survived: a monster whose EZ and Plus sleep columns differ shows each
table's own, not the EZ one twice (JR-MON-1)."""

from __future__ import annotations

import pytest

from companion.app.cli import main


def test_rules_monsters_shows_the_plus_column_where_it_differs_from_the_ez_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "monsters"]) == 0
    snake = next(line for line in capsys.readouterr().out.splitlines()
                 if line.startswith("S "))
    assert snake.endswith("EZ asleep (睡眠), Plus asleep or awake (眠/起)")
