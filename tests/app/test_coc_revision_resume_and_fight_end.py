"""A coc table resumed across engine revisions, and a fight ended by `coc fight end`.

review59a (coc at the table and on the command line).

- R1: a table stopped mid-fight under engine revision 8 and resumed under 9 replayed its
  answers by 9; its entries then lacked the file's "engine": 8 and it was told the fight
  file had changed (`companion coc fight …`?). It replays and plays on by the revision it
  took the fight up under, and a second stop and resume still matches its file.
- R2: a fight ended by `coc fight end` says at the table that the Keeper ended it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.coc import CocFightMode
from companion.systems.coc.combat import Fight
from companion.systems.coc.rules import load_rules
from tests.app.coc_command_helpers import sheets
from tests.app.coc_table_helpers import CHOICES, fight_file, play


def test_a_table_stopped_under_revision_8_resumes_under_9(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as old:
        old.setattr("companion.systems.coc.combat.fight.ENGINE", 8)
        fight_file(tmp_path, "003")
        first = play(tmp_path, CHOICES[:4])  # Ann's attack on Cult; then the power goes
    assert not first.done
    saved = json.loads((tmp_path / "table.json").read_text(encoding="utf-8"))
    on_file = json.loads((tmp_path / "fight.json").read_text(encoding="utf-8"))
    assert saved["fight"]["engine"] == 8 and on_file["engine"] == 8
    assert len(on_file["journal"]) == 1
    again = play(tmp_path, CHOICES[4:6], resume=True)  # was FightFileChanged
    assert not again.done and len(again.fight.journal) == 2
    last = play(tmp_path, CHOICES[6:], resume=True)
    assert last.done
    on_file = json.loads((tmp_path / "fight.json").read_text(encoding="utf-8"))
    assert on_file == last.fight.to_json()
    assert {e.get("engine") for e in on_file["journal"]} == {8}


def ended_fight(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ann against the cultist, ended by `coc fight end` before any action."""
    ann, cult = sheets(tmp_path)
    assert main(["coc", "fight", "new", "--investigators", ann, "--foes", cult,
                 "--seed", "2"]) == 0
    assert main(["coc", "fight", "end"]) == 0
    capsys.readouterr()


def test_a_fight_ended_on_the_command_line_says_so_at_the_table(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """R2: `coc fight end`, then the table: "The fight is over 戦闘終了: " with nothing after
    the colon, and the view's outcome "". It says the Keeper ended it."""
    ended_fight(tmp_path, capsys)
    path = user_dirs / "data" / "coc" / "fight.json"
    mode = CocFightMode(Fight.from_json(load_rules(), json.loads(path.read_text("utf-8"))))
    ask = mode.ask()
    assert ask is not None
    assert ask.prompt == "The fight is over 戦闘終了: 終了 the Keeper ended the fight"
    assert mode.fight_view().outcome == "終了 the Keeper ended the fight"


def test_fight_end_at_a_table_showing_the_fight_over_says_it_is_over(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """N1: `coc fight end` on a file the coc table holds, showing the fight over, said to
    press Close and run `fight end` again, which could only be refused: it says the fight is
    over already, and what starts the next."""
    from companion.app.modes.fight_replaced import table_holder
    from tests.app.fight_hold_helpers import held_by_a_table, stopped

    ended_fight(tmp_path, capsys)
    fight = user_dirs / "data" / "coc" / "fight.json"
    before = fight.read_bytes()
    table = held_by_a_table(fight, table_holder("coc"))
    try:
        assert main(["coc", "fight", "end"]) == 2
    finally:
        stopped(table)
    err = capsys.readouterr().err
    assert "the fight is over already: nothing to end (`companion coc fight new " \
           "--investigators SHEET.toml --foes SHEET.toml` starts the next one, with no " \
           "--force)" in err
    assert "press Close" not in err and fight.read_bytes() == before


def test_fight_end_help_does_not_say_the_tables_close_ends_the_fight(
        capsys: pytest.CaptureFixture[str]) -> None:
    """N2: "as the table's Close does a fight's play" read as if Close ended the fight."""
    with pytest.raises(SystemExit):
        main(["coc", "fight", "end", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "as the table's Close" not in text
    assert "the table's Close closes the table and leaves the fight under way" in text


def test_fight_new_force_over_a_fight_that_is_over_keeps_no_copy(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """N6, decided: a fight that is over is written over, --force or not, with no
    .replaced-… copy (nothing in it is left to play); --force keeps a copy of a fight under
    way only. The help says so."""
    ann, cult = sheets(tmp_path)
    new = ["coc", "fight", "new", "--investigators", ann, "--foes", cult, "--seed", "2"]
    assert main(new) == 0
    assert main(["coc", "fight", "end"]) == 0
    capsys.readouterr()
    assert main([*new, "--force"]) == 0
    assert "was over; the new one is saved over it" in capsys.readouterr().err
    folder = user_dirs / "data" / "coc"
    assert not list(folder.glob("fight.json.replaced-*"))
    assert main([*new, "--force"]) == 0  # under way: kept
    assert len(list(folder.glob("fight.json.replaced-*"))) == 1
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["coc", "fight", "new", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "a fight that is over is written over, --force or not, and no copy is kept" in text
