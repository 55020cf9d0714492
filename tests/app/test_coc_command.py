"""``companion coc``: a fight from sheet files (act, undo, show, log, --json), the Defaults
listed and overridden (seed numbers refused), camera dice for the d6-based dice only, and a
fight that survives a SIGKILL while it waits for typed dice."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.commands import coc as command
from companion.dice import ScriptedDice
from tests.app.coc_command_helpers import SHEET, sheets
from tests.app.table import killed_while_typing

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["coc", *argv, "--json"]) == 0, capsys.readouterr().err
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_a_fight_from_sheet_files_act_undo_show_log(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CO-TURN-1, CO-MA-1: new, act, undo, show and log; the file replays on every call."""
    ann, cult = sheets(tmp_path)
    start = run(capsys, "fight", "new", "--investigators", ann, "--foes", cult, "--seed", "1")
    assert start["current"] == "Ann" and start["profile"] == "003"
    assert Path(start["path"]) == user_dirs / "data" / "coc" / "fight.json"
    hit = run(capsys, "fight", "act", "attack", "Ann", "Cult", "--with", "ma=true", "--seed", "5")
    assert hit["entry"]["action"]["ma"] is True and hit["seed"] == 5
    assert "CO-MA-1" in hit["entry"]["lines"][0]
    after_hit = next(c["hp"] for c in hit["combatants"] if c["name"] == "Cult")
    run(capsys, "fight", "act", "end_turn", "Ann")
    shown = run(capsys, "fight", "show")
    assert shown["current"] == "Cult" and shown["actions"] == 2
    undone = run(capsys, "fight", "undo")
    assert undone["current"] == "Ann" and undone["actions"] == 1
    log = run(capsys, "fight", "log")
    assert len(log["journal"]) == 1 and log["opening"][0].startswith("round 1")
    assert next(c["hp"] for c in log["combatants"] if c["name"] == "Cult") == after_hit
    assert main(["coc", "fight", "act", "end_turn", "Cult"]) == 2
    assert "it is Ann's turn" in capsys.readouterr().err
    assert main(["coc", "fight", "show"]) == 0
    assert "▶ Ann" in capsys.readouterr().out
    assert main(["coc", "fight", "new", "--investigators", ann, "--foes", cult]) == 2
    assert "pass --force" in capsys.readouterr().err


def test_a_bad_sheet_exits_2_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ann, cult = sheets(tmp_path)
    Path(cult).write_text(SHEET.format(name="Cult", dex='"fast"'), encoding="utf-8")
    assert main(["coc", "fight", "new", "--investigators", ann, "--foes", cult]) == 2
    err = capsys.readouterr().err
    assert f"{cult} [characteristics]: DEX must be a whole number" in err
    assert main(["coc", "fight", "new", "--investigators", ann, "--foes",
                 str(tmp_path / "none.toml")]) == 2
    assert "cannot read the sheet" in capsys.readouterr().err


