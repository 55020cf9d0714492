"""``companion roll``: simulated, typed and camera dice from the command line."""

from __future__ import annotations

import io
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main


def test_roll_with_a_seed_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "2D6+4>=8", "disarm", "--seed", "7"]) == 0
    first = capsys.readouterr().out
    assert main(["roll", "2D6+4>=8", "disarm", "--seed", "7"]) == 0
    assert capsys.readouterr().out == first
    assert first.startswith("(2D6+4>=8) ＞ ") and first.rstrip().endswith("disarm")


def test_roll_json_names_dice_seed_and_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "S1D100<=50", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["secret"] is True and data["dice_source"] == "sim"
    assert isinstance(data["seed"], int)
    (die,) = data["dice"]
    assert die["sides"] == 100 and data["total"] == die["value"]
    assert data["success"] == (die["value"] <= 50)


def fake_camera(monkeypatch: pytest.MonkeyPatch, faces: list[int]) -> list[str]:
    """A camera dice reader throwing ``faces`` in turn; the list it returns names each
    camera made."""
    made: list[str] = []
    throws = iter(faces)

    class CameraDiceSource:
        still = False  # a live camera

        def __init__(self, source: str, *, config_file: Path, on_status: Any) -> None:
            made.append(source)

        def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
            return [next(throws) for _ in range(count)]

    module = types.ModuleType("companion.hw.dice.source")
    module.CameraDiceSource = CameraDiceSource  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "companion.hw.dice.source", module)
    return made


def test_a_camera_d66_read_as_thrown_is_rolled_after_a_one_line_note(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The camera gives the dice in the order they lie, the left die the tens: the note
    says so. A sorted D66, other dice and simulated dice need no note."""
    note = ("companion: note: the die on the left is the tens of this D66 (of two\n"
            "  one above the other, the upper one); D66S or D66D sorts them\n")
    fake_camera(monkeypatch, [5, 2] * 7 + [3, 4])
    for words, out, err in [
        (["D66"], "(D66) ＞ 52\n", note),
        (["D66N", "treasure"], "(D66N) ＞ 52 treasure\n", note),
        (["1D66+1"], "(1D66+1) ＞ 52[52]+1=53\n", note),
        (["x2", "D66"], "#1\n(D66) ＞ 52\n\n#2\n(D66) ＞ 52\n", note),
        (["D66S"], "(D66S) ＞ 25\n", ""),
        (["D66D"], "(D66D) ＞ 52\n", ""),
        (["2D6"], "(2D6) ＞ 7[3,4]\n", ""),
    ]:
        assert main(["roll", *words, "--dice", "camera", "--source", "mat.png"]) == 0
        assert capsys.readouterr() == (out, err), words
    assert main(["roll", "D66", "--seed", "1"]) == 0
    assert capsys.readouterr().err == ""


def test_bad_text_is_refused_before_the_camera_is_opened(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = fake_camera(monkeypatch, [])
    assert main(["roll", "2D6>?", "--dice", "camera", "--source", "mat.png"]) == 2
    assert made == [] and "unexpected '?'" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["roll"], ["coc", "roll"]])
def test_an_expression_may_start_with_a_minus(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """`roll -1D6` rolls, as `roll -- -1D6` does; options around it still count."""
    assert main([*command, "-1D6", "--seed", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["formula"] == "-1D6" and data["total"] == -data["dice"][0]["value"]
    assert main([*command, "-(2D6)+1", "--seed", "3"]) == 0
    assert capsys.readouterr().out.startswith("(-(2D6)+1) ＞ ")


def test_manual_dice_read_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("7\n3 4\n"))
    assert main(["roll", "2D6>=9", "--dice", "manual"]) == 0
    out, err = capsys.readouterr()
    assert out == "(2D6>=9) ＞ 7[3,4] ＞ 失敗/failure\n"
    assert "7 is not on a D6 その目はありません" in err


def test_typed_dice_are_typed_and_the_old_word_manual_still_works(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--d100` and `play` say typed; `--dice` said manual ("invalid choice: 'typed'"). Both
    words are taken, help shows typed, and one die a line is taken as the player reads it."""
    for word in ("typed", "manual"):
        monkeypatch.setattr(sys, "stdin", io.StringIO("3\n4\n"))
        assert main(["roll", "2D6", "--dice", word, "--json"]) == 0
        out, err = capsys.readouterr()
        data = json.loads(out)
        assert data["total"] == 7 and data["dice_source"] == "typed"
        assert "3 so far 入力済; type 1 more value for 2D6 出目を入力: " in err
    with pytest.raises(SystemExit):
        main(["roll", "2D6", "--help"])
    usage = capsys.readouterr().out
    assert "{sim,typed,camera}" in usage and "manual" not in usage


def test_bad_expression_points_at_the_fault(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "2D6>?"]) == 2
    err = capsys.readouterr().err
    assert "unexpected '?' at character 5" in err
    assert "  2D6>?\n      ^" in err


