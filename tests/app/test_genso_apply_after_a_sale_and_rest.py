"""Review63f's findings on fix63g3, fixed: a sale shifting the pack or the mana stones made
a change the sheet does not hold look held, so apply recorded it as applied and the stone
used or the MP spent was lost (DEFECT 1); a lost record, then a rest, gave a change that
would take the sheet past what the fight left (RISK 2); the line of a sheet refused after
`--done` blamed the sheet (NIT 4); a record of only a digest named only HP and MP (NIT 6);
a change could take HP past its maximum (NIT 3)."""

from __future__ import annotations

import json
import os
import re
import socket
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_apply_helpers import orc_hit_applied
from tests.app.genso_json_helpers import genso
from tests.app.genso_ring_table_helpers import PC1, PC2, turn_of


def fight_file(user_dirs: Path) -> Path:
    return user_dirs / "data" / "genso" / "fight.json"


def lose_the_record(user_dirs: Path) -> None:
    """A cut after apply wrote the sheets, before the fight file kept its record."""
    data = json.loads(fight_file(user_dirs).read_text("utf-8"))
    del data["applied"]
    fight_file(user_dirs).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def edited(sheet: Path, key: str, value: str) -> None:
    text = sheet.read_text(encoding="utf-8")
    if re.search(rf"^{key} = ", text, flags=re.M):
        text = re.sub(rf"^{key} = .*$", f"{key} = {value}", text, flags=re.M)
    else:
        text += f"{key} = {value}\n"
    sheet.write_text(text, encoding="utf-8")


def stones_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str], used: bool = True
                 ) -> Path:
    """pc1 with an unused Healing Stone (治癒石), before a used one if ``used``
    (GM-ITEM-2)."""
    one = tmp_path / "one.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(one))
    edited(one, "equipment", '["travellers_clothes", "travellers_shoes", "backpack", "purse", '
           '"healing_stone"' + (', "used:healing_stone"]' if used else "]"))
    return one


def test_a_sale_shifting_the_pack_does_not_make_a_stone_used_look_held(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1 (GM-ITEM-2): the fight used the Healing Stone at place 4; the backpack sold
    after shifted the old used stone there, and apply took the use as held: "recorded as
    applied", exit 0, the sheet still with a stone unused, and `fight new` with no --force.
    Counted, the sheet has one used stone where the fight leaves two: refused and asked."""
    one = stones_sheet(tmp_path, capsys)
    genso(capsys, "fight", "new", "--party", str(one), "--monsters", "orc")
    turn_of(capsys, PC1)
    genso(capsys, "fight", "stone", PC1, "healing_stone", PC1, "--seed", "1")
    genso(capsys, "fight", "end")
    genso(capsys, "sell", str(one), "backpack", "--price", "1")
    sold = one.read_bytes()
    assert main(["genso", "fight", "apply", "--json"]) == 2
    said = capsys.readouterr()
    row = json.loads(said.out)["sheets"][0]
    assert row["result"] == "refused" and row["by_hand"] == {"used": ["healing_stone"]}
    assert "healing_stone 治癒石 used (in equipment healing_stone → used:healing_stone); " \
        "make those changes" in said.err
    assert one.read_bytes() == sold
    assert main(["genso", "fight", "new", "--party", str(one), "--monsters", "orc"]) == 2
    assert "never took the fight's changes" in capsys.readouterr().err


def test_a_sale_of_a_mana_stone_does_not_make_its_mp_spent_look_held(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1 (GM-ITEM-1): the fight emptied mana stone 1 of [4, 4, 0]; stone 0 sold
    after, the sheet's [4, 0] has a 0 at place 1, and apply took it as held. The sheet's
    stones no longer begin with the fight's: asked."""
    two = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(two))
    edited(two, "mana_stones", "[4, 4, 0]")
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    turn_of(capsys, PC2)
    genso(capsys, "fight", "cast", PC2, "healing", PC2, "--stone", "1", "--seed", "1")
    genso(capsys, "fight", "end")
    genso(capsys, "sell", str(two), "mana_stone:0")
    assert genso(capsys, "sheet", str(two))["sheet"]["mana_stones"] == [4, 0]
    assert main(["genso", "fight", "apply", "--json"]) == 2
    said = capsys.readouterr()
    row = json.loads(said.out)["sheets"][0]
    assert row["result"] == "refused"
    assert row["by_hand"]["mana_stones"] == [[4, 4, 0], [4, 0, 0]]
    assert "mana_stones 魔力石 1: 4 → 0 MP;" in said.err


