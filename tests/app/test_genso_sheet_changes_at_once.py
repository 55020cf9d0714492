"""a76saves DEFECT 1: two genso commands changing one sheet at once lost one change, and
both said they were done (`genso buy` and `genso grow`: the experience gone; 8 buys at
once: 5 staffs on the sheet). Every command that writes a sheet (buy, sell, gear, grow,
rest, `fight apply`, `new`, `sheet --save-as`) now holds it from its read to its write, as
the calendar, the party's HP and the poisons are held, and a hold that lasts past the wait
is refused, naming its holder, with nothing changed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from companion import file_locks
from companion.app.cli import main
from tests.app.genso_json_helpers import genso
from tests.app.genso_ring_table_helpers import PC2, turn_of
from tests.companion_process import ROOT

#: Another companion's change of a sheet in the middle, as ``changing`` holds it: it reads
#: the file, says "held", and after argv[3] seconds writes it back with ``exp = argv[4]``
#: (or, for a file not there yet, that one line); an empty argv[4] writes nothing.
OTHER_CHANGE = """
import re, sys, time
from pathlib import Path
from companion.file_locks import changing
path, holder, seconds, exp = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4]
with changing(path, holder):
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    print("held", flush=True)
    time.sleep(seconds)
    if exp:
        if text:
            text = re.sub(r"^exp = .*$", f"exp = {exp}", text, flags=re.M)
        else:
            text = f"exp = {exp}\\n"
        path.write_text(text, encoding="utf-8")
"""


def other_change(path: Path, seconds: float, exp: str,
                 holder: str = "companion genso grow, changing the sheet") -> subprocess.Popen[str]:
    """:data:`OTHER_CHANGE` started, once it holds ``path``."""
    other = subprocess.Popen([sys.executable, "-c", OTHER_CHANGE, str(path), holder,
                              str(seconds), exp], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert other.stdout is not None and other.stdout.readline() == "held\n"
    return other


def saved_aki(user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The character Aki made and saved (GM-CHAR), its sheet file."""
    genso(capsys, "new", "Aki", "--body", "6", "--perception", "5", "--magic", "4",
          "--skill", "combat", "--seed", "3")
    return user_dirs / "data" / "genso" / "characters" / "Aki.toml"


