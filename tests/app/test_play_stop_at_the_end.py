"""A stop at a game's end (its farewell, or a message before it), after the disk refused the
save, says how far the save holds, as a stop during the game does (env58 R2, f7bb367): it
said "the game is saved … carries on", read from the unfinished save on disk, and the moves
after it were lost. The refusal is a real read-only folder (to a child process without
root's override of file modes); the player at the screen is a stand-in display."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from companion.systems.jongrogue.actions import input_from_notation
from companion.systems.jongrogue.game import Game
from tests.disk import without_root_override

ROOT = Path(__file__).resolve().parents[2]

#: The run at the table: the player picks ``last`` whenever it is offered (its menu, then
#: its question), and once it is picked stops the companion (Ctrl-C, systemctl stop) at the
#: first screen that waits without it: the game's last choice was that, so the game is over.
AT_THE_TABLE = '''
import sys
from companion.app.cli import main
from companion.app.commands.play import session
from companion.hw.buttons import Pick

class Player:
    def __init__(self, last):
        self.last, self.picked, self.polls, self.views = last, False, 0, []
    def show(self, view):
        self.views.append(view)
        self.polls = 0
    def poll(self):
        self.polls += 1
        choices = [o.choice for o in self.views[-1].options] if self.views else []
        if self.picked and self.last not in choices:
            raise KeyboardInterrupt
        if self.polls < 2 or self.last not in choices:
            return []
        self.picked = True
        return [Pick(choices.index(self.last))]
    def close(self):
        pass

player = Player(sys.argv[1])
session.open_display = lambda *args: player
sys.exit(main(["play", "--resume", "--input", "sim", "--choices", "keyboard",
               "--display", "screen"]))
'''


def test_a_stop_after_the_end_with_the_save_refused_says_how_far_it_holds(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(data), "COMPANION_INPUT_POLL_SECONDS": "0.005",
           "PYTHONPATH": str(ROOT)}
    save = data / "save.json"
    subprocess.run([sys.executable, "-m", "companion", "play", "--headless", "--seed", "3",
                    "--state", str(save)], env=env, check=True, capture_output=True)
    whole = json.loads(save.read_text())
    played_to_the_end = whole["inputs"]
    # Resumed before the game's last choice: that choice and the tiles after it end it.
    last = max(i for i, notation in enumerate(played_to_the_end) if ":" in notation)
    inputs = played_to_the_end[:last]
    replayed = Game.replay([input_from_notation(i) for i in inputs], whole["preset"], None,
                           revision=whole["rules"])
    # Another game than the one the history took (review65h RISK 1: an unfinished save of
    # a game in the history is over, its last writes refused, and a new game is played).
    whole.update(inputs=inputs, finished=False, events=len(replayed.events),
                 game_id="played-at-the-table")
    save.write_text(json.dumps(whole))
    before = save.read_bytes()
    data.chmod(0o555)
    try:
        done = subprocess.run([*without_root_override(), sys.executable, "-c", AT_THE_TABLE,
                               played_to_the_end[last]],
                              env=env, capture_output=True, text=True, timeout=120)
    finally:
        data.chmod(0o755)
    assert done.returncode == 130, done.stderr
    assert "cannot save (" in done.stderr and "the game is saved" not in done.stderr
    moves, lost = len(inputs), len(played_to_the_end) - len(inputs)
    assert done.stderr.splitlines()[-1] == (
        f"companion: stopped; the save {save} holds the game for sure up to move {moves} "
        f"only: the {lost} moves after it may be lost (the save was refused or not synced, "
        "see above). Free space or fix the folder; companion play --resume --choices "
        f"keyboard --display screen carries on from move {moves}"), done.stderr
    assert save.read_bytes() == before
