"""The modes of ``companion play`` other than a game of JongRogue, which need a display
and a player: the dice tray, a genso fight and a coc fight, and the dice camera they read."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from companion.app.command_name import companion_line
from companion.app.commands.config import TABLES
from companion.app.commands.events import (
    load_user_rules,
    refused_rules,
    tray_lists,
    user_lists,
)
from companion.app.commands.play.telling import question_show, resume_command, tell
from companion.app.config import Config, Source
from companion.app.modes.dice_tray import (
    RULES_REFUSED,
    DiceTrayMode,
    Stage,
    parse_expressions,
    table_path,
)
from companion.app.modes.fight_file import (
    FightClosed,
    FightFileChanged,
    default_fight_file,
    read_fight_data,
    unapplied_fight,
)
from companion.app.notes import note
from companion.app.paths import config_dir, data_dir
from companion.app.poisons import PoisonList, poisons_path
from companion.app.session.controls import Controls, MenuChoices, choose, menu_press
from companion.app.session.host import Session
from companion.app.session.keypad import Keypad
from companion.app.session.mode import RollFeed
from companion.app.session.rolls import CameraFrames, CameraRolls, DiceLeft, SimRolls
from companion.app.session.system_menu import ModeSwitch, SystemMenu, answered
from companion.dice import SimulatedDice
from companion.errors import DeviceError
from companion.file_locks import let_go
from companion.hw.buttons import Button, Press
from companion.hw.display import Display
from companion.hw.display.view import Option, View

#: The modes that need a display and a player, by the name an error gives them: config's,
#: whose start check (``config --show`` and play's) refuses one without (setup73 DEFECT 1).
TABLE_MODES = TABLES

#: What a resume asks when the GM changed the fight file since the table stopped.
CHANGED_QUESTION = ("戦闘ファイルが変更されました The fight file was changed on a computer "
                    "since this table stopped (an undo, or an action played there). Take it "
                    "up as it is now? This table's unfinished save is kept aside.")

def another_fight_question(kept: Path | None) -> str:
    """What a resume asks when the GM set up another fight in the fight file since the table
    stopped (``fight new --force``): that is no undo, and the fight played here is named
    where that command kept it (its command, on stderr, is typed on a computer)."""
    where = (f"the fight played here is kept as {kept.name} その戦闘は保存済み"
             if kept is not None else "the fight played here is not in it")
    return ("新しい戦闘 A new fight was set up in the fight file on a computer since this "
            f"table stopped; {where}. Take up the new fight? This table's unfinished save is "
            "kept aside.")


CHANGED_OPTIONS = (Option("take", "Take up the fight file 戦闘ファイルから再開", Button.ATTACK),
                   Option("quit", "Quit 終了", Button.FLEE))


def table_files(args: argparse.Namespace, mode: str) -> tuple[Path, Path]:
    """A ``mode`` table's fight file (``--fight``) and its save (``--state``), by default
    ``<mode>/fight.json`` and ``<mode>/table.json`` in the data folder."""
    return (args.fight or data_dir() / mode / "fight.json",
            args.state or data_dir() / mode / "table.json")


#: The dice tray left for another mode (System menu) with a table under way, by the data
#: folder the run keeps its poisons in: taken up when the run comes back to the tray, as
#: the menu promises ("the mode left is carried on"; dice66 D3). Its file (dice/tray.json,
#: :data:`~companion.app.modes.dice_tray.TABLE_FILE`) holds the table too, for the next
#: start after a power cut or a Quit; this holds it as well while the disk refuses that file,
#: and holds a tray whose file holds an older table (the disk refused its write and its
#: removal): a new tray took that table up as saved, and asked a finished table's dice
#: again (reviewd67b DEFECT 1).
_TRAY_LEFT: dict[Path, DiceTrayMode] = {}


#: The dice tray's simulated dice in this run, by data folder (:func:`run_dice_tray`):
#: seeded (``--seed``) once, at the run's first tray, and thrown on at each return to it.
#: Forgotten as a run of ``companion play`` begins (:func:`forget_sim_dice`).
_SIM_DICE: dict[Path, SimRolls] = {}


def forget_sim_dice() -> None:
    """A new run's tray seeds its simulated dice again (a test's runs share a process)."""
    _SIM_DICE.clear()


def tray_left() -> bool:
    """Whether this run holds a dice tray's table part-thrown (:data:`_TRAY_LEFT`) for the
    data folder, in another mode: ``play``'s :func:`held_files` then holds dice/tray.json
    there too, so a second tray (over SSH) is refused rather than finish that table, which
    this run's tray would then ask again and track its poison twice (reviewd67 DEFECT 2)."""
    return data_dir() in _TRAY_LEFT


