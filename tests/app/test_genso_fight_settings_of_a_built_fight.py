"""``companion genso fight ACTION --set``: a setting read only as a fight is built (GM-MON-7
``orc_warrior``, the Orc Warrior's numbers) is refused mid-fight, as it applies to new fights;
the settings an action does change from it on are still taken."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.paths import data_dir


def saved() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (data_dir() / "genso" / "fight.json").read_text(encoding="utf-8"))
    return data


def test_the_orc_warriors_numbers_set_mid_fight_are_refused_for_new_fights(
        capsys: pytest.CaptureFixture[str]) -> None:
    """fixg72c RISK, finalb72 NIT 4: `fight wait pc1 --set GM-MON-7.orc_warrior=wg` said
    "from this action on (was gm)", and the Orc Warrior stayed at HP 14/14 with the GM
    guide's numbers, as its numbers are taken as the fight is built."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc_warrior"]) == 0
    capsys.readouterr()
    before = saved()
    assert main(["genso", "fight", "wait", "pc1", "--seed", "1",
                 "--set", "GM-MON-7.orc_warrior=wg"]) == 2
    err = capsys.readouterr().err
    assert ("--set GM-MON-7.orc_warrior: a monster's numbers are set as the fight is built, "
            "so GM-MON-7.orc_warrior applies to new fights (`genso fight new --set "
            "GM-MON-7.orc_warrior=wg`); this fight keeps GM-MON-7.orc_warrior = gm") in err
    assert saved() == before
    # The value the fight has is no change: a fight played with it at every call goes on.
    assert main(["genso", "fight", "wait", "pc1", "--seed", "1",
                 "--set", "GM-MON-7.orc_warrior=gm"]) == 0
    capsys.readouterr()
    # A setting an action changes from it on is taken beside the Orc Warrior.
    assert main(["genso", "fight", "wait", "orc_warrior", "--seed", "1", "--json",
                 "--set", "GM-MON-1.flee_flag=false"]) == 0
    assert json.loads(capsys.readouterr().out)["entry"]["settings"] == {
        "GM-MON-1": {"flee_flag": False}}
    # A new fight takes it: the world guide's Orc Warrior, HP 16.
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc_warrior",
                 "--force", "--json", "--set", "GM-MON-7.orc_warrior=wg"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [c["max_hp"] for c in shown["combatants"] if c["side"] == "enemy"] == [16]


