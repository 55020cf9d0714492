"""Review63c's findings on fix63g, fixed: a second `fight apply` wrote the fight's results
again over a sheet a night's sleep brought back to its text at the start (DEFECT 1); its
refusal of a changed sheet gave values that undid a purchase, not the fight's changes (RISK 3);
and after the hand edit it asked for, nothing said it was made, so apply and `fight new`
refused the sheet for ever (RISK 4); a table save of before the ring's payment question
stopped right after a ring-wearer's cast was set aside as corrupt (RISK 2); and `gear` of a
second club named another weapon as the one held before (NIT 5)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.modes.genso import read_fight_file
from companion.app.session.host import replay
from companion.systems.genso.combat import Cast, Wait
from companion.systems.genso.rules import load_rules
from tests.app.genso_json_helpers import genso
from tests.app.genso_ring_table_helpers import PC1, PC2, ringed_table, turn_of
from tests.app.genso_table_resume_helpers import DATA, resumed
from tests.app.table import choices

RULES = load_rules()


def test_a_second_apply_leaves_a_sheet_slept_back_to_its_start(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1 (GM-MAGIC-1, GM-HEAL-2): pc2 spends 4 MP on Healing, the fight is applied
    (MP 8), then pc2 sleeps (MP full): its sheet is byte for byte as the fight began, and
    the next apply took it for one never applied and wrote MP 8 over the night's sleep."""
    two = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(two))
    start = two.read_bytes()
    full = genso(capsys, "sheet", str(two))["sheet"]["mp"]
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    turn_of(capsys, PC2)
    genso(capsys, "fight", "cast", PC2, "healing", PC2, "--seed", "1")
    genso(capsys, "fight", "end")
    assert [r["result"] for r in genso(capsys, "fight", "apply")["sheets"]] == ["written"]
    spent = genso(capsys, "sheet", str(two))["sheet"]["mp"]
    assert spent < full
    genso(capsys, "rest", str(two), "--sleep")
    assert two.read_bytes() == start  # the case: the sheet is as the fight began
    again = genso(capsys, "fight", "apply")["sheets"]
    assert [r["result"] for r in again] == ["kept"]
    assert two.read_bytes() == start
    assert genso(capsys, "sheet", str(two))["sheet"]["mp"] == full
    assert main(["genso", "fight", "apply"]) == 0
    said = capsys.readouterr().out
    assert f"{two.resolve()} not written: this fight's apply wrote it before, and it was " \
        "changed since (a rest, a purchase, a hand): left as it is" in said
    # Done with: `fight new` writes over it with no --force and keeps no copy.
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    folder = user_dirs / "data" / "genso"
    assert not list(folder.glob("fight.json.replaced-*"))
    assert "applied" not in json.loads((folder / "fight.json").read_text(encoding="utf-8"))


