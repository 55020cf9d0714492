"""A fight command writes its fight file only over the file it loaded (concurrency audit 58
F1, N1, N3; review58b R1): the dice it asks for between were time for another command, or a
table started meanwhile, to write the file, and the command then wrote the fight it loaded
over that. It holds the file a moment for the load and again for the save, never while it
asks for the dice, so a prompt left open keeps nobody out.

Two real writers: a command waiting for typed dice in a process of its own, and a second
command run here; a table is a child process holding the file as the table does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.modes.fight_replaced import table_holder
from tests.app.fight_hold_helpers import held_by_a_table, stopped
from tests.companion_process import ROOT

EXAMPLES = ROOT / "docs" / "examples"


def waiting_for_dice(argv: list[str]) -> subprocess.Popen[bytes]:
    """``companion <argv> --dice typed``, run until it asks for its first dice."""
    command = subprocess.Popen([sys.executable, "-m", "companion", *argv, "--dice", "typed"],
                               cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert command.stderr is not None
    os.set_blocking(command.stderr.fileno(), False)
    said = b""
    deadline = time.monotonic() + 60
    while b"type the" not in b" ".join(said.split()):  # a prompt within 80 columns
        assert command.poll() is None and time.monotonic() < deadline, said
        said += command.stderr.read() or b""
        time.sleep(0.02)
    return command


def typed(command: subprocess.Popen[bytes], dice: bytes) -> tuple[int, str]:
    """The dice typed for the waiting ``command``; its exit status and what it said on
    stderr."""
    assert command.stdin is not None and command.stderr is not None
    os.set_blocking(command.stderr.fileno(), True)
    _, err = command.communicate(dice, timeout=60)
    return command.returncode, err.decode()


def shown(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main([*argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_a_genso_fight_command_whose_file_changed_while_it_waited_for_dice_is_not_saved(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """F1: `fight attack --dice typed` waited for its throw; `fight end` was written
    meanwhile, then the attack wrote the fight it had loaded over it: the end gone. R1 of
    review58b: it held the file across the prompt, and a GM gone from the prompt kept every
    other command and the table out for ever. Now the end is written meanwhile, and the
    attack, once its dice are typed, is refused naming what changed: nothing lost."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc:2"]) == 0
    fight = user_dirs / "data" / "genso" / "fight.json"
    attack = waiting_for_dice(["genso", "fight", "attack", "pc1", "orc1"])
    try:
        assert main(["genso", "fight", "end"]) == 0
        ended = fight.read_bytes()
    finally:
        code, err = typed(attack, b"6 6\n6\n6\n6\n")
    assert code == 2  # a DataError: the fight file is not as loaded
    assert (f"companion: error: {fight} was changed while the dice were asked for: 1 action "
            "was played meanwhile; nothing was written: this `fight attack` was not applied "
            "(its dice are dropped); run it again\n") in err
    assert fight.read_bytes() == ended
    log = shown(capsys, ["genso", "fight", "log"])
    assert log["actions"] == 1 and log["outcome"] is not None


