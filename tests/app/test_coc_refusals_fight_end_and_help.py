"""The coc command line: a refused dodge, `fight end`, names, the log's column and the help.

cli59 (the dice systems from a new user's seat), the coc command line: a refused dodge
says why (F1), ``coc fight end`` and ``fight new`` over a fight that is over (F2), help with
a description and an example (F5), ``--profile`` where it goes (F8), a name not in the fight
with those that are (F11) and the log's rule column one width (F11)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.systems.coc.combat import action_from_json
from tests.app.coc_command_helpers import sheets

#: The sheets a `coc fight new` hint names (f77carry item 4).
SHEETS = " --investigators SHEET.toml --foes SHEET.toml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["coc", *argv, "--json"]) == 0, capsys.readouterr().err
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def on_the_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """003: Ann on d3, at the back of Cult on d4 facing north (CO-TURN-2)."""
    ann, cult = sheets(tmp_path)
    saved = Path(run(capsys, "fight", "new", "--investigators", ann, "--foes", cult,
                     "--seed", "1")["path"])
    run(capsys, "fight", "act", "place", "Ann", "--with", "square=d3")
    run(capsys, "fight", "act", "place", "Cult", "--with", "square=d4")
    return saved


def test_a_dodge_refused_from_behind_says_why(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """F1: the board puts Ann behind Cult: the dodge is refused naming the cause and
    CO-DODGE-3, nothing saved; the attack played undodged says "from behind", in its
    result and in the log."""
    saved = on_the_board(tmp_path, capsys)
    before = saved.read_bytes()
    assert main(["coc", "fight", "act", "attack", "Ann", "Cult", "--with",
                 "defence=dodge"]) == 2
    assert ("Cult cannot dodge now: Ann attacks from behind and Cult is not concentrating "
            "on dodging (CO-DODGE-3)") in capsys.readouterr().err
    assert saved.read_bytes() == before
    assert main(["coc", "fight", "act", "attack", "Ann", "Cult", "--seed", "3"]) == 0
    said = "Ann on d3 is behind Cult on d4 facing N: from behind (CO-DODGE-3)"
    assert said in capsys.readouterr().out
    assert main(["coc", "fight", "log"]) == 0
    assert said in capsys.readouterr().out


def test_the_keeper_ends_a_fight_from_the_command_line(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """F2: ``coc fight end`` ends a fight nobody won: saved, shown over, no action after it,
    taken back by ``fight undo`` as any action."""
    ann, cult = sheets(tmp_path)
    run(capsys, "fight", "new", "--investigators", ann, "--foes", cult, "--seed", "1")
    ended = run(capsys, "fight", "end")
    assert ended["over"] is True and ended["outcome"] is None and ended["current"] is None
    assert ended["entry"]["action"] == {"kind": "end", "actor": ""}
    assert main(["coc", "fight", "show"]) == 0
    assert "over: ended by the Keeper" in capsys.readouterr().out
    assert main(["coc", "fight", "act", "end_turn", "Ann"]) == 2
    assert "the fight is over" in capsys.readouterr().err
    undone = run(capsys, "fight", "undo")
    assert undone["over"] is False and undone["current"] == "Ann"
    assert undone["undone"]["action"]["kind"] == "end"


def test_a_keepers_event_after_the_end_says_what_to_do_and_the_help_says_when(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """a76cocother NIT 5: the help said a Keeper's event comes "at any moment"; after the
    fight's end it was refused with a bare "the fight is over". The help says "while the
    fight is on", and the refusal says why and, after the Keeper's end, how to reopen it."""
    with pytest.raises(SystemExit):
        main(["coc", "fight", "act", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "san_loss, at any moment while the fight is on)" in said
    ann, cult = sheets(tmp_path)
    run(capsys, "fight", "new", "--investigators", ann, "--foes", cult, "--seed", "1")
    run(capsys, "fight", "end")
    assert main(["coc", "fight", "act", "san_loss", "Ann", "--with", "amount=3"]) == 2
    err = capsys.readouterr().err
    assert ("the fight is over: a Keeper's event (san_loss) is played only while it is on; "
            "`companion coc fight undo` takes back the Keeper's end") in err
    assert main(["coc", "fight", "act", "end_turn", "Ann"]) == 2
    assert "the fight is over: no action after it; `companion coc fight undo`" in (
        capsys.readouterr().err)


def test_the_hints_of_a_fight_at_another_file_name_that_file(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """r76coc D1: the commands the refusals name for a fight saved at ``--file PATH`` carry
    ``--file PATH``; the end's `coc fight undo` named none, and followed it undid the
    default fight's last action, leaving this one ended. The default fight's hints name
    none (the tests above)."""
    ann, cult = sheets(tmp_path)
    run(capsys, "fight", "new", "--investigators", ann, "--foes", cult, "--seed", "1")
    run(capsys, "fight", "act", "place", "Ann", "--with", "square=e2")  # the default fight's
    other = tmp_path / "the other fight.json"
    on = f" --file {shlex.quote(str(other))}"
    assert main(["coc", "fight", "show", "--file", str(other)]) == 2
    assert f"start one with `companion coc fight new{SHEETS}{on}`" in capsys.readouterr().err
    new = ("fight", "new", "--investigators", ann, "--foes", cult, "--seed", "1",
           "--file", str(other))
    run(capsys, *new)
    assert main(["coc", *new]) == 2
    assert f"or end it first with `companion coc fight end{on}`" in capsys.readouterr().err
    run(capsys, "fight", "end", "--file", str(other))
    assert main(["coc", "fight", "end", "--file", str(other)]) == 2
    assert f"(`companion coc fight new{SHEETS}{on}` starts the next one, with no --force)" in (
        capsys.readouterr().err)
    assert main(["coc", "fight", "act", "san_loss", "Ann", "--with", "amount=3",
                 "--file", str(other)]) == 2
    told = re.search(r"`companion (coc fight undo[^`]*)` takes back the Keeper's end",
                     capsys.readouterr().err)
    assert told is not None and told[1] == f"coc fight undo{on}"
    undone = run(capsys, *shlex.split(told[1])[1:])  # as told
    assert undone["undone"]["action"]["kind"] == "end" and undone["over"] is False
    shown = run(capsys, "fight", "show")
    assert shown["actions"] == 1 and shown["combatants"][0]["square"] == "e2"


def test_the_reworded_note_of_an_old_fight_at_another_file_names_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """r76fb RISK 1: an old-format fight at --file PATH whose entries now read differently
    said "(`coc fight log` shows the replay)", which showed the default fight's log, or
    "no fight at …/coc/fight.json": the command names the file, as it runs."""
    from companion.systems.coc.combat import Attack, Defence, Fight
    from companion.systems.coc.rules import Profile, load_rules
    from tests.systems.coc.helpers import duel, push

    fight = duel(Profile.P003, {"fist": 60}, {"weapons": ("knife",), "knife": 50})
    push(fight, Attack("Ann", "Cult", defence=Defence.PARRY), (100, 20), (3, 2), (4, 1),
         (100, 80))
    data = json.loads(json.dumps(fight.to_json()))
    del data["format"]
    lines = data["journal"][0]["lines"]
    lines[lines.index("damage (1D3+1D4) ＞ 2[2]+1[1]=3 = 3")] = \
        "3 damage gets through the parry"  # the old wording
    assert Fight.from_json(load_rules(), json.loads(json.dumps(data))).reworded == [1]
    path = tmp_path / "old f.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["coc", "fight", "show", "--file", str(path)]) == 0
    said = re.search(r"\(`([^`]*)` shows the replay\)", capsys.readouterr().err)
    assert said is not None and said.group(1).endswith(
        f"coc fight log --file {shlex.quote(str(path))}")
    assert main(shlex.split(said.group(1))[1:]) == 0
    assert "Cult" in capsys.readouterr().out


def test_fight_new_writes_over_a_fight_that_is_over_without_force(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """F2: over a fight under way ``fight new`` is refused without --force (saying
    ``fight end`` too), and --force keeps it as .replaced-…; over one that is over it needs
    no --force and keeps no copy."""
    ann, cult = sheets(tmp_path)
    new = ("fight", "new", "--investigators", ann, "--foes", cult, "--seed", "1")
    saved = Path(run(capsys, *new)["path"])
    assert main(["coc", *new]) == 2
    assert "or end it first with `companion coc fight end`" in capsys.readouterr().err
    run(capsys, "fight", "end")
    assert main(["coc", *new, "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["over"] is False and json.loads(out)["actions"] == 0
    assert "was over; the new one is saved over it" in err
    assert sorted(p.name for p in saved.parent.iterdir()
                  if p.name.startswith("fight.json")) == ["fight.json"]
    run(capsys, *new, "--force")
    assert [p.name for p in saved.parent.iterdir() if ".replaced-" in p.name]


def test_a_name_not_in_the_fight_offers_the_near_one_and_lists_who_is(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """F11: a typo in ACTOR or TARGET names who is in the fight and the near name."""
    ann, cult = sheets(tmp_path)
    run(capsys, "fight", "new", "--investigators", ann, "--foes", cult, "--seed", "1")
    assert main(["coc", "fight", "act", "attack", "Ann", "Clut"]) == 2
    assert ("nobody called 'Clut' is in the fight (did you mean 'Cult'?); in it: Ann, Cult"
            in capsys.readouterr().err)
    assert main(["coc", "fight", "act", "end_turn", "Zed"]) == 2
    assert "nobody called 'Zed' is in the fight; in it: Ann, Cult" in capsys.readouterr().err


def test_the_log_s_rule_column_is_one_width(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """F11: every line of ``fight log`` and of an action's result has its text at one
    column, whether it names its rule (CO-TURN-3), has CO-CORE-1 beside it or none (a turn
    ended)."""
    ann, cult = sheets(tmp_path)
    run(capsys, "fight", "new", "--investigators", ann, "--foes", cult, "--seed", "1")
    assert main(["coc", "fight", "act", "attack", "Ann", "Cult", "--seed", "2"]) == 0
    capsys.readouterr()
    assert main(["coc", "fight", "act", "end_turn", "Ann"]) == 0
    ended = capsys.readouterr().out.splitlines()[0]
    assert ended == " " * 13 + "Ann ends the turn"
    assert main(["coc", "fight", "log"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert any(line.startswith("CO-CORE-1    ") for line in lines)
    for line in lines:
        assert line[11:13] == "  " and line[13] != " ", line


@pytest.mark.parametrize("argv", [[], ["roll"], ["defaults"], ["fight"], ["fight", "act"]])
def test_each_coc_help_has_a_description_and_an_example(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """F5: `coc`, `coc roll|defaults|fight` and `coc fight act` say what they do and give
    examples; act's KIND, ACTOR and TARGET have help."""
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit):
        main(["coc", *argv, "--help"])
    text = capsys.readouterr().out
    usage, description = text.split("\n\n")[:2]
    assert usage.startswith("usage: companion coc") and not description.startswith(
        ("positional", "options"))
    examples = text.split("examples:\n")[1].splitlines()
    assert examples and all(line.startswith(f"  companion coc {' '.join(argv)}".rstrip())
                            for line in examples)
    if argv == ["fight", "act"]:
        for positional, said in (("KIND", "the action, one of: attack,"),
                                 ("ACTOR", "who acts, by name"),
                                 ("TARGET", "whom the action is aimed at")):
            assert any(line.split() and line.split()[0] == positional and said in line
                       for line in text.splitlines()), positional


def test_every_act_example_in_the_help_is_an_action_the_command_takes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """F5: the examples name real action kinds and fields."""
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit):
        main(["coc", "fight", "act", "--help"])
    for line in capsys.readouterr().out.split("examples:\n")[1].splitlines():
        words = line.split()[4:]
        raw: dict[str, Any] = {"kind": words[0], "actor": words[1]}
        rest = words[2:]
        if rest and not rest[0].startswith("--"):
            raw["target"] = rest.pop(0)
        for key, value in (w.split("=") for w in rest if w != "--with"):
            raw[key] = {"true": True}.get(value, int(value) if value.isdigit() else value)
        action_from_json(raw)


def test_the_readme_puts_profile_where_it_goes(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """F8: the README's coc row put ``--profile`` on ``companion coc``, which refuses it;
    it goes after ``roll``, ``defaults`` and ``fight new``, each of which takes it."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `companion coc"))
    assert "`coc roll\\|defaults\\|fight new … --profile 003\\|004`, after the subcommand" in row
    ann, cult = sheets(tmp_path)
    assert run(capsys, "roll", "CC<=50", "--seed", "1", "--profile", "004")["success"]
    for argv in (["defaults"],
                 ["fight", "new", "--investigators", ann, "--foes", cult, "--seed", "1"]):
        assert run(capsys, *argv, "--profile", "004")["profile"] == "004"


def test_each_fight_new_hint_runs_as_printed_with_its_sheets_put_in(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """f77carry item 4: the `coc fight new --file PATH` the hints name (no fight there, a
    fight over, a damaged file) left out --investigators and --foes, and was refused as typed
    ("the following arguments are required"). Each hint, its SHEET.toml the sheets in turn,
    starts the fight at that file."""
    ann, cult = sheets(tmp_path)
    other = tmp_path / "the other fight.json"

    def hinted(err: str) -> list[str]:
        command = re.search(r"`companion (coc fight new [^`]*)`", err)
        assert command is not None, err
        argv = shlex.split(command.group(1))
        for sheet in (ann, cult):
            argv[argv.index("SHEET.toml")] = sheet
        return argv

    assert main(["coc", "fight", "show", "--file", str(other)]) == 2
    assert main([*hinted(capsys.readouterr().err), "--seed", "1"]) == 0, \
        capsys.readouterr().err
    assert main(["coc", "fight", "end", "--file", str(other)]) == 0
    capsys.readouterr()
    assert main(["coc", "fight", "end", "--file", str(other)]) == 2
    assert main([*hinted(capsys.readouterr().err), "--seed", "2"]) == 0, \
        capsys.readouterr().err
    other.write_bytes(b"")  # cut to nothing (a power cut as it was written)
    assert main(["coc", "fight", "show", "--file", str(other)]) == 2
    assert main(hinted(capsys.readouterr().err)) == 0, capsys.readouterr().err
    assert [p.name for p in tmp_path.glob("the other fight.json.corrupt-*")]
    capsys.readouterr()
    assert run(capsys, "fight", "show", "--file", str(other))["round"] == 1
