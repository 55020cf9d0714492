"""``--file`` naming a folder or a pipe (a78gensofight item 1): ``fight new --force`` kept
*whatever* was at the path as ``.corrupt-…``, so the folder a player keeps fights in was
renamed with all in it and the fight written as a file of its name; a named pipe was read
with ``read_bytes()`` and the command waited for a writer for ever, saying nothing. Both
systems' fight commands share the refusal (fight_replaced, overrides.read_text,
fight_unchanged.loaded).

The world's edges: a real folder and a real FIFO (``os.mkfifo``), read by the command run
as the player runs it, a child with a timeout.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.app.fight_new_helpers import NEW

ROOT = Path(__file__).resolve().parents[2]


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    """``companion *argv`` in the test's own folders (user_dirs set them in the
    environment)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "companion", *argv], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("system", sorted(NEW))
@pytest.mark.parametrize("force", [[], ["--force"]])
def test_fight_new_over_a_folder_moves_nothing_and_names_it(
        system: str, force: list[str], user_dirs: Path) -> None:
    """The folder stays where it was with all in it, no fight is written in its place, and
    the refusal names it and a file in it to give instead (not "pass --force")."""
    folder = user_dirs / "kept" / "fights"
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("keep\n", encoding="utf-8")
    done = _run(*NEW[system][0], *force, "--file", str(folder))
    assert done.returncode != 0
    assert done.stderr == (f"companion: error: --file {folder} is a folder: give a file in "
                           f"it, e.g. {folder / 'fight.json'}; nothing was moved or "
                           "written\n")
    assert folder.is_dir() and (folder / "notes.txt").read_text(encoding="utf-8") == "keep\n"
    assert sorted(p.name for p in folder.parent.iterdir()) == ["fights"]


@pytest.mark.parametrize("verb", [["show"], ["log"], ["new", "--force"]])
@pytest.mark.parametrize("system", sorted(NEW))
def test_fight_file_a_pipe_is_refused_at_once(system: str, verb: list[str],
                                              user_dirs: Path) -> None:
    """A FIFO with no writer is refused at once, named as what it is; it is left there."""
    (user_dirs / "kept").mkdir()
    pipe = user_dirs / "kept" / "p"
    os.mkfifo(pipe)
    argv = NEW[system][0][:2] + verb[:1] + NEW[system][0][3:] if verb[0] == "new" else [
        system, "fight", *verb]
    done = _run(*argv, *verb[1:], "--file", str(pipe))
    assert done.returncode != 0
    if verb[0] == "new":
        said = (f"--file {pipe} is a device or a pipe, not a fight file: give a file name; "
                "nothing was moved or written")
    else:
        said = f"{pipe}: a device or a pipe, not a fight"
    assert done.stderr == f"companion: error: {said}\n"
    assert sorted(p.name for p in pipe.parent.iterdir()) == ["p"]


def test_fight_show_of_a_folder_names_it(user_dirs: Path) -> None:
    """``fight show --file DIR``: "a folder, not a fight", not the system's "Is a
    directory"."""
    done = _run("genso", "fight", "show", "--file", str(user_dirs))
    assert done.stderr == f"companion: error: {user_dirs}: a folder, not a fight\n"
