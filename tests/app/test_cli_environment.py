"""The environments a real Pi and a real user give ``companion`` (env58): an output whose
encoding has no Japanese, standard input closed, an output that refuses what is written,
the folders' variables as a service or a shell passes them, and a run as root by sudo."""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import History, Run
from tests.app.coc_command_helpers import SHEET
from tests.companion_process import ROOT, run_companion


def companion_in(encoding: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``companion ARGS`` whose stdout and stderr write ``encoding`` (as under a Latin-1
    locale), its output read back in it."""
    done = subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT,
                          capture_output=True, timeout=120,
                          env={**os.environ, "PYTHONIOENCODING": encoding})
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode(encoding), done.stderr.decode(encoding))


@pytest.mark.parametrize("encoding", ["latin-1", "ascii", "euc-jp"])
def test_an_output_without_japanese_shows_a_saved_fight_action(
        encoding: str, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """env58 D1: the attack was saved and then its printing crashed, so the player never saw
    the roll and might run it again; now it is shown, Japanese as ``?`` (EUC-JP keeps it),
    the English beside it read, and the listing after it too."""
    assert main(["genso", "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc:2"]) == 0
    capsys.readouterr()
    done = companion_in(encoding, "genso", "fight", "attack", "pc1", "orc1", "--seed", "4")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "Body 6 + " in done.stdout and "(2D6+7>13)" in done.stdout
    assert "5[2,3]+7=12" in done.stdout and "/failure" in done.stdout
    assert "HP 12/12 MP 8/8" in done.stdout
    if encoding == "euc-jp":
        assert "失敗/failure" in done.stdout and "オーク1" in done.stdout
    else:
        assert "?/failure" in done.stdout
    logged = companion_in(encoding, "genso", "fight", "log")
    assert logged.returncode == 0 and "5[2,3]+7=12" in logged.stdout


def test_coc_act_and_help_under_latin1(tmp_path: Path, user_dirs: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """env58 D1: ``coc fight act`` prints its roll; ``--help`` (argparse's, before any
    command runs) and a rich listing (``rules monsters``) print too."""
    ann, cult = tmp_path / "ann.toml", tmp_path / "cult.toml"
    ann.write_text(SHEET.format(name="Ann", dex=14), encoding="utf-8")
    cult.write_text(SHEET.format(name="Cult", dex=10), encoding="utf-8")
    assert main(["coc", "fight", "new", "--investigators", str(ann), "--foes", str(cult),
                 "--seed", "1"]) == 0
    capsys.readouterr()
    acted = companion_in("latin-1", "coc", "fight", "act", "attack", "Ann", "Cult",
                         "--seed", "5")
    assert acted.returncode == 0, acted.stderr
    assert "Ann" in acted.stdout and "Cult" in acted.stdout and "1D100" in acted.stdout
    helped = companion_in("latin-1", "--help")
    assert helped.returncode == 0 and "a real mahjong set" in helped.stdout
    listed = companion_in("latin-1", "rules", "monsters")
    assert listed.returncode == 0 and "(kestrel): attack 7" in listed.stdout
    # The errors on stderr too: a name refused is said, not crashed on.
    refused = companion_in("latin-1", "rules", "monsters", "--monster", "dragon-king")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "(zombie)" in refused.stderr


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_json_under_a_narrow_encoding_keeps_the_japanese(encoding: str) -> None:
    """review58a R-1: ``--json`` on a stdout that has no code for Japanese is the same JSON
    (escaped), where ``?`` changed the names with exit 0."""
    History().record(Run(game_id="g", finished_at="2026-11-29T17:00:00Z", seed=7,
                         preset="plus", won=False, floor=4, level=3, gold=120,
                         cause="大蛇 (dragon)", events=88, input_kind="sim"))
    monsters = companion_in(encoding, "rules", "monsters", "--json")
    assert monsters.returncode == 0, monsters.stderr
    listed = json.loads(monsters.stdout)
    assert listed == json.loads(subprocess.run(
        [sys.executable, "-m", "companion", "rules", "monsters", "--json"], cwd=ROOT,
        capture_output=True, timeout=120, check=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"}).stdout.decode())
    assert "name_ja" in monsters.stdout and "?" not in monsters.stdout
    history = companion_in(encoding, "history", "--json")
    assert history.returncode == 0, history.stderr
    assert json.loads(history.stdout)["runs"][0]["cause"] == "大蛇 (dragon)"


def test_json_escapes_a_tile_glyph_as_json_does() -> None:
    """review58a R-1: a character past U+FFFF (the U+1F000 mahjong glyphs) is escaped as
    its UTF-16 pair, which json.loads reads back; ``\\U0001f004`` would not be JSON."""
    from companion.app.cli import JSON_ESCAPE

    text = json.dumps({"tile": "🀄 中"}, ensure_ascii=False)
    written = text.encode("latin-1", errors=JSON_ESCAPE).decode("latin-1")
    assert "\\ud83c\\udc04" in written
    assert json.loads(written) == {"tile": "🀄 中"}


def closed_stdin(*args: str) -> subprocess.CompletedProcess[str]:
    """``companion ARGS <&-``: standard input closed, not empty."""
    done = subprocess.run(["sh", "-c", 'exec "$0" -m companion "$@" <&-', sys.executable, *args],
                          cwd=ROOT, capture_output=True, timeout=120, env=os.environ.copy())
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode(), done.stderr.decode())


def test_closed_stdin_is_said_not_a_traceback(user_dirs: Path) -> None:
    """env58 N2: keyboard play, typed dice and the RFID enrolment with stdin closed."""
    played = closed_stdin("play", "--input", "sim", "--choices", "keyboard",
                          "--display", "terminal")
    assert played.returncode == 2 and "Traceback" not in played.stderr
    assert "standard input is not one" in played.stderr
    rolled = closed_stdin("roll", "2d6", "--dice", "typed")
    assert rolled.returncode == 1 and "Traceback" not in rolled.stderr
    assert "the input ended before the 2D6 was typed: nothing was saved" in rolled.stderr
    enrolled = closed_stdin("calibrate", "rfid", "--port", "loop://")
    assert "Traceback" not in enrolled.stderr
    assert "nothing was enrolled" in enrolled.stderr
    assert not (user_dirs / "config" / "rfid_tags.toml").exists()


def test_a_full_output_is_named(user_dirs: Path) -> None:
    """env58 N3: output to a full device is "standard output", not "a file"; a short one,
    which failed only at the exit's flush, no longer ends in Python's "Exception ignored"
    with status 120. (Buffered, as a shell's redirection has it.)"""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    for args in (["rules", "monsters"], ["roll", "2d6", "--seed", "1"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT,
                                  stdout=full, stderr=subprocess.PIPE, env=env, timeout=60)
        assert done.returncode == 1, done.stderr
        assert done.stderr.decode() == \
            "companion: error: standard output: No space left on device\n"


def test_a_closed_pipe_ends_as_for_every_command(user_dirs: Path) -> None:
    """env58 N3: the history's rich table on a pipe whose reader went away exits 141 as the
    other commands do (rich's console exited 1)."""
    assert run_companion("play", "--headless", "--state", str(user_dirs / "s.json"),
                         "--seed", "3", timeout=120).returncode == 0
    for args in (["history"], ["rules", "monsters"]):
        read, write = os.pipe()
        os.close(read)
        done = subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT,
                              stdout=write, stderr=subprocess.PIPE, env=os.environ.copy(),
                              timeout=60)
        os.close(write)
        assert (done.returncode, done.stderr) == (141, b""), args


