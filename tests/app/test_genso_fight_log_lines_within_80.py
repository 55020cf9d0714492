"""The engine's lines an action prints keep to 80 columns, as the round's lines and the
rows of `genso fight show` do (r77data RISK): a line wider goes on in lines below, under its
text past the rule column, broken between words. The Barrier's line (GM-MAGIC-5) names its
caster and everyone it holds with their English, and ran to 216 columns."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.dice.notation import display_width
from tests.app.genso_cli_out_helpers import out

RULE_COLUMN = " " * 13  # "GM-MAGIC-5   ": the rule ID in 12 columns and a space


def test_a_barrier_s_line_is_wrapped_under_its_text(capsys: pytest.CaptureFixture[str],
                                                    user_dirs: Path) -> None:
    out(capsys, "fight", "new", "--party", "forest_fairy", "pc1", "pc2", "--monsters",
        "undead_corpse", "wight")
    shown = out(capsys, "fight", "cast", "forest_fairy", "barrier", "pc1", "--seed", "1")
    said = shown[:shown.index("\n\nround 1")].splitlines()
    assert [line for line in said if display_width(line) > 80] == []
    # Each engine line is its rule's line and the lines under its text after it, which
    # read together are the line the engine said, word for word.
    starts = [n for n, line in enumerate(said) if not line.startswith(RULE_COLUMN)]
    assert [said[n][:13].strip() for n in starts] == ["GM-MAGIC-1", "GM-MAGIC-5", "GM-MAGIC-5"]
    barrier = said[starts[2]:]
    assert len(barrier) > 1 and all(line.startswith(RULE_COLUMN) for line in barrier[1:])
    joined = " ".join(line[13:] for line in barrier)
    assert joined.startswith("barrier 3 m across around 一般的な森妖精の冒険者 Typical forest "
                             "fairy (elf) adventurer holding 一般的な森妖精の冒険者 Typical "
                             "forest fairy (elf) adventurer, 駆け出し冒険者１ PC 1")
    assert joined.endswith("undead with Magic below 12 cannot enter")
