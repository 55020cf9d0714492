"""A fight table started with --resume (as the boot service always starts it) over a fight file
the GM changed since the table stopped: the player at the table is asked whether to take the
file up, instead of a stop that told them to play without --resume, and a fight table's
messages bear its own title, not JongRogue's."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from companion.app.commands.play.table_modes import run_coc, run_genso, titled
from companion.app.modes import coc, genso
from companion.app.modes.fight_file import write_fight_file
from companion.app.modes.fight_save import load_fight_save
from companion.app.session.controls import Controls
from companion.errors import DataError
from companion.hw.buttons import Button
from tests.app.fight_file_question_helpers import (
    RULES,
    Screen,
    genso_fight,
    resumed,
    sim,
    stopped_genso_table,
)
from tests.app.table import Player
from tests.systems.coc.scripted_fight_helpers import fight_003, fight_004

GENSO_TITLE, COC_TITLE = "幻想迷宮冒険譚 Fight 戦闘", "クトゥルフ神話TRPG Fight 戦闘"


def test_the_player_takes_up_the_fight_file_the_gm_changed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The stop said "play it without --resume" on the screen, and the boot service started
    the table with --resume again 3 s later: the player could never get past it."""
    fight, state = stopped_genso_table(tmp_path)
    gms = fight.read_text(encoding="utf-8")
    screen = Screen([Button.ATTACK, Button.ATTACK])  # take it up; OK to the save kept aside
    with pytest.raises(KeyboardInterrupt):
        run_genso(resumed(tmp_path), sim(), titled(screen, "genso"), Controls([screen]), None)
    question, kept = screen.views[0], screen.views[1]
    assert [o.label for o in question.options] == ["Take up the fight file 戦闘ファイルから再開",
                                                    "Quit 終了"]
    assert "--resume" not in question.prompt and "companion" not in question.prompt
    assert question.prompt.startswith("戦闘ファイルが変更されました The fight file was changed")
    assert question.title == kept.title == GENSO_TITLE
    assert "is kept as table.json.replaced-" in kept.prompt
    # Taken up as a start without --resume takes it: the GM's file as it is, the save aside.
    assert [p.name.startswith("table.json.replaced-") for p in tmp_path.glob("table.json.*")] \
        == [True]
    saved = load_fight_save(state, "genso")
    assert saved is not None and saved.fight == genso_fight(ended=True).to_json()
    assert fight.read_text(encoding="utf-8") == gms
    # stderr (the service's journal, a terminal) has the reason, and how a command line
    # takes the file up.
    err = capsys.readouterr().err
    assert "changed since the table saved it" in err and "play it without --resume" in err


def test_quit_leaves_the_table_and_the_fight_file_as_they_are(tmp_path: Path) -> None:
    stopped_genso_table(tmp_path)
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    screen = Screen([Button.FLEE])
    run_genso(resumed(tmp_path), sim(), titled(screen, "genso"), Controls([screen]), None)
    assert len(screen.views) == 1 and screen.views[0].options[1].label == "Quit 終了"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == files


def test_a_coc_table_asks_too_under_its_own_title(tmp_path: Path) -> None:
    fight, state = tmp_path / "fight.json", tmp_path / "table.json"
    write_fight_file(fight, fight_003()[0])
    session = coc.table_session(fight, state, resume=False, seed=7, choices=Player([]))
    with pytest.raises(KeyboardInterrupt):
        session.run()
    write_fight_file(fight, fight_004()[0])  # another fight in its place
    screen = Screen([Button.ATTACK, Button.ATTACK])
    with pytest.raises(KeyboardInterrupt):
        run_coc(resumed(tmp_path), sim(), titled(screen, "coc"), Controls([screen]), None)
    assert [v.title for v in screen.views[:2]] == [COC_TITLE, COC_TITLE]
    saved = load_fight_save(state, "coc")
    assert saved is not None and saved.fight == fight_004()[0].to_json()


@pytest.mark.parametrize("system", ["genso", "coc"])
def test_no_fight_yet_says_the_command_is_typed_on_a_computer(tmp_path: Path,
                                                              system: str) -> None:
    """The stop under the boot service read "start one with `companion genso fight new …`",
    as if the player could type it at the table; coc's named ann.toml, which is in
    docs/examples/, not in the folder a command starts in."""
    fight, state = tmp_path / "fight.json", tmp_path / "table.json"
    with pytest.raises(DataError) as stopped:
        if system == "genso":
            genso.table_session(RULES, fight, state, resume=True, seed=1, choices=Player([]))
        else:
            coc.table_session(fight, state, resume=True, seed=1, choices=Player([]))
    message = str(stopped.value)
    repo = Path(__file__).resolve().parents[2]
    # coc's goes to the checkout first, where its sample sheets are (review65t NIT 6).
    there = f"cd {shlex.quote(str(repo))} && " if system == "coc" else ""
    assert f"no fight at {fight.resolve()} yet 戦闘がありません: start one on a computer 端末で: " \
           f"{there}companion {system} fight new " in message
    named = [word for word in message.split() if word.endswith(".toml")]
    assert len(named) == (2 if system == "coc" else 0)
    assert all((repo / word).is_file() for word in named), named
