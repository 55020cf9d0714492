"""What the events system's tests share: a sw-mode party file (tidy72: no test module imports
another)."""

from __future__ import annotations

PARTY_FILE = """
[[member]]
name = "Aki"
thief = 3
hp = 20
max_hp = 25
mp = 5
max_mp = 12
"""
