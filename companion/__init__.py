"""JongRogue Companion: play JongRogue EZ Plus (雀ローグEZプラス) with a real mahjong set."""

import os

__version__ = "0.1.0"

# pygame greets on import; our commands (screen, tile renders) should not print it.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
