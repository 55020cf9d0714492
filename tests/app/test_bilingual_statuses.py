"""Every status a JongRogue player reads while a tile is awaited keeps Japanese beside the
English (the project's rule for what reaches the screen), and still fits whole at 800x480.

Each status comes from its real code path: a scripted reader through
:func:`~companion.app.session.reads.wait_for_tile`, an :class:`ImpossibleRead` from a real
:class:`TileLedger`, the RFID wall check, the tray's and the camera reader's own status.
"""

from __future__ import annotations

import pytest

from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.controls import Confirm, Controls
from companion.app.session.reads import (
    OTHER,
    ReadState,
    interpret,
    wait_for_tile,
)
from companion.errors import IllegalAction, ImpossibleRead
from companion.hw.buttons import Button, Pick, Press
from companion.hw.camera.reader import CameraTileReader, ReaderSettings
from companion.hw.display.screen import ScreenDisplay
from companion.hw.ports import Candidate, ReaderStatus, Slot, SlotReading
from companion.hw.rfid.tagmap import TagMap
from companion.hw.rfid.tray import LinkState, TrayReader
from companion.hw.rfid.wallcheck import UnknownTag, check_drawn
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place, TileLedger
from tests.app.session_helpers import ScriptedPresses, ScriptedReader, StepClock
from tests.app.status_fit_helpers import fits

FIVE_M = Tile.from_notation("5m")


def out_of_wall(*kinds: str) -> TileLedger:
    """A ledger with every copy of ``kinds`` on the table, the discards or the PC."""
    ledger = TileLedger()
    for kind in kinds:
        tile = Tile.from_notation(kind)
        for place in (Place.TABLE, Place.DISCARDS, Place.PC, Place.DISCARDS):
            ledger.move(tile, Place.WALL, place)
    return ledger


def on(slot: Slot, label: str | None, *candidates: str, uid: str | None = None) -> SlotReading:
    return SlotReading(slot, label, 0.9, tuple(Candidate(c, 0.1) for c in candidates), uid)


class FaultyReader(ScriptedReader):
    """A scripted reader whose status is ``fault`` (not ok) once ``after`` polls are made."""

    def __init__(self, script: list[list[SlotReading]], fault: str, after: int = 0) -> None:
        super().__init__(script)
        self.fault, self.after, self.polls = fault, after, 0

    def poll(self) -> list[SlotReading]:
        self.polls += 1
        return super().poll()

    def status(self) -> ReaderStatus:
        return ReaderStatus(self.polls <= self.after, "" if self.polls <= self.after
                            else self.fault)


def statuses(reader: ScriptedReader, presses: list[list[Press]], slot: Slot = Slot.DRAW,
             ledger: TileLedger | None = None, state: ReadState | None = None,
             ) -> list[tuple[str, Tile | None, tuple[Tile | str, ...]]]:
    """What :func:`wait_for_tile` shows until a tile counts: status, tile offered, picks."""
    clock = StepClock()
    shown: list[tuple[str, Tile | None, tuple[Tile | str, ...]]] = []
    wait_for_tile(reader, state or ReadState(clock=clock), slot, ledger or TileLedger(),
                  Controls([ScriptedPresses(presses)]), Confirm(1.0, clock),
                  lambda status, t, picks, lit, guided: shown.append((status, t, picks)),
                  poll_seconds=0.1, sleep=clock.sleep)
    return shown


def test_a_tile_the_camera_cannot_read_is_said_in_both_with_its_picks(
        screen: ScreenDisplay) -> None:
    unsure = on(Slot.ROOM_BR, None, "1p", "2p", "3p")
    shown = statuses(ScriptedReader([[unsure]]), [[], [], [Pick(0)]], Slot.ROOM_BR)
    status, _, picks = shown[-1]
    assert len(picks) == 4 and picks[-1] == OTHER  # then "Other tile…" (reviewc71 DEFECT 2)
    assert status == ("cannot read the bottom-right room tile: straighten it "
                      "読めない: まっすぐ置いて; or pick: item moves, A takes 選ぶ: I移動 A決定")
    assert fits(screen, status, picks=picks)


