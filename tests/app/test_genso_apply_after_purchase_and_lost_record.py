"""Review63e's findings on fix63g2, fixed: a sheet applied, then changed (a purchase, a rest),
then the fight changed again (a spell after the end, an undo): a second apply said "left as
it is" and the new results reached no sheet, and `fight new` replaced the fight with no
--force (DEFECT 1); a record lost after apply wrote the sheets asked for the fight's changes
a second time (RISK 2); `--done` said "nothing was recorded" when the record was made, but
not yet on the disk (NIT 4); the changes named the sheet's keys with no Japanese (NIT 6)."""

from __future__ import annotations

import errno
import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.modes.genso_fight_files import applied_head
from tests.app.genso_apply_helpers import orc_hit_applied
from tests.app.genso_json_helpers import genso
from tests.app.genso_ring_table_helpers import PC1, PC2, turn_of


def fight_file(user_dirs: Path) -> Path:
    return user_dirs / "data" / "genso" / "fight.json"


def hit_and_applied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, int]:
    """pc2 from a sheet file, hit by the Orc (GM-COMBAT-7), the fight ended and applied; a
    torch bought after (GM-EQUIP). The sheet's HP before the fight is returned."""
    two, full, _ = orc_hit_applied(tmp_path, capsys)
    genso(capsys, "buy", str(two), "torch")
    return two, full


