"""hist70's findings on files a power cut damaged, fixed.

D1: a coc fight file that was empty, all zero bytes or cut short was said in json's words
("cannot read the fight (Expecting value: line 1 column 1 (char 0))"), where genso's and
the tables' readers say what happened (json_fault); it is said so now, with what to do.
R1: a ``--log`` on a disk mounted read-only refused the whole game ("…/g.jsonl: Read-only
file system", status 1), a resume's as a new one's, where a full disk lets it play on; it
plays on now, told as a full disk is, and the log is written whole once it can be.
N1: an all-zero history was said to hold games "in the kept file"; it holds none.
N2: a config.toml of zero bytes, or one ending in the middle, was said in tomllib's words."""

from __future__ import annotations

import builtins
import errno
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_command
from companion.app.config import load_config
from companion.app.history import default_history_path
from companion.app.modes.genso import GensoFightMode
from companion.app.session.mode import ChoiceAsk
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.power_cuts import cut_after_saves
from tests.companion_process import ROOT

EXAMPLES = ROOT / "docs" / "examples"
SEED = "2"  # a short headless game (as in test_session)
READ_ONLY = os.strerror(errno.EROFS)
_WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


# --- D1: a damaged coc fight file ---------------------------------------------------------


def coc_fight(*more: str) -> None:
    assert main(["coc", "fight", "new", "--investigators", str(EXAMPLES / "ann.toml"),
                 str(EXAMPLES / "bob.toml"), "--foes", str(EXAMPLES / "cultist.toml"),
                 "--seed", "1", *more]) == 0


@pytest.mark.parametrize(("cut", "said"), [
    (lambda whole: b"\0" * len(whole), "the fight file is all zero bytes: a power cut as it "
                                       "was written?"),
    (lambda whole: b"", "the fight file is empty"),
    (lambda whole: whole[:500], "the fight file ends in the middle: cut short after 500 "
                                "bytes"),
    (lambda whole: b"hello\n", "expecting value at byte 1 of 6"),
])
@pytest.mark.parametrize("verb", [["show"], ["log"], ["undo"], ["end"],
                                  ["act", "end_turn", "Ann"]])
def test_a_damaged_coc_fight_file_is_said_as_genso_s_with_what_to_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cut: object, said: str,
        verb: list[str]) -> None:
    coc_fight()
    capsys.readouterr()
    path = tmp_path / "data" / "coc" / "fight.json"
    assert callable(cut)
    path.write_bytes(cut(path.read_bytes()))
    before = path.read_bytes()
    assert main(["coc", "fight", *verb]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {path}: not JSON ({said}); it cannot be played on: "
        f"`{companion_command()} coc fight new --investigators SHEET.toml --foes SHEET.toml "
        "--force` starts a new fight, keeping this "
        "file as fight.json.corrupt-…\n")
    assert path.read_bytes() == before  # left in place


def test_what_to_do_names_the_fight_s_own_file_and_new_force_does_as_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A fight at ``--file`` is started over with that ``--file``: without it, `fight new`
    wrote the data folder's fight and the damaged one stayed."""
    path = tmp_path / "mine.json"
    coc_fight("--file", str(path))
    path.write_bytes(b"\0" * path.stat().st_size)
    capsys.readouterr()
    assert main(["coc", "fight", "show", "--file", str(path)]) == 2
    err = capsys.readouterr().err
    new = (f"`{companion_command()} coc fight new --investigators SHEET.toml --foes "
           f"SHEET.toml --force --file {path.resolve()}` starts a "
           "new fight, keeping this file as mine.json.corrupt-…")
    assert err.endswith(f"power cut as it was written?); it cannot be played on: {new}\n")
    coc_fight("--file", str(path), "--force")
    (kept,) = tmp_path.glob("mine.json.corrupt-*")
    assert kept.read_bytes().strip(b"\0") == b""
    assert main(["coc", "fight", "show", "--file", str(path)]) == 0


# --- R1: a --log on a read-only disk ------------------------------------------------------


