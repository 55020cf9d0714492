"""System `events`: seed 001's 1D6 dungeon event tables and their follow-ups (spec §1).

:mod:`~companion.systems.events.rules` holds the editable rules data and its
Defaults, :mod:`~companion.systems.events.tables` walks a table,
:mod:`~companion.systems.events.sword_world` has the Sword World party and checks.
"""
