"""``--trap KIND`` goes with the trap table only: an action that never reads it (``rest``,
``poisoned``, ``defaults``) refused it, as a table other than trap does, not ran as if it
were not there (a77events NIT 6: ``rest --trap pit`` ticked the poisons, exit 0)."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.poisons import poisons_path


@pytest.mark.parametrize("action", ["rest", "end-block", "poisoned", "defaults", "door"])
def test_trap_is_refused_off_the_trap_table(
    action: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["events", action, "--trap", "pit"]) == 2
    captured = capsys.readouterr()
    assert f"--trap goes with the trap table, not {action}" in captured.err
    assert captured.out == ""
    assert not poisons_path().exists()  # nothing ticked nor written
