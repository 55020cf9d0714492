"""``companion replay``: a headless game's log plays again event for event."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_command
from companion.app.history import default_history_path
from companion.app.session.host import Session
from companion.systems.jongrogue.actions import input_from_notation
from companion.systems.jongrogue.game import RULES_REVISION, Game
from tests.app.played_log_helpers import _play, cut_to_its_first_40_lines
from tests.app.power_cuts import cut_after_saves


def test_replay_matches_two_games_and_catches_a_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "games.jsonl"
    _play(log, 11, capsys)
    _play(log, 12, capsys)
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "game 1 (seed 11, ez)" in out and "game 2 (seed 12, ez)" in out
    assert "the log ends before the game does" not in out
    lines = log.read_text(encoding="utf-8").splitlines()
    start = json.loads(lines[2])
    assert start["kind"] == "start_room"
    start["room"] = start["room"] % 9 + 1
    lines[2] = json.dumps(start)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(log)]) == 1
    assert f"DIFFERS: {log}:3: event 2 of the game at line 1: " in capsys.readouterr().out


def test_a_difference_names_its_line_in_the_file_and_shows_both_events_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a log of several games, DIFFERS named the game's header line and the event's
    index in it (the user had to add them up to find the line), and printed the log's event
    with its keys in order and the replay's in another; an event past the game's end named
    no line at all."""
    log = tmp_path / "games.jsonl"
    _play(log, 11, capsys)
    _play(log, 12, capsys)
    lines = log.read_text(encoding="utf-8").splitlines()
    second = max(n for n, line in enumerate(lines) if '"log": "jongrogue-companion"' in line)
    changed = second + 40
    event = json.loads(lines[changed])
    kind = event["kind"]
    lines[changed] = json.dumps({**event, "kind": "zzz"})
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(log)]) == 1
    out = capsys.readouterr().out
    logged, replayed = (json.dumps({**event, "kind": k}, sort_keys=True, ensure_ascii=False)
                        for k in ("zzz", kind))
    assert (f"DIFFERS: {log}:{changed + 1}: event 40 of the game at line {second + 1}: kind: "
            f'log "zzz", replay "{kind}"; the log has {logged}, the replay gives {replayed}\n'
            ) in out

    lines[changed] = json.dumps(event)
    log.write_text("\n".join([*lines, lines[-1]]) + "\n", encoding="utf-8")
    assert main(["replay", str(log)]) == 1
    assert (f"DIFFERS: {log}:{len(lines) + 1}: the log goes on, but the replay of the game at "
            f"line {second + 1} ended after {len(lines) - second - 1} events\n"
            ) in capsys.readouterr().out


def test_replay_of_a_cut_log_compares_what_is_there_and_says_it_stops_early(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log cut at a line's end (a power cut, no --resume after) said only "39 events
    match", as a whole game's log does: nothing told that the game went on past it."""
    log = tmp_path / "cut.jsonl"
    _play(log, 13, capsys)
    lines = cut_to_its_first_40_lines(log)
    assert main(["replay", str(log)]) == 0
    said = capsys.readouterr().out
    # No save holds a headless game played without --state: `play --resume --log` started
    # a new game and logged it in the same file (newuser61 N5). Its seed plays it again.
    again = f"{companion_command()} play --headless --seed 13 --preset ez --strategy cautious"
    assert said == (
        "game 1 (seed 13, ez): 39 events match; the log ends before the game does: the game "
        "was stopped or its log was cut short, and no save in the data folder holds it: a "
        f"--state file of it carries it on (`{companion_command()} play --headless --resume "
        f"--state FILE --log {log}`); `{again}` plays it again from the start\n")
    assert main([*again.split()[1:], "--log", str(tmp_path / "again.jsonl")]) == 0
    assert (tmp_path / "again.jsonl").read_text(encoding="utf-8").splitlines()[1:40] == \
        lines[1:40]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"kind": "floor", "floor": 1}\n', "an event before any game header"),
        ("not json\n", "not a JSON line"),
        ("", "no game in this log"),
    ],
)
def test_replay_of_a_bad_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(content, encoding="utf-8")
    assert main(["replay", str(log)]) == 2
    assert message in capsys.readouterr().err


