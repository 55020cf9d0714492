"""genso67's findings, fixed: a Ring of Storage taken off lost its MP without a word, and a
worn ring could not be moved to the other hand ("carries no magic ring", RISK 1); a sunset
with nobody to rise was an empty step and said nothing of a Death Curse due (NIT 2);
GM-COMBAT-4's rolls showed no terms (NIT 3); a Ghost's drain read "HP −0, MP −4" (NIT 4);
the sheet's rings were a Python list of keys (NIT 5); `fight new` told to rest a dead PC
(NIT 6); a sheet or genso.toml with a UTF-8 byte-order mark was "not TOML" (NIT 7)."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import replace
from importlib.resources import files
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.dice import ScriptedDice
from companion.systems import defaults
from companion.systems.genso.character.core import Hand
from companion.systems.genso.character.gear import put_on_ring, take_off_ring
from companion.systems.genso.combat import (
    Attack,
    Dodge,
    EndFight,
    Entrant,
    Fight,
    Side,
    Sunset,
    Wait,
    entrants_for,
)
from companion.systems.genso.rules import DATA_FILES, load_rules
from companion.systems.genso.sheet import load_sheet, preset
from tests.app.genso_cli_out_helpers import unwrapped
from tests.app.genso_json_helpers import genso

RULES = load_rules()
PC1, PC2, KNIGHT = "駆け出し冒険者１", "駆け出し冒険者２", "騎士（男性）"
STORAGE = "蓄積の指輪/Ring of Storage"


def ringed(tmp_path: Path, capsys: pytest.CaptureFixture[str], *rings: str) -> Path:
    """pc1 (MP 8) saved with ``rings`` in its pack."""
    sheet = tmp_path / "rs.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    text = sheet.read_text(encoding="utf-8")
    packed = ", ".join(f'"{r}"' for r in rings)
    sheet.write_text(text.replace('"purse"]', f'"purse", {packed}]'), encoding="utf-8")
    return sheet


#: calendar75 NIT 5: a Ring of Storage put on that leaves pc1 below 1 MP says so.
LEFT_AT_0 = (f"GM-COMBAT-8 {PC1} is left at ＭＰ/MP 0: 行動不能 incapacitated until a night's "
             "sleep fills MP (GM-HEAL-2)")


def test_a_ring_of_storage_that_takes_the_last_mp_says_the_wearer_is_incapacitated(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """calendar75 NIT 5: pc1 at MP 3 puts on a Ring of Storage, which absorbs all 3: the
    line said only "absorbed 3 MP (ＭＰ/MP 3 → 0)"; now a line of its own says pc1 is left
    incapacitated (GM-COMBAT-8), as the sheet's condition shows. At MP 8 (5 absorbed, 3
    left) no such line."""
    sheet = ringed(tmp_path, capsys, "ring_storage")
    kept = sheet.read_text(encoding="utf-8")
    high = genso(capsys, "gear", str(sheet), "ring_storage")
    assert "GM-COMBAT-8" not in high["said"] and high["sheet"]["mp"] == 3
    sheet.write_text(re.sub(r"(?m)^mp = \d+", "mp = 3", kept), encoding="utf-8")
    low = genso(capsys, "gear", str(sheet), "ring_storage")
    assert low["said"].split("\n") == [
        f"GM-ITEM-3 put on {STORAGE} (左手/left hand); put on, it absorbed 3 MP (ＭＰ/MP 3 → 0)",
        LEFT_AT_0]
    assert low["sheet"]["mp"] == 0


def on_sheet(sheet: Path) -> dict[str, object]:
    return tomllib.loads(sheet.read_text(encoding="utf-8"))


# --- RISK 1 -------------------------------------------------------------------------------


def test_taking_off_a_ring_of_storage_names_the_mp_it_loses(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-ITEM-3: put on, the ring took 5 of pc1's 8 MP; taken off, those 5 are lost (the
    reading "GM-ITEM-3 (storage)"), and the message says so: it said only "took off"."""
    sheet = ringed(tmp_path, capsys, "ring_storage")
    put = genso(capsys, "gear", str(sheet), "ring_storage")
    assert put["said"] == (f"GM-ITEM-3 put on {STORAGE} (左手/left hand); put on, it absorbed "
                           "5 MP (ＭＰ/MP 8 → 3)")
    off = genso(capsys, "gear", str(sheet), "ring_storage", "--off")
    assert off["said"].startswith(f"took off {STORAGE} (左手/left hand): its 5 stored MP are "
                                  "lost (GM-ITEM-3 reading: a Ring of Storage keeps no MP off "
                                  "the hand")
    assert off["sheet"]["mp"] == 3 and off["sheet"].get("storage_mp", 0) == 0


