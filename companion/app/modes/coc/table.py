"""The coc table: :func:`coc_table` (a fight file replayed under the settings it keeps) and
:func:`table_session` (the play session of a coc fight at the table, ready to run).
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from pathlib import Path

from companion.app.command_name import companion_line
from companion.app.modes.coc.action_menu import CocFightMode
from companion.app.modes.coc.table_rolls import CAMERA_SIDES, CocTableRolls
from companion.app.modes.fight import FightMode
from companion.app.modes.fight_file import Table, older_engine_said, open_table
from companion.app.session.controls import Controls
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceFeed, RollFeed
from companion.dice import DiceSource
from companion.hw.display import Display
from companion.systems.coc.combat import ENGINE, Fight
from companion.systems.coc.rules import load_rules

PRESET = "coc"  # what a table save says in SaveGame.preset
#: The sample sheets: docs/examples/ of the companion's folder, beside the package.
EXAMPLES = Path(__file__).resolve().parents[4] / "docs" / "examples"


def start_hint(examples: Path | None = None) -> str:
    """How a coc fight is started, the sample sheets found from anywhere: named from the
    repository's root (docs/examples/ann.toml), they were found from there alone, not
    from the Pi's home folder the boot service starts in (tables65 NIT 5), so the command
    goes there first (``cd <checkout> && …``). Not each sheet by its whole path: on the
    table's screen at text_scale 1.25 a path that long was cut in its middle
    (``…/docs/examples/cu…t.toml``, review65t NIT 6). Without the folder (a package
    installed without its docs), where the sheets are is said instead. ``examples``: the
    sample sheets' folder (None: :data:`EXAMPLES`). The ``companion`` named is the one that
    runs from where the command is typed (:func:`companion_line`, setup66 D1)."""
    examples = EXAMPLES if examples is None else examples
    if not (examples / "ann.toml").is_file() or not (examples / "cultist.toml").is_file():
        return (companion_line("coc", "fight", "new", "--investigators", "SHEET.toml", "--foes",
                               "SHEET.toml")
                + " (sample sheets: docs/examples/ of the companion's source)")
    root = examples.parents[1]
    named = [str(examples.relative_to(root) / sheet) for sheet in ("ann.toml", "cultist.toml")]
    return (f"cd {shlex.quote(str(root))} && " + companion_line(
        "coc", "fight", "new", "--investigators", named[0], "--foes", named[1], where=root))


def coc_table(resume_with: Callable[[Path, Path], str] | None = None) -> Table:
    """coc fights at the table: the fight file as `companion coc fight` writes it, replayed
    under the settings it keeps (``resume_with``:
    :attr:`~companion.app.modes.fight_file.Table.resume_with`)."""
    # the command line's own words (its module is loaded only for a table's start)
    from companion.app.commands.coc import new_fight_forced

    base = load_rules()
    return Table(PRESET, "companion coc fight", start_hint(),
                 lambda data: Fight.from_json(base, data), CocFightMode, resume_with,
                 lambda data: Fight.from_json(base, data, playing_on=True), older_engine,
                 new_fight_forced())


def older_engine(mode: FightMode) -> None:
    """A table resumed under a newer engine says once that its fight plays on by the
    revision the table began it by (:func:`~companion.app.modes.fight_file.older_engine_said`)."""
    assert isinstance(mode, CocFightMode)
    mode.resumed = older_engine_said(mode.fight.engine, ENGINE, "companion coc fight") \
        or mode.resumed


def table_session(fight_path: Path, state_path: Path, *, resume: bool, seed: int | None,
                  choices: ChoiceFeed, rolls: RollFeed | None = None,
                  display: Display | None = None, source_name: str = "camera カメラ",
                  tell: Callable[[str], object] = lambda message: None,
                  camera: RollFeed | None = None, controls: Controls | None = None,
                  d100: str = "typed", poll_seconds: float = 0.05,
                  sleep: Callable[[float], None] = time.sleep,
                  resume_with: Callable[[Path, Path], str] | None = None) -> Session:
    """The play session of a coc fight at the table, ready to run (see
    :func:`~companion.app.modes.fight_file.open_table`).

    ``camera`` (with ``controls``): ``--dice camera``; the d6-based dice come from it and the
    others are typed (``d100="typed"``) or the companion's (``"sim"``, from the save's seed,
    resumed with the dice an uninterrupted fight would have had).
    """
    if camera is not None:
        assert controls is not None
        cam, keys = camera, controls

        def feed(source: DiceSource) -> RollFeed:
            return CocTableRolls(cam, keys, poll_seconds, source if d100 == "sim" else None,
                                 sleep)

        return open_table(coc_table(resume_with), fight_path, state_path, resume=resume,
                          seed=seed, choices=choices, display=display, source_name=source_name,
                          tell=tell, sim_rolls=feed,
                          simulated=lambda sides: d100 == "sim" and sides not in CAMERA_SIDES)
    return open_table(coc_table(resume_with), fight_path, state_path, resume=resume,
                      seed=seed, choices=choices, rolls=rolls, display=display,
                      source_name=source_name, tell=tell)
