"""`companion play --mode coc` on a fight file a newer companion wrote (a later engine
revision, opening revision, entry revision or format): the table says to update this
companion and keeps the file where it is, as every `coc fight` verb does since 15f6dde1
(r77coc RISK on 146ab93d: it said "fight file engine 26 is not one this companion reads (1 to
25)" alone, no way on)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.modes.coc import table_session
from companion.errors import DataError
from companion.systems.coc.combat import ENGINE, FORMAT
from tests.app.coc_table_helpers import CHOICES, SEED, fight_file, play
from tests.app.table import Player

UPDATE = "update this companion (git pull, then bash scripts/install-pi.sh) to carry it on"


@pytest.mark.parametrize(("key", "value"), [("engine", ENGINE + 1),
                                            ("opening_engine", ENGINE + 1),
                                            ("format", FORMAT + 1)])
@pytest.mark.parametrize("resume", [False, True])
def test_the_table_says_update_and_keeps_the_file(tmp_path: Path, key: str, value: int,
                                                  resume: bool) -> None:
    path = fight_file(tmp_path, "004")
    data = json.loads(path.read_text(encoding="utf-8"))
    data[key] = value
    text = json.dumps(data, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as refused:
        table_session(path, tmp_path / "table.json", resume=resume, seed=SEED,
                      choices=Player([]))
    said = str(refused.value)
    assert said.startswith(f"{path.resolve()}: ")
    assert f"{key} {value} is not one this companion reads" in said
    assert said.endswith(f"; it is kept as it is: {UPDATE}")
    assert "--force" not in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.json"]
    assert path.read_text(encoding="utf-8") == text


def test_an_unfinished_table_of_it_writes_nothing_over_it(tmp_path: Path) -> None:
    """An unfinished table of this companion's, of the same fight file, which a newer
    companion has played on since: the table stops, saying to update, and neither the file
    (a newer fight) is kept aside as one that cannot be read and written again from the
    table, nor the table set aside."""
    path = fight_file(tmp_path, "003")
    play(tmp_path, CHOICES[:6])  # Ann's MA kick and her turn's end, then the power goes
    data = json.loads(path.read_text(encoding="utf-8"))
    data["engine"] = ENGINE + 1
    text = json.dumps(data, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    state = (tmp_path / "table.json").read_bytes()
    with pytest.raises(DataError) as refused:
        table_session(path, tmp_path / "table.json", resume=False, seed=SEED,
                      choices=Player([]))
    assert str(refused.value).endswith(f"; it is kept as it is: {UPDATE}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.json", "table.json"]
    assert path.read_text(encoding="utf-8") == text
    assert (tmp_path / "table.json").read_bytes() == state