def test_a_line_that_is_not_utf8_is_named_by_its_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bytes that are not UTF-8 in one line of a long log were refused as "not UTF-8 text"
    naming no line, where a line that is not JSON is named: the user could not find it."""
    log = tmp_path / "games.jsonl"
    _play(log, 11, capsys)
    lines = log.read_bytes().splitlines()
    lines[150] = b"\xff\xfe\x00garbage\x80"
    log.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["replay", str(log)]) == 2
    assert capsys.readouterr().err == (f"companion: error: {log}:151: not UTF-8 text "
                                       "(invalid start byte)\n")


def test_the_log_holds_turn_events_and_a_version_1_log_still_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Version 2 logs carry a turn event per melee turn; a version 1 log (no turn events)
    is compared with the replay's turn events left out."""
    log = tmp_path / "games.jsonl"
    _play(log, 11, capsys)
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["version"] == 2 and any(e.get("kind") == "turn" for e in lines)
    old = [{**lines[0], "version": 1}] + [e for e in lines[1:] if e["kind"] != "turn"]
    log.write_text("".join(json.dumps(e) + "\n" for e in old), encoding="utf-8")
    assert main(["replay", str(log)]) == 0
    assert f"{len(old) - 1} events match" in capsys.readouterr().out


@pytest.mark.parametrize(("change", "message"), [
    ({"seed": "x"}, "bad.jsonl:1: the game's seed must be a whole number, found 'x'"),
    ({"seed": None}, "the game's seed must be a whole number, found None"),
    ({"preset": None}, "the game's preset must be ez, plus, or ez with EZ Plus options "
     "joined by + (options: sleep_check, extended_states, strength, pc_states, drops, "
     "pincer), found None"),
    ({"preset": ["ez"]}, "the game's preset must be ez, plus, or ez with EZ Plus options "
     "joined by + (options: sleep_check, extended_states, strength, pc_states, drops, "
     "pincer), found ['ez']"),
    ({"preset": "ez+plus"}, "the game's preset: preset 'ez+plus': 'plus' is not an EZ Plus "
     "option; the options are sleep_check, extended_states, strength, pc_states, drops, "
     "pincer"),
    ({"strategy": 3}, "the game's strategy must be one of cautious, reckless, found 3"),
    ({"profile": 5}, "the game's profile must be text, found 5"),
])
def test_a_damaged_game_header_is_named_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, object],
        message: str) -> None:
    """A hand-edited header: the field and what it held, exit 2 (it was a ValueError, a
    KeyError or a TypeError before)."""
    log = tmp_path / "bad.jsonl"
    _play(log, 7, capsys)
    header, *events = log.read_text(encoding="utf-8").splitlines()
    damaged = {key: value for key, value in {**json.loads(header), **change}.items()
               if value is not None}
    log.write_text("\n".join([json.dumps(damaged), *events]) + "\n", encoding="utf-8")
    assert main(["replay", str(log)]) == 2
    assert message in capsys.readouterr().err


