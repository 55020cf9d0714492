"""A coc fight file's unknown keys (a hand-edited slip: ``"hp"`` beside an entrant's
``"sheet"``, ``"dices"`` in a journal entry, ``"CO-NOPE-1": {}`` among the settings) are
refused by name with the near one offered, as genso's are (58eda2b); each was dropped unsaid
and lost at the next write. Every file the companion wrote, of either format, still loads."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

import pytest

from companion.errors import DataError
from companion.systems.coc.combat import Attack, Fight
from companion.systems.coc.rules import Profile, load_rules
from tests.systems.coc.helpers import duel, push

P003 = Profile.P003
FIXTURES = ("fight_format1.json", "fight_grapples_rev6.json", "fight_grapples_rev7.json",
            "fight_grapples_rev7_board.json")


def played(legacy: bool = False) -> dict[str, Any]:
    """A fight file with a blow in its journal, as the companion writes it."""
    f = duel(P003, {"fist": 60}, settings={"CO-DEATH-1": {"dead_below": -3}}, legacy=legacy)
    push(f, Attack("Ann", "Cult", weapon=0), (100, 90))
    data: dict[str, Any] = json.loads(json.dumps(f.to_json()))
    return data


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((files("tests.systems.coc") / "data" / name)
                                      .read_text(encoding="utf-8"))
    return data


def test_an_unknown_entrant_field_is_refused_by_name() -> None:
    data = played()
    data["entrants"][1]["hp"] = 3
    with pytest.raises(DataError, match=r"^entrant 2: unknown field 'hp'$"):
        Fight.from_json(load_rules(), data)
    data = played()
    data["entrants"][0]["Side"] = data["entrants"][0].pop("side")
    with pytest.raises(DataError,
                       match=r"^entrant 1: unknown field 'Side' \(did you mean 'side'\?\)$"):
        Fight.from_json(load_rules(), data)


def test_an_unknown_key_at_the_top_is_refused_by_name() -> None:
    data = played()
    data["jornal"] = data["journal"]
    with pytest.raises(DataError, match=r"^not a saved coc fight: unknown key 'jornal' "
                                        r"\(did you mean 'journal'\?\)$"):
        Fight.from_json(load_rules(), data)


def test_an_unknown_key_in_a_journal_entry_is_refused_by_name() -> None:
    data = played()
    data["journal"][0]["dices"] = data["journal"][0]["dice"]
    with pytest.raises(DataError, match=r"^journal entry 1: unknown key 'dices' "
                                        r"\(did you mean 'dice'\?\)$"):
        Fight.from_json(load_rules(), data)


@pytest.mark.parametrize(("rule", "said"), [
    ("CO-NOPE-1", r"unknown rule 'CO-NOPE-1'"),
    ("CO-DETH-1", r"unknown rule 'CO-DETH-1' \(did you mean 'CO-DEATH-1'\?\)$")])
def test_an_unknown_rule_among_the_settings_is_refused_even_empty(rule: str, said: str) -> None:
    """An empty table names a rule only through its ID: the settings check, which reads the
    keys in it, let it pass."""
    data = played()
    data["settings"][rule] = {}
    with pytest.raises(DataError, match=r"^the fight's settings: " + said):
        Fight.from_json(load_rules(), data)


@pytest.mark.parametrize("name", FIXTURES)
def test_every_saved_fight_still_loads_and_so_does_its_rewrite(name: str) -> None:
    data = fixture(name)
    fight = Fight.from_json(load_rules(), data)
    again = json.loads(json.dumps(fight.to_json()))
    assert Fight.from_json(load_rules(), again).to_json() == again


@pytest.mark.parametrize("legacy", [False, True])
def test_what_the_companion_writes_now_loads_with_every_key(legacy: bool) -> None:
    """Settings, an entry's own engine and a format-1 opening's opening_engine included."""
    data = played(legacy)
    assert set(data["settings"]) == {"CO-DEATH-1"}
    if legacy:
        assert data["opening_engine"] == 1 and data["journal"][0]["engine"] == 1
    assert Fight.from_json(load_rules(), data).to_json() == data
