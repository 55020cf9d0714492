"""fixgenso71c: `companion genso fight …` agrees with the genso table on a fighter the
calendar records dead of a Death Curse (呪殺呪, GM-MAGIC-13): it acts no more (only `fight
wait`, and the GM's end, undo, sunrise, sunset and sleep, go on its turn), it is no target of
an attack, a stone or a spell on a friend or a foe (Dispel still takes it), and `fight show`
marks its row as the table's. A fight file played before still plays on."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.app.commands.genso.fights import load_fight
from companion.app.modes.genso import GensoFightMode
from companion.app.modes.genso_fight_files import calendar_path, default_fight_path
from companion.app.session.mode import ChoiceAsk
from tests.app.genso_death_curse_helpers import (
    ACTS_NO_MORE,
    DIED,
    PC1,
    PC2,
    RULES,
    genso,
    monster_died_before,
    pc1_dies,
    refused,
    run,
)

#: The table's row condition of the dead.
ROW = "呪殺呪 curse 死亡 died"


def the_tables_prompt() -> str:
    """What the table asks on the turn of whoever's turn it is, in the fight saved now."""
    ask = GensoFightMode(RULES, load_fight(RULES, default_fight_path())).ask()
    assert isinstance(ask, ChoiceAsk), ask
    return ask.prompt


def test_the_dead_acts_no_more_on_the_command_line_in_the_tables_words(
        capsys: pytest.CaptureFixture[str]) -> None:
    """pc1, dead by the calendar, neither attacks, casts, uses a stone, moves, dodges nor
    flees: each is refused before any die is asked for (typed dice, and no input to read)
    with the table's own prompt of its turn, and says what does go on."""
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    pc1_dies(capsys)
    assert the_tables_prompt() == ACTS_NO_MORE
    for argv in (("attack", "pc1", "orc"), ("attack", PC1, "オーク", "--full"),
                 ("cast", "pc1", "healing", "pc2"), ("stone", "pc1", "healing_stone", "pc2"),
                 ("move", "pc1", "combat"), ("dodge", "pc1"), ("flee", "pc1")):
        err = refused(capsys, *argv, "--dice", "typed")
        assert f"error: {ACTS_NO_MORE}: `" in err, err
        assert f"genso fight wait {PC1}` skips its turn 手番を飛ばす, and the GM's `fight " \
               "end`, `undo`, `sunrise`, `sunset` and `sleep` go on" in err


def test_the_dead_s_turn_goes_on_by_wait_and_the_gm_s_steps(
        capsys: pytest.CaptureFixture[str]) -> None:
    """What the table offers on the dead's turn, Skip turn (a Wait) and the GM's Undo,
    Sunrise, Sunset, Sleep and End fight, the command line plays."""
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    pc1_dies(capsys)
    assert "waits" in genso(capsys, "fight", "wait", "pc1")
    genso(capsys, "fight", "undo")
    for verb in ("sunrise", "sunset", "sleep", "end"):
        genso(capsys, "fight", verb)
    shown = json.loads(genso(capsys, "fight", "log", "--json"))
    assert shown["outcome"] == "declared" and len(shown["journal"]) == 4


