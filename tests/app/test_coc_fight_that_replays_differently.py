"""A fight file that is JSON but whose entry replays differently (a die fixed by hand in the
file, a damaged card) names the first line that differs, as saved and as now, and the way
out every verb gave only for a file that is not JSON: `fight new … --force`, which keeps it
aside (a77cocgrapple RISK 4: every verb said only "journal entry 2 (grapple) replays
differently")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.coc_command_helpers import CHARACTERISTICS


def test_an_entry_that_replays_differently_names_its_line_and_the_way_out(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheets = []
    for name, dex, body in (("Ann", 14, 'grapple = 60\n[[weapons]]\nkey = "fist"\n'),
                            ("Cult", 10, 'fist = 50\n[[weapons]]\nkey = "fist"\n')):
        path = tmp_path / f"{name.lower()}.toml"
        path.write_text(CHARACTERISTICS.format(name=name, dex=dex) + body, encoding="utf-8")
        sheets.append(str(path))
    assert main(["coc", "fight", "new", "--profile", "004", "--investigators", sheets[0],
                 "--foes", sheets[1]]) == 0
    assert main(["coc", "fight", "act", "grapple", "Ann", "Cult", "--seed", "1"]) == 0
    file = user_dirs / "data" / "coc" / "fight.json"
    data = json.loads(file.read_text(encoding="utf-8"))
    (entry,) = data["journal"]
    (sides, rolled), = entry["dice"]
    typed = 90 if rolled <= 60 else 40  # the other outcome: held, or not
    entry["dice"] = [[sides, typed]]
    file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()
    for verb in ("show", "log", "undo"):
        assert main(["coc", "fight", verb]) == 2
        err = capsys.readouterr().err
        assert "journal entry 1 (grapple) replays differently: line 1 saved " \
               f'"Ann 組み付き/Grapple (1D100<=60) ＞ {rolled} ＞' in err, err
        assert f'now "Ann 組み付き/Grapple (1D100<=60) ＞ {typed} ＞' in err
        assert "it cannot be played on: `companion coc fight new --investigators SHEET.toml " \
               "--foes SHEET.toml --force` starts a new fight, keeping this file as " \
               "fight.json.corrupt-…" in err, err
