"""GM-COMBAT-1 on the command line (fixg64): a party down (全滅) leaves the fight going, as
PG 4-1 has it (only the enemy's side and the GM's word end a fight). The action that fells
the last PC, and `fight show` after it, say that the fight goes on until the GM ends it
with `fight end`; the monsters' finishing blows are played; `fight apply` and `fight new`
wait for that end, as for any fight still going.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.dice.notation import display_width
from tests.app.genso_cli_out_helpers import unwrapped
from tests.app.genso_json_helpers import genso

GOES_ON = "全滅 party down: the fight goes on until the GM ends it"


def felled(tmp_path: Path, capsys: pytest.CaptureFixture[str],
           *options: str) -> tuple[Path, str]:
    """pc1 from a sheet file at 1 HP, hit by the Orc (seed 2: 1 damage, as in
    test_fight_apply_hint_weapon_by_name_ap_and_opposed_monsters) with ``options``: HP 0,
    行動不能. The attack's text is returned."""
    sheet = tmp_path / "one.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(sheet))
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(re.sub(r"(?m)^hp = \d+$", "hp = 1", text), encoding="utf-8")
    genso(capsys, "fight", "new", "--party", str(sheet), "--monsters", "orc")
    genso(capsys, "fight", "wait", str(sheet))
    assert main(["genso", "fight", "attack", "orc", str(sheet), "--seed", "2", *options]) == 0
    return sheet, unwrapped(capsys.readouterr().out)


def test_the_action_that_fells_the_party_says_the_fight_goes_on(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, text = felled(tmp_path, capsys)
    assert "INCAPACITATED 行動不能" in text
    assert ("全滅 the party is down: the fight goes on until the GM declares its end") in text
    assert f"round 2  turn: オーク Orc\n{GOES_ON}\n" in text
    assert text.rstrip().endswith("\n\nto end it 戦闘終了: `companion genso fight end`")
    assert "over:" not in text and "fight apply" not in text
    shown = genso(capsys, "fight", "show")
    assert shown["outcome"] is None and shown["party_down"] is True
    assert shown["current"] == "オーク"
    assert main(["genso", "fight", "show"]) == 0
    assert GOES_ON in capsys.readouterr().out


def test_the_orc_finishes_the_fallen_and_the_gm_ends_the_fight(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-COMBAT-8: the fallen cannot dodge; `fight apply` and `fight new` wait for the
    GM's end; `fight end` ends it (its refusal once over is unchanged)."""
    sheet, _ = felled(tmp_path, capsys)
    blow = genso(capsys, "fight", "attack", "orc", str(sheet), "--seed", "1")
    texts = [line["text"] for line in blow["entry"]["lines"]]
    assert any("cannot dodge (行動不能/incapacitated)" in t for t in texts)
    assert blow["combatants"][0]["hp"] < 0 and blow["outcome"] is None
    assert main(["genso", "fight", "apply"]) != 0
    assert "the fight is not over: end it first" in capsys.readouterr().err
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) != 0
    assert ("it is not over, and the HP and MP it left 駆け出し冒険者１ are not on their "
            "sheets: to keep them, `companion genso fight end` then `companion genso fight "
            "apply`") in capsys.readouterr().err
    ended = genso(capsys, "fight", "end")
    assert ended["outcome"] == "declared" and ended["party_down"] is False
    assert main(["genso", "fight", "end"]) != 0
    assert "the fight is already over" in capsys.readouterr().err
    applied = genso(capsys, "fight", "apply")
    assert [r["result"] for r in applied["sheets"]] == ["written"]


def test_with_party_down_ends_fight_set_the_fall_ends_it(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The Default on (--set with the action): the fight is over at the fall, as before."""
    _, text = felled(tmp_path, capsys, "--set", "GM-COMBAT-1.party_down_ends_fight=true")
    assert "over: 全滅 the party is down" in text and GOES_ON not in text
    saved = json.loads((user_dirs / "data" / "genso" / "fight.json").read_text("utf-8"))
    assert saved["journal"][-1]["settings"] == {"GM-COMBAT-1": {"party_down_ends_fight": True}}


# --- fixg64b -----------------------------------------------------------------------------


def test_fight_show_fits_80_columns_with_the_party_down(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """review64g N3: the party-down line was 82 columns."""
    felled(tmp_path, capsys)
    assert main(["genso", "fight", "show"]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert GOES_ON in shown
    assert max(display_width(line) for line in shown) <= 80


def test_the_gm_s_end_of_a_fight_whose_party_is_down_says_so(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """review64g: after `fight end`, `fight show` says the GM ended it and, on a line of its
    own, that the party was down then; --json keeps outcome "declared" and says party_out;
    the journal is the GM's declaration alone."""
    felled(tmp_path, capsys)
    assert main(["genso", "fight", "end"]) == 0
    capsys.readouterr()
    assert main(["genso", "fight", "show"]) == 0
    shown = capsys.readouterr().out
    assert "round 2  over: 終了 the GM ended the fight\nat the end: 全滅 the party is down\n" \
        in shown
    data = genso(capsys, "fight", "show")
    assert data["outcome"] == "declared" and data["party_out"] == "party_down"
    log = genso(capsys, "fight", "log")
    assert [line["text"] for line in log["journal"][-1]["lines"]] == [
        "the GM declares the end of the fight"]
    assert main(["genso", "fight", "end"]) != 0
    assert ("the fight is already over: 終了 the GM ended the fight — 全滅 the party is down"
            in capsys.readouterr().err)


def test_some_fled_and_the_rest_down_goes_on_on_the_command_line(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-COMBAT-1 (fixg64b): pc2's sheet at HP 0 lies down from the start; pc1 flees: the
    fight goes on, said as the party-down line says it, and the Orc's blow on the fallen
    needs no roll, until `fight end`; the end names the party's state."""
    sheet = tmp_path / "two.toml"
    genso(capsys, "sheet", "pc2", "--save-as", str(sheet))
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(re.sub(r"(?m)^hp = \d+$", "hp = 0", text), encoding="utf-8")
    genso(capsys, "fight", "new", "--party", "pc1", str(sheet), "--monsters", "orc")
    assert main(["genso", "fight", "flee", "pc1"]) == 0
    text = capsys.readouterr().out
    goes_on = "一部逃走 some fled, the rest down: the fight goes on until the GM ends it"
    assert f"round 1  turn: オーク Orc\n{goes_on}\n" in text
    assert text.rstrip().endswith("to end it 戦闘終了: `companion genso fight end`")
    assert "over:" not in text
    shown = genso(capsys, "fight", "show")
    assert shown["outcome"] is None and shown["party_down"] is True
    assert shown["party_out"] == "party_fled_some_down" and shown["current"] == "オーク"
    blow = genso(capsys, "fight", "attack", "orc", str(sheet), "--seed", "1")
    assert "cannot dodge (行動不能/incapacitated)" in blow["entry"]["lines"][0]["text"]
    assert blow["outcome"] is None
    ended = genso(capsys, "fight", "end")
    assert ended["outcome"] == "declared" and ended["party_out"] == "party_fled_some_down"
    assert main(["genso", "fight", "show"]) == 0
    shown_text = capsys.readouterr().out
    assert ("at the end: 逃走 some escaped, the rest are down 一部が逃走、残りは戦闘不能"
            in shown_text.splitlines())
    assert max(display_width(line) for line in shown_text.splitlines()) <= 80
