"""``companion play``: one game at the table, or headless on the simulated wall.

At the table the tiles come from the camera or the RFID tray (``--input``),
choices from the buttons, the keyboard or taps (``--choices``), and the game is
shown on the screen or in the terminal (``--display``). ``--headless`` is the
same session with the simulated wall, the auto-player and no display; it prints
the game turn by turn.

Every resolved step is saved (``--state``; at the table always, headless when
asked); ``--resume`` carries on exactly where a game stopped, even after a power
cut. ``--log`` appends the events as JSON Lines; a resumed game leaves the same
log as an uninterrupted one.

The modules, each importing only those below it:

- ``options``: the command line (``register``), the config the flags make, and ``run``;
- ``session``: the run played: a table mode, or a JongRogue game built into a session;
- ``table_modes``: the dice tray, a genso fight and a coc fight, and the dice camera;
- ``press_sources``: the buttons (their pins checked), the keyboard, the display's keys;
- ``saves``: the save a run finds, the profile, the history entry, the log's first line;
- ``telling``: what the player is told: messages, the printed events and summary, the
  farewell.
"""

from companion.app.commands.play.options import register, run
from companion.app.commands.play.press_sources import check_pins
from companion.app.commands.play.saves import log_header
from companion.app.commands.play.session import jongrogue_mode, resumed_mode
from companion.app.commands.play.telling import tell

__all__ = ["check_pins", "jongrogue_mode", "log_header", "register", "resumed_mode", "run",
           "tell"]
