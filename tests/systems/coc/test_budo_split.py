"""CO-DISARM-1 / CO-GRAP-6 / CO-PARRY-2 (004): the seed's two Budo skills. Standing
techniques waive the disarm penalty (l.47 「武道(立ち技)orマーシャルアーツ」又は「組みつき」),
grappling ones choke and throw (l.165 「もう一度武道（組技系）を使用」), either parries (l.20
「MAや武道」). An older sheet's single ``budo`` counts as both, as it always played."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Attack, Choke, Defence, Grapple
from companion.systems.coc.rules import Profile
from tests.app.coc_command_helpers import CHARACTERISTICS
from tests.systems.coc.helpers import duel, pass_to, push, replays

KNIFE: dict[str, Any] = {"weapons": ("knife",)}


def disarm(**budo: int) -> str:
    f = duel(Profile.P004, {"weapons": ("fist",), "fist": 60, **budo}, KNIFE)
    return push(f, Attack("Ann", "Cult", disarm=True, disarm_weapon=0), (100, 50))


def test_only_standing_budo_waives_the_disarm_penalty() -> None:
    assert "(disarm with Budo (standing): no penalty, CO-DISARM-1)" in disarm(budo_standing=50)
    grappling = disarm(budo_grappling=50)
    assert "no penalty" not in grappling and "-40 (disarm, CO-DISARM-1) = 20" in grappling
    assert "(disarm with Budo: no penalty, CO-DISARM-1)" in disarm(budo=50)  # an older sheet


def held(**budo: int) -> Any:
    f = duel(Profile.P004, {"grapple": 90, **budo}, {})
    push(f, Grapple("Ann", "Cult"), (100, 10))
    pass_to(f, "Cult")
    pass_to(f, "Ann")
    return f


def test_choke_and_throw_roll_grappling_budo_not_standing() -> None:
    with pytest.raises(IllegalAction, match=r"Ann's sheet has no budo_grappling "
                                            r"\(武道（組技系）\) \(CO-GRAP-6\)"):
        held(budo_standing=80).push(Choke("Ann", skill="budo_grappling"), ScriptedDice([]))
    f = held(budo_grappling=80)
    text = push(f, Choke("Ann", skill="budo_grappling"), (100, 70), (6, 2), (4, 1))
    assert "Ann 武道（組技系）/Budo (grappling) (1D100<=80) ＞ 70" in text
    g = held(budo=80)  # an older sheet's Budo chokes, under its own name, as it did
    text = push(g, Choke("Ann", skill="budo_grappling"), (100, 70), (6, 2), (4, 1))
    assert "Ann 武道/Budo (1D100<=80) ＞ 70" in text
    replays(g)


@pytest.mark.parametrize("budo, rolled", [
    ({"budo_standing": 70}, "武道（立ち技）/Budo (standing) (1D100<=70)"),
    ({"budo_grappling": 70}, "武道（組技系）/Budo (grappling) (1D100<=70)"),
    ({"budo_standing": 40, "budo_grappling": 70}, "武道（組技系）/Budo (grappling) (1D100<=70)"),
    ({"budo": 70}, "武道/Budo (1D100<=70)"),
])
def test_either_budo_parries_the_better_one(budo: dict[str, int], rolled: str) -> None:
    f = duel(Profile.P004, {"weapons": ("fist",), "fist": 60}, budo)
    text = push(f, Attack("Ann", "Cult", defence=Defence.PARRY, parry_with="budo"),
                (100, 30), (3, 2), (4, 1), (100, 20))
    assert f"Cult 受け流し/parry {rolled} ＞ 20" in text


SHEET = CHARACTERISTICS + """{skills}
[[weapons]]
key = "fist"
"""


def test_an_older_sheets_budo_loads_with_a_note_saying_what_to_write(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ann, cult = tmp_path / "ann.toml", tmp_path / "cult.toml"
    ann.write_text(SHEET.format(name="Ann", dex=14, skills="budo = 50"), encoding="utf-8")
    cult.write_text(SHEET.format(name="Cult", dex=10, skills=""), encoding="utf-8")
    assert main(["coc", "fight", "new", "--profile", "004", "--investigators", str(ann),
                 "--foes", str(cult)]) == 0
    err = capsys.readouterr().err
    assert (f"companion: note: {ann}: [skills] budo = 50 is read as both Budo skills, "
            "standing (CO-DISARM-1) and grappling (CO-GRAP-6); write the one the character "
            "has: budo_standing (武道（立ち技）) or budo_grappling (武道（組技系）), or both"
            ) in err
    assert str(cult) not in err
    assert main(["coc", "fight", "show"]) == 0
    assert "read as both" not in capsys.readouterr().err  # once: the fight keeps its copy
    ann.write_text(SHEET.format(name="Ann", dex=14, skills="budo_standing = 50"),
                   encoding="utf-8")
    assert main(["coc", "fight", "new", "--force", "--profile", "004", "--investigators",
                 str(ann), "--foes", str(cult)]) == 0
    assert "read as both" not in capsys.readouterr().err
