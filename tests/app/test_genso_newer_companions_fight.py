"""A genso fight file a newer companion wrote (a later ``version``) is whole: the table and
every `genso fight` verb say to update this companion and keep the file where it is, as
coc's do (f78carry: genso's said "fight file version 10 is not one this companion reads
(1 to 9)" alone, as a file that cannot be read, the table too)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import table_session
from companion.errors import DataError
from companion.systems.genso.combat.fight import FILE_VERSION
from tests.app.genso_table_helpers import RULES, SEED, fight_file, play
from tests.app.table import Player

UPDATE = "update this companion (git pull, then bash scripts/install-pi.sh) to carry it on"
NEWER = (f"fight file version {FILE_VERSION + 1} is not one this companion reads (1 to "
         f"{FILE_VERSION})")


def made_newer(path: Path) -> str:
    """The fight file at ``path`` as a newer companion writes it; its text."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["version"] = FILE_VERSION + 1
    text = json.dumps(data, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return text


@pytest.mark.parametrize("resume", [False, True])
def test_the_table_says_update_and_keeps_the_file(tmp_path: Path, resume: bool) -> None:
    path = fight_file(tmp_path)
    text = made_newer(path)
    with pytest.raises(DataError) as refused:
        table_session(RULES, path, tmp_path / "table.json", resume=resume, seed=SEED,
                      choices=Player([]))
    assert str(refused.value) == f"{path.resolve()}: {NEWER}; it is kept as it is: {UPDATE}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.json"]
    assert path.read_text(encoding="utf-8") == text


def test_an_unfinished_table_of_it_writes_nothing_over_it(tmp_path: Path) -> None:
    """This companion's unfinished table of the fight file a newer companion played on since:
    neither the file is written again from the table nor the table set aside."""
    fight_file(tmp_path)
    play(tmp_path, ["attack", "t:オーク1", "w:0", "wait"])
    path = tmp_path / "fight.json"
    text = made_newer(path)
    state = (tmp_path / "table.json").read_bytes()
    with pytest.raises(DataError) as refused:
        table_session(RULES, path, tmp_path / "table.json", resume=False, seed=SEED,
                      choices=Player([]))
    assert str(refused.value).endswith(f"{NEWER}; it is kept as it is: {UPDATE}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.json", "table.json"]
    assert path.read_text(encoding="utf-8") == text
    assert (tmp_path / "table.json").read_bytes() == state


def test_the_fight_command_says_update_and_new_calls_it_a_newer_companions(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    new = ["genso", "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2"]
    assert main(new) == 0
    file = user_dirs / "data" / "genso" / "fight.json"
    text = made_newer(file)
    capsys.readouterr()
    for verb in ("show", "log"):
        assert main(["genso", "fight", verb]) == 2
        err = capsys.readouterr().err
        assert err == f"companion: error: {file}: {NEWER}; it is kept as it is: {UPDATE}\n", err
    assert main(new) == 2
    err = capsys.readouterr().err
    assert err == (f"companion: error: {file}: {NEWER}: a newer companion's fight, to be "
                   "played on there; or pass --force to start over here, keeping it as "
                   "fight.json.corrupt-…\n"), err
    assert file.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in file.parent.iterdir()) == ["fight.json"]


@pytest.mark.parametrize("damaged", [False, True])
def test_new_force_over_it_says_the_fault_alone_beside_keeping_it_aside(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], damaged: bool) -> None:
    """`fight new --force` keeps a file it cannot read as ``.corrupt-…``, its note saying why
    by the fault alone (r78carry: a newer companion's read "it is kept as it is: update this
    companion" beside "it was kept as fight.json.corrupt-…", a damaged one's offered the
    --force just given)."""
    new = ["genso", "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2"]
    assert main(new) == 0
    file = user_dirs / "data" / "genso" / "fight.json"
    if damaged:
        text = '{"version'
        file.write_text(text, encoding="utf-8")
        fault = "not JSON (the fight file ends in the middle: cut short after 9 bytes)"
    else:
        text = made_newer(file)
        fault = NEWER
    capsys.readouterr()
    assert main([*new, "--force"]) == 0
    (kept,) = file.parent.glob("fight.json.corrupt-*")
    assert kept.read_text(encoding="utf-8") == text
    err = capsys.readouterr().err
    assert err == (f"companion: note: the file replaced could not be read ({file}: {fault}); "
                   f"it was kept as {kept.name}\n"), err
