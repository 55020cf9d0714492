"""`coc fight act choke Ann Cult` and `act let_go Ann Cult`: the refusal says a choke and a
letting go are of the one Ann holds, and how to write them, with the rule
(a77cocgrapple NIT 7: it said "the choke action has no 'target' (its fields: actor,
skill)")."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from tests.app.coc_command_helpers import CHARACTERISTICS


@pytest.mark.parametrize(("verb", "rule", "what"),
                         [("choke", "CO-GRAP-7", "a choke"),
                          ("let_go", "the reading CO-GRAP-1 (let go)", "letting go")])
def test_choke_and_let_go_say_they_take_no_target_004(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str], verb: str,
        rule: str, what: str) -> None:
    sheets = []
    for name, dex, body in (("Ann", 14, 'grapple = 60\n[[weapons]]\nkey = "fist"\n'),
                            ("Cult", 10, 'fist = 50\n[[weapons]]\nkey = "fist"\n')):
        path = tmp_path / f"{name.lower()}.toml"
        path.write_text(CHARACTERISTICS.format(name=name, dex=dex) + body, encoding="utf-8")
        sheets.append(str(path))
    assert main(["coc", "fight", "new", "--profile", "004", "--investigators", sheets[0],
                 "--foes", sheets[1]]) == 0
    capsys.readouterr()
    assert main(["coc", "fight", "act", verb, "Ann", "Cult"]) == 2
    # r77coc NIT: "it is of the one Ann holds (nobody now): `act choke Ann`" read awkwardly,
    # and named a command refused in turn
    assert capsys.readouterr().err == (
        f"companion: error: {verb} takes no TARGET, and Ann holds nobody now: {what} is of "
        f"the one held ({rule})\n")
    # r77coc: an ACTOR not in the fight was told to write `act choke Zed`
    assert main(["coc", "fight", "act", verb, "Zed", "Cult"]) == 2
    assert capsys.readouterr().err == ("companion: error: nobody called 'Zed' is in the fight; "
                                       "in it: Ann, Cult\n")
    # seed 1 rolls 18 on the Grapple 60: Ann restrains Cult
    assert main(["coc", "fight", "act", "grapple", "Ann", "Cult", "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["coc", "fight", "act", verb, "Ann", "Cult"]) == 2
    assert (f"{verb} takes no TARGET: it is of the one Ann holds (Cult): `act {verb} Ann` "
            f"({rule})") in capsys.readouterr().err