def test_camera_without_the_reader_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "companion.hw.dice.source", None)
    assert main(["roll", "2D6", "--dice", "camera"]) == 1
    assert "camera dice reader is not available" in capsys.readouterr().err


def test_camera_source_is_built_with_the_source_option(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, user_dirs: Path
) -> None:
    made: list[tuple[str, Path]] = []

    class CameraDiceSource:
        still = False  # a live camera

        def __init__(self, source: str, *, config_file: Path, on_status: Any) -> None:
            made.append((source, config_file))
            on_status("hold still")

        def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
            return [6] * count

    module = types.ModuleType("companion.hw.dice.source")
    module.CameraDiceSource = CameraDiceSource  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "companion.hw.dice.source", module)
    assert main(["roll", "2D6", "--dice", "camera", "--source", "mat.png"]) == 0
    assert made == [("mat.png", user_dirs / "config" / "dice.toml")]
    out, err = capsys.readouterr()
    assert out == "(2D6) ＞ 12[6,6]\n" and "hold still" in err


def test_new_forms_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    for words in (["D66"], ["3B6>=4"], ["4D6KH3"], ["choice[a,b,c]"], ["C(10+5*2)"],
                  ["D20"], ["(2+3)D6"], ["2D6=>7"]):
        assert main(["roll", *words, "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("(D66) ＞ ") and lines[1].startswith("(3B6>=4) ＞ ")
    assert "成功数" in lines[1] and "/successes " in lines[1]
    assert lines[4] == "計算結果/result ＞ 20"
    assert lines[5].startswith("(1D20) ＞ ") and lines[6].startswith("(5D6) ＞ ")
    assert lines[7].startswith("(2D6>=7) ＞ ")


def test_repeat_prints_numbered_rolls_and_json_lists_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["roll", "x3", "2D6", "attack", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("#1\n(2D6) ＞ ") and "\n\n#3\n(2D6) ＞ " in out
    assert main(["roll", "rep2", "D66", "--seed", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "repeat" and len(data["rolls"]) == 2
    assert all(r["kind"] == "d66" and len(r["dice"]) == 2 for r in data["rolls"])


@pytest.mark.parametrize(
    ("words", "column"),
    [
        (["x0", "2D6"], 2),
        (["D66+1"], 1),
        (["3B6>=4?"], 7),
        (["choice[a,b"], 7),
        (["C(1+)"], 5),
        (["2D20KH"], None),
        (["4D6KH3+"], 8),
    ],
)
def test_bad_new_forms_exit_2_with_the_caret(
    capsys: pytest.CaptureFixture[str], words: list[str], column: int | None
) -> None:
    code = main(["roll", *words, "--seed", "1"])
    out, err = capsys.readouterr()
    if column is None:  # not bad: KH alone keeps one die, as in BCDice
        assert code == 0 and out.startswith("(2D20KH1) ＞ ")
        return
    assert code == 2 and "Traceback" not in err
    text = " ".join(words)
    assert f"at character {column}:\n  {text}\n  {' ' * (column - 1)}^" in err


def test_a_picture_that_does_not_read_says_why_once(
    capsys: pytest.CaptureFixture[str], user_dirs: Path
) -> None:
    """The reason was said as a status line, then again in the error."""
    mat = Path(__file__).resolve().parents[2] / "docs" / "mat.png"
    assert main(["roll", "2D6", "--dice", "camera", "--source", str(mat)]) == 1
    err = capsys.readouterr().err
    err = " ".join(err.split())  # said within 80 columns (dice62 N1)
    assert err.startswith(f"companion: error: the picture {mat} shows no dice, 2 were asked "
                          "for: ")
    reason = err.rsplit(": ", 1)[1]
    assert err.count(reason) == 1, err


def test_camera_dice_for_a_d6_pool_and_a_d66(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, user_dirs: Path
) -> None:
    """The camera reads real d6: a pool is one throw of its dice, a D66 one throw of two."""
    asked: list[tuple[int, int]] = []

    class CameraDiceSource:
        still = False  # a live camera

        def __init__(self, source: str, *, config_file: Path, on_status: Any) -> None:
            self.faces = iter([5, 2, 4])

        def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
            asked.append((count, sides))
            return [next(self.faces) for _ in range(count)]

    module = types.ModuleType("companion.hw.dice.source")
    module.CameraDiceSource = CameraDiceSource  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "companion.hw.dice.source", module)
    assert main(["roll", "3B6>=4", "--dice", "camera", "--source", "mat.png"]) == 0
    assert main(["roll", "D66S", "--dice", "camera", "--source", "mat.png"]) == 0
    out = capsys.readouterr().out
    assert out == "(3B6>=4) ＞ 5,2,4 ＞ 成功数2/successes 2\n(D66S) ＞ 25\n"
    assert asked == [(3, 6), (2, 6)]


@pytest.mark.parametrize("command", [["roll"], ["coc", "roll"]])
@pytest.mark.parametrize("text", [
    "1D6+" + "9" * 5000, "C(" + "*".join(["9" * 1000] * 5) + ")", "1D6" + "+1" * 350,
])
def test_extreme_input_exits_2_with_a_caret(
    command: list[str], text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, text, "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.rstrip().endswith("^")


@pytest.mark.parametrize("command", [["roll"], ["coc", "roll"]])
@pytest.mark.parametrize(("text", "formula"), [
    ("-D6", "-1D6"), ("-d20+3", "-1D20+3"), ("-Ｄ６", "-1D6"),
])
def test_an_expression_may_start_with_a_minus_and_a_d(
    command: list[str], text: str, formula: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`roll -D6` is BCDice's MINUS unary before a D term, not an option -D."""
    assert main([*command, text, "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["formula"] == formula and data["seed"] == 1


@pytest.mark.parametrize("command", [["roll"], ["coc", "roll"]])
def test_options_stay_options_beside_a_minus_d(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([*command, "-h"])
    assert done.value.code == 0 and "--seed" in capsys.readouterr().out
    assert main([*command, "--dice", "sim", "-D6", "--seed", "4"]) == 0
    assert capsys.readouterr().out.startswith("(-1D6) ＞ ")


@pytest.mark.parametrize("command", [["roll"], ["coc", "roll"]])
def test_a_secret_roll_is_marked_by_both_commands(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "S2D6", "--seed", "3"]) == 0
    assert capsys.readouterr().out.startswith("[secret/シークレット] (2D6) ＞ ")
    assert main([*command, "2D6", "--seed", "3"]) == 0
    assert capsys.readouterr().out.startswith("(2D6) ＞ ")


def test_a_secret_cthulhu_check_is_marked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coc", "roll", "SCC<=50", "--seed", "3"]) == 0
    assert capsys.readouterr().out.startswith("[secret/シークレット] (1D100<=50) ＞ ")


@pytest.mark.parametrize("expression", ["CCB<=70", "SCC<=50", "x2 CBR(50,60)", "res(10-12)",
                                        "Ｃｃ<=５０"])
def test_a_cthulhu_roll_given_to_roll_points_to_coc_roll(
    expression: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """CC, CBR and RES are BCDice's Cthulhu system, not its base one: `roll` cannot read
    them, and says which command does."""
    assert main(["roll", expression]) == 2
    err = capsys.readouterr().err
    assert err.endswith(f"(CC, CBR and RES are Call of Cthulhu's rolls: companion coc roll "
                        f"'{expression}')\n")
    assert main(["coc", "roll", expression, "--seed", "1"]) == 0


def test_other_faults_get_no_cthulhu_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "2D6+Q"]) == 2
    assert "coc roll" not in capsys.readouterr().err


@pytest.mark.parametrize("command", [["roll", "1D6"], ["coc", "roll", "1D100"],
                                     ["rfid", "simulate", "--seconds", "0"]])
def test_a_negative_seed_is_refused(command: list[str],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """random.Random takes a seed's size alone: --seed -5 threw 5's dice under another
    name, as play's did (sweep 53 item 12)."""
    with pytest.raises(SystemExit) as stopped:
        main([*command, "--seed", "-5"])
    assert stopped.value.code == 2
    assert "-5 is negative: a seed is 0 or more\n" in capsys.readouterr().err
