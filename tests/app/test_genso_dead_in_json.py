"""fixgenso71, reviewg70 NIT H: the deaths the calendar keeps were ``dead`` in `genso calendar
--json` and ``died`` in `genso sheet --json`, where the calendar's ``died`` is the deaths
that very command told. Both commands now give the kept deaths as ``dead``.
"""

from __future__ import annotations

import json

import pytest

from tests.app.genso_death_curse_helpers import PC1, genso, pc1_dies


def test_the_kept_deaths_are_dead_in_every_commands_json(
        user_dirs: object, capsys: pytest.CaptureFixture[str]) -> None:
    pc1_dies(capsys)
    calendar = json.loads(genso(capsys, "calendar", "--json"))
    sheet = json.loads(genso(capsys, "sheet", "pc1", "--json"))
    kept = [{"target": PC1, "caster": "Mio", "cast_on": 1, "dies_on": 367, "days_left": None,
             "died_on": 367}]
    assert calendar["dead"] == sheet["dead"] == kept
    assert "died" not in sheet and sheet["condition"] == "dead"
    # The calendar's ``died`` is what this command told: the death was told by `pass`.
    assert calendar["died"] == []
    # A sheet the calendar records no death for has it empty.
    assert json.loads(genso(capsys, "sheet", "pc2", "--json"))["dead"] == []
