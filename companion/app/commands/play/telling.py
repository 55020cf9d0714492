"""What ``companion play`` tells the player outside a game's steps: a message (or a
question) on stderr and the screen, the events and summary a headless game prints, and
the farewell at a game's end."""

from __future__ import annotations

import argparse
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.app.command_name import as_typed_here, companion_command, companion_line
from companion.app.config import Config
from companion.app.notes import note
from companion.app.session.controls import Controls, choose
from companion.app.session.host import Session
from companion.app.session.mode import Show
from companion.app.session.save import SaveGame
from companion.app.session.system_menu import MODE_NAMES, SystemMenu
from companion.file_locks import service_name
from companion.hw.buttons import Button
from companion.hw.display import Display
from companion.hw.display.view import Option, message_view
from companion.hw.keyboard import KeyboardInput
from companion.systems.jongrogue.events import Event
from companion.systems.jongrogue.game import (
    RULES_REVISION,
    Game,
    Outcome,
    Termination,
    plays_its_seed_again,
)
from companion.systems.jongrogue.narration import describe, monster_name
from companion.systems.jongrogue.profile import Option as RuleOption
from companion.systems.jongrogue.profile import Profile

#: The letter each button is named by, on the screen and in the wiring guide.
BUTTON_LETTERS = {Button.ATTACK: "A", Button.FLEE: "B", Button.RANGED: "R", Button.ITEM: "I"}
#: How long the error that stopped the run stays on the screen when nobody presses a key.
STOP_SHOWN_SECONDS = 60.0
#: Under the boot service, the least time from this run's start to a stop on the screen
#: ending it, pressed through or not: the unit's start limit (10 starts in 5 minutes,
#: scripts/install-pi.sh) counts every start, and OK pressed at once to try again (a camera
#: being seated) took one every few seconds, the 11th refused, the screen left to the console
#: (review62c R2). 30 s and RestartSec's 3: 10 such starts take more than 5 minutes.
STOP_HELD_SINCE_START_SECONDS = 30.0
#: When this run began: ``companion play`` imports this module as it starts.
STARTED = time.monotonic()


def tell(message: str, display: Display | None, controls: Controls,
         ask: bool = False) -> bool:
    """Say something outside a game's steps: on stderr, and to a player at a display until
    they press OK (a save kept aside, a game not recorded: the player at the table sees only
    the screen); with ``ask``, wait for A (True) or B (False)."""
    note(message)
    return show_message(message, display, controls, ask)


def held_until_ok(display: Display | None, controls: Controls) -> bool:
    """Whether :func:`tell` holds a message on the screen until OK: a player's, at a
    display (the auto-player presses nothing, and headless nothing is shown)."""
    return display is not None and bool(controls.sources) and controls.player


def show_message(message: str, display: Display | None, controls: Controls,
                 ask: bool = False, closes_after: float | None = None) -> bool:
    """:func:`tell`'s part on the display, for a message stderr has had already.
    ``closes_after``: the A button may not be read, so the OK is tapped (or any press,
    the keyboard's ``a`` among them, passes it), and the screen goes on by itself after
    that many seconds, as a stop does when its A is off (:func:`show_stop`)."""
    if display is None or not held_until_ok(display, controls):
        return True
    if closes_after is not None and not ask:
        display.show(replace(message_view(message, (Option("ok", "Tap OK 了解"),)),
                             highlight=None))
        controls.poll()  # presses from before the screen do not pass it
        end = time.monotonic() + closes_after
        while time.monotonic() < end and not controls.poll():
            time.sleep(0.05)
        return True
    options = ((Option("new", "New game 新しいゲーム", Button.ATTACK),
                Option("quit", "Quit 終了", Button.FLEE)) if ask
               else (Option("ok", "OK 了解", Button.ATTACK),))

    def show(prompt: str, **kwargs: Any) -> None:
        display.show(message_view(prompt, kwargs.get("options", options)))

    return choose(controls, show, message, options, 0, 0.05) == 0