def test_replay_refuses_a_log_version_it_does_not_know(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "new.jsonl"
    log.write_text('{"log": "jongrogue-companion", "version": 3, "seed": 1}\n', encoding="utf-8")
    assert main(["replay", str(log)]) == 2
    assert "log version 3" in capsys.readouterr().err


def test_games_a_player_chose_or_the_table_read_are_named_not_replayed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The auto-player cannot play a keyboard game's choices again: no false DIFFERS."""
    from companion.app.commands.play import log_header
    from companion.app.session.save import SaveGame

    log = tmp_path / "table.jsonl"
    _play(log, 11, capsys)
    chose = log_header(SaveGame(seed=4, preset="plus", player_chose=True))
    camera = log_header(SaveGame(seed=5, preset="plus", input_kind="camera"))
    with log.open("a") as handle:
        handle.write("\n".join([*chose, '{"floor": 1, "kind": "floor"}', *camera]) + "\n")
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "game 1 (seed 11, ez):" in out and "events match" in out
    assert "game 2 (seed 4, plus): not replayed: a player made its choices" in out
    assert "game 3 (seed 5, plus): not replayed: its tiles came from the camera" in out


def test_a_log_replays_by_the_rules_revision_its_header_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 64 flees from two monsters under plus, which rules revision 2 plays otherwise
    (JR-FLEE-2): the header's revision is the one replayed; a header without one is a log
    from before revisions (1); one this companion does not know is refused."""
    log = tmp_path / "games.jsonl"
    assert main(["play", "--headless", "--seed", "64", "--preset", "plus", "--log",
                 str(log)]) == 0
    capsys.readouterr()
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["rules"] == RULES_REVISION
    assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    unknown = RULES_REVISION + 1
    for rules, code, said in ((None, 1, "DIFFERS"), (unknown, 2, f"rules revision {unknown}")):
        changed = {k: v for k, v in header.items() if k != "rules"}
        if rules is not None:
            changed["rules"] = rules
        log.write_text("\n".join([json.dumps(changed), *lines[1:]]) + "\n", encoding="utf-8")
        assert main(["replay", str(log)]) == code
        out, err = capsys.readouterr()
        assert said in out + err


def _play_with_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, Path, str]:
    """A log of a game played with a profile of the user's: the log, the profile, its text."""
    profile = tmp_path / "mine.toml"
    text = (files("companion.systems.jongrogue") / "data" / "profile.toml").read_text("utf-8")
    profile.write_text(text)
    log = tmp_path / "games.jsonl"
    assert main(["play", "--headless", "--seed", "11", "--profile", str(profile), "--log",
                 str(log)]) == 0
    capsys.readouterr()
    return log, profile, text


def test_a_game_logged_with_a_profile_key_now_refused_replays_as_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A profile's misspelt key was dropped unread when the game was played (later versions
    refuse it): the log replays as the game was played, not as an error. Such a log is of
    a version before the header's profile_hash, and replays without it."""
    log, profile, text = _play_with_profile(tmp_path, capsys)
    header, *events = log.read_text(encoding="utf-8").splitlines()
    older = {k: v for k, v in json.loads(header).items() if k != "profile_hash"}
    log.write_text("\n".join([json.dumps(older), *events]) + "\n", encoding="utf-8")
    profile.write_text(text.replace("wear_found_rings = true", "wear_found_ring = false", 1))
    assert main(["replay", str(log)]) == 0
    assert "game 1 (seed 11, plus)" in capsys.readouterr().out


def test_a_profile_changed_since_the_game_was_logged_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log replayed after its profile was edited gave a bare DIFFERS at the first event
    the numbers touched (an HP of 31 against 13), saying nothing of the profile."""
    log, profile, text = _play_with_profile(tmp_path, capsys)
    assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    profile.write_text(text.replace("max_hp_base = 12", "max_hp_base = 30", 1))
    assert main(["replay", str(log)]) == 2
    assert capsys.readouterr() == ("", (
        f"companion: error: {log}:1: the profile {profile.resolve()} changed since this game "
        "was logged (the file, or a packaged value it leaves out); put back the one it was "
        "played with to replay the game\n"))


def test_a_profile_that_cannot_be_read_is_named_as_the_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log whose profile is gone said only "/…/mine.toml: cannot read: No such file or
    directory", naming neither the log nor the game in it."""
    log, profile, _ = _play_with_profile(tmp_path, capsys)
    profile.unlink()
    assert main(["replay", str(log)]) == 2
    assert capsys.readouterr() == ("", (
        f"companion: error: {log}:1: this game was played with the profile "
        f"{profile.resolve()}, which cannot be read (No such file or directory); put it back "
        "there to replay the game\n"))


