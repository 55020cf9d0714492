"""fixgenso71e: `companion genso fight …` and a fighter the calendar records dead of a Death
Curse (呪殺呪, GM-MAGIC-13), after reviewg71c: `fight sunset`'s advice holds once `calendar
pass 1` records the death (RISK 1), the dead's refusal names `fight wait` only on its turn
(NIT 1), and the dead count down as the table counts them, the party down (全滅) or every foe
(NIT 3, fixgenso71c's open RISK), a fight with no calendar death said as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.command_name import companion_command
from companion.app.commands.genso.fights import load_fight
from companion.app.modes.genso_fight_files import default_fight_path
from companion.systems.genso.combat import Outcome
from tests.app.genso_cli_out_helpers import unwrapped
from tests.app.genso_death_curse_helpers import (
    ACTS_NO_MORE,
    PC1,
    PC2,
    RULES,
    genso,
    monster_died_before,
    pc1_and_pc2_at,
    pc1_dies,
    refused,
    run,
    the_orc_fells,
    the_table,
)


def sunset_line(capsys: pytest.CaptureFixture[str]) -> str:
    """`fight sunset`'s GM-MAGIC-13 line."""
    return next(x for x in unwrapped(genso(capsys, "fight", "sunset")).splitlines()
                if x.startswith("GM-MAGIC-13"))


