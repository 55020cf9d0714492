"""``companion genso defaults``, ``coc defaults`` and ``events defaults``: each Default is
listed with its range beside it where it has one (``[limits]`` in the system's data), in
the text and as "range" in the ``--json`` rows (left out of a row without one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main


def _rows(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[tuple[str, str], Any]:
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    return {(r["rule"], r["key"]): r for r in json.loads(capsys.readouterr().out)["defaults"]}


def _lines(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(list(argv)) == 0, capsys.readouterr().err
    return capsys.readouterr().out.splitlines()


def test_genso_lists_each_range_beside_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    """GM-CHECK-6 "8 to 20", GM-COMBAT-8 "1 or less"; GM-COMBAT-8.strict_4_6 has none."""
    lines = _lines(capsys, "genso", "defaults")
    assert ("GM-CHECK-6   difficulty                       12  (default)  range: from 8 to 20"
            in lines)
    assert "GM-COMBAT-8  strict_4_6                       false  (default)" in lines
    rows = _rows(capsys, "genso", "defaults", "--set", "GM-COMBAT-8.pc_death_below=0")
    assert rows["GM-COMBAT-8", "pc_death_below"] == {
        "rule": "GM-COMBAT-8", "key": "pc_death_below", "value": 0, "default": False,
        "range": "1 or less"}
    assert "range" not in rows["GM-COMBAT-8", "strict_4_6"]


def test_coc_lists_each_range_beside_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    """CO-CORE-1's fumble range is above the critical range as it is now; a profile cell
    (CO-CORE-2) and a Default without a range have none."""
    lines = _lines(capsys, "coc", "defaults")
    assert ("CO-CORE-1    fumble_from_004              96 (default)  range: from 1 to 101 and "
            "above 5 (CO-CORE-1.critical_max_004)") in lines
    assert ("CO-BASE-8    wake_hp                      3 (default)  range: above 2 "
            "(CO-BASE-8.unconscious_max)") in lines
    assert "CO-DEATH-2   lenient                      false (default)" in lines
    lines = _lines(capsys, "coc", "defaults", "--set", "CO-CORE-1.critical_max_004=10",
                   "--set", "CO-CORE-1.fumble_from_004=99")
    assert ("CO-CORE-1    fumble_from_004              99  (set by you)  range: from 1 to 101 and "
            "above 10 (CO-CORE-1.critical_max_004)") in lines
    rows = _rows(capsys, "coc", "defaults")
    assert rows["CO-SURP-3", "hidden_penalty"]["range"] == "from -50 to -10"
    assert "range" not in rows["CO-FIRE-9", "p003"]
    assert "range" not in rows["CO-DEATH-2", "lenient"]


def test_events_lists_each_range_beside_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    """EV-CORE-1's DM level "from 1 to 100" (capped by fixev70c); EV-DOOR-3.enabled has none."""
    lines = _lines(capsys, "events", "defaults", "--set", "EV-POI-2.hours_per_tick=2")
    assert "EV-CORE-1  dm_level                 1  (default)  range: from 1 to 100" in lines
    assert "EV-POI-2   hours_per_tick           2  (set by you)  range: 1 or more" in lines
    assert "EV-DOOR-3  enabled                  false  (default)" in lines
    rows = _rows(capsys, "events", "defaults")
    assert rows["EV-DOOR-4", "retries"] == {
        "rule": "EV-DOOR-4", "key": "retries", "value": 0, "default": True,
        "range": "from 0 to 100"}
    assert "range" not in rows["EV-DOOR-3", "enabled"]


@pytest.mark.parametrize(("system", "file", "rule", "key"), [
    ("events", "events.toml", "EV-DOOR-3", "enabled"),
    ("genso", "genso.toml", "GM-COMBAT-8", "strict_4_6"),
    ("coc", "coc.toml", "CO-BASE-7", "parries_per_round"),
])
def test_a_listing_ends_with_how_to_change_a_default_and_that_works(
    user_dirs: Path, capsys: pytest.CaptureFixture[str], system: str, file: str, rule: str,
    key: str,
) -> None:
    """The docs named events.toml, genso.toml and coc.toml but not where they go nor their
    shape: the listing ends with both (and --set), and the file as shown sets the Default."""
    lines = _lines(capsys, system, "defaults")
    where = user_dirs / "config" / file
    assert lines[-4] == f"Change one for every run in {where}:"
    assert lines[-3] == f'  [defaults."{rule}"]'
    assert lines[-1].startswith(f"or for one run: --set {rule}.{key}=")
    where.parent.mkdir(parents=True, exist_ok=True)
    where.write_text("\n".join(line.strip() for line in lines[-3:-1]) + "\n", encoding="utf-8")
    assert _rows(capsys, system, "defaults")[rule, key]["default"] is False
