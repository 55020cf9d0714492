"""A table whose fight file the disk refuses while its save is written (the fight file in a
read-only folder, the save in a writable one): told as the fight file's trouble.

The refusal is the world's edge: ``os.replace`` raising EROFS for the fight file only, as
the atomic write meets a read-only folder.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest

from companion.app.modes.genso import GensoFightMode, table_session
from tests.app.table import Player
from tests.app.test_genso_mode import CHOICES, RULES, SEED, fight_file
from tests.app.test_session import RecordingDisplay

READ_ONLY = os.strerror(errno.EROFS)
#: Four actions at the table (an attack, a healing spell, a full dodge, an attack), then the
#: power goes as the next is picked.
FOUR_ACTIONS = CHOICES[:10]


def read_only(path: Path, monkeypatch: pytest.MonkeyPatch, failing: range) -> None:
    """The folder of the file at ``path`` refuses that file's writes numbered ``failing`` (1
    is the first), as a folder mounted read-only does; every other file is written."""
    real, target = os.replace, path.resolve()
    writes = 0

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        nonlocal writes
        if Path(dst) == target:
            writes += 1
            if writes in failing:
                raise OSError(errno.EROFS, READ_ONLY)
        real(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", replace)


def on_file(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "fight.json").read_text(encoding="utf-8"))
    return data


def test_the_refused_fight_file_is_told_as_its_own_not_as_the_save(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The screen and stderr went back and forth between "cannot save …: the game is safe up
    to move N" and "saved again" at every action, though the save was written every time:
    the failing write was the fight file's. Its own trouble is told once, on every screen
    until a write of it works, and that write says the file is whole again."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    read_only(path, monkeypatch, range(2, 4))  # the first action's and the second's
    screen = RecordingDisplay()
    session = table_session(RULES, path, tmp_path / "table.json", resume=False, seed=SEED,
                            choices=Player(FOUR_ACTIONS), display=screen)
    with pytest.raises(KeyboardInterrupt):
        session.run()
    trouble = (f"cannot write the fight file {path} ({READ_ONLY}): the table's save holds "
               "every action, and the file is written again when it can be")
    again = f"written again: the fight file {path} is whole again"
    assert capsys.readouterr().err.splitlines() == [f"companion: {trouble}",
                                                    f"companion: {again}"]
    statuses = [view.status for view in screen.views]
    told = [n for n, status in enumerate(statuses) if status.startswith(trouble)]
    whole = statuses.index(again)
    assert told == list(range(told[0], whole)) and len(told) >= 2
    assert not any("save" in status for status in statuses[:told[0]] + statuses[whole:])
    assert isinstance(session.mode, GensoFightMode)
    assert on_file(tmp_path) == session.mode.fight.to_json()


