"""fixgenso71e: `companion genso fight …` and a fighter the calendar records dead of a Death
Curse (呪殺呪, GM-MAGIC-13), after reviewg71c: `fight sunset`'s advice holds once `calendar
pass 1` records the death (RISK 1)."""

from __future__ import annotations

import pytest

from companion.app.command_name import companion_command
from tests.genso71_helpers import PC1, genso, pc1_dies
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


def test_off_its_turn_the_dead_s_refusal_names_no_wait(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg71c NIT 1: on pc2's turn, the dead pc1's attack was refused pointing to `fight
    wait pc1`, which the engine then refused (not pc1's turn). Off its turn the refusal
    names the GM's steps alone; on its turn it names the Wait, which is played."""
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    genso(capsys, "fight", "attack", "pc1", "orc", "--seed", "1")  # pc2's turn now
    pc1_dies(capsys)
    err = refused(capsys, "attack", "pc1", "orc", "--dice", "typed")
    assert err.rstrip().endswith(f"{ACTS_NO_MORE}: the GM's `fight end`, `undo`, `sunrise`, "
                                 "`sunset` and `sleep` go on"), err
    assert "fight wait" not in err
    genso(capsys, "fight", "wait", "pc2")
    genso(capsys, "fight", "attack", "orc", "pc2", "--seed", "1")  # pc1's turn again
    err = refused(capsys, "attack", "pc1", "orc", "--dice", "typed")
    assert f"{ACTS_NO_MORE}: `{companion_command()} genso fight wait {PC1}` skips its turn" \
           in err, err
    assert f"{PC1} PC 1 waits" in genso(capsys, "fight", "wait", "pc1")