def test_a_spell_after_the_end_on_a_sheet_applied_then_bought_for_is_not_lost(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1 (GM-COMBAT-1: spells may follow the end; GM-MAGIC-1): pc2 heals itself after
    the end, once its sheet took the fight's first results and a torch. Apply said "left as
    it is" (exit 0) and `fight new` replaced the fight: the heal and its MP were on no
    sheet. Now apply refuses, giving the changes since that apply, and `--done` records
    them made."""
    two, full = hit_and_applied(tmp_path, capsys)
    applied = genso(capsys, "sheet", str(two))["sheet"]
    genso(capsys, "fight", "cast", PC2, "healing", PC2, "--seed", "1")
    pc2 = next(c for c in genso(capsys, "fight", "show")["combatants"] if c["name"] == PC2)
    assert pc2["hp"] > applied["hp"] and pc2["mp"] < applied["mp"]
    bought = two.read_bytes()
    assert main(["genso", "fight", "apply", "--json"]) == 2
    said = capsys.readouterr()
    row = json.loads(said.out)["sheets"][0]
    assert row["result"] == "refused" and row["since"] == "apply"
    assert row["by_hand"] == {"hp": [applied["hp"], pc2["hp"]],
                              "mp": [applied["mp"], pc2["mp"]]}
    assert (f"{two.resolve()} was changed since this fight's apply wrote it (a rest, a "
            "purchase, a hand), and the fight changed after that apply (an undo, a spell or "
            "a stone after the end), so apply does not write over it: since that apply, the "
            f"fight changed on {PC2} PC: hp {applied['hp']} → {pc2['hp']} "
            f"({pc2['hp'] - applied['hp']:+d}), mp {applied['mp']} → {pc2['mp']} "
            f"({pc2['mp'] - applied['mp']:+d}); make those changes to the sheet as it is now, "
            f"then `companion genso fight apply --done {PC2}`") in said.err
    assert two.read_bytes() == bought
    # Not done with: `fight new` wants --force, and says why.
    new = ("genso", "fight", "new", "--party", str(two), "--monsters", "orc")
    assert main([*new]) == 2
    assert (f"{two.resolve()} never took the fight's changes on {PC2} PC made after its "
            "apply (an undo, a spell or a stone after the end)") in capsys.readouterr().err
    # Made by hand (as the player says) and recorded: then it is done, and stays done.
    assert [r["result"] for r in genso(capsys, "fight", "apply", "--done", PC2)["sheets"]] \
        == ["done"]
    assert [r["result"] for r in genso(capsys, "fight", "apply")["sheets"]] == ["done"]
    assert two.read_bytes() == bought
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    assert not list(fight_file(user_dirs).parent.glob("fight.json.replaced-*"))
    assert pc2["hp"] <= full


def test_an_undo_after_an_apply_and_a_purchase_is_refused_with_the_change_since(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1: the end and the Orc's hit undone after the apply and a purchase; apply
    said "left as it is" though the fight now leaves pc2 unhurt. The change since that
    apply is the HP back; a later `--done` on a fight changed again is refused the same."""
    two, full = hit_and_applied(tmp_path, capsys)
    hurt = genso(capsys, "sheet", str(two))["sheet"]["hp"]
    genso(capsys, "fight", "undo")
    genso(capsys, "fight", "undo")
    genso(capsys, "fight", "end")
    assert main(["genso", "fight", "apply"]) == 2
    assert (f"since that apply, the fight changed on {PC2} PC: hp {hurt} → {full} "
            f"({full - hurt:+d}); make those changes") in capsys.readouterr().err
    assert genso(capsys, "sheet", str(two))["sheet"]["hp"] == hurt


def test_an_apply_the_fight_did_not_change_after_is_still_kept(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1's other half: with nothing changed in the fight since the apply, a sheet
    changed since is left as it is (exit 0), and the record keeps what apply wrote."""
    two, _ = hit_and_applied(tmp_path, capsys)
    bought = two.read_bytes()
    assert [r["result"] for r in genso(capsys, "fight", "apply")["sheets"]] == ["kept"]
    assert two.read_bytes() == bought
    record = json.loads(fight_file(user_dirs).read_text("utf-8"))["applied"][PC2]
    assert json.loads(record.partition(" ")[2])["hp"] == \
        genso(capsys, "sheet", str(two))["sheet"]["hp"]


def test_an_apply_recorded_by_an_older_companion_is_kept_and_says_what_to_check(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1, a fight file whose record is only a digest (written before records kept the
    results): what that apply wrote is not known, so the sheet is left as it is, as then,
    and the line gives the HP and MP the fight leaves now, to check by hand."""
    _, full = hit_and_applied(tmp_path, capsys)
    data = json.loads(fight_file(user_dirs).read_text("utf-8"))
    data["applied"][PC2] = applied_head(data["applied"][PC2])
    fight_file(user_dirs).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    genso(capsys, "fight", "undo")
    genso(capsys, "fight", "undo")
    genso(capsys, "fight", "end")
    assert main(["genso", "fight", "apply"]) == 0
    assert ("left as it is; made by an older companion, this fight file does not keep what "
            "that apply wrote: if the fight was undone or played on after it, the fight now "
            f"leaves HP {full} MP ") in capsys.readouterr().out


def test_a_sheet_holding_the_fights_changes_after_a_lost_record_is_not_asked_them_again(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RISK 2: the apply's record lost after the sheet was written (a cut), then a torch
    bought: apply asked for "hp 10 → 5 (-5)" on a sheet holding 5 already, which done
    gives 0. Now a sheet holding every change is recorded as applied, with no error."""
    two, _ = hit_and_applied(tmp_path, capsys)
    data = json.loads(fight_file(user_dirs).read_text("utf-8"))
    del data["applied"]
    fight_file(user_dirs).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    bought = two.read_bytes()
    rows = genso(capsys, "fight", "apply")["sheets"]
    assert [r["result"] for r in rows] == ["holds"]
    assert two.read_bytes() == bought
    assert PC2 in json.loads(fight_file(user_dirs).read_text("utf-8"))["applied"]
    assert main(["genso", "fight", "apply"]) == 0
    assert "not written: this fight's apply wrote it before" in capsys.readouterr().out
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    assert not list(fight_file(user_dirs).parent.glob("fight.json.replaced-*"))


def test_a_change_the_sheet_holds_already_is_named_so_and_not_asked(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RISK 2: a lost record, then a night's sleep refilling the MP the fight spent: the HP
    the fight took is on the sheet already, the MP not; the refusal says the one is held."""
    two = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(two))
    start = genso(capsys, "sheet", str(two))["sheet"]
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    turn_of(capsys, PC2)
    genso(capsys, "fight", "cast", PC2, "healing", PC2, "--seed", "1")
    turn_of(capsys, "オーク")
    genso(capsys, "fight", "attack", "オーク", PC2, "--seed", "3")
    genso(capsys, "fight", "end")
    genso(capsys, "fight", "apply")
    after = genso(capsys, "sheet", str(two))["sheet"]
    assert after["hp"] < start["hp"] and after["mp"] < start["mp"]
    data = json.loads(fight_file(user_dirs).read_text("utf-8"))
    del data["applied"]
    fight_file(user_dirs).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    genso(capsys, "rest", str(two), "--sleep")
    slept = genso(capsys, "sheet", str(two))["sheet"]
    assert slept["mp"] == start["mp"] and slept["hp"] == after["hp"]
    assert main(["genso", "fight", "apply", "--json"]) == 2
    said = capsys.readouterr()
    assert (f"the fight changed on {PC2} PC: hp {start['hp']} → {after['hp']} "
            f"({after['hp'] - start['hp']:+d}) (the sheet holds {after['hp']} already), "
            f"mp {start['mp']} → {after['mp']} ({after['mp'] - start['mp']:+d}); make those "
            "changes to the sheet as it is now, but for what it holds already, then") \
        in said.err
    row = json.loads(said.out)["sheets"][0]
    assert row["by_hand"] == {"mp": [start["mp"], after["mp"]]}
    assert row["held"] == {"hp": [start["hp"], after["hp"]]}


def test_done_whose_record_is_not_yet_on_the_disk_says_it_was_recorded(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """NIT 4: the folder's fsync failing after the rename, `--done` said "nothing was
    recorded: give it again", though the fight file held the record."""
    hit_and_applied(tmp_path, capsys)
    genso(capsys, "fight", "undo")
    genso(capsys, "fight", "undo")
    genso(capsys, "fight", "end")

    def failing(folder: Path) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr("companion.files.fsync_dir", failing)
    assert main(["genso", "fight", "apply", "--done", PC2]) == 0
    said = capsys.readouterr()
    assert "nothing was recorded" not in said.err
    assert "the record is made, but perhaps not on the disk yet (Input/output error)" \
        in said.err
    record = json.loads(fight_file(user_dirs).read_text("utf-8"))["applied"][PC2]
    assert applied_head(record) == "by hand"


def test_the_changes_name_the_sheets_keys_with_their_japanese_terms(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 6 (GM-ITEM-1/2/3): "healing_stone used", "storage_mp 5 → 1", "mana stone 0"
    named no Japanese term; now 治癒石, 蓄積の指輪 and 魔力石 stand beside the keys."""
    one = sheet_with_gold(tmp_path / "one.toml", "pc1", capsys)
    genso(capsys, "buy", str(one), "healing_stone")
    genso(capsys, "fight", "new", "--party", str(one), "--monsters", "orc")
    turn_of(capsys, PC1)
    genso(capsys, "fight", "stone", PC1, "healing_stone", PC1, "--seed", "1")
    genso(capsys, "fight", "end")
    genso(capsys, "buy", str(one), "torch")
    assert main(["genso", "fight", "apply"]) == 2
    assert ("healing_stone 治癒石 used (in equipment healing_stone → used:healing_stone)"
            in capsys.readouterr().err)


def sheet_with_gold(path: Path, preset: str, capsys: pytest.CaptureFixture[str]) -> Path:
    """The ``preset`` PC's sheet saved at ``path`` with 99 gold to buy with (GM-EQUIP)."""
    genso(capsys, "sheet", preset, "--save-as", str(path))
    text = re.sub(r"^money = .*$", "money = {gold = 99}", path.read_text(encoding="utf-8"),
                  flags=re.M)
    path.write_text(text, encoding="utf-8")
    return path


def storage_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """pc2 wearing a Ring of Storage holding 5 MP, with a mana stone (GM-ITEM-1/3)."""
    two = sheet_with_gold(tmp_path / "two.toml", "pc2", capsys)
    genso(capsys, "buy", str(two), "mana_stone")
    genso(capsys, "buy", str(two), "ring_storage")
    genso(capsys, "gear", str(two), "ring_storage")  # put on, it takes 5 MP (GM-ITEM-3)
    return two


def test_a_ring_of_storage_and_a_mana_stone_are_named_in_japanese(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 6 (GM-ITEM-1, GM-ITEM-3): the ring's MP and a mana stone's, spent in the fight
    on a sheet refused, are named with 蓄積の指輪 and 魔力石."""
    two = storage_sheet(tmp_path, capsys)
    sheet: dict[str, Any] = genso(capsys, "sheet", str(two))["sheet"]
    assert sheet["storage_mp"] == 5
    stone = sheet["mana_stones"][0]
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    turn_of(capsys, PC2)
    genso(capsys, "fight", "cast", PC2, "healing", PC2, "--ring", "--seed", "1")
    turn_of(capsys, PC2)
    genso(capsys, "fight", "cast", PC2, "healing", PC2, "--stone", "0", "--seed", "1")
    genso(capsys, "fight", "end")
    genso(capsys, "buy", str(two), "torch")
    assert main(["genso", "fight", "apply"]) == 2
    err = capsys.readouterr().err
    assert f"mana_stones 魔力石 0: {stone} → 0 MP" in err
    assert "storage_mp 蓄積の指輪 5 → 1 (-4)" in err
