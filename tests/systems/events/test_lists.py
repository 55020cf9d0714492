"""System `events`: the player's own monster and item lists (EV-MON-1, EV-EXP-4 Defaults)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.commands.events import LISTS_NAME
from companion.app.paths import config_dir
from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.systems.events.lists import Species, UserLists, load_lists
from companion.systems.events.report import EventReport
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import Member

LISTS = UserLists(
    monsters=(Species("ゴブリン/Goblin", 1), Species("コボルド/Kobold", 1),
              Species("ジャイアントラット/Giant rat", 1), Species("オーガー/Ogre", 3)),
    items=("ヒーリングポーション/Healing potion", "保存食/Rations"),
)
EXAMPLE = Path("companion/systems/events/data/example_lists.toml")


def walk(table: str, dice: list[tuple[int, int]], **kw: Any) -> EventReport:
    source = ScriptedDice(dice)
    report = run_event(table, source, lists=LISTS, **kw)
    assert source.remaining == [], report.text
    return report


def test_ev_mon_1_the_species_is_picked_from_the_list_by_level() -> None:
    """EV-MON-1 Default: "the program offers a user-loaded monster list filtered by level":
    a 1Dn among the n monsters of the table's level; one alone needs no die."""
    report = walk("monster", [(6, 5), (6, 2), (3, 2)])  # DM Lv ± 0, 1D6 = 2 of level 1
    first, species = report.find("EV-MON-1")
    assert first.text.endswith("2 × level-1 monsters (DM Lv 1 (default) ± 0); "
                               "the species from your list")
    assert species.text == "種類/species (level 1) from your list: (1D3) ＞ 2 ＞ コボルド/Kobold"
    assert species.data == {"picked": "コボルド/Kobold"} and species.depth == 1
    (_, ogre) = walk("monster", [(6, 1)], dm_level=1).find("EV-MON-1")  # level 3, one
    assert ogre.text == "種類/species (level 3): オーガー/Ogre (the only one in your list)"
    (_, none) = walk("monster", [(6, 1)], dm_level=4).find("EV-MON-1")
    assert none.text == "Your list has no level-6 monster: the GM picks the species"
    plain = run_event("monster", ScriptedDice([(6, 1)]))
    assert plain.steps[-1].text.endswith("the GM picks the species")


def test_ev_exp_4_the_kind_of_item_is_picked_from_the_list() -> None:
    """EV-EXP-4 Default: "the program picks from a user-supplied list" the one kind of
    small recovery item, after the count: in sw mode after the appraisal, in generic mode
    once the GM's appraisal succeeded (found)."""
    aki = Member("Aki", thief=3, intelligence=1)
    report = walk("explore", [(6, 6), (6, 5), (6, 5), (6, 4), (2, 1)], mode="sw",
                  party=(aki,))
    texts = [s.text for s in report.find("EV-EXP-4")]
    assert texts[-2] == "報酬：小回復アイテム/small recovery items (1D6) ＞ 4 ＞ ×4 (one kind)"
    assert texts[-1] == ("種類/kind from your list: (1D2) ＞ 1 ＞ "
                         "ヒーリングポーション/Healing potion")
    generic = walk("explore", [(6, 3), (2, 2)], found=True)
    assert generic.find("EV-EXP-4")[-1].data == {"picked": "保存食/Rations"}


