"""A table whose fight file the disk refuses while its save is written (the fight file in a
read-only folder, the save in a writable one): told as the fight file's trouble, and after
a power cut the file is written forward from the save, every action the players saw.

The refusal is the world's edge: ``os.replace`` raising EROFS for the fight file only, as
the atomic write meets a read-only folder. A power cut is a :class:`Player` whose script
runs out mid-fight.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode, table_session
from companion.app.session.mode import ChoiceAsk, Show
from companion.errors import DataError
from tests.app import coc_table_helpers as coc
from tests.app.fight_file_disk_helpers import (
    FOUR_ACTIONS,
    AfterTheFirstAction,
    cut_while_refused,
    on_file,
    saved,
)
from tests.app.genso_table_helpers import CHOICES, RULES, SEED, fight_file, play
from tests.app.session_helpers import RecordingDisplay
from tests.app.table import Player
from tests.disk import READ_ONLY, refuse_writes


@pytest.mark.parametrize("failing", [range(1, 99), range(3, 99)],
                         ids=["refused-from-the-start", "refused-from-the-second-action"])
def test_a_resume_writes_forward_a_fight_file_the_disk_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: range) -> None:
    """The fight file's folder went read-only (from the start, or after one action) while the
    save was written at every step; after a power cut `--resume` was refused ("the fight
    file changed since the table saved it … play it without --resume"), though nobody
    changed it, even once the folder was writable again. The file is the table's own last
    write, only behind: the resume goes on from the save and writes the file forward, every
    action the players saw in both."""
    first = cut_while_refused(tmp_path, monkeypatch, failing)
    assert len(on_file(tmp_path)["journal"]) == (0 if failing.start == 1 else 1)
    rest = CHOICES[len(FOUR_ACTIONS):]
    resumed = play(tmp_path, rest, resume=True)
    assert resumed.done and resumed.journal[:len(first.journal)] == first.journal
    assert resumed.fight.journal[:4] == first.fight.journal
    assert on_file(tmp_path) == resumed.fight.to_json()
    assert saved(tmp_path).inputs == resumed.journal and saved(tmp_path).finished


def test_a_resume_with_the_folder_still_read_only_plays_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The boot service resumes with the fight file's folder still read-only: it was refused
    for good. It plays on from the save, telling the fight file's trouble, and a later
    resume with the folder writable writes the file forward."""
    first = cut_while_refused(tmp_path, monkeypatch, range(3, 99))
    path = (tmp_path / "fight.json").resolve()
    capsys.readouterr()
    with monkeypatch.context() as disk:
        refuse_writes(path, disk, range(1, 99), errno.EROFS)
        still = play(tmp_path, ["wait"], resume=True)
    assert len(still.fight.journal) == 5 and len(on_file(tmp_path)["journal"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"companion: cannot write the fight file {path} ({READ_ONLY}): the table's save holds "
        "every action, and the file is written again when it can be"]
    resumed = play(tmp_path, [], resume=True)
    assert resumed.fight.journal[:4] == first.fight.journal
    assert on_file(tmp_path) == resumed.fight.to_json() == still.fight.to_json()


def test_the_refused_fight_file_is_told_as_its_own_not_as_the_save(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The screen and stderr went back and forth between "cannot save …: the game is safe up
    to move N" and "saved again" at every action, though the save was written every time:
    the failing write was the fight file's. Its own trouble is told once, on every screen
    until a write of it works, and that write says the file is whole again."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    # the first action's and the second's
    refuse_writes(path, monkeypatch, range(2, 4), errno.EROFS)
    screen = RecordingDisplay()
    session = table_session(RULES, path, tmp_path / "table.json", resume=False, seed=SEED,
                            choices=Player(FOUR_ACTIONS), display=screen)
    with pytest.raises(KeyboardInterrupt):
        session.run()
    trouble = (f"cannot write the fight file {path} ({READ_ONLY}): the table's save holds "
               "every action, and the file is written again when it can be")
    again = f"written again: the fight file {path} is whole again"
    assert capsys.readouterr().err.splitlines() == [f"companion: {trouble}",
                                                    f"companion: {again}"]
    # The screen says it short, in both languages, without the path (stderr has it).
    statuses = [view.status for view in screen.views]
    told = [n for n, status in enumerate(statuses) if status.startswith(
        "戦闘ファイル fight.json not written 書込不可: read-only 読み取り専用; the save holds "
        "all 保存は完全")]
    whole = statuses.index("戦闘ファイル fight.json written again 書込再開")
    assert told == list(range(told[0], whole)) and len(told) >= 2
    assert screen.views[whole].guidance and not screen.views[told[0]].guidance  # good news
    assert not any("save" in status for status in statuses[:told[0]] + statuses[whole:])
    assert isinstance(session.mode, GensoFightMode)
    assert on_file(tmp_path) == session.mode.fight.to_json()


def test_a_new_table_takes_up_the_refused_fight_file_with_every_action(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the refused resume advised ("play it without --resume") kept the save aside and
    took up the fight file as it was, every action the players saw gone from the fight. The
    stopped table writes its file forward first; while the folder still refuses, nothing is
    set aside and the error says to play it on with --resume."""
    first = cut_while_refused(tmp_path, monkeypatch, range(3, 99))
    path = (tmp_path / "fight.json").resolve()
    before = (tmp_path / "table.json").read_bytes()
    with monkeypatch.context() as disk:
        refuse_writes(path, disk, range(1, 99), errno.EROFS)
        with pytest.raises(OSError) as refused:
            table_session(RULES, path, tmp_path / "table.json", resume=False, seed=SEED,
                          choices=Player([]))
    assert refused.value.filename == str(path) and refused.value.errno == errno.EROFS
    assert (f"cannot be written ({READ_ONLY}); play it on (companion play --mode genso --resume "
            f"--state {tmp_path / 'table.json'} --fight {path}), or fix the folder"
            in str(refused.value))
    assert (tmp_path / "table.json").read_bytes() == before
    told: list[str] = []
    session = table_session(RULES, path, tmp_path / "table.json", resume=False, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == on_file(tmp_path) == first.fight.to_json()
    assert told[0] == (f"the last 3 actions the table at {tmp_path / 'table.json'} finished "
                       f"are now in {path} too")
    assert "every action it finished is in that fight file" in told[1]


@pytest.mark.parametrize("gm", [False, True], ids=["untouched", "gms-undo"])
def test_only_the_tables_own_write_is_written_forward(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gm: bool) -> None:
    """The fight file is one action in, three behind the save after the refused writes. Left
    as the table wrote it, a resume writes it forward (it was refused). Changed by the GM
    since (`companion genso fight undo` after the stop), it is the GM's, however many
    actions behind: the resume is refused as before, and a new table takes it up as the
    GM left it."""
    cut_while_refused(tmp_path, monkeypatch, range(3, 99))
    path = tmp_path / "fight.json"
    if gm:
        assert main(["genso", "fight", "undo", "--file", str(path)]) == 0
        with pytest.raises(DataError, match="changed since the table saved it"):
            play(tmp_path, [], resume=True)
        mode = play(tmp_path, [])
        assert mode.fight.journal == [] and on_file(tmp_path)["journal"] == []
    else:
        resumed = play(tmp_path, [], resume=True)
        assert len(resumed.fight.journal) == 4
        assert on_file(tmp_path) == resumed.fight.to_json()


def test_a_coc_table_resumes_over_its_refused_fight_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same at a Call of Cthulhu table (one open_table for both): its `--resume` after a
    cut with the fight file refused was refused too, and its actions lost the same way."""
    whole = tmp_path / "whole"
    whole.mkdir()
    coc.fight_file(whole, "003")
    uninterrupted = coc.play(whole, coc.CHOICES)
    folder = tmp_path / "cut"
    folder.mkdir()
    coc.fight_file(folder, "003")
    with monkeypatch.context() as disk:
        refuse_writes(folder / "fight.json", disk, range(1, 99), errno.EROFS)
        first = coc.play(folder, coc.CHOICES[:6])
    assert first.fight.journal and on_file(folder) != first.fight.to_json()
    rest = coc.CHOICES[sum(1 for i in first.journal if not i[0].isdigit()):]
    resumed = coc.play(folder, rest, resume=True)
    assert resumed.done and resumed.fight.to_json() == uninterrupted.fight.to_json()
    assert on_file(folder) == resumed.fight.to_json()


class GmEndsTheFight(AfterTheFirstAction):
    """The fight file's folder is writable again and the GM runs `companion genso fight end`
    on it (the table holds no lock on a file in a read-only folder, so the command goes
    through)."""

    def happen(self) -> None:
        self.disk.undo()
        assert main(["genso", "fight", "end", "--file", str(self.path)]) == 0

    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        if not self.script:
            pytest.fail("the table played every action over the GM's change")
        return super().next_choice(ask, show)


@pytest.mark.parametrize("failing", [range(1, 99), range(3, 99)],
                         ids=["refused-from-the-start", "refused-from-the-first-action"])
def test_the_gms_change_while_the_table_runs_is_not_written_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], failing: range) -> None:
    """The table started while the fight file's folder was read-only, so it held no lock on
    the file. Once the folder was writable, the GM's `companion genso fight end` went
    through while the table ran; the table's next action wrote the file over from its own
    fight, the GM's end lost without a word, and it said the file "is whole again". The
    table now stops at that write, leaving the GM's file as it is, with every action played
    at the table in its save; starting it again without --resume takes up the GM's file (with
    it, a player is asked whether to: tests/app/test_fight_file_question.py)."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    with monkeypatch.context() as disk:
        refuse_writes(path, disk, failing, errno.EROFS)
        session = table_session(RULES, path, tmp_path / "table.json", resume=False,
                                seed=SEED, choices=GmEndsTheFight(FOUR_ACTIONS, path, disk))
        with pytest.raises(DataError) as stopped:
            session.run()
    assert f"the fight file {path} was changed while the table ran" in str(stopped.value)
    # Said on the screen too, where the boot service starts the table again with --resume:
    # no flag to give, the table offers to take the file up then.
    assert "--resume" not in str(stopped.value)
    assert "started again, the table offers to take up the fight file" in str(stopped.value)
    assert "whole again" not in capsys.readouterr().err
    # The GM's end stays, after the table's first action when its write went through.
    kinds = [entry["action"]["kind"] for entry in on_file(tmp_path)["journal"]]
    assert kinds == (["end"] if failing.start == 1 else ["attack", "end"])
    assert isinstance(session.mode, GensoFightMode) and len(session.mode.fight.journal) == 2
    assert saved(tmp_path).inputs == session.mode.journal and not saved(tmp_path).finished
    with pytest.raises(DataError, match="changed since the table saved it"):
        play(tmp_path, [], resume=True)
    gm = on_file(tmp_path)
    assert play(tmp_path, []).fight.to_json() == gm
    assert [p.name for p in tmp_path.glob("table.json.replaced-*")]


def test_a_table_taking_up_its_fight_file_on_a_read_only_disk_claims_no_save(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """hist72 NIT 4: the whole folder read-only, a table taking up the fight file (no table
    save yet) writes that file before its first save, and stderr said "the table's save
    holds every action", then "nothing of this game is saved yet". The save is said to hold
    the game only once a write of it has worked."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    with monkeypatch.context() as disk:
        refuse_writes(path, disk, code=errno.EROFS)
        # The save too (chained: each write of it is refused before the fight file's check).
        refuse_writes(tmp_path / "table.json", disk, code=errno.EROFS)
        session = table_session(RULES, path, tmp_path / "table.json", resume=True,
                                seed=SEED, choices=Player(CHOICES[:2]))
        with pytest.raises(KeyboardInterrupt):
            session.run()
    err = capsys.readouterr().err
    assert "nothing of this game is saved yet" in err
    assert f"cannot write the fight file {path} ({READ_ONLY}): the file is written" in err
    assert "holds every action" not in err
    assert not (tmp_path / "table.json").exists()
