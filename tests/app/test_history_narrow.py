"""`companion history` on a narrow terminal and in data folders it cannot use (env58 N1,
N3): below 80 columns every cell was cut to "…", the date, the result and the gold with
them; a data folder that is a file said "File exists"; a read-only home with no history yet
said "Read-only file system" where there was nothing to read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.history import History, HistoryError, Run, default_history_path
from tests.app.companion_script_helpers import companion_on_path
from tests.app.history_table_helpers import RUNS, table_at
from tests.disk import without_root_override


def cells(out: str) -> list[str]:
    """The table's cells' lines."""
    return [part.strip() for line in out.splitlines() if line.startswith("│")
            for part in line.strip("│").split("│")]


def column(out: str, name: str) -> str:
    """The column headed ``name``, its lines joined."""
    header = next(line for line in out.splitlines() if line.startswith("┃") and name in line)
    at = [part.strip() for part in header.strip("┃").split("┃")].index(name)
    return "".join(line.strip("│").split("│")[at].strip() for line in out.splitlines()
                   if line.startswith("│"))


@pytest.mark.parametrize("columns", [47, 50, 60, 70])
def test_a_narrow_table_keeps_the_date_result_floor_and_gold_whole(
        columns: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    companion_on_path(tmp_path, monkeypatch)  # the note names it by its name
    out = table_at(columns, monkeypatch, capsys)
    assert "…" not in out
    said = cells(out)
    for run in RUNS:
        date, time = run.finished_at[:19].split("T")
        assert {date, time, str(run.floor), str(run.gold)} <= set(said), out
    assert "生還 won" in said or {"生還", "won"} <= set(said)
    # The result may wrap at its spaces: none of it is lost, no word split.
    assert column(out, "result").replace(" ", "") == "died:ジャバウォック(jabberwock)生還won"
    assert "left out at this width: `companion history --json` has them" in " ".join(
        out.split())


def test_columns_are_left_out_whole_the_least_needed_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """At 60 columns the seed, which plays the game again, is kept whole, not cut to
    "21474836…"; the rules revision, the level and the preset are left out and said so."""
    companion_on_path(tmp_path, monkeypatch)  # the note's command, at any checkout's path
    out = table_at(60, monkeypatch, capsys)
    said = cells(out)
    assert {"2147483647", "3", "ジャバウォック"} <= set(said), out
    assert "(rules, level, preset left out at this width" in out


def test_a_wide_table_is_as_before(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = table_at(120, monkeypatch, capsys)
    assert "2026-12-05 17:24:02" in out and "left out" not in out
    header = next(line for line in out.splitlines() if "finished (UTC)" in line)
    assert [part.strip() for part in header.split("┃")[1:-1]] == [
        "finished (UTC)", "preset", "result", "floor", "level", "gold", "seed", "rules"]


def test_a_data_folder_that_is_a_file_is_said_by_name(
        capsys: pytest.CaptureFixture[str]) -> None:
    data = default_history_path().parent
    data.parent.mkdir(parents=True, exist_ok=True)
    data.write_text("not a folder\n")
    said = (f"{default_history_path()}: the data folder (COMPANION_DATA_DIR) cannot be made: "
            "a file is in its place")
    assert main(["history"]) == 1
    assert capsys.readouterr().err == f"companion: error: {said}\n"
    with pytest.raises(HistoryError) as refused:
        History().record(RUNS[0])
    assert str(refused.value) == said
    # A file further up is named too.
    deeper = History(data / "more" / "history.sqlite3")
    with pytest.raises(HistoryError) as refused:
        deeper.runs()
    assert str(refused.value) == (f"{deeper.path}: its folder cannot be made: a file is in "
                                  f"the place of {data}")


def test_a_read_only_home_with_no_history_yet_has_no_finished_games(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(home / "config"),
           "COMPANION_DATA_DIR": str(home / "data"), "COLUMNS": "200"}
    home.chmod(0o555)
    try:
        done = subprocess.run([*without_root_override(), sys.executable, "-m", "companion",
                               "history"], env=env, capture_output=True, text=True, timeout=60)
        listed = subprocess.run([*without_root_override(), sys.executable, "-m", "companion",
                                 "history", "--json"], env=env, capture_output=True, text=True,
                                timeout=60)
    finally:
        home.chmod(0o755)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.startswith("No finished games yet.")
    assert (listed.returncode, listed.stderr) == (0, ""), listed.stderr
    assert '"runs": []' in listed.stdout
    assert list(home.iterdir()) == []  # no folder made to say so


@pytest.mark.parametrize("columns", [30, 60])
def test_a_hint_breaks_at_its_spaces_never_inside_its_command(
        columns: int, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """CI at c6a15a5: from a checkout at a longer path, history's hint broke its command's
    whole path across two lines ("…/.venv/bin/companion \\nplay`."), which fails where pasted.
    The command keeps a line whole, wider than the terminal when it must."""
    script = Path("/srv/a folder/[games]") / ("very-long-checkout-name-" * 2) / "companion"
    monkeypatch.setattr("companion.app.commands.history.companion_command",
                        lambda: str(script))
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["history"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"`{script} play`." in lines
    assert all(len(line) <= columns for line in lines if str(script) not in line)
    assert f"`{script} play --input sim --choices keyboard --display terminal`." in lines
    # setup73 NIT 6: and how to play one without hardware, which `play` alone needs.
    assert " ".join(lines) == (
        f"No finished games yet. Play one with `{script} play`. No hardware? "
        f"`{script} play --input sim --choices keyboard --display terminal`.")
    # reviewa73 NIT 5: the hint begins a line of its own, never "No" ending the first.
    assert any(line.startswith("No hardware?") for line in lines)


@pytest.mark.parametrize("columns", [60, 80])
def test_the_first_run_hint_is_a_line_of_its_own(
        columns: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewa73 NIT 5: by a venv's companion at 80 columns (or on the PATH at 60) the hint
    folded into the first line as "… play`. No" over "hardware?"."""
    monkeypatch.setattr("companion.app.commands.history.companion_command",
                        lambda: "/work/main/.venv/bin/companion")
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["history"]) == 0
    lines = capsys.readouterr().out.splitlines()
    first = [n for n, line in enumerate(lines) if line.endswith("/companion play`.")]
    assert first and lines[first[0] + 1].startswith("No hardware?")


