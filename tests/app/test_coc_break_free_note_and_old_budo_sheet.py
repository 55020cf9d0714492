"""`coc defaults`' note on CO-GRAP-2's ap, and the old-Budo sheet note said once.

review60c: ``coc defaults`` says that CO-GRAP-2's ap is read only with each_turn = false
(R3: set alone, it is accepted and does nothing); the old-Budo sheet note is printed once,
when the fight file is written (N1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main

NOTE = "used only when CO-GRAP-2.each_turn is false"


def test_defaults_say_when_the_break_free_cost_is_read(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["coc", "defaults"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.split()[:2] == ["CO-GRAP-2", "ap"])
    assert line.endswith(f"range: from 1 to 3 (CO-TURN-3.action_points)  ({NOTE})")
    assert main(["coc", "defaults", "--json"]) == 0
    rows = {(r["rule"], r["key"]): r for r in json.loads(capsys.readouterr().out)["defaults"]}
    assert rows["CO-GRAP-2", "ap"]["note"] == NOTE
    assert "note" not in rows["CO-GRAP-2", "each_turn"]
    # The others are §0.3's words in Japanese (fix61a, review61a N7) and those of coc62's
    # settings, each of the seven (review61e N2); a profile cell's note is the frame's
    # (test_coc_frame_rules_not_settings).
    assert [k for k, r in rows.items() if "note" in r and k[1] not in ("p003", "p004")] == [
        ("§0.3", "rounding"), ("CO-BASE-1", "recompute"), ("CO-BASE-2", "db_twice"),
        ("CO-GRAP-2", "ap"),
        ("CO-DODGE-5", "dodge_needs_fatal_blow"), ("CO-DODGE-5", "attack_needs_keeper"),
        ("CO-MA-3", "doubled"), ("CO-MA-4", "damage"), ("CO-MA-4", "own_roll"),
        ("CO-RANGE-3", "reach_m")]


OLD = '''name = "{name}"
[characteristics]
STR = 11
CON = 12
POW = 13
DEX = 14
APP = 12
SIZ = 10
INT = 15
EDU = 16
[skills]
fist = 60
{skills}
[[weapons]]
key = "fist"
'''


def test_the_old_budo_note_is_said_once_the_fight_file_is_written(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """N1: a `fight new` refused (the two sheets share a name) says no note, only the
    refusal; the one that writes the fight says it once, after the fight's opening."""
    ann, twin = tmp_path / "ann.toml", tmp_path / "twin.toml"
    ann.write_text(OLD.format(name="Ann", skills="budo = 50"), encoding="utf-8")
    twin.write_text(OLD.format(name="Ann", skills=""), encoding="utf-8")
    new = ["coc", "fight", "new", "--profile", "004", "--investigators", str(ann)]
    assert main([*new, "--foes", str(twin)]) == 2
    err = capsys.readouterr().err
    assert "is also the name in" in err and "read as both" not in err
    assert not (user_dirs / "data" / "coc" / "fight.json").exists()
    twin.write_text(OLD.format(name="Cult", skills=""), encoding="utf-8")
    assert main([*new, "--foes", str(twin)]) == 0
    assert capsys.readouterr().err.count("read as both Budo skills") == 1
