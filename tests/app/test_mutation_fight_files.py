"""Tests a mutation round of the fight files found missing (fight_file.py, fight_save.py,
fight_replaced.py, fight.py, genso_fight_files.py): each pins a behaviour a player or GM
would miss, which a small change of the source left every other test passing.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode, table_session, write_fight_file
from companion.dice import SimulatedDice
from companion.errors import DataError
from companion.systems.genso.combat import EndFight, Fight
from tests.app.fight_file_disk_helpers import FOUR_ACTIONS, TiredCard, on_file, saved
from tests.app.fight_new_helpers import NEW
from tests.app.genso_table_helpers import RULES, SEED, fight_file, play, two_actions_then_a_stop
from tests.app.table import Player
from tests.disk import record_writes


def as_a_save_from_before_the_sha(folder: Path, journal_on_file: int) -> None:
    """The stopped table's files as a companion that kept no fight_sha left them after a cut
    between its save and the fight file's write: the file ``journal_on_file`` actions into
    the fight, written before the save (the save is the newer file)."""
    path, state = folder / "fight.json", folder / "table.json"
    on_file = json.loads(path.read_text(encoding="utf-8"))
    on_file["journal"] = on_file["journal"][:journal_on_file]
    write_fight_file(path, Fight.from_json(RULES, on_file))
    saved = json.loads(state.read_text(encoding="utf-8"))
    saved.pop("fight_sha")
    state.write_text(json.dumps(saved), encoding="utf-8")
    at = state.stat().st_mtime_ns - 10**9
    os.utime(path, ns=(at, at))


def test_a_resume_of_a_save_from_before_the_sha_catches_up_the_action_a_cut_kept(
        tmp_path: Path) -> None:
    """A save from before the SHA was kept, its fight file one action behind (a cut between
    the save and the file's write): the file is the table's own, and the resume plays on,
    writing it forward, not refusing it as changed by the fight command."""
    first = two_actions_then_a_stop(tmp_path)
    as_a_save_from_before_the_sha(tmp_path, 1)
    session = table_session(RULES, tmp_path / "fight.json", tmp_path / "table.json",
                            resume=True, seed=SEED, choices=Player([]))
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == first.fight.to_json()
    assert json.loads((tmp_path / "fight.json").read_text(encoding="utf-8")) == \
        first.fight.to_json()


def test_a_resume_of_a_save_from_before_the_sha_refuses_a_gms_other_last_action(
        tmp_path: Path) -> None:
    """A save from before the SHA was kept goes by the files' times, which a clock set back
    misleads: the GM undid the table's last action and played another (the same number of
    actions, the file older than the save). The file is not the table's, only behind: the
    resume refuses it, and the GM's action stays in the file."""
    two_actions_then_a_stop(tmp_path)
    as_a_save_from_before_the_sha(tmp_path, 1)
    path = tmp_path / "fight.json"
    gms = Fight.from_json(RULES, json.loads(path.read_text(encoding="utf-8")))
    gms.push(EndFight(), SimulatedDice.seeded(0))
    write_fight_file(path, gms)
    at = (tmp_path / "table.json").stat().st_mtime_ns - 10**9
    os.utime(path, ns=(at, at))  # a clock set back since
    with pytest.raises(DataError, match="changed since the table saved it"):
        table_session(RULES, path, tmp_path / "table.json", resume=True, seed=SEED,
                      choices=Player([]))
    assert json.loads(path.read_text(encoding="utf-8")) == gms.to_json()


def test_a_cut_that_undid_two_unsynced_writes_brings_back_the_tables_own_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two actions' writes of the fight file in a row were renamed into place but their
    folder's fsync failed; the power cut after them undid both, bringing back the second
    action's file, the last one synced. The save must keep that synced write's SHA, not the
    first unsynced one's: else the resume takes the table's own file for the GM's change
    and refuses to play on."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    with monkeypatch.context() as disk:
        written = record_writes(path, disk)
        card = TiredCard(path, disk, {4, 5})  # 1: the start, 4 and 5: the 3rd and 4th actions
        first = play(tmp_path, FOUR_ACTIONS)
    assert card.failed == 2 and len(first.fight.journal) == 4 and len(written) == 5
    synced, synced_at = written[2]
    assert saved(tmp_path).fight_sha_durable == hashlib.sha256(synced).hexdigest()
    path.write_bytes(synced)  # the cut: both renames undone, the synced file back
    os.utime(path, ns=(synced_at.st_atime_ns, synced_at.st_mtime_ns))
    assert len(on_file(tmp_path)["journal"]) == 2
    resumed = table_session(RULES, path, tmp_path / "table.json", resume=True, seed=SEED,
                            choices=Player([]))
    assert isinstance(resumed.mode, GensoFightMode)
    assert resumed.mode.fight.to_json() == first.fight.to_json() == on_file(tmp_path)


def test_a_resume_over_a_changed_fight_file_names_the_fight_command(tmp_path: Path) -> None:
    """The refusal of a fight file the GM changed names the command that changes it (the
    system's ``fight`` command, which the GM typed), and what taking it up does."""
    two_actions_then_a_stop(tmp_path)
    other = Fight.from_json(RULES, on_file(tmp_path))
    other.push(EndFight(), SimulatedDice.seeded(0))
    write_fight_file(tmp_path / "fight.json", other)
    with pytest.raises(DataError) as changed:
        play(tmp_path, [], resume=True)
    assert str(changed.value) == (
        f"the fight file {(tmp_path / 'fight.json').resolve()} changed since the table saved "
        "it (`companion genso fight …`?): play it without --resume to take it up as it is "
        "now (the table's save is kept aside then)")


def test_fight_new_force_over_an_unreadable_fight_says_where_it_is_kept(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``genso fight new --force`` over a fight file that cannot be read: the new fight is
    written, and the damaged one, kept aside as ``.corrupt-…``, is told of with its name, so
    the GM knows it was not deleted."""
    assert main(NEW["genso"][0]) == 0
    path = user_dirs / "data" / "genso" / "fight.json"
    path.write_text("{not json", encoding="utf-8")
    capsys.readouterr()
    assert main([*NEW["genso"][0], "--force"]) == 0
    err = capsys.readouterr().err
    (kept,) = path.parent.glob("fight.json.corrupt-*")
    assert kept.read_text(encoding="utf-8") == "{not json"
    assert "the file replaced could not be read" in err and kept.name in err
