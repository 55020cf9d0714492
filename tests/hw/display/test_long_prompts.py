"""Every long prompt the app puts in the footer reads whole, on every view it comes over,
at each screen size (800x480, 1024x600, and the 720x1280 portrait panel, turned) and text
scale (1.0, 1.25): the System menu's outcomes (a shutdown that failed or left the Pi on,
not safe to unplug yet, the questions), a fight's own prompts (its menus, a throw awaited,
a read to judge) and the keypad's for the dice the player types (a d100's tens, a D6 of a
throw). Over a fight the footer gave the prompt two rows, one over a keypad's grid, and the
rest was cut in the middle of the last: "The Pi did not power off … (systemctl poweroff
was t…to unplug now", a d100's "Ann キック/Kick+MA (1D100<=60…t [MA]" lost its target and
threshold (fixt65c RISK, review64s NIT 3).

The prompts are the app's own, made by its code (the System menu driven to its outcomes
with the shutdown command's answers as systemctl gives them, seeded fights walked through
their menus); they are drawn through :class:`ScreenDisplay` on SDL's dummy driver, and
what was drawn is read back from the texts it fitted (``spy_text``)."""

from __future__ import annotations

import functools
import os
import random
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from companion.app.modes.dice_tray import (
    TABLE_STALE,
    TABLE_UNREADABLE,
    TABLE_UNREADABLE_LEFT,
    TABLE_UNWRITTEN,
    UNREADABLE_LEFT_WHY,
    DiceTrayMode,
)
from companion.app.modes.fight import HELD, FightMode
from companion.app.modes.genso import GensoFightMode
from companion.app.poisons import PoisonList
from companion.app.session import system_menu
from companion.app.session.controls import READ_OPTIONS, Controls
from companion.app.session.host import SHORT_REASONS
from companion.app.session.keypad import Keypad
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.app.session.rolls import TYPED_WHY, WAIT_OPTIONS, WAITING, throw_prompt
from companion.app.session.system_menu import LEAVE_QUESTION, SystemMenu
from companion.dice import SimulatedDice
from companion.errors import IllegalAction
from companion.hw.buttons import Button, Pick, Press
from companion.hw.display import screen as screen_module
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Option, View, example_view
from companion.systems.genso.combat import Fight as GensoFight
from companion.systems.genso.combat import entrants_for
from companion.systems.genso.rules import load_rules as genso_rules
from companion.systems.genso.sheet import preset
from tests.hw.display.prompt_fit_helpers import (
    SCALES,
    SIZES,
    coc_board_mode,
    status_unread,
    unread,
)

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


# ---- the views ------------------------------------------------------------------------------


def _genso_mode() -> GensoFightMode:
    rules = genso_rules()
    fight = GensoFight(rules, entrants_for(rules, [preset(rules, "pc1"), preset(rules, "pc2")],
                                           [("orc", 2)]))
    return GensoFightMode(rules, fight, "simulated 仮想")


#: Bob's burst at Cult, dodged, from the fight's start (coc_board_mode).
BOB_BURST = ("end?", "end", "attack", "t:Cult", "w:0", "h:burst", "d:dodge")
#: Fights whose action is held (:data:`~companion.app.modes.fight.HELD` asked), by name:
#: the fight, and the journal that holds it. A coc burst keeps a roll a bullet: the question
#: naming each was cut with "…" at 800x480 and 1024x600 with four or more (reviewf67
#: DEFECT 1); 5 kept (to hit, hits, the dodge, two bullets' damage) and 20 (twenty hits).
HELD_WALKS: dict[str, tuple[Callable[[], FightMode], tuple[str, ...]]] = {
    "genso held 1": (_genso_mode, ("attack", "t:オーク1", "w:0", "6,4", "hold")),
    "coc held 1": (coc_board_mode, (*BOB_BURST, "55", "hold")),
    "coc held 5": (coc_board_mode, (*BOB_BURST, "55", "3", "90", "1", "1", "hold")),
    "coc held 20": (lambda: coc_board_mode(tough=True),
                    (*BOB_BURST, "55", "20", *["1"] * 18, "hold")),
}


