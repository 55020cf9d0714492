"""f78genso2 item 4: a genso fight file that is cut short, empty or does not load, with no
table save to mend it from, is refused at the table with the command line's way out
(modes.genso.table.new_fight_forced through fight_file.cannot_play_on), in Japanese too and
typed on a computer, as coc's table since 15a3a761; the genso table said the fault alone. A
missing fight file is still told how to start one, with no --force."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso.table import new_fight_forced
from companion.errors import DataError
from tests.app.genso_table_helpers import fight_file, play


def _not_genso(whole: bytes) -> bytes:
    data = json.loads(whole)
    data["journal"] = "not a journal"
    return json.dumps(data).encode()


@pytest.mark.parametrize(("damage", "fault"), [
    (lambda whole: whole[:200], "not JSON (the fight file ends in the middle: cut short after "
                                "200 bytes)"),
    (lambda whole: b"", "not JSON (the fight file is empty)"),
    (_not_genso, ""),
])
def test_a_damaged_fight_file_names_the_way_out_at_the_table(
        tmp_path: Path, user_dirs: Path, damage: Callable[[bytes], bytes], fault: str) -> None:
    path = fight_file(tmp_path)
    assert path.stat().st_size > 200
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(DataError) as refused:
        play(tmp_path, [])
    said = str(refused.value)
    assert said.startswith(f"{path}: {fault}")
    assert said.endswith(
        f"; it cannot be played on 続行できません: on a computer 端末で: `{new_fight_forced()} "
        f"--file {path.resolve()}` starts a new fight 新しい戦闘, keeping this file as "
        "fight.json.corrupt-…")


def test_the_command_line_says_the_same_way_out(tmp_path: Path, user_dirs: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = fight_file(tmp_path)
    path.write_bytes(b"")
    assert main(["genso", "fight", "show", "--file", str(path)]) != 0
    assert (f"{path}: not JSON (the fight file is empty); it cannot be played on: "
            f"`{new_fight_forced()} --file {path}` starts a new fight, keeping this file as "
            "fight.json.corrupt-…") in capsys.readouterr().err


def test_a_missing_fight_file_is_told_how_to_start_one(tmp_path: Path, user_dirs: Path
                                                      ) -> None:
    with pytest.raises(DataError, match="戦闘がありません: start one on a computer") as refused:
        play(tmp_path, [])
    assert "--force" not in str(refused.value)
