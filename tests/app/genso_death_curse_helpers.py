"""The genso table's fixtures of the Death Curse tests (tests/app/test_genso_table_death_curse_*.py,
test_genso_fight_command_*.py, test_genso_dead_in_json.py, test_genso_fight_outcome_one_source.py,
test_genso_opposed_check_monster_names.py; fixgenso71, reviewg71 NIT 8: the tests imported them
from one another): a fight of pc1 and pc2 against orcs at the table, pc1 dying of Mio's Death
Curse (呪殺呪, GM-MAGIC-13) by the calendar, picking options by their keys, and the table on the
fight file cut after some picks (test_genso_table_death_curse_targets, _resumes)."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.genso.fights import load_fight
from companion.app.modes.genso import GensoFightMode, table_session, write_fight_file
from companion.app.modes.genso_fight_files import calendar_path, default_fight_path
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk, RollAsk, RollFeed
from companion.app.session.rolls import SimRolls
from companion.dice import SimulatedDice
from companion.systems.genso.character.core import Character
from companion.systems.genso.combat import Fight, Status, entrants_for
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


def kept_before(curses: str = "", died: str = "", day: int = 1) -> None:
    """A calendar.toml kept before `calendar curse` refused a monster's name (calendar73 NIT
    8), with ``curses`` and ``died`` as TOML rows ``{target = …, caster = …, cast_on = …,
    dies_on = …}``, each row's braces given: such a file is still read."""
    path = calendar_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"day = {day}\ndeath_curses = [{curses}]\n"
                    + (f"died = [{died}]\n" if died else ""), encoding="utf-8")


def monster_died_before(name: str = "オーク") -> None:
    """A calendar kept before a monster's name was refused (:func:`kept_before`), recording
    ``name`` dead of Mio's curse at sunset on day 367, as :func:`pc1_dies` records pc1."""
    kept_before(died=f'{{target = "{name}", caster = "Mio", cast_on = 1, dies_on = 367}}',
                day=368)


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


#: The table's prompt of the dead pc1's turn (tests/app/test_genso_table_death_curse_turn.py
#: asks it at the table).
ACTS_NO_MORE = f"{PC1} PC 1: {DIED}, acts no more 死者は行動しない"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`companion genso ARGV…`: its exit code, output and errors."""
    code = main(["genso", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """`companion genso fight ARGV…`, which must be refused with the fight file untouched:
    its error."""
    path = default_fight_path()
    before = path.read_bytes()
    code, _, err = run(capsys, "fight", *argv)
    assert code != 0, argv
    assert path.read_bytes() == before, argv
    return err


def pc1_and_pc2_at(hp1: int, hp2: int) -> None:
    """A fight file of pc1 and pc2 at these HP against an orc, pc1 first."""
    party = [replace(preset(RULES, "pc1"), hp=hp1), replace(preset(RULES, "pc2"), hp=hp2)]
    path = default_fight_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_fight_file(path, Fight(RULES, entrants_for(RULES, party, [("orc", 1)])))


def the_orc_fells(capsys: pytest.CaptureFixture[str], name: str) -> str:
    """The orc's attacks on ``name``, each undone until one fells it: its output."""
    for seed in range(1, 40):
        out = genso(capsys, "fight", "attack", "orc", name, "--seed", str(seed))
        if load_fight(RULES, default_fight_path()).state.get(name).status \
                is Status.INCAPACITATED:
            return out
        genso(capsys, "fight", "undo")
    raise AssertionError(f"no seed fells {name}")


def the_table() -> GensoFightMode:
    return GensoFightMode(RULES, load_fight(RULES, default_fight_path()))
