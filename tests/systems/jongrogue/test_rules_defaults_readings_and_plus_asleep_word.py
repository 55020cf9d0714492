"""`companion rules defaults` names the companion's readings of the book (audit rules61j R1,
R2, R3), and `companion rules monsters` writes the Plus table's 眠 (rules61j N1)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.systems.jongrogue.reference import FIXED_READINGS

SPEC = Path(__file__).resolve().parents[4] / "shared" / "spec" / "jongrogue.md"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_rules_defaults_lists_the_readings_fixed_in_the_companion(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Each reading the play keeps where the seed is unclear or its page is lost: the start
    room's no flight, the flee turn's defence before the PC leaves (a freeze or a bind by
    it does not stop the flight, R1), readying only outside melee (review61c F3), moving
    onto the door only from the room (door62), the pincer's halves, the gold-lover's pile,
    the thief's spare ring, the EZ mimic, and Plus's 倍速 and 透明 (R2), each on a rule of
    the spec, with the Japanese beside the English. Audit jr64 RISK 3 added six readings
    played since revisions 3-5 (each pinned by test_revision_3/4/5): the gold-lover on its
    gold holding no exit (JR-STATE-2), a blow at a sleeper from the door stepping in and a
    shot from it waking its target alone (JR-STATE-1), a fumbled defence against a wraith
    draining (JR-AB-DRAIN), no gaze at the PC on the door (JR-AB-GAZE), and a confused
    PC's lost shot (JR-PC-3); and the start room's no flight holds only until the PC has
    left it (revision 9). Review64j DEFECTs 2-3 added revision 10's: a flight out by the door
    the PC came in by, and a walk back to the room behind it (JR-FLEE-1 (door)), and a
    pursued flight never back to the room just fled from (JR-FLEE-2 (back)); review65j
    took out its cut of the route's loop (a followed flight crosses only a room the PC
    crossed, whose 睡眠 monsters woke then) and its 挟み撃ち, the pincer in which no flight is
    offered: monsters following are 追跡. Review65j2 NIT 2: no followed flight from a room
    fled back into only when its way back is the room just fled from, not from every start
    room fled back into; RISK 1: a flight back into a room takes that step off the way
    walked (a walk back is kept), so a later followed flight from there goes back only the
    way walked before it, and with none the PC is cornered. Audit jr68 NIT 3 added the bound
    PC on the door (JR-PC-3 (door)): no step in, no take, no blow or shot at a sleeper.
    Audit rules72 added the stairs beside sleepers (JR-STATE-2 (stairs)), items by kind
    (JR-ITEM-1 (kinds)) and the strength drain under pc_states alone (JR-AB-DRAINSTR
    (options)); its review (reviewr72 DEFECT 2) how a thief counts items of two kinds
    (JR-AB-STEALITEM (kinds))."""
    out = run(capsys, "rules", "defaults")
    head = ("\nFixed readings (the companion's choice where the seed is unclear; no setting "
            "changes them):\n")
    assert head in out
    readings = out.split(head, 1)[1]
    assert [d.rule for d in FIXED_READINGS] == [
        "JR-FLEE-1", "JR-FLEE-1 (door)", "JR-FLEE-1 (turn)", "JR-RANGED-2 (ready)",
        "JR-RANGED-2 (door)",
        "JR-STATE-2 (gold)", "JR-STATE-1 (blow)", "JR-STATE-1 (shot)", "JR-AB-DRAIN (defend)",
        "JR-AB-GAZE (door)", "JR-PC-3 (shot)", "JR-PC-3 (door)", "JR-PC-3 (unattacked)",
        "JR-FLEE-2", "JR-FLEE-2 (back)", "JR-STATE-2 (stairs)", "JR-ITEM-1 (kinds)",
        "JR-AB-DRAINSTR (options)", "JR-AB-GOLDLOVER", "JR-AB-STEALITEM",
        "JR-AB-STEALITEM (kinds)", "JR-AB-MIMIC", "JR-AB-HASTE", "JR-AB-INVISIBLE"]
    width = max(len(d.rule) for d in FIXED_READINGS)
    for d in FIXED_READINGS:
        assert f"{d.rule:<{width}}  {d.text}\n" in readings
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", d.text), d.rule
    for words in ("a freeze (凍結) or bind (拘束) from that defence does not stop the flight",
                  "only outside melee (近接戦闘)", "only to a PC in the room (部屋の中)",
                  "start room (開始部屋)", "may be shot",
                  "cannot be attacked until it has attacked", "spare one before a worn one",
                  "defeated by that hit", "top-left, top-right, bottom-left, bottom-right",
                  "the PC has not left (it came down the stairs into it)",
                  "none from one it fled back into",
                  "sitting on its gold (金塊) does not hold the room's other doors",
                  "first steps into the room (部屋の中), waking every 睡眠 monster",
                  "wakes only the monster shot at",
                  "drains a level as a fumbled blow does, from revision 5",
                  "not at one on the door (ドアの上), from revision 4",
                  "shot (遠隔攻撃) may be lost as its blow may",
                  "fled back into with none following, it is fled from out by the door the PC "
                  "came in by",
                  "a second flight does not leave by the far door past a monster woken there",
                  "never back to the room just fled from",
                  "the route the PC really walked (来た道, walks back included)",
                  "it crosses only a room the PC crossed before, whose 睡眠 monsters woke "
                  "then",
                  "none from one it fled back into whose way back is only the room just fled "
                  "from (JR-FLEE-2 (back))",
                  "a flight back into a room takes that step off the way walked, where a walk "
                  "back into it is kept",
                  "goes back only the way the PC had walked before that flight"):
        assert words in readings, words
    back = next(d.text for d in FIXED_READINGS if d.rule == "JR-FLEE-2 (back)")
    assert "追跡" in back and "挟み撃ち" not in back
    assert "first came there" not in readings and "cut off" not in back
    assert "stand at the only door back" not in readings
    assert next(d.text for d in FIXED_READINGS if d.rule == "JR-FLEE-1").startswith(
        "no flight (逃げる) from a floor's start room (開始部屋) the PC has not left")
    spec = SPEC.read_text(encoding="utf-8")
    for d in FIXED_READINGS:
        assert re.search(rf"^- {d.rule.split()[0]} ", spec, re.MULTILINE), d.rule
    data = json.loads(run(capsys, "rules", "defaults", "--json"))
    assert data["fixed_readings"] == {d.rule: d.text for d in FIXED_READINGS}


def test_rules_monsters_writes_the_plus_table_s_word_for_asleep(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Seed l.184, l.208: the Plus table writes 眠 (the EZ table 睡眠) for 大うずら and ドラゴン."""
    out = run(capsys, "rules", "monsters")
    emu = next(line for line in out.splitlines() if line.startswith("E "))
    assert emu.endswith("EZ asleep (睡眠), Plus asleep (眠)")
    dragon = next(line for line in out.splitlines() if line.startswith("D "))
    assert "Plus asleep (眠)" in dragon and "(睡眠)" not in dragon.split("Plus", 1)[1]
