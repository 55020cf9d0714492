"""reviewgc67b: `fight sunset` told the GM to flee an incapacitated cursed combatant on a turn
that never comes (RISK 1); the fight-command loader decoded a fight file with a byte-order
mark as no JSON (NIT 3); `gear --off` did not say which hand the ring came off (NIT 4)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_command
from companion.app.modes.fight_unchanged import loaded
from tests.app.genso_cli_out_helpers import unwrapped
from tests.app.genso_json_helpers import genso
from tests.app.genso_ring_hand_helpers import PC1, STORAGE, ringed, rings

# --- RISK 1 -------------------------------------------------------------------------------


def _pasted(command: str) -> list[str]:
    """A printed command as a shell takes it: its words, the program's own name first."""
    words = shlex.split(command)
    assert shlex.join(words[:1]) == shlex.quote(companion_command()), command
    return words[1:]


def test_fight_sunset_names_only_the_end_for_an_incapacitated_cursed_combatant(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-MAGIC-13 due for pc1, at HP 0 in the fight: INCAPACITATED, pc1 takes no turn
    (GM-COMBAT-8), and `fight flee` is the actor's on their turn (GM-COMBAT-1). The line
    told the GM to flee pc1 "on their turn", refused when pasted; it names `fight end`
    alone, and every command it prints runs as printed."""
    sheet = tmp_path / "low.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    text = sheet.read_text(encoding="utf-8")
    assert re.search(r"^hp = 12$", text, re.M), text
    sheet.write_text(re.sub(r"^hp = 12$", "hp = 0", text, flags=re.M), encoding="utf-8")
    genso(capsys, "calendar", "curse", "Mio", PC1)
    genso(capsys, "calendar", "pass", "366")
    genso(capsys, "fight", "new", "--party", str(sheet), "pc2", "--monsters", "orc")
    assert main(["genso", "fight", "sunset"]) == 0
    line = next(x for x in unwrapped(capsys.readouterr().out).splitlines()
                if x.startswith("GM-MAGIC-13"))
    command = f"{companion_command()} genso fight"
    assert line.endswith(
        f"; {PC1} PC 1 is in this fight, down and taking no turn, which does not mark the "
        f"death: the GM ends the fight (`{command} end`)"), line
    assert "flee" not in line, line
    printed = re.findall(r"`([^`]+)`", line)
    assert [_pasted(c)[:3] for c in printed] == [["genso", "calendar", "pass"],
                                                ["genso", "fight", "end"]]
    for words in reversed([_pasted(c) for c in printed]):  # the fight's end, then the day
        assert main(words) == 0, words
        capsys.readouterr()


def test_fight_sunset_still_names_flee_for_an_active_cursed_combatant(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An ACTIVE cursed pc1, on their turn: the flee is named, and runs as printed."""
    genso(capsys, "calendar", "curse", "Mio", PC1)
    genso(capsys, "calendar", "pass", "366")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    assert main(["genso", "fight", "sunset"]) == 0
    line = next(x for x in unwrapped(capsys.readouterr().out).splitlines()
                if x.startswith("GM-MAGIC-13"))
    flee = next(c for c in re.findall(r"`([^`]+)`", line) if " flee " in c)
    assert main(_pasted(flee)) == 0
    assert f"GM-COMBAT-1  {PC1} PC 1 flees" in capsys.readouterr().out


# --- NIT 3 --------------------------------------------------------------------------------


def test_the_command_loader_reads_a_fight_file_with_a_byte_order_mark(tmp_path: Path) -> None:
    """`loaded` decoded the bytes itself, the BOM kept, and took the file for no JSON
    (``data`` None, which what_changed and unapplied_fight read); it reads it as the fight's
    own load does, with the one decoder."""
    fight = {"system": "genso", "journal": [], "note": "駆け出し"}
    plain, bom = tmp_path / "plain.json", tmp_path / "bom.json"
    plain.write_bytes(json.dumps(fight, ensure_ascii=False).encode("utf-8"))
    bom.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    assert loaded(plain).data == fight
    assert loaded(bom).data == fight
    assert loaded(bom).sha != loaded(plain).sha  # the bytes on disk, as before
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xef\xbb\xbf{\"a\": \"\xff\"}")
    assert loaded(bad).data is None  # not UTF-8: no JSON, as before


# --- NIT 4 --------------------------------------------------------------------------------


def test_taking_a_ring_off_names_the_hand_it_came_off(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a Ring of Storage on each hand, `--off --hand right` said only "took off
    蓄積の指輪/Ring of Storage"; it names the hand, as the put-on does. Without --hand, the
    one hand that wore it."""
    sheet = ringed(tmp_path, capsys, 'rings = {left = ["ring_storage"], right = ["ring_storage"]}'
                                     "\nstorage_mp = 10\n")
    off = genso(capsys, "gear", str(sheet), "ring_storage", "--off", "--hand", "right")
    assert off["said"].startswith(f"took off {STORAGE} (右手/right hand): "), off["said"]
    assert rings(sheet) == {"left": ["ring_storage"], "right": []}
    off = genso(capsys, "gear", str(sheet), "ring_storage", "--off")
    assert off["said"].startswith(f"took off {STORAGE} (左手/left hand): "), off["said"]
