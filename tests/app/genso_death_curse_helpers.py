"""The genso table's fixtures of the Death Curse tests (tests/app/test_genso_table_death_curse_*.py,
test_genso_fight_command_*.py, test_genso_dead_in_json.py, test_genso_fight_outcome_one_source.py,
test_genso_opposed_check_monster_names.py; fixgenso71, reviewg71 NIT 8: the tests imported them
from one another): a fight of pc1 and pc2 against orcs at the table, pc1 dying of Mio's Death
Curse (呪殺呪, GM-MAGIC-13) by the calendar, picking options by their keys, and the table on the
fight file cut after some picks (test_genso_table_death_curse_targets, _resumes)."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode, table_session
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk, RollAsk, RollFeed
from companion.app.session.rolls import SimRolls
from companion.dice import SimulatedDice
from companion.systems.genso.character.core import Character
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"
DIED = "died 死亡 (Death Curse 呪殺呪)"


def genso(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """`companion genso ARGV…`, which must succeed: its output."""
    code = main(["genso", *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def pc1_dies(capsys: pytest.CaptureFixture[str], who: str = "pc1") -> None:
    """Mio's Death Curse kills ``who`` at sunset on day 367, and the calendar records it."""
    genso(capsys, "calendar", "curse", "Mio", who)
    genso(capsys, "calendar", "pass", "367")


def table(orcs: int = 1, party: tuple[Character, ...] = ()) -> GensoFightMode:
    """pc1 (who acts first) and pc2 (or ``party``) against ``orcs`` orcs, at the table."""
    return GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, list(party) or [preset(RULES, "pc1"), preset(RULES, "pc2")], [("orc", orcs)])))


def pick(mode: GensoFightMode, *keys: str) -> ChoiceAsk | RollAsk | None:
    """Each option by its key, as the player picks it; what is asked next."""
    for key in keys:
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk), ask
        mode.answer([o.choice for o in ask.options].index(key))
    return mode.ask()


def keys(ask: ChoiceAsk | RollAsk | None) -> list[str]:
    """The keys of a menu's options."""
    assert isinstance(ask, ChoiceAsk), ask
    return [o.choice for o in ask.options]


class Player:
    """Picks the options by their keys, then stops the table (a power cut)."""

    def __init__(self, *keys: str) -> None:
        self.keys = list(keys)

    def next_choice(self, ask: ChoiceAsk, show: object) -> int:
        if not self.keys:
            raise KeyboardInterrupt
        return [o.choice for o in ask.options].index(self.keys.pop(0))


def cut_table(tmp: Path, resume: bool, *keys: str, rolls: RollFeed | None = None) -> Session:
    """The table on the fight file under ``tmp`` (resumed from its save, or begun anew), run
    through ``keys`` then a cut (simulated dice, or ``rolls``)."""
    fight, save = tmp / "data" / "genso" / "fight.json", tmp / "table.json"
    played = table_session(RULES, fight, save, resume=resume, seed=5, choices=Player(*keys),
                           rolls=rolls or SimRolls(SimulatedDice.seeded(5)))
    with contextlib.suppress(KeyboardInterrupt):
        played.run()
    return played