def read_only(path: Path, monkeypatch: pytest.MonkeyPatch, refusals: int | None = None) -> None:
    """The disk holding ``path`` is mounted read-only: every opening of it to write is
    refused with EROFS (the first ``refusals`` of them; None: every one), at the OS's edge
    (``os.open``, and ``open`` for the log's ``rb+``). Reading it goes on."""
    target, real_os_open, real_open = path.resolve(), os.open, builtins.open
    refused = 0

    def refuse(file: Any) -> bool:
        nonlocal refused
        if not isinstance(file, (str, os.PathLike)) or Path(file).resolve() != target:
            return False
        if refusals is not None and refused >= refusals:
            return False
        refused += 1
        return True

    def os_open(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & _WRITING and refuse(file):
            raise OSError(errno.EROFS, READ_ONLY, str(file))
        return real_os_open(file, flags, *args, **kwargs)

    def opened(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if set(mode) & set("wax+") and refuse(file):
            raise OSError(errno.EROFS, READ_ONLY, str(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", opened)


def told(log: Path) -> str:
    return (f"companion: cannot write the log {log} ({READ_ONLY}): the game goes on, and the "
            f"log is written whole again once it can be\n"
            f"companion: cannot write the log {log} ({READ_ONLY}): it stops before the "
            "game's end\n")


def seeds_recorded(capsys: pytest.CaptureFixture[str]) -> list[int]:
    capsys.readouterr()
    assert main(["history", "--json"]) == 0
    return [run["seed"] for run in json.loads(capsys.readouterr().out)["runs"]]


def test_a_new_game_logged_on_a_read_only_disk_plays_on_as_on_a_full_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    assert main(["play", "--headless", "--seed", "1", "--log", str(log)]) == 0
    before = log.read_bytes()
    capsys.readouterr()
    with monkeypatch.context() as patch:
        read_only(log, patch)
        assert main(["play", "--headless", "--seed", SEED, "--state",
                     str(tmp_path / "new.json"), "--log", str(log)]) == 0
    assert capsys.readouterr().err == told(log)
    assert log.read_bytes() == before
    assert seeds_recorded(capsys) == [int(SEED)]  # (a game with no --state is not kept)


def test_a_resume_logged_on_a_read_only_disk_plays_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    log, state = tmp_path / "g.jsonl", tmp_path / "s.json"
    with monkeypatch.context() as patch:
        patch.setattr("companion.app.session.host.Session._commit", cut_after_saves(20))
        assert main(["play", "--headless", "--seed", SEED, "--state", str(state),
                     "--log", str(log)]) == 130
    before = log.read_bytes()
    capsys.readouterr()
    with monkeypatch.context() as patch:
        read_only(log, patch)
        assert main(["play", "--headless", "--resume", "--state", str(state),
                     "--log", str(log)]) == 0
    assert capsys.readouterr().err == told(log)
    assert log.read_bytes() == before
    assert seeds_recorded(capsys) == [int(SEED)]


def test_a_log_the_disk_takes_again_is_written_whole_from_the_last_whole_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Read-only as the game begins (the log's first line torn by an earlier cut), then
    remounted: the game's lines are written whole after the earlier game's, the torn line
    gone, and the file replays."""
    log = tmp_path / "g.jsonl"
    assert main(["play", "--headless", "--seed", "1", "--log", str(log)]) == 0
    with log.open("ab") as handle:
        handle.write(b'{"choices": "au')  # torn by a cut
    capsys.readouterr()
    with monkeypatch.context() as patch:
        read_only(log, patch, refusals=2)  # the start's cut back, and its first write
        assert main(["play", "--headless", "--seed", SEED, "--state",
                     str(tmp_path / "new.json"), "--log", str(log)]) == 0
    assert capsys.readouterr().err == (
        f"companion: cannot write the log {log} ({READ_ONLY}): the game goes on, and the "
        f"log is written whole again once it can be\n"
        f"companion: the log {log} holds the whole game again\n")
    for line in log.read_text().splitlines():
        json.loads(line)  # whole lines alone: the torn one is gone
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out] == ["game 1 (seed 1, plus)",
                                                    f"game 2 (seed {SEED}, plus)"]
    assert all(line.endswith("events match") for line in out)


# --- N1: an all-zero history --------------------------------------------------------------


def test_an_all_zero_history_is_said_to_be_so_and_to_hold_no_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = default_history_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\0" * 12288)
    assert main(["history"]) == 0
    (kept,) = path.parent.glob("history.sqlite3.corrupt-*")
    assert capsys.readouterr().err == (
        f"companion: {path} was not a readable history (the file is all zero bytes: a power "
        f"cut as it was written?); kept as {kept.name}, starting a new one; it held no game "
        "that can be read\n")
    assert kept.read_bytes() == b"\0" * 12288


def test_a_history_zeroed_in_part_still_says_its_games_are_in_the_kept_file(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Only a file of zero bytes alone holds none: one whose header a cut zeroed may hold
    them still."""
    path = default_history_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\0" * 4096 + b"\x0d" + b"\0" * 4095)
    assert main(["history"]) == 0
    (kept,) = path.parent.glob("history.sqlite3.corrupt-*")
    assert f"(any it held are in {kept.name})" in capsys.readouterr().err


# --- N2: a damaged config.toml ------------------------------------------------------------


@pytest.mark.parametrize(("data", "said"), [
    (b"\0" * 300, "the file is all zero bytes: a power cut as it was written?"),
    (b'[input]\nkind = "rfid', "unterminated string at the file's end, line 2: a quote or "
                               "bracket left open there, or the file cut short?"),
    (b"[input]\nkind = [1,\n\n", "invalid value at the file's end, line 2: a quote or "
                                 "bracket left open there, or the file cut short?"),
    (b'[input]\nkind = "rfid\n', "Illegal character '\\n' (at line 2, column 13)"),
])
def test_a_damaged_config_toml_is_said_in_our_words_with_its_line(
        data: bytes, said: str) -> None:
    path = load_config().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    config = load_config(env={})
    assert config.notices[0] == (f"{path} is not a valid TOML file ({said}); the defaults are "
                                 "used until it is mended")
    assert path.read_bytes() == data  # the player's file, left as it is


# --- D2: a genso calendar or saved character a power cut damaged --------------------------


def aside(path: Path) -> str:
    """The command that moves ``path`` aside, its time stamp as :func:`unstamped` leaves it
    (a name nothing has, reviewh70 RISK 3)."""
    return f"`mv {path} {path}.corrupt-STAMP`"


def unstamped(text: str) -> str:
    """``text`` with each UTC time stamp a kept name carries as ``STAMP``."""
    return re.sub(r"-\d{8}T\d{6}Z", "-STAMP", text)


def lost_calendar(path: Path, fault: str, mend: str = "", copy: str = "") -> str:
    return (f"{path}: not TOML ({fault}); {mend}move it aside ({aside(path)}) to start the "
            "calendar again at day 1: the day, the Death Curses and the deaths it kept are "
            f"lost{copy}")


@pytest.mark.parametrize(("cut", "said"), [
    (lambda whole: b"\0" * len(whole), "the file is all zero bytes: a power cut as it was "
                                       "written?"),
    (lambda whole: b"day = ", "the file ends in the middle: cut short after 6 bytes"),
])
def test_a_calendar_a_power_cut_damaged_says_so_and_what_to_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cut: object, said: str) -> None:
    assert main(["genso", "calendar", "pass", "3"]) == 0
    path = tmp_path / "data" / "genso" / "calendar.toml"
    assert callable(cut)
    path.write_bytes(cut(path.read_bytes()))
    before = path.read_bytes()
    capsys.readouterr()
    for command in (["calendar"], ["calendar", "pass", "1"]):
        assert main(["genso", *command]) == 2
        assert unstamped(capsys.readouterr().err) == (
            f"companion: error: {lost_calendar(path, said)}\n")
    assert path.read_bytes() == before
    # as it says: moved aside, the calendar begins again
    path.rename(f"{path}.corrupt-20250101T000000Z")
    assert main(["genso", "calendar", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["day"] == 1


def test_a_calendar_s_copy_a_cut_write_left_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "calendar", "pass", "3"]) == 0
    path = tmp_path / "data" / "genso" / "calendar.toml"
    copy = path.with_name(".calendar.toml.k3j9x2.tmp")
    copy.write_bytes(path.read_bytes())
    old = copy.stat().st_mtime - 60  # left by a run that is over
    os.utime(copy, (old, old))
    path.write_bytes(b"\0" * 20)
    # last written before the cut write (a copy older than that is said so: reviewdice75 R2)
    os.utime(path, (old - 60, old - 60))
    capsys.readouterr()
    assert main(["genso", "calendar"]) == 2
    kept = path.with_name("calendar.toml.unwritten-STAMP")
    assert unstamped(capsys.readouterr().err) == "companion: error: " + lost_calendar(
        path, "the file is all zero bytes: a power cut as it was written?",
        copy=f"; {kept.name}, kept beside it from a write cut short, reads as a whole "
             f"calendar: put it back instead with `mv {path} {path}.corrupt-STAMP && mv "
             f"{kept} {path}`") + "\n"


def test_a_calendar_mistyped_is_told_by_its_line_to_mend(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "data" / "genso" / "calendar.toml"
    path.parent.mkdir(parents=True)
    path.write_text("day = 3\nfoo bar\n")
    assert main(["genso", "calendar"]) == 2
    fault = "Expected '=' after a key in a key/value pair (at line 2, column 5)"
    assert unstamped(capsys.readouterr().err) == (
        f"companion: error: {lost_calendar(path, fault, mend='mend that line, or ')}\n")


def test_the_table_says_a_damaged_calendar_by_its_fault_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The table's status is one line: what to do is for the GM's commands."""
    assert main(["genso", "calendar", "pass", "3"]) == 0
    path = tmp_path / "data" / "genso" / "calendar.toml"
    path.write_bytes(b"\0" * 20)
    rules = load_rules()
    fight = Fight(rules, entrants_for(rules, [preset(rules, "pc1")], [("orc", 1)]))
    mode = GensoFightMode(rules, fight, "simulated 仮想")
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    view = mode.view(ask.prompt, options=ask.options, highlight=0)
    assert view.status == ("呪殺呪の表示なし Death Curses not shown: "
                           f"{path}: not TOML (the file is all zero bytes: a power cut as it "
                           "was written?)")


def lost_sheet(path: Path, fault: str, again: str) -> str:
    return (f"{path}: not TOML ({fault}); move it aside ({aside(path)}) to make the character "
            f"again (`{companion_command()} genso new {again}`) or write its sheet again by "
            "hand: the HP, MP, items and growth it held are lost")


@pytest.mark.parametrize(("cut", "said"), [
    (lambda whole: b"\0" * len(whole), "the file is all zero bytes: a power cut as it was "
                                       "written?"),
    (lambda whole: whole[:whole.index(b'"knife"') + 3],  # in the middle of a name
     "the file ends in the middle: cut short after {n} bytes"),
])
def test_a_saved_character_a_power_cut_damaged_says_so_and_what_to_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cut: object, said: str) -> None:
    assert main(["genso", "new", "Cy", "--body", "6", "--perception", "5", "--magic", "4",
                 "--skill", "combat", "--seed", "2"]) == 0
    path = tmp_path / "data" / "genso" / "characters" / "Cy.toml"
    assert callable(cut)
    path.write_bytes(cut(path.read_bytes()))
    before = path.read_bytes()
    said = said.format(n=len(before))
    capsys.readouterr()
    for command in (["sheet", "Cy"], ["rest", "Cy"],
                    ["fight", "new", "--party", "Cy", "--monsters", "orc"]):
        assert main(["genso", *command]) == 2
        assert unstamped(capsys.readouterr().err) == (
            f"companion: error: {lost_sheet(path, said, 'Cy …')}\n")
    assert path.read_bytes() == before


def test_a_sheet_file_cut_short_names_it_for_genso_new_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bo.toml"
    path.write_bytes(b'name = "Bo"\nbody = 6\nhp = ')
    assert main(["genso", "sheet", str(path)]) == 2
    assert unstamped(capsys.readouterr().err) == "companion: error: " + lost_sheet(
        path, "the file ends in the middle: cut short after 26 bytes",
        f"NAME … --out {path}") + "\n"


def test_a_sheet_mistyped_is_told_by_its_line_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A player's typing is mended, not moved aside: tomllib's line, as before."""
    path = tmp_path / "bo.toml"
    path.write_bytes(b'name = "Bo"\nbody 6\n')
    assert main(["genso", "sheet", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {path}: not TOML (Expected '=' after a key in a key/value pair "
        "(at line 2, column 6))\n")
