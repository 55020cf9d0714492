"""A stopped table's fight file written up to the table before a new table sets that save
aside (fight.py ``_catch_up``): a write whose folder's fsync failed after the rename is in
the file and told as such, and a file ahead of the table by an undo the disk refused to
write is written back to the table's fight.

The failures are the world's edge: ``os.replace`` refusing the fight file's writes
(tests/disk.py) and ``os.fsync`` of its folder raising EIO once the rename is done
(tests/app/test_fight_file_fsync.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.modes.genso import GensoFightMode, table_session
from tests.app.table import Player
from tests.app.test_fight_file_fsync import EIO, TiredCard
from tests.app.test_fight_file_refused import cut_while_refused, on_file
from tests.app.test_genso_mode import RULES, SEED


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