#: Defence menus whose parry labels run long, by name: the walk to each from the fight's
#: start (coc_board_mode). Deep's Iai parry and Ann's martial arts parry were cut in their
#: middle in the grid at 800x480 and 1024x600 ("日本刀 p…y 居合で受け流し",
#: "マーシャ…ーツで受け流し"), a third of the row left empty beside them (fixprompts73).
DEFENCE_WALKS: dict[str, tuple[str, ...]] = {
    "Deep parries with Iai 居合": ("attack", "t:Deep", "h:plain"),
    "Ann parries with martial arts": ("end?", "end", "end?", "end", "attack", "t:Ann",
                                      "h:plain"),
}


def defence_said() -> tuple[Said, ...]:
    """The defence menus of :data:`DEFENCE_WALKS`, over the coc fight."""
    said = []
    for name, journal in DEFENCE_WALKS.items():
        mode = coc_board_mode()
        for text in journal:
            mode.restore(text)
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk) and "defend" in ask.prompt, name
        assert any(o.choice.startswith("d:parry") for o in ask.options), name
        said.append(Said(f"defence ({name})", ask.prompt, ask.options, over="coc"))
    return tuple(said)


def _held_modes() -> dict[str, FightMode]:
    """Each fight of :data:`HELD_WALKS`, its action held: the question over its Result
    panel, which lists every roll kept as "so far 途中"."""
    modes = {}
    for name, (make, journal) in HELD_WALKS.items():
        mode = make()
        for text in journal:
            mode.restore(text)
        modes[name] = mode
    return modes


def _modes() -> dict[str, Any]:
    """Each view a prompt comes over, by name: a mode whose ``view`` draws it."""
    class Game:
        @staticmethod
        def view(prompt: str, **kwargs: Any) -> View:
            return replace(example_view(), prompt=prompt, **kwargs)

    return {"game": Game(), "dice": DiceTrayMode(("1D6", "2D6", "1D100"), "typed 手入力"),
            "genso": _genso_mode(), "coc": coc_board_mode()}


# ---- the System menu's outcomes -------------------------------------------------------------


class _Player:
    """Presses the answer each menu shown is given (``answers``, the last again and again)."""

    def __init__(self, answers: Sequence[Press]) -> None:
        self.answers = list(answers)
        self.pending: list[Press] = []

    def poll(self) -> list[Press]:
        out, self.pending = self.pending, []
        return out

    def answer(self) -> None:
        self.pending.append(self.answers.pop(0) if len(self.answers) > 1 else self.answers[0])


def _menu_said(act: str, answers: Sequence[Press], command: str = "systemctl poweroff",
               unsaved: str = "", left: str = "", mode: str = "coc",
               starts: str = "") -> tuple[str, dict[str, Any]]:
    """The last prompt (starting ``starts``) the System menu shows with options (and its
    status) when ``act`` runs."""
    player = _Player(answers)
    shown: list[tuple[str, dict[str, Any]]] = []

    def show(prompt: str, **kwargs: Any) -> None:
        shown.append((prompt, kwargs))
        if kwargs.get("options"):
            player.answer()

    ticks = iter(range(0, 10**6, 30))
    menu = SystemMenu(Controls([player]), mode, 0.0, command, sleep=lambda _: None,
                      clock=lambda: float(next(ticks)), service=SERVICE)
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
    make = coc_board_mode if system == "coc" else _genso_mode
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


def tray_said() -> tuple[Said, ...]:
    """The dice tray's keypad for a d100 and for the second D6 of two."""
    return (replace(keypad_said(RollAsk("d100 1D100, roll 1 1投目", 1, 100)), over="dice"),
            replace(keypad_said(RollAsk("2D6, roll 1 1投目", 2, 6), (4,)), over="dice"))


