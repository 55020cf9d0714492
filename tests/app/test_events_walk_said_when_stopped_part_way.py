"""``companion events … --dice camera|typed`` stopped part-way (review64e RISK 2): the input
ended, Ctrl-C, the camera gave up. The throws already taken were lost with nothing said of
them, and the end of input spoke of dice typed when they were thrown under the camera. The
steps they walked are now said on stderr before the error; stdout (and --json) stays empty.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.events import WALKED
from companion.app.commands.roll import THROWN_DROPPED, TYPED_DROPPED
from companion.dice import ScriptedDice
from companion.errors import CompanionError
from companion.systems.events.report import EventReport
from companion.systems.events.run import run_event
from tests.app.events_camera_helpers import throws

AWAITING_COUNT = "(awaiting how many monsters 何体 (1D6) 待ち)"


def walked_by(table: str, *faces: int) -> list[str]:
    """The lines of the walk ``faces`` (D6s) make before the die after them is wanted: the
    steps, and the row the walk stopped in."""
    walked: list[EventReport] = []
    with pytest.raises(CompanionError):
        run_event(table, ScriptedDice([(6, f) for f in faces]), mode="generic",
                  so_far=walked.append)
    (report,) = walked
    rows = (*report.steps, *((report.under_way,) if report.under_way else ()))
    assert rows
    return [f"{'  ' * s.depth}{s.rule}  {s.text}" for s in rows]


def said(err: str) -> str:
    return " ".join(err.split())


def test_input_ending_at_a_typed_d4_under_the_camera_says_the_walk_thrown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The review's repro: the poison table's 6 and the duration's 2 thrown under the
    camera, input ended at the D4 typed for the ability."""
    source = throws(tmp_path / "throws", 6, 2)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(["events", "poison", "--dice", "camera", "--source", str(source), "--json"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    lines = err.splitlines()
    at = lines.index(WALKED)
    walk = walked_by("poison", 6, 2)
    assert lines[at + 1:at + 1 + len(walk)] == walk
    assert lines[at + 1 + len(walk)] == "(awaiting which ability 能力値 (1D4) 待ち)"
    assert lines[at + 2 + len(walk)].startswith("companion: error: the input ended before "
                                                "which ability 能力値 (1D4) was typed")
    assert THROWN_DROPPED in said(err) and TYPED_DROPPED not in said(err)


def test_typed_dice_ending_mid_walk_say_the_walk_typed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("4\n"))
    assert main(["events", "monster", "--dice", "typed", "--json"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    at = lines.index(WALKED)
    walk = walked_by("monster", 4)
    assert lines[at + 1:at + 2 + len(walk)] == [*walk, AWAITING_COUNT]
    assert TYPED_DROPPED in said(err)  # typed dice keep their own words


class Interrupted:
    """A terminal whose player types ``lines``, then presses Ctrl-C."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)

    def readline(self) -> str:
        if not self.lines:
            raise KeyboardInterrupt
        return self.lines.pop(0)


def test_ctrl_c_mid_walk_says_the_walk_and_stops_as_ctrl_c_does(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", Interrupted("6\n", "2\n"))
    assert main(["events", "poison", "--dice", "typed"]) == 130
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    at = lines.index(WALKED)
    walk = walked_by("poison", 6, 2)
    assert lines[at + 1:] == [*walk, "(awaiting which ability 能力値 (1D4) 待ち)"]


def test_ctrl_c_at_the_first_die_says_no_walk(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing taken, nothing to say: Ctrl-C stops as it always did."""
    monkeypatch.setattr(sys, "stdin", Interrupted())
    assert main(["events", "poison", "--dice", "typed"]) == 130
    assert WALKED not in capsys.readouterr().err


def test_the_camera_stopping_mid_walk_says_the_walk_thrown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The monster table's 6 read, then the frames run out while the count is awaited."""
    source = throws(tmp_path / "throws", 6)
    assert main(["events", "monster", "--dice", "camera", "--source", str(source)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    at = lines.index(WALKED)
    walk = walked_by("monster", 6)
    assert lines[at + 1:at + 2 + len(walk)] == [*walk, AWAITING_COUNT]
    # The folder is named (dicecam69 NIT 3), and the throw it ran out at: one picture of a
    # throw, as advised for a single roll, cannot give a walk's second (reviewd69 DEFECT C).
    error = said("\n".join(lines[at + 2 + len(walk):]))
    assert error.startswith(f"companion: error: {source}: its pictures ran out before the "
                            "dice of throw 2 (1D6) lay still")
    assert ("a folder holds the frames of every throw in turn, the dice seen moving between "
            "them; 1 throw was read from it") in error
    assert "give one picture of the throw" not in error


def test_the_camera_stopping_at_a_walks_first_throw_advises_what_serves_a_walk(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewx69 NIT 3: a folder whose first throw never lies still long enough advised
    "give one picture of the throw as --source", and one picture, given, refused the
    walk's second throw ("A picture serves one throw (`companion roll 2D6` …)")."""
    source = throws(tmp_path / "throws", 6)
    for frame in sorted(source.iterdir())[3:]:
        frame.unlink()  # 3 frames of the die: it never lies still in 4 in a row
    assert main(["events", "monster", "--dice", "camera", "--source", str(source)]) == 1
    error = said(capsys.readouterr().err)
    assert f"{source}: its pictures ran out before the dice lay still" in error
    assert ("give one picture of the throw as --source for a single roll, or, for several "
            "throws (an events walk), a folder holding the frames of each throw in turn, the "
            "dice seen moving between them") in error


def test_json_lists_the_rolls_typed_beside_the_camera(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """review64e NIT 3: "dice_source": "camera" said nothing of the D4 typed on the
    terminal; it names the option still, and the typed rolls are listed beside it."""
    source = throws(tmp_path / "throws", 6, 2, 4)
    monkeypatch.setattr(sys, "stdin", io.StringIO("3\n"))
    assert main(["events", "poison", "--dice", "camera", "--source", str(source),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dice_source"] == "camera"
    assert data["typed_rolls"] == [{"dice": "1D4", "purpose": "which ability 能力値",
                                    "values": [3]}]


def test_json_of_a_walk_all_read_by_the_camera_lists_no_typed_rolls(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = throws(tmp_path / "throws", 5, 3)
    assert main(["events", "monster", "--dice", "camera", "--source", str(source),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dice_source"] == "camera" and "typed_rolls" not in data
