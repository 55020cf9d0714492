"""A command or a session's start waits out another command's short hold of a file, and is
still refused soon, in the same words, by a session that holds it (pi59 F3).

A `genso fight apply` holds fight.json while it writes its sheets, 2N+2 fsyncs: 0.4-0.9 s
on a Pi's SD card. A second command that waited 0.5 s in that window was refused "in use by
another companion" and had to be typed again. The holder here is a real second process
holding the file for :data:`HOLD_SECONDS`, longer than that old wait.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.fight_replaced import table_holder
from companion.file_locks import LOCK_WAIT_SECONDS, holding
from tests.companion_process import ROOT

#: A hold as long as a slow card's `fight apply` (and past the old 0.5 s wait).
HOLD_SECONDS = 1.0

#: A child that holds ``argv[1]`` as ``argv[2]`` for ``argv[3]`` seconds from saying "held"
#: ("" : until its standard input closes).
HOLDER = """
import sys, time
from pathlib import Path
from companion.file_locks import holding
with holding(Path(sys.argv[1]), sys.argv[2]):
    print("held", flush=True)
    if sys.argv[3]:
        time.sleep(float(sys.argv[3]))
    else:
        sys.stdin.read()
"""


def held(path: Path, holder: str, seconds: float | None) -> subprocess.Popen[str]:
    """A second process holding ``path`` as ``holder`` for ``seconds`` (None: until its
    standard input closes), once it has taken it up."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), holder, "" if seconds is None else str(seconds)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "held\n"
    return child


def let_go(child: subprocess.Popen[str]) -> None:
    assert child.stdin is not None
    child.stdin.close()
    assert child.wait(timeout=30) == 0


def sleep_while_held(fight: Path, holder: str, seconds: float | None) -> tuple[int, float, int]:
    """`companion genso fight sleep` while a second process holds ``fight`` (as
    :func:`held`): its exit status, how long it took, and the holder's pid."""
    child = held(fight, holder, seconds)
    start = time.monotonic()
    try:
        code = main(["genso", "fight", "sleep"])
        return code, time.monotonic() - start, child.pid
    finally:
        let_go(child)


def test_a_fight_command_waits_out_another_commands_hold(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The action is played once the apply's hold is over, not refused."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) == 0
    fight = user_dirs / "data" / "genso" / "fight.json"
    capsys.readouterr()
    code, waited, _ = sleep_while_held(fight, "companion genso fight apply", HOLD_SECONDS)
    err = capsys.readouterr().err
    assert code == 0, err
    assert "in use" not in err and "open in another" not in err
    assert waited >= HOLD_SECONDS * 0.9  # it did wait for the hold


def test_a_session_start_waits_out_another_commands_hold(user_dirs: Path) -> None:
    """`play --mode genso` starting up (holding's own wait) while a fight command saves."""
    fight = user_dirs / "data" / "genso" / "fight.json"
    fight.parent.mkdir(parents=True)
    fight.write_text("{}", encoding="utf-8")
    command = held(fight, "companion genso fight apply", HOLD_SECONDS)
    start = time.monotonic()
    try:
        with holding(fight, table_holder("genso")):
            waited = time.monotonic() - start
    finally:
        let_go(command)
    assert waited >= HOLD_SECONDS * 0.9  # taken up once the command let go


def test_a_table_holding_the_fight_is_still_refused_soon_and_said_so(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hold past the wait is a session's: refused after the wait, in today's words."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) == 0
    fight = user_dirs / "data" / "genso" / "fight.json"
    capsys.readouterr()
    code, waited, pid = sleep_while_held(fight, table_holder("genso"), None)
    assert code == 1
    assert capsys.readouterr().err == (
        f"companion: error: {fight} is open in another companion (pid {pid}, "
        f"{table_holder('genso')}), which alone writes it while it runs: do it there, or "
        "stop it first (reading it still works)\n")
    assert LOCK_WAIT_SECONDS <= waited < LOCK_WAIT_SECONDS + 2