def test_the_sunset_advice_flees_before_the_pass_and_waits_after_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg71c RISK 1: the line names `calendar pass 1` first, then advised a flee on the
    target's turn, which that pass shuts (the dead act no more). It says the flee is before
    the pass records the death (docs/playing.md's words), and that `fight wait` skips the
    dead's turn after it: both as said are what the command line then does."""
    genso(capsys, "calendar", "curse", "Mio", "pc1")
    genso(capsys, "calendar", "pass", "366")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    line = sunset_line(capsys)
    command = f"{companion_command()} genso fight"
    assert f"before `genso calendar pass 1` records the death, takes them out on their " \
           f"turn with `{command} flee '{PC1}'`" in line, line
    assert line.endswith(f"once it is recorded they act no more, and `{command} wait "
                         f"'{PC1}'` skips their turn"), line
    assert "does not mark the death" not in line
    genso(capsys, "calendar", "pass", "1")
    assert ACTS_NO_MORE in refused(capsys, "flee", PC1, "--dice", "typed")
    assert f"{PC1} PC 1 waits" in genso(capsys, "fight", "wait", PC1)


def test_off_its_turn_the_dead_s_refusal_names_no_wait(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg71c NIT 1: on pc2's turn, the dead pc1's attack was refused pointing to `fight
    wait pc1`, which the engine then refused (not pc1's turn). Off its turn the refusal
    names the GM's steps alone; on its turn it names the Wait, which is played."""
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    genso(capsys, "fight", "attack", "pc1", "orc", "--seed", "1")  # pc2's turn now
    pc1_dies(capsys)
    err = refused(capsys, "attack", "pc1", "orc", "--dice", "typed")
    assert err.rstrip().endswith(f"{ACTS_NO_MORE}: the GM's `fight end`, `undo`, `sunrise`, "
                                 "`sunset` and `sleep` go on"), err
    assert "fight wait" not in err
    genso(capsys, "fight", "wait", "pc2")
    genso(capsys, "fight", "attack", "orc", "pc2", "--seed", "1")  # pc1's turn again
    err = refused(capsys, "attack", "pc1", "orc", "--dice", "typed")
    assert f"{ACTS_NO_MORE}: `{companion_command()} genso fight wait {PC1}` skips its turn" \
           in err, err
    assert f"{PC1} PC 1 waits" in genso(capsys, "fight", "wait", "pc1")


# --- NIT 3, fixgenso71c's open RISK ------------------------------------------------------

GOES_ON = "the fight goes on until the GM ends it"


def to_end() -> str:
    """The hint after an action while a side is out."""
    return f"to end it 戦闘終了: `{companion_command()} genso fight end`\n"


def shown(capsys: pytest.CaptureFixture[str]) -> tuple[list[str], dict[str, object]]:
    """`fight show`'s lines and `fight show --json`."""
    lines = genso(capsys, "fight", "show").splitlines()
    return lines, json.loads(genso(capsys, "fight", "show", "--json"))


def test_the_calendar_dead_and_the_fallen_are_the_party_down_as_at_the_table(
        capsys: pytest.CaptureFixture[str]) -> None:
    """pc1 dead by the calendar, pc2 felled: the table counts the party down (全滅) and its
    GM's end says so; `fight show` had no 全滅 line, `fight end` no `at the end: 全滅`, and
    the JSON's party_down stayed false. They say it as for a party the engine fells."""
    pc1_and_pc2_at(12, 1)
    pc1_dies(capsys)
    genso(capsys, "fight", "wait", PC1)
    genso(capsys, "fight", "wait", PC2)
    felled = the_orc_fells(capsys, PC2)
    assert the_table().party_out() is Outcome.PARTY_DOWN  # the table's count
    assert f"\n全滅 party down: {GOES_ON}\n" in felled and felled.endswith(to_end())
    lines, data = shown(capsys)
    assert lines[1] == f"全滅 party down: {GOES_ON}"
    assert (data["party_down"], data["party_out"]) == (True, "party_down")
    ended = genso(capsys, "fight", "end")
    assert the_table()._outcome() == "終了 the GM ended the fight — 全滅 the party is down"
    assert "\nround 2  over: 終了 the GM ended the fight\nat the end: 全滅 the party is " \
           "down\n" in ended, ended
    lines, data = shown(capsys)
    assert lines[1] == "at the end: 全滅 the party is down" and GOES_ON not in "".join(lines)
    assert (data["party_down"], data["party_out"]) == (False, "party_down")


def test_every_foe_dead_by_the_calendar_is_the_foes_down_as_at_the_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The one foe, an NPC from a sheet file, dead by the calendar: the table notes 敵全滅
    foes down and its GM's end says 勝利 the party won; the command line said neither."""
    genso(capsys, "sheet", "pc2", "--save-as", str(tmp_path / "bandit.toml"))
    genso(capsys, "calendar", "curse", "Mio", PC2)
    genso(capsys, "fight", "new", "--party", "pc1", "--npc", str(tmp_path / "bandit.toml"))
    genso(capsys, "calendar", "pass", "367")
    assert the_table().foes_out()
    waited = genso(capsys, "fight", "wait", PC1)
    assert f"\n敵全滅 foes down: {GOES_ON}\n" in waited and waited.endswith(to_end())
    lines, data = shown(capsys)
    assert lines[1] == f"敵全滅 foes down: {GOES_ON}"
    assert (data["party_down"], data["party_out"]) == (False, None)  # the party is not out
    ended = genso(capsys, "fight", "end")
    assert the_table()._outcome() == "終了 the GM ended the fight — 勝利 the party won"
    assert "over: 終了 the GM ended the fight\nat the end: 勝利 the party won\n" in ended


def test_with_no_calendar_death_the_party_down_is_said_as_before(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Kept: a party the engine fells, with a calendar that records a monster's name dead
    (never a fighter, reviewg71 DEFECT 1), is said as the engine's state says it, going on
    and at the GM's end, and a fight neither side is out of says neither."""
    monster_died_before()  # kept before calendar73 NIT 8 refused it
    pc1_and_pc2_at(1, 1)
    genso(capsys, "fight", "wait", PC1)
    genso(capsys, "fight", "wait", PC2)
    lines, data = shown(capsys)
    assert not any(GOES_ON in line or line.startswith("at the end") for line in lines)
    assert (data["party_down"], data["party_out"]) == (False, None)
    the_orc_fells(capsys, PC1)
    genso(capsys, "fight", "wait", PC2)
    felled = the_orc_fells(capsys, PC2)
    state = load_fight(RULES, default_fight_path()).state
    assert state.party_down_going_on and state.party_out is Outcome.PARTY_DOWN
    assert f"\n全滅 party down: {GOES_ON}\n" in felled and felled.endswith(to_end())
    lines, data = shown(capsys)
    assert lines[1] == f"全滅 party down: {GOES_ON}" and len(lines) == 5
    assert (data["party_down"], data["party_out"]) == (True, "party_down")
    code, ended, _ = run(capsys, "fight", "end")
    assert code == 0 and ended.count("at the end: 全滅 the party is down\n") == 1
    lines, data = shown(capsys)
    assert lines[1] == "at the end: 全滅 the party is down" and len(lines) == 5
    assert (data["party_down"], data["party_out"], data["outcome"]) == (
        False, "party_down", "declared")
