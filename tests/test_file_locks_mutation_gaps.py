"""The locks on the files the companion changes, where mutation round 12 found no test
looking. Each test names what a player would see were it broken."""

from __future__ import annotations

import os
from pathlib import Path

from companion.file_locks import holder_of, holding, lock_path


def test_a_hold_taken_again_in_one_process_lasts_until_the_outer_one_ends(
        tmp_path: Path) -> None:
    """A session re-opened in one process holds its save again (shared). Its inner hold
    ending must not let go of the file: a second companion could then take up the save the
    outer session still writes, and each would write over the other's turns."""
    save = tmp_path / "save.json"
    save.write_text("{}", encoding="utf-8")
    with holding(save, "companion play"):
        with holding(save, "companion play"):
            pass
        assert lock_path(save).exists()
        holder = holder_of(save)
        assert holder is not None and holder.pid == str(os.getpid())
    assert holder_of(save) is None and not lock_path(save).exists()
