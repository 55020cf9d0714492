"""``companion events --lists FILE``: a list file named on the command line is read
whatever the table, as ``--party``'s is; the saved ``events_lists.toml`` is read only by the
tables that can come to a list (events72 DEFECT 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.events import LISTS_NAME
from companion.app.paths import config_dir

BAD = "[[monster]]\nname='Goblin'\nlevel=0\n"
GOOD = "[[monster]]\nname='Goblin'\nlevel=1\n"


def test_a_missing_lists_file_is_an_error_on_a_table_that_uses_no_list(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewe72 NIT 6: `events poison --lists /nonexist.toml` ran without a word (rc 0)
    once the tables that use no list stopped reading the file; a path typed wrong is said,
    as it was before."""
    missing = tmp_path / "nonexist.toml"
    for argv in (["poison", "--seed", "1"], ["recovery", "--seed", "1"], ["end-block"]):
        assert main(["events", *argv, "--lists", str(missing)]) == 2
        err = capsys.readouterr().err
        assert f"cannot read the list file {missing}" in err, err


def test_a_named_lists_file_read_well_lets_any_table_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    given = tmp_path / "lists.toml"
    given.write_text(GOOD, encoding="utf-8")
    assert main(["events", "poison", "--seed", "1", "--lists", str(given)]) == 0, \
        capsys.readouterr().err


def test_the_saved_list_file_written_wrong_still_blocks_only_its_tables(
        capsys: pytest.CaptureFixture[str]) -> None:
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / LISTS_NAME).write_text(BAD, encoding="utf-8")
    assert main(["events", "poison", "--seed", "1"]) == 0, capsys.readouterr().err
    assert main(["events", "monster", "--seed", "1"]) == 2