def test_a_mistyped_with_is_refused_and_the_fight_left_as_it_was(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--with defense=dodge`` (for ``defence``) or ``ma=banana`` exits 2 naming the key or
    value, and plays nothing: the attack is not rolled undodged or as MA."""
    ann, cult = sheets(tmp_path)
    saved = Path(run(capsys, "fight", "new", "--investigators", ann, "--foes", cult)["path"])
    before = saved.read_bytes()
    for given, said in (("defense=dodge", "the attack action has no 'defense' (its fields"),
                        ("ma=banana", "ma 'banana': write true or false"),
                        ("ma=true,defence=dodge", "write true or false"),
                        ("defence=block", "defence 'block': write one of none, dodge, parry"),
                        ("weapon=true", "weapon True: write a whole number")):
        assert main(["coc", "fight", "act", "attack", "Ann", "Cult", "--with", given]) == 2
        assert said in capsys.readouterr().err
        assert saved.read_bytes() == before
    dodged = run(capsys, "fight", "act", "attack", "Ann", "Cult", "--with", "defence=dodge",
                 "--seed", "1")
    assert "回避/Dodge" in "\n".join(dodged["entry"]["lines"])


def test_two_shots_in_one_003_action_are_refused_not_fired_as_one(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """003 spends 1 AP a shot (CO-TURN-3): ``--with shots=2`` fired one shot and said nothing
    of the other. It exits 2 naming the rule and plays nothing."""
    ann, cult = sheets(tmp_path)
    saved = Path(run(capsys, "fight", "new", "--investigators", ann, "--foes", cult)["path"])
    before = saved.read_bytes()
    assert main(["coc", "fight", "act", "attack", "Ann", "Cult", "--with", "shots=2"]) == 2
    assert ("--with shots=2: in 003 a shot is one attack for 1 AP (CO-TURN-3, CO-FIRE-2); act "
            "attack again for the next shot") in capsys.readouterr().err
    assert saved.read_bytes() == before


def test_defaults_listed_overridden_and_seed_numbers_refused(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CO-CORE-2: each Default and profile cell labelled "(default)" until set by the user's
    coc.toml or --set; a seed's number (CO-TURN-3's 3 AP) is refused with exit 2."""
    rows = run(capsys, "defaults")["defaults"]
    assert {"rule": "CO-BASE-7", "key": "parries_per_round", "value": 1,
            "default": True, "range": "0 or more"} in rows
    assert {"rule": "CO-FIRE-9", "key": "p003", "value": "optional", "default": True} in rows
    assert main(["coc", "defaults"]) == 0
    out = capsys.readouterr().out
    assert "parries_per_round            1 (default)" in out
    assert 'CO-FIRE-9    gauge_12                     "4D6/2D6/1D6 @ 10/20/50" (default)' in out
    (user_dirs / "config").mkdir()
    (user_dirs / "config" / "coc.toml").write_text(
        '[defaults."CO-DEATH-2"]\nlenient = true\n', encoding="utf-8")
    rows = run(capsys, "defaults", "--set", "CO-BASE-7.parries_per_round=2",
               "--set", "CO-FIRE-9.p003=optional_on",
               "--set", "CO-FIRE-9.gauge_12=3D6/1D6 @ 5/25")["defaults"]
    assert {"rule": "CO-FIRE-9", "key": "gauge_12", "value": "3D6/1D6 @ 5/25",
            "default": False} in rows
    assert {"rule": "CO-DEATH-2", "key": "lenient", "value": True, "default": False} in rows
    assert {"rule": "CO-BASE-7", "key": "parries_per_round", "value": 2,
            "default": False, "range": "0 or more"} in rows
    assert {"rule": "CO-FIRE-9", "key": "p003", "value": "optional_on",
            "default": False} in rows
    assert main(["coc", "defaults", "--set", "CO-TURN-3.action_points=4"]) == 2
    err = capsys.readouterr().err
    assert "CO-TURN-3.action_points is the seed's rule (3), not a Default" in err
    assert "cannot be overridden" in err
    assert main(["coc", "defaults", "--set", "CO-FIRE-9.gauge_12=4D6 @ 10/20"]) == 2
    assert "2 distances" in capsys.readouterr().err
    # A fight keeps the settings it started with, whatever the file says later.
    ann, cult = sheets(tmp_path)
    run(capsys, "fight", "new", "--investigators", ann, "--foes", cult, "--profile", "004",
        "--set", "CO-BASE-7.parries_per_round=2")
    (user_dirs / "config" / "coc.toml").unlink()
    saved = json.loads((user_dirs / "data" / "coc" / "fight.json").read_text(encoding="utf-8"))
    assert saved["settings"] == {"CO-BASE-7": {"parries_per_round": 2},
                                 "CO-DEATH-2": {"lenient": True}}
    assert run(capsys, "fight", "show")["profile"] == "004"


def test_camera_reads_only_d6_based_dice(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """--dice camera: the damage dice (D6, and a D4 never) come from the camera; a d100 that
    would go to it is an error saying so, and nothing is saved; --d100 sim supplies it."""
    camera = ScriptedDice([(6, 5), (6, 2)])
    monkeypatch.setattr(command, "camera_source", lambda args: camera)
    ann, cult = sheets(tmp_path)
    run(capsys, "fight", "new", "--investigators", ann, "--foes", cult, "--seed", "1")
    path = user_dirs / "data" / "coc" / "fight.json"
    before = path.read_bytes()
    assert main(["coc", "fight", "act", "attack", "Ann", "Cult", "--dice", "camera"]) == 2
    err = capsys.readouterr().err
    assert "1D100 cannot come from the camera" in err and "d100 is typed or simulated" in err
    assert path.read_bytes() == before
    assert main(["coc", "roll", "CCB<=50", "--dice", "camera"]) == 2
    assert "--d100 typed or --d100 sim" in capsys.readouterr().err
    # Seed 2: d100 8 (kick 60); the 1D6 is the camera's 5, the DB's 1D4 simulated.
    data = run(capsys, "fight", "act", "attack", "Ann", "Cult", "--dice", "camera",
               "--d100", "sim", "--seed", "2")
    assert data["dice_source"] == "camera"
    lines = data["entry"]["lines"]
    assert "＞ 8 ＞" in lines[0] and lines[1].startswith("damage (1D6+1D4) ＞ 5[5]")
    assert camera.remaining == [(6, 2)]
    d3 = command.CameraD6Dice(ScriptedDice([(6, 1), (6, 4), (6, 6)]), None)
    assert d3.roll(3, 3) == [1, 2, 3]


def test_a_sigkill_while_waiting_for_typed_dice_loses_nothing(tmp_path: Path) -> None:
    """An action killed (SIGKILL) while it waits for the player's d100 leaves the saved fight
    exactly as it was after the last action, and play goes on from there."""
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"), "PYTHONPATH": str(ROOT)}
    command_line = [sys.executable, "-m", "companion", "coc", "fight"]
    ann, cult = sheets(tmp_path)

    def call(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run([*command_line, *argv], env=env, input=stdin, text=True,
                              capture_output=True, check=True, cwd=ROOT)

    call("new", "--investigators", ann, "--foes", cult)
    # Ann kicks: 30 hits, 1D6 = 4, DB 1D4 = 2 → Cult 13 − 6 = 7.
    # typed, as --d100 says it; manual, the old word, below still works.
    call("act", "attack", "Ann", "Cult", "--dice", "typed", stdin="30\n4\n2\n")
    call("act", "end_turn", "Ann")
    path = tmp_path / "data" / "coc" / "fight.json"
    before = path.read_bytes()
    prompt = killed_while_typing(
        [*command_line, "act", "attack", "Cult", "Ann", "--dice", "manual"], env, ROOT)
    assert b"Roll 1D100" in prompt
    assert path.read_bytes() == before
    shown = json.loads(call("show", "--json").stdout)
    assert shown["actions"] == 2 and shown["current"] == "Cult"
    assert next(c["hp"] for c in shown["combatants"] if c["name"] == "Cult") == 7
    done = json.loads(call("act", "attack", "Cult", "Ann", "--dice", "manual", "--json",
                           stdin="99\n").stdout)
    assert done["actions"] == 3


def _argv(action: Any) -> list[str]:
    """The command line that plays ``action``: kind, actor, target, then --with for the rest."""
    from dataclasses import fields

    out = [action.kind, action.actor]
    target = getattr(action, "target", None)
    if target:
        out.append(target)
    for f in fields(action):
        value = getattr(action, f.name)
        if f.name in ("actor", "target") or value == f.default:
            continue
        value = getattr(value, "value", value)
        shown = ("true" if value else "false") if isinstance(value, bool) else (
            json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value))
        out += ["--with", f"{f.name}={shown}"]
    return out


@pytest.mark.parametrize("profile", ["003", "004"])
def test_the_scripted_fights_through_the_command_replay_identically(
    profile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each profile's scripted fight, set up from sheet files and played action by action
    through `companion coc fight act`: the saved file replays to the engine's own result."""
    import tomlkit

    from companion.systems.coc.combat import Side
    from companion.systems.coc.sheet import sheet_mapping
    from tests.systems.coc.scripted_fight_helpers import Faces, fight_003, fight_004, play

    engine, steps = (fight_003 if profile == "003" else fight_004)()
    files: dict[Side, list[str]] = {Side.INVESTIGATORS: [], Side.FOES: []}
    for sheet, side in engine.entrants:
        path = tmp_path / f"{sheet.name}.toml"
        path.write_text(tomlkit.dumps(sheet_mapping(sheet)), encoding="utf-8")
        files[side].append(str(path))
    saved = tmp_path / "fight.json"
    run(capsys, "fight", "new", "--investigators", *files[Side.INVESTIGATORS], "--foes",
        *files[Side.FOES], "--profile", profile, "--file", str(saved))
    for action, faces in steps:
        monkeypatch.setattr(command, "dice_source", lambda args, faces=faces: Faces(faces))
        run(capsys, "fight", "act", *_argv(action), "--file", str(saved))
    play(engine, steps)
    loaded = command.load_fight(saved)
    assert loaded.state == engine.state
    log = run(capsys, "fight", "log", "--file", str(saved))
    assert [e["lines"] for e in log["journal"]] == [list(e.lines) for e in engine.journal]
    assert log["outcome"] == (None if profile == "004" else "investigators")


def test_a_bad_journal_entry_exits_2_naming_the_file_and_entry(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``journal[0] = 5`` or ``journal[0].dice = "abc"`` is ``companion: error: FILE: journal
    entry 1: …``, never a traceback; an entry whose dice ran out says which it is."""
    ann, cult = sheets(tmp_path)
    saved = Path(run(capsys, "fight", "new", "--investigators", ann, "--foes", cult)["path"])
    run(capsys, "fight", "act", "attack", "Ann", "Cult", "--seed", "3")
    good = json.loads(saved.read_text(encoding="utf-8"))
    for change, said in (({"dice": "abc"}, "journal entry 1: its dice must be"),
                         (5, "journal entry 1: not an action"),
                         ({"dice": []}, "journal entry 1 (attack by 'Ann') does not replay: "
                                        "the script has no die left")):
        data = json.loads(json.dumps(good))
        data["journal"][0] = change if not isinstance(change, dict) else {
            **data["journal"][0], **change}
        saved.write_text(json.dumps(data), encoding="utf-8")
        assert main(["coc", "fight", "show"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"companion: error: {saved}: ") and said in err, err


@pytest.mark.parametrize(("change", "said"), [
    ({"profile": []}, "not a saved coc fight: profile must be '003' or '004', found []"),
    ({"side": []}, "entrant 1's side must be 'foes' or 'investigators', found []"),
])
def test_a_field_of_the_wrong_type_exits_2_naming_the_file_and_field(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str],
    change: dict[str, Any], said: str
) -> None:
    """Valid JSON, a list for the profile or a side: `coc fight show` was a TypeError
    traceback (unhashable type: 'list')."""
    ann, cult = sheets(tmp_path)
    saved = Path(run(capsys, "fight", "new", "--investigators", ann, "--foes", cult)["path"])
    data = json.loads(saved.read_text(encoding="utf-8"))
    if "side" in change:
        data["entrants"][0]["side"] = change["side"]
    else:
        data.update(change)
    saved.write_text(json.dumps(data), encoding="utf-8")
    assert main(["coc", "fight", "show"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"companion: error: {saved}: ") and said in err, err


def test_roll_and_defaults_with_file_use_the_fights_profile(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a 004 fight's file, 95 against 50 is 失敗 (004's fumbles are 96–00), not 003's
    致命的失敗; ``coc defaults --file`` lists that fight's profile and settings."""
    ann, cult = sheets(tmp_path)
    fight = str(tmp_path / "f4.json")
    run(capsys, "fight", "new", "--investigators", ann, "--foes", cult, "--profile", "004",
        "--set", "CO-BASE-7.parries_per_round=2", "--file", fight)
    monkeypatch.setattr(command, "dice_source", lambda args: ScriptedDice([(100, 95)]))
    assert "致命的失敗" in json.dumps(run(capsys, "roll", "CCB<=50"), ensure_ascii=False)
    rolled = json.dumps(run(capsys, "roll", "CCB<=50", "--file", fight), ensure_ascii=False)
    assert "失敗" in rolled and "致命的失敗" not in rolled
    listed = run(capsys, "defaults", "--file", fight)
    assert listed["profile"] == "004"
    assert {"rule": "CO-BASE-7", "key": "parries_per_round", "value": 2,
            "default": False, "range": "0 or more"} in listed["defaults"]
    assert main(["coc", "defaults", "--file", fight, "--profile", "003"]) == 2
    assert "profile 004 fight" in capsys.readouterr().err


def test_act_names_a_missing_target_and_takes_full_width_digits(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ann, cult = sheets(tmp_path)
    run(capsys, "fight", "new", "--investigators", ann, "--foes", cult)
    assert main(["coc", "fight", "act", "attack", "Ann", "--with", "weapon=2"]) == 2
    err = capsys.readouterr().err
    assert "the attack action needs its target" in err and "__init__" not in err
    acted = run(capsys, "fight", "act", "attack", "Ann", "Cult", "--with", "weapon=０",
                "--with", "ｍａ＝ｔｒｕｅ", "--seed", "1")
    assert acted["entry"]["action"]["weapon"] == 0 and acted["entry"]["action"]["ma"] is True


def test_fight_help_describes_every_verb(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["coc", "fight", "--help"])
    out = capsys.readouterr().out
    for verb, words in (("show", "whose turn"), ("log", "every action"),
                        ("undo", "take back")):
        assert any(line.strip().startswith(verb) and words in line
                   for line in out.splitlines()), out


def _as_format_1(saved: Path, settings: Any) -> None:
    """Rewrite ``saved`` as the code before the format number wrote it, with ``settings``."""
    data = json.loads(saved.read_text(encoding="utf-8"))
    data.pop("format", None)
    data["settings"] = settings
    saved.write_text(json.dumps(data), encoding="utf-8")


def test_old_fight_files_open_keep_their_settings_and_name_a_bad_one(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A format-1 file: a malformed setting is an error naming the file (it was an
    AttributeError); ``wake_hp=0`` (the old code took it) still opens, with a note; a
    ``full_refill=false`` it never read is shown as set and kept by the next save."""
    ann, cult = sheets(tmp_path)
    saved = Path(run(capsys, "fight", "new", "--investigators", ann, "--foes", cult)["path"])
    _as_format_1(saved, {"CO-BASE-7": 5})
    assert main(["coc", "fight", "show"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"companion: error: {saved}: ") and "Traceback" not in err, err
    _as_format_1(saved, {"CO-BASE-8": {"wake_hp": 0}, "CO-BASE-12": {"full_refill": False}})
    for verb in ("show", "log"):
        assert main(["coc", "fight", verb]) == 0
        err = capsys.readouterr().err
        assert "begun by an older version" in err, err
        assert "wake_hp must be above 2 (CO-BASE-8.unconscious_max)" in err, err
        assert "full_refill = false was not read" in err
    listed = run(capsys, "defaults", "--file", str(saved))["defaults"]
    assert {"rule": "CO-BASE-12", "key": "full_refill", "value": False,
            "default": False} in listed
    run(capsys, "fight", "act", "end_turn", "Ａｎｎ")  # full width, folded like --with
    kept = json.loads(saved.read_text(encoding="utf-8"))
    assert kept["format"] == 2 and kept["settings"] == {
        "CO-BASE-8": {"wake_hp": 0}, "CO-BASE-12": {"full_refill": False}}
    assert main(["coc", "fight", "show"]) == 0 and "older version" not in capsys.readouterr().err
    assert main(["coc", "fight", "new", "--investigators", ann, "--foes", cult, "--force",
                 "--set", "CO-BASE-8.wake_hp=0"]) == 2
    assert "wake_hp must be above 2 (CO-BASE-8.unconscious_max)" in capsys.readouterr().err


EXAMPLES = ROOT / "docs" / "examples"


def test_the_shipped_example_sheets_start_the_documented_fight(
    user_dirs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/playing.md's `coc fight new` line, run from docs/examples as docs/sheets.md
    says, starts a fight from the example sheets; Ann is then placed on 003's board."""
    monkeypatch.chdir(EXAMPLES)
    documented = ("fight new --profile 003 --investigators ann.toml bob.toml "
                  "--foes cultist.toml")
    assert f"companion coc {documented}" in (ROOT / "docs" / "sheets.md").read_text(
        encoding="utf-8")
    start = run(capsys, *documented.split())
    assert Path(start["path"]) == user_dirs / "data" / "coc" / "fight.json"
    assert [(c["name"], c["side"]) for c in start["combatants"]] == [
        ("Ann", "investigators"), ("Bob", "investigators"), ("Cultist", "foes")]
    ann = start["combatants"][0]
    assert ann["san"] == 60 and [w["key"] for w in ann["weapons"]] == ["revolver", "kick"]
    assert start["combatants"][1]["weapons"][0]["durability"] == 12
    assert start["combatants"][2]["weapons"][0]["key"] == "ritual_dagger"
    placed = run(capsys, "fight", "act", "place", "Ann", "--with", "square=e2")
    assert placed["combatants"][0]["square"] == "e2"
    for profile in ("004",):  # the sheets serve either profile
        run(capsys, *documented.replace("003", profile).split(), "--force")
    # `coc fight --help`'s example named a foe "Cult" and Ann's MA with her revolver.
    monkeypatch.setenv("COLUMNS", "300")
    with pytest.raises(SystemExit):
        main(["coc", "fight", "--help"])
    example = re.search(r"e\.g\. (act [^\n]+)", capsys.readouterr().out)
    assert example is not None
    acted = run(capsys, "fight", *example[1].split())
    assert acted["actions"] == 1 and "キック/Kick+MA" in str(acted["entry"])


def test_coc_help_is_whole_and_names_every_option(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--profile`'s help was cut off ("with --file, the fight's"); `fight new` had no help
    for --investigators, --foes and --force."""
    monkeypatch.setenv("COLUMNS", "300")
    helps = {}
    for argv in (["roll"], ["defaults"], ["fight", "new"]):
        with pytest.raises(SystemExit) as exc:
            main(["coc", *argv, "--help"])
        assert exc.value.code == 0
        helps[argv[-1]] = capsys.readouterr().out
    for text in helps.values():
        assert "the fight's\n" not in text
        assert "--profile {003,004}   which seed's rules: 003 (the default) or 004" in text
    assert "with --file the fight's own profile is used, so leave --profile out" in helps["roll"]
    new = helps["new"]
    lines = [line.strip() for line in new.splitlines()]
    for option, said in (("--investigators SHEET [SHEET ...]", "the investigators' sheet files"),
                         ("--foes SHEET [SHEET ...]", "the foes' sheet files"),
                         ("--force", "start over a fight still under way: it is kept")):
        at = lines.index(next(line for line in lines if line.startswith(option)))
        assert said in lines[at] or lines[at + 1].startswith(said), lines[at:at + 2]
    assert "docs/sheets.md" in new


def test_d100_is_typed_or_sim_as_in_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`companion play --d100` and the setting dice.d100 say typed|sim; so does every `coc`
    command (`--d100 typed` was an invalid choice), and the old `manual` still works."""
    import io

    monkeypatch.setattr(command, "camera_source", lambda args: ScriptedDice([]))
    for word in ("typed", "manual"):
        monkeypatch.setattr(sys, "stdin", io.StringIO("30\n"))
        data = run(capsys, "roll", "CCB<=70", "--dice", "camera", "--d100", word)
        assert data["text"] == "(1D100<=70) ＞ 30 ＞ 成功/success"
    with pytest.raises(SystemExit):
        main(["coc", "roll", "CCB<=70", "--dice", "camera", "--d100", "camera"])
    assert "(choose from 'typed', 'sim')" in capsys.readouterr().err
    monkeypatch.setenv("COLUMNS", "300")
    for argv in (["roll"], ["fight", "new"], ["fight", "act"]):
        with pytest.raises(SystemExit):
            main(["coc", *argv, "--help"])
        assert "--d100 {typed,sim}" in capsys.readouterr().out


def test_a_grapple_from_behind_off_the_board_by_the_command(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """003 off the board (CO-DODGE-3): ``act grapple Ann Cult --with from_behind=true`` takes
    no dodge without dodge concentration, refused with exit 2 and nothing played; without
    a defence it is played and saved from behind."""
    ann, cult = sheets(tmp_path)
    saved = Path(run(capsys, "fight", "new", "--investigators", ann, "--foes", cult)["path"])
    before = saved.read_bytes()
    assert main(["coc", "fight", "act", "grapple", "Ann", "Cult", "--with", "from_behind=true",
                 "--with", "defence=dodge"]) == 2
    assert "Cult cannot dodge now" in capsys.readouterr().err
    assert saved.read_bytes() == before
    done = run(capsys, "fight", "act", "grapple", "Ann", "Cult", "--with", "from_behind=true",
               "--seed", "1")
    assert done["entry"]["action"]["from_behind"] is True


def test_two_sheets_whose_names_differ_only_in_width_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/sheets.md: every combatant needs its own name, and a name typed in full width
    (Ａｎｎ) finds Ann. Ann and Ａｎｎ began one fight, and then Ａｎｎ typed for Ann named the
    other sheet: the fight is refused, naming both sheets."""
    ann, cult = sheets(tmp_path)
    wide = tmp_path / "ann2.toml"
    wide.write_text(SHEET.format(name="Ａｎｎ", dex=12), encoding="utf-8")
    assert main(["coc", "fight", "new", "--investigators", ann, str(wide),
                 "--foes", cult]) == 2
    err = capsys.readouterr().err
    assert f"{wide}: 'Ａｎｎ' and 'Ann' ({ann}) differ only in full- and half-width" in err


def test_one_sheet_on_both_sides_is_refused_naming_both_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/sheets.md: every combatant needs its own name. The same sheet given as an
    investigator and a foe was refused with no name and no file; now both are named, and
    no fight file is written. It is said to be one sheet given twice (a78gensofight item 6)."""
    ann, _cult = sheets(tmp_path)
    fight = tmp_path / "both.json"
    assert main(["coc", "fight", "new", "--file", str(fight), "--investigators", ann,
                 "--foes", ann]) == 2
    err = capsys.readouterr().err
    # one sheet given twice, not two sharing a name (a78gensofight item 6)
    assert f"{ann} is given twice ('Ann'): a sheet fights once, so give it once" in err
    assert not fight.exists()


def test_the_dead_are_shown_dead_alone() -> None:
    """CO-DEATH-2: an investigator who died unconscious and dying was listed by `coc fight
    show` as "気絶/unconscious DEAD 死亡" (and still DYING); DEAD stands alone, as on the
    table's screen. The JSON keeps every condition."""
    from companion.systems.coc.combat import Condition, Timed
    from companion.systems.coc.rules import Profile
    from tests.systems.coc.helpers import duel, patch

    fight = duel(Profile.P003, {"fist": 50}, {"fist": 50})
    patch(fight, "Ann", hp=0, dead=True, dying_until=2,
          conditions=(Timed(Condition.UNCONSCIOUS, 1, 0),))
    text, data = command._status(fight)
    ann = text.splitlines()[1]
    assert ann.rstrip().endswith("HP 0/13  AP 3  DEAD 死亡"), ann
    assert data["combatants"][0]["conditions"] == ["気絶/unconscious"]


def test_arm_s_reach_is_set_saved_with_the_fight_and_listed(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """reviewcoc74 DEFECT 1: arm's reach is the Default CO-RANGE-3.reach_m (1 m; the seeds
    give no metres), listed as one; `--set CO-RANGE-3.reach_m=2` takes a kick at 2 m and
    refuses it at 3, and the fight keeps the setting in its file."""
    listed = run(capsys, "defaults")["defaults"]
    assert {"rule": "CO-RANGE-3", "key": "reach_m", "value": 1, "default": True,
            "range": "from 1 to 3"}.items() <= next(
                r for r in listed if (r["rule"], r["key"]) == ("CO-RANGE-3", "reach_m")).items()
    ann, cult = sheets(tmp_path)
    run(capsys, "fight", "new", "--investigators", ann, "--foes", cult, "--profile", "004",
        "--set", "CO-RANGE-3.reach_m=2")
    assert main(["coc", "fight", "act", "attack", "Ann", "Cult", "--with", "distance_m=3"]) == 2
    assert ("within arm's reach 手が届く範囲 (2 m: CO-RANGE-3.reach_m): distance_m=3 is "
            "beyond it" in capsys.readouterr().err)
    kicked = run(capsys, "fight", "act", "attack", "Ann", "Cult", "--with", "distance_m=2",
                 "--seed", "1")
    assert kicked["entry"]["action"]["distance_m"] == 2
    saved = json.loads((user_dirs / "data" / "coc" / "fight.json").read_text(encoding="utf-8"))
    assert saved["settings"]["CO-RANGE-3"] == {"reach_m": 2}
    again = run(capsys, "defaults", "--file", str(user_dirs / "data" / "coc" / "fight.json"))
    assert {"rule": "CO-RANGE-3", "key": "reach_m", "value": 2, "default": False,
            "range": "from 1 to 3"}.items() <= next(
                r for r in again["defaults"]
                if (r["rule"], r["key"]) == ("CO-RANGE-3", "reach_m")).items()


def test_003_s_listing_says_it_reads_arm_s_reach_though_co_range_3_is_off(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """reviewcoc74b NIT 4: `coc defaults --profile 003` lists CO-RANGE-3.reach_m beside
    CO-RANGE-3's p003 "off"; its note says 003 reads it off the board (CO-FIRE-5,
    CO-MELEE-1)."""
    rows = {(r["rule"], r["key"]): r
            for r in run(capsys, "defaults", "--profile", "003")["defaults"]}
    assert rows["CO-RANGE-3", "p003"]["value"] == "off"
    assert rows["CO-RANGE-3", "reach_m"]["note"].endswith(
        "003 reads it too, off the board, for adjacent 隣接 (CO-FIRE-5) and a blow "
        "(CO-MELEE-1), though its CO-RANGE-3 is off")
