"""What `buy`, `sell`, `gear`, `rest` and `fight apply` leave of a player's sheet file
(reviewg74): a field a command empties or zeroes stays on its line with its comment, set in
place (`mana_stones = []`), or untouched while the file still reads the same (`combat = 0`, an
empty `[rings]`), where it was deleted and came back at the end (DEFECT 1); dotted keys
(`money.gold = 3  # …`) are changed in place, not made an inline table at the end (RISK 2);
CRLF line ends and a byte-order mark stay (NIT 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.genso_json_helpers import genso
from tests.app.genso_preset_helpers import refused
from tests.app.genso_ring_table_helpers import PC2, turn_of

AKI = Path(__file__).resolve().parents[2] / "docs" / "examples" / "aki.toml"

ZEROS = """# zeros sheet
name = "Zed"
kind = "pc"
body = 6
perception = 5
magic = 4
hp = 8
combat = 0   # not trained yet, grow later
search = 0
spells = []  # none learnt yet
weapons = []  # bare hands for now
age = 0      # unknown age

[rings]
left = []   # saving for a ring
right = []

[money]
gold = 3
"""

DOTTED = """# dotted keys
name = "Dot"
kind = "pc"
body = 6
perception = 5
magic = 4
hp = 8
money.gold = 3  # dotted gold
money.large_silver = 1
rings.left = ["ring_storage"] # dotted ring
"""


def aki_copy(tmp_path: Path) -> tuple[Path, str]:
    sheet = tmp_path / "aki.toml"
    text = AKI.read_text(encoding="utf-8")
    sheet.write_text(text, encoding="utf-8")
    return sheet, text


def test_a_stone_sold_and_a_weapon_taken_off_keep_the_example_sheets_lines(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1 on docs/examples/aki.toml: selling its mana stone and taking off its staff
    set `mana_stones` and `weapons` to `[]` on their own lines, comments kept (they were
    deleted); the staff put back returns the file to what it was, byte for byte (it came back
    as a bare line after `money`)."""
    sheet, text = aki_copy(tmp_path)
    genso(capsys, "sell", str(sheet), "mana_stone:0")
    sold = sheet.read_text(encoding="utf-8")
    assert sold == text.replace("mana_stones = [4]     #", "mana_stones = []     #").replace(
        "large_silver = 10", "large_silver = 11")
    sheet.write_text(text, encoding="utf-8")
    genso(capsys, "gear", str(sheet), "staff", "--off")
    off = sheet.read_text(encoding="utf-8").splitlines()
    assert off[text.splitlines().index(next(line for line in text.splitlines()
                                                 if line.startswith("weapons =")))] == \
        "weapons = []   # item keys (`companion genso list items`); the first is weapon 0"
    assert len(off) == len(text.splitlines())
    genso(capsys, "gear", str(sheet), "staff")
    assert sheet.read_text(encoding="utf-8") == text


