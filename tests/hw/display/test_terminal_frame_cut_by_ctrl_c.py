"""A Ctrl-C while the terminal display writes a frame (fixterm72, fixterm73): a pty takes a
write 2048 bytes at a time, the Ctrl-C cut the frame between two, Python dropped the rest,
and the stop line was glued to the cut line, in the frame's colour or eaten by a cut escape
sequence ("…no tray line: theycompanion: stopped; the game is saved in …")."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
STOP_LINE = b"companion: stopped; the game is saved in /tmp/game.json"

#: A frame of about 70 KB on a 200x500 terminal, in colour: the status in bold red, the lit
#: option reversed, Japanese labels. More than the pty holds (about 18 KB here), so its
#: write waits on the reader, and a Ctrl-C cuts it. Then the stop line, on stderr, as the
#: play command says it.
CHILD = f"""
import os, sys
from rich.console import Console
from companion.app.notes import note
from companion.hw.display.terminal import TerminalDisplay
from companion.hw.display.view import Option, View

view = View(floor=None, room=None, room_tiles=(), sheet=None,
            prompt="Choose 選んでください " * 3,
            options=tuple(Option(str(i), f"Option 選択肢その{{i}} 東南西北") for i in range(300)),
            highlight=3, log=tuple(f"log line {{i}} 記録の行 " * 6 for i in range(8)),
            status="210 bytes came from /dev/pts/0 but no tray line: they are "
                   "an RDM6300's frames, which need the rdm6300 kind 種類をrdm6300に " * 400)
display = TerminalDisplay(Console(width=200, height=500, force_terminal=True,
                                  color_system="256"))
os.write(int(os.environ["SHOWING_FD"]), b"showing")
try:
    display.show(view)
except KeyboardInterrupt:
    note({STOP_LINE[len(b"companion: "):].decode()!r})
    sys.exit(130)
note("the frame was whole")
"""


def child(stderr_piped: bool) -> subprocess.Popen[bytes]:
    """The child on a new pty, its stdout there and its stderr too, or in a pipe where
    ``stderr_piped``; its pty's master is kept as ``proc.master``."""
    master, slave = os.openpty()
    showing, showing_w = os.pipe()
    proc = subprocess.Popen([sys.executable, "-c", CHILD], stdin=slave, stdout=slave,
                            stderr=subprocess.PIPE if stderr_piped else slave, cwd=REPO,
                            pass_fds=(showing_w,),
                            env={**os.environ, "PYTHONPATH": str(REPO), "TERM": "xterm-256color",
                                 "SHOWING_FD": str(showing_w)})
    os.close(slave)
    os.close(showing_w)
    proc.master = master  # type: ignore[attr-defined]
    # Nothing is read before the child goes on to the frame.
    with os.fdopen(showing, "rb") as said:
        assert said.read(7) == b"showing"
    return proc


def read_all(master: int, proc: subprocess.Popen[bytes], seen: bytes, seconds: float) -> bytes:
    """What the pty shows after ``seen``, until the child ended and its output is read, or
    ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if select.select([master], [], [], 0.1)[0]:
            try:
                seen += os.read(master, 65536)
            except OSError:  # the pty closed: the child ended
                break
        elif proc.poll() is not None:
            break
    return seen


def test_the_stop_line_after_a_frame_cut_by_ctrl_c_stands_on_its_own_plain_line() -> None:
    """The frame's first chunk read, then Ctrl-C while the rest waits: the stop line starts
    a line, with no frame text before it on its line, no escape sequence left open, and
    no colour on."""
    proc = child(False)
    master: int = proc.master  # type: ignore[attr-defined]
    try:
        time.sleep(1)  # the frame made (0.1 s here), its write fills the pty and waits
        # One chunk read (the frame's write goes on as far as that makes room), then Ctrl-C.
        seen = os.read(master, 4096)
        proc.send_signal(signal.SIGINT)
        seen = read_all(master, proc, seen, 30)
        assert proc.wait(timeout=30) == 130, seen[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    shown = seen[seen.index(b"\x1b[2J"):]  # from the frame's start
    assert STOP_LINE in shown, shown[-500:]
    assert b"the frame was whole" not in shown  # it was cut short
    before = shown[:shown.index(STOP_LINE)]
    # Nothing of the frame on the stop line's line: only the codes that end the frame.
    line = re.sub(rb"\x1b\[[0-9;]*[A-Za-z]|[\r\x18]", b"", before.rsplit(b"\n", 1)[-1])
    assert line == b"", before[-200:]
    # No escape sequence left open: the last ESC begins a whole one, or a CAN ends it.
    last = before[before.rindex(b"\x1b"):]
    assert re.fullmatch(rb"\x1b\[[0-9;]*[A-Za-z][^\x1b]*", last) or b"\x18" in last, last
    # No colour or style on: the last SGR before the stop line resets them.
    assert re.findall(rb"\x1b\[([0-9;]*)m", before)[-1] in (b"0", b""), before[-200:]


def test_a_ctrl_c_stops_at_once_while_the_terminal_takes_no_output() -> None:
    """The terminal's reader stopped (the pty full) and the frame's write waits: one Ctrl-C
    still stops the run, the mend of the cut not waited on (fixterm72: SIGINT held until
    the frame was whole never stopped)."""
    proc = child(True)
    master: int = proc.master  # type: ignore[attr-defined]
    try:
        assert proc.stderr is not None
        time.sleep(1)  # the frame made, its write waits on the pty, which nobody reads
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        assert proc.wait(timeout=10) == 130
        assert time.monotonic() - start < 5
        assert proc.stderr.read() == STOP_LINE + b"\n"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
