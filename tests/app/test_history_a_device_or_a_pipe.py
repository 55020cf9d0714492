"""A history path that is a pipe or a device (`history.sqlite3 -> /dev/null`, to switch the
history off) was said to be a disk fault, "the disk could not be read or written", sending a
player with a Pi to check the SD card (a78saves item 6)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.app.history import History, HistoryError


@pytest.mark.parametrize("kind", ["fifo", "devnull"])
def test_a_history_that_is_a_pipe_or_a_device_is_said_so(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "history.sqlite3"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(os.devnull)
    with pytest.raises(HistoryError) as refused:
        History(path).runs()
    assert str(refused.value) == f"{path}: not a history file (a device or a pipe): move it away"