def tray_table_said() -> tuple[Said, ...]:
    """The dice tray's table file statuses (reviewd67 DEFECT 5: "saved table unreadable
    保存した表を読めず: tray.json kept asi…" at every size, "table not saved 表の途中は未保存:
    read-only 読み取り専用; a power cut loses it 電源断で…" in the System menu at 800x480,
    text_scale 1.25), each with every reason it gives: over the tray's menu (an unreadable
    file kept aside), over its System menu and its keypad (the table not saved)."""
    menus: list[ChoiceAsk] = []
    with tempfile.TemporaryDirectory() as folder:  # the tray's menu as a run has it, Tick
        # beside its plain rolls (1D6, 2D6 by default: config_defaults.toml), one to three;
        # the status shares a row with four options, a row of its own with more
        for expressions in (("1D6",), ("1D6", "2D6"), ("1D6", "2D6", "1D100")):
            tray = DiceTrayMode(expressions, "typed 手入力",
                                poisons=PoisonList(Path(folder) / "poisoned.toml"))
            menu = tray.ask()
            assert isinstance(menu, ChoiceAsk)
            menus.append(menu)
    player = _Player((Button.FLEE,))
    shown: list[tuple[str, dict[str, Any]]] = []

    def show(prompt: str, **kwargs: Any) -> None:
        shown.append((prompt, kwargs))
        if kwargs.get("options"):
            player.answer()

    ticks = iter(range(0, 10**6, 30))
    system = SystemMenu(Controls([player]), "dice", 0.0, "systemctl poweroff",
                        sleep=lambda _: None, clock=lambda: float(next(ticks)),
                        service=SERVICE)
    system.table_unsaved = lambda: True
    system.choose_until_done(system.with_left(show), "", new_game=True)
    prompt, kwargs = next((p, k) for p, k in shown if k.get("options"))
    keypad = keypad_said(RollAsk("how many monsters 何体 (1/2D) — モンスター Monster "
                                 "(EV-MON-1), roll 2 2投目", 1, 6))
    said = [Said(f"unreadable ({len(menu.options)} options)", menu.prompt, menu.options,
                 status, over="dice")
            for menu in menus for status in (TABLE_UNREADABLE, TABLE_UNREADABLE_LEFT)]
    for why in (*SHORT_REASONS.values(), UNREADABLE_LEFT_WHY):
        for text in (TABLE_UNWRITTEN, TABLE_STALE):
            status = text.format(why=why)
            said += [Said("System menu", prompt, tuple(kwargs["options"]), status,
                          over="dice"),
                     replace(keypad, name="keypad", status=status, over="dice")]
    return tuple(said)


def tray_poisons_said() -> tuple[Said, ...]:
    """The tray's Poisons menu (POISONS_PROMPT: End block, Rest, Back), reached by its menu's
    Tick, and a roll's outcome menu (Again, Menu), with one to three plain rolls: their
    footer counted the prompt a row too few, as the tray's menu did, leaving boxes 28 px
    tall at 800x480 (reviews68 NIT 2)."""
    said = []
    with tempfile.TemporaryDirectory() as folder:
        for expressions in (("1D6",), ("1D6", "2D6", "1D100")):
            tray = DiceTrayMode(expressions, "typed 手入力",
                                poisons=PoisonList(Path(folder) / "poisoned.toml"))
            menu = tray.ask()
            assert isinstance(menu, ChoiceAsk)
            tray.answer(next(n for n, o in enumerate(menu.options) if o.label.startswith("Tick")))
            poisons = tray.ask()
            assert isinstance(poisons, ChoiceAsk) and poisons.prompt.startswith("Poisons"), poisons
            said.append(Said(f"poisons ({len(expressions)} rolls)", poisons.prompt,
                             poisons.options, over="dice"))
            tray.answer(len(poisons.options) - 1)  # Back
            tray.answer(0)  # the first roll, thrown
            tray.answer(Throw((4,)))
            outcome = tray.ask()
            assert isinstance(outcome, ChoiceAsk), outcome
            said.append(Said(f"outcome ({len(expressions)} rolls)", outcome.prompt,
                             outcome.options, over="dice"))
    return tuple(said)


