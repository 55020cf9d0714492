"""A dice models folder the player named (a script's --models) that is missing its models is
told to check that path, not to reinstall the companion, whose own models are fine
(r78tilecam, after a78tilecam DEFECT 3); the companion's own folder keeps the reinstall hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import DataError
from companion.hw.dice.networks import DiceNetworks


def test_a_named_folder_without_the_models_is_told_to_check_its_path(tmp_path: Path) -> None:
    with pytest.raises(DataError) as err:
        DiceNetworks(tmp_path)
    assert str(err.value) == (
        f"{tmp_path / DiceNetworks.FINDER}: the dice finder model is missing; check --models' "
        "path (a folder holding dice_finder.onnx and dice_judge.onnx), or retrain with "
        "scripts/train_dice_reader.py")
