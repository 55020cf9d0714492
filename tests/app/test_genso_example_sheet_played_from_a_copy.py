"""a78journey RISK 2: docs/examples/aki.toml, played in place as its header said, was written
over by `genso buy`, `gear`, `rest` … and `fight apply`, and the README's update (`git pull`)
then stopped on the checkout's changed file. The commands that change a sheet, and `fight
new` (whose `fight apply` would), refuse the companion's own example, with the copy to make;
its header says to play a copy."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.genso import files
from companion.app.modes.genso_fight_files import sheet_path
from companion.app.paths import data_dir

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "aki.toml"


def _refused(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    assert main(["genso", *words]) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("words", [
    ("buy", str(EXAMPLE), "knife"), ("gear", str(EXAMPLE), "club"), ("rest", str(EXAMPLE)),
    ("fight", "new", "--party", str(EXAMPLE), "--monsters", "orc")])
def test_a_change_of_the_example_sheet_is_refused_naming_the_copy_to_make(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], words: tuple[str, ...]) -> None:
    before = EXAMPLE.read_bytes()
    err = _refused(capsys, *words)
    copy = sheet_path("Aki")
    assert (f"{EXAMPLE} is one of the companion's own example sheets, which genso does not "
            "change (a `git pull` stops on a changed one): copy it first, "
            f"`mkdir -p {copy.parent} && cp {EXAMPLE} {copy}`, then give 'Aki'") in err
    assert EXAMPLE.read_bytes() == before
    assert not (data_dir() / "genso" / "fight.json").exists()


def test_the_copy_the_refusal_names_is_played_and_the_example_left_as_it_is(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = EXAMPLE.read_bytes()
    err = _refused(capsys, "buy", str(EXAMPLE), "knife")
    command = err.split("`")[-2]  # the refusal's last `…`: the copy to make
    subprocess.run(command, shell=True, check=True)
    assert main(["genso", "buy", "Aki", "knife"]) == 0
    assert "knife" in sheet_path("Aki").read_text(encoding="utf-8")
    assert EXAMPLE.read_bytes() == before
    # Made already, the copy is named instead of a second copy over it.
    assert "a sheet " + str(sheet_path("Aki")) + " is saved already; give 'Aki' to play it" \
        in _refused(capsys, "buy", str(EXAMPLE), "knife")


@pytest.mark.parametrize(("words", "option", "name"), [
    (("new", "Ken", "--body", "6", "--perception", "5", "--magic", "4", "--skill", "magic",
      "--seed", "1", "--force", "--out"), "--out", "aki.toml"),
    (("sheet", "pc1", "--force", "--save-as"), "--save-as", "aki.toml"),
    (("sheet", "pc1", "--save-as"), "--save-as", "ken.toml")])
def test_no_sheet_is_written_into_the_examples_folder(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        words: tuple[str, ...], option: str, name: str) -> None:
    """r78journey: `new --out` and `sheet --save-as` with --force wrote over the checkout's
    example, and a new file there was one buy then refused as an example. Played on a copy
    of the examples folder, so that the checkout's is safe should this come back."""
    examples = user_dirs / "checkout" / "docs" / "examples"
    examples.mkdir(parents=True)
    (examples / "aki.toml").write_bytes(EXAMPLE.read_bytes())
    monkeypatch.setattr(files, "EXAMPLES", examples)
    target = examples / name
    err = _refused(capsys, *words, str(target))
    assert (f"{option} {str(target)!r} is in the companion's own examples folder "
            f"{examples}, where genso writes no sheet (a `git pull` stops on a file changed "
            f"there): give a file elsewhere, e.g. {option} {data_dir()}") in err
    assert (examples / "aki.toml").read_bytes() == EXAMPLE.read_bytes()
    assert sorted(examples.iterdir()) == [examples / "aki.toml"]


def test_a_sheet_elsewhere_is_changed_as_before(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = user_dirs / "aki.toml"
    mine.write_bytes(EXAMPLE.read_bytes())
    assert main(["genso", "buy", str(mine), "knife"]) == 0
    assert mine.read_bytes() != EXAMPLE.read_bytes()


def test_the_example_says_to_play_a_copy() -> None:
    header = [line for line in EXAMPLE.read_text(encoding="utf-8").splitlines()
              if line.startswith("#")]
    copy = next(line for line in header if "cp docs/examples/aki.toml" in line)
    assert shlex.split(copy.lstrip("# ")) == ["cp", "docs/examples/aki.toml", "~/aki.toml"]
    assert any("Play a copy, not this file" in line for line in header)