def show_settings_notices(config: Config, display: Display | None,
                          controls: Controls, a_unread: str | None = None) -> None:
    """What was wrong in the settings, on the screen or the terminal before play, until OK:
    the boot service's player sees no stderr, a typo (``kind = "RFID"``) otherwise shows
    only as the camera the companion fell back to, and the terminal's first frame clears
    the stderr lines off it (newuser61 R1: ``preset = "plsu"`` played plus unsaid).
    ``a_unread``: the A button is not read (its pin a header pin's number), said last, and
    the screen then closes by itself after :data:`STOP_SHOWN_SECONDS` (maker75 RISK 1: a
    Pi with the buttons alone waited there for an OK none of them could press)."""
    if config.notices:
        show_message("Settings 設定: " + "\n".join(config.notices)
                     + (f"\n{a_unread}" if a_unread else ""), display, controls,
                     closes_after=STOP_SHOWN_SECONDS if a_unread else None)


def question_show(display: Display, menu: SystemMenu | None) -> Show:
    """How a question or a stop outside a session is shown: a message screen with its
    options, and in its header the System menu's hint when the menu is offered (not while
    it is open); ``trouble=True``: the stop's error, drawn as trouble."""

    def show(prompt: str, *, options: tuple[Option, ...] = (), highlight: int | None = 0,
             trouble: bool = False) -> None:
        display.show(replace(message_view(prompt, options, trouble=trouble),
                             highlight=highlight,
                             system=menu is not None and not menu.showing))

    return show


def back_home(mode: str, home: str, why: str, hint: str | None = None) -> str:
    """What the display says, until OK, as the run goes back to ``home`` after ``mode``
    (switched to) stopped for ``why`` (and ``hint``: how to play without the device): at a
    terminal (held back home) and on the screen (:func:`show_stop`'s ``back``) alike."""
    return (f"{MODE_NAMES[mode]}: stopped 停止: {why}" + (f"\n{hint}" if hint else "")
            + f"\nBack to {MODE_NAMES[home]} 戻ります")


def back_home_note(mode: str, home: str, why: str) -> str:
    """What stderr says (after ``companion:``) as the run goes back to ``home`` after
    ``mode`` (switched to) stopped for ``why``: the mode first and the run going back last,
    as the display says it; ``<why>: back to …`` read as if the file ``why`` ended with were
    "back to" the mode (reviewm74 NIT 4)."""
    return f"{MODE_NAMES[mode]} stopped: {as_typed_here(why)}; back to {MODE_NAMES[home]}"


def show_stop(message: str, display: Display, controls: Controls,
              menu: SystemMenu | None = None, *, buttons_off: bool = False,
              ends: Button | None = None, back: str = "") -> None:
    """The error that stops the run, on the screen until a press or for
    :data:`STOP_SHOWN_SECONDS`: under the boot service the screen is all the player sees,
    and the service starts the companion again after it. With ``menu`` the System menu is
    offered meanwhile (another mode, unplugging). A player at a terminal is told the wait
    is there: on SSH beside the screen, the terminal looked hung for a minute. The keys of
    this terminal end it, when it reads them (``--choices keyboard``); else the screen's
    own, or the Pi's buttons. Under the boot service a press ends it no sooner than
    :data:`STOP_HELD_SINCE_START_SECONDS` after the run's start, saying it starts again
    shortly: the unit's start limit is then never reached by pressing through. The System
    menu its header offers still opens meanwhile (review62e R2: the hint was there, and
    every press dropped); its Back returns to the hold, the press already taken.
    ``buttons_off``: the A button was not opened (its pin shared with another part), and
    the terminal is told that it does not end it (``message`` says so on the screen;
    screen72 DEFECT 1); ``ends``: the button opened that does, None when none is. The OK
    box is then keyed by that button, or, with none, by the screen's own key 1 and said to
    be tapped: its [A] contradicted the sentence above it (reviews72 RISK 2). ``back``: the
    mode stopped was switched to, and the run goes back to the one it began in
    (:func:`back_home`'s text, shown in the place of "Stopped 停止: ``message``", as the
    terminal holds it: reviewm74 NIT 3); the run goes on, and no start again is waited for."""
    show = question_show(display, menu)
    if controls.player:
        if any(isinstance(source, KeyboardInput) for source in controls.sources):
            note("the error stays on the screen up to a minute: press a here, or Ctrl-C, "
                 "to end it")
        elif buttons_off and ends is not None:
            note(f"the error stays on the screen up to a minute, the A button off: press "
                 f"{BUTTON_LETTERS[ends]} there (or tap OK), or press Ctrl-C here to end it")
        elif buttons_off:
            note("the error stays on the screen up to a minute, the buttons off: tap OK "
                 "there (or type 1 on its keyboard), or press Ctrl-C here to end it")
        else:
            note("the error stays on the screen up to a minute: press A there, or Ctrl-C "
                 "here to end it")
    waited = False  # the stop's own wait is over: after the menu only the hold is left

    def wait() -> None:
        nonlocal waited
        if not waited:
            ok = Option("ok", "OK 了解", Button.ATTACK) if not buttons_off \
                else Option("ok", "OK 了解", ends) if ends is not None \
                else Option("ok", "Tap OK 了解")
            show(back or f"Stopped 停止: {message}", options=(ok,),
                 highlight=None if buttons_off else 0, trouble=True)
            if not controls.player:
                return
            controls.poll()
            end = time.monotonic() + STOP_SHOWN_SECONDS
            while time.monotonic() < end and not controls.poll():
                time.sleep(0.05)
            waited = True
        until = STARTED + STOP_HELD_SINCE_START_SECONDS
        # pressed through soon after the start (not back home: the run goes on)
        if not back and time.monotonic() < until and service_name():
            show(f"Stopped 停止, starting again shortly 間もなく再起動: {message}",
                 highlight=None, trouble=True)
            # Presses meanwhile are dropped with the run, but SYSTEM where the menu is
            # offered: it opens (SystemAsked).
            while (left := until - time.monotonic()) > 0:
                if controls.system_offered:
                    controls.poll()
                    left = min(left, 0.05)
                time.sleep(left)

    if menu is None:
        wait()
    else:
        menu.stopped(wait, show)