def test_a_rest_keeps_zero_and_empty_fields_the_player_wrote(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DEFECT 1 on a hand-made sheet: a rest changes the HP line only; `combat = 0`,
    `search = 0`, `spells = []`, `weapons = []` and an empty `[rings]` read as the character
    does, so they stay, comments and all (a plain rest deleted them)."""
    sheet = tmp_path / "zed.toml"
    sheet.write_text(ZEROS, encoding="utf-8")
    assert genso(capsys, "rest", str(sheet), "2")["sheet"]["hp"] == 9
    assert sheet.read_text(encoding="utf-8") == ZEROS.replace("hp = 8", "hp = 9")


def test_dotted_keys_are_changed_in_place(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RISK 2: two dotted keys of one table (`money.gold`, `money.large_silver`) stay dotted
    lines, a changed one keeping its comment, and no `silver = 0` is added; they were made
    `money = {gold = 3, large_silver = 1, silver = 0}` at the end."""
    sheet = tmp_path / "dot.toml"
    sheet.write_text(DOTTED, encoding="utf-8")
    genso(capsys, "rest", str(sheet), "2")
    assert sheet.read_text(encoding="utf-8") == DOTTED.replace("hp = 8", "hp = 9")
    genso(capsys, "buy", str(sheet), "knife")
    bought = sheet.read_text(encoding="utf-8")
    assert bought.startswith(DOTTED.replace("hp = 8", "hp = 9").replace(
        "money.gold = 3  # dotted gold", "money.gold = 1  # dotted gold"))
    assert genso(capsys, "sheet", str(sheet))["sheet"]["money"] == \
        {"gold": 1, "large_silver": 1, "silver": 0}


def test_crlf_line_ends_and_a_byte_order_mark_stay(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 3: a sheet saved with CRLF and a BOM (Windows Notepad) keeps both through a rest and
    a fight apply: only the HP line changes (every line came out LF, the BOM gone)."""
    sheet = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(sheet))
    lf = sheet.read_text(encoding="utf-8")
    windows = b"\xef\xbb\xbf" + lf.replace("\n", "\r\n").encode("utf-8")
    sheet.write_bytes(windows)
    genso(capsys, "rest", str(sheet), "1")  # at full HP: nothing to heal, the file as it was
    assert sheet.read_bytes() == windows
    genso(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    turn_of(capsys, "オーク")
    genso(capsys, "fight", "attack", "オーク", PC2, "--seed", "3")
    genso(capsys, "fight", "end")
    assert [r["result"] for r in genso(capsys, "fight", "apply")["sheets"]] == ["written"]
    after = sheet.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf")
    assert after.count(b"\n") == after.count(b"\r\n") == windows.count(b"\r\n")
    changed = [(a, b) for a, b in zip(windows.split(b"\r\n"), after.split(b"\r\n"), strict=True)
               if a != b]
    assert [a.split(b" ")[0] for a, _ in changed] == [b"hp"]
    rest = main(["genso", "rest", str(sheet), "1", "--json"])
    capsys.readouterr()
    assert rest == 0
    assert sheet.read_bytes().startswith(b"\xef\xbb\xbf") and b"\n" not in \
        sheet.read_bytes().replace(b"\r\n", b"")


MULTI_LINE = """# multi-line arrays
name = "Mia"
kind = "pc"
body = 6
perception = 5
magic = 5
weapons = [
  "club",      # grandpa's
  "staff",     # walking stick
]
equipment = [
  "backpack",  # blue
  "purse",     # leather
]
mana_stones = [
  4,           # the big one
  2,           # the small one
]
money.gold = 30   # savings
"""


def test_a_multi_line_list_keeps_its_items_comments_through_buy_sell_and_gear_off(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """reviewz74 RISK 1: a list written one item a line with a comment on each stays so when
    `buy` adds an item, `sell` takes a stone or `gear --off` a weapon: the one item is added or
    taken out and the others keep their lines (each list was written over as one line,
    `equipment = ["backpack", "purse", "dagger"]`, every comment gone)."""
    sheet = tmp_path / "mia.toml"
    sheet.write_text(MULTI_LINE, encoding="utf-8")
    genso(capsys, "buy", str(sheet), "dagger")
    genso(capsys, "sell", str(sheet), "mana_stone:1")
    genso(capsys, "gear", str(sheet), "staff", "--off")
    text = sheet.read_text(encoding="utf-8")
    assert 'weapons = [\n  "club",      # grandpa\'s\n]\n' in text
    # The staff's comment comes with it into the pack (fixcarry75b's left-open weapon).
    assert ('equipment = [\n  "backpack",  # blue\n  "purse",     # leather\n  "dagger",\n'
            '  "staff",  # walking stick\n]\n') in text
    assert "mana_stones = [\n  4,           # the big one\n]\n" in text
    read = genso(capsys, "sheet", str(sheet))["sheet"]
    assert (read["weapons"], read["equipment"], read["mana_stones"]) == \
        (["club"], ["backpack", "purse", "dagger", "staff"], [4])


def test_armour_swapped_and_one_of_two_equal_stones_sold_leave_no_comment_on_the_wrong_item(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """finalb74 DEFECT 2: `gear` chain armour carried for the leather worn put the leather one
    in the chain's place with its note, `"leather_armor",   # dwarf-made, from the quest`;
    the note goes with the chain armour now. RISK 1: `sell mana_stone:0` of two 4 MP stones
    sells the first, the tower's, and the one left keeps "# bought in town" (the file kept
    the tower's note on the stone left)."""
    sheet = tmp_path / "mia.toml"
    sheet.write_text('name = "Mia"\nkind = "pc"\nbody = 6\nperception = 5\nmagic = 5\n'
                     'armor = "leather_armor"  # worn\n'
                     'equipment = [\n  "backpack",      # blue\n'
                     '  "chain_armor",   # dwarf-made, from the quest\n]\n'
                     "mana_stones = [\n  4,  # from the tower\n  4,  # bought in town\n]\n"
                     "money.gold = 30\n", encoding="utf-8")
    genso(capsys, "gear", str(sheet), "chain_armor")
    genso(capsys, "sell", str(sheet), "mana_stone:0")
    text = sheet.read_text(encoding="utf-8")
    # Worn, the chain armour's note is kept aside in the pack for `gear --off`, never on the
    # leather armour; the leather's own, on its `armor` line, goes with it (r76genso RISK 2).
    assert ('armor = "chain_armor"\nequipment = [\n  "backpack",      # blue\n'
            '  # "chain_armor" worn 装備中, its comment kept here for `gear --off`:  # dwarf-made, '
            'from the quest\n  "leather_armor",  # worn\n]\n') in text
    assert "tower" not in text
    assert "mana_stones = [\n  4,  # bought in town\n]\n" in text
    read = genso(capsys, "sheet", str(sheet))["sheet"]
    assert (read["armor"], read["equipment"], read["mana_stones"]) == \
        ("chain_armor", ["backpack", "leather_armor"], [4])


def test_the_second_of_two_equal_stones_sold_takes_its_own_line_and_comment(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """fixcarry75 item 1: `sell mana_stone:1` of two 4 MP stones sells the second, the one
    bought in town, and the one left keeps "# from the tower". The sheet writer cannot tell
    equal stones apart, and took the first's line and comment out (the file then said the
    stone left was the town's); `sell` now names the copy it took."""
    sheet = tmp_path / "mia.toml"
    sheet.write_text('name = "Mia"\nkind = "pc"\nbody = 6\nperception = 5\nmagic = 5\n'
                     "mana_stones = [\n  4,  # from the tower\n  4,  # bought in town\n"
                     "  2,  # the small one\n]\n"
                     "money.gold = 30\n", encoding="utf-8")
    genso(capsys, "sell", str(sheet), "mana_stone:1")
    text = sheet.read_text(encoding="utf-8")
    assert "mana_stones = [\n  4,  # from the tower\n  2,  # the small one\n]\n" in text
    assert "town" not in text
    assert genso(capsys, "sheet", str(sheet))["sheet"]["mana_stones"] == [4, 2]


RINGLESS = """# my mage
name = "Rin"
kind = "pc"
body = 6
perception = 5
magic = 6   # gifted
mp = 12
equipment = ["ring_storage"]
money.gold = 3
"""


def test_a_ring_taken_off_takes_the_lines_its_putting_on_added(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """fixcarry75 item 4 (GM-ITEM-3): `gear ring_storage` added `storage_mp = 5` and
    `rings = {left = ["ring_storage"], right = []}`; `--off` left `storage_mp = 0` and
    `rings = {left = [], right = []}` behind. They go now, and the sheet is as it was but
    for the MP the ring absorbed. A line the player wrote with a comment is emptied in place
    as ever, its comment kept."""
    sheet = tmp_path / "rin.toml"
    sheet.write_text(RINGLESS, encoding="utf-8")
    genso(capsys, "gear", str(sheet), "ring_storage")
    text = sheet.read_text(encoding="utf-8")
    assert "storage_mp = 5\n" in text and 'rings = {left = ["ring_storage"]' in text
    genso(capsys, "gear", str(sheet), "ring_storage", "--off")
    assert sheet.read_text(encoding="utf-8") == RINGLESS.replace("mp = 12", "mp = 7")
    sheet.write_text(RINGLESS.replace('equipment = ["ring_storage"]\n', "")
                     + "storage_mp = 3  # charged at the temple\n"
                     + '[rings]\nleft = ["ring_storage"]  # my mother\'s\n', encoding="utf-8")
    genso(capsys, "gear", str(sheet), "ring_storage", "--off")
    text = sheet.read_text(encoding="utf-8")
    assert "storage_mp = 0  # charged at the temple\n" in text
    assert "[rings]\nleft = []  # my mother's\n" in text


def test_a_ring_but_storage_taken_off_keeps_the_players_storage_mp_line(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """reviewcarry75 NIT 4 (GM-ITEM-3): taking off any ring deleted an uncommented
    `storage_mp = 0` the player wrote, as if a Ring of Storage had added it; only that ring
    takes it. The `rings` line still goes with the last ring, whichever it is."""
    sheet = tmp_path / "rin.toml"
    written = RINGLESS.replace('equipment = ["ring_storage"]', 'equipment = ["ring_protection"]')
    sheet.write_text(written + "storage_mp = 0\n", encoding="utf-8")
    genso(capsys, "gear", str(sheet), "ring_protection")
    text = sheet.read_text(encoding="utf-8")
    assert 'rings = {left = ["ring_protection"]' in text and "storage_mp = 0\n" in text
    genso(capsys, "gear", str(sheet), "ring_protection", "--off")
    assert sheet.read_text(encoding="utf-8") == written + "storage_mp = 0\n"


COMMENTED_RING = """# my mage
name = "Rin"
kind = "pc"
body = 6
perception = 5
magic = 6   # gifted
mp = 12
equipment = [
  "travellers_clothes",  # old
  "ring_storage",  # from grandma
  "backpack",
]
money.gold = 3
"""


@pytest.mark.parametrize("crlf", [False, True])
def test_a_rings_comment_in_equipment_is_kept_while_worn_and_comes_back_with_it(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str], crlf: bool
) -> None:
    """reviewcarry75 RISK 2 (GM-ITEM-3): `"ring_storage",  # from grandma` in `equipment`
    lost its comment when the ring was put on (`rings` is an inline table, with no room for
    it) and came back bare at `--off`. The comment stays in `equipment` on a line of its
    own while the ring is worn, and the ring taken off takes it again."""
    sheet = tmp_path / "rin.toml"
    written = COMMENTED_RING.replace("\n", "\r\n") if crlf else COMMENTED_RING
    sheet.write_bytes(written.encode("utf-8"))
    genso(capsys, "gear", str(sheet), "ring_storage")
    text = sheet.read_bytes().decode("utf-8").replace("\r\n", "\n")
    assert ('  "travellers_clothes",  # old\n  # "ring_storage" worn 装備中 on the 左手/left '
            'hand, its comment kept here for `gear --off`:  # from grandma\n  "backpack",\n]'
            ) in text
    assert genso(capsys, "sheet", str(sheet))["sheet"]["equipment"][-2:] == [
        "travellers_clothes", "backpack"]
    genso(capsys, "gear", str(sheet), "ring_storage", "--off")
    text = sheet.read_bytes().decode("utf-8")
    assert ("\r\n" in text) == crlf
    assert text.replace("\r\n", "\n") == COMMENTED_RING.replace("mp = 12", "mp = 7").replace(
        '  "ring_storage",  # from grandma\n  "backpack",\n',
        '  "backpack",\n  "ring_storage",  # from grandma\n')


ASIDE = ('# "ring_storage" worn 装備中 on the 左手/left hand, its comment kept here for '
         '`gear --off`:  # grandma')


@pytest.mark.parametrize(("equipment", "worn", "off"), [
    # reviewb75 RISK B1: a value before the ring on its line took the kept line as its
    # own comment, which then said the ring was worn for good and never came back.
    ('equipment = [\n  "travellers_clothes", "ring_storage",  # grandma\n  "backpack",\n]\n',
     f'equipment = [\n  "travellers_clothes",\n  {ASIDE}\n  "backpack",\n]\n',
     'equipment = [\n  "travellers_clothes",\n  "backpack",\n'
     '  "ring_storage",  # grandma\n]\n'),
    # A list opened on its key's line, the ring sharing that line.
    ('equipment = ["travellers_clothes", "ring_storage",  # grandma\n  "backpack"]\n',
     f'equipment = ["travellers_clothes",\n  {ASIDE}\n  "backpack"]\n',
     'equipment = ["travellers_clothes",\n  "backpack",\n  "ring_storage",  # grandma\n]\n'),
    # reviewb75 NIT B2: a comment-only line heading the next items stays below the ring's.
    ('equipment = [\n  "ring_storage",  # grandma\n  # --- bought in town ---\n'
     '  "backpack",\n]\n',
     f'equipment = [\n  {ASIDE}\n  # --- bought in town ---\n  "backpack",\n]\n',
     'equipment = [\n  # --- bought in town ---\n  "backpack",\n'
     '  "ring_storage",  # grandma\n]\n'),
    ('equipment = ["travellers_clothes", "ring_storage",  # grandma\n'
     '  # --- bought in town ---\n  "backpack"]\n',
     f'equipment = ["travellers_clothes",\n  {ASIDE}\n  # --- bought in town ---\n'
     '  "backpack"]\n',
     'equipment = ["travellers_clothes",\n  # --- bought in town ---\n  "backpack",\n'
     '  "ring_storage",  # grandma\n]\n'),
    # Back after two values on one line, the ring's comment is not put on theirs.
    ('equipment = [\n  "ring_storage",  # grandma\n  "backpack", "dagger",\n]\n',
     f'equipment = [\n  {ASIDE}\n  "backpack", "dagger",\n]\n',
     'equipment = [\n  "backpack", "dagger",\n  "ring_storage",  # grandma\n]\n'),
], ids=["second-on-its-line", "on-the-keys-line", "heading-below", "keys-line-and-heading",
        "back-after-a-shared-line"])
def test_a_rings_comment_kept_aside_has_a_line_of_its_own_after_the_value_before_it(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str], equipment: str,
    worn: str, off: str,
) -> None:
    """GM-ITEM-3: the kept line goes right after the value before the ring, on a line of
    its own, and comes back with the ring at `--off`, whatever shares the ring's line."""
    sheet = tmp_path / "rin.toml"
    written = RINGLESS.replace('equipment = ["ring_storage"]\n', equipment)
    sheet.write_text(written, encoding="utf-8")
    genso(capsys, "gear", str(sheet), "ring_storage")
    assert worn in sheet.read_text(encoding="utf-8")
    genso(capsys, "gear", str(sheet), "ring_storage", "--off")
    assert sheet.read_text(encoding="utf-8") == written.replace("mp = 12", "mp = 7").replace(
        equipment, off)


GEARED = """# my fighter
name = "Aki"
kind = "pc"
body = 4
perception = 5
magic = 6
weapons = ["club"]   # the first is weapon 0
armor = "leather_armor"
equipment = [
  "travellers_clothes",  # old
  "staff",  # from grandpa
  "chain_armor",  # dwarf-made
  "backpack",
]
money.gold = 2
"""


def test_a_weapons_and_armours_comment_in_the_pack_stays_while_readied_and_comes_back(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-EQUIP-1/2 (fixcarry75b's left open): `"staff",  # from grandpa` in `equipment` lost
    its comment at `gear staff` (`weapons = ["staff"]` is one line) and came back bare at
    `--off`; chain armour's too. Each comment is kept in `equipment` on a line of its own
    while readied or worn, and the item taken off takes it again."""
    sheet = tmp_path / "aki.toml"
    sheet.write_text(GEARED, encoding="utf-8")
    genso(capsys, "gear", str(sheet), "staff")
    genso(capsys, "gear", str(sheet), "chain_armor")
    text = sheet.read_text(encoding="utf-8")
    assert ('equipment = [\n  "travellers_clothes",  # old\n'
            '  # "chain_armor" worn 装備中, its comment kept here for `gear --off`:  # dwarf-made\n'
            '  # "staff" readied 装備中, its comment kept here for `gear --off`:  # from grandpa\n'
            '  "backpack",\n  "leather_armor",\n]\n') in text
    read = genso(capsys, "sheet", str(sheet))["sheet"]
    assert (read["weapons"], read["armor"]) == (["staff", "club"], "chain_armor")
    genso(capsys, "gear", str(sheet), "staff", "--off")
    genso(capsys, "gear", str(sheet), "chain_armor", "--off")
    text = sheet.read_text(encoding="utf-8")
    assert ('equipment = [\n  "travellers_clothes",  # old\n  "backpack",\n'
            '  "leather_armor",\n  "staff",  # from grandpa\n  "chain_armor",  # dwarf-made\n]\n'
            ) in text
    assert "装備中" not in text


def test_a_weapons_comment_in_a_list_one_a_line_goes_with_it_into_the_pack(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-EQUIP-1: a weapon taken off from `weapons` written one a line takes its comment
    into `equipment` (it went with the line), and readied again keeps it aside there."""
    sheet = tmp_path / "aki.toml"
    sheet.write_text(GEARED.replace('weapons = ["club"]', 'weapons = [\n  "club",  # oak\n]'),
                     encoding="utf-8")
    genso(capsys, "gear", str(sheet), "club", "--off")
    assert '  "backpack",\n  "club",  # oak\n]\n' in sheet.read_text(encoding="utf-8")
    genso(capsys, "gear", str(sheet), "club")
    genso(capsys, "gear", str(sheet), "club", "--off")
    assert '  "backpack",\n  "club",  # oak\n]\n' in sheet.read_text(encoding="utf-8")


TWO_RINGS = """# my mage
name = "Rin"
kind = "pc"
body = 6
perception = 5
magic = 6
equipment = [
  "ring_protection",  # first, from grandma
  "ring_protection",  # second, from grandpa
  "backpack",
]
money.gold = 3
"""


def test_rings_of_a_kind_take_back_the_comment_of_the_hand_they_come_off(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-ITEM-3 (reviewb75 NIT B3): of two Rings of Protection put on the left, then the
    right, the right one taken off took back the first kept comment, the left one's. The
    line kept names the hand, and a ring moved to the other hand takes its line along."""
    sheet = tmp_path / "rin.toml"
    sheet.write_text(TWO_RINGS, encoding="utf-8")
    genso(capsys, "gear", str(sheet), "ring_protection")
    genso(capsys, "gear", str(sheet), "ring_protection", "--hand", "right")
    genso(capsys, "gear", str(sheet), "ring_protection", "--off", "--hand", "right")
    text = sheet.read_text(encoding="utf-8")
    assert ('  "backpack",\n  "ring_protection",  # second, from grandpa\n]\n') in text
    assert ('# "ring_protection" worn 装備中 on the 左手/left hand, its comment kept here for '
            '`gear --off`:  # first, from grandma\n') in text
    genso(capsys, "gear", str(sheet), "ring_protection", "--off")
    assert '  "ring_protection",  # first, from grandma\n]\n' in sheet.read_text(
        encoding="utf-8")
    # One moved from the left hand to the right comes off the right with its comment.
    sheet.write_text(TWO_RINGS.replace('  "ring_protection",  # second, from grandpa\n', ""),
                     encoding="utf-8")
    genso(capsys, "gear", str(sheet), "ring_protection")
    genso(capsys, "gear", str(sheet), "ring_protection", "--hand", "right")
    assert "on the 右手/right hand, its comment" in sheet.read_text(encoding="utf-8")
    genso(capsys, "gear", str(sheet), "ring_protection", "--off")
    assert '  "backpack",\n  "ring_protection",  # first, from grandma\n]\n' in \
        sheet.read_text(encoding="utf-8")


def test_a_rings_line_kept_before_it_named_the_hand_is_still_taken_back(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sheet written by a companion whose kept line named no hand gives its comment back
    all the same."""
    sheet = tmp_path / "rin.toml"
    sheet.write_text(RINGLESS.replace(
        'equipment = ["ring_storage"]\n',
        'equipment = [\n  # "ring_storage" worn 装備中, its comment kept here for `gear --off`:'
        '  # grandma\n  "backpack",\n]\nstorage_mp = 5\n'
        'rings = {left = ["ring_storage"], right = []}\n'), encoding="utf-8")
    genso(capsys, "gear", str(sheet), "ring_storage", "--off")
    assert 'equipment = [\n  "backpack",\n  "ring_storage",  # grandma\n]\n' in \
        sheet.read_text(encoding="utf-8")


def test_of_two_equal_armours_last_in_the_pack_the_one_worn_takes_its_own_comment(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """f76genso item 1 (GM-EQUIP-2): `gear chain_armor` of two chain armours last in the pack
    wears the first (drop_one) and puts the leather one at the end. The list's diff took
    the second chain's line for the leather's, so "# from the quest" went and "# dwarf-made"
    stayed on the chain left in the pack, besides being kept aside for the worn one."""
    sheet = tmp_path / "mia.toml"
    sheet.write_text('name = "Mia"\nkind = "pc"\nbody = 6\nperception = 5\nmagic = 5\n'
                     'armor = "leather_armor"\nequipment = [\n  "backpack",  # blue\n'
                     '  "chain_armor",  # dwarf-made\n  "chain_armor",  # from the quest\n]\n'
                     "money.gold = 30\n", encoding="utf-8")
    genso(capsys, "gear", str(sheet), "chain_armor")
    text = sheet.read_text(encoding="utf-8")
    assert ('equipment = [\n  "backpack",  # blue\n  # "chain_armor" worn 装備中, its comment '
            'kept here for `gear --off`:  # dwarf-made\n  "chain_armor",  # from the quest\n'
            '  "leather_armor",\n]\n') in text
    assert text.count("dwarf-made") == 1


def test_a_second_equal_weapon_readied_leaves_the_comment_on_the_one_held_before(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """f76genso item 1 (GM-EQUIP-1): a dagger readied beside the one held goes first, weapon
    0 (equip); the file added it at the end, so "# father's" went to the new weapon 0 and
    the father's dagger, now `--weapon 1`, had none."""
    sheet = tmp_path / "aki.toml"
    sheet.write_text('name = "Aki"\nkind = "pc"\nbody = 4\nperception = 5\nmagic = 6\n'
                     'weapons = [\n  "dagger",  # father\'s\n]\n'
                     'equipment = ["backpack", "dagger"]\nmoney.gold = 2\n', encoding="utf-8")
    genso(capsys, "gear", str(sheet), "dagger")
    assert 'weapons = [\n  "dagger",\n  "dagger",  # father\'s\n]\n' in sheet.read_text(
        encoding="utf-8")


OPENED = """name = "Aki"
kind = "pc"
body = 4
perception = 5
magic = 6
mp = 12
weapons = []
equipment = [  # my pack
  "{item}",  # dwarf-made
  "backpack",
]
money.gold = 2
"""


@pytest.mark.parametrize(("item", "why"), [
    ("chain_armor", "worn 装備中"), ("dagger", "readied 装備中"),
    ("ring_protection", "worn 装備中 on the 左手/left hand")])
def test_the_comment_on_the_lists_opening_line_stays_there(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str], item: str, why: str,
) -> None:
    """r76genso DEFECT 1 (GM-EQUIP-1/2, GM-ITEM-3): the first item of `equipment` put on,
    its comment's kept line went in before the comment on the list's opening line, which
    then sat on the kept line's end (`…:  # dwarf-made  # my pack`) and came back with the
    item at `--off`, the opening line bare. The kept line goes below it."""
    sheet = tmp_path / "aki.toml"
    written = OPENED.format(item=item)
    sheet.write_text(written, encoding="utf-8")
    genso(capsys, "gear", str(sheet), item)
    assert (f'equipment = [  # my pack\n  # "{item}" {why}, its comment kept here for '
            '`gear --off`:  # dwarf-made\n  "backpack",\n]\n') in sheet.read_text(encoding="utf-8")
    genso(capsys, "gear", str(sheet), item, "--off")
    assert sheet.read_text(encoding="utf-8").replace("mp = 7", "mp = 12") == written.replace(
        f'  "{item}",  # dwarf-made\n  "backpack",\n',
        f'  "backpack",\n  "{item}",  # dwarf-made\n')


def test_of_two_equal_weapons_readied_the_one_taken_off_takes_its_own_comment(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """r76genso RISK 1 (GM-EQUIP-1): of two daggers readied with the backpack between them
    in the pack, `--off` takes weapon 0, the one readied last (drop_one), but the file gave
    back the first-readied dagger's comment and kept the other's as still readied."""
    sheet = tmp_path / "aki.toml"
    sheet.write_text('name = "Aki"\nkind = "pc"\nbody = 4\nperception = 5\nmagic = 6\n'
                     'weapons = ["club"]\nequipment = [\n  "dagger",  # a: father\'s\n'
                     '  "backpack",\n  "dagger",  # b: bought in town\n]\nmoney.gold = 2\n',
                     encoding="utf-8")
    genso(capsys, "gear", str(sheet), "dagger")
    genso(capsys, "gear", str(sheet), "dagger")
    genso(capsys, "gear", str(sheet), "dagger", "--off")
    assert ('equipment = [\n  # "dagger" readied 装備中, its comment kept here for '
            '`gear --off`:  # a: father\'s\n  "backpack",\n  "dagger",  # b: bought in town\n]'
            ) in sheet.read_text(encoding="utf-8")
    genso(capsys, "gear", str(sheet), "dagger", "--off")
    assert ('equipment = [\n  "backpack",\n  "dagger",  # b: bought in town\n'
            '  "dagger",  # a: father\'s\n]') in sheet.read_text(encoding="utf-8")


SEWN = """name = "Aki"
kind = "pc"
body = 6
perception = 5
magic = 6
{field} = "{worn}"  # mum sewed it
equipment = [
  "backpack",
  "{other}",  # dwarf-made
]
money.gold = 3
"""


@pytest.mark.parametrize(("field", "worn", "other"), [
    ("armor", "leather_armor", "chain_armor"), ("shield", "shield", "shield_plus1")])
def test_a_worn_armours_own_lines_comment_goes_with_it_into_the_pack(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str], field: str,
    worn: str, other: str,
) -> None:
    """r76genso RISK 2 (GM-EQUIP-2): `armor = "leather_armor"  # mum sewed it` kept its
    comment on the line when chain armour was put on, saying the chain was mum's, and the
    leather armour went into the pack bare; taken off, the line went and the comment with
    it. The comment goes with the armour into `equipment`, as a weapon's from `weapons`."""
    sheet = tmp_path / "aki.toml"
    written = SEWN.format(field=field, worn=worn, other=other)
    sheet.write_text(written, encoding="utf-8")
    genso(capsys, "gear", str(sheet), other)
    text = sheet.read_text(encoding="utf-8")
    assert f'{field} = "{other}"\n' in text
    assert (f'  "backpack",\n  # "{other}" worn 装備中, its comment kept here for `gear --off`:'
            f'  # dwarf-made\n  "{worn}",  # mum sewed it\n]\n') in text
    genso(capsys, "gear", str(sheet), other, "--off")
    genso(capsys, "gear", str(sheet), worn)
    genso(capsys, "gear", str(sheet), worn, "--off")
    text = sheet.read_text(encoding="utf-8")
    assert (f'equipment = [\n  "backpack",\n  "{other}",  # dwarf-made\n'
            f'  "{worn}",  # mum sewed it\n]\n') in text
    assert f"{field} =" not in text
    # Taken off straight from its line, it takes the comment too.
    sheet.write_text(written, encoding="utf-8")
    genso(capsys, "gear", str(sheet), worn, "--off")
    assert f'  "{other}",  # dwarf-made\n  "{worn}",  # mum sewed it\n]\n' in \
        sheet.read_text(encoding="utf-8")


def test_armour_already_worn_is_not_put_on_again(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """r76genso RISK 3 (GM-EQUIP-2): `gear chain_armor` wearing chain armour, with a second
    in the pack, swapped one for its equal and the file took the backpack's "# blue" for
    the change. Refused, naming the armour worn, the sheet left as it was."""
    sheet = tmp_path / "aki.toml"
    written = ('name = "Aki"\nkind = "pc"\nbody = 6\nperception = 5\nmagic = 6\n'
               'armor = "chain_armor"\nequipment = [\n  "chain_armor",  # dwarf-made\n'
               '  "backpack",  # blue\n]\nmoney.gold = 3\n')
    sheet.write_text(written, encoding="utf-8")
    err = refused(capsys, "gear", str(sheet), "chain_armor")
    assert "Aki already wears 鎖鎧/Chain armor: nothing to change (the sheet is left as it " \
        "was)" in err
    assert sheet.read_text(encoding="utf-8") == written


def test_the_pack_emptied_keeps_the_lines_kept_for_items_worn_and_readied(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """r76genso2 DEFECT 1 (GM-EQUIP-1/2): the last item out of `equipment` made the list a
    fresh `[]`, and the line kept there for the chain armour worn before went with it; at
    `--off` the armour came back bare, its "# dwarf-made" lost for good. Only the values go."""
    sheet = tmp_path / "aki.toml"
    written = ('name = "Aki"\nkind = "pc"\nbody = 6\nperception = 5\nmagic = 6\n'
               'weapons = ["club"]\nequipment = [\n  "chain_armor",  # dwarf-made\n'
               '  "dagger",  # mine\n]\nmoney.gold = 3\n')
    sheet.write_text(written, encoding="utf-8")
    genso(capsys, "gear", str(sheet), "chain_armor")
    genso(capsys, "gear", str(sheet), "dagger")
    assert ('equipment = [\n'
            '  # "dagger" readied 装備中, its comment kept here for `gear --off`:  # mine\n'
            '  # "chain_armor" worn 装備中, its comment kept here for `gear --off`:  # dwarf-made\n'
            ']\n') in sheet.read_text(encoding="utf-8")
    read = genso(capsys, "sheet", str(sheet))["sheet"]
    assert (read["weapons"], read["armor"], read.get("equipment")) == (
        ["dagger", "club"], "chain_armor", None)
    genso(capsys, "gear", str(sheet), "chain_armor", "--off")
    genso(capsys, "gear", str(sheet), "dagger", "--off")
    assert sheet.read_text(encoding="utf-8") == written


def test_the_pack_sold_empty_keeps_a_worn_rings_line_and_the_opening_lines_comment(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """r76genso2 DEFECT 1 (GM-ITEM-3): with the ring worn, the last item sold emptied
    `equipment` to `[]`, the ring's kept "# from grandma" and the list's "# my pack" gone;
    the ring taken off came back bare."""
    sheet = tmp_path / "aki.toml"
    sheet.write_text('name = "Aki"\nkind = "pc"\nbody = 6\nperception = 5\nmagic = 6\n'
                     'weapons = ["club"]\nequipment = [  # my pack\n'
                     '  "ring_protection",  # from grandma\n  "dagger",\n]\nmoney.gold = 3\n',
                     encoding="utf-8")
    genso(capsys, "gear", str(sheet), "ring_protection")
    genso(capsys, "sell", str(sheet), "dagger", "--price", "5")
    assert ('equipment = [  # my pack\n  # "ring_protection" worn 装備中 on the 左手/left hand, '
            'its comment kept here for `gear --off`:  # from grandma\n]\n'
            ) in sheet.read_text(encoding="utf-8")
    assert "equipment" not in genso(capsys, "sheet", str(sheet))["sheet"]  # none carried
    genso(capsys, "gear", str(sheet), "ring_protection", "--off")
    assert 'equipment = [  # my pack\n  "ring_protection",  # from grandma\n]\n' in \
        sheet.read_text(encoding="utf-8")


def test_the_last_weapon_taken_off_keeps_the_comment_on_weapons_opening_line(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """r76genso NIT 3 (GM-EQUIP-1): `weapons = [  # my arms` emptied by the last weapon
    taken off became a bare `weapons = []`; the comment stays on its line, and the weapon
    readied again goes below it."""
    sheet = tmp_path / "aki.toml"
    sheet.write_text(GEARED.replace('weapons = ["club"]',
                                    'weapons = [  # my arms\n  "club",  # oak\n]'),
                     encoding="utf-8")
    genso(capsys, "gear", str(sheet), "club", "--off")
    assert "weapons = [  # my arms\n]   # the first is weapon 0\n" in sheet.read_text(
        encoding="utf-8")
    assert "weapons" not in genso(capsys, "sheet", str(sheet))["sheet"]  # none readied
    genso(capsys, "gear", str(sheet), "club")
    assert "weapons = [  # my arms\n" in sheet.read_text(encoding="utf-8")
    assert genso(capsys, "sheet", str(sheet))["sheet"]["weapons"] == ["club"]


@pytest.mark.parametrize("indent", ["  ", "    ", "\t"], ids=["2 spaces", "4 spaces", "tab"])
def test_a_weapon_readied_into_a_commented_empty_weapons_list_takes_the_file_s_indent(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str], indent: str
) -> None:
    """f77carry item 3: a weapon readied into `weapons = [  # my arms` with no item under it
    went in at tomlkit's 4 spaces with no comma, beside the file's `equipment` at 2 spaces
    with one; it takes the indent and the trailing comma the file's lists use."""
    sheet = tmp_path / "aki.toml"
    sheet.write_text('name = "Aki"\nkind = "pc"\nbody = 6\nperception = 5\nmagic = 6\n'
                     f'weapons = [  # my arms\n]\nequipment = [\n{indent}"dagger",\n'
                     f'{indent}"backpack",  # old\n]\nmoney.gold = 3\n', encoding="utf-8")
    genso(capsys, "gear", str(sheet), "dagger")
    assert (f'weapons = [  # my arms\n{indent}"dagger",\n]\n'
            f'equipment = [\n{indent}"backpack",  # old\n]\n') in sheet.read_text(
        encoding="utf-8")
    assert genso(capsys, "sheet", str(sheet))["sheet"]["weapons"] == ["dagger"]
