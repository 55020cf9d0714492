"""The packaged genso data folder and a genso table resumed from its save with a scripted player."""

from __future__ import annotations

from pathlib import Path

from companion.app.modes.genso import GensoFightMode, table_session
from companion.systems.genso.rules import load_rules
from tests.app.table import Player

RULES = load_rules()

DATA = Path(__file__).parents[1] / "systems" / "genso" / "data"


def resumed(fight: Path, state: Path, script: list[str],
            told: list[str] | None = None) -> GensoFightMode:
    session = table_session(RULES, fight, state, resume=True, seed=None,
                            choices=Player(script),
                            tell=(told if told is not None else []).append)
    try:
        session.run()
    except KeyboardInterrupt:  # the script ran out: the power goes
        pass
    assert isinstance(session.mode, GensoFightMode)
    return session.mode