def tray_held() -> bool:
    """Whether this run holds the dice tray's table part-thrown (:data:`_TRAY_LEFT`) while it
    is in another mode in memory only, the disk having refused its file: that mode's System
    menu then says a power cut, or Quit to console, loses it
    (:attr:`SystemMenu.table_unsaved`), not "every step is saved" (dice66 D3 follow-up)."""
    left = _TRAY_LEFT.get(data_dir())
    # Not a tray whose file is only older (tray_stale): nothing of it is lost to a power cut.
    return left is not None and left.table_unsaved() and not left.table_stale()


def tray_stale() -> bool:
    """Whether the dice tray this run left (:data:`_TRAY_LEFT`) has only an older table in
    its file, the disk refusing it (:meth:`DiceTrayMode.table_stale`): another mode's System
    menu then says that, not that a power cut loses a table (``SystemMenu.table_stale``;
    reviewd67b RISK 5; play.session.system_menu is to set it)."""
    left = _TRAY_LEFT.get(data_dir())
    return left is not None and left.table_stale()


def run_dice_tray(config: Config, display: Display, controls: Controls,
                  seed: int | None, menu: SystemMenu | None) -> None:
    """``--mode dice``: the dice tray until the player quits (what is saved: the poisons it
    tracks, the list ``companion events`` keeps, and its table part-thrown, in
    dice/tray.json). A table under way when the player switched to another mode is carried
    on (:data:`_TRAY_LEFT`); else the one its file holds is taken up (after a power cut, a
    Quit or a stop, with ``--resume`` or without: the throws taken are never thrown again
    but by the tray's *Menu*, as its poisons are kept at every start)."""
    expressions = parse_expressions(config.text("dice.expressions"))
    # The user's events.toml Defaults, as `companion events` uses; a value refused keeps out
    # only its rule: the tray starts, its rolls and Tick go on (events74 RISK 2).
    rules = load_user_rules([])
    for line in refused_rules(rules):
        note(line)
    poll = config.number("input.poll_seconds")
    with table_dice(config, controls, display, menu) as (dice, source):
        # Simulated dice go on where they stopped when the run comes back to the tray, as a
        # genso table's do: seeded again, they threw the same rolls again (modes74 DEFECT 4).
        rolls = dice or _SIM_DICE.setdefault(data_dir(), SimRolls(
            SimulatedDice.seeded(seed if seed is not None else secrets.randbits(32))))
        # The camera's enrolled dice not used: said on stderr by camera_rolls, and on the
        # tray's screen, where the player at the Pi reads (fixdice71b)
        notice = dice.source.enrol_notice if isinstance(dice, CameraRolls) else ""
        if rules.settings.refused and not notice:  # the Table panel says which and why
            notice = RULES_REFUSED
        # A list file written wrong blocks only the tables that use it (events72 DEFECT 2)
        lists, lists_error = tray_lists()
        tray = DiceTrayMode(expressions, SOURCE_NAMES[source], rules,
                            PoisonList(poisons_path()), lists, table_path(),
                            notice=notice, lists_error=lists_error,
                            reload_lists=lambda: user_lists(None), typed=source == "typed")
        left = _TRAY_LEFT.pop(data_dir(), None)
        if left is not None:
            tray.carry_on(left)
        else:
            tray.take_up_saved()
        if menu is not None:  # its table part-thrown the disk refused: the menu says so
            menu.table_unsaved = tray.table_unsaved
            menu.table_stale = tray.table_stale
        try:
            Session(tray, choices=MenuChoices(controls, poll), rolls=rolls, display=display,
                    system_menu=menu).run()
        except ModeSwitch:
            # A roll or table chosen, its first die not yet thrown (Stage.THROW, no throws:
            # not under way, nothing in its file) is carried on too: the tray came back at its
            # menu, the choice dropped (modes74 NIT 5).
            if tray.under_way() or tray.table_unsaved() or (  # or its file older (stale)
                    tray.stage is Stage.THROW):
                _TRAY_LEFT[data_dir()] = tray
            raise


