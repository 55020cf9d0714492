"""a78cocfight RISK 3: `--set` refuses a profile cell the engine never reads. 003's rounds of
3 AP (CO-TURN-1, CO-TURN-3) and 3-AP reload (CO-FIRE-1), and 004's one action a turn
(CO-BASE-5) and reload (CO-BASE-12, CO-FIRE-10), are played by the profile, whatever the
cell says: `--set CO-TURN-3.p003=off` was saved and listed as a setting, and the turns still
had 3 AP. Switching off both dying rules (CO-DEATH-1, CO-BASE-8) left one at HP −1 fighting
on. Writing a frame cell as it is, or swapping one dying rule for the other, still works;
a fight file saved with such a cell still opens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.systems.coc.combat import Fight
from companion.systems.coc.rules import load_rules
from tests.app.coc_command_helpers import sheets


@pytest.mark.parametrize(("cell", "said"), [
    ("CO-TURN-3.p003=off", "CO-TURN-3.p003 cannot be switched off: CO-TURN-3 is profile 003's "
                           "frame, always played there; play profile 004 without it"),
    ("CO-TURN-1.p003=off", "CO-TURN-1.p003 cannot be switched off"),
    ("CO-FIRE-1.p003=off", "CO-FIRE-1.p003 cannot be switched off"),
    ("CO-BASE-12.p003=on", "CO-BASE-12.p003 cannot be switched on: CO-BASE-12 is profile "
                           "004's frame, never played in profile 003; play profile 004 for it"),
    ("CO-TURN-3.p004=optional_on", "CO-TURN-3.p004 cannot be switched on"),
])
def test_a_cell_the_engine_never_reads_is_refused(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str], cell: str,
        said: str) -> None:
    ann, cult = sheets(tmp_path)
    assert main(["coc", "fight", "new", "--investigators", ann, "--foes", cult,
                 "--set", cell]) == 2
    assert f"--set: {said}" in capsys.readouterr().err
    assert not (user_dirs / "data" / "coc" / "fight.json").exists()


@pytest.mark.parametrize("cells", [
    ("CO-TURN-3.p003=on", "CO-BASE-12.p003=off", "CO-FIRE-10.p004=on"),
    ("CO-DEATH-1.p003=off", "CO-BASE-8.p003=on"),
])
def test_a_frame_cell_as_it_is_and_the_other_dying_rule_start_a_fight(
        tmp_path: Path, user_dirs: Path, cells: tuple[str, ...]) -> None:
    ann, cult = sheets(tmp_path)
    assert main(["coc", "fight", "new", "--investigators", ann, "--foes", cult,
                 *(a for c in cells for a in ("--set", c))]) == 0


DYING = "no dying rule would run in profile 003: "
PACKAGED = "(profiles.toml, as packaged)"


@pytest.mark.parametrize(("toml", "cells", "said"), [
    ("", ("CO-DEATH-1.p003=off",),
     f"CO-DEATH-1.p003 is off (--set) and CO-BASE-8.p003 is off {PACKAGED}"),
    ('"CO-DEATH-1" = { p003 = "off" }', (),
     f"CO-DEATH-1.p003 is off ({{toml}}) and CO-BASE-8.p003 is off {PACKAGED}"),
    ('"CO-DEATH-1" = { p003 = "off" }\n"CO-BASE-8" = { p003 = "on" }', ("CO-BASE-8.p003=off",),
     "CO-DEATH-1.p003 is off ({toml}) and CO-BASE-8.p003 is off (--set)"),
    ('"CO-BASE-8" = { p003 = "on" }', ("CO-DEATH-1.p003=off", "CO-BASE-8.p003=off"),
     "CO-DEATH-1.p003 is off (--set) and CO-BASE-8.p003 is off (--set)"),
])
def test_both_dying_rules_off_are_refused_naming_where_each_was_set(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str], toml: str,
        cells: tuple[str, ...], said: str) -> None:
    """CO-DEATH-1 / CO-BASE-8 both off in profile 003, from coc.toml, --set or the two, is
    refused, each cell said with where it was set last (r78coc RISK 2)."""
    ann, cult = sheets(tmp_path)
    path = _coc_toml(user_dirs, toml)
    assert main(["coc", "fight", "new", "--investigators", ann, "--foes", cult,
                 *(a for c in cells for a in ("--set", c))]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"{DYING}{said.format(toml=path)}; switch one on with the other off" in err
    assert not (user_dirs / "data" / "coc" / "fight.json").exists()


def test_a_dying_rule_off_in_coc_toml_and_the_other_on_by_set_start_a_fight(
        tmp_path: Path, user_dirs: Path) -> None:
    """r78coc RISK 2: coc.toml's CO-DEATH-1.p003 = "off" was refused on its own, before
    `--set CO-BASE-8.p003=on` was read: the check looks at the rules as finally combined."""
    ann, cult = sheets(tmp_path)
    _coc_toml(user_dirs, '"CO-DEATH-1" = { p003 = "off" }')
    assert main(["coc", "fight", "new", "--investigators", ann, "--foes", cult,
                 "--set", "CO-BASE-8.p003=on"]) == 0
    data = json.loads((user_dirs / "data" / "coc" / "fight.json").read_text(encoding="utf-8"))
    assert data["settings"]["CO-DEATH-1"] == {"p003": "off"}
    assert data["settings"]["CO-BASE-8"] == {"p003": "on"}


def _coc_toml(user_dirs: Path, defaults: str) -> Path:
    """coc.toml in the test's config folder with ``defaults`` under [defaults]."""
    path = user_dirs / "config" / "coc.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[defaults]\n{defaults}\n", encoding="utf-8")
    return path


def test_a_fight_saved_with_a_frame_cell_still_opens(tmp_path: Path, user_dirs: Path) -> None:
    """Revision 25's `--set CO-TURN-3.p003=off` is in the fight's settings; it opens as
    before (a range or check added later never shuts a saved fight)."""
    ann, cult = sheets(tmp_path)
    assert main(["coc", "fight", "new", "--investigators", ann, "--foes", cult]) == 0
    path = user_dirs / "data" / "coc" / "fight.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["settings"] = {"CO-TURN-3": {"p003": "off"}, "CO-DEATH-1": {"p003": "off"}}
    fight = Fight.from_json(load_rules(), data)
    assert fight.rules.table["CO-TURN-3"]["p003"] == "off"


def test_coc_defaults_marks_a_frame_cell_as_no_setting(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """r78coc: `coc defaults` listed the frame cells as settings like any other, though
    `--set` now refuses them; each says it is the profile's frame, in text and JSON, and a
    switchable cell (CO-TURN-4) says nothing of it."""
    assert main(["coc", "defaults", "--json"]) == 0
    rows = {(r["rule"], r["key"]): r for r in json.loads(capsys.readouterr().out)["defaults"]}
    for rule in ("CO-TURN-1", "CO-TURN-3", "CO-FIRE-1", "CO-BASE-5", "CO-BASE-12",
                 "CO-FIRE-10"):
        for cell in ("p003", "p004"):
            assert rows[rule, cell]["note"].startswith("the profile's frame, not a setting"), (
                rule, cell)
    assert "note" not in rows["CO-TURN-4", "p003"]
    assert main(["coc", "defaults"]) == 0
    text = capsys.readouterr().out
    line = next(x for x in text.splitlines() if x.startswith("CO-TURN-3    p003 "))
    assert line.endswith("(the profile's frame, not a setting: played by its profile "
                         "whatever this cell says; it cannot be switched)")
