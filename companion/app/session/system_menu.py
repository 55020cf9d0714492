"""The System 設定 menu: what a player with the four buttons alone needs beyond the game.

Held open by a long hold of the item button (``buttons.system_press_seconds``), the S key
or a tap on the screen's header, from any ask of a session: a menu, a tile awaited, dice
awaited. Under the boot service the buttons are all the player has, and a game of
JongRogue came back at every start with no way to leave it, no screen led to another mode,
and nothing said when the power could go.

It offers: Back to the ask; New game (JongRogue only: the unfinished game is kept aside, as
a new game started on the command line keeps it); another mode (the one left is saved as it
stands and carried on when it is chosen again); under the boot service, Quit to console,
which ends the run with an exit status the service does not start it again after (its
screen held, a player with a keyboard alone had no way to the console to calibrate: the
unit, written by scripts/install-pi.sh, names itself in
:data:`companion.file_locks.SERVICE_ENV`); and Shut down, which runs
``play.shutdown_command`` (``systemctl poweroff`` on the Pi) or, with none, says that the
plug may be pulled: every step is saved as it is taken.
"""

from __future__ import annotations

import shlex
import subprocess
import time
from collections.abc import Callable
from typing import Any, TypeVar

from companion.app.notes import note
from companion.app.session.controls import Controls, SystemAsked, choose
from companion.app.session.keypad import ThrowLeft
from companion.app.session.mode import Show
from companion.file_locks import service_name
from companion.hw.buttons import Button
from companion.hw.display.view import Option

T = TypeVar("T")

#: Each mode of ``companion play`` (``play.mode``) by its name in the menu.
MODE_NAMES = {"game": "JongRogue 雀ローグ", "dice": "Dice tray ダイストレイ",
              "genso": "Genso fight 幻想迷宮", "coc": "CoC fight クトゥルフ"}

BACK = Option("back", "Back 戻る", Button.FLEE)
NEW_GAME = Option("new", "New game 新しいゲーム")
#: A question's two answers: No first, highlighted, so that A pressed twice does nothing.
NO = Option("no", "No, back いいえ", Button.FLEE)

CONSOLE = Option("console", "Quit to console コンソールへ")

LEAVE_QUESTION = ("Leave this game for a new one? この冒険をやめて新しく始める？ (it is kept "
                  "aside, not lost 保存して残す)")

POWERING_OFF = ("Shutting down 電源を切っています: unplug once the Pi's green light stays off "
                "緑のランプが消えたら抜いてください")

SAFE_NOW = "every step is saved: safe to unplug now 電源を抜いても大丈夫"
#: :data:`SAFE_NOW` with a throw part-typed on the keypad (its dice on the status line).
SAFE_BUT_THROW = "saved, but not this throw: safe to unplug now 電源を抜いても大丈夫"

#: How long a shutdown command may take to answer (``systemctl poweroff`` answers at once).
SHUTDOWN_TIMEOUT_S = 30.0
#: How long the Shutting down screen waits for the power to go once the command was taken:
#: a command that exits 0 and never powers off (``shutdown -h +5``, a script that only
#: logs) left it there for good, with no way back but the plug (review 56 #10).
POWER_OFF_WAIT_S = 60.0


#: Quit to console's exit status, in the unit's RestartPreventExitStatus= (and
#: SuccessExitStatus=): 0 is a finished game, 1 and 2 errors, 130 a stop, each restarted.
CONSOLE_EXIT_STATUS = 4


class NewGameAsked(Exception):
    """The player chose New game and confirmed it: the game is left as saved."""


class ConsoleAsked(SystemExit):
    """The player chose Quit to console and confirmed it: the run ends, the game left as
    saved, with :data:`CONSOLE_EXIT_STATUS` (a SystemExit, past the handlers that would show
    an error or take it for a stop, which the service undoes)."""

    def __init__(self) -> None:
        super().__init__(CONSOLE_EXIT_STATUS)


class ModeSwitch(Exception):
    """The player chose another mode: ``mode`` (a ``play.mode`` value)."""

    def __init__(self, mode: str) -> None:
        super().__init__(f"switching to {MODE_NAMES[mode]}")
        self.mode = mode