@pytest.mark.parametrize("columns", range(24, 61))
def test_at_any_width_the_date_result_floor_and_gold_are_never_cut(
        columns: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Below some 34 columns, once every column that gives way was left out, rich squeezed
    the result to nothing and cut the gold (10260 shown as 1026), which the docs say is
    never cut (hist63 N1). Where even those four do not fit as a table, each word of the
    result whole, each game is listed as lines of its fields, every value whole, none left
    out."""
    companion_on_path(tmp_path, monkeypatch)  # the note names it by its name
    out = table_at(columns, monkeypatch, capsys)
    assert "…" not in out
    if "│" in out:  # a table: as test_a_narrow_table_keeps_the_date_result_floor_and_gold_whole
        said = cells(out)
        for run in RUNS:
            date, time = run.finished_at[:19].split("T")
            assert {date, time, str(run.floor), str(run.gold)} <= set(said), out
        assert column(out, "result").replace(" ", "") == "died:ジャバウォック(jabberwock)生還won"
        return
    words = out.split()
    for run in RUNS:
        date, time = run.finished_at[:19].split("T")
        assert {date, time, str(run.floor), str(run.level), str(run.gold), str(run.seed),
                run.preset} <= set(words), out
    joined = " ".join(words)
    assert "result 結果: died: ジャバウォック (jabberwock)" in joined
    assert "result 結果: 生還 won" in joined and "left out" not in joined
    assert "2 games, 1 won (50.0%), deepest floor 26" in joined


def test_the_games_are_listed_only_where_no_table_keeps_them_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The sweep above meets both forms: 47 columns still take the table (ジャバウォック,
    14 cells, whole in the result), 46 the list (journey73 NIT 8: at 40 the table folded
    the result's words, a Japanese one split in two)."""
    companion_on_path(tmp_path, monkeypatch)  # the note names it by its name
    assert "│" in table_at(47, monkeypatch, capsys)
    monkeypatch.setenv("COLUMNS", "46")
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "│" not in out and "gold 金塊: 99999" in out


@pytest.mark.parametrize("columns", range(20, 39))
def test_a_listed_games_date_and_time_stay_on_one_line(
        columns: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """At 32-38 columns the list put the time of a game's date alone on the next line,
    where it read as a field of its own (review63b N-b): a value the table keeps whole is
    wrapped as one word, so the date and its time share a line."""
    companion_on_path(tmp_path, monkeypatch)  # the note names it by its name
    out = table_at(columns, monkeypatch, capsys)
    assert "│" not in out  # listed, not a table
    lines = out.splitlines()
    for run in RUNS:
        assert any(run.finished_at[:19].replace("T", " ") in line for line in lines), out


@pytest.mark.parametrize("columns", range(24, 81))
def test_no_word_of_a_result_is_split_at_any_width(
        columns: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """journey73 NIT 8: at 40 columns a wall-out's result was folded inside its Japanese
    word, "(山牌切" over "れ)": each word of a result is on one line, in a table or listed."""
    companion_on_path(tmp_path, monkeypatch)  # the note names it by its name
    History().record(Run("g3", "2026-12-07T10:10:13+00:00", 1, "ez", False, 4, 1, 0,
                         "the wall ran out of tiles (山牌切れ)", 200, "sim"))
    out = table_at(columns, monkeypatch, capsys)
    games = out[:out.index("3 games, ")]  # the totals below name the causes too
    for word in ("(山牌切れ)", "ジャバウォック", "(jabberwock)"):
        assert any(word in line for line in games.splitlines()), out


def test_the_left_out_note_names_no_command_wider_than_the_terminal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """journey73 NIT 8: the note under a narrow table named `…/.venv/bin/companion history
    --json`, wider than the terminal, which wrapped it mid-path. Too wide, it says the
    command to add --json to; one that fits is named as before."""
    monkeypatch.setattr("companion.app.commands.history.companion_command",
                        lambda: "/srv/games/a-long-checkout-name/.venv/bin/companion")
    out = " ".join(table_at(47, monkeypatch, capsys).split())
    assert "left out at this width: this command with --json has them)" in out
    companion_on_path(tmp_path, monkeypatch)
    monkeypatch.setattr("companion.app.commands.history.companion_command",
                        lambda: "companion")
    assert main(["history"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "left out at this width: `companion history --json` has them)" in out
