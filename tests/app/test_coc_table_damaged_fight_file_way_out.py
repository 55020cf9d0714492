"""a78cocfight RISK 4: a coc fight file that is cut short, empty or does not load, with no
table save to mend it from, is refused at the table with the command line's way out
(commands.coc.new_fight_forced through fight_file.cannot_play_on), in Japanese too and
typed on a computer; the table said the fault alone, and nothing what to do next. A missing
fight file is still told how to start one, with no --force."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.app.commands.coc import new_fight_forced
from companion.app.modes.coc import table_session
from companion.errors import DataError
from tests.app.coc_table_helpers import fight_file
from tests.app.table import Player


def _profile_005(whole: bytes) -> bytes:
    data = json.loads(whole)
    data["profile"] = "005"
    return json.dumps(data).encode()


def start(folder: Path) -> None:
    table_session(folder / "fight.json", folder / "table.json", resume=False, seed=1,
                  choices=Player([]))


@pytest.mark.parametrize(("damage", "fault"), [
    (lambda whole: whole[:2000], "not JSON (the fight file ends in the middle: cut short after "
                                 "2000 bytes)"),
    (lambda whole: b"", "not JSON (the fight file is empty)"),
    (_profile_005, "not a saved coc fight: profile must be"),
])
def test_a_damaged_fight_file_names_the_way_out_at_the_table(
        tmp_path: Path, user_dirs: Path, damage: Callable[[bytes], bytes], fault: str) -> None:
    path = fight_file(tmp_path, "004")
    assert path.stat().st_size > 2000
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(DataError) as refused:
        start(tmp_path)
    said = str(refused.value)
    assert said.startswith(f"{path}: {fault}")
    assert said.endswith(
        f"; it cannot be played on 続行できません: on a computer 端末で: `{new_fight_forced()} "
        f"--file {path.resolve()}` starts a new fight 新しい戦闘, keeping this file as "
        "fight.json.corrupt-…")


def test_a_missing_fight_file_is_told_how_to_start_one(tmp_path: Path, user_dirs: Path
                                                      ) -> None:
    with pytest.raises(DataError, match="戦闘がありません: start one on a computer") as refused:
        start(tmp_path)
    assert "--force" not in str(refused.value)
