"""``companion genso gear`` and ``sell`` with magic rings (GM-ITEM-3): what a second ring of
one kind adds, and how to take off a ring worn on both hands before selling it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from tests.app.genso_cli_out_helpers import unwrapped


def ringed(tmp_path: Path, capsys: pytest.CaptureFixture[str], *rings: str) -> Path:
    """pc1 saved as a sheet file with ``rings`` in its pack."""
    sheet = tmp_path / "ringed.toml"
    assert main(["genso", "sheet", "pc1", "--save-as", str(sheet)]) == 0
    capsys.readouterr()
    listed = ", ".join(f'"{r}"' for r in rings)
    text = sheet.read_text(encoding="utf-8").replace("equipment = [", f"equipment = [{listed}, ")
    sheet.write_text(text, encoding="utf-8")
    return sheet


def gear(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, dict[str, Any]]:
    """What ``genso gear`` says, and the values the sheet it leaves derives."""
    assert main(["genso", "gear", *argv]) == 0, capsys.readouterr().err
    said = capsys.readouterr().out
    assert main(["genso", "sheet", argv[0], "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)["derived"]
    return said, data


@pytest.mark.parametrize("ring", ["ring_striking", "ring_protection"])
def test_a_second_ring_of_a_kind_adds_and_says_so(
        ring: str, tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """genso72 RISK 2: a second Ring of Striking (or Protection), on the other hand, added
    nothing and said nothing, for its 50 gold. Under GM-ITEM-3 ``rings_of_a_kind_add`` (on)
    each adds its +1, and `gear` says so."""
    sheet = str(ringed(tmp_path, capsys, ring, ring))
    said, one = gear(capsys, sheet, ring, "--hand", "left")
    assert "with the" not in said
    said, two = gear(capsys, sheet, ring, "--hand", "right")
    assert "with the 2 worn, each adds its +1 (GM-ITEM-3 rings_of_a_kind_add)" in said
    if ring == "ring_striking":
        assert (one["striking"], two["striking"]) == (1, 2)
    else:
        assert two["protection"]["total"] == one["protection"]["total"] + 1


def test_a_second_ring_of_a_kind_counted_once_says_it_adds_nothing(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With the Default off, the second ring adds nothing, and `gear` says why."""
    sheet = str(ringed(tmp_path, capsys, "ring_striking", "ring_striking"))
    off = ("--set", "GM-ITEM-3.rings_of_a_kind_add=false")
    gear(capsys, sheet, "ring_striking", "--hand", "left", *off)
    said, _ = gear(capsys, sheet, "ring_striking", "--hand", "right", *off)
    assert ("it adds nothing beside the one already worn: under GM-ITEM-3 "
            "rings_of_a_kind_add = false a kind counts once") in said


