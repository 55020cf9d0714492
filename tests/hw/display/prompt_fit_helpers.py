"""Shared helpers for tests that a prompt or status reads whole on the screen: the sizes and
text scales drawn, what a part of the screen drew (read back through ``spy_text``), what is
wrong with a prompt or a status as drawn, an option label's ink on its box's border, a coc
fight on its board to draw, and the long prompts the app shows (the System menu's, a fight's,
the keypad's) for test_long_prompts and test_fight_footer."""

from __future__ import annotations

import functools
import random
import subprocess
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pygame
import pytest

from companion.app.modes.coc import CocFightMode
from companion.app.modes.genso import GensoFightMode
from companion.app.session import system_menu
from companion.app.session.controls import READ_OPTIONS, Controls
from companion.app.session.keypad import Keypad
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.app.session.rolls import TYPED_WHY, WAIT_OPTIONS, WAITING, throw_prompt
from companion.app.session.system_menu import LEAVE_QUESTION, SystemMenu
from companion.dice import SimulatedDice
from companion.errors import IllegalAction
from companion.hw.buttons import Button, Pick, Press
from companion.hw.display.option_buttons import TAP_MIN
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Option, View
from companion.systems.coc.combat import Fight as CocFight
from companion.systems.coc.combat import Side
from companion.systems.coc.rules import Profile
from companion.systems.coc.rules import load_rules as coc_rules
from companion.systems.coc.sheet import Sheet, sheet_from_mapping
from companion.systems.genso.combat import Fight as GensoFight
from companion.systems.genso.combat import entrants_for
from companion.systems.genso.rules import load_rules as genso_rules
from companion.systems.genso.sheet import preset
from tests.hw.screen_layout_helpers import Drawn, spy_text

#: Each screen: the two windows, and the Touch Display 2's portrait panel (full screen takes
#: its own size; the layout is drawn turned, 1280x720).
SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "720x1280": (720, 1280)}
SCALES = (1.0, 1.25)


def coc_board_mode(tough: bool = False) -> CocFightMode:
    """A coc fight on its board (profile 003): Ann kicks with martial arts, Bob has an SMG.
    ``tough``: Cult has 99 HP (a burst of 20 hits does not fell it)."""
    rules = coc_rules(Profile.P003)

    def sheet(name: str, dex: int, weapons: tuple[str, ...], hp: dict[str, int] | None = None,
              **skills: int) -> Sheet:
        return sheet_from_mapping(rules, {
            "name": name, "characteristics": {"STR": 13, "CON": 12, "POW": 10, "DEX": dex,
                                              "APP": 10, "SIZ": 13, "INT": 12, "EDU": 12},
            "skills": skills, "weapons": [{"key": w} for w in weapons], **(hp or {})}, name)

    fight = CocFight(rules, [
        (sheet("Ann", 14, ("kick",), kick=60, martial_arts=50, grapple=70), Side.INVESTIGATORS),
        (sheet("Bob", 12, ("smg", "shinai"), smg=60, japanese_sword=60), Side.INVESTIGATORS),
        (sheet("Cult", 10, ("knife",), {"max_hp": 99} if tough else None, knife=50),
         Side.FOES),
        (sheet("Deep", 8, ("japanese_sword",), japanese_sword=60, dodge=30), Side.FOES),
    ], SimulatedDice.seeded(3))
    return CocFightMode(fight, "simulated 仮想")


def drawn_in(screen: ScreenDisplay, view: View, part: str) -> list[Drawn]:
    """The texts ``screen`` fits while its method ``part`` (``_footer``, ``_status``) draws
    ``view``: none when it is not drawn."""
    drawn = spy_text(screen)
    marks: list[int] = []  # from, to
    draw = getattr(screen, part)

    def spy(*args: Any) -> None:
        marks.append(len(drawn))
        draw(*args)
        marks.append(len(drawn))

    screen.__dict__[part] = spy
    try:
        screen.render(view)
    finally:
        del screen.__dict__[part]
    return drawn[marks[0]:marks[1]] if marks else []