def _replay_child(log: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """`companion replay LOG` in a child given 20 s: /dev/zero was read into memory whole
    for ever (5 GB in 10 s), a pipe waited for a writer for ever."""
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data")}
    return subprocess.run([sys.executable, "-m", "companion", "replay", str(log)], env=env,
                          capture_output=True, text=True, timeout=20)


@pytest.mark.parametrize("kind", ["device", "pipe"])
def test_a_device_or_a_pipe_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    if kind == "pipe":
        log = tmp_path / "games.fifo"
        os.mkfifo(log)
    else:
        log = Path("/dev/zero")
    done = _replay_child(log, tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"companion: error: {log}: a device or a pipe, not a log\n"


def test_a_line_longer_than_any_log_holds_is_refused_by_its_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file of 3 MiB without a line end (a log's tail overwritten, a disk image) is refused
    at its first MiB, naming the line, not read whole."""
    log = tmp_path / "games.jsonl"
    _play(log, 11, capsys)
    whole = log.read_bytes()
    log.write_bytes(whole + b"\x00" * (3 * 1024 * 1024))
    lines = len(whole.splitlines())
    assert main(["replay", str(log)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {log}:{lines + 1}: a line longer than 1024 KiB, "
        "which no log holds\n")


def test_a_log_with_windows_line_ends_still_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Read a line at a time now, a log saved again with CRLF line ends replays as before."""
    log = tmp_path / "games.jsonl"
    _play(log, 11, capsys)
    log.write_bytes(log.read_bytes().replace(b"\n", b"\r\n"))
    assert main(["replay", str(log)]) == 0
    assert "events match" in capsys.readouterr().out


def test_a_line_nested_thousands_deep_is_named_by_its_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A line of 3000 brackets is a line that is not JSON, named, not a RecursionError."""
    log = tmp_path / "games.jsonl"
    _play(log, 11, capsys)
    lines = len(log.read_bytes().splitlines())
    with log.open("a", encoding="utf-8") as out:
        out.write("[" * 3000 + "]" * 3000 + "\n")
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"companion: error: {log}:{lines + 1}: not a JSON line (nested too")


def _logged_in_the_data_folders_save(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """A game of seed 13 played to its end with --log, its save in the data folder marked
    unfinished again (as a save the disk refused behind the end, or a stop); the save and
    the log."""
    from companion.app.session.save import default_save_path

    save = default_save_path()
    save.parent.mkdir(parents=True, exist_ok=True)
    log = tmp_path / "kept.jsonl"
    assert main(["play", "--headless", "--seed", "13", "--preset", "ez", "--state", str(save),
                 "--log", str(log)]) == 0
    capsys.readouterr()
    whole = json.loads(save.read_text(encoding="utf-8"))
    save.write_text(json.dumps({**whole, "finished": False}), encoding="utf-8")
    return save, log


def test_a_cut_log_of_a_game_the_history_holds_names_no_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """fixh65b: a save behind its game's end (the disk refused it) whose game the history
    holds is over: its resume starts a new game, so the replay of its cut log names none."""
    save, log = _logged_in_the_data_folders_save(tmp_path, capsys)
    cut_to_its_first_40_lines(log)
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out == (
        "game 1 (seed 13, ez): 39 events match; the log ends before the game does: the game "
        f"is over and in the history (`{companion_command()} history` lists it); {save} was "
        "behind its end, and the next game replaces it\n")


def test_a_cut_log_of_a_game_the_data_folders_save_holds_names_the_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """newuser61 N5: the resume is named only where a save holds the game; as printed, it
    carries that game on in the same log."""
    save, log = _logged_in_the_data_folders_save(tmp_path, capsys)
    # Stopped, it is not in the history (review65h RISK 1: an unfinished save of a game in
    # the history is over, and its resume plays a new game).
    default_history_path().unlink()
    assert main(["replay", str(log)]) == 0
    said = capsys.readouterr().out
    assert "; the log ends before the game does" not in said  # the log holds the whole game
    lines = cut_to_its_first_40_lines(log)
    assert main(["replay", str(log)]) == 0
    resume = f"{companion_command()} play --headless --resume --log {log}"
    assert capsys.readouterr().out == (
        "game 1 (seed 13, ez): 39 events match; the log ends before the game does: the game "
        f"was stopped, and {save} holds it: `{resume}` carries it on\n")
    assert main(resume.split()[1:]) == 0
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.endswith(f"{len(lines) - 1} events match\n")


def test_a_stopped_game_whose_state_file_is_in_the_data_folder_is_named_with_it(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """journey73 NIT 6: a game stopped with --state and --log both in the data folder was
    said to be held by "no save in the data folder", which looked at save.json alone. The
    --state file there is named, with the command that carries it on, which works."""
    data = default_history_path().parent
    state, log = data / "s.json", data / "l.jsonl"
    assert main(["play", "--headless", "--seed", "13", "--preset", "ez", "--state",
                 str(state), "--log", str(log)]) == 0
    # As a stop 20 moves in leaves them (another game id: that one is in the history).
    whole = json.loads(state.read_text(encoding="utf-8"))
    played = Game.replay([input_from_notation(i) for i in whole["inputs"][:20]], "ez", None,
                         revision=whole["rules"])
    game_id = "0" * 32
    state.write_text(json.dumps({**whole, "inputs": whole["inputs"][:20], "finished": False,
                                 "events": len(played.events), "game_id": game_id}),
                     encoding="utf-8")
    lines = log.read_text(encoding="utf-8").splitlines()
    header = {**json.loads(lines[0]), "game_id": game_id}
    log.write_text("\n".join([json.dumps(header, ensure_ascii=False, sort_keys=True),
                              *lines[1:len(played.events) + 1]]) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    resume = f"{companion_command()} play --headless --resume --state {state} --log {log}"
    out = capsys.readouterr().out
    assert f"the game was stopped, and {state} holds it: `{resume}` carries it on" in out
    assert main(resume.split()[1:]) == 0
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    assert "the log ends before the game does" not in capsys.readouterr().out


def test_a_stopped_log_of_a_game_played_on_to_its_end_elsewhere_is_said_to_be_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """journey75 DEFECT 3: a game stopped in a.jsonl, played on to its end with --log
    b.jsonl (its --state file outside the data folder), was said stopped, with the resume
    that carries it on; followed with its own save, that started a new game in a.jsonl. The
    history holds the game: it is said to be over, with no resume; its seed still plays it
    again from the start."""
    state, stopped, whole = tmp_path / "s.json", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(20))
        assert main(["play", "--headless", "--seed", "8", "--state", str(state), "--log",
                     str(stopped)]) == 130
    assert main(["play", "--headless", "--resume", "--state", str(state), "--log",
                 str(whole)]) == 0
    logged = len(stopped.read_text(encoding="utf-8").splitlines()) - 1
    capsys.readouterr()
    assert main(["replay", str(stopped)]) == 0
    assert capsys.readouterr().out == (
        f"game 1 (seed 8, plus): {logged} events match; the log ends before the game does: "
        f"the game is over (`{companion_command()} history` lists it): this log stops before "
        "its end (cut short, or the game played on without it); "
        f"`{companion_command()} play --headless --seed 8 --preset plus --strategy cautious` "
        "plays it again from the start\n")


def test_replays_search_of_the_data_folder_waits_on_no_pipe() -> None:
    """reviewj73 NIT 3: replay's search for the save read every *.json file in the data
    folder and every kept copy (of a log too) with read_text, which waits on a named pipe
    for a writer: a FIFO there hung it. It is passed over, and the save found after it."""
    data = default_history_path().parent
    data.mkdir(parents=True, exist_ok=True)
    state, log = data / "s.json", data / "l.jsonl"
    assert main(["play", "--headless", "--seed", "13", "--preset", "ez", "--state",
                 str(state), "--log", str(log)]) == 0
    whole = json.loads(state.read_text(encoding="utf-8"))
    state.write_text(json.dumps({**whole, "finished": False, "game_id": "0" * 32}),
                     encoding="utf-8")
    lines = log.read_text(encoding="utf-8").splitlines()
    header = {**json.loads(lines[0]), "game_id": "0" * 32}
    log.write_text(json.dumps(header, sort_keys=True) + "\n" + lines[1] + "\n",
                   encoding="utf-8")
    for name in ("a.json", "l.jsonl.corrupt-20261207T104857Z"):  # before s.json, sorted
        os.mkfifo(data / name)
    ran = subprocess.run([sys.executable, "-m", "companion", "replay", str(log)],
                         capture_output=True, text=True, timeout=60,
                         env={**os.environ, "COMPANION_DATA_DIR": str(data)})
    assert ran.returncode == 0, ran.stderr
    assert f"{state} holds it" in ran.stdout


@pytest.mark.parametrize("history", ["notes", "a named pipe"])
def test_replay_of_a_stopped_log_leaves_a_damaged_history_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    history: str,
) -> None:
    """reviewjourney75 RISK 3: `replay LOG` of a stopped game asks the history whether the
    game is over (ead89f66); the lookup kept a file that is no history aside as
    history.sqlite3.corrupt-… and began a new one, and replay said nothing of it. It is
    asked read-only: the file is left as it is (a pipe not waited on), and the next game
    mends it, saying so. Whether the game is over cannot be told then: no resume is named,
    and why is said (reviewjourney75b RISK 2: the game was said stopped, and the resume of
    a game over started a second game in its log)."""
    state, stopped = tmp_path / "s.json", tmp_path / "a.jsonl"
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(20))
        assert main(["play", "--headless", "--seed", "8", "--state", str(state), "--log",
                     str(stopped)]) == 130
    path = default_history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if history == "notes":
        path.write_bytes(b"these are my notes, not a db\n")
    else:
        os.mkfifo(path)
    before = sorted(os.listdir(path.parent))
    capsys.readouterr()
    assert main(["replay", str(stopped)]) == 0
    out, err = capsys.readouterr()
    why = "file is not a database" if history == "notes" else "not a history file"
    assert (f"whether the game is over cannot be told: the history could not be read ({path}: "
            f"{why}); `companion history` reads it (and mends it), then replay again") in out, out
    assert "try again" not in out  # only a busy history passes (reviewjourney75c NIT 2)
    assert "carries it on" not in out
    assert err == ""
    assert sorted(os.listdir(path.parent)) == before
    if history == "notes":
        assert path.read_bytes() == b"these are my notes, not a db\n"


def test_a_cut_log_of_a_game_over_held_by_another_state_file_says_it_can_be_removed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """reviewjourney75 NIT 7: a --state file of its own in the data folder (mine.json),
    behind its game's end, was said to be replaced by the next game, which replaces only
    save.json: it stays until removed, and is said so."""
    save, log = _logged_in_the_data_folders_save(tmp_path, capsys)
    mine = save.with_name("mine.json")
    save.rename(mine)
    cut_to_its_first_40_lines(log)
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out == (
        "game 1 (seed 13, ez): 39 events match; the log ends before the game does: the game "
        f"is over and in the history (`{companion_command()} history` lists it); {mine} was "
        "behind its end, and it can be removed\n")


def test_a_revision_12_log_of_a_gold_loss_the_pc_could_not_pay_replays_as_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """r76jr DEFECT 1: revision 13 keeps the loss asked for beside a loss of gold the PC
    could not pay whole (``asked``); a log revision 12 wrote has none, and it replays by
    its own revision, event for event. A profile with no gold piles leaves EZ seed 3's PC
    poor when poison takes its gold. The revision-12 log is made as revision 12 wrote it:
    the same game's, its header's revision 12 and no ``asked`` in its events (all revision
    13 changed in it); under revision 13's header the missing ``asked`` differs."""
    profile = tmp_path / "nogold.toml"
    profile.write_text("[map]\ngold_per_rank = 0\n", encoding="utf-8")
    log = tmp_path / "games.jsonl"
    assert main(["play", "--headless", "--seed", "3", "--preset", "ez", "--profile",
                 str(profile), "--log", str(log)]) == 0
    capsys.readouterr()
    header, *events = (json.loads(line) for line in log.read_text("utf-8").splitlines())
    assert header["rules"] == RULES_REVISION == 13
    clamped = [e for e in events if "asked" in e]
    assert clamped and all(e["amount"] != e["asked"] for e in clamped)

    def written(rules: int) -> None:
        lines = [{**header, "rules": rules},
                 *({k: v for k, v in e.items() if k != "asked"} for e in events)]
        log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")

    written(12)
    assert main(["replay", str(log)]) == 0
    assert f"{len(events)} events match" in capsys.readouterr().out
    written(13)
    assert main(["replay", str(log)]) == 1
    assert "asked: log (none), replay -10" in capsys.readouterr().out
