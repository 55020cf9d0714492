"""A Dispel (呪解呪, GM-MAGIC-4) cast in a fight on a fighter that carries a Death Curse
(呪殺呪, GM-MAGIC-13) by `genso calendar`: 「…古い順に無効化される」, and a curse of an
earlier day is older than any spell of the fight, which the engine, knowing no calendar,
does not see. The command line and the table's Result name the curse and the `genso
calendar dispel … --caster` command that records it; the engine's lines, and so every
replay, stay as they were (calendar73 DEFECT 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode
from companion.dice import ScriptedDice
from companion.systems.genso.combat import Cast, Fight, Wait, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.genso_cli_out_helpers import unwrapped
from tests.app.table import asked
from tests.hw.screen_layout_helpers import drawn_on

RULES = load_rules()
PC1 = "駆け出し冒険者１"
MAGE = "一般的な魔術師（女性）"
NOTE = ("駆け出し冒険者１ PC carries Mio's 呪殺呪/Death Curse on the calendar (cast on day 1), "
        "older than any spell of this fight (古い順に無効化される): if the GM rules this "
        "呪解呪/Dispel reached it (一般的な魔術師（女性） Typical mage (female)'s Magic 6 not "
        "below Mio's), record it: `")
FAIRY = "一般的な森妖精の冒険者 Typical forest fairy (elf) adventurer"
COMMAND = "genso calendar dispel 駆け出し冒険者１ --caster Mio`"


def run(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    assert main(["genso", *words]) == 0
    return unwrapped(capsys.readouterr().out)


def test_a_dispel_in_a_fight_names_the_calendar_curse_and_the_command(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`fight cast mage_f dispel pc1` said "no spell on 駆け出し冒険者１ PC can be cancelled"
    while the row showed 呪殺呪 curse 366d, and pointed nowhere; it says so still (the
    engine's line, replayed as played) and names the curse and the command after it."""
    run(capsys, "calendar", "curse", "Mio", "pc1")
    run(capsys, "calendar", "pass", "1")  # cast on an earlier day: older than the fight
    run(capsys, "fight", "new", "--party", "mage_f", "pc1", "--monsters", "orc")
    said = run(capsys, "fight", "cast", "mage_f", "dispel", "pc1", "--seed", "1")
    lines = said.splitlines()
    engine = lines.index("GM-MAGIC-4   no spell on 駆け出し冒険者１ PC can be cancelled")
    assert lines[engine + 1].startswith(f"GM-MAGIC-4   {NOTE}")
    assert lines[engine + 1].endswith(COMMAND)
    # The journal keeps the engine's lines only: a replay says what it said.
    saved = json.loads((user_dirs / "data" / "genso" / "fight.json").read_text("utf-8"))
    assert not any("calendar" in line["text"] for entry in saved["journal"]
                   for line in entry["lines"])
    # The command named records it, and the next Dispel names nothing.
    assert main(["genso", "calendar", "dispel", PC1, "--caster", "Mio"]) == 0
    capsys.readouterr()
    run(capsys, "fight", "undo")
    said = run(capsys, "fight", "cast", "mage_f", "dispel", "pc1", "--seed", "1")
    assert "on the calendar" not in said


