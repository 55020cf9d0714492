"""setup66 DEFECT 1: after scripts/bootstrap.sh no ``companion`` is on the PATH (README's
first command runs .venv/bin/companion), yet the stop's resume note, the laptop hints and
`rfid simulate` named a bare ``companion``, which the shell answered "command not found".
Every hint that names a command to run names the one that runs from where it is typed
(:func:`~companion.app.command_name.companion_command`)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_command, companion_line
from companion.app.modes.coc.table import EXAMPLES, coc_table, start_hint
from companion.app.session.save import default_save_path
from tests.app.companion_script_helpers import venv_script
from tests.app.play_state_helpers import SEED, unfinished_game
from tests.app.power_cuts import cut_after_saves

BARE_PATH = "/usr/bin:/bin"  # scripts/bootstrap.sh's: no companion on it


@pytest.fixture
def bootstrapped(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The checkout, as the README's first command leaves it: the working folder, and no
    ``companion`` on the PATH; the venv's script returned."""
    script = venv_script()
    monkeypatch.setenv("PATH", BARE_PATH)
    monkeypatch.chdir(script.parents[2])
    return script


def typed(command: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``command`` as the player types it in a shell with the bare PATH."""
    return subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env={**os.environ, "PATH": BARE_PATH})


def test_the_ctrl_c_note_names_the_venvs_companion_and_it_resumes_the_game(
        bootstrapped: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The stop's "companion play --resume … carries on": the command typed as printed
    said "command not found". It names .venv/bin/companion, and plays the game on."""
    save = default_save_path()
    with monkeypatch.context() as patch:
        patch.setattr("companion.app.session.host.Session._commit", cut_after_saves(5))
        assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 130
    last = capsys.readouterr().err.splitlines()[-1]
    assert last == (f"companion: stopped; the game is saved in {save}: .venv/bin/companion "
                    f"play --resume --headless --state {save} carries on")
    command = last.split(": ", 2)[2].removesuffix(" carries on")
    resumed = typed(command)
    assert resumed.returncode == 0, resumed.stderr
    assert "Result: " in resumed.stdout


def test_the_laptop_hint_names_the_venvs_companion_and_it_plays(
        bootstrapped: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`.venv/bin/companion play` on a laptop (the "(at the table)" hint): the keys'
    command it then gave began with a bare ``companion``."""
    assert main(["play", "--display", "terminal"]) == 1
    hint = capsys.readouterr().err.splitlines()[-1]
    keys = ".venv/bin/companion play --input sim --choices keyboard --display terminal"
    assert hint == (f"companion: no camera, buttons or screen here (a laptop)? {keys} plays "
                    "the simulated wall with the keys")
    # Typed as printed, the companion runs it: here, with no terminal for the keys, to say
    # so (the shell said "command not found", exit 127).
    ran = typed(f"{keys} </dev/null")
    assert ran.returncode == 2 and "reads keys from a terminal" in ran.stderr, ran.stderr


def test_the_laptop_hint_for_a_saved_game_names_the_venvs_companion(
        bootstrapped: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The hint that plays a saved game on with the keys, as the one above."""
    unfinished_game(default_save_path())
    capsys.readouterr()
    assert main(["play", "--resume", "--display", "terminal"]) == 1
    assert capsys.readouterr().err.endswith(
        "(a laptop)? .venv/bin/companion play --resume --input sim --choices keyboard "
        "--display terminal plays the saved game on with the keys\n")  # journey71 D1


def test_from_elsewhere_the_laptop_hint_names_the_script_by_its_whole_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Out of the checkout, the script's whole path (a relative one would not be found)."""
    script = venv_script()
    monkeypatch.setenv("PATH", BARE_PATH)
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--display", "terminal"]) == 1
    assert f"(a laptop)? {shlex.quote(str(script))} play --input sim " \
        in capsys.readouterr().err


def test_rfid_simulate_names_the_venvs_companion(
        bootstrapped: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`rfid simulate`'s "try: companion rfid monitor --port …"."""
    assert main(["rfid", "simulate", "--seconds", "0.5", "--seed", "3"]) == 0
    first = capsys.readouterr().out.splitlines()[:4]
    assert first[0].startswith("Simulated tray on ")
    port = first[0].split()[3].rstrip(";")
    # Each a whole line (rfid67 DEFECT 1): tests/app/test_rfid_hints_run_as_printed.py runs them
    # as typed.
    assert first[1:] == [
        f"  .venv/bin/companion rfid monitor --port {port}",
        f"  .venv/bin/companion calibrate rfid --port {port}",
        f"  .venv/bin/companion play --input rfid --rfid-port {port} "
        "--choices keyboard --display terminal"]


def test_a_tables_resume_command_names_the_venvs_companion(bootstrapped: Path) -> None:
    """A table save's resume command (said when a save is kept aside) as well."""
    command = coc_table().resume_command(Path("/home/pi/t.json"), Path("/home/pi/my f.json"))
    assert shlex.split(command) == [".venv/bin/companion", "play", "--mode", "coc", "--resume",
                                    "--state", "/home/pi/t.json", "--fight", "/home/pi/my f.json"]


def test_the_coc_start_hint_names_the_companion_from_the_folder_it_goes_to(
        bootstrapped: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """coc's hint goes to the checkout first (``cd … &&``): the script is named from there,
    not from the folder the table runs in."""
    if not (EXAMPLES / "ann.toml").is_file():
        pytest.skip("no sample sheets beside the package")
    monkeypatch.chdir(tmp_path)
    words = shlex.split(start_hint())
    assert words[:3] == ["cd", str(EXAMPLES.parents[1]), "&&"]
    # .venv/bin/companion when the venv is the checkout's (scripts/bootstrap.sh's).
    assert (EXAMPLES.parents[1] / words[3]).samefile(bootstrapped)


def test_a_path_with_a_space_is_quoted_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """companion_command() is quoted for the shell already; replay's hints joined it with
    shlex.join, which quoted it again: a venv under "my games" gave a command naming
    "'/…/my games/…/companion'", quotes and all, which no shell finds."""
    bin_dir = tmp_path / "my games" / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").symlink_to(sys.executable)
    (bin_dir / "companion").write_text("#!/bin/sh\n", encoding="utf-8")
    monkeypatch.setattr(sys, "executable", str(bin_dir / "python"))
    monkeypatch.setenv("PATH", BARE_PATH)
    monkeypatch.chdir(tmp_path / "my games")
    assert companion_command() == ".venv/bin/companion"
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert shlex.split(companion_line("play", "--log", "a b.jsonl")) == [
        str(bin_dir / "companion"), "play", "--log", "a b.jsonl"]
    # A log cut short (a power cut), its game in no save: replay's two commands.
    log = tmp_path / "game.jsonl"
    assert main(["play", "--headless", "--seed", str(SEED), "--log", str(log)]) == 0
    log.write_text("\n".join(log.read_text(encoding="utf-8").splitlines()[:41]) + "\n",
                   encoding="utf-8")
    capsys.readouterr()
    main(["replay", str(log)])
    commands = capsys.readouterr().out.split("`")[1::2]
    assert [shlex.split(c)[:2] for c in commands[-2:]] == [[str(bin_dir / "companion"),
                                                          "play"]] * 2, commands


def test_the_command_install_pi_links_for_the_login_shell_is_named_bare(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The boot service's PATH has no ~/.local/bin, where install-pi.sh links the command
    that the player's login shell finds: the hints on the table's screen, typed over SSH,
    name it bare, as the docs do, not by the venv's path."""
    script = venv_script()
    monkeypatch.setenv("PATH", BARE_PATH)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert companion_command() == shlex.quote(str(script))
    (tmp_path / ".local" / "bin").mkdir(parents=True)
    (tmp_path / ".local" / "bin" / "companion").symlink_to(script)
    assert companion_command() == "companion"


def test_an_adapters_error_names_the_companion_typed_here(
        bootstrapped: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The adapters and the rules never import the app, so their errors name a bare
    `companion …`: the app's error line names the one that runs here."""
    from companion.app.notes import tell_error
    from companion.errors import DataError

    assert tell_error(DataError("no tag map: run `companion calibrate rfid` first")) == 2
    assert capsys.readouterr().err == (
        "companion: error: no tag map: run `.venv/bin/companion calibrate rfid` first\n")


def test_calibrate_dices_refusal_names_the_companion_typed_here(
        bootstrapped: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "dice", "--forget", "enrolled", "--enrol"]) == 2
    err = capsys.readouterr().err
    assert "run `.venv/bin/companion calibrate dice --forget enrolled` alone" in err


def test_another_checkouts_companion_on_the_path_is_not_named_bare(
        bootstrapped: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewsetup66 R3: any `companion` on the PATH made the hint bare, so a second
    checkout's hint ran the other one's companion on this one's save."""
    other = tmp_path / "other-checkout" / ".venv" / "bin"
    other.mkdir(parents=True)
    (other / "companion").write_text("#!/bin/sh\n")
    (other / "companion").chmod(0o755)
    monkeypatch.setenv("PATH", f"{other}:{BARE_PATH}")
    assert companion_command() == ".venv/bin/companion"


def test_the_rfid_monitors_problem_names_the_companion_typed_here(bootstrapped: Path) -> None:
    """reviewsetup66 R6: the reader's problems come from the adapters, which name a bare
    `companion rfid list`; the monitor prints them as typed here."""
    from companion.app.commands.rfid import status_line
    from companion.hw.ports import ReaderStatus

    line = status_line(ReaderStatus(ok=False, message="(`companion rfid list` shows the "
                                    "serial ports)"), as_json=False)
    assert line == "-- problem: (`.venv/bin/companion rfid list` shows the serial ports)"
