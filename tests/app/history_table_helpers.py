"""A history of two runs printed on a terminal of a given width, for the history tests."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.history import History, Run

RUNS = (
    Run("g1", "2026-12-05T17:24:02+00:00", 3, "plus", False, 21, 11, 7400,
        "ジャバウォック (jabberwock)", 300, "sim"),
    Run("g2", "2026-12-05T18:18:47+00:00", 2147483647, "ez", True, 26, 15, 99999, None, 300,
        "camera"),
)


def table_at(columns: int, monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> str:
    history = History()
    for run in RUNS:
        history.record(run)
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert all(len(line) <= columns for line in out.splitlines()), out
    return out
