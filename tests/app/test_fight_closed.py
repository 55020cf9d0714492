"""A genso fight over and closed at the table, then the boot service's ``play --resume``
(buttons-only audit F2): the closed fight's "fight is over" menu came back after every
Close. The table waits for the next fight instead, says how it is made, and takes it up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play import table_modes
from companion.app.commands.play.table_modes import wait_for_next_fight
from companion.app.modes.fight_file import FightClosed, file_sha, write_fight_file
from companion.app.session.controls import Controls
from companion.file_locks import holding, lock_path
from companion.hw.buttons import Button, Press
from companion.hw.display.view import View
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.sheet import preset
from tests.app.genso_table_helpers import PC1, PC2, RULES, SEED, genso_table_in_a_terminal
from tests.app.play_pty_helpers import Terminal

CLOSED = "The fight is over and closed"
OVER = "The fight is over 戦闘終了:"  # its menu, with Close


def test_a_closed_fight_waits_for_the_next_and_takes_it_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fight, first = genso_table_in_a_terminal(tmp_path, monkeypatch,
                                             ["--dice", "sim", "--seed", str(SEED)])
    first.answer(f"{PC1} PC 1: what now", 1, b"a")
    first.answer("Attack whom", 1, b"a")
    first.answer("With which weapon", 1, b"a")
    first.answer(f"{PC2} PC 2: what now", 1, b"8")  # her Spell makes GM the 8th
    first.answer("GM: which step", 1, b"2")  # the GM ends the fight
    first.answer("End the fight", 1, b"2", 0.5)  # asked first, read: Yes is the 2nd
    first.answer(OVER, 1, b"a")  # Close
    assert first.finish() == 0
    closed = fight.read_bytes()

    again = Terminal(["--mode", "genso", "--fight", str(fight), "--dice", "sim", "--resume",
                      "--display", "terminal", "--choices", "keyboard"], first.env)
    again.answer(CLOSED, 1, b"")  # nothing to play: no "fight is over" menu again
    assert "companion genso fight new" in again.text() and fight.read_bytes() == closed
    assert OVER not in again.text()
    # The GM makes the next fight on a computer, which the waiting table's hold of the
    # fight file does not refuse: the table takes it up.
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc:1",
                 "--file", str(fight), "--force"]) == 0
    again.answer(f"{PC1} PC: what now", 1, b"7")  # GM (one PC, no spell: the 7th)
    again.answer("GM: which step", 1, b"2")
    again.answer("End the fight", 1, b"2", 0.5)  # asked first, read: Yes is the 2nd
    again.answer(OVER, 1, b"a")  # the next fight's own end, closed in its turn
    assert again.finish() == 0


def test_quit_leaves_the_closed_table_waiting(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    fight, first = genso_table_in_a_terminal(tmp_path, monkeypatch, ["--dice", "sim"])
    first.answer(f"{PC1} PC 1: what now", 1, b"7")  # GM
    first.answer("GM: which step", 1, b"2")
    first.answer("End the fight", 1, b"2", 0.5)  # asked first, read: Yes is the 2nd
    first.answer(OVER, 1, b"a")
    assert first.finish() == 0
    again = Terminal(["--mode", "genso", "--fight", str(fight), "--dice", "sim", "--resume",
                      "--display", "terminal", "--choices", "keyboard"], first.env)
    again.answer(CLOSED, 1, b"b")
    assert again.finish() == 0


#: A child that holds ``argv[1]`` as the GM's ``fight new`` does, and moves the next fight
#: (``argv[2]``) in, until its standard input closes: a slow card syncing its folder.
NEW_FIGHT_SYNCING = """
import os, sys
from pathlib import Path
from companion.file_locks import holding
with holding(Path(sys.argv[1]), "companion genso fight new"):
    os.replace(sys.argv[2], sys.argv[1])
    print("written", flush=True)
    sys.stdin.read()
