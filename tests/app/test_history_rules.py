"""The history keeps the rules revision that played each run, beside its seed (review 56
#3): revision 6 plays some seeds otherwise than revision 5, so a seed alone no longer
names its game. A history written before it kept the revision still opens."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import History, default_history_path
from companion.systems.jongrogue.game import RULES_REVISION
from tests.app.history_rules_helpers import old_history
from tests.app.history_run_helpers import _damage_a_table_page, make_run
from tests.disk import without_root_override


def table_row(out: str, game_id_seed: int) -> list[str]:
    """The cells of the table row of the run of seed ``game_id_seed``."""
    (row,) = [line for line in out.splitlines() if f"│ {game_id_seed} " in line]
    return [cell.strip() for cell in row.split("│")[1:-1]]


def test_a_finished_game_is_kept_with_its_rules_revision_beside_its_seed(
        capsys: pytest.CaptureFixture[str]) -> None:
    save = default_history_path().parent / "save.json"
    assert main(["play", "--headless", "--seed", "5", "--state", str(save)]) == 0
    capsys.readouterr()
    (run,) = History().runs()
    assert (run.seed, run.rules) == (5, RULES_REVISION)
    assert main(["history", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["runs"][0]["rules"] == RULES_REVISION
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"┃ seed +┃ rules +┃\n", out)
    assert table_row(out, 5)[-2:] == ["5", str(RULES_REVISION)]


def test_a_history_from_before_the_rules_column_opens_and_takes_new_games(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Its runs are listed, their revision unknown (not guessed: revisions 1 to 5 each
    played some), and a new game goes in beside them with its own."""
    path = default_history_path()
    old_history(path, 2)
    history = History()
    assert [(r.game_id, r.seed, r.rules) for r in history.runs()] == [
        ("old-0", 0, None), ("old-1", 1, None)]
    assert history.record(make_run("new", True, 26, None))
    assert [(r.game_id, r.rules) for r in History().runs()] == [
        ("old-0", None), ("old-1", None), ("new", RULES_REVISION)]
    assert history.notices == [] and not list(path.parent.glob("*.corrupt-*"))
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert table_row(out, 1)[-2:] == ["1", ""]
    assert table_row(out, 7)[-2:] == ["7", str(RULES_REVISION)]


def test_a_damaged_history_from_before_the_rules_column_keeps_the_runs_it_can_read(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = default_history_path()
    old_history(path, 300)
    _damage_a_table_page(path, 1)
    assert main(["history", "--json"]) == 0
    out, err = capsys.readouterr()
    runs = json.loads(out)["runs"]
    assert 0 < len(runs) < 300 and "was not a readable history" in err
    assert {r["rules"] for r in runs} == {None}
    assert runs[0] == {"game_id": "old-0", "finished_at": "2026-11-29T17:00:00+00:00",
                       "seed": 0, "preset": "plus", "won": False, "floor": 3, "level": 2,
                       "gold": 40, "cause": "frozen", "events": 99, "input_kind": "sim",
                       "rules": None}


def in_a_read_only_old_history(tmp_path: Path,
                               argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Python run with ``argv`` (as another user than root, whom no mode stops) beside a
    one-game history from before the rules column, the file and its folder read-only."""
    path = default_history_path()
    old_history(path, 1)
    path.chmod(0o444)
    path.parent.chmod(0o555)
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(path.parent)}
    try:
        return subprocess.run([*without_root_override(), sys.executable, *argv], env=env,
                              capture_output=True, text=True, timeout=60)
    finally:
        path.parent.chmod(0o755)
        path.chmod(0o644)


def test_a_read_only_history_from_before_the_rules_column_is_still_listed(
        tmp_path: Path) -> None:
    """The column cannot be added to it; it is listed as it is, as before."""
    done = in_a_read_only_old_history(tmp_path, ["-m", "companion", "history", "--json"])
    assert (done.returncode, done.stderr) == (0, "")
    assert [(r["game_id"], r["rules"]) for r in json.loads(done.stdout)["runs"]] == [
        ("old-0", None)]


def test_a_game_recorded_into_a_read_only_history_from_before_the_rules_column_says_so(
        tmp_path: Path) -> None:
    """The column cannot be added, and SQLite's "table runs has no column named rules" read
    as a damaged history (review 56b, finding 7): it is an older one that cannot be written;
    the games in it are listed still."""
    script = ("from companion.app.history import History, HistoryError\n"
              "from tests.app.history_run_helpers import make_run\n"
              "try:\n    History().record(make_run('new', True, 26, None))\n"
              "except HistoryError as exc:\n    print(exc)\n")
    done = in_a_read_only_old_history(tmp_path, ["-c", script])
    path = default_history_path()
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        f"{path}: a history from an older companion, which could not be updated to keep each "
        "game's rules revision: it cannot be written (a read-only folder or file); the games "
        "in it are unharmed\n")
    assert [r.game_id for r in History().runs()] == ["old-0"]
