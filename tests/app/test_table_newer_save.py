"""A table save (``play --mode genso|coc``) that a newer companion wrote.

Real table saves, made by playing a fight at the table, then marked as a newer companion
would write them (a later save format, a later rules revision).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from companion.app.cli import build_parser
from companion.app.commands.play.table_modes import run_coc, run_genso, titled
from companion.app.modes.coc import CocFightMode
from companion.app.modes.coc import table_session as coc_table_session
from companion.app.modes.coc.table import coc_table
from companion.app.modes.genso import GensoFightMode, table_session
from companion.app.session.controls import Controls
from companion.app.session.save import NewerSave
from companion.hw.buttons import Button
from tests.app.coc_table_helpers import CHOICES
from tests.app.coc_table_helpers import SEED as COC_SEED
from tests.app.coc_table_helpers import fight_file as coc_fight_file
from tests.app.coc_table_helpers import play as coc_play
from tests.app.fight_file_question_helpers import Screen, sim
from tests.app.genso_table_helpers import RULES, SEED, two_actions_then_a_stop
from tests.app.table import Player
from tests.disk import refuse_moving

NEWER = {"version": ("version", 2, "save version 2"),
         "rules": ("rules", 99, "rules revision 99")}


def made_newer(state: Path, field: str) -> bytes:
    """The table save at ``state`` as a newer companion would have written it."""
    key, value, _ = NEWER[field]
    saved = json.loads(state.read_text(encoding="utf-8"))
    state.write_text(json.dumps({**saved, key: value}), encoding="utf-8")
    return state.read_bytes()


def assert_kept_and_told(folder: Path, before: bytes, told: list[str], field: str,
                         mode: str) -> None:
    """The newer save kept whole as table.json.newer-…, and one notice naming the command
    that plays it on, of its own mode and fight file."""
    (kept,) = folder.glob("table.json.newer-*")
    assert kept.read_bytes() == before
    assert not list(folder.glob("table.json.corrupt-*"))
    assert len(told) == 1
    assert "newer companion" in told[0] and NEWER[field][2] in told[0]
    command = (f"companion play --mode {mode} --resume --state {kept} "
               f"--fight {(folder / 'fight.json').resolve()}")
    assert f"it is kept as {kept.name} ({NewerSave.UPDATE}: then `{command}` does)" \
        in told[0]
    assert told[0].endswith("taking up the fight file")


@pytest.mark.parametrize("field", sorted(NEWER))
@pytest.mark.parametrize("resume", [True, False])
def test_a_genso_table_save_of_a_newer_companion_is_kept_aside_with_how_to_carry_it_on(
        tmp_path: Path, resume: bool, field: str) -> None:
    """A genso table save a newer companion wrote stopped the table with a bare "written by
    a newer companion" (at every boot, under the service), kept nothing aside and said
    nothing of updating. It is kept as table.json.newer-…, the player is told to update and
    carry it on with --resume --state that file, and the fight file is taken up."""
    first = two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    before = made_newer(state, field)
    told: list[str] = []
    session = table_session(RULES, tmp_path / "fight.json", state, resume=resume, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == first.fight.to_json()
    assert_kept_and_told(tmp_path, before, told, field, "genso")
    # The table goes on in a save of its own, this companion's.
    assert json.loads(state.read_text(encoding="utf-8"))["version"] == 1


@pytest.mark.parametrize("resume", [True, False])
def test_a_coc_table_save_of_a_newer_companion_is_kept_aside_with_how_to_carry_it_on(
        tmp_path: Path, resume: bool) -> None:
    """The coc table, as the genso one: it stopped with a bare "written by a newer
    companion"; the save is kept as .newer-…, with how to carry it on."""
    coc_fight_file(tmp_path, "003")
    first = coc_play(tmp_path, CHOICES[:6])
    state = tmp_path / "table.json"
    before = made_newer(state, "version")
    told: list[str] = []
    session = coc_table_session(tmp_path / "fight.json", state, resume=resume, seed=COC_SEED,
                                choices=Player([]), tell=told.append)
    assert isinstance(session.mode, CocFightMode)
    assert session.mode.fight.to_json() == first.fight.to_json()
    assert_kept_and_told(tmp_path, before, told, "version", "coc")


@pytest.mark.parametrize("resume", [True, False])
def test_a_newer_table_save_in_a_folder_that_renames_nothing_is_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, resume: bool) -> None:
    """A newer companion's table save in a folder that lets nothing be renamed (read-only):
    the table stopped with only "written by a newer companion". The error names the save,
    the newer companion, the update that carries it on and what to do here; the save stays
    as it was."""
    two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    before = made_newer(state, "version")
    refuse_moving(state, monkeypatch)
    with pytest.raises(OSError) as refused:
        table_session(RULES, tmp_path / "fight.json", state, resume=resume, seed=SEED,
                      choices=Player([]))
    assert refused.value.filename == str(tmp_path)
    message = refused.value.strerror
    assert message.startswith(f"{state}: written by a newer companion (save version 2")
    assert NewerSave.UPDATE in message
    assert "no file in this folder can be renamed (Read-only file system)" in message
    assert message.endswith("give another --state, or fix the folder")
    assert state.read_bytes() == before
    assert not list(tmp_path.glob("table.json.*"))


def test_the_kept_newer_saves_path_is_given_as_a_shell_takes_it() -> None:
    """A folder with a space in its name: the path after --resume --state was given bare,
    and a shell split it in two."""
    kept = Path("/home/pi/my games/table.json.newer-20261205T101500Z")
    command = coc_table().resume_command(kept, Path("/home/pi/my games/fight.json"))
    assert command == ("companion play --mode coc --resume --state "
                       "'/home/pi/my games/table.json.newer-20261205T101500Z' "
                       "--fight '/home/pi/my games/fight.json'")


@pytest.mark.parametrize("mode", ["genso", "coc"])
def test_a_table_run_names_the_kept_newer_save_with_its_own_mode_and_this_runs_keys(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str) -> None:
    """A table at a laptop (config.toml's play.mode a table, `play --choices keyboard
    --display terminal`) that finds a newer companion's save names the command that
    carries it on with the table's mode, fight file, keys and terminal: `--resume --state`
    alone opened JongRogue on the screen and buttons."""
    if mode == "genso":
        two_actions_then_a_stop(tmp_path)
    else:
        coc_fight_file(tmp_path, "003")
        coc_play(tmp_path, CHOICES[:6])
    fight, state = (tmp_path / "fight.json").resolve(), tmp_path / "table.json"
    made_newer(state, "version")
    args = build_parser("play").parse_args([
        "play", "--resume", "--choices", "keyboard", "--display", "terminal",
        "--fight", str(fight), "--state", str(state)])
    screen = Screen([Button.ATTACK])  # OK to the save kept aside; then the power goes
    run = run_genso if mode == "genso" else run_coc
    with pytest.raises(KeyboardInterrupt):
        run(args, sim(), titled(screen, mode), Controls([screen]), None)
    (kept,) = tmp_path.glob("table.json.newer-*")
    command = shlex.join(["companion", "play", "--mode", mode, "--resume", "--choices",
                          "keyboard", "--display", "terminal", "--fight", str(fight),
                          "--state", str(kept)])
    assert f"then `{command}` does)" in capsys.readouterr().err
