"""r78genso2: a coc fight file given to the genso command line (`genso fight show/log/undo
--file`) is said to be coc's, with the commands that show and play it there, as coc's own
verbs say of a genso fight since ecfe2f65; it read "not a saved genso fight"."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.coc_table_helpers import fight_file


@pytest.mark.parametrize("verb", ["show", "log", "undo"])
def test_a_coc_fight_given_to_genso_is_said_to_be_coc(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str], verb: str) -> None:
    path = fight_file(tmp_path, "003")
    whole = path.read_bytes()
    assert main(["genso", "fight", verb, "--file", str(path)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"{path}: a coc fight, not a genso one: `" in err
    assert f"coc fight show --file {path}` shows it, `" in err
    assert f"play --mode coc --fight {path}` plays it at the table; give genso its own" in err
    assert "not a saved genso fight" not in err
    assert path.read_bytes() == whole
