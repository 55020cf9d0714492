"""Shared by the dice photo tests: the shared real dice photos' folder (PHOTOS), and a photo
with one die's value unclear (DARK_DIE)."""

from __future__ import annotations

from pathlib import Path

PHOTOS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "dice-photos"


DARK_DIE = "nb_IMG_20191209_100023.jpg"  # a 3, 4, 4 and 5: one smoke-black die's value unclear
