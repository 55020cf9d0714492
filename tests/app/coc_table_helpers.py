"""The coc table's tests share: the scripted 003 fight played from its menus (SCRIPT_003, CHOICES,
play), fight files and makers (new_fight, fight_file, people), a fight played at the table
against the engine (at_the_table, Watcher, offered), pick, which answers a menu by key, the menu
a new table asks after such keys (menu_after), 003's table at its first roll
(coc_mode_at_the_first_roll), and a fight at the turn of one who holds another (holding)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.app.modes.coc import CocFightMode, table_session
from companion.app.modes.fight_file import write_fight_file
from companion.app.session.mode import ChoiceAsk, RollAsk, Show
from companion.dice import ScriptedDice, SimulatedDice
from companion.systems.coc.combat import EndTurn, Fight, Grapple, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.app.table import CutRolls, Player
from tests.systems.coc.scripted_fight_helpers import Faces, entrant, fight_003, fight_004

SEED = 7


def new_fight(profile: str) -> Fight:
    return (fight_003 if profile == "003" else fight_004)()[0]


def fight_file(folder: Path, profile: str) -> Path:
    path = folder / "fight.json"
    write_fight_file(path, new_fight(profile))
    return path


Script = list[tuple[str, str]]  # (the prompt it waits for, the option's key to pick)


#: Profile 003: Ann kicks Cult with MA (a combination roll) and ends her turn; Bob fires a
#: burst at Deep, who dodges (and falls); Cult stabs at Ann, the Keeper takes it back, Cult ends
#: its turn; in round 2 the Keeper closes the table.
SCRIPT_003: Script = [
    ("Ann (3 AP): what", "attack"), ("Attack whom", "t:Cult"), ("How?", "h:ma"),
    ("How does Cult defend", "d:none"),
    ("Ann (2 AP): what", "end?"), ("Ann (2 AP): end the turn", "end"),
    ("Bob (3 AP): what", "attack"), ("Attack whom", "t:Deep"), ("With which weapon", "w:0"),
    ("How?", "h:burst"), ("How does Deep defend", "d:dodge"),
    ("Cult (3 AP): what", "attack"), ("Attack whom", "t:Ann"), ("How?", "h:plain"),
    ("How does Ann defend", "d:dodge"),
    ("Cult (2 AP): what", "keeper"), ("Keeper: which", "undo?"), ("Undo Cult", "undo"),
    ("Cult (3 AP): what", "end?"), ("Cult (3 AP): end the turn", "end"),
    ("Ann (3 AP): what", "keeper"), ("Keeper: which", "close?"),  # Deep is down: round 2
    ("Close the table", "close"),
]


CHOICES = [key for _, key in SCRIPT_003]


def play(folder: Path, choices: list[str], *, resume: bool = False,
         rolls: CutRolls | None = None) -> CocFightMode:
    session = table_session(folder / "fight.json", folder / "table.json", resume=resume,
                            seed=SEED, choices=Player(choices), rolls=rolls)
    try:
        session.run()
    except KeyboardInterrupt:
        pass
    assert isinstance(session.mode, CocFightMode)
    return session.mode


class Watcher(Player):
    """A Player who also keeps every menu it was shown: (prompt, the options' keys)."""

    def __init__(self, script: list[str]) -> None:
        super().__init__(script)
        self.seen: list[tuple[str, list[str]]] = []

    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        self.seen.append((ask.prompt, [o.choice for o in ask.options]))
        return super().next_choice(ask, show)


def at_the_table(folder: Path, make: Callable[[], Fight], before: Sequence[tuple[Any, list[int]]],
                 choices: list[str], actions: Sequence[Any]) -> tuple[CocFightMode, Watcher]:
    """``make()``'s fight, with ``before`` pushed with those faces, played at the table from
    ``choices`` (the companion's seeded dice) until they run out; it must equal the same fight
    with ``actions`` pushed straight into the engine with the same dice."""
    def start() -> Fight:
        fight = make()
        for action, faces in before:
            fight.push(action, Faces(faces))
        return fight

    write_fight_file(folder / "fight.json", start())
    player = Watcher(choices)
    session = table_session(folder / "fight.json", folder / "table.json", resume=False,
                            seed=SEED, choices=player)
    with pytest.raises(KeyboardInterrupt):
        session.run()
    assert not player.script
    expected, dice = start(), SimulatedDice.seeded(SEED)
    for action in actions:
        expected.push(action, dice)
    mode = session.mode
    assert isinstance(mode, CocFightMode)
    assert mode.fight.to_json() == expected.to_json()
    assert mode.fight.state == expected.state
    return mode, player


def offered(player: Watcher, prompt: str) -> list[list[str]]:
    return [keys for shown, keys in player.seen if shown.startswith(prompt)]


def people(profile: Profile, *rows: tuple[Any, ...]) -> Callable[[], Fight]:
    """A fight maker: each row (name, DEX, weapons, side, {skills})."""
    def make() -> Fight:
        rules = load_rules(profile)
        return Fight(rules, [entrant(rules, name, dex, weapons, side, **skills)
                             for name, dex, weapons, side, skills in rows], ScriptedDice([]))
    return make


INV, FOE = Side.INVESTIGATORS, Side.FOES


def pick(mode: CocFightMode, *keys: str) -> ChoiceAsk | RollAsk | None:
    """What is asked after picking ``keys``, one after the other."""
    for key in keys:
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk), ask
        mode.answer([o.choice for o in ask.options].index(key))
    return mode.ask()


def menu_after(fight: Fight, *keys: str) -> ChoiceAsk:
    """The menu a new table of ``fight`` asks after picking ``keys``, one after the other."""
    last = pick(CocFightMode(fight), *keys)
    assert isinstance(last, ChoiceAsk), last
    return last


def coc_mode_at_the_first_roll() -> CocFightMode:
    """Profile 003's fight, Ann's MA kick at Cult chosen: the table asks for its 1D100."""
    mode = CocFightMode(new_fight("003"))
    for key in CHOICES[:4]:
        mode.restore(key)
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and (ask.count, ask.sides) == (1, 100)
    return mode


def holding(profile: Profile) -> Fight:
    """Ann holds Cult (003 by an MA grapple, CO-MA-2; 004 restraining, CO-GRAP-6), her turn."""
    rules = load_rules(profile)
    fight = Fight(rules, [
        entrant(rules, "Ann", 14, ("fist",), Side.INVESTIGATORS, grapple=70, martial_arts=50,
                budo_grappling=60),
        entrant(rules, "Cult", 10, ("fist",), Side.FOES)], ScriptedDice([]))
    # 30 makes the grapple; 90 fails Cult's STR roll to break free (CO-GRAP-2)
    fight.push(Grapple("Ann", "Cult", ma=profile is Profile.P003),
               ScriptedDice([(100, 30), (100, 90)]))
    while fight.state.current is not None and fight.state.current.name != "Ann":
        fight.push(EndTurn(fight.state.current.name), ScriptedDice([(100, 90)] * 3))
    return fight