def test_a_coc_fight_command_whose_file_changed_while_it_waited_for_dice_is_not_saved(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same in coc: `act attack --dice typed` wrote over the `act end_turn` played while
    it waited for the throw; then it held the file across the prompt."""
    assert main(["coc", "fight", "new", "--investigators", str(EXAMPLES / "ann.toml"),
                 str(EXAMPLES / "bob.toml"), "--foes", str(EXAMPLES / "cultist.toml"),
                 "--seed", "1"]) == 0
    fight = user_dirs / "data" / "coc" / "fight.json"
    attack = waiting_for_dice(["coc", "fight", "act", "attack", "Ann", "Cultist"])
    try:
        assert main(["coc", "fight", "act", "end_turn", "Ann", "--seed", "2"]) == 0
    finally:
        code, err = typed(attack, b"50\n3\n50\n3\n")
    assert code == 2
    assert (f"{fight} was changed while the dice were asked for: 1 action was played "
            "meanwhile; nothing was written: this `fight act attack` was not applied") in err
    journal = shown(capsys, ["coc", "fight", "log"])["journal"]
    assert [entry["action"]["kind"] for entry in journal] == ["end_turn"]


def test_a_table_started_while_a_command_waits_for_dice_takes_the_fight_up(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R1 of review58b: a table started while `fight attack --dice typed` waited was refused
    ("in use") until the dice were typed. Now it holds the file at once, and the attack,
    typed then, is refused: the table alone writes the file."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc:2"]) == 0
    fight = user_dirs / "data" / "genso" / "fight.json"
    before = fight.read_bytes()
    attack = waiting_for_dice(["genso", "fight", "attack", "pc1", "orc1"])
    try:
        table = held_by_a_table(fight, table_holder("genso"))
        try:
            code, err = typed(attack, b"6 6\n6\n6\n6\n")
        finally:
            stopped(table)
    finally:
        if attack.poll() is None:
            attack.kill()
    assert code == 1
    assert (f"{fight} is open in another companion (pid {table.pid}, "
            f"{table_holder('genso')}), which alone writes it while it runs: do it there, "
            "or stop it first (reading it still works); nothing was written: this `fight "
            "attack` was not applied (its dice are dropped); run it again") in err
    assert fight.read_bytes() == before


def test_a_table_playing_the_fight_refuses_the_command_before_its_dice(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """N3: the command asked for the throw, and refused to write only once the dice were
    typed. Now it refuses at once, and asks for nothing."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc:2"]) == 0
    fight = user_dirs / "data" / "genso" / "fight.json"
    table = held_by_a_table(fight, table_holder("genso"))
    try:
        attack = subprocess.run(
            [sys.executable, "-m", "companion", "genso", "fight", "attack", "pc1", "orc1",
             "--dice", "typed"], cwd=ROOT, input="6 6\n6\n", capture_output=True, text=True,
            timeout=60)
    finally:
        stopped(table)
    assert (attack.returncode, attack.stdout) == (1, "")
    assert attack.stderr == (
        f"companion: error: {fight} is open in another companion (pid {table.pid}, "
        f"{table_holder('genso')}), which alone writes it while it runs: do it "
        "there, or stop it first (reading it still works)\n")


