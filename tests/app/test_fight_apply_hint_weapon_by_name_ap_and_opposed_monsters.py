"""The dice-systems audit 55's genso and coc findings: a fight with sheet files that ends by an
action says to run `fight apply` (and `fight new` says when it never was), ``--weapon`` by
name, AP shown only where a profile has it, monsters in an opposed check, bilingual words
where raw keys were, and rule IDs on coc's command-line lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands import coc as coc_command
from companion.app.modes.genso import GensoFightMode, read_fight_file
from companion.dice import ScriptedDice
from companion.systems.coc.combat import Condition, EndTurn, Timed
from companion.systems.coc.rules import Profile
from companion.systems.genso.combat import Fight, Flee, Sleep, entrants_for
from companion.systems.genso.sheet import preset
from tests.app.genso_json_helpers import PC1, RULES, genso
from tests.systems.coc.helpers import duel, patch, push

APPLY = "`companion genso fight apply`"


def hurt_then_fled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    """pc1 from a sheet file is hit by the orc (seed 2), then flees: the fight ends by an
    action, the sheet's HP not yet written. The flight's text is returned."""
    sheet = tmp_path / "one.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    genso(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    genso(capsys, "fight", "wait", str(sheet))
    hit = genso(capsys, "fight", "attack", "orc", str(sheet), "--seed", "2")
    assert hit["combatants"][0]["hp"] == 11
    assert main(["genso", "fight", "flee", str(sheet)]) == 0
    return sheet, capsys.readouterr().out


def test_a_fight_ended_by_an_action_says_to_apply_it(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-COMBAT-1: only `fight end` named `fight apply`; a fight won, lost or fled by an
    action left the sheets at their old HP with no word."""
    _, text = hurt_then_fled(tmp_path, capsys)
    assert "逃走 the party escaped" in text and text.rstrip().endswith(APPLY)
    genso(capsys, "fight", "apply")
    assert main(["genso", "fight", "sleep"]) == 0  # over and applied: no more hint
    assert APPLY not in capsys.readouterr().out


