"""The events command: the party's HP and MP kept between commands, reset, refused lists.

review59b: the party's HP and MP kept between `companion events` commands (cli59 F4):
a pool the party file leaves out (F4), two recoveries at once (F6), going back to the
party file's values (F2), a listing on a folder that refuses writes (F7), and what a
refused HP list says of a cure (the wording gap)."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.app import recovery_rooms
from companion.app.cli import main
from companion.app.commands.events import _to_keep
from companion.app.party_hp import PartyHP, party_hp_path
from companion.app.poisons import PoisonList, poisons_path
from companion.app.recovery_rooms import RecoveryRooms, rooms_path
from companion.dice.sources import SimulatedDice
from companion.systems.events.poisoned import Poison
from companion.systems.events.report import EventReport
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import load_party, load_rating_table
from tests.disk import refuse_writes
from tests.systems.events.helpers import PARTY, VITALITY_DAMAGE, _events

#: Aki's hp left out of the party file (her max_hp stays).
NO_AKI_HP = PARTY.replace("hp = 20\n", "", 1)


def _kept_hp(name: str) -> int:
    return PartyHP(party_hp_path()).kept[name]["hp"].now


def test_a_pool_the_party_file_leaves_out_is_not_changed_out_of_sight(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """F4: Aki's HP was kept at 11 from the file's 20; the GM then leaves hp out of her
    table. An explosion's 4 damage changed the kept 11 to 7 unseen ("HP not given" in the
    listing), and it came back when hp was written again."""
    party, ratings = files
    PartyHP(party_hp_path()).keep(load_party(PARTY), {"Aki": {"hp": -9}})
    party.write_text(NO_AKI_HP, encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("1 1\n3 3\n6 6\n3 3\n"))
    code, out, _ = _events(capsys, "trap", "--trap", "explosion", "--mode", "sw", "--party",
                           str(party), "--ratings", str(ratings), "--dice", "typed")
    assert code == 0
    assert "Aki: 4 − armour n/a (energy) − Lv 0 (１ゾロ: no level reduction) ＞ 4 damage\n" in out
    assert _kept_hp("Aki") == 11
    party.write_text(PARTY, encoding="utf-8")
    _, out, _ = _events(capsys, "party", "--party", str(party))
    assert "Aki: HP 11/25" in out


def test_a_poison_tick_on_a_member_with_no_hp_given_says_and_keeps_none(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """F4: the rest handed the stale kept HP of a member whose file leaves hp out to the
    poison's tick, which said "(HP 11 → 10)" and kept it."""
    party, _ = files
    PartyHP(party_hp_path()).keep(load_party(PARTY), {"Aki": {"hp": -9}})
    party.write_text(NO_AKI_HP, encoding="utf-8")
    poisons_path().write_text(VITALITY_DAMAGE.replace("[Ben]", "[Aki]"), encoding="utf-8")
    code, out, _ = _events(capsys, "end-block", "--party", str(party))
    assert code == 0 and "Aki: 毒/Poison: 1 HP lost (1/3);" in out and "(HP" not in out
    assert _kept_hp("Aki") == 11


