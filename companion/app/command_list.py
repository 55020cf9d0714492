"""The ``companion`` commands: the module that registers each, and its line in ``companion
--help``, kept apart from the modules so that the help and a misspelt command list every
command without importing one (all of them took 1.5 s here and 4 to 5 s on a slow Pi core,
OpenCV and gpiozero among them: pi59 F1)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Command:
    """A command's module (its ``register(subparsers)`` adds the parser) and its help line."""

    module: str
    help: str


#: Each command by its name, in the order `companion --help` lists them.
COMMANDS: dict[str, Command] = {
    "calibrate": Command("companion.app.commands.calibrate",
                         "set up a camera, RFID tray or dice reader; check the buttons"),
    "classify": Command("companion.app.commands.classify",
                        "name the tile in pictures, or every slot of a photo of the mat"),
    "config": Command("companion.app.commands.config",
                      "show the effective settings and where each came from"),
    "history": Command("companion.app.commands.history",
                       "list finished games: wins, deepest floor, causes of death"),
    "roll": Command("companion.app.commands.roll",
                    "roll dice in BCDice notation, e.g. 2D6+3>=10, 'x3 2D6', D66, 3B6>=4"),
    "events": Command(
        "companion.app.commands.events",
        "roll a dungeon event table (seed 001 イベント（簡易版）) and its follow-ups"),
    "genso": Command("companion.app.commands.genso",
                     "幻想迷宮冒険譚 Ver2.5 (seed 002): characters, checks, fights, shop"),
    "coc": Command("companion.app.commands.coc",
                   "Call of Cthulhu 6e combat, house rules of seeds 003/004"),
    "rfid": Command("companion.app.commands.rfid",
                    "watch the RFID tray or reader, list ports, simulate a tray"),
    "dice": Command("companion.app.commands.dice",
                    "read real dice in photos (camera dice reader)"),
    "rules": Command("companion.app.commands.rules",
                     "look up the rules tables (for play on paper)"),
    "simulate": Command("companion.app.commands.simulate",
                        "play many headless games and report the survival rate"),
    "replay": Command("companion.app.commands.replay", "re-run a --log and check every event"),
    "play": Command("companion.app.commands.play",
                    "play a game at the table, or headless on the simulated wall"),
}