@pytest.mark.parametrize("coin", ["gold", "large_silver", "silver"])
def test_the_starting_money_set_mid_fight_is_refused_for_new_characters(
        coin: str, capsys: pytest.CaptureFixture[str]) -> None:
    """fixg72d's open item: `fight wait pc1 --set GM-CHAR-7.gold=9` said "from this action on
    (was 4)" and changed nothing, as GM-CHAR-7's starting money is counted only as `genso new`
    makes a character; no fight reads it. It is refused as the Orc Warrior's numbers are."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) == 0
    capsys.readouterr()
    before = saved()
    assert main(["genso", "fight", "wait", "pc1", "--seed", "1",
                 "--set", f"GM-CHAR-7.{coin}=9"]) == 2
    now = {"gold": 4, "large_silver": 20, "silver": 0}[coin]
    assert (f"--set GM-CHAR-7.{coin}: a PC's 所持金/starting money is counted as the "
            f"character is made, and no fight reads it, so GM-CHAR-7.{coin} applies to new "
            "characters "
            f"(`genso new --set GM-CHAR-7.{coin}=9`); this fight keeps GM-CHAR-7.{coin} = "
            f"{now}") in capsys.readouterr().err
    assert saved() == before
    # The fight's own value is no change, and goes on.
    assert main(["genso", "fight", "wait", "pc1", "--seed", "1",
                 "--set", f"GM-CHAR-7.{coin}={now}"]) == 0
    capsys.readouterr()
    # `genso new` takes it.
    assert main(["genso", "new", "Kit", "--body", "6", "--perception", "5", "--magic", "4",
                 "--skill", "combat", "--seed", "1", "--json",
                 "--set", f"GM-CHAR-7.{coin}=9"]) == 0
    assert json.loads(capsys.readouterr().out)["sheet"]["money"][coin] == 9


@pytest.mark.parametrize("coin", ["gold", "large_silver", "silver"])
def test_the_starting_money_set_on_a_new_fight_is_refused_for_new_characters(
        coin: str, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewa73 NIT 10: `fight new --set GM-CHAR-7.gold=9` was taken without a word, and a
    later action's --set was told "this fight keeps GM-CHAR-7.gold = 9", which no fight
    reads. It is refused as an action's is, nothing written; the value the fight takes
    anyway goes on."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc",
                 "--set", f"GM-CHAR-7.{coin}=9"]) == 2
    assert (f"error: --set GM-CHAR-7.{coin}: a PC's 所持金/starting money is counted as the "
            f"character is made, and no fight reads it, so GM-CHAR-7.{coin} applies to new "
            f"characters (`genso new --set GM-CHAR-7.{coin}=9`); nothing was written") in \
        capsys.readouterr().err
    assert not (data_dir() / "genso" / "fight.json").exists()
    now = {"gold": 4, "large_silver": 20, "silver": 0}[coin]
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc",
                 "--set", f"GM-CHAR-7.{coin}={now}"]) == 0


#: calendar73 RISK 2: the Defaults no fight reads, a value other than the seed's, the
#: refusal's reason and command, and what that command prints with it.
UNREAD = [
    ("GM-MAGIC-13.year_days", "10", "365",
     "a 呪殺呪/Death Curse's day of death is counted as `genso calendar curse` keeps it",
     "calendar curse CASTER TARGET", ["calendar", "curse", "Mio", "Ben"],
     "a year of 10 days"),
    ("GM-HEAL-1.fee_silver", "3", "1", "a healer's fee is paid by `genso rest --healer`",
     "rest NAME DAYS --healer", ["rest", "Aki", "1", "--healer"], "healer's fee"),
    ("GM-MOVE-2.begun_turn_counts", "false", "true",
     "a journey's turns are counted by `genso travel`", "travel METRES",
     ["travel", "9000"], "2 ターン turns (GM-MOVE-2; 端数切り捨て rounded down)"),
]


@pytest.mark.parametrize(("setting", "new", "now", "why", "command", "run", "shown"), UNREAD)
def test_a_setting_no_fight_reads_is_refused_naming_the_command_that_reads_it(
        setting: str, new: str, now: str, why: str, command: str, run: list[str], shown: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """calendar73 RISK 2: `fight wait pc1 --set GM-MAGIC-13.year_days=10` said "from this
    action on (was 365)", and `fight new --set GM-HEAL-1.fee_silver=3` was kept without a
    word, though only `calendar curse`, `rest` and `travel` read these. Both are refused as
    GM-CHAR-7 is, naming the command that reads each; that command takes it."""
    refusal = (f"--set {setting}: {why}, and no fight reads it, so give it there (`genso "
               f"{command} --set {setting}={new}`)")
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc",
                 "--set", f"{setting}={new}"]) == 2
    assert f"{refusal}; nothing was written" in capsys.readouterr().err
    assert not (data_dir() / "genso" / "fight.json").exists()
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) == 0
    capsys.readouterr()
    before = saved()
    assert main(["genso", "fight", "wait", "pc1", "--seed", "1",
                 "--set", f"{setting}={new}"]) == 2
    assert f"{refusal}; this fight keeps {setting} = {now}" in capsys.readouterr().err
    assert saved() == before
    # The fight's own value is no change, and goes on.
    assert main(["genso", "fight", "wait", "pc1", "--seed", "1",
                 "--set", f"{setting}={now}"]) == 0
    capsys.readouterr()
    # The command the refusal names takes it.
    assert main(["genso", "new", "Aki", "--body", "6", "--perception", "5", "--magic", "4",
                 "--skill", "magic", "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["genso", *run, "--set", f"{setting}={new}"]) == 0
    assert shown in capsys.readouterr().out