def test_the_dead_is_no_target_of_an_attack_a_stone_or_a_spell_on_a_friend_or_foe(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The orc's attack, pc2's Healing, Lightning, Fire (its area), Barrier (its members),
    Exorcism on pc1's weapon and a Healing Stone do not take the dead pc1, said with the
    table's reason; Dispel, which takes anyone at the table, does. The living are taken."""
    two = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(two))
    two.write_text(re.sub(r"^money = .*$", "money = {gold = 9}",
                          two.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    genso(capsys, "buy", str(two), "healing_stone")
    genso(capsys, "fight", "new", "--party", "pc1", str(two), "--monsters", "orc")
    pc1_dies(capsys)
    genso(capsys, "fight", "wait", "pc1")
    why = f"error: {PC1} PC 1: {DIED}, no target of "
    every = ("--set", "GM-MAGIC-1.known_spells_only=false")
    for argv, what in ((("cast", PC2, "healing", "pc1"), "治癒呪/Healing"),
                       (("cast", PC2, "lightning", "pc1", *every), "雷撃呪/Lightning"),
                       (("cast", PC2, "fire", "orc", "pc1", *every), "火炎呪/Fire"),
                       (("cast", PC2, "barrier", "pc1", *every), "結界呪/Barrier"),
                       (("cast", PC2, "exorcism", "pc1", "--weapon", "0", *every),
                        "退魔呪/Exorcism"),
                       (("stone", PC2, "healing_stone", "pc1"), "a stone")):
        assert why + what in refused(capsys, *argv, "--dice", "typed"), argv
    assert "no spell on" in genso(capsys, "fight", "cast", PC2, "dispel", "pc1", *every,
                                  "--seed", "1")
    genso(capsys, "fight", "undo")
    assert "治癒石/Healing Stone on" in genso(capsys, "fight", "stone", PC2, "healing_stone", PC2,
                              "--seed", "1")
    assert why + "an attack" in refused(capsys, "attack", "orc", "pc1", "--dice", "typed")
    assert "GM-COMBAT-3" in genso(capsys, "fight", "attack", "orc", PC2, "--seed", "1")


def test_fight_show_marks_the_dead_s_row_as_the_table_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The dead pc1's row says 呪殺呪 curse 死亡 died, the table's own condition, and the JSON
    says ``calendar_dead``; the others' rows say nothing of it."""
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    pc1_dies(capsys)
    row = GensoFightMode(RULES, load_fight(RULES, default_fight_path())).fight_view().fighters[0]
    assert ROW in row.conditions and row.down
    rows = genso(capsys, "fight", "show").splitlines()[1:]
    assert rows[0].startswith(f"▶ party {PC1} PC 1") and rows[0].endswith(ROW)
    assert all(ROW not in line for line in rows[1:])
    shown = json.loads(genso(capsys, "fight", "show", "--json"))
    assert [c["calendar_dead"] for c in shown["combatants"]] == [True, False, False]
    # An action's status marks it too.
    assert f"{PC1} PC 1  HP 12/12 MP 8/8  {ROW}" in genso(capsys, "fight", "wait", "pc1")


def test_a_fight_played_before_the_death_was_recorded_plays_on(
        capsys: pytest.CaptureFixture[str]) -> None:
    """pc1 attacked, was healed and attacked by the orc before the calendar recorded its
    death: the fight file loads, shows, logs and undoes as played; only a new action by or
    on the dead is refused."""
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    genso(capsys, "fight", "attack", "pc1", "orc", "--seed", "1")
    genso(capsys, "fight", "cast", "pc2", "healing", "pc1", "--seed", "1")
    genso(capsys, "fight", "attack", "orc", "pc1", "--seed", "2")
    log = genso(capsys, "fight", "log")
    pc1_dies(capsys)
    assert genso(capsys, "fight", "log") == log
    assert ROW in genso(capsys, "fight", "show")
    assert "undone" in genso(capsys, "fight", "undo")
    assert ACTS_NO_MORE in refused(capsys, "attack", "pc1", "orc", "--dice", "typed")
    assert "no target of an attack" in refused(capsys, "attack", "orc", "pc1")


def test_a_monster_named_as_a_recorded_death_is_a_new_one_and_acts(
        capsys: pytest.CaptureFixture[str]) -> None:
    """As at the table (reviewg71 DEFECT 1): a death recorded on an earlier fight's orc
    (`オーク`) is not this fight's orc, which acts and is attacked."""
    monster_died_before()  # kept before calendar73 NIT 8 refused it
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    genso(capsys, "fight", "attack", "pc1", "orc", "--seed", "1")
    genso(capsys, "fight", "wait", "pc2")
    genso(capsys, "fight", "attack", "orc", "pc1", "--seed", "1")
    assert ROW not in genso(capsys, "fight", "show")


def test_a_calendar_that_cannot_be_read_is_said_and_the_fight_goes_on(
        capsys: pytest.CaptureFixture[str]) -> None:
    """As the table's status line: Death Curses not shown, named once, and the action is
    played."""
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    calendar_path().parent.mkdir(parents=True, exist_ok=True)
    calendar_path().write_text("day = [\n", encoding="utf-8")
    code, out, err = run(capsys, "fight", "attack", "pc1", "orc", "--seed", "1")
    assert code == 0, err
    assert err.count("呪殺呪の表示なし Death Curses not shown: ") == 1, err
    assert "GM-COMBAT-2" in out
    # `fight sunset` says it once, in its own words (Death Curses not shown).
    code, _, err = run(capsys, "fight", "sunset", "--seed", "1")
    assert code == 0 and err.count("Death Curses not shown") == 1, err


def test_a_death_curse_cast_in_a_fight_points_to_the_calendar(
        capsys: pytest.CaptureFixture[str]) -> None:
    """calendar73 NIT 5: `fight cast mage_m death_curse pc1` said the spell "is told by the
    GM, not tracked", and the companion tracks it, on the calendar: the refusal names
    `genso calendar curse` with the caster and target as typed; on a monster (which the
    calendar refuses, NIT 8) the GM tells it. Nothing is played or saved."""
    genso(capsys, "fight", "new", "--party", "mage_m", "pc1", "--monsters", "orc")
    before = default_fight_path().read_text(encoding="utf-8")
    told = ("呪殺呪/Death Curse (GM-MAGIC-13) is not played in a fight (no MP paid, no turn "
            "spent there): its target dies at sunset a year and a day on, which the companion "
            "keeps on the calendar")
    err = refused(capsys, "cast", "mage_m", "death_curse", "pc1")
    assert re.search(re.escape(f"{told}: `") + r"\S*companion genso calendar curse mage_m pc1`",
                     err), err
    assert "not tracked" not in err
    assert f"{told} for a person only: on a monster, each fight's a new one, the GM tells " \
           "it" in refused(capsys, "cast", "mage_m", "呪殺呪", "オーク")
    assert default_fight_path().read_text(encoding="utf-8") == before
    # What the error names is taken by the calendar.
    assert "駆け出し冒険者１ dies at sunset on day 367" in genso(
        capsys, "calendar", "curse", "mage_m", "pc1")