def sheet(path: Path) -> dict[str, object]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_a_purchase_waits_for_another_change_of_the_sheet_and_both_are_kept(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The audit's repro A: a growth read before a purchase and written after it kept its
    own copy, the staff gone; the purchase now waits for it and reads the sheet after."""
    path = saved_aki(user_dirs, capsys)
    other = other_change(path, 1.0, "3")
    try:
        said = genso(capsys, "buy", "Aki", "staff")["said"]
    finally:
        assert other.wait(timeout=30) == 0
    assert said.startswith("GM-ECON-1 bought 棒/Staff")
    kept = sheet(path)
    assert kept["exp"] == 3
    assert kept["equipment"] == ["travellers_clothes", "travellers_shoes", "backpack",
                                 "purse", "staff"]


def test_purchases_at_once_all_land(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The audit's repro B: 8 `genso buy Aki staff` at once, each said it bought one, and the
    sheet held 5 staffs and the purse of 5 purchases. Three here: each waits for the ones
    before it, and eight on a loaded machine (the tests run two at a time on two cores) may
    wait past the 5 s a command waits; the test above is the one that fails on the old
    code every time."""
    path = saved_aki(user_dirs, capsys)
    purse = sheet(path)["money"]
    assert isinstance(purse, dict)
    buys = [subprocess.Popen([sys.executable, "-m", "companion", "genso", "buy", "Aki",
                              "staff"], cwd=ROOT, env=os.environ.copy(), text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(3)]
    said = [buy.communicate(timeout=120) for buy in buys]
    assert [buy.returncode for buy in buys] == [0] * 3, said
    assert all(out.startswith("GM-ECON-1 bought 棒/Staff for 大銀貨2枚") for out, _ in said)
    kept = sheet(path)
    assert kept["equipment"] == ["travellers_clothes", "travellers_shoes", "backpack",
                                 "purse", *["staff"] * 3]
    assert kept["money"] == {**purse, "large_silver": purse["large_silver"] - 3 * 2}


def test_a_change_held_past_the_wait_is_refused_naming_its_holder_and_changes_nothing(
        user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet another command goes on changing (5 s; 1 s here) is not written over: the
    command says whose hold it waited for, and that nothing was changed, as the calendar
    says it."""
    path = saved_aki(user_dirs, capsys)
    before = path.read_text(encoding="utf-8")
    monkeypatch.setattr(file_locks, "CHANGE_WAIT_SECONDS", 1.0)
    monkeypatch.setattr(file_locks, "QUIET_WAIT_SECONDS", 0.2)
    other = other_change(path, 30, "", holder="companion genso rest, changing the sheet")
    try:
        assert main(["genso", "buy", "Aki", "staff"]) != 0
    finally:
        other.kill()
        other.wait()
    err = capsys.readouterr().err
    assert (f"{path} is being changed by another companion (pid {other.pid}, companion genso "
            "rest, changing the sheet): waiting for it") in err
    assert (f"{path}: still being changed by another companion (pid {other.pid}, companion "
            "genso rest, changing the sheet) after 1 s: nothing was changed here; try again "
            "once it is done") in err
    assert path.read_text(encoding="utf-8") == before


def test_fight_apply_waits_for_a_change_of_a_sheet_and_does_not_write_over_it(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`fight apply` read the sheet, wrote the fight's HP, and a change read before it was
    written over that (the HP the Orc took back on the sheet, apply having said it wrote
    them); it now waits for the change, and so finds the sheet changed since the fight
    began: not written over, the fight's HP named to copy by hand (genso63 RISK 4)."""
    two = user_dirs / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(two))
    genso(capsys, "fight", "new", "--party", str(two), "--monsters", "orc")
    turn_of(capsys, "オーク")
    genso(capsys, "fight", "attack", "オーク", PC2, "--seed", "3")
    genso(capsys, "fight", "end")
    full = sheet(two)["hp"]
    other = other_change(two, 1.0, "3")
    try:
        main(["genso", "fight", "apply", "--json"])
    finally:
        assert other.wait(timeout=30) == 0
    rows = json.loads(capsys.readouterr().out)["sheets"]
    assert [(r["result"], r["by_hand"]["hp"][0]) for r in rows] == [("refused", full)]
    kept = sheet(two)
    assert (kept["exp"], kept["hp"]) == (3, full)


def test_a_sheet_saved_as_a_file_made_meanwhile_is_refused_without_force(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`genso sheet --save-as` (as `genso new`) looks for the file before it writes: one
    another command made in between was written over unsaid; it is now refused, as one there
    before is, and kept."""
    saved = user_dirs / "kit.toml"
    other = other_change(saved, 1.0, "7", holder="companion genso new, changing the sheet")
    try:
        assert main(["genso", "sheet", "pc1", "--save-as", str(saved)]) != 0
    finally:
        assert other.wait(timeout=30) == 0
    assert f"{saved} exists; pass --force to replace it" in capsys.readouterr().err
    assert saved.read_text(encoding="utf-8") == "exp = 7\n"


def test_a_sheet_saved_over_its_own_file_is_read_again_once_held(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """r76genso2 RISK 1: `genso sheet Aki --save-as <Aki's file> --force` read the sheet
    before it waited for another change of it, and wrote that first copy over the change
    (`exp = 3` back to 0). Saved over its own file, it is held from its read, as `buy` is,
    and reads the sheet again once held: the change is kept, and shown."""
    path = saved_aki(user_dirs, capsys)
    other = other_change(path, 1.0, "3")
    try:
        shown = genso(capsys, "sheet", "Aki", "--save-as", str(path), "--force")
    finally:
        assert other.wait(timeout=30) == 0
    assert shown["saved_to"] == str(path)
    assert shown["sheet"]["exp"] == 3
    assert sheet(path)["exp"] == 3