#: :func:`all_saved` while the dice tray has a table part-thrown the disk refused to save
#: (its file, dice/tray.json, written after every step, is taken up at the next start): it
#: is then held in memory for the run only (carried on from another mode), and a power cut
#: loses it (dice66 D3). Saved, the heading says every step is, as it is.
TABLE_NOT_SAVED = "saved 保存済み, but not this table: lost if unplugged 電源断で消える"
#: :data:`SAFE_NOW` then.
UNPLUG_LOSES_TABLE = ("every step is saved but this table's throws: unplugging now loses them "
                      "表の途中は電源断で消える")
#: :data:`TABLE_NOT_SAVED` in another mode, the tray's table held for the run in memory only
#: (its file refused; carried on when the run comes back to the tray): "this table" there
#: would be the mode's own, which is saved (dice66 D3 follow-up).
TRAY_NOT_SAVED = "saved 保存済み, but not the dice tray's table: lost if unplugged 電源断で消える"
#: :data:`UNPLUG_LOSES_TABLE` in another mode.
UNPLUG_LOSES_TRAY = ("every step is saved but the dice tray's table part-thrown: unplugging now "
                     "loses it ダイストレイの表の途中は電源断で消える")
#: :func:`all_saved` while the dice tray's file (dice/tray.json) holds an older table than
#: the tray's, the disk having refused both its write and its removal (a read-only disk), and
#: no table is under way (:attr:`SystemMenu.table_stale`): nothing is lost to a power cut,
#: but a start asks that older table's dice again (reviewd67b RISK 5).
TABLE_STALE_SAVED = "saved 保存済み, but an older dice table is on disk: asked again 古い表が残る"
#: :data:`SAFE_NOW` then.
UNPLUG_STALE_TABLE = ("every step is saved, but the dice tray's file holds an older table: the "
                      "next start asks its dice again 古い表が残る")
#: What Quit to console's note says then.
QUIT_STALE_TABLE = ("saved, but the dice tray's file holds an older table, the disk refusing "
                    "it: the next start asks its dice again")
#: What Quit to console's note (stderr) says of the tray's table part-thrown the disk refused
#: to save: the run's end loses it as a power cut would. (Saved, the next start takes it up.)
QUIT_LOSES_TABLE = ("saved, but not the dice tray's table part-thrown, its file refused: it is "
                    "lost")


def all_saved(left: str = "", table: str = "") -> str:
    """"every step is saved 保存済み", or, with a throw left part-way on the keypad
    (``left``, :class:`~companion.app.session.keypad.ThrowLeft`), that it is not: it is typed
    again (tables65 NIT 2). Short, so that the menu's heading, one row over its buttons,
    reads whole at 800x480 with text_scale 1.25 (review65t D1: the longer words were cut in
    their middle, "every step is saved 保存…", at every size); what was typed is the status
    line's (:func:`throw_left_status`). ``table``: what is said instead while the dice tray's
    table part-thrown is held in memory only, the disk refusing its file
    (:meth:`SystemMenu.held_table`): a power cut loses it, the throw being typed with it."""
    if table:
        return table
    if not left:
        return "every step is saved 保存済み"
    return "saved 保存済み, but not this throw: typed again 出目は再入力"


def throw_left_status(left: str) -> str:
    """The status line under a heading that says a throw is typed again: what of it was
    typed (``left``: ``4 typed of 2D6``, a d100's tens ``3_ typed of 1D100``), in Japanese
    too (input audit 67 N1)."""
    return f"{left} 入力済: asked again from its first die 最初のダイスから再入力" if left else ""


def menu_prompt(unsaved: str = "", left: str = "", table: str = "") -> str:
    """The menu's heading, and whether every step is saved; why not (``unsaved``) is the
    status line's, under it, as are the dice typed of a throw the menu was opened in
    (``left``: :func:`all_saved`, :func:`throw_left_status`)."""
    return ("System 設定: NOT all saved, see below 未保存あり" if unsaved
            else f"System 設定: {all_saved(left, table)}")


def answered(menu: SystemMenu | None, get: Callable[[], T], show: Show) -> T:
    """``get()``'s answer, with the System menu offered while it waits when there is one: a
    question before a table (the fight file changed, a closed fight waiting for the next),
    which under the boot service came back at every start whatever the player answered.
    No table's save is written yet there: nothing is behind."""
    return get() if menu is None else menu.answering(get, show, lambda: "")