def test_a_table_showing_its_fight_over_is_closed_not_stopped(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """N1: the GM's next `fight new` (or any command) while the table shows the fight over
    was told to stop the table; its Close lets go of the file, and the table then waits
    for the next fight."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) == 0
    assert main(["genso", "fight", "end"]) == 0
    fight = user_dirs / "data" / "genso" / "fight.json"
    before = fight.read_bytes()
    table = held_by_a_table(fight, table_holder("genso"))
    try:
        capsys.readouterr()
        assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc",
                     "--force"]) == 1
        new = capsys.readouterr().err
        assert main(["genso", "fight", "sleep"]) == 1
        sleep = capsys.readouterr().err
    finally:
        stopped(table)
    over = (f"companion: error: {fight} is open at the genso table (pid {table.pid}, "
            f"{table_holder('genso')}), which shows the fight over: press "
            "Close 閉じる there (the table then lets go of the file and waits for the next "
            "fight) and ")
    assert new == over + "start the new fight again; nothing was written\n"
    assert sleep == over + "run `fight sleep` again; nothing was written\n"
    assert fight.read_bytes() == before


def test_a_coc_table_showing_its_fight_over_is_closed_not_stopped(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """N1 in coc, whose `fight new` is refused too before its opening's dice are thrown."""
    sheets = ["--investigators", str(EXAMPLES / "ann.toml"), "--foes",
              str(EXAMPLES / "cultist.toml")]
    assert main(["coc", "fight", "new", *sheets, "--profile", "004", "--seed", "1"]) == 0
    assert main(["coc", "fight", "act", "burn", "Cultist", "--with", "damage=40"]) == 0
    fight = user_dirs / "data" / "coc" / "fight.json"
    table = held_by_a_table(fight, table_holder("coc"))
    try:
        new = subprocess.run(
            [sys.executable, "-m", "companion", "coc", "fight", "new", *sheets, "--force",
             "--dice", "typed"], cwd=ROOT, input="", capture_output=True, text=True,
            timeout=60)
    finally:
        stopped(table)
    assert (new.returncode, new.stdout) == (1, "")
    assert new.stderr == (
        f"companion: error: {fight} is open at the coc table (pid {table.pid}, "
        f"{table_holder('coc')}), which shows the fight over: press Close 閉じる there "
        "(the table then lets go of the file and waits for the next fight) and start the new "
        "fight again; nothing was written\n")


def test_a_coc_fight_new_waiting_for_its_opening_dice_replaces_no_fight_unasked(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """review58c F1: `coc fight new --dice typed` (no fight there, no --force) waited for its
    opening's dice (a DEX tie); meanwhile another `fight new` was made and played on; the
    first, typed then, moved that fight aside with only a note. Now it is refused, its
    dice dropped, and the fight played meanwhile stays."""
    twin = user_dirs / "cultist2.toml"
    twin.write_text((EXAMPLES / "cultist.toml").read_text(encoding="utf-8").replace(
        'name = "Cultist"', 'name = "Cultist2"'), encoding="utf-8")
    new = ["coc", "fight", "new", "--investigators", str(EXAMPLES / "ann.toml"),
           str(EXAMPLES / "bob.toml"), "--foes", str(EXAMPLES / "cultist.toml"), str(twin)]
    fight = user_dirs / "data" / "coc" / "fight.json"
    first = waiting_for_dice(new)
    try:
        assert main([*new, "--seed", "2"]) == 0
        assert main(["coc", "fight", "act", "end_turn", "Ann", "--seed", "3"]) == 0
        played = fight.read_bytes()
    finally:
        code, err = typed(first, b"50\n3\n" * 20)
    assert code == 2
    assert (f"companion: error: a fight is saved at {fight} (saved there by another command "
            "while the opening dice were asked for: they are dropped, and nothing was "
            "written); pass --force to start over") in err
    assert fight.read_bytes() == played
    assert sorted(p.name for p in fight.parent.iterdir()) == ["fight.json"]
    journal = shown(capsys, ["coc", "fight", "log"])["journal"]
    assert [entry["action"]["kind"] for entry in journal] == ["end_turn"]


def test_a_fight_started_over_while_a_command_waits_is_said_started_not_undone(
        user_dirs: Path) -> None:
    """review58c F3: a `fight new --force` with the same party, made while `fight attack`
    waited for its dice, has the same settings and an empty journal: the refusal said
    "2 actions were undone meanwhile". Now it says a new fight was started, and where the
    one loaded is kept."""
    new = ["genso", "fight", "new", "--party", "pc1", "--monsters", "orc:2"]
    assert main(new) == 0
    assert main(["genso", "fight", "sleep"]) == 0
    assert main(["genso", "fight", "sleep"]) == 0
    fight = user_dirs / "data" / "genso" / "fight.json"
    attack = waiting_for_dice(["genso", "fight", "attack", "pc1", "orc1"])
    try:
        assert main([*new, "--force"]) == 0
        started = fight.read_bytes()
    finally:
        code, err = typed(attack, b"6 6\n6\n6\n6\n")
    [kept] = fight.parent.glob("fight.json.replaced-*")
    assert code == 2
    assert (f"companion: error: {fight} was changed while the dice were asked for: another "
            f"fight was started in it (`fight new --force`); the one loaded is kept as "
            f"{kept.name}; nothing was written") in err
    assert fight.read_bytes() == started
