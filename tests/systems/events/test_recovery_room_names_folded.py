"""EV-REC-1: a recovery spot works once, whatever case, width or inner spaces its room is
named in (a77events RISK 3: ``--room Hall`` then ``--room hall`` recovered twice)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.events import EXAMPLE_PARTY

RATINGS = "rating,2,3,4,5,6,7,8,9,10,11,12\n5,*,2,2,2,2,2,2,2,2,2,2\n"


@pytest.mark.parametrize(("first", "again"), [("Hall", "hall"), ("room 1", "ｒｏｏｍ  １")])
def test_a_room_named_again_in_another_spelling_is_already_used(
    first: str, again: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ratings = tmp_path / "r.csv"
    ratings.write_text(RATINGS, encoding="utf-8")
    args = ["events", "recovery", "--mode", "sw", "--party", str(EXAMPLE_PARTY),
            "--ratings", str(ratings), "--seed", "1", "--room"]
    assert main([*args, first]) == 0
    assert f"room {first} now used" in capsys.readouterr().out
    assert main(["events", "party", "--party", str(EXAMPLE_PARTY)]) == 0
    after_first = capsys.readouterr().out
    assert main([*args, again]) == 0
    out = capsys.readouterr().out
    assert f"Recovery spot in room {first}: already used, coming back gives nothing" in out
    assert main(["events", "party", "--party", str(EXAMPLE_PARTY)]) == 0
    assert capsys.readouterr().out == after_first  # no HP nor MP kept the second time
    assert main(["events", "rooms"]) == 0
    assert capsys.readouterr().out == f"Recovery spots used in rooms: {first}\n"