def test_ev_exp_4_generic_rolls_the_reward_only_on_a_success() -> None:
    """EV-EXP-4 in generic mode (the GM resolves the appraisals): seed 001 gives the items
    「探索に成功した場合」, the Default rolls the 1D6 count "on success". The table's walk
    stops at the appraisal, no die spent (29b73ab7 rolled the count with the 6, r76events
    NIT 3), its data saying a reward waits on a success; the walk found (``found``) rolls
    the count and the kind, not the table. Without a list, the GM names the kind."""
    generic = walk("explore", [(6, 6)])
    steps = generic.find("EV-EXP-4")
    assert len(steps) == 2 and generic.finished
    assert steps[1].text.endswith("on success 成功なら: roll one kind of small recovery "
                                  "item ×1D6 (found 見つけた)")
    assert steps[1].data == {"items_on_success": True}
    found = walk("explore", [(6, 3), (2, 2)], found=True)
    assert [s.rule for s in found.steps] == ["EV-EXP-4"] * 3  # no EV-EXP-1: no 6 rolled again
    steps = found.find("EV-EXP-4")
    assert "鑑定成功/an appraisal succeeded" in steps[0].text
    assert steps[1].text == "報酬：小回復アイテム/small recovery items (1D6) ＞ 3 ＞ ×3 (one kind)"
    assert steps[1].data == {"items": 3}
    assert steps[2].text.startswith("種類/kind from your list: (1D2) ＞ 2 ＞ ")
    bare = run_event("explore", ScriptedDice([(6, 5)]), found=True)
    assert bare.find("EV-EXP-4")[-1].text.endswith(
        "×5 (one kind; the list is missing in the source, the GM names it)")


@pytest.mark.parametrize(("table", "mode"), [("door", "generic"), ("explore", "sw")])
def test_a_reward_found_goes_with_the_explore_table_in_generic_mode(table: str,
                                                                     mode: str) -> None:
    """sw mode rolls the appraisals and their reward itself: found there would roll the
    reward twice; no other table has one."""
    with pytest.raises(DataError, match="a reward found goes with the explore table in "
                                        "generic mode"):
        run_event(table, ScriptedDice([]), found=True, mode=mode)


@pytest.mark.parametrize(("text", "wrong"), [
    ("[[monster]]\nname = 'Goblin'\n", "monster 1: needs 'level'"),
    ("[[monster]]\nname = 'Goblin'\nlevel = 0\n", "monster 1 (Goblin): level must be a whole "
                                                   "number of 1 or more, found 0"),
    ("[[item]]\nname = ''\n", 'item 1: name must be text, found ""'),
    ("[[item]]\nname = 'Potion'\ncount = 2\n", "item 1: unknown field 'count'"),
    ("[[monsters]]\nname = 'Goblin'\n", "unknown table 'monsters'"),
    ("", "needs [[monster]] tables (name, level) or [[item]] tables (name)"),
    ("monster = 3\n", "monster must be [[monster]] tables"),
])
def test_a_list_written_wrong_names_the_table_and_field(text: str, wrong: str) -> None:
    with pytest.raises(DataError, match=re.escape(wrong)):
        load_lists(text, "lists.toml")