class SystemMenu:
    """The menu of a run of ``companion play`` in ``mode``, on ``controls``."""

    def __init__(self, controls: Controls, mode: str, poll_seconds: float,
                 shutdown_command: str, unplayable: Callable[[str], str] = lambda mode: "",
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic,
                 service: str | None = None) -> None:
        """``service``: the boot service this run is (Quit to console is offered); None:
        :data:`companion.file_locks.SERVICE_ENV` says, "" none."""
        self.controls = controls
        self.mode = mode
        self.poll_seconds = poll_seconds
        self.shutdown_command = shutdown_command
        self.unplayable = unplayable  # why a mode cannot be played now ("": it can)
        self.sleep = sleep
        self.clock = clock
        self.service = service_name() if service is None else service
        self.showing = False  # the menu is on the screen (which then offers it no more)
        # Why the save is behind, as the last ask that offered the menu knew it: a stop
        # outside the session (see :meth:`stopped`) cannot ask the session any more.
        self.last_unsaved: Callable[[], str] = lambda: ""
        # The dice typed of the throw the menu was opened in, not saved (ThrowLeft): "".
        self.throw_left = ""
        # Whether the run holds steps in memory only, lost to a power cut: the dice tray's
        # table part-thrown whose file the disk refused, in the tray or held while the run is
        # in another mode (play.session.system_menu and play.table_modes.run_dice_tray set
        # it). Saved in its file, the next start takes it up, and nothing is lost.
        self.table_unsaved: Callable[[], bool] = lambda: False
        # Whether the tray's file holds an older table than the tray's (the disk refused
        # its write and its removal), no table under way: said instead of the above.
        self.table_stale: Callable[[], bool] = lambda: False
        # Why New game cannot begin a game now ("": it can), asked before the game is left:
        # its profile refused (a blank name a game begun before 42818b26 resumes with) was
        # met only after the game was kept aside, and ended the run (reviewh74b N2).
        self.new_game_refused: Callable[[], str] = lambda: ""

    def held_table(self) -> str:
        """What the menu's heading says of the dice tray's table part-thrown, held in memory
        only, its file refused (:attr:`table_unsaved`): :data:`TABLE_NOT_SAVED` in the tray,
        :data:`TRAY_NOT_SAVED` in another mode, whose heading said "every step is saved"
        (dice66 D3 follow-up); "" with none."""
        if self.table_stale():
            return TABLE_STALE_SAVED
        if not self.table_unsaved():
            return ""
        return TABLE_NOT_SAVED if self.mode == "dice" else TRAY_NOT_SAVED

    def unplug_loses(self) -> str:
        """What Unplug says with the tray's table held: :data:`UNPLUG_LOSES_TABLE` in the tray,
        :data:`UNPLUG_LOSES_TRAY` in another mode; :data:`UNPLUG_STALE_TABLE` with only an
        older table on the disk (:attr:`table_stale`)."""
        if self.table_stale():
            return UNPLUG_STALE_TABLE
        return UNPLUG_LOSES_TABLE if self.mode == "dice" else UNPLUG_LOSES_TRAY

    def answering(self, get: Callable[[], T], show: Show, unsaved: Callable[[], str],
                  new_game: bool = True) -> T:
        """``get()``'s answer, the menu opened (:meth:`open`) each time SYSTEM is pressed
        while it waits, and ``get`` asked again after it, guarded against a repeat of the
        press that left the menu (:meth:`Controls.guard_repeat`). ``unsaved``: why the save is
        behind the game, when it is; ``new_game``: whether it offers one (:meth:`open`)."""
        self.last_unsaved = unsaved
        while True:
            self.controls.system_offered = True
            try:
                return get()
            except SystemAsked as asked:
                self.throw_left = asked.typed if isinstance(asked, ThrowLeft) else ""
            finally:
                self.controls.system_offered = False
            try:
                self.open(show, unsaved(), new_game)
            finally:
                self.throw_left = ""
            # The ask's own options lie where Back was: a double tap on it, or B pressed
            # twice, is not the ask's answer (input audit 63 D2: it fought, or fled).
            self.controls.guard_repeat()

    def stopped(self, wait: Callable[[], None], show: Show) -> None:
        """``wait`` on a Stopped screen with the menu offered: with no New game (the stop
        would only come back), and the last session's refused save said, not "saved"."""
        self.answering(wait, show, self.last_unsaved, new_game=False)

    def shut_down_label(self) -> str:
        return ("Shut down 電源を切る" if self.shutdown_command
                else "Unplug? 電源を抜く")

    def options(self, new_game: bool = True) -> tuple[Option, ...]:
        """Back, New game (a game of JongRogue not over: ``new_game``), the other modes, Quit
        to console (under the boot service), and shutting down."""
        others = [Option(f"mode:{mode}", name) for mode, name in MODE_NAMES.items()
                  if mode != self.mode]
        return (BACK, *([NEW_GAME] if self.mode == "game" and new_game else []), *others,
                *([CONSOLE] if self.service else []), Option("off", self.shut_down_label()))

    def open(self, show: Show, unsaved: str = "", new_game: bool = True) -> None:
        """Show the menu over the mode's screen (``show``) until the player is done here:
        Back returns (the ask is asked again); New game raises :class:`NewGameAsked`, another
        mode :class:`ModeSwitch` and Quit to console :class:`ConsoleAsked`, each the game
        saved as it stands. ``unsaved``: why the save is behind the game (the disk refused
        it), said instead of "saved". ``new_game``: False at a game's end, whose own New
        game is there already."""
        self.showing = True
        try:
            self.choose_until_done(show, unsaved, new_game)
        finally:
            self.showing = False

    def with_left(self, show: Show) -> Show:
        """``show``, with the dice typed of the throw the menu was opened in on the status
        line (:func:`throw_left_status`) while there are any."""
        if not self.throw_left:
            return show
        status = throw_left_status(self.throw_left)

        def shown(prompt: str, **kwargs: Any) -> None:
            if not kwargs.get("status"):
                kwargs.update(status=status, guidance=True)
            show(prompt, **kwargs)
        return shown

    def choose_until_done(self, show: Show, unsaved: str, new_game: bool) -> None:
        options = self.options(new_game)
        show = self.with_left(show)
        while True:
            chosen = options[self.choose(show, menu_prompt(unsaved, self.throw_left,
                                                           self.held_table()),
                                         options)]
            if chosen is BACK:
                return
            if chosen is NEW_GAME:
                if unsaved:
                    # The game could not be kept aside either, nor the new one saved.
                    self.tell(show, f"No new game while the disk refuses the save "
                              f"保存できない間は新しいゲーム不可 ({unsaved}): free space or fix "
                              "the folder")
                elif refused := self.new_game_refused():
                    self.tell(show, refused)
                elif self.sure(show, LEAVE_QUESTION, "Yes, new game はい"):
                    raise NewGameAsked
            elif chosen.choice.startswith("mode:"):
                mode = chosen.choice.removeprefix("mode:")
                if not (why := self.unplayable(mode)):
                    raise ModeSwitch(mode)
                self.tell(show, why)
            elif chosen is CONSOLE:
                self.to_console(show, unsaved)
            elif self.shut_down(show, unsaved):
                return

    def to_console(self, show: Show, unsaved: str) -> None:
        """Asked first, as Shut down is: leave the run for the console, the game saved as a
        stop leaves it (after each step), and the steps the disk refused (``unsaved``) said
        lost. Raises :class:`ConsoleAsked` when the player says yes."""
        start = f"sudo systemctl start {self.service}"
        # Why not all is saved is the status line's, under it, as under the menu's heading
        # (the session says the save's trouble on every screen): beside it the question ran
        # to four rows, cut in its middle at every size (fixs66).
        # (In Japanese too, and in three rows at text_scale 1.25 on 800x480.)
        lost = "Steps NOT saved (see below) are lost 未保存の手は失われます. " if unsaved else ""
        if self.sure(show, f"{lost}Quit to the console? コンソールに戻りますか？ The companion "
                           f"stays stopped until {start} or a reboot 再起動で戻ります",
                     "Yes, quit はい"):
            left = (f", but not the throw being typed ({self.throw_left}): it is asked again"
                    if self.throw_left else "")
            saved = (f"NOT all saved: {unsaved}" if unsaved
                     else QUIT_STALE_TABLE if self.table_stale()
                     else QUIT_LOSES_TABLE if self.table_unsaved()
                     else f"every step is saved{left}")
            note(f"quit to the console from the System menu ({saved}); {start} or a reboot "
                 "starts the companion again")
            raise ConsoleAsked

    def shut_down(self, show: Show, unsaved: str) -> bool:
        """Shut down (or say the plug may be pulled), then wait on that screen: a press
        goes back to the ask (a command that failed, a plug not yet safe to pull, a player
        who changed their mind). A shutdown taken offers nothing until the power goes, or
        until :data:`POWER_OFF_WAIT_S` says it did not (:meth:`powering_off`). False when
        the player answered No."""
        if self.shutdown_command and not self.sure(
                show, "Shut the companion down? 電源を切りますか？", "Yes, shut down はい"):
            return False
        if unsaved:
            # A power cut now would lose the steps the disk refused: said, not hidden.
            said = (f"Not safe to unplug yet 電源を抜かないで: {unsaved}. Each step saves "
                    "again; once one says saved again 保存再開, it is")
        elif not self.shutdown_command:
            # The tray's table held in memory only (its file refused) first: a power cut
            # loses it, and the throw typed with it.
            said = (self.unplug_loses() if self.table_unsaved()
                    else f"Safe to unplug now 電源を抜いても大丈夫: {all_saved(self.throw_left)}")
        else:
            # Said before the command runs: it may take a while to answer (SHUTDOWN_TIMEOUT_S).
            show("Shutting down 電源を切っています…")
            failed = self.power_off()
            if failed:
                said = f"Could not shut down 電源を切れません ({failed}); {self.safe_now()}"
            else:
                self.powering_off(show)
                said = (f"The Pi did not power off 電源が切れませんでした ("
                        f"{self.shutdown_command} was taken, yet the Pi is on after "
                        f"{POWER_OFF_WAIT_S:.0f} s); {self.safe_now()}")
        # Guarded against the press that chose Unplug (or Yes), as sure is: a double A took
        # the one option, keyed A, and the message went unread, "Not safe to unplug yet"
        # too (input audit 67 R1).
        self.controls.guard_repeat()
        self.choose(show, said, (Option("ok", "Back to the table 戻る", Button.ATTACK),))
        return True

    def safe_now(self) -> str:
        """:data:`SAFE_NOW`, or with a throw part-typed :data:`SAFE_BUT_THROW` (review65t
        NIT 4: the shutdown that failed, the Pi that stayed on, said "every step is saved");
        with the dice tray's table part-thrown held in memory only (its file refused), that
        unplugging loses it."""
        if self.table_unsaved():
            return self.unplug_loses()
        return SAFE_BUT_THROW if self.throw_left else SAFE_NOW

    def powering_off(self, show: Show) -> None:
        """The shutdown was taken: say when to unplug and offer nothing until the power
        goes (display audit 56 #12: "Back to the table" led back to a game the shutdown
        was ending), or for :data:`POWER_OFF_WAIT_S`, after which it has not gone. The
        controls are still read, a press doing nothing: the screen's window handles its
        events there, and closing it stops the run as anywhere else."""
        show(POWERING_OFF)
        given_up_at = self.clock() + POWER_OFF_WAIT_S
        while self.clock() < given_up_at:
            self.controls.poll()
            self.sleep(self.poll_seconds)

    def tell(self, show: Show, message: str) -> None:
        """Say why an entry cannot be taken now, until OK: the menu is shown again. Guarded
        against the press that chose the entry, as :meth:`sure` is: a double A took the OK,
        the message unread (input audit 67 R1)."""
        self.controls.guard_repeat()
        self.choose(show, message, (Option("ok", "OK 了解", Button.ATTACK),))

    def power_off(self) -> str:
        """Run the shutdown command; what went wrong, or "" when it was taken."""
        try:
            result = subprocess.run(shlex.split(self.shutdown_command), capture_output=True,
                                    text=True, timeout=SHUTDOWN_TIMEOUT_S, check=False)
        except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
            return f"{self.shutdown_command}: {exc}"
        if result.returncode != 0:
            why = (result.stderr or result.stdout).strip().splitlines()
            return f"{self.shutdown_command}: " + (why[-1] if why else
                                                   f"exit status {result.returncode}")
        return ""

    def sure(self, show: Show, question: str, yes: str) -> bool:
        """No, then Yes, guarded against the press that asked (:meth:`Controls.guard_repeat`):
        Yes is drawn where that entry was, and a double tap took it (input audit 63 D1)."""
        self.controls.guard_repeat()
        return self.choose(show, question, (NO, Option("yes", yes))) == 1

    def choose(self, show: Show, prompt: str, options: tuple[Option, ...]) -> int:
        return choose(self.controls, show, prompt, options, 0, self.poll_seconds, self.sleep)