def test_a_dispel_that_cancelled_a_spell_of_the_fight_offers_the_curse_only_after_undo(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg73 RISK 1: with 防護呪/Protection on the target, the Dispel cancels it, and the
    line invited the GM to record the curse dispelled too: one Dispel cancelling two
    spells. It says one Dispel cancels one spell, and, if the GM rules the older curse
    was the one reached, to undo the cancellation before recording it."""
    run(capsys, "calendar", "curse", "Mio", "pc1")
    run(capsys, "calendar", "pass", "1")
    run(capsys, "fight", "new", "--party", "forest_fairy", "pc1", "--monsters", "orc")
    run(capsys, "fight", "cast", "forest_fairy", "protection", "pc1", "--seed", "1")
    run(capsys, "fight", "wait", "pc1")
    run(capsys, "fight", "wait", "orc")
    lines = run(capsys, "fight", "cast", "forest_fairy", "dispel", "pc1",
                "--seed", "1").splitlines()
    cancelled = lines.index(f"GM-MAGIC-4   防護呪/Protection by {FAIRY} on 駆け出し冒険者１ PC "
                            "is cancelled")
    said = lines[cancelled + 1]
    assert said.startswith(
        "GM-MAGIC-4   駆け出し冒険者１ PC carries Mio's 呪殺呪/Death Curse on the calendar (cast "
        "on day 1), older than any spell of this fight: one 呪解呪/Dispel cancels one spell "
        "(古い順に無効化される); if the GM rules this one reached the curse instead "
        f"({FAIRY}'s Magic 12 not below Mio's), undo the cancellation first: `")
    assert " genso fight undo`, then record it: `" in said and said.endswith(COMMAND)
    # Undone as it says, the Protection stands, and the Dispel recorded on the calendar.
    run(capsys, "fight", "undo")
    assert main(["genso", "calendar", "dispel", PC1, "--caster", "Mio"]) == 0
    capsys.readouterr()
    shown = json.loads(run(capsys, "fight", "show", "--json"))
    pc1 = next(c for c in shown["combatants"] if c["name"] == PC1)
    assert "protection" in json.dumps(pc1, ensure_ascii=False).lower()


def test_a_curse_cast_the_day_of_the_fight_is_not_said_older(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg73 RISK 1, repro 2: a curse cast mid-fight, after the Protection, was said
    "older than any spell of this fight". A fight keeps no day: a curse of today is not
    said older, whether or not the engine cancelled a spell."""
    run(capsys, "fight", "new", "--party", "forest_fairy", "pc1", "--monsters", "orc")
    run(capsys, "fight", "cast", "forest_fairy", "protection", "pc1", "--seed", "1")
    run(capsys, "calendar", "curse", "Mio", "pc1")
    run(capsys, "fight", "wait", "pc1")
    run(capsys, "fight", "wait", "orc")
    said = run(capsys, "fight", "cast", "forest_fairy", "dispel", "pc1", "--seed", "1")
    assert "(cast on day 1): one 呪解呪/Dispel cancels one spell" in said
    assert "older" not in said
    run(capsys, "fight", "undo")
    run(capsys, "fight", "undo")
    run(capsys, "fight", "undo")
    run(capsys, "fight", "undo")  # the Protection too: nothing of the fight to cancel
    run(capsys, "fight", "wait", "forest_fairy")
    run(capsys, "fight", "wait", "pc1")
    run(capsys, "fight", "wait", "orc")
    said = run(capsys, "fight", "cast", "forest_fairy", "dispel", "pc1", "--seed", "1")
    assert "no spell on 駆け出し冒険者１ PC can be cancelled" in said
    assert ("駆け出し冒険者１ PC carries Mio's 呪殺呪/Death Curse on the calendar (cast on day 1) "
            "(古い順に無効化される): if the GM rules this 呪解呪/Dispel reached it") in said
    assert "older" not in said


def test_a_dispel_on_anyone_else_or_a_weapon_names_no_curse(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "calendar", "curse", "Mio", "pc1")
    run(capsys, "fight", "new", "--party", "mage_f", "pc1", "--monsters", "orc")
    said = run(capsys, "fight", "cast", "mage_f", "dispel", "orc", "--seed", "1")
    assert "no spell on オーク Orc can be cancelled" in said
    assert "on the calendar" not in said


def test_the_tables_result_names_the_calendar_curse(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same at the table: its Result after the Dispel, as the engine's lines are."""
    run(capsys, "calendar", "curse", "Mio", "pc1", "--set", "GM-MAGIC-13.year_days=1")
    run(capsys, "calendar", "curse", "Ann", "pc1")
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "mage_f"), preset(RULES, "pc1")],
                                      [("orc", 1)]))
    mode = GensoFightMode(RULES, fight)
    assert fight.state.current is not None and fight.state.current.name == MAGE
    fight.push(Cast(MAGE, "dispel", (PC1,)), ScriptedDice([]))
    result = [(step.rule, step.text) for step in mode.fight_view().result]
    assert result[-2] == ("GM-MAGIC-4", "no spell on 駆け出し冒険者１ PC can be cancelled")
    # Short, for the Result's rows: the oldest (both cast on day 1, Mio's first), the other
    # counted; cast today, as the fight is, so not said older (reviewg73 RISK 1).
    assert result[-1] == ("GM-MAGIC-4", "駆け出し冒険者１ PC also carries Mio's 呪殺呪/Death "
                          "Curse (day 1) +1: if this 呪解呪/Dispel reached it, `genso "
                          "calendar dispel 駆け出し冒険者１ --caster Mio`")
    # Another action's Result names none.
    fight.push(Wait(PC1), ScriptedDice([]))
    assert not any("on the calendar" in step.text for step in mode.fight_view().result)