def test_fight_new_says_the_saved_fight_was_never_applied(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The refusal of `fight new` over a finished fight named only --force: the HP the fight
    left were never written, and a forced new fight began at the sheet's stale HP."""
    sheet, _ = hurt_then_fled(tmp_path, capsys)
    again = ("genso", "fight", "new", "--party", str(sheet), "--monsters", "orc")
    assert main([*again]) == 2
    err = capsys.readouterr().err
    assert "pass --force" in err
    assert f"never written to the sheets of {PC1}: write them first with {APPLY}" in err
    assert main([*again, "--force"]) == 0
    err = capsys.readouterr().err
    assert f"of the fight replaced, its results were never written to the sheets of {PC1}" in err
    kept = next((user_dirs / "data" / "genso").glob("fight.json.replaced-*"))
    genso(capsys, "fight", "apply", "--file", str(kept))
    assert genso(capsys, "sheet", str(sheet))["sheet"]["hp"] == 11


def test_fight_new_over_an_applied_fight_says_nothing_of_applying(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet, _ = hurt_then_fled(tmp_path, capsys)
    genso(capsys, "fight", "apply")
    # Over and applied: written over with no --force and no copy (review59a D3).
    assert main(["genso", "fight", "new", "--party", str(sheet), "--monsters", "orc"]) == 0
    err = capsys.readouterr().err
    assert "was over; the new one is saved over it" in err
    assert "never written" not in err and "fight apply" not in err


def test_the_tables_end_screens_say_to_apply_a_fight_of_sheet_files(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """At the table the fight-over menu and the closing line named no `fight apply`; once the
    sheet holds what the fight left, they ask no more."""
    hurt_then_fled(tmp_path, capsys)
    fight = read_fight_file(RULES, user_dirs / "data" / "genso" / "fight.json")
    mode = GensoFightMode(RULES, fight)
    ask = mode.ask()
    assert ask is not None and ask.prompt.startswith("The fight is over")
    assert ask.prompt.endswith("companion genso fight apply")
    assert mode.closing().endswith("companion genso fight apply")
    genso(capsys, "fight", "apply")
    fight.push(Sleep(), ScriptedDice([]))  # a new journal length: the sheets read again
    assert "apply" not in mode.closing()
    presets_only = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1")], [("orc", 1)]))
    presets_only.push(Flee(PC1), ScriptedDice([]))
    assert "apply" not in GensoFightMode(RULES, presets_only).closing()


def test_fight_attack_takes_the_weapon_by_key_or_name(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-EQUIP-1: `--weapon 小刀` was `invalid int value`, and no screen showed the number
    it wanted. The number still works; a weapon not carried is refused naming those that are."""
    sheet = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(sheet))
    genso(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    for typed in ("小刀", "knife", "Knife", "小刀/Knife", "1"):
        hit = genso(capsys, "fight", "attack", str(sheet), "orc", "--weapon", typed, "--seed",
                    "3")
        assert hit["entry"]["action"]["weapon"] == 1, typed
        genso(capsys, "fight", "undo")
    assert main(["genso", "fight", "attack", str(sheet), "orc", "--weapon", "knif"]) == 2
    err = capsys.readouterr().err
    assert "carries no such weapon (carried: 0 棍棒/Club (club), 1 小刀/Knife (knife)" in err
    assert "did you mean 'knife'?" in err


def test_the_sheet_numbers_its_weapons_and_buy_and_gear_say_how_to_use_one(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-EQUIP-1 names no weapon first; the one readied is weapon 0, the one `fight attack`
    strikes with, as `gear --help` says (genso63 DEFECT 1): the sheet numbers them, `buy` of
    a weapon names `gear`, and `gear` names its number and the key of the one held before."""
    sheet = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(sheet))
    assert main(["genso", "buy", str(sheet), "staff"]) == 0
    assert f"`companion genso gear {sheet} staff` equips it" in capsys.readouterr().out
    assert main(["genso", "gear", str(sheet), "棒"]) == 0
    assert ("weapon 0, the one `fight attack` strikes with; `--weapon club` strikes with "
            "棍棒/Club") in capsys.readouterr().out
    assert main(["genso", "sheet", str(sheet)]) == 0
    assert ("打撃力/striking power: 0 棒/Staff 1D6-2, 1 棍棒/Club 1D6, 2 小刀/Knife 2D6-4, "
            "3 拳/Fist 1D6-4") in capsys.readouterr().out
    assert main(["genso", "buy", str(sheet), "torch"]) == 0
    assert "equips it" not in capsys.readouterr().out


def rows(text: str) -> dict[str, str]:
    return {line[2:].split()[0]: line for line in text.splitlines()[1:]}


def test_coc_fight_show_gives_ap_only_in_003_and_only_to_whoever_acts() -> None:
    """CO-TURN-3 (003's 3 action points): `coc fight show` listed AP 0 of everyone in 004,
    which has no AP, and in 003 AP 3 of one whose turn had ended."""
    four = duel(Profile.P004, {"fist": 50}, {"fist": 50})
    text, data = coc_command._status(four)
    assert "AP" not in text and all(r["ap"] is None for r in data["combatants"])
    three = duel(Profile.P003, {"fist": 50}, {"fist": 50})
    assert "AP 3" in rows(coc_command._status(three)[0])["Ann"]
    push(three, EndTurn("Ann"))
    text, data = coc_command._status(three)
    assert "AP" not in rows(text)["Ann"] and "AP 3" in rows(text)["Cult"]
    # --json says the same: Ann's 3 left of a turn ended was given as her AP.
    assert {r["name"]: r["ap"] for r in data["combatants"]} == {"Ann": None, "Cult": 3}


def test_coc_fight_show_names_dying_once() -> None:
    """CO-BASE-8: a dying foe read "瀕死/dying DYING (dies at end of round 4)". The badges are
    parted by " · ", as on the table's screen (fixcocv70: they now hold spaces of their own,
    "held by Thug 組み付かれ")."""
    fight = duel(Profile.P003, {"fist": 50}, {"fist": 50})
    patch(fight, "Cult", hp=0, dying_until=4,
          conditions=(Timed(Condition.UNCONSCIOUS, 1, 0), Timed(Condition.DYING, 1, 0)))
    cult = rows(coc_command._status(fight)[0])["Cult"]
    assert cult.rstrip().endswith("気絶/unconscious · 瀕死/dying (dies at end of round 4)"), cult
    assert "DYING" not in cult


def test_an_opposed_check_takes_a_monster_as_the_other_side(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-CHECK-5 names no limit to PCs and NPCs: `check opposed --vs orc` was refused
    ("no sheet 'orc'"). The orc's block gives its side (Body 6, Perception 6); a blank Body
    is Magic in its place (tests/app/test_genso_fight_new_force_apply_file_and_blank_body.py);
    a name that is neither says monsters are taken."""
    check = genso(capsys, "check", "opposed", "--sheet", "pc1", "--vs", "orc", "--ability",
                  "perception", "--seed", "1")
    assert main(["genso", "check", "opposed", "--sheet", "pc1", "--vs", "オーク", "--ability",
                 "perception", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert "オーク/Orc: 2D + 知覚力/Perception 6: (2D6+6)" in text
    assert json.dumps(check, ensure_ascii=False).count("オーク/Orc") >= 1
    assert main(["genso", "check", "opposed", "--sheet", "pc1", "--vs", "orx"]) == 2
    assert "or a monster (slime, " in capsys.readouterr().err


def test_genso_fight_show_says_stances_and_the_outcome_in_words(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-COMBAT-5/6, GM-COMBAT-1: `fight show` printed the file's keys (full_attack,
    full_dodge, over: party_won) where the table says 全力攻撃 …; a dodge said "Mio dodges
    with all it has" of a PC."""
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    genso(capsys, "fight", "attack", "pc1", "orc", "--full", "--seed", "1")
    assert main(["genso", "fight", "dodge", "pc2"]) == 0
    text = capsys.readouterr().out
    assert "駆け出し冒険者２ PC 2 dodges all out (全力回避): +6 to defence" in text
    assert "全力攻撃 full attack" in text and "全力回避 full dodge" in text
    assert "full_attack" not in text and "full_dodge" not in text and " it " not in text
    genso(capsys, "fight", "end")
    assert main(["genso", "fight", "show"]) == 0
    assert "round 1  over: 終了 the GM ended the fight" in capsys.readouterr().out


def test_coc_command_line_lines_carry_their_rule_ids(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CO-CORE-1: `coc fight act` printed the check and damage lines with no rule ID, where the
    table's Result panel shows them and genso's command line prefixes every line. Each line
    now follows its rule as the table gives it; one that names its own is left as it is."""
    examples = Path(__file__).resolve().parents[2] / "docs" / "examples"
    assert main(["coc", "fight", "new", "--investigators", str(examples / "ann.toml"),
                 str(examples / "bob.toml"), "--foes", str(examples / "cultist.toml"),
                 "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["coc", "fight", "act", "attack", "Ann", "Cultist", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # The rule column is one width (cli59 F11), that of the longest rule ID and two spaces.
    rule = 13
    assert lines[0].startswith("CO-CORE-1".ljust(rule) + "Ann ") and "(1D100<=50)" in lines[0]
    # This line names its own rule (impale, CO-BASE-2): not said twice.
    assert lines[1].startswith(" " * rule + "damage (1D10+1D10)")
    # The impale's rule is its damage roll's, not the HP it takes (coc63 N2).
    assert lines[2] == " " * rule + "Cultist takes 4: HP 8/12"
    assert main(["coc", "fight", "log"]) == 0
    assert "CO-CORE-1".ljust(rule) + "Ann " in capsys.readouterr().out


def test_fight_new_says_where_and_attack_help_says_what_a_combatant_is(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) == 0
    saved = user_dirs / "data" / "genso" / "fight.json"
    assert capsys.readouterr().out.rstrip().endswith(f"saved at {saved}")
    with pytest.raises(SystemExit):
        main(["genso", "fight", "attack", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    assert "actor a combatant: its name or its English as `fight show` lists it" in helped
    assert "monster's key (orc, orc1)" in helped


@pytest.mark.parametrize(("written", "said"), [
    ("katana", "names unknown item 'katana'; `companion genso list items` lists the keys"),
    ("swrd", "names unknown item 'swrd'; did you mean 'sword'? (`companion genso list items`"),
    ("剣", "names unknown item '剣'; write its key 'sword' (`companion genso list items`"),
])
def test_an_unknown_weapon_on_a_hand_written_sheet_says_what_to_write(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str], written: str,
    said: str
) -> None:
    """GM-EQUIP-1: a sheet's weapons = ["katana"] said only "names unknown item 'katana'",
    where `buy` suggests the nearest and names the list."""
    sheet = tmp_path / "aki.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(text.replace('weapons = ["club"', f'weapons = ["{written}"'),
                     encoding="utf-8")
    assert main(["genso", "sheet", str(sheet)]) == 2
    assert said in capsys.readouterr().err