def test_a_stone_used_is_held_though_a_sale_shifted_the_pack(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1 / RISK 2: the record lost after apply wrote the sheet, then the backpack
    sold: by place the use looked not held and was asked, which a player with another
    stone would make a second time. Counted, the sheet holds it: recorded as applied."""
    one = stones_sheet(tmp_path, capsys, used=False)
    genso(capsys, "fight", "new", "--party", str(one), "--monsters", "orc")
    turn_of(capsys, PC1)
    genso(capsys, "fight", "stone", PC1, "healing_stone", PC1, "--seed", "1")
    genso(capsys, "fight", "end")
    assert [r["result"] for r in genso(capsys, "fight", "apply")["sheets"]] == ["written"]
    lose_the_record(user_dirs)
    genso(capsys, "sell", str(one), "backpack", "--price", "1")
    sold = one.read_bytes()
    assert [r["result"] for r in genso(capsys, "fight", "apply")["sheets"]] == ["holds"]
    assert one.read_bytes() == sold


def test_a_lost_record_then_a_rest_asks_the_hp_set_not_changed_again(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RISK 2 (GM-COMBAT-8, GM-HEAL-1): the Orc's hit applied, the record lost, then a
    rest of two days: the sheet's HP is neither the fight's start nor its end, and "hp 10 → 5
    (-5)" from it takes off the hit a second time. The player is asked to set it."""
    two, full, hurt = orc_hit_applied(tmp_path, capsys)
    lose_the_record(user_dirs)
    genso(capsys, "rest", str(two), "2")  # 2 days alone heal 1 HP (GM-HEAL-1)
    rested = genso(capsys, "sheet", str(two))["sheet"]["hp"]
    assert hurt < rested < full
    assert main(["genso", "fight", "apply", "--json"]) == 2
    said = capsys.readouterr()
    assert (f"{PC2} PC: hp: the fight took it {full} → {hurt}, the sheet holds {rested} "
            "(changed since): set what it should be; make those changes") in said.err
    assert f"({hurt - full:+d})" not in said.err
    row = json.loads(said.out)["sheets"][0]
    assert row["result"] == "refused" and row["judge"] == {"hp": rested}


def test_the_line_of_a_sheet_refused_after_done_says_the_fight_changed(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 4 (GM-COMBAT-1: a spell may follow the end): `--done` recorded, then pc2 heals
    itself; the line said the sheet was "changed since its `--done`", though it was not
    touched: the fight changed."""
    two = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(two))
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    turn_of(capsys, "オーク")
    genso(capsys, "fight", "attack", "オーク", PC2, "--seed", "3")
    genso(capsys, "fight", "end")
    genso(capsys, "buy", str(two), "torch")
    genso(capsys, "fight", "apply", "--done", PC2)
    genso(capsys, "fight", "cast", PC2, "healing", PC2, "--seed", "1")
    assert main(["genso", "fight", "apply"]) == 2
    out = capsys.readouterr().out
    assert f"{two.resolve()} not written: the fight changed since its `--done`" in out
    assert "not written: changed since" not in out


def test_an_older_record_names_the_stones_the_fight_leaves_too(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 6 (GM-ITEM-1/2): an apply recorded by an older companion (only a digest); the
    line gave only HP and MP to check, though the fight also used a Healing Stone."""
    one = stones_sheet(tmp_path, capsys, used=False)
    genso(capsys, "fight", "new", "--party", str(one), "--monsters", "orc")
    turn_of(capsys, PC1)
    genso(capsys, "fight", "stone", PC1, "healing_stone", PC1, "--seed", "1")
    genso(capsys, "fight", "end")
    genso(capsys, "fight", "apply")
    data = json.loads(fight_file(user_dirs).read_text("utf-8"))
    data["applied"][PC1] = data["applied"][PC1].partition(" ")[0]  # a digest alone
    fight_file(user_dirs).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    genso(capsys, "buy", str(one), "torch")
    pc1 = next(c for c in genso(capsys, "fight", "show")["combatants"] if c["name"] == PC1)
    assert main(["genso", "fight", "apply"]) == 0
    assert (f"the fight now leaves HP {pc1['hp']} MP {pc1['mp']}, healing_stone 治癒石 used "
            "(`fight show`), to make by hand") in capsys.readouterr().out


def test_a_change_past_the_maximum_hp_says_the_maximum(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 3 (GM-CORE-3, GM-HEAL-1): the hit applied, two days' rest after, then the hit
    undone: "hp 5 → 10 (+5)" on a sheet at 6 took it to 11, past its maximum 10."""
    two, full, hurt = orc_hit_applied(tmp_path, capsys)
    genso(capsys, "rest", str(two), "2")
    assert hurt < genso(capsys, "sheet", str(two))["sheet"]["hp"] < full
    genso(capsys, "fight", "undo")
    genso(capsys, "fight", "undo")
    genso(capsys, "fight", "end")
    assert main(["genso", "fight", "apply"]) == 2
    assert (f"hp {hurt} → {full} ({full - hurt:+d}) (at most its maximum {full}); make "
            "those changes") in capsys.readouterr().err


def aki_hurt_in_a_fight(capsys: pytest.CaptureFixture[str], *where: str) -> int:
    """A saved Aki (HP 12/12) hurt by an orc in the fight going on (in the fight file
    ``where`` names, ``--file FILE``, else the default one): Aki's HP there."""
    assert main(["genso", "new", "Aki", "--body", "6", "--perception", "5", "--magic", "4",
                 "--skill", "magic", "--seed", "1"]) == 0
    assert main(["genso", "fight", "new", "--party", "Aki", "--monsters", "orc", *where]) == 0
    for seed in ("1", "2", "3"):
        main(["genso", "fight", "attack", "orc", "Aki", "--seed", seed, *where])
        main(["genso", "fight", "wait", "Aki", *where])
    capsys.readouterr()
    assert main(["genso", "fight", "show", "--json", *where]) == 0
    hp: int = json.loads(capsys.readouterr().out)["combatants"][0]["hp"]
    assert hp < 12
    return hp


def test_a_rest_of_a_character_hurt_in_a_fight_not_applied_is_refused(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """calendar73 RISK 4 (GM-HEAL-1): `genso rest Aki 3` on the sheet's HP 12/12 said "HP
    12 → 12" while the fight had Aki hurt, and `fight apply` then wrote the fight's HP over
    it, the three days lost without a word. Refused, nothing written, naming the fight and
    what to do; --force rests the sheet as it is; once applied, the rest goes on."""
    hp = aki_hurt_in_a_fight(capsys)
    sheet = user_dirs / "data" / "genso" / "characters" / "Aki.toml"
    before = sheet.read_text(encoding="utf-8")
    assert main(["genso", "rest", "Aki", "3"]) == 2
    err = capsys.readouterr().err
    # The rule first, its Japanese beside it (reviewg73 NIT 3).
    assert (f"GM-HEAL-1 休養/rest: Aki is in the fight at {fight_file(user_dirs)} (HP {hp}/12 "
            "MP 8/8 there, not yet applied): this rest would work on the sheet's HP 12/12 "
            "MP 8/8, and `fight apply` then write the fight's over it, or refuse; apply the "
            "fight first (`") in err
    assert "or give --force to rest the sheet as it is" in err
    assert sheet.read_text(encoding="utf-8") == before
    assert main(["genso", "fight", "end"]) == 0
    assert main(["genso", "fight", "apply"]) == 0
    capsys.readouterr()
    assert main(["genso", "rest", "Aki", "3"]) == 0
    assert f"HP {hp} → {hp + 1}" in capsys.readouterr().out


def test_a_fight_in_a_file_of_its_own_is_checked_when_named_with_fight(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """fixcarry75 item 5 (GM-HEAL-1): rest, buy, sell, gear and grow looked for the
    character in the default fight file only, so a rest healed the sheet while a fight
    played with `--file cave.json` held Aki hurt. `--fight cave.json` has that file looked
    at too: the rest is refused, naming the file and the commands for it (`--file`), a
    purchase noted; a file named that is not there is refused."""
    cave = tmp_path / "cave.json"
    hp = aki_hurt_in_a_fight(capsys, "--file", str(cave))
    sheet = user_dirs / "data" / "genso" / "characters" / "Aki.toml"
    before = sheet.read_text(encoding="utf-8")
    assert main(["genso", "rest", "Aki", "3", "--fight", str(cave)]) == 2
    err = capsys.readouterr().err
    assert (f"GM-HEAL-1 休養/rest: Aki is in the fight at {cave} (HP {hp}/12 MP 8/8 there, "
            "not yet applied)") in err
    assert f"genso fight end --file {cave}` if it goes on" in err
    assert f"genso fight apply --file {cave}`, which says" in err
    assert sheet.read_text(encoding="utf-8") == before
    assert main(["genso", "rest", "Aki", "3", "--fight", str(tmp_path / "none.json")]) == 2
    assert f"--fight {tmp_path / 'none.json'}: no fight file there" in capsys.readouterr().err
    assert main(["genso", "buy", "Aki", "torch", "--fight", str(cave)]) == 0
    assert (f"note: Aki is in the fight at {cave} (HP {hp}/12 MP 8/8 there, not yet applied): "
            f"the sheet changed, so `") in capsys.readouterr().err


def test_fight_naming_what_is_no_fight_is_refused_for_what_it_is(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewcarry75 RISK 1: `rest aki.toml --fight aki.toml` passed on `fight`'s advice
    (`fight new … --force --file aki.toml`), which would move the sheet itself aside as
    aki.toml.corrupt-…; it is said to be no saved genso fight, with no --force advice. NIT 1:
    a folder, a named pipe or /dev/null was "no fight file there", though something is."""
    sheet = tmp_path / "aki.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    before = sheet.read_bytes()
    assert main(["genso", "rest", str(sheet), "3", "--fight", str(sheet)]) == 2
    err = capsys.readouterr().err
    assert f"--fight {sheet}: not a saved genso fight (not JSON (" in err, err
    assert "--force" not in err and "corrupt" not in err and "cannot be played on" not in err
    assert "name the file a fight was played in (`fight … --file FILE`)" in err
    assert sheet.read_bytes() == before
    pipe, folder = tmp_path / "pipe.json", tmp_path / "dir.json"
    os.mkfifo(pipe)
    folder.mkdir()
    for there, kind in ((pipe, "a named pipe"), (folder, "a folder"),
                        (Path(os.devnull), "a device")):
        assert main(["genso", "rest", str(sheet), "3", "--fight", str(there)]) == 2
        assert f"--fight {there}: {kind}, not a fight file" in capsys.readouterr().err
    assert sheet.read_bytes() == before


def test_fight_naming_a_socket_a_link_loop_or_other_json_says_so_once(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewb75 NIT B5: a socket was "not a regular file, not a fight file", a link that
    leads round to itself "no fight file there", though something is there, and JSON that
    is no fight named its path twice ("--fight e.json: e.json: not a saved genso fight")."""
    monkeypatch.chdir(tmp_path)  # a socket's path is short (108 bytes at most)
    sheet = tmp_path / "aki.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    before = sheet.read_bytes()
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("s.sock")
        Path("twisty.json").symlink_to("twisty.json")
        Path("e.json").write_text('{"a": 1}', encoding="utf-8")
        for named, said in (("s.sock", "--fight s.sock: a socket, not a fight file"),
                            ("twisty.json", "--fight twisty.json: a symbolic link that "
                                            "loops, not a fight file"),
                            ("e.json", "--fight e.json: not a saved genso fight\n")):
            assert main(["genso", "rest", str(sheet), "3", "--fight", named]) == 2
            err = capsys.readouterr().err
            assert said in err and err.count(named) == 1, err
    assert sheet.read_bytes() == before


def test_a_rest_forced_and_a_purchase_go_on_with_a_note(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A purchase reads no HP: it goes on, and says that `fight apply` will not write over
    the changed sheet (it said so only at the apply). A rest with --force goes on too."""
    hp = aki_hurt_in_a_fight(capsys)
    assert main(["genso", "buy", "Aki", "torch"]) == 0
    assert (f"note: Aki is in the fight at {fight_file(user_dirs)} (HP {hp}/12 MP 8/8 there, "
            "not yet applied): the sheet changed, so `") in capsys.readouterr().err
    # A forced rest that leaves the sheet's text as it was (HP 12/12) changes nothing the
    # note could tell: it says none (reviewg73 NIT 1).
    sheet = user_dirs / "data" / "genso" / "characters" / "Aki.toml"
    before = sheet.read_text(encoding="utf-8")
    assert main(["genso", "rest", "Aki", "3", "--force"]) == 0
    said = capsys.readouterr()
    assert "HP 12 → 12" in said.out and "in the fight" not in said.err
    assert sheet.read_text(encoding="utf-8") == before
    assert main(["genso", "fight", "end"]) == 0
    assert main(["genso", "fight", "apply"]) != 0  # the purchase changed it: copied by hand
    assert "changed since the fight began" in capsys.readouterr().err


def test_a_forced_rest_that_leaves_the_sheet_as_it_was_says_nothing_and_apply_writes(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg73 NIT 1: `rest --force` on a sheet at HP 12/12 changed nothing, yet said "the
    sheet changed, so `fight apply` does not write over it", and apply then wrote it."""
    hp = aki_hurt_in_a_fight(capsys)
    assert main(["genso", "rest", "Aki", "3", "--force"]) == 0
    assert "in the fight" not in capsys.readouterr().err
    assert main(["genso", "fight", "end"]) == 0
    assert main(["genso", "fight", "apply"]) == 0
    assert f"Aki PC: HP {hp}" in capsys.readouterr().out


def test_a_forced_rest_that_heals_the_sheet_says_so_with_its_rule(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A forced rest that changes the sheet (HP 9 → 10) says the sheet changed, starting
    with its rule as the refusal does (reviewg73 NIT 3), and apply then refuses."""
    hp = aki_hurt_in_a_fight(capsys)
    # The sheet hurt other than the fight left it, so the fight still holds Aki.
    edited(user_dirs / "data" / "genso" / "characters" / "Aki.toml", "hp", str(hp - 2))
    assert main(["genso", "rest", "Aki", "3", "--force"]) == 0
    said = capsys.readouterr()
    assert f"HP {hp - 2} → {hp - 1}" in said.out
    assert (f"GM-HEAL-1 休養/rest: Aki is in the fight at {fight_file(user_dirs)} (HP {hp}/12 "
            "MP 8/8 there, not yet applied): the sheet changed, so `") in said.err
    assert "note: GM-HEAL-1" not in said.err
    assert main(["genso", "fight", "end"]) == 0
    assert main(["genso", "fight", "apply"]) != 0
    assert "changed since the fight began" in capsys.readouterr().err


def test_a_fight_that_left_the_character_as_the_sheet_is_says_nothing(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "new", "Aki", "--body", "6", "--perception", "5", "--magic", "4",
                 "--skill", "magic", "--seed", "1"]) == 0
    assert main(["genso", "fight", "new", "--party", "Aki", "--monsters", "orc"]) == 0
    capsys.readouterr()
    assert main(["genso", "rest", "Aki", "3"]) == 0
    assert "in the fight" not in capsys.readouterr().err