def run_genso(args: argparse.Namespace, config: Config, display: Display,
              controls: Controls, menu: SystemMenu | None) -> None:
    """``--mode genso``: a genso fight at the table, saved after every answer (``--state``,
    default genso/table.json in the data folder; ``--resume`` replays it)."""
    from companion.app.commands.genso import saved_fight_rules
    from companion.app.modes.genso import table_session
    from companion.app.modes.genso.table import start_hint as genso_start_hint

    poll = config.number("input.poll_seconds")
    no_fight_yet(args, "genso", genso_start_hint())
    with table_dice(config, controls, display, menu) as (rolls, source):

        def start(resume: bool) -> Session:
            return table_session(
                saved_fight_rules([]), *table_files(args, "genso"), resume=resume,
                seed=args.seed, choices=MenuChoices(controls, poll), rolls=rolls,
                display=display, source_name=SOURCE_NAMES[source],
                tell=lambda message: tell(message, display, controls),
                resume_with=resumes(args, "genso"))

        played(taken_up(start, args.resume, "genso", display, controls, poll, menu), menu)


def run_coc(args: argparse.Namespace, config: Config, display: Display,
            controls: Controls, menu: SystemMenu | None) -> None:
    """``--mode coc``: a coc fight at the table, saved after every answer (``--state``,
    default coc/table.json in the data folder; ``--resume`` replays it). With ``--dice
    camera`` the camera reads the d6-based dice and the rest are typed or simulated
    (``--d100``)."""
    from companion.app.modes.coc import table_session
    from companion.app.modes.coc.table import start_hint as coc_start_hint

    d100 = config.text("dice.d100")
    poll = config.number("input.poll_seconds")
    no_fight_yet(args, "coc", coc_start_hint())
    with table_dice(config, controls, display, menu) as (dice, source):
        # Camera dice: the d6-based ones, the rest typed or simulated (d100); typed: all typed.
        camera, rolls = (dice, None) if source == "camera" else (None, dice)
        name = (f"camera カメラ (d6) · d100 {'typed 入力' if d100 == 'typed' else 'sim 仮想'}"
                if source == "camera" else SOURCE_NAMES[source])

        def start(resume: bool) -> Session:
            return table_session(
                *table_files(args, "coc"), resume=resume, seed=args.seed,
                choices=MenuChoices(controls, poll), display=display, rolls=rolls,
                source_name=name, tell=lambda message: tell(message, display, controls),
                camera=camera, controls=controls, d100=d100, poll_seconds=poll,
                resume_with=resumes(args, "coc"))

        played(taken_up(start, args.resume, "coc", display, controls, poll, menu), menu)


def no_fight_yet(args: argparse.Namespace, mode: str, start_hint: str) -> None:
    """With neither the ``mode`` table's fight file nor its save there, the table's own
    "no fight at … yet" (:func:`read_fight_data`), said before the dice are chosen: the dice
    camera's question (type the dice instead?) came first, answered for nothing (modes74
    NIT 6)."""
    fight, state = table_files(args, mode)
    if not fight.exists() and not state.exists():
        read_fight_data(fight, start_hint, default_fight_file(mode))


def resumes(args: argparse.Namespace, mode: str) -> Callable[[Path, Path], str]:
    """The command that plays on a ``mode`` table's save (a path) of a fight file (a path),
    with the flags this run (its command line ``args``) was given (:func:`resume_command`)."""
    def command(state: Path, fight: Path) -> str:
        return resume_command(argparse.Namespace(**{**vars(args), "state": state,
                                                    "fight": fight}), mode)
    return command


def played(session: Session | None, menu: SystemMenu | None) -> None:
    """A fight table's session (None: the player quit before it) played to its end, with
    the System menu."""
    if session is not None:
        session.system_menu = menu
        session.show_next()
        session.run()


def taken_up(start: Callable[[bool], Session], resume: bool, system: str, display: Display,
             controls: Controls, poll_seconds: float,
             menu: SystemMenu | None) -> Session | None:
    """A ``system``'s (genso, coc) fight table's session, ``start(resume)``; None when the
    player quits instead. A table of a fight over and closed waits for the next
    (:func:`wait_for_next_fight`).

    A resume that finds the fight file changed since the table stopped (the GM's ``fight
    undo`` between sessions: :class:`FightFileChanged`) asks the player at the display
    whether to take the file up: ``start(False)``, which keeps the stopped table's save
    aside, as a start without ``--resume`` does. Under the boot service, which always
    resumes and starts the companion again after a stop, the stop that said to play
    without --resume came back at every start, a flag the player at the buttons cannot
    give. The reason goes to stderr first, with how a command line takes the file up. Both
    questions offer the System menu (``menu``): another mode, or unplugging, is a way on
    that the boot service does not undo, as it undoes Quit."""
    try:
        return start(resume)
    except FightFileChanged as changed:
        note(str(changed))
        question = another_fight_question(changed.kept) if changed.another \
            else CHANGED_QUESTION
    except FightClosed as closed:
        note(str(closed))
        if not wait_for_next_fight(closed, system, display, controls, poll_seconds, menu):
            return None
        return start(resume)
    show = question_show(display, menu)
    if answered(menu, lambda: choose(controls, show, question, CHANGED_OPTIONS, 0,
                                     poll_seconds), show) != 0:
        return None
    return start(False)


