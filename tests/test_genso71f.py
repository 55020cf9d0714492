"""fixgenso71e: `companion genso fight …` and a fighter the calendar records dead of a Death
Curse (呪殺呪, GM-MAGIC-13), after reviewg71c: `fight sunset`'s advice holds once `calendar
pass 1` records the death (RISK 1)."""

from __future__ import annotations

import pytest

from companion.app.command_name import companion_command
from tests.genso71_helpers import PC1, genso
from tests.test_genso71d import ACTS_NO_MORE, refused


def sunset_line(capsys: pytest.CaptureFixture[str]) -> str:
    """`fight sunset`'s GM-MAGIC-13 line."""
    return next(x for x in genso(capsys, "fight", "sunset").splitlines()
                if x.startswith("GM-MAGIC-13"))


def test_the_sunset_advice_flees_before_the_pass_and_waits_after_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg71c RISK 1: the line names `calendar pass 1` first, then advised a flee on the
    target's turn, which that pass shuts (the dead act no more). It says the flee is before
    the pass records the death (docs/playing.md's words), and that `fight wait` skips the
    dead's turn after it: both as said are what the command line then does."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "calendar", "pass", "366")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    line = sunset_line(capsys)
    command = f"{companion_command()} genso fight"
    assert f"before `genso calendar pass 1` records the death, takes them out on their " \
           f"turn with `{command} flee '{PC1}'`" in line, line
    assert line.endswith(f"once it is recorded they act no more, and `{command} wait "
                         f"'{PC1}'` skips their turn"), line
    assert "does not mark the death" not in line
    genso(capsys, "calendar", "pass", "1")
    assert ACTS_NO_MORE in refused(capsys, "flee", PC1, "--dice", "typed")
    assert f"{PC1} PC 1 waits" in genso(capsys, "fight", "wait", PC1)