def farewell(session: Session, game: Game, display: Display | None, controls: Controls,
             config: Config, headless: bool,
             sleep: Callable[[float], None] = time.sleep, *, again: bool = True) -> bool:
    """The end of a game: the summary (``again``: with the command that plays it again,
    :func:`next_steps_line`), and on a player's screen a press for the next game
    (True: play it). The killing tile accepted with a double tap on A does not choose New
    game with its second press (see :func:`choose`): Game over stays to be read. The System
    menu is offered there as at every step (another mode; its New game is this one's)."""
    if headless:
        assert session.save is not None
        print_summary(game, session.save)
        print(next_steps_line(session.save, again))
        return False
    if display is None or not controls.player:
        return False
    options = (Option("next", "New game 新しいゲーム", Button.ATTACK),)

    def new_game() -> int:
        return choose(controls, session.show, session.next_prompt(), options, 0,
                      config.number("input.poll_seconds"), sleep)

    if session.system_menu is None:
        new_game()
    else:  # its New game is this one's
        session.system_menu.answering(new_game, session.show, lambda: session.save_trouble,
                                      new_game=False)
    return True


#: The flags a resume repeats as this run was given them (the input comes from the save).
RESUMED_FLAGS = ("choices", "display", "rfid_kind", "rfid_port", "dice", "d100", "fight",
                 "state", "log")
#: The flags the next game a resume starts repeats as well: a save keeps them for its own
#: game only, and the next one took config.toml's in their place.
NEXT_GAME_FLAGS = ("input", "profile", "preset", "strategy")


def resume_command(args: argparse.Namespace, mode: str = "game", *,
                   next_game: bool = False) -> str:
    """The command that carries on what this run (its command line ``args``, playing
    ``mode``) played, the way it played it: ``companion play --resume`` alone opened the
    screen and the buttons for a game played with the keys, or a headless one, and stopped
    there. A table's mode is always said, though config.toml chose it. ``next_game``: the
    save's game is over, and the command starts the next one, whose tiles come from
    ``--input`` as this run's did, not from the save, played with this run's ``--profile``,
    ``--preset`` and ``--strategy`` (not its ``--seed``: the next game is another one)."""
    words = ["play"]
    if (args.mode is not None or mode != "game") and not args.headless:
        words += ["--mode", args.mode or mode]
    words.append("--resume")
    if args.headless:  # it fixed --input, --choices, --display and --mode
        words.append("--headless")
    # A table's run says its --input too: the System menu's JongRogue plays by it (a
    # laptop's --input sim; reviewm74 RISK 1: dropped, the resumed run met the camera).
    table = ("input",) if (args.mode or mode) != "game" else ()
    for flag in (NEXT_GAME_FLAGS if next_game else table) + RESUMED_FLAGS:
        value = getattr(args, flag, None)
        if flag == "rfid_kind" and (found := getattr(args, "rfid_kind_found", None)):
            # The port held the other kind of reader: the kind given just failed (rfid69
            # D1, D2). Kept otherwise: the save does not hold the kind.
            value = found() or value
        if value is not None and flag in ("fight", "state", "log"):
            # Absolute: as typed (`--state my.json`), run from another folder (a new SSH
            # login, after a reboot) it found no save and began a new game (a78saves
            # item 3; kept copies' hints were mended so in reviewjourney75 RISK 2).
            value = Path(value).absolute()
        if value is not None and not (args.headless and flag in ("input", "choices",
                                                                 "display")):
            words += [f"--{flag.replace('_', '-')}", str(value)]
    return companion_line(*words)