#: How often the closed fight's table looks whether the next fight was made.
NEXT_FIGHT_SECONDS = 1.0
NEXT_FIGHT_OPTIONS = (Option("quit", "Quit 終了", Button.FLEE),)


def wait_for_next_fight(closed: FightClosed, system: str, display: Display,
                        controls: Controls, poll_seconds: float, menu: SystemMenu | None,
                        sleep: Callable[[float], None] = time.sleep) -> bool:
    """The table of a fight over and closed waits for the next: True once its fight file
    holds another fight (the GM's ``fight new``, or an undo of the closed one's end) and the
    table holds the file again; False when the player quits. The screen says how the next
    is made, which the buttons cannot do; under the boot service the closed fight's "fight
    is over" menu came back after every Close. The System menu (``menu``) leads to another
    mode meanwhile.

    The file let go of meanwhile, the GM's commands write it. ``fight apply`` of the closed
    fight, the step the screen before advised, records the sheets it wrote in the file: no
    other fight, so the table waits on (it took the fight up again and held the file, and
    the GM's next ``fight new`` was refused). A next fight still held by its writer
    (``fight new`` syncing a slow card, a fight command loading or saving it) is waited for
    too: taking it at once, the table stopped "in use"."""
    show = question_show(display, menu)
    path = closed.fight_path
    sha, as_closed = unapplied_fight(path)
    if sha != closed.sha:
        as_closed = None  # already another since the table found it closed

    def another() -> bool:
        sha, fight = unapplied_fight(path)
        return sha is not None and sha != closed.sha and (as_closed is None
                                                          or fight != as_closed)

    def wait(take_back: Callable[[], bool]) -> bool:
        show(f"The fight is over and closed 戦闘終了. Make the next one on a computer: "
             f"{companion_line(system, 'fight', 'new')} … 次の戦闘は端末で作成; this table takes "
             f"it up once made ({path}).", options=NEXT_FIGHT_OPTIONS)
        looked = time.monotonic()
        while True:
            for press in controls.poll():
                chosen, _ = menu_press(press, len(NEXT_FIGHT_OPTIONS), 0, {Button.FLEE: 0})
                if chosen is not None:
                    return False
            if time.monotonic() - looked >= NEXT_FIGHT_SECONDS:
                looked = time.monotonic()
                if another() and take_back():
                    return True
            sleep(poll_seconds)

    with let_go(path) as take_back:  # the table's hold refused the GM's fight new
        return answered(menu, lambda: wait(take_back), show)


def titled(display: Display, mode: str) -> Display:
    """The display a table mode plays on: its message screens (the settings, a question,
    a save kept aside, the error that stopped it) bear the table's title, as its own
    screens do. Each mode's words are imported when it is played (start-up time)."""
    if mode == "genso":
        from companion.app.modes.genso.words import TITLE
    elif mode == "coc":
        from companion.app.modes.coc.words import TITLE
    else:
        from companion.app.modes.dice_tray import TITLE
    return Titled(display, TITLE)


class Titled:
    """A display whose message screens bear a table's title, not the JongRogue title
    :func:`message_view` gives."""

    def __init__(self, display: Display, title: str) -> None:
        self.display = display
        self.title = title

    def show(self, view: View) -> None:
        self.display.show(dataclasses.replace(view, title=self.title) if view.message
                          else view)

    def poll(self) -> list[Press]:
        return self.display.poll()

    def close(self) -> None:
        self.display.close()


#: What the screen calls each ``dice.source``.
SOURCE_NAMES = {"camera": "camera カメラ", "typed": "typed 入力", "sim": "simulated 仮想"}
# Under a die's keypad with ``--dice typed``: the player's own dice, no camera.
TYPED_WHY = "your own dice, typed 手持ちのダイスを入力"


