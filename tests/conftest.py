"""Shared fixtures. Tests reach the outside world only through the stand-ins the brief names."""

from __future__ import annotations

import os

# Every test that touches pygame draws into memory, never onto a screen.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
