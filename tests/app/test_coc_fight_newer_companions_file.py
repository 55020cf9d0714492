"""A coc fight file a newer companion wrote (a later rules revision in its ``engine``, its
opening's or an entry's, or a later ``format``) is whole: every verb says to update this
companion and keeps the file where it is, and `fight new` calls it a newer companion's
fight. r77coc: since a77cocgrapple RISK 4 every verb offered `fight new … --force`, which
sets such a file aside as one that cannot be read, and the engine's refusal read "engine 26:
write a whole number from 1 to 25", an edit of the newer companion's fight."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.systems.coc.combat import ENGINE, FORMAT
from tests.app.coc_command_helpers import CHARACTERISTICS

UPDATE = "update this companion (git pull, then bash scripts/install-pi.sh) to carry it on"


def newer(data: dict[str, Any], where: str) -> None:
    if where == "format":
        data["format"] = FORMAT + 1
    elif where == "entry":
        data["journal"][0]["engine"] = ENGINE + 1
    else:
        data[where] = ENGINE + 1


@pytest.mark.parametrize(("where", "said"), [
    ("engine", f"fight file engine {ENGINE + 1} is not one this companion reads (1 to "
               f"{ENGINE})"),
    ("opening_engine", f"fight file opening_engine {ENGINE + 1} is not one this companion "
                       f"reads (1 to {ENGINE})"),
    ("entry", f"journal entry 1: fight file engine {ENGINE + 1} is not one this companion "
              f"reads (1 to {ENGINE})"),
    ("format", f"fight file format {FORMAT + 1} is not one this companion reads (1 to "
               f"{FORMAT})"),
])
def test_a_newer_companions_fight_says_update_and_is_kept(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str], where: str,
        said: str) -> None:
    sheets = []
    for name, dex in (("Ann", 14), ("Cult", 10)):
        path = tmp_path / f"{name.lower()}.toml"
        path.write_text(CHARACTERISTICS.format(name=name, dex=dex)
                        + 'fist = 50\n[[weapons]]\nkey = "fist"\n', encoding="utf-8")
        sheets.append(str(path))
    new = ["coc", "fight", "new", "--profile", "004", "--investigators", sheets[0],
           "--foes", sheets[1]]
    assert main(new) == 0
    assert main(["coc", "fight", "act", "end_turn", "Ann"]) == 0
    file = user_dirs / "data" / "coc" / "fight.json"
    data = json.loads(file.read_text(encoding="utf-8"))
    newer(data, where)
    text = json.dumps(data, ensure_ascii=False)
    file.write_text(text, encoding="utf-8")
    capsys.readouterr()
    for verb in ("show", "log", "undo"):
        assert main(["coc", "fight", verb]) == 2
        err = capsys.readouterr().err
        assert err == (f"companion: error: {file}: {said}; it is kept as it is: {UPDATE}\n"), err
    assert main(new) == 2
    err = capsys.readouterr().err
    assert err.endswith(f"{said}: a newer companion's fight, to be played on there; or pass "
                        "--force to start over here, keeping it as fight.json.corrupt-…\n"), err
    assert file.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in file.parent.iterdir()) == ["fight.json"]
