"""A fight table stopped, then the GM's ``fight new --force`` on the fight file (a wrong
folder, a wrong machine), then the table started again with --resume (a78saves item 1): the
new fight was called "an undo, or an action", the table's fight, kept as
``fight.json.replaced-…``, was never named, and the table save kept aside after "Take up"
was set aside once more by the one command that could take it up."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play.table_modes import run_genso, titled
from companion.app.modes import genso
from companion.app.session.controls import Controls
from companion.hw.buttons import Button
from tests.app.fight_file_question_helpers import (
    RULES,
    Screen,
    genso_fight,
    resumed,
    sim,
)
from tests.app.table import Player


def a_new_fight_over_a_stopped_table(folder: Path) -> Path:
    """The table's fight file after the GM's ``genso fight new --force``: its fight kept."""
    fight, state = folder / "fight.json", folder / "table.json"
    genso.write_fight_file(fight, genso_fight())
    session = genso.table_session(RULES, fight, state, resume=False, seed=5,
                                  choices=Player([]))
    with pytest.raises(KeyboardInterrupt):  # stopped at its first menu
        session.run()
    assert main(["genso", "fight", "new", "--party", "pc2", "--monsters", "slime:1",
                 "--force", "--file", str(fight)]) == 0
    [kept] = folder.glob("fight.json.replaced-*")
    return kept


def plays_on(command: str) -> None:
    """``command`` (``companion play --mode genso --resume --state S --fight F``) takes the
    table save up on its fight: replayed, nothing set aside."""
    words = shlex.split(command)
    state, fight = Path(words[words.index("--state") + 1]), Path(words[words.index("--fight") + 1])
    before = sorted(p.name for p in state.parent.iterdir())
    session = genso.table_session(RULES, fight, state, resume=True, seed=5, choices=Player([]))
    assert session.mode.fight.to_json() == genso_fight().to_json()
    assert sorted(p.name for p in state.parent.iterdir() if ".lock" not in p.name) == \
        [name for name in before if ".lock" not in name]


def test_the_question_names_a_new_fight_and_where_the_tables_is_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = a_new_fight_over_a_stopped_table(tmp_path)
    screen = Screen([Button.FLEE])
    run_genso(resumed(tmp_path), sim(), titled(screen, "genso"), Controls([screen]), None)
    question = screen.views[0].prompt
    assert question.startswith("新しい戦闘 A new fight was set up")
    assert "an undo" not in question and f"kept as {kept.name}" in question
    err = capsys.readouterr().err
    assert "now holds another fight" in err and f"kept as {kept.name}" in err
    plays_on(err.split("`")[3])


def test_the_save_kept_aside_after_take_up_plays_on_with_its_fight(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = a_new_fight_over_a_stopped_table(tmp_path)
    screen = Screen([Button.ATTACK, Button.ATTACK])  # take up the new fight; OK
    with pytest.raises(KeyboardInterrupt):
        run_genso(resumed(tmp_path), sim(), titled(screen, "genso"), Controls([screen]), None)
    told = screen.views[1].prompt
    assert "is kept as table.json.replaced-" in told and f"kept as {kept.name}" in told
    plays_on(told.split("`")[-2])
    assert not list(tmp_path.glob("*.replaced-*.replaced-*"))