def held_said() -> tuple[Said, ...]:
    """The question of each held fight (:data:`HELD_WALKS`), over that fight."""
    said = []
    for name, mode in _held_modes().items():
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk) and ask.prompt.startswith(HELD), name
        said.append(Said("held question", ask.prompt, ask.options, over=name))
    return tuple(said)


GROUPS: dict[str, Callable[[], tuple[Said, ...]]] = {
    "system": system_said, "coc": lambda: fight_said("coc"),
    "genso": lambda: fight_said("genso"), "dice": tray_said, "held": held_said,
    # a fight's defence menus with a long parry label (fixprompts73)
    "coc defence": defence_said,
    # the tray's menus of four to six options (one to three plain rolls) under their
    # statuses: their prompts whole over boxes a fingertip tall, their labels whole. Four
    # options read "[A]…振る" beside the status, and the footer, counting the prompt one row
    # wide of its legend, left every tray menu's boxes 28 px tall (fixd67b "Left", screen68)
    "tray table": tray_table_said,
    "tray menu": lambda: tuple(replace(said, name=said.name.replace("unreadable", "menu"),
                                       status="")
                               for said in tray_table_said()
                               if said.status == TABLE_UNREADABLE),
    # the tray's Poisons menu and a roll's outcome menu (reviews68 NIT 2)
    "tray poisons": tray_poisons_said}
#: The statuses drawn whole (test_every_long_status_reads_whole_on_every_view), by group.
STATUS_GROUPS: dict[str, Callable[[], tuple[Said, ...]]] = {"tray table": tray_table_said}


# ---- drawing them ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _portrait_panel(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The portrait panel's window (full screen takes the panel's own size)."""
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", SIZES["720x1280"])
    yield


def views(group: str) -> Iterator[tuple[str, View]]:
    """Each prompt of ``group`` over each view it comes over."""
    modes = {**_modes(), **(_held_modes() if group == "held" else {})}
    for said in {**GROUPS, **STATUS_GROUPS}[group]():
        for over in [said.over] if said.over else list(modes):
            view = modes[over].view(said.prompt, options=said.options, highlight=0,
                                    status=said.status)
            yield (f"{said.name} over {over}: {said.prompt}",
                   replace(view, guidance=said.guidance, system=True))


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("group", list(STATUS_GROUPS))
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_long_status_reads_whole_on_every_view(size: str, scale: float,
                                                     group: str) -> None:
    """Each status of ``group`` is drawn whole, with every reason it gives, on every view
    it comes over: the tray's table file's (reviewd67 DEFECT 5)."""
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        problems = [f"{name}\n    {wrong}" for name, view in views(group)
                    if (wrong := status_unread(screen, view))]
    finally:
        screen.close()
    assert not problems, "\n".join(problems)


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("group", list(GROUPS))
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_long_prompt_reads_whole_on_every_view(size: str, scale: float,
                                                     group: str) -> None:
    """Every row of the prompt is drawn uncut, together the whole prompt, and the option
    boxes stand under its last row, a fingertip tall, their labels whole (coc's "[M] More
    状況… (distance, surprise, dark…)" was cut in its grid at text_scale 1.25, screen68)."""
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        problems = [f"{name}\n    {wrong}" for name, view in views(group)
                    if (wrong := unread(screen, view))]
    finally:
        screen.close()
    assert not problems, "\n".join(problems)


def save_pngs(folder: Path) -> None:
    """Every view of the test saved as a PNG in ``folder`` (to look at), with a list of
    what reads whole and what does not."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for size in SIZES:
        screen_module.LAYOUTS[size] = SIZES[size]
        for scale in SCALES:
            screen = ScreenDisplay(size, text_scale=scale)
            for group in GROUPS:
                for n, (name, view) in enumerate(views(group)):
                    wrong = unread(screen, view)
                    path = folder / f"{group}-{n:02d}-{size}-{scale}.png"
                    screen.save_png(path)
                    lines.append(f"{'CUT' if wrong else 'ok '} {path.name} {name} {wrong}")
            screen.close()
    (folder / "index.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import sys

    save_pngs(Path(sys.argv[1]))
