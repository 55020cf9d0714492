"""A list the program keeps for the player (tracked poisons, used recovery rooms) that a power
cut left with its first lines whole and the rest zero bytes (a78saves item 4): it was dropped
whole, a poison no longer ticked (EV-POI-2) and a used room rolled again (EV-REC-1), and the
notice said "delete them" of a file already moved away."""

from __future__ import annotations

from pathlib import Path

from companion.app.poisons import PoisonList
from companion.systems.events.poisoned import Poison

AKI, BEN = Poison(face=2, rule="EV-POI-6", toxicity=8, hours_left=3), \
    Poison(face=3, rule="EV-POI-6", toxicity=5, hours_left=2)


def test_the_whole_lines_before_a_zero_tail_are_kept_and_said_so(tmp_path: Path) -> None:
    path = tmp_path / "poisoned.toml"
    written = PoisonList(path)
    written.poisons = {"Aki": AKI, "Ben": BEN}
    written.save()
    data = path.read_bytes()
    cut = data.index(b"[", data.index(b"[") + 1)  # the card cut as Ben's table was written
    path.write_bytes(data[:cut] + b"\0" * (len(data) - cut))
    read = PoisonList(path)
    assert read.reload() == {"Aki": AKI}
    line = data[:cut].count(b"\n") + 1
    [notice] = read.notices
    assert notice.startswith(f"{path} ended in {len(data) - cut} zero bytes from line {line} "
                             "(a power cut as it was written?): the lines before them were "
                             "kept as the list of poisons, and the whole file was kept as "
                             "poisoned.toml.corrupt-")
    assert "delete them" not in notice
    assert path.read_bytes() == data[:cut]  # the list mended, read so by the next command
    assert PoisonList(path).reload() == {"Aki": AKI}
    [kept] = tmp_path.glob("poisoned.toml.corrupt-*")
    assert kept.read_bytes().rstrip(b"\0") == data[:cut]


def test_lines_before_a_zero_tail_that_are_no_list_say_their_own_fault(tmp_path: Path) -> None:
    path = tmp_path / "poisoned.toml"
    path.write_bytes(b"[Aki]\nface = \n" + b"\0" * 9)
    read = PoisonList(path)
    assert read.reload() == {}
    [notice] = read.notices
    assert notice.startswith(f"{path} is not a list of poisons (")
    assert "then 9 zero bytes from line 3 (a power cut as it was written?)" in notice
    assert "delete them" not in notice


def test_zero_bytes_from_the_middle_of_a_line_keep_the_whole_tables_before_it(
        tmp_path: Path) -> None:
    """r78saves item 4 RISK: `truncate -s` in the middle of Ben's table, then zero bytes,
    dropped Aki's whole table with it."""
    path = tmp_path / "poisoned.toml"
    written = PoisonList(path)
    written.poisons = {"Aki": AKI, "Ben": BEN}
    written.save()
    data = path.read_bytes()
    ben = data.index(b"[", data.index(b"[") + 1)
    cut = data.index(b"\n", ben + 8) - 3  # in the middle of Ben's second line
    path.write_bytes(data[:cut] + b"\0" * (len(data) - cut))
    read = PoisonList(path)
    assert read.reload() == {"Aki": AKI}
    line, last = data[:cut].count(b"\n") + 1, data[:ben].count(b"\n")
    [notice] = read.notices
    assert notice.startswith(
        f"{path} ended in {len(data) - cut} zero bytes from line {line} (a power cut as it "
        f"was written?), line {line} cut in its middle: lines 1 to {last}, the whole tables "
        "before the one cut, were kept as the list of poisons, and the whole file was kept "
        "as poisoned.toml.corrupt-")
    assert path.read_bytes() == data[:ben]  # read so by the next command
    assert PoisonList(path).reload() == {"Aki": AKI}
    [kept] = tmp_path.glob("poisoned.toml.corrupt-*")
    assert kept.read_bytes() == data[:cut] + b"\0" * (len(data) - cut)


def test_zero_bytes_from_the_middle_of_the_first_table_lose_the_list_and_say_so(
        tmp_path: Path) -> None:
    path = tmp_path / "poisoned.toml"
    path.write_bytes(b"# poisons\n[Aki]\nface = 2\ntoxi" + b"\0" * 9)
    read = PoisonList(path)
    assert read.reload() == {}
    [notice] = read.notices
    assert notice.startswith(f"{path} is not a list of poisons (")
    assert "then 9 zero bytes from line 4 (a power cut as it was written?)" in notice
