"""A fight command's action whose save the disk refuses (hist72 DEFECT 2): `coc fight act`
and `genso fight attack` on a full disk ended with the OS's words alone
(`…/fight.json: No space left on device`), the dice thrown and typed dropped unsaid. They
say the action was not applied and the fight is as it was, what to mend, and the dice
thrown, which typed again (--dice typed) once the disk takes the write play the same throw,
with the whole command that does it: actor, target and options as given (reviewh72 NIT 4:
it named `coc fight act attack` alone).

The full disk is the world's edge: ``os.replace`` refusing the fight file (tests/disk.py).
"""

from __future__ import annotations

import errno
import io
import json
import shlex
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_command
from companion.app.paths import data_dir
from tests.disk import NO_SPACE, READ_ONLY, refuse_writes

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def journal(path: Path) -> list[dict[str, object]]:
    entries: list[dict[str, object]] = json.loads(path.read_text(encoding="utf-8"))["journal"]
    return entries


def told_again(err: str) -> tuple[list[str], list[str]]:
    """The command the message says runs the action again, as the words after `companion`,
    and the dice it says to type (none when it names none)."""
    command = err.split("then run it again: `", 1)[1].split("`", 1)[0]
    prefix = shlex.split(companion_command())
    words = shlex.split(command)
    assert words[:len(prefix)] == prefix
    _, said, dice = err.rstrip("\n").partition(" and type the dice thrown, for the same throw: ")
    return words[len(prefix):], [die.split()[1] for die in dice.split(", ")] if said else []


def test_a_coc_attack_on_a_full_disk_is_said_not_played_with_its_dice(
        user_dirs: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coc", "fight", "new", "--investigators", str(EXAMPLES / "ann.toml"),
                 str(EXAMPLES / "bob.toml"), "--foes", str(EXAMPLES / "cultist.toml"),
                 "--dice", "sim", "--seed", "1"]) == 0
    path = data_dir() / "coc" / "fight.json"
    before = path.read_bytes()
    act = ["coc", "fight", "act", "attack", "Ann", "Cultist", "--dice", "typed"]
    capsys.readouterr()
    with monkeypatch.context() as disk:
        refuse_writes(path, disk)
        disk.setattr("sys.stdin", io.StringIO("33\n4\n"))
        assert main(act) == 2
    err = capsys.readouterr().err
    assert (f"cannot save the fight ({path}: {NO_SPACE}): this `coc fight act attack` was "
            "not applied, and the fight is as it was before it; free space in "
            f"{path.parent}, then run it again: `{companion_command()} coc fight act attack "
            "Ann Cultist --dice typed` and type the dice thrown, for the same throw: d100 33, "
            "d10 4\n") in err
    assert path.read_bytes() == before
    # Played again as told, the disk freed: the same throw, saved.
    again, dice = told_again(err)
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{die}\n" for die in dice)))
    assert main(again) == 0
    assert journal(path)[-1]["dice"] == [[100, 33], [10, 4]]


def test_a_coc_sim_attack_s_command_again_keeps_its_options_and_types_the_dice(
        user_dirs: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The foe's attack with --with and a fight file of its own, thrown by the simulated
    dice: the command said names the actor, the target, --with and --file, and types the
    dice in place of --dice sim --seed; run as told, the journal is the unhindered run's."""
    fight_file = user_dirs / "a fight.json"
    assert main(["coc", "fight", "new", "--investigators", str(EXAMPLES / "ann.toml"),
                 "--foes", str(EXAMPLES / "cultist.toml"), "--file", str(fight_file),
                 "--dice", "sim", "--seed", "1"]) == 0
    assert main(["coc", "fight", "act", "end_turn", "Ann", "--file", str(fight_file)]) == 0
    before = fight_file.read_bytes()
    act = ["coc", "fight", "act", "attack", "Cultist", "Ann", "--with", "defence=dodge",
           "--file", str(fight_file), "--dice", "sim", "--seed", "7"]
    assert main(act) == 0
    unhindered = journal(fight_file)
    fight_file.write_bytes(before)
    capsys.readouterr()
    with monkeypatch.context() as disk:
        refuse_writes(fight_file, disk)
        assert main(act) == 2
    err = capsys.readouterr().err
    assert fight_file.read_bytes() == before
    again, dice = told_again(err)
    assert again == ["coc", "fight", "act", "attack", "Cultist", "Ann", "--with",
                     "defence=dodge", "--file", str(fight_file), "--dice", "typed"]
    assert dice
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{die}\n" for die in dice)))
    assert main(again) == 0
    assert journal(fight_file) == unhindered


def test_a_coc_undo_on_a_read_only_disk_is_said_not_done(
        user_dirs: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coc", "fight", "new", "--investigators", str(EXAMPLES / "ann.toml"),
                 "--foes", str(EXAMPLES / "cultist.toml"), "--dice", "sim", "--seed", "1"]) == 0
    assert main(["coc", "fight", "end"]) == 0
    path = data_dir() / "coc" / "fight.json"
    capsys.readouterr()
    with monkeypatch.context() as disk:
        refuse_writes(path, disk, code=errno.EROFS)
        assert main(["coc", "fight", "undo"]) == 2
    err = capsys.readouterr().err
    assert (f"({path}: {READ_ONLY}): this `coc fight undo` was not applied, and the fight is "
            f"as it was before it; let {path.parent} be written, then run it again: "
            f"`{companion_command()} coc fight undo`\n") in err
    assert "dice thrown" not in err


def test_a_genso_attack_on_a_full_disk_is_said_not_played_with_its_dice(
        user_dirs: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2"]) == 0
    path = data_dir() / "genso" / "fight.json"
    before = path.read_bytes()
    capsys.readouterr()
    with monkeypatch.context() as disk:
        refuse_writes(path, disk)
        assert main(["genso", "fight", "attack", "pc1", "orc1", "--weapon", "0", "--full",
                     "--seed", "4"]) == 2
    err = capsys.readouterr().err
    assert path.read_bytes() == before
    assert (f"cannot save the fight ({path}: {NO_SPACE}): this `genso fight attack` was not "
            "applied, and the fight is as it was before it; free space in ") in err
    thrown = err.rstrip("\n").split(" and type the dice thrown, for the same throw: ", 1)[1]
    again, typed = told_again(err)
    assert again == ["genso", "fight", "attack", "pc1", "orc1", "--weapon", "0", "--full",
                     "--dice", "typed"]
    # The same attack with the same seed, saved: its dice are the ones said.
    assert main(["genso", "fight", "attack", "pc1", "orc1", "--weapon", "0", "--full",
                 "--seed", "4"]) == 0
    unhindered = journal(path)
    dice = unhindered[-1]["dice"]
    assert isinstance(dice, list) and dice
    assert thrown == ", ".join(f"d{sides} {value}" for sides, value in dice)
    # Run as told, the dice typed: the same journal.
    path.write_bytes(before)
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{die}\n" for die in typed)))
    assert main(again) == 0
    assert journal(path) == unhindered