def unread(screen: ScreenDisplay, view: View) -> str:
    """What is wrong with ``view``'s prompt as drawn ("" when nothing): a row cut, the rows
    not the whole prompt, an option box under a fingertip's height or over the prompt's last
    row, an option's label cut."""
    drawn = drawn_in(screen, view, "_footer")
    # The prompt's rows: the texts of its size (an option's label is smaller, and is fitted
    # by _fit_middle too, as a prompt's row that runs on; a prompt over a fight whose panels
    # cannot give it the rows is set smaller, never under TEXT_MIN).
    rows = [d for d in drawn if d.size == screen._prompt_size(view) and d.text
            and d.text in view.prompt]
    shown = "".join(d.shown for d in rows).replace(" ", "")  # a row may end mid-word
    if any(d.cut or "…" in d.shown for d in rows) or shown != view.prompt.replace(" ", ""):
        return f"drawn as {[d.shown for d in rows]}"
    m = screen.m
    last_row_bottom = screen.height - screen._footer_height(view) + m(6) + len(rows) * m(24)
    low = [box for box, _ in screen._targets
           if box.top < last_row_bottom or box.h < m(TAP_MIN)]
    if low:
        return f"option boxes {low} over the prompt's last row or too low"
    # The options' labels (fitted in their middle, as a prompt's row that runs on): whole
    # (the tray's menu of four beside a status read "[A]…振る  [2]…es 表", reviewd67b RISK 7).
    cut = [d.shown for d in drawn if d.label and d not in rows and d.shown != d.text]
    return f"option labels cut: {cut}" if cut else ""


def status_unread(screen: ScreenDisplay, view: View) -> str:
    """What is wrong with ``view``'s status line as drawn ("" when nothing): a row cut, or
    the rows not the whole status."""
    rows = drawn_in(screen, view, "_status")
    shown = "".join(d.shown for d in rows).replace(" ", "")
    if any(d.cut or "…" in d.shown for d in rows) or shown != view.status.replace(" ", ""):
        return f"status drawn as {[d.shown for d in rows]}"
    return ""


def ink_on_borders(screen: ScreenDisplay, surface: pygame.Surface,
                   into_border: bool = False) -> list[str]:
    """The option boxes ``screen`` drew last (the page box too) whose label's ink reaches
    their border: inside the border, as thick as the lit one's, the first row of pixels
    above and below the label must hold the box's fill alone (its colour left of the
    label). ``into_border``: the ink may reach into the border, but not over its outer row
    nor under the box (each of those rows one colour). Read from the pixels drawn, each box
    named by its rect and the row."""
    border = max(3, screen.m(3))
    boxes = [box for box, _ in screen._targets] + ([screen._more[0]] if screen._more else [])
    touched = []
    for box in boxes:
        fill = tuple(surface.get_at((box.x + border + 1, box.centery)))[:3]  # left of the label
        rows = (box.y, box.bottom - 1, box.bottom) if into_border \
            else (box.y + border, box.bottom - 1 - border)
        for y in rows:
            colours = Counter(tuple(surface.get_at((x, y)))[:3]
                              for x in range(box.x + screen.m(10), box.right - screen.m(10)))
            ink = colours.total() - (colours.most_common(1)[0][1] if into_border
                                     else colours[fill])
            if ink:
                touched.append(f"{box}: {ink} px of ink on row {y - box.y}")
    return touched


# ---- the prompts the app shows (test_long_prompts, test_fight_footer) ---------------------


#: The service a Pi's System menu names (scripts/install-pi.sh).
SERVICE = "jongrogue-companion.service"
#: The prompts of each fight's walk that are drawn: its longest.
LONGEST = 6
#: The seeded walks of each fight (:func:`fight_said`). Four walked coc's table to defence
#: menus of three tags ("[called: leg] [fumble: fall] [Deep behind]") until revision 21 no
#: longer offered Treat with nobody hurt: the walks then went other ways, whose longest
#: menus had one tag; eight reach two tags again ("[called: leg] [from behind 背後]").
WALKS = 8


@dataclass(frozen=True)
class Said:
    """A prompt as the app shows it: its options and status, and the view it comes over
    (``over``: a key of :func:`_modes`; "" over each)."""

    name: str
    prompt: str
    options: tuple[Option, ...]
    status: str = ""
    guidance: bool = False
    over: str = ""



def genso_mode() -> GensoFightMode:
    rules = genso_rules()
    fight = GensoFight(rules, entrants_for(rules, [preset(rules, "pc1"), preset(rules, "pc2")],
                                           [("orc", 2)]))
    return GensoFightMode(rules, fight, "simulated 仮想")



# ---- the System menu's outcomes -------------------------------------------------------------