def test_the_example_list_loads_and_the_command_reads_a_list_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lists = load_lists(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE))
    assert {m.level for m in lists.monsters} == {1, 2, 3} and len(lists.items) == 3
    assert main(["events", "monster", "--lists", str(EXAMPLE), "--level", "1", "--seed", "2",
                 "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert steps[-1]["data"]["picked"] in lists.of_level(steps[0]["data"]["level"])
    bad = tmp_path / "lists.toml"
    bad.write_text("[[monster]]\nname = 'Goblin'\nlevel = 'one'\n", encoding="utf-8")
    assert main(["events", "monster", "--lists", str(bad)]) != 0
    assert (f"{bad}: monster 1 (Goblin): level must be a whole number of 1 or more, "
            'found "one"') in capsys.readouterr().err


def test_the_lists_in_the_config_folder_serve_every_run_and_lists_wins(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A list given with --lists on every run was the only way: events_lists.toml in the
    config folder now serves each run (and the dice tray); --lists FILE still wins, and a
    broken one names its file."""
    saved = user_dirs / "config" / "events_lists.toml"
    saved.parent.mkdir(parents=True)
    saved.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    lists = load_lists(EXAMPLE.read_text(encoding="utf-8"))
    assert main(["events", "monster", "--level", "1", "--seed", "2", "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert steps[-1]["data"]["picked"] in lists.of_level(steps[0]["data"]["level"])
    items_only = user_dirs / "items.toml"
    items_only.write_text("[[item]]\nname = 'Rations'\n", encoding="utf-8")
    assert main(["events", "monster", "--level", "1", "--seed", "2", "--lists",
                 str(items_only)]) == 0
    assert "the GM picks the species" in capsys.readouterr().out
    saved.write_text("[[monster]]\nname = 'Goblin'\n", encoding="utf-8")
    assert main(["events", "monster"]) != 0
    assert f"{saved}: monster 1: needs 'level'" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "wrong"), [
    ("Evil\\u001b[2J\\u001b[31mRED", r"monster 1: name 'Evil\x1b[2J\x1b[31mRED' holds a "
                                     r"control character ('\x1b')"),
    ("Two\\nLines", r"monster 1: name 'Two\nLines' holds a control character ('\n')"),
    ("\\u200b", r"monster 1: name '\u200b' shows nothing"),
    ("\\u200b\\u3000\\u2060", r"monster 1: name '\u200b\u3000\u2060' shows nothing"),
])
def test_a_name_that_would_print_raw_or_blank_is_refused(name: str, wrong: str) -> None:
    """events72 DEFECT 1: a list's name is printed as it is (the terminal, the tray's
    screen): an ESC cleared the terminal, a line end broke the line, a zero-width space
    was picked as an invisible species. Refused as a party name is (refuse_control),
    naming the file, the list and the entry; an item's name alike."""
    with pytest.raises(DataError, match=re.escape(f"lists.toml: {wrong}")):
        load_lists(f'[[monster]]\nname = "{name}"\nlevel = 2\n', "lists.toml")
    item = wrong.replace("monster 1", "item 2")
    with pytest.raises(DataError, match=re.escape(f"lists.toml: {item}")):
        load_lists(f'[[item]]\nname = "Potion"\n[[item]]\nname = "{name}"\n', "lists.toml")


def test_a_name_with_a_control_character_stops_events_monster_unprinted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """events72 DEFECT 1 on the command line: `events monster --lists` printed the ESC."""
    odd = tmp_path / "odd.toml"
    odd.write_text('[[monster]]\nname = "Evil\\u001b[2J"\nlevel = 2\n', encoding="utf-8")
    assert main(["events", "monster", "--lists", str(odd), "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err
    assert f"{odd}: monster 1: name 'Evil\\x1b[2J' holds a control character" in err


def test_a_bad_list_file_blocks_only_the_tables_that_use_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    """events72 DEFECT 2: every `events` action read events_lists.toml, so one bad level
    stopped end-block, cure, rooms, party and the tables that never come to a list. These
    go on; the tables that can come to a list (door, chest, trap, monster, explore) say
    the file's error."""
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / LISTS_NAME).write_text("[[monster]]\nname='Goblin'\nlevel=0\n",
                                           encoding="utf-8")
    for argv in (["poison", "--seed", "4"], ["end-block"], ["poisoned"], ["rooms"],
                 ["cure", "--who", "victim"], ["recovery", "--seed", "1"], ["party"]):
        assert main(["events", *argv]) == 0, capsys.readouterr().err
    capsys.readouterr()
    for table in ("door", "chest", "trap", "monster", "explore"):
        assert main(["events", table, "--seed", "1"]) == 2
        assert "level must be a whole number of 1 or more, found 0" in capsys.readouterr().err


def test_a_level_or_the_items_past_a_die_s_sides_are_refused_at_load() -> None:
    """events72 NIT 8: a pick is one die of as many sides as names (1D20000 for 20,000
    level-2 monsters), and a die has at most 10,000: the walk stopped after the table's
    throw on a die the player never typed. Refused at load, naming the level, the items;
    10,000 of a level (another level beside) is still read."""
    monsters = "".join(f"[[monster]]\nname = 'M{i}'\nlevel = 2\n" for i in range(10_001))
    with pytest.raises(DataError, match=r"^lists\.toml: level 2 has 10,001 monsters; a "
                                        r"level may have up to 10,000"):
        load_lists(monsters, "lists.toml")
    items = "".join(f"[[item]]\nname = 'I{i}'\n" for i in range(10_001))
    with pytest.raises(DataError, match=r"^lists\.toml: 10,001 items; the list may have up "
                                        r"to 10,000"):
        load_lists(items, "lists.toml")
    full = "".join(f"[[monster]]\nname = 'M{i}'\nlevel = {1 + i // 10_000}\n"
                   for i in range(10_001))
    assert len(load_lists(full, "lists.toml").of_level(1)) == 10_000
