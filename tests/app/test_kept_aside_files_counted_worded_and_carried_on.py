"""reviewh68's NITs and RISK 3 on fixh68: a history set aside for a runs table lacking a
column says its games are in the kept file, counted (NIT 2); a byte that is not UTF-8 is
said in one wording, a kept list's as a fight file's (NIT 3); `coc fight show` under a file
where the coc folder should be names that folder, as genso's does; a newer companion's
tray.json kept aside says the command that puts it back (RISK 3: the tray reads tray.json
alone, and nothing took the kept copy up again)."""

from __future__ import annotations

import shlex
import sqlite3
import subprocess
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import History
from companion.app.modes import dice_tray
from companion.app.modes.dice_tray import newer_table_back, table_path
from companion.app.session.save import NewerSave
from companion.file_locks import SERVICE_ENV
from tests.app.dice_tray_table_file_helpers import part_thrown
from tests.app.dice_tray_table_helpers import ROLL_2, no_tray_held, tray
from tests.app.history_run_helpers import make_run
from tests.app.kept_aside_helpers import a_file_in_the_folder_s_place, blocked, kept_list

__all__ = ["no_tray_held"]  # its autouse fixture, for this file's runs too


# --- NIT 2 --------------------------------------------------------------------------------


@pytest.mark.parametrize(("runs", "said"), [
    (6, "none of its 6 games could be read (they are in {kept})"),
    (1, "its one game could not be read (it is in {kept})"),
    (0, "it held no games")])
def test_a_history_lacking_a_column_says_its_games_are_in_the_kept_file(
        tmp_path: Path, runs: int, said: str) -> None:
    path = tmp_path / "history.sqlite3"
    history = History(path)
    for n in range(max(runs, 1)):
        assert history.record(make_run(f"g{n}", True, 3, None))
    with sqlite3.connect(path) as conn:
        if not runs:
            conn.execute("DELETE FROM runs")
        conn.execute("ALTER TABLE runs DROP COLUMN gold")
    conn.close()
    again = History(path)
    assert again.runs() == []
    (kept,) = tmp_path.glob("history.sqlite3.corrupt-*")
    (notice,) = again.notices
    assert notice.endswith(f"kept as {kept.name}, starting a new one; "
                           + said.format(kept=kept.name)), notice
    with sqlite3.connect(kept) as conn:  # they are there indeed
        assert conn.execute("SELECT count(*) FROM runs").fetchone() == (runs,)
    conn.close()


# --- NIT 3 --------------------------------------------------------------------------------


def test_a_kept_list_s_bad_byte_is_said_as_a_fight_file_s(tmp_path: Path) -> None:
    path = tmp_path / "poisoned.toml"
    assert kept_list(path, b"\x93abc = 1") == [
        f"{path} is not a list of poisons (not UTF-8 text (byte 1 cannot be read))"]


# --- coc, a file where its folder should be ------------------------------------------------


@pytest.mark.parametrize("verb", ["show", "log"])
def test_coc_fight_show_under_a_file_names_the_folder(
        capsys: pytest.CaptureFixture[str], verb: str) -> None:
    folder = a_file_in_the_folder_s_place("coc")
    assert main(["coc", "fight", verb]) == 1
    assert capsys.readouterr() == ("", blocked(folder, "fight.json"))
    assert folder.read_text() == "x\n"


# --- RISK 3 -------------------------------------------------------------------------------


def test_a_newer_table_file_kept_aside_says_the_command_that_carries_it_on(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The command said, run once this companion is "updated" (it reads version 2), puts
    the table back, and the tray asks its next die."""
    newer = part_thrown().replace(b'"version": 1', b'"version": 2')
    table_path().write_bytes(newer)
    capsys.readouterr()
    tray([("Dice tray", "2")])
    (kept,) = table_path().parent.glob("tray.json.newer-*")
    err = capsys.readouterr().err
    update = NewerSave.UPDATE.removesuffix(" to carry it on")
    command = f"mv -i {shlex.quote(str(kept))} {shlex.quote(str(table_path()))}"
    assert err == (
        f"companion: {table_path()}: the dice tray's table part-thrown was written by a newer "
        f"companion (table version 2; this one reads 1); it was kept as {kept.name} "
        f"({update}; then, while no dice tray runs, `{command}` carries it on), and the tray "
        "starts at its menu\n")
    monkeypatch.setattr(dice_tray, "TABLE_FORMAT", 2)  # updated
    subprocess.run(shlex.split(command), check=True)
    assert table_path().read_bytes() == newer and not kept.exists()
    screen = tray([("Type the D6", "4")])
    assert screen.views[0].prompt.startswith("Type the D6") and ROLL_2 in screen.views[0].prompt
    assert capsys.readouterr().err == ""


def test_under_the_boot_service_the_command_stops_it_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewh68b RISK: the update restarts the boot service, and a tray it runs writes
    tray.json over at its next table, the table put back lost: the command stops it, puts
    the file back (asking before it replaces one), and starts it again."""
    monkeypatch.setenv(SERVICE_ENV, "jongrogue-companion")
    kept, path = tmp_path / "my dice" / "tray.json.newer-1", tmp_path / "my dice" / "tray.json"
    update = NewerSave.UPDATE.removesuffix(" to carry it on")
    assert newer_table_back(kept, path) == (
        f"{update}; then `sudo systemctl stop jongrogue-companion`, "
        f"`mv -i {shlex.quote(str(kept))} {shlex.quote(str(path))}` and "
        "`sudo systemctl start jongrogue-companion` carry it on")