class Player:
    """Presses the answer each menu shown is given (``answers``, the last again and again)."""

    def __init__(self, answers: Sequence[Press]) -> None:
        self.answers = list(answers)
        self.pending: list[Press] = []

    def poll(self) -> list[Press]:
        out, self.pending = self.pending, []
        return out

    def answer(self) -> None:
        self.pending.append(self.answers.pop(0) if len(self.answers) > 1 else self.answers[0])


Shown = list[tuple[str, dict[str, Any]]]  # each prompt shown, with its keywords


def recorded_system_menu(answers: Sequence[Press], mode: str,
                         command: str = "systemctl poweroff",
                         ) -> tuple[SystemMenu, Callable[..., None], Shown]:
    """The System menu of ``mode``, a Player answering it with ``answers``, on a clock 30 s
    a glance; with the ``show`` to hand it, which keeps every prompt shown (with its
    keywords) in the list returned and answers those with options (dedupe73 D13)."""
    player = Player(answers)
    shown: Shown = []

    def show(prompt: str, **kwargs: Any) -> None:
        shown.append((prompt, kwargs))
        if kwargs.get("options"):
            player.answer()

    ticks = iter(range(0, 10**6, 30))
    menu = SystemMenu(Controls([player]), mode, 0.0, command, sleep=lambda _: None,
                      clock=lambda: float(next(ticks)), service=SERVICE)
    return menu, show, shown


def _menu_said(act: str, answers: Sequence[Press], command: str = "systemctl poweroff",
               unsaved: str = "", left: str = "", mode: str = "coc",
               starts: str = "") -> tuple[str, dict[str, Any]]:
    """The last prompt (starting ``starts``) the System menu shows with options (and its
    status) when ``act`` runs."""
    menu, show, shown = recorded_system_menu(answers, mode, command)
    menu.throw_left = left
    with_left = menu.with_left(show)
    if act == "shut down":
        menu.shut_down(with_left, unsaved)
    elif act == "console":
        menu.to_console(with_left, unsaved)
    else:
        menu.choose_until_done(with_left, unsaved, new_game=True)
    return next((p, k) for p, k in reversed(shown) if k.get("options") and p.startswith(starts))


