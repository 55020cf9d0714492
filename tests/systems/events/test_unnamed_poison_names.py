"""An unnamed poison is tracked as ``victim``, ``victim 2``, …: never in place of the poison
of a character named Victim in another case or width (review62a E1). A named poison
replaces the one tracked under its name but for case and width (events62 D1), so the
unnamed's name is chosen by the same folding. Driven through the CLI against the real
events table and poison file."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.poisons import PoisonList, poisons_path


def _tracked() -> list[str]:
    return list(PoisonList(poisons_path()).poisons)


@pytest.mark.parametrize("named", ["VICTIM", "Victim", "ｖｉｃｔｉｍ"])
def test_an_unnamed_poison_is_kept_beside_a_character_named_victim(
        named: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``poison --who VICTIM`` then ``poison`` (nobody named): both tracked, the second as
    victim 2. It replaced VICTIM's: "The new poison replaces VICTIM's 異性化/Gender swap"."""
    assert main(["events", "poison", "--who", named, "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["events", "poison", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "replaces" not in out
    assert "Tracking victim 2's poison" in out
    assert _tracked() == [named, "victim 2"]
    assert main(["events", "cure", "--who", "victim 2"]) == 0
    assert _tracked() == [named]


def test_unnamed_poisons_take_the_first_name_no_character_has_but_for_case(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["events", "poison", "--who", "Victim", "--seed", "1"]) == 0
    assert main(["events", "poison", "--who", "VICTIM ２", "--seed", "1"]) == 0
    assert main(["events", "poison", "--seed", "2"]) == 0
    assert main(["events", "poison", "--seed", "3"]) == 0
    capsys.readouterr()
    assert _tracked() == ["Victim", "VICTIM ２", "victim 3", "victim 4"]


def test_an_unnamed_poison_with_no_victim_tracked_is_victim(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["events", "poison", "--who", "Aki", "--seed", "1"]) == 0
    assert main(["events", "poison", "--seed", "2"]) == 0
    capsys.readouterr()
    assert _tracked() == ["Aki", "victim"]
