"""A genso table's fight file meeting a refusing or tired disk, for the fight file tests: the
four actions played before the power goes, the save and the fight file as on disk, a table cut
while the disk refuses the fight file, a player after whose first action something happens to
the file, and an SD card whose folder fsync fails (EIO) after a rename."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from companion.app.modes.fight_save import FightSave
from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import ChoiceAsk, Show
from tests.app.genso_table_helpers import CHOICES, fight_file, play
from tests.app.table import Player
from tests.disk import refuse_writes

#: Four actions at the table (an attack, a healing spell, a full dodge, an attack), then the
#: power goes as the next is picked.
FOUR_ACTIONS = CHOICES[:10]


def saved(folder: Path) -> FightSave:
    return FightSave.from_json((folder / "table.json").read_text(encoding="utf-8"))


def on_file(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "fight.json").read_text(encoding="utf-8"))
    return data


def cut_while_refused(folder: Path, monkeypatch: pytest.MonkeyPatch,
                      failing: range) -> GensoFightMode:
    """Four actions with the fight file's writes ``failing`` refused, then a power cut; the
    folder is writable again afterwards."""
    fight_file(folder)
    with monkeypatch.context() as disk:
        refuse_writes(folder / "fight.json", disk, failing, errno.EROFS)
        first = play(folder, FOUR_ACTIONS)
    assert len(first.fight.journal) == 4
    assert saved(folder).inputs == first.journal  # the save took every action
    return first


class AfterTheFirstAction(Player):
    """The players at the table; once the first action is done, as the second is about to
    be picked, something happens to the fight file (``happen``) through ``disk``."""

    def __init__(self, script: list[str], path: Path, disk: pytest.MonkeyPatch) -> None:
        super().__init__(script)
        self.path, self.disk, self.asked = path, disk, 0

    def happen(self) -> None:
        raise NotImplementedError

    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        self.asked += 1
        if self.asked == 4:
            self.happen()
        return super().next_choice(ask, show)


EIO = os.strerror(errno.EIO)


class TiredCard:
    """The SD card under the fight file's folder: after the fight file's writes numbered
    ``failing`` (1 is the table's first, as it starts) have been renamed into place, the
    folder's fsync fails with EIO, once each. The power goes (KeyboardInterrupt) as the
    write numbered ``cut`` is about to be renamed into place, when there is one."""

    def __init__(self, path: Path, monkeypatch: pytest.MonkeyPatch, failing: set[int],
                 cut: int = 0) -> None:
        real_replace, real_fsync, target = os.replace, os.fsync, path.resolve()
        self.writes, self.failed, armed = 0, 0, [False]

        def replace(src: Any, dst: Any, **kwargs: Any) -> None:
            fight = Path(dst).resolve() == target
            if fight and self.writes + 1 == cut:
                raise KeyboardInterrupt
            real_replace(src, dst, **kwargs)
            if fight:
                self.writes += 1
                armed[0] = self.writes in failing

        def fsync(fd: int) -> None:
            if armed[0] and stat.S_ISDIR(os.fstat(fd).st_mode):
                armed[0] = False
                self.failed += 1
                raise OSError(errno.EIO, EIO)
            real_fsync(fd)

        monkeypatch.setattr(os, "replace", replace)
        monkeypatch.setattr(os, "fsync", fsync)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
