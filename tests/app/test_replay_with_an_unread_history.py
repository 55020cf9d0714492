"""`replay` of a stopped game when the history cannot be read read-only (reviewjourney75b
RISK 2): a crash left a ``-journal`` beside it that a read-only look cannot roll back.
"Not in the history" was taken, and the resume it named for a game played out since
started a second game in that game's log. Now no resume is named, and it says why."""

from __future__ import annotations

import functools
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import History
from companion.app.session.host import Session
from tests.app.power_cuts import cut_after_saves

# A writer killed in the middle of a transaction on the history: its -journal is left hot.
_KILLED_WRITER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA cache_size=1"); conn.execute("BEGIN IMMEDIATE")
conn.execute("CREATE TABLE pad(x)")
for _ in range(2000): conn.execute("INSERT INTO pad VALUES (?)", ("y" * 500,))
print("ready", flush=True); time.sleep(60)
"""


def hot_journal(history: Path) -> None:
    """``history`` left as a power cut leaves it while a game was recorded: a -journal."""
    writer = subprocess.Popen([sys.executable, "-c", _KILLED_WRITER, str(history)],
                              stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    assert Path(f"{history}-journal").stat().st_size > 0


def test_a_behind_save_of_a_game_over_gets_no_resume_when_the_history_cannot_be_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    state, log, copy = tmp_path / "s.json", tmp_path / "a.jsonl", tmp_path / "s.bak.json"
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(20))
        assert main(["play", "--headless", "--seed", "8", "--state", str(state), "--log",
                     str(log)]) == 130
    shutil.copy(state, copy)
    cut = tmp_path / "cut.jsonl"
    shutil.copy(log, cut)  # the log as the stop left it
    assert main(["play", "--headless", "--resume", "--state", str(state), "--log",
                 str(log)]) == 0  # played out: in the history
    capsys.readouterr()
    hot_journal(History().path)
    main(["replay", str(copy)])
    said = capsys.readouterr()
    assert "plays it on" not in said.out + said.err
    assert "the history could not be read" in said.out + said.err, said
    assert "its -journal is left beside it" in said.err, said  # not "cannot be written"
    # Replay again never rolls it back: only a writer does (reviewjourney75c NIT 2).
    assert "`companion history` (or the next `companion play`) rolls it back" in said.err, said
    assert "try again" not in said.out + said.err, said
    main(["replay", str(cut)])
    said = capsys.readouterr()
    assert "carries it on" not in said.out + said.err
    assert "the history could not be read" in said.out + said.err, said
    assert Path(f"{History().path}-journal").exists()  # replay only reads: left for play


def test_a_busy_history_is_tried_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Another companion writing the history passes: "try again" is said of it, and of it
    only (reviewjourney75c NIT 2)."""
    state, log = tmp_path / "s.json", tmp_path / "a.jsonl"
    assert main(["play", "--headless", "--seed", "3", "--state", str(tmp_path / "z.json"),
                 "--log", str(tmp_path / "z.jsonl")]) == 0  # played out: a history exists
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(20))
        assert main(["play", "--headless", "--seed", "8", "--state", str(state), "--log",
                     str(log)]) == 130
    capsys.readouterr()
    writer = sqlite3.connect(History().path, isolation_level=None)
    try:
        writer.execute("BEGIN EXCLUSIVE")  # another companion writing it
        monkeypatch.setattr(sqlite3, "connect", functools.partial(sqlite3.connect, timeout=0))
        main(["replay", str(state)])
    finally:
        writer.close()
    said = capsys.readouterr()
    assert "plays it on" not in said.out + said.err
    assert "another companion is writing it; try again" in said.err, said
    assert "try again, or `companion history` reads it, then replay again" in said.err, said
