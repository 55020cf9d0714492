"""r77carry NIT on 9f0a6c9c: `genso fight end` on a fight already over names the apply that
writes its results (GM-COMBAT-1) as typed, the program's name and the fight's --file; it
said "`fight apply` writes its results", which run as it read applied the default fight."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_town_helpers import made


def test_the_apply_named_works_as_printed(
        user_dirs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    aki = made(user_dirs, capsys, "Aki")
    fight = tmp_path / "my fight.json"
    assert main(["genso", "fight", "new", "--party", "Aki", "--monsters", "orc",
                 "--file", str(fight)]) == 0
    assert main(["genso", "fight", "end", "--file", str(fight)]) == 0
    capsys.readouterr()
    assert main(["genso", "fight", "end", "--file", str(fight)]) == 2
    hint = re.search(r"\(`([^`]+)` writes its results\)", capsys.readouterr().err)
    assert hint is not None
    argv = shlex.split(hint.group(1))
    assert argv[argv.index("genso"):] == ["genso", "fight", "apply", "--file", str(fight)]
    assert main([*argv[argv.index("genso"):], "--json"]) == 0
    assert [sheet["path"] for sheet in json.loads(capsys.readouterr().out)["sheets"]] == \
        [str(aki)]  # this fight's sheets, applied