"""


class WaitingTable:
    """The closed table's screen and its player: each sleep of the wait runs the world's
    next step (the GM's commands); the steps run out, the player presses Quit."""

    def __init__(self, steps: list[Callable[[], object]]) -> None:
        self.steps = steps
        self.views: list[View] = []
        self.quits = False

    def show(self, view: View) -> None:
        self.views.append(view)

    def poll(self) -> list[Press]:
        return [Button.FLEE] if self.quits else []

    def close(self) -> None:
        return None

    def sleep(self, seconds: float) -> None:
        if self.steps:
            self.steps.pop(0)()
        else:
            self.quits = True

    def wait(self, fight: Path) -> bool:
        """The table of the fight closed at ``fight`` waiting for the next, as the table
        does (holding the fight file, which it lets go of meanwhile)."""
        with holding(fight, "the genso table, companion play --mode genso"):
            next_made = wait_for_next_fight(FightClosed(fight, file_sha(fight)), "genso",
                                            self, Controls([self]), 0.0, None,
                                            sleep=self.sleep)
            # Held again by the table once it takes the next fight up; else by nobody.
            lock = lock_path(fight)
            assert (lock.read_text(encoding="utf-8").splitlines() if lock.exists() else []) \
                == ([str(os.getpid()), "the genso table, companion play --mode genso"]
                    if next_made else [])
            return next_made


@pytest.fixture
def looking_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The waiting table looks at the fight file at every poll, not every second."""
    monkeypatch.setattr(table_modes, "NEXT_FIGHT_SECONDS", 0.0)


def closed_fight_of_a_sheet(data: Path, tmp_path: Path) -> Path:
    """A fight over and closed at the table, in which a sheet's PC lost HP: its file."""
    sheet = tmp_path / "pc1.toml"
    for argv in (["sheet", "pc1", "--save-as", str(sheet)],
                 ["fight", "new", "--party", str(sheet), "--monsters", "orc"],
                 ["fight", "wait", "駆け出し冒険者１"],
                 ["fight", "attack", "オーク", "駆け出し冒険者１", "--seed", "2"],
                 ["fight", "end"]):
        assert main(["genso", *argv]) == 0
    return data / "genso" / "fight.json"


def test_the_apply_of_the_closed_fight_is_no_next_fight(
        user_dirs: Path, tmp_path: Path, looking_at_once: None) -> None:
    """F3 (concurrency audit 58): `fight apply`, the step the screen before advised, records
    the sheets it wrote in the fight file: the waiting table took that for the next fight,
    showed the closed one over again and held the file, refusing the GM's `fight new`. It
    waits on, holding nothing, and the next fight is made."""
    fight = closed_fight_of_a_sheet(user_dirs / "data", tmp_path)
    table = WaitingTable([lambda: main(["genso", "fight", "apply"])])
    assert not table.wait(fight)
    assert "applied" in json.loads(fight.read_text(encoding="utf-8"))
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc",
                 "--force"]) == 0


def test_the_next_fight_is_taken_up_once_its_writer_lets_go(
        user_dirs: Path, tmp_path: Path, looking_at_once: None) -> None:
    """F4: the table saw the GM's `fight new` rename the next fight in, took its hold back
    while the command still held the file (syncing a slow card), and gave up after half a
    second: "in use", the table gone. It waits for the writer, then takes the fight up."""
    fight = closed_fight_of_a_sheet(user_dirs / "data", tmp_path)
    following = tmp_path / "next.json"
    write_fight_file(following, Fight(RULES, entrants_for(RULES, [preset(RULES, "pc2")],
                                                          [("orc", 2)])))
    made = following.read_bytes()
    writer: list[subprocess.Popen[str]] = []

    def new_fight_written() -> None:
        writer.append(subprocess.Popen([sys.executable, "-c", NEW_FIGHT_SYNCING, str(fight),
                                        str(following)], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True))
        assert writer[0].stdout is not None and writer[0].stdout.readline() == "written\n"

    def synced() -> None:
        assert writer[0].stdin is not None
        writer[0].stdin.close()
        assert writer[0].wait(timeout=30) == 0

    table = WaitingTable([new_fight_written, lambda: None, synced])
    try:
        assert table.wait(fight)
    finally:
        if writer and writer[0].poll() is None:
            writer[0].kill()
    assert fight.read_bytes() == made and table.steps == []


def test_a_restart_after_the_apply_of_the_closed_fight_waits_for_the_next(
        user_dirs: Path, tmp_path: Path) -> None:
    """F3 after a restart (concurrency audit 58): the fight closed at the table, the GM's
    `fight apply` records the sheets it wrote in the fight file; the boot service's next
    `play --resume` took that for another fight, showed the closed one over again and held
    the file, refusing the GM's `fight new`. It waits for the next fight, holding nothing."""
    fight = closed_fight_of_a_sheet(user_dirs / "data", tmp_path)
    env = {**os.environ, "COLUMNS": "200"}
    table = ["--mode", "genso", "--fight", str(fight), "--dice", "sim", "--display",
             "terminal", "--choices", "keyboard"]
    first = Terminal(table, env)
    first.answer(OVER, 1, b"a")  # Close
    assert first.finish() == 0
    assert main(["genso", "fight", "apply"]) == 0
    applied = fight.read_bytes()
    assert "applied" in json.loads(applied)
    again = Terminal([*table, "--resume"], env)
    again.answer(CLOSED, 1, b"")
    assert OVER not in again.text() and fight.read_bytes() == applied
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc", "--force"]) \
        == 0
    again.answer(f"{PC1} PC: what now", 1, b"7")  # the next fight, taken up: GM
    again.answer("GM: which step", 1, b"2")
    again.answer("End the fight", 1, b"2", 0.5)  # asked first, read: Yes is the 2nd
    again.answer(OVER, 1, b"a")
    assert again.finish() == 0