def test_two_recoveries_at_once_stop_at_the_maximum(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """F6: two terminals each walk a recovery from Ben's kept 12/16 (+4 each, capped from
    12): the second kept was applied to the first's 16 uncapped, Ben 20/16. Here the other
    terminal's recovery runs while this one waits for its first typed die."""
    party, ratings = files
    PartyHP(party_hp_path()).keep(load_party(PARTY), {"Ben": {"hp": -2}})
    sw = ("recovery", "--mode", "sw", "--party", str(party), "--ratings", str(ratings))

    class OtherTerminal(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            if not self.tell():
                assert main(["events", *sw, "--seed", "1"]) == 0
            return super().readline()

    monkeypatch.setattr("sys.stdin", OtherTerminal("3 3\n3 3\n3 3\n3 3\n"))
    code, out, _ = _events(capsys, *sw, "--dice", "typed")
    assert code == 0 and out.count("HP 12 → 16/16") == 2
    kept = PartyHP(party_hp_path()).kept["Ben"]
    assert (kept["hp"].now, kept["mp"].now) == (16, 21)


def test_a_recovery_not_capped_by_the_settings_still_goes_over(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """F6's cap follows EV-REC-1's cap_at_maximum: set off, a recovery past the maximum is
    kept as the walk gave it."""
    party, ratings = files
    _, out, _ = _events(capsys, "recovery", "--mode", "sw", "--party", str(party),
                        "--ratings", str(ratings), "--seed", "1",
                        "--set", "EV-REC-1.cap_at_maximum=false")
    assert "Ben: HP +4, MP +4; HP 14 → 18/16, MP 18 → 22/21" in out
    assert _kept_hp("Ben") == 18


def test_party_reset_goes_back_to_the_party_files_values(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """F2: an explosion took Aki 20 → 11; the GM heals her to 20, which the party file
    already says, so no edit could set it. --reset NAME forgets one member's, --reset
    everyone's; the party file stays as it was."""
    party, _ = files
    before = party.read_bytes()
    PartyHP(party_hp_path()).keep(load_party(PARTY), {"Aki": {"hp": -9}, "Ben": {"hp": -3}})
    code, out, err = _events(capsys, "party", "--party", str(party), "--reset", "Aki")
    assert code == 0 and err == ""
    assert out == ("Forgot the HP and MP kept for Aki: the party file's values are taken\n"
                   "Aki: HP 20/25, MP 10/12\nBen: HP 11/16, MP 18/21\n")
    _, out, _ = _events(capsys, "party", "--party", str(party), "--reset", "Aki")
    assert out.startswith("No HP or MP kept for Aki (kept for Ben)\n")
    _, out, _ = _events(capsys, "party", "--party", str(party), "--reset")
    assert out.startswith("Forgot the HP and MP kept for Ben: the party file's values are "
                          "taken\n") and "Ben: HP 14/16" in out
    assert PartyHP(party_hp_path()).kept == {} and party.read_bytes() == before


def test_reset_goes_with_party_only(files: tuple[Path, Path],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    party, _ = files
    code, _, err = _events(capsys, "rest", "--party", str(party), "--reset")
    assert code == 2 and "--reset goes with party, not rest" in err


def test_the_party_listing_lists_when_the_folder_refuses_writes(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """F7: a GM edit to the party file is written as `events party` lists it; on a folder
    that refused the write the listing failed with exit 1 and no list. Now the list, and a
    warning line."""
    party, _ = files
    PartyHP(party_hp_path()).keep(load_party(PARTY), {"Ben": {"hp": -2}})
    party.write_text(PARTY.replace("hp = 14", "hp = 13"), encoding="utf-8")
    refuse_writes(party_hp_path(), monkeypatch)
    code, out, err = _events(capsys, "party", "--party", str(party))
    assert code == 0 and out == "Aki: HP 20/25, MP 10/12\nBen: HP 13/16, MP 18/21\n"
    assert err.splitlines()[-1].startswith(
        f"companion: warning: cannot save the party's HP and MP ({party_hp_path()}")


def test_a_refused_hp_list_after_a_cure_says_the_cure_is_recorded(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The wording gap: a recovery cured Ben's poison (the list written first), then the
    disk refused the HP list; the line said what was not kept, not that the cure was, as
    the room's refusal says it."""
    party, ratings = files
    PartyHP(party_hp_path()).keep(load_party(PARTY), {"Ben": {"hp": -3}})
    poisons_path().write_text(VITALITY_DAMAGE, encoding="utf-8")
    refuse_writes(party_hp_path(), monkeypatch)
    code, _, err = _events(capsys, "recovery", "--mode", "sw", "--party", str(party),
                           "--ratings", str(ratings), "--room", "2", "--seed", "1")
    assert code == 1
    assert "Ben HP 11 → 15 not kept" in err
    assert "not kept; room 2 not marked used; the cure is recorded; free space" in err
    assert PoisonList(poisons_path()).poisons == {}


def test_a_poison_given_with_party_names_it_and_a_tick_not_kept_says_so(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """events74 DEFECT 1: the Tracking line named `events end-block` without the --party
    the poison was given with; run as printed, the tick was spent (1/5 dealt), its line
    said "1 HP lost" and no HP was taken, nor was it said. Now the line names --party
    FILE, and a tick with no party says the HP is not kept."""
    party, _ = files
    monkeypatch.setattr("sys.stdin", io.StringIO("4\n5 4\n5\n"))  # EV-POI-8, max 5
    code, out, _ = _events(capsys, "poison", "--mode", "sw", "--party", str(party), "--who",
                           "Aki", "--dice", "typed")
    assert code == 0
    tracking = out.splitlines()[-1]
    assert tracking.startswith(f"Tracking Aki's poison: `companion events end-block --party "
                               f"{party}` or `rest --party {party}` ticks it")
    code, out, _ = _events(capsys, "end-block")
    assert code == 0
    assert ("Aki: 毒/Poison: 1 HP lost (1/5); HP lost heals with Cure Wounds; Aki's HP not "
            "kept (no party file: give --party FILE, or save events_party.toml in the config "
            "folder): take it off by hand") in out
    code, out, _ = _events(capsys, "end-block", "--json")
    step = json.loads(out)["steps"][1]
    assert step["data"]["hp_kept"] is False and step["member"] == "Aki"
    printed = tracking.split("`")[1].split()[1:]  # the command as the line prints it
    code, out, _ = _events(capsys, *printed[1:])
    assert code == 0 and "1 HP lost (3/5) (HP 20 → 19)" in out
    assert _kept_hp("Aki") == 19


class PowerCut(BaseException):
    """The power going: nothing after it is written, nothing printed."""


def _cut(*_: object, **__: object) -> None:
    raise PowerCut


def test_a_cut_at_the_room_s_write_keeps_nothing_of_the_recovery(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """events74 RISK 3: the HP was kept before the room was marked; a cut between them
    left Aki's recovery kept, unprinted, and the room free: run again, a second recovery.
    The room is marked first now: a cut there keeps nothing, and the run again is the one
    recovery."""
    party, ratings = files
    recovery = ("recovery", "--mode", "sw", "--party", str(party), "--ratings", str(ratings),
                "--room", "1", "--seed", "1")
    with monkeypatch.context() as patch:
        patch.setattr("companion.app.recovery_rooms.RecoveryRooms.mark", _cut)
        with pytest.raises(PowerCut):
            main(["events", *recovery])
    assert not party_hp_path().exists()
    code, out, _ = _events(capsys, *recovery)
    assert code == 0 and "room 1 now used" in out
    after = _kept_hp("Aki")
    assert after > 20
    code, out, _ = _events(capsys, *recovery)
    assert code == 0 and _kept_hp("Aki") == after  # the room spent: nothing more


def test_a_cut_after_the_room_s_write_refuses_a_second_recovery(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The cut between the room and the HP: the spot is spent, the HP not given, and the
    command run again is refused the spot; never two recoveries."""
    party, ratings = files
    recovery = ("recovery", "--mode", "sw", "--party", str(party), "--ratings", str(ratings),
                "--room", "1", "--seed", "1")
    with monkeypatch.context() as patch:
        patch.setattr(PartyHP, "keep", _cut)
        with pytest.raises(PowerCut):
            main(["events", *recovery])
    assert RecoveryRooms(rooms_path()).used == ["1"]
    code, out, _ = _events(capsys, *recovery)
    assert code == 0 and "room 1" in out and not party_hp_path().exists()


def test_a_recovery_cut_after_its_room_is_said_by_the_next_run(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewe74 RISK 5: the cut after the room's mark lost the HP with no word, and the
    next run said only "already used". The mark is pending, with what the recovery was to
    keep, until kept: the next run, its process gone, says it once, plainly."""
    party, ratings = files
    recovery = ("recovery", "--mode", "sw", "--party", str(party), "--ratings", str(ratings),
                "--room", "1", "--seed", "1")
    ended = subprocess.Popen([sys.executable, "-c", ""])  # a process that is gone
    ended.wait()
    with monkeypatch.context() as patch:
        patch.setattr(PartyHP, "keep", _cut)
        patch.setattr("companion.app.recovery_rooms.os.getpid", lambda: ended.pid)
        with pytest.raises(PowerCut):
            main(["events", *recovery])
    assert set(RecoveryRooms(rooms_path()).pending) == {"1"}
    code, _, err = _events(capsys, "party", "--party", str(party))
    said = " ".join(err.split())
    assert code == 0 and "room 1's recovery stopped part-way (" in said
    assert "it was to keep Aki HP 20 → " in said and "which may not be kept" in said
    code, _, err = _events(capsys, "rooms")  # said once; the room stays used
    assert code == 0 and "part-way" not in err
    assert RecoveryRooms(rooms_path()).used == ["1"] and not RecoveryRooms(rooms_path()).pending


def test_a_whole_recovery_leaves_no_room_pending(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    party, ratings = files
    code, _, err = _events(capsys, "recovery", "--mode", "sw", "--party", str(party),
                           "--ratings", str(ratings), "--room", "1", "--seed", "1")
    assert code == 0 and err == ""
    rooms = RecoveryRooms(rooms_path())
    assert rooms.used == ["1"] and rooms.pending == {}


def test_a_room_marked_by_another_run_at_once_is_not_recovered_twice(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reviewe74 RISK 5 NIT: mark()'s False was ignored: two runs at once both walked the
    room free, and both recovered."""
    party, ratings = files
    def other_run_marks_it_meanwhile(*args: Any, **kwargs: Any) -> EventReport:
        report = run_event(*args, **kwargs)
        RecoveryRooms(rooms_path()).mark("1")
        return report

    monkeypatch.setattr("companion.app.commands.events.run_event",
                        other_run_marks_it_meanwhile)
    code, out, err = _events(capsys, "recovery", "--mode", "sw", "--party", str(party),
                             "--ratings", str(ratings), "--room", "1", "--seed", "1")
    assert code == 2 and out == ""
    assert ("room 1 was marked used meanwhile, by another run at once: this recovery is "
            "not kept") in " ".join(err.split())
    assert not party_hp_path().exists()


def _pending_room(boot: str | None) -> None:
    """Room 1 pending, marked by pid 1 (alive: init) in the boot ``boot``."""
    rooms_path().parent.mkdir(parents=True, exist_ok=True)
    kept = "" if boot is None else f'boot = "{boot}"\n'
    rooms_path().write_text('used = ["1"]\n\n[pending.1]\nat = "2026-12-07 14:05 UTC"\n'
                            f'pid = 1\nwhat = "Aki HP 1 → 6"\n{kept}', encoding="utf-8")


def test_a_pending_room_of_another_boot_is_said_though_its_pid_is_taken(
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewe74b RISK 2: after the reboot a power cut brings, the cut run's pid is often
    a daemon's: a pid alone kept the notice unsaid while it lived. The boot is kept with
    the pid: another boot's pid is gone, whatever holds it now."""
    if not Path("/proc/sys/kernel/random/boot_id").exists():
        pytest.skip("no boot id on this system")
    _pending_room("00000000-0000-0000-0000-000000000000")
    code, _, err = _events(capsys, "rooms")
    assert code == 0 and "room 1's recovery stopped part-way (2026-12-07 14:05 UTC" in err
    assert "it was to keep Aki HP 1 → 6" in " ".join(err.split())
    assert not RecoveryRooms(rooms_path()).pending
    _pending_room(recovery_rooms.boot_id())  # this boot's pid 1: a run still going
    code, _, err = _events(capsys, "rooms")
    assert code == 0 and "part-way" not in err
    _pending_room(None)  # a file from before the boot was kept: the pid alone, as then
    code, _, err = _events(capsys, "rooms")
    assert code == 0 and "part-way" not in err


def test_a_room_is_marked_pending_with_this_boot() -> None:
    rooms = RecoveryRooms(rooms_path())
    assert rooms.mark("1", "Aki HP 1 → 6", at="2026-12-07 14:05 UTC")
    assert RecoveryRooms(rooms_path()).pending["1"].boot == recovery_rooms.boot_id()


def test_a_pending_recovery_names_a_cure_only_of_those_it_cures(
        files: tuple[Path, Path]) -> None:
    """reviewe74b NIT 3: the pending mark said "the cure of the poisons tracked (Zed)"
    for any poison tracked, though the spot cures only the party's (EV-REC-1)."""
    party = load_party(PARTY)
    poison = Poison(face=5, rule="EV-POI-5", toxicity=9, hours_left=3)
    ratings = load_rating_table(files[1].read_text(encoding="utf-8"))
    report = run_event("recovery", SimulatedDice(random.Random(1)), mode="sw", party=party,
                       rating_table=ratings, room="1", poisoned={"Zed": poison})
    assert "cure" not in _to_keep({"Zed": poison}, report, party)
    assert _to_keep({"Aki": poison, "Zed": poison}, report, party).startswith(
        "the cure of the poisons tracked (Aki)")
