"""The play session with the real engine: headless equivalence, resume, table reads, the log."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.app.commands.play.saves import load_game
from companion.app.commands.play.sim_sources import AutoChoices, SimTiles
from companion.app.modes.jongrogue import ASKED_FIRST, JongRogueMode
from companion.app.session.controls import Controls, MenuChoices
from companion.app.session.host import Session
from companion.app.session.log import GameLog
from companion.app.session.reads import TableTiles
from companion.app.session.save import CorruptSave, SaveGame
from companion.hw.buttons import Button, ButtonPanel, ButtonPins, Press, WaitingSignal
from companion.hw.display.view import View
from companion.hw.ports import SLOT_NAMES, ReaderStatus, Slot, SlotReading
from companion.systems.jongrogue.actions import Choice, TileRequest
from companion.systems.jongrogue.autoplay import HeadlessPlayer, find_strategy, play
from companion.systems.jongrogue.events import Event
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import Tile
from tests.app.session_helpers import RecordingDisplay, Stop, StopAfter, sim_session

SEED = 2  # a game whose first steps the tests follow: saving fsyncs every step


def json_lines(events: Sequence[Event]) -> list[str]:
    return [json.dumps(e.to_json(), ensure_ascii=False, sort_keys=True) for e in events]


def game_of(session: Session) -> Game:
    assert isinstance(session.mode, JongRogueMode)
    return session.mode.game


def test_headless_session_plays_the_autoplay_game(tmp_path: Path) -> None:
    save = SaveGame(seed=SEED, preset="plus", strategy="cautious")
    session = sim_session(save, tmp_path / "s.json", tmp_path / "log.jsonl", StopAfter(None))
    session.run()
    reference = play(SEED)
    assert [e.to_json() for e in game_of(session).events] == [e.to_json() for e in reference.events]
    assert (tmp_path / "log.jsonl").read_text().splitlines() == json_lines(reference.events)
    saved = load_game(tmp_path / "s.json")
    assert saved is not None and saved.finished and saved.events == len(reference.events)


@pytest.mark.parametrize("cuts", [(3,), (1, 15, 30)])
def test_resumed_game_equals_uninterrupted(tmp_path: Path, cuts: tuple[int, ...]) -> None:
    save_path, log_path = tmp_path / "s.json", tmp_path / "log.jsonl"
    earlier = '{"an earlier game": true, "log": "jongrogue-companion"}'
    log_path.write_text(earlier + "\n")
    save = SaveGame(seed=SEED, preset="plus", strategy="cautious")
    session = sim_session(save, save_path, log_path, StopAfter(cuts[0]))
    for cut in (*cuts[1:], None):
        with pytest.raises(Stop):
            session.run()
        saved = load_game(save_path)
        assert saved is not None
        # A half-written line, as a power cut during the append leaves it.
        with open(log_path, "a") as handle:
            handle.write('{"kind": "dam')
        session = sim_session(saved, save_path, log_path, StopAfter(cut), resume=True)
        if cut is None:
            session.run()
    reference = play(SEED)
    assert log_path.read_text().splitlines() == [earlier, *json_lines(reference.events)]


@pytest.mark.parametrize("lands", [True, False], ids=["after", "before"])
def test_a_cut_at_the_last_save_leaves_the_whole_log(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     lands: bool) -> None:
    """A finished save is never resumed, so the log must be whole when it lands; a cut just
    before it leaves the save a step short, and the resume ends the game with the same log."""
    save_path, log_path = tmp_path / "s.json", tmp_path / "log.jsonl"
    real_replace = os.replace

    def replace(src: str, dst: str) -> None:
        finished = json.loads(Path(src).read_text())["finished"]
        if not finished or lands:
            real_replace(src, dst)
        if finished:
            raise Stop

    monkeypatch.setattr(os, "replace", replace)
    session = sim_session(SaveGame(seed=SEED, preset="plus", strategy="cautious"), save_path,
                          log_path, StopAfter(None))
    with pytest.raises(Stop):
        session.run()
    monkeypatch.undo()
    saved = load_game(save_path)
    assert saved is not None and saved.finished is lands
    if not lands:
        sim_session(saved, save_path, log_path, StopAfter(None), resume=True).run()
        resumed = load_game(save_path)
        assert resumed is not None and resumed.finished
    assert log_path.read_text().splitlines() == json_lines(play(SEED).events)


def test_replay_of_a_save_from_other_rules_is_refused(tmp_path: Path) -> None:
    save = SaveGame(seed=SEED, preset="plus", inputs=["5p", "5p", "5p", "5p", "5p"], events=3)
    game, player = Game("plus"), HeadlessPlayer(SEED)
    session = Session(JongRogueMode(game, player), tiles=SimTiles(game, player),
                      choices=AutoChoices(game, find_strategy("cautious")), save=save)
    with pytest.raises(CorruptSave, match="does not replay at input"):
        session.replay(save.inputs)


class Hand:
    """The player at the table: draws from a real shuffled wall and lays each tile on the
    slot the companion asks for, lifting the previous one off first. This is the outside
    world a camera or RFID reader would see."""

    def __init__(self, game: Game, wall: HeadlessPlayer) -> None:
        self.game = game
        self.wall = wall
        self.placed: list[str] = []
        # What a camera or tray reports first: every slot, empty (the reader is up).
        self.queue: list[SlotReading] = [SlotReading(slot, "empty", 1.0) for slot in Slot]
        self.waiting_for: Slot | None = None

    def want(self, slot: Slot) -> None:
        tile = self.wall.draw(self.game)
        self.placed.append(str(tile))
        self.queue += [SlotReading(slot, "empty", 1.0), SlotReading(slot, str(tile), 0.97)]

    def poll(self) -> list[SlotReading]:
        out, self.queue = self.queue[:1], self.queue[1:]
        return out

    def status(self) -> ReaderStatus:
        return ReaderStatus(True, "ok")

    def close(self) -> None:
        return None


@pytest.mark.parametrize(("seed", "questions"), [(2, 0), (7, 1)])  # 7 drinks a potion
def test_table_session_with_buttons_and_reader(tmp_path: Path, seed: int,
                                               questions: int) -> None:
    """Tiles come from the reader, confirmed by the attack button; choices from the buttons.
    A takes the lit option, never one that asks first (the highlight starts elsewhere,
    a76journey: A, A drank the potion); the player who means to drink presses the item's
    own button (``questions`` times), which brings its question, whose lit option A then
    takes, so the question is the same choice, not another."""
    factory = MockFactory()
    panel = ButtonPanel(ButtonPins(), bounce_time=None, pin_factory=factory)
    signal = WaitingSignal(24, None, pin_factory=factory)
    game = Game("plus")
    hand = Hand(game, HeadlessPlayer(seed))
    display = RecordingDisplay()
    led_states: list[int] = []
    steps = {"n": 0}
    now = [0.0]  # the table's clock, moved by the session's polls
    expected: list[str] = []
    menus: list[View] = []
    asked: list[str] = []  # the choice whose question (ASKED_FIRST) is due next
    seen = {"questions": 0, "drunk": 0}
    pin = {"now": ButtonPins().attack}  # the button pressed on the menu shown

    def press(button: int) -> None:
        factory.pin(button).drive_low()
        factory.pin(button).drive_high()

    def tick(seconds: float) -> None:
        """Time passes at the table: the player acts on what the screen says (an A pressed
        within DOUBLE_PRESS_SECONDS of a menu after a read is not taken: pressed again)."""
        steps["n"] += 1
        now[0] += seconds
        if len(game.inputs) >= 40 or steps["n"] > 5000:
            raise Stop
        view = display.views[-1]
        if isinstance(game.pending, TileRequest):
            led_states.append(factory.pin(24).state)
            if not hand.queue and view.status == "" and view.prompt_tile == "back":
                slot = next(s for s, name in SLOT_NAMES.items()
                            if f"on the {name} slot" in view.prompt)
                hand.want(slot)
            elif view.status.startswith("read "):
                press(ButtonPins().attack)
        elif view.options:
            assert view.highlight is not None
            if not menus or menus[-1] is not view:  # each menu once, however often pressed
                menus.append(view)
                lit = view.options[view.highlight].choice
                pin["now"] = ButtonPins().attack  # confirm the highlighted option
                use = next((o.choice for o in view.options if o.button is Button.ITEM), None)
                if asked:  # the question: the choice again, lit, and Back
                    assert [o.choice for o in view.options] == [asked.pop(), "back"]
                    assert view.highlight == 0
                    seen["questions"] += 1
                elif use is not None and seen["drunk"] < questions:  # its own button
                    assert Choice.from_notation(use).verb in ASKED_FIRST
                    seen["drunk"] += 1
                    expected.append(use)
                    asked.append(use)
                    pin["now"] = ButtonPins().item
                else:
                    assert Choice.from_notation(lit).verb not in ASKED_FIRST
                    expected.append(lit)
            press(pin["now"])

    controls = Controls([panel, display], clock=lambda: now[0])
    session = Session(JongRogueMode(game),
                      tiles=TableTiles(hand, controls, accept_seconds=30.0, poll_seconds=0.01,
                                       sleep=tick),
                      choices=MenuChoices(controls, poll_seconds=0.01, sleep=tick),
                      display=display, save=SaveGame(seed=0, preset="plus"),
                      save_path=tmp_path / "s.json", signal=signal, sleep=tick)
    with pytest.raises(Stop):
        session.run()
    tiles_pushed = [str(v) for v in game.inputs if isinstance(v, Tile)]
    assert len(game.inputs) == 40 and len(tiles_pushed) >= 10
    assert tiles_pushed == hand.placed[: len(tiles_pushed)]
    assert 1 in led_states  # the LED was lit while a tile was wanted
    saved = load_game(tmp_path / "s.json")
    assert saved is not None and saved.inputs == [str(v) for v in game.inputs]
    assert any(v.room_tiles for v in display.views)
    choices = [str(v) for v in game.inputs if not isinstance(v, Tile)]
    assert choices and choices == expected[: len(choices)]
    assert seen["questions"] == questions == sum(
        Choice.from_notation(c).verb in ASKED_FIRST for c in choices)


def test_a_paced_game_reads_the_window_and_stops_when_it_closes(tmp_path: Path) -> None:
    """--pace keeps the window alive: its events are read while waiting; closing it stops."""

    class ClosingWindow(RecordingDisplay):
        def __init__(self) -> None:
            super().__init__()
            self.polls = 0

        def poll(self) -> list[Press]:
            self.polls += 1
            if self.polls == 10:
                raise KeyboardInterrupt  # what ScreenDisplay.poll does on the window's QUIT
            return []

    window = ClosingWindow()
    save = SaveGame(seed=SEED, preset="plus")
    game, player = Game("plus"), HeadlessPlayer(SEED)
    session = Session(JongRogueMode(game, player), tiles=SimTiles(game, player),
                      choices=AutoChoices(game, find_strategy("cautious")), display=window,
                      save=save, save_path=tmp_path / "s.json", pace=0.02)
    with pytest.raises(KeyboardInterrupt):
        session.run()
    saved = load_game(tmp_path / "s.json")
    assert saved is not None and 1 <= len(saved.inputs) <= 10
    assert len(window.views) == len(saved.inputs)


@pytest.mark.parametrize("cut", [0, 1, 5000])
def test_a_new_game_cuts_a_long_logs_unfinished_line_from_its_end(tmp_path: Path,
                                                                   cut: int) -> None:
    """A log of many games is searched back from its end for its last whole line (it was
    read whole into memory at every game's start: 200 MB of log, 257 MiB at start-up),
    across blocks: an unfinished line longer than one, a line end on a block's edge, a file
    with no line end at all (its first game's header cut off)."""
    header = b'{"game_id": "g", "log": "jongrogue-companion", "version": 2}'
    whole = header + b"\n" + b"".join(b'{"n": %d}\n' % n for n in range(20_000))
    assert len(whole) > 2 * 64 * 1024
    log_path = tmp_path / "games.jsonl"
    for kept, written in ((whole, whole + b"x" * cut),
                          (whole[:64 * 1024 - 1] + b"\n", whole[:64 * 1024 - 1] + b"\n"
                           + b"y" * (64 * 1024 + cut)),
                          (b"", header + b"z" * (3 * 64 * 1024 + cut))):
        log_path.write_bytes(written)
        assert GameLog.begin(log_path).start == len(kept)
        assert log_path.read_bytes() == kept
