"""System `events`: seed 001's 1D6 dungeon event tables and their follow-ups (spec §1).

:mod:`~companion.systems.events.rules` holds the editable rules data and its
Defaults, :mod:`~companion.systems.events.run` walks a table (:func:`run_event`) into
the steps of :mod:`~companion.systems.events.report`, and
:mod:`~companion.systems.events.sword_world` has the Sword World party and checks.
The walk is layered, each layer over the one below: :mod:`~companion.systems.events.walk`
(its core: checks, base power), :mod:`~companion.systems.events.rooms` (monsters, exits,
recovery), :mod:`~companion.systems.events.poison`, :mod:`~companion.systems.events.traps`
and :mod:`~companion.systems.events.doors` (doors and chests, the top).
"""
