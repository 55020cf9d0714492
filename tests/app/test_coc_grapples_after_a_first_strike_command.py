"""``companion coc fight act`` after a first strike 重火器先制 (CO-FIRE-7): a grapple or tackle
that round is refused, exit 2, naming the first strike (grapple75 DEFECT 1, engine revision
23: 004 l.52 「攻撃回数が1回の武器ならそのラウンドは攻撃できない」), and nothing is kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.coc_command_helpers import CHARACTERISTICS


def test_act_grapple_and_tackle_after_a_first_strike_are_refused(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheets = []
    for name, dex, body in (
            ("Ann", 14, 'smg = 80\ngrapple = 80\ntackle = 60\n[[weapons]]\nkey = "smg"\n'),
            ("Cult", 10, 'fist = 50\n[[weapons]]\nkey = "fist"\n'),
            ("Dan", 8, 'fist = 50\n[[weapons]]\nkey = "fist"\n')):
        path = tmp_path / f"{name.lower()}.toml"
        path.write_text(CHARACTERISTICS.format(name=name, dex=dex) + body, encoding="utf-8")
        sheets.append(str(path))
    assert main(["coc", "fight", "new", "--profile", "004", "--investigators", sheets[0],
                 "--foes", *sheets[1:]]) == 0
    assert main(["coc", "fight", "act", "attack", "Ann", "Dan", "--with", "first_strike=true",
                 "--seed", "1"]) == 0
    capsys.readouterr()
    for verb in ("grapple", "tackle"):
        assert main(["coc", "fight", "act", verb, "Ann", "Cult", "--seed", "1"]) == 2
        err = capsys.readouterr().err
        assert ("Ann struck first 重火器先制 with サブマシンガン/Submachine Gun this round: the "
                "round's attacks left, if any, are that gun's own shots (CO-FIRE-7), so no"
                ) in err, err
    assert main(["coc", "fight", "show", "--json"]) == 0
    shown = {c["name"]: c for c in json.loads(capsys.readouterr().out)["combatants"]}
    assert shown["Ann"]["grappling"] == "" and shown["Cult"]["held_by"] == ""
