"""The genso table's area shortcuts, Every foe 敵全員 (Fire, GM-MAGIC-10) and The party
味方全員 (Barrier, GM-MAGIC-5), with a fighter the calendar records dead of a Death Curse
(呪殺呪, GM-MAGIC-13).

reviewg71 RISK 3 (remainder): a single target's menu and the area's toggles leave the dead
out, but the shortcuts still took them. They now take whom the toggles offer, by a key
naming them (``all:[…]``), so a save replays the same Cast whatever the calendar says by
then (reviewg71b DEFECT 1: a fight file differing from its replay is refused on resume)."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode, table_session
from companion.app.session.mode import ChoiceAsk
from companion.app.session.rolls import SimRolls
from companion.dice import SimulatedDice
from companion.systems.genso.combat import Cast
from companion.systems.genso.rules import load_rules
from tests.app.genso_death_curse_helpers import Player

RULES = load_rules()
PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"
FAIRY, ORC = "一般的な森妖精の冒険者", "オーク"


def genso(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """`companion genso ARGV…`, which must succeed: its output."""
    code = main(["genso", *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def at_table(tmp: Path, resume: bool, *keys: str) -> GensoFightMode:
    """The table on the fight file (resumed from its save, or begun anew), after ``keys``
    then a cut."""
    fight, save = tmp / "data" / "genso" / "fight.json", tmp / "table.json"
    played = table_session(RULES, fight, save, resume=resume, seed=5, choices=Player(*keys),
                           rolls=SimRolls(SimulatedDice.seeded(5)))
    with contextlib.suppress(KeyboardInterrupt):
        played.run()
    assert isinstance(played.mode, GensoFightMode)
    return played.mode


def shortcut(mode: GensoFightMode, label: str) -> str:
    """The key of the menu's shortcut labelled ``label``."""
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk), ask
    found = [o.choice for o in ask.options if o.label == label]
    assert len(found) == 1, [o.label for o in ask.options]
    return found[0]


def keys(mode: GensoFightMode) -> list[str]:
    """The keys of the menu the table asks."""
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk), ask
    return [o.choice for o in ask.options]


def casts(mode: GensoFightMode) -> list[tuple[str, ...]]:
    return [e.action.targets for e in mode.fight.journal if isinstance(e.action, Cast)]


def test_the_party_leaves_out_the_dead_and_replays_after_the_death_is_undone(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """pc1, dead by the calendar, is not offered to the Barrier's toggles, and The party
    takes the caster alone too; resumed after the death is undone, the Cast replays."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "fight", "new", "--party", "pc1", "forest_fairy", "--monsters", "orc:1")
    genso(capsys, "calendar", "pass", "367")
    menu = at_table(user_dirs, False, "wait", "cast", "s:barrier")
    key = shortcut(menu, "The party 味方全員")
    assert key == f'all:["{FAIRY}"]'
    assert keys(menu) == ["done", key, "self", "back"]  # no toggle of pc1's
    cast = at_table(user_dirs, True, key)
    assert casts(cast) == [(FAIRY,)]
    genso(capsys, "calendar", "undo-death", PC1)
    again = at_table(user_dirs, True)
    assert again.journal == cast.journal == ["wait", "cast", "s:barrier", key]
    assert again.fight.to_json() == cast.fight.to_json()
    assert casts(again) == [(FAIRY,)]


def test_every_foe_leaves_out_a_dead_npc(user_dirs: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """An NPC from a sheet file (pc2's), dead by the calendar, beside an orc: Fire's Every
    foe takes the orc alone, as its toggles offer it alone; resumed after the death is
    undone, the Cast replays."""
    genso(capsys, "sheet", "pc2", "--save-as", str(user_dirs / "bandit.toml"))
    genso(capsys, "calendar", "curse", "Mio", PC2)
    genso(capsys, "fight", "new", "--party", "pc1", "forest_fairy", "--npc",
          str(user_dirs / "bandit.toml"), "--monsters", "orc:1")
    genso(capsys, "calendar", "pass", "367")
    menu = at_table(user_dirs, False, "wait", "cast", "s:fire")
    key = shortcut(menu, "Every foe 敵全員")
    assert key == f'all:["{ORC}"]'
    assert keys(menu) == [f"in:{ORC}", f"in:{PC1}", f"in:{FAIRY}", key, "back"]
    cast = at_table(user_dirs, True, key)
    assert casts(cast) == [(ORC,)]
    genso(capsys, "calendar", "undo-death", PC2)
    again = at_table(user_dirs, True)
    assert again.journal == cast.journal == ["wait", "cast", "s:fire", key]
    assert again.fight.to_json() == cast.fight.to_json()


def test_with_no_dead_the_shortcut_is_all_as_before(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No death recorded: the key a save has always kept, taking pc1 in."""
    genso(capsys, "fight", "new", "--party", "pc1", "forest_fairy", "--monsters", "orc:1")
    menu = at_table(user_dirs, False, "wait", "cast", "s:barrier")
    assert shortcut(menu, "The party 味方全員") == "all"
    cast = at_table(user_dirs, True, "all")
    assert casts(cast) == [(PC1, FAIRY)]