def test_a_tilde_in_the_folders_is_the_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """env58 N4: ``COMPANION_DATA_DIR=~/d``, as systemd's Environment= passes it, is the home's
    ``d``, not a folder named ``~`` in the working folder."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", "~/c")
    monkeypatch.setenv("COMPANION_DATA_DIR", "~/d")
    monkeypatch.chdir(tmp_path)
    assert main(["config", "--path"]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "home" / "c" / "config.toml")
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) == 0
    assert (tmp_path / "home" / "d" / "genso" / "fight.json").is_file()
    assert not (tmp_path / "~").exists()


@pytest.mark.parametrize("variable", ["COMPANION_CONFIG_DIR", "COMPANION_DATA_DIR"])
def test_a_relative_folder_is_refused(variable: str, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """env58 N4: a relative folder would be another one from each working folder; it is
    refused with the full path it meant from here, and nothing is made."""
    monkeypatch.setenv(variable, "reld")
    monkeypatch.chdir(tmp_path)
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) == 2
    err = capsys.readouterr().err
    assert f"{variable}=reld is a relative path" in err
    assert f"{variable}={tmp_path / 'reld'}" in err
    assert not (tmp_path / "reld").exists()


@pytest.mark.parametrize("written", ["$HOME/d", "${HOME}/d"])
@pytest.mark.parametrize("variable", ["COMPANION_CONFIG_DIR", "COMPANION_DATA_DIR"])
def test_a_home_variable_not_expanded_is_said_so(
        variable: str, written: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """setup75 NIT 5: ``$HOME/d`` as systemd's Environment= passes it (or a shell in single
    quotes) was refused as "a relative path", and the full path offered named a folder
    called $HOME in the current one. The variable is said not expanded, and the path it
    meant offered, with ``~``, which companion expands; nothing is made."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv(variable, written)
    monkeypatch.chdir(tmp_path)
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) == 2
    said = written.removesuffix("/d")
    assert capsys.readouterr().err == (
        f"companion: error: {variable}={written}: {said} is not expanded here (systemd does "
        "not expand $HOME in Environment=, nor a shell in single quotes): write the full "
        f"path: {variable}={tmp_path / 'home' / 'd'} (or {variable}=~/d, which companion "
        "expands itself)\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == []


def test_another_variable_not_expanded_is_offered_as_this_shell_has_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """An absolute path with a variable in it (a folder named $USER) is said so too."""
    monkeypatch.setenv("USER", "pi")
    monkeypatch.setenv("COMPANION_DATA_DIR", "/srv/$USER/d")
    assert main(["history"]) == 2
    assert capsys.readouterr().err == (
        "companion: error: COMPANION_DATA_DIR=/srv/$USER/d: $USER is not expanded here "
        "(systemd does not expand $USER in Environment=, nor a shell in single quotes): "
        "write the full path: COMPANION_DATA_DIR=/srv/pi/d\n")


@pytest.mark.parametrize("variable", ["COMPANION_CONFIG_DIR", "COMPANION_DATA_DIR"])
def test_a_full_path_there_with_a_dollar_in_its_name_is_taken_as_written(
        variable: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewsetup75 RISK 2: an existing folder such as ``/srv/nas/a$b`` (a share's
    ``$RECYCLE.BIN``) was refused as "$b is not expanded here: write the full path", which
    it already was, so it could not be used at all."""
    folder = tmp_path / "a$b"
    folder.mkdir()
    monkeypatch.setenv(variable, str(folder))
    assert main(["config", "--show"]) == 0
    assert "not expanded" not in capsys.readouterr().err


@pytest.mark.parametrize("variable", ["COMPANION_CONFIG_DIR", "COMPANION_DATA_DIR"])
def test_the_home_of_no_user_is_said_not_a_traceback(
        variable: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """review58a N-2: ``~nosuchuser/d`` ended in pathlib's "Could not determine home
    directory" traceback."""
    monkeypatch.setenv(variable, "~nosuchuser/d")
    assert main(["history"]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {variable}=~nosuchuser/d names a home folder, and there is no "
        "user nosuchuser: give the full path\n")


def as_root_by_sudo(monkeypatch: pytest.MonkeyPatch, home: Path, player_home: Path) -> None:
    """A run as sudo makes it: euid 0, SUDO_USER the player, HOME root's, no COMPANION_*."""
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setenv("SUDO_USER", "pi")
    monkeypatch.setenv("HOME", str(home))
    for variable in ("COMPANION_CONFIG_DIR", "COMPANION_DATA_DIR", "XDG_CONFIG_HOME",
                     "XDG_DATA_HOME"):
        monkeypatch.delenv(variable, raising=False)
    real = pwd.getpwnam

    def getpwnam(name: str) -> pwd.struct_passwd:
        if name != "pi":
            return real(name)
        return pwd.struct_passwd(("pi", "x", 1000, 1000, "", str(player_home), "/bin/bash"))

    monkeypatch.setattr(pwd, "getpwnam", getpwnam)


def test_sudo_says_the_folders_are_roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """env58 R4: ``sudo companion …`` (HOME=/root) uses root's folders, which the boot
    service (the player's) never reads: said on stderr, for a reading command too."""
    as_root_by_sudo(monkeypatch, tmp_path / "root", tmp_path / "pi")
    assert main(["config", "--path"]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == str(
        tmp_path / "root" / ".config" / "jongrogue-companion" / "config.toml")
    assert captured.err.startswith("companion: warning: run as root by sudo, companion uses "
                                   f"root's folders {tmp_path / 'root' / '.config'}")
    assert "not pi's: the boot service, run as pi, never reads" in captured.err
    assert "COMPANION_CONFIG_DIR and COMPANION_DATA_DIR" in captured.err


def test_sudo_keeping_the_home_says_the_files_become_roots(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """env58 R4: where sudo kept the player's HOME, the folders are the player's, and what is
    written there belongs to root."""
    as_root_by_sudo(monkeypatch, tmp_path / "pi", tmp_path / "pi")
    assert main(["config", "--path"]) == 0
    err = capsys.readouterr().err
    assert "companion uses pi's folders" in err and "belongs to root" in err


def test_sudo_with_one_folder_set_says_the_other_is_roots(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """review58a N-3: with COMPANION_DATA_DIR alone set, the config folder (calibrations,
    tag map) was root's and nothing was said; and the other way round."""
    as_root_by_sudo(monkeypatch, tmp_path / "root", tmp_path / "pi")
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "d"))
    assert main(["config", "--path"]) == 0
    err = capsys.readouterr().err
    config = tmp_path / "root" / ".config" / "jongrogue-companion"
    assert f"companion uses root's folder {config}, not pi's" in err
    assert "never reads the calibrations or tag map kept there" in err
    assert err.rstrip().endswith("or set COMPANION_CONFIG_DIR")
    assert str(tmp_path / "d") not in err
    monkeypatch.delenv("COMPANION_DATA_DIR")
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "c"))
    assert main(["config", "--path"]) == 0
    err = capsys.readouterr().err
    assert "companion uses root's folder " in err and "never reads the games kept there" in err
    assert err.rstrip().endswith("or set COMPANION_DATA_DIR")


def test_no_word_of_sudo_otherwise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """env58 R4: root by sudo with the folders set, root logged in, or a user: nothing said."""
    as_root_by_sudo(monkeypatch, tmp_path / "root", tmp_path / "pi")
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "d"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "c"))
    assert main(["config", "--path"]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.delenv("COMPANION_DATA_DIR")
    monkeypatch.delenv("COMPANION_CONFIG_DIR")
    monkeypatch.delenv("SUDO_USER")
    assert main(["config", "--path"]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("SUDO_USER", "pi")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert main(["config", "--path"]) == 0
    assert capsys.readouterr().err == ""
