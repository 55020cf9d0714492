"""The genso table's save: :func:`read_fight_file` (the fight file `companion genso fight new`
wrote) and :func:`table_session` (the play session of a genso fight at the table, ready to
run).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from companion.app.command_name import companion_line
from companion.app.modes.fight import FightMode
from companion.app.modes.fight_file import (
    Table,
    default_fight_file,
    older_engine_said,
    open_table,
    read_fight_data,
)
from companion.app.modes.genso.action_menu import GensoFightMode
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceFeed, RollFeed
from companion.hw.display import Display
from companion.systems.genso.combat import ENGINE, Fight
from companion.systems.genso.rules import GensoRules

PRESET = "genso"  # what a table save says in SaveGame.preset


def start_hint() -> str:
    """How a genso fight is started (the ``companion`` named is the one that runs here:
    :func:`companion_line`, setup66 D1)."""
    return companion_line("genso", "fight", "new", "--party", "pc1", "pc2", "--monsters",
                          "orc:2")


def new_fight_forced() -> str:
    """The ``fight new --force`` that starts over from a fight file no command plays on, on
    the command line (:func:`~companion.app.commands.genso.fights.load_fight`) and at the
    table (:attr:`~companion.app.modes.fight_file.Table.new_hint`: the table said a damaged
    file's fault alone, f78genso2 item 4, as coc's 15a3a761)."""
    return f"{start_hint()} --force"


def read_fight_file(rules: GensoRules, path: Path) -> Fight:
    """The fight `companion genso fight new` wrote (and the table keeps writing)."""
    return Fight.from_json(rules, read_fight_data(path, start_hint(), default_fight_file(PRESET)),
                           str(path))


def older_engine(mode: FightMode) -> None:
    """A table resumed under a newer engine says once that its fight plays on by the
    revision the table began it by (:func:`~companion.app.modes.fight_file.older_engine_said`)."""
    assert isinstance(mode, GensoFightMode)
    mode.resumed = older_engine_said(mode.fight.engine, ENGINE, "companion genso fight") \
        or mode.resumed


def table_session(rules: GensoRules, fight_path: Path, state_path: Path, *, resume: bool,
                  seed: int | None, choices: ChoiceFeed, rolls: RollFeed | None = None,
                  display: Display | None = None, source_name: str = "camera カメラ",
                  tell: Callable[[str], object] = lambda message: None,
                  resume_with: Callable[[Path, Path], str] | None = None) -> Session:
    """The play session of a genso fight at the table, ready to run (see
    :func:`~companion.app.modes.fight_file.open_table`; ``resume_with``:
    :attr:`~companion.app.modes.fight_file.Table.resume_with`)."""
    table = Table(PRESET, "companion genso fight", start_hint(),
                  lambda data: Fight.from_json(rules, data, str(fight_path)),
                  lambda fight, name: GensoFightMode(rules, fight, name, fight_path),
                  resume_with,
                  lambda data: Fight.from_json(rules, data, str(fight_path), playing_on=True),
                  older_engine, new_fight_forced())
    return open_table(table, fight_path, state_path, resume=resume, seed=seed,
                      choices=choices, rolls=rolls, display=display, source_name=source_name,
                      tell=tell)