def protected_then_dispelled(capsys: pytest.CaptureFixture[str]) -> GensoFightMode:
    """A table fight, a day after Mio's curse on PC 1: the fairy's Protection on PC 1, then,
    a round on, the fairy's Dispel on PC 1, which cancels the Protection."""
    run(capsys, "calendar", "curse", "Mio", "pc1")
    run(capsys, "calendar", "pass", "1")
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "forest_fairy"),
                                              preset(RULES, "pc1")], [("orc", 1)]))
    mode = GensoFightMode(RULES, fight)
    fairy = fight.state.current
    assert fairy is not None
    fight.push(Cast(fairy.name, "protection", (PC1,)), ScriptedDice([]))
    fight.push(Wait(PC1), ScriptedDice([]))
    fight.push(Wait("オーク"), ScriptedDice([]))
    fight.push(Cast(fairy.name, "dispel", (PC1,)), ScriptedDice([]))
    return mode


def test_the_tables_result_after_a_dispel_that_cancelled_a_spell(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg73 RISK 1 at the table: the Protection cancelled, the line says one Dispel
    cancels one spell and to undo before recording the curse's."""
    result = [(step.rule, step.text) for step in
              protected_then_dispelled(capsys).fight_view().result]
    assert result[-2][1].endswith("on 駆け出し冒険者１ PC is cancelled")
    assert result[-1] == ("GM-MAGIC-4", "駆け出し冒険者１ PC also carries Mio's 呪殺呪/Death "
                          "Curse (day 1), older: one 呪解呪/Dispel cancels one spell; if it "
                          "reached the curse instead, `genso fight undo`, then `genso "
                          "calendar dispel 駆け出し冒険者１ --caster Mio`")


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", [1.0, 1.25], ids=["800x480", "800x480-text1.25"])
def test_the_undo_line_reads_whole_on_the_screen(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], scale: float) -> None:
    """The longer line, after a cancelled spell, is drawn whole with both commands."""
    mode = protected_then_dispelled(capsys)
    ask = asked(mode)
    drawn = drawn_on(mode.view(ask.prompt, options=ask.options, highlight=0), "800x480", scale)
    shown = "".join("".join(d.shown for d in drawn).split())  # rows joined, spaces out
    assert "`gensofightundo`" in shown
    assert "".join(COMMAND.split()) in shown


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", [1.0, 1.25], ids=["800x480", "800x480-text1.25"])
def test_the_results_line_reads_whole_on_the_screen(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], scale: float) -> None:
    """The line, the newest of the Result, is drawn whole with its command at 800x480, at
    text scale 1.25 too (the command-line sentence was cut there before its command)."""
    run(capsys, "calendar", "curse", "Mio", "pc1")
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "mage_f"), preset(RULES, "pc1")],
                                      [("orc", 1)]))
    mode = GensoFightMode(RULES, fight)
    fight.push(Cast(MAGE, "dispel", (PC1,)), ScriptedDice([]))
    ask = asked(mode)
    drawn = drawn_on(mode.view(ask.prompt, options=ask.options, highlight=0), "800x480", scale)
    shown = "".join("".join(d.shown for d in drawn).split())  # rows joined, spaces out
    assert "alsocarriesMio's呪殺呪/DeathCurse(day1)" in shown
    assert "".join(COMMAND.split()) in shown
