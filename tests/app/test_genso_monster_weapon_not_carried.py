"""r78genso2: `fight attack --weapon` naming a weapon of the tables that a monster does not
carry is refused as one it carries not (its table gives its weapons), not with ea0ab669's
"did not carry … into this fight … as `fight new` copied them from their sheets, so one
bought or readied since strikes from the next fight", which is a PC's: a monster has no sheet
and buys nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main


def test_a_monster_given_a_weapon_it_has_not_is_told_what_it_carries(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"]) == 0
    assert main(["genso", "fight", "wait", "pc1"]) == 0
    capsys.readouterr()
    assert main(["genso", "fight", "attack", "orc", "pc1", "--weapon", "sword"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert ("--weapon sword: オーク carries no such weapon (carried: 0 棍棒/Club (attack))"
            in err), err
    assert "sheets" not in err and "bought" not in err