def test_of_two_rings_of_storage_the_one_taken_off_names_what_the_other_cannot_hold(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One on each hand took 5 then 3 (8 stored); the one taken off leaves the other its 5
    and loses 3; the last one off loses its 5; a ring that held none says nothing lost."""
    sheet = ringed(tmp_path, capsys, "ring_storage", "ring_storage")
    genso(capsys, "gear", str(sheet), "ring_storage")
    both = genso(capsys, "gear", str(sheet), "ring_storage", "--hand", "right")
    assert both["derived"]["storage_mp"] == {"mp": 8, "holds": 10}
    first = genso(capsys, "gear", str(sheet), "ring_storage", "--off", "--hand", "left")
    assert "its 3 stored MP are lost" in first["said"]
    assert first["derived"]["storage_mp"] == {"mp": 5, "holds": 5}
    assert "its 5 stored MP are lost" in genso(capsys, "gear", str(sheet), "ring_storage",
                                               "--off")["said"]
    genso(capsys, "gear", str(sheet), "ring_storage")  # MP 0: absorbs nothing
    assert genso(capsys, "gear", str(sheet), "ring_storage", "--off")["said"].endswith(
        "it held no MP, so nothing is lost")


def test_a_worn_ring_moves_to_the_other_hand_and_says_what_the_move_costs(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`gear … --hand right` of a ring worn on the left and none in the pack was refused
    with "carries no magic ring": the seed forbids no move, a take-off and a put-on, so the
    ring moves, its stored MP lost and 5 more absorbed (here the 3 left) as said."""
    sheet = ringed(tmp_path, capsys, "ring_storage", "ring_striking")
    genso(capsys, "gear", str(sheet), "ring_storage")
    moved = genso(capsys, "gear", str(sheet), "ring_storage", "--hand", "right")
    assert moved["said"] == (
        f"GM-ITEM-3 moved {STORAGE} from the 左手/left hand to the 右手/right hand, taken off "
        "and put on again: its 5 stored MP are lost (GM-ITEM-3 reading: a Ring of Storage "
        "keeps no MP off the hand, and absorbs up to 5 MP again when put on); put on, it "
        "absorbed 3 MP (ＭＰ/MP 3 → 0)\n" + LEFT_AT_0)
    assert on_sheet(sheet)["rings"] == {"left": [], "right": ["ring_storage"]}
    assert moved["sheet"]["mp"] == 0 and moved["derived"]["storage_mp"]["mp"] == 3
    genso(capsys, "gear", str(sheet), "ring_striking", "--hand", "right")
    striking = genso(capsys, "gear", str(sheet), "ring_striking", "--hand", "left")
    assert striking["said"] == ("GM-ITEM-3 moved 打撃の指輪/Ring of Striking from the 右手/right "
                                "hand to the 左手/left hand, taken off and put on again")
    assert on_sheet(sheet)["rings"] == {"left": ["ring_striking"], "right": ["ring_storage"]}


def test_a_ring_worn_on_the_hand_named_is_refused_as_worn_there(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The refusal of a ring worn on the hand named said "carries no magic ring"."""
    sheet = ringed(tmp_path, capsys, "ring_storage")
    genso(capsys, "gear", str(sheet), "ring_storage")
    before = sheet.read_bytes()
    assert main(["genso", "gear", str(sheet), "ring_storage", "--hand", "left"]) == 2
    err = capsys.readouterr().err
    assert (f"{PC1} wears {STORAGE} on the 左手/left hand already, and carries none in the "
            "pack to put on") in err
    assert "carries no magic ring" not in err and sheet.read_bytes() == before
    assert main(["genso", "gear", str(sheet), "ring_protection"]) == 2
    assert f"{PC1} carries no magic ring 防護の指輪/Ring of Protection" in capsys.readouterr().err


def test_the_move_in_the_system_is_a_take_off_and_a_put_on() -> None:
    """gear.put_on_ring of a ring worn on the other hand equals take_off_ring then
    put_on_ring (GM-ITEM-3 reading), for the rules' callers as for the command."""
    c = replace(preset(RULES, "pc1"), equipment=("ring_storage",))
    worn = put_on_ring(RULES, c, "ring_storage", Hand.LEFT)
    assert (worn.mp, worn.storage_mp) == (3, 5)
    moved = put_on_ring(RULES, worn, "ring_storage", Hand.RIGHT)
    by_hand = put_on_ring(RULES, take_off_ring(RULES, worn, "ring_storage", Hand.LEFT),
                          "ring_storage", Hand.RIGHT)
    assert moved == by_hand
    assert (moved.rings_left, moved.rings_right, moved.mp, moved.storage_mp) == \
        ((), ("ring_storage",), 0, 3)


def test_the_reading_that_a_ring_taken_off_keeps_no_mp_is_listed(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The seed is silent on a ring taken off: the companion's choice is listed by
    `genso defaults` with the other fixed readings (readings.toml)."""
    assert main(["genso", "defaults"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.startswith("GM-ITEM-3 (storage)"))
    assert "taken off, it keeps none" in line and "a take-off and a put-on" in line


# --- NIT 2 --------------------------------------------------------------------------------


def two_pcs_and_an_orc() -> Fight:
    return Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")],
                                     [("orc", 1)]))


def test_a_sunset_with_nobody_to_rise_says_so() -> None:
    """GM-MON-5: the sunset gave no line at all (a blank report, a blank `fight log` line);
    an entry of engine revision 6 still replays with none, as it was played."""
    fight = two_pcs_and_an_orc()
    entry = fight.push(Sunset(), ScriptedDice([]))
    assert [(line.rule, line.text) for line in entry.lines] == [
        ("GM-MON-5", "sunset 日没: nobody killed by a Wight or Wraith rises")]
    old = fight.push(Sunset(), ScriptedDice([]), engine=6)
    assert old.lines == ()
    again = Fight.from_json(RULES, json.loads(json.dumps(fight.to_json())))
    assert [e.lines for e in again.journal] == [e.lines for e in fight.journal]


def test_fight_sunset_names_a_death_curse_due_at_it(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-MAGIC-13: a curse whose target dies at today's sunset is named by `fight sunset`
    (the calendar told it only at `calendar pass`); none due, none named."""
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    genso(capsys, "calendar", "curse", "Mio", "Ben")
    quiet = genso(capsys, "fight", "sunset")
    assert quiet["death_curses_due"] == []
    genso(capsys, "calendar", "pass", "366")  # day 367: Ben dies at sunset today
    assert main(["genso", "fight", "sunset"]) == 0
    said = unwrapped(capsys.readouterr().out)
    assert "GM-MON-5     sunset 日没: nobody killed by a Wight or Wraith rises" in said
    assert ("GM-MAGIC-13  呪殺呪/Death Curse: Ben dies at this sunset, day 367, of Mio's curse "
            "(cast on day 1), unless Mio lifts it first") in said
    assert "genso calendar pass 1` records it" in said
    due = genso(capsys, "fight", "sunset")["death_curses_due"]
    assert [(c["target"], c["dies_on"]) for c in due] == [("Ben", 367)]


# --- NIT 3 and 4 --------------------------------------------------------------------------


def pc_against_the_knight() -> Fight:
    return Fight(RULES, [Entrant.of_character(preset(RULES, "pc1")),
                         Entrant.of_character(preset(RULES, "knight_m"), Side.ENEMY)])


def test_gm_combat_4_rolls_show_their_terms() -> None:
    """PG 4-2/4-3 「攻撃側の体力＋２Ｄ＋各種修正＞防御側の体力＋２Ｄ＋各種修正」: pc1 (Body 6,
    Combat 1) against the knight (Body 6, Combat 5) showed only (2D6+7) and (2D6+11)."""
    fight = pc_against_the_knight()
    entry = fight.push(Attack(PC1, KNIGHT), ScriptedDice([(6, 1), (6, 1), (6, 1), (6, 3)]))
    assert [(line.rule, line.text) for line in entry.lines] == [
        ("GM-COMBAT-4", f"{PC1} attacks: 体力/Body 6 + 戦闘/Combat 1: (2D6+7) ＞ 2[1,1]+7=9"),
        ("GM-COMBAT-4", f"{KNIGHT} defends: 体力/Body 6 + 戦闘/Combat 5: (2D6+11) ＞ "
                        "4[1,3]+11=15 ＞ 防御成功/defended")]


def test_gm_combat_4_shows_a_full_attack_and_a_full_dodge() -> None:
    """The full attack's +4 (GM-COMBAT-5) and the full dodge's +6 (GM-COMBAT-6) were folded
    into the sums unsaid; an entry of revision 6 keeps its old lines."""
    fight = pc_against_the_knight()
    fight.push(Wait(PC1), ScriptedDice([]))
    fight.push(Dodge(KNIGHT), ScriptedDice([]))
    entry = fight.push(Attack(PC1, KNIGHT, full=True),
                       ScriptedDice([(6, 6), (6, 6), (6, 1), (6, 1), (6, 3)]), engine=7)
    assert entry.lines[0].text.startswith(
        f"{PC1} attacks: 体力/Body 6 + 戦闘/Combat 1 + 全力攻撃/full attack 4: (2D6+11) ＞ ")
    assert entry.lines[1].text.startswith(
        f"{KNIGHT} defends: 体力/Body 6 + 戦闘/Combat 5 + 全力回避/full dodge 6: (2D6+17) ＞ ")
    old = pc_against_the_knight()
    played = old.push(Attack(PC1, KNIGHT), ScriptedDice([(6, 1), (6, 1), (6, 1), (6, 3)]),
                      engine=6)
    assert [line.text for line in played.lines[:2]] == [
        f"{PC1} attacks: (2D6+7) ＞ 2[1,1]+7=9",
        f"{KNIGHT} defends: (2D6+11) ＞ 4[1,3]+11=15 ＞ 防御成功/defended"]


def test_the_literal_4_2_lines_show_their_terms_too() -> None:
    """GM-COMBAT-3 ``literal_4_2``: an orc's attack on pc1 by both rolls shares the lines."""
    rules = RULES.with_overrides({"GM-COMBAT-3": {"literal_4_2": True}}, "test")
    fight = Fight(rules, entrants_for(rules, [preset(rules, "pc1")], [("orc", 1)]))
    fight.push(Wait(PC1), ScriptedDice([]))
    entry = fight.push(Attack("オーク", PC1), ScriptedDice([(6, 1), (6, 1), (6, 6), (6, 6)]))
    assert entry.lines[0].text.startswith("オーク attacks: 体力/Body 6 + 戦闘/Combat 0: (2D6+6)")
    assert entry.lines[1].text.startswith(f"{PC1} defends: 体力/Body 6 + 戦闘/Combat 1: (2D6+7)")


def test_a_ghosts_drain_names_only_the_mp_it_drains() -> None:
    """ゴースト 「ＭＰ吸収（４）防御点無効」: the line read "HP −0, MP −4"."""
    fight = Fight(RULES, entrants_for(RULES, [preset(RULES, "pc1"), preset(RULES, "pc2")],
                                      [("ghost", 1)]))
    fight.push(Wait(PC1), ScriptedDice([]))
    fight.push(Wait(PC2), ScriptedDice([]))
    entry = fight.push(Attack("ゴースト", PC1), ScriptedDice([(6, 1), (6, 1)]))
    drain = next(line.text for line in entry.lines if line.rule == "GM-MON-4")
    assert drain == "ＭＰ吸収/MP drain: MP −4 (防御点無効/ignores protection)"
    assert fight.state.get(PC1).mp == 4


# --- NIT 5 --------------------------------------------------------------------------------


def test_the_sheet_names_rings_by_hand_and_item_and_stones_by_mp(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ring line was `指輪/rings left [] right ['ring_striking', 'ring_protection']`, the
    stones `魔力石/mana stones MP [4, 1]`."""
    sheet = tmp_path / "rk.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    with sheet.open("a", encoding="utf-8") as out:
        out.write('rings = {left = [], right = ["ring_striking", "ring_protection"]}\n'
                  "mana_stones = [4, 1]\n")
    assert main(["genso", "sheet", str(sheet)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert ("指輪/rings 左手/left: -  右手/right: 打撃の指輪/Ring of Striking, 防護の指輪/Ring "
            "of Protection  (none work: GM-ITEM-3)") in lines
    assert "魔力石/mana stones: 4 MP, 1 MP" in lines


# --- NIT 6 --------------------------------------------------------------------------------


def test_fight_new_tells_to_leave_the_dead_out_and_to_heal_the_fallen(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-COMBAT-8: a DEAD PC was told to `genso rest`, which refuses the dead; the
    incapacitated are still told to heal first."""
    dead, down = tmp_path / "x.toml", tmp_path / "y.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(dead))
    genso(capsys, "sheet", "pc2", "--save-as", str(down))
    for sheet, hp in ((dead, -7), (down, -2)):
        text = sheet.read_text(encoding="utf-8")
        sheet.write_text(re.sub(r"^hp = .*$", f"hp = {hp}", text, flags=re.M), encoding="utf-8")
    assert main(["genso", "fight", "new", "--party", str(dead), "--monsters", "orc"]) == 2
    err = capsys.readouterr().err
    assert (f"leave {PC1} out: no rest, sleep or spell of the seed brings the dead (死亡) "
            "back") in err
    assert "heal" not in err and "nothing was written" in err
    assert main(["genso", "rest", str(dead)]) == 2  # as the message says
    assert "rest does not bring the dead back" in capsys.readouterr().err
    assert main(["genso", "fight", "new", "--party", str(dead), str(down),
                 "--monsters", "orc"]) == 2
    err = capsys.readouterr().err
    assert f"heal {PC2} first (`" in err and f"leave {PC1} out" in err


# --- NIT 7 --------------------------------------------------------------------------------


def test_a_sheet_with_a_byte_order_mark_is_read(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sheet saved by an older Windows Notepad (UTF-8 with BOM) was "not TOML (Invalid
    statement (at line 1, column 1))"; it reads, and a change writes it back."""
    plain = tmp_path / "aki.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(plain))
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    assert genso(capsys, "sheet", str(bom))["sheet"] == genso(capsys, "sheet", str(plain))["sheet"]
    genso(capsys, "fight", "new", "--party", str(bom), "--monsters", "orc")
    assert genso(capsys, "rest", str(bom), "--sleep")["sheet"]["name"] == PC1
    assert load_sheet(RULES, "\ufeff" + plain.read_text(encoding="utf-8")).name == PC1


def test_a_genso_toml_with_a_byte_order_mark_is_read(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A `genso.toml` with a BOM made every genso command fail "not TOML"."""
    (user_dirs / "config").mkdir(exist_ok=True)
    (user_dirs / "config" / "genso.toml").write_bytes(
        b'\xef\xbb\xbf[defaults."GM-CHECK-1"]\nmanual_modifier = true\n')
    assert main(["genso", "defaults"]) == 0
    assert any(line.startswith("GM-CHECK-1") and "manual_modifier" in line
               and "true  (set by you)" in line for line in capsys.readouterr().out.splitlines())


def test_the_rules_loader_reads_a_data_file_with_a_byte_order_mark(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The genso rules loader drops a BOM too (a data file edited in Notepad): the file's
    bytes, read as the app reads a player's file (companion.errors.utf8_text, reviewj68)."""
    packaged = files("companion.systems.genso").joinpath("data")
    (tmp_path / "data").mkdir()
    for name in DATA_FILES:
        bom = b"\xef\xbb\xbf" if name == "items.toml" else b""
        (tmp_path / "data" / name).write_bytes(bom + packaged.joinpath(name).read_bytes())
    monkeypatch.setattr(defaults, "files", lambda package: tmp_path)
    assert load_rules().items == RULES.items


def test_sunset_after_the_end_is_a_line_too() -> None:
    """The fight-over menu's Sunset (GM-MON-5, hours after the end) says what it did."""
    fight = two_pcs_and_an_orc()
    fight.push(EndFight(), ScriptedDice([]))
    entry = fight.push(Sunset(), ScriptedDice([]))
    assert entry.text == "GM-MON-5     sunset 日没: nobody killed by a Wight or Wraith rises"
