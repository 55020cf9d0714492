"""The `genso fight new` the fight commands' hints name (no fight at the file, a damaged
file) runs as printed and starts the fight at that file (r77carry, as f77carry item 4 for
coc's): `genso fight new` bare was refused ("the following arguments are required:
--party"), and, typed with a party, started the data folder's fight, not the one at --file."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from companion.app.cli import main


def hinted(err: str) -> list[str]:
    """The command the refusal names, as the player would type it."""
    command = re.search(r"`companion (genso fight new [^`]*)`", err)
    assert command is not None, err
    return shlex.split(command.group(1))


def test_each_genso_fight_new_hint_starts_the_fight_at_its_file(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "the other fight.json"
    assert main(["genso", "fight", "show", "--file", str(other)]) == 2
    assert main(hinted(capsys.readouterr().err)) == 0, capsys.readouterr().err
    assert other.is_file()
    assert not (user_dirs / "data" / "genso" / "fight.json").exists()
    other.write_bytes(b"")  # cut to nothing (a power cut as it was written)
    capsys.readouterr()
    assert main(["genso", "fight", "show", "--file", str(other)]) == 2
    assert main(hinted(capsys.readouterr().err)) == 0, capsys.readouterr().err
    assert [p.name for p in tmp_path.glob("the other fight.json.corrupt-*")]
    capsys.readouterr()
    assert main(["genso", "fight", "show", "--file", str(other)]) == 0
