"""A stopped table's fight file written up to the table before a new table sets that save
aside (fight.py ``_catch_up``): a write whose folder's fsync failed after the rename is in
the file and told as such, and a file ahead of the table by an undo the disk refused to
write is written back to the table's fight.

The failures are the world's edge: ``os.replace`` refusing the fight file's writes
(tests/disk.py) and ``os.fsync`` of its folder raising EIO once the rename is done
(tests/app/test_fight_file_fsync.py).
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from companion.app.modes.genso import GensoFightMode, table_session
from companion.app.session.mode import ChoiceAsk, Show
from tests.app.fight_file_disk_helpers import EIO, TiredCard, cut_while_refused, on_file, saved
from tests.app.genso_table_helpers import CHOICES, RULES, SEED, fight_file
from tests.app.table import Player
from tests.disk import refuse_writes


class SurePlayer(Player):
    """The players at the table; a step the menu asks again first (its key with ``?``, then
    its yes, which has the step's key) is taken through the question."""

    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        keys = [option.choice for option in ask.options]
        if self.script and self.script[0] not in keys and f"{self.script[0]}?" in keys:
            return keys.index(f"{self.script[0]}?")
        return super().next_choice(ask, show)


def test_a_write_forward_whose_folder_fsync_failed_is_told_and_the_table_starts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stopped table's fight file was three actions behind; a new table wrote it
    forward, the rename went through, and only the folder's fsync after it failed. The
    start stopped saying the file "cannot be written (Input/output error); play it on with
    --resume", though it was written. The new table starts from the file written forward,
    telling the write may not be on the card."""
    first = cut_while_refused(tmp_path, monkeypatch, range(3, 99))
    path = (tmp_path / "fight.json").resolve()
    told: list[str] = []
    with monkeypatch.context() as disk:
        card = TiredCard(path, disk, {1})  # the write forward; the new table's own are synced
        session = table_session(RULES, path, tmp_path / "table.json", resume=False,
                                seed=SEED, choices=Player([]), tell=told.append)
    assert card.failed == 1 and card.writes == 2
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == on_file(tmp_path) == first.fight.to_json()
    doubt = [line for line in told if "may not be on the card 書込未確定" in line]
    assert doubt == [f"wrote the fight file {path}, but its folder could not be synced ({EIO}):"
                     " written, may not be on the card 書込未確定; a power cut may undo that "
                     f"write, and the table save kept aside from {tmp_path / 'table.json'} "
                     "holds every action"]
    assert not any("cannot be written" in line for line in told)
    assert "every action it finished is in that fight file" in told[-1]
    assert [p.name for p in tmp_path.glob("table.json.replaced-*")]


def test_a_new_table_takes_the_undo_the_disk_refused_out_of_the_fight_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two actions written to the fight file, then its folder went read-only and the GM
    undid the second at the table: the save took the undo, the file kept the action. A new
    table (no --resume) set the stopped one aside and took the file up with the undone
    action in it, since only a file behind the table was written up to it. The file, the
    table's own last write, ahead of it by the undo, is written as the table left it."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    with monkeypatch.context() as disk:
        # 1: the table's start, 2 and 3: the two actions, 4: the undo
        refuse_writes(path, disk, range(4, 99), errno.EROFS)
        session = table_session(RULES, path, tmp_path / "table.json", resume=False,
                                seed=SEED, choices=SurePlayer([*CHOICES[:6], "gm", "undo"]))
        with pytest.raises(KeyboardInterrupt):
            session.run()
    first = session.mode
    assert isinstance(first, GensoFightMode)
    assert len(first.fight.journal) == 1 and saved(tmp_path).inputs == first.journal
    assert len(on_file(tmp_path)["journal"]) == 2
    told: list[str] = []
    session = table_session(RULES, path, tmp_path / "table.json", resume=False, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == on_file(tmp_path) == first.fight.to_json()
    assert told[0] == (f"the last action the table at {tmp_path / 'table.json'} undid is now "
                       f"undone in {path} too")
    assert "every action it finished is in that fight file" in told[1]