def test_a_fifth_copy_the_camera_settles_on_none_for_is_said_in_both(
        screen: ScreenDisplay) -> None:
    ledger = out_of_wall("5m")
    unsure = on(Slot.ROOM_BR, None, "5m", "1p", "2p", "3p")
    shown = statuses(ScriptedReader([[unsure]]), [[], [], [Pick(0)]], Slot.ROOM_BR, ledger)
    status, _, picks = shown[-1]
    assert status.startswith("5m 五萬 on the bottom-right room slot: a 5th copy, lay it again "
                             "5枚目: 置き直して; or pick")
    assert fits(screen, status, picks=picks)


def test_a_face_down_tile_and_a_fifth_copy_read_are_said_in_both(
        screen: ScreenDisplay) -> None:
    shown = statuses(ScriptedReader([[on(Slot.DRAW, "back")], [on(Slot.DRAW, "5p")]]), [])
    # with "Other tile…" to pick (reviewc71 DEFECT 2): the status says how a pick is made
    assert shown[0][0] == ("the tile on the draw slot is face down: turn it over "
                           "引き牌の枠の牌が裏向き: 表にして; or pick: item moves, A takes "
                           "選ぶ: I移動 A決定")
    assert shown[0][2] == (OTHER,) and fits(screen, shown[0][0], picks=shown[0][2])
    ledger = out_of_wall("5m")
    shown = statuses(ScriptedReader([[on(Slot.DRAW, "5m")], [on(Slot.DRAW, "5p")]]), [],
                     ledger=ledger)
    status = shown[0][0]
    assert status == ("5m 五萬 on the draw slot: a 5th copy, lay it again 5枚目: 置き直して; "
                      "or pick: item moves, A takes 選ぶ: I移動 A決定")
    assert shown[0][2][-1] == OTHER and fits(screen, status, picks=shown[0][2])


def test_the_ledger_refuses_a_fifth_copy_in_both() -> None:
    with pytest.raises(ImpossibleRead) as refused:
        out_of_wall("5m").check_draw(FIVE_M)
    assert str(refused.value) == ("5m cannot be drawn: all 4 are already out of the wall (1 on "
                                  "the table, 2 in the discards, 1 held by the PC); place the "
                                  "tile again 五萬は山牌に無い: 置き直して")


def test_a_rejected_read_is_said_in_both(screen: ScreenDisplay) -> None:
    reader = ScriptedReader([[on(Slot.DRAW, "3m")], [], [], [], [on(Slot.DRAW, "empty")],
                             [on(Slot.DRAW, "8m")]])
    shown = statuses(reader, [[], [], [Button.FLEE]])
    said = [s for s, _, _ in shown if s.startswith("read rejected")]
    assert said == ["read rejected: take the tile off the slot and put it back "
                    "取り消し: 牌を取って置き直して"]
    assert fits(screen, said[0])


@pytest.mark.parametrize("uid, said", [
    ("04AB12CD", "a tile lay on the bottom-right room slot at start-up: to count it, lift it "
                 "for 5 s and lay it again 起動時から部屋の右下にあった牌: 5秒離して置き直して"),
    (None, "a tile lay on the bottom-right room slot at start-up: lift it and lay it again to "
           "count it 起動時から部屋の右下にあった牌: 置き直して"),
])
def test_a_tile_there_at_start_up_is_said_in_both(screen: ScreenDisplay, uid: str | None,
                                                  said: str) -> None:
    clock = StepClock()
    state = ReadState(clock=clock, startup=True)
    lying = on(Slot.ROOM_BR, "5p", uid=uid)
    other = on(Slot.ROOM_BR, "7p", uid=None if uid is None else "04FFFFFF")
    table = TileLedger()
    reader = ScriptedReader([[lying], [], [], [on(Slot.ROOM_BR, "empty")], [other]])
    shown = [s for s, _, _ in statuses(reader, [], Slot.ROOM_BR, table, state)]
    assert said in shown
    assert fits(screen, said)