def stone_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """pc2 saved as a sheet file with gold to spend, holding a mana stone bought
    (GM-ITEM-1)."""
    two = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(two))
    two.write_text(re.sub(r"^money = .*$", "money = {gold = 9}",
                          two.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    genso(capsys, "buy", str(two), "mana_stone")
    return two


def hurt_caster(two: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """A fight in which pc2 (from ``two``) casts Healing from its mana stone, then the Orc
    hits it, and the GM ends it; pc2 as `fight show` gives it at the end."""
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    turn_of(capsys, PC2)
    genso(capsys, "fight", "cast", PC2, "healing", PC2, "--stone", "0", "--seed", "1")
    turn_of(capsys, "オーク")
    genso(capsys, "fight", "attack", "オーク", PC2, "--seed", "2")
    genso(capsys, "fight", "end")
    shown: dict[str, Any] = genso(capsys, "fight", "show")["combatants"]
    return next(c for c in shown if c["name"] == PC2)


def test_the_refusal_gives_the_fights_changes_not_values_that_undo_a_purchase(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RISK 3 (GM-ITEM-1, GM-COMBAT-7): a second mana stone bought after the fight began;
    the refusal said to write "mana_stones = [0]" and the HP the fight left, which deleted
    the stone bought (and would drop a rest's healing). Now it gives each change, before →
    after, and the JSON `by_hand` the same."""
    two = stone_sheet(tmp_path, capsys)
    sheet = genso(capsys, "sheet", str(two))["sheet"]
    hp, stone = sheet["hp"], sheet["mana_stones"][0]
    pc2 = hurt_caster(two, capsys)
    assert pc2["hp"] < hp and pc2["mp"] == sheet["mp"]  # the stone paid (4 MP), the Orc hit
    genso(capsys, "buy", str(two), "mana_stone")
    assert main(["genso", "fight", "apply", "--json"]) == 2
    said = capsys.readouterr()
    assert (f"the fight changed on {PC2} PC: hp {hp} → {pc2['hp']} ({pc2['hp'] - hp:+d}), "
            f"mana_stones 魔力石 0: {stone} → 0 MP; make those changes to the sheet as it is now"
            ) in said.err
    assert "mana_stones = [0]" not in said.err
    row = json.loads(said.out)["sheets"][0]
    assert row["result"] == "refused"
    assert row["by_hand"] == {"hp": [hp, pc2["hp"]], "mana_stones": [[stone], [0]]}


def test_a_changed_sheet_the_fight_changed_nothing_on_is_not_refused(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RISK 3: a PC who only waited, a torch bought after the fight began: apply refused the
    sheet, saying to write its unchanged HP and MP by hand, and `fight new` wanted --force.
    The fight changed nothing on it, so there is nothing to write, and nothing is refused."""
    two = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(two))
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    turn_of(capsys, PC2)
    genso(capsys, "fight", "wait", PC2)
    genso(capsys, "fight", "end")
    genso(capsys, "buy", str(two), "torch")
    bought = two.read_bytes()
    assert [r["result"] for r in genso(capsys, "fight", "apply")["sheets"]] == ["untouched"]
    assert main(["genso", "fight", "apply"]) == 0
    assert (f"{two.resolve()} not written: changed since the fight began, and the fight "
            "changed nothing on it") in capsys.readouterr().out
    assert two.read_bytes() == bought
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    assert not list((user_dirs / "data" / "genso").glob("fight.json.replaced-*"))


def test_done_records_the_changes_made_by_hand_and_apply_and_new_stop_refusing(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RISK 4 (GM-COMBAT-1): the refusal asked for a hand edit, then refused the sheet the
    same after it, and `fight new` wanted --force, naming only HP and MP (not the stone).
    Both now give the same changes and `fight apply --done NAME`, which records the edit."""
    two = stone_sheet(tmp_path, capsys)
    stone = genso(capsys, "sheet", str(two))["sheet"]["mana_stones"][0]
    pc2 = hurt_caster(two, capsys)
    genso(capsys, "buy", str(two), "mana_stone")
    assert main(["genso", "fight", "apply"]) == 2
    refusal = capsys.readouterr().err
    changes = refusal.split(f"the fight changed on {PC2} PC: ")[1].split("; make those")[0]
    assert f"mana_stones 魔力石 0: {stone} → 0 MP" in changes
    done = f"then `companion genso fight apply --done {PC2}`"
    assert done in refusal
    new = ("fight", "new", "--party", str(two), "--monsters", "orc")
    assert main(["genso", *new]) == 2
    kept = capsys.readouterr().err
    assert f"{two.resolve()} never took the fight's changes on {PC2} PC: it was changed " \
        f"since the fight began, so `fight apply` refuses it: {changes}; make those " \
        f"changes to the sheet as it is now, {done}" in kept
    # The player makes them by hand: the stone spent, the HP lost.
    text = two.read_text(encoding="utf-8")
    text = re.sub(r"^mana_stones = .*$", f"mana_stones = [0, {stone}]", text, flags=re.M)
    text = re.sub(r"^hp = .*$", f"hp = {pc2['hp']}", text, flags=re.M)
    two.write_text(text, encoding="utf-8")
    rows = genso(capsys, "fight", "apply", "--done", PC2)["sheets"]
    assert [r["result"] for r in rows] == ["done"]
    assert two.read_text(encoding="utf-8") == text
    assert main(["genso", "fight", "apply"]) == 0
    assert f"{two.resolve()} not written: the fight's changes were made in it by hand " \
        "(recorded by `fight apply --done`)" in capsys.readouterr().out
    genso(capsys, *new)
    assert not list((user_dirs / "data" / "genso").glob("fight.json.replaced-*"))
    assert two.read_text(encoding="utf-8") == text


def test_done_for_a_sheet_apply_writes_itself_is_refused_and_writes_nothing(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RISK 4: --done is for a sheet apply refuses; on one it would write, it is refused
    before anything is written or recorded."""
    two = stone_sheet(tmp_path, capsys)
    hurt_caster(two, capsys)
    before = two.read_bytes()
    assert main(["genso", "fight", "apply", "--done", PC2]) == 2
    assert (f"--done {PC2}: {PC2} PC was not changed since the fight began, so apply writes "
            "the fight's results into it itself: leave out --done; nothing was written"
            ) in capsys.readouterr().err
    assert two.read_bytes() == before
    fight = json.loads((user_dirs / "data" / "genso" / "fight.json").read_text("utf-8"))
    assert "applied" not in fight
    assert [r["result"] for r in genso(capsys, "fight", "apply")["sheets"]] == ["written"]


def test_a_table_saved_right_after_a_ring_wearers_cast_before_the_question_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RISK 2 (GM-ITEM-3, GM-MAGIC-1): a table save of the companion before the ring's
    payment question (2767ad4d^), pc2 wearing a Ring of Storage holding 5: pc1 waits, pc2
    casts Healing on pc1 (own MP, no dice, no question then), the power goes at the Orc's
    menu. Resumed, the question its inputs never answered was asked after the target, the
    cast not made, and the save was set aside as corrupt ("expected 2 events, replaying its
    inputs gave 1"). It replays as cast on own MP, and plays on."""
    fight, state = tmp_path / "fight.json", tmp_path / "table.json"
    shutil.copyfile(DATA / "table_ring_before_pay_fight.json", fight)
    saved = json.loads((DATA / "table_ring_before_pay.json").read_text(encoding="utf-8"))
    assert saved["inputs"][-1] == f"t:{PC1}" and saved["events"] == 2
    saved["fight_path"] = str(fight.resolve())
    state.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
    told: list[str] = []
    mode = resumed(fight, state, ["wait"], told)
    assert not [t for t in told if "does not replay" in t], told
    assert not list(tmp_path.glob("table.json.corrupt-*"))
    cast, wait = (e.action for e in mode.fight.journal[-2:])
    assert cast == Cast(PC2, "healing", (PC1,))
    assert wait == Wait("オーク")
    caster = mode.fight.state.get(PC2)
    assert (caster.storage_mp, caster.mp) == (5, 8 - RULES.spell("healing").mp)
    assert read_fight_file(RULES, fight).journal[-1].action == wait  # the file played on


def test_a_save_stopped_at_the_rings_question_still_waits_for_its_answer() -> None:
    """RISK 2: a save of today's table stopped at the payment question (its events count
    no cast) replays to that question, not past it."""
    mode = ringed_table(mp=8)
    replay(mode, ["wait", "cast", "s:healing", f"t:{PC1}"], 1)
    assert choices(mode) == ["pay:mp", "pay:ring", "back"]
    assert mode.progress() == 1


def test_gearing_a_second_club_names_the_club_held_before_by_its_number(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 5 (GM-EQUIP-1): a second club readied is weapon 0 and the club held before is
    weapon 1, but `gear` said "`--weapon knife` strikes with 小刀/Knife" as the other, and
    `--weapon club` would pick the new club: the one held before is `--weapon 1`."""
    sheet = tmp_path / "c.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(sheet))
    genso(capsys, "buy", str(sheet), "club")
    assert main(["genso", "gear", str(sheet), "club"]) == 0
    said = capsys.readouterr().out
    assert ("equipped 棍棒/Club: weapon 0, the one `fight attack` strikes with; `--weapon 1` "
            "strikes with the 棍棒/Club held before") in said
    assert genso(capsys, "sheet", str(sheet))["sheet"]["weapons"][:3] == ["club", "club", "knife"]
