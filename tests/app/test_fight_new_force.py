"""``coc|genso fight new --force`` over a fight saved there: the fight is kept aside only when
the new one can take its place. A table playing the file (``play --mode genso|coc``, which
holds it) refuses the command before anything moves, and a disk that refuses the new fight
gets the old one back, so the table is never left with no fight.

The world's edges: the table is a second process holding the file as the table does, and
the full disk is ``os.replace`` refusing the write (tests/disk.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.modes.fight_replaced import replace_fight
from companion.file_locks import FileInUse, Holder
from tests.app.fight_new_helpers import NEW, saved_fight
from tests.disk import NO_SPACE, refuse_writes

#: A child that holds ``argv[1]`` as the table ``argv[2]`` does until its standard input
#: closes.
TABLE = """
import sys
from pathlib import Path
from companion.file_locks import holding
with holding(Path(sys.argv[1]), sys.argv[2]):
    print("held", flush=True)
    sys.stdin.read()
"""


@pytest.mark.parametrize("system", sorted(NEW))
def test_fight_new_force_while_a_table_holds_the_fight_moves_nothing(
        system: str, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fight was renamed aside before the write that is refused while a table holds the
    file: no fight.json was left and the table stopped. Now the hold is taken first: the
    command is refused naming the table, the fight stays byte for byte, nothing is kept."""
    path = saved_fight(user_dirs, system)
    before = path.read_bytes()
    table = subprocess.Popen([sys.executable, "-c", TABLE, str(path), NEW[system][1]],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert table.stdout is not None and table.stdout.readline() == "held\n"
        capsys.readouterr()
        assert main([*NEW[system][0], "--force"]) == 1
        err = capsys.readouterr().err
    finally:
        assert table.stdin is not None
        table.stdin.close()
        table.wait(timeout=30)
    assert path.read_bytes() == before
    assert not list(path.parent.glob("fight.json.replaced-*"))
    assert f"{path} is in use by another companion (pid {table.pid}, {NEW[system][1]})" in err
    assert "the fight saved there was left as it was" in err and "note:" not in err
    # The table stopped, the same command replaces the fight, keeping it.
    assert main([*NEW[system][0], "--force"]) == 0
    (kept,) = path.parent.glob("fight.json.replaced-*")
    assert kept.read_bytes() == before


@pytest.mark.parametrize("system", sorted(NEW))
def test_fight_new_force_on_a_full_disk_leaves_the_old_fight_in_place(
        system: str, user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk refuses the new fight: the old one, already kept aside, was left there with
    no fight.json. Now it is put back, byte for byte, and no kept copy or note is left."""
    path = saved_fight(user_dirs, system)
    before = path.read_bytes()
    refuse_writes(path, monkeypatch, range(1, 2))  # the new fight; the put-back goes
    capsys.readouterr()
    assert main([*NEW[system][0], "--force"]) == 1
    err = capsys.readouterr().err
    assert NO_SPACE in err and "note:" not in err
    assert "the new fight was not written; the fight saved there was left as it was" in err
    assert sorted(p.name for p in path.parent.iterdir()) == ["fight.json"]
    assert path.read_bytes() == before


def test_a_disk_error_with_no_reason_code_is_said_by_its_own_text(
        user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An OSError raised with a message alone has no strerror: the refusal printed "None:
    the new fight was not written". It now says the error's own text."""
    path = saved_fight(user_dirs, "genso")
    real, target = os.replace, path.resolve()

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        if Path(dst).resolve() == target and ".replaced-" not in Path(src).name:
            raise OSError("disk quota exceeded")  # the new fight; its put-back goes
        real(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    capsys.readouterr()
    assert main([*NEW["genso"][0], "--force"]) == 1
    err = capsys.readouterr().err
    assert "None" not in err
    assert ("disk quota exceeded: the new fight was not written; the fight saved there was "
            "left as it was") in err


def test_a_fight_that_cannot_even_be_put_back_is_named_where_it_is_kept(
        user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that refuses the new fight and then the old one's return: the note says where
    the old fight is kept (and how to show it), beside the disk's error."""
    path = saved_fight(user_dirs, "genso")
    before = path.read_bytes()
    refuse_writes(path, monkeypatch)
    capsys.readouterr()
    assert main([*NEW["genso"][0], "--force"]) == 1
    err = capsys.readouterr().err
    (kept,) = path.parent.glob("fight.json.replaced-*")
    assert kept.read_bytes() == before and not path.exists()
    assert (f"companion: note: the fight replaced is kept as {kept.name}, beside fight.json: "
            f"companion genso fight show --file {kept} shows it") in err
    assert NO_SPACE in err and "left as it was" not in err


def test_the_refusal_names_the_table_holding_the_fight(user_dirs: Path) -> None:
    """The refusal of a fight a table holds carries that holder, as every refusal of a held
    file does. ``genso fight new`` names the table's Close from it; without it the command
    asked the lock again, and found nobody when the table had let go in between."""
    path = saved_fight(user_dirs, "genso")
    table = subprocess.Popen([sys.executable, "-c", TABLE, str(path), NEW["genso"][1]],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert table.stdout is not None and table.stdout.readline() == "held\n"
        with pytest.raises(FileInUse) as refused:
            replace_fight(path, lambda old: None, lambda: None, "companion genso fight",
                          None)
    finally:
        assert table.stdin is not None
        table.stdin.close()
        table.wait(timeout=30)
    assert refused.value.holder == Holder(str(table.pid), NEW["genso"][1])
    assert str(refused.value).endswith("then start the new fight again: the fight saved "
                                       "there was left as it was")