def test_selling_a_ring_worn_on_both_hands_says_a_take_off_that_works(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """genso72 NIT 5: `sell` of a Ring of Storage worn on both hands suggested `gear
    RING --off`, which is then refused asking for --hand; the hint names a hand, and does
    what it says."""
    sheet = str(ringed(tmp_path, capsys, "ring_storage", "ring_storage"))
    gear(capsys, sheet, "ring_storage", "--hand", "left")
    gear(capsys, sheet, "ring_storage", "--hand", "right")
    assert main(["genso", "sell", sheet, "ring_storage"]) == 2
    err = capsys.readouterr().err
    assert f"genso gear {sheet} ring_storage --off --hand left` takes it off" in err
    said, _ = gear(capsys, sheet, "ring_storage", "--off", "--hand", "left")
    assert "took off" in said


def test_a_fight_that_counts_a_kind_of_ring_once_says_so(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviewg72 NIT 5: a fight saved before ``rings_of_a_kind_add`` plays on counting a
    kind once, as it was played, while `genso sheet` and `gear` count each: the wearer's
    attack hit with +1 and nothing said why. `fight show` and each action say it, naming
    the wearer, in lines of 80 columns; a fight counting each says nothing."""
    sheet = str(ringed(tmp_path, capsys, "ring_striking", "ring_striking"))
    gear(capsys, sheet, "ring_striking", "--hand", "left")
    gear(capsys, sheet, "ring_striking", "--hand", "right")
    assert main(["genso", "fight", "new", "--party", sheet, "pc2", "--monsters", "orc"]) == 0
    assert "GM-ITEM-3" not in capsys.readouterr().out
    path = user_dirs / "data" / "genso" / "fight.json"
    saved = json.loads(path.read_text(encoding="utf-8"))
    del saved["settings"]["GM-ITEM-3"]["rings_of_a_kind_add"]  # as a revision-7 file
    path.write_text(json.dumps(saved, ensure_ascii=False), encoding="utf-8")
    for argv in (("show",), ("wait", sheet)):
        assert main(["genso", "fight", *argv]) == 0
        out = capsys.readouterr().out
        assert counted_once(out) == COUNTED_ONCE, out


#: What a fight counting a kind of ring once says of 駆け出し冒険者１'s two.
COUNTED_ONCE = ("GM-ITEM-3: this fight counts a kind of ring once (rings_of_a_kind_add = "
                "false): the second Ring of Striking or Protection of 駆け出し冒険者１ adds "
                "nothing in it (`genso sheet` and `gear` count each; an action's `--set "
                "GM-ITEM-3.rings_of_a_kind_add=true` counts each from it on)")


def counted_once(out: str) -> str:
    """The GM-ITEM-3 note of ``out`` joined into one line ("" when none), each of its
    lines within 80 columns."""
    lines = out.splitlines()
    start = next((n for n, line in enumerate(lines) if line.startswith("GM-ITEM-3: ")), None)
    if start is None:
        return ""
    end = next((n for n in range(start, len(lines)) if lines[n].endswith("from it on)")),
               len(lines) - 1)
    assert all(len(line) <= 80 for line in lines[start:end + 1]), out
    return " ".join(lines[start:end + 1])


def test_rings_of_a_kind_set_to_add_mid_fight_add_from_that_action_on(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """fixg72b's finding: on a fight counting a kind once, an attack given `--set
    GM-ITEM-3.rings_of_a_kind_add=true` said "from this action on (was false)" and still hit
    ``+1``: the rings were counted as the fight began. They are counted again from that
    action: the club hits ``+2``, a line says so, the note is gone, the fight file replays
    the same (`fight log`), and `fight undo` takes it back."""
    sheet = str(ringed(tmp_path, capsys, "ring_striking", "ring_striking"))
    gear(capsys, sheet, "ring_striking", "--hand", "left")
    gear(capsys, sheet, "ring_striking", "--hand", "right")
    assert main(["genso", "fight", "new", "--party", sheet, "--monsters", "orc",
                 "--set", "GM-ITEM-3.rings_of_a_kind_add=false"]) == 0
    assert counted_once(capsys.readouterr().out) == COUNTED_ONCE
    for seed in range(1, 40):  # a seed whose club hits the Orc
        assert main(["genso", "fight", "attack", sheet, "orc", "--seed", str(seed), "--set",
                     "GM-ITEM-3.rings_of_a_kind_add=true"]) == 0
        out = capsys.readouterr().out
        if "GM-COMBAT-7" in out:
            break
        assert main(["genso", "fight", "undo"]) == 0
        capsys.readouterr()
    said = unwrapped(out).split("\n\n")[0].splitlines()
    assert said[1] == ("GM-ITEM-3    駆け出し冒険者１ PC: 打撃の指輪/Ring of Striking: weapon "
                       "damage +2 (was +1) under the new setting"), out
    assert re.search(r"GM-COMBAT-7  棍棒/Club \(1D6\) ＞ \d \+2 − ", out), out
    assert counted_once(out) == ""
    assert main(["genso", "fight", "log"]) == 0
    assert capsys.readouterr().out.splitlines() == said
    assert main(["genso", "fight", "show"]) == 0
    assert counted_once(capsys.readouterr().out) == ""
    assert main(["genso", "fight", "undo"]) == 0
    out = capsys.readouterr().out
    assert "GM-ITEM-3.rings_of_a_kind_add is back to false" in out
    assert counted_once(out) == COUNTED_ONCE