def resume_elsewhere(args: argparse.Namespace, mode: str, state: Path,
                     fight: str | None) -> str:
    """The command that plays on ``mode``'s save at ``state``, another mode's, found where
    this run (its command line ``args``) saves, a table's with its own fight file ``fight``
    (None: the mode's default): with the choices and display this run was given (a
    laptop's keys and terminal), which every mode takes, and no flag of this mode's alone;
    a headless run's are the auto-player's, which plays no table. Its mode is said, a
    game's too: config.toml's play.mode chose this run's, another."""
    given = {} if args.headless else {"choices": args.choices, "display": args.display}
    return resume_command(argparse.Namespace(
        mode=mode, headless=False, state=state, fight=fight, **given), mode)


def print_events(events: Sequence[Event], profile: Profile,
                 options: frozenset[RuleOption] | None = None) -> None:
    """The turn-by-turn lines of ``events``, a game of ``profile`` (its rings by tile) and
    ``options`` (a strength drained said to count only where it does)."""
    for event in events:
        print(describe(event, profile, options))


def print_summary(game: Game, saved: SaveGame) -> None:
    outcome = game.outcome()
    pc = game.pc
    print()
    if outcome is not None and outcome.won:
        print(f"Result: 生還 survived, left floor {outcome.floor}")
    elif outcome is not None and outcome.termination is Termination.WALL_EXHAUSTED:
        # no death: the PC may stand at full HP (rules72 NIT 5)
        print(f"Result: ended on floor {outcome.floor}, {cause_of_death(outcome)}")
    elif outcome is not None:
        print(f"Result: died on floor {outcome.floor}, {cause_of_death(outcome)}")
    print(f"Level {pc.level}, XP {pc.xp}, gold {pc.gold}; {len(game.inputs)} inputs, "
          f"{len(game.events)} events; preset {saved.preset}, seed {saved.seed}, "
          f"strategy {saved.strategy}")


def auto_player_line(saved: SaveGame) -> str:
    """A headless game's first line: who plays it (the README's first command printed
    1,800 lines of a game without saying that no one at the keyboard chose a move)."""
    return (f"The auto-player chooses every move on the simulated wall 自動プレイ: preset "
            f"{saved.preset}, strategy {saved.strategy}, seed {saved.seed}")


def next_steps_line(saved: SaveGame, offer_again: bool = True) -> str:
    """A headless game's last line: how to play one yourself, and this one again. A game a
    revision before ``SAME_HEADLESS_GAMES_SINCE`` played (resumed from its save), or before
    ``SAME_HEADLESS_PROFILE_GAMES_SINCE`` with a profile of the user's, is not
    offered again: its seed plays the current revision now, another game (review61c F9). A
    later revision's seed plays the same game (door62b). Not ``offer_again``: the game's save is
    behind it and the history did not take it, and the resume said just before is what
    plays it again, into the history; the ``--seed`` of a copy saved nowhere, said after
    it, read as that one (review65h NIT 2)."""
    command = companion_command()
    yourself = (f"To play one yourself: {command} play --input sim --choices keyboard "
                f"--display terminal (no hardware), or {command} play (at the table)")
    if not offer_again:
        return yourself
    if not plays_its_seed_again(saved.rules, saved.profile_path is not None):
        return (f"{yourself}; this game, of rules revision {saved.rules}, cannot be played "
                f"again from its seed: a new game plays revision {RULES_REVISION}, another "
                "game")
    again = ["play", "--headless", "--seed", str(saved.seed), "--preset", saved.preset,
             "--strategy", str(saved.strategy)]
    if saved.profile_path is not None:
        again += ["--profile", saved.profile_path]
    return f"{yourself}; this game again: {command} {shlex.join(again)}"


def cause_of_death(outcome: Outcome) -> str:
    if outcome.cause == "frozen":
        return "frozen to death (凍死)"
    if outcome.cause:
        return monster_name(outcome.cause)
    return "the wall ran out of tiles (山牌切れ)"
