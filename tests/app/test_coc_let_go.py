"""Letting go 手を放す (the Default "CO-GRAP-1 (let go)", grapple73 finding 3, engine revision
21): ``companion coc fight act let_go`` and the table's action menu. The seeds end a hold only
by the held one's STR, a throw or death, so a holder was bound to an unconscious foe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.systems.coc.combat import EndTurn, Grapple, LetGo
from companion.systems.coc.rules import Profile
from tests.app.coc_command_helpers import CHARACTERISTICS
from tests.app.coc_table_helpers import FOE, INV, at_the_table, offered, people


def test_the_table_offers_the_holder_let_go_and_its_turn_goes_on(tmp_path: Path) -> None:
    make = people(Profile.P004, ("Ann", 14, ("fist",), INV, {"grapple": 90}),
                  ("Cult", 10, ("fist",), FOE, {"fist": 50}))
    _, player = at_the_table(tmp_path, make, [(Grapple("Ann", "Cult"), [10]),
                                              (EndTurn("Cult"), [])],
                             ["let_go"], [LetGo("Ann")])
    first, then = offered(player, "Ann: what now?")
    assert "let_go" in first and "let_go" not in then and "attack" in then


def test_the_table_offers_no_let_go_to_one_holding_nobody(tmp_path: Path) -> None:
    make = people(Profile.P004, ("Ann", 14, ("fist",), INV, {"grapple": 90}),
                  ("Cult", 10, ("fist",), FOE, {"fist": 50}))
    _, player = at_the_table(tmp_path, make, [], [], [])
    assert "let_go" not in offered(player, "Ann: what now?")[0]


def test_act_let_go(tmp_path: Path, user_dirs: Path,
                    capsys: pytest.CaptureFixture[str]) -> None:
    sheets = []
    for name, dex, skills in (("Ann", 14, "grapple = 90"), ("Cult", 10, "fist = 50")):
        path = tmp_path / f"{name.lower()}.toml"
        path.write_text(CHARACTERISTICS.format(name=name, dex=dex) + skills + "\n"
                        '[[weapons]]\nkey = "fist"\n', encoding="utf-8")
        sheets.append(str(path))
    assert main(["coc", "fight", "new", "--profile", "004", "--investigators", sheets[0],
                 "--foes", sheets[1]]) == 0
    assert main(["coc", "fight", "act", "let_go", "Ann"]) == 2
    assert "Ann holds nobody to let go of (CO-GRAP-6)" in capsys.readouterr().err  # 004
    assert main(["coc", "fight", "act", "grapple", "Ann", "Cult", "--seed", "3"]) == 0
    assert main(["coc", "fight", "act", "end_turn", "Cult"]) == 0
    capsys.readouterr()
    assert main(["coc", "fight", "act", "let_go", "Ann"]) == 0
    assert "Ann lets go of Cult 手を放す" in capsys.readouterr().out
    assert main(["coc", "fight", "show", "--json"]) == 0
    shown = {c["name"]: c for c in json.loads(capsys.readouterr().out)["combatants"]}
    assert shown["Cult"]["held_by"] == "" and shown["Ann"]["grappling"] == ""