def _systemctl(returncode: int = 0, stderr: str = "", raises: Exception | None = None) -> Any:
    """``subprocess.run`` answering as ``systemctl poweroff`` does (the edge of the world)."""
    def run(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        if raises is not None:
            raise raises
        return subprocess.CompletedProcess(args, returncode, "", stderr)
    return run


# What systemctl poweroff says when it cannot (a Pi without polkit's rule, a container, a
# system bus gone), and a command that is not there or does not answer.
REFUSALS = {
    "polkit": _systemctl(1, "Failed to power off system via logind: Interactive "
                            "authentication required.\n"),
    "no systemd": _systemctl(1, "System has not been booted with systemd as init system "
                                "(PID 1). Can't operate.\nFailed to connect to bus: Host is "
                                "down\n"),
    "no bus": _systemctl(1, "Failed to connect to bus: No such file or directory\n"),
    "missing": _systemctl(raises=FileNotFoundError(2, "No such file or directory",
                                                   "systemctl")),
    "timeout": _systemctl(raises=subprocess.TimeoutExpired(["systemctl", "poweroff"], 30.0)),
}
UNSAVED = "保存できません cannot save: disk full 空き容量なし; safe to move 128 128手目まで保存済"
LEFT = "1, 2, 3, 4, 5 typed of 6D6"


@functools.cache
def system_said() -> tuple[Said, ...]:
    """The System menu's long prompts, as its code words them."""
    # Yes to "Shut down?" (a tap), then Back to the table (A: a second tap so soon would be
    # taken for the first's double)
    yes = (Pick(1), Button.ATTACK)
    said: list[Said] = []

    def add(name: str, got: tuple[str, dict[str, Any]]) -> None:
        prompt, kwargs = got
        said.append(Said(name, prompt, tuple(kwargs["options"]), str(kwargs.get("status", "")),
                         bool(kwargs.get("guidance", False)),
                         "game" if prompt == LEAVE_QUESTION else ""))

    with pytest.MonkeyPatch.context() as patch:
        for why, run in REFUSALS.items():
            patch.setattr("companion.app.session.system_menu.subprocess.run", run)
            for left in ("", LEFT):
                add(f"could not shut down ({why}{', left' if left else ''})",
                    _menu_said("shut down", yes, left=left))
        patch.setattr("companion.app.session.system_menu.subprocess.run", _systemctl())
        for left in ("", LEFT):
            add(f"did not power off{' (left)' if left else ''}",
                _menu_said("shut down", yes, left=left))
    ok = (Button.ATTACK,)  # no shutdown command: no question before
    add("not safe to unplug", _menu_said("shut down", ok, command="", unsaved=UNSAVED))
    add("safe to unplug (left)", _menu_said("shut down", ok, command="", left=LEFT))
    # The session says the save's trouble on the status line of every screen (host.show).
    prompt, kwargs = _menu_said("console", (Pick(0),), unsaved=UNSAVED)
    add("quit to console", (prompt, {**kwargs, "status": UNSAVED}))
    # New game while the save is refused: told so (OK), then Back.
    add("no new game", _menu_said("menu", (Pick(1), Button.ATTACK, Button.FLEE),
                                  unsaved=UNSAVED, mode="game", starts="No new game"))
    add("leave", (LEAVE_QUESTION, {"options": (system_menu.NO,
                                               Option("yes", "Yes, new game はい"))}))
    return tuple(said)


# ---- a fight's prompts and the keypad's -----------------------------------------------------


class _Shown(Exception):
    def __init__(self, prompt: str, kwargs: dict[str, Any]) -> None:
        super().__init__(prompt)
        self.prompt, self.kwargs = prompt, kwargs


def keypad_said(ask: RollAsk, before: tuple[int, ...] = ()) -> Said:
    """The keypad's first menu for ``ask`` (a d100's tens, a D6's faces), as the player who
    types the dice sees it."""
    def show(prompt: str, **kwargs: Any) -> None:
        raise _Shown(prompt, kwargs)

    try:
        Keypad(Controls([]), 0.0, TYPED_WHY, sleep=lambda _: None).die(ask, show, before)
    except _Shown as shown:
        kwargs = shown.kwargs
        return Said(f"keypad 1D{ask.sides}", shown.prompt, tuple(kwargs["options"]),
                    str(kwargs["status"]), bool(kwargs["guidance"]))
    raise AssertionError("the keypad showed nothing")


def _walk(mode: Any, seed: int, steps: int = 300) -> Iterator[ChoiceAsk | RollAsk]:
    """``mode``'s asks as a fight walked at random (seeded) goes: any option but going back,
    seeded dice."""
    pick, dice = random.Random(seed), SimulatedDice.seeded(seed)
    for _ in range(steps):
        ask = mode.ask()
        if ask is None:
            return
        yield ask
        if isinstance(ask, RollAsk):
            mode.answer(Throw(tuple(dice.roll(ask.count, ask.sides))))
            continue
        ways = [i for i, o in enumerate(ask.options) if "undo" not in o.choice
                and o.choice not in ("back", "end", "end?")] or [0]
        try:
            mode.answer(pick.choice(ways))
        except IllegalAction:  # an option the engine refuses now: another
            continue


@functools.cache
def fight_said(system: str) -> tuple[Said, ...]:
    """A fight's longest prompts: its menus, and for its rolls the throw awaited (camera),
    the read judged, and the keypad's (typed dice; a d100's tens)."""
    make = coc_board_mode if system == "coc" else genso_mode
    choices: dict[str, ChoiceAsk] = {}
    rolls: dict[str, RollAsk] = {}
    for seed in range(WALKS):
        for ask in _walk(make(), seed):
            if isinstance(ask, ChoiceAsk):
                choices.setdefault(ask.prompt, ask)
            else:
                rolls.setdefault(ask.prompt, ask)
    said = [Said("menu", a.prompt, a.options, over=system)
            for a in sorted(choices.values(), key=lambda a: -len(a.prompt))[:LONGEST]]
    for ask in sorted(rolls.values(), key=lambda a: -len(a.prompt))[:LONGEST]:
        said += [
            Said("throw", throw_prompt(ask), WAIT_OPTIONS, WAITING, True, system),
            Said("read", f"Read 読み取り {ask.count}D{ask.sides}: "
                 f"{', '.join(['6'] * ask.count)} — {ask.prompt}", READ_OPTIONS,
                 "B rejects, A accepts; counts in 3 s Bでやり直し、3秒で確定", True, system),
            replace(keypad_said(ask, (4,) * (ask.count - 1)), over=system)]
    return tuple(said)
