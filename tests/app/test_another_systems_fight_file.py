"""r78coc RISK 3: a genso fight file given to coc (`play --mode coc --fight`, `coc fight
show --file`), or a coc fight file to `play --mode genso`, was refused as a fight that cannot
be played on, with `fight new … --force` as the way out: following it set a good fight of the
other system aside. It is said to be that system's fight, with the commands that show and
play it, and no --force."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_line
from companion.app.modes import coc, genso
from companion.app.modes.fight_file import write_fight_file
from companion.errors import DataError
from companion.systems.genso.rules import load_rules
from tests.app.coc_command_helpers import sheets
from tests.app.coc_table_helpers import fight_file
from tests.app.fight_file_question_helpers import genso_fight
from tests.app.table import Player


def said_of(path: Path, other: str, system: str, table: str = "") -> str:
    return (f"{path}: a {other} fight{table}, not a {system} one: "
            f"`{companion_line(other, 'fight', 'show', '--file', str(path))}` shows it, "
            f"`{companion_line('play', '--mode', other, '--fight', str(path))}` plays it at "
            f"the table; give {system} its own fight file")


def test_a_genso_fight_given_to_the_coc_table_is_said_to_be_genso(
        tmp_path: Path, user_dirs: Path) -> None:
    path = tmp_path / "fight.json"
    write_fight_file(path, genso_fight())
    whole = path.read_bytes()
    with pytest.raises(DataError) as refused:
        coc.table_session(path, tmp_path / "table.json", resume=False, seed=1,
                          choices=Player([]))
    assert str(refused.value) == said_of(path, "genso", "coc", " 別のシステムの戦闘")
    assert path.read_bytes() == whole
    assert [p.name for p in tmp_path.iterdir()] == ["fight.json"]


def test_a_coc_fight_given_to_the_genso_table_is_said_to_be_coc(
        tmp_path: Path, user_dirs: Path) -> None:
    path = fight_file(tmp_path, "003")
    with pytest.raises(DataError) as refused:
        genso.table_session(load_rules(), path, tmp_path / "table.json", resume=False,
                            seed=1, choices=Player([]))
    assert str(refused.value) == said_of(path, "coc", "genso", " 別のシステムの戦闘")


def test_coc_fight_show_of_a_genso_fight_is_said_to_be_genso(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fight.json"
    write_fight_file(path, genso_fight())
    assert main(["coc", "fight", "show", "--file", str(path)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert said_of(path, "genso", "coc") in err
    assert "--force" not in err


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_coc_fight_new_over_a_genso_fight_keeps_it_where_it_is(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str],
        force: list[str]) -> None:
    """r78coc2: `coc fight new --file <a genso fight>` offered `pass --force to start over,
    keeping it as fight.json.corrupt-…`, and with --force set the genso fight aside: it is
    refused, with or without --force, and the genso fight stays where it is."""
    ann, cult = sheets(tmp_path)
    path = tmp_path / "fight.json"
    write_fight_file(path, genso_fight())
    whole = path.read_bytes()
    assert main(["coc", "fight", "new", "--investigators", ann, "--foes", cult,
                 "--file", str(path), "--seed", "1", *force]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"{said_of(path, 'genso', 'coc')}; nothing was moved or written" in err
    assert "--force" not in err
    assert path.read_bytes() == whole
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["fight.json", Path(ann).name, Path(cult).name])