#: What a table whose dice camera cannot be opened asks.
NO_CAMERA_OPTIONS = (Option("typed", "Type the dice 手入力で続ける", Button.ATTACK),
                     Option("quit", "Quit 終了", Button.FLEE))


class QuitAtNoCamera(DeviceError):
    """The dice camera's error, the player having read it and chosen *Quit 終了* at the
    question that offered typed dice (:func:`real_dice`): in a mode the System menu
    switched to, the run goes back home with nothing more to OK (reviewm74 NIT 2: the text
    just read was held again, as an error, before the mode the run began in played on)."""


#: What the run's camera rolls last knew of the dice in view (:class:`DiceLeft`), by the data
#: folder as :data:`_TRAY_LEFT`: each mode's camera rolls are new, and the dice read in the
#: mode before are not a new throw in the next (reviewdice66 DEFECT 2).
_DICE_LEFT: dict[Path, DiceLeft] = {}


@contextlib.contextmanager
def table_dice(config: Config, controls: Controls, display: Display,
               menu: SystemMenu | None) -> Iterator[tuple[RollFeed | None, str]]:
    """:func:`real_dice`, the dice camera let go once the table is left: the run may go on
    in another mode (the System menu), whose tile camera is the same camera by default."""
    dice, source = real_dice(config, controls, display, menu)
    try:
        yield dice, source
    finally:
        if isinstance(dice, CameraRolls):
            _DICE_LEFT[data_dir()] = dice.left()
            dice.close()


def real_dice(config: Config, controls: Controls, display: Display,
              menu: SystemMenu | None) -> tuple[RollFeed | None, str]:
    """The table's real dice and the ``dice.source`` they are: read by the camera, or
    thrown and typed on a keypad (``typed``: a table with dice and no dice camera); None:
    simulated. A dice camera that cannot be opened (unplugged, Picamera2 missing) is said
    on the screen, and the player may type their dice for this session instead: under the
    boot service the Stopped screen came back at every start, and only a computer could
    change ``dice.source``. Quit raises the camera's error, as before (its text, as
    :class:`QuitAtNoCamera`)."""
    source = config.text("dice.source")
    poll = config.number("input.poll_seconds")
    if source == "camera":
        try:
            return camera_rolls(config, controls), source
        except DeviceError as exc:
            how = config.how_to_set("dice.source", "typed")
            # A flag holds for the run it is typed for, not every session (r77setup).
            later = f"{how} types them without asking" \
                if config.settings["dice.source"].source is Source.COMMAND_LINE \
                else f"to type them every session: {how}"
            prompt = (f"The dice camera cannot be used カメラが使えません: {exc}. Type the dice "
                      f"you throw for this session? ({later})")
            show = question_show(display, menu)
            if answered(menu, lambda: choose(controls, show, prompt, NO_CAMERA_OPTIONS, 0,
                                             poll), show) != 0:
                raise QuitAtNoCamera(str(exc)) from exc
            note(f"{exc}; the dice are typed this session")
            source = "typed"
    if source == "typed":
        return Keypad(controls, poll, TYPED_WHY), source
    return None, source


def camera_rolls(config: Config, controls: Controls) -> CameraRolls:
    """Real dice on the dice camera, each read confirmed by the player."""
    from companion.hw.dice.frames import CameraStream, frame_iterator
    from companion.hw.dice.source import CameraDiceSource, Motion

    chosen = config.dice_camera()
    stream = frame_iterator(chosen)
    if isinstance(stream, CameraStream):
        # A webcam not plugged in: the DeviceError real_dice offers typed dice for, now,
        # rather than a roll's wait for it (dice62 R1).
        stream.refuse_absent()
    frames = CameraFrames(stream, controls, Motion().moving)
    # The source named beside its frames: a folder or a video that runs out is said as
    # such, not as a camera that stopped (fixcarry70 item 1).
    camera = CameraDiceSource(chosen, frames=frames, config_file=config_dir() / "dice.toml")
    if camera.enrol_notice:  # as `companion roll` says it (dicecam71 DEFECT 3: said nowhere)
        note(camera.enrol_notice)
    rolls = CameraRolls(camera, frames, controls, config.number("input.accept_seconds"),
                        config.number("input.poll_seconds"))
    left = _DICE_LEFT.get(data_dir())
    if left is not None:  # the dice read in a mode before, still lying there
        rolls.carry_on(left)
    return rolls