def test_an_offer_with_a_reader_fault_and_lifted_is_said_in_both(screen: ScreenDisplay) -> None:
    fault = ("the reader under the bottom-left room slot is not answering "
             "部屋の左下の読み取り機が無応答")
    shown = statuses(FaultyReader([[on(Slot.DRAW, "5m")]], fault, after=0), [])
    offered = [s for s, t, _ in shown if t == FIVE_M]
    assert offered[0].startswith("read 5m 五萬, counts in 1 s 1秒で確定; the reader under")
    assert fits(screen, offered[0], tile=FIVE_M)
    reader = FaultyReader([[on(Slot.DRAW, "5m")], [on(Slot.DRAW, "empty")]],
                          "two tiles on the top-left room slot: leave one "
                          "部屋の左上に牌が2枚: 1枚にして", after=1)
    shown = statuses(reader, [])
    lifted = [s for s, t, _ in shown if "lifted" in s]
    assert lifted[0].startswith("5m 五萬 lifted, counts in 1 s: B takes it back 1秒で確定; two "
                                "tiles on the top-left room slot: leave one 部屋の左上に牌が2枚")
    assert fits(screen, lifted[0], tile=FIVE_M)


def test_a_sticker_not_enrolled_or_a_fifth_copy_is_said_in_both(screen: ScreenDisplay) -> None:
    unknown = interpret(on(Slot.ROOM_BR, None, uid="04AB12CD"), TileLedger())
    assert unknown.problem.startswith(
        "sticker 04AB12CD on the bottom-right room slot is not enrolled: put the tile back in "
        "the wall and lay another 部屋の右下のシールは未登録: 山に戻して別の牌を; or stop")
    assert str(UnknownTag("04AB12CD", Slot.DRAW)).startswith("sticker 04AB12CD on the draw")
    assert fits(screen, unknown.problem)
    with pytest.raises(ImpossibleRead) as refused:
        check_drawn(out_of_wall("5m"), on(Slot.ROOM_BR, "5m", uid="04AB12CD"))
    said = str(refused.value)
    assert "5m cannot be drawn: all 4 are out of the wall already (五萬は山牌に無い: " \
           "シールの登録違い?). If the tile is not a 5m" in said
    assert fits(screen, said)


def tray_status(**state: object) -> str:
    tray = TrayReader(lambda: None, TagMap())
    for name, value in state.items():
        setattr(tray, name, value)
    return tray.status().message


def test_the_tray_s_faults_are_said_in_both(screen: ScreenDisplay) -> None:
    answered = {"state": LinkState.READY, "tray_slots": 5}
    said = tray_status(**answered)
    assert said.endswith("reading what lies on it トレイの牌を確認中")
    assert fits(screen, said)
    ready = {**answered, "_snapped": True}
    assert tray_status(**ready, stacked={Slot.DRAW, Slot.ROOM_TL}) == (
        "two tiles on the draw and top-left room slots: leave one "
        "引き牌の枠と部屋の左上に牌が2枚: 1枚にして")
    assert tray_status(**ready, down={Slot.ROOM_BL}) == (
        "the reader under the bottom-left room slot is not answering "
        "部屋の左下の読み取り機が無応答")
    tray = TrayReader(lambda: None, TagMap())
    assert tray.poll() == []
    said = tray.status().message
    assert said.startswith("no tray found: plug the tray in by USB トレイなし: USBで接続を; or")
    assert fits(screen, said)


def test_the_camera_reader_s_faults_are_said_in_both() -> None:
    class NoCamera:
        message = "no camera at camera:0: check the cable; retrying"

        def read(self) -> None:
            return None

        def close(self) -> None:
            return None

    reader = CameraTileReader(NoCamera(), None,  # type: ignore[arg-type]
                              settings=ReaderSettings(3, 0.5))
    assert reader.status().message == "no frame read yet 映像待ち"
    assert reader.poll() == []
    assert reader.status().message == ("no camera at camera:0: check the cable; retrying "
                                       "カメラの映像なし")


def test_the_game_s_asks_and_refusals_are_said_in_both() -> None:
    mode = JongRogueMode(Game("plus"))
    ask = mode.ask()
    assert ask is not None
    assert ask.prompt == ("Draw a tile and put it on the draw slot 牌を引いて引き牌の枠に置いて: "
                          "1d9 for the start room 開始部屋の1d9")
    with pytest.raises(IllegalAction, match="there is no choice 3 now 選択肢3は無い"):
        mode.answer(3)
